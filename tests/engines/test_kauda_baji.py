"""Rules tests for the Kauda Baji engine, named after the rulings they check
(docs/rules/kauda_baji.md, R1-R18), and Hypothesis properties.  The engine
contract checks of ``test_conformance.py`` run on it as on every registered
engine."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engines.core import (
    CHANCE,
    GameError,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    resolve_options,
    sample_chance,
)
from bot.engines.kauda_baji import KaudaBajiEngine
from bot.engines.kauda_baji_board import ROUTES, SAFE, STEP_OF, iter_routes, square_name, square_of
from bot.engines.kauda_baji_state import Forfeit, KaudaBajiState, Move, Throw

E = KaudaBajiEngine()
SEAT = {"bottom": 0, "right": 1, "top": 2, "left": 3}


def position(
    stacks: dict[int, list[tuple[str, int]]],
    *,
    turn: int = 0,
    bank: tuple[int, ...] = (),
    n: int = 4,
    killed: tuple[int, ...] = (),
    **options: Any,
) -> KaudaBajiState:
    """Players' stacks by square (``{0: [("c7", 2)]}``), ``turn`` to spend
    ``bank``; pieces not on the board are home (in the centre)."""
    state = E.setup(n, options)
    obj = E.to_json(state)
    seats = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[n]
    obj["stacks"] = [
        [[STEP_OF[seats[p]][square_of(sq)], size] for sq, size in stacks.get(p, [])]
        for p in range(n)
    ]
    obj["home"] = [state.pieces - sum(size for _, size in stacks.get(p, [])) for p in range(n)]
    obj.update(phase="move", turn=turn, bank=list(bank), contenders=[], first_throws=[])
    obj["killed"] = [p in killed for p in range(n)]
    return E.from_json(obj)


def play(state: KaudaBajiState, *texts: str) -> KaudaBajiState:
    for text in texts:
        seat = CHANCE if CHANCE in E.to_move(state) else min(E.to_move(state))
        state = E.apply(state, seat, E.parse(state, seat, text))
    return state


def moves(state: KaudaBajiState) -> list[str]:
    seat = min(E.to_move(state))
    return [E.describe(state, seat, a) for a in E.legal_actions(state, seat)]


def on_squares(state: KaudaBajiState, player: int) -> list[tuple[int, int]]:
    """A player's stacks as (board square, size)."""
    seat = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[state.num_players][player]
    return [(ROUTES[seat][step], size) for step, size in state.stacks[player]]


def on(state: KaudaBajiState, player: int) -> list[tuple[str, int]]:
    seat = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[state.num_players][player]
    return sorted((square_name(ROUTES[seat][step]), size) for step, size in state.stacks[player])


# --------------------------------------------------------------------------
# The board (R1-R3)
# --------------------------------------------------------------------------


def test_R1_route_of_each_seat_visits_49_squares_once() -> None:
    routes = dict(iter_routes())
    bottom = (
        "d1",
        "e1",
        "f1",
        "g1",
        "g2",
        "g3",
        "g4",
        "g5",
        "g6",
        "g7",
        "f7",
        "e7",
        "d7",
        "c7",
        "b7",
        "a7",
        "a6",
        "a5",
        "a4",
        "a3",
        "a2",
        "a1",
        "b1",
        "c1",
        "b2",
        "b3",
        "b4",
        "b5",
        "b6",
        "c6",
        "d6",
        "e6",
        "f6",
        "f5",
        "f4",
        "f3",
        "f2",
        "e2",
        "d2",
        "c2",
        "c3",
        "c4",
        "c5",
        "d5",
        "e5",
        "e4",
        "e3",
        "d3",
        "d4",
    )
    assert routes["bottom"] == bottom
    for route in routes.values():
        assert len(route) == 49 and len(set(route)) == 49 and route[-1] == "d4"
    assert [routes[s][0] for s in SEAT] == ["d1", "g4", "d7", "a4"]
    assert [routes[s][1] for s in SEAT] == ["e1", "g5", "c7", "a3"]
    arrows = {s: [(r[a], r[a + 1]) for a in (23, 39, 47)] for s, r in routes.items()}
    assert arrows == {
        "bottom": [("c1", "b2"), ("c2", "c3"), ("d3", "d4")],
        "right": [("g3", "f2"), ("f3", "e3"), ("e4", "d4")],
        "top": [("e7", "f6"), ("e6", "e5"), ("d5", "d4")],
        "left": [("a5", "b6"), ("b5", "c5"), ("c4", "d4")],
    }
    # Step numbers on the board as drawn in R1.
    grid = [[routes["bottom"].index(f + str(r)) for f in "abcdefg"] for r in range(7, 0, -1)]
    assert grid[0] == [15, 14, 13, 12, 11, 10, 9]
    assert grid[3] == [18, 26, 41, 48, 45, 34, 6]
    assert grid[6] == [21, 22, 23, 0, 1, 2, 3]


@pytest.mark.parametrize(
    ("seat", "frm", "dist", "turn_in", "round_"),
    [
        ("bottom", "a2", 6, "b4", "f1"),
        ("right", "g2", 2, "f2", "g4"),
        ("top", "f7", 2, "f6", "d7"),
        ("left", "a6", 2, "b6", "a4"),
    ],
)
def test_R2_arrow_one_in_or_round_for_each_seat(
    seat: str, frm: str, dist: int, turn_in: str, round_: str
) -> None:
    p = SEAT[seat]
    state = position({p: [(frm, 1)]}, turn=p, bank=(dist,), killed=(p,))
    assert moves(state) == [f"{frm} {dist} in", f"{frm} {dist} round"]
    assert on(play(state, f"{frm} {dist} in"), p) == [(turn_in, 1)]
    assert on(play(state, f"{frm} {dist} round"), p) == [(round_, 1)]


def test_R2_a_move_ending_on_an_arrow_chooses_later_and_one_starting_there_chooses() -> None:
    state = position({0: [("a1", 1)]}, bank=(2,), killed=(0,))
    assert moves(state) == ["a1 2"]  # ends on c1: no choice yet
    state = position({0: [("c1", 1)]}, bank=(1,), killed=(0,))
    assert moves(state) == ["c1 1 in", "c1 1 round"]
    # Arrow 2 round the middle ring: c2 -> b2.
    state = position({0: [("c2", 1)]}, bank=(1,))
    assert on(play(state, "c2 1 round"), 0) == [("b2", 1)]
    assert on(play(state, "c2 1 in"), 0) == [("c3", 1)]


def test_R2_a_long_move_passes_the_same_arrow_twice() -> None:
    # Bottom single on d3 (47): round to c3, then the inner ring again.
    state = position({0: [("d3", 1)]}, bank=(12,))
    texts = moves(state)
    assert "d3 12 round round" in texts
    assert on(play(state, "d3 12 round round"), 0) == [("d5", 1)]


def test_R3_all_safe_squares() -> None:
    assert sorted(square_name(s) for s in SAFE) == sorted(
        ["a1", "g1", "a7", "g7", "d1", "g4", "d7", "a4", "c3", "e3", "c5", "e5", "d4"]
    )


# --------------------------------------------------------------------------
# Players and throws (R4-R8)
# --------------------------------------------------------------------------


def test_R4_seats_and_order() -> None:
    assert E.seat_roles(2, {}) == ("Bottom", "Top")
    assert E.seat_roles(3, {}) == ("Bottom", "Right", "Top")
    assert E.seat_roles(4, {}) == ("Bottom", "Right", "Top", "Left")
    state = E.setup(2, {"pieces": 3})
    assert on(state, 1) == [("d7", 1)] * 3
    # Anticlockwise order, finished players skipped.
    state = position({0: [("b3", 1)], 2: [("b3", 1)], 3: [("b3", 1)]}, turn=0, bank=(1,))
    state = E.from_json({**E.to_json(state), "places": [1]})
    after = play(state, "b3 1")
    assert after.phase == "throw" and after.turn == 2


def test_R5_throw_distribution() -> None:
    odds = dict(E.chance_outcomes(E.setup(2, {})))
    expected = {12: 1, 1: 6, 2: 15, 3: 20, 4: 15, 5: 6, 6: 1}
    assert {a.value: p for a, p in odds.items() if isinstance(a, Throw)} == {
        v: Fraction(k, 64) for v, k in expected.items()
    }
    assert sum(odds.values()) == 1


def test_R6_six_and_twelve_throw_again_and_the_bank_is_whole() -> None:
    state = E.from_json({**E.to_json(position({0: [("b3", 1)]})), "phase": "throw"})
    state = play(state, "throw 6", "throw 12", "throw 3")
    assert state.phase == "move" and state.bank == (12, 6, 3)


def test_R6_third_six_in_a_row_forfeits_the_bank() -> None:
    state = E.from_json({**E.to_json(position({0: [("b3", 1)]})), "phase": "throw"})
    after = play(state, "throw 6", "throw 12", "throw 6")
    assert after.turn == 1 and after.phase == "throw" and after.bank == ()
    assert "forfeits" in after.news
    # A broken run does not count.
    after = play(state, "throw 6", "throw 6", "throw 2")
    assert after.bank == (6, 6, 2)


def test_R7_first_player_highest_throw_ties_throw_again() -> None:
    state = E.setup(3, {})
    state = play(state, "throw 6", "throw 12", "throw 12")
    assert state.phase == "first" and state.contenders == (1, 2)
    state = play(state, "throw 3", "throw 4")
    assert state.phase == "throw" and state.turn == 2


def test_R8_must_use_and_forfeit_only_when_no_move_is_left() -> None:
    # A twin cannot use 3 alone, but can use 3+3 (R10); a 5 it cannot use waits.
    state = position({0: [("b3", 2)]}, bank=(5, 3, 3))
    assert moves(state) == ["b3 x2 5+3", "b3 x2 3+3"]
    after = play(state, "b3 x2 3+3")
    assert after.turn == 1 and "cannot use 5" in after.news  # forfeited and logged
    # The value no one can use now stays while others are spent.
    state = position({0: [("b3", 2), ("f7", 1)]}, bank=(4, 1))
    after = play(state, "f7 1")
    assert after.turn == 0 and after.bank == (4,)


# --------------------------------------------------------------------------
# Tuples (R9-R11)
# --------------------------------------------------------------------------


def test_R9_no_tuple_forms_on_the_own_start_square() -> None:
    state = position({0: [("d1", 1), ("d1", 1)]}, bank=(2,))
    assert moves(state) == ["d1 x1 2"]
    # On another seat's start square tuples form.
    state = position({0: [("g4", 1), ("g4", 1)]}, bank=(2,))
    assert "g4 x1+1 2" in moves(state)
    after = play(state, "g4 x1+1 2")
    assert on(after, 0) == [("g5", 2)]


def test_R9_a_twin_and_a_single_leave_together_as_a_triple() -> None:
    state = position({0: [("b3", 2), ("b3", 1)]}, bank=(6,))
    assert moves(state) == ["b3 x2 6", "b3 x1 6", "b3 x2+1 6"]
    assert on(play(state, "b3 x2+1 6"), 0) == [("b5", 3)]


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_R10_divide_rule_for_every_tuple_size(size: int) -> None:
    for value in (1, 2, 3, 4, 5, 6, 12):
        state = position({0: [("b3", size)]}, bank=(value,))
        texts = moves(state)
        if value % size:
            assert texts == []
        else:
            assert len(texts) >= 1
            after = play(state, texts[0])
            assert STEP_OF[0][square_of(on(after, 0)[0][0])] - 25 == value // size


def test_R10_the_rule_applies_to_the_sum() -> None:
    state = position({0: [("b3", 2)]}, bank=(3, 3))
    assert moves(state) == ["b3 x2 3+3"]
    assert on(play(state, "b3 x2 3+3"), 0) == [("b6", 2)]


def test_R11_splitting_only_on_safe_squares() -> None:
    state = position({0: [("b3", 3)]}, bank=(1,))
    assert moves(state) == []  # no split off b3, and a triple cannot use 1
    state = position({0: [("a1", 3)]}, bank=(5,))
    assert moves(state) == ["a1 x1of3 5 round"]  # markut: arrow 1 closed (R15)
    after = play(state, "a1 x1of3 5 round")
    assert sorted(on(after, 0)) == [("a1", 2), ("f1", 1)]


def test_R11_own_start_square_says_which_tuple_splits() -> None:
    state = position({0: [("d1", 3), ("d1", 2)]}, bank=(1,))
    texts = moves(state)
    assert "d1 x1of3 1" in texts and "d1 x1of2 1" in texts
    assert sorted(on(play(state, "d1 x1of3 1"), 0)) == [("d1", 2), ("d1", 2), ("e1", 1)]
    assert sorted(on(play(state, "d1 x1of2 1"), 0)) == [("d1", 1), ("d1", 3), ("e1", 1)]
    assert not any("+" in t.split()[1] for t in texts)  # nothing joins (R9)


def test_R11_split_part_may_join_whole_tuples_off_the_own_start_square() -> None:
    state = position({0: [("a1", 3), ("a1", 2)]}, bank=(4,))
    assert "a1 x2+2of3 4" in moves(state)
    after = play(state, "a1 x2+2of3 4")
    assert sorted(on(after, 0)) == [("a1", 1), ("b1", 4)]


# --------------------------------------------------------------------------
# Combat (R12-R16)
# --------------------------------------------------------------------------


def test_R12_no_kills_on_safe_squares() -> None:
    state = position({0: [("e1", 1)], 1: [("g1", 1)]}, bank=(2,))
    after = play(state, "e1 2")
    assert on(after, 1) == [("g1", 1)] and after.turn == 1


def test_R13_landing_kills_the_same_size_or_smaller() -> None:
    state = position({0: [("e1", 2)], 1: [("g2", 2)]}, bank=(6,))
    after = play(state, "e1 x2 6")
    assert on(after, 1) == [("g4", 1), ("g4", 1)]
    assert after.killed[0]


def test_R13_smaller_lander_shares_the_square() -> None:
    state = position({0: [("e1", 1)], 1: [("g2", 2)]}, bank=(3,))
    after = play(state, "e1 3")
    assert on(after, 1) == [("g2", 2)] and on(after, 0) == [("g2", 1)]


def test_R13_lander_kills_the_largest_tuple_it_can_beat() -> None:
    state = position({0: [("e1", 2)], 1: [("g2", 3), ("g2", 2), ("g2", 1)]}, bank=(6,))
    after = play(state, "e1 x2 6")
    assert on(after, 1) == [("g2", 1), ("g2", 3), ("g4", 1), ("g4", 1)]


def test_R13_leave_kill_takes_the_largest_strictly_smaller() -> None:
    # Red's single shares g2 with Blue's twin; the twin moves away: the single dies.
    state = position({0: [("g2", 2)], 1: [("g2", 1), ("g2", 2)]}, bank=(2,))
    after = play(state, "g2 x2 2")
    assert on(after, 1) == [("g2", 2), ("g4", 1)]
    # The smaller one moving away first: nothing happens.
    state = position({0: [("g2", 1)], 1: [("g2", 2)]}, bank=(2,))
    after = play(state, "g2 2")
    assert on(after, 1) == [("g2", 2)]


def test_R13_leaving_is_settled_before_landing() -> None:
    state = position(
        {0: [("g2", 2), ("g2", 1)], 1: [("g2", 1)], 2: [("g5", 2)]}, bank=(6,), kill_bonus=False
    )
    after = play(state, "g2 x2 6")
    assert on(after, 1) == [("g4", 1)]  # left behind and killed
    assert on(after, 2) == [("d7", 1), ("d7", 1)]  # landed on and killed


def test_R14_two_opponents_nothing_dies_unless_pairwise() -> None:
    start = {0: [("e1", 2)], 1: [("g2", 1)], 2: [("g2", 1)]}
    after = play(position(start, bank=(6,)), "e1 x2 6")
    assert on(after, 1) == [("g2", 1)] and on(after, 2) == [("g2", 1)]
    after = play(
        position(start, bank=(6,), multi_opponent_combat="pairwise", kill_bonus=False), "e1 x2 6"
    )
    assert on(after, 1) == [("g4", 1)] and on(after, 2) == [("d7", 1)]


def test_R15_markut_keeps_arrow_one_closed_until_a_kill() -> None:
    state = position({0: [("a2", 1)]}, bank=(6,))
    assert moves(state) == ["a2 6 round"]
    state = position({0: [("a2", 1)]}, bank=(6,), markut="no")
    assert moves(state) == ["a2 6 in", "a2 6 round"]


def test_R16_kill_bonus_throw_and_option() -> None:
    start = {0: [("e1", 1), ("b3", 1)], 1: [("g2", 1)]}
    after = play(position(start, bank=(3, 1)), "e1 3")
    assert after.phase == "throw" and after.bonus and after.bank == (1,)
    after = play(after, "throw 3")
    assert after.phase == "move" and after.bank == (3, 1)
    after = play(position(start, bank=(3, 1), kill_bonus="no"), "e1 3")
    assert after.phase == "move" and after.bank == (1,)


def test_R16_bonus_six_does_not_count_towards_three_in_a_row() -> None:
    start = {0: [("e1", 1), ("b3", 1)], 1: [("g2", 1)]}
    after = play(position(start, bank=(3,)), "e1 3", "throw 6", "throw 6", "throw 6")
    assert after.turn == 0 and after.bank == (6, 6, 6)
    after = play(after, "throw 12")
    assert after.turn == 1 and after.bank == ()


# --------------------------------------------------------------------------
# The centre and the end (R17, R18)
# --------------------------------------------------------------------------


def test_R17_centre_by_exact_count() -> None:
    state = position({0: [("c5", 1), ("b3", 1)]}, bank=(6,))
    texts = moves(state)
    assert "c5 6 in" in texts and "c5 6 round" in texts  # round again is allowed
    assert on(play(state, "c5 6 round"), 0) == [("b3", 1), ("c3", 1)]
    after = play(state, "c5 6 in")
    assert after.home[0] == 5 and on(after, 0) == [("b3", 1)]


def test_R17_no_move_passes_through_the_centre_and_the_forfeit_exception() -> None:
    state = position({0: [("e3", 1)]}, bank=(5,))
    assert moves(state) == ["e3 5 round", "forfeit 5"]
    after = play(state, "forfeit 5")
    assert after.turn == 1 and on(after, 0) == [("e3", 1)]
    # With another piece that can use the 5, there is no forfeit.
    state = position({0: [("e3", 1), ("b3", 1)]}, bank=(5,))
    assert "forfeit 5" not in moves(state)


def test_R18_places_until_one_player_is_left() -> None:
    state = position({0: [("d3", 1)], 1: [("b3", 1)], 2: [("b3", 1)]}, bank=(1,), n=3)
    after = play(state, "d3 1 in")
    assert after.places == (0,) and after.turn == 1
    obj = E.to_json(after)
    obj["stacks"][1] = []
    obj["home"][1] = 6
    obj.update(phase="move", bank=[1], turn=2)
    obj["stacks"][2] = []
    obj["home"][2] = 5
    obj["stacks"][2] = [[47, 1]]
    after = play(E.from_json(obj), "d5 1 in")  # Top's arrow 3 is d5
    outcome = E.outcome(after)
    assert outcome is not None
    assert outcome.ranking == (frozenset({0}), frozenset({2}), frozenset({1}))


def test_R18_play_to_end_no_stops_at_the_first_finisher() -> None:
    state = position(
        {0: [("d3", 1)], 1: [("b3", 1)], 2: [("b3", 1)]}, bank=(1,), n=3, play_to_end="no"
    )
    outcome = E.outcome(play(state, "d3 1 in"))
    assert outcome is not None and outcome.ranking == (frozenset({0}), frozenset({1, 2}))


# --------------------------------------------------------------------------
# Options, notation, turn
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"pieces": "7"}, "pieces"),
        ({"pieces": "0"}, "pieces"),
        ({"markut": "maybe"}, "markut"),
        ({"kill_bonus": "sometimes"}, "kill_bonus"),
        ({"multi_opponent_combat": "all"}, "multi_opponent_combat"),
        ({"play_to_end": 3}, "play_to_end"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_lobby_options_are_validated(options: dict[str, Any], word: str) -> None:
    with pytest.raises(InvalidOptions, match=word):
        E.setup(2, options)
    assert resolve_options(E, {"pieces": "4", "markut": "no"})["pieces"] == 4


def test_notation_round_trip_and_examples() -> None:
    state = position({0: [("c7", 2), ("c7", 1), ("c7", 1)]}, bank=(6, 3, 3))
    assert E.parse(state, 0, "c7 x2 6") == Move(square_of("c7"), (2,), 0, 0, (6,), ())
    assert E.parse(state, 0, "C7  X1+1  3+3") == Move(square_of("c7"), (1, 1), 0, 0, (3, 3), ())
    assert E.parse(state, 0, "a1 x2+1of3 5") == Move(square_of("a1"), (2,), 1, 3, (5,), ())
    assert E.parse(state, 0, "forfeit 5") == Forfeit(5)
    assert E.parse(state, CHANCE, "throw 12") == Throw(12)
    for action in E.legal_actions(state, 0):
        assert E.parse(state, 0, E.describe(state, 0, action)) == action
    for bad in ("c7 x7 6", "c7 x1of1 6", "c7 6 sideways", "h9 6", "c7", "throw 7", "c7 x2 ٣"):
        with pytest.raises(InvalidAction):
            E.parse(state, 0, bad)


def test_not_your_turn_and_illegal_moves_change_nothing() -> None:
    state = position({0: [("b3", 2)], 1: [("b3", 1)]}, bank=(3,))
    with pytest.raises(NotYourTurn):
        E.apply(state, 1, E.parse(state, 1, "b3 3"))
    with pytest.raises(IllegalAction, match="R10"):
        E.apply(state, 0, E.parse(state, 0, "b3 x2 3"))
    with pytest.raises(IllegalAction):
        E.apply(state, 0, E.parse(state, 0, "b3 x2 4"))
    assert state == position({0: [("b3", 2)], 1: [("b3", 1)]}, bank=(3,))


# --------------------------------------------------------------------------
# Properties over random games
# --------------------------------------------------------------------------


def random_game(
    n: int, seed: int, **options: Any
) -> Iterator[tuple[KaudaBajiState, int, Any, KaudaBajiState]]:
    rng = random.Random(seed)
    state = E.setup(n, options)
    while E.outcome(state) is None:
        to_move = E.to_move(state)
        if CHANCE in to_move:
            seat, action = CHANCE, sample_chance(E.chance_outcomes(state), rng.random())
        else:
            seat = min(to_move)
            action = rng.choice(E.legal_actions(state, seat))
        after = E.apply(state, seat, action)
        yield state, seat, action, after
        state = after


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.sampled_from([2, 3, 4]),
    pieces=st.integers(1, 6),
    pairwise=st.sampled_from(["none", "pairwise"]),
)
def test_property_pieces_never_lost_or_duplicated_and_killed_go_home_as_singles(
    seed: int, n: int, pieces: int, pairwise: str
) -> None:
    texts: list[tuple[int, str]] = []
    final = None
    options = {"pieces": pieces, "multi_opponent_combat": pairwise}
    for before, seat, action, after in random_game(n, seed, **options):
        for p in range(n):
            assert sum(s for _, s in after.stacks[p]) + after.home[p] == pieces
        # The squares kept for kill checks always match the stacks.
        assert after.occupied == E.from_json(E.to_json(after)).occupied
        assert after.occupied == tuple(
            frozenset(sq for sq, _ in on_squares(after, p)) for p in range(n)
        )
        if isinstance(action, Move):
            for q in range(n):
                if q == before.turn:
                    continue
                gone = Counter(before.stacks[q]) - Counter(after.stacks[q])
                came = Counter(after.stacks[q]) - Counter(before.stacks[q])
                assert set(came) <= {(0, 1)}
                assert sum(came.values()) == sum(
                    size for (_, size), k in gone.items() for _ in range(k)
                )
        texts.append((seat, E.describe(before, seat, action)))
        final = after
    state = E.setup(n, options)
    for seat, text in texts:
        state = E.apply(state, seat, E.parse(state, seat, text))
    assert state == final
    assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state


def test_R11_moves_with_the_same_effect_are_offered_once_and_read_as_it() -> None:
    # A twin beside a single on a safe square: moving the twin, or the
    # single with one piece split off the twin, both move a twin and leave a
    # single; one is offered, and the other, typed, is read as it.
    state = position({0: [("a1", 2), ("a1", 1)]}, bank=(2,))
    texts = moves(state)
    assert "a1 x2 2" in texts and "a1 x1+1of2 2" not in texts
    assert "a1 x1of2 2" in texts  # leaves two singles: a different move
    assert len(texts) == len(set(texts))
    typed = play(state, "a1 x1+1of2 2")
    assert typed == play(state, "a1 x2 2")
    assert sorted(on(typed, 0)) == [("a1", 1), ("b1", 2)]


def test_R13_R14_leave_kill_against_two_opponents_only_when_pairwise() -> None:
    start = {0: [("g2", 2)], 1: [("g2", 1)], 2: [("g2", 1)]}
    after = play(position(start, bank=(2,)), "g2 x2 2")
    assert on(after, 1) == [("g2", 1)] and on(after, 2) == [("g2", 1)]
    after = play(
        position(start, bank=(2,), multi_opponent_combat="pairwise", kill_bonus=False), "g2 x2 2"
    )
    assert on(after, 1) == [("g4", 1)] and on(after, 2) == [("d7", 1)]


def test_R15_a_leave_kill_opens_arrow_one() -> None:
    state = position({0: [("g2", 2), ("a2", 1)], 1: [("g2", 1)]}, bank=(6, 2), kill_bonus=False)
    assert "a2 6 in" not in moves(state)
    after = play(state, "g2 x2 2")
    assert after.killed[0] and on(after, 1) == [("g4", 1)]
    assert "a2 6 in" in moves(after)


def test_R16_R18_a_kill_by_the_finishing_move_earns_no_bonus() -> None:
    # Blue's last twin leaves d3 (arrow 3) for the centre, killing Red's
    # single there: Blue has finished, so no bonus throw; Red throws next.
    state = position({0: [("d3", 2)], 1: [("d3", 1)]}, bank=(2,))
    after = play(state, "d3 x2 2 in")
    assert after.places == (0,) and on(after, 1) == [("g4", 1)]
    assert after.phase == "throw" and after.turn == 1 and not after.bonus


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=80))
def test_parse_never_raises_anything_but_game_error(text: str) -> None:
    state = position({0: [("b3", 2), ("a1", 3)]}, bank=(6, 3))
    for seat in (CHANCE, 0, 1):
        with contextlib.suppress(GameError):
            E.parse(state, seat, text)


def test_views_show_everything_and_the_last_move() -> None:
    state = play(position({0: [("e1", 2)], 1: [("g2", 2)]}, bank=(6,)), "e1 x2 6")
    view = E.view(state, None)
    assert view.me is None and view.last_move is not None
    assert view.last_move.size == 2 and view.last_move.to == "g2"
    assert view.last_move.killed == ("g2",)
    assert view.last_move.path == ("f1", "g1", "g2")
    assert len(view.safe) == 13
    assert [pl.start for pl in view.players] == ["d1", "g4", "d7", "a4"]
    assert E.view(state, 1).stacks == view.stacks


# --------------------------------------------------------------------------
# Menus (docs/rules/kauda_baji.md, "Playing on Discord")
# --------------------------------------------------------------------------


def _menu_tree(state: KaudaBajiState) -> tuple[list[Any], list[str]]:
    """The first menu level and every action reached by walking all levels."""
    from bot.choices import follow

    texts = moves(state)

    def words(text: str) -> tuple[str, ...]:
        return E.menu_words(state, 0, text)

    reached: list[str] = []

    def walk(path: tuple[int, ...]) -> None:
        action, options, _ = follow(texts, path, words)
        if action is not None:
            reached.append(action)
            return
        for i in range(len(options)):
            walk((*path, i))

    walk(())
    return follow(texts, (), words)[1], reached


def test_menus_offer_every_move_at_once_and_group_by_value_only_when_too_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.choices

    state = position({0: [("a2", 1), ("c7", 2), ("b3", 1)]}, bank=(6, 2))
    # Issue 18: nine moves fit in one message, so the top level is every
    # move, whole (one interaction), in the engine's order.
    first, reached = _menu_tree(state)
    assert all(o.leaf for o in first), first
    assert [o.text for o in first] == moves(state)
    assert sorted(reached) == sorted(moves(state))
    assert E.label(state, 0, E.parse(state, 0, "a2 6 round")) == (
        "Single a2 to f1 with 6, round at c1"
    )
    # What the menu words still promise, for a menu too big for one
    # message: the value spent first, then the pieces, then the move.
    assert E.menu_words(state, 0, "c7 x2 6") == ("6", "c7 x2", "c7 x2 6")
    assert E.choice_label(state, 0, "6") == "Spend 6"
    assert E.choice_label(state, 0, "6+2") == "Spend 6+2 together"
    assert E.choice_label(state, 0, "6 c7 x2") == "Twin on c7"
    # Were these nine moves too many, they would be grouped that way.
    monkeypatch.setattr(bot.choices, "FLAT_LIMIT", 2)
    first, reached = _menu_tree(state)
    labels = [E.choice_label(state, 0, o.text) if not o.leaf else o.text for o in first]
    assert labels == ["Spend 6", "Spend 2", "Spend 6+2 together"]
    assert [o.size for o in first] == [3, 3, 3]
    assert sorted(reached) == sorted(moves(state))

    def words(text: str) -> tuple[str, ...]:
        return E.menu_words(state, 0, text)

    # Under "Spend 6", by piece: each piece has one move, so it is the move.
    _, spend_6, depth = bot.choices.follow(moves(state), (0,), words)
    assert depth == 1 and all(o.leaf for o in spend_6), spend_6
    assert [o.text for o in spend_6] == ["c7 x2 6", "a2 6 round", "b3 6"]


def test_menus_narrow_a_big_bank_by_its_largest_value_first() -> None:
    # Kill bonuses can bank many values: more sums than a row of buttons.
    state = position(
        {0: [("a2", 1), ("b3", 1), ("c5", 1), ("e1", 1)]}, bank=(12, 6, 6, 5, 3, 2), markut="no"
    )
    first, reached = _menu_tree(state)
    assert 1 < len(first) <= 20
    assert E.choice_label(state, 0, first[0].text) == ("Spend 12, alone or with smaller values")
    assert sorted(reached) == sorted(moves(state))
