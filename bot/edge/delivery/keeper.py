"""The time keeper: what happens when a timer falls due.

The scheduler (:mod:`bot.scheduler`) hands every due timer to
:meth:`Keeper.fire`:

- ``clock``: a seat's time ran out (the service applies the game's timeout
  policy and the new board is delivered), or a vacation ended and the
  seat's clock must run again;
- ``remind``: a player who owes a decision is reminded by DM, with a link
  to the board, or by a mention in the game's thread when their DMs are
  closed; the service says when the next one is due (it follows the clock).

A reminder is moved on (claimed) before it is sent, so a crash can lose one
reminder but never send one twice.  The service holds the game's lock while
it decides; sending happens after, without it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.edge.delivery.delivery import Delivery
from bot.edge.ports import Edge
from bot.edge.replies import NO_PINGS, pinging
from bot.engines.core import CHANCE, Seat
from bot.i18n import DEFAULT, t
from bot.live import Reminder
from bot.outgoing import clip, discord_time, game_title, left_text, mention
from bot.service import LiveGame, MoveResult
from bot.timekeeping import MAX_TIMEOUTS_IN_A_ROW
from storage.errors import StorageError
from storage.games import is_automatic_player
from storage.timekeeping import Timer

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


def board_link(game: LiveGame, message: tuple[int, int] | None) -> str:
    """A jump link to the game's newest board (or its channel)."""
    guild = game.record.guild_id or "@me"
    if message is None:
        channel = game.record.thread_id or game.record.channel_id
        return f"https://discord.com/channels/{guild}/{channel}"
    return f"https://discord.com/channels/{guild}/{message[0]}/{message[1]}"


def everyone_else_has_chosen(reminder: Reminder) -> bool:
    """Whether the reminded seat is the only one a simultaneous phase still
    waits for.  ``Reminder.last_one`` counts the people who owe a decision;
    an automatic seat may still be to choose (its moment to act not come,
    its search under way), and then not everyone else has chosen."""
    game = reminder.game
    if not reminder.last_one or game.state is None:
        return False
    return game.engine.waiting_on(game.state) - {CHANCE} == {reminder.seat}


def timeout_news(
    result: MoveResult, seat: Seat, at: float | None = None, lang: str = DEFAULT
) -> str:
    """What the player whose time ran out is told by DM: what happened to
    them, and what it means for their place; ``at``: when their time ran out
    (the DM may come later, when the bot was down then); in ``lang``, the
    player's language."""
    game = result.game
    where = game_title(game, lang)
    if at is not None:
        where += f" ({discord_time(at, 'f')})"
    streak = game.seats[seat].timeouts if 0 <= seat < len(game.seats) else 0
    warning = " " + t(
        lang,
        "After {most} timeouts in a row your seat is forfeited; this was {streak}.",
        most=MAX_TIMEOUTS_IN_A_ROW,
        streak=streak,
    )
    if result.timeout == "lost":
        return t(lang, "Your time ran out in {where}, so you lost the game on time.", where=where)
    if result.timeout == "seat":
        return t(
            lang,
            "Your time ran out in {where}: the automatic player plays your seat from now "
            "on, and you rank last.",
            where=where,
        )
    if result.timeout == "skip":
        return t(lang, "Your time ran out in {where}, so you passed.", where=where) + warning
    if result.timeout == "private":
        move = result.steps[0].text if result.steps else t(lang, "a move")
        return t(
            lang,
            "Your time ran out in {where}: the automatic player decided for you "
            "({move}). Nobody else was told.",
            where=where,
            move=move,
        )
    # The move may leave the seat the next decision (a second die, a banked
    # throw, a second pick): a new wait, announced on the board as any is.
    again = (
        0 <= seat < len(game.seats) and not game.is_over and seat in game.engine.to_move(game.state)
    )
    if again:
        said = t(
            lang,
            "Your time ran out in {where}: the automatic player made that move for you; "
            "the game now waits for your next decision.",
            where=where,
        )
    else:
        said = t(
            lang,
            "Your time ran out in {where}: the automatic player made that move for you; "
            "it's back to you at your next turn.",
            where=where,
        )
    return said + warning


def reminder_text(reminder: Reminder, board: tuple[int, int] | None, lang: str = DEFAULT) -> str:
    """A reminder, in ``lang``.  The time left is for a glance (a
    notification shows the text as it is); the timestamps show the deadline
    in the reader's own zone."""
    game = reminder.game
    title = game_title(game, lang)
    deadline = reminder.deadline
    clock = ""
    if reminder.left is not None and deadline is not None:
        clock = t(
            lang,
            "; {left} left on your clock, which runs out {when} ({date})",
            left=left_text(reminder.left, lang),
            when=discord_time(deadline),
            date=discord_time(deadline, "f"),
        )
    link = board_link(game, board)
    if everyone_else_has_chosen(reminder):
        return t(
            lang,
            "Reminder: {title} is waiting for your move — everyone else has chosen and "
            "waits for you{clock}. {link}",
            title=title,
            clock=clock,
            link=link,
        )
    return t(
        lang,
        "Reminder: {title} is waiting for your move{clock}. {link}",
        title=title,
        clock=clock,
        link=link,
    )


class Keeper:
    def __init__(self, bot: Edge, delivery: Delivery) -> None:
        self.bot = bot
        self.delivery = delivery

    async def fire(self, timer: Timer) -> None:
        if timer.kind == "clock":
            await self._clock(timer)
        else:
            await self._remind(timer)

    async def _clock(self, timer: Timer) -> None:
        result = await self.bot.service.clock_timer(timer)
        if result is None:
            return
        game = result.game
        if 0 <= timer.seat < len(game.seats) and result.timeout is not None:
            # The news is the player's own, also when the seat has just passed
            # to the automatic player (a forfeit): what happened to them, which
            # the channel is told too.  Only a private timeout names a move, and
            # its player still holds the seat.
            user_id = game.user_of(timer.seat)
            lang = await self._lang(user_id)
            news = timeout_news(result, timer.seat, timer.due, lang)
            await self._dm(game, user_id, news)
        await self.delivery.catch_up(game.id)

    async def _remind(self, timer: Timer) -> None:
        reminder = await self.bot.service.take_reminder(timer)
        if reminder is None:
            return
        game, seat = reminder.game, reminder.seat
        board = await self.bot.store.get_message(game.id, "board")
        # Whoever holds the seat now: a reminder says the seat owes a
        # decision (a private one tells who was asked), so never to a player
        # who left it (bot.tenure).
        user_id = game.holder(seat)
        if user_id is None:
            return
        text = reminder_text(reminder, board, await self._lang(user_id))
        sent = await self._dm(game, user_id, text, nonce=f"r{game.id}.{seat}.{reminder.count}")
        # A private decision is never reminded in the channel: the mention
        # would tell everyone who was asked (in the channel's language).
        if not sent and not reminder.private:
            channel = await self.delivery.channel_lang(game)
            await self._mention(game, user_id, reminder_text(reminder, board, channel))

    async def _lang(self, user_id: int) -> str:
        """The language of a player's DMs (issue 33)."""
        if is_automatic_player(user_id):
            return DEFAULT
        return await self.bot.languages.for_member(user_id)

    async def _dm(self, game: LiveGame, user_id: int, text: str, nonce: str | None = None) -> bool:
        if is_automatic_player(user_id):
            return True  # an automatic player: nobody to tell, and no mention instead
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            if nonce:
                # A reminder resent after a crash mid-send is dropped by Discord.
                await dm.send(content=clip(text), allowed_mentions=NO_PINGS, nonce=nonce)
            else:
                await dm.send(content=clip(text), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("game %d: reminder DM refused (%s %s)", game.id, exc.status, exc.code)
            return False
        except StorageError:
            return False
        return True

    async def _mention(self, game: LiveGame, user_id: int, text: str) -> None:
        if is_automatic_player(user_id):
            return
        try:
            await self.delivery.send(
                game,
                content=clip(f"{mention(user_id)} {text}"),
                allowed_mentions=pinging([user_id]),
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a reminder (%s %s)", game.id, exc.status, exc.code)
