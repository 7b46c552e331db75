"""Several bot processes on one database (issue 20, phase 2).

Two service (or bot) stacks in one test process, each with its own
``Database`` (its own connections, pool and locks) and its own process id,
stand for two processes: on PostgreSQL, and on one SQLite file where two
connections are meaningful too.  Time comes from fake clocks.

What must hold: any process applies a move to any game (a stale cache
reloads, a write that lost the race is tried once more, nothing is applied
twice); every due timer and round deadline fires once; a process that died
holding claims loses them when their leases run out, and another takes the
work over; a game's delivery posts each board once; the tournament director
pairs a round once."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import scheduler as scheduler_module
from bot.claims import LEASE
from bot.config import ConfigError, load_settings
from bot.director import TournamentDirector
from bot.edge.delivery import delivery as delivery_module
from bot.edge.delivery.delivery import Delivery
from bot.engines.core import CHANCE, GameError, progress_seat
from bot.scheduler import Scheduler
from bot.service import GameService, MoveResult, Player
from storage.database import Database
from storage.games import GameStore
from storage.opening import open_database
from storage.ratings import RatingStore
from storage.timekeeping import Timer, TimerStore
from storage.tournaments import TournamentStore
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, start
from tests.discord_harness import FakeDiscord
from tests.fakes import Seeded, quick_thinking

PLAYERS = [Player(300 + i, f"p{i}") for i in range(4)]


class Clock:
    """One fake clock for every process of a test (the same wall time)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Process:
    """One bot process's storage and service."""

    db: Database
    service: GameService
    name: str


async def process(target: str, clock: Clock, name: str, seed: int = 1) -> Process:
    db = await open_database(target)
    service = GameService(
        GameStore(db),
        draw=Seeded(seed),
        clock=clock,
        snapshot_every=5,
        thinker=quick_thinking(),
        think_pad={},
        owner=name,
        shared=True,  # two processes on one SQLite file stand for PostgreSQL's here
    )
    return Process(db, service, name)


@pytest.fixture
async def two(database_target: str) -> AsyncIterator[tuple[Process, Process, Clock]]:
    clock = Clock()
    a = await process(database_target, clock, "a:1:aa")
    b = await process(database_target, clock, "b:2:bb", seed=2)
    yield a, b, clock
    await a.db.close()
    await b.db.close()


async def new_game(svc: GameService, engine: str = "kauda_baji", players: int = 2) -> int:
    game = await svc.new_game(
        engine, creator=PLAYERS[0], guild_id=1, channel_id=10, options={"clock": "1d"}
    )
    for p in PLAYERS[1:players]:
        await svc.join(game.id, p)
    await svc.start(game.id, PLAYERS[0].user_id, moderator=False)
    return game.id


async def next_move(svc: GameService, game_id: int, rng: random.Random) -> tuple[int, str]:
    game = await svc.get(game_id)
    seat = progress_seat(game.engine, game.state)
    return game.user_of(seat), rng.choice(svc.legal_texts(game, seat))


async def assert_log_whole(svc: GameService, game_id: int) -> None:
    """The log is 1..version without a gap or a repeat, and a fresh rebuild
    from storage alone is the cached game."""
    game = await svc.get(game_id)
    seqs = [e.seq for e in await svc.store.log(game_id)]
    assert seqs == list(range(1, game.version + 1))
    svc.forget(game_id)
    rebuilt = await svc.get(game_id)
    assert rebuilt.state == game.state and rebuilt.version == game.version


# -- moves through either process -------------------------------------------------------


async def test_moves_through_both_processes_in_turn_apply_to_the_fresh_game(
    two: tuple[Process, Process, Clock],
) -> None:
    """Each process holds the game in its cache; every move goes through the
    process that did not make the last one, so its cache is always behind:
    it reloads and applies the move instead of refusing it as stale."""
    a, b, _ = two
    game_id = await new_game(a.service)
    await b.service.get(game_id)  # cached in both
    rng = random.Random(5)
    played = 0
    for turn in range(30):
        mover = (a, b)[turn % 2]
        game = await mover.service.get(game_id)
        if game.is_over:
            break
        user, text = await next_move(mover.service, game_id, rng)
        result = await mover.service.play(game_id, user, text)
        assert result.version == (await mover.service.store.get_game(game_id)).version  # type: ignore[union-attr]
        played += 1
    assert played >= 10
    for p in (a, b):
        await assert_log_whole(p.service, game_id)
    assert (await a.service.get(game_id)).state == (await b.service.get(game_id)).state


async def test_a_board_button_drawn_by_the_other_process_is_current_here(
    two: tuple[Process, Process, Clock],
) -> None:
    """A board posted by process B (at the version B made) is clicked and the
    click reaches process A, whose cache is older: A reloads, and the click
    is current, not "out of date"."""
    a, b, _ = two
    game_id = await new_game(a.service)
    rng = random.Random(6)
    user, text = await next_move(b.service, game_id, rng)
    await b.service.play(game_id, user, text)  # A's cached game is behind now
    game = await b.service.get(game_id)
    seat = progress_seat(game.engine, game.state)
    result = await a.service.play_path(
        game_id, game.user_of(seat), (0,), expected_version=game.version
    )
    assert result.version >= game.version
    # A button of an older board whose decision is gone is still refused.
    with pytest.raises(GameError, match="out of date"):
        await b.service.play_path(game_id, game.user_of(seat), (0,), expected_version=0)


async def test_concurrent_moves_on_one_game_apply_once(
    two: tuple[Process, Process, Clock],
) -> None:
    """The same player's move sent through both processes at once: exactly
    one applies; the other, reloaded, is refused (it is no longer that
    player's turn) -- never applied twice, no entry lost or doubled."""
    a, b, _ = two
    rng = random.Random(7)
    for round_ in range(6):
        game_id = await new_game(a.service)
        await b.service.get(game_id)
        for _ in range(round_):  # some games a few moves in
            user, text = await next_move(a.service, game_id, rng)
            await a.service.play(game_id, user, text)
        before = (await a.service.get(game_id)).version
        user, text = await next_move(a.service, game_id, rng)
        outcomes = await asyncio.gather(
            a.service.play(game_id, user, text),
            b.service.play(game_id, user, text),
            return_exceptions=True,
        )
        applied = [o for o in outcomes if isinstance(o, MoveResult)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(applied) == 1, outcomes
        assert len(refused) == 1 and isinstance(refused[0], GameError), refused
        entries = await a.service.store.log(game_id, after_seq=before)
        moves = [e for e in entries if e.actor != CHANCE]
        assert [e.action for e in moves] == [applied[0].steps[0].text]
        for p in (a, b):
            await assert_log_whole(p.service, game_id)


async def test_a_move_that_loses_the_race_is_tried_again_on_the_fresh_game(
    two: tuple[Process, Process, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process B looks at storage, then A writes before B does (a pause and a
    resume: two log entries, the same position).  B's write fails its
    version guard, so B loads the game again and applies the move once."""
    a, b, _ = two
    game_id = await new_game(a.service)
    await b.service.get(game_id)
    user, text = await next_move(b.service, game_id, random.Random(8))
    await a.service.pause(game_id, 1, moderator=True)
    await a.service.resume(game_id, 1, moderator=True)
    looks = 0
    current = b.service._current

    async def stale_once(game: Any) -> bool:
        nonlocal looks
        looks += 1
        return True if looks == 1 else await current(game)  # A wrote after B looked

    rebuilt = 0
    rebuild = b.service._rebuild

    async def counted(game: Any) -> Any:
        nonlocal rebuilt
        rebuilt += 1
        return await rebuild(game)

    monkeypatch.setattr(b.service, "_current", stale_once)
    monkeypatch.setattr(b.service, "_rebuild", counted)
    result = await b.service.play(game_id, user, text)
    assert looks == 1 and rebuilt == 1  # the lost write, then one reload from storage
    actions = [e.action for e in await a.service.store.log(game_id)]
    at = len(actions) - len(result.steps)
    assert actions[at - 2 : at + 1] == ["@pause", "@resume", text]
    assert actions.count(text) == 1 or text.startswith("roll")
    for p in (a, b):
        await assert_log_whole(p.service, game_id)


# -- timers ------------------------------------------------------------------------------


async def due_timers(db: Database, count: int, due: float) -> list[Timer]:
    """``count`` timers of as many lobbies, due at ``due`` and after."""
    store = GameStore(db)
    timers = []
    for n in range(count):
        record = await store.create_game(
            engine="artaban",
            engine_revision=1,
            options={},
            guild_id=1,
            channel_id=10,
            thread_id=None,
            creator_id=1,
            now=0.0,
        )
        timer = Timer(due + n, record.id, "clock", 0, 0)
        await TimerStore(db).replace(record.id, [timer])
        timers.append(timer)
    return timers


async def test_two_schedulers_fire_every_due_timer_once(
    two: tuple[Process, Process, Clock],
) -> None:
    """Both processes start with 60 overdue timers and race through them:
    each fires exactly once, in one process or the other."""
    a, b, clock = two
    timers = await due_timers(a.db, 60, clock.now - 500)
    fired: list[tuple[str, Timer]] = []

    def handler(p: Process) -> Callable[[Timer], Awaitable[None]]:
        async def fire(timer: Timer) -> None:
            await asyncio.sleep(0)  # let the other process run in between
            if await p.service.timers.holds(timer):
                fired.append((p.name, timer))
                assert await p.service.timers.claim(timer)

        return fire

    schedulers = [Scheduler(p.service.timers, handler(p), clock) for p in (a, b)]
    counts = await asyncio.gather(*(s.run_due() for s in schedulers))
    assert sorted(t for _, t in fired) == timers  # each once
    assert sum(counts) == len(timers)
    assert await a.service.timers.count() == 0


async def test_a_backlog_is_shared_a_process_claims_one_small_batch_at_a_time(
    two: tuple[Process, Process, Clock],
) -> None:
    """Process A starts on a backlog of 60 overdue timers and is slow; B
    looks while A fires its first.  B finds the timers A has not claimed
    and fires them (the load test: with 500 claimed at once, B found
    nothing, and A's lease ran out before it reached them)."""
    a, b, clock = two
    timers = await due_timers(a.db, 60, clock.now - 500)
    fired: dict[str, list[Timer]] = {a.name: [], b.name: []}
    b_fired: list[int] = []
    asked: list[Timer] = []

    def handler(p: Process) -> Callable[[Timer], Awaitable[None]]:
        async def fire(timer: Timer) -> None:
            if p is a and not asked:
                asked.append(timer)
                b_fired.append(await schedulers[1].run_due())
            assert await p.service.timers.claim(timer)
            fired[p.name].append(timer)

        return fire

    schedulers = [Scheduler(p.service.timers, handler(p), clock) for p in (a, b)]
    assert await schedulers[0].run_due() == len(timers) - b_fired[0]
    assert b_fired[0] == len(timers) - scheduler_module.BATCH
    assert sorted(fired[a.name] + fired[b.name]) == timers  # each once


async def test_a_timer_is_fired_only_while_its_claim_outlasts_a_job(
    two: tuple[Process, Process, Clock],
) -> None:
    """Each of a game's jobs takes most of a lease (the fake clock moves on
    in the handler): the timers behind it in the batch are given back and
    claimed afresh, so no handler starts on a claim that could run out
    under it."""
    a, _, clock = two
    # One game's timers, fired one after another (games fire side by side).
    (first,) = await due_timers(a.db, 1, clock.now - 10)
    timers = [Timer(clock.now - 10 + n, first.game_id, "clock", n, 0) for n in range(4)]
    await TimerStore(a.db).replace(first.game_id, timers)
    fired: list[Timer] = []
    scheduler: Scheduler

    async def fire(timer: Timer) -> None:
        async with a.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT lease_until FROM timers WHERE game_id = ? AND kind = ? AND seat = ?",
                    (timer.game_id, timer.kind, timer.seat),
                )
            )
        left = float(rows[0][0]) - clock.now
        assert left >= min(scheduler.job_limit, scheduler.lease / 2)
        assert await a.service.timers.claim(timer)
        fired.append(timer)
        clock.now += LEASE * 0.6

    scheduler = Scheduler(a.service.timers, fire, clock)
    assert await scheduler.run_due() == 4
    assert fired == timers


async def test_a_process_that_stops_gives_back_the_timers_it_had_not_fired(
    two: tuple[Process, Process, Clock],
) -> None:
    """A stops (SIGTERM) in the middle of a batch: the timers it claimed
    and had not reached are free at once, for B, not after the lease."""
    a, b, clock = two
    # One game's timers: fired one after another, so four wait behind the first.
    (first,) = await due_timers(a.db, 1, clock.now - 10)
    timers = [Timer(clock.now - 10 + n, first.game_id, "clock", n, 0) for n in range(5)]
    await TimerStore(a.db).replace(first.game_id, timers)
    started = asyncio.Event()

    async def stuck(timer: Timer) -> None:
        started.set()
        await asyncio.Event().wait()

    scheduler = Scheduler(a.service.timers, stuck, clock)
    scheduler.start()
    await started.wait()
    await scheduler.close()
    fired: list[Timer] = []

    async def fire(timer: Timer) -> None:
        assert await b.service.timers.claim(timer)
        fired.append(timer)

    assert await Scheduler(b.service.timers, fire, clock).run_due() == 4
    assert fired == timers[1:]  # the first was mid-job: its lease decides


async def test_a_process_that_died_holding_timers_loses_them_after_the_lease(
    two: tuple[Process, Process, Clock],
) -> None:
    """Process A claims the due timers, then dies (its handlers never run).
    B does not touch them while A's lease lasts, sleeps until the lease runs
    out, then fires each once."""
    a, b, clock = two
    timers = await due_timers(a.db, 5, clock.now - 10)
    claimed = await a.service.timers.claim_due(clock.now, clock.now + LEASE)
    assert claimed == timers
    fired: list[Timer] = []

    async def fire(timer: Timer) -> None:
        if await b.service.timers.holds(timer):
            fired.append(timer)
            await b.service.timers.claim(timer)

    scheduler = Scheduler(b.service.timers, fire, clock)
    assert await scheduler.run_due() == 0
    earliest = await b.service.timers.earliest()
    assert earliest is not None and earliest.due == clock.now + LEASE  # B wakes then
    clock.now += LEASE - 1
    assert await scheduler.run_due() == 0
    clock.now += 1
    assert await scheduler.run_due() == 5
    assert sorted(fired) == timers  # each once (the games side by side)
    # The dead process's late finish changes nothing.
    assert not await a.service.timers.claim(timers[0])


async def test_a_clock_timeout_is_taken_over_after_a_crash_and_applied_once(
    two: tuple[Process, Process, Clock],
) -> None:
    """A seat's clock runs out; process A's scheduler claims the timer and
    dies before acting.  After the lease, B's scheduler times the seat out,
    once: one ``@timeout`` entry; A's dead claim never acts."""
    a, b, clock = two
    game_id = await new_game(a.service)
    (deadline,) = [t for t in await a.service.timers.of_game(game_id) if t.kind == "clock"]
    clock.now = deadline.due + 1
    assert deadline in await a.service.timers.claim_due(clock.now, clock.now + LEASE)
    keeper_b = Scheduler(b.service.timers, b.service.clock_timer, clock)  # type: ignore[arg-type]
    assert await keeper_b.run_due() == 0  # A holds it
    clock.now += LEASE
    assert await keeper_b.run_due() >= 1
    log = await b.service.store.log(game_id)
    assert [e.action for e in log].count("@timeout") == 1
    # A comes back from the dead and fires what it had claimed: nothing.
    assert await a.service.clock_timer(deadline) is None
    assert [e.action for e in await a.service.store.log(game_id)].count("@timeout") == 1
    await assert_log_whole(a.service, game_id)


async def test_a_timeout_that_loses_the_race_to_a_move_in_another_process_is_void(
    two: tuple[Process, Process, Clock],
) -> None:
    """A's scheduler times a seat out just as the seat moves through B: A
    loaded the game before B's write and writes after it.  A's write is
    refused by the version, and A looks again: no timeout, no error for the
    scheduler to retry a minute later, and no timeout counted in the seat's
    streak."""
    a, b, clock = two
    game_id = await new_game(a.service)
    (deadline,) = [t for t in await a.service.timers.of_game(game_id) if t.kind == "clock"]
    clock.now = deadline.due + 1
    user, text = await next_move(b.service, game_id, random.Random(3))
    commit = a.service.store.commit
    moved: list[MoveResult] = []

    async def commit_after_b_moved(*args: Any, **kwargs: Any) -> Any:
        if not moved:
            moved.append(await b.service.play(game_id, user, text))
        return await commit(*args, **kwargs)

    a.service.store.commit = commit_after_b_moved  # type: ignore[method-assign]
    assert await a.service.clock_timer(deadline) is None
    log = await b.service.store.log(game_id)
    assert "@timeout" not in [e.action for e in log]
    assert [s.timeouts for s in await b.service.store.seats(game_id)] == [0, 0]
    a.service.store.commit = commit  # type: ignore[method-assign]
    await assert_log_whole(a.service, game_id)


class Killed(BaseException):
    """SIGKILL in the middle of a write, for a test."""


async def test_a_process_killed_mid_timeout_leaves_no_half_of_it(
    two: tuple[Process, Process, Clock],
) -> None:
    """A times a seat out and is killed while writing the move made for
    it.  Nothing of the timeout was written, so B, taking the timer over
    after the lease, times the seat out once: one ``@timeout``, followed by
    the seat's move (the load test found a timeout written without its
    move, and a second timeout of the same seat after the restart)."""
    a, b, clock = two
    game_id = await new_game(a.service)
    (deadline,) = [t for t in await a.service.timers.of_game(game_id) if t.kind == "clock"]
    clock.now = deadline.due + 1
    assert deadline in await a.service.timers.claim_due(clock.now, clock.now + LEASE)
    commit = a.service.store.commit

    async def killed_writing_a_move(game: int, **kwargs: Any) -> Any:
        if any(not e.action.startswith("@") for e in kwargs["change"].entries):
            raise Killed
        return await commit(game, **kwargs)

    a.service.store.commit = killed_writing_a_move  # type: ignore[method-assign]
    with pytest.raises(Killed):
        await a.service.clock_timer(deadline)
    clock.now += LEASE
    assert await Scheduler(b.service.timers, b.service.clock_timer, clock).run_due() >= 1  # type: ignore[arg-type]
    log = [(e.actor, e.action) for e in await b.service.store.log(game_id)]
    timeouts = [i for i, (_, action) in enumerate(log) if action == "@timeout"]
    assert len(timeouts) == 1
    actor = log[timeouts[0]][0]
    assert log[timeouts[0] + 1][0] == actor and not log[timeouts[0] + 1][1].startswith("@")
    await assert_log_whole(b.service, game_id)


CHILD = """
import asyncio, sys, time
from storage.opening import open_database
from storage.timekeeping import TimerStore

async def main():
    db = await open_database(sys.argv[1])
    now = float(sys.argv[2])
    claimed = await TimerStore(db, "child:1:cc").claim_due(now, now + float(sys.argv[3]))
    print(len(claimed), flush=True)
    time.sleep(600)  # holding its claims until it is killed

asyncio.run(main())
"""


async def test_a_killed_process_loses_its_claims_to_another(
    postgres_url: str, tmp_path: Path
) -> None:
    """A real child process claims the due timers and is killed with
    SIGKILL: another process takes them over once the lease runs out."""
    clock = Clock()
    b = await process(postgres_url, clock, "b:2:bb")
    try:
        timers = await due_timers(b.db, 3, clock.now - 10)
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, postgres_url, str(clock.now), str(LEASE)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        try:
            line = await asyncio.to_thread(child.stdout.readline)  # type: ignore[union-attr]
            assert line.strip() == "3"
        finally:
            child.kill()
            child.wait(30)
        assert child.returncode == -9
        assert await b.service.timers.claim_due(clock.now, clock.now + LEASE) == []
        clock.now += LEASE
        assert await b.service.timers.claim_due(clock.now, clock.now + LEASE) == timers
    finally:
        await b.db.close()


# -- the tournament director -------------------------------------------------------------


async def test_two_directors_pair_the_next_round_once(
    two: tuple[Process, Process, Clock],
) -> None:
    """Round 1 is over; both processes' directors move the tournament on at
    once: round 2 is written once, each of its games created and started
    once, and no stray lobby is left behind."""
    a, b, clock = two
    directors = [
        TournamentDirector(p.service, TournamentStore(p.db), RatingStore(p.db)) for p in (a, b)
    ]
    record = await directors[0].new(
        guild_id=7,
        channel_id=70,
        engine_name="artaban",
        format="swiss",
        rounds=3,
        table_size=None,
        options={},
        creator_id=1,
        now=clock.now,
    )
    for p in PLAYERS:
        assert await directors[0].join(record.id, p, clock.now)
    assert (await directors[0].start(record.id, clock.now)).new_round
    store = directors[0].store
    for table in await store.tables(record.id, 1):
        assert table.game_id is not None
        game = await a.service.get(table.game_id)
        await a.service.end_with_result(table.game_id, (1, 2), "decided")
        assert game.is_over
    # Both directors create a table's game before either links it (the
    # race), each waiting at the link for the other, at most a moment.
    arrived: list[int] = []

    def racing(store: TournamentStore) -> None:
        link = store.link_game

        async def link_game(tournament_id: int, round: int, number: int, game_id: int) -> bool:
            arrived.append(number)
            for _ in range(50):
                if arrived.count(number) >= 2:
                    break
                await asyncio.sleep(0.01)
            return await link(tournament_id, round, number, game_id)

        store.link_game = link_game  # type: ignore[method-assign]

    for d in directors:
        racing(d.store)
    moved = await asyncio.gather(*(d.resume_all(clock.now) for d in directors))
    assert arrived.count(1) == 2  # both made a game for table 1
    started = [r for batch in moved for r in batch]
    assert sum(r.new_round for r in started) == 1
    tables = await store.tables(record.id, 2)
    assert len(tables) == 2 and all(t.game_id is not None for t in tables)
    games = [g for r in started for g in r.games]
    assert sorted(g.game.id for g in games) == sorted(t.game_id for t in tables)  # type: ignore[misc]
    live = await a.service.store.live_games()
    assert sorted(g.id for g in live) == sorted(t.game_id for t in tables)  # type: ignore[misc]
    assert all(g.status == "active" for g in live)


# -- delivery ----------------------------------------------------------------------------


@pytest.fixture
async def dealt(postgres_url: str) -> AsyncIterator[tuple[FakeDiscord, int, Clock]]:
    """A bot on PostgreSQL with a started game whose next move is stored
    but not yet delivered."""
    clock = Clock()
    bot = make_bot(postgres_url, 3, clock=clock)
    async with FakeDiscord.running(bot) as fake:
        asha, bhima = fake.user("asha"), fake.user("bhima")
        game_id, lobby = await open_lobby(fake, "kauda_baji", asha, bhima)
        await start(fake, asha, lobby)
        service = bot_of(fake).service
        user, text = await next_move(service, game_id, random.Random(3))
        await service.play(game_id, user, text)  # stored; nobody delivered it
        yield fake, game_id, clock


async def test_two_deliveries_racing_post_the_board_once(
    dealt: tuple[FakeDiscord, int, Clock],
) -> None:
    fake, game_id, _ = dealt
    bot = bot_of(fake)
    version = (await bot.service.get(game_id)).version
    other = Delivery(bot, owner="other:2:bb")  # the second process's delivery
    posted = len(boards(fake))
    done = await asyncio.gather(bot.delivery.catch_up(game_id), other.catch_up(game_id))
    assert all(done)
    new = boards(fake)[posted:]
    assert len(new) == 1, [s.content for s in new]
    assert (await bot.store.outbox(game_id))["board"].version == version
    assert await bot.store.delivery_holder(game_id) is None  # given back


async def test_a_delivery_left_by_a_dead_process_is_swept_up_after_its_lease(
    dealt: tuple[FakeDiscord, int, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process claimed the game's delivery and died before posting:
    this process waits for the lease, then its sweep posts the board once."""
    fake, game_id, clock = dealt
    bot = bot_of(fake)
    monkeypatch.setattr(delivery_module, "CLAIM_WAITS", ())
    assert await bot.store.claim_delivery(game_id, "dead:9:dd", clock.now, clock.now + LEASE)
    posted = len(boards(fake))
    assert not await bot.delivery.catch_up(game_id)  # held by the dead process
    assert await bot.delivery.sweep() == 0  # its lease still runs
    clock.now += LEASE
    assert await bot.delivery.sweep() == 1
    assert await bot.delivery.sweep() == 0
    assert len(boards(fake)) == posted + 1
    holder = await bot.store.delivery_holder(game_id)
    assert holder is None


async def test_a_move_left_undelivered_by_a_dead_process_is_swept_up(
    dealt: tuple[FakeDiscord, int, Clock],
) -> None:
    """The process that made the move died before it claimed the delivery:
    once the game has been quiet a while, a sweep posts its board, once."""
    fake, _, clock = dealt
    bot = bot_of(fake)
    posted = len(boards(fake))
    assert await bot.delivery.sweep() == 0  # just moved: its process delivers it
    clock.now += delivery_module.SWEEP_QUIET
    assert await bot.delivery.sweep() == 1
    assert await bot.delivery.sweep() == 0
    assert len(boards(fake)) == posted + 1


# -- configuration -----------------------------------------------------------------------


def test_shards_are_read_checked_and_overridden(tmp_path: Path) -> None:
    pg = {"DISCORD_TOKEN": "t", "CHAUPAL_DATABASE": "postgresql://x@h/db"}
    settings = load_settings({**pg, "CHAUPAL_SHARDS": "0-3", "CHAUPAL_SHARD_COUNT": "8"})
    assert settings.shards == (0, 1, 2, 3) and settings.shard_count == 8
    settings = load_settings({**pg, "CHAUPAL_SHARDS": "5,0,2"}, shard_count="6")
    assert settings.shards == (0, 2, 5) and settings.shard_count == 6
    settings = load_settings({**pg, "CHAUPAL_SHARDS": "0-3"}, shards="4-7", shard_count="8")
    assert settings.shards == (4, 5, 6, 7)
    plain = load_settings({"DISCORD_TOKEN": "t"})
    assert plain.shards is None and plain.shard_count is None  # as before
    assert load_settings({"DISCORD_TOKEN": "t", "CHAUPAL_SHARD_COUNT": "2"}).shard_count == 2
    for env, words in [
        ({"CHAUPAL_SHARDS": "0-3"}, "CHAUPAL_SHARD_COUNT"),
        ({"CHAUPAL_SHARDS": "0-8", "CHAUPAL_SHARD_COUNT": "8"}, "Shard 8 does not exist"),
        ({"CHAUPAL_SHARDS": "3-1", "CHAUPAL_SHARD_COUNT": "8"}, "such as 0-3"),
        ({"CHAUPAL_SHARDS": "a", "CHAUPAL_SHARD_COUNT": "8"}, "such as 0-3"),
        ({"CHAUPAL_SHARDS": "0,,1", "CHAUPAL_SHARD_COUNT": "8"}, "such as 0-3"),
        ({"CHAUPAL_SHARD_COUNT": "0"}, "at least 1"),
        ({"CHAUPAL_SHARD_COUNT": "-2"}, "whole number"),
    ]:
        with pytest.raises(ConfigError, match=words):
            load_settings({**pg, **env})
    # Some of the shards here means other processes: not on a SQLite file.
    with pytest.raises(ConfigError, match="PostgreSQL"):
        load_settings({"DISCORD_TOKEN": "t"}, shards="0-1", shard_count="4")
    every = load_settings({"DISCORD_TOKEN": "t"}, shards="0-3", shard_count="4")
    assert every.shards == (0, 1, 2, 3)


def test_the_bot_runs_the_shards_it_is_given(tmp_path: Path) -> None:
    settings = load_settings(
        {"DISCORD_TOKEN": "t", "CHAUPAL_DATABASE": "postgresql://x@h/db"},
        shards="2,3",
        shard_count="4",
    )
    bot = make_bot(tmp_path / "x.sqlite3", 1)
    sharded = type(bot)(settings, sync_commands=False)
    assert sharded.shard_ids == [2, 3] and sharded.shard_count == 4
    assert bot.shard_ids is None and bot.shard_count is None  # Discord's count
    assert sharded.process != bot.process and sharded.process.count(":") == 2


def test_python_m_bot_refuses_bad_shards_with_status_2(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "--shards", "0-9", "--shard-count", "4"],
        cwd=Path(__file__).resolve().parents[2],
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "t", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr
    assert "Shard 4 does not exist with 4 shards" in run.stderr


async def test_only_a_shared_database_is_checked_before_each_move(database_target: str) -> None:
    """A SQLite file is one process's, so its cache is the truth and a move
    reads nothing more; PostgreSQL may have other writers, so the cache is
    checked against storage (issue 20)."""
    db = await open_database(database_target)
    try:
        service = GameService(
            GameStore(db), draw=Seeded(1), think_pad={}, thinker=quick_thinking()
        )
        assert service.shared is database_target.startswith("postgresql")
    finally:
        await db.close()
