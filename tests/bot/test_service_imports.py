"""What ``import bot.service`` loads (issue 32).

The game service thinks (its automatic players search in a pool) but never
draws: importing it must not load Pillow or any renderer, as it did when
the think pool borrowed the render pool's private stopping helper.  Run in
a fresh interpreter, since this test process has imported both long ago.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = (
    "import bot.service, sys; "
    "assert 'PIL' not in sys.modules and "
    "not any(m.startswith('renderers') for m in sys.modules)"
)


def test_importing_the_service_loads_neither_pillow_nor_a_renderer() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr


def test_the_level_names_import_nothing_of_the_project() -> None:
    """``bot.timekeeping`` parses a level's name: that must not load the
    automatic players (a search, every game's rules of thumb)."""
    check = (
        "import bot.levels, sys; "
        "assert not [m for m in sys.modules if m.startswith(('bot.', 'storage', 'renderers')) "
        "and m != 'bot.levels'], sorted(sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
