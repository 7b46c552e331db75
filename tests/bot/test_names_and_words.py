"""Issue items 6 (names) and 10 (words), through discord.py's dispatch.

Whole games of each engine, with one player whose display name is made to
break things (a user mention, Markdown and ``@everyone``): no message shows
that name raw or pings anyone because of it, the lobby pings nobody, and no
text a player reads says "Player 2", leaves a ``{p0}`` tag unfilled or
writes "1 cards".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.driver import board_picks, boards, bot_of, press, resign
from tests.bot.menu_player import (
    FRACTION,
    HALF_AS_DECIMAL,
    ONE_PLURAL,
    MenuPlayer,
    new_game,
    pinged,
    wording_problems,
)
from tests.discord_harness import FakeDiscord, FakeUser

EVIL_ID = 123456789012345678
EVIL = f"<@{EVIL_ID}> **bold** @everyone"
"""A display name (a server nickname) that would ping, restyle and ping all."""


def raw_name_problems(fake: FakeDiscord) -> list[str]:
    problems = []
    for sent in fake.sent:
        content = sent.content or ""
        if f"<@{EVIL_ID}>" in content or f"<@!{EVIL_ID}>" in content:
            problems.append(f"{sent.route}: raw mention in {content[:160]!r}")
        if "@everyone" in content or "@here" in content:
            problems.append(f"{sent.route}: raw @everyone in {content[:160]!r}")
        if "**bold**" in content:
            problems.append(f"{sent.route}: unescaped Markdown in {content[:160]!r}")
        if EVIL_ID in pinged(fake, sent):
            problems.append(f"{sent.route}: pings {EVIL_ID}: {content[:160]!r}")
        allowed = sent.raw.get("allowed_mentions") or {}
        if str(EVIL_ID) in [str(u) for u in allowed.get("users") or []]:
            problems.append(f"{sent.route}: allowed_mentions lets {EVIL_ID} be pinged")
    return problems


def evil_user(player: MenuPlayer) -> FakeUser:
    return next(u for u in player.users if u.nick == EVIL)


async def out_of_turn(player: MenuPlayer) -> bool:
    """While the odd-named player is awaited, someone not to move presses a
    board button: the refusal names who the game waits for."""
    live = await bot_of(player.fake).service.get(player.game_id)
    engine, state = live.engine, live.state
    if live.is_over or live.seat_of(evil_user(player).id) not in engine.waiting_on(state):
        return False
    idle = [u for u in player.users if live.seat_of(u.id) not in engine.to_move(state)]
    if not idle:
        return False
    fake = player.fake
    board = fake.current(boards(fake)[-1])
    # A pick button, a board select's option (issue 18) or "Choose…".
    picks = board_picks(fake, board)
    assert picks, f"no choices on {board}"
    version = live.version
    out = await press(fake, idle[0], board, picks[0])
    refusals = [s for s in out if s.ephemeral and "not your turn" in (s.content or "").lower()]
    assert refusals, out
    assert all("waiting for" in (s.content or "") for s in refusals), refusals
    assert (await bot_of(fake).service.get(player.game_id)).version == version
    return True


@pytest.mark.parametrize(
    ("game", "players", "seed", "options", "evil_at"),
    [
        pytest.param("sangram", 4, 41, "round_limit=8", 1, id="sangram-4p"),
        pytest.param("mahabharata", 3, 42, None, 0, id="mahabharata-3p"),
        pytest.param("mahabharata", 4, 44, None, 2, id="mahabharata-4p"),
        pytest.param("artaban", 2, 43, None, 1, id="artaban"),
        pytest.param("kauda_baji", 2, 47, "pieces=1", 0, id="kauda_baji"),
        pytest.param("sangram", 2, 48, "round_limit=1", 1, id="sangram-1-round"),
    ],
)
async def test_whole_game_names_and_words(
    tmp_path: Path, game: str, players: int, seed: int, options: str | None, evil_at: int
) -> None:
    player = await new_game(tmp_path, game, players, seed, options=options, nick={evil_at: EVIL})
    fake = player.fake
    try:
        # The lobby (the answer to /game new) pings nobody.
        lobby = next(s for s in fake.sent if s.route == "interaction.response")
        assert not lobby.ephemeral and "game #" in (lobby.content or ""), lobby
        assert not pinged(fake, lobby), pinged(fake, lobby)
        allowed = lobby.raw.get("allowed_mentions")
        assert allowed is not None and not allowed.get("parse") and not allowed.get("users")
        finished = await player.play(600)
        assert finished, "the game did not end"
        problems = raw_name_problems(fake) + wording_problems(fake)
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(dict.fromkeys(problems))
    finally:
        await fake.close()


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("sangram", 3, "round_limit=8"), ("mahabharata", 3, None), ("artaban", 2, None)],
)
async def test_not_your_turn_names_whom_the_game_waits_for_safely(
    tmp_path: Path, game: str, players: int, options: str | None
) -> None:
    """A player pressing a board button out of turn is told whom the game
    waits for; an odd display name there is escaped like everywhere else."""
    player = await new_game(tmp_path, game, players, 46, options=options, nick={1: EVIL})
    fake = player.fake
    try:
        tried = 0
        while tried < 2 and len(player.decisions) < 100:
            if await out_of_turn(player):
                tried += 1
            if not await player.step():
                break
        assert tried, "nobody was ever idle while the odd-named player was awaited"
        problems = raw_name_problems(fake)
        assert not problems, "\n".join(dict.fromkeys(problems))
    finally:
        await fake.close()


async def test_resigning_player_name_is_escaped(tmp_path: Path) -> None:
    """The final board after a resignation names the resigner safely."""
    player = await new_game(tmp_path, "artaban", 2, 45, nick={1: EVIL})
    fake = player.fake
    try:
        for _ in range(4):
            await player.step()
        out = await resign(fake, evil_user(player))
        assert any("is over" in (s.content or "") for s in out), out
        final = boards(fake)[-1]
        assert "resigned" in (final.content or ""), final.content
        problems = raw_name_problems(fake) + wording_problems(fake)
        assert not problems, "\n".join(dict.fromkeys(problems))
    finally:
        await fake.close()


def test_the_wording_checks_catch_what_they_are_for() -> None:
    """The patterns above find the texts of issue 31 and pass their fixes."""
    for bad in ("after 1 rounds", "— 1 pts", "(strength 1, 1 Britishers)", "1 moves, the last"):
        assert ONE_PLURAL.search(bad), bad
    for good in ("after 1 round", "11 rounds", "Die 1 rolls Raja", "move 1 of 3", "2.1 moves"):
        assert not ONE_PLURAL.search(good), good
    mixed = "1. **Asha** — 3½ points · Bh 11.5 · SB 7.25"
    assert HALF_AS_DECIMAL.search(mixed) and FRACTION.search(mixed)
    assert not HALF_AS_DECIMAL.search("1. **Asha** — 3½ points · Bh 11½ · Avg place 1.33")
