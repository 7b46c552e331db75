"""Taking a move back (issue 31), at the service: who may take back what
and when, the clocks restored, the log, replays, snapshots and exports
following the ``@takeback`` entry, the throw held for a takeback, and
takebacks racing other players' moves on two processes.

Artaban after its set-ups has no chance at all: its moves follow one
another with nothing drawn between, the plainest place to take moves back.
Chaturaji draws the next dice after every turn, Sangram reveals every
committed card at once."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import CHANCE, NotYourTurn, progress_seat
from bot.engines.messages import decode
from bot.live import MoveResult, ServiceError, StaleBoard, TakebackRequest
from bot.replay import GameRecord, frames, load_record, position_since, public_record, states
from bot.service import HELD_CHANCE, GameService, Player
from bot.takeback import THROW_GRACE, in_effect, takeback_event, takeback_target
from bot.timekeeping import DAY, HOUR
from storage.database import Database
from storage.games import GameStore
from storage.opening import open_database
from tests.bot.test_one_write import before_first_write
from tests.bot.test_several_processes import Clock, Process, two
from tests.fakes import FakeClock, Seeded, quick_thinking

__all__ = ["two"]  # the fixture: two processes on one database

PLAYERS = [Player(100 + i, name) for i, name in enumerate(["Asha", "Bhima", "Chitra", "Dev"])]
ASHA, BHIMA = PLAYERS[0], PLAYERS[1]


class Table:
    """One service on a SQLite file and a fake clock."""

    def __init__(self, db: Database, service: GameService, clock: FakeClock) -> None:
        self.db, self.service, self.clock = db, service, clock


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    db = await open_database(tmp_path / "game.sqlite3")
    clock = FakeClock()
    service = GameService(
        GameStore(db),
        draw=Seeded(1),
        clock=clock,
        snapshot_every=7,
        thinker=quick_thinking(),
        think_pad={},
    )
    yield Table(db, service, clock)
    await db.close()


async def started(
    svc: GameService, engine: str, players: int, options: dict[str, str] | None = None
) -> int:
    game = await svc.new_game(
        engine, creator=PLAYERS[0], guild_id=1, channel_id=10, options=options or {}
    )
    for player in PLAYERS[1:players]:
        await svc.join(game.id, player)
    await svc.start(game.id, PLAYERS[0].user_id, moderator=False)
    return game.id


async def artaban(svc: GameService, options: dict[str, str] | None = None) -> int:
    """A two-player Artaban game past its set-ups (dealt at random): Asha to move."""
    game_id = await started(svc, "artaban", 2, options)
    for player in (ASHA, BHIMA):
        await svc.play(game_id, player.user_id, "setup random")
    game = await svc.get(game_id)
    assert game.engine.to_move(game.state) == frozenset({0})
    return game_id


async def move(svc: GameService, game_id: int, player: Player, pick: int = 0) -> MoveResult:
    game = await svc.get(game_id)
    seat = game.seat_of(player.user_id)
    assert seat is not None
    return await svc.play(game_id, player.user_id, svc.legal_texts(game, seat)[pick])


async def assert_rebuilt(svc: GameService, game_id: int) -> Any:
    """Storage alone rebuilds the game as the service holds it, from a
    snapshot at or after the last takeback; the timers are this version's."""
    game = await svc.get(game_id)
    svc.forget(game_id)
    rebuilt = await svc.get(game_id)
    assert (rebuilt.state, rebuilt.version) == (game.state, game.version)
    timers = await svc.timers.of_game(game_id)
    assert all(t.version == game.version for t in timers), timers
    assert await svc.stranded(rebuilt) is None
    return rebuilt


# -- the mover alone ------------------------------------------------------------------


async def test_a_move_is_taken_back_at_once_while_nothing_happened_since(table: Table) -> None:
    svc = table.service
    game_id = await artaban(svc)
    before = await svc.get(game_id)
    state, version = before.state, before.version
    played = await move(svc, game_id, ASHA)
    assert played.takeback == version, "its player may take it back alone: the button"
    narration = played.steps[0].narration

    undone = await svc.take_back(game_id, ASHA.user_id, target=version)

    assert isinstance(undone, MoveResult)
    game = await svc.get(game_id)
    assert game.state == state and game.version == version + 2
    assert game.engine.to_move(game.state) == frozenset({0})
    entry = (await svc.store.log(game_id))[-1]
    assert (entry.actor, entry.action) == (0, f"@takeback:{version}")
    assert decode(entry.narration) == "{p0} took back their last move: " + narration
    assert undone.undone == narration and undone.actor == 0
    # Loading never goes back before a snapshot: one is stored at the takeback.
    snapshot = await svc.store.latest_snapshot(game_id)
    assert snapshot is not None and snapshot[0] == game.version
    await assert_rebuilt(svc, game_id)
    # A board drawn before is out of date; the player moves again.
    with pytest.raises(StaleBoard):
        await svc.play(
            game_id, ASHA.user_id, svc.legal_texts(game, 0)[1], expected_version=version + 1
        )
    again = await move(svc, game_id, ASHA, pick=1)
    assert again.version == version + 3


async def test_moves_are_taken_back_one_after_another(table: Table) -> None:
    """A takeback's move is no longer the player's last: the one before it is."""
    svc = table.service
    game_id = await artaban(svc)
    start = (await svc.get(game_id)).state
    await move(svc, game_id, ASHA)
    await move(svc, game_id, BHIMA)
    await move(svc, game_id, ASHA)
    await svc.take_back(game_id, ASHA.user_id)
    await svc.take_back(game_id, BHIMA.user_id)
    # Asha's first move is hers again to take back alone: Bhima's is undone.
    undone = await svc.take_back(game_id, ASHA.user_id)
    assert isinstance(undone, MoveResult)
    assert (await svc.get(game_id)).state == start
    # Before it, her set-up, which chance dealt: that stands.
    with pytest.raises(ServiceError, match="chance followed it"):
        await svc.take_back(game_id, ASHA.user_id)
    await assert_rebuilt(svc, game_id)


async def test_refusals_say_why_and_change_nothing(table: Table) -> None:
    svc = table.service
    fresh = await started(svc, "artaban", 2)
    with pytest.raises(ServiceError, match="You have no move"):
        await svc.take_back(fresh, BHIMA.user_id)
    game_id = await artaban(svc)
    with pytest.raises(ServiceError, match="chance followed it"):
        await svc.take_back(game_id, BHIMA.user_id)  # a set-up chance dealt
    with pytest.raises(ServiceError, match="not playing"):
        await svc.take_back(game_id, PLAYERS[2].user_id)
    played = await move(svc, game_id, ASHA)
    with pytest.raises(ServiceError, match="no longer your last move"):
        await svc.take_back(game_id, ASHA.user_id, target=played.takeback + 1)  # type: ignore[operator]
    await svc.pause(game_id, 1, moderator=True)
    version = (await svc.get(game_id)).version
    with pytest.raises(ServiceError, match="is paused"):
        await svc.take_back(game_id, ASHA.user_id)
    assert (await svc.get(game_id)).version == version
    lobby = await svc.new_game("artaban", creator=ASHA, guild_id=1, channel_id=10)
    with pytest.raises(ServiceError, match="has not started"):
        await svc.take_back(lobby.id, ASHA.user_id)
    await svc.resume(game_id, 1, moderator=True)
    await svc.resign(game_id, BHIMA.user_id)
    with pytest.raises(ServiceError, match="is over"):
        await svc.take_back(game_id, ASHA.user_id)


async def test_a_table_or_a_server_that_says_no_takes_nothing_back(table: Table) -> None:
    svc = table.service
    game_id = await artaban(svc, {"takeback": "no"})
    played = await move(svc, game_id, ASHA)
    assert played.takeback is None
    assert not await svc.store.undo_points(game_id), "nothing kept for takebacks"
    with pytest.raises(ServiceError, match="takeback=no"):
        await svc.take_back(game_id, ASHA.user_id)
    # The server's setting turns it off everywhere, running games included.
    other = await artaban(svc)
    await move(svc, other, ASHA)
    await svc.settings.set(1, "takeback", False, table.clock())
    svc.settings_changed(1)
    with pytest.raises(ServiceError, match="turned off on this server"):
        await svc.take_back(other, ASHA.user_id)
    assert (await move(svc, other, BHIMA)).takeback is None
    await svc.settings.set(1, "takeback", None, table.clock())
    svc.settings_changed(1)
    assert (await move(svc, other, ASHA)).takeback is not None


async def test_a_tournament_takes_nothing_back_unless_it_says_so(table: Table) -> None:
    from bot.director import TournamentDirector
    from storage.ratings import RatingStore
    from storage.tournaments import TournamentStore

    director = TournamentDirector(
        table.service, TournamentStore(table.db), RatingStore(table.db)
    )
    for options, allowed in (({}, False), ({"takeback": "yes"}, True)):
        record = await director.new(
            guild_id=1,
            channel_id=10,
            engine_name="artaban",
            format="swiss",
            rounds=1,
            table_size=None,
            options=options,
            creator_id=1,
            now=table.clock(),
        )
        assert record.options["takeback"] == ("yes" if allowed else "no")
        # Its games take the tournament's options, as the director opens them.
        game_id = await artaban(table.service, dict(record.options))
        played = await move(table.service, game_id, ASHA)
        assert (played.takeback is not None) == allowed
        if not allowed:
            with pytest.raises(ServiceError, match="takeback=no"):
                await table.service.take_back(game_id, ASHA.user_id)


def test_the_entry_and_what_stands_after_it() -> None:
    """``@takeback:<version>``, and the entries still in effect after takebacks."""

    @dataclass(frozen=True)
    class Entry:
        seq: int
        action: str

    assert takeback_event(12) == "@takeback:12" and takeback_target("@takeback:12") == 12
    for other in ("@takeback", "@takeback:", "@takeback:-1", "@takeback:1x", "@left", "c2^"):
        assert takeback_target(other) is None, other
    log = [Entry(1, "a"), Entry(2, "b"), Entry(3, "c"), Entry(4, "@takeback:2"), Entry(5, "d")]
    assert [e.seq for e in in_effect(log)] == [1, 2, 5]
    log += [Entry(6, "@takeback:1")]
    assert [e.seq for e in in_effect(log)] == [1]


# -- with everyone's agreement ----------------------------------------------------------


async def test_after_others_moved_every_other_player_must_agree(table: Table) -> None:
    svc = table.service
    game_id = await artaban(svc)
    start = (await svc.get(game_id)).state
    mine = await move(svc, game_id, ASHA)
    theirs = await move(svc, game_id, BHIMA)
    version = theirs.version

    asked = await svc.take_back(game_id, ASHA.user_id)
    assert isinstance(asked, TakebackRequest)
    assert (asked.seat, asked.asked, asked.agreed) == (0, frozenset({1}), frozenset())
    assert asked.new
    assert asked.move == mine.steps[0].narration and asked.undoes == 1
    assert (await svc.get(game_id)).version == version, "asking changes nothing"
    again = await svc.take_back(game_id, ASHA.user_id)
    assert isinstance(again, TakebackRequest) and not again.new
    with pytest.raises(ServiceError, match="the other players answer"):
        await svc.answer_takeback(game_id, ASHA.user_id, version, agree=True)
    with pytest.raises(ServiceError, match="Only the other players"):
        await svc.answer_takeback(game_id, PLAYERS[2].user_id, version, agree=True)

    declined = await svc.answer_takeback(game_id, BHIMA.user_id, version, agree=False)
    assert isinstance(declined, TakebackRequest) and declined.declined_by == 1
    assert (await svc.get(game_id)).version == version
    with pytest.raises(StaleBoard, match="out of date"):
        await svc.answer_takeback(game_id, BHIMA.user_id, version, agree=True)

    await svc.take_back(game_id, ASHA.user_id)
    done = await svc.answer_takeback(game_id, BHIMA.user_id, version, agree=True)
    assert isinstance(done, MoveResult) and done.actor is None
    game = await svc.get(game_id)
    assert game.state == start and game.version == version + 1
    entry = (await svc.store.log(game_id))[-1]
    assert takeback_target(entry.action) == mine.version - 1
    assert "with everyone's agreement; 1 move made since undone too" in decode(entry.narration)
    assert await svc.store.takeback_ask(game_id) is None
    await assert_rebuilt(svc, game_id)


async def test_a_request_is_out_of_date_once_anyone_moves(table: Table) -> None:
    svc = table.service
    game_id = await artaban(svc)
    await move(svc, game_id, ASHA)
    theirs = await move(svc, game_id, BHIMA)
    await svc.take_back(game_id, ASHA.user_id)
    await move(svc, game_id, ASHA)
    with pytest.raises(StaleBoard, match="out of date"):
        await svc.answer_takeback(game_id, BHIMA.user_id, theirs.version, agree=True)


async def test_alone_with_automatic_seats_nobody_is_asked(table: Table) -> None:
    svc = table.service
    svc.auto_delay = 0  # the automatic seat answers at once
    game = await svc.new_game(
        "artaban", creator=ASHA, guild_id=1, channel_id=10, automatic_players=1
    )
    await svc.start(game.id, ASHA.user_id, moderator=False)
    await svc.play(game.id, ASHA.user_id, "setup random")
    live = await svc.get(game.id)
    assert live.engine.to_move(live.state) == frozenset({0})
    before = live.state
    await move(svc, game.id, ASHA)
    live = await svc.get(game.id)
    assert live.engine.to_move(live.state) == frozenset({0}), "the automatic seat moved"
    undone = await svc.take_back(game.id, ASHA.user_id)
    assert isinstance(undone, MoveResult), "no other person to ask"
    assert (await svc.get(game.id)).state == before


# -- clocks ----------------------------------------------------------------------------


async def test_clocks_are_restored_and_nobody_gains_time(table: Table) -> None:
    svc, clock = table.service, table.clock
    game_id = await artaban(svc, {"clock": "1d+1h"})
    clock.now += 2 * HOUR
    await move(svc, game_id, ASHA)
    seats = (await svc.get(game_id)).seats
    assert seats[0].clock_left == DAY - HOUR, "the move earned its hour"
    clock.now += 10

    await svc.take_back(game_id, ASHA.user_id)

    asha, bhima = (await svc.get(game_id)).seats
    # Asha's clock runs again from where it stood at the move, without the
    # hour it earned; Bhima's ten seconds are spent.
    assert (asha.clock_left, asha.clock_since) == (DAY - 2 * HOUR, clock.now)
    assert (bhima.clock_left, bhima.clock_since) == (DAY - 10, None)
    (deadline,) = [t for t in await svc.timers.of_game(game_id) if t.kind == "clock"]
    assert (deadline.seat, deadline.due) == (0, clock.now + DAY - 2 * HOUR)
    await assert_rebuilt(svc, game_id)


async def test_clocks_after_an_agreed_takeback_keep_what_each_spent(table: Table) -> None:
    svc, clock = table.service, table.clock
    game_id = await artaban(svc, {"clock": "1d+1h"})
    clock.now += 2 * HOUR
    await move(svc, game_id, ASHA)  # Asha: 1d - 2h + 1h
    clock.now += 3 * HOUR
    theirs = await move(svc, game_id, BHIMA)  # Bhima: 1d - 3h + 1h
    clock.now += HOUR  # Asha's clock runs: 1d - 2h
    await svc.take_back(game_id, ASHA.user_id)
    clock.now += 600
    await svc.answer_takeback(game_id, BHIMA.user_id, theirs.version, agree=True)
    asha, bhima = (await svc.get(game_id)).seats
    assert asha.clock_left == pytest.approx(DAY - 2 * HOUR - 600) and asha.clock_since == clock.now
    assert bhima.clock_left == DAY - 2 * HOUR and bhima.clock_since is None


# -- never across chance, never across a reveal ----------------------------------------


async def chaturaji_turn_end(svc: GameService, game_id: int) -> tuple[MoveResult, Player]:
    """Moves in a two-player Chaturaji game until one ends a turn (the next
    dice follow it); returns it and its player."""
    rng = random.Random(4)
    for _ in range(40):
        game = await svc.get(game_id)
        seat = progress_seat(game.engine, game.state)
        player = next(p for p in PLAYERS if p.user_id == game.user_of(seat))
        result = await svc.play(game_id, player.user_id, rng.choice(svc.legal_texts(game, seat)))
        if any(step.seat == CHANCE for step in result.steps) or result.takeback_until:
            return result, player
        assert result.takeback is not None, "a die's move with no dice after it"
    raise AssertionError("no turn ended")


async def test_a_move_the_dice_followed_stands(table: Table) -> None:
    svc = table.service  # no grace: the dice follow at once
    game_id = await started(svc, "chaturaji", 2)
    result, player = await chaturaji_turn_end(svc, game_id)
    assert result.takeback is None and result.takeback_until is None
    roll = next(step.narration for step in result.steps if step.seat == CHANCE)
    with pytest.raises(ServiceError, match="a takeback never undoes a throw") as refused:
        await svc.take_back(game_id, player.user_id)
    assert roll in str(refused.value)


async def test_the_throw_waits_for_a_takeback_then_comes(tmp_path: Path) -> None:
    """With a grace (the bot's), the next dice wait ``THROW_GRACE`` after a
    person's turn: meanwhile nobody acts, nobody's clock runs, the game is
    not stranded, a reload keeps the throw held, and the mover may take the
    move back; then the timer throws, once, and the move stands."""
    db = await open_database(tmp_path / "grace.sqlite3")
    clock = FakeClock()
    svc = GameService(
        GameStore(db), draw=Seeded(1), clock=clock, thinker=quick_thinking(), think_pad={},
        throw_grace=THROW_GRACE,
    )
    try:
        game_id = await started(svc, "chaturaji", 2, {"clock": "1d"})
        result, player = await chaturaji_turn_end(svc, game_id)
        assert result.takeback is not None and result.takeback_until == clock.now + THROW_GRACE
        assert not any(step.seat == CHANCE for step in result.steps), "no dice yet"
        game = await svc.get(game_id)
        assert game.engine.to_move(game.state) == frozenset({CHANCE})
        (throw,) = await svc.timers.of_game(game_id)
        assert (throw.kind, throw.seat, throw.due) == ("clock", CHANCE, clock.now + THROW_GRACE)
        assert all(s.clock_since is None for s in game.seats), "no clock runs meanwhile"
        other = next(p for p in PLAYERS[:2] if p is not player)
        with pytest.raises(NotYourTurn) as waiting:
            await svc.play(game_id, other.user_id, "pass")
        assert str(waiting.value) == HELD_CHANCE
        assert await svc.stranded(game) is None
        svc.forget(game_id)
        assert (await svc.get(game_id)).version == game.version, "a reload throws nothing"
        # A held throw whose timer is lost is stranded, and repaired.
        await svc.timers.replace(game_id, [])
        why = await svc.stranded(await svc.get(game_id))
        assert why == "a throw waits with no timer to make it"
        assert await svc.repair_stranded() == [game_id]
        assert [t.seat for t in await svc.timers.of_game(game_id)] == [CHANCE]

        # Taken back within the grace: no throw, the mover's turn again.
        undone = await svc.take_back(game_id, player.user_id)
        assert isinstance(undone, MoveResult)
        assert not [t for t in await svc.timers.of_game(game_id) if t.seat == CHANCE]
        await assert_rebuilt(svc, game_id)

        result, player = await chaturaji_turn_end(svc, game_id)
        (throw,) = [t for t in await svc.timers.of_game(game_id) if t.seat == CHANCE]
        clock.now = throw.due
        thrown = await svc.clock_timer(throw)
        assert thrown is not None and thrown.steps and thrown.steps[0].seat == CHANCE
        assert await svc.clock_timer(throw) is None, "a timer throws once"
        with pytest.raises(ServiceError, match="chance followed it"):
            await svc.take_back(game_id, player.user_id)
        await assert_rebuilt(svc, game_id)
    finally:
        await db.close()


async def test_alone_with_automatic_seats_the_dice_do_not_wait(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "solo.sqlite3")
    svc = GameService(
        GameStore(db), draw=Seeded(1), clock=FakeClock(), thinker=quick_thinking(),
        think_pad={}, throw_grace=THROW_GRACE, auto_delay=0,
    )
    try:
        game = await svc.new_game(
            "chaturaji", creator=ASHA, guild_id=1, channel_id=10, automatic_players=1
        )
        await svc.start(game.id, ASHA.user_id, moderator=False)
        result, _ = await chaturaji_turn_end(svc, game.id)
        assert result.takeback_until is None and result.takeback is None
    finally:
        await db.close()


async def test_a_move_that_revealed_hidden_cards_stands(table: Table) -> None:
    """Sangram's last commit reveals every committed card: neither it, nor a
    commit before it, is taken back; a first commit, which shows nothing,
    is."""
    svc = table.service
    game_id = await started(svc, "sangram", 2)
    game = await svc.get(game_id)
    assert game.engine.to_move(game.state) == frozenset({0, 1})
    first = await move(svc, game_id, ASHA)
    assert first.takeback is not None
    assert isinstance(await svc.take_back(game_id, ASHA.user_id), MoveResult)
    await move(svc, game_id, ASHA)
    last = await move(svc, game_id, BHIMA)
    assert "Reveal" in last.steps[0].narration and last.takeback is None
    with pytest.raises(ServiceError, match="showed hidden information"):
        await svc.take_back(game_id, BHIMA.user_id)
    with pytest.raises(ServiceError, match="A move made since yours showed hidden"):
        await svc.take_back(game_id, ASHA.user_id)


# -- the log, replays and exports follow it ------------------------------------------


async def test_records_replays_and_exports_follow_a_takeback(table: Table) -> None:
    svc = table.service
    game_id = await artaban(svc)
    await move(svc, game_id, ASHA)
    theirs = await move(svc, game_id, BHIMA)
    await svc.take_back(game_id, BHIMA.user_id)
    await move(svc, game_id, BHIMA, pick=1)
    game = await svc.get(game_id)

    record = await load_record(svc.store, game_id)
    assert GameRecord.parse(record.format()) == record
    *_, (_, _, _, last) = list(states(record))
    assert last == game.state
    takeback = next(a for a in record.actions if a.takeback is not None)
    assert takeback.takeback == theirs.version - 1
    pictures = frames(record)
    back = next(f for f in pictures if any("took back" in line for line in f.lines))
    assert back.version == theirs.version + 1
    assert back.view == game.engine.view((await svc._state_at(game, theirs.version - 1)), None)
    assert pictures[-1].view == game.engine.view(game.state, None)
    # A takeback is a position of its own: reviewing steps stop at it.
    assert position_since(record, theirs.version + 1) == theirs.version + 1
    assert any(a.takeback is not None for a in public_record(record).actions)


# -- races: two processes on one database --------------------------------------------


async def two_artaban(two: tuple[Process, Process, Clock]) -> tuple[int, Process, Process]:
    a, b, _ = two
    game_id = await artaban(a.service)
    await b.service.get(game_id)
    return game_id, a, b


async def test_a_takeback_that_loses_the_race_to_the_next_move_asks_instead(
    two: tuple[Process, Process, Clock],
) -> None:
    """Asha takes her move back on A while Bhima's move lands on B first:
    nothing of the takeback is written; tried again, it needs Bhima's
    agreement, and Bhima's move stands."""
    game_id, a, b = await two_artaban(two)
    await move(a.service, game_id, ASHA)

    async def bhima_moves() -> None:
        await move(b.service, game_id, BHIMA)

    with before_first_write(a.service.store, bhima_moves):
        outcome = await a.service.take_back(game_id, ASHA.user_id)
    assert isinstance(outcome, TakebackRequest) and outcome.asked == frozenset({1})
    log = await a.service.store.log(game_id)
    assert log[-1].actor == 1 and not log[-1].action.startswith("@")
    for p in (a, b):
        await assert_rebuilt(p.service, game_id)


async def test_a_move_that_loses_the_race_to_a_takeback_is_refused(
    two: tuple[Process, Process, Clock],
) -> None:
    """The other order: the takeback lands first, and Bhima's move, made
    from the position after Asha's move, is refused: it is Asha's turn."""
    game_id, a, b = await two_artaban(two)
    await move(a.service, game_id, ASHA)
    game = await b.service.get(game_id)
    text = b.service.legal_texts(game, 1)[0]

    async def asha_takes_back() -> None:
        await a.service.take_back(game_id, ASHA.user_id)

    with before_first_write(b.service.store, asha_takes_back), pytest.raises(NotYourTurn):
        await b.service.play(game_id, BHIMA.user_id, text)
    log = await b.service.store.log(game_id)
    assert takeback_target(log[-1].action) is not None
    for p in (a, b):
        await assert_rebuilt(p.service, game_id)


async def test_two_agreements_at_once_both_count(two: tuple[Process, Process, Clock]) -> None:
    """Three players: Bhima agrees on A while Chitra's agreement lands on B
    first.  Bhima's write finds the request changed, reads it again and
    completes it: the move is taken back once."""
    a, b, _ = two
    svc = a.service
    game_id = await started(svc, "mahabharata", 3)
    rng = random.Random(3)
    # Play until a move of each of the three players stands with no chance
    # drawn since Asha's: then Asha's takeback needs both others.
    for _ in range(200):
        game = await svc.get(game_id)
        seat = progress_seat(game.engine, game.state)
        await svc.play(game_id, game.user_of(seat), rng.choice(svc.legal_texts(game, seat)))
        if seat == 0:
            continue  # Asha would take her own move back at once
        with contextlib.suppress(ServiceError):
            asked = await svc.take_back(game_id, ASHA.user_id)
            assert isinstance(asked, TakebackRequest) and asked.asked == frozenset({1, 2})
            break
    else:
        raise AssertionError("no stretch of three moves without chance")
    version = (await svc.get(game_id)).version
    await b.service.get(game_id)

    async def chitra_agrees() -> None:
        await b.service.answer_takeback(game_id, PLAYERS[2].user_id, version, agree=True)

    with before_first_write(a.service.store, chitra_agrees):
        done = await a.service.answer_takeback(game_id, BHIMA.user_id, version, agree=True)
    assert isinstance(done, MoveResult)
    log = await svc.store.log(game_id)
    assert [takeback_target(e.action) is not None for e in log[-2:]] == [False, True]
    for p in (a, b):
        await assert_rebuilt(p.service, game_id)
