"""Round robin by the circle method."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament.pairing import Player, pair_round_robin, round_robin_schedule


def _players(count: int) -> list[Player]:
    return [Player(id=100 + index, rating=float(count - index)) for index in range(count)]


def test_four_players_by_hand() -> None:
    schedule = round_robin_schedule(_players(4))
    pairs = [{frozenset(table.seats) for table in paired.tables} for paired in schedule]
    assert pairs == [
        {frozenset((100, 103)), frozenset((101, 102))},
        {frozenset((100, 102)), frozenset((103, 101))},
        {frozenset((100, 101)), frozenset((102, 103))},
    ]
    assert pair_round_robin(_players(4), 2) == schedule[1]
    with pytest.raises(ValueError):
        pair_round_robin(_players(4), 4)


@given(st.integers(2, 17))
def test_everyone_meets_everyone_exactly_once(count) -> None:
    players = _players(count)
    ids = [player.id for player in players]
    schedule = round_robin_schedule(players)
    assert len(schedule) == (count if count % 2 else count - 1)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for number, paired in enumerate(schedule, start=1):
        assert paired.number == number
        assert sorted(paired.players()) == sorted(ids)
        byes.update(paired.byes)
        met.update(frozenset(table.seats) for table in paired.tables)
    assert set(met) == {frozenset(pair) for pair in combinations(ids, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(ids) if count % 2 else Counter())


@given(st.integers(2, 17))
def test_seats_balance_within_one(count) -> None:
    first: Counter[int] = Counter()
    second: Counter[int] = Counter()
    for paired in round_robin_schedule(_players(count)):
        for table in paired.tables:
            first[table.seats[0]] += 1
            second[table.seats[1]] += 1
    for player in _players(count):
        assert abs(first[player.id] - second[player.id]) <= 1


def test_too_few_players() -> None:
    assert round_robin_schedule([Player(1)]) == ()
