"""Safety nets and shortcuts (issue 18 section 2), through discord.py's dispatch:
a resignation is confirmed with a button that expires, moderators' commands
are hidden from players (and still checked), a finished game's board offers a
rematch, and "My turn" / ``/game next`` jump to the game waiting longest."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.edge.seats.seats import RESIGN_CONFIRM_SECONDS
from tests.bot.driver import (
    assert_no_secret_ids,
    boards,
    bot_of,
    make_bot,
    movers,
    open_lobby,
    play_by_command,
    resign,
    start,
)
from tests.discord_harness import CommandUnavailable, FakeDiscord, Sent

KB = "kauda_baji"


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, Clock]]:
    clock = Clock()
    fake = await FakeDiscord.start(make_bot(tmp_path / "safety.sqlite3", 3, clock))
    yield fake, clock
    await fake.close()
    assert_no_secret_ids(fake)


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content or "" for s in out)


def question(fake: FakeDiscord, out: list[Sent]) -> Sent:
    (asked,) = [s for s in out if s.message_id and fake.buttons(s)]
    assert asked.ephemeral
    return asked


async def status(fake: FakeDiscord, game_id: int) -> str:
    record = await bot_of(fake).store.get_game(game_id)
    assert record is not None
    return record.status


# -- 1. a resignation is confirmed -------------------------------------------------


async def test_resign_asks_first_and_the_button_expires(
    world: tuple[FakeDiscord, Clock],
) -> None:
    fake, clock = world
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, KB, asha, bhima)
    await start(fake, asha, lobby)

    # The command only asks: Resign (danger) and Keep playing.
    out = await fake.slash(bhima, "game resign")
    asked = question(fake, out)
    buttons = {b["label"]: b for b in fake.buttons(asked)}
    assert set(buttons) == {"Resign", "Keep playing"}
    assert buttons["Resign"]["style"] == 4  # danger
    assert "lose" in (asked.content or "") and "<t:" in (asked.content or "")
    assert await status(fake, game_id) == "active"

    # Keep playing changes nothing.
    out = await fake.click(bhima, asked, buttons["Keep playing"]["custom_id"])
    assert "keep playing" in texts(out).lower()
    assert await status(fake, game_id) == "active"

    # A click after the expiry is refused with a sentence, and changes nothing.
    asked = question(fake, await fake.slash(bhima, "game resign"))
    clock.now += RESIGN_CONFIRM_SECONDS + 1
    out = await fake.click(bhima, asked, fake.find_button(asked, label="Resign")["custom_id"])
    assert "expired" in texts(out) and "nothing changed" in texts(out)
    assert await status(fake, game_id) == "active"

    # Confirmed in time: the game is over.
    out = await resign(fake, bhima)
    assert f"Game #{game_id} is over" in texts(out)
    assert await status(fake, game_id) != "active"


async def test_a_moderators_end_is_confirmed_and_refused_once_the_game_moved_on(
    world: tuple[FakeDiscord, Clock],
) -> None:
    fake, _clock = world
    asha, bhima, mod = fake.user("asha"), fake.user("bhima"), fake.moderator("mod")
    game_id, lobby = await open_lobby(fake, KB, asha, bhima)
    await start(fake, asha, lobby)
    asked = question(fake, await fake.slash(mod, "moderate game end", game=game_id))
    assert "End Kauda Baji" in (asked.content or "")
    assert await status(fake, game_id) == "active"

    # Someone moves before the moderator confirms: refused, nothing changes.
    (mover,) = await movers(fake, game_id, {asha.id: asha, bhima.id: bhima})
    await play_by_command(fake, mover, random.Random(1))
    out = await fake.click(mod, asked, fake.find_button(asked, label="Resign")["custom_id"])
    assert "moved on" in texts(out) and await status(fake, game_id) == "active"

    # Asked again on the position as it is: confirmed, the game ends for all.
    out = await resign(fake, mod, game_id)
    assert f"Game #{game_id} is over" in texts(out)
    assert await status(fake, game_id) == "abandoned"


# -- 2. moderators' commands are hidden, and still checked ------------------------------


async def test_moderator_commands_are_hidden_from_players_and_checked(
    world: tuple[FakeDiscord, Clock],
) -> None:
    fake, _clock = world
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, KB, asha, bhima)
    await start(fake, asha, lobby)
    # /moderate carries default permissions: Discord hides it from players...
    root = bot_of(fake).tree.get_command("moderate")
    assert root is not None and root.default_permissions is not None
    assert root.default_permissions.manage_messages
    moved = {
        "game": {"kick", "pause", "resume", "replace"},
        "tournament": {"new", "start", "adjudicate", "end"},
    }
    for name, gone in moved.items():
        group = bot_of(fake).tree.get_command(name)
        assert isinstance(group, discord.app_commands.Group)
        assert not {c.name for c in group.commands} & gone
    with pytest.raises(CommandUnavailable):
        await fake.slash(asha, "moderate game pause", game=game_id)
    # ... and a server showing it anyway still gets a refusal.
    out = await fake.slash(asha, "moderate game pause", game=game_id, validate=False)
    assert "Only a moderator" in texts(out)
    record = await bot_of(fake).store.get_game(game_id)
    assert record is not None and record.paused_at is None
    # The server's settings are readable by everyone.
    out = await fake.slash(asha, "chaupal settings show")
    assert "`threads`" in texts(out) and all(s.ephemeral for s in out)


# -- 3. a rematch ----------------------------------------------------------------------


async def test_rematch_opens_one_lobby_with_the_same_game_and_options(
    world: tuple[FakeDiscord, Clock],
) -> None:
    fake, _clock = world
    asha, bhima, carl = fake.user("asha"), fake.user("bhima"), fake.user("carl")
    game_id, lobby = await open_lobby(fake, KB, asha, bhima, options="pieces=2, clock=1d")
    await start(fake, asha, lobby)
    await resign(fake, asha)
    final = fake.current(boards(fake)[-1])
    rematch = fake.find_button(final, label="Rematch")["custom_id"]

    # Only the game's players may ask for it.
    out = await fake.click(carl, final, rematch)
    assert "Only the players" in texts(out)

    out = await fake.click(bhima, final, rematch)
    posted = [s for s in out if s.route == "channel.send"]
    assert len(posted) == 1 and posted[0].channel_id == fake.channel_id
    new_lobby = posted[0]
    allowed = new_lobby.raw.get("allowed_mentions") or {}
    assert [int(u) for u in allowed.get("users") or []] == [asha.id]  # pinged once
    found = re.search(r"game #(\d+), ", new_lobby.content or "")
    assert found
    new_id = int(found[1])
    live = await bot_of(fake).service.get(new_id)
    old = await bot_of(fake).service.get(game_id)
    assert live.engine.name == KB and live.record.status == "lobby"
    assert live.record.options == old.record.options and live.record.options["pieces"] == 2
    assert live.table == old.table
    assert live.record.creator_id == bhima.id and [s.user_id for s in live.seats] == [bhima.id]

    # A second press while that lobby is open points to it.
    out = await fake.click(asha, final, rematch)
    assert "open already" in texts(out) and str(new_lobby.message_id) in texts(out)
    assert not [s for s in out if s.route == "channel.send"]

    # The other player joins with the lobby's own button.
    await fake.click(asha, new_lobby, fake.find_button(new_lobby, label="Join")["custom_id"])
    live = await bot_of(fake).service.get(new_id)
    assert [s.user_id for s in live.seats] == [bhima.id, asha.id]


# -- 4. my turn ------------------------------------------------------------------------


async def test_next_links_the_game_waiting_longest(world: tuple[FakeDiscord, Clock]) -> None:
    fake, clock = world
    asha, bhima = fake.user("asha"), fake.user("bhima")
    users = {asha.id: asha, bhima.id: bhima}
    out = await fake.slash(asha, "game next")
    assert "Nobody is waiting for you." in texts(out)

    first, lobby = await open_lobby(fake, KB, asha, bhima)
    await start(fake, asha, lobby)
    first_board = boards(fake)[-1]
    clock.now += 3600
    second, lobby = await open_lobby(fake, KB, asha, bhima)
    await start(fake, asha, lobby)
    (waiting_first,) = await movers(fake, first, users)
    (waiting_second,) = await movers(fake, second, users)

    # The player awaited in the first game is sent there (the older wait).
    out = await fake.slash(waiting_first, "game next")
    assert f"#{first}" in texts(out) and str(first_board.message_id) in texts(out)
    assert all(s.ephemeral for s in out)
    if waiting_second is waiting_first:
        assert "1 more" in texts(out)
    # The board's "My turn" button says the same to whoever presses it.
    board = fake.current(boards(fake)[-1])
    my_turn = fake.find_button(board, label="My turn")["custom_id"]
    out = await fake.click(waiting_first, board, my_turn)
    assert f"#{first}" in texts(out) and all(s.ephemeral for s in out if s.content)
    other = bhima if waiting_first is asha else asha
    if waiting_second is not other:
        out = await fake.click(other, board, "chaupal:next")
        assert "Nobody is waiting for you." in texts(out)
