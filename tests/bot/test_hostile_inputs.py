"""Hostile inputs through discord.py's dispatch (issue 18, section 4): none
crashes, none changes anything, each is answered in a sentence.

Discord's own client normally stops most of these (choices, channel pickers,
integer ranges), but a client can send any payload, so the bot must not
depend on it: the harness builds them with ``validate=False``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.server_settings import server_settings
from tests.bot.driver import bot_of, make_bot, open_lobby, start
from tests.discord_harness import FakeDiscord, Sent
from tests.fakes import FakeClock

TOO_BIG = 2**63
"""The first id SQLite cannot bind (its INTEGER is 64-bit, signed)."""


def command(fake: FakeDiscord, *names: str) -> str:
    """The first of ``names`` the bot has (moderators' commands moved under
    ``/moderate``; the tests follow whichever form is registered)."""
    known = {c.qualified_name for c in bot_of(fake).tree.walk_commands()}
    found = next((n for n in names if n in known), None)
    assert found is not None, f"none of {names} in {sorted(known)}"
    return found


def said(out: list[Sent]) -> str:
    """Everything the bot answered the caller (ephemerally), as one text."""
    answers = [s for s in out if s.ephemeral]
    assert answers, f"no ephemeral answer in {out}"
    return "\n".join(s.content or "" for s in answers)


class Club:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.moderator = fake.user("referee", moderator=True)
        self.players = [fake.user(name) for name in ("asha", "bhima")]

    @property
    def bot(self) -> Any:
        return bot_of(self.fake)

    def cmd(self, *names: str) -> str:
        return command(self.fake, *names)

    async def duel(self) -> tuple[int, Any]:
        """A running Artaban Swiss tournament of two: its id and its table."""
        new = self.cmd("moderate tournament new", "tournament new")
        out = await self.fake.slash(self.moderator, new, game="artaban", format="swiss", rounds=1)
        assert any(not s.ephemeral and "tournament #" in (s.content or "") for s in out), out
        (record,) = await self.bot.tournaments.store.in_guild(self.fake.guild_id)
        for user in self.players:
            out = await self.fake.slash(user, "tournament join")
            assert "You are in" in said(out)
        await self.fake.slash(
            self.moderator, self.cmd("moderate tournament start", "tournament start")
        )
        await self.fake.settle()
        (table,) = await self.bot.tournaments.store.tables(record.id, 1)
        return record.id, table


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[Club]:
    fake = await FakeDiscord.start(make_bot(tmp_path / "hostile.sqlite3", 18, FakeClock()))
    yield Club(fake)
    await fake.close()


# -- 1 and 2: a verdict is places 1..n in ASCII digits, nothing else ------------------------


async def test_adjudicate_refuses_other_digits_and_signs_and_records_nothing(club: Club) -> None:
    tid, table = await club.duel()
    adjudicate = club.cmd("moderate tournament adjudicate", "tournament adjudicate")
    for result in (
        "² 1",
        "① ②",
        "١ ٢",
        "-2 -1",
        "1 -2",
        "-1",
        "2 2",
        "1 - -2",
        "99999999999999999999 1",
    ):
        out = await club.fake.slash(club.moderator, adjudicate, game=table.game_id, result=result)
        text = said(out)
        assert "one place per seat" in text and "Something went wrong" not in text, result
        (now,) = await club.bot.tournaments.store.tables(tid, 1)
        assert now.places is None, result
    assert not (await club.bot.service.get(table.game_id)).is_over
    # Hyphens between places still read as separators.
    out = await club.fake.slash(club.moderator, adjudicate, game=table.game_id, result="2 - 1")
    assert "Recorded." in said(out)
    (now,) = await club.bot.tournaments.store.tables(tid, 1)
    assert now.places == (2, 1) and now.adjudicated


# -- 3: a stored row that is not UTF-8 -------------------------------------------------------


async def test_a_snapshot_that_is_not_utf8_is_a_broken_game_not_a_crash(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    asha, bhima = club.players
    game_id, lobby = await open_lobby(club.fake, "kauda_baji", asha, bhima)
    await start(club.fake, asha, lobby)
    bot = club.bot
    version = (await bot.store.get_game(game_id)).version
    # A damaged file: the newest snapshot holds a byte that is not UTF-8
    # (PRAGMA quick_check does not look at text), next to a secret word.
    await bot.db.conn.execute(
        "INSERT OR REPLACE INTO snapshots (game_id, seq, state, created_at) "
        "VALUES (?, ?, CAST(? AS TEXT), 0)",
        (game_id, version, b'{"secret-hand": "\xff"}'),
    )
    await bot.db.conn.commit()
    bot.service.forget(game_id)
    with caplog.at_level(logging.INFO):
        out = await club.fake.slash(asha, "game board", game=game_id)
    text = said(out)
    assert f"Game #{game_id} could not be restored" in text, text
    # A log line naming the game; never sqlite3's message, which quotes the row.
    assert any(f"game {game_id} cannot be rebuilt" in r.getMessage() for r in caplog.records)
    for record in caplog.records:
        logged = logging.Formatter().format(record)
        assert "secret" not in logged and "OperationalError" not in logged, logged


# -- 4: ids SQLite cannot hold name nothing --------------------------------------------------


@pytest.mark.parametrize("number", [TOO_BIG, 2**64 + 7, -(2**63) - 1])
async def test_ids_beyond_sqlite_integers_are_no_game_and_no_tournament(
    club: Club, number: int
) -> None:
    asha = club.players[0]
    out = await club.fake.slash(asha, "game board", game=number)
    assert f"There is no game #{number}" in said(out)
    out = await club.fake.slash(asha, "tournament standings", tournament=number)
    assert f"There is no tournament #{number}" in said(out)
    out = await club.fake.slash(asha, "tournament join", tournament=number)
    assert f"There is no tournament #{number}" in said(out)
    # A button whose custom_id names such a game reads the same way.
    assert await club.bot.store.get_game(number) is None
    assert await club.bot.tournaments.store.table_of_game(number) is None


async def test_adjudicating_a_game_id_beyond_sqlite_says_it_is_not_the_tournaments(
    club: Club,
) -> None:
    await club.duel()
    adjudicate = club.cmd("moderate tournament adjudicate", "tournament adjudicate")
    out = await club.fake.slash(club.moderator, adjudicate, game=TOO_BIG, result="draw")
    assert f"Game #{TOO_BIG} is not a game of" in said(out)


# -- 5: /… settings threads reads on and off, and refuses the rest ---------------------------


async def test_threads_setting_refuses_anything_but_on_and_off(club: Club) -> None:
    threads = club.cmd("moderate settings threads", "chaupal settings threads")
    guild = club.fake.guild_id

    async def stored() -> bool:
        return (await server_settings(club.bot.server_settings, guild)).threads

    out = await club.fake.slash(club.moderator, threads, value="off")
    assert "Saved" in said(out) and not await stored()
    for value in ("maybe", "", "   ", "onn", "2", "ja"):
        out = await club.fake.slash(club.moderator, threads, value=value, validate=False)
        text = said(out)
        assert "`threads` is `on` or `off`" in text and "Nothing was changed" in text, value
        assert not await stored(), value
    for value, on in (("ON", True), ("no", False), ("1", True), ("False", False), ("yes", True)):
        out = await club.fake.slash(club.moderator, threads, value=value, validate=False)
        assert "Saved" in said(out), value
        assert await stored() is on, value


# -- 6: a failure discord.py raises before the command runs is answered ----------------------


async def test_a_value_outside_the_choices_is_answered_not_dropped(club: Club) -> None:
    new = club.cmd("moderate tournament new", "tournament new")
    out = await club.fake.slash(
        club.moderator, new, game="chess**@everyone**", format="swiss", validate=False
    )
    text = said(out)
    assert "is not one of this command's choices" in text, text
    assert "\\@everyone" in text and "**" not in text  # quoted through excerpt
    assert "Failed to convert" not in text  # never discord.py's own words
    assert await club.bot.tournaments.store.in_guild(club.fake.guild_id) == []
    out = await club.fake.slash(
        club.moderator, new, game="artaban", format="ladder", validate=False
    )
    assert "“ladder” is not one of this command's choices" in said(out)


async def test_a_channel_of_another_server_is_answered_and_changes_nothing(club: Club) -> None:
    announcements = club.cmd("moderate settings announcements", "chaupal settings announcements")
    # A channel Discord resolved in another server: not in this guild's cache.
    elsewhere = club.fake.world.snowflake()
    club.fake.world.channels[elsewhere] = {
        **club.fake.world.channels[club.fake.channel_id],
        "id": str(elsewhere),
        "guild_id": str(club.fake.world.snowflake()),
        "name": "elsewhere",
    }
    out = await club.fake.slash(club.moderator, announcements, channel=elsewhere, validate=False)
    assert "That channel is not one I can use here" in said(out)
    settings = await server_settings(club.bot.server_settings, club.fake.guild_id)
    assert settings.announcements is None


async def test_a_command_that_fails_after_answering_gets_a_followup_without_the_error_text(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def failing(itx: Any, *args: Any, **kwargs: Any) -> None:
        await itx.response.defer(ephemeral=True, thinking=True)
        raise RuntimeError("the hidden hand is 6 of cups")

    monkeypatch.setattr(club.bot.desk, "pairings", failing)
    out = await club.fake.slash(club.players[0], "tournament pairings")
    text = said(out)
    assert "Something went wrong on my side" in text and "hidden hand" not in text
    assert [s.route for s in out if s.ephemeral][-1] != "interaction.response"


# -- 7: player ranges in words ------------------------------------------------------------


async def test_pods_of_a_two_player_game_say_what_the_game_is_for(club: Club) -> None:
    new = club.cmd("moderate tournament new", "tournament new")
    out = await club.fake.slash(club.moderator, new, game="artaban", format="pods")
    assert "Artaban is for 2 players; pods need games for 3 to 5." in said(out)
    out = await club.fake.slash(club.moderator, new, game="kauda_baji", format="pods", table_size=5)
    text = said(out)
    assert "Pods of 5 do not fit Kauda Baji, which is for 2 to 4 players" in text, text
    assert "its pods are of 3 to 4 players" in text
    assert await club.bot.tournaments.store.in_guild(club.fake.guild_id) == []


async def test_a_moderator_ends_a_game_that_cannot_be_restored(club: Club) -> None:
    asha, bhima = club.players
    game_id, lobby = await open_lobby(club.fake, "kauda_baji", asha, bhima)
    await start(club.fake, asha, lobby)
    bot = club.bot
    version = (await bot.store.get_game(game_id)).version
    await bot.db.conn.execute(
        "INSERT OR REPLACE INTO snapshots (game_id, seq, state, created_at) "
        "VALUES (?, ?, CAST(? AS TEXT), 0)",
        (game_id, version, b'{"broken": "\xff"}'),
    )
    await bot.db.conn.commit()
    bot.service.forget(game_id)
    # A player cannot end it for everyone; a moderator can, and says so.
    out = await club.fake.slash(asha, "game resign", game=game_id)
    assert "could not be restored" in said(out)
    assert (await bot.store.get_game(game_id)).status == "active"
    out = await club.fake.slash(club.moderator, "moderate game end", game=game_id)
    assert "it is over, without a result" in said(out), said(out)
    record = await bot.store.get_game(game_id)
    assert record.status == "abandoned"
    assert await bot.service.timers.of_game(game_id) == []
