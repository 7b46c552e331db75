"""Games stored by an older revision of the engines still load and play on.

"Nothing a player did is ever lost on restart": a game in progress when the
bot is upgraded is rebuilt by the service from its stored options and action
log (or from a snapshot plus the rest of the log), so the current engines
must replay logs recorded by the old code and read its snapshots.

``data/legacy_logs.json`` holds games played by the engines of commit
5a61b45, the last before Sangram's revision 2, stored as that commit's
service stored them: options as its ``resolve_options`` resolved them
(Sangram had none, so no ``round_limit``), the log of ``(seat, text)``
entries, snapshots taken as the log's length crossed a multiple of 25, and
the final state's JSON.  ``data/make_legacy_logs.py`` recorded it and says
how to record it again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engines import ENGINES
from bot.engines.core import CHANCE, Engine, Outcome, progress_seat

DATA = Path(__file__).parent / "data" / "legacy_logs.json"
GAMES: list[dict[str, Any]] = json.loads(DATA.read_text())["games"]
ANY_ENGINE = Engine[Any, Any, Any]

NARRATION_KEYS = frozenset({"news", "recent"})
"""Sangram keeps its narration lines in the state; their wording may change
between revisions without changing the game, so comparisons leave them out."""

LATER_KEYS = frozenset({"known"})
"""Fields added since, which the old snapshots lack: Sangram's ``known`` (the
cards the table has seen go into each hand) only guides the automatic
players' guesses, and an old snapshot loads with nothing known, which is
sound."""


def _id(game: dict[str, Any]) -> str:
    done = "finished" if game["outcome"] else "in-progress"
    return f"{game['engine']}-{game['players']}p-seed{game['seed']}-{done}"


games = pytest.mark.parametrize("game", GAMES, ids=[_id(g) for g in GAMES])


def replay(engine: ANY_ENGINE, state: Any, log: list[list[Any]], start: int = 0) -> Any:
    """Like the service's ``_replay``: parse and apply each logged text."""
    for seq, (seat, text) in enumerate(log[start:], start + 1):
        try:
            state = engine.apply(state, seat, engine.parse(state, seat, text))
        except ValueError as exc:
            raise AssertionError(f"entry {seq} ({seat}, {text!r}) is refused: {exc}") from exc
    return state


def comparable(engine: ANY_ENGINE, state: Any) -> Any:
    """The state's JSON without its narration (see :data:`NARRATION_KEYS`)."""
    obj = json.loads(json.dumps(engine.to_json(state)))
    if isinstance(obj, dict):
        return {k: v for k, v in obj.items() if k not in NARRATION_KEYS | LATER_KEYS}
    return obj


def from_setup(game: dict[str, Any]) -> tuple[ANY_ENGINE, Any]:
    engine = ENGINES[game["engine"]]
    start = engine.setup(game["players"], game["options"])
    return engine, replay(engine, start, game["log"])


def assert_same_game(engine: ANY_ENGINE, state: Any, expected: Any) -> None:
    assert comparable(engine, state) == comparable(engine, expected)
    assert engine.to_move(state) == engine.to_move(expected)
    assert engine.waiting_on(state) == engine.waiting_on(expected)
    for seat in sorted(engine.to_move(expected)):
        texts = [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]
        assert texts == [
            engine.describe(expected, seat, a) for a in engine.legal_actions(expected, seat)
        ]
    outcome, old = engine.outcome(state), engine.outcome(expected)
    assert (outcome is None) == (old is None)
    if outcome is not None and old is not None:
        assert (outcome.ranking, outcome.scores) == (old.ranking, old.scores)


@games
def test_an_old_log_replays_from_setup_to_the_old_final_state(game: dict[str, Any]) -> None:
    engine, state = from_setup(game)
    old_final = engine.from_json(game["final"])  # the old code's JSON still loads
    assert_same_game(engine, state, old_final)
    outcome = engine.outcome(state)
    if game["outcome"] is None:
        assert outcome is None
    else:
        # Places and scores as the old code decided them.  The reason's
        # wording may differ: Artaban's now names seats as {p0} (filled in
        # with names by the caller) where revision 1 wrote "Player 1".
        old = Outcome.from_json(game["outcome"])
        assert outcome is not None
        assert (outcome.ranking, outcome.scores) == (old.ranking, old.scores)


@games
def test_an_old_snapshot_loads_and_the_rest_of_the_log_replays(game: dict[str, Any]) -> None:
    engine, expected = from_setup(game)
    for seq, snapshot in game["snapshots"]:
        state = replay(engine, engine.from_json(snapshot), game["log"], start=seq)
        assert_same_game(engine, state, expected)


@games
def test_after_an_old_log_the_game_goes_on(game: dict[str, Any]) -> None:
    engine, state = from_setup(game)
    # Saved in the current format and loaded again, as the next snapshot is.
    state = engine.from_json(json.loads(json.dumps(engine.to_json(state))))
    if game["outcome"] is not None:
        assert engine.outcome(state) is not None
        assert engine.to_move(state) - {CHANCE} == frozenset()
        return
    seat = progress_seat(engine, state)
    actions = engine.legal_actions(state, seat)
    assert actions
    for action in (actions[0], actions[-1]):
        text = engine.describe(state, seat, action)
        after = engine.apply(state, seat, engine.parse(state, seat, text))
        assert comparable(engine, after) != comparable(engine, state)


def test_the_sangram_logs_cover_what_revision_2_changed() -> None:
    """Revision 1 Sangram logs with Sarthi draws (R4: no ``use`` entry), a
    Grow whose 7-draws passed 13 (R12: no 13-draw until the next Grow) and a
    game ended by the old 50-round limit (R13), or the tests above prove
    little."""
    sangram = [g for g in GAMES if g["engine"] == "sangram"]
    assert {g["revision"] for g in sangram} == {1}
    assert all("round_limit" not in g["options"] for g in sangram)
    assert sum(g["sarthi_draws"] > 0 for g in sangram) >= 3
    assert sum(g["deferred_13_draws"] > 0 for g in sangram) >= 2
    reasons = [g["outcome"]["reason"] for g in sangram if g["outcome"]]
    assert any("round limit (50 rounds)" in r for r in reasons)
    assert any(g["outcome"] is None for g in sangram)
    assert {g["players"] for g in sangram} == {2, 3, 4, 5}
