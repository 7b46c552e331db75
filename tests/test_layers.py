"""The layers (docs/ARCHITECTURE.md, Layout and Deployment): no import circle,
and the inner parts never reach the Discord edge.

Every module under ``bot/``, ``renderers/`` and ``storage/`` is parsed with
:mod:`ast`, and every import counts, wherever it stands: at the top, inside
a function (a lazy import is still a dependency) or under
``if TYPE_CHECKING:`` (a type is still a dependency, and a circle of types is
how the old ``ChaupalBot`` tangle began).  An import names the module it
imports (``from bot.edge import delivery`` names ``bot.edge.delivery``); a
package's ``__init__`` that Python runs on the way is not counted, or every
engine would be "in a circle" with the registry that lists it.  The cogs,
which the client loads by name (``load_extension``), are not its imports:
they stand above it and import only ``CogHost``.

- ``bot``'s import graph has no cycle, nor has the rest (``renderers``,
  ``storage``), with no exception (each cycle found is reported);
- no module outside :data:`EDGE` imports the edge, or ``discord``, except
  the entry points that start or measure a whole bot (:data:`ENTRY_POINTS`);
- engines import neither ``discord`` nor ``storage`` nor the edge, and
  renderers neither ``discord`` nor ``storage`` (engines' other purity
  rules: ``tests/engines/test_layering.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "renderers", "storage")

EDGE = "bot.edge"
"""The Discord edge: the only package that speaks discord.py to players."""

ENTRY_POINTS = frozenset({"bot.__main__", "bot.tools"})
"""The entry point, and the tools (``bot.tools`` and every module in it),
which build a whole bot or reuse the edge's texts: they stand above every
layer, and the core never imports them (``tests/bot/test_tools_apart.py``)."""


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(root: Path = ROOT) -> dict[str, str]:
    """Every module of the three packages, by dotted name: its source."""
    found: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            found[module_name(path, root)] = path.read_text(encoding="utf-8")
    return found


def imports_of(name: str, source: str, known: Iterable[str]) -> set[str]:
    """What module ``name`` imports, anywhere in its source: modules of
    ``known`` where it names one, else the top-level name (``discord``)."""
    modules = set(known)
    is_package = any(m.startswith(name + ".") for m in modules) or name in PACKAGES
    found: set[str] = set()

    def add(target: str) -> None:
        # The longest known module the dotted name starts with, else its root.
        parts = target.split(".")
        for n in range(len(parts), 0, -1):
            candidate = ".".join(parts[:n])
            if candidate in modules:
                found.add(candidate)
                return
        found.add(parts[0])

    for node in ast.walk(ast.parse(source, filename=name)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = name.split(".")
                if not is_package:
                    base_parts = base_parts[:-1]
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in modules else base)
    found.discard(name)
    return found


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    texts = sources(root)
    return {name: imports_of(name, text, texts) for name, text in texts.items()}


def tangles(edges: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan):
    each module in one can reach every other, through imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: set[str] = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return components


def cycles(edges: Mapping[str, Iterable[str]]) -> list[str]:
    """Each tangle reported: a shortest cycle through its first module,
    ``a -> b -> ... -> a``, then every module in it."""
    found = []
    for component in tangles(edges):
        start = min(component)
        paths = {start: [start]}
        queue = [start]
        cycle: list[str] = []
        while queue and not cycle:
            v = queue.pop(0)
            for w in sorted(edges[v]):
                if w == start:
                    cycle = [*paths[v], start]
                    break
                if w in component and w not in paths:
                    paths[w] = [*paths[v], w]
                    queue.append(w)
        found.append(
            " -> ".join(cycle)
            + f"   (a tangle of {len(component)}: {', '.join(sorted(component))})"
        )
    return found


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def is_entry_point(module: str) -> bool:
    return any(in_package(module, entry) for entry in ENTRY_POINTS)


def layer_breaches(edges: Mapping[str, Iterable[str]]) -> list[str]:
    breaches = []
    for module, targets in sorted(edges.items()):
        for target in sorted(targets):
            if (
                in_package(target, EDGE)
                and not in_package(module, EDGE)
                and not is_entry_point(module)
            ):
                breaches.append(f"{module} imports the edge ({target})")
            if (
                target == "discord"
                and in_package(module, "bot")
                and not in_package(module, EDGE)
                and not is_entry_point(module)
            ):
                breaches.append(f"{module} imports discord outside the edge")
            if in_package(module, "bot.engines") and (
                target in {"discord", "storage"} or in_package(target, "storage")
            ):
                breaches.append(f"engine module {module} imports {target}")
            if in_package(module, "renderers") and (
                target == "discord" or in_package(target, "storage")
            ):
                breaches.append(f"renderer {module} imports {target}")
    return breaches


GRAPH = graph()


def test_the_graph_sees_every_layer() -> None:
    assert {"bot.service", "bot.edge.client", "bot.edge.play.moves", "storage.games"} <= set(GRAPH)
    assert "bot.edge.delivery.delivery" in GRAPH["bot.edge.client"]
    assert "discord" in GRAPH["bot.edge.delivery.delivery"]


def within_bot(edges: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    return {
        m: {t for t in targets if in_package(t, "bot")}
        for m, targets in edges.items()
        if in_package(m, "bot")
    }


def test_bot_has_no_import_cycle() -> None:
    found = cycles(within_bot(GRAPH))
    assert not found, "import cycles in bot:\n" + "\n".join(found)


def test_renderers_and_storage_have_no_import_cycle() -> None:
    found = cycles(GRAPH)
    assert not found, "import cycles:\n" + "\n".join(found)


def test_a_driver_imported_by_its_base_is_a_circle() -> None:
    """The storage check, on the circle it once had to exempt: the abstract
    ``Database`` importing a driver that builds on it, even lazily inside a
    function (as ``Database.open`` imported ``storage.postgres``)."""
    source = (ROOT / "storage" / "database.py").read_text(encoding="utf-8")
    lazy = source + "\n\ndef later():\n    from storage.postgres import PostgresDatabase\n"
    edges = dict(GRAPH)
    edges["storage.database"] = imports_of("storage.database", lazy, GRAPH)
    found = cycles(edges)
    assert len(found) == 1, found
    assert found[0].startswith("storage.database -> storage.postgres -> storage.database"), found


def test_no_layer_is_breached() -> None:
    breaches = layer_breaches(GRAPH)
    assert not breaches, "\n".join(breaches)


def test_the_checks_catch_a_cycle_and_a_breach(tmp_path: Path) -> None:
    """The same checks on a copy of the tree with two breaches added: the
    service imports the client under TYPE_CHECKING (as the bot's modules
    once imported ChaupalBot), which is both a breach and a circle, and the
    scheduler imports discord inside a function."""
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            copy = tmp_path / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    service = tmp_path / "bot" / "service" / "__init__.py"
    service.write_text(
        service.read_text(encoding="utf-8")
        + "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        + "    from bot.edge.client import ChaupalBot\n",
        encoding="utf-8",
    )
    scheduler = tmp_path / "bot" / "scheduler.py"
    scheduler.write_text(
        scheduler.read_text(encoding="utf-8") + "\ndef later():\n    import discord.ui\n",
        encoding="utf-8",
    )
    edges = graph(tmp_path)
    assert layer_breaches(edges) == [
        "bot.scheduler imports discord outside the edge",
        "bot.service imports the edge (bot.edge.client)",
    ]
    found = cycles(within_bot(edges))
    assert len(found) == 1, found
    assert "bot.service -> bot.edge.client -> " in found[0], found
    assert "bot.edge.delivery.delivery" in found[0].split("(a tangle of")[1], found


def test_the_import_reader() -> None:
    known = {"bot", "bot.edge", "bot.edge.delivery", "bot.edge.table", "bot.claims"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "import discord.ui\n"
        "from bot import claims\n"
        "from bot.edge import delivery\n"
        "from . import table\n"
        "if TYPE_CHECKING:\n"
        "    from bot.edge.client import ChaupalBot\n"
        "def later():\n"
        "    from storage.games import GameStore\n"
    )
    assert imports_of("bot.edge.keeper", source, known) == {
        "typing",
        "discord",
        "bot.claims",
        "bot.edge.delivery",
        "bot.edge.table",
        "bot.edge",
        "storage",
    }
