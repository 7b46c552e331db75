"""Issue 19: a lobby's automatic player searches outside the game's lock.

Its timer is kept as a lease while it thinks, so a move made meanwhile
voids the thought (nothing stale is played, and the seat thinks again), and
a bot stopped mid-thought thinks again after a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import Seat, progress_seat
from bot.players import Level
from bot.service import AUTO_DELAY, THINK_LEASE, GameService, Player
from bot.thinking import ThinkPool
from storage.database import Database
from storage.games import GameStore
from storage.opening import open_database
from tests.fakes import FakeClock, Seeded

ASHA = Player(100, "Asha")


class HeldThinking(ThinkPool):
    """A search that waits until the test lets it answer."""

    def __init__(self) -> None:
        super().__init__(0, scale=0.05)
        self.started = asyncio.Event()
        self.release = asyncio.Event()

    async def choose(
        self, engine_name: str, state: Any, seat: Seat, level: Level, seed: int
    ) -> Any:
        self.started.set()
        await self.release.wait()
        return await super().choose(engine_name, state, seat, level, seed)


async def service_at(
    path: Path, clock: FakeClock, thinker: ThinkPool
) -> tuple[Database, GameService]:
    db = await open_database(path)
    service = GameService(
        GameStore(db), draw=Seeded(3), clock=clock, snapshot_every=5, thinker=thinker, think_pad={}
    )
    return db, service


async def sangram_against_a_bot(service: GameService) -> int:
    """Sangram for Asha and one automatic player: both commit at once (R4)."""
    game = await service.new_game(
        "sangram", creator=ASHA, guild_id=1, channel_id=10, options={}, automatic_players=1
    )
    await service.start(game.id, ASHA.user_id, moderator=False)
    return game.id


async def bot_timer(service: GameService, game_id: int) -> Any:
    timers = [t for t in await service.timers.of_game(game_id) if t.kind == "clock" and t.seat == 1]
    assert len(timers) == 1, timers
    return timers[0]


async def test_a_move_made_while_the_bot_thinks_voids_its_thought(tmp_path: Path) -> None:
    clock, thinker = FakeClock(), HeldThinking()
    db, service = await service_at(tmp_path / "race.db", clock, thinker)
    try:
        game_id = await sangram_against_a_bot(service)
        clock.now += AUTO_DELAY
        timer = await bot_timer(service, game_id)
        thinking = asyncio.create_task(service.clock_timer(timer))
        await thinker.started.wait()
        # The game's lock is free while the bot thinks: Asha commits.
        game = await service.get(game_id)
        before = game.version
        text = service.legal_texts(game, 0)[0]
        await asyncio.wait_for(service.play(game_id, ASHA.user_id, text), timeout=5)
        assert (await service.get(game_id)).version == before + 1
        thinker.release.set()
        assert await asyncio.wait_for(thinking, timeout=30) is None  # nothing stale played
        game = await service.get(game_id)
        assert game.version == before + 1
        # The bot still owes its commit, and is due to think again.
        assert 1 in game.engine.waiting_on(game.state)
        again = await bot_timer(service, game_id)
        assert again.version == game.version and again.due > timer.due
    finally:
        await db.close()


async def test_a_bot_stopped_mid_thought_thinks_again_after_a_restart(tmp_path: Path) -> None:
    clock, thinker = FakeClock(), HeldThinking()
    path = tmp_path / "restart.db"
    db, service = await service_at(path, clock, thinker)
    game_id = await sangram_against_a_bot(service)
    clock.now += AUTO_DELAY
    timer = await bot_timer(service, game_id)
    thinking = asyncio.create_task(service.clock_timer(timer))
    await thinker.started.wait()
    lease = await bot_timer(service, game_id)
    assert lease.due == clock.now + THINK_LEASE  # kept as a lease, not claimed
    thinking.cancel()  # the bot stops mid-thought
    await asyncio.gather(thinking, return_exceptions=True)
    await db.close()
    db, service = await service_at(path, clock, ThinkPool(0, scale=0.05))
    try:
        version = (await service.get(game_id)).version
        clock.now += THINK_LEASE
        (due,) = [t for t in await service.timers.due(clock.now) if t.game_id == game_id]
        result = await service.clock_timer(due)
        assert result is not None and result.actor == 1
        game = await service.get(game_id)
        assert game.version > version and 1 not in game.engine.waiting_on(game.state)
    finally:
        await db.close()


@pytest.mark.parametrize("engine", ["mahabharata", "chaturaji"])
async def test_a_timeouts_search_takes_the_levels_constant_time(
    tmp_path: Path, monkeypatch: Any, engine: str
) -> None:
    """A timeout's move is searched at the substitute level and padded to
    the level's ``THINK_PAD``: how long it took cannot tell anyone what the
    seat holds (Mahabharata's screens).  Where nothing is hidden
    (Chaturaji), nothing is padded (issue 30).  (The wait is recorded, not
    slept: tests take no time.)"""
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("bot.service.automatic.asyncio.sleep", record)
    clock = FakeClock()
    db = await open_database(tmp_path / "pad.db")
    service = GameService(
        GameStore(db),
        draw=Seeded(3),
        clock=clock,
        thinker=ThinkPool(0, scale=0.05),
        think_pad={"medium": 30.0},
    )
    try:
        bhima = Player(101, "Bhima")
        game = await service.new_game(
            engine,
            creator=ASHA,
            guild_id=1,
            channel_id=10,
            options={"clock": "1h", "timeout": "substitute", "reminder": "off"},
        )
        await service.join(game.id, bhima)
        await service.start(game.id, ASHA.user_id, moderator=False)
        before = (await service.get(game.id)).version
        clock.now += 3600 + 1
        (due,) = [t for t in await service.timers.due(clock.now) if t.kind == "clock"]
        result = await service.clock_timer(due)
        assert result is not None and result.timeout == "substitute"
        assert (await service.get(game.id)).version > before
        assert service.thinker.thought["medium"] == 1
        if engine == "chaturaji":
            assert waits == [], waits
        else:
            assert len(waits) == 1 and 29.0 < waits[0] <= 30.0, waits
    finally:
        await db.close()


async def test_a_left_seats_search_takes_the_levels_constant_time(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A seat a person left is searched at the substitute level and padded
    like a timeout's move: the board after the next person's move comes
    no sooner for what the automatic seat holds."""
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("bot.service.automatic.asyncio.sleep", record)
    db = await open_database(tmp_path / "left.db")
    service = GameService(
        GameStore(db),
        draw=Seeded(4),
        clock=FakeClock(),
        thinker=ThinkPool(0, scale=0.05),
        think_pad={"medium": 30.0},
    )
    try:
        players = [ASHA, Player(101, "Bhima"), Player(102, "Chitra")]
        game = await service.new_game("sangram", creator=ASHA, guild_id=1, channel_id=10)
        for p in players[1:]:
            await service.join(game.id, p)
        await service.start(game.id, ASHA.user_id, moderator=False)
        await service.resign(game.id, players[1].user_id)
        searched = 0
        for _ in range(60):
            game = await service.get(game.id)
            if game.is_over or service.thinker.thought["medium"]:
                searched = service.thinker.thought["medium"]
                break
            seat = progress_seat(game.engine, game.state)
            await service.play(game.id, game.user_of(seat), service.legal_texts(game, seat)[0])
        assert searched >= 1
        assert len(waits) == searched and all(29.0 < w <= 30.0 for w in waits), waits
    finally:
        await db.close()
