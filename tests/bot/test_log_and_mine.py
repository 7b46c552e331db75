"""``/game log`` and ``/game mine`` (issue 10, items 3 and 10), through
discord.py's real dispatch.

The log is the game's public narrations with their times in UTC and the
players' names, as a text file, for any started game of the channel, running
or over; an action whose text is private (Sangram's committed and drawn
cards, R14) shows only its narration.  ``/game mine`` lists the caller's live
games in every channel, theirs to play first, with a link to each newest
board.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.engines.messages import decode
from bot.engines.sangram_cards import WARRIORS
from tests.bot.driver import bot_of, make_bot, movers, open_lobby, play_turn, resign, start
from tests.discord_harness import FakeDiscord, FakeUser, Sent

CARD = re.compile(r"\b([a-z]+)-(\d{1,2})\b", re.IGNORECASE)
WHEN = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d UTC  ")

Opener = Callable[..., Coroutine[Any, Any, FakeDiscord]]


@pytest.fixture
async def bot_at(tmp_path: Path) -> AsyncIterator[Opener]:
    opened: list[FakeDiscord] = []

    async def open_(seed: int) -> FakeDiscord:
        fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", seed))
        opened.append(fake)
        return fake

    yield open_
    for fake in opened:
        await fake.close()


def cards(text: str) -> set[str]:
    """The Sangram cards a text names (``Acharya-53``)."""
    return {f"{k.lower()}-{n}" for k, n in CARD.findall(text) if k.lower() in WARRIORS}


def the_file(out: list[Sent]) -> tuple[Sent, str]:
    sent = next(s for s in out if s.files)
    assert sent.ephemeral, sent
    name, data = sent.files[0]
    assert name.endswith(".txt")
    return sent, data.decode("utf-8")


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content for s in out if s.content)


async def play(fake: FakeDiscord, game_id: int, users: list[FakeUser], n: int, seed: int) -> None:
    rng = random.Random(seed)
    by_id = {u.id: u for u in users}
    for _ in range(n):
        if not await movers(fake, game_id, by_id):
            return
        await play_turn(fake, game_id, by_id, rng, "hand")


async def test_the_log_shows_narrations_and_never_a_secret(bot_at: Opener) -> None:
    fake = await bot_at(21)
    users = [fake.user("asha"), fake.user("**bhima**"), fake.user("chitra")]
    game_id, lobby = await open_lobby(fake, "sangram", *users)

    # A lobby has no log yet.
    out = await fake.slash(users[0], "game log", game=game_id)
    assert "has not started" in texts(out)

    await start(fake, users[0], lobby)
    await play(fake, game_id, users, 40, seed=3)
    store = bot_of(fake).store
    entries = await store.log(game_id)
    # Stored encoded since issue 33 (a message): read as its English words.
    said = [decode(e.narration) for e in entries if e.narration]
    private = [e for e in entries if e.private_to is not None]
    assert private, "no private action was played"
    # The secrets: cards named by private action texts and by no narration.
    secrets = set().union(*(cards(e.action) for e in private)) - cards(" ".join(said))
    assert secrets, "the game kept no card secret"

    out = await fake.slash(users[1], "game log")
    sent, text = the_file(out)
    assert f"#{game_id}" in (sent.content or "")
    lines = text.splitlines()
    assert lines[0] == f"Sangram #{game_id} — the public log"
    assert lines[1] == "Players: 1. asha, 2. **bhima**, 3. chitra"
    moves = [line for line in lines if WHEN.match(line)]
    assert len(moves) == len(said)
    assert not cards(text) & secrets, cards(text) & secrets
    for entry in private:
        assert entry.action not in text or entry.action in " ".join(said)
    assert "{p" not in text and "<@" not in text
    assert "asha" in text and "**bhima**" in text  # plain names in a text file

    # From the game's thread too.
    record = await store.get_game(game_id)
    assert record is not None and record.thread_id is not None
    out = await fake.slash(users[2], "game log", channel_id=record.thread_id)
    assert the_file(out)[1] == text

    # Someone else's channel: refused, by number or not.
    other = fake.add_channel("elsewhere")
    out = await fake.slash(users[0], "game log", game=game_id, channel_id=other)
    assert "another channel" in texts(out) and not any(s.files for s in out)
    out = await fake.slash(users[0], "game log", channel_id=other)
    assert "No game has been played in this channel" in texts(out)

    # Over: still findable, with its result, and autocompleted.
    await resign(fake, fake.moderator("mod"), game=game_id)
    out = await fake.slash(users[2], "game log")
    _, final = the_file(out)
    assert final.startswith(text.rstrip("\n"))
    assert "A moderator ended the game. Ranking: 1. asha & **bhima** & chitra" in final
    choices = await fake.autocomplete(users[2], "game log", focused="game")
    assert [c["value"] for c in choices] == [game_id]


async def test_the_log_of_a_finished_game_among_others(bot_at: Opener) -> None:
    fake = await bot_at(22)
    asha, bhima = fake.user("asha"), fake.user("bhima")
    first, lobby = await open_lobby(fake, "kauda_baji", asha, bhima)
    await start(fake, asha, lobby)
    await play(fake, first, [asha, bhima], 4, seed=1)
    await resign(fake, bhima)
    second, lobby = await open_lobby(fake, "kauda_baji", asha, bhima)
    await start(fake, asha, lobby)
    third, lobby = await open_lobby(fake, "kauda_baji", asha, bhima)
    await start(fake, asha, lobby)

    out = await fake.slash(asha, "game log")
    assert "Several games are running here" in texts(out)
    _, text = the_file(await fake.slash(asha, "game log", game=first))
    assert text.startswith(f"Kauda Baji #{first}")
    assert "bhima resigned." in text and "Ranking: 1. asha; 2. bhima" in text
    assert all(WHEN.match(line) for line in text.splitlines()[4:-2])
    choices = await fake.autocomplete(asha, "game log", focused="game")
    assert [c["value"] for c in choices] == [third, second, first]


async def test_mine_lists_live_games_and_marks_the_turn(bot_at: Opener) -> None:
    fake = await bot_at(23)
    asha, bhima, carl = fake.user("asha"), fake.user("bhima"), fake.user("carl")
    nobody = fake.user("nobody")
    out = await fake.slash(nobody, "game mine")
    assert "You are in no live game" in texts(out) and all(s.ephemeral for s in out)

    # Game 1 here, game 2 in another channel, game 3 a lobby.
    here, lobby = await open_lobby(fake, "kauda_baji", asha, bhima)
    await start(fake, asha, lobby)
    other = fake.add_channel("other")
    out = await fake.slash(carl, "game new", game="kauda_baji", channel_id=other)
    there = int(re.findall(r"game #(\d+)", texts(out))[0])
    await fake.slash(asha, "game join", channel_id=other)
    await fake.slash(carl, "game start", channel_id=other)
    waiting, _ = await open_lobby(fake, "sangram", asha)

    service = bot_of(fake).service
    store = bot_of(fake).store
    turn: dict[int, bool] = {}
    for game_id in (here, there):
        game = await service.get(game_id)
        turn[game_id] = game.seat_of(asha.id) in game.engine.waiting_on(game.state)

    out = await fake.slash(asha, "game mine")
    assert all(s.ephemeral for s in out)
    lines = texts(out).splitlines()
    assert lines[0].startswith("**Your games** (3;")
    yours = sum(turn.values())
    assert (f"your turn in {yours})" if yours else "none waits for you") in lines[0]
    by_game = {int(re.findall(r"#(\d+)", line)[0]): line for line in lines[1:]}
    assert set(by_game) == {here, there, waiting}
    for game_id in (here, there):
        line = by_game[game_id]
        board = await store.get_message(game_id, "board")
        assert board is not None
        link = f"https://discord.com/channels/{fake.guild_id}/{board[0]}/{board[1]}"
        # Issue 31: a tidy link, as /game history writes them, and the game's thread.
        assert line.endswith(f" — [board](<{link}>)"), line
        record = await store.get_game(game_id)
        assert record is not None and board[0] == record.thread_id
        assert f" in <#{record.thread_id}>" in line
        assert ("your turn" in line) == turn[game_id], line
        if not turn[game_id]:
            assert "waiting for **" in line
    lobby_message = await store.get_message(waiting, "lobby")
    assert lobby_message is not None and "lobby" in by_game[waiting]
    assert by_game[waiting].endswith(f"/{lobby_message[1]}>)")
    assert "[lobby](<https://" in by_game[waiting]
    # No raw URL anywhere: every link is inside [text](<...>).
    assert all(" https://" not in line for line in lines)
    # Games whose turn it is come first.
    order = [int(re.findall(r"#(\d+)", line)[0]) for line in lines[1:]]
    assert order[-1] == waiting
    if yours == 1:
        assert turn[order[0]]

    # A finished game is no longer listed.
    await resign(fake, bhima, game=here)
    lines = texts(await fake.slash(asha, "game mine")).splitlines()
    assert lines[0].startswith("**Your games** (2;")
    assert not any(f"#{here} " in line for line in lines)
