"""A whole Artaban game through discord.py's real interaction dispatch:
set-up by menus and by a typed line, moves picked on the board (one
interaction each) and by ``/game play``, a capture, a declined draw offer
and a restart mid-game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import CHANCE
from tests.bot.driver import (
    PNG_MAGIC,
    BoardPick,
    assert_no_secret_ids,
    board_picks,
    boards,
    bot_of,
    make_bot,
    movers,
    open_lobby,
    play_by_command,
    press,
    resign,
    start,
)
from tests.discord_harness import FakeDiscord, FakeUser, Sent

TYPED_SETUP = "setup 3 4 5 2 6 1 4 3 leader c"  # R7: tops sum to 28


def board_pick(fake: FakeDiscord, board: Sent, label: str) -> BoardPick:
    """The board's choice labelled ``label``: a button, or an option of a
    board select (issue 18: every move is one interaction on the board)."""
    picks = board_picks(fake, board)
    found = [p for p in picks if p[2] == label]
    assert len(found) == 1, f"no single {label!r} among {[p[2] for p in picks]}"
    return found[0]


def menu_of(fake: FakeDiscord, out: list[Sent]) -> Sent:
    return next(s for s in reversed(out) if s.message_id and fake.selects(s.message_id))


async def play_from_board(
    fake: FakeDiscord, user: FakeUser, texts: list[str], rng: random.Random
) -> None:
    """Issue 18: the board offers every legal move at once (a move a button
    or an option of a select, the selects split by the die they move), so
    one pick on the public board plays a move, with no menu in between."""
    board = fake.current(boards(fake)[-1])
    picks = board_picks(fake, board)
    assert len(picks) == len(texts), ([p[2] for p in picks], texts)
    assert "Choose…" not in [p[2] for p in picks]
    for select in fake.selects(board):
        assert select["custom_id"].startswith("chaupal:board:"), select["custom_id"]
        assert 0 < len(select["options"]) <= 25
        assert select["placeholder"].startswith("Choose"), select["placeholder"]
    out = await press(fake, user, board, rng.choice(picks))
    assert any((s.content or "").startswith("Played:") and s.ephemeral for s in out), out


async def set_up_by_menus(fake: FakeDiscord, user: FakeUser, rng: random.Random) -> None:
    """R7 by select menus: the "Choose…" button, then each next step is
    offered in the same ephemeral message until the set-up is committed."""
    board = boards(fake)[-1]
    out = await fake.click(user, board, fake.find_button(board, label="Choose…")["custom_id"])
    message = menu_of(fake, out).message_id or 0
    for _ in range(12):
        selects = fake.selects(message)
        if not selects:
            break
        options = selects[0]["options"]
        # Walk the files one by one (skip "random" and "reset"), then commit.
        steps = [o for o in options if not o["label"].startswith(("Random", "Start the set-up"))]
        choice = rng.choice(steps or options)
        await fake.select(user, message, selects[0]["custom_id"], [choice["value"]])
    text = fake.current(message).content or ""
    assert text.startswith("Played:") and "next choice" not in text, text


async def test_whole_artaban_game(tmp_path: Path) -> None:
    db_path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(db_path, 21))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    users = {asha.id: asha, bhima.id: bhima}
    game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)

    # Hidden simultaneous set-up: one by menus, one typed.
    await set_up_by_menus(fake, asha, random.Random(1))
    game = await bot_of(fake).service.get(game_id)
    assert game.engine.view(game.state, None).players[0].committed
    out = await fake.slash(bhima, "game play", action=TYPED_SETUP)
    assert any("Played:" in (s.content or "") for s in out)
    out = await fake.slash(bhima, "game play", action="commit")
    assert any("Played:" in (s.content or "") for s in out)
    # Each player got their own arrangement by DM, and nothing of it went public.
    for user in (asha, bhima):
        assert any(s.files and s.files[0][1].startswith(PNG_MAGIC) for s in fake.dms(user))
    for sent in fake.channel_posts():
        assert "setup 3 4 5" not in (sent.content or "")
        assert " set a " not in (sent.content or "")

    rng = random.Random(8)
    captured = declined = restarted = False
    moves = 0
    while who := await movers(fake, game_id, users):
        user = who[0]
        game = await bot_of(fake).service.get(game_id)
        seat = game.seat_of(user.id)
        texts = bot_of(fake).service.legal_texts(game, seat)
        if moves >= 6 and not declined and "offer-draw" in texts:
            # A draw offered from the board and declined from the board (R9):
            # each a whole move among the board's choices, one interaction.
            board = fake.current(boards(fake)[-1])
            offer = board_pick(fake, board, "Offer a draw (then make your move)")
            out = await press(fake, user, board, offer)
            assert any("Played:" in (s.content or "") for s in out), out
            # The board (edited in place: the same player is still to move) says so.
            assert "offer" in (fake.current(boards(fake)[-1]).content or "").lower()
            other = next(u for u in users.values() if u != user)
            # The offer does not use the offerer's move: they still move first.
            await play_by_command(fake, user, rng)
            board = fake.current(boards(fake)[-1])
            decline = board_pick(fake, board, "Decline the draw (then make your move)")
            out = await press(fake, other, board, decline)
            assert any("Played:" in (s.content or "") for s in out), out
            declined = True
            moves += 1
            continue
        if moves >= 30 and not restarted:
            fake = await fake.restart(make_bot(db_path, 22))
            restarted = True
        captures = [t for t in texts if "x" in t]
        if captures and not captured:
            out = await fake.slash(user, "game play", action=captures[0])
            assert any("Played:" in (s.content or "") for s in out)
            captured = True
        elif moves % 2:
            await play_from_board(fake, user, texts, rng)
        else:
            await play_by_command(fake, user, rng)
        moves += 1
        assert moves < 600, "the game did not end"

    game = await bot_of(fake).service.get(game_id)
    assert game.record.status == "finished" and game.outcome is not None
    assert captured and declined and restarted
    log = [e.action for e in await bot_of(fake).store.log(game_id)]
    assert any("x" in a and a[0] in "abcdefgh" for a in log)
    assert "decline-draw" in log
    assert "is over" in (boards(fake)[-1].content or "")
    assert_no_secret_ids(fake)
    await fake.close()


async def test_setup_stays_hidden_until_both_commit(tmp_path: Path) -> None:
    fake = await FakeDiscord.start(make_bot(tmp_path / "c.sqlite3", 3))
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)
    await fake.slash(asha, "game play", action=TYPED_SETUP)
    await fake.slash(asha, "game play", action="commit")
    bot = bot_of(fake)
    game = await bot.service.get(game_id)
    public = game.engine.view(game.state, None)
    assert public == game.engine.view(game.engine.from_json(game.engine.to_json(game.state)), None)
    assert CHANCE not in game.engine.to_move(game.state)
    # Bhima, still arranging, cannot see Asha's dice; the stored log hides them too.
    hidden = [e for e in await bot.store.log(game_id) if e.actor == 0]
    assert hidden and all(e.private_to == 0 for e in hidden)
    out = await fake.slash(bhima, "game hand")
    assert any(s.files and s.ephemeral for s in out)
    await fake.close()


async def test_a_game_resigned_before_any_move_is_not_rated(tmp_path: Path) -> None:
    """Issue 31: a game resigned during the secret set-up, before anyone made
    a move, is not rated.  A move is an entry of a seat that is no table
    event (``@left``, ``@timeout``…); a set-up is a seat's own decision, so a
    game resigned after one is rated."""
    fake = await FakeDiscord.start(make_bot(tmp_path / "rated.sqlite3", 8))
    try:
        asha, bhima = fake.user("asha"), fake.user("bhima")
        service = bot_of(fake).service
        game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
        await start(fake, asha, lobby)
        assert (await service.get(game_id)).table.rated
        out = await resign(fake, asha, game_id)
        assert any("is over" in (s.content or "") for s in out), out
        assert not await service.ratings.is_rated(game_id)
        for user in (asha, bhima):
            said = await fake.slash(user, "rating")
            assert any("no rating" in (s.content or "") for s in said), said

        played_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
        await start(fake, asha, lobby)
        await fake.slash(bhima, "game play", game=played_id, action=TYPED_SETUP)
        await resign(fake, asha, played_id)
        assert (await service.get(played_id)).is_over
        assert await service.ratings.is_rated(played_id)
        said = await fake.slash(bhima, "rating")
        assert any("Artaban" in (s.content or "") for s in said), said
    finally:
        await fake.close()


async def test_the_set_up_image_names_what_the_menu_offers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31: the set-up image said "Type 'set a 1'" beside a menu whose
    options read "File a: top value 1".  Its hint now names the menu's
    own options, at every step of a set-up made by menus."""
    import bot.rendering as rendering
    from renderers.common import record_text

    hints: list[str] = []
    real = rendering.render_png

    def recording(engine: str, kind: str, view: Any, names: Any, lang: str = "en") -> bytes:
        with record_text() as records:
            data = real(engine, kind, view, names, lang)
        if kind == "private":
            hints.append(" ".join(r.text for r in records))
        return data

    monkeypatch.setattr(rendering, "render_png", recording)
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 21))
    try:
        asha, bhima = fake.user("asha"), fake.user("bhima")
        _, lobby = await open_lobby(fake, "artaban", asha, bhima)
        await start(fake, asha, lobby)
        board = boards(fake)[-1]
        out = await fake.click(asha, board, fake.find_button(board, label="Choose…")["custom_id"])
        message = menu_of(fake, out).message_id or 0
        labels: set[str] = set()
        for _ in range(12):
            selects = fake.selects(message)
            if not selects:
                break
            options = selects[0]["options"]
            labels |= {o["label"] for o in options}
            steps = [o for o in options if not o["label"].startswith(("Random", "Start the"))]
            await fake.select(asha, message, selects[0]["custom_id"], [steps[0]["value"]])
        drawn = " ".join(hints)
        assert "Type '" not in drawn and "'set a" not in drawn and "'commit'" not in drawn
        assert "in the menu" in drawn
        for named in ("File a: top value", "Random arrangement", "Leader on file", "Commit"):
            assert named in drawn, named
            assert any(label.startswith(named) for label in labels), (named, labels)
    finally:
        await fake.close()
