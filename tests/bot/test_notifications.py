"""Each player's own notifications (issue 16): the pure value type
(``bot.notifications.Notifications``) and its storage
(``storage.players.PlayerSettingsStore``, migration 0007)."""

from __future__ import annotations

import datetime as dt
import importlib.util
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import InvalidOptions
from bot.notifications import Notifications, parse_timezone, timezone_names
from bot.timekeeping import HOUR
from storage.database import Database
from storage.opening import open_database
from storage.players import PlayerSettingsStore


def at(year: int, month: int, day: int, hour: int, minute: int = 0) -> float:
    """A POSIX time given in UTC."""
    return dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC).timestamp()


# -- parsing what players type --------------------------------------------------------


def test_the_defaults() -> None:
    mine = Notifications()
    assert (mine.turn, mine.reminders, mine.quiet, mine.timezone) == ("ping", "game", None, "UTC")
    assert Notifications.parse({}) == mine
    assert not mine.quiet_at(at(2024, 1, 1, 3))
    assert mine.quiet_ends(123.0) == 123.0


def test_parse_every_setting() -> None:
    mine = Notifications.parse(
        {"turn": "dm", "reminders": "6h", "quiet": "23:00-07:00", "timezone": "asia/kolkata"}
    )
    assert mine == Notifications("dm", 6 * HOUR, (23 * 60, 7 * 60), "Asia/Kolkata")
    assert Notifications.parse({"turn": "both"}, mine).turn == "both"
    # What is not given stays as it was.
    changed = Notifications.parse({"reminders": "off"}, mine)
    assert changed == Notifications("dm", None, (23 * 60, 7 * 60), "Asia/Kolkata")
    assert Notifications.parse({"reminders": "game"}, changed).reminders == "game"
    assert Notifications.parse({"quiet": "off"}, mine).quiet is None
    assert Notifications.parse({"quiet": "22-6"}).quiet == (22 * 60, 6 * 60)
    assert Notifications.parse({"quiet": "13:30 - 14:15"}).quiet == (13 * 60 + 30, 14 * 60 + 15)
    assert Notifications.parse({"quiet": "22:00-24:00"}).quiet == (22 * 60, 0)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Asia/Kolkata", "Asia/Kolkata"),
        ("america/new_york", "America/New_York"),
        ("America/New York", "America/New_York"),
        ("Kolkata", "Asia/Kolkata"),
        ("+05:30", "+05:30"),
        ("+5:30", "+05:30"),
        ("UTC-3", "-03:00"),
        ("-0800", "-08:00"),
        ("utc", "UTC"),
        ("+00:00", "UTC"),
    ],
)
def test_time_zones_are_stored_in_one_spelling(typed: str, stored: str) -> None:
    assert parse_timezone(typed) == stored
    assert Notifications.parse({"timezone": typed}).timezone == stored


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"turn": "carrier pigeon"}, "`ping`"),
        ({"reminders": "soon"}, "`12h`"),
        ({"reminders": "0h"}, "longer than zero"),
        ({"reminders": "90d"}, "at most"),
        ({"quiet": "late"}, "23:00-07:00"),
        ({"quiet": "25:00-07:00"}, "23:00-07:00"),
        ({"quiet": "23:00-23:00"}, "different times"),
        ({"quiet": "23:75-07:00"}, "23:00-07:00"),
        ({"timezone": "Mars/Olympus_Mons"}, "Asia/Kolkata"),
        ({"timezone": "+15:00"}, "Asia/Kolkata"),
        ({"timezone": "  "}, "time zone"),
        ({"colour": "blue"}, "no setting"),
    ],
)
def test_bad_input_is_refused_with_a_sentence(given: dict[str, str], words: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        Notifications.parse(given)
    message = str(caught.value)
    assert words in message, message
    assert message.endswith("."), message


def test_refusals_quote_input_harmlessly() -> None:
    nasty = "<@123> **bold** " + "x" * 500
    for key in ("turn", "reminders", "quiet", "timezone"):
        with pytest.raises(InvalidOptions) as caught:
            Notifications.parse({key: nasty})
        message = str(caught.value)
        assert "<@123>" not in message and "**bold**" not in message, message
        assert len(message) < 400, message


# -- quiet hours and time zones -------------------------------------------------------


def test_quiet_hours_wrap_past_midnight() -> None:
    mine = Notifications(quiet=(23 * 60, 7 * 60))
    assert not mine.quiet_at(at(2024, 5, 1, 22, 59))
    assert mine.quiet_at(at(2024, 5, 1, 23, 0))
    assert mine.quiet_at(at(2024, 5, 2, 3, 0))
    assert not mine.quiet_at(at(2024, 5, 2, 7, 0))
    assert mine.quiet_ends(at(2024, 5, 1, 23, 30)) == at(2024, 5, 2, 7)
    assert mine.quiet_ends(at(2024, 5, 2, 6, 59)) == at(2024, 5, 2, 7)
    assert mine.quiet_ends(at(2024, 5, 2, 12)) == at(2024, 5, 2, 12)


def test_quiet_hours_within_one_day() -> None:
    mine = Notifications(quiet=(13 * 60, 14 * 60))
    assert not mine.quiet_at(at(2024, 5, 1, 12, 59))
    assert mine.quiet_at(at(2024, 5, 1, 13, 30))
    assert not mine.quiet_at(at(2024, 5, 1, 14))
    assert mine.quiet_ends(at(2024, 5, 1, 13, 30)) == at(2024, 5, 1, 14)


def test_quiet_hours_in_a_fixed_offset() -> None:
    mine = Notifications(quiet=(23 * 60, 7 * 60), timezone="+05:30")
    # 23:00 in +05:30 is 17:30 UTC.
    assert not mine.quiet_at(at(2024, 5, 1, 17, 29))
    assert mine.quiet_at(at(2024, 5, 1, 17, 30))
    assert mine.quiet_ends(at(2024, 5, 1, 18)) == at(2024, 5, 2, 1, 30)


def test_quiet_hours_follow_daylight_saving_time() -> None:
    # New York: UTC-5 in winter, UTC-4 in summer (from 2 a.m. on 10 March 2024,
    # back on 3 November 2024).
    mine = Notifications(quiet=(22 * 60, 7 * 60), timezone="America/New_York")
    # 02:30 UTC is 21:30 in winter (not quiet) but 22:30 in summer (quiet).
    assert not mine.quiet_at(at(2024, 1, 15, 2, 30))
    assert mine.quiet_at(at(2024, 7, 1, 2, 30))
    # Quiet hours end at 07:00 local: 12:00 UTC in winter, 11:00 in summer.
    assert mine.quiet_ends(at(2024, 1, 15, 4)) == at(2024, 1, 15, 12)
    assert mine.quiet_ends(at(2024, 7, 1, 4)) == at(2024, 7, 1, 11)
    # The night the clocks go forward: quiet from 22:00 EST (03:00 UTC) to
    # 07:00 EDT (11:00 UTC), an hour shorter.
    assert mine.quiet_at(at(2024, 3, 10, 3, 0))
    assert mine.quiet_ends(at(2024, 3, 10, 3, 0)) == at(2024, 3, 10, 11)
    assert not mine.quiet_at(at(2024, 3, 10, 11, 0))
    # The night they go back: 22:00 EDT (02:00 UTC) to 07:00 EST (12:00 UTC).
    assert mine.quiet_ends(at(2024, 11, 3, 2, 0)) == at(2024, 11, 3, 12)
    assert mine.quiet_at(at(2024, 11, 3, 11, 30))


def test_the_zone_database_is_there() -> None:
    # The dependency that supplies the zone database where the system has none.
    assert importlib.util.find_spec("tzdata") is not None
    names = timezone_names()
    assert "Asia/Kolkata" in names and "America/New_York" in names


# -- JSON ------------------------------------------------------------------------------


def test_json_round_trip() -> None:
    for mine in (
        Notifications(),
        Notifications("dm", None, (23 * 60, 7 * 60), "Asia/Kolkata"),
        Notifications("both", 6 * HOUR, (0, 30), "-03:00"),
    ):
        assert Notifications.from_json(mine.to_json()) == mine
    # "off" is written out, so that a missing key (or None) means the default.
    assert Notifications(reminders=None).to_json()["reminders"] == "off"
    assert Notifications.from_json({"reminders": None}).reminders is None


@pytest.mark.parametrize(
    "stored",
    [
        {},
        {"turn": "telegram", "reminders": "soon", "quiet": "never", "timezone": "Mars/Base"},
        {"turn": 3, "reminders": -5, "quiet": [1, 1], "timezone": 12},
        {"turn": None, "reminders": True, "quiet": [0, 99999], "timezone": ""},
        {"reminders": float("nan"), "quiet": ["a", "b"], "timezone": "+99:00"},
        {"reminders": [], "quiet": {"start": 1}, "timezone": None},
    ],
)
def test_bad_stored_values_read_as_defaults(stored: dict[str, Any]) -> None:
    assert Notifications.from_json(stored) == Notifications()


def test_describe_is_one_line() -> None:
    mine = Notifications("both", 6 * HOUR, (23 * 60, 7 * 60), "Asia/Kolkata")
    line = mine.describe()
    assert "\n" not in line
    for words in ("DM", "channel", "6h", "23:00-07:00", "Asia/Kolkata"):
        assert words in line, line
    assert "as each game says" in Notifications().describe()


# -- the store -----------------------------------------------------------------------------


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "chaupal.sqlite3")
    yield database
    await database.close()


async def test_the_store_sets_gets_and_resets(db: Database) -> None:
    store = PlayerSettingsStore(db)
    assert await store.get(1) == {}
    assert await store.get_many([]) == {}
    assert await store.set(1, "turn", "dm", 10.0) == {"turn": "dm"}
    assert await store.set(1, "quiet", [1380, 420], 11.0) == {"turn": "dm", "quiet": [1380, 420]}
    await store.set(2, "timezone", "Asia/Kolkata", 12.0)
    assert await store.get_many([1, 2, 3]) == {
        1: {"turn": "dm", "quiet": [1380, 420]},
        2: {"timezone": "Asia/Kolkata"},
    }
    assert await store.set(1, "turn", None, 13.0) == {"quiet": [1380, 420]}
    assert await store.update(2, {"timezone": None, "turn": "both"}, 14.0) == {"turn": "both"}
    assert await store.get(2) == {"turn": "both"}


async def test_the_store_reads_many_in_one_query(db: Database) -> None:
    store = PlayerSettingsStore(db)
    for user in range(1, 6):
        await store.set(user, "turn", "dm", 1.0)
    queries: list[str] = []
    real_read = db.read

    def counting_read() -> Any:
        queries.append("read")
        return real_read()

    db.read = counting_read  # type: ignore[method-assign]
    try:
        found = await store.get_many(range(1, 11))
    finally:
        db.read = real_read  # type: ignore[method-assign]
    assert sorted(found) == [1, 2, 3, 4, 5]
    assert queries == ["read"]


async def test_the_store_survives_a_reopen_and_a_broken_row(tmp_path: Path) -> None:
    path = tmp_path / "chaupal.sqlite3"
    first = await open_database(path)
    await PlayerSettingsStore(first).set(7, "turn", "both", 1.0)
    async with first.transaction() as conn:
        await conn.execute(
            "INSERT INTO player_settings (user_id, settings, updated_at) VALUES (8, 'nonsense', 1)"
        )
    await first.close()
    second = await open_database(path)
    try:
        store = PlayerSettingsStore(second)
        assert await store.get(7) == {"turn": "both"}
        assert await store.get(8) == {}
        assert await store.set(8, "turn", "dm", 2.0) == {"turn": "dm"}
    finally:
        await second.close()
