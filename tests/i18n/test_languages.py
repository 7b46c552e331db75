"""Whose language a text is in (issue 33, bot/edge/languages.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.edge.languages import CHOSEN, SEEN, Languages
from storage.database import Database
from storage.opening import open_database
from storage.players import PlayerSettingsStore
from storage.settings import SettingsStore


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "chaupal.sqlite3")
    try:
        yield database
    finally:
        await database.close()


def itx(user: int, locale: str, guild: int | None = 5, guild_locale: str | None = "en-US") -> Any:
    """Just what Languages reads of an interaction."""
    return SimpleNamespace(
        user=SimpleNamespace(id=user), locale=locale, guild_id=guild, guild_locale=guild_locale
    )


class Counting(PlayerSettingsStore):
    writes = 0

    async def set(self, owner_id: int, name: str, value: Any, now: float) -> dict[str, Any]:
        type(self).writes += 1
        return await super().set(owner_id, name, value, now)


async def test_a_reader_reads_their_app_language_until_they_choose_one(db: Database) -> None:
    languages = Languages(PlayerSettingsStore(db), SettingsStore(db), lambda: 1.0)
    assert await languages.for_reader(itx(1, "hi")) == "hi"
    assert await languages.for_reader(itx(1, "en-GB")) == "en"
    assert await languages.for_reader(itx(1, "pt-BR")) == "en"  # no Portuguese catalog
    await languages.choose_for_player(1, "hi")
    assert await languages.for_reader(itx(1, "en-US")) == "hi"
    await languages.choose_for_player(1, None)
    assert await languages.for_reader(itx(1, "en-US")) == "en"


async def test_a_dm_without_an_interaction_uses_the_language_last_seen(db: Database) -> None:
    players = PlayerSettingsStore(db)
    languages = Languages(players, SettingsStore(db), lambda: 1.0)
    assert await languages.for_member(2) == "en"
    await languages.seen(itx(2, "hi"))
    assert await languages.for_member(2) == "hi"
    assert (await players.get(2))[SEEN] == "hi"
    # Another process (or a restart) reads it from storage.
    assert await Languages(players, SettingsStore(db), lambda: 1.0).for_member(2) == "hi"
    await languages.seen(itx(2, "en-US"))
    assert await languages.for_member(2) == "en"


async def test_locales_seen_are_written_only_when_they_change(db: Database) -> None:
    Counting.writes = 0
    players = Counting(db)
    languages = Languages(players, SettingsStore(db), lambda: 1.0)
    for _ in range(5):
        await languages.seen(itx(3, "en-US"))
    assert Counting.writes == 0, "English, the default, is not written"
    for _ in range(5):
        await languages.seen(itx(3, "hi"))
    assert Counting.writes == 1
    assert await players.get(3) == {SEEN: "hi"}


async def test_the_channel_reads_the_servers_language(db: Database) -> None:
    servers = SettingsStore(db)
    languages = Languages(PlayerSettingsStore(db), servers, lambda: 1.0)
    # A Hindi-speaking player in an English server: the channel stays English.
    assert await languages.for_channel(5, itx(4, "hi", guild_locale="en-US")) == "en"
    assert await languages.for_channel(5, itx(4, "en-US", guild_locale="hi")) == "hi"
    # Without an interaction (a timer's post): the server's locale last seen.
    assert await languages.for_channel(5) == "en"
    await languages.seen(itx(4, "en-US", guild_locale="hi"))
    assert await languages.for_channel(5) == "hi"
    # A moderator's choice comes first.
    await languages.choose_for_server(5, "en")
    assert (await servers.get(5))[CHOSEN] == "en"
    assert await languages.for_channel(5, itx(4, "hi", guild_locale="hi")) == "en"
    # A DM channel is its reader's.
    assert await languages.for_channel(None, itx(4, "hi", guild=None, guild_locale=None)) == "hi"


async def test_an_unreadable_stored_language_is_ignored(db: Database) -> None:
    players = PlayerSettingsStore(db)
    await players.set(6, CHOSEN, "klingon", 1.0)
    await players.set(6, SEEN, 42, 1.0)
    languages = Languages(players, SettingsStore(db), lambda: 1.0)
    assert await languages.for_member(6) == "en"
    assert await languages.for_reader(itx(6, "hi")) == "hi"
