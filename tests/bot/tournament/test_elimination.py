"""Single elimination: seeding, byes to the top seeds, winners advance."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament.pairing import Player, bracket_order, pair_single_elimination
from bot.tournament.standings import Result


def _players(count: int) -> list[Player]:
    # Seed k is player 10 * k, given by rating; ids are scrambled against seeds.
    return [Player(id=10 * seed, rating=3000.0 - seed) for seed in range(count, 0, -1)]


def test_bracket_order_by_hand() -> None:
    assert bracket_order(1) == (1,)
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    with pytest.raises(ValueError):
        bracket_order(6)


@given(st.integers(1, 7))
def test_bracket_order_spreads_the_seeds(power) -> None:
    size = 2**power
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Each aligned block of 2^j places holds exactly one of the top size / 2^j seeds,
    # so seeds 1 and 2 can only meet in the final, 1 to 4 in the semi-finals ...
    block = 1
    while block <= size:
        tops = [min(order[start : start + block]) for start in range(0, size, block)]
        assert sorted(tops) == list(range(1, size // block + 1))
        block *= 2
    for a, b in zip(order[::2], order[1::2], strict=True):
        assert a + b == size + 1


def test_eight_players_by_hand() -> None:
    players = _players(8)
    first = pair_single_elimination(players, [])
    assert first is not None
    assert [table.seats for table in first.tables] == [(10, 80), (40, 50), (20, 70), (30, 60)]
    history = [
        Result.win(1, (10, 80), 10),
        Result.win(1, (40, 50), 50),
        Result.win(1, (20, 70), 70),
        Result.draw(1, (30, 60)),  # a draw advances the better seed, 30
    ]
    second = pair_single_elimination(players, history)
    assert second is not None
    assert second.number == 2
    assert [set(table.seats) for table in second.tables] == [{10, 50}, {70, 30}]
    history += [Result.win(2, (10, 50), 50), Result.win(2, (30, 70), 30)]
    final = pair_single_elimination(players, history)
    assert final is not None
    assert [set(table.seats) for table in final.tables] == [{50, 30}]
    history.append(Result.win(3, (30, 50), 50))
    assert pair_single_elimination(players, history) is None


def test_unfinished_round_is_returned_again() -> None:
    players = _players(4)
    history = [Result.win(1, (10, 40), 10)]
    again = pair_single_elimination(players, history)
    assert again is not None
    assert again.number == 1
    assert len(again.tables) == 2


def test_byes_go_to_top_seeds() -> None:
    first = pair_single_elimination(_players(5), [])
    assert first is not None
    assert first.byes == (10, 20, 30)
    assert [table.seats for table in first.tables] == [(40, 50)]


@given(st.integers(2, 40), st.integers(0, 2**16))
def test_whole_bracket(count, seed) -> None:
    rng = random.Random(seed)
    players = _players(count)
    seed_of = {player.id: player.id // 10 for player in players}
    size = 1
    while size < count:
        size *= 2
    history: list[Result] = []
    alive = {player.id for player in players}
    rounds = 0
    while (paired := pair_single_elimination(players, history)) is not None:
        rounds += 1
        assert paired.number == rounds
        assert sorted(paired.players()) == sorted(alive)
        if rounds == 1:
            # Byes to the top seeds; seed s meets seed size + 1 - s, better seed first.
            assert sorted(seed_of[p] for p in paired.byes) == list(range(1, size - count + 1))
            for table in paired.tables:
                a, b = (seed_of[p] for p in table.seats)
                assert a + b == size + 1
                assert a < b
        else:
            assert not paired.byes
        for table in paired.tables:
            winner = rng.choice(table.seats)
            history.append(Result.win(paired.number, (table.seats[0], table.seats[1]), winner))
            alive -= set(table.seats) - {winner}
    assert len(alive) == 1
    assert rounds == size.bit_length() - 1
