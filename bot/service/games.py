"""Live games and their cache: a game is the cached copy while storage
agrees (or nobody else writes), else rebuilt from its newest snapshot and
the log after it; and the load-act-retry loop every change runs under the
game's lock."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from bot.engines import get_engine
from bot.engines.core import CHANCE, GameError, Outcome, resolve_chance
from bot.engines.messages import Msg
from bot.live import GameBroken, LiveGame, ServiceError, StaleBoard
from bot.service.common import OUT_OF_DATE, RETRIES_AFTER_RACE, LostRace, throws
from bot.service.core import Core
from bot.service.writer import Writer
from bot.takeback import LogReplay, MissingState, targets_of
from storage.games import UnreadableRow

log = logging.getLogger(__name__)

_Done = TypeVar("_Done")


class Games:
    """Loads games (cache, or snapshot and log) and runs acts under their locks."""

    def __init__(self, core: Core, writer: Writer) -> None:
        self.core = core
        self.writer = writer

    async def get(self, game_id: int) -> LiveGame:
        """The live game as storage holds it now: the cached copy if no
        other process changed it, else rebuilt from storage."""
        cached = self.core.cache.get(game_id)
        if cached is not None and (not self.core.shared or await self.current(cached)):
            return cached
        async with self.core.lock(game_id):
            return await self.load(game_id)

    async def current(self, game: LiveGame) -> bool:
        """Whether the cached ``game`` is still what storage holds.

        Several processes may share the database (issue 20), and any of them
        may change any game (a DM's menu arrives on shard 0, whatever the
        game's guild): another process's write leaves this cache behind.  One
        read of the game's row and seats together tells (their version,
        status, pause, thread, seats and clocks; not ``updated_at``, which
        moves with every clock and is not kept in the cache).  A cached game
        with the same version but another row or seats (a clock, a seat
        handed over) is brought up to date in place; another version is
        reloaded.

        The read is one statement, so row and seats agree, and it is copied
        in only if no writer of this process changed the game while it was
        read (:meth:`get` asks without the game's lock): a read older than
        that write must not turn the cached game's version back under its
        state (issue 29)."""
        record_then, seats_then = game.record, game.seats
        read = await self.core.store.game_with_seats(game.id)
        if game.record is not record_then or game.seats is not seats_then:
            # Written here meanwhile, under the lock: newer than this read.
            return True
        if read is None:
            self.core.cache.pop(game.id, None)
            return False
        record, seats = read
        if record.version != game.version or record.status != game.record.status:
            return False  # a lobby started with no chance to resolve keeps version 0
        if replace(record, updated_at=0.0) != replace(game.record, updated_at=0.0):
            game.record = record
            if record.outcome is not None:
                game.outcome = Outcome.from_json(record.outcome)
        if seats != game.seats:
            game.seats = seats
        return True

    async def load(self, game_id: int) -> LiveGame:
        cached = self.core.cache.get(game_id)
        if cached is not None:
            if not self.core.shared or await self.current(cached):
                return cached
            # Another process moved the game on: rebuild it from storage.
            self.core.cache.pop(game_id, None)
        read = await self.core.store.game_with_seats(game_id)
        if read is None:
            raise ServiceError(Msg("There is no game #{game}.", game=game_id))
        record, seats = read
        try:
            engine = get_engine(record.engine)
        except GameError as exc:
            said = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            raise GameBroken(
                Msg(
                    "Game #{game} uses a game this bot no longer has: {why}", game=game_id, why=said
                )
            ) from None
        game = LiveGame(record=record, seats=seats, engine=engine, state=None)
        if record.status != "lobby":
            # Replayed up to the version read with the seats, not to
            # whatever the log holds by the time it is read: one consistent
            # game, whose version is its state's (issue 29).
            game.state = await self.rebuild(game)
            if record.outcome is not None:
                game.outcome = Outcome.from_json(record.outcome)
            game.remember(record.version, game.state)
        if (
            record.status == "active"
            and engine.to_move(game.state) == frozenset({CHANCE})
            and not await self.throw_waits(game)
        ):
            # A crash between a move and its chance (or an older version that
            # stored them apart) would leave a game nobody can move: settle
            # and store the chance before anyone acts.  A throw held for a
            # takeback waits for its timer (issue 31).
            state, steps = resolve_chance(engine, game.state, self.core.draw)
            await self.writer.write(game, state=state, steps=steps)
            log.info("game %d: resolved %d pending chance action(s) on load", game_id, len(steps))
        self.core.cache[game_id] = game
        return game

    async def rebuild(self, game: LiveGame) -> Any:
        """Snapshot plus the log after it; replay never rolls again."""
        engine = game.engine
        record = game.record
        if record.engine_revision != engine.revision:
            log.warning(
                "game %d was stored by %s revision %d; replaying with revision %d",
                record.id,
                engine.name,
                record.engine_revision,
                engine.revision,
            )
        try:
            return await self.replay(game, up_to=record.version)
        except (GameError, KeyError, TypeError, ValueError, UnreadableRow) as exc:
            # The message names the game, never the failing action (it may be secret);
            # UnreadableRow: a snapshot or log row that is not UTF-8 (storage/games/errors.py).
            log.error("game %d cannot be rebuilt: %s", record.id, type(exc).__name__)
            raise GameBroken(
                Msg(
                    "Game #{game} could not be restored from the database. "
                    "A moderator can end it with /moderate game end.",
                    game=record.id,
                )
            ) from exc

    async def replay(self, game: LiveGame, up_to: int | None) -> Any:
        """The newest snapshot at or before ``up_to``, plus the log after it.
        Table events pass (the engine never sees them), and a takeback
        returns to the state at its version (``bot.takeback``); every
        takeback stores a snapshot at its own version, so that version is
        normally after the snapshot this starts from."""
        engine = game.engine
        snapshot = await self.core.store.latest_snapshot(game.id, at_most=up_to)
        if snapshot is not None:
            seq, state_json = snapshot
            state = engine.from_json(state_json)
        else:
            seq, state = 0, engine.setup(len(game.seats), game.record.options)
        entries = await self.core.store.log(game.id, after_seq=seq, up_to=up_to)
        replay = LogReplay(engine, seq, state, targets_of(e.action for e in entries))
        for entry in entries:
            try:
                replay.follow(entry.seq, entry.actor, entry.action)
            except MissingState as missing:
                # Back before this snapshot (one that was never stored):
                # that version is rebuilt on its own.
                replay.jump(entry.seq, await self.replay(game, up_to=missing.version))
        return replay.state

    def forget(self, game_id: int) -> None:
        """Drop the cached copy (tests use it to prove storage alone suffices)."""
        self.core.cache.pop(game_id, None)

    async def state_at(self, game: LiveGame, version: int) -> Any | None:
        """The game's state at an earlier version (recent ones are kept)."""
        state = game.recent.get(version)
        if state is not None:
            return state
        try:
            state = await self.replay(game, up_to=version)
        except (GameError, KeyError, TypeError, ValueError):
            return None
        return state

    async def retrying(self, game_id: int, act: Callable[[LiveGame], Awaitable[_Done]]) -> _Done:
        """Under the game's lock: load the game and ``act`` on it.  An act
        that lost the race to another process's write (:class:`LostRace`:
        nothing of it was stored) is tried once more on the game as it is
        now, where it applies, or is refused as it would be anyway (not your
        turn, the game is over); a second loss is "out of date"."""
        async with self.core.lock(game_id):
            for attempt in range(RETRIES_AFTER_RACE + 1):
                game = await self.load(game_id)
                try:
                    return await act(game)
                except LostRace:
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
            raise AssertionError("unreachable")

    async def throw_waits(self, game: LiveGame) -> bool:
        """Whether the chance the game is waiting on is held for a takeback:
        a timer of this version will make it (or the game is paused, and
        its timer is set again when it resumes)."""
        if game.paused:
            return True
        return any(throws(t, game.version) for t in await self.core.timers.of_game(game.id))
