"""``/leaderboard``, ``/rating`` and ``/profile`` (issue 11, item 3), through
discord.py's real dispatch.

Ratings are seeded the way they arise: Kauda Baji and Artaban games opened,
started and finished in the server (played out with random legal moves
through the service, or ended by a resignation), which the service rates
when they end; and, for a crowded leaderboard, ratings computed with
:func:`bot.tournament.ratings.rate` and stored with ``RatingStore.apply``.
Names with Markdown and mention syntax are shown escaped, and nobody is ever
pinged.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.edge.client import ChaupalBot
from bot.edge.delivery.texts import jump_url
from bot.engines.core import progress_seat
from bot.outgoing import safe_name
from bot.tournament.ratings import (
    PROVISIONAL_GAMES,
    FinishedGame,
    Rating,
    rate,
    rating_words,
    shown_rating,
)
from renderers.leaderboard import WIDTH
from tests.bot.driver import PNG_MAGIC, bot_of, make_bot, open_lobby, start
from tests.bot.driver import resign as resign_game
from tests.discord_harness import FakeDiscord, FakeUser, Sent

EVIL = "@everyone **Bhima** <@&1> __x__"
KB = "kauda_baji"


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    running = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 11))
    try:
        yield running
    finally:
        await running.close()


def display(user: FakeUser) -> str:
    return user.nick or user.global_name or user.name


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content for s in out if s.content)


def answer(out: list[Sent]) -> Sent:
    """The reply that carries the command's answer (content or file)."""
    found = [s for s in out if s.content or s.files]
    assert len(found) == 1, out
    return found[0]


def assert_nobody_pinged(fake: FakeDiscord) -> None:
    for sent in fake.sent:
        allowed = sent.raw.get("allowed_mentions")
        if sent.content and sent.route in ("interaction.response", "followup"):
            assert allowed is not None, sent
        if allowed:
            assert not allowed.get("parse"), sent
            assert not allowed.get("users") and not allowed.get("roles"), sent
        content = sent.content or ""
        assert "@everyone" not in content and "<@&1>" not in content, sent


async def play_out(bot: ChaupalBot, game_id: int, seed: int, moves: int | None = None) -> None:
    """Random legal moves (their text forms) through the service until the
    game ends, or only ``moves`` of them."""
    rng = random.Random(seed)
    for _ in range(3000 if moves is None else moves):
        game = await bot.service.get(game_id)
        if game.is_over:
            return
        engine, state = game.engine, game.state
        assert state is not None
        seat = progress_seat(engine, state)
        action = rng.choice(engine.legal_actions(state, seat))
        await bot.service.play(game_id, game.user_of(seat), engine.describe(state, seat, action))
    if moves is None:
        raise AssertionError(f"game {game_id} did not end")


async def finished_game(
    fake: FakeDiscord,
    game: str,
    players: list[FakeUser],
    *,
    seed: int = 0,
    resign: FakeUser | None = None,
    options: str | None = None,
) -> int:
    """A game opened, started (its first board posted) and finished in the server."""
    game_id, lobby = await open_lobby(fake, game, players[0], *players[1:], options=options)
    await start(fake, players[0], lobby)
    if resign is not None:
        # A game resigned before anyone moved is not rated (issue 31).
        await play_out(bot_of(fake), game_id, seed, moves=1)
        out = await resign_game(fake, resign, game=game_id)
        assert "is over" in texts(out), out
    else:
        await play_out(bot_of(fake), game_id, seed)
    assert (await bot_of(fake).service.get(game_id)).is_over
    assert await bot_of(fake).service.ratings.is_rated(game_id)
    return game_id


@pytest.fixture
async def seeded(fake: FakeDiscord) -> dict[str, FakeUser]:
    asha = fake.user("asha")
    bhima = fake.user("bhima", nick=EVIL)
    chitra = fake.user("chitra", global_name="Chitra")
    await finished_game(fake, KB, [asha, bhima], seed=1, options="pieces=1")
    await finished_game(fake, KB, [asha, bhima, chitra], seed=2, options="pieces=1")
    await finished_game(fake, KB, [chitra, asha], resign=asha, options="pieces=1")
    await finished_game(fake, "artaban", [asha, bhima], resign=bhima)
    fake.sent.clear()
    return {"asha": asha, "bhima": bhima, "chitra": chitra}


# ----------------------------------------------------------------- /leaderboard


async def test_leaderboard_image_and_text_follow_the_stored_order(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    bot = bot_of(fake)
    viewer = fake.user("viewer")
    out = await fake.slash(viewer, "leaderboard", game=KB)
    sent = answer(out)
    assert not sent.ephemeral
    [(name, png)] = sent.files
    assert name.endswith(".png") and png.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH and 300 < image.height < 3 * WIDTH

    top = await bot.service.ratings.top(fake.guild_id, KB)
    assert len(top) == 3
    by_id = {u.id: u for u in seeded.values()}
    lines = (sent.content or "").splitlines()
    assert "Kauda Baji" in lines[0]
    for place, record in enumerate(top, start=1):
        line = lines[place]
        assert line.startswith(f"{place}. **{safe_name(display(by_id[record.user_id]))}**"), line
        assert f" {rating_words(record.mu, record.sigma, record.games)} · " in line
        assert f"{record.games} game" in line and f"{record.wins} win" in line
        assert "▲" in line or "▼" in line or "= 0" in line
    assert_nobody_pinged(fake)


async def test_a_newcomers_rating_is_provisional_and_never_negative(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    """Issue 31: first games gave ratings of 3, 2, -3, -4 and the words
    "rating = mu - 3 sigma".  Now a rating on Chaupal's scale (1000 to
    start), marked ``?`` until enough rated games, never negative; the
    model's own numbers stay in ``/rating``."""
    bot = bot_of(fake)
    top = await bot.service.ratings.top(fake.guild_id, KB)
    assert any(r.ordinal < 0 for r in top)  # the model's number is below zero
    assert all(r.games < PROVISIONAL_GAMES for r in top)
    content = answer(await fake.slash(fake.user("viewer"), "leaderboard", game=KB)).content or ""
    lines = content.splitlines()
    for record, line in zip(top, lines[1:], strict=False):
        shown = re.search(r"\*\* (\S+) · ", line)
        assert shown is not None, line
        assert shown[1] == f"{shown_rating(record.mu, record.sigma)}?" and int(shown[1][:-1]) > 0
    assert "mu - 3 sigma" not in content and "provisional" in lines[-1]
    asha = seeded["asha"]
    mine = answer(await fake.slash(asha, "rating", game=KB)).content or ""
    assert re.search(r"\*\*\d+\?\*\* \(OpenSkill: mu \d+\.\d, sigma \d+\.\d\)", mine), mine
    assert "provisional" in mine and "1000 + 40" in mine
    profile = answer(await fake.slash(asha, "profile", option_values={"user": asha})).content
    assert profile is not None and "OpenSkill" not in profile
    assert re.search(r"- \*\*Kauda Baji\*\*: \*\*\d+\?\*\*", profile), profile


async def test_a_rating_loses_its_mark_after_enough_games(fake: FakeDiscord) -> None:
    bot = bot_of(fake)
    store = bot.service.ratings
    record = await bot.store.create_game(
        engine="artaban",
        engine_revision=1,
        options={},
        guild_id=fake.guild_id,
        channel_id=fake.channel_id,
        thread_id=None,
        creator_id=1,
        now=1.0,
    )
    dev, eve = fake.user("dev"), fake.user("eve")
    for user in (dev, eve):
        await bot.store.add_seat(record.id, user.id, user.name, 1.0)
    for game in range(PROVISIONAL_GAMES):
        winner = game % 2
        finished = FinishedGame(
            "artaban", (dev.id, eve.id), (frozenset({winner}), frozenset({1 - winner}))
        )
        stored = await store.ratings(fake.guild_id, "artaban", [dev.id, eve.id])
        changes = rate({u: Rating.of(r) for u, r in stored.items()}, finished)
        assert await store.apply(9100 + game, fake.guild_id, "artaban", changes.values(), 2.0)
    content = answer(await fake.slash(dev, "rating")).content or ""
    rated = await store.get(fake.guild_id, "artaban", dev.id)
    assert rated is not None and rated.games == PROVISIONAL_GAMES
    assert f"**{shown_rating(rated.mu, rated.sigma)}** (OpenSkill" in content
    assert "?" not in content.split("OpenSkill")[0] and "provisional" not in content


async def test_leaderboard_of_a_game_nobody_played_says_so(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    out = await fake.slash(seeded["asha"], "leaderboard", game="sangram")
    sent = answer(out)
    assert not sent.files
    assert "Nobody has a Sangram rating on this server yet" in (sent.content or "")


async def test_leaderboard_shows_the_top_twenty(fake: FakeDiscord) -> None:
    """25 players rated by ``rate`` and stored with ``apply``; their names are
    their newest seats on the server (the member cache does not know them)."""
    bot = bot_of(fake)
    users = list(range(1000, 1025))
    record = await bot.store.create_game(
        engine="sangram",
        engine_revision=1,
        options={},
        guild_id=fake.guild_id,
        channel_id=fake.channel_id,
        thread_id=None,
        creator_id=users[0],
        now=1.0,
    )
    for user in users:
        await bot.store.add_seat(record.id, user, f"p{user} *x*", 1.0)
    store = bot.service.ratings
    for game_id, seed in ((9001, 1), (9002, 2)):
        order = random.Random(seed).sample(users, len(users))
        finished = FinishedGame(
            "sangram", tuple(order), tuple(frozenset({s}) for s in range(len(order)))
        )
        stored = await store.ratings(fake.guild_id, "sangram", users)
        changes = rate({u: Rating.of(r) for u, r in stored.items()}, finished)
        assert await store.apply(game_id, fake.guild_id, "sangram", changes.values(), 2.0)
    top = await store.top(fake.guild_id, "sangram")
    assert len(top) == 20

    out = await fake.slash(fake.user("viewer"), "leaderboard", game="sangram")
    sent = answer(out)
    assert sent.files and sent.files[0][1].startswith(PNG_MAGIC)
    lines = (sent.content or "").splitlines()
    # Title, five players, "…and 15 more", and what the ``?`` of a newcomer means.
    assert len(lines) == 1 + 5 + 1 + 1 and "15 more" in lines[-2] and "provisional" in lines[-1]
    for place, rec in enumerate(top[:5], start=1):
        assert lines[place].startswith(f"{place}. **p{rec.user_id} \\*x\\***"), lines[place]
    assert_nobody_pinged(fake)


async def test_leaderboard_in_an_empty_server(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user("asha"), "leaderboard", game=KB)
    sent = answer(out)
    assert not sent.files and "Nobody has a Kauda Baji rating" in (sent.content or "")


# ----------------------------------------------------------------- /rating


async def test_rating_of_the_caller_lists_every_game(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    store = bot_of(fake).service.ratings
    asha = seeded["asha"]
    out = await fake.slash(asha, "rating")
    sent = answer(out)
    assert sent.ephemeral
    content = sent.content or ""
    assert content.startswith("**Your ratings**")
    for engine, title in (("artaban", "Artaban"), (KB, "Kauda Baji")):
        record = await store.get(fake.guild_id, engine, asha.id)
        assert record is not None
        rank = await store.rank(fake.guild_id, engine, asha.id)
        assert rank is not None
        [line] = [ln for ln in content.splitlines() if ln.startswith(f"- **{title}**")]
        assert f"**{rating_words(record.mu, record.sigma, record.games)}**" in line
        assert f"OpenSkill: mu {record.mu:.1f}, sigma {record.sigma:.1f}" in line
        assert f"#{rank[0]} of {rank[1]} player" in line
        assert f"{record.games} game" in line and f"{record.wins} win" in line
    assert_nobody_pinged(fake)


async def test_rating_of_another_player_in_one_game(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    out = await fake.slash(
        seeded["chitra"], "rating", option_values={"user": seeded["bhima"]}, game=KB
    )
    sent = answer(out)
    assert not sent.ephemeral
    content = sent.content or ""
    assert content.startswith(f"**{safe_name(EVIL)}**'s ratings in Kauda Baji")
    assert "Kauda Baji" in content and "Artaban" not in content
    assert "@\u200beveryone" in content and "\\*\\*Bhima\\*\\*" in content
    assert_nobody_pinged(fake)


async def test_rating_without_rated_games(fake: FakeDiscord, seeded: dict[str, FakeUser]) -> None:
    dev = fake.user("dev")
    sent = answer(await fake.slash(dev, "rating"))
    assert sent.ephemeral and "You have no rating on this server yet" in (sent.content or "")
    sent = answer(
        await fake.slash(dev, "rating", option_values={"user": seeded["chitra"]}, game="artaban")
    )
    assert "**Chitra** has no rating in Artaban" in (sent.content or "")
    assert_nobody_pinged(fake)


# ----------------------------------------------------------------- /profile


async def test_profile_lists_games_ratings_and_linked_results(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    bot = bot_of(fake)
    asha = seeded["asha"]
    out = await fake.slash(seeded["bhima"], "profile", option_values={"user": asha})
    sent = answer(out)
    assert not sent.ephemeral
    content = sent.content or ""
    records = await bot.service.ratings.of_user(fake.guild_id, asha.id)
    games = sum(r.games for r in records)
    wins = sum(r.wins for r in records)
    assert games == 4
    assert content.startswith(f"**asha** on this server: {games} games rated, ")
    assert f"{wins} win" in content.splitlines()[0]
    assert "- **Artaban**:" in content and "- **Kauda Baji**:" in content

    history = await bot.service.ratings.history(fake.guild_id, asha.id, 10)
    results = [ln for ln in content.splitlines() if re.match(r"- (Kauda Baji|Artaban) #\d+:", ln)]
    assert len(results) == len(history) == 4
    for line, entry in zip(results, history, strict=True):
        assert f"#{entry.game_id}:" in line
        board = await bot.store.get_message(entry.game_id, "board")
        assert board is not None
        assert line.endswith(f"[board](<{jump_url(fake.guild_id, board[0], board[1])}>)"), line
        game = await bot.store.get_game(entry.game_id)
        assert game is not None and game.thread_id == board[0]  # the board is in the thread
    # The resignation: Asha was last of two, and lost rating.
    resigned = next(ln for ln in results if "Kauda Baji" in ln and "2nd of 2" in ln)
    assert "▼" in resigned
    assert_nobody_pinged(fake)


async def test_profile_links_to_the_channel_without_a_board(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    """A rated game whose board message is not stored links to its thread or channel."""
    bot = bot_of(fake)
    dev, eve = fake.user("dev"), fake.user("eve")
    record = await bot.store.create_game(
        engine="artaban",
        engine_revision=1,
        options={},
        guild_id=fake.guild_id,
        channel_id=fake.channel_id,
        thread_id=None,
        creator_id=dev.id,
        now=1.0,
    )
    await bot.store.add_seat(record.id, dev.id, "dev", 1.0)
    await bot.store.add_seat(record.id, eve.id, "eve", 1.0)
    finished = FinishedGame("artaban", (dev.id, eve.id), (frozenset({0}), frozenset({1})))
    changes = rate({}, finished)
    assert await bot.service.ratings.apply(
        record.id, fake.guild_id, "artaban", changes.values(), 5.0
    )
    content = answer(await fake.slash(eve, "profile", option_values={"user": dev})).content or ""
    [line] = [ln for ln in content.splitlines() if f"#{record.id}:" in ln]
    assert "1st of 2, won" in line and "▲" in line
    assert line.endswith(f"[board](<{jump_url(fake.guild_id, fake.channel_id)}>)")


async def test_profile_names_are_escaped_and_empty_profiles_say_so(
    fake: FakeDiscord, seeded: dict[str, FakeUser]
) -> None:
    content = answer(
        await fake.slash(seeded["asha"], "profile", option_values={"user": seeded["bhima"]})
    ).content
    assert content is not None and content.startswith(f"**{safe_name(EVIL)}** on this server")
    dev = fake.user("dev")
    sent = answer(await fake.slash(seeded["asha"], "profile", option_values={"user": dev}))
    assert sent.content == "**dev** has no rated games on this server yet."
    assert_nobody_pinged(fake)
