"""Automatic players (bot/players): legal, deterministic, blind to secrets, and
better than random.

States come from seeded games at every player count, some played by random
players only and some with the engine's baseline in one seat, so the
positions a baseline itself reaches are covered too.  Every seat to move is
asked, including the several seats of a simultaneous phase (Sangram's
commit, seats that already committed included; Artaban's set-up;
Chaturaji's choice of the first army), and Mahabharata's private
announcements.

Hidden information uses the twin makers of the engine conformance tests
(``TWINS`` in tests/engines/test_conformance.py): a state's JSON is edited so
that only secrets change.  A seat whose own view is the same in both states
may see no difference, so its choice (with the same rng seed) must be the
same, and so must what it drew from the rng.

Strength: the full measurement is ``python -m bot.players.strength`` (200
games per engine); the test plays fewer games per engine so the suite stays
quick, and asserts that even the lower end of a 99% confidence interval of
the win rate is at least 60%.
"""

from __future__ import annotations

import ast
import json
import math
import random
import zlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.engines import ENGINES
from bot.engines.core import CHANCE, Engine, NotYourTurn, progress_seat, sample_chance
from bot.players import BASELINES, AutomaticPlayer, RandomPlayer, parse_level, player_for
from bot.players.search import SearchPlayer
from bot.tools.bench import playout_options as bench_playout_options
from bot.tools.strength import measure, playout_options, won
from tests.engines.test_conformance import TWINS

AnyEngine = Engine[Any, Any, Any]
SEEDS = range(6)
STATES_PER_GAME = 40
engines = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))
hiding = pytest.mark.parametrize(
    "engine",
    [e for e in ENGINES.values() if TWINS.get(e.name) is not None],
    ids=[name for name in ENGINES if TWINS.get(name) is not None],
)

#: Phases (the public view's ``phase``) in which players act, that the
#: sampled states must reach for the checks to mean something.
PHASES: dict[str, set[str]] = {
    "mahabharata": {"draft", "announce"},
    "chaturaji": {"choose", "move", "reenter", "place"},
    "sangram": {"commit", "activate", "recruit"},
    "artaban": {"setup", "play"},
    "kauda_baji": {"move"},
}
#: Engines with a simultaneous phase (several seats to move at once).
SIMULTANEOUS = {"chaturaji", "sangram", "artaban"}


# --------------------------------------------------------------------------
# Sample states
# --------------------------------------------------------------------------


def _game(name: str, n: int, seed: int) -> list[Any]:
    """The states of one seeded game where some player is to move: about
    STATES_PER_GAME of them, and every state of a short phase.  Odd seeds
    seat the baseline once."""
    engine = ENGINES[name]
    chance = random.Random(seed)
    choices = random.Random(seed + 1000)
    players: list[AutomaticPlayer] = [RandomPlayer() for _ in range(n)]
    if seed % 2:
        players[seed % n] = player_for(name)
    state = engine.setup(n, playout_options(engine))
    seen: list[Any] = []
    while engine.outcome(state) is None:
        if engine.to_move(state) == {CHANCE}:
            action = sample_chance(engine.chance_outcomes(state), chance.random())
            state = engine.apply(state, CHANCE, action)
            continue
        seen.append(state)
        seat = progress_seat(engine, state)
        state = engine.apply(state, seat, players[seat].choose(engine, state, seat, choices))
    step = max(1, math.ceil(len(seen) / STATES_PER_GAME))
    # Keep the short phases (a set-up, an announcement, a re-entry) whole;
    # thin the rest.
    public = [engine.view(s, None).phase for s in seen]
    short = {p for p in public if 4 * public.count(p) < len(public)}
    return [s for i, s in enumerate(seen) if i % step == 0 or public[i] in short]


@cache
def sample_states(name: str) -> tuple[Any, ...]:
    engine = ENGINES[name]
    states: list[Any] = []
    for n in range(engine.min_players, engine.max_players + 1):
        for seed in SEEDS:
            states += _game(name, n, seed)
    return tuple(states)


def seats_to_move(engine: AnyEngine, state: Any) -> list[int]:
    return sorted(engine.to_move(state) - {CHANCE})


def _dump(engine: AnyEngine, state: Any) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


# --------------------------------------------------------------------------
# The interface
# --------------------------------------------------------------------------


def test_every_engine_has_a_baseline() -> None:
    assert set(BASELINES) == set(ENGINES)
    names = set()
    for name in ENGINES:
        player = player_for(name)
        assert isinstance(player, AutomaticPlayer)
        assert not isinstance(player, RandomPlayer), f"{name} has no baseline"
        assert player is BASELINES[name]
        names.add(player.name)
    assert len(names) == len(ENGINES)


def test_an_unknown_engine_gets_the_random_player() -> None:
    player = player_for("no_such_game")
    assert isinstance(player, RandomPlayer)
    assert isinstance(player, AutomaticPlayer)
    assert player.name == "random"


def test_the_harness_plays_with_the_benchmark_options() -> None:
    for engine in ENGINES.values():
        assert playout_options(engine) == bench_playout_options(engine)


@engines
def test_choose_returns_a_legal_action_for_every_seat_to_move(engine: AnyEngine) -> None:
    baseline = player_for(engine.name)
    rng = random.Random(1)
    phases: set[str] = set()
    simultaneous = checked = 0
    for state in sample_states(engine.name):
        seats = seats_to_move(engine, state)
        simultaneous += len(seats) > 1
        phases.add(engine.view(state, None).phase)
        for seat in seats:
            legal = engine.legal_actions(state, seat)
            for player in (baseline, RandomPlayer()):
                action = player.choose(engine, state, seat, rng)
                assert action in legal, (player.name, seat, engine.describe(state, seat, action))
            checked += 1
    assert phases >= PHASES[engine.name], f"phases not reached: {PHASES[engine.name] - phases}"
    if engine.name in SIMULTANEOUS:
        assert simultaneous > 0, "no simultaneous phase was sampled"
    assert checked > 100


@engines
def test_choose_refuses_seats_with_nothing_to_choose(engine: AnyEngine) -> None:
    state = sample_states(engine.name)[-1]
    idle = [s for s in range(engine.min_players) if s not in engine.to_move(state)]
    for player in (player_for(engine.name), RandomPlayer()):
        for seat in [CHANCE, *idle]:
            with pytest.raises(NotYourTurn):
                player.choose(engine, state, seat, random.Random(0))


@engines
def test_choose_is_deterministic_and_never_mutates_the_state(engine: AnyEngine) -> None:
    baseline = player_for(engine.name)
    for i, state in enumerate(sample_states(engine.name)[::3]):
        before = _dump(engine, state)
        copy = engine.from_json(json.loads(before))
        for seat in seats_to_move(engine, state):
            first, again = random.Random(i), random.Random(i)
            a = baseline.choose(engine, state, seat, first)
            b = baseline.choose(engine, copy, seat, again)
            assert engine.describe(state, seat, a) == engine.describe(state, seat, b)
            assert first.getstate() == again.getstate()
        assert _dump(engine, state) == before
        assert state == copy


# --------------------------------------------------------------------------
# A few of the baselines' rules, on the sampled states
# --------------------------------------------------------------------------


def _choices(name: str) -> Iterator[tuple[Any, int, list[str], str]]:
    """(state, seat, the texts of its legal actions, the baseline's text)."""
    engine = ENGINES[name]
    player = player_for(name)
    for state in sample_states(name):
        for seat in seats_to_move(engine, state):
            texts = [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]
            chosen = player.choose(engine, state, seat, random.Random(0))
            yield state, seat, texts, engine.describe(state, seat, chosen)


def test_R4_chaturaji_baseline_takes_a_monarch_when_it_can() -> None:
    engine = ENGINES["chaturaji"]
    seen = 0
    for state, seat, texts, chosen in _choices("chaturaji"):
        victims = {
            t: engine.label(state, seat, engine.parse(state, seat, t)).rpartition(" takes ")[2]
            for t in texts
            if "x" in t
        }
        if any(v.endswith("monarch") for v in victims.values()):
            seen += 1
            assert victims.get(chosen, "").endswith("monarch"), (chosen, victims)
    assert seen > 10


def test_R9_sangram_baseline_sheds_as_many_britishers_as_it_may() -> None:
    seen = 0
    for _, _, texts, chosen in _choices("sangram"):
        discards = [t for t in texts if t.startswith("discard ")]
        if discards:
            seen += 1
            assert chosen == max(discards, key=lambda t: int(t.split()[1]))
    assert seen > 10


def test_R9_artaban_baseline_never_offers_or_accepts_a_draw() -> None:
    seen = 0
    for _, _, texts, chosen in _choices("artaban"):
        if "offer-draw" in texts or "accept-draw" in texts:
            seen += 1
            assert chosen not in ("offer-draw", "accept-draw")
    assert seen > 100


def test_R17_kauda_baji_baseline_enters_the_centre_to_finish() -> None:
    """A move that brings the player's last pieces to the centre wins a
    place (R18): the baseline always takes it."""
    engine = ENGINES["kauda_baji"]
    seen = 0
    for state, seat, texts, chosen in _choices("kauda_baji"):
        finishing = [
            t
            for t in texts
            if seat
            in engine.view(engine.apply(state, seat, engine.parse(state, seat, t)), seat).places
        ]
        if finishing:
            seen += 1
            assert chosen in finishing
    assert seen > 0


# --------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------


def _blind_pairs(engine: AnyEngine) -> Iterator[tuple[Any, Any, int]]:
    """(state, twin, seat): the twin differs only in secrets ``seat`` cannot
    see (its own view is the same), and ``seat`` is to move in both."""
    twin_of = TWINS[engine.name]
    assert twin_of is not None
    for state in sample_states(engine.name):
        seats = seats_to_move(engine, state)
        if not seats:
            continue
        for obj in twin_of(engine.to_json(state)):
            twin = engine.from_json(obj)
            for seat in seats:
                if engine.view(twin, seat) == engine.view(state, seat):
                    assert seat in engine.to_move(twin)
                    yield state, twin, seat


def _differences(engine: AnyEngine, player: AutomaticPlayer) -> tuple[int, int]:
    """How many blind pairs were checked, and on how many ``player`` chose
    differently (or drew differently from the rng)."""
    checked = differ = 0
    for i, (state, twin, seat) in enumerate(_blind_pairs(engine)):
        rngs = random.Random(i), random.Random(i)
        a = player.choose(engine, state, seat, rngs[0])
        b = player.choose(engine, twin, seat, rngs[1])
        same = engine.describe(state, seat, a) == engine.describe(twin, seat, b)
        differ += not same or rngs[0].getstate() != rngs[1].getstate()
        checked += 1
    return checked, differ


@hiding
def test_baseline_sees_only_what_its_seat_may_see(engine: AnyEngine) -> None:
    checked, differ = _differences(engine, player_for(engine.name))
    assert checked > 50, "too few states with hidden information were sampled"
    assert differ == 0, f"{differ} of {checked} choices changed with another seat's secrets"


class _Peeker:
    """A cheat: its choice depends on the whole state, secrets included."""

    name = "peeker"

    def choose(self, engine: AnyEngine, state: Any, seat: int, rng: random.Random) -> Any:
        actions = engine.legal_actions(state, seat)
        digest = zlib.crc32(json.dumps(engine.to_json(state), sort_keys=True).encode())
        return actions[digest % len(actions)]


@hiding
def test_the_twin_check_catches_a_player_that_peeks(engine: AnyEngine) -> None:
    """The check above can fail: a player reading the state's secrets is caught."""
    checked, differ = _differences(engine, _Peeker())
    assert checked > 0 and differ > 0


_PLAYERS_DIR = Path(__file__).resolve().parents[2] / "bot" / "players"
_MODULES = sorted(_PLAYERS_DIR.glob("*.py"))
FORBIDDEN = frozenset(
    {"discord", "PIL", "aiosqlite", "asyncpg", "asyncio", "time", "storage", "renderers"}
)


def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("__import__", "import_module") and isinstance(node.args[0].value, str):
                roots.add(node.args[0].value.split(".")[0])
    return roots


def test_player_modules_exist() -> None:
    names = {p.stem for p in _MODULES}
    assert {"__init__", "base", "strength", *ENGINES} <= names


@pytest.mark.parametrize("path", _MODULES, ids=[p.name for p in _MODULES])
def test_player_module_imports_nothing_impure(path: Path) -> None:
    bad = sorted(_imported_roots(_tree(path)) & FORBIDDEN)
    assert not bad, f"{path.name} imports {', '.join(bad)}: players must stay pure"


@pytest.mark.parametrize(
    "path", [p for p in _MODULES if p.stem != "strength"], ids=lambda p: p.name
)
def test_player_module_uses_random_only_as_a_type(path: Path) -> None:
    """Randomness comes from the rng the caller passes; ``random.Random`` may
    only be named as its type.  (``strength.py``, the measuring harness,
    seeds its own games.)"""
    tree = _tree(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            raise AssertionError(f"{path.name} imports from random")
        if _is_random_attribute(node):
            assert isinstance(node, ast.Attribute)
            assert node.attr == "Random", f"{path.name}:{node.lineno} uses random.{node.attr}"
        if isinstance(node, ast.Call):
            assert not _is_random_attribute(node.func), (
                f"{path.name}:{node.lineno} calls the random module"
            )


def _is_random_attribute(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
    )


@pytest.mark.parametrize("name", [n for n in ENGINES if TWINS.get(n) is not None], ids=lambda n: n)
def test_players_of_games_with_secrets_never_look_ahead(name: str) -> None:
    """A game with secrets: the player never applies an action (the result
    could reveal a secret), never reads the state's JSON or fields, and only
    hands the state to the engine (legal actions, views, texts)."""
    tree = _tree(_PLAYERS_DIR / f"{name}.py")
    attributes = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    used = {n.attr for n in attributes}
    assert not used & {"apply", "to_json", "from_json", "chance_outcomes"}
    fields = [
        f"line {n.lineno}: state.{n.attr}"
        for n in attributes
        if isinstance(n.value, ast.Name) and n.value.id == "state"
    ]
    assert not fields


def test_the_import_checker_catches_forbidden_imports() -> None:
    source = "import time\nfrom discord.ext import commands\nimport importlib\n"
    source += "importlib.import_module('PIL.Image')\nfrom bot.engines import core\n"
    assert _imported_roots(ast.parse(source)) & FORBIDDEN == {"time", "discord", "PIL"}


# --------------------------------------------------------------------------
# Strength
# --------------------------------------------------------------------------

#: Games per engine in the suite (seeded, so the result is fixed);
#: ``python -m bot.players.strength`` plays 200.
STRENGTH_GAMES = 100
#: The win rate a baseline must reach against random players.
REQUIRED = 0.6
#: 99% two-sided normal quantile, for the lower bound of the win rate.
Z = 2.576


def wilson_lower(wins: int, games: int, z: float = Z) -> float:
    """The lower end of the Wilson score interval of a win rate."""
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


@engines
def test_baseline_beats_random_players(engine: AnyEngine) -> None:
    """At the engine's minimum player count (2 for every game), baseline and
    random player alternate seats; a draw is not a win."""
    tally = measure(engine.name, STRENGTH_GAMES, seed=1)
    assert tally.games == STRENGTH_GAMES
    assert wilson_lower(tally.wins, tally.games) >= REQUIRED, tally


def test_the_strength_check_rejects_a_player_no_better_than_random() -> None:
    """The check above can fail: random play in the baseline's seat does not
    pass it."""
    tally = measure("mahabharata", STRENGTH_GAMES, seed=1, baseline=RandomPlayer())
    assert wilson_lower(tally.wins, tally.games) < REQUIRED, tally


def test_winning_means_strictly_ahead_or_the_partnership_first() -> None:
    from bot.engines.core import Outcome

    alone = Outcome((frozenset({1}), frozenset({0, 2})), (0, 5, 0), "")
    shared = Outcome((frozenset({0, 1}), frozenset({2})), (5, 5, 0), "")
    drawn = Outcome((frozenset({0, 1, 2, 3}),), (0, 0, 0, 0), "")
    assert won("mahabharata", alone, 1) and not won("mahabharata", alone, 0)
    assert not won("sangram", shared, 0)
    assert won("chaturaji", shared, 0) and not won("chaturaji", shared, 2)
    assert not won("chaturaji", drawn, 0)


# --------------------------------------------------------------------------
# Search-based levels (issue 19)
# --------------------------------------------------------------------------

SEARCH_SCALE = 0.1
"""A tenth of each level's iterations: the same code path, quicker tests."""


def _searcher(name: str, level: str = "medium") -> AutomaticPlayer:
    player = player_for(name, level, scale=SEARCH_SCALE)  # type: ignore[arg-type]
    assert isinstance(player, SearchPlayer), player
    return player


def test_levels_are_the_baseline_then_search() -> None:
    for name in ENGINES:
        assert player_for(name, "easy") is BASELINES[name]
        medium, hard = player_for(name, "medium"), player_for(name, "hard")
        assert isinstance(medium, SearchPlayer) and isinstance(hard, SearchPlayer)
        assert hard.iterations > medium.iterations >= 20
    assert [parse_level(w) for w in ("Hard", " easy ", "medium", "expert", "")] == [
        "hard",
        "easy",
        "medium",
        None,
        None,
    ]


@engines
def test_search_returns_a_legal_action_deterministically(engine: AnyEngine) -> None:
    player = _searcher(engine.name)
    for i, state in enumerate(sample_states(engine.name)[::25]):
        before = _dump(engine, state)
        for seat in seats_to_move(engine, state):
            first, again = random.Random(i), random.Random(i)
            a = player.choose(engine, state, seat, first)
            assert a in engine.legal_actions(state, seat)
            b = player.choose(engine, engine.from_json(json.loads(before)), seat, again)
            assert engine.describe(state, seat, a) == engine.describe(state, seat, b)
            assert first.getstate() == again.getstate()
        assert _dump(engine, state) == before


@hiding
def test_search_sees_only_what_its_seat_may_see(engine: AnyEngine) -> None:
    """Issue 19: the same seed on twins that differ only in what the seat
    cannot see gives the same choice (and the same draws): the hidden part
    is dealt afresh for every iteration, never read."""
    player = _searcher(engine.name)
    checked = differ = 0
    for i, (state, twin, seat) in enumerate(_blind_pairs(engine)):
        if i % 7:
            continue  # a sample: each search plays many iterations
        rngs = random.Random(i), random.Random(i)
        a = player.choose(engine, state, seat, rngs[0])
        b = player.choose(engine, twin, seat, rngs[1])
        same = engine.describe(state, seat, a) == engine.describe(twin, seat, b)
        differ += not same or rngs[0].getstate() != rngs[1].getstate()
        checked += 1
    assert checked > 5
    assert differ == 0, f"{differ} of {checked} searches changed with another seat's secrets"


def test_a_search_that_reads_the_secrets_is_caught() -> None:
    """The check above can fail: a search on the real state (no dealing) is
    caught by the twins."""

    class Blind(SearchPlayer):
        def _iterate(self, engine: AnyEngine, state: Any, seat: int, *rest: Any) -> None:
            class Plain:  # the engine without its determinize
                def __getattr__(self, name: str) -> Any:
                    if name == "determinize":
                        raise AttributeError(name)
                    return getattr(engine, name)

            super()._iterate(Plain(), state, seat, *rest)  # type: ignore[arg-type]

    engine = ENGINES["sangram"]
    player = Blind("blind", iterations=20, rollout_moves=20)
    differ = tried = 0
    for i, (state, twin, seat) in enumerate(_blind_pairs(engine)):
        if i % 5:
            continue
        a = player.choose(engine, state, seat, random.Random(i))
        b = player.choose(engine, twin, seat, random.Random(i))
        differ += engine.describe(state, seat, a) != engine.describe(twin, seat, b)
        tried += 1
        if differ or tried >= 60:
            break
    assert differ > 0


def test_the_round_robin_reports_wins_with_intervals() -> None:
    """``python -m bot.players.strength --levels``: one duel, seats rotated,
    a 95% interval around the win rate, and the weak seat's wins at a
    table of three."""
    from bot.tools.strength import duel, wilson

    row = duel("sangram", "medium", "random", 3, num_players=3, scale=SEARCH_SCALE)
    assert row["games"] == 3 and 0 <= row["wins"] <= 3 and "weak_seat_wins" in row
    low, high = row["interval_95"]
    assert low <= row["win_rate"] <= high
    assert wilson(50, 100) == pytest.approx((0.404, 0.596), abs=0.001)


def test_the_levels_round_robin_command_covers_each_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m bot.players.strength --levels``: every pairing at the
    game's fewest and most players, as JSON on stdout."""
    from bot.tools.strength import ROUND_ROBIN, main

    assert main(["--levels", "--games", "1", "--scale", "0.02", "chaturaji"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["levels"]["chaturaji"]
    assert [(r["players"], r["strong"], r["weak"]) for r in rows] == [
        (n, strong, weak) for n in (2, 4) for strong, weak in ROUND_ROBIN
    ]


def test_the_round_robin_measures_only_the_pairings_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--pairs hard/easy``: one pairing per player count; a pairing that is
    not two levels is refused with what to write instead."""
    from bot.tools.strength import main

    argv = ["--levels", "--games", "1", "--scale", "0.02", "--players", "2"]
    assert main([*argv, "kauda_baji", "--pairs", "medium/random"]) == 0
    rows = json.loads(capsys.readouterr().out)["levels"]["kauda_baji"]
    assert [(r["players"], r["strong"], r["weak"]) for r in rows] == [(2, "medium", "random")]
    with pytest.raises(SystemExit):
        main([*argv, "kauda_baji", "--pairs", "hard-easy"])
    assert "e.g. hard/easy" in capsys.readouterr().err


def test_a_weak_seats_share_counts_every_weak_seat_not_only_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At three, "easy's win share" is an easy seat's on average: when the
    seat two after the strong one wins every game, the weak seats won half
    a game each per game (the next seat alone said none, and no ratio)."""
    from bot.engines.core import Outcome
    from bot.tools import strength

    def scripted(engine: Any, players: Any, seed: int) -> Outcome:
        strong = seed % 3  # duel: game i has the strong level in seat i mod 3
        winner = (strong + 2) % 3
        rest = frozenset({0, 1, 2} - {winner})
        return Outcome(ranking=(frozenset({winner}), rest), scores=(0, 0, 0), reason="")

    monkeypatch.setattr(strength, "play", scripted)
    row = strength.duel("sangram", "medium", "easy", 6, num_players=3, scale=SEARCH_SCALE)
    assert (row["wins"], row["weak_seat_wins"], row["share_ratio"]) == (0, 3.0, 0.0)


def test_R12_chaturajis_estimate_tells_a_hunt_from_a_stroll_when_far_ahead() -> None:
    """A partnership two monarchs and a raven against one monarch is so far
    ahead that material alone values every move the same; the estimate
    must still prefer the raven attacking the last enemy monarch (R12:
    capturing it wins) to the raven standing idle, or hard shuffles into
    R15's draw (as its four-player partnership did, 3 games of 8)."""
    from bot.engines import get_engine
    from bot.engines.core import resolve_chance
    from bot.players.levels import chaturaji_estimate

    engine = get_engine("chaturaji")
    state, _ = resolve_chance(engine, engine.setup(4, {}), random.Random(3).random)
    base = engine.to_json(state)

    def placed(raven: str) -> Any:
        pieces = {"b1": "blue monarch", "a3": "green monarch", raven: "blue raven"}
        return engine.from_json({**base, "pieces": {**pieces, "h8": "red monarch"}})  # type: ignore[dict-item]

    hunting = chaturaji_estimate(engine, placed("h1"))
    idle = chaturaji_estimate(engine, placed("c2"))
    for blue_green in (0, 2):
        assert hunting[blue_green] > idle[blue_green] + 0.05
        assert hunting[1] < idle[1]  # and Red's worth falls as much
    # Nor does it throw away the pieces it hunts with: without its raven
    # the partnership is still far ahead, but worth less.
    bare = engine.from_json(
        {**base, "pieces": {"b1": "blue monarch", "a3": "green monarch", "h8": "red monarch"}}  # type: ignore[dict-item]
    )
    assert chaturaji_estimate(engine, bare)[0] < idle[0] - 0.05


def test_R15_chaturajis_estimate_turns_into_a_draw_as_the_quiet_rounds_run_out() -> None:
    """After ``quiet_rounds`` rounds without a capture, a promotion or a
    squire move the game is drawn (R15): near that end a partnership ahead
    on material is worth no more than the draw, unless it makes progress,
    or it drifts into the draw (the four-player hard partnership drew 3 of
    8 games against easy partners so)."""
    from bot.engines import get_engine
    from bot.engines.core import progress_seat as mover
    from bot.engines.core import resolve_chance
    from bot.players.levels import CHATURAJI_QUIET_HORIZON, chaturaji_estimate

    engine = get_engine("chaturaji")
    rng = random.Random(5)
    state, _ = resolve_chance(engine, engine.setup(4, {}), rng.random)
    for _ in range(20):  # into the middle game, where the partnerships differ
        if engine.outcome(state) is not None:
            break
        seat = mover(engine, state)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        state, _ = resolve_chance(engine, state, rng.random)
    assert engine.outcome(state) is None
    limit = engine.view(state, None).quiet_limit
    at = {
        quiet: engine.from_json({**engine.to_json(state), "quiet": quiet})  # type: ignore[dict-item]
        for quiet in (0, limit - CHATURAJI_QUIET_HORIZON, limit - 1)
    }
    fresh = chaturaji_estimate(engine, at[0])
    assert max(abs(v - 0.5) for v in fresh) > 0.05  # one partnership is ahead here
    assert chaturaji_estimate(engine, at[limit - CHATURAJI_QUIET_HORIZON]) == fresh
    near = chaturaji_estimate(engine, at[limit - 1])
    for seat in range(4):
        assert abs(near[seat] - 0.5) < abs(fresh[seat] - 0.5) / 4
    # Off (quiet_rounds=0), the estimate never turns.
    off = engine.from_json({**engine.to_json(state), "quiet_limit": 0, "quiet": 10_000})  # type: ignore[dict-item]
    assert chaturaji_estimate(engine, off) == fresh


def test_R9_artabans_estimate_turns_into_the_tally_as_the_quiet_end_nears() -> None:
    """After 40 quiet plies the game ends as it stands (R9), scored by R10's
    tally: near that end the search must value a position as the tally
    does, or a side ahead on its estimate drifts into a level ending (hard
    drew 7 of 16 against medium that way)."""
    from bot.engines import get_engine
    from bot.engines.core import progress_seat as mover
    from bot.engines.core import resolve_chance
    from bot.players.levels import QUIET_HORIZON, artaban_estimate

    engine = get_engine("artaban")
    rng = random.Random(4)
    state, _ = resolve_chance(engine, engine.setup(2, {}), rng.random)
    while engine.view(state, None).phase == "setup" or not engine.view(state, None).dice:
        seat = mover(engine, state)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        state, _ = resolve_chance(engine, state, rng.random)
    for _ in range(30):  # into the middle game, where the sides differ
        seat = mover(engine, state)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        state, _ = resolve_chance(engine, state, rng.random)
    limit = engine.view(state, None).quiet_limit
    at = {
        quiet: engine.from_json({**engine.to_json(state), "quiet": quiet})  # type: ignore[dict-item]
        for quiet in (0, limit - QUIET_HORIZON, limit - 1)
    }
    fresh = artaban_estimate(engine, at[0])
    assert artaban_estimate(engine, at[limit - QUIET_HORIZON]) == fresh
    scores, home, on_board = engine.tally(at[0].board)
    standing = [(scores[s], home[s], on_board[s]) for s in (0, 1)]
    ends = [
        0.5 if standing[0] == standing[1] else float(standing[s] > standing[1 - s]) for s in (0, 1)
    ]
    assert fresh != ends  # the estimate and the tally disagree here
    near = artaban_estimate(engine, at[limit - 1])
    for seat in (0, 1):
        assert abs(near[seat] - ends[seat]) < abs(fresh[seat] - ends[seat]) / 4
