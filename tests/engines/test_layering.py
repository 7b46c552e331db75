"""Engines are pure: no Discord, Pillow, SQLite, asyncio, clocks or randomness.

Every module under ``bot/engines`` is parsed with :mod:`ast`.  Randomness is
refused outright (``random`` may not be imported at all, so neither the
module-level generator nor a private one can creep in): engines get their
dice as chance actions (core.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES_DIR = Path(__file__).resolve().parents[2] / "bot" / "engines"
FORBIDDEN = frozenset({"discord", "PIL", "aiosqlite", "asyncpg", "asyncio", "time", "random"})
MODULES = sorted(ENGINES_DIR.rglob("*.py"))


def _imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def test_engine_modules_exist() -> None:
    names = {p.name for p in MODULES}
    assert {"core.py", "mahabharata.py", "__init__.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINES_DIR)) for p in MODULES])
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = sorted(_imported_roots(tree) & FORBIDDEN)
    assert not bad, f"{path.name} imports {', '.join(bad)}: engines must stay pure"


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINES_DIR)) for p in MODULES])
def test_engine_module_uses_no_random_name(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    uses = [
        node.lineno for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == "random"
    ]
    assert not uses, f"{path.name} uses a name 'random' on lines {uses}"


def test_the_checker_catches_forbidden_imports() -> None:
    source = "import time\nfrom discord.ext import commands\nimport importlib\n"
    source += "importlib.import_module('PIL.Image')\nfrom . import core\n"
    assert _imported_roots(ast.parse(source)) & FORBIDDEN == {"time", "discord", "PIL"}


def test_sample_chance_uniform_shortcut_matches_the_cumulative_rule() -> None:
    """The uniform shortcut picks exactly what summing probabilities would."""
    from fractions import Fraction

    from bot.engines.core import sample_chance

    for n in (1, 2, 3, 6, 7, 55):
        outcomes = [(i, Fraction(1, n)) for i in range(n)]
        for k in range(200):
            u = k / 200
            expected = next(i for i in range(n) if Fraction(u) < Fraction(i + 1, n))
            assert sample_chance(outcomes, u) == expected
    skewed = [("a", Fraction(1, 6)), ("b", Fraction(2, 6)), ("c", Fraction(3, 6))]
    assert [sample_chance(skewed, u) for u in (0.0, 0.16, 0.17, 0.49, 0.5, 0.99)] == [
        "a",
        "a",
        "b",
        "b",
        "c",
        "c",
    ]


def test_sample_chance_weighted_rule_matches_summed_fractions() -> None:
    """The whole-number rule for uneven odds picks exactly what summing
    Fractions would, at and around every boundary (Kauda Baji's shells, R5)."""
    from fractions import Fraction

    from bot.engines.core import sample_chance

    def by_fractions(outcomes: list[tuple[int, Fraction]], u: float) -> int:
        acc = Fraction(0)
        for action, p in outcomes:
            acc += p
            if Fraction(u) < acc:
                return action
        return outcomes[-1][0]

    shells = [(k, Fraction(c, 64)) for k, c in enumerate((6, 15, 20, 15, 6, 1, 1))]
    mixed = [(0, Fraction(1, 3)), (1, Fraction(1, 7)), (2, Fraction(11, 21))]
    for outcomes in (shells, mixed):
        edges = [0.0]
        acc = Fraction(0)
        for _, p in outcomes:
            acc += p
            edges.append(float(acc))
        probes = [e + d for e in edges for d in (-1e-12, 0.0, 1e-12)]
        probes += [k / 997 for k in range(997)]
        for u in probes:
            if 0.0 <= u < 1.0:
                assert sample_chance(outcomes, u) == by_fractions(outcomes, u), u


MAX_LINES = 1200
MAX_CLASS_LINES = 600


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINES_DIR)) for p in MODULES])
def test_engine_module_stays_within_the_size_limits(path: Path) -> None:
    """Issue 32: no file over 1,200 lines and no class over 600; a game past
    them is split by concept into sibling modules (``<game>_rules.py`` ...)."""
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= MAX_LINES, f"{path.name} has {text.count(chr(10))} lines"
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert size <= MAX_CLASS_LINES, f"{path.name}: class {node.name} has {size} lines"
