"""Pods: tables of 3-5 by standing, no repeated opponents while avoidable."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournament.pairing import Player, pair_pods, pod_table_sizes
from bot.tournament.standings import Result, Scoring, standings
from tests.bot.tournament.brute import groupings, repeats


def _players(count: int) -> list[Player]:
    return [Player(id=index, rating=2000.0 - index) for index in range(1, count + 1)]


@pytest.mark.parametrize(
    ("count", "size", "least", "expected"),
    [
        (8, 4, 2, ((4, 4), 0)),
        (10, 4, 2, ((4, 3, 3), 0)),
        (9, 4, 2, ((3, 3, 3), 0)),
        (9, 3, 3, ((3, 3, 3), 0)),
        (11, 5, 2, ((4, 4, 3), 0)),
        (6, 5, 2, ((3, 3), 0)),
        (5, 4, 2, ((3, 2), 0)),
        (5, 4, 3, ((4,), 1)),
        (5, 3, 3, ((3,), 2)),
        (4, 3, 3, ((3,), 1)),
        (2, 4, 3, ((), 2)),
        (0, 4, 2, ((), 0)),
    ],
)
def test_table_sizes(count, size, least, expected) -> None:
    assert pod_table_sizes(count, size, least) == expected


@given(st.integers(0, 60), st.integers(2, 5), st.integers(2, 5))
def test_table_sizes_rule(count, size, least) -> None:
    if least > size:
        with pytest.raises(ValueError):
            pod_table_sizes(count, size, least)
        return
    sizes, byes = pod_table_sizes(count, size, least)
    assert sum(sizes) + byes == count
    assert all(least <= table <= size for table in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    # Byes only when fewer could not all sit.
    if byes:
        assert count < least or all(
            -(-(count - fewer) // size) * least > count - fewer for fewer in range(byes)
        )


def test_first_round_groups_by_standing_and_seats_by_rank() -> None:
    paired = pair_pods(_players(10), [], table_size=4)
    assert [table.seats for table in paired.tables] == [(1, 2, 3, 4), (5, 6, 7), (8, 9, 10)]
    assert paired.byes == ()


def test_repeated_opponents_are_avoided() -> None:
    players = _players(8)
    history = [
        Result(1, (1, 2, 3, 4), (1, 2, 3, 4)),
        Result(1, (5, 6, 7, 8), (1, 2, 3, 4)),
    ]
    paired = pair_pods(players, history, table_size=4)
    for table in paired.tables:
        assert len({p for p in table.seats if p <= 4}) == 2
    # Whoever sat later last time moves earlier now.
    for table in paired.tables:
        last_time = [(player - 1) % 4 for player in table.seats]
        assert last_time == sorted(last_time, reverse=True)


def test_bye_when_unavoidable_goes_to_the_lowest_without_one() -> None:
    players = _players(4)
    first = pair_pods(players, [], table_size=3, min_players=3)
    assert first.byes == (4,)
    history = [Result(1, (1, 2, 3), (3, 2, 1)), Result.bye(1, 4)]
    # Points: 3 has 2, 4 has the bye's 2, 2 has 1, 1 has 0; 1 is last and had no bye.
    second = pair_pods(players, history, table_size=3, min_players=3)
    assert second.byes == (1,)
    assert Scoring(table_size=3).bye() == 2


def test_search_budget_falls_back_to_few_repeats() -> None:
    players = _players(12)
    # Four who all met, three tables: one repeat at least (pigeonhole), and the
    # local search must find a grouping with only that one.
    history = [Result(1, (1, 2, 3, 4), (1, 2, 3, 4))]
    met = {1: {2, 3, 4}, 2: {1, 3, 4}, 3: {1, 2, 4}, 4: {1, 2, 3}}
    for budget in (1, 10**6):
        paired = pair_pods(players, history, table_size=4, search_budget=budget)
        assert sorted(paired.players()) == list(range(1, 13))
        assert repeats([table.seats for table in paired.tables], met) == 1
    # Greedy by standing would seat 1 with 5, 6, 7, 2 with 8, 9, 10 and 3 with 4:
    # the swaps must undo that.
    history = [Result(1, (1, 2, 3), (1, 2, 3)), Result(1, (4, 5, 6), (1, 2, 3))]
    met = {p: {q for q in t if q != p} for t in ((1, 2, 3), (4, 5, 6)) for p in t}
    paired = pair_pods(_players(9), history, table_size=3, search_budget=1)
    assert repeats([table.seats for table in paired.tables], met) == 0


# --- properties -------------------------------------------------------------------------


@st.composite
def pod_fields(draw: st.DrawFn) -> tuple[list[Player], list[Result], int, int]:
    size = draw(st.integers(3, 5))
    least = draw(st.integers(2, size))
    count = draw(st.integers(1, 10))
    ids = list(range(1, count + 1))
    players = [Player(player, float(draw(st.integers(0, 3)))) for player in ids]
    history: list[Result] = []
    for number in range(1, draw(st.integers(0, 3)) + 1):
        order = draw(st.permutations(ids))
        sizes, byes = pod_table_sizes(count, size, least)
        for player in order[:byes]:
            history.append(Result.bye(number, player))
        start = byes
        for table in sizes:
            seats = tuple(order[start : start + table])
            places = tuple(draw(st.lists(st.integers(1, table), min_size=table, max_size=table)))
            history.append(Result(number, seats, places))
            start += table
    return players, history, size, least


def _met(history: list[Result]) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for result in history:
        for player in result.seats:
            met.setdefault(player, set()).update(set(result.seats) - {player})
    return met


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(pod_fields())
def test_every_player_sits_or_has_a_bye_exactly_once(field) -> None:
    players, history, size, least = field
    paired = pair_pods(players, history, table_size=size, min_players=least)
    seen = Counter(paired.players())
    assert sorted(seen) == [player.id for player in players]
    assert set(seen.values()) <= {1}
    sizes, byes = pod_table_sizes(len(players), size, least)
    assert sorted((len(table.seats) for table in paired.tables), reverse=True) == list(sizes)
    assert len(paired.byes) == byes


@_SETTINGS
@given(pod_fields())
def test_no_repeated_opponent_when_another_grouping_exists(field) -> None:
    players, history, size, least = field
    paired = pair_pods(players, history, table_size=size, min_players=least)
    met = _met(history)
    seated = sorted(p for table in paired.tables for p in table.seats)
    sizes = [len(table.seats) for table in paired.tables]
    best = min(repeats(tables, met) for tables in groupings(seated, sizes))
    ours = repeats([table.seats for table in paired.tables], met)
    if best == 0:
        assert ours == 0


@_SETTINGS
@given(pod_fields())
def test_byes_go_to_those_with_fewest(field) -> None:
    players, history, size, least = field
    paired = pair_pods(players, history, table_size=size, min_players=least)
    byes = Counter(result.seats[0] for result in history if result.is_bye)
    seated = [p for table in paired.tables for p in table.seats]
    if paired.byes and seated:
        assert max(byes[p] for p in paired.byes) <= min(byes[p] for p in seated)


@_SETTINGS
@given(pod_fields())
def test_top_table_holds_the_leaders_when_fresh(field) -> None:
    players, history, size, least = field
    if history:
        return
    paired = pair_pods(players, history, table_size=size, min_players=least)
    if not paired.tables:
        return
    ranking = [row.player for row in standings(players, history, Scoring(table_size=size))]
    top = paired.tables[0]
    assert set(top.seats) == set(ranking[: len(top.seats)])
