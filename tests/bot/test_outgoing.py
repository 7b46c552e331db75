"""What leaves the bot respects Discord's limits and pings only whom it means
(hardening items 5 and 6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engines.core import GameError
from bot.outgoing import MAX_CONTENT, clip, plain_name, safe_name
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, start
from tests.bot.menu_player import SILENT
from tests.discord_harness import FakeDiscord, Sent

LONG = 6000  # a text option may carry this many characters


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 3))
    yield fake
    await fake.close()


def allowed_mentions(sent: Sent) -> dict[str, object]:
    body = sent.raw.get("data", sent.raw) if "type" in sent.raw else sent.raw
    found = body.get("allowed_mentions") or {}
    assert isinstance(found, dict)
    return found


def refusal(out: list[Sent]) -> str:
    replies = [s for s in out if s.ephemeral and s.content]
    assert replies, out
    return replies[-1].content or ""


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ("x" * LONG, "name=value"),
        ("o" * (LONG - 2) + "=1", "no option"),
        ("round_limit=" + "9" * (LONG - 12), "round_limit"),
        ("round_limit=\xa0" + "v" * (LONG - 13), "name=value"),
        ("round_limit=" + "v" * (LONG - 12), "whole number"),
    ],
)
async def test_long_lobby_options_get_a_short_refusal(
    fake: FakeDiscord, options: str, why: str
) -> None:
    out = await fake.slash(fake.user("asha"), "game new", game="sangram", options=options)
    text = refusal(out)
    assert why in text and len(text) < 300, text
    assert "\\x" not in text


@pytest.mark.parametrize("action", ["q" * LONG, "first ²", "d①", "d" + "9" * 4400])
async def test_long_or_odd_moves_get_a_short_specific_refusal(
    fake: FakeDiscord, action: str
) -> None:
    asha, bhima = fake.user("asha"), fake.user("bhima")
    _, lobby = await open_lobby(fake, "mahabharata", asha, bhima)
    await start(fake, asha, lobby)
    out = await fake.slash(asha, "game play", action=action)
    text = refusal(out)
    assert len(text) < 300 and "Something went wrong" not in text, text


async def test_every_reply_is_cut_to_discords_limit(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defence in depth: whatever a refusal says, the one place replies go
    through keeps it under 2,000 characters (Discord answers 400 past it)."""
    asha, bhima = fake.user("asha"), fake.user("bhima")
    _, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)

    async def wordy(*args: object, **kwargs: object) -> None:
        raise GameError("w" * 5000)

    monkeypatch.setattr(bot_of(fake).service, "play", wordy)
    out = await fake.slash(asha, "game play", action="commit")
    text = refusal(out)
    assert len(text) == MAX_CONTENT and text.endswith("…")


async def test_names_are_escaped_and_ping_nobody(fake: FakeDiscord) -> None:
    victim = 123456789012345678
    asha = fake.user("asha", nick=f"<@{victim}> **loud** @everyone")
    bhima = fake.user("bhima")
    _, lobby = await open_lobby(fake, "artaban", asha, bhima)
    board = await start(fake, asha, lobby)
    for sent in fake.sent:
        assert f"<@{victim}>" not in (sent.content or ""), sent
        mentions = allowed_mentions(sent)
        assert str(victim) not in [str(u) for u in mentions.get("users", [])]  # type: ignore[attr-defined]
        assert not mentions.get("parse"), (sent, mentions)
    # The lobby pings nobody, not even its creator; the first board pings
    # nobody either: each player's secret set-up is decided in a DM menu,
    # and that DM, which notifies, announces it (issue 30).
    assert allowed_mentions(lobby).get("users", []) == []
    assert allowed_mentions(board).get("users", []) == []
    for user in (asha, bhima):
        menus = [s for s in fake.dms(user) if s.route == "dm.send" and s.components]
        assert len(menus) == 1 and not menus[0].flags & SILENT, menus
    assert boards(fake)


def test_name_helpers() -> None:
    assert safe_name("<@1> **x**") == "<\u200b@\u200b1\\> \\*\\*x\\*\\*"
    assert plain_name("a\nb\x00c" + "z" * 50).startswith("a bc")
    assert len(plain_name("z" * 50)) == 32
    assert clip("y" * 2500) == "y" * 1999 + "…"
    assert clip("short") == "short"
