"""Issue 19 §3: Martian Chaturaji's engine was made faster for playouts; these
seeded playout logs, hashed with the engine as it was before, prove that not
one legal move, action order, narration, state or outcome changed.

Each game is played through the engine contract only (setup, to_move,
legal_actions, apply, outcome, chance_outcomes): chance through
``sample_chance``, players by ``rng.choice`` of ``legal_actions``.  Per step
the log records the seat, the action's text and its narration, and per
player decision also the texts of every legal action in order and the
state's JSON; the final outcome closes the log.  The constants below were
computed with the unchanged engine (before any speed work).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import random
from typing import Any

import pytest

from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.chaturaji_moves import _generate
from bot.engines.chaturaji_state import (
    _LEGAL,
    PASS,
    ChaturajiState,
    Move,
    Roll,
    _fields_of,
    _replace,
)
from bot.engines.core import CHANCE, IllegalAction, NotYourTurn, Outcome, sample_chance

E = ChaturajiEngine()


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "ranking": [sorted(group) for group in outcome.ranking],
        "scores": list(outcome.scores),
        "reason": outcome.reason,
    }


def _features(state: ChaturajiState) -> set[str]:
    """What a state shows of the rules a game went through."""
    out = {state.phase}
    if state.control >= 0:
        out.add("control")  # R8
    if state.skipped:
        out.add("skipped")  # R7
    if any(len(r[5]) == 3 for r in state.turn_moves):
        out.add("unkindness")  # R9
    if any(r[4] >= 0 for r in state.turn_moves):
        out.add("promotion")  # R10
    if any(r[2] == r[3] for r in state.turn_moves):
        out.add("promotion in place")  # R10
    if state.phase == "over":
        out.add("win" if state.winner >= 0 else "draw")  # R12, R15
    return out


def playout_log(n: int, seed: int, quiet_rounds: int = 25) -> tuple[str, int, set[str]]:
    """The sha256 of one seeded random game's log, its number of player
    decisions and what it went through (phases, rules, endings)."""
    rng = random.Random(seed)
    state = E.setup(n, {"quiet_rounds": quiet_rounds})
    lines: list[str] = []
    decisions = 0
    seen: set[str] = set()
    while (outcome := E.outcome(state)) is None:
        seen |= _features(state)
        movers = E.to_move(state)
        if movers == {CHANCE}:
            seat = CHANCE
            action = sample_chance(E.chance_outcomes(state), rng.random())
        else:
            seat = min(movers)
            legal = E.legal_actions(state, seat)
            lines.append(json.dumps([E.describe(state, seat, a) for a in legal]))
            lines.append(json.dumps(E.to_json(state), sort_keys=True))
            action = rng.choice(legal)
            decisions += 1
        after = E.apply(state, seat, action)
        lines.append(
            json.dumps(
                [seat, E.describe(state, seat, action), E.narrate(state, seat, action, after)]
            )
        )
        state = after
    seen |= _features(state)
    lines.append(json.dumps(_outcome_json(outcome), sort_keys=True))
    lines.append(json.dumps(E.to_json(state), sort_keys=True))
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return digest, decisions, seen


# (players, seed, quiet_rounds) -> (sha256 of the log, player decisions):
# computed with the engine before the speed work.
EXPECTED: dict[tuple[int, int, int], tuple[str, int]] = {
    (2, 0, 25): ("8eb1838872d43840dfeebc36c5ba308a64147a2f9f93db4cf69a166a2b9c5a41", 48),
    (2, 1, 25): ("489434cb65308f75737303b333b43882c68ecb10849f7e97a7ef551f7bd76ad0", 165),
    (2, 2, 25): ("94abb62d352cb71ec13aed96707e55091e9093ba86f4145fd3786283f66ff89b", 29),
    (2, 3, 25): ("b272004208fd097c3f3741255ed373b3d3a9b79726cd01391ae6515a91576349", 357),
    (2, 4, 25): ("943430a44c35159f0d00048008ebe61265cd930c26b9a238030f641f5c63c6ab", 206),
    (2, 5, 25): ("62d01994e725d6a5b916529c302a746a6f17a4f6ff30c1adb134cccc3d0360ce", 32),
    (2, 6, 25): ("60ec897fd559cdcba5ed81270b547e913d33e10ae90b1f96f64e7bedd5368bd6", 102),
    (2, 7, 25): ("658406f9b00f945f15f1c415c444307a114ad84af9e595aa66e7ad18836eff9a", 54),
    (2, 8, 25): ("64edc2ec0b5e7932cbfc52ef53532ab33ed2254f628a62e4e536d094dc9e352a", 143),
    (2, 9, 25): ("f179de381deedd60558eabc6d9d8295e05a3b10a53b5101a323b88c22814aa1f", 42),
    (2, 10, 3): ("32d654e94b9a0da98a2764a39baf50e01f4ad70c0c5307b3d05f1e5643b2b5ca", 135),
    (2, 11, 3): ("4754c9caaf92e8a23526fa06252ad0610032163d1e8ad0b44579c8ed8c3343db", 165),
    (2, 12, 3): ("d3d4217b3af4823214b36163e0ddd3e172d459f9917d501084ffaad6059954ee", 121),
    (2, 13, 3): ("67b9fc67f35439d9b5142d7bf645f7c693737f08833af4146da903ecc2fbf1b3", 102),
    (2, 66, 25): ("a398788cd340244f0f0a41ca8f3140f52e6f68f9206763b81025f2b2143ba381", 216),
    (2, 117, 25): ("cd41802aae019280848aa8a4fb0034cffdab3fffe8b1b65251ce664616d195a7", 268),
    (3, 0, 25): ("57927dcc6025b1e7dca3ee79c57dbc89b54851216623069adf4b6ba80e1b82c3", 48),
    (3, 1, 25): ("9363ec2a0554dc0d8bfbac82f6c8efdcb0fdbcca3080ba6492529a9dd4f98c56", 165),
    (3, 2, 25): ("8763c15f33b0add496c258d527ae075d21c6a1b3b1d5d261ee7828716ddc03c3", 29),
    (3, 3, 25): ("f0154cfd06669cbe1859cda2085f61ae65fc27741beadcd59a6192a339518512", 357),
    (3, 4, 25): ("6e5c5b2d4c7e0ffe2b2a2c3ee56625c6cdf540feff90ab761ffe3c8a3f20d76c", 206),
    (3, 5, 25): ("649d8bae64127580765eec5aabfca4946369307222175c9e8aaf88c9c4d5f2d3", 32),
    (3, 6, 25): ("cfd73c35c53726f59007970c2930f16d3f5bd21a24aba8603a7e8aac45e818c6", 102),
    (3, 7, 25): ("9fe8eccc3bcc3f6187141b4127574d4ff985482ce691b566b661ef45207c2d10", 54),
    (3, 8, 25): ("12701a53d9dbe93e67bcf110e644f74d5976158fc7edd2974eda602923e86e87", 143),
    (3, 9, 25): ("35b23d7ecd34e9f7d25af1453a2ffbc65b854d25f55826b65203aaac7c6b8820", 42),
    (3, 28, 25): ("cd63a292d837ec0cfb737b79e7b78c9eab71a3c3189b5c86b03d87167459b358", 234),
    (4, 0, 25): ("fdc4183ab05bdc7ae8282a4cafddd7806b1bbe9b4f7c0f037e081c41b582ed93", 48),
    (4, 1, 25): ("c51f9f7979779f8ebfa0db0822218f951ef6ca6e0f407ce74a2ab9f9839521dd", 165),
    (4, 2, 25): ("0d3912019b1225ca8fb0cab597614c8ebc9fd32c515343c2f8b7609cebc1c0f7", 29),
    (4, 3, 25): ("9f625251ed960eb6f27c87f8a0e580d80b7fcc715f00a10bcfa71006e7f440f7", 357),
    (4, 4, 25): ("7d7dc49e334f2565227aa4acf34dfc26d242f277616e5871a9afede7421f9192", 206),
    (4, 5, 25): ("e73a270bb332cef55f1d081469690a2968fa758a168d2d5be770b76c20548d5f", 32),
    (4, 6, 25): ("2544f3356fa41ed02ba730889aa9f85ddba5c93568326049d9268dcc2e5a37bc", 102),
    (4, 7, 25): ("00f0b15362793c9282e8da977169882fb578a60f5e19aa2c85835a59697fb466", 54),
    (4, 8, 25): ("72317eae9148cfcb4e480454350a28ce3e8f9dd7ab6fce660dffcfba7abda697", 143),
    (4, 9, 25): ("8b3672677ab56a4d893e7f5195ce4b5261f5d8f5f662aec4fa85aabfa5778ecb", 42),
    (4, 10, 3): ("827e7026041d9b7b1fa83e9e35e55be1ecaa2f2b286433175a785312c1e12758", 135),
    (4, 11, 3): ("46af50fc1a1bc8ab35b662be7e6b81e8d312342dcd9d123f08a6f399e492ddc4", 165),
    (4, 12, 3): ("c65d10ee90bd2d972489b71b78a830e23cec73f88677ab9f20ef02e46cb4600e", 121),
    (4, 13, 3): ("e4bfa2dc0427da440996de38a6c333070b5a53c2b0c921ed1fffad5cb9e6f819", 102),
    (4, 20, 25): ("dfeb416b855dba13a09c030b208c6c111c8e12e715dda752e037c96d71d45e49", 385),
    (4, 305, 25): ("d38a6e8210e7073061a3c81ca017417dcce7110702c28db70eb442c1b712310e", 286),
}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_seeded_playout_log_unchanged(key: tuple[int, int, int]) -> None:
    n, seed, quiet_rounds = key
    digest, decisions, _ = playout_log(n, seed, quiet_rounds)
    assert (digest, decisions) == EXPECTED[key]


def test_seeded_playouts_cover_every_rule() -> None:
    """The logs above go through every phase, control (R8), skipped turns
    (R7), promotions (R10, in place too), re-entry (R11) and both endings,
    so the hashes guard those paths too.  (Random play almost never makes
    an unkindness of ravens, R9: none in 4,000 games; the rules tests in
    test_chaturaji.py cover it.)"""
    seen: set[str] = set()
    for n, seed, quiet_rounds in EXPECTED:
        seen |= playout_log(n, seed, quiet_rounds)[2]
    assert seen >= {
        *("start", "choose", "roll", "move", "reenter", "place", "over"),
        *("control", "skipped", "promotion", "promotion in place", "win", "draw"),
    }


# --------------------------------------------------------------------------
# The legal-move cache a MOVE state keeps (``_legal``)
# --------------------------------------------------------------------------


def _move_states(n: int, seed: int) -> list[ChaturajiState]:
    """Every MOVE state of a seeded random game, each asked for its moves."""
    rng = random.Random(seed)
    state = E.setup(n, {})
    out: list[ChaturajiState] = []
    while E.outcome(state) is None:
        if E.to_move(state) == {CHANCE}:
            state = E.apply(state, CHANCE, sample_chance(E.chance_outcomes(state), rng.random()))
            continue
        seat = min(E.to_move(state))
        legal = E.legal_actions(state, seat)
        if state.phase == "move":
            out.append(state)
        state = E.apply(state, seat, rng.choice(legal))
    return out


def test_cache_is_never_stale() -> None:
    """Each state's kept moves are what a fresh generation gives: no state
    built from another inherits its moves."""
    for n, seed in ((2, 5), (4, 6)):
        for state in _move_states(n, seed):
            assert _LEGAL in state.__dict__
            assert state.__dict__[_LEGAL] == _generate(state)
            fresh = E.from_json(E.to_json(state))
            assert _LEGAL not in fresh.__dict__
            assert E.legal_actions(fresh, min(E.to_move(fresh))) == E.legal_actions(
                state, min(E.to_move(state))
            )


def test_cache_is_not_part_of_the_state() -> None:
    """Equality, hashing, repr, JSON and pickles (to search workers) ignore it."""
    state = _move_states(4, 8)[3]
    bare = E.from_json(E.to_json(state))
    assert _LEGAL in state.__dict__ and _LEGAL not in bare.__dict__
    assert state == bare and hash(state) == hash(bare) and repr(state) == repr(bare)
    assert E.to_json(state) == E.to_json(bare)
    assert [f.name for f in dataclasses.fields(state)] == list(bare.__dict__)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and _LEGAL not in again.__dict__


def test_states_built_from_a_cached_one_drop_it() -> None:
    state = _move_states(4, 9)[0]
    assert _LEGAL in state.__dict__
    assert _LEGAL not in _fields_of(state)
    assert _LEGAL not in _replace(state, quiet=state.quiet).__dict__
    begun = E._begin(state.__dict__.copy(), 0, count=False)
    assert _LEGAL not in begun.__dict__


def test_apply_still_refuses_what_is_not_legal_here() -> None:
    """The fast paths of ``apply`` (a move found by identity, whose turn
    inline) refuse as before: a move listed in another state, a move of
    the wrong seat, a die out of range, an action of the wrong phase."""
    states = _move_states(4, 10)
    state = states[0]
    seat = min(E.to_move(state))
    mine = {E.describe(state, seat, a) for a in E.legal_actions(state, seat)}
    stranger = next(
        a
        for other in states[1:]
        for a in E.legal_actions(other, min(E.to_move(other)))
        if isinstance(a, Move) and E.describe(state, seat, a) not in mine
    )
    with pytest.raises(IllegalAction):
        E.apply(state, seat, stranger)
    with pytest.raises(IllegalAction):
        E.apply(state, seat, Move(stranger.frm, stranger.to, stranger.promo))
    with pytest.raises(IllegalAction):
        E.apply(state, seat, Roll(2))
    with pytest.raises(NotYourTurn):
        E.apply(state, (seat + 1) % 4, E.legal_actions(state, seat)[0])
    assert E.legal_actions(state, (seat + 1) % 4) == []
    # An equal move that is not the listed object is found by value.
    listed = next(a for a in E.legal_actions(state, seat) if isinstance(a, Move))
    copy = Move(listed.frm, listed.to, listed.promo)
    assert copy is not listed
    assert E.apply(state, seat, copy) == E.apply(state, seat, listed)
    rolling = E.from_json({**E.to_json(state), "phase": "roll", "dice": []})
    with pytest.raises(NotYourTurn):
        E.apply(rolling, 0, Roll(1))
    with pytest.raises(IllegalAction):
        E.apply(rolling, CHANCE, Roll(5))
    with pytest.raises(IllegalAction):
        E.apply(rolling, CHANCE, PASS)
