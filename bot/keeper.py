"""The time keeper: what happens when a timer falls due.

The scheduler (:mod:`bot.scheduler`) hands every due timer to
:meth:`Keeper.fire`:

- ``clock``: a seat's time ran out (the service applies the game's timeout
  policy and the new board is delivered), or a vacation ended and the
  seat's clock must run again;
- ``remind``: the players the game waits on are reminded by DM, with a link
  to the board, or by a mention in the game's thread when their DMs are
  closed; then again every 24 hours while they still have not acted.

A reminder is moved on (claimed) before it is sent, so a crash can lose one
reminder but never send one twice.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord

from bot.engines.core import CHANCE, Seat
from bot.outgoing import NO_PINGS, clip, mention, pinging
from bot.service import LiveGame
from bot.timekeeping import REPEAT_REMINDER, format_left, time_left
from storage.database import StorageError
from storage.timekeeping import Timer

if TYPE_CHECKING:
    from bot.client import ChaupalBot

log = logging.getLogger(__name__)


def board_link(game: LiveGame, message: tuple[int, int] | None) -> str:
    """A jump link to the game's newest board (or its channel)."""
    guild = game.record.guild_id or "@me"
    if message is None:
        channel = game.record.thread_id or game.record.channel_id
        return f"https://discord.com/channels/{guild}/{channel}"
    return f"https://discord.com/channels/{guild}/{message[0]}/{message[1]}"


def clock_line(game: LiveGame, now: float, away: Mapping[Seat, float] | None = None) -> str:
    """Each player's time left and who is away, for the text above the board
    ("" when there is nothing to say): ``Clocks: Asha 2d 3h ⏳ · Bhima 1d
    (away, back in 3d)``."""
    if game.state is None or game.is_over:
        return ""
    away = away or {}
    rule = game.table.clock
    parts: list[str] = []
    for s in game.seats:
        if s.controller == "auto":
            continue
        back = away.get(s.seat)
        note = f" (away, back in {format_left(back - now)})" if back is not None else ""
        left = time_left(s, rule, now)
        if left is None:
            if note:
                parts.append(f"{{p{s.seat}}}{note}")
            continue
        running = s.clock_since is not None and not game.paused
        parts.append(f"{{p{s.seat}}} {format_left(left)}{' ⏳' if running else ''}{note}")
    if not parts:
        return ""
    label = "Clocks: " if rule is not None else "Away: "
    return ("Paused. " if game.paused else "") + label + " · ".join(parts)


class Keeper:
    def __init__(self, bot: ChaupalBot) -> None:
        self.bot = bot

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
        if 0 <= timer.seat < len(game.seats):
            await self._dm(
                game,
                timer.seat,
                f"Your time ran out in {game.engine.title} #{game.id}. "
                + (
                    "The automatic player now plays your seat."
                    if game.is_auto(timer.seat)
                    else "The automatic player made that move for you; "
                    "it's back to you at your next turn."
                ),
            )
        await self.bot.delivery.catch_up(game.id)

    async def _remind(self, timer: Timer) -> None:
        service = self.bot.service
        async with service.lock(timer.game_id):
            try:
                game = await service.get(timer.game_id)
            except Exception:
                await service.timers.claim(timer)
                return
            now = service.now()
            if timer.version != game.version or game.is_over or game.paused:
                await service.timers.claim(timer)
                await service.keep_time(game)
                return
            if not await service.timers.reschedule(timer, now + REPEAT_REMINDER):
                return
            away = await service.away_until(game)
            engine = game.engine
            awaited = sorted(
                s
                for s in engine.waiting_on(game.state)
                if 0 <= s < len(game.seats) and not game.is_auto(s) and s not in away
            )
            several = len(engine.to_move(game.state) - {CHANCE}) > 1
        if not awaited:
            return
        board = await self.bot.store.get_message(game.id, "board")
        link = board_link(game, board)
        last_one = several and len(awaited) == 1
        for seat in awaited:
            left = time_left(game.seats[seat], game.table.clock, now)
            text = (
                f"Reminder: {game.engine.title} #{game.id} is waiting for your move"
                + (" — everyone else has chosen and waits for you" if last_one else "")
                + (f"; {format_left(left)} left on your clock" if left is not None else "")
                + f". {link}"
            )
            sent = await self._dm(game, seat, text, nonce=f"r{game.id}.{seat}.{timer.count}")
            if not sent:
                await self._mention(game, seat, text)

    async def _dm(self, game: LiveGame, seat: Seat, text: str, nonce: str | None = None) -> bool:
        user_id = game.user_of(seat)
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

    async def _mention(self, game: LiveGame, seat: Seat, text: str) -> None:
        user_id = game.user_of(seat)
        try:
            await self.bot.delivery.send(
                game,
                content=clip(f"{mention(user_id)} {text}"),
                allowed_mentions=pinging([user_id]),
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a reminder (%s %s)", game.id, exc.status, exc.code)
