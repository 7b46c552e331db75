"""Posting what a move changed: the public board to the channel, each
changed private view to its owner by DM, and the fallback when DMs are closed.

Only public views reach the channel; narration comes from the engine's
``narrate``, which never carries a secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.engines.core import CHANCE, Seat
from bot.service import LiveGame, MoveResult

if TYPE_CHECKING:
    from bot.client import ChaupalBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def fill_seats(text: str, game: LiveGame, *, mentions: bool = False) -> str:
    """Replace ``{p0}``-style seat tags with names (or mentions)."""
    names = {
        f"p{s.seat}": (mention(s.user_id) if mentions else f"**{s.display_name}**")
        for s in game.seats
    }
    try:
        return text.format_map(names)
    except (KeyError, IndexError, ValueError):
        return text


def headline(game: LiveGame, result: MoveResult | None) -> str:
    """The one line under the board: what happened and who acts next."""
    parts: list[str] = []
    if result is not None:
        parts.extend(
            fill_seats(s.narration, game) for s in result.steps if s.seat != CHANCE and s.narration
        )
    said = " ".join(parts)
    parts.append(next_up(game, already_said=said))
    return " ".join(p for p in parts if p)


def next_up(game: LiveGame, *, already_said: str = "") -> str:
    title = f"{game.engine.title} #{game.id}"
    if game.is_over and game.outcome is not None:
        outcome = game.outcome
        places = []
        for rank, group in enumerate(outcome.ranking, start=1):
            who = " & ".join(game.names[s] for s in sorted(group))
            places.append(f"{rank}. {who}")
        result = (
            "Draw."
            if outcome.is_draw
            else f"Winner: {' & '.join(game.names[s] for s in sorted(outcome.winners))}."
        )
        reason = "" if outcome.reason in already_said else f" {outcome.reason}"
        return f"**{title} is over.**{reason} {result} ({'; '.join(places)})"
    if game.state is None:
        return ""
    engine = game.engine
    waiting = engine.waiting_on(game.state)
    if waiting:
        who = ", ".join(mention(game.user_of(s)) for s in sorted(waiting))
        return f"{title}: {who} to play."
    if engine.to_move(game.state) - {CHANCE}:
        return (
            f"{title}: waiting on private decisions; whoever is asked has a DM "
            "(or can use /game hand)."
        )
    return f"{title}."


def prompted_privately(result: MoveResult) -> set[Seat]:
    """Seats that newly must decide where the channel cannot show their
    choices: the decision itself is secret (not in ``waiting_on``), or the
    choices come from a hidden hand (``public_choices`` is False).  They get
    a DM with their menu; the channel mention alone would not do."""
    game = result.game
    if game.state is None or game.is_over:
        return set()
    engine = game.engine
    now = engine.to_move(game.state) - {CHANCE}
    before = engine.to_move(result.before) - {CHANCE} if result.before is not None else frozenset()
    newly = now - before
    if engine.public_choices:
        newly -= engine.waiting_on(game.state)
    return set(newly)


class Delivery:
    def __init__(self, bot: ChaupalBot) -> None:
        self.bot = bot
        self._dm_failed: set[tuple[int, int]] = set()
        self._posted_version: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def channel(self, game: LiveGame) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(game.record.thread_id or game.record.channel_id)

    async def publish(self, result: MoveResult) -> None:
        """Post the new board, then DM every changed private view."""
        game = result.game
        async with self._lock(game.id):
            # Two quick moves may publish out of order: never put an older
            # board over a newer one, but still send this move's DMs (they
            # render the current state).
            if self._posted_version.get(game.id, -1) <= result.version:
                self._posted_version[game.id] = result.version
                await self.post_board(game, headline(game, result))
            targets = set(result.private_changed) | prompted_privately(result)
            if game.is_over:
                targets = set()
            elif result.actor is not None and result.actor in game.engine.waiting_on(game.state):
                # Mid-sequence (a set-up, a double pick): one DM when it is done.
                targets.discard(result.actor)
            for seat in sorted(targets):
                await self.send_private(game, seat)

    async def post_board(self, game: LiveGame, content: str) -> discord.Message | None:
        from bot.ui.items import board_view

        png = await self.public_png(game)
        channel = self.channel(game)
        previous = await self.bot.store.get_message(game.id, "board")
        view = board_view(self.bot, game)
        try:
            message = await channel.send(
                content=content[:2000],
                file=discord.File(
                    io.BytesIO(png), filename=f"chaupal-{game.id}-{game.version}.png"
                ),
                view=view or discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post the board (%s %s)", game.id, exc.status, exc.code)
            return None
        await self.bot.store.set_message(game.id, "board", message.channel.id, message.id)
        if previous is not None and previous[1] != message.id:
            # Old boards keep their image but lose their buttons.
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(previous[1]).edit(view=None)
        return message

    async def send_private(self, game: LiveGame, seat: Seat) -> bool:
        """DM one seat its private view; on refusal tell the channel once."""
        from bot.ui.items import private_view

        user_id = game.user_of(seat)
        if (game.id, user_id) in self._dm_failed:
            return False
        png = await self.private_png(game, seat)
        view = private_view(self.bot, game, seat)
        content = f"Your view of {game.engine.title} #{game.id} in <#{game.record.channel_id}>."
        if view is not None:
            content += " It is your decision: choose below."
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                content=content,
                file=discord.File(io.BytesIO(png), filename=f"chaupal-{game.id}-private.png"),
                view=view or discord.utils.MISSING,
            )
            return True
        except discord.Forbidden as exc:
            self._dm_failed.add((game.id, user_id))
            log.info("game %d: DMs closed for a player (code %s)", game.id, exc.code)
            await self._dm_fallback(game, user_id)
            return False
        except discord.HTTPException as exc:
            log.warning("game %d: DM failed (%s %s)", game.id, exc.status, exc.code)
            await self._dm_fallback(game, user_id)
            return False

    async def _dm_fallback(self, game: LiveGame, user_id: int) -> None:
        try:
            await self.channel(game).send(
                content=(
                    f"{mention(user_id)} I can't DM you (your DMs are closed to me), so I'll keep "
                    f"your private view here instead: use **/game hand** or the "
                    f"**Show mine** button on the board; only you will see it."
                ),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.warning("game %d: could not post the DM fallback notice", game.id)

    async def public_png(self, game: LiveGame) -> bytes:
        view = game.engine.view(game.state, None)
        return await self.bot.renders.png(game.engine.name, "board", view, game.names)

    async def private_png(self, game: LiveGame, seat: Seat) -> bytes:
        view = game.engine.view(game.state, seat)
        return await self.bot.renders.png(game.engine.name, "private", view, game.names)

    async def private_file(self, game: LiveGame, seat: Seat) -> discord.File:
        png = await self.private_png(game, seat)
        return discord.File(io.BytesIO(png), filename=f"chaupal-{game.id}-private.png")

