"""Issue 17: a name in its own script reaches the board image through
discord.py's dispatch, drawn as written (not "Player N", not stripped)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.rendering import render_png
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, start
from tests.discord_harness import FakeDiscord

NAMES = ("हरि प्रसाद", "Иван", "தமிழ்செல்வி", "Ελένη")
"""Names the built-in font cannot draw at all: before issue 17 each became
"Player N" in every image."""


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.running(make_bot(tmp_path / "db.sqlite3", 5)) as fake:
        yield fake


@pytest.mark.parametrize("engine", ["kauda_baji", "chaturaji"])
async def test_a_board_draws_every_name_in_its_own_script(fake: FakeDiscord, engine: str) -> None:
    users = [fake.user(name) for name in NAMES]
    game_id, lobby = await open_lobby(fake, engine, users[0], *users[1:], options="clock=none")
    await start(fake, users[0], lobby)
    posted = fake.current(boards(fake)[-1])
    png = next(raw for name, raw in posted.files if name.endswith(".png"))
    game = await bot_of(fake).service.get(game_id)
    view = game.engine.view(game.state, None)
    assert list(game.names) == list(NAMES)
    # The posted board is the renderer's drawing of these very names ...
    assert png == render_png(engine, "board", view, list(NAMES))
    # ... which is not what it drew when it stood "Player N" in for them.
    stand_ins = [f"Player {i + 1}" for i in range(len(NAMES))]
    assert png != render_png(engine, "board", view, stand_ins)
