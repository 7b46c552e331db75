"""Crashes at the worst moments (hardening items 2 and 3).

- Starting a game is one transaction, and a game found with chance to move
  (the old start, split in two, could leave one) settles it as it loads.
- A move saved but never posted (a crash before delivery, or a failed post)
  is delivered at start-up or on the retry, exactly once.
"""

from __future__ import annotations

import random
from pathlib import Path

import discord
import pytest

from bot.engines.core import CHANCE, progress_seat
from bot.service import GameService
from storage.errors import StorageError
from storage.games import GameStore
from storage.opening import open_database
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, start
from tests.bot.test_service import PLAYERS, Seeded
from tests.discord_harness import FakeDiscord


async def test_a_failed_start_leaves_the_lobby_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await open_database(tmp_path / "g.sqlite3")
    store = GameStore(db)
    service = GameService(store, draw=Seeded(1))
    game = await service.new_game("sangram", creator=PLAYERS[0], guild_id=1, channel_id=10)
    await service.join(game.id, PLAYERS[1])

    async def broken_commit(*args: object, **kwargs: object) -> None:
        raise StorageError("the disk is full")

    monkeypatch.setattr(store, "commit", broken_commit)
    with pytest.raises(StorageError):
        await service.start(game.id, PLAYERS[0].user_id, moderator=False)
    monkeypatch.undo()
    record = await store.get_game(game.id)
    assert record is not None and record.status == "lobby" and record.version == 0
    # ... so it can simply be started again.
    result = await service.start(game.id, PLAYERS[0].user_id, moderator=False)
    assert result.game.record.status == "active" and result.version > 0
    await db.close()


@pytest.mark.parametrize("engine", ["mahabharata", "sangram"])
async def test_a_game_left_with_chance_to_move_settles_it_on_load(
    tmp_path: Path, engine: str
) -> None:
    """What the old two-step start left behind after a crash: an active game
    at version 0 whose only mover is chance."""
    path = tmp_path / "g.sqlite3"
    db = await open_database(path)
    store = GameStore(db)
    service = GameService(store, draw=Seeded(2))
    game = await service.new_game(engine, creator=PLAYERS[0], guild_id=1, channel_id=10)
    await service.join(game.id, PLAYERS[1])
    await store.start(game.id, 0.0)  # the first half of the old start, then "kill -9"
    await db.close()

    db = await open_database(path)
    service = GameService(GameStore(db), draw=Seeded(3))
    live = await service.get(game.id)
    assert live.engine.to_move(live.state) != {CHANCE}
    assert live.version > 0
    seat = progress_seat(live.engine, live.state)
    text = service.legal_texts(live, seat)[0]
    played = await service.play(game.id, live.user_of(seat), text)
    assert played.version > live.version - 1
    await db.close()
    # The settled chance was stored: a third process sees the same game.
    db = await open_database(path)
    again = await GameService(GameStore(db), draw=Seeded(4)).get(game.id)
    assert again.version == played.version
    assert again.engine.to_json(again.state) == played.game.engine.to_json(played.game.state)
    await db.close()


async def test_a_move_saved_but_never_posted_is_delivered_at_start_up_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(path, 5))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)
    bot = bot_of(fake)
    # Both set-ups through the service directly: saved, but nothing posted
    # (as if the bot died between the transaction and the post).
    for user in (asha, bhima):
        await bot.service.play(game_id, user.id, "setup random")
    saved = (await bot.service.get(game_id)).version
    posted_before = len(boards(fake))
    fake = await fake.restart(make_bot(path, 6))
    await fake.settle()
    new = boards(fake)[posted_before:]
    assert len(new) == 1, new
    assert f"#{game_id}" in (new[0].content or "")
    game = await bot_of(fake).service.get(game_id)
    assert game.version == saved
    mover = game.user_of(next(iter(game.engine.waiting_on(game.state))))
    assert f"<@{mover}>" in (new[0].content or "")
    # A second restart finds nothing behind: nothing is posted twice.
    fake = await fake.restart(make_bot(path, 7))
    await fake.settle()
    assert len(boards(fake)) == posted_before + 1
    await fake.close()


async def test_a_failed_post_is_retried_and_delivered_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 5))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, "mahabharata", asha, bhima)
    await start(fake, asha, lobby)
    bot = bot_of(fake)
    game = await bot.service.get(game_id)
    seat = progress_seat(game.engine, game.state)
    text = random.Random(1).choice(bot.service.legal_texts(game, seat))
    result = await bot.service.play(game_id, game.user_of(seat), text)

    real_send = discord.PartialMessageable.send
    failures = 0

    async def flaky_send(
        self: discord.PartialMessageable, *args: object, **kwargs: object
    ) -> object:
        nonlocal failures
        if failures == 0:
            failures += 1
            raise discord.HTTPException(_Response(503), "Service Unavailable")
        return await real_send(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(discord.PartialMessageable, "send", flaky_send)
    posted = len(boards(fake))
    assert not await bot.delivery.catch_up(game_id, actor=result.actor)
    assert len(boards(fake)) == posted
    assert game_id in bot.delivery._retries, "no retry was scheduled"
    # The retry (run now rather than after its delay) delivers the board once.
    bot.delivery._retries.pop(game_id).cancel()
    assert await bot.delivery.catch_up(game_id)
    assert await bot.delivery.catch_up(game_id)
    assert len(boards(fake)) == posted + 1
    await fake.close()


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "unavailable"


async def test_a_read_only_database_gets_a_specific_reply_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """Hardening item 7, end to end: the player is told what is wrong with
    the bot's storage, not "Something went wrong"."""
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 5))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)
    bot = bot_of(fake)
    version = (await bot.service.get(game_id)).version
    await bot.db.conn.execute("PRAGMA query_only = ON")
    out = await fake.slash(asha, "game play", action="setup random")
    replies = [s.content or "" for s in out if s.ephemeral and s.content]
    assert any("read-only" in r and "nothing was changed" in r for r in replies), replies
    await bot.db.conn.execute("PRAGMA query_only = OFF")
    bot.service.forget(game_id)
    assert (await bot.service.get(game_id)).version == version
    await fake.close()


async def test_a_reveal_is_a_new_board_even_for_the_last_to_commit(tmp_path: Path) -> None:
    """Item 8's other half: commits edit the board in place, but the end of
    a simultaneous phase (here Artaban's set-ups are revealed) is news, even
    when the player who committed last is the first to move after it."""
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 5))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)
    posted = len(boards(fake))
    for user in (bhima, asha):  # seat 1 first; seat 0 last, and it moves first
        await fake.slash(user, "game play", action="setup 3 4 5 2 6 1 4 3 leader c")
        await fake.slash(user, "game play", action="commit")
        if user is bhima:
            assert len(boards(fake)) == posted, "a first commit edits the board"
            assert any(s.route == "channel.edit" for s in fake.sent[-6:])
    game = await bot_of(fake).service.get(game_id)
    assert game.engine.waiting_on(game.state) == {0}
    assert len(boards(fake)) == posted + 1, "the reveal is a new board"
    await fake.close()
