"""Every wait is bounded: a hang fails with a message instead of stalling CI."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord.ext import commands

from tests.discord_harness import FakeDiscord, HarnessTimeout


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
