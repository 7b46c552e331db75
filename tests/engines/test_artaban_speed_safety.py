"""Issue 19 §3: Artaban's engine was made faster for random playouts; these
seeded playout logs, hashed with the engine as it was before, prove that not
one legal move, action order, narration, state or outcome changed.

Each game is played through the engine contract only (setup, to_move,
waiting_on, legal_actions, apply, outcome, chance_outcomes): chance through
``sample_chance``, players through ``progress_seat`` and ``rng.choice`` of
``legal_actions``.  Per step the log records the seat, the action's text and
its narration, and per player decision also the texts of every legal action
in order and the state's JSON; the final outcome closes the log.  The
constants below were computed with the unchanged engine (before any speed
work).  Run this file as a script to print them again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import sys
from random import Random
from typing import Any

import pytest

from bot.engines.artaban import (
    FILES,
    ArtabanAction,
    ArtabanEngine,
    ArtabanState,
    Capture,
    Tip,
    Turn,
    square_name,
)
from bot.engines.artaban_moves import _generate
from bot.engines.artaban_state import _LEGAL, _replace
from bot.engines.core import CHANCE, IllegalAction, NotYourTurn, progress_seat, sample_chance

E = ArtabanEngine()

# R5 (diagonal_captures) is the one option, and it changes move generation.
# Seeds 18 (a set-up committed by hand) and 336 / 375 (the 40-ply rule) added
# for coverage: random play usually asks for a random set-up and ends by an
# agreed draw or a stuck player.
CASES: tuple[tuple[bool, int], ...] = (
    *((diagonal, seed) for diagonal in (False, True) for seed in range(12)),
    *((False, 18), (True, 18), (False, 336), (True, 375)),
)


def _features(state: ArtabanState, text: str) -> set[str]:
    """What a step shows of the rules a game went through."""
    out = {state.phase}
    if state.result:
        out.add(f"result {state.result}")  # R9
    if state.dealing is not None:
        out.add("dealing")  # R7 random set-up
    if state.draw_offer is not None:
        out.add("draw offered")  # R9
    if state.last_move is not None:
        seat, kind, frm, to = state.last_move
        out.add(kind)  # R2-R6
        if kind == "capture" and frm % 8 != to % 8 and frm // 8 != to // 8:
            out.add("diagonal capture")  # R5
        if kind == "tip" and to // 8 + 1 == (8, 1)[seat]:
            out.add("home")  # R8
    for word in ("setup reset", "setup random", "commit", "decline-draw", "accept-draw"):
        if text == word:
            out.add(word)
    if "lapses" in text:
        out.add("offer lapses")
    return out


def playout_log(diagonal: bool, seed: int) -> tuple[str, int, set[str]]:
    """The sha256 of one seeded random game's log, its number of player
    decisions and what it went through."""
    rng = Random(seed)
    state = E.setup(2, {"diagonal_captures": diagonal})
    lines: list[str] = [json.dumps(E.to_json(state), sort_keys=True)]
    decisions = 0
    seen: set[str] = set()
    while (outcome := E.outcome(state)) is None:
        movers = E.to_move(state)
        waiting = E.waiting_on(state)
        lines.append(json.dumps([sorted(movers), sorted(waiting)]))
        if movers == {CHANCE}:
            seat = CHANCE
            odds = E.chance_outcomes(state)
            lines.append(json.dumps([[E.describe(state, seat, a), str(p)] for a, p in odds]))
            action = sample_chance(odds, rng.random())
        else:
            seat = progress_seat(E, state)
            legal = E.legal_actions(state, seat)
            lines.append(json.dumps([E.describe(state, seat, a) for a in legal]))
            lines.append(json.dumps(E.to_json(state), sort_keys=True))
            action = rng.choice(legal)
            decisions += 1
        after = E.apply(state, seat, action)
        text = E.describe(state, seat, action)
        narration = E.narrate(state, seat, action, after)
        lines.append(json.dumps([seat, text, narration]))
        seen |= _features(after, text) | _features(after, narration)
        state = after
    lines.append(json.dumps(outcome.to_json(), sort_keys=True))
    lines.append(json.dumps(E.to_json(state), sort_keys=True))
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return digest, decisions, seen


# (diagonal_captures, seed) -> (sha256 of the log, player decisions):
# computed with the engine before the speed work.
EXPECTED: dict[tuple[bool, int], tuple[str, int]] = {
    (False, 0): ("385a22e139297ed8379b1cab6148b71d64a8097aa5c3110be545c24202dd2f9c", 343),
    (False, 1): ("401b2cf8b058dfae3445db39815ba1d6fcb03b5e93528ba2a314c9d18ea6be99", 204),
    (False, 2): ("e0e4f1d71facc88d21faef04c8b1eb922c78dcee5c7558c53d1b3451bae1cb2e", 367),
    (False, 3): ("048ed18f9c682be4dfdc2fb8419a9f0e0aa431cc12e978f1093b8b8fc406a3ac", 219),
    (False, 4): ("8c45d5c60fddb2f093aeb4b034f80c2bdb475f3d93c1ee7a5b456a6d852e607a", 308),
    (False, 5): ("d007c11bcbd59976fc96513ae4a5c9b0da837b4e20892690b9b27cdbda41ae5b", 373),
    (False, 6): ("1f1eff68206397fc06a8fb44fe8e205baf7f223be7cc075d173dcaeac0f8fa3f", 332),
    (False, 7): ("61aae0b4c28d5782f55a09747aa60cbfee772b182759b2a2a938f3be1c3e4f03", 136),
    (False, 8): ("355743c16accfeca4eff63a259b658ede9b2c7972111281d9f59033321e0e23e", 309),
    (False, 9): ("8381ab5a83408ba13ea81e885518f701cd45dd54a08936171e2d3f8abe540832", 442),
    (False, 10): ("21e0fb1cc6c6254fcfc889663ea22b79c64ac5ea60f3154652c5a5bb29783545", 350),
    (False, 11): ("788f54160f759b2e9cdea57056b8a442d9aac3fa62e7915a28885784f94fa680", 46),
    (True, 0): ("6a7f0ad01a8341c14a3643cca58a5215146f509703e0a0bd35a8c06c55d5517b", 279),
    (True, 1): ("98e4840b9760a3e94c4f276e80df7dbcd81eb3bf37c6ffd293e412ed67d8f8f3", 198),
    (True, 2): ("57cdfcd8de2ba54a488a54b86b283d049baa94dcf70b336498c76499501249a9", 369),
    (True, 3): ("2a86a54030ed2a4ed702378ed4da73ca070f62c23572d99759cc09ccaab2df36", 229),
    (True, 4): ("819e468739ec8ec3a48a9a764bf6c152cebb481b1a1edd7d82ff9ff9510a8c1b", 293),
    (True, 5): ("4450ac9efc16b9b05b9810b83ee61134d3b65255523cab053eb47d41f12aec00", 72),
    (True, 6): ("6fc7ace11e5ea7f1a448a74780c54b1ebc76f5a173f070fef58e7b29f0a1c3cb", 132),
    (True, 7): ("9c24fff6fc92e1259b8a6a2cbdb4ea8c10b6a5215af93720cadf06d627edb7ea", 78),
    (True, 8): ("ea47db6b8e2364d7cdc4be288d56c9b20bcc30ad034d05268a7941a01df1f5ea", 256),
    (True, 9): ("7527f8807b3876ba72fcb541dd663237a938ef03a4b4a3b43d4880f8eff70af3", 292),
    (True, 10): ("37e807d4b7de1d4cdcdf17f836eac47d49a56231917a810532bff96471e88782", 313),
    (True, 11): ("cb80ba97997f291b7c37f053b7b18bbbd1fd5c6341155d528daf0d978772736f", 313),
    (False, 18): ("bd9dc17b444e928536e1e85e72f4a16563c345861fec42a0d1920423887ae439", 289),
    (True, 18): ("4a20e9e3a5fc2d3fba55e6dc53d8b4837f0f6fa6b4656aedea8f52fef17b1e19", 305),
    (False, 336): ("c2ff5bfc5477b52cee5f619bac887ed808029995edc207318c0f228e3aad27bd", 104),
    (True, 375): ("82684a954c49827a91c4d900422be11233e116249cf9196d30c0b792410eb7f9", 359),
}


def test_seeded_playout_logs_unchanged() -> None:
    got = {key: playout_log(*key)[:2] for key in CASES}
    assert got == EXPECTED


def test_seeded_playouts_cover_every_rule() -> None:
    """The logs above go through set-up (by hand and dealt by chance, with
    resets), every kind of move, diagonal captures, homecomings, draw
    offers (accepted, declined and lapsed) and every ending, so the hashes
    guard those paths too."""
    seen: set[str] = set()
    for key in CASES:
        seen |= playout_log(*key)[2]
    assert seen >= {
        *("setup", "play", "over", "dealing", "setup reset", "setup random", "commit"),
        *("tip", "turn", "capture", "sacrifice", "diagonal capture", "home"),
        *("draw offered", "decline-draw", "accept-draw", "offer lapses"),
        *("result stuck", "result quiet", "result agreed"),
    }


# --------------------------------------------------------------------------
# The move tables and the move cache a PLAY state keeps (``_legal``)
# --------------------------------------------------------------------------


def _play_states(diagonal: bool, seed: int) -> list[ArtabanState]:
    """Every PLAY state of a seeded random game, each asked for its moves
    (as a playout does), in order."""
    rng = Random(seed)
    state = E.setup(2, {"diagonal_captures": diagonal})
    out: list[ArtabanState] = []
    while E.outcome(state) is None:
        if E.to_move(state) == {CHANCE}:
            state = E.apply(state, CHANCE, sample_chance(E.chance_outcomes(state), rng.random()))
            continue
        seat = progress_seat(E, state)
        legal = E.legal_actions(state, seat)
        if state.phase == "play":
            out.append(state)
        state = E.apply(state, seat, rng.choice(legal))
    return out


def _rule_moves(state: ArtabanState, seat: int) -> list[str]:
    """R2-R6 and R8 read straight from the dice, without the engine's tables:
    for each of ``seat``'s dice not yet home, in square order, its tips,
    captures and sacrifices forward, left, right (then the forward diagonals
    with R5), then its two turns."""
    dice = {d["square"]: d for d in E.to_json(state)["dice"]}
    ahead = 1 if seat == 0 else -1
    out: list[str] = []
    for rank in range(1, 9):
        for f in range(8):
            name = f"{FILES[f]}{rank}"
            die = dice.get(name)
            if die is None or die["owner"] != seat or rank == (8, 1)[seat]:
                continue

            def verdict(g: int, r: int, tips: bool, die: dict[str, Any] = die) -> str | None:
                if not (0 <= g < 8 and 1 <= r <= 8):
                    return None
                there = dice.get(f"{FILES[g]}{r}")
                if there is None:
                    return "tip" if tips else None
                if there["owner"] == seat:
                    return None
                if there["top"] < die["top"] or (die["leader"] and there["top"] == die["top"]):
                    return "x"
                return "!" if there["top"] == die["top"] else None

            for sign, g, r in (
                ("^", f, rank + ahead),
                ("<", f - ahead, rank),
                (">", f + ahead, rank),
            ):
                v = verdict(g, r, True)
                if v == "tip":
                    out.append(f"{name}{sign}")
                elif v is not None:
                    out.append(f"{name}{v}{FILES[g]}{r}")
            if state.diagonal:
                for g in (f - ahead, f + ahead):
                    v = verdict(g, rank + ahead, False)
                    if v is not None:
                        out.append(f"{name}{v}{FILES[g]}{rank + ahead}")
            out += [f"{name}@<", f"{name}@>"]
    return out


@pytest.mark.parametrize("diagonal", [False, True])
def test_the_move_tables_give_the_rules_moves(diagonal: bool) -> None:
    """Table generation (``_generate``) lists what R2-R6 say, in order, in
    states of random games (captures, sacrifices and edges included)."""
    for seed in range(3):
        for state in _play_states(diagonal, seed):
            for seat in (0, 1):
                moves = _generate(state.board, state.movers[seat], seat, diagonal)
                assert [E.describe(state, seat, a) for a in moves] == _rule_moves(state, seat)


@pytest.mark.parametrize("diagonal", [False, True])
def test_cache_is_never_stale(diagonal: bool) -> None:
    """Each state's kept moves (made fresh, or kept across a turn or a draw
    offer) are what a fresh generation gives, and a state rebuilt from its
    JSON, without them, lists the same actions."""
    for seed in (4, 5):
        for state in _play_states(diagonal, seed):
            known = getattr(state, _LEGAL)
            assert known[state.to_play] is not None
            for seat in (0, 1):
                if known[seat] is not None:
                    assert known[seat] == _generate(
                        state.board, state.movers[seat], seat, state.diagonal
                    )
            fresh = E.from_json(E.to_json(state))
            assert not hasattr(fresh, _LEGAL)
            assert E.legal_actions(fresh, fresh.to_play) == E.legal_actions(state, state.to_play)


def test_moves_are_kept_across_turns_and_draw_offers() -> None:
    """R3: a turn keeps the top value, so both seats' moves stand; R9: an
    offer or a refusal moves no die.  Anything else works them out again."""
    states = _play_states(False, 6)
    state = next(s for s in states if getattr(s, _LEGAL)[1 - s.to_play] is None)
    seat = state.to_play
    moves = getattr(state, _LEGAL)[seat]
    turn = next(a for a in E.legal_actions(state, seat) if isinstance(a, Turn))
    after = E.apply(state, seat, turn)
    assert getattr(after, _LEGAL)[seat] is moves
    offered = E.apply(after, 1 - seat, E.parse(after, 1 - seat, "offer-draw"))
    assert getattr(offered, _LEGAL) is getattr(after, _LEGAL)
    turned = E.apply(
        offered,
        1 - seat,
        next(a for a in E.legal_actions(offered, 1 - seat) if isinstance(a, Turn)),
    )
    declined = E.apply(turned, seat, E.parse(turned, seat, "decline-draw"))
    assert getattr(declined, _LEGAL) is getattr(turned, _LEGAL)
    tip = next(a for a in E.legal_actions(state, seat) if isinstance(a, Tip))
    tipped = E.apply(state, seat, tip)
    assert getattr(tipped, _LEGAL)[seat] is None


def test_cache_is_not_part_of_the_state() -> None:
    """Equality, hashing, repr, vars, JSON and pickles (to search workers)
    ignore it, and states built from a state with it start without it."""
    state = _play_states(True, 7)[5]
    bare = E.from_json(E.to_json(state))
    assert hasattr(state, _LEGAL) and not hasattr(bare, _LEGAL)
    assert state == bare and hash(state) == hash(bare) and repr(state) == repr(bare)
    assert E.to_json(state) == E.to_json(bare)
    assert set(vars(state)) == {f.name for f in dataclasses.fields(state)}
    again = pickle.loads(pickle.dumps(state))
    assert again == state and not hasattr(again, _LEGAL)
    assert not hasattr(_replace(state, quiet=state.quiet), _LEGAL)
    assert not hasattr(dataclasses.replace(state), _LEGAL)


def test_apply_still_refuses_what_is_not_legal_here() -> None:
    """The inline paths of ``apply`` (tips and turns) refuse as before: a
    move listed in another state, a die of the other seat or home, a bad
    direction, a square off the board, a move out of turn."""
    states = _play_states(False, 8)
    state = states[0]
    seat = state.to_play
    mine = {E.describe(state, seat, a) for a in E.legal_actions(state, seat)}
    stranger: ArtabanAction = next(
        a
        for other in states[1:]
        if other.to_play == seat
        for a in E.legal_actions(other, seat)
        if isinstance(a, Tip) and E.describe(state, seat, a) not in mine
    )
    with pytest.raises(IllegalAction):
        E.apply(state, seat, stranger)
    own = state.movers[seat][0]
    theirs = state.movers[1 - seat][0]
    with pytest.raises(IllegalAction, match="not yours"):
        E.apply(state, seat, Tip(theirs, "^"))
    with pytest.raises(IllegalAction, match="not yours"):
        E.apply(state, seat, Turn(theirs, "<"))
    with pytest.raises(IllegalAction, match="tips forward"):
        E.apply(state, seat, Tip(own, "@"))
    with pytest.raises(IllegalAction, match="turns left"):
        E.apply(state, seat, Turn(own, "^"))
    with pytest.raises(IllegalAction, match="no such square"):
        E.apply(state, seat, Tip(64, "^"))
    with pytest.raises(IllegalAction, match="no die"):
        empty = next(sq for sq in range(64) if not state.board[sq])
        E.apply(state, seat, Turn(empty, "<"))
    with pytest.raises(NotYourTurn):
        E.apply(state, 1 - seat, Turn(theirs, "<"))
    assert E.legal_actions(state, 1 - seat) == []
    # An equal move that is not the listed object is applied the same way.
    listed = next(a for a in E.legal_actions(state, seat) if isinstance(a, Tip))
    copy = Tip(listed.square, listed.direction)
    assert copy is not listed
    assert E.apply(state, seat, copy) == E.apply(state, seat, listed)
    # A capture that is not there.
    with pytest.raises(IllegalAction):
        E.apply(state, seat, Capture(own, own + (8 if seat == 0 else -8)))
    assert square_name(own) in {t[:2] for t in mine}


def test_chance_odds_are_shared_between_equal_set_up_sums() -> None:
    """R7's dealing odds depend only on how many values are dealt and their
    sum, so equal cases hand out the very same probability objects (which
    ``sample_chance`` keeps its sampling tables for)."""
    base = E.apply(E.setup(2, {}), 0, E.parse(E.setup(2, {}), 0, "setup random"))

    def dealt(values: tuple[int, ...]) -> ArtabanState:
        return _replace(base, values=(values, ()))

    one, other = dealt((3, 4)), dealt((4, 3))
    assert [p for _, p in E.chance_outcomes(one)] == [p for _, p in E.chance_outcomes(other)]
    assert all(
        a is b
        for (_, a), (_, b) in zip(E.chance_outcomes(one), E.chance_outcomes(other), strict=True)
    )


def _print_expected(out: Any = sys.stdout) -> None:
    for key in CASES:
        digest, decisions, _ = playout_log(*key)
        print(f'    {key!r}: ("{digest}", {decisions}),', file=out)


if __name__ == "__main__":
    _print_expected()
