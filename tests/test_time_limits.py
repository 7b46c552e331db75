"""Every wait is bounded: a hang fails with a message instead of stalling CI."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from tests.discord_harness import FakeDiscord, HarnessTimeout

ROOT = Path(__file__).resolve().parents[1]


def test_every_test_has_a_time_limit(request: pytest.FixtureRequest) -> None:
    # pytest-timeout's setting, from pyproject.toml: unknown (ValueError) without it.
    assert float(request.config.getini("timeout")) > 0


class HangingBot(commands.Bot):
    """A bot whose shutdown never ends (a render worker or a thread that hangs)."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())

    async def close(self) -> None:
        await asyncio.Event().wait()


async def test_a_bot_that_hangs_while_closing_fails_the_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(FakeDiscord, "LIFECYCLE_TIMEOUT", 0.2)
    fake = await FakeDiscord.start(HangingBot())
    with pytest.raises(HarnessTimeout, match=r"bot\.close\(\)"):
        await fake.close()


class HangingSetupBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())

    async def setup_hook(self) -> None:
        await asyncio.Event().wait()


async def test_a_bot_that_hangs_while_starting_fails_the_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(FakeDiscord, "LIFECYCLE_TIMEOUT", 0.2)
    with pytest.raises(HarnessTimeout, match=r"setup_hook"):
        await FakeDiscord.start(HangingSetupBot())


class HangingSetupAndCloseBot(HangingSetupBot):
    async def close(self) -> None:
        await asyncio.Event().wait()


async def test_a_slow_close_after_a_failed_start_does_not_hide_the_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On a loaded machine closing can take longer than the limit too: the
    # error must still name what hung first.
    monkeypatch.setattr(FakeDiscord, "LIFECYCLE_TIMEOUT", 0.2)
    with pytest.raises(HarnessTimeout, match=r"setup_hook") as caught:
        await FakeDiscord.start(HangingSetupAndCloseBot())
    assert any("Closing the bot afterwards" in note for note in caught.value.__notes__)


def test_a_thread_left_running_does_not_hang_the_test_run(tmp_path: Path) -> None:
    """The run printed its results, then waited for ever on a leaked thread at exit."""
    (tmp_path / "test_leak.py").write_text(
        "import threading\n\n"
        "def test_leaves_a_thread_behind():\n"
        "    threading.Thread(target=threading.Event().wait, name='leaked').start()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CHAUPAL_TESTS_EXIT_GRACE": "0.2"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,  # the test itself passes at once; only the exit could hang
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the test run did not exit: a leaked thread kept it alive")
    assert "1 passed" in done.stdout, done.stdout
    assert done.returncode == 1 and "leaked" in done.stderr, done.stderr
