"""Player-facing words (hardening item 10): the lobby, command descriptions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord import app_commands

from bot.engines import ENGINES
from tests.bot.driver import bot_of, make_bot, open_lobby
from tests.discord_harness import FakeDiscord


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 1))
    yield fake
    await fake.close()


async def test_lobby_shows_options_as_players_write_them(fake: FakeDiscord) -> None:
    asha = fake.user("asha")
    _, lobby = await open_lobby(fake, "artaban", asha, options="diagonal_captures=yes")
    text = lobby.content or ""
    assert "diagonal_captures=yes" in text and "True" not in text
    assert "2 players" in text and "2-2" not in text
    _, lobby = await open_lobby(fake, "sangram", asha)
    assert "2-5 players" in (lobby.content or "")


async def test_every_command_option_is_described(fake: FakeDiscord) -> None:
    """Discord shows "…" for an option without a description."""
    bot = bot_of(fake)
    checked = 0
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                assert param.description and param.description != "…", (
                    command.qualified_name,
                    param.name,
                )
                checked += 1
    assert checked >= len(ENGINES)


async def test_lobby_says_who_plays_which_army(fake: FakeDiscord) -> None:
    """Chaturaji R13: with 2 or 3 players someone commands a partnership."""
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    _, lobby = await open_lobby(fake, "chaturaji", asha, bhima)
    text = fake.current(lobby).content or ""
    assert "asha — Blue + Green" in text and "bhima — Red + Yellow" in text, text
    await fake.slash(chitra, "game join")
    text = fake.current(lobby).content or ""
    assert "asha — Blue + Green" in text and "bhima — Red" in text, text
    assert "chitra — Yellow" in text, text
