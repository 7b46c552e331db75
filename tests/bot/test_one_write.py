"""Every change to a game is one version-checked write (issue 29, items 2 and 3).

Two processes share one database (on PostgreSQL, and on one SQLite file,
as in ``test_several_processes``).  An action that loses the race to the
other process's write leaves nothing behind: no seat passed to the
automatic player without its ``@left``, no streak counted for a timeout
never made, no game waiting on a seat with nothing due.  What a race cannot
lose any more, the interleavings below try anyway, at the first write an
action makes, whatever that write is; and a sweep repairs any game that
still waits on nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import progress_seat
from bot.live import ServiceError, StaleBoard
from bot.scheduler import Scheduler
from bot.service import GameService
from storage.games import GameStore, WrongStatus
from storage.opening import open_database
from tests.bot.driver import bot_of, make_bot, open_lobby, start
from tests.bot.test_several_processes import PLAYERS, Clock, Process, two
from tests.discord_harness import FakeDiscord
from tests.fakes import FakeClock, Seeded, quick_thinking

__all__ = ["two"]  # the fixture: two processes on one database

WRITES = (
    "commit",
    "append",
    "update_seats",
    "set_status",
    "set_paused",
    "replace_seat_user",
)
"""Every way the service has had of writing a game: the interleavings hook
the first of them an action calls, whichever the code calls first."""


@contextlib.contextmanager
def before_first_write(store: GameStore, other: Callable[[], Awaitable[Any]]) -> Iterator[None]:
    """While inside, the first write ``store`` is asked for runs ``other``
    (the other process's action) to its end first: the other process wins
    the race at that exact point."""
    done = False
    saved: dict[str, Any] = {}

    def hooked(name: str) -> Callable[..., Awaitable[Any]]:
        real = saved[name]

        async def write(*args: Any, **kwargs: Any) -> Any:
            nonlocal done
            if not done:
                done = True
                await other()
            return await real(*args, **kwargs)

        return write

    for name in WRITES:
        if hasattr(store, name):
            saved[name] = getattr(store, name)
            setattr(store, name, hooked(name))
    try:
        yield
    finally:
        for name, real in saved.items():
            setattr(store, name, real)
    assert done, "the action wrote nothing"


async def chaturaji_for_four(svc: GameService, options: dict[str, str]) -> int:
    game = await svc.new_game(
        "chaturaji", creator=PLAYERS[0], guild_id=1, channel_id=10, options=options
    )
    for player in PLAYERS[1:4]:
        await svc.join(game.id, player)
    await svc.start(game.id, PLAYERS[0].user_id, moderator=False)
    return game.id


async def assert_whole_game(svc: GameService, game_id: int) -> None:
    """The game storage holds is one: every seat a person left to the
    automatic player has its ``@left`` and every ``@left`` its seat, and
    everyone the game waits on has something due at this version (an
    automatic seat its moment to act, a clocked seat its deadline)."""
    svc.forget(game_id)
    game = await svc.get(game_id)
    log = await svc.store.log(game_id)
    left = {e.actor for e in log if e.action == "@left"}
    handed = {s.seat for s in game.seats if s.controller == "auto" and not s.automatic_player}
    assert handed == left, (handed, [(e.actor, e.action) for e in log if e.action[0] == "@"])
    if game.is_over:
        return
    timers = await svc.timers.of_game(game_id)
    assert all(t.version == game.version for t in timers), (timers, game.version)
    clocks = {t.seat for t in timers if t.kind == "clock"}
    for seat in svc.automatic_turn(game):
        assert seat in clocks, f"automatic seat {seat} waits with no timer: {timers}"
    if game.table.clock is not None:
        public, private = svc.owing(game)
        for seat in public | private:
            assert seat in clocks, f"seat {seat} owes a decision with no deadline: {timers}"


async def seat_to_move(svc: GameService, game_id: int) -> tuple[int, int, str]:
    game = await svc.get(game_id)
    seat = progress_seat(game.engine, game.state)
    text = random.Random(game_id).choice(svc.legal_texts(game, seat))
    return seat, game.user_of(seat), text


async def clock_runs_out(two: tuple[Process, Process, Clock]) -> tuple[int, int, int, str, Any]:
    """A four-player Chaturaji game under ``timeout=forfeit``, cached in both
    processes, whose seat to move has just run out of time: the game, the
    seat, its player, a move they could make, and the seat's clock timer."""
    a, b, clock = two
    game_id = await chaturaji_for_four(a.service, {"clock": "1m", "timeout": "forfeit"})
    await b.service.get(game_id)
    seat, user, text = await seat_to_move(a.service, game_id)
    (deadline,) = [
        t for t in await a.service.timers.of_game(game_id) if (t.kind, t.seat) == ("clock", seat)
    ]
    clock.now = deadline.due + 1
    return game_id, seat, user, text, deadline


async def test_a_forfeit_that_loses_the_race_to_the_seats_move_leaves_nothing_behind(
    two: tuple[Process, Process, Clock],
) -> None:
    """The issue's race: A's clock timer forfeits seat 0 while B plays seat
    0's move; B's write lands at A's first write.  Before, A had already
    handed the seat to the automatic player (a write of its own, without a
    version), then lost its log entry to B's move: the seat was automatic
    with no ``@left``, its player had lost it for moving in time, and the
    game waited on it with no timer.  Now A's forfeit is one write, which B's
    move makes stale: nothing of it is stored."""
    a, b, _ = two
    game_id, seat, user, text, deadline = await clock_runs_out(two)
    version = (await a.service.get(game_id)).version

    async def b_moves() -> None:
        await b.service.play(game_id, user, text)

    with before_first_write(a.service.store, b_moves), contextlib.suppress(StaleBoard):
        await a.service.clock_timer(deadline)
    log = await a.service.store.log(game_id, after_seq=version)
    assert (log[0].actor, log[0].action) == (seat, text), "B's move stands"
    actions = [e.action for e in log]
    assert "@forfeit" not in actions and "@left" not in actions
    seats = await a.service.store.seats(game_id)
    assert (seats[seat].controller, seats[seat].left_order) == ("human", None)
    for p in (a, b):
        await assert_whole_game(p.service, game_id)


async def test_a_move_that_loses_the_race_to_a_forfeit_is_refused_and_the_seat_plays_on(
    two: tuple[Process, Process, Clock],
) -> None:
    """The other order: A's forfeit is written first, at B's first write.
    B's move is refused, as a move by a player who left; the seat passed to
    the automatic player with its ``@forfeit`` and ``@left``, and it plays."""
    a, b, _ = two
    game_id, seat, user, text, deadline = await clock_runs_out(two)

    async def a_forfeits() -> None:
        await a.service.clock_timer(deadline)

    with before_first_write(b.service.store, a_forfeits), pytest.raises(ServiceError) as refused:
        await b.service.play(game_id, user, text)
    assert "automatic player has your seat" in str(refused.value)
    actions = [(e.actor, e.action) for e in await a.service.store.log(game_id)]
    assert actions.count((seat, "@forfeit")) == 1 and actions.count((seat, "@left")) == 1
    after_left = actions[actions.index((seat, "@left")) + 1 :]
    assert any(actor == seat and not action.startswith("@") for actor, action in after_left)
    for p in (a, b):
        await assert_whole_game(p.service, game_id)


class Killed(BaseException):
    """The process is killed here (SIGKILL), for a test."""


async def test_a_seat_left_to_the_automatic_player_plays_even_if_the_process_dies_at_once(
    two: tuple[Process, Process, Clock],
) -> None:
    """A player resigns the seat that is to move; A writes the leaving and
    dies before its automatic player moves.  The leaving's own write gave
    the seat its moment to act (a timer due now), so B's scheduler plays it.
    Before, that move was made only in A's memory, right after, and the game
    waited on the automatic seat for ever (a restart did not revive it)."""
    a, b, clock = two
    game_id = await chaturaji_for_four(a.service, {})
    seat, user, _ = await seat_to_move(a.service, game_id)

    async def killed(*args: Any, **kwargs: Any) -> None:
        raise Killed

    a.service._play_automatic = killed  # type: ignore[method-assign]
    with pytest.raises(Killed):
        await a.service.resign(game_id, user)
    await assert_whole_game(b.service, game_id)
    version = (await b.service.get(game_id)).version
    assert await Scheduler(b.service.timers, b.service.clock_timer, clock).run_due() >= 1  # type: ignore[arg-type]
    moved = await b.service.store.log(game_id, after_seq=version)
    assert moved and moved[0].actor == seat and not moved[0].action.startswith("@")
    await assert_whole_game(b.service, game_id)


async def test_a_move_in_a_game_another_process_ended_is_refused_as_over(
    two: tuple[Process, Process, Clock],
) -> None:
    """Item 3: another process ends the game (a resignation of two players)
    between B's check and B's write.  B's player is told the game is over,
    not the storage's "cannot record moves", and nothing of B's move is
    stored."""
    a, b, _ = two
    game = await a.service.new_game("kauda_baji", creator=PLAYERS[0], guild_id=1, channel_id=10)
    await a.service.join(game.id, PLAYERS[1])
    await a.service.start(game.id, PLAYERS[0].user_id, moderator=False)
    await b.service.get(game.id)
    seat, user, text = await seat_to_move(b.service, game.id)
    other = PLAYERS[1 - PLAYERS.index(next(p for p in PLAYERS if p.user_id == user))]
    version = (await a.service.get(game.id)).version

    async def a_resigns() -> None:
        await a.service.resign(game.id, other.user_id)

    with before_first_write(b.service.store, a_resigns), pytest.raises(ServiceError) as refused:
        await b.service.play(game.id, user, text)
    assert not isinstance(refused.value, WrongStatus)
    assert f"Game #{game.id} is over" in str(refused.value), refused.value
    assert "cannot" not in str(refused.value)
    assert not [e for e in await a.service.store.log(game.id, after_seq=version) if e.actor == seat]


async def test_a_cached_game_read_while_a_move_is_written_keeps_the_moves_version(
    database_target: str,
) -> None:
    """Item 3: ``get`` looks at storage without the game's lock (a shared
    database); a move written by this process while that look is reading
    must not be turned back by the older read: the cached game's version
    stays its state's."""
    db = await open_database(database_target)
    try:
        svc = GameService(
            GameStore(db),
            draw=Seeded(1),
            clock=Clock(),
            thinker=quick_thinking(),
            think_pad={},
            shared=True,
        )
        game = await svc.new_game("kauda_baji", creator=PLAYERS[0], guild_id=1, channel_id=10)
        await svc.join(game.id, PLAYERS[1])
        await svc.start(game.id, PLAYERS[0].user_id, moderator=False)
        _, user, text = await seat_to_move(svc, game.id)
        store = svc.store
        reads = ("game_with_seats", "seats")  # whatever the look reads last

        def slowed(name: str) -> Callable[..., Awaitable[Any]]:
            real = getattr(store, name)

            async def read(*args: Any, **kwargs: Any) -> Any:
                found = await real(*args, **kwargs)
                for restore in reads:  # once: the move below reads normally
                    if restore in store.__dict__:
                        del store.__dict__[restore]
                # The move is written after this read and before it returns.
                await asyncio.get_running_loop().create_task(svc.play(game.id, user, text))
                return found

            return read

        for name in reads:
            if hasattr(store, name):
                setattr(store, name, slowed(name))
        await svc.get(game.id)
        cached = svc._cache[game.id]
        stored = await store.get_game(game.id)
        assert stored is not None and cached.version == stored.version
        svc.forget(game.id)
        rebuilt = await svc.get(game.id)
        assert rebuilt.version == cached.version and rebuilt.state == cached.state
    finally:
        await db.close()


async def test_the_sweep_repairs_a_game_that_waits_on_an_automatic_seat_with_no_timer(
    database_target: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A game left waiting on a seat with nothing due (here, as the old race
    left it: the seat to move automatic, no timer) is found, logged as an
    error and repaired: the automatic player plays.  A healthy game is left
    alone."""
    db = await open_database(database_target)
    try:
        clock = Clock()
        svc = GameService(
            GameStore(db), draw=Seeded(1), clock=clock, thinker=quick_thinking(), think_pad={}
        )
        stranded = await chaturaji_for_four(svc, {"clock": "1d"})
        healthy = await chaturaji_for_four(svc, {"clock": "1d"})
        seat, _, _ = await seat_to_move(svc, stranded)
        async with db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET controller = 'auto', left_order = 1, clock_since = NULL "
                "WHERE game_id = ? AND seat = ?",
                (stranded, seat),
            )
            await conn.execute("DELETE FROM timers WHERE game_id = ?", (stranded,))
        svc.forget(stranded)
        version = (await svc.get(stranded)).version
        healthy_timers = await svc.timers.of_game(healthy)
        with caplog.at_level(logging.ERROR, logger="bot.service"):
            assert await svc.repair_stranded() == [stranded]
        assert any(
            r.levelno == logging.ERROR and f"game {stranded} waited on nothing" in r.getMessage()
            for r in caplog.records
        ), caplog.records
        moved = await svc.store.log(stranded, after_seq=version)
        assert [(e.actor, e.action) for e in moved][:1] == [(seat, "@left")]
        assert any(e.actor == seat and not e.action.startswith("@") for e in moved)
        await assert_whole_game(svc, stranded)
        assert await svc.timers.of_game(healthy) == healthy_timers
        assert await svc.repair_stranded() == []  # nothing left to repair
    finally:
        await db.close()


async def test_the_bot_repairs_a_stranded_game_at_start_up_and_posts_its_move(
    tmp_path: Path,
) -> None:
    """Through discord.py's dispatch: a game stranded while the bot was down
    (a clocked game whose timers are gone) is repaired at start-up, and a
    game whose automatic seat had nothing due plays and posts its move."""
    path = tmp_path / "chaupal.sqlite3"
    clock = FakeClock()
    fake = await FakeDiscord.start(make_bot(path, 5, clock))
    users = [fake.user(n) for n in ("asha", "bhima", "chitra")]
    game_id, lobby = await open_lobby(fake, "sangram", *users)
    await start(fake, users[0], lobby)
    bot = bot_of(fake)
    game = await bot.service.get(game_id)
    seat = min(game.engine.waiting_on(game.state))
    # What the old race left behind, written while the bot is idle: the
    # seat to move handed to the automatic player, and no timers at all.
    async with bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE seats SET controller = 'auto', left_order = 1 WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        await conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
    fake = await fake.restart(make_bot(path, 6, clock))
    await fake.settle()
    bot = bot_of(fake)
    moves = [e for e in await bot.store.log(game_id) if e.actor == seat]
    assert moves and not moves[-1].action.startswith("@")
    game = await bot.service.get(game_id)
    delivered = (await bot.store.outbox(game_id))["board"]
    assert delivered.version == game.version, "the repaired game's board is up to date"
    await assert_whole_game(bot.service, game_id)
    await fake.close()


async def test_a_move_is_written_with_its_clocks_so_a_kill_right_after_it_charges_nobody(
    two: tuple[Process, Process, Clock],
) -> None:
    """A process writes a move and is killed before anything else (the
    load test: a watchdog's cancel or a SIGKILL after the write).  The
    move's own write stopped the mover's clock with its increment and
    started the next player's: before, the clocks were a second write, and
    the mover's clock ran on through the outage, so their next turn timed
    out at once."""
    a, b, clock = two
    game = await a.service.new_game(
        "kauda_baji", creator=PLAYERS[0], guild_id=1, channel_id=10, options={"clock": "1d+1h"}
    )
    await a.service.join(game.id, PLAYERS[1])
    await a.service.start(game.id, PLAYERS[0].user_id, moderator=False)
    seat, user, text = await seat_to_move(a.service, game.id)
    clock.now += 600.0  # ten minutes of thought

    async def killed(*args: Any, **kwargs: Any) -> None:
        raise Killed

    a.service._after_change = killed  # type: ignore[method-assign]
    with pytest.raises(Killed):
        await a.service.play(game.id, user, text)
    after = await b.service.get(game.id)
    assert after.version > 0 and [e.actor for e in await b.service.store.log(game.id)][-1] >= -1
    moved = after.seats[seat]
    # Stopped, or started afresh when the mover owes the next decision too.
    assert moved.clock_since in (None, clock.now), "the mover's clock ran on"
    assert moved.clock_left == pytest.approx(86400.0)  # 1d - 10 min + 1h, at most its start
    if not after.is_over:
        for waiting in after.engine.waiting_on(after.state):
            assert after.seats[waiting].clock_since == clock.now
    await assert_whole_game(b.service, game.id)
