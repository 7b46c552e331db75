"""The layers (docs/ARCHITECTURE.md, Layout and Testing) are import-linter
contracts, ``[tool.importlinter]`` in pyproject.toml, which ``make lint`` checks
with ``lint-imports``: no import circle in ``bot``, ``renderers`` or ``storage``
(``acyclic_siblings``), only the edge, the entry point and the tools import the
edge or ``discord`` (``protected``), engines and renderers stay pure, storage
imports nothing of the bot, the service draws nothing, the core reaches no tool
(``forbidden``).  Every import counts, lazy ones inside a function and those
under ``if TYPE_CHECKING:`` too (``exclude_type_checking_imports = false``).

What stays here is what the configuration cannot say about itself:

- the contracts hold on this tree, so that ``pytest`` alone, without ``make
  lint``, catches a breach;
- each contract can fail: on a copy of the tree, one made-up breach at a time
  (a lazy import, a ``TYPE_CHECKING`` import, an indirect chain), and
  ``lint-imports`` run on that contract alone must call it broken.  A
  contract that nothing can break (a module name misspelt, a wildcard that
  matches nothing, an ``ignore_imports`` too wide) would pass for ever.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "renderers", "storage")
CONTRACTS = {
    c["id"]: c
    for c in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
}

LAZY = "\n\ndef _later() -> None:\n    {}\n"
TYPES = "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    {}\n"

BREACHES: list[tuple[str, str, str, str]] = [
    # (contract, file, what is appended, why it is a breach)
    (
        "i18n-pure",
        "bot/i18n/catalog.py",
        LAZY.format("from storage.settings import PlayerSettingsStore"),
        "the catalog reading a player's settings itself (whose language it is is the edge's)",
    ),
    (
        "alt-pure",
        "bot/alt/__init__.py",
        LAZY.format("from renderers.leaderboard import LeaderboardRow"),
        "alt text reading a renderer's types (it describes; it does not draw)",
    ),
    (
        "no-cycles",
        "storage/database.py",
        LAZY.format("from storage.postgres import PostgresDatabase"),
        "the abstract Database importing a driver built on it, lazily (the old circle)",
    ),
    (
        "no-cycles",
        "bot/service/core.py",
        TYPES.format("from bot.service.game_service import GameService"),
        "the service's core importing the front built on it, for a type",
    ),
    (
        "no-cycles",
        "bot/levels.py",
        LAZY.format("from bot.players.search import SearchPlayer"),
        "a circle of packages (bot.players imports bot.levels), no circle of modules",
    ),
    (
        "edge",
        "bot/scheduler.py",
        LAZY.format("import discord.ui"),
        "discord outside the edge, lazily",
    ),
    (
        "edge",
        "bot/outgoing.py",
        TYPES.format("from bot.edge.client import ChaupalBot"),
        "the edge's client named for a type outside the edge",
    ),
    (
        "core-no-discord",
        "bot/service/moves.py",
        LAZY.format("from bot.tools.attention.fake_discord import RecordingDiscord"),
        "the service reaching discord indirectly, through a tool that imports it",
    ),
    (
        "engines-pure",
        "bot/engines/core.py",
        LAZY.format("import time"),
        "a clock in an engine",
    ),
    (
        "engines-pure",
        "bot/engines/core.py",
        LAZY.format("from bot.levels import parse_level"),
        "an engine importing the bot outside bot.engines",
    ),
    (
        "renderers",
        "renderers/leaderboard.py",
        LAZY.format("from bot.outgoing import plain_name"),
        "a renderer importing the bot outside its engines",
    ),
    (
        "renderers",
        "renderers/leaderboard.py",
        LAZY.format("from storage.errors import StorageError"),
        "a renderer importing storage",
    ),
    (
        "storage",
        "storage/players.py",
        LAZY.format("from bot import claims"),
        "storage importing the bot",
    ),
    (
        "core-imports-no-tools",
        "bot/service/lobby.py",
        LAZY.format("from bot.tools import bench"),
        "the service importing a tool, lazily",
    ),
    (
        "core-imports-no-tools",
        "bot/edge/replies.py",
        LAZY.format("import bot.bench"),
        "the edge reaching a tool through its command",
    ),
    (
        "tools-by-commands",
        "bot/outgoing.py",
        LAZY.format("from bot.tools import strength"),
        "a module that is no command importing a tool",
    ),
    (
        "tools-below-commands",
        "bot/tools/bench.py",
        LAZY.format("import bot.loadtest"),
        "a tool importing a command",
    ),
    (
        "service-draws-nothing",
        "bot/service/moves.py",
        LAZY.format("from PIL import Image"),
        "Pillow in the service, lazily",
    ),
    (
        "service-draws-nothing",
        "bot/service/games.py",
        TYPES.format("from bot.rendering import RenderPool"),
        "the render pool (and through it every renderer) named for a type",
    ),
]


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over the tree at ``root``, in a fresh interpreter (this
    one has imported the real packages), limited to ``contracts``."""
    args = ["--no-cache", "--no-logo"]
    for contract in contracts:
        args += ["--contract", contract]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command; "
            "sys.exit(lint_imports_command())",
            *args,
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_contracts_hold() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in run.stdout, run.stdout


def test_every_contract_is_shown_a_breach() -> None:
    assert {contract for contract, *_ in BREACHES} == set(CONTRACTS)


@pytest.fixture(scope="module")
def copy_of_the_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            copy = root / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, copy)
    # The copy as it stands keeps every contract.
    run = lint_imports(root)
    assert run.returncode == 0, run.stdout + run.stderr
    return root


@pytest.mark.parametrize(
    ("contract", "file", "added", "why"),
    BREACHES,
    ids=[f"{contract}:{file}" for contract, file, _, _ in BREACHES],
)
def test_each_contract_catches_its_breach(
    copy_of_the_tree: Path, contract: str, file: str, added: str, why: str
) -> None:
    path = copy_of_the_tree / file
    source = path.read_text(encoding="utf-8")
    path.write_text(source + added, encoding="utf-8")
    try:
        run = lint_imports(copy_of_the_tree, contract)
    finally:
        path.write_text(source, encoding="utf-8")
    assert run.returncode == 1, f"{why}: not caught\n{run.stdout}{run.stderr}"
    assert "0 kept, 1 broken" in run.stdout, run.stdout
