"""The tools stand apart from the core the bot runs (issue 32).

The benchmarks, the load test, the demo, the engines' build, the attention
measure and the players' strength live in ``bot/tools/``.  Their commands
keep their names through thin modules (``python -m bot.bench``,
``bot.loadtest``, ``bot.build_engines``, ``bot.players.strength``, and
``bot.demo``, the options of ``python -m bot demo``), which import the tool
only when the command runs.  The running bot imports none of them:

- statically, over every import wherever it stands (lazy ones included):
  import-linter's contracts ``core-imports-no-tools`` (nothing the bot runs,
  nor the core, reaches a tool, but ``python -m bot demo``'s run),
  ``tools-by-commands`` (only the commands import a tool) and
  ``tools-below-commands`` (no tool imports a command), in pyproject.toml,
  shown a breach each in :mod:`tests.test_layers`;
- in a fresh interpreter: ``python -m bot``'s own start (its parser, the
  client, with every feature and cog it adds) leaves no tool in
  ``sys.modules``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

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
