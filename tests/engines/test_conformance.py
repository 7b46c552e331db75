"""The engine contract (bot/engines/core.py), checked for every registered engine.

Parametrised over :data:`bot.engines.ENGINES`, so a new game is checked as soon
as it is registered.  Everything runs on seeded random playouts: chance is
resolved with ``random.Random(seed).random`` and players pick uniformly from
``legal_actions``.

Ordering of ``legal_actions``: engines return their own deterministic order
(for Mahabharata: dice, then targets, in table order), not necessarily sorted
by text.  The contract checked here is that the list has no duplicates and is
identical across calls and for equal states (a state rebuilt from JSON), so
autocomplete and buttons never shuffle.

Hidden information: an engine with secrets registers a *twin builder* in
:data:`TWINS` that edits a state's JSON so only hidden information changes;
the public view must not change.  Engines without an entry are skipped there.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from bot.engines import ENGINES
from bot.engines.core import (
    CHANCE,
    Engine,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    Outcome,
    apply_step,
    sample_chance,
)

AnyEngine = Engine[Any, Any, Any]
STEP_LIMIT = 20_000
SEEDS = range(10)
engines = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))


@dataclass(frozen=True)
class Move:
    before: Any
    seat: int
    action: Any
    text: str
    after: Any


@dataclass(frozen=True)
class Playout:
    num_players: int
    seed: int
    moves: tuple[Move, ...]
    final: Any


@cache
def _playout(name: str, num_players: int, seed: int) -> Playout:
    engine = ENGINES[name]
    rng = random.Random(seed)
    state = engine.setup(num_players, {})
    moves: list[Move] = []
    for _ in range(STEP_LIMIT):
        if engine.outcome(state) is not None:
            return Playout(num_players, seed, tuple(moves), state)
        to_move = engine.to_move(state)
        assert to_move, "nobody is to move in an unfinished game"
        if CHANCE in to_move:
            seat = CHANCE
            action = sample_chance(engine.chance_outcomes(state), rng.random())
        else:
            seat = rng.choice(sorted(to_move))
            action = rng.choice(engine.legal_actions(state, seat))
        after, step = apply_step(engine, state, seat, action)
        moves.append(Move(state, seat, action, step.text, after))
        state = after
    raise AssertionError(f"{name}: no outcome after {STEP_LIMIT} steps (seed {seed})")


def playouts(engine: AnyEngine) -> Iterator[Playout]:
    for n in range(engine.min_players, engine.max_players + 1):
        for seed in SEEDS:
            yield _playout(engine.name, n, seed)


def states(engine: AnyEngine) -> Iterator[Any]:
    for p in playouts(engine):
        for move in p.moves:
            yield move.before
        yield p.final


def _roundtrip(engine: AnyEngine, state: Any) -> Any:
    return engine.from_json(json.loads(json.dumps(engine.to_json(state))))


@engines
def test_engine_satisfies_the_protocol(engine: AnyEngine) -> None:
    assert isinstance(engine, Engine)
    assert engine.name and engine.title and engine.revision >= 1
    assert 1 <= engine.min_players <= engine.max_players
    for option in engine.options.values():
        assert not option.choices or option.default in option.choices


@engines
def test_random_playouts_end_with_an_outcome(engine: AnyEngine) -> None:
    for p in playouts(engine):
        outcome = engine.outcome(p.final)
        assert isinstance(outcome, Outcome)
        assert len(outcome.scores) == p.num_players
        seats = [s for place in outcome.ranking for s in place]
        assert sorted(seats) == list(range(p.num_players)), "ranking must list every seat once"
        assert outcome.reason and "{" not in outcome.reason
        assert engine.to_move(p.final) == frozenset()
        for seat in [CHANCE, *range(p.num_players)]:
            assert engine.legal_actions(p.final, seat) == []
        for move in p.moves:
            assert engine.outcome(move.before) is None


@engines
def test_legal_actions_are_stable_and_distinct(engine: AnyEngine) -> None:
    for state in states(engine):
        twin = _roundtrip(engine, state)
        for seat in sorted(engine.to_move(state)):
            actions = engine.legal_actions(state, seat)
            assert actions == engine.legal_actions(state, seat)
            assert actions == engine.legal_actions(twin, seat)
            texts = [engine.describe(state, seat, a) for a in actions]
            assert len(set(texts)) == len(texts), "two legal actions share a text"
            if seat != CHANCE:
                assert actions, "a seat to move has no legal action"


@engines
def test_chance_outcomes_are_a_distribution(engine: AnyEngine) -> None:
    for state in states(engine):
        outcomes = engine.chance_outcomes(state)
        if CHANCE in engine.to_move(state):
            assert outcomes
            assert sum(p for _, p in outcomes) == 1
            assert all(p > 0 for _, p in outcomes)
            assert [a for a, _ in outcomes] == engine.legal_actions(state, CHANCE)
        else:
            assert outcomes == []


@engines
def test_waiting_on_is_a_subset_of_to_move(engine: AnyEngine) -> None:
    for state in states(engine):
        waiting = engine.waiting_on(state)
        assert waiting <= engine.to_move(state)
        assert CHANCE not in waiting


@engines
def test_seats_not_to_move_get_not_your_turn(engine: AnyEngine) -> None:
    for p in playouts(engine):
        for move in p.moves[::3]:
            to_move = engine.to_move(move.before)
            before = engine.to_json(move.before)
            for seat in [CHANCE, *range(p.num_players)]:
                if seat in to_move:
                    continue
                with pytest.raises(NotYourTurn) as info:
                    engine.apply(move.before, seat, move.action)
                assert "{" not in str(info.value)
            assert engine.to_json(move.before) == before


@engines
def test_illegal_actions_raise_and_leave_the_state_unchanged(engine: AnyEngine) -> None:
    for p in playouts(engine):
        pool = [m.action for m in p.moves]
        rng = random.Random(p.seed)
        for move in p.moves[::3]:
            seat = move.seat
            legal = engine.legal_actions(move.before, seat)
            candidates = [a for a in rng.sample(pool, min(40, len(pool))) if a not in legal]
            before = json.dumps(engine.to_json(move.before), sort_keys=True)
            for action in candidates[:5]:
                with pytest.raises(IllegalAction) as info:
                    engine.apply(move.before, seat, action)
                assert str(info.value) and "{" not in str(info.value)
            assert json.dumps(engine.to_json(move.before), sort_keys=True) == before


@engines
def test_apply_never_mutates_its_input(engine: AnyEngine) -> None:
    for p in playouts(engine):
        for move in p.moves:
            # Each recorded state still serialises as it did when recorded:
            # replaying from its JSON gives the same successor.
            again = engine.apply(_roundtrip(engine, move.before), move.seat, move.action)
            assert again == move.after


@engines
def test_json_round_trip(engine: AnyEngine) -> None:
    for state in states(engine):
        obj = engine.to_json(state)
        back = _roundtrip(engine, state)
        assert back == state
        assert engine.to_json(back) == json.loads(json.dumps(obj))


@engines
def test_replaying_the_log_texts_gives_equal_states(engine: AnyEngine) -> None:
    for p in playouts(engine):
        state = engine.setup(p.num_players, {})
        for move in p.moves:
            state = engine.apply(state, move.seat, engine.parse(state, move.seat, move.text))
            assert state == move.after
        assert state == p.final


@engines
def test_parse_describe_round_trip(engine: AnyEngine) -> None:
    for state in states(engine):
        seats = set(engine.to_move(state)) | {CHANCE}
        for seat in sorted(seats):
            for action in engine.legal_actions(state, seat):
                text = engine.describe(state, seat, action)
                assert text == text.strip().lower() and text
                assert engine.parse(state, seat, text) == action
                assert engine.parse(state, seat, text.upper()) == action
                label = engine.label(state, seat, action)
                assert 0 < len(label) <= 100


@engines
@pytest.mark.parametrize("text", ["", "   ", "xyzzy plugh", "!!! ???", "{p0}", "\x00", "9" * 40])
def test_garbage_text_is_invalid(engine: AnyEngine, text: str) -> None:
    state = engine.setup(engine.min_players, {})
    for seat in (CHANCE, 0):
        with pytest.raises(InvalidAction):
            engine.parse(state, seat, text)


@engines
def test_narration_is_formattable(engine: AnyEngine) -> None:
    for p in playouts(engine):
        names = {f"p{s}": f"Player{s}" for s in range(p.num_players)}
        for move in p.moves:
            line = engine.narrate(move.before, move.seat, move.action, move.after)
            assert isinstance(line, str)
            formatted = line.format(**names)
            assert "{" not in formatted and "}" not in formatted
            who = engine.private_to(move.before, move.seat, move.action)
            assert who is None or who == CHANCE or 0 <= who < p.num_players


@engines
def test_views_are_built_for_every_seat(engine: AnyEngine) -> None:
    """Every view carries ``me``: the seat's own secrets, None in public
    (delivery DMs a seat when its ``me`` changes)."""
    for p in playouts(engine):
        for move in p.moves[::5]:
            assert engine.view(move.before, None).me is None
            for seat in range(p.num_players):
                assert hasattr(engine.view(move.before, seat), "me")
        assert engine.view(p.final, None).me is None


# --------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------

Twin = Callable[[dict[str, Any]], dict[str, Any] | None]
"""Edit a state's JSON so that only hidden information differs; return the
changed copy, or None when this state has nothing hidden to change."""


def _mahabharata_twin(obj: dict[str, Any]) -> dict[str, Any] | None:
    """Swap one token behind a screen for another kind (R14).  Finished games
    reveal screens, so they have no twin."""
    if obj["phase"] == "over":
        return None
    for seat, screen in enumerate(obj["screens"]):
        if not screen:
            continue
        old = screen[0]
        supply = obj["supply"][seat]
        for new in supply:
            if new != old and supply[new] > 0:
                twin: dict[str, Any] = json.loads(json.dumps(obj))
                twin["screens"][seat][0] = new
                twin["screens"][seat].sort(key=list(supply).index)
                twin["supply"][seat][old] += 1
                twin["supply"][seat][new] -= 1
                return twin
    return None


def _sangram_twin(obj: dict[str, Any]) -> dict[str, Any] | None:
    """Swap a card in a hand for one in the deck (or, with an empty deck, for
    a card in another hand): hands and the deck are hidden (R14), the hand
    sizes stay the same.  Finished games reveal hands, so they have no twin."""
    if obj["phase"] == "over":
        return None
    twin: dict[str, Any] = json.loads(json.dumps(obj))
    hands = twin["hands"]
    holders = [seat for seat, hand in enumerate(hands) if hand]
    if not holders:
        return None
    first = holders[0]
    if twin["deck"]:
        hands[first][0], twin["deck"][0] = twin["deck"][0], hands[first][0]
        return twin
    if len(holders) > 1:
        other = holders[1]
        hands[first][0], hands[other][0] = hands[other][0], hands[first][0]
        return twin
    return None


def _artaban_twin(obj: dict[str, Any]) -> dict[str, Any] | None:
    """Change a set-up that is not revealed yet (R7): swap two of its values,
    move its Leader, or change its only value.  After the reveal everything
    is public, so there is no twin."""
    if obj["phase"] != "setup":
        return None
    for seat, setup in enumerate(obj["setup"]):
        values = setup["values"]
        twin: dict[str, Any] = json.loads(json.dumps(obj))
        mine = twin["setup"][seat]
        for i, j in itertools.combinations(range(len(values)), 2):
            if values[i] != values[j]:
                mine["values"][i], mine["values"][j] = values[j], values[i]
                return twin
        if setup["leader"] is not None:
            mine["leader"] = "b" if setup["leader"] == "a" else "a"
            return twin
        if len(values) == 1:
            mine["values"][0] = 1 if values[0] != 1 else 2
            return twin
    return None


TWINS: dict[str, Twin] = {
    "mahabharata": _mahabharata_twin,
    "sangram": _sangram_twin,
    "artaban": _artaban_twin,
}


@engines
def test_public_view_ignores_hidden_information(engine: AnyEngine) -> None:
    twin_of = TWINS.get(engine.name)
    if twin_of is None:
        pytest.skip(f"{engine.name} registers no hidden-information twin")
    checked = 0
    for p in playouts(engine):
        for state in [m.before for m in p.moves]:
            twin_obj = twin_of(engine.to_json(state))
            if twin_obj is None:
                continue
            twin = engine.from_json(twin_obj)
            assert twin != state
            assert engine.view(twin, None) == engine.view(state, None)
            assert engine.waiting_on(twin) == engine.waiting_on(state)
            # Some seat's own view does see the difference.
            assert any(engine.view(twin, s) != engine.view(state, s) for s in range(p.num_players))
            checked += 1
    assert checked > 0, "no state with hidden information was found"
