"""The tournament director's rules over real SQLite files: a round robin's
schedule (with and without a drop), drops, adjudication, ending a
tournament, elimination standings, and what :meth:`TournamentDirector.new`
refuses.  Games end by resignation or a moderator's end, or are played out
by the automatic players (the ``Club`` of ``tests/bot/test_director.py``)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.director import MAX_NAME, TournamentDirector
from bot.engines import ENGINES
from bot.engines.core import GameError
from bot.engines.sangram import SangramEngine
from bot.service import Player, ServiceError
from bot.tournament import pairing, standings
from storage.tournaments import TournamentStore, TournamentTable
from tests.bot.test_director import PLAYERS, Club


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[Club]:
    c = await Club(tmp_path / "rules.sqlite3").open()
    yield c
    await c.close()


def ids_of(players: Iterable[Player]) -> list[int]:
    return [p.user_id for p in players]


async def open_tournament(
    club: Club,
    *,
    engine: str = "artaban",
    format: str = "swiss",
    players: Iterable[Player] = PLAYERS[:4],
    rounds: int = 0,
    table_size: int | None = None,
    options: dict[str, Any] | None = None,
) -> int:
    record = await club.director.new(
        guild_id=7,
        channel_id=70,
        engine_name=engine,
        format=format,
        rounds=rounds,
        table_size=table_size,
        options=options or {},
        creator_id=1,
        now=club.now,
    )
    for p in players:
        assert await club.director.join(record.id, p, club.now)
    return record.id


async def current(club: Club, tid: int) -> tuple[int, str, list[TournamentTable]]:
    record = await club.director.store.get(tid)
    assert record is not None
    return record.round, record.status, await club.director.store.tables(tid, record.round)


async def resign_seat_one(club: Club, tid: int, *, sparing: Iterable[int] = ()) -> None:
    """Seat 1 resigns every unfinished game of the round (but the games of
    ``sparing``), and the director hears of each."""
    spared = set(sparing)
    _, _, tables = await current(club, tid)
    for table in tables:
        if table.places is None and table.game_id is not None and not spared & set(table.seats):
            await club.games.resign(table.game_id, table.seats[1])
    await club.settle()


async def start_one_pod(club: Club) -> tuple[int, TournamentTable]:
    """A one-round Sangram pod tournament of three, started: its one table."""
    tid = await open_tournament(
        club,
        engine="sangram",
        format="pods",
        players=PLAYERS[:3],
        rounds=1,
        table_size=3,
        options={"round_limit": 6},
    )
    await club.director.start(tid, club.now)
    _, _, [table] = await current(club, tid)
    return tid, table


def store_of(club: Club) -> TournamentStore:
    return club.director.store


# -- round robin --------------------------------------------------------------------------


async def test_a_five_player_round_robin_plays_every_pair_once(club: Club) -> None:
    entrants = ids_of(PLAYERS[:5])
    tid = await open_tournament(club, format="round_robin", players=PLAYERS[:5])
    started = await club.director.start(tid, club.now)
    assert started.new_round and len(started.games) == 2
    for number in range(1, 6):
        round_, status, tables = await current(club, tid)
        assert (round_, status) == (number, "running")
        assert sorted(len(t.seats) for t in tables) == [1, 2, 2]
        await resign_seat_one(club, tid)
    record = await store_of(club).get(tid)
    assert record is not None and record.status == "finished" and record.round == 5
    tables = await store_of(club).tables(tid)
    assert all(t.places is not None for t in tables)
    met = Counter(frozenset(t.seats) for t in tables if not t.is_bye)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(entrants, 2)}
    assert set(met.values()) == {1}
    byes = Counter(t.seats[0] for t in tables if t.is_bye)
    assert byes == Counter(entrants)  # one bye each
    table = await club.director.table_of_standings(tid)
    assert sum(row.points for row in table) == 10 + 5


async def test_a_round_robin_drop_keeps_everyone_elses_schedule(club: Club) -> None:
    entrants = PLAYERS[:5]
    schedule = pairing.round_robin_schedule([standings.Player(p.user_id, 0.0) for p in entrants])
    assert len(schedule) == 5
    tid = await open_tournament(club, format="round_robin", players=entrants)
    await club.director.start(tid, club.now)
    _, _, first = await current(club, tid)
    assert [t.seats for t in first if not t.is_bye] == [t.seats for t in schedule[0].tables]
    assert [t.seats[0] for t in first if t.is_bye] == list(schedule[0].byes)

    # Everyone else finishes round 1; then the player is dropped mid-game.
    gone = schedule[0].tables[0].seats[1]
    rival = schedule[0].tables[0].seats[0]
    await resign_seat_one(club, tid, sparing=[gone])
    assert (await current(club, tid))[0] == 1
    dropped = await club.director.drop(tid, gone, club.now)
    assert dropped.resigned is not None and dropped.resigned.game.is_over
    await club.settle()
    their = next(t for t in await store_of(club).tables(tid, 1) if gone in t.seats)
    assert their.places == (1, 2)  # the rival won
    assert not their.adjudicated
    player = next(p for p in await store_of(club).players(tid) if p.user_id == gone)
    assert player.dropped_after == 1 and not player.active
    assert rival != gone

    for number in range(2, 6):
        round_, status, tables = await current(club, tid)
        assert (round_, status) == (number, "running")
        planned = schedule[number - 1]
        assert all(gone not in t.seats for t in tables)
        games = [t.seats for t in tables if not t.is_bye]
        assert games == [t.seats for t in planned.tables if gone not in t.seats]
        met = [t.seats for t in planned.tables if gone in t.seats]
        expected_byes = {u for u in planned.byes if u != gone} | {
            u for seats in met for u in seats if u != gone
        }
        byes = [t for t in tables if t.is_bye]
        assert {t.seats[0] for t in byes} == expected_byes
        assert len(byes) == len(expected_byes)
        assert all(t.places == (1,) for t in byes)
        await resign_seat_one(club, tid)
    record = await store_of(club).get(tid)
    assert record is not None and record.status == "finished" and record.round == 5
    # The others met each other exactly once.
    others = [u for u in ids_of(entrants) if u != gone]
    met_all = Counter(frozenset(t.seats) for t in await store_of(club).tables(tid) if not t.is_bye)
    for pair in itertools.combinations(others, 2):
        assert met_all[frozenset(pair)] == 1
    assert [s for s in met_all if gone in s] == [frozenset((gone, rival))]
    # Still counted: the dropped player has a row, last.
    table = await club.director.table_of_standings(tid)
    assert table[-1].player == gone and table[-1].points == 0


# -- dropping -----------------------------------------------------------------------------


async def test_drops_that_are_refused(club: Club) -> None:
    tid = await open_tournament(club, players=PLAYERS[:2], rounds=1)
    with pytest.raises(ServiceError, match="has not started"):
        await club.director.drop(tid, PLAYERS[0].user_id, club.now)
    await club.director.start(tid, club.now)
    with pytest.raises(ServiceError, match="not in"):
        await club.director.drop(tid, PLAYERS[5].user_id, club.now)
    await club.director.drop(tid, PLAYERS[0].user_id, club.now)
    await club.settle()
    record = await store_of(club).get(tid)
    assert record is not None and record.status == "finished"  # one player left
    with pytest.raises(ServiceError, match="over"):
        await club.director.drop(tid, PLAYERS[1].user_id, club.now)


async def test_a_drop_resigns_the_two_player_game(club: Club) -> None:
    tid = await open_tournament(club, players=PLAYERS[:4], rounds=2)
    await club.director.start(tid, club.now)
    _, _, tables = await current(club, tid)
    table = tables[0]
    assert table.game_id is not None
    gone, rival = table.seats[0], table.seats[1]
    dropped = await club.director.drop(tid, gone, club.now)
    assert dropped.resigned is not None
    game = await club.games.get(table.game_id)
    assert game.is_over
    with pytest.raises(ServiceError, match="already dropped"):
        await club.director.drop(tid, gone, club.now)
    await club.settle()
    after = next(t for t in await store_of(club).tables(tid, 1) if t.number == table.number)
    assert after.places == (2, 1)  # seat 0 dropped: seat 1 wins
    points = {row.player: row.points for row in await club.director.table_of_standings(tid)}
    assert points[rival] == 1 and points[gone] == 0
    # The rest of round 1, then round 2 without the dropped player.
    await resign_seat_one(club, tid)
    round_, _, second = await current(club, tid)
    assert round_ == 2 and all(gone not in t.seats for t in second)
    assert sorted(len(t.seats) for t in second) == [1, 2]


async def test_a_pod_drop_hands_the_seat_to_the_automatic_player(club: Club) -> None:
    tid, table = await start_one_pod(club)
    assert table.game_id is not None and len(table.seats) == 3
    gone = table.seats[1]
    dropped = await club.director.drop(tid, gone, club.now)
    assert dropped.resigned is not None
    await club.settle()
    game = await club.games.get(table.game_id)
    assert not game.is_over and game.record.status == "active"  # the game goes on
    assert game.seat_of(gone) == 1 and game.is_auto(1)
    assert not game.is_auto(0) and not game.is_auto(2)
    assert (await current(club, tid))[2][0].places is None
    await club.play_round_out()
    [done] = await store_of(club).tables(tid, 1)
    assert done.places is not None
    assert done.places[1] == 3 and max(done.places[0], done.places[2]) < 3  # last, alone
    record = await store_of(club).get(tid)
    assert record is not None and record.status == "finished"


# -- adjudication -------------------------------------------------------------------------


async def test_adjudication(club: Club) -> None:
    director = club.director
    tid = await open_tournament(club, players=PLAYERS[:4], rounds=2)
    with pytest.raises(ServiceError, match="not running"):
        await director.adjudicate(tid, 1, (1, 2), club.now)
    await director.start(tid, club.now)
    _, _, [first, second] = await current(club, tid)
    assert first.game_id is not None and second.game_id is not None

    # Wrong seat counts and places.
    for places in [(1,), (1, 2, 3), (0, 1), (1, -1), ()]:
        with pytest.raises(ServiceError, match="2 seats"):
            await director.adjudicate(tid, first.game_id, places, club.now)
    # A game of another tournament, and a game of none.
    other = await open_tournament(club, players=PLAYERS[4:6], rounds=1)
    await director.start(other, club.now)
    [theirs] = await store_of(club).tables(other, 1)
    assert theirs.game_id is not None
    with pytest.raises(ServiceError, match="not a game of"):
        await director.adjudicate(tid, theirs.game_id, (1, 2), club.now)
    casual = await club.games.new_game(
        "artaban", creator=PLAYERS[6], guild_id=7, channel_id=70, options={}
    )
    with pytest.raises(ServiceError, match="not a game of"):
        await director.adjudicate(tid, casual.id, (1, 2), club.now)
    # Nothing was touched.
    assert not (await club.games.get(first.game_id)).is_over
    assert all(t.places is None for t in await store_of(club).tables(tid, 1))

    # A game with a result is not adjudicated again.
    await club.games.resign(second.game_id, second.seats[1])
    await club.settle()
    with pytest.raises(ServiceError, match="already has its result"):
        await director.adjudicate(tid, second.game_id, (2, 1), club.now)
    assert (await current(club, tid))[0] == 1

    # The last game of the round, adjudicated: seat 1 wins.
    moved = await director.adjudicate(tid, first.game_id, (2, 1), club.now)
    assert moved.new_round and moved.tournament.round == 2 and len(moved.games) == 2
    game = await club.games.get(first.game_id)
    assert game.is_over and game.record.status == "abandoned"
    await club.settle()  # the game-over hook of the ended game runs now
    decided = next(t for t in await store_of(club).tables(tid, 1) if t.number == first.number)
    assert decided.places == (2, 1) and decided.adjudicated
    resigned = next(t for t in await store_of(club).tables(tid, 1) if t.number == second.number)
    assert resigned.places == (1, 2) and not resigned.adjudicated
    round_, status, tables = await current(club, tid)
    assert (round_, status) == (2, "running") and len(tables) == 2
    for t in tables:
        assert (await club.games.get(t.game_id or 0)).record.status == "active"
    with pytest.raises(ServiceError, match="already has its result"):
        await director.adjudicate(tid, first.game_id, (1, 2), club.now)


async def test_adjudicating_a_pod_with_shared_places(club: Club) -> None:
    tid, table = await start_one_pod(club)
    assert table.game_id is not None
    with pytest.raises(ServiceError, match="3 seats"):
        await club.director.adjudicate(tid, table.game_id, (1, 2), club.now)
    moved = await club.director.adjudicate(tid, table.game_id, (2, 1, 2), club.now)
    assert moved.finished
    await club.settle()
    [done] = await store_of(club).tables(tid, 1)
    assert done.places == (2, 1, 2) and done.adjudicated
    rows = await club.director.table_of_standings(tid)
    assert rows[0].player == table.seats[1]


# -- ending -------------------------------------------------------------------------------


async def test_ending_an_open_tournament_cancels_it(club: Club) -> None:
    tid = await open_tournament(club, players=PLAYERS[:3])
    record, ended = await club.director.end(tid, club.now)
    assert record.status == "cancelled" and ended == []
    with pytest.raises(ServiceError, match="already over"):
        await club.director.end(tid, club.now)
    with pytest.raises(ServiceError, match="already started"):
        await club.director.start(tid, club.now)


async def test_ending_a_running_tournament(club: Club) -> None:
    tid = await open_tournament(club, players=PLAYERS[:6], rounds=3)
    await club.director.start(tid, club.now)
    _, _, tables = await current(club, tid)
    done, *playing = tables
    assert done.game_id is not None
    await club.games.resign(done.game_id, done.seats[1])
    await club.settle()
    record, ended = await club.director.end(tid, club.now)
    assert record.status == "finished" and record.round == 1
    assert sorted(ended) == sorted(t.game_id or 0 for t in playing)
    await club.settle()  # the game-over hooks of the ended games
    for game_id in ended:
        assert (await club.games.get(game_id)).is_over
    after = await store_of(club).tables(tid, 1)
    assert after[0].places == (1, 2)
    assert [t.places for t in after[1:]] == [None, None]  # not recorded as draws
    with pytest.raises(ServiceError, match="already over"):
        await club.director.end(tid, club.now)
    assert await club.director.resume_all(club.now) == []
    table = await club.director.table_of_standings(tid)
    assert sum(row.points for row in table) == 1


async def test_a_result_reached_just_before_the_end_is_kept(club: Club) -> None:
    """A game that ended before the moderator ended the tournament keeps its
    result, even when its game-over hook has not run yet."""
    tid = await open_tournament(club, players=PLAYERS[:4], rounds=2)
    await club.director.start(tid, club.now)
    _, _, [done, playing] = await current(club, tid)
    assert done.game_id is not None
    await club.games.resign(done.game_id, done.seats[1])  # its hook is pending
    _, ended = await club.director.end(tid, club.now)
    assert ended == [playing.game_id]
    await club.settle()
    after = await store_of(club).tables(tid, 1)
    assert after[0].places == (1, 2)
    assert after[1].places is None


# -- elimination --------------------------------------------------------------------------


async def test_elimination_standings_count_a_draw_as_the_better_seeds_win(club: Club) -> None:
    entrants = PLAYERS[:4]
    seeds = pairing.seeded([standings.Player(p.user_id, 0.0) for p in entrants])
    top = seeds[0]
    tid = await open_tournament(club, format="elimination", players=entrants)
    await club.director.start(tid, club.now)
    _, _, first = await current(club, tid)
    assert len(first) == 2
    other_winner = 0
    for table in first:
        assert table.game_id is not None
        if top in table.seats:
            await club.games.end(table.game_id)  # a draw: the top seed goes through
        else:
            worse = max(table.seats, key=seeds.index)
            other_winner = min(table.seats, key=seeds.index)
            await club.games.resign(table.game_id, worse)
    await club.settle()
    round_, _, [final] = await current(club, tid)
    assert round_ == 2 and set(final.seats) == {top, other_winner}
    assert final.game_id is not None
    await club.games.end(final.game_id)  # drawn again: the top seed is champion
    await club.settle()
    record = await store_of(club).get(tid)
    assert record is not None and record.status == "finished" and record.round == 2
    # The draws are stored as draws ...
    assert [t.places for t in await store_of(club).tables(tid) if top in t.seats] == [
        (1, 1),
        (1, 1),
    ]
    # ... and scored as the better seed's wins: the champion is first.
    rows = await club.director.table_of_standings(tid)
    assert [row.player for row in rows[:2]] == [top, other_winner]
    assert [row.points for row in rows] == [2, 1, 0, 0]


async def test_an_elimination_drop_keeps_the_bracket(club: Club) -> None:
    """The top seed drops during round 1: their opponent goes through, and
    the final is between the two winners of round 1 (nobody who lost plays
    again, nobody is given a bye into a final that is already set)."""
    entrants = PLAYERS[:4]
    seeds = pairing.seeded([standings.Player(p.user_id, 0.0) for p in entrants])
    top = seeds[0]
    tid = await open_tournament(club, format="elimination", players=entrants)
    await club.director.start(tid, club.now)
    _, _, first = await current(club, tid)
    theirs = next(t for t in first if top in t.seats)
    other = next(t for t in first if top not in t.seats)
    through = next(u for u in theirs.seats if u != top)
    await club.director.drop(tid, top, club.now)
    assert other.game_id is not None
    winner = min(other.seats, key=seeds.index)
    loser = max(other.seats, key=seeds.index)
    await club.games.resign(other.game_id, loser)
    await club.settle()
    round_, status, second = await current(club, tid)
    assert (round_, status) == (2, "running")
    assert [set(t.seats) for t in second] == [{through, winner}]


# -- opening ------------------------------------------------------------------------------


async def new(director: TournamentDirector, **given: Any) -> None:
    kw: dict[str, Any] = {
        "guild_id": 7,
        "channel_id": 70,
        "engine_name": "artaban",
        "format": "swiss",
        "rounds": 0,
        "table_size": None,
        "options": {},
        "creator_id": 1,
        "now": 0.0,
    }
    kw.update(given)
    await director.new(**kw)


class ThreeUp:
    """A game of three or more (none of the registered engines is): Sangram
    under another name.  A wrapper, not a subclass: the compiled engines
    (bot/engines/compiled.py) cannot be subclassed by Python classes."""

    name = "three_up"
    min_players = 3

    def __init__(self) -> None:
        self._sangram = SangramEngine()

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._sangram, attribute)


async def test_new_refuses_what_cannot_be_run(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    d = club.director
    # Pods of a two-player game.
    for size in (None, 2, 3):
        with pytest.raises(
            ServiceError, match="Artaban is for 2 players; pods need games for 3 to 5"
        ):
            await new(d, format="pods", table_size=size)
    # Pods out of 3 to 5, or beyond the game.
    for size in (2, 6):
        with pytest.raises(ServiceError, match=f"Pods of {size}"):
            await new(d, engine_name="sangram", format="pods", table_size=size)
    # Two-player formats for a game of three or more.
    monkeypatch.setitem(ENGINES, "three_up", ThreeUp())
    for fmt in ("swiss", "round_robin", "elimination"):
        with pytest.raises(ServiceError, match="needs pods"):
            await new(d, engine_name="three_up", format=fmt)
    # Rounds where the format decides them.
    for fmt in ("round_robin", "elimination"):
        with pytest.raises(ServiceError, match="decides its own rounds"):
            await new(d, format=fmt, rounds=3)
    for rounds in (-1, 51):
        with pytest.raises(ServiceError, match="50 rounds"):
            await new(d, rounds=rounds)
    with pytest.raises(ServiceError, match="ladder"):
        await new(d, format="ladder")
    with pytest.raises(GameError, match="no game called"):
        await new(d, engine_name="chess")
    # Bad options, the engine's and the table's.
    for options, said in [
        ({"nonsense": "1"}, "no option"),
        ({"diagonal_captures": "sometimes"}, "yes or no"),
        ({"rated": "perhaps"}, "rated"),
        ({"timeout": "whenever"}, "timeout"),
    ]:
        with pytest.raises(GameError, match=said):
            await new(d, options=options)
    with pytest.raises(GameError, match="round_limit"):
        await new(d, engine_name="sangram", options={"round_limit": "many"})
    assert await store_of(club).in_guild(7) == []  # nothing was created


async def test_new_accepts_and_normalises(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    d = club.director
    monkeypatch.setitem(ENGINES, "three_up", ThreeUp())
    three = await d.new(
        guild_id=7, channel_id=70, engine_name="three_up", format="pods", rounds=0,
        table_size=3, options={}, creator_id=1, now=0.0,
    )  # fmt: skip
    assert three.table_size == 3
    pods = await d.new(
        guild_id=7, channel_id=70, engine_name="sangram", format="pods", rounds=0,
        table_size=None, options={}, creator_id=1, now=0.0,
    )  # fmt: skip
    assert pods.table_size == 4
    swiss = await d.new(
        guild_id=7, channel_id=70, engine_name="sangram", format="swiss", rounds=2,
        table_size=None, options={"rated": "no", "round_limit": "6"}, creator_id=1, now=0.0,
        name="  " + "N" * (MAX_NAME + 10) + "  ",
    )  # fmt: skip
    assert swiss.table_size == 2
    assert swiss.options["rated"] == "yes"  # tournament games are always rated
    assert swiss.name == "N" * (MAX_NAME - 1) + "…"
    # A name is one plain line: no newlines or control characters to break messages.
    plain = await d.new(
        guild_id=7, channel_id=70, engine_name="artaban", format="swiss", rounds=1,
        table_size=None, options={}, creator_id=1, now=0.0, name="Winter\n\x00Cup\u200e ",
    )  # fmt: skip
    assert plain.name == "Winter Cup"
    # Pods need at least three players to start.
    await d.join(pods.id, PLAYERS[0], 0.0)
    await d.join(pods.id, PLAYERS[1], 0.0)
    with pytest.raises(ServiceError, match="at least 3"):
        await d.start(pods.id, 0.0)


async def test_a_player_dropped_before_their_game_started_forfeits_it(club: Club) -> None:
    """A crash left round 1 paired with no games yet: a drop then records a
    forfeit for the table, the round moves on when that was all it lacked,
    and the dropped player's game is never started."""
    tid = await open_tournament(club, players=PLAYERS[:2], rounds=2)
    store = store_of(club)
    ids = ids_of(PLAYERS[:2])
    assert await store.add_round(tid, 1, [ids], club.now)  # paired, then the crash
    dropped = await club.director.drop(tid, ids[1], club.now)
    assert dropped.resigned is None and dropped.moved is not None
    (table,) = await store.tables(tid, 1)
    assert table.places == (1, 2) and table.game_id is None
    record = await store.get(tid)
    # One player left: nobody to pair, so the tournament is over.
    assert record is not None and record.status == "finished"
    assert not [r for r in await club.games.store.live_games() if r.status == "active"]
