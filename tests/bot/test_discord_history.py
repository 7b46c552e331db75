"""``/game history``, ``/profile``'s **History** and the history's **Replay**
(issue 21 §3), through discord.py's real dispatch.

Games are finished the way they end on a server: opened, joined, started
and resigned through the commands and buttons (so each has its board, its
thread and, when rated, its rating changes)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.edge.archive.texts import HistoryPage, history_custom_id
from bot.edge.delivery.texts import jump_url
from bot.outgoing import safe_name
from tests.bot.driver import assert_no_secret_ids, bot_of, make_bot, open_lobby, start
from tests.bot.driver import resign as resign_game
from tests.bot.test_ratings_commands import play_out
from tests.discord_harness import FakeDiscord, FakeUser, Sent

EVIL = "@everyone **Bhima** <@&1>"


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    running = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 3))
    try:
        yield running
    finally:
        await running.close()


async def finished(
    fake: FakeDiscord, game: str, players: list[FakeUser], loser: FakeUser, **kw: str
) -> int:
    game_id, lobby = await open_lobby(fake, game, players[0], *players[1:], **kw)
    await start(fake, players[0], lobby)
    # A game resigned before anyone moved is not rated (issue 31): one move first.
    await play_out(bot_of(fake), game_id, seed=game_id, moves=1)
    await resign_game(fake, loser, game=game_id)
    assert (await bot_of(fake).service.get(game_id)).is_over
    return game_id


def the_reply(out: list[Sent]) -> Sent:
    found = [s for s in out if s.content and s.message_id]
    assert found, out
    return found[-1]


def rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def nav(fake: FakeDiscord, message: Sent | int, label: str) -> dict[str, Any]:
    return fake.find_button(message, label=label)


@pytest.fixture
async def seven(fake: FakeDiscord) -> dict[str, object]:
    """Seven finished games: six Artaban (Asha and Bhima), one Kauda Baji
    (Chitra and Asha); the newest last."""
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima", nick=EVIL), fake.user("chitra")
    ids = []
    for i in range(6):
        loser = bhima if i % 2 else asha
        ids.append(await finished(fake, "artaban", [asha, bhima], loser))
    ids.append(await finished(fake, "kauda_baji", [chitra, asha], asha, options="pieces=1"))
    fake.sent.clear()
    return {"asha": asha, "bhima": bhima, "chitra": chitra, "ids": ids}


async def test_history_pages_newest_first_with_links_changes_and_buttons(
    fake: FakeDiscord, seven: dict[str, object]
) -> None:
    asha = seven["asha"]
    assert isinstance(asha, FakeUser)
    ids = seven["ids"]
    assert isinstance(ids, list)
    out = await fake.slash(asha, "game history")
    page = the_reply(out)
    assert page.ephemeral  # one member looking back: only they see it
    text = page.content or ""
    assert "7 games; page 1 of 2" in text
    listed = [int(m) for m in re.findall(r"#(\d+)\*\*", text)]
    assert listed == sorted(ids, reverse=True)[:5]
    for line in rows(text):
        assert re.search(r"<t:\d+:d>", line), line
        assert "won by" in line, line
        assert re.search(r"\([+-]\d+\)", line), line  # rated: each player's change, in points
        assert "@everyone" not in line and "<@&" not in line
    assert safe_name(EVIL)[:10] in text  # the nickname shown escaped
    # Each row links the game's board, a message that exists.
    bot = bot_of(fake)
    newest = await bot.store.get_game(ids[-1])
    assert newest is not None
    board = await bot.store.get_message(newest.id, "board")
    assert board is not None
    assert jump_url(fake.guild_id, board[0], board[1]) in text
    assert board[1] in fake.world.messages
    # Five Replay buttons and the four page buttons; the first two disabled.
    labels = [b["label"] for b in fake.buttons(page)]
    assert labels == [f"Replay #{i}" for i in listed] + ["⏮", "◀", "▶", "⏭"]
    disabled = {b["label"] for b in fake.buttons(page) if b.get("disabled")}
    assert disabled == {"⏮", "◀"}
    assert all(len(b["custom_id"]) <= 100 for b in fake.buttons(page))
    assert len(page.components) <= 5

    out = await fake.click(asha, page, nav(fake, page, "▶")["custom_id"])
    second = fake.current(page)
    text2 = second.content or ""
    assert "page 2 of 2" in text2
    assert [int(m) for m in re.findall(r"#(\d+)\*\*", text2)] == sorted(ids, reverse=True)[5:]
    assert {b["label"] for b in fake.buttons(second) if b.get("disabled")} == {"▶", "⏭"}
    await fake.click(asha, page, nav(fake, second, "⏮")["custom_id"])
    assert "page 1 of 2" in (fake.current(page).content or "")
    await fake.click(asha, page, nav(fake, fake.current(page), "⏭")["custom_id"])
    assert "page 2 of 2" in (fake.current(page).content or "")
    await fake.click(asha, page, nav(fake, fake.current(page), "◀")["custom_id"])
    assert "page 1 of 2" in (fake.current(page).content or "")
    assert_no_secret_ids(fake)


async def test_pages_stay_put_while_games_end_and_survive_a_restart(
    fake: FakeDiscord, seven: dict[str, object], tmp_path: Path
) -> None:
    asha, bhima = seven["asha"], seven["bhima"]
    assert isinstance(asha, FakeUser) and isinstance(bhima, FakeUser)
    page = the_reply(await fake.slash(asha, "game history"))
    first_rows = rows(page.content or "")
    later = await finished(fake, "artaban", [asha, bhima], bhima)
    fake = await fake.restart(make_bot(tmp_path / "chaupal.sqlite3", 4))
    try:
        await fake.click(asha, page, nav(fake, page, "▶")["custom_id"])
        await fake.click(asha, page, nav(fake, fake.current(page), "⏮")["custom_id"])
        again = fake.current(page).content or ""
        assert rows(again) == first_rows  # the game that ended since stays off
        assert f"#{later}**" not in again
        fresh = the_reply(await fake.slash(asha, "game history"))
        assert f"#{later}**" in (fresh.content or "") and "8 games" in (fresh.content or "")
    finally:
        await fake.close()


async def test_filters_by_player_and_game(fake: FakeDiscord, seven: dict[str, object]) -> None:
    asha, chitra = seven["asha"], seven["chitra"]
    assert isinstance(asha, FakeUser) and isinstance(chitra, FakeUser)
    ids = seven["ids"]
    assert isinstance(ids, list)
    page = the_reply(await fake.slash(asha, "game history", player=chitra))
    text = page.content or ""
    assert "of **chitra**" in text and "1 game)" in text
    assert [int(m) for m in re.findall(r"#(\d+)\*\*", text)] == [ids[-1]]
    assert "__chitra__" in text  # the player whose history it is stands out
    # One page: only the Replay button, no page buttons.
    assert [b["label"] for b in fake.buttons(page)] == [f"Replay #{ids[-1]}"]
    page = the_reply(await fake.slash(asha, "game history", game="artaban"))
    text = page.content or ""
    assert "in Artaban" in text and "6 games" in text
    assert ids[-1] not in [int(m) for m in re.findall(r"#(\d+)\*\*", text)]
    page = the_reply(await fake.slash(chitra, "game history", player=chitra, game="artaban"))
    assert "No finished games of **chitra** in Artaban" in (page.content or "")
    assert not page.components


async def test_no_games_yet_says_so(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user("asha"), "game history")
    page = the_reply(out)
    assert page.ephemeral and "No finished games on this server yet" in (page.content or "")
    assert not page.components


async def test_a_stale_and_a_foreign_press(fake: FakeDiscord, seven: dict[str, object]) -> None:
    asha, bhima = seven["asha"], seven["bhima"]
    assert isinstance(asha, FakeUser) and isinstance(bhima, FakeUser)
    ids = seven["ids"]
    assert isinstance(ids, list)
    out = await fake.slash(asha, "game history", share=True)
    page = the_reply(out)
    assert not page.ephemeral  # shared on purpose: the channel sees it
    before = fake.current(page).content
    # Another member's press changes nothing and says why, to them only.
    out = await fake.click(bhima, page, nav(fake, page, "▶")["custom_id"])
    refusal = the_reply(out)
    assert refusal.ephemeral and "Only the member who asked" in (refusal.content or "")
    assert fake.current(page).content == before
    # Games deleted since the page was drawn: page 2 is gone.
    for game_id in ids[:3]:
        await bot_of(fake).store.delete_game(game_id)
    await fake.click(asha, page, nav(fake, page, "▶")["custom_id"])
    text = fake.current(page).content or ""
    assert text.startswith("That page is gone") and "here is page 1" in text
    assert "4 games)" in text and not any(
        b["label"] in ("⏮", "▶") for b in fake.buttons(fake.current(page))
    )


def test_the_widest_page_button_fits_discords_custom_id() -> None:
    # Ids of 20 digits, the longest game name, a time in milliseconds.
    widest = HistoryPage(2**64 - 1, 2**64 - 1, "mahabharata", 10**14 - 1, 99999)
    assert len(history_custom_id(widest, "first")) <= 100


async def test_replay_button_sends_the_replay(fake: FakeDiscord, seven: dict[str, object]) -> None:
    """**Replay #n** answers with the game's animated replay: only to the
    presser under a page only they see, in the channel under a shared one
    (``tests/bot/test_discord_replay.py`` checks the replay itself)."""
    asha, chitra = seven["asha"], seven["chitra"]
    assert isinstance(asha, FakeUser) and isinstance(chitra, FakeUser)
    ids = seven["ids"]
    assert isinstance(ids, list)
    page = the_reply(await fake.slash(chitra, "game history"))
    replay = fake.find_button(page, label=f"Replay #{ids[-1]}")
    answer = [s for s in await fake.click(chitra, page, replay["custom_id"]) if s.files][-1]
    assert answer.ephemeral and answer.user_id == chitra.id
    assert f"Replay of Kauda Baji #{ids[-1]}" in (answer.content or "")
    [(name, gif)] = answer.files
    assert name.endswith(".gif") and gif.startswith(b"GIF89a")
    page = the_reply(await fake.slash(asha, "game history", share=True))
    replay = fake.find_button(page, label=f"Replay #{ids[-1]}")
    answer = [s for s in await fake.click(chitra, page, replay["custom_id"]) if s.files][-1]
    assert not answer.ephemeral and answer.files == [(name, gif)]


async def test_profile_offers_the_players_history(
    fake: FakeDiscord, seven: dict[str, object]
) -> None:
    chitra, viewer = seven["chitra"], fake.user("viewer")
    assert isinstance(chitra, FakeUser)
    out = await fake.slash(viewer, "profile", option_values={"user": chitra})
    profile = the_reply(out)
    assert not profile.ephemeral
    button = fake.find_button(profile, label="History")
    out = await fake.click(viewer, profile, button["custom_id"])
    page = the_reply(out)
    assert page.ephemeral and page.user_id == viewer.id
    assert "of **chitra**" in (page.content or "") and "1 game)" in (page.content or "")
    # The profile itself is unchanged for everyone else.
    assert fake.current(profile).content == profile.content
