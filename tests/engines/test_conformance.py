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
the public view must not change, nor may ``choices_are_public``, nor (where
it says True) the texts and labels of a seat's choices.  Engines without an
entry are skipped there.

Whole games need an end: options in :data:`PLAYOUT_OPTIONS` are set for the
playouts (Sangram's ``round_limit``: the rulebook has no round limit, R13).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engines import ENGINES
from bot.engines.core import (
    CHANCE,
    Determinizes,
    Engine,
    GameError,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    LabelsChoices,
    NotYourTurn,
    Outcome,
    SplitsMenus,
    apply_step,
    progress_seat,
    resolve_options,
    sample_chance,
    whole_number,
)

AnyEngine = Engine[Any, Any, Any]
STEP_LIMIT = 20_000
SEEDS = range(10)
engines = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))
PLAYOUT_OPTIONS: dict[str, dict[str, Any]] = {"sangram": {"round_limit": 50}}
"""Lobby options for whole random games (they must end)."""


def playout_options(engine: AnyEngine) -> dict[str, Any]:
    return PLAYOUT_OPTIONS.get(engine.name, {})


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
    state = engine.setup(num_players, playout_options(engine))
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
        assert outcome.reason
        names = {f"p{s}": f"Name{s}" for s in range(p.num_players)}
        assert "{" not in outcome.reason.format(**names)
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
        state = engine.setup(p.num_players, playout_options(engine))
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

Twin = Callable[[dict[str, Any]], list[dict[str, Any]]]
"""Edit a state's JSON so that only hidden information differs: one changed
copy per seat whose secrets can change (empty when nothing is hidden)."""


def _copy(obj: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(obj))
    return copied


def _mahabharata_twin(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """Per seat, swap one token behind its screen for another kind still in
    its supply (R14: screen and supply are private; the counts stay).
    Finished games reveal screens, so they have no twin."""
    if obj["phase"] == "over":
        return []
    twins: list[dict[str, Any]] = []
    for seat, screen in enumerate(obj["screens"]):
        if not screen:
            continue
        old = screen[0]
        supply = obj["supply"][seat]
        new = next((k for k in supply if k != old and supply[k] > 0), None)
        if new is None:
            continue
        twin = _copy(obj)
        twin["screens"][seat][0] = new
        twin["screens"][seat].sort(key=list(supply).index)
        twin["supply"][seat][old] += 1
        twin["supply"][seat][new] -= 1
        twins.append(twin)
    return twins


def _sangram_twin(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """Per seat holding a card the table does not know it holds, swap that
    card for one in the deck (or, with an empty deck, for such a card in
    another hand): hands and the deck are hidden (R14), the hand sizes stay
    the same, and cards the table saw go into a hand (``known``: recruits,
    Grow reveals) stay where they are.  Finished games reveal hands, so
    they have no twin."""
    if obj["phase"] == "over":
        return []
    known = obj.get("known") or [[] for _ in obj["hands"]]

    def secret(seat: int) -> int | None:
        """The index in ``seat``'s hand of its first card nobody else knows."""
        return next(
            (i for i, card in enumerate(obj["hands"][seat]) if card not in known[seat]), None
        )

    holders = [seat for seat in range(len(obj["hands"])) if secret(seat) is not None]
    twins: list[dict[str, Any]] = []
    for first in holders:
        twin = _copy(obj)
        hands = twin["hands"]
        i = secret(first)
        assert i is not None
        if twin["deck"]:
            hands[first][i], twin["deck"][0] = twin["deck"][0], hands[first][i]
        else:
            other = next((s for s in holders if s != first), None)
            if other is None:
                continue
            j = secret(other)
            assert j is not None
            hands[first][i], hands[other][j] = hands[other][j], hands[first][i]
        twins.append(twin)
    return twins


def _artaban_twin(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """Per seat, change a set-up that is not revealed yet (R7): swap two of
    its values, move its Leader, or change its only value.  Both seats get a
    twin, so a state where one player has committed and the other is still
    arranging changes the arrangement of the player still to move.  After
    the reveal everything is public, so there is no twin."""
    if obj["phase"] != "setup":
        return []
    twins: list[dict[str, Any]] = []
    for seat, setup in enumerate(obj["setup"]):
        values = setup["values"]
        twin = _copy(obj)
        mine = twin["setup"][seat]
        pair = next(
            (
                (i, j)
                for i, j in itertools.combinations(range(len(values)), 2)
                if values[i] != values[j]
            ),
            None,
        )
        if pair is not None:
            i, j = pair
            mine["values"][i], mine["values"][j] = values[j], values[i]
        elif setup["leader"] is not None:
            mine["leader"] = "b" if setup["leader"] == "a" else "a"
        elif len(values) == 1:
            mine["values"][0] = 1 if values[0] != 1 else 2
        else:
            continue
        twins.append(twin)
    return twins


TWINS: dict[str, Twin | None] = {
    "mahabharata": _mahabharata_twin,
    "sangram": _sangram_twin,
    "artaban": _artaban_twin,
    "chaturaji": None,  # a game of full information
    "kauda_baji": None,  # a game of full information
}
"""Every engine's twin maker, or None for a game that hides nothing (then
every seat's view is the public one plus its ``me``, checked below)."""

hiding = pytest.mark.parametrize(
    "engine",
    [e for e in ENGINES.values() if TWINS.get(e.name) is not None],
    ids=[name for name in ENGINES if TWINS.get(name) is not None],
)


@engines
def test_every_engine_says_what_it_hides(engine: AnyEngine) -> None:
    """A new game cannot slip past the hidden-information checks: it
    registers a twin maker, or None when it hides nothing."""
    assert engine.name in TWINS, f"add {engine.name} to TWINS"


@engines
def test_a_game_that_hides_nothing_shows_everyone_everything(engine: AnyEngine) -> None:
    if TWINS.get(engine.name) is not None:
        return  # checked by the twin tests below
    for p in playouts(engine):
        for state in [m.before for m in p.moves] + [p.final]:
            public = engine.view(state, None)
            for seat in range(p.num_players):
                view = engine.view(state, seat)
                # Who is looking (``me``, a ``viewer`` seat) may differ; nothing else.
                who = {f.name: None for f in dataclasses.fields(view) if f.name in ("me", "viewer")}
                assert dataclasses.replace(view, **who) == dataclasses.replace(public, **who)
                assert engine.choices_are_public(state, seat)


def _first_word(engine: AnyEngine, state: Any, seat: int, text: str) -> str:
    """The first menu level of an action's text (what board buttons show)."""
    if isinstance(engine, SplitsMenus):
        return engine.menu_words(state, seat, text)[0]
    return text.split()[0]


def public_choices(engine: AnyEngine, state: Any, seat: int) -> tuple[Any, ...]:
    """Everything about ``seat``'s choices that the public board may show
    when ``choices_are_public`` says so: texts, labels, and the first-level
    words with their group labels."""
    actions = engine.legal_actions(state, seat)
    texts = [engine.describe(state, seat, a) for a in actions]
    labels = [engine.label(state, seat, a) for a in actions]
    firsts = list(dict.fromkeys(_first_word(engine, state, seat, x) for x in texts))
    groups = (
        [engine.choice_label(state, seat, w) for w in firsts]
        if isinstance(engine, LabelsChoices)
        else firsts
    )
    return tuple(texts), tuple(labels), tuple(groups)


def _twin_pairs(engine: AnyEngine) -> Iterator[tuple[Playout, Any, Any]]:
    twin_of = TWINS[engine.name]
    assert twin_of is not None, f"{engine.name} hides nothing: it has no twins"
    for p in playouts(engine):
        for state in [m.before for m in p.moves]:
            for twin_obj in twin_of(engine.to_json(state)):
                yield p, state, engine.from_json(twin_obj)


@hiding
def test_public_view_ignores_hidden_information(engine: AnyEngine) -> None:
    checked = 0
    for p, state, twin in _twin_pairs(engine):
        assert twin != state
        assert engine.view(twin, None) == engine.view(state, None)
        assert engine.waiting_on(twin) == engine.waiting_on(state)
        # Some seat's own view does see the difference.
        assert any(engine.view(twin, s) != engine.view(state, s) for s in range(p.num_players))
        checked += 1
    assert checked > 0, "no state with hidden information was found"


@hiding
def test_public_choices_ignore_hidden_information(engine: AnyEngine) -> None:
    """``choices_are_public`` follows from the public view alone, and where it
    is True the choices (texts, labels, first-level buttons and their labels)
    are the same whatever the hidden information."""
    public = private = 0
    for p, state, twin in _twin_pairs(engine):
        for seat in [CHANCE, *range(p.num_players)]:
            is_public = engine.choices_are_public(state, seat)
            assert engine.choices_are_public(twin, seat) == is_public, (seat, state)
            if not is_public:
                private += 1
                continue
            assert public_choices(engine, twin, seat) == public_choices(engine, state, seat), (
                seat,
                state,
            )
            if engine.legal_actions(state, seat):
                public += 1
    assert private > 0, "no seat's choices were private"


def _artaban_half_committed() -> tuple[Any, Any]:
    """An Artaban set-up where seat 0 has committed and seat 1 has its
    arrangement complete but not committed, and a twin of it."""
    engine = ENGINES["artaban"]
    state = engine.setup(2, {})
    for seat, text in ((0, "setup 3 4 5 2 6 1 4 3 leader c"), (0, "commit")):
        state = engine.apply(state, seat, engine.parse(state, seat, text))
    state = engine.apply(state, 1, engine.parse(state, 1, "setup 3 4 5 2 6 1 4 3 leader c"))
    twins = [engine.from_json(t) for t in _artaban_twin(engine.to_json(state))]
    return state, twins[1]


def test_artaban_pending_set_up_is_not_shown_once_the_other_has_committed() -> None:
    """The leak the twins guard against: once one player had committed, the
    other's pending set-up showed on the public board as button labels
    (``Commit: 3 4 5 2 6 1 4 3, Leader on c``)."""
    engine = ENGINES["artaban"]
    state, twin = _artaban_half_committed()
    assert engine.to_move(state) == {1}
    assert public_choices(engine, state, 1) != public_choices(engine, twin, 1)
    assert not engine.choices_are_public(state, 1)


# --------------------------------------------------------------------------
# Player-facing words
# --------------------------------------------------------------------------

_PLAYER_NUMBER = re.compile(r"\bplayer\s*\d", re.IGNORECASE)
_ONE_PLURAL = re.compile(
    r"(?<![\w.-])1 (tokens|cards|britishers|rounds|spaces|dice|plies|discards|choices|players"
    r"|seats|points|levels|files|leaders|icons|values|moves)\b",
    re.IGNORECASE,
)


def _check_words(text: str, names: dict[str, str]) -> None:
    """A label, narration or reason: seats only as {pN} tags, filled in by
    the caller; no "player 2"; no "1 tokens"."""
    filled = text.format(**names)
    assert "{" not in filled and "}" not in filled, text
    assert not _PLAYER_NUMBER.search(filled), text
    assert not _ONE_PLURAL.search(filled), text


def test_the_word_checks_catch_what_they_are_for() -> None:
    names = {"p0": "Asha", "p1": "Bhima"}
    for bad in ("Retreat player 2", "Player 1 scores 4", "1 tokens left", "{p7} wins", "{x}"):
        with pytest.raises((AssertionError, KeyError)):
            _check_words(bad, names)
    for good in ("Retreat {p1}", "{p0} scores 4", "1 token left", "Die 1 rolls Raja", "d1 x"):
        _check_words(good, names)


@engines
def test_labels_narration_and_reasons_name_seats_by_tag(engine: AnyEngine) -> None:
    for p in playouts(engine):
        names = {f"p{s}": f"Name{s}" for s in range(p.num_players)}
        for move in p.moves[::2]:
            for seat in sorted(engine.to_move(move.before)):
                for action in engine.legal_actions(move.before, seat):
                    label = engine.label(move.before, seat, action)
                    _check_words(label, names)
                    assert len(label.format(**names)) <= 100
            _check_words(engine.narrate(move.before, move.seat, move.action, move.after), names)
        outcome = engine.outcome(p.final)
        assert outcome is not None
        _check_words(outcome.reason, names)


# --------------------------------------------------------------------------
# Whatever a player types
# --------------------------------------------------------------------------

REFUSAL_LIMIT = 300
_REPR_ESCAPE = re.compile(r"(?<!\\)\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")
_ODD_DIGITS = "²³¹①⑨٣۴१௫０９𝟗߂"


@cache
def _fuzz_states(name: str) -> tuple[Any, ...]:
    """A spread of real states of random games (every phase occurs)."""
    engine = ENGINES[name]
    picked: list[Any] = []
    for n in range(engine.min_players, engine.max_players + 1):
        p = _playout(name, n, 0)
        picked += [m.before for m in p.moves[:: max(1, len(p.moves) // 40)]]
        picked.append(p.final)
    return tuple(picked)


def _check_refusal(exc: BaseException, text: str) -> None:
    message = str(exc)
    assert message, "a refusal says why"
    assert len(message) <= REFUSAL_LIMIT, message
    assert not _REPR_ESCAPE.search(message), message
    assert "{" not in message or "{" in text, message


def _mutate(text: str, data: st.DataObject) -> str:
    """A near-valid text: a real action's text with a small change."""
    kind = data.draw(
        st.sampled_from(["digit", "insert", "delete", "huge", "case", "space", "same"])
    )
    if not text:
        return text
    i = data.draw(st.integers(0, len(text) - 1))
    if kind == "digit":
        digits = [j for j, ch in enumerate(text) if ch.isdigit()] or [i]
        j = data.draw(st.sampled_from(digits))
        return text[:j] + data.draw(st.sampled_from(_ODD_DIGITS)) + text[j + 1 :]
    if kind == "insert":
        return text[:i] + data.draw(st.text(min_size=1, max_size=3)) + text[i:]
    if kind == "delete":
        return text[:i] + text[i + 1 :]
    if kind == "huge":
        digits = "9" * data.draw(st.integers(300, 5_990 - len(text)))
        j = next((k for k, ch in enumerate(text) if ch.isdigit()), len(text))
        return text[:j] + digits + text[j:]
    if kind == "case":
        return text.upper()
    if kind == "space":
        return text.replace(" ", data.draw(st.sampled_from(["\xa0", "\u2003", "  ", "\t"])))
    return text


_ANY_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(max_size=6_000),
    st.text(alphabet=st.sampled_from("0123456789 d." + _ODD_DIGITS), max_size=6_000),
    st.integers(4_000, 6_000).map(lambda n: "9" * n),
    st.integers(4_000, 5_990).map(lambda n: "d" + "1" * n),
)


def _try_text(engine: AnyEngine, state: Any, seat: int, text: str) -> None:
    """What the service does with typed text: parse, then apply.  Either
    works, or a GameError with a short, plain message."""
    try:
        action = engine.parse(state, seat, text)
    except GameError as exc:
        _check_refusal(exc, text)
        return
    try:
        engine.apply(state, seat, action)
    except GameError as exc:
        _check_refusal(exc, text)


@engines
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_parse_survives_any_text(engine: AnyEngine, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(_fuzz_states(engine.name)))
    seats = sorted(engine.to_move(state) | {CHANCE, 0})
    seat = data.draw(st.sampled_from(seats))
    _try_text(engine, state, seat, data.draw(_ANY_TEXT))


@engines
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_parse_survives_near_valid_text(engine: AnyEngine, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(_fuzz_states(engine.name)))
    movers = sorted(engine.to_move(state)) or [0]
    seat = data.draw(st.sampled_from(movers))
    actions = engine.legal_actions(state, seat)
    pool = [engine.describe(state, seat, a) for a in actions] or ["xyzzy"]
    text = _mutate(data.draw(st.sampled_from(pool)), data)
    _try_text(engine, state, seat, text)


@pytest.mark.parametrize("text", ["d1 ²", "first ²", "first ①", "d①", "set a ٣", "target ²"])
@engines
def test_unicode_digits_are_refused_as_invalid(engine: AnyEngine, text: str) -> None:
    for state in _fuzz_states(engine.name)[:20]:
        for seat in sorted(engine.to_move(state) | {CHANCE}):
            with pytest.raises(InvalidAction) as info:
                engine.parse(state, seat, text)
            _check_refusal(info.value, text)


@engines
def test_numbers_past_the_integer_string_limit_are_refused(engine: AnyEngine) -> None:
    huge = "7" * 5_000
    state = _fuzz_states(engine.name)[-2]
    for text in (
        huge,
        f"d{huge}",
        f"d1 drona.{huge}",
        f"first {huge}",
        f"target {huge}",
        f"give {huge} to 1",
        f"set a {huge}",
        f"discard {huge}",
        f"commit {huge}",
    ):
        for seat in (CHANCE, 0):
            with pytest.raises(InvalidAction) as info:
                engine.parse(state, seat, text)
            _check_refusal(info.value, text)


_OPTION_VALUES = st.one_of(
    st.text(max_size=6_000),
    st.text(alphabet=st.sampled_from("0123456789 -+_." + _ODD_DIGITS), max_size=50),
    st.integers(min_value=-(10**5000), max_value=10**5000),
    st.integers(-5, 5_000),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


@engines
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_resolve_options_survives_any_input(engine: AnyEngine, data: st.DataObject) -> None:
    known = sorted(engine.options)
    names = st.one_of(st.text(max_size=6_000), st.sampled_from(known)) if known else st.text()
    given_options = data.draw(st.dictionaries(names, _OPTION_VALUES, max_size=3))
    try:
        resolved = resolve_options(engine, given_options)
    except InvalidOptions as exc:
        typed = [
            *map(str, given_options),
            *(v for v in given_options.values() if isinstance(v, str)),
        ]
        _check_refusal(exc, " ".join(typed))
        return
    assert set(resolved) == set(engine.options)
    # What the lobby accepted, the game accepts.
    engine.setup(engine.min_players, resolved)


def test_whole_number_reads_ascii_digits_of_sane_length_only() -> None:
    assert [whole_number(x) for x in ("0", "7", "007", "999999")] == [0, 7, 7, 999_999]
    for bad in ("", " 7", "-1", "+1", "1_0", "²", "①", "٣", "１", "7" * 7, "7" * 5_000, 7, None):
        assert whole_number(bad) is None, bad
    assert whole_number("7", max_digits=1) == 7 and whole_number("12", max_digits=1) is None


@engines
def test_resolve_options_refuses_odd_numbers_and_quotes_briefly(engine: AnyEngine) -> None:
    with pytest.raises(InvalidOptions) as info:
        resolve_options(engine, {"\xa0nope" + "x" * 5_000: "1"})
    _check_refusal(info.value, "")
    assert "nope" in str(info.value)
    for name, option in engine.options.items():
        for odd in ("٣", "²", "1_0", "9" * 5_000, "\xa0maybe"):
            with pytest.raises(InvalidOptions) as info:
                resolve_options(engine, {name: odd})
            _check_refusal(info.value, odd)
        assert resolve_options(engine, {name: option.default})[name] == option.default


# --------------------------------------------------------------------------
# Determinization (issue 19): search deals the hidden part afresh
# --------------------------------------------------------------------------


def _blind_twins(engine: AnyEngine) -> Iterator[tuple[Any, Any, int]]:
    """(state, twin, seat): the twin differs only in what ``seat`` cannot see."""
    twin_of = TWINS[engine.name]
    assert twin_of is not None
    for p in playouts(engine):
        for state in [m.before for m in p.moves][::3]:
            for twin_obj in twin_of(engine.to_json(state)):
                twin = engine.from_json(twin_obj)
                for seat in range(p.num_players):
                    if engine.view(twin, seat) == engine.view(state, seat):
                        yield state, twin, seat


@hiding
def test_every_game_that_hides_things_deals_them_afresh(engine: AnyEngine) -> None:
    """A game with secrets implements ``determinize`` (search needs it); a
    game of full information has nothing to deal."""
    assert isinstance(engine, Determinizes), f"{engine.name} hides things: add determinize"


@hiding
def test_a_determinized_state_looks_the_same_to_the_seat(engine: AnyEngine) -> None:
    """What ``seat`` may see is kept (its view, the public view, its legal
    actions, the public wait and whether it is to move); the state is a real
    one (it serialises, and the game goes on from it)."""
    assert isinstance(engine, Determinizes)
    checked = changed = 0
    for p in playouts(engine):
        for i, state in enumerate([m.before for m in p.moves][::4]):
            for seat in range(p.num_players):
                dealt = engine.determinize(state, seat, random.Random(i).random)
                assert engine.view(dealt, seat) == engine.view(state, seat), (seat, state)
                assert engine.view(dealt, None) == engine.view(state, None)
                # Who else must decide may itself be hidden (Mahabharata asks
                # the holders of a complete Pati privately): only the public
                # wait and the seat's own turn are kept.
                assert engine.waiting_on(dealt) == engine.waiting_on(state)
                assert (seat in engine.to_move(dealt)) == (seat in engine.to_move(state))
                assert [
                    engine.describe(dealt, seat, a) for a in engine.legal_actions(dealt, seat)
                ] == [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]
                assert engine.to_json(engine.from_json(engine.to_json(dealt))) == engine.to_json(
                    dealt
                )
                changed += engine.to_json(dealt) != engine.to_json(state)
                checked += 1
    assert checked and changed, (checked, changed)


@hiding
def test_a_determinized_state_depends_only_on_what_the_seat_may_see(engine: AnyEngine) -> None:
    """Twins that differ only in what ``seat`` cannot see deal the same
    state from the same draws: the hidden part is dealt, never read."""
    assert isinstance(engine, Determinizes)
    checked = 0
    for i, (state, twin, seat) in enumerate(_blind_twins(engine)):
        a = engine.determinize(state, seat, random.Random(i).random)
        b = engine.determinize(twin, seat, random.Random(i).random)
        assert engine.to_json(a) == engine.to_json(b), (seat, engine.to_json(state))
        checked += 1
    assert checked > 0


@hiding
def test_determinized_games_play_on_to_the_end(engine: AnyEngine) -> None:
    """Random play from a dealt state reaches an outcome without error."""
    assert isinstance(engine, Determinizes)
    rng = random.Random(19)
    for p in itertools.islice(playouts(engine), 2):
        for state in [m.before for m in p.moves][:: max(1, len(p.moves) // 6)]:
            dealt = engine.determinize(state, 0, rng.random)
            for _ in range(20_000):
                if engine.outcome(dealt) is not None:
                    break
                movers = engine.to_move(dealt)
                if CHANCE in movers:
                    dealt = engine.apply(
                        dealt, CHANCE, sample_chance(engine.chance_outcomes(dealt), rng.random())
                    )
                    continue
                seat = progress_seat(engine, dealt)
                dealt = engine.apply(dealt, seat, rng.choice(engine.legal_actions(dealt, seat)))
            assert engine.outcome(dealt) is not None
