"""Timers, settings and vacations (migration 0003), and the scheduler that
fires the timers: in order, once each, across restarts, driven by a fake
clock.  On both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.scheduler import Scheduler
from storage.database import Database
from storage.games import GameStore
from storage.opening import open_database
from storage.timekeeping import SettingsStore, Timer, TimerStore, Vacation
from tests.fakes import FakeClock


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await open_database(database_target)
    try:
        yield database
    finally:
        await database.close()


async def new_game(db: Database, channel: int = 1) -> int:
    record = await GameStore(db).create_game(
        engine="artaban",
        engine_revision=1,
        options={},
        guild_id=9,
        channel_id=channel,
        thread_id=None,
        creator_id=5,
        now=0.0,
        table_options={"clock": "1d"},
    )
    assert record.table_options == {"clock": "1d"} and record.paused_at is None
    return record.id


async def test_timers_are_replaced_per_game_and_read_earliest_first(db: Database) -> None:
    timers = TimerStore(db)
    a, b = await new_game(db), await new_game(db)
    await timers.replace(a, [Timer(50.0, a, "remind", -1, 3), Timer(20.0, a, "clock", 1, 3)])
    await timers.replace(b, [Timer(30.0, b, "clock", 0, 7)])
    assert await timers.earliest() == Timer(20.0, a, "clock", 1, 3)
    assert [t.due for t in await timers.due(40.0)] == [20.0, 30.0]
    await timers.replace(a, [])
    assert await timers.of_game(a) == [] and await timers.count() == 1
    with pytest.raises(ValueError):
        await timers.replace(a, [Timer(1.0, b, "clock", 0, 1)])


async def test_a_timer_is_claimed_once_and_only_while_unchanged(db: Database) -> None:
    timers = TimerStore(db)
    game = await new_game(db)
    timer = Timer(10.0, game, "remind", -1, 4)
    await timers.replace(game, [timer])
    assert await timers.reschedule(timer, 20.0)
    assert not await timers.claim(timer)  # it moved: the old reading is void
    moved = Timer(20.0, game, "remind", -1, 4, count=1)
    assert await timers.of_game(game) == [moved]
    assert await timers.claim(moved)
    assert not await timers.claim(moved)
    assert await timers.count() == 0


async def test_timers_go_with_their_game(db: Database) -> None:
    timers = TimerStore(db)
    game = await new_game(db)
    await timers.replace(game, [Timer(10.0, game, "clock", 0, 1)])
    await GameStore(db).delete_game(game)
    assert await timers.count() == 0


async def test_settings_default_to_empty_and_keep_each_key(db: Database) -> None:
    settings = SettingsStore(db)
    assert await settings.get(9) == {}
    assert await settings.set(9, "threads", False, now=1.0) == {"threads": False}
    assert await settings.set(9, "reminder_hours", 6, now=2.0) == {
        "threads": False,
        "reminder_hours": 6,
    }
    assert await settings.set(9, "threads", None, now=3.0) == {"reminder_hours": 6}
    assert await settings.get(8) == {}


async def test_vacations_end_early(db: Database) -> None:
    timers = TimerStore(db)
    await timers.add_vacation(Vacation(7, 100.0, 500.0))
    assert await timers.vacations([7], since=200.0) == [Vacation(7, 100.0, 500.0)]
    assert await timers.end_vacation(7, now=300.0)
    assert await timers.vacations([7], since=300.0) == []
    assert not await timers.end_vacation(7, now=301.0)


# -- the scheduler --------------------------------------------------------------


class Recorder:
    """A handler that claims each timer and records the ones it won."""

    def __init__(self, timers: TimerStore) -> None:
        self.timers = timers
        self.started: list[Timer] = []
        """Timers in the order their jobs began (games fire side by side,
        so they may finish in another order)."""
        self.acted: list[Timer] = []

    async def __call__(self, timer: Timer) -> None:
        self.started.append(timer)
        if await self.timers.claim(timer):
            self.acted.append(timer)


async def test_overdue_timers_fire_once_each_in_order_after_a_restart(
    database_target: str,
) -> None:
    path = database_target
    clock = FakeClock(1000.0)
    db = await open_database(path)
    games = [await new_game(db) for _ in range(3)]
    timers = TimerStore(db)
    await timers.replace(games[0], [Timer(1300.0, games[0], "clock", 1, 2)])
    await timers.replace(games[1], [Timer(1100.0, games[1], "remind", -1, 5)])
    await timers.replace(games[2], [Timer(1200.0, games[2], "clock", 0, 9)])
    await db.close()
    # The bot was down while all three fell due; it starts again later.
    clock.now = 5000.0
    db = await open_database(path)
    try:
        timers = TimerStore(db)
        recorder = Recorder(timers)
        scheduler = Scheduler(timers, recorder, clock)
        assert await scheduler.run_due() == 3
        assert [t.game_id for t in recorder.started] == [games[1], games[2], games[0]]
        assert sorted(recorder.acted) == sorted(recorder.started)
        # A second pass (or a second process) finds nothing to do.
        assert await scheduler.run_due() == 0
        assert await Scheduler(timers, recorder, clock).run_due() == 0
        assert len(recorder.acted) == 3
    finally:
        await db.close()


async def test_one_games_slow_job_does_not_hold_up_another_games_deadline(
    db: Database,
) -> None:
    """Two games' clocks fall due together; the first game's job waits (its
    board being drawn and posted) until the second game's has run.  Fired
    one after another, the second waited for the first: the load test's
    deadlines fired minutes late behind slow jobs."""
    clock = FakeClock(1000.0)
    games = [await new_game(db) for _ in range(2)]
    timers = TimerStore(db)
    for n, game in enumerate(games):
        await timers.replace(game, [Timer(900.0 + n, game, "clock", 0, 1)])
    second_ran = asyncio.Event()
    waited: list[bool] = []

    async def fire(timer: Timer) -> None:
        assert await timers.claim(timer)
        if timer.game_id == games[0]:
            try:
                async with asyncio.timeout(30):
                    await second_ran.wait()
                waited.append(True)
            except TimeoutError:
                waited.append(False)
        else:
            second_ran.set()

    assert await Scheduler(timers, fire, clock).run_due() == 2
    assert waited == [True]


async def test_the_scheduler_sleeps_until_the_earliest_and_wakes_when_rearmed(
    db: Database,
) -> None:
    clock = FakeClock(0.0)
    timers = TimerStore(db)
    recorder = Recorder(timers)
    scheduler = Scheduler(timers, recorder, clock)
    game = await new_game(db)
    scheduler.start()
    try:
        await asyncio.sleep(0.05)
        await timers.replace(game, [Timer(3600.0, game, "remind", -1, 1)])
        scheduler.rearm()
        await asyncio.sleep(0.05)
        assert recorder.acted == []  # not due yet: it sleeps
        clock.now = 3600.0
        scheduler.rearm()
        for _ in range(50):
            await asyncio.sleep(0.01)
            if recorder.acted:
                break
        assert [t.due for t in recorder.acted] == [3600.0]
    finally:
        await scheduler.close()


async def test_a_failing_or_idle_handler_never_spins(db: Database) -> None:
    clock = FakeClock(100.0)
    timers = TimerStore(db)
    game = await new_game(db)
    await timers.replace(game, [Timer(50.0, game, "clock", 0, 1)])
    calls: list[Timer] = []

    async def broken(timer: Timer) -> None:
        calls.append(timer)
        raise RuntimeError("boom")

    assert await Scheduler(timers, broken, clock).run_due() == 1
    (later,) = await timers.of_game(game)
    assert later.due > clock.now  # retried later, not now

    async def idle(timer: Timer) -> None:
        calls.append(timer)

    clock.now = later.due
    assert await Scheduler(timers, idle, clock).run_due() == 1
    (again,) = await timers.of_game(game)
    assert again.due > clock.now and len(calls) == 2
