"""Clocks, timeout policies and reminders: value types and pure rules.

Nothing here does I/O: the service (:mod:`bot.service`) and the keeper
(:mod:`bot.edge.delivery.keeper`) call these functions with the time and the seats, and
store what they return.  Table options are the service's own lobby options,
apart from the engine's:

``clock``
    ``none`` (default), a correspondence clock per move (``1d``, ``12h``:
    each move within that time), or a time bank (``3d+12h``: three days to
    start with, twelve hours more after each move, as on Board Game Arena).
``timeout``
    what happens when a clock runs out: ``substitute`` (default: the
    automatic player makes that one move; three in a row become
    ``forfeit``), ``skip`` (pass, where the game has a ``pass`` move;
    otherwise as ``substitute``) or ``forfeit`` (in a two-player game the
    player loses; with more, the seat passes to the automatic player and
    ranks last).
``reminder``
    ``auto`` (default): reminders follow the clock, one at half the time
    left and one shortly before the deadline (that one only when it comes
    a day or more after the first), and once a day without a clock; or how
    long a player may leave a decision before a reminder (``12h``), then
    again every 24 hours, with a last one shortly before the deadline.
    ``off`` sends none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from bot.engines.core import InvalidOptions, excerpt
from bot.engines.messages import Msg
from bot.levels import DEFAULT_LEVEL, Level, parse_level
from storage.games import SeatRecord
from storage.timekeeping import Timer

MINUTE: Final = 60.0
HOUR: Final = 3600.0
DAY: Final = 86400.0
MAX_DURATION: Final = 60 * DAY
"""No clock, reminder or vacation is longer than this."""
REPEAT_REMINDER: Final = DAY
"""After the first reminder, one every this long while still waiting."""
FINAL_WARNING_MAX: Final = 6 * HOUR
FINAL_WARNING_MIN: Final = 15 * MINUTE
"""The last reminder of a wait comes ``ClockRule.warning`` before the
deadline: an eighth of the clock, within these bounds."""

THROW_SEAT: Final = -1
"""The seat of a held throw's ``clock`` timer: the chance player's
(``bot.engines.core.CHANCE``)."""

MAX_TIMEOUTS_IN_A_ROW: Final = 3
"""Under ``substitute`` and ``skip``, this many timeouts in a row become
``forfeit``: a player who vanished does not hold a game up for ever."""
VACATION_DAYS_MAX: Final = 14
VACATION_WINDOW_DAYS: Final = 60
"""At most VACATION_DAYS_MAX days away in any VACATION_WINDOW_DAYS."""

TABLE_OPTIONS: Final = (
    "clock",
    "timeout",
    "reminder",
    "rated",
    "level",
    "substitute",
    "takeback",
)
"""Lobby options the service reads (the rest go to the engine)."""

_UNITS: Final = {"d": DAY, "h": HOUR, "m": MINUTE}
_DURATION_RE: Final = re.compile(r"(?:[0-9]{1,4}[dhm])+")
_PART_RE: Final = re.compile(r"([0-9]{1,4})([dhm])")


A_TIME: Final = Msg("A time")


def parse_duration(text: str, what: str = A_TIME) -> float:
    """``1d``, ``12h``, ``90m``, ``1d12h`` -> seconds.  ``what`` names the
    time in the refusal (a message, so it is read in the player's language)."""
    word = str(text).strip().lower()
    if not _DURATION_RE.fullmatch(word):
        raise InvalidOptions(
            Msg(
                "{what} is written like `1d`, `12h`, `30m` or `1d12h`, not {given}.",
                what=what,
                given=excerpt(text),
            )
        )
    seconds = sum(int(n) * _UNITS[u] for n, u in _PART_RE.findall(word))
    if seconds <= 0:
        raise InvalidOptions(Msg("{what} must be longer than zero.", what=what))
    if seconds > MAX_DURATION:
        raise InvalidOptions(
            Msg("{what} can be at most {most}.", what=what, most=format_duration(MAX_DURATION))
        )
    return seconds


def format_duration(seconds: float) -> str:
    """Seconds as players write them: ``1d12h``, ``45m``, ``0m``."""
    whole = max(0, round(seconds / MINUTE))
    days, rest = divmod(whole, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [
        f"{days}d" if days else "",
        f"{hours}h" if hours else "",
        f"{minutes}m" if minutes else "",
    ]
    return "".join(parts) or "0m"


def format_left(seconds: float) -> str:
    """Time left on a clock, short: ``2d 3h``, ``5h 10m``, ``12m``, ``0m``."""
    whole = max(0, int(seconds // MINUTE))
    days, rest = divmod(whole, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m"


@dataclass(frozen=True)
class ClockRule:
    """A game's clock: ``initial`` seconds to start; with ``per_move`` the
    clock is set back to ``initial`` at each move (correspondence), else
    ``increment`` is added after each move (a time bank)."""

    initial: float
    increment: float = 0.0
    per_move: bool = False

    def after_move(self, left: float) -> float:
        """Time left once a move is made with ``left`` on the clock: full
        again (per move), or plus the increment but never more than the
        bank started with (Board Game Arena's rule: a bank does not grow
        past its starting time)."""
        if self.per_move:
            return self.initial
        return min(self.initial, left + self.increment)

    @property
    def warning(self) -> float:
        """How long before a deadline the last reminder comes."""
        return min(FINAL_WARNING_MAX, max(FINAL_WARNING_MIN, self.initial / 8))

    @classmethod
    def parse(cls, text: str) -> ClockRule | None:
        """``none`` -> None; ``1d`` -> per move; ``3d+12h`` -> a bank."""
        word = str(text).strip().lower()
        if word in ("none", "off", "no", ""):
            return None
        if "+" in word:
            bank, _, extra = word.partition("+")
            return cls(
                parse_duration(bank, Msg("A clock's bank")),
                parse_duration(extra, Msg("A clock's time per move")),
            )
        return cls(parse_duration(word, Msg("A clock")), per_move=True)

    def format(self) -> str:
        if self.per_move:
            return format_duration(self.initial)
        return f"{format_duration(self.initial)}+{format_duration(self.increment)}"

    def describe(self) -> str:
        if self.per_move:
            return Msg("{time} per move", time=format_duration(self.initial))
        return Msg(
            "{time} to start, {more} more after each move",
            time=format_duration(self.initial),
            more=format_duration(self.increment),
        )


ReminderOption = float | None | Literal["auto"]
"""``auto``: follow the clock; seconds: the first reminder after that long;
None: no reminders."""

TimeoutPolicy = Literal["substitute", "skip", "forfeit"]
TIMEOUT_POLICIES: Final[tuple[TimeoutPolicy, ...]] = ("substitute", "skip", "forfeit")
TIMEOUT_WORDS: Final[dict[str, str]] = {
    "substitute": Msg("substitute"),
    "skip": Msg("skip"),
    "forfeit": Msg("forfeit"),
}
"""The policies as a sentence shows them (``describe``), each in the catalog."""


@dataclass(frozen=True)
class TableOptions:
    clock: ClockRule | None = None
    timeout: TimeoutPolicy = "substitute"
    reminder: ReminderOption = "auto"
    """``auto`` (follow the clock), seconds before the first reminder, or
    None: no reminders."""
    rated: bool = True
    """The result counts for the players' ratings (issue 11)."""
    level: Level = DEFAULT_LEVEL
    """How strong the lobby's automatic players are (``/game new bots:N
    level:hard``, issue 19)."""
    substitute: Level = DEFAULT_LEVEL
    """How strong the automatic player is that moves for a seat on a timeout
    and plays a seat a person left (``/moderate settings substitute``)."""
    takeback: bool = True
    """Players may take a move back (issue 31; ``takeback=no`` in a lobby,
    off by default in tournaments), where the server allows it
    (``/moderate settings takeback``)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "clock": self.clock.format() if self.clock else "none",
            "timeout": self.timeout,
            "reminder": format_reminder(self.reminder),
            "rated": "yes" if self.rated else "no",
            "level": self.level,
            "substitute": self.substitute,
            "takeback": "yes" if self.takeback else "no",
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TableOptions:
        """Stored table options (never refused: a bad value is its default)."""
        try:
            return cls.parse(obj)
        except InvalidOptions:
            return cls()

    @classmethod
    def parse(cls, given: Mapping[str, Any], defaults: TableOptions | None = None) -> TableOptions:
        """Lobby (or server) options, each checked with a clear message."""
        base = defaults or cls()
        clock = base.clock
        timeout = base.timeout
        reminder = base.reminder
        if "clock" in given:
            clock = ClockRule.parse(str(given["clock"]))
        if "timeout" in given:
            word = str(given["timeout"]).strip().lower()
            if word not in TIMEOUT_POLICIES:
                raise InvalidOptions(
                    Msg(
                        "`timeout` is substitute, skip or forfeit, not {given}.",
                        given=excerpt(given["timeout"]),
                    )
                )
            timeout = word
        if "reminder" in given:
            word = str(given["reminder"]).strip().lower()
            reminder = parse_reminder(word)
        rated = _yes_or_no(given, "rated", base.rated)
        takeback = _yes_or_no(given, "takeback", base.takeback)
        levels = {"level": base.level, "substitute": base.substitute}
        for key in levels:
            if key in given:
                parsed = parse_level(given[key])
                if parsed is None:
                    raise InvalidOptions(
                        Msg(
                            "`{key}` is easy, medium or hard, not {given}.",
                            key=key,
                            given=excerpt(given[key]),
                        )
                    )
                levels[key] = parsed
        return cls(
            clock=clock,
            timeout=timeout,
            reminder=reminder,
            rated=rated,
            level=levels["level"],
            substitute=levels["substitute"],
            takeback=takeback,
        )

    def describe(self) -> str:
        clock = Msg("clock {rule}", rule=self.clock.describe()) if self.clock else Msg("no clock")
        reminder: str
        if self.reminder == "auto":
            reminder = Msg("reminders follow the clock")
        elif self.reminder is None:
            reminder = Msg("no reminders")
        else:
            reminder = Msg("reminders after {time}", time=format_duration(self.reminder))
        said = Msg(
            "{clock}; on timeout: {policy}; {reminder}",
            clock=clock,
            policy=TIMEOUT_WORDS.get(self.timeout, self.timeout),
            reminder=reminder,
        )
        if not self.rated:
            said = Msg("{said}; not rated", said=said)
        if not self.takeback:
            said = Msg("{said}; no takebacks", said=said)
        return said


def _yes_or_no(given: Mapping[str, Any], key: str, default: bool) -> bool:
    """A yes-or-no table option (``rated``, ``takeback``), or its default."""
    if key not in given:
        return default
    word = str(given[key]).strip().lower()
    if word not in ("yes", "no", "true", "false", "on", "off"):
        raise InvalidOptions(
            Msg("`{key}` is yes or no, not {given}.", key=key, given=excerpt(given[key]))
        )
    return word in ("yes", "true", "on")


def parse_reminder(text: str) -> ReminderOption:
    """``auto``, ``off`` or a duration (``12h``)."""
    word = str(text).strip().lower()
    if word in ("auto", "default"):
        return "auto"
    if word in ("off", "none", "no"):
        return None
    return parse_duration(word, Msg("A reminder"))


def format_reminder(option: ReminderOption) -> str:
    if option == "auto":
        return "auto"
    if option is None:
        return "off"
    return format_duration(option)


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Lobby options -> (the engine's, the table's)."""
    engine = {k: v for k, v in options.items() if k not in TABLE_OPTIONS}
    table = {k: v for k, v in options.items() if k in TABLE_OPTIONS}
    return engine, table


# -- clocks ----------------------------------------------------------------------


def clock_changes(
    seats: Iterable[SeatRecord],
    *,
    rule: ClockRule | None,
    running: Iterable[int],
    moved: int | None,
    now: float,
) -> dict[int, dict[str, Any]]:
    """How seats' clocks change when the seats in ``running`` are the ones
    whose clocks should run from ``now`` on (awaited humans, not away, game
    not paused), after ``moved`` (a seat, or None) made a move.

    A clock that stops loses the time it ran; the seat that moved gets its
    increment (a bank) or a full clock next time (per move).  Returns
    ``{seat: {column: value}}`` for :meth:`GameStore.update_seats`.
    """
    if rule is None:
        return {}
    should_run = set(running)
    out: dict[int, dict[str, Any]] = {}
    for s in seats:
        left = rule.initial if s.clock_left is None else s.clock_left
        since = s.clock_since
        change: dict[str, Any] = {}
        if since is not None and (s.seat not in should_run or s.seat == moved):
            left = max(0.0, left - (now - since))
            since = None
        if s.seat == moved:
            left = rule.after_move(left)
        if since is None and s.seat in should_run:
            since = now
        if left != s.clock_left:
            change["clock_left"] = left
        if since != s.clock_since:
            change["clock_since"] = since
        if change:
            out[s.seat] = change
    return out


def time_left(seat: SeatRecord, rule: ClockRule | None, now: float) -> float | None:
    """Time left on a seat's public clock (None: no clock)."""
    if rule is None:
        return None
    left = rule.initial if seat.clock_left is None else seat.clock_left
    if seat.clock_since is not None:
        left -= now - seat.clock_since
    return max(0.0, left)


def clock_deadline(seat: SeatRecord, rule: ClockRule | None) -> float | None:
    """When a running public clock runs out (None: no clock, or stopped)."""
    if rule is None or seat.clock_since is None:
        return None
    left = rule.initial if seat.clock_left is None else seat.clock_left
    return seat.clock_since + left


def private_allowance(seat: SeatRecord, rule: ClockRule) -> float:
    """How long a seat has for a private decision (one the channel is not
    told about): its clock's time, which is not charged, since a public
    clock that ran would tell everyone who was asked."""
    if rule.per_move or seat.clock_left is None:
        return rule.initial
    return max(seat.clock_left, FINAL_WARNING_MIN)


def first_reminder(
    option: ReminderOption, rule: ClockRule | None, *, now: float, deadline: float | None
) -> float | None:
    """When the first reminder of a wait that starts ``now`` is due."""
    if option is None:
        return None
    if deadline is None or rule is None:
        return now + (REPEAT_REMINDER if option == "auto" else option)
    final = deadline - rule.warning
    if option == "auto":
        # Half the time left: time enough to act on it.
        return now + (deadline - now) / 2
    if now + option < final:
        return now + option
    # Asked for later than the deadline allows: warn before it instead.
    return final if final > now else None


def next_reminder(
    option: ReminderOption, rule: ClockRule | None, *, after: float, deadline: float | None
) -> float | None:
    """When the reminder after one due at ``after`` is due (None: no more).

    Without a deadline, one a day.  With one, the last reminder comes
    ``rule.warning`` before it; ``auto`` sends it only when it falls a day
    or more after the first (never more than one a day unless asked), and
    an asked-for delay repeats daily until then.
    """
    if option is None:
        return None
    if deadline is None or rule is None:
        return after + REPEAT_REMINDER
    final = deadline - rule.warning
    if after >= final - MINUTE:
        return None  # that was the last warning
    if option == "auto":
        return final if final - after >= REPEAT_REMINDER else None
    return min(after + REPEAT_REMINDER, final)


def plan_timers(
    game_id: int,
    version: int,
    *,
    deadlines: Mapping[int, float],
    reminders: Mapping[int, tuple[float, int]],
) -> list[Timer]:
    """A game's timers: per seat that owes a decision, a ``clock`` timer at
    its deadline (its clock running out, or its vacation ending) and a
    ``remind`` timer (due, reminders already sent this wait)."""
    timers = [Timer(due, game_id, "clock", seat, version) for seat, due in deadlines.items()]
    timers += [
        Timer(due, game_id, "remind", seat, version, count)
        for seat, (due, count) in reminders.items()
    ]
    return sorted(timers)


@dataclass(frozen=True)
class Waits:
    """What a game waits on right after a change: everything its timers
    follow from, but the timers already stored (see :func:`game_timers`)."""

    game_id: int
    version: int
    now: float
    rule: ClockRule | None
    #: The seats as the change leaves them, their clocks included.
    seats: Sequence[SeatRecord]
    #: The human seats that owe a decision the channel is told of, and
    #: those that owe one asked privately (``owed_decisions``).
    public: frozenset[int] = frozenset()
    private: frozenset[int] = frozenset()
    #: Seats whose players are away, and when each comes back.
    away: Mapping[int, float] = field(default_factory=dict)
    #: How each owing seat is reminded (the player's choice, else the game's).
    reminders: Mapping[int, ReminderOption] = field(default_factory=dict)
    #: Automatic seats the game waits on, and the soonest each may act.
    automatic: Mapping[int, float] = field(default_factory=dict)
    #: The seat that just moved: its reminder and private deadline start afresh.
    moved: int | None = None
    #: The timer whose handler is acting on it now: not kept as the game's.
    taken: Timer | None = None
    #: When the chance the game waits on is made (a throw held for a
    #: takeback, issue 31), as a ``clock`` timer of seat -1; None: none.
    throw_at: float | None = None


def game_timers(waits: Waits, stored: Sequence[Timer]) -> list[Timer]:
    """A game's timers after a change, from the timers stored.

    Every seat that owes a decision, public or private, has a deadline
    (with a clock) and its own reminder.  A seat still owing the same
    decision keeps its reminder (and a private decision its deadline) when
    others move; a seat that just moved, or that starts to owe a decision
    (another seat left, a turn passed), starts afresh, so a reminder never
    carries over from one player, or one wait, to the next.  An automatic
    seat gets a ``clock`` timer for its moment to act, which others moving
    does not put off.  Pure: :func:`storage.timekeeping.rewrite_timers`
    calls it inside the transaction that changes the game, on the rows
    stored then.
    """
    now, rule = waits.now, waits.rule
    existing = {(t.kind, t.seat): t for t in stored if t != waits.taken}
    # Deadlines stored per seat, the one being handled included: a wait
    # whose deadline is stored has begun already.
    deadlines_stored: dict[int, set[float]] = {}
    for t in stored:
        if t.kind == "clock":
            deadlines_stored.setdefault(t.seat, set()).add(t.due)
    deadlines: dict[int, float] = {}
    reminders: dict[int, tuple[float, int]] = {}
    for seat in sorted(waits.public | waits.private):
        fresh = seat == waits.moved
        if seat in waits.away:
            if rule is not None:
                deadlines[seat] = waits.away[seat]  # the clock starts again then
            continue
        deadline: float | None = None
        if seat in waits.public:
            deadline = clock_deadline(waits.seats[seat], rule)
        elif rule is not None:
            kept = existing.get(("clock", seat))
            deadline = (
                kept.due
                if kept is not None and not fresh and kept.due > now
                else now + private_allowance(waits.seats[seat], rule)
            )
        if deadline is not None:
            deadlines[seat] = deadline
        reminder = existing.get(("remind", seat))
        if reminder is not None and not fresh:
            reminders[seat] = (reminder.due, reminder.count)
            continue
        stood = deadline is not None and any(
            abs(due - deadline) < 1.0 for due in deadlines_stored.get(seat, ())
        )
        if not fresh and stood:
            # The same wait (its deadline stands) whose reminders are spent:
            # its last one was sent and its timer removed.  Planning a first
            # reminder again would send one more than the schedule gives
            # whenever anyone else acted (issue 29: a 12 h clock reminded
            # twice).  The schedule of a wait is decided when it begins.
            continue
        due = first_reminder(waits.reminders.get(seat), rule, now=now, deadline=deadline)
        if due is not None:
            reminders[seat] = (due, 0)
    for seat, soonest in waits.automatic.items():
        # The seat's moment to act began when it started to owe this
        # decision: others moving meanwhile do not put it off (a timer due
        # later is a person's clock from before the seat passed to the
        # automatic player).
        kept = existing.get(("clock", seat))
        deadlines[seat] = (
            kept.due
            if kept is not None and seat != waits.moved and kept.due <= soonest
            else soonest
        )
    if waits.throw_at is not None:
        # The throw's moment was set by the move it follows: nothing done
        # meanwhile (a seat leaving, a vacation) puts it off.
        kept = existing.get(("clock", THROW_SEAT))
        deadlines[THROW_SEAT] = kept.due if kept is not None else waits.throw_at
    return plan_timers(waits.game_id, waits.version, deadlines=deadlines, reminders=reminders)


def vacation_allowance(taken: Iterable[tuple[float, float]], now: float, days: int) -> str | None:
    """Why ``days`` away from ``now`` is refused (None: allowed): at most
    14 days in any 60."""
    if not 1 <= days <= VACATION_DAYS_MAX:
        return Msg("You can be away for 1 to {most} days at a time.", most=VACATION_DAYS_MAX)
    window = VACATION_WINDOW_DAYS * DAY
    ends = now + days * DAY
    used = 0.0
    for starts, finished in taken:
        # Days already taken in the window that ends with this vacation.
        lo, hi = max(starts, ends - window), min(finished, now)
        if hi > lo:
            used += hi - lo
    left = VACATION_DAYS_MAX * DAY - used
    if days * DAY > left + 1:
        return Msg(
            "You can be away at most {most} days in any {window}; you have {left} left.",
            most=VACATION_DAYS_MAX,
            window=VACATION_WINDOW_DAYS,
            left=int(left // DAY),
        )
    return None
