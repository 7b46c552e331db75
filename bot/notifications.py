"""Each player's own notifications (``/chaupal me``, issue 16): how they are
told it is their turn, how often they are reminded, and their quiet hours in
their own time zone.

A pure value type: no I/O and no Discord.  The settings are stored per user,
across every server, as the JSON object :meth:`Notifications.to_json` makes
(``storage.players.PlayerSettingsStore``); :meth:`Notifications.from_json`
reads back whatever is there and never fails, so a value written by another
version, or by hand, falls back to its default.  Player input is checked by
:meth:`Notifications.parse`, which refuses with a sentence for the player.

Time zones come from the IANA database (``zoneinfo``; the ``tzdata`` package
supplies it where the system has none), so quiet hours follow daylight saving
time.  A fixed offset (``+05:30``) is accepted too.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

from bot.engines.core import InvalidOptions, excerpt
from bot.i18n import DEFAULT, Msg, t
from bot.timekeeping import format_duration, parse_duration

__all__ = [
    "FIELDS",
    "Notifications",
    "TurnAlert",
    "format_quiet",
    "parse_quiet",
    "parse_timezone",
    "timezone_names",
    "tzinfo_of",
]

TurnAlert = Literal["ping", "dm", "both"]

TURN_ALERTS: Final[tuple[TurnAlert, ...]] = ("ping", "dm", "both")

FIELDS: Final = ("turn", "reminders", "quiet", "timezone", "views")
"""The settings a player may set, by the names ``parse`` and the JSON use."""

MINUTES_A_DAY: Final = 24 * 60

_TURN_WORDS: Final[dict[str, TurnAlert]] = {
    "ping": "ping",
    "channel": "ping",
    "mention": "ping",
    "dm": "dm",
    "dms": "dm",
    "both": "both",
}
_OFF: Final = frozenset({"off", "none", "no"})
_GAME: Final = frozenset({"game", "default"})
_CLOCK_RE: Final = re.compile(r"([0-9]{1,2})(?::([0-9]{2}))?")
_QUIET_RE: Final = re.compile(r"\s*([0-9:]+)\s*[-–—]\s*([0-9:]+)\s*")
_OFFSET_RE: Final = re.compile(r"(?:utc|gmt)?\s*([+-])\s*([0-9]{1,2})(?::?([0-9]{2}))?")
_UTC_WORDS: Final = frozenset({"utc", "gmt", "z", "zulu", "+00:00", "-00:00"})


# -- time zones -----------------------------------------------------------------


@functools.cache
def timezone_names() -> tuple[str, ...]:
    """Every IANA zone name the zone database knows, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


@functools.cache
def _known() -> frozenset[str]:
    return frozenset(timezone_names())


@functools.cache
def _by_lower() -> dict[str, str]:
    return {name.lower(): name for name in timezone_names()}


@functools.cache
def _by_city() -> dict[str, str | None]:
    """The last part of each zone name (``kolkata``), where it names one zone."""
    found: dict[str, str | None] = {}
    for name in timezone_names():
        if "/" not in name:
            continue
        city = name.rsplit("/", 1)[1].lower()
        found[city] = None if city in found else name
        spaced = city.replace("_", " ")
        if spaced != city:
            found[spaced] = None if spaced in found else name
    return found


def _offset_name(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}:{mins:02d}"


def _parse_offset(word: str) -> int | None:
    """Minutes east of UTC for ``+05:30``, ``-3``, ``UTC+5``; None if not an offset."""
    found = _OFFSET_RE.fullmatch(word)
    if found is None:
        return None
    sign, hours, mins = found[1], int(found[2]), int(found[3] or 0)
    if mins >= 60:
        return None
    total = hours * 60 + mins
    if total > 14 * 60:
        return None
    return -total if sign == "-" else total


def parse_timezone(text: str) -> str:
    """A time zone as players write it, in its stored spelling: an IANA name
    (any case; a city alone when it names one zone) or a fixed offset
    (``+05:30``).  Raises :class:`InvalidOptions`."""
    word = " ".join(str(text).split())
    lower = word.lower()
    if not lower:
        raise InvalidOptions(Msg("Name a time zone, like `Asia/Kolkata` or `+05:30`."))
    if lower in _UTC_WORDS:
        return "UTC"
    known = _by_lower().get(lower.replace(" ", "_"))
    if known is not None:
        return known
    city = _by_city().get(lower)
    if city is not None:
        return city
    offset = _parse_offset(lower.replace(" ", ""))
    if offset is not None:
        return "UTC" if offset == 0 else _offset_name(offset)
    raise InvalidOptions(
        Msg(
            "I don't know the time zone {zone}: use a name like `Asia/Kolkata` or "
            "`America/New_York` (the list offers them as you type), or an offset like `+05:30`.",
            zone=excerpt(text),
        )
    )


@functools.lru_cache(maxsize=512)
def tzinfo_of(name: str) -> dt.tzinfo:
    """The ``tzinfo`` of a stored time zone name; UTC when it is unknown."""
    offset = _parse_offset(name.lower()) if name[:1] in "+-" else None
    if offset is not None:
        return dt.timezone(dt.timedelta(minutes=offset))
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return dt.UTC


def _valid_timezone(name: object) -> bool:
    if not isinstance(name, str) or not name:
        return False
    if name == "UTC" or name in _known():
        return True
    try:
        return parse_timezone(name) == name
    except InvalidOptions:
        return False


# -- quiet hours ---------------------------------------------------------------


def _clock_minutes(word: str, text: str) -> int:
    found = _CLOCK_RE.fullmatch(word)
    if found is None:
        raise InvalidOptions(_quiet_help(text))
    hours, mins = int(found[1]), int(found[2] or 0)
    if mins >= 60 or hours > 24 or (hours == 24 and mins):
        raise InvalidOptions(_quiet_help(text))
    return (hours * 60 + mins) % MINUTES_A_DAY


def _quiet_help(text: str) -> str:
    return Msg(
        "Quiet hours are written like `23:00-07:00` (from, to, in your time zone), "
        "or `off`; not {typed}.",
        typed=excerpt(text),
    )


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``23:00-07:00`` -> (1380, 420); ``off`` -> None.  Raises :class:`InvalidOptions`."""
    word = str(text).strip().lower()
    if word in _OFF:
        return None
    found = _QUIET_RE.fullmatch(word)
    if found is None:
        raise InvalidOptions(_quiet_help(text))
    start, end = _clock_minutes(found[1], text), _clock_minutes(found[2], text)
    if start == end:
        raise InvalidOptions(
            Msg("Quiet hours must start and end at different times (`off` turns them off).")
        )
    return start, end


def format_quiet(quiet: tuple[int, int]) -> str:
    """(1380, 420) -> ``23:00-07:00``."""
    return "-".join(f"{m // 60:02d}:{m % 60:02d}" for m in quiet)


def _quiet_of(value: object) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        start, end = value
        if (
            all(isinstance(m, int) and not isinstance(m, bool) for m in (start, end))
            and 0 <= start < MINUTES_A_DAY
            and 0 <= end < MINUTES_A_DAY
            and start != end
        ):
            return int(start), int(end)
        return None
    if isinstance(value, str):
        try:
            return parse_quiet(value)
        except InvalidOptions:
            return None
    return None


# -- reminders -------------------------------------------------------------------


def _parse_reminders(text: str) -> float | Literal["game"] | None:
    word = str(text).strip().lower()
    if word in _GAME:
        return "game"
    if word in _OFF:
        return None
    try:
        return parse_duration(word, Msg("A reminder"))
    except InvalidOptions as exc:
        said = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
        raise InvalidOptions(
            Msg("{error} Or `game` (as the game says) or `off`.", error=said)
        ) from None


def _reminders_of(value: object) -> float | Literal["game"] | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in _OFF):
        return None
    if isinstance(value, bool):
        return "game"
    if isinstance(value, int | float):
        seconds = float(value)
        return seconds if 0 < seconds < float("inf") else "game"
    if isinstance(value, str):
        try:
            return _parse_reminders(value)
        except InvalidOptions:
            return "game"
    return "game"


# -- the value type ----------------------------------------------------------------


@dataclass(frozen=True)
class Notifications:
    """One player's own notification settings; the defaults are what
    everybody gets until they change them."""

    turn: TurnAlert = "ping"
    """How they are told it is their turn: a ping in the game's channel, a
    DM, or both."""
    reminders: float | Literal["game"] | None = "game"
    """``"game"``: follow the game's reminder option; None: no reminders;
    seconds: the first reminder after that long, then one a day."""
    quiet: tuple[int, int] | None = None
    """Quiet hours: (start, end) in minutes after local midnight; may wrap
    past midnight (``23:00-07:00``)."""
    timezone: str = "UTC"
    """An IANA name (``Asia/Kolkata``) or a fixed offset (``+05:30``)."""
    views: bool = True
    """Whether their private view of a game (a hand, a screen) is kept up to
    date in its one standing DM as it changes; off: a DM comes only with a
    decision they owe (issue 30)."""

    # -- quiet hours

    def _local(self, now: float) -> dt.datetime:
        return dt.datetime.fromtimestamp(now, tzinfo_of(self.timezone))

    def quiet_at(self, now: float) -> bool:
        """Whether the POSIX time ``now`` falls in the player's quiet hours."""
        if self.quiet is None:
            return False
        start, end = self.quiet
        local = self._local(now)
        minute = local.hour * 60 + local.minute + (local.second + local.microsecond / 1e6) / 60
        if start < end:
            return start <= minute < end
        return minute >= start or minute < end

    def quiet_ends(self, now: float) -> float:
        """``now`` when it is not in quiet hours, else the moment they end
        (the next time the local clock shows their end, daylight saving
        time included)."""
        if self.quiet is None or not self.quiet_at(now):
            return now
        tz = tzinfo_of(self.timezone)
        end = dt.time(self.quiet[1] // 60, self.quiet[1] % 60)
        day = self._local(now).date()
        for _ in range(3):
            candidate = dt.datetime.combine(day, end, tzinfo=tz).timestamp()
            if candidate > now:
                return candidate
            day += dt.timedelta(days=1)
        return now  # unreachable for any real zone: an end lies within a day

    # -- JSON

    def to_json(self) -> dict[str, Any]:
        """Every setting as JSON values (``off`` spelled out, so that a
        missing key, or None, always means the default)."""
        reminders: Any = "off" if self.reminders is None else self.reminders
        return {
            "turn": self.turn,
            "reminders": reminders,
            "quiet": "off" if self.quiet is None else list(self.quiet),
            "timezone": self.timezone,
            "views": "on" if self.views else "off",
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Notifications:
        """The settings stored in ``obj``; a missing or unreadable value is
        its default.  Never raises."""
        if not isinstance(obj, Mapping):
            return cls()
        base = cls()
        turn = obj.get("turn", base.turn)
        timezone = obj.get("timezone", base.timezone)
        return cls(
            turn=cast(TurnAlert, turn) if turn in TURN_ALERTS else base.turn,
            reminders=_reminders_of(obj["reminders"]) if "reminders" in obj else base.reminders,
            quiet=_quiet_of(obj.get("quiet")),
            timezone=timezone if _valid_timezone(timezone) else base.timezone,
            views=obj.get("views") != "off",
        )

    @classmethod
    def parse(cls, given: Mapping[str, str], base: Notifications | None = None) -> Notifications:
        """``base`` (the defaults) with the settings a player typed in
        ``given`` (``turn``, ``reminders``, ``quiet``, ``timezone``).  Raises
        :class:`InvalidOptions` with a sentence for the player."""
        current = base if base is not None else cls()
        unknown = [k for k in given if k not in FIELDS]
        if unknown:
            raise InvalidOptions(
                Msg(
                    "There is no setting {name}: the settings are {settings}.",
                    name=excerpt(unknown[0]),
                    settings=", ".join(f"`{f}`" for f in FIELDS),
                )
            )
        changes: dict[str, Any] = {}
        if "turn" in given:
            word = str(given["turn"]).strip().lower()
            if word not in _TURN_WORDS:
                raise InvalidOptions(
                    Msg(
                        "Be told it is your turn by `ping` (in the game's channel), `dm` or "
                        "`both`; not {typed}.",
                        typed=excerpt(given["turn"]),
                    )
                )
            changes["turn"] = _TURN_WORDS[word]
        if "reminders" in given:
            changes["reminders"] = _parse_reminders(given["reminders"])
        if "quiet" in given:
            changes["quiet"] = parse_quiet(given["quiet"])
        if "timezone" in given:
            changes["timezone"] = parse_timezone(given["timezone"])
        if "views" in given:
            word = str(given["views"]).strip().lower()
            if word not in ("on", "off"):
                raise InvalidOptions(
                    Msg(
                        "Keep your private views up to date `on` or `off`; not {typed}.",
                        typed=excerpt(word),
                    )
                )
            changes["views"] = word == "on"
        return cls(
            turn=changes.get("turn", current.turn),
            reminders=changes.get("reminders", current.reminders),
            quiet=changes.get("quiet", current.quiet),
            timezone=changes.get("timezone", current.timezone),
            views=changes.get("views", current.views),
        )

    # -- words

    def turn_words(self, lang: str = DEFAULT) -> str:
        """How the player is told it is their turn, in words."""
        if self.turn == "ping":
            return t(lang, "a ping in the game's thread or channel")
        if self.turn == "dm":
            return t(lang, "a DM with a link to the board")
        return t(lang, "a ping in the game's channel and a DM")

    def reminder_words(self, lang: str = DEFAULT) -> str:
        """How the player is reminded, in words."""
        if self.reminders == "game":
            return t(lang, "as each game says (its `reminder` option)")
        if self.reminders is None:
            return t(lang, "off: no reminders")
        return t(
            lang,
            "{delay} after a decision waits, then daily, and once shortly before the deadline",
            delay=format_duration(self.reminders),
        )

    def view_words(self, lang: str = DEFAULT) -> str:
        """Whether the player's private views are kept up to date, in words."""
        if self.views:
            return t(lang, "kept up to date in one DM per game, edited silently as it changes")
        return t(lang, "off: a DM comes only with a decision you owe")

    def describe(self, lang: str = DEFAULT) -> str:
        """One line for players."""
        turn, reminders = self.turn_words(lang), self.reminder_words(lang)
        quiet = t(lang, "none") if self.quiet is None else format_quiet(self.quiet)
        return t(
            lang,
            "Your turn: {turn} · reminders: {reminders} · quiet hours: {quiet} · "
            "time zone: {timezone} · private views: {views}",
            turn=turn,
            reminders=reminders,
            quiet=quiet,
            timezone=self.timezone,
            views="on" if self.views else "off",
        )
