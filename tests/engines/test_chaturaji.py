"""Rules tests for the Martian Chaturaji engine, named after the rulings they
check (docs/rules/chaturaji.md, R1-R15), move-generation counts worked out by
hand (chess "perft" style), Hypothesis properties, and the engine contract
checks of ``test_conformance.py`` run against this engine (it is not
registered yet, so the registry is patched for those tests only)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.chaturaji_board import square_of
from bot.engines.chaturaji_state import PASS, ChaturajiState, First, Move, Place, Reenter, Roll
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

E = ChaturajiEngine()
ARMY = {"blue": 0, "red": 1, "green": 2, "yellow": 3}


def position(
    pieces: dict[str, str],
    *,
    turn: str = "blue",
    faces: tuple[int, ...] = (),
    control: str | None = None,
    n: int = 4,
    quiet: int = 0,
    quiet_rounds: int = 25,
) -> ChaturajiState:
    """A position with ``pieces`` (``{"d4": "blue raven"}``), ``turn``'s
    turn begun (control as given) and ``faces`` rolled through the engine."""
    obj = E.to_json(E.setup(n, {"quiet_rounds": quiet_rounds}))
    obj.update(
        phase="roll",
        pieces=pieces,
        turn=ARMY[turn],
        control=ARMY[control] if control else -1,
        quiet=quiet,
        turns=1,
    )
    state = E.from_json(obj)
    for face in faces:
        state = E.apply(state, CHANCE, Roll(face))
    return state


def play(state: ChaturajiState, *texts: str) -> ChaturajiState:
    for text in texts:
        seat = CHANCE if CHANCE in E.to_move(state) else min(E.to_move(state))
        state = E.apply(state, seat, E.parse(state, seat, text))
    return state


def moves(state: ChaturajiState) -> list[str]:
    seat = min(E.to_move(state))
    return [E.describe(state, seat, a) for a in E.legal_actions(state, seat) if a != PASS]


def started(faces: tuple[int, int] = (1, 1), n: int = 4) -> ChaturajiState:
    """The start position, Blue to play with ``faces`` rolled."""
    state = play(E.setup(n, {}), "roll 4", "roll 1", "roll 4", "roll 1", "first blue")
    return play(state, *(f"roll {f}" for f in faces))


def perft(state: ChaturajiState, depth: int) -> int:
    """Sequences of ``depth`` piece moves (never ``pass``) within one turn."""
    if depth == 0:
        return 1
    if state.phase != "move":
        return 0
    seat = min(E.to_move(state))
    total = 0
    turn = state.turns
    for action in E.legal_actions(state, seat):
        if action == PASS:
            continue
        after = E.apply(state, seat, action)
        total += 1 if depth == 1 else (perft(after, depth - 1) if after.turns == turn else 0)
    return total


# --------------------------------------------------------------------------
# Move generation by hand (perft)
# --------------------------------------------------------------------------

START_COUNTS = {1: 9, 2: 3, 3: 1, 4: 6}
"""Blue at the start, per die (worked by hand):
monarch f1: west e1 d1 c1 and takes Red's squire on b1 (4), north-west e2 d3
c4 b5 a6 (5), every other line blocked by its own pieces: 9.
paladin g1: knight h3 f3 e2, both bishop diagonals blocked (h2, f2): 3.
raven h1: rook lines blocked (h2, g1); the two-square jump to f3 only: 1.
squires f2 g2 h2: one or two steps each, nothing to capture: 6.
By the board's quarter-turn symmetry every army has the same counts."""


@pytest.mark.parametrize("army", ["blue", "red", "green", "yellow"])
@pytest.mark.parametrize("face", [1, 2, 3, 4])
def test_perft_start_position_per_die(army: str, face: int) -> None:
    state = position(
        {sq: pc for sq, pc in E.to_json(E.setup(4, {}))["pieces"].items()},
        turn=army,
        faces=(face, face),
    )
    assert perft(state, 1) == START_COUNTS[face]


def test_perft_start_position_blue_lists() -> None:
    state = started((1, 4))
    assert moves(state) == [
        "f1xb1",
        "f1-c1",
        "f1-d1",
        "f1-e1",
        "f1-e2",
        "f1-d3",
        "f1-c4",
        "f1-b5",
        "f1-a6",
        "f2-f3",
        "f2-f4",
        "g2-g3",
        "g2-g4",
        "h2-h3",
        "h2-h4",
    ]


def test_perft_depth_two_raven_double() -> None:
    """Blue rolls 3 3.  Depth 1: h1-f3 only.  From f3 the raven has north
    f4..f8 (5), east g3 h3 (2), west e3 d3 c3 and Red's squire on b3 (4),
    jumps h5 d5 d1 and h1 (now empty) (4): depth 2 is 15."""
    state = started((3, 3))
    assert perft(state, 1) == 1
    assert perft(state, 2) == 15


def test_perft_depth_two_paladin_and_raven_either_order() -> None:
    """Blue rolls 2 3.  Depth 1: paladin h3 f3 e2 + raven f3 = 4.
    Depth 2: paladin first -> f3: raven g1 only (1); -> h3 or e2: raven g1,
    f3 (2 each) = 5; raven first (f3) -> paladin h3 e2 (2).  Total 7."""
    state = started((2, 3))
    assert perft(state, 1) == 4
    assert perft(state, 2) == 7


def test_perft_lone_pieces_on_d4() -> None:
    """A Blue piece on d4 of an otherwise empty board (Blue's monarch on b1
    and Red's on h7 are off all its lines):
    monarch (queen) 14 rook + 13 bishop = 27; paladin 8 knight + 13 bishop
    = 21; raven 14 rook + the jumps b2 f2 b6 f6 = 18."""
    for kind, face, expected in (("monarch", 1, 27), ("paladin", 2, 21), ("raven", 3, 18)):
        pieces = {"d4": f"blue {kind}", "h7": "red monarch"}
        if kind != "monarch":
            pieces["b1"] = "blue monarch"
        state = position(pieces, faces=(face, face))
        assert len([m for m in moves(state) if m.startswith("d4")]) == expected, kind


def test_perft_raven_jump_ignores_the_square_between() -> None:
    """Raven d4 hemmed in by Blue squires on d5 d3 c4 e4 and c5 e5 c3 e3:
    no rook move; the four jumps still land: 4."""
    pieces = {"d4": "blue raven", "a1": "blue monarch", "h8": "red monarch"}
    for sq in ("d5", "d3", "c4", "e4", "c5", "e5", "c3", "e3"):
        pieces[sq] = "blue squire"
    state = position(pieces, faces=(3, 3))
    assert sorted(m for m in moves(state) if m.startswith("d4")) == [
        "d4-b2",
        "d4-b6",
        "d4-f2",
        "d4-f6",
    ]


@pytest.mark.parametrize(
    ("army", "ahead", "caps"),
    [
        ("blue", "e5", ("d5", "f5")),
        ("red", "f4", ("f5", "f3")),
        ("green", "e3", ("d3", "f3")),
        ("yellow", "d4", ("d5", "d3")),
    ],
)
def test_perft_squires_advance_their_own_way(army: str, ahead: str, caps: tuple[str, ...]) -> None:
    """R2/R3: a squire on e4 (not a starting square) steps one square towards
    its promotion row and captures one step diagonally forward."""
    enemy = "red" if army in ("blue", "green") else "blue"
    pieces = {"e4": f"{army} squire", "a1": f"{army} monarch", "h8": f"{enemy} monarch"}
    for sq in caps:
        pieces[sq] = f"{enemy} paladin"
    if army == "red":
        pieces.pop("h8")
        pieces["a8"] = "blue monarch"
    state = position(pieces, turn=army, faces=(4, 4))
    assert sorted(moves(state)) == sorted([f"e4-{ahead}", *(f"e4x{c}" for c in caps)])


# --------------------------------------------------------------------------
# R1-R15
# --------------------------------------------------------------------------


def test_R1_partnerships_and_clockwise_order() -> None:
    state = started((4, 4))
    order = []
    for _ in range(8):
        order.append(state.turn)
        state = play(state, "pass", "roll 4", "roll 4")
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    view = E.view(state, None)
    assert [a.partnership for a in view.armies] == [0, 1, 0, 1]


def test_R2_starting_squares_and_thrones() -> None:
    pieces = E.to_json(E.setup(4, {}))["pieces"]
    assert pieces["h1"] == "blue raven" and pieces["g1"] == "blue paladin"
    assert pieces["f1"] == "blue monarch"
    assert {s for s, p in pieces.items() if p == "red squire"} == {"b1", "b2", "b3"}
    assert pieces["a3"] == "red monarch" and pieces["c8"] == "green monarch"
    assert {s for s, p in pieces.items() if p == "yellow squire"} == {"g6", "g7", "g8"}
    assert len(pieces) == 24
    assert [a.throne for a in E.view(E.setup(4, {}), None).armies] == ["f1", "a3", "c8", "h6"]


def test_R3_pieces_block_as_in_chess() -> None:
    pieces = {"d4": "blue monarch", "d6": "green squire", "h8": "red monarch"}
    state = position(pieces, faces=(1, 1))
    north = [m for m in moves(state) if m[3] == "d" and int(m[4]) > 4]
    assert north == ["d4-d5"]  # the partner's squire blocks, and is not taken


def test_R3_squire_double_step_only_from_start() -> None:
    state = started((4, 4))
    assert "f2-f4" in moves(state)
    state = play(state, "f2-f3")
    assert "f3-f5" not in moves(state) and "f3-f4" in moves(state)


def test_R4_partners_are_never_captured() -> None:
    pieces = {
        "d4": "blue raven",
        "d6": "green squire",
        "f4": "red squire",
        "a1": "blue monarch",
        "h8": "red monarch",
    }
    state = position(pieces, faces=(3, 3))
    ms = moves(state)
    assert "d4xf4" in ms and "d4-e4" in ms and not any(m.endswith("d6") for m in ms)


def test_R4_a_controlled_army_fights_for_its_commander() -> None:
    """Blue controls Red (Red's monarch captured, Blue's monarch on a3).
    Red's raven may take Yellow (its old partner) but never Blue or Green."""
    pieces = {
        "a3": "blue monarch",
        "c8": "green monarch",
        "h6": "yellow monarch",
        "d1": "red raven",
        "d3": "yellow squire",
        "f1": "blue squire",
        "b1": "green squire",
    }
    state = position(pieces, control="red", faces=(4, 4, 3, 3))
    assert state.control == 1 and state.stage == 0
    state = play(state, "pass")  # Blue's squire die declined: Red's dice now
    assert state.stage == 1
    ms = moves(state)
    assert "d1xd3" in ms and "d1-e1" in ms and "d1xf1" not in ms and "d1xb1" not in ms


def test_R5_two_dice_either_order_doubles_and_pass() -> None:
    state = E.setup(4, {})
    state = play(state, "roll 4", "roll 1", "roll 4", "roll 1", "first blue")
    assert E.to_move(state) == {CHANCE}
    state = play(state, "roll 4")
    assert E.to_move(state) == {CHANCE}
    state = play(state, "roll 4")
    assert E.to_move(state) == {0}
    # Doubles: the same squire twice.
    state = play(state, "g2-g3", "g3-g4")
    assert state.turn == 1  # both dice used: Red's turn
    state = play(started((4, 2)), "g1-h3")  # the paladin's die first
    assert "g2-g3" in moves(state) and not any(m.startswith("h3") for m in moves(state))
    state = play(started((4, 2)), "pass")
    assert state.turn == 1


def test_R6_count_up_and_void() -> None:
    pieces = {"a1": "blue monarch", "b2": "blue squire", "h8": "red monarch"}
    state = position(pieces, faces=(2, 3))
    assert [d[2] for d in state.dice] == [3, 3]  # paladin, raven lost: squire
    pieces = {"a1": "blue monarch", "b2": "blue raven", "h8": "red monarch"}
    state = position(pieces, faces=(4, 2))
    assert state.turn == 0 and [d[2] for d in state.dice] == [-1, 2]  # 4 is void, never wraps
    view = E.view(state, None)
    assert view.dice[0].void and view.dice[1].counted_up and view.dice[1].kind == "raven"


def test_R6_a_monarch_die_counts_up_for_a_captured_monarch() -> None:
    """Blue's monarch captured, Green's monarch on Blue's throne (R8): Blue
    moves, and its 1 counts up to the paladin."""
    pieces = {"f1": "green monarch", "g1": "blue paladin", "h8": "red monarch"}
    state = position(pieces, faces=(1, 1))
    assert [d[2] for d in state.dice] == [1, 1]


def test_R7_captured_monarch_turns_are_skipped_and_logged() -> None:
    pieces = {
        "a1": "blue monarch",
        "c2": "blue squire",
        "d3": "red monarch",
        "b8": "red squire",
        "h8": "yellow monarch",
        "c8": "green monarch",
    }
    state = position(pieces, faces=(4, 4))
    before = state
    state = play(state, "c2xd3")
    assert state.monarchs[1] == -1 and "b8" in E.to_json(state)["pieces"]
    state = play(state, "pass")
    assert state.turn == 2 and state.skipped == (1,)
    line = E.narrate(play(before, "c2xd3"), 0, PASS, state)
    assert "Red's turn is skipped" in line


def test_R8_throne_control_rolls_four_dice_own_first() -> None:
    pieces = {
        "a3": "blue monarch",
        "c8": "green monarch",
        "h6": "yellow monarch",
        "b5": "red squire",
        "f2": "blue squire",
    }
    state = position(pieces)
    state = E._begin(state.__dict__.copy(), 0, count=False)  # Blue's turn starts
    assert state.control == 1
    state = play(state, "roll 4", "roll 4", "roll 4", "roll 4")
    assert [d[0] for d in state.dice] == [0, 0, 1, 1]
    assert moves(state) == ["f2-f3", "f2-f4"]  # own dice first
    state = play(state, "f2-f4", "f4-f5")
    assert moves(state) == ["b5-c5"]  # then Red's
    assert E.view(state, None).commanding == ("blue", "red")


def test_R8_partner_on_the_throne_lets_the_captured_army_move() -> None:
    pieces = {
        "f1": "green monarch",
        "g2": "blue squire",
        "a3": "red monarch",
        "h6": "yellow monarch",
    }
    state = position(pieces, turn="yellow")
    state = play(state, "roll 4", "roll 4")  # Yellow: both dice void
    assert state.turn == 0 and state.skipped == ()  # Blue plays, not skipped
    # And at Green's turn Green commands Blue too (a partner's throne counts).
    # Red (a lone monarch) rolls 3 3: both dice void, its turn ends by itself.
    state = play(state, "roll 4", "roll 4", "g2-g3", "g3-g4", "roll 3", "roll 3")
    assert state.turn == 2 and state.control == 0


def test_R9_unkindness_of_ravens_takes_all_three() -> None:
    pieces = {
        "d4": "red raven",
        "e4": "green raven",
        "d5": "yellow raven",
        "e8": "blue raven",
        "a1": "blue monarch",
        "h8": "red monarch",
    }
    state = position(pieces, faces=(3, 3))
    assert E.label(state, 0, Move(square_of("e8"), square_of("e5"))).endswith(
        "unkindness of ravens"
    )
    before = state
    state = play(state, "e8-e5")
    left = E.to_json(state)["pieces"]
    assert left["e5"] == "blue raven" and not {"d4", "e4", "d5"} & set(left)
    assert "unkindness" in E.narrate(before, 0, Move(square_of("e8"), square_of("e5")), state)
    # Two ravens of one army (or only two armies) are no unkindness.
    pieces["e4"] = "red raven"
    state = play(position(pieces, faces=(3, 3)), "e8-e5")
    assert {"d4", "e4", "d5"} <= set(E.to_json(state)["pieces"])


def test_R10_promotion_only_to_lost_pieces_then_in_place() -> None:
    pieces = {
        "a1": "blue monarch",
        "h8": "red monarch",
        "c7": "blue squire",
        "b3": "blue raven",
        "g1": "blue paladin",
    }
    state = position(pieces, faces=(4, 4))
    assert moves(state) == ["c7-c8"]  # nothing lost: stays a squire
    state = play(state, "c7-c8")
    assert E.to_json(state)["pieces"]["c8"] == "blue squire"
    pieces = {"a1": "blue monarch", "h8": "red monarch", "c8": "blue squire", "c6": "blue squire"}
    state = position(pieces, faces=(4, 4))
    assert moves(state) == ["c6-c7", "c8=p", "c8=r"]
    state = play(state, "c8=r")
    assert E.to_json(state)["pieces"]["c8"] == "blue raven"
    assert moves(state) == ["c6-c7"]
    state = play(position(pieces, faces=(4, 4)), "c6-c7", "c8=p")
    assert E.to_json(state)["pieces"]["c8"] == "blue paladin"
    pieces = {"a1": "blue monarch", "h8": "red monarch", "c7": "blue squire", "b3": "blue raven"}
    assert moves(position(pieces, faces=(4, 4))) == ["c7-c8=p"]


def test_R11_reentry_choices_and_placement() -> None:
    """Blue+Green have lost Green's monarch; Blue takes Red's: Blue's player
    chooses; Red places first on its home row (file a)."""
    pieces = {
        "d4": "blue monarch",
        "d7": "red monarch",
        "h6": "yellow monarch",
        "a1": "red raven",
        "a2": "red paladin",
        "c8": "yellow squire",
    }
    state = position(pieces, faces=(1, 1))
    state = play(state, "d4xd7")
    assert state.phase == "reenter" and E.to_move(state) == {0}
    assert [E.describe(state, 0, a) for a in E.legal_actions(state, 0)] == [
        "reenter green",
        "reenter red",
        "reenter none",
    ]
    state = play(state, "reenter red")
    assert state.phase == "place" and E.to_move(state) == {1}
    assert moves(state) == [f"place a{r}" for r in range(3, 9)]
    state = play(state, "place a5")
    # Green: rank 8 home row, c8 taken.
    assert E.to_move(state) == {2} and "place c8" not in moves(state)
    state = play(state, "place b8")
    assert state.phase == "move" and state.monarchs == (
        square_of("d7"),
        square_of("a5"),
        square_of("b8"),
        square_of("h6"),
    )
    assert moves(state)  # Blue's second die is still there
    declined = play(position(pieces, faces=(1, 1)), "d4xd7", "reenter none")
    assert declined.monarchs[1] == -1 and declined.monarchs[2] == -1


def test_R12_both_enemy_monarchs_off_wins() -> None:
    pieces = {"d4": "blue monarch", "d7": "red monarch", "c8": "green monarch"}
    state = play(position(pieces, faces=(1, 1)), "d4xd7")
    outcome = E.outcome(state)
    assert outcome is not None and outcome.ranking == (frozenset({0, 2}), frozenset({1, 3}))
    assert E.to_move(state) == frozenset()
    state = play(position(pieces, faces=(1, 1), n=2), "d4xd7")
    outcome = E.outcome(state)
    assert outcome is not None and outcome.ranking == (frozenset({0}), frozenset({1}))


def test_R13_seats_command_one_or_two_armies() -> None:
    assert E.view(E.setup(2, {}), None).seats == (("blue", "green"), ("red", "yellow"))
    assert E.view(E.setup(3, {}), None).seats == (("blue", "green"), ("red",), ("yellow",))
    assert E.view(E.setup(3, {}), 0).me == ("blue", "green")
    state = play(started((4, 4), n=2), "pass", "roll 4", "roll 4", "pass", "roll 4", "roll 4")
    assert state.turn == 2 and E.to_move(state) == {0}
    with pytest.raises(InvalidOptions):
        E.setup(5, {})


def test_R14_start_rolls_ties_and_the_choice() -> None:
    state = E.setup(4, {})
    state = play(state, "roll 2", "roll 3", "roll 3", "roll 2")  # 5 v 5: again
    assert state.phase == "start" and state.start_rolls == ()
    state = play(state, "roll 1", "roll 3", "roll 1", "roll 1")  # Red+Yellow 4 v 2
    assert state.phase == "choose" and E.to_move(state) == {1, 3}
    assert E.legal_actions(state, 1) == [First(1), First(3)]
    with pytest.raises(IllegalAction):
        E.apply(state, 1, First(0))
    state = play(state, "first yellow")
    assert state.turn == 3 and state.phase == "roll"


def test_R15_quiet_rounds_draw_and_option() -> None:
    pieces = {
        "a1": "blue monarch",
        "h8": "red monarch",
        "a8": "green monarch",
        "h1": "yellow monarch",
    }
    state = position(pieces, faces=(1, 4), quiet_rounds=1, quiet=3)
    state = play(state, "a1-a2")  # a monarch move is quiet; void die ends the turn
    outcome = E.outcome(state)
    assert outcome is not None and outcome.is_draw
    state = position(pieces, faces=(1, 4), quiet_rounds=0, quiet=500)
    assert E.outcome(play(state, "a1-a2")) is None
    with pytest.raises(InvalidOptions, match="quiet_rounds"):
        E.setup(4, {"quiet_rounds": -1})
    with pytest.raises(InvalidOptions):
        resolve_options(E, {"quiet_rounds": "lots"})
    assert resolve_options(E, {"quiet_rounds": "7"})["quiet_rounds"] == 7


def test_R15_the_view_counts_quiet_rounds_like_the_option() -> None:
    """The lobby option is ``quiet_rounds``; a board counts in rounds too,
    not in turns against four times the number the lobby chose."""
    pieces = {"a1": "blue monarch", "h8": "red monarch", "a8": "green monarch"}
    state = position(pieces, faces=(1, 4), quiet_rounds=25, quiet=9)
    view = E.view(state, None)
    assert (view.quiet_rounds, view.quiet_round_limit) == (2, 25)
    assert (view.quiet_turns, view.quiet_limit) == (9, 100)
    off = E.view(position(pieces, faces=(1, 4), quiet_rounds=0, quiet=9), None)
    assert off.quiet_round_limit == 0


def test_R15_squire_moves_reset_the_count() -> None:
    state = started((4, 4))
    state = E.from_json({**E.to_json(state), "quiet": 50})
    state = play(state, "f2-f3")
    assert state.eventful and state.quiet == 50  # counted when the turn ends
    state = play(state, "pass")
    assert state.turn == 1 and state.quiet == 0


# --------------------------------------------------------------------------
# Notation, labels, views
# --------------------------------------------------------------------------


def test_notation_round_trip_and_forgiving_parse() -> None:
    state = started((1, 2))
    assert E.parse(state, 0, " F1 x B1 ") == Move(square_of("f1"), square_of("b1"))
    assert E.parse(state, 0, "h7-h8=P") == Move(square_of("h7"), square_of("h8"), 1)
    assert E.parse(state, 0, "c8=R") == Move(square_of("c8"), square_of("c8"), 2)
    assert E.parse(state, 0, "PASS") == PASS
    assert E.parse(state, 0, "reenter none") == Reenter(-1)
    assert E.parse(state, 0, "place e1") == Place(square_of("e1"))
    for bad in ("f1-f1", "roll 5", "roll ²", "first purple", "place z9", "i1-a2", "h8=q"):
        with pytest.raises(InvalidAction):
            E.parse(state, 0, bad)
    assert E.menu_words(state, 0, "f1xb1") == ("f1", "f1xb1")
    assert E.menu_words(state, 0, "c8=p") == ("c8", "c8=p")
    assert E.menu_words(state, 0, "pass") == ("pass",)
    assert E.choice_label(state, 0, "g1") == "g1: Blue paladin"
    assert E.label(state, 0, Move(square_of("f1"), square_of("b1"))) == (
        "Blue monarch f1xb1 takes Red squire"
    )


def test_not_your_turn_and_illegal_moves_change_nothing() -> None:
    state = started((1, 2))
    with pytest.raises(NotYourTurn):
        E.apply(state, 1, PASS)
    for text in ("h1-h3", "f2-f3", "b1-c1", "f1-f3"):
        with pytest.raises(IllegalAction):
            E.apply(state, 0, E.parse(state, 0, text))


def test_views_show_everything() -> None:
    state = started((1, 2))
    public = E.view(state, None)
    assert public.me is None and public.turn == "blue" and public.to_play == 0
    assert len(public.pieces) == 24 and [d.kind for d in public.dice] == ["monarch", "paladin"]
    assert E.view(state, 2).me == ("green",)
    assert all(E.choices_are_public(state, s) for s in range(4))


def test_rules_summary_is_short_and_lists_the_notation() -> None:
    """``/game rules`` (bot/engines/data/chaturaji.rules.md): one Discord
    message, pointing at the full rules, with moves the parser accepts."""
    text = (Path(__file__).parents[2] / "bot/engines/data/chaturaji.rules.md").read_text(
        encoding="utf-8"
    )
    assert len(text) < 1900 and "**Complete rules**" in text and "docs/rules" not in text
    state = started((1, 2))
    for move in ("f2-f3", "g1xe3", "h7-h8=p", "h8=r", "pass", "reenter blue", "place c1"):
        assert f"`{move}`" in text
        E.parse(state, 0, move)


# --------------------------------------------------------------------------
# Properties over random games
# --------------------------------------------------------------------------


def random_game(n: int, seed: int) -> Iterator[tuple[ChaturajiState, int, Any, ChaturajiState]]:
    rng = random.Random(seed)
    state = E.setup(n, {})
    while E.outcome(state) is None:
        to_move = E.to_move(state)
        if CHANCE in to_move:
            seat, action = CHANCE, sample_chance(E.chance_outcomes(state), rng.random())
        else:
            seat = rng.choice(sorted(to_move))
            action = rng.choice(E.legal_actions(state, seat))
        after = E.apply(state, seat, action)
        yield state, seat, action, after
        state = after


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([2, 3, 4]))
def test_property_partners_never_capture_each_other_except_by_R9(seed: int, n: int) -> None:
    for before, _, action, after in random_game(n, seed):
        if not isinstance(action, Move):
            continue
        gone = [s for s in range(64) if before.board[s] and not after.board[s] and s != action.frm]
        gone += [action.to] if before.board[action.to] and action.to != action.frm else []
        mover = before.turn
        for sq in gone:
            victim = (before.board[sq] - 1) // 4
            if victim & 1 == mover & 1 or victim == before.control:
                assert len(gone) == 3 and (before.board[sq] - 1) % 4 == 2  # R9 ravens only


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([2, 3, 4]))
def test_property_pieces_never_grow_and_replay_is_equal(seed: int, n: int) -> None:
    texts: list[tuple[int, str]] = []
    final = None
    for before, seat, action, after in random_game(n, seed):
        grew = sum(1 for c in after.board if c) > sum(1 for c in before.board if c)
        assert not grew or isinstance(action, Place)  # R11 puts a captured monarch back
        texts.append((seat, E.describe(before, seat, action)))
        final = after
    state = E.setup(n, {})
    for seat, text in texts:
        state = E.apply(state, seat, E.parse(state, seat, text))
    assert state == final
    assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state


# --------------------------------------------------------------------------
# The fast move generation against a slow one written from the rules
# --------------------------------------------------------------------------

_FORWARD = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}
"""R2/R3: blue north, red east, green south, yellow west."""
_SQUIRE_STARTS = {0: "f2 g2 h2", 1: "b1 b2 b3", 2: "a7 b7 c7", 3: "g8 g7 g6"}
_PROMOTION_ROW = {0: (None, 7), 1: (7, None), 2: (None, 0), 3: (0, None)}
"""R10: (file, rank) of the partner's home row; None: any."""
_QUEEN = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def _name(f: int, r: int) -> str:
    return "abcdefgh"[f] + str(r + 1)


def reference_moves(state: ChaturajiState) -> set[str]:
    """Every piece move of the army moving now, straight from R3-R6 and R10
    on file/rank coordinates, written as docs/rules/chaturaji.md's notation."""
    army = state.turn if state.stage == 0 else state.control
    kinds = {k for a, _, k, used in state.dice if a == army and not used and k >= 0}
    friends = {state.turn, state.turn ^ 2, state.control}
    at = {(sq % 8, sq // 8): ((c - 1) // 4, (c - 1) % 4) for sq, c in enumerate(state.board) if c}

    def free_or_enemy(f: int, r: int) -> bool:
        return 0 <= f < 8 and 0 <= r < 8 and ((f, r) not in at or at[(f, r)][0] not in friends)

    lost = [k for k in (1, 2) if (army, k) not in at.values()]
    out: set[str] = set()
    for (f, r), (a, kind) in at.items():
        if a != army or kind not in kinds:
            continue
        to: list[tuple[int, int]] = []
        if kind == 3:
            df, dr = _FORWARD[army]
            pf, pr = _PROMOTION_ROW[army]
            if (f, r) == (pf if pf is not None else f, pr if pr is not None else r):
                out |= {f"{_name(f, r)}={'mprs'[k]}" for k in lost}
            one = (f + df, r + dr)
            if 0 <= one[0] < 8 and 0 <= one[1] < 8 and one not in at:
                to.append(one)
                two = (f + 2 * df, r + 2 * dr)
                if _name(f, r) in _SQUIRE_STARTS[army].split() and two not in at:
                    to.append(two)
            for side in (-1, 1):
                t = (f + df + side * dr, r + dr + side * df)
                if t in at and free_or_enemy(*t):
                    to.append(t)
        else:
            lines = {0: _QUEEN, 1: _QUEEN[4:], 2: _QUEEN[:4]}[kind]
            for df, dr in lines:
                t = (f + df, r + dr)
                while free_or_enemy(*t):
                    to.append(t)
                    if t in at:
                        break
                    t = (t[0] + df, t[1] + dr)
            if kind == 1:
                hops = [
                    (p * x, q * y) for p, q in ((1, 2), (2, 1)) for x in (1, -1) for y in (1, -1)
                ]
            elif kind == 2:
                hops = [(2 * x, 2 * y) for x in (1, -1) for y in (1, -1)]
            else:
                hops = []
            to += [(f + df, r + dr) for df, dr in hops if free_or_enemy(f + df, r + dr)]
        for t in to:
            text = f"{_name(f, r)}{'x' if t in at else '-'}{_name(*t)}"
            pf, pr = _PROMOTION_ROW[army]
            if kind == 3 and lost and (t[0] == pf or t[1] == pr):
                out |= {f"{text}={'mprs'[k]}" for k in lost}
            else:
                out.add(text)
    return out


def _check_generation(state: ChaturajiState) -> None:
    from bot.engines.chaturaji_moves import _legal, _squares

    assert state.squares == _squares(state.board)
    seat = E.commander(state, state.turn)
    legal = [E.describe(state, seat, a) for a in E.legal_actions(state, seat) if a != PASS]
    expected = reference_moves(state)
    assert len(legal) == len(set(legal))
    assert set(legal) == expected
    assert bool(_legal(state)) == bool(expected)  # what ``_settle`` asks
    for text in expected:  # every generated move is accepted by apply
        E.apply(state, seat, E.parse(state, seat, text))


def _one_die_left(state: ChaturajiState) -> Iterator[ChaturajiState]:
    """``state`` with each single die left unused in turn (blocked kinds and
    void dice give states where nothing can move)."""
    for i in range(len(state.dice)):
        dice = tuple((a, f, k, used or j != i) for j, (a, f, k, used) in enumerate(state.dice))
        yield E.from_json({**E.to_json(state), "dice": [list(d) for d in dice]})


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([2, 3, 4]))
def test_property_move_generation_equals_the_reference_in_played_games(seed: int, n: int) -> None:
    for before, _, _, _ in random_game(n, seed):
        if before.phase == "move":
            _check_generation(before)
            for variant in _one_die_left(before):
                _check_generation(variant)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_property_move_generation_equals_the_reference_anywhere(seed: int) -> None:
    """Random boards (any pieces anywhere: squires on their promotion rows,
    missing kinds, crowded centres), random control (R8) and dice (R5, R6)."""
    rng = random.Random(seed)
    pieces = {}
    density = rng.choice([0.1, 0.3, 0.6])
    for f in range(8):
        for r in range(8):
            if rng.random() < density:
                kind = rng.choice(["monarch", "paladin", "raven", "squire"])
                pieces[_name(f, r)] = f"{rng.choice(list(ARMY))} {kind}"
    turn = rng.randrange(4)
    control = rng.choice([-1, -1, *(a for a in range(4) if a != turn)])
    stage = rng.choice([0, 1]) if control >= 0 else 0
    dice = [[a, rng.randint(1, 4), rng.randint(-1, 3), rng.random() < 0.3] for a in (turn, turn)]
    if control >= 0:
        dice += [[control, rng.randint(1, 4), rng.randint(-1, 3), rng.random() < 0.3]] * 2
    obj = E.to_json(E.setup(4, {}))
    obj.update(phase="move", pieces=pieces, turn=turn, control=control, stage=stage, dice=dice)
    _check_generation(E.from_json(obj))


# --------------------------------------------------------------------------
# Parsing (the engine contract itself is checked by test_conformance.py,
# which runs over every registered engine)
# --------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=80))
def test_parse_never_raises_anything_but_game_error(text: str) -> None:
    state = started((1, 2))
    for seat in (CHANCE, 0, 1):
        with contextlib.suppress(GameError):
            E.parse(state, seat, text)
