"""A whole Mahabharata game through discord.py's real interaction dispatch.

Slash commands, button clicks and select menus are built from gateway
payloads (``tests/discord_harness.py``); HTTP is recorded, never sent.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engines.core import CHANCE
from tests.bot import driver
from tests.bot.driver import (
    CUSTOM_ID,
    PNG_MAGIC,
    board_picks,
    boards,
    bot_of,
    make_bot,
    movers,
    play_by_buttons,
    play_by_command,
    press,
    resign,
)
from tests.discord_harness import FakeDiscord, FakeUser, Sent

TOKEN_WORDS = ("chariot", "elephant", "cavalry", "infantry", "cav1", "cav2", "cav3", "inf1", "inf5")


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    harness = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 11))
    yield harness
    await harness.close()


async def open_lobby(fake: FakeDiscord, creator: FakeUser, *joiners: FakeUser) -> tuple[int, Sent]:
    return await driver.open_lobby(fake, "mahabharata", creator, *joiners)


async def mover(fake: FakeDiscord, game_id: int, users: dict[int, FakeUser]) -> FakeUser | None:
    who = await movers(fake, game_id, users)
    return who[0] if who else None


async def test_full_game_through_dispatch(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.DEBUG, logger="storage")
    db_path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(db_path, 11))
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    dev = fake.user("dev")  # not seated
    users = {u.id: u for u in (asha, bhima, chitra)}
    fake.block_dms(chitra)

    game_id, lobby = await open_lobby(fake, asha, bhima, chitra)
    start = fake.find_button(lobby, label="Start")["custom_id"]
    refused = await fake.click(bhima, lobby, start)
    assert any("Only the player who opened" in (s.content or "") and s.ephemeral for s in refused)
    await fake.click(asha, lobby, start)
    assert "has started" in (fake.current(lobby).content or "")

    # The first board and the private screens.
    first = boards(fake)[-1]
    assert first.files[0][1].startswith(PNG_MAGIC)
    for user in (asha, bhima):
        dm = [s for s in fake.dms(user) if s.files]
        assert dm and dm[-1].files[0][1].startswith(PNG_MAGIC)
    fallback = [s for s in fake.channel_posts() if "can't DM you" in (s.content or "")]
    assert len(fallback) == 1 and chitra.mention in (fallback[0].content or "")
    shown = await fake.click(chitra, first, fake.find_button(first, label="Show mine")["custom_id"])
    private = [s for s in shown if s.files]
    assert private and private[-1].ephemeral and private[-1].files[0][1].startswith(PNG_MAGIC)

    # The first draft pick is public, and shown flat on the board (issue
    # 18): every placement of every die is an option of a board select, one
    # interaction to play, split by die ("Choose: Die 1 (Chariot) … ").
    on_turn = await mover(fake, game_id, users)
    assert on_turn is not None
    game = await bot_of(fake).service.get(game_id)
    texts = bot_of(fake).service.legal_texts(game, game.seat_of(on_turn.id))
    picks = board_picks(fake, first)
    assert len(picks) == len(texts) <= 100, ([p[2] for p in picks], texts)
    assert all(label.startswith("Die ") for _, _, label in picks), picks
    board_selects = fake.selects(first)
    assert board_selects and all(s["custom_id"].startswith("chaupal:board:") for s in board_selects)
    if len(board_selects) > 1:
        assert all(s["placeholder"].startswith("Choose: Die ") for s in board_selects)

    # Someone who is not playing, and a player out of turn, are refused.
    pick = picks[0]
    out = await press(fake, dev, first, pick)
    assert any("not playing" in (s.content or "") and s.ephemeral for s in out)
    idle = next(u for u in users.values() if u != on_turn)
    version = (await bot_of(fake).service.get(game_id)).version
    out = await press(fake, idle, first, pick)
    assert any("not your turn" in (s.content or "").lower() and s.ephemeral for s in out)
    assert (await bot_of(fake).service.get(game_id)).version == version

    # A menu opened before a move is refused once its choice is gone (the
    # die was taken, or the turn passed), and nothing changes.
    out = await fake.slash(on_turn, "game hand")
    stale_menu = next(s for s in out if fake.selects(s.message_id or 0))
    assert stale_menu.ephemeral
    await play_by_command(fake, on_turn, random.Random(1))
    version = (await bot_of(fake).service.get(game_id)).version
    game = await bot_of(fake).service.get(game_id)
    still_mine = game.seat_of(on_turn.id) in game.engine.to_move(game.state)
    select = fake.selects(stale_menu.message_id or 0)[0]
    assert select["custom_id"].startswith("chaupal:choose:"), select["custom_id"]
    picked = select["options"][0]["value"]
    out = await fake.select(on_turn, stale_menu.message_id or 0, select["custom_id"], [picked])
    if not still_mine:
        assert any("not your turn" in (s.content or "").lower() for s in out), out
        assert (await bot_of(fake).service.get(game_id)).version == version
        # The board drawn before the move no longer offers its choices.
        assert not board_picks(fake, fake.current(first))

    rng = random.Random(4)
    moves = 1
    restarted = False
    while (user := await mover(fake, game_id, users)) is not None:
        if moves == 20 and not restarted:
            # A restart: a new bot object on the same database; old buttons still work.
            fake = await fake.restart(make_bot(db_path, 12))
            restarted = True
        game = await bot_of(fake).service.get(game_id)
        if user.id not in [game.user_of(s) for s in game.engine.waiting_on(game.state)]:
            # A private decision (announce or pass): made from the DM or /game hand menu.
            out = await fake.slash(user, "game hand")
            menu = next(s for s in out if fake.selects(s.message_id or 0))
            select = fake.selects(menu.message_id or 0)[0]
            await fake.select(
                user, menu.message_id or 0, select["custom_id"], [select["options"][0]["value"]]
            )
        elif moves % 2:
            await play_by_buttons(fake, user, rng)
        else:
            await play_by_command(fake, user, rng)
        moves += 1
        assert moves < 200, "the game did not end"
    assert restarted

    final = boards(fake)[-1]
    assert "is over" in (final.content or "")
    assert [b["label"] for b in fake.buttons(final)] == ["Rematch", "Replay"]
    game = await bot_of(fake).service.get(game_id)
    assert game.record.status == "finished" and game.outcome is not None

    # Nothing secret in the channel, in any custom_id or in our log lines.
    for sent in fake.sent:
        for item in [*fake.buttons(sent), *fake.selects(sent)] if sent.message_id else []:
            assert CUSTOM_ID.match(item["custom_id"]), item["custom_id"]
        if sent.route.startswith("channel.") and sent.content:
            for line in sent.content.splitlines():
                if "screen" in line.lower():
                    assert not any(w in line.lower() for w in TOKEN_WORDS), line
        if sent.route.startswith("channel.") or not sent.ephemeral:
            if sent.route.startswith("dm."):
                continue
            for name, _ in sent.files:
                assert "private" not in name, f"a private image went to {sent.route}"
    for record in caplog.records:
        message = record.getMessage().lower()
        if "screen" in message:
            assert not any(w in message for w in TOKEN_WORDS), message
    await fake.close()


async def test_restart_keeps_lobby_and_board_buttons_working(tmp_path: Path) -> None:
    db_path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(db_path, 3))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, asha)
    fake = await fake.restart(make_bot(db_path, 4))
    await fake.click(bhima, lobby, fake.find_button(lobby, label="Join")["custom_id"])
    await fake.click(asha, lobby, fake.find_button(lobby, label="Start")["custom_id"])
    board = boards(fake)[-1]
    fake = await fake.restart(make_bot(db_path, 5))
    users = {asha.id: asha, bhima.id: bhima}
    user = await mover(fake, game_id, users)
    assert user is not None
    before = (await bot_of(fake).service.get(game_id)).version
    await play_by_buttons(fake, user, random.Random(2))
    assert (await bot_of(fake).service.get(game_id)).version > before
    assert boards(fake)[-1] is not board
    await fake.close()


async def test_game_commands_answer_clearly(fake: FakeDiscord) -> None:
    asha = fake.user("asha")
    out = await fake.slash(asha, "game play", action="d1 screen")
    assert any("no game of yours" in (s.content or "") for s in out)
    out = await fake.slash(asha, "game join")
    assert any("no open lobby" in (s.content or "") for s in out)
    out = await fake.slash(asha, "game rules", game="mahabharata")
    assert any("Pati" in (s.content or "") and s.ephemeral for s in out)
    game_id, _ = await open_lobby(fake, asha)
    out = await fake.slash(asha, "game start")
    assert any("at least 2 players" in (s.content or "") for s in out)
    out = await fake.slash(asha, "game list")
    assert any(f"#{game_id}" in (s.content or "") and s.ephemeral for s in out)
    out = await fake.slash(asha, "game hand")
    assert any("not started" in (s.content or "") for s in out)


async def test_resign_posts_the_final_board(fake: FakeDiscord) -> None:
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, asha, bhima)
    await fake.click(asha, lobby, fake.find_button(lobby, label="Start")["custom_id"])
    await resign(fake, bhima)
    final = boards(fake)[-1]
    assert "bhima resigned" in (final.content or "").lower().replace("*", "")
    # A finished game's board offers only a rematch (issue 18).
    assert [b["label"] for b in fake.buttons(final)] == ["Rematch", "Replay"]
    out = await fake.slash(asha, "game play", action="d1 screen", game=game_id)
    assert any("over" in (s.content or "") for s in out)


def log_reaching_announce(players: int) -> list[tuple[int, str]]:
    """An action log, from the pure engine, that ends in an announce phase:
    everyone prefers placing behind their screen, so a Pati soon completes."""
    from bot.engines import get_engine
    from bot.engines.core import sample_chance

    engine = get_engine("mahabharata")
    for seed in range(500):
        rng = random.Random(seed)
        state = engine.setup(players, {})
        entries: list[tuple[int, str]] = []
        while engine.outcome(state) is None:
            movers = engine.to_move(state)
            if movers == {CHANCE}:
                seat, action = CHANCE, sample_chance(engine.chance_outcomes(state), rng.random())
            else:
                seat = min(movers)
                if movers - engine.waiting_on(state):
                    return entries  # R10: a private announce decision is due
                actions = engine.legal_actions(state, seat)
                screens = [a for a in actions if engine.describe(state, seat, a).endswith("screen")]
                action = rng.choice(screens or actions)
            entries.append((seat, engine.describe(state, seat, action)))
            state = engine.apply(state, seat, action)
    raise AssertionError("no seed reached an announce phase")


async def test_announce_is_asked_privately_and_ends_the_game(fake: FakeDiscord) -> None:
    from storage.games import NewEntry

    bot = bot_of(fake)
    asha, bhima = fake.user("asha"), fake.user("bhima")
    users = [asha, bhima]
    record = await bot.store.create_game(
        engine="mahabharata",
        engine_revision=1,
        options={},
        guild_id=fake.guild_id,
        channel_id=fake.channel_id,
        thread_id=None,
        creator_id=asha.id,
        now=0.0,
    )
    for user in users:
        await bot.store.add_seat(record.id, user.id, user.name, 0.0)
    await bot.store.start(record.id, 0.0)
    entries = log_reaching_announce(2)
    await bot.store.append(
        record.id,
        expected_version=0,
        now=0.0,
        entries=[NewEntry(actor=s, action=t, narration="", private_to=None) for s, t in entries],
    )
    game = await bot.service.get(record.id)
    deciding = sorted(game.engine.to_move(game.state))
    assert deciding and not game.engine.waiting_on(game.state)

    # The channel is not told who decides.
    await fake.slash(asha, "game board")
    board = boards(fake)[-1]
    assert "private decisions" in (board.content or "")
    assert not any(u.mention in (board.content or "") for u in users)
    assert not [b for b in fake.buttons(board) if b.get("label", "").startswith("Announce")]

    decider = users[deciding[0]]
    outsider = next((u for u in users if users.index(u) not in deciding), None)
    if outsider is not None:
        out = await fake.slash(outsider, "game play", action="announce")
        refusal = " ".join(s.content or "" for s in out)
        assert "not your turn" in refusal.lower() and decider.name not in refusal

    out = await fake.slash(decider, "game hand")
    menu = next(s for s in out if fake.selects(s.message_id or 0))
    assert menu.ephemeral
    select = fake.selects(menu.message_id or 0)[0]
    announce = next(o for o in select["options"] if o["label"].startswith("Announce"))
    await fake.select(decider, menu.message_id or 0, select["custom_id"], [announce["value"]])
    game = await bot.service.get(record.id)
    if game.is_over:
        final = boards(fake)[-1]
        assert "Pati" in (final.content or "") and "is over" in (final.content or "")
    else:  # the other player still decides; their answer ends it
        other = users[next(s for s in deciding if users[s] != decider)]
        await fake.slash(other, "game play", action="pass")
        assert (await bot.service.get(record.id)).is_over


async def test_stale_menu_offers_the_current_choices(fake: FakeDiscord) -> None:
    """R7: the last in the snake picks twice in a row, so a menu opened before
    the first of those picks is stale yet its owner can still act."""
    asha, bhima = fake.user("asha"), fake.user("bhima")
    users = {asha.id: asha, bhima.id: bhima}
    game_id, lobby = await open_lobby(fake, asha, bhima)
    await fake.click(asha, lobby, fake.find_button(lobby, label="Start")["custom_id"])
    bot = bot_of(fake)
    rng = random.Random(6)
    for _ in range(40):
        game = await bot.service.get(game_id)
        view = game.engine.view(game.state, None)
        order, done = view.draft_order, view.picks_made
        if done + 1 < len(order) and order[done] == order[done + 1]:
            break
        user = await mover(fake, game_id, users)
        assert user is not None
        await play_by_command(fake, user, rng)
    else:
        raise AssertionError("never reached a double pick")
    user = users[game.user_of(order[done])]
    # The board's choices are whole placements (issue 18), so a menu that can
    # go stale is a private one: the player's own, from /game hand.
    out = await fake.slash(user, "game hand")
    menu = next(s for s in out if fake.selects(s.message_id or 0))
    assert menu.ephemeral
    version = (await bot.service.get(game_id)).version
    # The first of the two picks takes the die the menu offers first.
    game = await bot.service.get(game_id)
    texts = bot.service.legal_texts(game, order[done])
    select = fake.selects(menu.message_id or 0)[0]
    assert select["custom_id"].startswith("chaupal:choose:"), select["custom_id"]
    offered = select["options"][0]["label"]
    first_die = texts[0]
    await fake.slash(user, "game play", action=first_die)
    assert (await bot.service.get(game_id)).version == version + 1
    await fake.select(
        user, menu.message_id or 0, select["custom_id"], [select["options"][0]["value"]]
    )
    assert (await bot.service.get(game_id)).version == version + 1, "the stale pick was played"
    refreshed = fake.current(menu.message_id or 0)
    assert "no longer on offer" in (refreshed.content or "")
    assert "choices now" in (refreshed.content or "")
    # The refreshed menu offers the current choices, drawn at the new version:
    # the die just taken is gone from it, and every remaining placement is in it.
    fresh = fake.selects(menu.message_id or 0)
    assert fresh and fresh[0]["custom_id"] != select["custom_id"]
    assert all(f["custom_id"].startswith("chaupal:choose:") for f in fresh)
    game = await bot.service.get(game_id)
    now = bot.service.legal_texts(game, order[done])
    labels = [o["label"] for f in fresh for o in f["options"]]
    assert offered not in labels
    if len(now) <= 100:  # flat: one option per placement
        assert len(labels) == len(now), (labels, now)
    # One pick in the refreshed menu plays (a level of groups needs one more).
    for _ in range(2):
        selects = fake.selects(menu.message_id or 0)
        if not selects:
            break
        await fake.select(
            user, menu.message_id or 0, selects[0]["custom_id"], [selects[0]["options"][0]["value"]]
        )
    assert "Played:" in (fake.current(menu.message_id or 0).content or "")
    assert (await bot.service.get(game_id)).version > version + 1


def test_announce_decision_is_prompted_by_dm_only() -> None:
    from bot.edge.delivery.texts import asked_privately
    from bot.engines import get_engine
    from bot.engines.core import CHANCE
    from bot.service import LiveGame
    from storage.games import GameRecord, SeatRecord

    engine = get_engine("mahabharata")
    entries = log_reaching_announce(2)
    state = engine.setup(2, {})
    opening = None
    for seat, text in entries:
        state = engine.apply(state, seat, engine.parse(state, seat, text))
        if opening is None and engine.to_move(state) != {CHANCE}:
            opening = state
    record = GameRecord(
        id=1,
        engine="mahabharata",
        engine_revision=1,
        options={},
        status="active",
        version=len(entries),
        guild_id=1,
        channel_id=2,
        thread_id=None,
        creator_id=10,
        created_at=0.0,
        updated_at=0.0,
        outcome=None,
    )
    seats = [SeatRecord(1, s, 10 + s, f"p{s}") for s in range(2)]
    game = LiveGame(record=record, seats=seats, engine=engine, state=state)
    deciders = engine.to_move(state)
    assert deciders and not engine.waiting_on(state)
    assert {s for s in range(2) if asked_privately(game, s)} == set(deciders)
    # The first draft turn, with every supply full, is announced in the
    # channel with buttons (public choices), not by DM.
    assert opening is not None
    game.state = opening
    assert {s for s in range(2) if asked_privately(game, s)} == set()


async def test_out_of_order_publishing_keeps_the_newest_board_and_every_dm(
    fake: FakeDiscord,
) -> None:
    """Two quick moves whose deliveries finish out of order: the older one
    posts no board over the newer, and its private views still go out."""
    asha, bhima = fake.user("asha"), fake.user("bhima")
    users = {asha.id: asha, bhima.id: bhima}
    game_id, lobby = await open_lobby(fake, asha, bhima)
    await fake.click(asha, lobby, fake.find_button(lobby, label="Start")["custom_id"])
    bot = bot_of(fake)
    results = []
    for _ in range(2):
        game = await bot.service.get(game_id)
        seat = min(game.engine.to_move(game.state))
        text = next(t for t in bot.service.legal_texts(game, seat) if t.endswith("screen"))
        results.append(await bot.service.play(game_id, game.user_of(seat), text))
    older, newer = results
    assert older.version < newer.version
    sent_before = len(fake.sent)
    await bot.delivery.publish(newer)
    await bot.delivery.publish(older)
    await fake.settle()
    new_boards = [s for s in fake.sent[sent_before:] if s.route == "channel.send" and s.files]
    assert len(new_boards) == 1, new_boards
    # The older mover's screen is brought up to date all the same (its
    # standing view, edited in place: issue 30).
    dms = {s.user_id for s in fake.sent[sent_before:] if s.route.startswith("dm.")}
    assert users[(await bot.service.get(game_id)).user_of(older.actor or 0)].id in dms
