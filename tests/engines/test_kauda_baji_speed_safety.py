"""Kauda Baji's speed work (issue 19 §3) must not change a single legal move,
action order, state JSON, narration or outcome.

Seeded random games are written down step by step (the seat, the action's
text, the narration, the state's JSON and, at each player's turn, every
legal action in order) and hashed; the hashes below were computed with the
engine as it stood before the speed work.  Run this file as a script to
print them again.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from dataclasses import replace
from typing import Any

import pytest

from bot.engines.core import CHANCE, IllegalAction, sample_chance
from bot.engines.kauda_baji import KaudaBajiEngine
from bot.engines.kauda_baji_state import KaudaBajiState, Move, Throw

E = KaudaBajiEngine()

# (players, options, seed): every option that changes move generation or
# what a move does (R4 pieces, R14 combat, R15 markut, R16 kill bonus, R18).
CASES: tuple[tuple[int, dict[str, Any], int], ...] = (
    (2, {}, 1),
    (2, {}, 2),
    (2, {}, 3),
    (3, {}, 1),
    (3, {}, 2),
    (4, {}, 1),
    (4, {}, 2),
    (4, {}, 3),
    (2, {"pieces": 1}, 4),
    (3, {"pieces": 3, "markut": False}, 5),
    (4, {"pieces": 2, "kill_bonus": False}, 6),
    (4, {"multi_opponent_combat": "pairwise"}, 7),
    (3, {"multi_opponent_combat": "pairwise", "markut": False}, 8),
    (4, {"play_to_end": False}, 9),
    (2, {"pieces": 4, "markut": False, "kill_bonus": False, "play_to_end": False}, 10),
)

EXPECTED: dict[int, str] = {
    0: "c90c6a4e1828875a679300991ab902cc53ca8d3daac152fe60b0409aac4fcf07",
    1: "586e7c5a107033e65c69938646cb959405364aa61760aa717c7367df9667435d",
    2: "d1d5ea01fd3a997e17e40e9f7eb6e1daada2ec72f3d4f773119fb2d7d3149fda",
    3: "9c129fdd3d20401ac9835b36210364743ce0c8efe16e6e2fc2b1da3fcc660daa",
    4: "b813f3679de967b2952e1e11618b1222e88367c8f9e0a2fc311a0d5562277e79",
    5: "4c12e807d2b8fd674cf0de9b7863d047b61d5604205c182a012b6da05e59b71c",
    6: "25971de85ffb0f2df11b86cb7a59e8412e04a484806535c54df4fd606d8b343a",
    7: "d6a6ce88208f9ebd2a1e5301264c822b44dce20482b7f9112c55a505a8544f11",
    8: "7698d0b3b7b4bee187a714f5a78eb7018f30e1b9fb6bebbea69e86a23c9c9374",
    9: "d90b3410efc0d9a2da97e24981269b8f17553cfd9328d6c32ebf63c52cae0a24",
    10: "4d85dc093c3d44267f5ceac75df7cd3815e0f02e80aa5f72e2449790e991e875",
    11: "682ce38e02a679f25fc3b3d80a0d4542655fa481ea6c4835ec67e0ada1ebad7e",
    12: "98e0abbac8f3bdc3370de79cd539afd13cffc32985ebf4b86b7e928ee8d92466",
    13: "86b72cf4a9ccf82bdc83083bf52b87686e34934079c0977daea2ac034d9165ad",
    14: "049386725b87f4762d73d8c117e0112c926717c65a78fa7a3f5362dd9b819944",
}
"""Case index -> sha256 of the game's log, from the engine before issue 19."""


def game_log(n: int, options: dict[str, Any], seed: int) -> str:
    """The sha256 of one seeded random game, written down step by step."""
    rng = random.Random(seed)
    digest = hashlib.sha256()

    def write(*parts: object) -> None:
        digest.update(json.dumps(parts, sort_keys=True).encode())
        digest.update(b"\n")

    state = E.setup(n, options)
    write("setup", E.to_json(state))
    while (outcome := E.outcome(state)) is None:
        movers = E.to_move(state)
        if movers == {CHANCE}:
            seat = CHANCE
            write(
                "chance",
                [(E.describe(state, seat, a), str(p)) for a, p in E.chance_outcomes(state)],
            )
            action = sample_chance(E.chance_outcomes(state), rng.random())
        else:
            (seat,) = movers
            legal = E.legal_actions(state, seat)
            write("legal", seat, [E.describe(state, seat, a) for a in legal])
            action = rng.choice(legal)
        after = E.apply(state, seat, action)
        write(seat, E.describe(state, seat, action), E.narrate(state, seat, action, after))
        write("state", E.to_json(after))
        state = after
    write("outcome", outcome.to_json())
    return digest.hexdigest()


@pytest.mark.parametrize("index", range(len(CASES)))
def test_seeded_random_games_play_exactly_as_before(index: int) -> None:
    n, options, seed = CASES[index]
    assert game_log(n, options, seed) == EXPECTED[index]


def test_apply_refuses_what_is_not_offered_and_reads_copies_by_value() -> None:
    """However moves are cached, apply checks the action it is given: a move
    built afresh (not the offered object) is read by value, and anything
    the player was not offered is refused with the state unchanged."""
    rng = random.Random(11)
    checked = 0
    for n in (2, 4):
        state = E.setup(n, {})
        while E.outcome(state) is None:
            movers = E.to_move(state)
            if movers == {CHANCE}:
                state = E.apply(
                    state, CHANCE, sample_chance(E.chance_outcomes(state), rng.random())
                )
                continue
            (seat,) = movers
            legal = E.legal_actions(state, seat)
            action = rng.choice(legal)
            if isinstance(action, Move):
                copy = replace(action)
                assert copy is not action
                assert E.apply(state, seat, copy) == E.apply(state, seat, action)
                before = E.to_json(state)
                wrong = [
                    replace(action, values=(*action.values, 1)),
                    replace(action, arrows=(*action.arrows, True)),
                    replace(action, square=(action.square + 1) % 49),
                ]
                if action.arrows:
                    wrong.append(replace(action, arrows=(not action.arrows[0], *action.arrows[1:])))
                for bad in wrong:
                    if bad in legal:
                        continue
                    with pytest.raises(IllegalAction):
                        E.apply(state, seat, bad)
                    checked += 1
                assert E.to_json(state) == before
                with pytest.raises(IllegalAction):
                    E.apply(state, seat, Throw(6))
                other = (seat + 1) % n
                with pytest.raises(IllegalAction):
                    E.apply(state, other, action)
            state = E.apply(state, seat, action)
    assert checked > 100


def test_states_are_equal_whatever_their_past() -> None:
    """A state rebuilt from its JSON or sent to a worker (no kept moves)
    equals the state played to, hashes the same, and offers the same
    actions in order."""
    rng = random.Random(12)
    state: KaudaBajiState = E.setup(3, {})
    steps = 0
    while E.outcome(state) is None and steps < 400:
        movers = E.to_move(state)
        seat = CHANCE if movers == {CHANCE} else min(movers)
        if seat == CHANCE:
            action: Any = sample_chance(E.chance_outcomes(state), rng.random())
        else:
            legal = E.legal_actions(state, seat)
            rebuilt = E.from_json(json.loads(json.dumps(E.to_json(state))))
            assert rebuilt == state and hash(rebuilt) == hash(state)
            assert E.legal_actions(rebuilt, seat) == legal
            # Search workers get states pickled: equal, and without the moves
            # kept beside the fields (worked out again there).
            sent = pickle.loads(pickle.dumps(state))
            assert sent == state and "_legal" not in vars(sent)
            assert E.legal_actions(sent, seat) == legal
            action = rng.choice(legal)
        state = E.apply(state, seat, action)
        steps += 1


if __name__ == "__main__":
    for i, (n, options, seed) in enumerate(CASES):
        print(f'    {i}: "{game_log(n, options, seed)}",', file=sys.stdout)
