"""The compiled engines (mypyc) and the pure ones play the same games.

``make`` compiles the engines (``python -m bot.build_engines``), and this
process runs them; the pure engines stay the reference.  The seeded playout
logs (``test_*_speed_safety.py``, each a hash over every step of many
games: seats, texts, narration, every legal action in order, state JSON and
outcome) are run here on the compiled build (with the whole suite) and
again, in a child process, on the pure one, against the same constants.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bot.engines
from bot.engines import ENGINE_BUILD, ENGINES
from bot.engines.compiled import (
    COMPILED_GROUPS,
    COMPILED_MODULES,
    PURE_SETTING,
    STAMP,
    compiled_engines,
    source_digest,
)
from bot.engines.core import CHANCE, progress_seat, sample_chance

ROOT = Path(__file__).resolve().parents[2]
PURE = os.environ.get(PURE_SETTING, "").strip() not in ("", "0")


def test_the_build_in_use_is_the_one_asked_for() -> None:
    """Compiled unless ``CHAUPAL_PURE_ENGINES`` is set: a build that failed,
    or one older than the sources, fails here instead of passing slowly."""
    files = {name: sys.modules[f"bot.engines.{name}"].__file__ or "" for name in COMPILED_MODULES}
    if PURE:
        assert all(f.endswith(".py") for f in files.values()), files
        assert ENGINE_BUILD.startswith("pure Python")
    else:
        assert ENGINE_BUILD == "compiled with mypyc", (
            f"The engines run as {ENGINE_BUILD}. Run `make` (or "
            f"`python -m bot.build_engines`), or set {PURE_SETTING}=1 to test the pure ones."
        )
        assert all(not f.endswith(".py") for f in files.values()), files


@pytest.mark.skipif(PURE, reason="this process already runs the pure engines")
@pytest.mark.timeout(600)
def test_the_pure_engines_give_the_same_games() -> None:
    env = {**os.environ, PURE_SETTING: "1"}
    tests = sorted(str(p) for p in (ROOT / "tests" / "engines").glob("test_*_speed_safety.py"))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            *tests,
            f"{__file__}::test_the_build_in_use_is_the_one_asked_for",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def test_a_build_older_than_the_sources_is_not_used(tmp_path: Path) -> None:
    sources = tmp_path / "src"
    sources.mkdir()
    for name in (*COMPILED_MODULES, "core"):
        (sources / f"{name}.py").write_text(f"# {name}\n", encoding="utf-8")
    built = tmp_path / "built"
    built.mkdir()
    assert compiled_engines(built, sources, {})[0] is None  # never built

    (built / STAMP).write_text(source_digest(sources) + "\n", encoding="utf-8")
    assert compiled_engines(built, sources, {}) == (built, "compiled with mypyc")
    chosen, why = compiled_engines(built, sources, {PURE_SETTING: "1"})
    assert chosen is None and PURE_SETTING in why

    (sources / "core.py").write_text("# core, edited\n", encoding="utf-8")
    chosen, why = compiled_engines(built, sources, {})
    assert chosen is None and "older than the sources" in why
    # A file the compiled modules do not depend on changes nothing.
    (built / STAMP).write_text(source_digest(sources) + "\n", encoding="utf-8")
    (sources / "notes.py").write_text("# unrelated\n", encoding="utf-8")
    assert compiled_engines(built, sources, {})[0] == built


def test_every_module_of_a_game_is_compiled_with_it() -> None:
    """A game's modules (``sangram.py``, ``sangram_rules.py`` ...; not its
    views) are compiled together, in the game's group, so that they call each
    other natively."""
    engines = ROOT / "bot" / "engines"
    for name in ENGINES:
        modules = {p.stem for p in engines.glob(f"{name}*.py") if not p.stem.endswith("_views")}
        assert set(COMPILED_GROUPS[name]) == modules, name


def test_the_compiled_directory_comes_first_only_when_in_use() -> None:
    chosen = compiled_engines()[0]
    path = list(bot.engines.__path__)
    assert (str(chosen) in path) == (chosen is not None)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_states_and_actions_survive_a_pickle(name: str) -> None:
    """Searches send states to worker processes and get actions back."""
    engine = ENGINES[name]
    rng = random.Random(5)
    state = engine.setup(engine.min_players, {k: o.default for k, o in engine.options.items()})
    seen = 0
    while engine.outcome(state) is None and seen < 200:
        assert pickle.loads(pickle.dumps(state)) == state
        if engine.to_move(state) == {CHANCE}:
            roll = sample_chance(engine.chance_outcomes(state), rng.random())
            state = engine.apply(state, CHANCE, roll)
            continue
        seat = progress_seat(engine, state)
        actions = engine.legal_actions(state, seat)
        assert pickle.loads(pickle.dumps(actions)) == actions
        state = engine.apply(state, seat, rng.choice(actions))
        seen += 1
    assert seen > 10
