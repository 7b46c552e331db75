"""The tools stand apart from the core the bot runs (issue 32).

The benchmarks, the load test, the demo, the engines' build, the attention
measure and the players' strength live in ``bot/tools/``.  Their commands
keep their names through thin modules (``python -m bot.bench``,
``bot.loadtest``, ``bot.build_engines``, ``bot.players.strength``, and
``bot.demo``, the options of ``python -m bot demo``), which import the tool
only when the command runs.  The running bot imports none of them:

- statically, over every import wherever it stands (:mod:`tests.test_layers`'s
  graph, lazy imports included): only the commands import ``bot.tools``, and
  nothing the bot runs reaches a tool;
- in a fresh interpreter: ``python -m bot``'s own start (its parser, the
  client, with every feature and cog it adds) leaves no tool in
  ``sys.modules``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.test_layers import GRAPH, in_package

ROOT = Path(__file__).resolve().parents[2]
TOOLS = "bot.tools"

COMMANDS = frozenset(
    {"bot.bench", "bot.loadtest", "bot.build_engines", "bot.players.strength", "bot.demo"}
)
"""The tools' commands: each imports its tool only when it runs."""

CORE = (
    "bot.__main__",
    "bot.edge.client",
    "bot.service",
    "bot.director",
    "bot.rendering",
    "bot.thinking",
)
"""What the running bot starts from: the entry point, the client (which
imports every feature and cog it adds), and the pools' workers."""


def reachable(edges: Mapping[str, Iterable[str]], start: Iterable[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(t for t in edges.get(module, ()) if t in edges)
    return seen


def test_the_tools_are_a_package_of_their_own() -> None:
    tools = {m for m in GRAPH if in_package(m, TOOLS)}
    assert {
        "bot.tools.bench",
        "bot.tools.demo",
        "bot.tools.build_engines",
        "bot.tools.strength",
        "bot.tools.loadtest.run",
        "bot.tools.attention.figures",
    } <= tools
    assert set(GRAPH) >= COMMANDS


def test_only_the_commands_import_the_tools() -> None:
    importers = {
        module
        for module, targets in GRAPH.items()
        if not in_package(module, TOOLS) and any(in_package(t, TOOLS) for t in targets)
    }
    assert importers <= COMMANDS, sorted(importers - COMMANDS)


def test_nothing_the_bot_runs_reaches_a_tool() -> None:
    """Every module the core reaches, through any import: no tool, and no
    command but ``bot.demo`` (the options of ``python -m bot demo``,
    whose ``run`` is where the demo begins)."""
    edges = {m: set(t) for m, t in GRAPH.items()}
    edges["bot.demo"] = set()  # the demo command's run: the tool, on request
    assert set(CORE) <= set(edges)
    reached = reachable(edges, CORE)
    assert not {m for m in reached if in_package(m, TOOLS)}
    assert reached & COMMANDS <= {"bot.demo"}


START = """
import sys

import bot.__main__ as entry
from bot.config import ConfigError


def no_settings(**_):
    raise ConfigError("stop here: the parser is built and the run begins")


entry.load_settings = no_settings
assert entry.main([]) == 2

import importlib

for name in {core!r}:
    importlib.import_module(name)
tools = sorted(m for m in sys.modules if m == "bot.tools" or m.startswith("bot.tools."))
assert not tools, tools
"""


def test_the_running_bot_imports_no_tool() -> None:
    """In a fresh interpreter (this one imported the tools long ago)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", START.format(core=CORE)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr


def test_a_command_module_imports_nothing_until_it_runs() -> None:
    """``import bot.bench`` (or any command) loads no tool: only running it does."""
    check = (
        "import sys, bot.bench, bot.loadtest, bot.build_engines, bot.players.strength; "
        "assert not [m for m in sys.modules if m.startswith('bot.tools')], sorted(sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
