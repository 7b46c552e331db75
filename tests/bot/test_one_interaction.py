"""Issue 18 §1: one interaction per decision, through discord.py's dispatch.

The board offers the mover's whole moves (a few as buttons, more as selects
under the board), private menus are flat, and buttons or menus sent by an
older Chaupal, whose paths meant something else, play nothing.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from bot.engines.core import CHANCE
from tests.bot.driver import (
    CUSTOM_ID,
    board_picks,
    boards,
    bot_of,
    make_bot,
    open_lobby,
    play_by_buttons,
    press,
    start,
    walk_menu,
)
from tests.discord_harness import FakeDiscord, FakeUser, Sent


async def opened(
    tmp_path: Path, game: str, players: int, seed: int
) -> tuple[FakeDiscord, int, list[FakeUser]]:
    fake = await FakeDiscord.start(make_bot(tmp_path / f"{game}.sqlite3", seed))
    users = [fake.user(name) for name in ("asha", "bhima", "chitra", "dev")[:players]]
    game_id, lobby = await open_lobby(fake, game, *users)
    await start(fake, users[0], lobby)
    return fake, game_id, users


async def mover(fake: FakeDiscord, game_id: int, users: list[FakeUser]) -> FakeUser:
    game = await bot_of(fake).service.get(game_id)
    (seat,) = sorted(game.engine.to_move(game.state) - {CHANCE})[:1]
    return next(u for u in users if u.id == game.user_of(seat))


async def test_the_board_offers_every_move_of_a_public_decision(tmp_path: Path) -> None:
    """Chaturaji and Kauda Baji: the board's picks are exactly the mover's
    legal moves, by label, in the engine's order: buttons for up to five,
    selects for more; each select holds at most 25, and several say what
    they hold."""
    seen = {"buttons": 0, "selects": 0, "several": 0}
    for game_name, seed in (("chaturaji", 3), ("kauda_baji", 4)):
        fake, game_id, users = await opened(tmp_path, game_name, 2, seed)
        try:
            rng = random.Random(seed)
            for _ in range(40):
                game = await bot_of(fake).service.get(game_id)
                if game.is_over:
                    break
                (seat,) = game.engine.to_move(game.state) - {CHANCE}
                engine, state = game.engine, game.state
                labels = [
                    engine.label(state, seat, a).replace(f"{{p{seat}}}", users[seat].name)
                    for a in engine.legal_actions(state, seat)
                ]
                board = fake.current(boards(fake)[-1])
                picks = board_picks(fake, board)
                assert [label for _, _, label in picks] == [label[:100] for label in labels]
                selects = [
                    s for s in fake.selects(board) if s["custom_id"].startswith("chaupal:board:")
                ]
                if len(labels) <= 5:
                    assert not selects
                    seen["buttons"] += 1
                else:
                    assert selects and all(len(s["options"]) <= 25 for s in selects)
                    seen["selects"] += 1
                    if len(selects) > 1:
                        seen["several"] += 1
                        assert all(s["placeholder"].startswith("Choose: ") for s in selects)
                for custom_id, _, _ in picks:
                    assert CUSTOM_ID.match(custom_id), custom_id
                user = users[seat]
                out = await press(fake, user, board, rng.choice(picks))
                played = [s for s in out if (s.content or "").startswith("Played:")]
                assert played and played[0].ephemeral, out  # one pick, answered privately
                # The pick never edits the board it was made on.
                assert not any(
                    s.route.startswith("edit") and s.message_id == board.message_id for s in out
                )
        finally:
            await fake.close()
    assert seen["buttons"] and seen["selects"], seen


async def test_an_old_board_select_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    fake, game_id, users = await opened(tmp_path, "chaturaji", 2, 3)
    try:
        rng = random.Random(1)
        for _ in range(6):
            board = fake.current(boards(fake)[-1])
            if any(v is not None for _, v, _ in board_picks(fake, board)):
                break
            await play_by_buttons(fake, await mover(fake, game_id, users), rng)
        old = fake.current(boards(fake)[-1])
        custom_id, value, _ = next(p for p in board_picks(fake, old) if p[1] is not None)
        seen: dict[str, Any] = copy.deepcopy(fake.world.messages[old.message_id or 0])
        user = await mover(fake, game_id, users)
        await play_by_buttons(fake, user, rng)
        service = bot_of(fake).service
        before = (await service.get(game_id)).version
        out = await fake._component_interaction(
            user,
            seen,
            {"custom_id": custom_id, "component_type": 3, "values": [value]},
            expect_error=False,
            expect_ack=True,
        )
        assert any("out of date" in (s.content or "") for s in out), out
        assert (await service.get(game_id)).version == before
    finally:
        await fake.close()


def _as_sent_by_an_older_chaupal(
    message: dict[str, Any], component: dict[str, Any]
) -> dict[str, Any]:
    old = copy.deepcopy(message)
    old["components"] = [{"type": 1, "components": [component]}]
    return old


async def test_buttons_and_menus_of_an_older_chaupal_play_nothing(tmp_path: Path) -> None:
    """Before menus were flat, ``chaupal:pick:<game>:<version>:0`` meant the
    first *group* (a die); read today it would be the first *move*.  Such
    ids, from boards and DMs sent before the upgrade, play nothing, say so,
    and offer the current choices."""
    fake, game_id, users = await opened(tmp_path, "chaturaji", 2, 3)
    try:
        service = bot_of(fake).service
        game = await service.get(game_id)
        version = game.version
        user = await mover(fake, game_id, users)
        board = fake.current(boards(fake)[-1])
        raw = fake.world.messages[board.message_id or 0]
        old_board = _as_sent_by_an_older_chaupal(
            raw,
            {
                "type": 2,
                "style": 1,
                "label": "f2",
                "custom_id": f"chaupal:pick:{game_id}:{version}:0",
            },
        )
        out = await fake._component_interaction(
            user,
            old_board,
            {"custom_id": f"chaupal:pick:{game_id}:{version}:0", "component_type": 2},
            expect_error=False,
            expect_ack=True,
        )
        reply = next(s for s in out if s.content)
        assert "older version of Chaupal" in (reply.content or "") and reply.ephemeral
        assert reply.message_id and any(
            s["custom_id"].startswith(f"chaupal:choose:{game_id}:{version}:")
            for s in fake.selects(reply.message_id)
        )
        assert (await service.get(game_id)).version == version
        # An old private menu: the same, and its message becomes a fresh menu.
        menu = reply.message_id
        old_menu = _as_sent_by_an_older_chaupal(
            fake.world.messages[menu],
            {
                "type": 3,
                "custom_id": f"chaupal:menu:{game_id}:{version}::0",
                "options": [{"label": "f2", "value": "0"}],
                "min_values": 1,
                "max_values": 1,
            },
        )
        out = await fake._component_interaction(
            user,
            old_menu,
            {
                "custom_id": f"chaupal:menu:{game_id}:{version}::0",
                "component_type": 3,
                "values": ["0"],
            },
            expect_error=False,
            expect_ack=True,
        )
        texts = " ".join(s.content or "" for s in out)
        assert "older version of Chaupal" in texts and "Played" not in texts
        assert (await service.get(game_id)).version == version
        # A stranger pressing an old board button is told nothing about the game's choices.
        stranger = fake.user("esha")
        out = await fake._component_interaction(
            stranger,
            old_board,
            {"custom_id": f"chaupal:pick:{game_id}:{version}:0", "component_type": 2},
            expect_error=False,
            expect_ack=True,
        )
        replies = [s for s in out if s.content]
        assert replies and all(not fake.selects(s.message_id or 0) for s in replies if s.message_id)
    finally:
        await fake.close()


def _picked_labels(fake: FakeDiscord, message: Sent) -> list[str]:
    return [o["label"] for s in fake.selects(message) for o in s["options"]]


async def test_a_private_menu_is_flat(tmp_path: Path) -> None:
    """Mahabharata: the DM (or "Show mine") menu holds whole placements,
    every legal one, in up to four selects."""
    fake, game_id, users = await opened(tmp_path, "mahabharata", 2, 5)
    try:
        service = bot_of(fake).service
        rng = random.Random(5)
        checked = 0
        for _ in range(30):
            game = await service.get(game_id)
            if game.is_over:
                break
            movers = sorted(game.engine.to_move(game.state) - {CHANCE})
            user = next(u for u in users if u.id == game.user_of(movers[0]))
            board = fake.current(boards(fake)[-1])
            out = await fake.click(user, board, f"chaupal:mine:{game_id}")
            menu = next((s for s in out if s.message_id and fake.selects(s.message_id)), None)
            assert menu is not None, out
            seat = movers[0]
            engine, state = game.engine, game.state
            actions = engine.legal_actions(state, seat)
            current = fake.current(menu.message_id or 0)
            if len(actions) <= 100:  # else grouped by die first (tests/bot/test_choices.py)
                labels = [engine.label(state, seat, a)[:100] for a in actions]
                assert _picked_labels(fake, current) == labels
                assert len(fake.selects(current)) <= 4
                checked += 1
            await walk_menu(fake, user, out, rng)
        assert checked >= 10, checked
    finally:
        await fake.close()
