"""Tournaments and the archive in the players' language (issue 33).

Through discord.py's real dispatch (tests/discord_harness.py), on a server
whose Discord locale is Hindi and with members whose own locale is Hindi: a
tournament's announcement, its **Join** and the replies to joining, the
round's post, ``/tournament pairings``, ``standings`` and ``settings``, the
end and the final standings; ``/game history``, ``/game log`` (the reply
and the file's own lines), a replay's message, ``/game follow``, and
``/leaderboard``, ``/rating`` and ``/profile`` all come out in Hindi
(Devanagari, no English sentence: names, commands, notation and game titles
aside).  In the pseudo-locale every one of those lines is marked (⟦…⟧), so
a text that bypassed the catalog shows.  English stays as it was: the
tests in tests/bot read the same words as before.

Games are made through the lobby's buttons found by their custom ids (not
their labels, which are another part's to translate), and ended through the
service, so these tests read only this area's texts.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.director import FORMAT_TITLES, title_msg
from bot.edge.tournament.texts import (
    describe_format,
    parse_places,
    settings_text,
    standings_text,
    table_line,
    tiebreak_legend,
)
from bot.engines.core import GameError
from bot.engines.messages import Msg
from bot.i18n import PSEUDO, localize, t
from bot.tournament import standings
from storage.tournaments import TournamentPlayer, TournamentRecord, TournamentTable
from tests.bot.driver import bot_of, make_bot
from tests.bot.test_ratings_commands import play_out
from tests.discord_harness import FakeDiscord, FakeUser, Sent

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
_NOT_WORDS = re.compile(r"`[^`]*`|<[^<>]*>|https?://\S+")
"""Code spans (commands, options), mentions, timestamps and links: not prose."""
_ENGLISH = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,;:']+[A-Za-z][a-z]+){2,}")
"""Three English words in a row: a sentence (or its start) that was not
translated.  A game's title is at most two words; the players here are
named with one."""


def english_in(text: str) -> list[str]:
    return _ENGLISH.findall(_NOT_WORDS.sub(" ", text))


def assert_hindi(text: str | None) -> None:
    assert text, "no text"
    assert DEVANAGARI.search(text), text
    assert not english_in(text), (english_in(text), text)


def assert_marked(text: str | None) -> None:
    """Every line of ``text`` holds a pseudo-localized (catalog) text."""
    assert text, "no text"
    for line in text.splitlines():
        if line.strip():
            assert "⟦" in line, (line, text)


Check = Callable[[str | None], None]
CHECKS: dict[str, Check] = {"hi": assert_hindi, PSEUDO: assert_marked}


@pytest.fixture(params=["hi", PSEUDO])
async def world(request: Any, tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, str]]:
    locale = request.param
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 7), guild_locale=locale)
    try:
        yield fake, locale
    finally:
        await fake.close()


def replies(out: list[Sent]) -> list[Sent]:
    """What answered the member (ephemeral or not), with text."""
    return [
        s
        for s in out
        if s.content
        and s.route in ("interaction.response", "followup", "edit_original", "followup.edit")
    ]


def the_reply(out: list[Sent]) -> Sent:
    found = replies(out)
    assert found, out
    return found[-1]


async def started_game(fake: FakeDiscord, users: list[FakeUser], moves: int = 1) -> int:
    """An Artaban game of ``users``, started with the lobby's buttons, and
    ``moves`` played through the service."""
    out = await fake.slash(users[0], "game new", game="artaban")
    lobby = next(s for s in out if s.route == "interaction.response")
    join = fake.find_button(lobby, custom_id_prefix="chaupal:lobby:")["custom_id"]
    game_id = int(join.split(":")[2])
    for user in users[1:]:
        button = fake.find_button(lobby, custom_id=f"chaupal:lobby:{game_id}:join")
        await fake.click(user, lobby, button["custom_id"])
    await fake.click(users[0], lobby, f"chaupal:lobby:{game_id}:start")
    await play_out(bot_of(fake), game_id, seed=game_id, moves=moves)
    return game_id


async def finished_game(fake: FakeDiscord, users: list[FakeUser]) -> int:
    """A rated game (a move was played), ended by the last user's resignation."""
    game_id = await started_game(fake, users)
    await bot_of(fake).service.resign(game_id, users[-1].id)
    await fake.settle()
    assert (await bot_of(fake).service.get(game_id)).is_over
    return game_id


# -- a tournament ------------------------------------------------------------------------


async def test_a_tournament_speaks_the_servers_and_the_players_language(
    world: tuple[FakeDiscord, str],
) -> None:
    fake, locale = world
    check = CHECKS[locale]
    ref = fake.user("ref", moderator=True, locale=locale)
    players = [fake.user(f"p{i}", locale=locale) for i in range(4)]

    out = await fake.slash(ref, "moderate tournament new", game="artaban", format="swiss", rounds=2)
    announcement = next(s for s in out if s.route == "interaction.response")
    assert not announcement.ephemeral
    check(announcement.content)
    join = fake.find_button(announcement, custom_id_prefix="chaupal:tournament:")
    tournament_id = int(join["custom_id"].split(":")[2])
    labels = [b["label"] for b in fake.buttons(announcement)]
    for label in labels:
        check(label) if locale == PSEUDO else assert_hindi(label)

    # Joining by the button and by the command: answered in the member's language.
    out = await fake.click(players[0], announcement, f"chaupal:tournament:{tournament_id}:join")
    check(the_reply(out).content)
    for user in players[1:]:
        check(the_reply(await fake.slash(user, "tournament join")).content)
    check(the_reply(await fake.slash(players[0], "tournament standings")).content)
    check(the_reply(await fake.slash(players[0], "tournament settings")).content)

    out = await fake.slash(ref, "moderate tournament start")
    await fake.settle()
    check(the_reply(out).content)
    # The round's post in the tournament's channel, and each table's heading.
    posted = [s for s in fake.sent if s.route == "channel.send" and s.content]
    rounds = [
        s
        for s in posted
        if any(b["custom_id"].startswith("chaupal:follow:") for b in fake.buttons(s))
    ]
    assert rounds, posted
    check(rounds[-1].content)
    for button in fake.buttons(rounds[-1]):
        check(button["label"])
    # Each table's message (its game's lobby, another part's words) opens
    # with the tournament's heading.
    headings = [
        s.content.splitlines()[0]
        for s in posted
        if s.content and s.content.lstrip("⟦").startswith("🏆") and s not in rounds
    ]
    assert headings
    for heading in headings:
        check(heading)
    # The announcement, edited: what the tournament is doing.
    edits = [s for s in fake.sent if s.route == "channel.edit" and s.content]
    assert edits
    check(edits[-1].content)

    for command in ("tournament pairings", "tournament standings", "tournament settings"):
        check(the_reply(await fake.slash(players[1], command)).content)

    fake.sent.clear()
    out = await fake.slash(ref, "moderate tournament end")
    await fake.settle()
    check(the_reply(out).content)
    final = [s for s in fake.sent if s.route == "channel.send" and s.content]
    assert final
    check(final[-1].content)
    check(the_reply(await fake.slash(players[2], "tournament standings")).content)


# -- the archive -------------------------------------------------------------------------


async def test_history_log_replay_and_follow_in_the_readers_language(
    world: tuple[FakeDiscord, str],
) -> None:
    fake, locale = world
    check = CHECKS[locale]
    asha, bhima, chitra = (fake.user(n, locale=locale) for n in ("asha", "bhima", "chitra"))
    done = await finished_game(fake, [asha, bhima])

    out = await fake.slash(asha, "game history")
    history = the_reply(out)
    assert history.ephemeral
    check(history.content)
    out = await fake.slash(chitra, "game history", option_values={"player": bhima})
    check(the_reply(out).content)

    # The log: its reply, and the file's own lines (the narrations are the
    # engines' and come as they come).
    record = await bot_of(fake).store.get_game(done)
    assert record is not None
    out = await fake.slash(asha, "game log", game=done, channel_id=record.channel_id)
    sent = next(s for s in out if s.files)
    check(sent.content)
    text = sent.files[0][1].decode("utf-8")
    for line in text.splitlines()[:3]:
        check(line)

    # A replay (posted in the channel: the server's language) of a game
    # still being played, and following it.
    live = await started_game(fake, [asha, bhima], moves=2)
    record = await bot_of(fake).store.get_game(live)
    assert record is not None
    out = await fake.slash(chitra, "game replay", game=live, channel_id=record.channel_id)
    replay = next(s for s in out if s.files)
    check(replay.content)
    # A review (only to the asker): its heading line and its menus (what
    # happened in the move is the engines' narration).
    out = await fake.slash(chitra, "game review", game=live, channel_id=record.channel_id)
    review = next(s for s in out if s.files)
    assert review.ephemeral
    assert review.content
    check(review.content.splitlines()[0])
    check(review.content.splitlines()[-1])
    placeholders = [menu["placeholder"] for menu in fake.selects(review)]
    assert placeholders
    for placeholder in placeholders:
        check(placeholder)
    out = await fake.slash(chitra, "game follow", game=live, channel_id=record.channel_id)
    check(the_reply(out).content)
    out = await fake.slash(chitra, "game unfollow", game=live, channel_id=record.channel_id)
    check(the_reply(out).content)


async def test_leaderboard_rating_and_profile_in_the_servers_language(
    world: tuple[FakeDiscord, str],
) -> None:
    fake, locale = world
    check = CHECKS[locale]
    asha, bhima = fake.user("asha", locale=locale), fake.user("bhima", locale=locale)
    await finished_game(fake, [asha, bhima])

    board = the_reply(await fake.slash(asha, "leaderboard", game="artaban"))
    assert not board.ephemeral
    check(board.content)
    check(the_reply(await fake.slash(asha, "rating")).content)
    check(the_reply(await fake.slash(asha, "rating", option_values={"user": bhima})).content)
    profile = the_reply(await fake.slash(bhima, "profile", option_values={"user": asha}))
    check(profile.content)
    for button in fake.buttons(profile):
        check(button["label"])


# -- the pure texts ----------------------------------------------------------------------

NAMES = {1: "Alice", 2: "Bob", 3: "Carol"}


def record(**kw: Any) -> TournamentRecord:
    fields: dict[str, Any] = dict(
        id=4,
        guild_id=1,
        channel_id=2,
        engine="artaban",
        format="swiss",
        rounds=3,
        table_size=2,
        options={},
        status="running",
        round=1,
        creator_id=1,
        created_at=0.0,
        updated_at=0.0,
        message_channel_id=None,
        message_id=None,
        announced="",
        name="",
        round_time=None,
        round_deadline=None,
        auto_drop=True,
    )
    fields.update(kw)
    return TournamentRecord(**{k: v for k, v in fields.items() if k in FIELDS})


FIELDS = set(TournamentRecord.__dataclass_fields__)


def test_table_lines_in_hindi_and_marked() -> None:
    duel = TournamentTable(1, 2, (1, 2), 9, (1, 2), False)
    drawn = TournamentTable(1, 2, (1, 2), 9, (1, 1), True)
    pod = TournamentTable(1, 3, (1, 2, 3), 9, (2, 1, 3), False)
    playing = TournamentTable(1, 1, (1, 2), 9, None, False)
    bye = TournamentTable(1, 4, (3,), None, (1,), False)
    for table in (duel, drawn, pod, playing, bye):
        english = table_line(table, NAMES, "in <#5>")
        hindi = table_line(table, NAMES, "in <#5>", lang="hi")
        assert hindi != english
        assert_hindi(hindi)
        assert_marked(table_line(table, NAMES, "in <#5>", lang=PSEUDO))
    assert table_line(duel, NAMES, lang="hi") == "टेबल 2: **Alice** ने **Bob** को हराया"


def test_format_standings_and_settings_in_hindi() -> None:
    rec = record()
    assert describe_format(rec, 4) == "Swiss, 3 rounds, two players a game"
    assert_hindi(describe_format(rec, 4, "hi"))
    assert_hindi(settings_text(rec, 4, "substitute", "hi"))
    assert_marked(settings_text(rec, 4, "substitute", PSEUDO))
    kinds = [standings.Tiebreak.BUCHHOLZ, standings.Tiebreak.SONNEBORN_BERGER]
    assert tiebreak_legend(kinds).startswith("Equal points are split by Buchholz")
    assert_hindi(tiebreak_legend(kinds, "hi"))
    rows = [
        standings.Standing(
            rank=1,
            player=1,
            points=1.5,
            tiebreaks=((kinds[0], 2.0), (kinds[1], 1.0)),
            games=2,
            byes=0,
            rating=0.0,
        )
    ]
    players = {1: TournamentPlayer(1, "Alice", 0.0)}
    hindi = standings_text(t("hi", "final standings"), rows, players, "hi")
    assert_hindi(hindi)
    assert "1½ अंक" in hindi
    assert_marked(standings_text(t(PSEUDO, "final standings"), rows, players, PSEUDO))


def test_every_format_has_a_hindi_name() -> None:
    for title in FORMAT_TITLES.values():
        assert DEVANAGARI.search(t("hi", title)), title


def test_refusals_are_messages_the_edge_translates() -> None:
    """A moderator's verdict that cannot be read is refused with a message
    (:class:`~bot.i18n.Msg`): English as before, Hindi through the catalog
    (the edge's refusal localizes it for the reader)."""
    table = TournamentTable(1, 2, (1, 2), 9, None, False)
    with pytest.raises(GameError) as refused:
        parse_places("maybe", table, NAMES)
    said = refused.value.args[0]
    assert isinstance(said, Msg)
    assert str(refused.value).startswith("Give the result as `draw`, the winner's name")
    assert_hindi(localize(said, "hi"))
    assert_marked(localize(said, PSEUDO))
    # The director's own, with a tournament's title inside: translated too.
    title = title_msg(record(name=""))
    assert str(title) == "tournament #4"
    assert localize(Msg("That player is not in {tournament}.", tournament=title), "hi") == (
        "वह खिलाड़ी टूर्नामेंट #4 में नहीं है।"
    )
