"""The commands, the lobby, /help, the rules summaries, the settings and the
refusals in every player's language (issue 33)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot.driver import bot_of, make_bot
from tests.discord_harness import FakeDiscord

DEVANAGARI = re.compile(r"[\u0900-\u097F]")


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 1))
    yield fake
    await fake.close()


async def synced_payload(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The commands as ``tree.sync()`` sends them to Discord (translated)."""
    tree = bot_of(fake).tree
    translator = tree.translator
    assert translator is not None, "no translator installed"
    return [
        await command.get_translated_payload(tree, translator)
        for command in tree.get_commands()
    ]


def walk(node: dict[str, Any], where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, group, option and choice of a command's payload."""
    here = f"{where} {node.get('name', '')}".strip()
    yield here, node
    for option in node.get("options", ()):
        yield from walk(option, here)
    for choice in node.get("choices", ()):
        yield f"{here}={choice['value']}", choice


async def test_every_description_and_choice_has_its_hindi_within_discords_limits(
    fake: FakeDiscord,
) -> None:
    checked = 0
    for command in await synced_payload(fake):
        for where, node in walk(command):
            if "description" in node:
                hindi = (node.get("description_localizations") or {}).get("hi")
                assert hindi, f"/{where}: no Hindi description ({node['description']!r})"
                assert 1 <= len(hindi) <= 100, (where, hindi)
                assert DEVANAGARI.search(hindi), (where, hindi)
                checked += 1
            elif DEVANAGARI.search(node["name"]):
                pass  # a choice already in Hindi (the language हिन्दी)
            else:  # a choice
                hindi = (node.get("name_localizations") or {}).get("hi")
                assert hindi, f"/{where}: no Hindi name for the choice {node['name']!r}"
                assert 1 <= len(hindi) <= 100, (where, hindi)
                checked += 1
            # Names stay English in every language.
            assert "hi" not in (node.get("name_localizations") or {}) or "description" not in node
    assert checked > 100


async def test_command_and_option_names_stay_english(fake: FakeDiscord) -> None:
    for command in await synced_payload(fake):
        for where, node in walk(command):
            if "description" in node:
                assert not node.get("name_localizations"), where
                assert node["name"].isascii(), where


async def test_english_descriptions_are_unchanged(fake: FakeDiscord) -> None:
    payload = {c["name"]: c for c in await synced_payload(fake)}
    game = {o["name"]: o for o in payload["game"]["options"]}
    assert game["play"]["description"] == "Make a move, typed in the game's notation"
