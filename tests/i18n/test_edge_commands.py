"""The commands, the lobby, /help, the rules summaries, the settings and the
refusals in every player's language (issue 33)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.edge.lobby.lobby import rules_summary
from bot.engines import ENGINES
from tests.bot.driver import bot_of, make_bot
from tests.discord_harness import FakeDiscord, FakeUser, Sent

ROOT = Path(__file__).resolve().parents[2]

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
        await command.get_translated_payload(tree, translator) for command in tree.get_commands()
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


# -- the lobby, /help, /game rules, the settings, a refusal: in Hindi and marked --------

ENGLISH_WORDS = re.compile(r"\b(the|and|press|game|players?|options?|settings?)\b", re.I)


def reply_of(out: list[Sent]) -> Sent:
    return next(s for s in out if s.route in ("interaction.response", "followup") and s.created)


def prose(text: str) -> str:
    """What a reader reads as sentences: without `code`, mentions and links."""
    return re.sub(r"`[^`]*`|<[^<>]*>|https?://\S+", "", text)


def assert_hindi(text: str) -> None:
    assert DEVANAGARI.search(text), text
    found = ENGLISH_WORDS.findall(prose(text))
    assert not found, (found, text)


def assert_marked(text: str) -> None:
    """Every line of the pseudo-locale's text is marked, so none skipped the catalog."""
    for line in text.splitlines():
        if re.match(r"\d+\. ", line):
            continue  # a seat: its number and its player's name
        if re.search(r"[A-Za-z]", prose(line)):
            assert "⟦" in line, (line, text)


@pytest.fixture
async def hindi_server(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 1), guild_locale="hi")
    yield fake
    await fake.close()


async def test_a_lobby_is_posted_in_the_servers_language_with_its_buttons(
    hindi_server: FakeDiscord,
) -> None:
    fake = hindi_server
    asha, bhima = fake.user("asha", locale="hi"), fake.user("bhima", locale="hi")
    _, lobby = await open_lobby_as(fake, "artaban", asha)
    text = lobby.content or ""
    assert_hindi(text)
    assert "आर्टाबान" in text and "खिलाड़ी" in text
    labels = [b["label"] for b in fake.buttons(lobby)]
    assert {"शामिल हों", "छोड़ें", "शुरू करें", "विकल्प", "नियम"} <= set(labels), labels
    join = fake.find_button(lobby, label="शामिल हों")
    await fake.click(bhima, lobby, join["custom_id"])
    assert "bhima" in (fake.current(lobby).content or "")
    assert_hindi(fake.current(lobby).content or "")
    options = fake.find_button(lobby, label="विकल्प")
    shown = reply_of(await fake.click(bhima, lobby, options["custom_id"]))
    assert shown.ephemeral
    assert "**टेबल के विकल्प**" in (shown.content or "")


async def test_a_lobby_in_an_english_server_stays_english(fake: FakeDiscord) -> None:
    asha = fake.user("asha", locale="hi")  # her own language does not change the post
    _, lobby = await open_lobby_as(fake, "artaban", asha)
    text = lobby.content or ""
    assert text.startswith("**Artaban** — game #") and not DEVANAGARI.search(text)
    assert "Press **Join** to play" in text


async def test_the_lobby_in_the_pseudo_locale_is_marked(tmp_path: Path) -> None:
    fake = await FakeDiscord.start(make_bot(tmp_path / "c.sqlite3", 1), guild_locale="qps")
    try:
        _, lobby = await open_lobby_as(fake, "sangram", fake.user("asha", locale="qps"))
        assert_marked(lobby.content or "")
        assert all("⟦" in b["label"] for b in fake.buttons(lobby))
    finally:
        await fake.close()


async def open_lobby_as(fake: FakeDiscord, game: str, creator: FakeUser) -> tuple[int, Sent]:
    out = await fake.slash(creator, "game new", game=game)
    lobby = next(s for s in out if s.route == "interaction.response")
    found = re.search(r"#(\d+)", lobby.content or "")
    assert found, lobby.content
    return int(found[1]), lobby


async def test_help_in_the_readers_language(fake: FakeDiscord) -> None:
    page = reply_of(await fake.slash(fake.user("asha", locale="hi"), "help"))
    text = page.content or ""
    assert len(text) <= 2000
    assert_hindi(text)
    for command in ("`/game new`", "`/chaupal me`", "`/tournament join`"):
        assert command in text  # command names stay as typed
    labels = [b["label"] for b in fake.buttons(page)]
    assert "महाभारत के नियम" in labels and "संग्राम खेलें" in labels, labels
    marked = reply_of(await fake.slash(fake.user("bhima", locale="qps"), "help"))
    assert_marked(marked.content or "")
    english = reply_of(await fake.slash(fake.user("chitra"), "help"))
    assert (english.content or "").startswith("**Chaupal** runs board games")


@pytest.mark.parametrize("name", sorted(ENGINES))
async def test_game_rules_summary_in_hindi_and_marked(fake: FakeDiscord, name: str) -> None:
    hindi = reply_of(await fake.slash(fake.user("asha", locale="hi"), "game rules", game=name))
    text = hindi.content or ""
    assert text == rules_summary(name, "hi") != rules_summary(name)
    assert len(text) < 1900 and "**पूरे नियम**" in text
    assert_hindi(text)
    assert fake.find_button(hindi, label="पूरे नियम")
    marked = reply_of(await fake.slash(fake.user("bhima", locale="qps"), "game rules", game=name))
    assert_marked(marked.content or "")
    english = reply_of(await fake.slash(fake.user("chitra"), "game rules", game=name))
    assert english.content == rules_summary(name)


def test_every_game_has_a_hindi_summary_and_a_missing_one_falls_back_to_english() -> None:
    for name in ENGINES:
        assert (Path(ROOT) / "bot/engines/data/hi" / f"{name}.rules.md").is_file(), name
    assert rules_summary("artaban", "xx") == rules_summary("artaban")


async def test_my_language_is_chosen_saved_and_shown(fake: FakeDiscord) -> None:
    asha = fake.user("asha")  # Discord in English
    saved = reply_of(await fake.slash(asha, "chaupal me", language="hi"))
    assert_hindi(saved.content or "")
    assert "हिन्दी" in (saved.content or "")
    summary = reply_of(await fake.slash(asha, "chaupal me"))
    text = summary.content or ""
    assert_hindi(text)
    assert "- `language`: हिन्दी" in text
    # Discord's again: her app's English.
    back = reply_of(await fake.slash(asha, "chaupal me", language="discord"))
    assert (back.content or "").startswith("Saved: Chaupal answers you in Discord's")
    text = reply_of(await fake.slash(asha, "chaupal me")).content or ""
    assert text.startswith("**Your Chaupal notifications**")
    assert "- `language`: Discord's (your app's language)" in text


async def test_the_servers_language_is_chosen_by_a_moderator_and_shown(fake: FakeDiscord) -> None:
    mod = fake.user("mod", moderator=True)
    saved = reply_of(await fake.slash(mod, "moderate settings language", value="hi"))
    assert "हिन्दी" in (saved.content or "")
    shown = reply_of(await fake.slash(mod, "chaupal settings show"))
    assert "- `language`: हिन्दी" in (shown.content or "")
    # Lobbies are now posted in Hindi, whatever the reader's app says.
    _, lobby = await open_lobby_as(fake, "chaturaji", fake.user("asha"))
    assert_hindi(lobby.content or "")
    # A member without the permission is refused, in their own language.
    refused = reply_of(
        await fake.slash(
            fake.user("bhima", locale="hi"),
            "moderate settings language",
            validate=False,
            value="en",
        )
    )
    assert_hindi(refused.content or "")


async def test_settings_show_in_hindi_and_marked(fake: FakeDiscord) -> None:
    hindi = reply_of(await fake.slash(fake.user("asha", locale="hi"), "chaupal settings show"))
    assert_hindi(hindi.content or "")
    assert "**इस सर्वर की Chaupal सेटिंग्स**" in (hindi.content or "")
    marked = reply_of(await fake.slash(fake.user("bhima", locale="qps"), "chaupal settings show"))
    assert_marked(marked.content or "")


async def test_a_refusal_in_the_readers_language(fake: FakeDiscord) -> None:
    asha = fake.user("asha", locale="hi")
    refused = reply_of(await fake.slash(asha, "game new", game="artaban", options="nonsense"))
    text = refused.content or ""
    assert refused.ephemeral and "nonsense" in text
    assert_hindi(text)
    marked = reply_of(
        await fake.slash(
            fake.user("bhima", locale="qps"), "game new", game="artaban", options="nonsense"
        )
    )
    assert_marked(marked.content or "")
    english = reply_of(
        await fake.slash(fake.user("chitra"), "game new", game="artaban", options="nonsense")
    )
    assert (english.content or "").startswith("Options look like name=value; ")


async def test_a_settings_refusal_in_hindi(fake: FakeDiscord) -> None:
    asha = fake.user("asha", locale="hi")
    refused = reply_of(await fake.slash(asha, "chaupal me", quiet="soon"))
    assert_hindi(refused.content or "")
    assert "soon" in (refused.content or "")


async def test_a_failed_command_is_answered_in_the_readers_language(fake: FakeDiscord) -> None:
    from discord import app_commands

    from bot.edge.client import failure_sentence

    assert_hindi(failure_sentence(app_commands.NoPrivateMessage(), "hi"))
    assert failure_sentence(app_commands.NoPrivateMessage()) == (
        "This command works in a server, not in direct messages."
    )


async def test_game_suggestions_name_the_game_in_the_readers_language(fake: FakeDiscord) -> None:
    asha = fake.user("asha", locale="hi")
    game_id, _ = await open_lobby_as(fake, "sangram", asha)
    hindi = await fake.autocomplete(asha, "game board", "game", game="")
    assert hindi and hindi[0]["name"] == f"#{game_id} संग्राम (लॉबी)", hindi
    chitra = fake.user("chitra")
    other, _ = await open_lobby_as(fake, "artaban", chitra)
    english = await fake.autocomplete(chitra, "game board", "game", game="")
    assert english[0]["name"] == f"#{other} Artaban (lobby)", english
