"""Rules tests for the Artaban engine, named after the rulings they check
(docs/rules/artaban.md, R1-R10)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines.artaban import (
    FILES,
    ORIENTATIONS,
    QUIET_LIMIT,
    AcceptDraw,
    ArtabanEngine,
    ArtabanState,
    Capture,
    Commit,
    DealLeader,
    DealValue,
    DeclineDraw,
    OfferDraw,
    Sacrifice,
    SetLeader,
    SetupAll,
    SetupRandom,
    SetupReset,
    SetValue,
    Tip,
    Turn,
    arrangements,
    right_face,
    square_of,
    start_front,
    tip,
    turn,
    value_odds,
)
from bot.engines.core import (
    CHANCE,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    resolve_chance,
    sample_chance,
)

E = ArtabanEngine()
Die = tuple[int, int, int, bool]
"""(owner, top, front, leader)"""


def W(top: int, front: int | None = None, leader: bool = False) -> Die:
    return (0, top, start_front(top) if front is None else front, leader)


def B(top: int, front: int | None = None, leader: bool = False) -> Die:
    return (1, top, start_front(top) if front is None else front, leader)


def position(
    dice: dict[str, Die],
    *,
    to_play: int = 0,
    diagonal: bool = False,
    quiet: int = 0,
    draw_offer: int | None = None,
    phase: str = "play",
    result: str = "",
) -> ArtabanState:
    obj = E.to_json(E.setup(2, {"diagonal_captures": diagonal}))
    obj.update(phase=phase, to_play=to_play, quiet=quiet, draw_offer=draw_offer, result=result)
    obj["dice"] = [
        {"square": sq, "owner": o, "top": t, "front": f, "leader": ld}
        for sq, (o, t, f, ld) in dice.items()
    ]
    for setup in obj["setup"]:
        setup["committed"] = True
    return E.from_json(obj)


def act(state: ArtabanState, seat: int, text: str) -> ArtabanState:
    return E.apply(state, seat, E.parse(state, seat, text))


def texts(state: ArtabanState, seat: int) -> list[str]:
    return [E.describe(state, seat, a) for a in E.legal_actions(state, seat)]


def dice_of(state: ArtabanState) -> dict[str, Die]:
    return {
        d["square"]: (d["owner"], d["top"], d["front"], d["leader"])
        for d in E.to_json(state)["dice"]
    }


def committed(
    values0: str = "3 4 5 2 6 1 4 3",
    leader0: str = "c",
    values1: str = "4 4 4 4 3 3 3 3",
    leader1: str = "f",
    diagonal: bool = False,
) -> ArtabanState:
    state = E.setup(2, {"diagonal_captures": diagonal})
    state = act(state, 0, f"setup {values0} leader {leader0}")
    state = act(state, 1, f"setup {values1} leader {leader1}")
    state = act(state, 0, "commit")
    return act(state, 1, "commit")


# --------------------------------------------------------------------------
# R1-R3: dice as real cubes
# --------------------------------------------------------------------------

Vec = tuple[int, int, int]
# A die as face -> outward normal, x to the owner's right, y forward, z up.
Model = dict[int, Vec]

ROTATIONS: dict[str, Any] = {
    # Rolling over an edge or turning in place, as rotations of the normals.
    "tip^": lambda v: (v[0], v[2], -v[1]),  # the top rolls to the front
    "tip>": lambda v: (v[2], v[1], -v[0]),  # the top rolls to the right
    "tip<": lambda v: (-v[2], v[1], v[0]),  # the top rolls to the left
    "turn<": lambda v: (-v[1], v[0], v[2]),  # counterclockwise from above
    "turn>": lambda v: (v[1], -v[0], v[2]),
}


def model_of(top: int, front: int) -> Model:
    right = right_face(top, front)
    return {
        top: (0, 0, 1),
        7 - top: (0, 0, -1),
        front: (0, 1, 0),
        7 - front: (0, -1, 0),
        right: (1, 0, 0),
        7 - right: (-1, 0, 0),
    }


def face_at(model: Model, normal: Vec) -> int:
    return next(face for face, v in model.items() if v == normal)


def det(a: Vec, b: Vec, c: Vec) -> int:
    return (
        a[0] * (b[1] * c[2] - b[2] * c[1])
        - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
    )


def engine_op(top: int, front: int, op: str) -> tuple[int, int]:
    kind, direction = op[:-1], op[-1]
    return tip(top, front, direction) if kind == "tip" else turn(top, front, direction)


def test_R1_a_die_has_24_orientations_with_western_handedness() -> None:
    assert len(ORIENTATIONS) == len(set(ORIENTATIONS)) == 24
    for top, front in ORIENTATIONS:
        model = model_of(top, front)
        assert sorted(model) == [1, 2, 3, 4, 5, 6]
        # 1, 2 and 3 run counterclockwise round their corner seen from
        # outside: their normals form a right-handed triple.
        assert det(model[1], model[2], model[3]) == 1
    # The shop test: 1 on top and 2 facing you (away from the front) puts 3
    # on your right.
    assert right_face(1, 5) == 3
    with pytest.raises(ValueError):
        right_face(3, 4)


def test_R1_fronts_start_at_the_lowest_adjacent_face() -> None:
    assert {t: start_front(t) for t in range(1, 7)} == {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2}


def test_R2_exact_face_changes() -> None:
    for top, front in ORIENTATIONS:
        right = right_face(top, front)
        assert tip(top, front, "^") == (7 - front, top)
        assert tip(top, front, ">") == (7 - right, front)  # the old left face comes up
        assert tip(top, front, "<") == (right, front)  # the old right face comes up


def test_R3_turning_keeps_the_top_and_moves_the_front() -> None:
    for top, front in ORIENTATIONS:
        right = right_face(top, front)
        assert turn(top, front, "<") == (top, right)
        assert turn(top, front, ">") == (top, 7 - right)
        t, f = top, front
        for _ in range(4):
            t, f = turn(t, f, "<")
        assert (t, f) == (top, front)


@settings(max_examples=300, deadline=None)
@given(
    start=st.sampled_from(ORIENTATIONS),
    ops=st.lists(st.sampled_from(sorted(ROTATIONS)), max_size=30),
)
def test_R2_R3_every_reachable_orientation_is_a_real_die(
    start: tuple[int, int], ops: list[str]
) -> None:
    top, front = start
    model = model_of(top, front)
    for op in ops:
        top, front = engine_op(top, front, op)
        model = {face: ROTATIONS[op](v) for face, v in model.items()}
        assert (top, front) in ORIENTATIONS
        assert face_at(model, (0, 0, 1)) == top
        assert face_at(model, (0, 1, 0)) == front
        assert face_at(model, (1, 0, 0)) == right_face(top, front)
        for face, v in model.items():
            assert model[7 - face] == (-v[0], -v[1], -v[2])  # opposite faces sum to 7
        assert det(model[1], model[2], model[3]) == 1


@settings(max_examples=100, deadline=None)
@given(start=st.sampled_from(ORIENTATIONS))
def test_R2_four_forward_tips_on_the_board_restore_the_die(start: tuple[int, int]) -> None:
    top, front = start
    state = position({"c2": W(top, front), "h7": B(6)})
    for rank in range(2, 6):
        state = act(state, 0, f"c{rank}^")
        state = act(state, 1, "h7@<")
    assert dice_of(state)["c6"] == W(top, front)


@settings(max_examples=100, deadline=None)
@given(start=st.sampled_from(ORIENTATIONS), seat=st.sampled_from([0, 1]))
def test_R2_left_then_right_restores_the_die(start: tuple[int, int], seat: int) -> None:
    top, front = start
    me = (seat, top, front, False)
    other = "h7" if seat == 0 else "h2"
    square = "d2" if seat == 0 else "d7"
    state = position({square: me, other: (1 - seat, 6, 2, False)}, to_play=seat)
    state = act(state, seat, f"{square}<")
    state = act(state, 1 - seat, f"{other}@<")
    moved = next(sq for sq, d in dice_of(state).items() if d[0] == seat)
    state = act(state, seat, f"{moved}>")
    assert dice_of(state)[square] == me


def test_R2_directions_are_the_owners() -> None:
    state = position({"d2": W(3), "d7": B(3)})
    assert E.view(act(state, 0, "d2<"), None).last_move is not None
    assert "c2" in dice_of(act(state, 0, "d2<"))
    assert "e2" in dice_of(act(state, 0, "d2>"))
    assert "d3" in dice_of(act(state, 0, "d2^"))
    black = position({"d2": W(3), "d7": B(3)}, to_play=1)
    assert "d6" in dice_of(act(black, 1, "d7^"))
    assert "e7" in dice_of(act(black, 1, "d7<"))  # Black's left is the h-file side
    assert "c7" in dice_of(act(black, 1, "d7>"))


def test_R2_a_tip_needs_an_empty_square_on_the_board() -> None:
    state = position({"a2": W(1), "a3": B(6), "h7": B(2)})
    assert texts(state, 0) == ["a2>", "a2@<", "a2@>", "offer-draw"]
    with pytest.raises(IllegalAction, match="off the board"):
        act(state, 0, "a2<")
    with pytest.raises(IllegalAction, match="occupied"):
        act(state, 0, "a2^")


def test_R3_a_turn_changes_only_the_front() -> None:
    state = position({"c2": W(5, 1), "h7": B(2)})
    after = act(state, 0, "c2@<")
    assert dice_of(after)["c2"] == W(5, right_face(5, 1))
    assert after.quiet == 1 and after.to_play == 1


# --------------------------------------------------------------------------
# R4-R6: captures and sacrifices
# --------------------------------------------------------------------------


def test_R4_a_capture_never_changes_the_capturing_die() -> None:
    for top, front in ORIENTATIONS:
        if top == 1:
            continue
        state = position({"c2": W(top, front), "c3": B(1), "h7": B(6)})
        after = act(state, 0, "c2xc3")
        assert dice_of(after)["c3"] == W(top, front)
        assert "c2" not in dice_of(after)
        assert after.quiet == 0


def test_R4_capture_needs_a_lower_value_and_an_adjacent_square() -> None:
    state = position({"c2": W(4), "c3": B(5), "b2": B(3), "d2": B(4), "h7": B(6)})
    legal = texts(state, 0)
    assert "c2xb2" in legal and "c2xc3" not in legal and "c2xd2" not in legal
    assert "c2!d2" in legal  # equal: a sacrifice, not a capture
    with pytest.raises(IllegalAction, match="lower"):
        act(state, 0, "c2xc3")
    with pytest.raises(IllegalAction, match="sacrificed"):
        act(state, 0, "c2xd2")
    far = position({"c2": W(4), "c4": B(1), "h7": B(6)})
    with pytest.raises(IllegalAction, match="next to it"):
        act(far, 0, "c2xc4")


def test_R4_the_leader_captures_equal_values_and_can_be_captured() -> None:
    state = position({"c2": W(4, leader=True), "c3": B(4), "h7": B(6)})
    assert "c2xc3" in texts(state, 0) and "c2!c3" not in texts(state, 0)
    after = act(state, 0, "c2xc3")
    assert dice_of(after)["c3"] == W(4, leader=True)
    victim = position({"c2": W(3), "c3": B(2, leader=True), "h7": B(6)})
    after = act(victim, 0, "c2xc3")
    assert dice_of(after)["c3"] == W(3)
    assert E.view(after, None).players[1].leader is None


def test_R5_diagonal_captures_only_with_the_variant() -> None:
    dice = {"c2": W(5), "d3": B(3), "b3": B(5), "h7": B(6)}
    plain = position(dice)
    assert not any(t in texts(plain, 0) for t in ("c2xd3", "c2!b3"))
    with pytest.raises(IllegalAction, match="next to it"):
        act(plain, 0, "c2xd3")
    variant = position(dice, diagonal=True)
    assert {"c2xd3", "c2!b3"} <= set(texts(variant, 0))
    assert dice_of(act(variant, 0, "c2xd3"))["d3"] == W(5)
    # Still no diagonal tips, and Black's diagonals point towards rank 1.
    assert texts(variant, 0) == [
        "c2^", "c2<", "c2>", "c2!b3", "c2xd3", "c2@<", "c2@>", "offer-draw",
    ]  # fmt: skip
    black = position({"d7": B(5), "c6": W(3), "a2": W(1)}, to_play=1, diagonal=True)
    assert "d7xc6" in texts(black, 1)
    assert "d7xc6" not in texts(position({"d7": B(5), "c6": W(3), "a2": W(1)}, to_play=1), 1)


def test_R5_option_is_validated() -> None:
    assert E.options["diagonal_captures"].default is False
    with pytest.raises(InvalidOptions):
        E.setup(2, {"diagonals": True})
    with pytest.raises(InvalidOptions):
        E.setup(3, {})
    assert E.setup(2, {"diagonal_captures": True}).diagonal


def test_R6_sacrifice_removes_only_the_sacrificed_die() -> None:
    state = position({"c2": W(4), "c3": B(4), "h7": B(6)})
    after = act(state, 0, "c2!c3")
    assert dice_of(after) == {"c3": B(4), "h7": B(6)}
    assert after.quiet == 0
    assert E.view(after, None).last_move is not None


def test_R6_the_leader_cannot_be_sacrificed() -> None:
    state = position({"c2": W(4, leader=True), "c3": B(4), "h7": B(6)})
    with pytest.raises(IllegalAction, match="Leader cannot be sacrificed"):
        act(state, 0, "c2!c3")
    unequal = position({"c2": W(4), "c3": B(3), "h7": B(6)})
    with pytest.raises(IllegalAction, match="equal"):
        act(unequal, 0, "c2!c3")


# --------------------------------------------------------------------------
# R7: hidden simultaneous set-up
# --------------------------------------------------------------------------


def test_R7_values_offered_always_allow_a_total_of_28() -> None:
    rng = random.Random(3)
    for _ in range(200):
        state = E.setup(2, {})
        while len(state.values[0]) < 8:
            options = [a for a in E.legal_actions(state, 0) if isinstance(a, SetValue)]
            assert options
            state = E.apply(state, 0, rng.choice(options))
        assert sum(state.values[0]) == 28
    # Forced values at the end of a lopsided arrangement.
    state = E.setup(2, {})
    for f, v in zip("abcdefg", (6, 6, 6, 6, 1, 1, 1), strict=True):
        state = act(state, 0, f"set {f} {v}")
    assert texts(state, 0) == ["set h 1", "setup random", "setup reset"]
    with pytest.raises(IllegalAction, match="28"):
        act(state, 0, "set h 2")
    with pytest.raises(IllegalAction, match="next one is file h"):
        act(state, 0, "set a 1")


def test_R7_one_leader_and_the_starting_position() -> None:
    state = committed()
    dice = dice_of(state)
    assert state.phase == "play" and state.to_play == 0
    white = {sq: d for sq, d in dice.items() if d[0] == 0}
    black = {sq: d for sq, d in dice.items() if d[0] == 1}
    assert sorted(white) == [f"{f}2" for f in FILES]
    assert sorted(black) == [f"{f}7" for f in FILES]
    assert [sq for sq, d in white.items() if d[3]] == ["c2"]
    assert [sq for sq, d in black.items() if d[3]] == ["f7"]
    assert [white[f"{f}2"][1] for f in FILES] == [3, 4, 5, 2, 6, 1, 4, 3]
    assert all(d[2] == start_front(d[1]) for d in dice.values())
    assert sum(d[1] for d in white.values()) == sum(d[1] for d in black.values()) == 28


def test_R7_step_by_step_with_leader_and_commit() -> None:
    state = E.setup(2, {})
    assert E.to_move(state) == E.waiting_on(state) == frozenset({0, 1})
    assert texts(state, 0) == [f"set a {v}" for v in range(1, 7)] + ["setup random"]
    for f, v in zip(FILES, (3, 4, 5, 2, 6, 1, 4, 3), strict=True):
        state = act(state, 0, f"set {f} {v}")
    assert texts(state, 0) == [f"leader {f}" for f in FILES] + ["setup random", "setup reset"]
    with pytest.raises(IllegalAction, match="not complete"):
        act(state, 0, "commit")
    state = act(state, 0, "leader c")
    assert texts(state, 0) == ["commit", "setup random", "setup reset"]
    assert E.label(state, 0, Commit()) == "Commit: 3 4 5 2 6 1 4 3, Leader on c"
    reset = act(state, 0, "setup reset")
    assert reset.values[0] == () and reset.leaders[0] == -1
    state = act(state, 0, "commit")
    assert E.to_move(state) == E.waiting_on(state) == frozenset({1})
    with pytest.raises(NotYourTurn, match="committed"):
        act(state, 0, "setup reset")


def test_R7_the_set_up_is_private_until_both_have_committed() -> None:
    start = E.setup(2, {})
    state = start
    public = E.view(start, None)
    steps = ["set a 6", "set b 1", "set c 5", "setup reset", "setup 6 6 6 6 1 1 1 1 leader a"]
    for text in steps:
        action = E.parse(state, 0, text)
        after = E.apply(state, 0, action)
        assert E.private_to(state, 0, action) == 0
        line = E.narrate(state, 0, action, after)
        assert line == "{p0} is arranging their dice."
        assert E.view(after, None) == public
        assert E.view(after, 1) == E.view(start, 1)
        state = after
    mine = E.view(state, 0).me
    assert mine is not None and mine.values == (6, 6, 6, 6, 1, 1, 1, 1) and mine.leader == "a"
    assert E.view(state, None).me is None
    state = act(state, 0, "commit")
    view = E.view(state, None)
    assert view.dice == () and [p.committed for p in view.players] == [True, False]
    assert E.narrate(state, 1, Commit(), state) == "{p1} has committed their set-up."
    state = act(state, 1, "setup 4 4 4 4 3 3 3 3 leader f")
    before = state
    state = act(state, 1, "commit")
    assert "revealed" in E.narrate(before, 1, Commit(), state)
    assert E.view(state, None).me is None and E.view(state, 0).me is None
    assert len(E.view(state, None).dice) == 16


def test_R7_random_set_up_is_uniform_legal_and_private() -> None:
    state = act(E.setup(2, {}), 1, "set a 2")
    state = act(state, 1, "setup random")
    assert E.to_move(state) == frozenset({CHANCE}) and state.values[1] == ()
    with pytest.raises(NotYourTurn):
        act(state, 0, "set a 3")
    probability = Fraction(1)
    rng = random.Random(11)
    while E.to_move(state) == frozenset({CHANCE}):
        outcomes = E.chance_outcomes(state)
        assert sum(p for _, p in outcomes) == 1 and len(outcomes) <= 8
        action = sample_chance(outcomes, rng.random())
        assert isinstance(action, DealValue | DealLeader) and action.seat == 1
        assert E.private_to(state, CHANCE, action) == 1
        assert E.narrate(state, CHANCE, action, state) == ""
        probability *= dict(outcomes)[action]
        state = E.apply(state, CHANCE, action)
    # Every complete arrangement (values and Leader file) is equally likely.
    assert probability == Fraction(1, arrangements(8, 28) * 8)
    assert sum(state.values[1]) == 28 and 0 <= state.leaders[1] < 8
    assert state.committed == (False, True)  # asked for instead of committing
    assert E.to_move(state) == frozenset({0})


def test_R7_arrangement_counts_and_odds() -> None:
    brute = sum(1 for v in itertools.product(range(1, 7), repeat=4) if sum(v) == 14)
    assert arrangements(4, 14) == brute
    odds = value_odds((6, 6, 6, 6, 1, 1, 1))
    assert odds == ((1, Fraction(1)),)
    assert sum(p for _, p in value_odds(())) == 1


def test_R7_random_set_ups_reveal_when_both_are_dealt() -> None:
    state = act(E.setup(2, {}), 0, "setup random")
    state, _ = resolve_chance(E, state, random.Random(1).random)
    state = act(state, 1, "setup random")
    assert "revealed" in E.narrate(state, 1, SetupRandom(), state)
    state, steps = resolve_chance(E, state, random.Random(2).random)
    assert state.phase == "play" and len(steps) == 9
    assert all(s.private_to == 1 for s in steps)


def test_R7_one_line_set_up_is_checked() -> None:
    state = E.setup(2, {})
    action = E.parse(state, 0, " SETUP 3,4,5,2,6,1,4,3  Leader C ")
    assert action == SetupAll((3, 4, 5, 2, 6, 1, 4, 3), 2)
    assert E.parse(state, 0, E.describe(state, 0, action)) == action
    with pytest.raises(IllegalAction, match="28"):
        act(state, 0, "setup 6 6 6 6 6 6 6 6 leader a")
    with pytest.raises(InvalidAction):
        act(state, 0, "setup 7 4 5 2 6 1 4 -1 leader a")


# --------------------------------------------------------------------------
# R8: home dice
# --------------------------------------------------------------------------


def test_R8_a_home_die_cannot_move() -> None:
    state = position({"c8": W(5), "b8": B(3), "d2": W(2), "e1": B(4), "h7": B(6)})
    assert not any(t.startswith("c8") for t in texts(state, 0))
    for text in ("c8<", "c8>", "c8@<", "c8xb8"):
        with pytest.raises(IllegalAction, match="home"):
            act(state, 0, text)
    black = position({"e1": B(4), "d1": W(1), "h7": B(6), "a2": W(1)}, to_play=1)
    assert not any(t.startswith("e1") for t in texts(black, 1))


def test_R8_reaching_the_last_rank_makes_a_die_home() -> None:
    state = position({"c7": W(2, 3), "a7": B(1), "h6": B(6)})
    after = act(state, 0, "c7^")
    die = next(d for d in E.view(after, None).dice if d.square == "c8")
    assert die.home and die.top == 4
    assert E.view(after, None).players[0].score == 4
    assert after.movers[0] == ()


# --------------------------------------------------------------------------
# R9: the end
# --------------------------------------------------------------------------


def test_R9_the_game_ends_when_only_turns_remain() -> None:
    # After Black's b3-b2, White's only die can turn but not tip or capture.
    state = position({"a2": W(1), "a3": B(6), "b3": B(3, 2), "h5": B(6)}, to_play=1)
    after = act(state, 1, "b3^")
    assert dice_of(after)["b2"][1] == 5
    assert after.phase == "over" and after.result == "stuck"
    assert E.to_move(after) == frozenset() and E.legal_actions(after, 0) == []
    outcome = E.outcome(after)
    assert outcome is not None and outcome.reason.startswith("{p0}, to move, could not tip")
    # The board's reason names the players too (the renderer fills in their
    # names), never the rules' White and Black, which are not the seats' colours.
    final = E.view(after, None).final
    assert final is not None and final.reason == outcome.reason
    assert "White" not in final.reason and "Black" not in final.reason
    assert "Game over" in E.narrate(state, 1, E.parse(state, 1, "b3^"), after)


def test_R9_turns_are_offered_while_the_game_goes_on() -> None:
    state = position({"a2": W(1), "a3": B(6), "h7": B(6)})
    assert texts(state, 0) == ["a2>", "a2@<", "a2@>", "offer-draw"]


def test_R9_forty_quiet_plies_end_the_game() -> None:
    state = position({"c2": W(3), "f7": B(3)})
    for ply in range(QUIET_LIMIT):
        assert state.phase == "play" and state.quiet == ply
        seat = state.to_play
        state = act(state, seat, "c2@<" if seat == 0 else "f7@>")
    assert state.phase == "over" and state.result == "quiet"
    outcome = E.outcome(state)
    assert outcome is not None and outcome.is_draw and "40 moves in a row" in outcome.reason
    # A forward tip, a capture or a sacrifice starts the count again.
    nearly = position({"c2": W(3), "d2": W(4), "f7": B(3)}, quiet=QUIET_LIMIT - 1)
    assert act(nearly, 0, "c2^").quiet == 0
    sideways = position({"c2": W(3), "f7": B(3)}, quiet=QUIET_LIMIT - 1)
    assert act(sideways, 0, "c2<").result == "quiet"


def test_R9_draw_offer_accept() -> None:
    state = position({"c2": W(3), "f7": B(3)})
    offered = act(state, 0, "offer-draw")
    assert offered.to_play == 0 and offered.quiet == 0 and offered.draw_offer == 0
    assert "offer-draw" not in texts(offered, 0)
    with pytest.raises(IllegalAction, match="already offered"):
        act(offered, 0, "offer-draw")
    moved = act(offered, 0, "c2^")
    assert moved.draw_offer == 0
    assert texts(moved, 1)[-2:] == ["accept-draw", "decline-draw"]
    done = act(moved, 1, "accept-draw")
    outcome = E.outcome(done)
    assert outcome is not None and outcome.is_draw
    assert outcome.reason == "The players agreed to a draw."
    assert E.view(done, None).final is not None


def test_R9_draw_offer_decline_and_lapse() -> None:
    state = act(act(position({"c2": W(3), "f7": B(3)}), 0, "offer-draw"), 0, "c2^")
    declined = act(state, 1, "decline-draw")
    assert declined.draw_offer is None and declined.to_play == 1 and declined.phase == "play"
    with pytest.raises(IllegalAction, match="not offered"):
        act(declined, 1, "accept-draw")
    lapsed = act(state, 1, "f7^")
    assert lapsed.draw_offer is None
    assert "lapses" in E.narrate(state, 1, E.parse(state, 1, "f7^"), lapsed)
    with pytest.raises(IllegalAction, match="not offered"):
        act(lapsed, 0, "accept-draw")
    with pytest.raises(IllegalAction, match="offered a draw"):
        act(state, 1, "offer-draw")


def test_R9_random_players_always_finish() -> None:
    for diagonal in (False, True):
        rng = random.Random(5)
        for _ in range(40):
            state = E.setup(2, {"diagonal_captures": diagonal})
            for _ in range(20_000):
                if E.outcome(state) is not None:
                    break
                state, _ = resolve_chance(E, state, rng.random)
                seat = min(E.to_move(state))
                state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            assert E.outcome(state) is not None
            assert len(E.legal_actions(state, state.to_play)) == 0


# --------------------------------------------------------------------------
# R10: score
# --------------------------------------------------------------------------


def over(dice: dict[str, Die]) -> ArtabanState:
    return position(dice, phase="over", result="stuck", to_play=1)


def test_R10_higher_score_wins() -> None:
    outcome = E.outcome(over({"a8": W(6), "b1": B(5), "c1": B(5)}))
    assert outcome is not None
    assert outcome.scores == (6, 10) and outcome.ranking == (frozenset({1}), frozenset({0}))


def test_R10_tie_break_dice_on_the_last_rank() -> None:
    outcome = E.outcome(over({"a8": W(3), "b8": W(3), "c1": B(6), "d4": B(1)}))
    assert outcome is not None and outcome.scores == (6, 6)
    assert outcome.winners == frozenset({0}) and "last rank wins (2 to 1)" in outcome.reason


def test_R10_tie_break_dice_on_the_board() -> None:
    outcome = E.outcome(over({"a8": W(6), "c1": B(6), "d4": B(1), "e5": B(2)}))
    assert outcome is not None and outcome.winners == frozenset({1})
    assert "on the board wins (1 to 3)" in outcome.reason


def test_R10_all_tied_is_a_draw() -> None:
    outcome = E.outcome(over({"a8": W(6), "c1": B(6), "d4": W(1), "e5": B(2)}))
    assert outcome is not None and outcome.is_draw and "a draw" in outcome.reason
    # Seats are {p0}/{p1} tags, filled with names by the caller.
    assert "{p0} scores 6 and {p1} scores 6" in outcome.reason
    assert "{" not in outcome.reason.format(p0="Asha", p1="Bhima")


# --------------------------------------------------------------------------
# Notation, menus, labels, serialisation
# --------------------------------------------------------------------------


def test_notation_round_trip_and_forgiving_parse() -> None:
    state = position({"c2": W(4, 5), "c3": B(2), "d2": B(4), "h7": B(6)})
    samples = {
        "c2^": Tip(square_of("c2"), "^"),
        "c2<": Tip(square_of("c2"), "<"),
        "c2>": Tip(square_of("c2"), ">"),
        "c2@<": Turn(square_of("c2"), "<"),
        "c2@>": Turn(square_of("c2"), ">"),
        "c2xc3": Capture(square_of("c2"), square_of("c3")),
        "c2!d2": Sacrifice(square_of("c2"), square_of("d2")),
        "offer-draw": OfferDraw(),
        "accept-draw": AcceptDraw(),
        "decline-draw": DeclineDraw(),
        "set a 3": SetValue(0, 3),
        "leader c": SetLeader(2),
        "setup random": SetupRandom(),
        "setup reset": SetupReset(),
        "commit": Commit(),
        "setup 3 4 5 2 6 1 4 3 leader c": SetupAll((3, 4, 5, 2, 6, 1, 4, 3), 2),
        "p1 set h 6": DealValue(1, 7, 6),
        "p0 leader b": DealLeader(0, 1),
    }
    for text, action in samples.items():
        assert E.parse(state, 0, text) == action
        assert E.describe(state, 0, action) == text
    for text, want in {
        "C2 ^": "c2^",
        " c2 x C3 ": "c2xc3",
        "c2 @ <": "c2@<",
        "Offer Draw": "offer-draw",
        "accept_draw": "accept-draw",
        "SET A 3": "set a 3",
        "seta3": "set a 3",
    }.items():
        assert E.describe(state, 0, E.parse(state, 0, text)) == want
    for bad in ("c9^", "i2^", "c2^^", "c2xc9", "set a 7", "draw", "leader z", "p2 set a 1"):
        with pytest.raises(InvalidAction):
            E.parse(state, 0, bad)


def test_menu_words_group_moves_by_die() -> None:
    state = position({"c2": W(5, leader=True), "c3": B(2), "h7": B(6)})
    assert E.menu_words(state, 0, "c2^") == ("c2", "c2^")
    assert E.menu_words(state, 0, "c2xc3") == ("c2", "c2xc3")
    assert E.menu_words(state, 0, "c2@>") == ("c2", "c2@>")
    assert E.menu_words(state, 0, "offer-draw") == ("offer-draw",)
    assert E.menu_words(state, 0, "set a 3") == ("set a 3",)
    assert E.choice_label(state, 0, "c2") == "c2: 5 (Leader)"
    assert E.choice_label(state, 0, "h7") == "h7: 6"
    groups = {E.menu_words(state, 0, t)[0] for t in texts(state, 0)}
    assert groups == {"c2", "offer-draw"}


def test_labels_are_friendly() -> None:
    state = position({"c2": W(4, 5), "c3": B(2), "d2": B(4), "h7": B(6)})
    label = {t: E.label(state, 0, E.parse(state, 0, t)) for t in texts(state, 0)}
    assert label["c2<"] == f"Tip c2 left to b2 (top 4 -> {right_face(4, 5)})"
    assert label["c2xc3"] == "c2 die (4) captures the 2 on c3"
    assert label["c2!d2"] == "Sacrifice c2 (4) against the 4 on d2"
    assert label["c2@<"].startswith("Turn c2 left in place (top stays 4, front 5 -> ")
    assert all(0 < len(v) <= 100 for v in label.values())
    forward = position({"c2": W(4, 5), "h7": B(6)})
    assert E.label(forward, 0, E.parse(forward, 0, "c2^")) == "Tip c2 forward to c3 (top 4 -> 2)"


def test_not_your_turn() -> None:
    state = position({"c2": W(3), "f7": B(3)})
    with pytest.raises(NotYourTurn):
        act(state, 1, "f7^")
    with pytest.raises(NotYourTurn):
        E.apply(state, CHANCE, DealValue(0, 0, 3))
    with pytest.raises(IllegalAction, match="no die"):
        act(state, 0, "d2^")
    with pytest.raises(IllegalAction, match="not yours"):
        act(state, 0, "f7^")
    with pytest.raises(IllegalAction, match="set-up is over"):
        act(state, 0, "set a 3")


def test_json_round_trip_and_fast_states() -> None:
    state = act(committed(), 0, "c2^")
    obj = json.loads(json.dumps(E.to_json(state)))
    assert E.from_json(obj) == state
    # The hot path builds states without __init__: same fields, same value.
    names = {f.name for f in dataclasses.fields(ArtabanState)}
    assert set(vars(state)) == names
    assert ArtabanState(**vars(state)) == state
    assert hash(ArtabanState(**vars(state))) == hash(state)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.quiet = 3  # type: ignore[misc]
    bad = json.loads(json.dumps(obj))
    bad["dice"][0]["front"] = 7 - bad["dice"][0]["top"]
    with pytest.raises(ValueError, match="Not an Artaban state"):
        E.from_json(bad)


def test_views() -> None:
    state = act(committed(), 0, "c2^")
    view = E.view(state, None)
    assert view.phase == "play" and view.to_play == 1 and view.me is None
    assert view.last_move is not None
    assert (view.last_move.frm, view.last_move.to, view.last_move.forward) == ("c2", "c3", True)
    c3 = next(d for d in view.dice if d.square == "c3")
    assert (c3.top, c3.front, c3.leader) == (6, 5, True)
    assert c3.left == 7 - c3.right == 7 - right_face(6, 5)
    assert [p.on_board for p in view.players] == [8, 8]
    assert [p.leader for p in view.players] == ["c3", "f7"]
    assert dataclasses.replace(E.view(state, 0), viewer=None) == view
    assert E.view(state, 1).viewer == 1 and view.viewer is None


# --------------------------------------------------------------------------
# Determinization (issue 19): search deals the opponent's hidden set-up
# --------------------------------------------------------------------------


def test_R7_a_dealt_opponent_set_up_is_a_whole_legal_one_and_mine_is_kept() -> None:
    state = act(E.setup(2, {}), 0, "set a 6")
    state = act(state, 0, "set b 6")
    state = act(state, 1, "setup 3 4 5 2 6 1 4 3 leader c")
    state = act(state, 1, "commit")
    rng = random.Random(5)
    leaders: set[int] = set()
    for _ in range(300):
        dealt = E.determinize(state, 0, rng.random)
        values = dealt.values[1]
        # R7: eight values from 1 to 6 summing to 28, one Leader file.
        assert len(values) == 8 and all(1 <= v <= 6 for v in values) and sum(values) == 28
        assert 0 <= dealt.leaders[1] < 8
        leaders.add(dealt.leaders[1])
        assert dealt.committed == (False, True)
        assert (dealt.values[0], dealt.leaders[0]) == ((6, 6), -1)
        assert E.view(dealt, 0) == E.view(state, 0)
        assert E.to_move(dealt) == frozenset({0})
    assert leaders == set(range(8))


def test_R7_a_dealt_set_up_does_not_depend_on_the_hidden_one() -> None:
    start = E.setup(2, {})
    opponents = [
        start,
        act(start, 1, "set a 1"),
        act(act(start, 1, "setup 6 6 6 6 1 1 1 1 leader a"), 1, "commit"),
        act(act(start, 1, "setup 4 4 4 4 3 3 3 3 leader h"), 1, "commit"),
    ]
    dealt = [E.to_json(E.determinize(s, 0, random.Random(3).random)) for s in opponents]
    assert dealt[0] == dealt[1] and dealt[2] == dealt[3]
    # Only the committed flag (public) tells the two pairs apart.
    assert dealt[0]["setup"][1]["values"] == dealt[2]["setup"][1]["values"]
    assert [d["setup"][1]["committed"] for d in dealt] == [False, False, True, True]


def test_R7_every_dealt_arrangement_is_equally_likely() -> None:
    """From the same draws, search deals the very set-up that chance deals
    for ``setup random``, which gives every arrangement and Leader file the
    same chance (test_R7_random_set_up_is_uniform_legal_and_private)."""
    start = E.setup(2, {})
    asked = act(start, 1, "setup random")
    for seed in range(200):
        by_chance, _ = resolve_chance(E, asked, random.Random(seed).random)
        dealt = E.determinize(start, 0, random.Random(seed).random)
        assert (dealt.values[1], dealt.leaders[1]) == (by_chance.values[1], by_chance.leaders[1])


def test_R7_a_random_set_up_being_dealt_is_left_to_chance() -> None:
    state = act(E.setup(2, {}), 1, "setup random")
    state = E.apply(state, CHANCE, sample_chance(E.chance_outcomes(state), 0.5))
    assert len(state.values[1]) == 1
    dealt = E.determinize(state, 0, random.Random(1).random)
    # Seat 0 cannot know how far chance got: it deals the whole set-up again.
    assert dealt.values[1] == () and dealt.leaders[1] == -1 and dealt.dealing == 1
    assert E.to_move(dealt) == frozenset({CHANCE}) and E.view(dealt, 0) == E.view(state, 0)
    dealt, _ = resolve_chance(E, dealt, random.Random(2).random)
    assert sum(dealt.values[1]) == 28 and dealt.committed == (False, True)
    # The seat being dealt sees its own deal; the opponent's is dealt whole.
    mine = E.determinize(state, 1, random.Random(1).random)
    assert mine.values[1] == state.values[1] and len(mine.values[0]) == 8


def test_R7_after_the_reveal_nothing_is_dealt() -> None:
    state = committed()
    assert E.determinize(state, 0, random.Random(1).random) is state
    assert E.determinize(state, 1, random.Random(1).random) is state
