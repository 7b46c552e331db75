"""Issue 19 §3: Mahabharata's engine was made faster for playouts; these
seeded playout logs, hashed with the engine as it was before, prove that not
one legal move, action order, narration, state, view, determinization or
outcome changed.

Each game is played through the engine contract only (setup, to_move,
waiting_on, legal_actions, apply, outcome, chance_outcomes): chance through
``sample_chance``, players through ``progress_seat`` and ``rng.choice`` of
``legal_actions``.  Per step the log records who is to move and awaited, the
chance outcomes with their odds, the seat, the action's text and its
narration, and the state's JSON after it; per player decision also the texts
of every legal action in order, the chosen action's label, the seat's and
the public view, and a seeded ``determinize`` for the seat.  The final
outcome closes the log.  The constants below were computed with the
unchanged engine (before any speed work).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import random
from typing import Any

import pytest

from bot.engines.core import (
    CHANCE,
    IllegalAction,
    NotYourTurn,
    Outcome,
    progress_seat,
    sample_chance,
)
from bot.engines.mahabharata import MahabharataEngine
from bot.engines.mahabharata_state import (
    _LEGAL,
    _OPEN,
    MahabharataAction,
    MahabharataState,
    PlaceLeader,
    PlaceScreen,
    TakeNothing,
    _fields_of,
    _replace,
)

E = MahabharataEngine()


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "ranking": [sorted(group) for group in outcome.ranking],
        "scores": list(outcome.scores),
        "reason": outcome.reason,
    }


def _features(state: MahabharataState, text: str) -> set[str]:
    """What a step shows of the rules a game went through."""
    out = {state.phase}
    if text.endswith(" none"):
        out.add("take nothing")  # R9
    if text == "pass":
        out.add("pass")  # R10
    if text == "announce":
        out.add("announcement")  # R10
    if text.startswith("d") and len(text.split()) == 3:
        out.add("raja")  # R8: a Raja die names its token
    if text.endswith(" screen"):
        out.add("screen")
    if state.phase == "over":
        for reason, word in (
            ("announced", "end: announced"),
            ("leader spaces", "end: spaces filled"),
            ("token left", "end: supply empty"),
        ):
            if reason in state.reason:
                out.add(word)
    return out


def playout_log(n: int, seed: int) -> tuple[str, int, set[str]]:
    """The sha256 of one seeded random game's log, its number of player
    decisions and what it went through (phases, rules, endings)."""
    rng = random.Random(seed)
    state = E.setup(n, {})
    lines: list[str] = []
    decisions = 0
    seen: set[str] = set()
    while (outcome := E.outcome(state)) is None:
        movers = E.to_move(state)
        lines.append(json.dumps([sorted(movers), sorted(E.waiting_on(state))]))
        if movers == {CHANCE}:
            seat = CHANCE
            odds = E.chance_outcomes(state)
            lines.append(json.dumps([[E.describe(state, seat, a), str(p)] for a, p in odds]))
            action: MahabharataAction = sample_chance(odds, rng.random())
        else:
            seat = progress_seat(E, state)
            legal = E.legal_actions(state, seat)
            lines.append(json.dumps([E.describe(state, seat, a) for a in legal]))
            action = rng.choice(legal)
            lines.append(E.label(state, seat, action))
            lines.append(repr(E.view(state, seat)))
            lines.append(repr(E.view(state, None)))
            dealt = E.determinize(state, seat, random.Random(seed * 100_003 + decisions).random)
            lines.append(json.dumps(E.to_json(dealt), sort_keys=True))
            decisions += 1
        after = E.apply(state, seat, action)
        text = E.describe(state, seat, action)
        lines.append(json.dumps([seat, text, E.narrate(state, seat, action, after)]))
        lines.append(json.dumps(E.to_json(after), sort_keys=True))
        seen |= _features(after, text)
        state = after
    lines.append(json.dumps(_outcome_json(outcome), sort_keys=True))
    lines.append(repr(E.view(state, None)))
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return digest, decisions, seen


# (players, seed) -> (sha256 of the log, player decisions): computed with
# the engine before the speed work.
EXPECTED: dict[tuple[int, int], tuple[str, int]] = {
    (2, 0): ("621c208072a1daa5cf210d98a9733d5279abd2660e9bffeaf2e8ea31178b8035", 52),
    (2, 1): ("2f339ab27d55490e9fa232c9652e20b7760842425237e3dd2bdf1b100dcce7e3", 44),
    (2, 2): ("e57f06bcaabb4514b0451257a596711f6044e08b5f8460f48b968bf902d91677", 40),
    (2, 3): ("5c5b1be26d9a5e6ded12b069175b070e541eac98a2ac24110369267d6f7584b2", 68),
    (2, 4): ("733dca85dfbc97ac1a51350a2cec6a6511a04687a8c8b6e532243b65df99fc7c", 48),
    (2, 5): ("dff11c0356d17c3afdde0fabef44ea3fe7ea37b3daa1a95062a9e634dc5006b9", 28),
    (2, 6): ("bf2ee9c88461b2c4bd3999321f7f8d6531c3cbf241534941bab902411b5d27fa", 36),
    (2, 7): ("13dd63e01b3d4f20239b41e427aa65c6d064d99081cdd2715de28977b7b03704", 40),
    (2, 14): ("4f6f8acfeefbad530fcd5b1ba5be1d1dc69b500d2c8491cd5c251a68a3a0cad5", 61),
    (2, 16): ("efc284787a64589a314e43127346bf65a876db10c38841a207920a1da3ddf1a9", 42),
    (3, 0): ("0a44d34cabe1a7089f27aa96d46fa6c85f136a89117d7e6fa1366ddb62457813", 30),
    (3, 1): ("1ebe05f3aa1285323e4d73ad03dfa489d417d7c42f3dbecc36b63e3e19f517ba", 30),
    (3, 2): ("5405718f81337c8c7ae405231e90e516b51f1c83927bffd7ae6509341d2ad74c", 48),
    (3, 3): ("480e068ac474e97c928e2d9518b973d86c9312617012c59c58aa7d5f3a2be7d4", 54),
    (3, 4): ("709bb162ecdcf960cfb1065961fac2f88dfc46b8d3b5f56ffa5dbfab4e5f3bd3", 30),
    (3, 5): ("11f9911dc312dc47b07963481919c06b2607338508b2e4d1f306fe88198f682e", 48),
    (3, 6): ("dcc07b84603880b48058f536d89cac2b1e6fa88c9bb1e821d82415452623532c", 42),
    (3, 7): ("848e81ea35fa159a7513200af4b2a0298e8fcb891f3487f46046422c0bf702e4", 42),
    (3, 14): ("c1bab2d7fac7c5b9221430a1368dd8c21c4d9eabc18c6c650a6d9b49e9034982", 79),
    (3, 23): ("95c0986032e0f3107e9159ca179a9933fd260015231910d54a4fdb173a1bb5cd", 61),
    (3, 35): ("8f53db3b1e23d1646d93b4561ba1dea843837fb6f79288f0f470cdd7abe78390", 138),
    (4, 0): ("8ee70b7bf3ffa2fc1da01b3ac695dbb2b0066c52e41db92c4e557da6456906cd", 40),
    (4, 1): ("6ffc645d7ff61c9348dbacb80164ae7194351f8f6c57d8e9636d987f9c44f250", 40),
    (4, 2): ("40b11adc58d537101d62b6dd43fa5759b188c4cc00c69a2440482801060b64f3", 32),
    (4, 3): ("4ecd011170ada8eb61c7aa292a18f223c760e54ef746019469e05f7e4c70cebb", 40),
    (4, 4): ("af7d12291d04d9fea4cc87efa8d4aedc82c2a572db64bb7bad0d67be0f7e4a2f", 40),
    (4, 5): ("87bc479f4dd6a1bd9bf77c1525d5b6abf2bcbe0b0c0b4884871b2c60955fc07a", 48),
    (4, 6): ("8b23d945a7368d73fb917cdb4b3d20c1151c37ee4d2b66dbc06b0f41bb8fb6c6", 74),
    (4, 7): ("d2f9ecbf35a5c284bfb6cf782f7c78fa0c4d230da409117fc180c2aee850013b", 48),
    (4, 16): ("5d03d303af91d319a8c93084835c9c2d37368bdb044aea6161494b95a35c7cff", 42),
    (4, 17): ("0d10469184d57f5be089ce9d3dc38c2357f8efd2799370a0a9b757fb6ecae312", 49),
}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_seeded_playout_log_unchanged(key: tuple[int, int]) -> None:
    n, seed = key
    digest, decisions, _ = playout_log(n, seed)
    assert (digest, decisions) == EXPECTED[key]


def test_seeded_playouts_cover_every_rule() -> None:
    """The logs above go through every phase, screen and leader placements,
    Raja dice (R8), forced empty picks (R9), announcements and passes (R10)
    and all three ways a game ends, so the hashes guard those paths too."""
    seen: set[str] = set()
    for n, seed in EXPECTED:
        seen |= playout_log(n, seed)[2]
    assert seen >= {
        *("first", "roll", "draft", "announce", "over"),
        *("screen", "raja", "take nothing", "pass", "announcement"),
        *("end: announced", "end: spaces filled", "end: supply empty"),
    }


# --------------------------------------------------------------------------
# The caches a state keeps (``_LEGAL``, ``_OPEN``) and the fast paths
# --------------------------------------------------------------------------


def _states(n: int, seed: int) -> list[tuple[MahabharataState, int]]:
    """Every state of a seeded random game with the seat acting there
    (CHANCE for chance), each player state asked for its legal actions."""
    rng = random.Random(seed)
    state = E.setup(n, {})
    out: list[tuple[MahabharataState, int]] = []
    while E.outcome(state) is None:
        if E.to_move(state) == {CHANCE}:
            out.append((state, CHANCE))
            state = E.apply(state, CHANCE, sample_chance(E.chance_outcomes(state), rng.random()))
            continue
        seat = progress_seat(E, state)
        legal = E.legal_actions(state, seat)
        out.append((state, seat))
        state = E.apply(state, seat, rng.choice(legal))
    out.append((state, CHANCE))
    return out


def _bare(state: MahabharataState) -> MahabharataState:
    return E.from_json(E.to_json(state))


def test_fast_picks_are_the_plain_ones() -> None:
    """``_picks`` (masks, prebuilt getters) lists the very objects, in the
    very order, of ``_picks_in_state_order`` (the code before the speed
    work), on every draft state, fresh or with its caches."""
    for n, seed in ((2, 40), (3, 41), (4, 42), (4, 43)):
        for state, seat in _states(n, seed):
            if state.phase != "draft":
                continue
            plain = E._picks_in_state_order(state, seat)
            for s in (state, _bare(state)):
                fast = E._picks(s, seat)
                assert len(fast) == len(plain)
                assert all(a is b for a, b in zip(fast, plain, strict=True))


def test_caches_are_never_stale() -> None:
    """Every state's kept picks and open-space masks are what a fresh
    computation gives: none is inherited from a state it does not fit."""
    checked = {_LEGAL: 0, _OPEN: 0}
    for n, seed in ((2, 44), (3, 45), (4, 46)):
        for state, _ in _states(n, seed):
            bare = _bare(state)
            assert _LEGAL not in bare.__dict__ and _OPEN not in bare.__dict__
            if _LEGAL in state.__dict__:
                picker = min(E.to_move(state))
                assert state.__dict__[_LEGAL] == E._picks_in_state_order(bare, picker)
                checked[_LEGAL] += 1
            if _OPEN in state.__dict__:
                assert state.__dict__[_OPEN] == E._open_masks(bare)
                checked[_OPEN] += 1
    assert min(checked.values()) > 100


def test_caches_are_not_part_of_the_state() -> None:
    """Equality, hashing, repr, JSON and pickles (to search workers) ignore them."""
    state = next(s for s, _ in _states(4, 47) if s.phase == "draft" and s.picks == 3)
    assert _LEGAL in state.__dict__ and _OPEN in state.__dict__
    bare = _bare(state)
    assert state == bare and hash(state) == hash(bare) and repr(state) == repr(bare)
    assert E.to_json(state) == E.to_json(bare)
    assert [f.name for f in dataclasses.fields(state)] == list(bare.__dict__)
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    assert _LEGAL not in again.__dict__ and _OPEN not in again.__dict__
    assert list(again.__dict__) == list(bare.__dict__)


def test_states_built_from_another_drop_what_no_longer_fits() -> None:
    state = next(s for s, _ in _states(4, 48) if s.phase == "draft" and s.picks == 2)
    assert _LEGAL in state.__dict__ and _OPEN in state.__dict__
    assert _LEGAL not in _fields_of(state)
    kept = _replace(state, reason="")
    assert _LEGAL not in kept.__dict__ and kept.__dict__[_OPEN] == state.__dict__[_OPEN]
    moved = _replace(state, spaces=state.spaces)
    assert _LEGAL not in moved.__dict__ and _OPEN not in moved.__dict__
    assert _OPEN not in _replace(state, leaders=state.leaders).__dict__
    assert _LEGAL not in dataclasses.replace(state).__dict__
    with pytest.raises(TypeError):
        _replace(state, colour="red")
    # A legal list handed out is a copy: changing it changes nothing kept.
    seat = min(E.to_move(state))
    listed = E.legal_actions(state, seat)
    listed.clear()
    assert E.legal_actions(state, seat) == E._picks_in_state_order(state, seat)


def _outcome_of(state: MahabharataState, seat: int, action: Any) -> Any:
    try:
        return E.to_json(E.apply(state, seat, action))
    except (IllegalAction, AssertionError) as exc:
        return (type(exc), str(exc))


def test_listed_objects_are_refused_as_before() -> None:
    """The fast paths of ``apply`` (a pick or a roll that is one of the
    engine's own objects, found by identity) give what the long way gives
    for an equal action built apart, legal or not: picks listed in other
    states (a die taken, a face that differs, a space another player holds,
    a leader not in play, a token out of supply, a forced empty pick when
    something can be placed) and rolls of the wrong die."""
    rng = random.Random(49)
    states = [x for n, seed in ((2, 50), (4, 51)) for x in _states(n, seed)]
    pool = [a for s, seat in states if s.phase == "draft" for a in E.legal_actions(s, seat)]
    pool += [a for s, seat in states if s.phase == "roll" for a, _ in E.chance_outcomes(s)]
    refused = accepted = 0
    for state, seat in states:
        if state.phase not in ("draft", "roll"):
            continue
        own = E.legal_actions(state, seat) if seat != CHANCE else []
        for action in [*rng.sample(pool, 25), *own[:5]]:
            copy = dataclasses.replace(action)
            assert copy is not action and copy == action
            fast = _outcome_of(state, seat, action)
            assert fast == _outcome_of(state, seat, copy)
            if isinstance(fast, tuple):
                refused += 1
            else:
                accepted += 1
    assert refused > 1000 and accepted > 300
    # Another seat's turn, and an action of the wrong phase.
    state, seat = next(x for x in states if x[0].phase == "draft")
    listed = E.legal_actions(state, seat)[0]
    with pytest.raises(NotYourTurn):
        E.apply(state, (seat + 1) % state.num_players, listed)
    roll = next(a for a in pool if not isinstance(a, PlaceLeader | PlaceScreen | TakeNothing))
    with pytest.raises(IllegalAction):
        E.apply(state, seat, roll)


def test_forced_empty_pick_only_when_nothing_fits() -> None:
    """R9 on the fast path: a listed ``d1 none`` is refused while a die can
    be placed, from the kept picks or without them."""
    state = next(s for s, _ in _states(2, 52) if s.phase == "draft" and s.picks == 0)
    seat = min(E.to_move(state))
    nothing = E._nothing_actions[0]
    assert not isinstance(E.legal_actions(state, seat)[0], TakeNothing)
    for s in (state, _bare(state)):
        with pytest.raises(IllegalAction, match="must take a die you can place"):
            E.apply(s, seat, nothing)


def test_leaders_out_of_table_order_list_in_state_order() -> None:
    """A state edited by hand may list its leaders out of table order; its
    spaces are then listed in the state's order, as before (the masks,
    which number spaces in table order, are not used)."""
    state = next(s for s, _ in _states(3, 53) if s.phase == "draft" and s.picks == 1)
    obj = json.loads(json.dumps(E.to_json(state)))
    obj["leaders"].reverse()
    obj["spaces"].reverse()
    turned = E.from_json(obj)
    seat = min(E.to_move(turned))
    listed = E.legal_actions(turned, seat)
    assert listed == E._picks_in_state_order(turned, seat)
    assert E._open_masks(turned) is None and _OPEN not in turned.__dict__
    assert [E.describe(turned, seat, a) for a in listed] != [
        E.describe(state, seat, a) for a in E.legal_actions(state, seat)
    ]
    assert sorted(map(repr, listed)) == sorted(map(repr, E.legal_actions(state, seat)))


def test_setup_states_are_fresh_objects() -> None:
    first, second = E.setup(3, {}), E.setup(3, {})
    assert first == second and first is not second
    assert first.__dict__ is not second.__dict__
