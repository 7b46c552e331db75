"""Asynchronous play through the service (issue 10): clocks, timeouts under
each policy, reminders' timers, pauses, vacations and seats handed to the
automatic player, all driven by a fake clock and the real scheduler over
SQLite files, across restarts."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import CHANCE, GameError, InvalidOptions
from bot.scheduler import Scheduler
from bot.service import GameService, LiveGame, Player, ServiceError
from bot.timekeeping import DAY, HOUR, ClockRule, TableOptions, parse_duration
from storage.games import GameStore
from storage.opening import open_database
from storage.timekeeping import Timer
from tests.fakes import FakeClock, Seeded, quick_thinking

PLAYERS = [Player(100 + i, name) for i, name in enumerate(["Asha", "Bhima", "Chitra", "Dev"])]


class Table:
    """A service over one SQLite file, a fake clock and the scheduler, which
    hands clock timers to the service and records reminders."""

    def __init__(self, path: Path, clock: FakeClock, seed: int = 1) -> None:
        self.path, self.clock, self.seed = path, clock, seed
        self.reminded: list[Timer] = []

    async def open(self) -> Table:
        self.db = await open_database(self.path)
        self.service = GameService(
            GameStore(self.db),
            draw=Seeded(self.seed),
            clock=self.clock,
            snapshot_every=10,
            thinker=quick_thinking(),
            think_pad={},
        )
        self.scheduler = Scheduler(self.service.timers, self.fire, self.clock)
        return self

    async def fire(self, timer: Timer) -> None:
        if timer.kind == "clock":
            await self.service.clock_timer(timer)
        elif await self.service.timers.claim(timer):
            self.reminded.append(timer)

    async def close(self) -> None:
        await self.db.close()

    async def restart(self) -> None:
        await self.close()
        await self.open()
        await self.service.settle_timers()

    async def start(self, engine: str, players: int, **options: str) -> LiveGame:
        svc = self.service
        game = await svc.new_game(
            engine, creator=PLAYERS[0], guild_id=1, channel_id=10, options=options
        )
        for p in PLAYERS[1:players]:
            await svc.join(game.id, p)
        return (await svc.start(game.id, PLAYERS[0].user_id, moderator=False)).game

    async def advance(self, seconds: float) -> int:
        self.clock.now += seconds
        return await self.scheduler.run_due()

    async def move(self, game_id: int, rng: random.Random) -> None:
        game = await self.service.get(game_id)
        seat = min(game.engine.waiting_on(game.state))
        text = rng.choice(self.service.legal_texts(game, seat))
        await self.service.play(game_id, game.user_of(seat), text)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = await Table(tmp_path / "chaupal.sqlite3", FakeClock()).open()
    yield t
    await t.close()


def awaited(game: LiveGame) -> list[int]:
    return sorted(game.engine.waiting_on(game.state))


# -- the value types ---------------------------------------------------------------


def test_clock_and_table_options_parse_and_format_both_ways() -> None:
    assert parse_duration("1d12h") == 1.5 * DAY
    assert ClockRule.parse("none") is None
    assert ClockRule.parse("1d") == ClockRule(DAY, per_move=True)
    bank = ClockRule.parse("3d+12h")
    assert bank == ClockRule(3 * DAY, 12 * HOUR)
    assert bank is not None and ClockRule.parse(bank.format()) == bank
    options = TableOptions.parse({"clock": "12h", "timeout": "forfeit", "reminder": "off"})
    assert TableOptions.from_json(options.to_json()) == options
    for bad in ({"clock": "soon"}, {"clock": "99d"}, {"timeout": "nap"}, {"reminder": "0h"}):
        with pytest.raises(InvalidOptions):
            TableOptions.parse(bad)


async def test_lobby_table_options_are_kept_apart_from_the_engines(table: Table) -> None:
    game = await table.start("artaban", 2, clock="1d", timeout="skip", reminder="6h")
    assert game.table == TableOptions(ClockRule(DAY, per_move=True), "skip", 6 * HOUR)
    assert "clock" not in game.record.options
    with pytest.raises(GameError, match="clock"):
        await table.service.new_game(
            "artaban", creator=PLAYERS[0], guild_id=1, channel_id=10, options={"clock": "x"}
        )


# -- clocks and timeouts ---------------------------------------------------------


async def test_a_correspondence_clock_times_out_into_an_automatic_move(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1d", pieces="1")
    version = game.version
    (seat,) = awaited(game)
    assert game.seats[seat].clock_since == table.clock.now
    timers = await table.service.timers.of_game(game.id)
    assert {(t.kind, t.seat) for t in timers} == {("clock", seat), ("remind", seat)}
    assert await table.advance(12 * HOUR) == 1  # the reminder, not the clock
    assert [t.kind for t in table.reminded] == ["remind"]
    assert await table.advance(12 * HOUR - 60) == 0
    assert (await table.service.get(game.id)).version == version
    await table.advance(61)
    game = await table.service.get(game.id)
    assert game.version > version and game.seats[seat].timeouts == 1
    log = await table.service.store.log(game.id)
    assert any(e.action == "@timeout" and "ran out of time" in e.narration for e in log)
    assert any(e.actor == seat and not e.action.startswith("@") for e in log[-3:])
    # Per move: the clock is full again for its next move.
    assert game.seats[seat].clock_left == DAY


async def test_three_timeouts_in_a_row_forfeit_a_two_player_game(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1h", reminder="off", pieces="1")
    rng = random.Random(4)
    loser: int | None = None
    for _ in range(40):
        game = await table.service.get(game.id)
        if game.is_over:
            break
        (seat,) = awaited(game)
        if loser is None:
            loser = seat
        if seat == loser:
            await table.advance(HOUR + 1)
        else:
            await table.move(game.id, rng)
    game = await table.service.get(game.id)
    assert game.is_over and game.outcome is not None
    assert game.outcome.ranking[-1] == frozenset({loser})
    assert "ran out of time" in game.outcome.reason
    assert await table.service.timers.of_game(game.id) == []


async def test_a_move_in_time_resets_the_timeout_streak(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1h", pieces="1")
    (seat,) = awaited(game)
    await table.advance(HOUR + 1)
    game = await table.service.get(game.id)
    assert game.seats[seat].timeouts == 1
    rng = random.Random(2)
    while seat not in awaited(game):
        await table.move(game.id, rng)
        game = await table.service.get(game.id)
    await table.move(game.id, rng)
    game = await table.service.get(game.id)
    assert game.seats[seat].timeouts == 0


async def test_a_time_bank_adds_its_increment_after_each_move(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1d+2h", pieces="1")
    (seat,) = awaited(game)
    table.clock.now += 5 * HOUR
    await table.move(game.id, random.Random(1))
    game = await table.service.get(game.id)
    assert game.seats[seat].clock_left == pytest.approx(DAY - 5 * HOUR + 2 * HOUR)
    assert game.seats[seat].clock_since is None
    (other,) = awaited(game)
    assert game.seats[other].clock_since == table.clock.now


async def test_forfeit_with_four_players_hands_the_seat_over_and_ranks_it_last(
    table: Table,
) -> None:
    game = await table.start("kauda_baji", 4, clock="1h", timeout="forfeit", pieces="1")
    (gone,) = awaited(game)
    await table.advance(HOUR + 1)
    game = await table.service.get(game.id)
    assert game.is_auto(gone) and not game.is_over
    assert gone not in game.engine.to_move(game.state)
    # A resignation too; then the others play to the end.
    resigner = next(s for s in range(4) if s != gone)
    await table.service.resign(game.id, game.user_of(resigner))
    rng = random.Random(5)
    for _ in range(3000):
        game = await table.service.get(game.id)
        if game.is_over:
            break
        await table.move(game.id, rng)
    game = await table.service.get(game.id)
    assert game.is_over and game.outcome is not None
    ranking = game.outcome.ranking
    assert ranking[-1] == frozenset({gone}) and ranking[-2] == frozenset({resigner})
    assert sorted(s for g in ranking for s in g) == [0, 1, 2, 3]


async def test_skip_passes_where_the_game_has_a_pass(table: Table) -> None:
    # Martian Chaturaji offers `pass` on every turn (R5).
    # Choosing the first army (R14) has no pass: that timeout substitutes.
    game = await table.start("chaturaji", 2, clock="1h", timeout="skip", reminder="off")
    timed_out: list[str] = []
    for _ in range(3):
        before = len(await table.service.store.log(game.id))
        await table.advance(HOUR + 1)
        log = await table.service.store.log(game.id)
        notes = [e for e in log[before:] if e.action == "@timeout"]
        moves = [e for e in log[before:] if e.actor >= 0 and not e.action.startswith("@")]
        assert notes and moves
        timed_out.append(moves[0].action)
        if "passes" in notes[0].narration:
            assert moves[0].action == "pass"
    assert timed_out[0].startswith("first") and "pass" in timed_out[1:]


# -- pauses, vacations, reminders ---------------------------------------------------


async def test_a_paused_game_stops_its_clocks_and_timers(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1h", pieces="1")
    (seat,) = awaited(game)
    table.clock.now += 20 * 60
    with pytest.raises(ServiceError, match="moderator"):
        await table.service.pause(game.id, PLAYERS[0].user_id, moderator=False)
    game = await table.service.pause(game.id, PLAYERS[0].user_id, moderator=True)
    assert await table.service.timers.of_game(game.id) == []
    assert game.seats[seat].clock_left == pytest.approx(40 * 60)
    assert await table.advance(10 * DAY) == 0
    game = await table.service.resume(game.id, PLAYERS[0].user_id, moderator=True)
    (clock,) = [t for t in await table.service.timers.of_game(game.id) if t.kind == "clock"]
    assert clock.due == pytest.approx(table.clock.now + 40 * 60)


async def test_a_vacation_stops_the_clock_until_it_ends(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1h", pieces="1")
    (seat,) = awaited(game)
    user = game.user_of(seat)
    reply = await table.service.away(user, 2)
    assert "2 days" in reply and "1 game" in reply
    game = await table.service.get(game.id)
    assert game.seats[seat].clock_since is None
    timers = await table.service.timers.of_game(game.id)
    assert [(t.kind, t.due) for t in timers] == [("clock", table.clock.now + 2 * DAY)]
    version = game.version
    await table.advance(2 * DAY)  # back: the clock runs again, nothing was played
    game = await table.service.get(game.id)
    assert game.version == version and game.seats[seat].clock_since == table.clock.now
    with pytest.raises(ServiceError, match="14"):
        await table.service.away(user, 15)
    await table.service.away(user, 10)
    with pytest.raises(ServiceError, match="already away"):
        await table.service.away(user, 1)
    table.clock.now += DAY
    assert "run again" in await table.service.back(user)
    # Three days taken in this window (two, then one of ten): eleven are left.
    with pytest.raises(ServiceError, match="11 left"):
        await table.service.away(user, 12)
    with pytest.raises(ServiceError, match="not away"):
        await table.service.back(user)


async def test_reminders_are_set_for_the_wait_and_reset_by_a_move(table: Table) -> None:
    game = await table.start("kauda_baji", 2, pieces="1", clock="none", reminder="12h")
    (remind,) = await table.service.timers.of_game(game.id)
    assert remind.kind == "remind" and remind.due == table.clock.now + 12 * HOUR
    table.clock.now += HOUR
    await table.move(game.id, random.Random(3))
    (again,) = await table.service.timers.of_game(game.id)
    assert again.due == table.clock.now + 12 * HOUR
    assert await table.advance(12 * HOUR) == 1
    assert len(table.reminded) == 1


# -- restarts ------------------------------------------------------------------------


async def test_a_deadline_due_across_a_restart_fires_exactly_once(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1h", reminder="off", pieces="1")
    version = game.version
    await table.close()
    table.clock.now += 5 * HOUR  # the bot was down when the clock ran out
    await table.open()
    await table.service.settle_timers()
    assert await table.scheduler.run_due() == 1
    game = await table.service.get(game.id)
    played = game.version - version
    assert played >= 2  # the table's note and the automatic move (with chance)
    # The same timer never fires again, after another restart either.
    await table.restart()
    assert await table.scheduler.run_due() == 0
    assert (await table.service.get(game.id)).version == game.version


async def test_timers_lost_in_a_crash_are_set_again_at_start_up(table: Table) -> None:
    game = await table.start("kauda_baji", 2, clock="1h", pieces="1")
    await table.service.timers.replace(game.id, [])  # as if the write never happened
    await table.restart()
    kinds = sorted(t.kind for t in await table.service.timers.of_game(game.id))
    assert kinds == ["clock", "remind"]


async def test_a_player_who_left_cannot_move_and_nobody_waits_for_them(table: Table) -> None:
    game = await table.start("kauda_baji", 3, pieces="1")
    await table.service.resign(game.id, PLAYERS[2].user_id)
    game = await table.service.get(game.id)
    assert game.is_auto(2)
    rng = random.Random(8)
    for _ in range(200):
        game = await table.service.get(game.id)
        if game.is_over:
            break
        assert 2 not in game.engine.waiting_on(game.state)
        await table.move(game.id, rng)
    any_state: Any = game.state
    assert any_state is not None and CHANCE not in game.engine.waiting_on(any_state)


# -- ratings (issue 11) -----------------------------------------------------------------


async def test_a_finished_game_is_rated_once_as_openskill_computes(table: Table) -> None:
    from openskill.models import PlackettLuce

    game = await table.start("kauda_baji", 3, pieces="1", reminder="off")
    rng = random.Random(6)
    for _ in range(3000):
        game = await table.service.get(game.id)
        if game.is_over:
            break
        await table.move(game.id, rng)
    assert game.is_over and game.outcome is not None
    ratings = table.service.ratings
    assert await ratings.is_rated(game.id)
    model = PlackettLuce()
    users = [s.user_id for s in game.seats]
    order = [seat for group in game.outcome.ranking for seat in sorted(group)]
    teams = [[model.rating()] for _ in order]
    after = model.rate(teams, ranks=[i + 1 for i in range(len(order))])
    for seat, (rating,) in zip(order, after, strict=True):
        stored = await ratings.get(1, "kauda_baji", users[seat])
        assert stored is not None and stored.games == 1
        assert stored.mu == pytest.approx(rating.mu, abs=1e-9)
        assert stored.sigma == pytest.approx(rating.sigma, abs=1e-9)
    # Loading the game again (a restart) never rates it twice.
    await table.restart()
    for seat in order:
        stored = await table.service.ratings.get(1, "kauda_baji", users[seat])
        assert stored is not None and stored.games == 1


async def test_unrated_games_and_games_a_moderator_ended_rate_nobody(table: Table) -> None:
    game = await table.start("kauda_baji", 2, pieces="1", rated="no")
    await table.service.resign(game.id, PLAYERS[1].user_id)
    assert not await table.service.ratings.is_rated(game.id)
    game = await table.start("kauda_baji", 2, pieces="1")
    await table.service.resign(game.id, 999, moderator=True)
    assert not await table.service.ratings.is_rated(game.id)
    game = await table.start("kauda_baji", 2, pieces="1")
    await table.service.resign(game.id, PLAYERS[1].user_id)  # before any move (issue 31)
    assert not await table.service.ratings.is_rated(game.id)
    game = await table.start("kauda_baji", 2, pieces="1")
    await table.move(game.id, random.Random(1))
    await table.service.resign(game.id, PLAYERS[1].user_id)  # a resignation is a result
    assert await table.service.ratings.is_rated(game.id)
