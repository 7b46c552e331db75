"""The automatic players: after every change the automatic seats that do not
wait play at once; the others act when their timer falls due, a search
thinking in the ThinkPool, padded so its timing tells nothing."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.engines.core import GameError, Seat, apply_step, resolve_chance
from bot.levels import Level
from bot.live import LiveGame, MoveResult, StaleBoard
from bot.service.common import AUTO_MOVES_LIMIT
from bot.service.core import Core
from bot.service.games import Games
from bot.service.turns import Turns
from bot.service.writer import Writer
from storage.timekeeping import Timer

log = logging.getLogger(__name__)


class Automatic:
    """Plays the automatic seats."""

    def __init__(self, core: Core, turns: Turns, writer: Writer, games: Games) -> None:
        self.core = core
        self.turns = turns
        self.writer = writer
        self.games = games

    async def after_change(self, game: LiveGame, *, moved: Seat | None) -> None:
        """Let the automatic seats that do not wait play, here and now (called
        under the game's lock, after a change was written): a seat that
        passed to the automatic player mid-game, and any with no delay.  A
        lobby's automatic player waits for its ``clock`` timer, which the
        change's own write set (see ``Timeouts.clock_timer``); so does every
        automatic seat the game waits on, so that a process that stops
        before it plays leaves the move to its timer."""
        try:
            if moved is not None or any(s.controller == "auto" for s in game.seats):
                await self.play_automatic(game)
        except StaleBoard:
            # Another process changed the game after this change was stored
            # (issue 20): its own change set the automatic seats, clocks and
            # timers for the game as it made it; nothing here is owed.
            log.info("game %d: changed by another process meanwhile", game.id)

    async def play_automatic(self, game: LiveGame) -> None:
        """Automatic seats that do not wait play at once, until a person or
        a waiting automatic player must act."""
        for _ in range(AUTO_MOVES_LIMIT):
            seats = [
                s for s in self.turns.automatic_turn(game) if not self.turns.waits_to_act(game, s)
            ]
            if not seats:
                return
            await self.auto_move(game, seats[0], by_human=False, settle=False)
        log.error("game %d: automatic seats did not stop playing", game.id)

    async def auto_move(
        self,
        game: LiveGame,
        seat: Seat,
        *,
        by_human: bool,
        settle: bool = True,
        action: Any = None,
        level: Level | None = None,
    ) -> MoveResult:
        """The automatic player moves for ``seat`` (under the game's lock):
        ``action`` when it was chosen already (a search), else its level's
        choice, padded to the level's ``THINK_PAD`` like every automatic
        move, so the board after it comes no sooner for what the seat
        holds.  One write, with the clocks and timers that follow."""
        engine = game.engine
        if action is None:
            action = await self.choose_for(game, seat, level, pad=True)
        engine_before = game.state
        state, step = apply_step(engine, engine_before, seat, action)
        state, chance_steps = resolve_chance(engine, state, self.core.draw)
        await self.writer.write(game, state=state, steps=[step, *chance_steps], moved=seat)
        result = MoveResult(
            game=game,
            before=engine_before,
            steps=(step, *chance_steps),
            actor=seat,
            version=game.version,
        )
        if settle:
            await self.after_change(game, moved=seat)
        return result

    async def choose_for(
        self, game: LiveGame, seat: Seat, level: Level | None = None, *, pad: bool = False
    ) -> Any:
        """The automatic player's action for ``seat`` now (under the game's
        lock): a search runs in the ThinkPool, off the event loop.  With
        ``pad`` (every automatic move) it takes at least the level's
        ``THINK_PAD``, so its timing tells nothing of what the seat holds."""
        seed = int(self.core.draw() * 2**53)
        chosen = self.turns.level_of(game, seat) if level is None else level
        return await self.think(
            game.engine.name, game.state, seat, chosen, seed, pad=pad and game.hides_information
        )

    async def think(
        self, engine_name: str, state: Any, seat: Seat, level: Level, seed: int, *, pad: bool
    ) -> Any:
        """A search in the ThinkPool; with ``pad`` it takes at least the
        level's ``THINK_PAD``, so how long the automatic player took tells
        nobody anything about what it holds."""
        started = time.monotonic()
        action = await self.core.thinker.choose(engine_name, state, seat, level, seed)
        rest = self.core.think_pad.get(level, 0.0) - (time.monotonic() - started) if pad else 0.0
        if rest > 0:
            await asyncio.sleep(rest)
        return action

    async def think_and_move(
        self, game: LiveGame, lease: Timer, state: Any, version: int, level: Level, seed: int
    ) -> MoveResult | None:
        """Search for the seat of ``lease`` (its timer, moved on as a lease),
        then play the move if nothing changed meanwhile."""
        seat = lease.seat
        pad = game.hides_information
        action = await self.think(game.engine.name, state, seat, level, seed, pad=pad)
        async with self.core.lock(game.id):
            try:
                game = await self.games.load(game.id)
            except GameError:
                return None
            # The lease is gone when someone moved meanwhile (the game's
            # timers were set afresh, and this seat thinks again if it is
            # still due) or the bot stopped: nothing is played then.
            if not await self.core.timers.holds(lease):
                return None
            async with self.writer.taking(lease):
                if (
                    game.paused
                    or game.version != version
                    or seat not in self.turns.automatic_turn(game)
                ):
                    await self.writer.keep_time(game, moved=None)
                    return None
                return await self.auto_move(game, seat, by_human=False, action=action)
