"""Following a game one does not play (issue 21 §4): ``/game follow``,
``/game unfollow`` and a tournament round's **Follow**, through discord.py's
real dispatch.  The DMs go through delivery's outbox: one at the end (also
after a restart with it still owed), or one per new board with
``every_move``; a follower whose DMs are closed stops being tried and never
holds the game up; a follower of a game with secrets sees only what the
channel sees."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.edge.archive.follows import FOLLOW_BUTTONS, follow_view
from bot.edge.client import ChaupalBot
from bot.engines.core import progress_seat
from bot.outgoing import fill_seats
from tests.bot.driver import (
    PNG_MAGIC,
    assert_no_secret_ids,
    boards,
    bot_of,
    make_bot,
    open_lobby,
    start,
)
from tests.bot.driver import resign as resign_game
from tests.bot.test_discord_tournaments import Cup
from tests.discord_harness import FakeDiscord, FakeUser, Sent, _http_error
from tests.fakes import FakeClock


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    running = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 5))
    try:
        yield running
    finally:
        await running.close()


async def running_game(
    fake: FakeDiscord, game: str, players: list[FakeUser], options: str | None = None
) -> int:
    game_id, lobby = await open_lobby(fake, game, players[0], *players[1:], options=options)
    await start(fake, players[0], lobby)
    return game_id


def said(out: list[Sent]) -> str:
    found = [s for s in out if s.ephemeral and s.content]
    assert found, out
    return found[-1].content or ""


async def step(bot: ChaupalBot, game_id: int, rng: random.Random) -> bool:
    """One player's move (chance follows by itself), delivered as after a
    click; False once the game is over."""
    game = await bot.service.get(game_id)
    if game.is_over:
        return False
    engine, state = game.engine, game.state
    seat = progress_seat(engine, state)
    action = rng.choice(engine.legal_actions(state, seat))
    await bot.service.play(game_id, game.user_of(seat), engine.describe(state, seat, action))
    assert await bot.delivery.catch_up(game_id)
    return True


def assert_pings_nobody(dms: list[Sent]) -> None:
    for dm in dms:
        assert "<@" not in (dm.content or ""), dm.content
        allowed = dm.raw.get("allowed_mentions") or {}
        assert not allowed.get("parse") and not allowed.get("users"), dm


async def test_follow_and_unfollow_say_what_they_do(fake: FakeDiscord) -> None:
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    game_id = await running_game(fake, "artaban", [asha, bhima])
    assert "You follow" in said(await fake.slash(chitra, "game follow", game=game_id))
    assert "already follow" in said(await fake.slash(chitra, "game follow", game=game_id))
    text = said(await fake.slash(chitra, "game follow", game=game_id, every_move=True))
    assert "from now on" in text and "each new board" in text
    [follower] = await bot_of(fake).followers.of_game(game_id)
    assert follower.user_id == chitra.id and follower.every_move
    assert "You play in" in said(await fake.slash(asha, "game follow", game=game_id))
    assert "no game #999" in said(await fake.slash(chitra, "game follow", game=999))
    choices = await fake.autocomplete(chitra, "game unfollow", "game")
    assert [c["value"] for c in choices] == [game_id]
    assert "no longer follow" in said(await fake.slash(chitra, "game unfollow", game=game_id))
    assert "do not follow" in said(await fake.slash(chitra, "game unfollow", game=game_id))
    await resign_game(fake, asha, game=game_id)
    assert "is over" in said(await fake.slash(chitra, "game follow", game=game_id))
    assert await bot_of(fake).followers.of_game(game_id) == []
    assert fake.dms(chitra) == []  # unfollowed before the end: nothing


async def test_one_dm_at_the_end_with_the_final_board(fake: FakeDiscord) -> None:
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    game_id = await running_game(fake, "artaban", [asha, bhima])
    await fake.slash(chitra, "game follow", game=game_id)
    await resign_game(fake, bhima, game=game_id)
    await fake.settle()
    [dm] = fake.dms(chitra)
    assert f"Artaban #{game_id} is over" in (dm.content or "")
    assert "Winner: **asha**" in (dm.content or "")
    [(_, png), (replay, gif)] = dm.files  # the final board and the replay
    assert png.startswith(PNG_MAGIC) and replay.endswith(".gif") and gif.startswith(b"GIF89a")
    final = boards(fake)[-1]
    assert [data for _, data in final.files] == [png]  # what the channel saw last
    assert not dm.components
    assert_pings_nobody([dm])
    # Catching up again sends nothing more.
    assert await bot_of(fake).delivery.catch_up(game_id)
    assert len(fake.dms(chitra)) == 1
    assert_no_secret_ids(fake)


async def test_an_owed_dm_goes_out_once_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "restarts.sqlite3"
    fake = await FakeDiscord.start(make_bot(path, 5, clock))
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    game_id = await running_game(fake, "artaban", [asha, bhima])
    await fake.slash(chitra, "game follow", game=game_id)
    bot = bot_of(fake)
    real = bot.create_dm

    async def failing(user: discord.abc.Snowflake) -> discord.DMChannel:
        if user.id == chitra.id:
            raise _http_error(500, 0, "Discord is down")
        return await real(user)

    bot.create_dm = failing  # type: ignore[method-assign]
    await resign_game(fake, bhima, game=game_id)
    await fake.settle()
    assert fake.dms(chitra) == []
    rows = await bot.store.outbox(game_id)
    assert rows["board"].over  # the final board is out
    assert rows[f"follow:{chitra.id}"].digest == "owed:end"  # the DM is not
    assert await bot.store.games_behind() == [game_id]

    # The process dies holding the game's delivery until its retry; once
    # that lease has run out, the next process's start-up takes it over.
    clock.now += 600
    fake = await fake.restart(make_bot(path, 6, clock))
    try:
        await fake.settle()
        assert len(fake.dms(chitra)) == 1
        assert (await bot_of(fake).store.outbox(game_id))[f"follow:{chitra.id}"].digest == "sent"
        fake = await fake.restart(make_bot(path, 7, clock))
        await fake.settle()
        assert await bot_of(fake).delivery.catch_up(game_id)
        assert len(fake.dms(chitra)) == 1
    finally:
        await fake.close()


async def test_every_move_one_dm_per_new_board(fake: FakeDiscord) -> None:
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    game_id = await running_game(fake, "kauda_baji", [asha, bhima], options="pieces=1")
    await fake.slash(chitra, "game follow", game=game_id, every_move=True)
    bot, rng = bot_of(fake), random.Random(2)
    posted = len(boards(fake))
    for _ in range(12):
        if not await step(bot, game_id, rng):
            break
    await fake.settle()
    new_boards = boards(fake)[posted:]
    dms = fake.dms(chitra)
    assert len(new_boards) >= 3
    assert len(dms) == len(new_boards)
    for board, dm in zip(new_boards, dms, strict=True):
        assert [data for _, data in dm.files] == [data for _, data in board.files]
    assert_pings_nobody(dms)


async def test_a_follower_with_closed_dms_is_dropped_not_waited_for(fake: FakeDiscord) -> None:
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    game_id = await running_game(fake, "kauda_baji", [asha, bhima], options="pieces=1")
    fake.block_dms(chitra)
    await fake.slash(chitra, "game follow", game=game_id, every_move=True)
    bot, rng = bot_of(fake), random.Random(4)
    assert await step(bot, game_id, rng)  # delivered, though the DM was refused
    follower = await bot.followers.get(game_id, chitra.id)
    assert follower is not None and follower.dms_closed
    before = (await bot.store.outbox(game_id)).get(f"follow:{chitra.id}")
    assert before is not None and before.digest == "dropped"
    for _ in range(4):
        await step(bot, game_id, rng)  # every one delivered: never tried again
    after = (await bot.store.outbox(game_id))[f"follow:{chitra.id}"]
    assert after == before
    assert await bot.store.games_behind() == []
    # Following again says they can be reached now.
    fake.unblock_dms(chitra)
    assert "from now on" in said(
        await fake.slash(chitra, "game follow", game=game_id, every_move=True)
    )
    await step(bot, game_id, rng)
    assert len(fake.dms(chitra)) == 1


@pytest.mark.parametrize(
    ("game", "players", "options"), [("sangram", 3, None), ("mahabharata", 2, None)]
)
async def test_a_follower_sees_only_the_public_view(
    fake: FakeDiscord, game: str, players: int, options: str | None
) -> None:
    users = [fake.user(n) for n in ("asha", "bhima", "dev")[:players]]
    chitra = fake.user("chitra")
    bot = bot_of(fake)
    drawn: dict[bytes, list[tuple[str, Any]]] = defaultdict(list)
    draw = bot.renders.png

    async def recording(engine: str, kind: str, view: Any, names: Any, lang: str = "en") -> bytes:
        data = await draw(engine, kind, view, names, lang=lang)
        drawn[data].append((kind, view))
        return data

    bot.renders.png = recording  # type: ignore[method-assign,assignment]
    game_id = await running_game(fake, game, users, options)
    await fake.slash(chitra, "game follow", game=game_id, every_move=True)
    rng = random.Random(9)
    for _ in range(40):
        if not await step(bot, game_id, rng):
            break
    await fake.settle()
    dms = fake.dms(chitra)
    assert len(dms) >= 3
    live = await bot.service.get(game_id)
    public_lines = {fill_seats(e.narration, live) for e in await bot.store.log(game_id)}
    # The players were sent secrets (a hand, a screen): there was something to keep.
    assert any(
        kind == "private" and view.me is not None for made in drawn.values() for kind, view in made
    )
    for dm in dms:
        assert not dm.components  # never a seat's menu
        # The replay (at the end) is checked in tests/bot/test_discord_replay.py.
        for _, data in [f for f in dm.files if not f[0].endswith(".gif")]:
            # Only ever drawn as the public board, from a view without `me`.
            assert drawn[data], "a DM image that was never drawn here"
            assert all(kind == "board" and view.me is None for kind, view in drawn[data])
        lines = (dm.content or "").splitlines()
        # The lead, the narration, who acts next or the result, the link.
        for line in lines[1:-2]:
            assert line in public_lines or line == "…", line
    assert_pings_nobody(dms)


async def test_tournament_round_offers_follow_per_table(tmp_path: Path) -> None:
    cup = await Cup(tmp_path / "cup.sqlite3", 5).open(4)
    try:
        _tid, announcement = await cup.new("artaban", "swiss", rounds=1)
        await cup.join_everyone(announcement)
        await cup.start()
        fake = cup.fake
        first, _second = await cup.tables(1)
        [round_post] = [s for s in fake.channel_posts() if "round 1 of" in (s.content or "")]
        labels = [b["label"] for b in fake.buttons(round_post)]
        assert labels == ["Follow Table 1", "Follow Table 2"]
        watcher = fake.user("watcher")
        follow = fake.find_button(round_post, label="Follow Table 1")["custom_id"]
        assert "You follow" in said(await fake.click(watcher, round_post, follow))
        player = cup.by_id[first.seats[0]]
        assert "You play in" in said(await fake.click(player, round_post, follow))
        out = await fake.slash(watcher, "tournament pairings")
        pairings = [s for s in out if s.ephemeral and s.components][-1]
        assert [b["label"] for b in fake.buttons(pairings)] == labels
        await resign_game(fake, cup.by_id[first.seats[1]], game=first.game_id)
        await fake.settle()
        [dm] = fake.dms(watcher)
        assert f"#{first.game_id} is over" in (dm.content or "")
        assert_no_secret_ids(fake)
    finally:
        await cup.fake.close()


def test_many_tables_follow_by_menu_within_discords_limits() -> None:
    few = follow_view([(i, f"Table {i}") for i in range(1, FOLLOW_BUTTONS + 1)])
    assert few is not None and len(few.children) == FOLLOW_BUTTONS
    rows = [getattr(item, "item", item).row or 0 for item in few.children]
    assert sorted(rows) == [r for r in range(4) for _ in range(5)]
    many = follow_view([(100 + i, f"Table {i}") for i in range(1, 131)])
    assert many is not None
    inner = [getattr(item, "item", item) for item in many.children]
    selects = [item for item in inner if isinstance(item, discord.ui.Select)]
    assert len(selects) == 4  # the fifth row stays free
    assert all(len(s.options) <= 25 for s in selects)
    assert len({s.custom_id for s in selects}) == 4
    assert all(len(s.custom_id) <= 100 and len(s.placeholder or "") <= 150 for s in selects)
    assert follow_view([]) is None
