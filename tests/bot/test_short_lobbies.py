"""Lobbies are short (issue 30), through discord.py's real dispatch.

A lobby says the game, its seats, one line with the options that differ
from the defaults (the engine's defaults for the game's options, the
server's for the table's) and what to do: at most 600 characters before any
option is changed, even with four players' longest names, with automatic
players and for a rematch.  What every option means is one tap away (the
lobby's **Options**, and **Options** under ``/game rules`` and ``/help``'s
rules).  Once the game runs, the channel's lobby message is edited only for
what a reader of the channel cares about (the start, a pause, a seat
changing hands, the end), never after a move: at most 10 edits a game.  A
tournament's table message lists no default option either.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.edge.tables.lobbies import TABLE_OPTION_HELP
from bot.engines import ENGINES
from bot.engines.core import CHANCE
from bot.outgoing import MAX_CONTENT, safe_name
from bot.service import AUTO_DELAY
from bot.timekeeping import TABLE_OPTIONS
from tests.bot.driver import (
    CUSTOM_ID,
    boards,
    bot_of,
    make_bot,
    open_lobby,
    play_by_buttons,
    resign,
    start,
)
from tests.bot.test_discord_tournaments import Cup
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

LONG_NAMES = {
    # Markdown in the Latin names doubles what the lobby shows of them once
    # escaped; the others are long in bytes and in what they draw.
    "latin": (
        "Asha_the_*Bold*_of_Kosala_~~~~~~~~",
        "Bhima|Kuru|Hastinapura|Gada|Club|",
        "Chitrangada__of__Manipura__`x`__",
        "Dev>>>the>>>Wanderer>>>of>>>Kashi",
    ),
    "devanagari": (
        "अर्जुनपाण्डव गाण्डीवधारी धनंजय कौन्तेय",
        "द्रौपदी पांचाली याज्ञसेनी कृष्णा पार्षती",
        "भीमसेन वृकोदर कौन्तेय गदाधारी महाबली",
        "युधिष्ठिर धर्मराज अजातशत्रु कौन्तेय पाण्डव",
    ),
    "tamil": (
        "கண்ணகி கோவலன் மாதவி சிலப்பதிகாரம் இளங்கோ",
        "மணிமேகலை சீத்தலைச் சாத்தனார் புகார் நகரம்",
        "கரிகால் சோழன் காவிரிப்பூம்பட்டினம் உறையூர்",
        "ராஜராஜ சோழன் தஞ்சாவூர் பெருவுடையார் கோயில்",
    ),
}
"""Four names per script, each cut to 32 characters, Discord's longest."""

LOBBY_LIMIT = 600
"""Issue 30: a lobby reads at most this many characters before any option
is changed."""


def four_names(script: str) -> list[str]:
    names = [name[:32] for name in LONG_NAMES[script]]
    assert all(len(name) == 32 for name in names), names
    return names


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    running = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 1, FakeClock()))
    yield running
    await running.close()


def reply_of(out: list[Sent]) -> Sent:
    """The interaction's answer (its first response or followup)."""
    return next(s for s in out if s.route in ("interaction.response", "followup") and s.created)


def options_line(text: str) -> list[str]:
    """The ``name=value`` pairs of a lobby's "Options:" line ([] without one)."""
    line = next((li for li in text.splitlines() if li.startswith("Options:")), "")
    return re.findall(r"`([^`]+)`", line)


def lobby_edits(fake: FakeDiscord, lobby: Sent) -> list[Sent]:
    """Every edit of the lobby message: through the channel (``/game join``,
    delivery's status) and as the answer to a click on its buttons."""
    return [
        s
        for s in fake.sent
        if s.message_id == lobby.message_id
        and (s.route == "channel.edit" or (s.route == "interaction.response" and s.type == 7))
    ]


def assert_ids_allowed(fake: FakeDiscord) -> None:
    for sent in fake.sent:
        for row in sent.components:
            for item in row.get("components", []):
                if "custom_id" in item:
                    assert CUSTOM_ID.match(item["custom_id"]), item["custom_id"]
                    assert len(item["custom_id"]) <= 100, item["custom_id"]


# -- short, with every seat ---------------------------------------------------------


@pytest.mark.parametrize("script", sorted(LONG_NAMES))
@pytest.mark.parametrize("game", sorted(ENGINES))
async def test_a_full_lobby_with_default_options_is_short(
    fake: FakeDiscord, game: str, script: str
) -> None:
    engine = ENGINES[game]
    users = [fake.user(name) for name in four_names(script)[: min(4, engine.max_players)]]
    game_id, lobby = await open_lobby(fake, game, *users)
    text = fake.current(lobby).content or ""
    assert len(text) <= LOBBY_LIMIT, (len(text), text)
    # Everything a player decides to join on: the game, who sits where, how
    # many may play, what to press.
    assert text.startswith(f"**{engine.title}** — game #{game_id}")
    for seat, user in enumerate(users, start=1):
        assert f"{seat}. {safe_name(user.name)}" in text, user.name
    low, high = engine.min_players, engine.max_players
    assert (f"{low}-{high} players" if low != high else f"{low} players") in text
    assert "**Join**" in text and "**Start**" in text
    assert options_line(text) == [] and "Options:" not in text
    assert [b["label"] for b in fake.buttons(fake.current(lobby))] == [
        "Join",
        "Leave",
        "Start",
        "Options",
        "Rules",
    ]
    assert_ids_allowed(fake)


async def test_a_lobby_with_automatic_players_is_short_and_says_so_once(
    fake: FakeDiscord,
) -> None:
    asha = fake.user(four_names("latin")[0])
    out = await fake.slash(asha, "game new", game="chaturaji", bots=3)
    text = reply_of(out).content or ""
    assert len(text) <= LOBBY_LIMIT, (len(text), text)
    bots = [li for li in text.splitlines() if "level" in li]
    assert len(bots) == 1 and "**medium**" in bots[0] and "not rated" in bots[0], text
    # Not rated and the level are the automatic players' line: not options.
    assert options_line(text) == []
    out = await fake.slash(asha, "game new", game="kauda_baji", bots=1, level="hard")
    text = reply_of(out).content or ""
    assert len(text) <= LOBBY_LIMIT and "level **hard**" in text, text
    assert options_line(text) == []
    # A lobby of people only says nothing of automatic players.
    _, lobby = await open_lobby(fake, "kauda_baji", fake.user("chitra"))
    assert "🤖" not in (lobby.content or "") and "level" not in (lobby.content or "")


async def test_a_rematch_lobby_is_short(fake: FakeDiscord) -> None:
    asha, bhima = (fake.user(name) for name in four_names("latin")[:2])
    game_id, lobby = await open_lobby(fake, "artaban", asha, bhima)
    await start(fake, asha, lobby)
    await resign(fake, bhima, game_id)
    final = fake.current(boards(fake)[-1])
    await fake.click(bhima, final, fake.find_button(final, label="Rematch")["custom_id"])
    rematch = next(
        s for s in reversed(fake.channel_posts()) if "Rematch of game" in (s.content or "")
    )
    text = rematch.content or ""
    assert len(text) <= LOBBY_LIMIT, (len(text), text)
    assert options_line(text) == []
    await fake.click(asha, rematch, fake.find_button(rematch, label="Join")["custom_id"])
    joined = fake.current(rematch).content or ""
    assert len(joined) <= LOBBY_LIMIT and safe_name(asha.name) in joined, joined


# -- the options that differ, and all of them one tap away ---------------------------


async def test_the_options_line_lists_exactly_the_options_changed(fake: FakeDiscord) -> None:
    mod = fake.moderator()
    await fake.slash(mod, "moderate settings clock", value="1d")
    asha = fake.user("asha")
    # markut=yes and timeout=substitute are the defaults (the game's, the
    # server's); clock=3d is not, here, since the server's clock is 1d.
    _, lobby = await open_lobby(
        fake,
        "kauda_baji",
        asha,
        options="pieces=4, markut=yes, clock=3d, timeout=substitute, reminder=off",
    )
    assert options_line(lobby.content or "") == ["pieces=4", "clock=3d", "reminder=off"]
    # The server's own clock is no change.
    _, lobby = await open_lobby(fake, "kauda_baji", fake.user("bhima"), options="clock=1d")
    assert "Options:" not in (lobby.content or "")
    _, lobby = await open_lobby(
        fake, "artaban", fake.user("chitra"), options="diagonal_captures=yes, rated=no"
    )
    assert options_line(lobby.content or "") == ["diagonal_captures=yes", "rated=no"]


def assert_explains_every_option(text: str, game: str, values: dict[str, str]) -> None:
    """Every option of ``game`` and of the table, its value (``values``,
    else its default) and what it does."""
    engine = ENGINES[game]
    assert len(text) <= MAX_CONTENT, len(text)
    for name, option in engine.options.items():
        assert option.help in text, name
        assert f"`{name}=" in text, name
    for name in TABLE_OPTIONS:
        assert TABLE_OPTION_HELP[name][0] in text, name
        assert f"`{name}=" in text, name
    for name, value in values.items():
        assert f"`{name}={value}`" in text, (name, value)


async def test_the_options_button_explains_every_option_with_the_lobbys_values(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(path, 1))
    try:
        asha, bhima = fake.user("asha"), fake.user("bhima")
        _, lobby = await open_lobby(
            fake, "kauda_baji", asha, options="pieces=4, clock=1d, timeout=forfeit"
        )
        assert "R4: pieces per player" not in (lobby.content or "")
        button = fake.find_button(lobby, label="Options")
        assert len(button["custom_id"]) <= 100 and CUSTOM_ID.match(button["custom_id"])
        shown = reply_of(await fake.click(bhima, lobby, button["custom_id"]))
        assert shown.ephemeral and shown.user_id == bhima.id
        values = {"pieces": "4", "markut": "yes", "clock": "1d", "timeout": "forfeit"}
        assert_explains_every_option(shown.content or "", "kauda_baji", values)
        assert "`pieces=4` (1-6): R4: pieces per player" in (shown.content or "")
        # The lobby's Options answers after a restart too (a DynamicItem).
        fake = await fake.restart(make_bot(path, 2))
        again = reply_of(await fake.click(bhima, lobby, button["custom_id"]))
        assert again.content == shown.content
        # /game rules (and so /help's rules) reach them, with the defaults.
        rules = reply_of(await fake.slash(asha, "game rules", game="kauda_baji"))
        options = reply_of(
            await fake.click(asha, rules, fake.find_button(rules, label="Options")["custom_id"])
        )
        assert options.ephemeral
        defaults = {"pieces": "6", "clock": "3d", "timeout": "substitute"}
        assert_explains_every_option(options.content or "", "kauda_baji", defaults)
        assert_ids_allowed(fake)
    finally:
        await fake.close()


# -- the running game's lobby message -------------------------------------------------


async def test_the_lobby_message_is_edited_at_most_ten_times_over_a_game(
    tmp_path: Path,
) -> None:
    """A three-player game played out by its players' clicks, with a pause
    and a resignation (the automatic player takes the seat): the lobby
    message changes with those, never with a move."""
    clock = FakeClock()
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 7, clock))
    try:
        users = [fake.user(name) for name in ("asha", "bhima", "chitra")]
        by_id = {u.id: u for u in users}
        game_id, lobby = await open_lobby(fake, "kauda_baji", *users, options="pieces=1")
        await start(fake, users[0], lobby)
        bot = bot_of(fake)
        thread_id = (await bot.store.get_game(game_id)).thread_id  # type: ignore[union-attr]
        status = (fake.current(lobby).content or "").splitlines()[-1]
        assert status == f"The game has started; it is played in <#{thread_id}>.", status
        assert fake.buttons(fake.current(lobby)) == []

        rng = random.Random(7)
        mod = fake.moderator()
        moves = 0
        left: FakeUser | None = None
        for _ in range(3000):
            game = await bot.service.get(game_id)
            if game.is_over:
                break
            if moves == 6:
                await fake.slash(mod, "moderate game pause", game=game_id)
                paused = (fake.current(lobby).content or "").splitlines()[-1]
                assert paused.startswith("Paused by a moderator"), paused
                await fake.slash(mod, "moderate game resume", game=game_id)
            if moves == 12 and left is None:
                left = users[2]
                await resign(fake, left, game_id)
                seat = (fake.current(lobby).content or "").splitlines()[3]
                assert seat.startswith("3. chitra") and "left" in seat, seat
            humans = [
                by_id[game.user_of(s)]
                for s in sorted(game.engine.to_move(game.state) - {CHANCE})
                if not game.is_auto(s)
            ]
            if humans:
                await play_by_buttons(fake, rng.choice(humans), rng)
                moves += 1
            else:  # the automatic player's move, after its delay
                clock.now += AUTO_DELAY
                await bot.scheduler.run_due()
                await bot.scheduler.wait_idle()
                await fake.settle()
        game = await bot.service.get(game_id)
        assert game.is_over and moves > 20, moves
        final = (fake.current(lobby).content or "").splitlines()[-1]
        assert final.startswith("Over:") and f"<#{thread_id}>" in final, final
        assert "Latest" not in final
        edits = lobby_edits(fake, lobby)
        print(f"lobby message edits over a game of {moves} moves: {len(edits)}")
        assert len(edits) <= 10, [e.content for e in edits]
        # None of them pings anyone.
        assert all(not (e.raw.get("allowed_mentions") or {}).get("users") for e in edits)
    finally:
        await fake.close()


# -- a tournament's table message -----------------------------------------------------


async def test_a_tournament_table_message_lists_no_default_option(tmp_path: Path) -> None:
    cup = Cup(tmp_path / "cup.sqlite3", 3)
    await cup.open(2)
    try:
        _, announcement = await cup.new("kauda_baji", "swiss", rounds=1, options="pieces=3")
        await cup.join_everyone(announcement)
        await cup.start()
        (table,) = cup.posts(r"round 1, table 1")
        text = table.content or ""
        assert len(text) <= LOBBY_LIMIT, text
        # Two players at this table, whatever the game allows; only the
        # option the tournament changed (its games are rated: the default).
        assert "2 players" in text and "2-4" not in text, text
        assert options_line(text) == ["pieces=3"], text
    finally:
        await cup.fake.close()
