"""A Discord server's weeks of asynchronous play, for ``test_server_week``.

One bot (one guild, one database) on a fake clock runs several games in
several channels.  :class:`Server` moves time from one event to the next (the
earliest timer, a player's planned move, a scripted event), lets the bot's
scheduler fire what is due, then *observes*: every reminder, timeout and
turn notification the bot sent since the last look is checked against who
owed a decision (``service.owing``), against each member's own
notifications (``/chaupal me``: how they are told, their reminders, quiet
hours in their time zone) and against the reminder schedule documented in
``bot/timekeeping.py`` and the README, which this module computes on its own
(:func:`reminder_schedule`, :class:`Member`'s quiet hours) so the test does
not grade the bot with the bot's own arithmetic.

A *wait* is one stretch during which a seat owes a decision without acting:
it starts when the seat begins to owe one (or acts and still owes one, or
the automatic player moved for it on a timeout and it still owes one, or its
game resumes, or its player comes back), and ends when the seat acts, stops
owing, its game is paused or its player goes away.  Per wait:

- **told once.**  A wait that a move started (another player's, the
  automatic player's, or a timeout's; not the seat's own move made at the
  keyboard, whose reply carries the next menu) is announced once the way
  the player asked: a ping in the channel (``ping``, ``both``, or ``dm``
  with DMs closed), a "your turn" DM (``dm``, ``both``), or, for a decision
  asked privately, the DM with its menu.  Documented exceptions: quiet
  hours when the wait starts (no ping, the board names the player; a DM
  arrives silently), and the last one of a simultaneous phase, who is told
  once more.  A wait that a resume or a return from a vacation restarted is
  the same decision: it is not announced again.  Nobody is pinged during
  their quiet hours or while away.
- **reminded as documented.**  The k-th reminder of a wait is the k-th time
  of the documented schedule (the player's own ``reminders`` before the
  game's ``reminder``; a reminder due in quiet hours waits until they end,
  and the next one counts from when it came; one that would wait past the
  deadline is not sent), fired then (or at start-up, when it fell due while
  the bot was down: missed reminders come as one), never more than the
  schedule has.
- **no timeout unannounced.**  A timeout whose schedule has a reminder
  before the deadline comes after that reminder.

Checks of these three kinds are collected as :class:`Violation` records (so
one run reports every case, with the figures of :meth:`Server.figures`);
everything else (errors inside the bot, a timeout before its deadline, a
reminder with the wrong time left) fails at once.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import discord

from bot.edge.client import ChaupalBot
from bot.edge.delivery.texts import asked_privately
from bot.timekeeping import format_left
from storage.opening import open_database
from storage.timekeeping import Timer, TimerStore
from tests.bot.driver import bot_of, make_bot
from tests.bot.menu_player import pinged
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0

#: The documented final warning: an eighth of the clock, within these bounds
#: (``bot/timekeeping.py``: "shortly before the deadline").
WARNING_MIN = 15 * MINUTE
WARNING_MAX = 6 * HOUR
#: Under ``substitute`` and ``skip``, this many timeouts in a row forfeit.
TIMEOUTS_BEFORE_FORFEIT = 3
#: Discord's flag for a message that notifies nobody (``silent=True``).
SILENT = discord.MessageFlags.suppress_notifications.flag

#: Loggers whose ERROR records count as an exception inside the bot: the
#: harness watches ``discord`` only by default, and the scheduler, keeper and
#: delivery log through ``bot.*`` and ``storage.*``.
ERROR_LOGGERS = ("discord", "bot", "storage")
#: A stuck timer job (issue 16's deadlock) must fail the test in seconds,
#: not after the production watchdog's two minutes.
JOB_LIMIT = 8.0

Behaviour = Literal["prompt", "late", "vanished"]
TurnWay = Literal["ping", "dm", "both"]
NoticeWay = Literal["ping", "dm", "menu", "closed", "closed-turn"]
"""How a player heard of a wait: pinged in the channel, a "your turn" DM,
the DM carrying a private decision's menu, or the channel's one notice that
their DMs are closed."""
GAME_ID = re.compile(r"#(\d+)")
LEFT = re.compile(r"; (.+?) left on your clock")
QUIET = re.compile(r"(\d\d):(\d\d)-(\d\d):(\d\d)")
OFFSET = re.compile(r"([+-])(\d\d):(\d\d)")

#: What a DM or a post says when it tells a player it is their turn.
TURN_DM = ("Your turn in", "it is your turn")
LAST_ONE = ("has chosen", "Everyone else is waiting for you")
MENU = "It is your decision: choose below."
DMS_CLOSED = "I can't DM you"


# -- the documented rules, written out independently of bot/timekeeping.py -----------


@dataclass(frozen=True)
class Clock:
    """A lobby's ``clock`` option: ``1d`` per move, or a ``2d+12h`` bank."""

    initial: float
    increment: float = 0.0
    per_move: bool = True

    @property
    def warning(self) -> float:
        """How long before the deadline the last reminder comes."""
        return min(WARNING_MAX, max(WARNING_MIN, self.initial / 8))


def parse_time(text: str) -> float:
    """``1d``, ``12h``, ``1d12h`` -> seconds."""
    units = {"d": DAY, "h": HOUR, "m": MINUTE}
    parts = re.findall(r"(\d+)([dhm])", text)
    assert parts and "".join(n + u for n, u in parts) == text, text
    return sum(int(n) * units[u] for n, u in parts)


def parse_clock(text: str) -> Clock | None:
    if text == "none":
        return None
    if "+" in text:
        bank, extra = text.split("+")
        return Clock(parse_time(bank), parse_time(extra), per_move=False)
    return Clock(parse_time(text))


Reminding = float | Literal["auto"] | None
"""``auto``, seconds before the first reminder, or None (``off``)."""


def parse_reminder(text: str) -> Reminding:
    if text == "auto":
        return "auto"
    if text == "off":
        return None
    return parse_time(text)


def no_quiet_hours(moment: float) -> float:
    return moment


def reminder_schedule(
    option: Reminding,
    clock: Clock | None,
    start: float,
    deadline: float | None,
    until: float,
    quiet_end: Callable[[float], float] = no_quiet_hours,
) -> list[float]:
    """When a wait that starts at ``start`` is reminded, up to ``until``, as
    documented (README, "Clocks, timeouts and reminders" and "Your own
    notifications"):

    - ``auto``: one at half the time left, plus one ``clock.warning`` before
      the deadline when that comes a day or more after the first; without a
      clock, once a day;
    - a delay (``6h``): after that long, then every 24 hours, with a last one
      ``clock.warning`` before the deadline (and only that one when the delay
      would come after it);
    - ``off``: none;
    - quiet hours (``quiet_end(t)``: when a reminder due at ``t`` may come): a
      reminder due in them waits until they end, and the next counts from
      when it came; one that would wait until the deadline is not sent (the
      timeout's DM tells the player what happened).
    """
    if option is None:
        return []
    out: list[float] = []
    if deadline is None or clock is None:
        daily = start + (DAY if option == "auto" else option)
        while (came := quiet_end(daily)) <= until:
            out.append(came)
            daily = came + DAY
        return out
    final = deadline - clock.warning
    first: float | None
    if option == "auto":
        first = start + (deadline - start) / 2
    elif start + option < final:
        first = start + option
    else:
        first = final if final > start else None
    due: float | None = first
    while due is not None:
        came = quiet_end(due)
        if came >= deadline:
            break  # it would wait past the deadline
        out.append(came)
        if came >= final - MINUTE:
            break  # that was the last warning
        if option == "auto":
            due = final if final - came >= DAY else None
        else:
            due = min(came + DAY, final)
    return out


# -- what the test plays with ------------------------------------------------------------


@dataclass
class Member:
    """A server member, how they play (``prompt``: a while after being
    awaited; ``late``: an hour after their first reminder; ``vanished``:
    never) and their own notifications (``/chaupal me``)."""

    user: FakeUser
    behaviour: Behaviour
    delay: float = 2 * HOUR
    """How long a prompt member takes (a little different for each, so two
    members never act at the same instant)."""
    last_reminder: bool = False
    """A late member who waits for the last reminder of a wait, not the first."""
    turn: TurnWay = "ping"
    reminders: str = "game"
    """``game`` (the game's option), ``off`` or a delay such as ``6h``."""
    quiet: str | None = None
    """Quiet hours like ``23:00-07:00``, in :attr:`timezone`."""
    timezone: str = "UTC"
    """An IANA name or a fixed offset like ``+05:30``."""
    dms_closed: bool = False

    def me_options(self) -> dict[str, str]:
        """What the member gives ``/chaupal me`` (nothing: the defaults)."""
        given = {"turn": self.turn, "reminders": self.reminders, "timezone": self.timezone}
        if self.quiet is not None:
            given["quiet"] = self.quiet
        defaults = {"turn": "ping", "reminders": "game", "timezone": "UTC"}
        return {k: v for k, v in given.items() if defaults.get(k) != v}

    def reminding(self, game_option: Reminding) -> Reminding:
        """The member's own reminders before the game's (README)."""
        if self.reminders == "game":
            return game_option
        return parse_reminder(self.reminders)

    def _zone(self) -> dt.tzinfo:
        found = OFFSET.fullmatch(self.timezone)
        if found:
            minutes = int(found[2]) * 60 + int(found[3])
            return dt.timezone(dt.timedelta(minutes=-minutes if found[1] == "-" else minutes))
        return zoneinfo.ZoneInfo(self.timezone)

    def _quiet_minutes(self) -> tuple[int, int] | None:
        if self.quiet is None:
            return None
        found = QUIET.fullmatch(self.quiet)
        assert found, self.quiet
        h1, m1, h2, m2 = (int(x) for x in found.groups())
        return h1 * 60 + m1, h2 * 60 + m2

    def quiet_at(self, moment: float) -> bool:
        """Whether ``moment`` falls in the member's quiet hours, on the clock
        of their own time zone."""
        span = self._quiet_minutes()
        if span is None:
            return False
        local = dt.datetime.fromtimestamp(moment, self._zone())
        minute = local.hour * 60 + local.minute + local.second / 60
        start, end = span
        return start <= minute < end if start < end else (minute >= start or minute < end)

    def quiet_end(self, moment: float) -> float:
        """``moment``, or when the quiet hours it falls in end."""
        span = self._quiet_minutes()
        if span is None or not self.quiet_at(moment):
            return moment
        zone = self._zone()
        day = dt.datetime.fromtimestamp(moment, zone).date()
        end = dt.time(span[1] // 60, span[1] % 60)
        while (when := dt.datetime.combine(day, end, tzinfo=zone).timestamp()) <= moment:
            day += dt.timedelta(days=1)
        return when


@dataclass
class Spec:
    """One game the server plays: its engine, lobby options and players."""

    name: str
    engine: str
    options: str
    players: list[str]
    channel: str
    bots: int = 0
    """Seats for the lobby's automatic players (``/game new bots:N``)."""
    level: str | None = None

    def table(self) -> dict[str, str]:
        """The table options in force: the lobby's, else the server's
        defaults (``3d`` per move, ``substitute``, reminders ``auto``)."""
        words = dict(w.split("=", 1) for w in self.options.split())
        return {
            "clock": words.get("clock", "3d"),
            "timeout": words.get("timeout", "substitute"),
            "reminder": words.get("reminder", "auto"),
        }


@dataclass(frozen=True)
class Notice:
    """One message that told a player of a wait."""

    at: float
    game: int
    user: int
    way: NoticeWay
    last_one: bool
    """The last one of a simultaneous phase, told once more (documented)."""
    silent: bool
    text: str


@dataclass
class Wait:
    """One stretch during which a seat owes a decision without acting."""

    game: int
    seat: int
    user: int
    start: float
    deadline: float | None
    schedule: list[float]
    fresh: bool
    """Started by a move (so a per-move clock is full)."""
    private: bool = False
    """A decision asked privately (Mahabharata's announce-or-pass)."""
    by_menu: bool = False
    """A decision the board names but which is made in a DM menu (a
    Sangram commit, an Artaban set-up): that DM announces it (issue 30)."""
    announced: bool = False
    """A move started it, not the seat's own move at the keyboard: the
    player is owed a turn notification."""
    quiet: bool = False
    """It began in the player's quiet hours."""
    renewed: bool = False
    """It began when the seat's time ran out and the automatic player's move
    for it left it the next decision (issue 29 (a))."""
    received: list[tuple[float, str, int | None]] = field(default_factory=list)
    """(when, the reminder's text, its nonce count) for each reminder."""
    collapsed: int = 0
    """Scheduled reminders missed while the bot was down that were sent as
    one with a later one (documented: missed reminders come as one)."""
    notices: list[Notice] = field(default_factory=list)
    timed_out: bool = False
    unreminded: str = ""
    """Why a wait that timed out had no reminder, when that is documented:
    ``reminders off``, ``private, DMs closed``, ``bot down``, ``quiet hours
    until the deadline``, ``shorter than the last warning``."""
    silenced: str = ""
    """Why the schedule is empty although reminders are on (see above)."""
    unquiet: int = 0
    """How many reminders the schedule would have without quiet hours."""


@dataclass
class Observed:
    """What the bot sent that the test checks, with the fake time it was seen."""

    at: float
    kind: Literal["reminder", "timeout"]
    user: int
    game: int
    text: str
    by_dm: bool
    count: int | None


@dataclass(frozen=True)
class Violation:
    """A wait the bot did not treat as documented."""

    kind: str
    """``unannounced`` (owed a turn notification, got none), ``told twice``,
    ``told unasked`` (a notification for a wait that owes none), ``pinged
    while quiet or away``, ``loud DM in quiet hours``, ``extra reminder``,
    ``reminder off schedule``, ``reminder missing``, ``timeout without a
    reminder``, ``reminder without a wait``."""
    at: float
    text: str


class Server:
    """One guild with one bot, its members, games and the fake clock."""

    def __init__(self, root: Path, seed: int, start: float | None = None) -> None:
        self.path = root / "server.sqlite3"
        self.seed = seed
        self.clock = FakeClock() if start is None else FakeClock(start)
        self.start_time = self.clock.now
        self.members: dict[str, Member] = {}
        self.by_id: dict[int, Member] = {}
        self.specs: dict[str, Spec] = {}
        self.games: dict[str, int] = {}
        self.channels: dict[str, int] = {}
        self.waits: dict[tuple[int, int], Wait] = {}
        self.closed_waits: list[Wait] = []
        self.observed: list[Observed] = []
        self.notices: list[Notice] = []
        self.violations: list[Violation] = []
        self.timeouts: list[tuple[float, int, int, str]] = []
        """(when, game, seat, ``@timeout`` or ``@forfeit``) from the logs."""
        self.plans: dict[tuple[int, int], float] = {}
        """When a human seat will act (its member's behaviour)."""
        self.moves: dict[str, int] = {}
        self.away: dict[int, float] = {}
        """Members away, and when they are back (the test's own record)."""
        self.restarts: list[float] = []
        self._seen = 0
        self._log_seq: dict[int, int] = {}
        self._looked: set[int] = set()
        """Games looked at since they started."""
        self._catching_up = False
        self._down_since = float("inf")
        """When the bot last went down (while it catches up at start-up)."""
        self._acting: tuple[int, int] | None = None
        """The (game, seat) whose player is at the keyboard now (their own
        ``/game play``): a wait their move leaves them in is not announced."""
        self._places: dict[int, int] = {}
        """Channel or thread id -> the game played there."""
        self.fake: FakeDiscord
        self.moderator: FakeUser

    # -- lifecycle ------------------------------------------------------------------

    def bot(self) -> ChaupalBot:
        return bot_of(self.fake)

    def _new_bot(self, generation: int) -> ChaupalBot:
        return make_bot(self.path, self.seed + generation, self.clock)

    async def open(self) -> None:
        self.fake = await FakeDiscord.start(self._new_bot(0), error_loggers=ERROR_LOGGERS)
        self.bot().scheduler.job_limit = JOB_LIMIT
        self.moderator = self.fake.moderator("mod")

    async def close(self) -> None:
        if getattr(self, "fake", None) is not None:
            await self.fake.close()

    @property
    def day(self) -> float:
        """Days since the server opened (for messages)."""
        return (self.clock.now - self.start_time) / DAY

    def add_member(
        self,
        name: str,
        behaviour: Behaviour,
        delay: float = 2 * HOUR,
        last_reminder: bool = False,
        **notifications: Any,
    ) -> Member:
        """A member; ``notifications`` are their ``/chaupal me`` settings
        (set with :meth:`set_notifications`) and ``dms_closed``."""
        member = Member(self.fake.user(name), behaviour, delay, last_reminder, **notifications)
        self.members[name] = member
        self.by_id[member.user.id] = member
        if member.dms_closed:
            self.fake.block_dms(member.user)
        return member

    async def set_notifications(self) -> None:
        """Each member who changed their notifications says so with
        ``/chaupal me``, through dispatch, and the bot reads them back."""
        for member in self.members.values():
            given = member.me_options()
            if not given:
                continue
            out = await self.fake.slash(member.user, "chaupal me", option_values=given)
            assert out and all(s.ephemeral for s in out if s.route != "dm.send"), out
        stored = await self.bot().service.notifications(m.user.id for m in self.members.values())
        for member in self.members.values():
            mine = stored[member.user.id]
            assert mine.turn == member.turn, (member.user.name, mine)
            assert mine.timezone == member.timezone, (member.user.name, mine)
            assert (mine.quiet is None) == (member.quiet is None), (member.user.name, mine)

    def channel(self, name: str) -> int:
        """The main channel is ``general``; others are added on first use."""
        if name not in self.channels:
            self.channels[name] = (
                self.fake.channel_id if name == "general" else self.fake.add_channel(name)
            )
        return self.channels[name]

    async def open_game(self, spec: Spec) -> int:
        """``/game new`` in the spec's channel, Join clicked by the others,
        Start by the creator: everything through dispatch."""
        channel = self.channel(spec.channel)
        creator, *joiners = (self.members[n].user for n in spec.players)
        # No ``options`` at all for a game on the server's defaults.
        options: dict[str, Any] = {"game": spec.engine}
        if spec.options:
            options["options"] = spec.options
        if spec.bots:
            options["bots"] = spec.bots
        if spec.level:
            options["level"] = spec.level
        out = await self.fake.slash(creator, "game new", channel_id=channel, option_values=options)
        lobby = next(s for s in out if s.route == "interaction.response")
        found = GAME_ID.search(lobby.content or "")
        assert found and not lobby.ephemeral, lobby
        game_id = int(found[1])
        for user in joiners:
            button = self.fake.find_button(self.fake.current(lobby), label="Join")
            await self.fake.click(user, lobby, button["custom_id"])
        self.specs[spec.name], self.games[spec.name] = spec, game_id
        start = self.fake.find_button(self.fake.current(lobby), label="Start")
        await self.fake.click(creator, lobby, start["custom_id"])
        live = await self.bot().service.get(game_id)
        assert live.record.status == "active", (spec.name, live.record.status)
        self._places[live.record.thread_id or live.record.channel_id] = game_id
        await self.observe()
        return game_id

    # -- moving time ----------------------------------------------------------------

    async def run_scheduler(self) -> None:
        """Let the bot fire what is due now, as its own loop would."""
        scheduler = self.bot().scheduler
        await scheduler.run_due()
        # The bot's own loop may have been woken too (claims keep each timer
        # to one handler): wait until it sleeps again.
        await scheduler.wait_idle()
        await self.fake.settle()

    async def next_event(self, until: float) -> float:
        """The next moment something happens: a timer, a planned move, or
        ``until``."""
        times = [until, *self.plans.values()]
        earliest = await self.bot().service.timers.earliest()
        if earliest is not None:
            times.append(earliest.due)
        return max(self.clock.now, min(times))

    async def step(self, until: float) -> float:
        """Move to the next event (at most ``until``): the scheduler fires
        what is due, then the players planned for that moment move."""
        when = await self.next_event(until)
        self.clock.now = when
        await self.run_scheduler()
        await self.observe()
        await self.play_planned()
        return when

    async def run_until(self, until: float) -> None:
        """Step from event to event up to ``until`` (absolute fake time)."""
        while await self.step(until) < until:
            pass

    async def run_until_owing(self, game: str, name: str, until: float) -> None:
        """Step until ``name`` owes ``game`` a decision, has been reminded
        once and has another reminder pending; at the latest ``until``."""
        game_id = self.games[game]
        user = self.members[name].user.id
        while self.clock.now < until:
            wait = next(
                (w for w in self.waits.values() if (w.game, w.user) == (game_id, user)), None
            )
            if wait is not None and 0 < len(wait.received) < len(wait.schedule):
                return
            now = self.clock.now
            await self.step(min(until, now + HOUR))
        raise AssertionError(f"{name} never owed {game} a decision")

    async def play_planned(self) -> None:
        """Every human move planned for now, each observed on its own."""
        for key, when in sorted(self.plans.items(), key=lambda kv: kv[1]):
            if when > self.clock.now or key not in self.plans:
                continue
            del self.plans[key]
            game_id, seat = key
            live = await self.bot().service.get(game_id)
            public, private = self.bot().service.owing(live)
            if seat not in public | private:
                continue  # the game moved on meanwhile (a timeout at this very moment)
            self._acting = key
            try:
                await self.play(game_id, seat)
                await self.observe()
            finally:
                self._acting = None

    async def play(self, game_id: int, seat: int) -> None:
        """The seat's player types a legal move with ``/game play game:<n>``."""
        service = self.bot().service
        live = await service.get(game_id)
        user = self.by_id[live.user_of(seat)].user
        text = choose(service.legal_texts(live, seat), seed=live.version * 31 + seat)
        out = await self.fake.slash(
            user,
            "game play",
            channel_id=live.record.channel_id,
            action=text,
            game=game_id,
        )
        assert any((s.content or "").startswith("Played:") for s in out), (text, out)
        self.moves[live.engine.name] = self.moves.get(live.engine.name, 0) + 1

    async def restart_after(self, downtime: float) -> list[Timer]:
        """The bot goes down, ``downtime`` passes with nobody able to do
        anything, and a new bot starts on the same database.  Returns the
        timers that were overdue when it started (they fire at start-up)."""
        await self.fake.close()
        self._down_since = self.clock.now
        self.clock.now += downtime
        # Read what is overdue straight from the database, before start-up
        # touches it: a separate store on the same file.
        overdue = await overdue_timers(self.path, self.clock.now)
        self._catching_up = True
        self.fake = await self.fake.restart(self._new_bot(len(self.restarts) + 1), close_old=False)
        self.bot().scheduler.job_limit = JOB_LIMIT
        await self.fake.settle()  # start-up's catch-up, which then starts the scheduler
        await self.bot().scheduler.wait_idle()
        await self.fake.settle()
        self.restarts.append(self.clock.now)
        await self.observe()
        self._catching_up = False
        self._down_since = float("inf")
        return overdue

    # -- observing ------------------------------------------------------------------

    def _violation(self, kind: str, text: str) -> None:
        self.violations.append(Violation(kind, self.clock.now, f"day {self.day:.2f}: {text}"))

    async def observe(self) -> None:
        """Check what the bot sent since the last look against the waits as
        they were, bring the waits up to date, then give the turn
        notifications to the waits they announce."""
        assert not self.fake.errors, "\n".join(e.format() for e in self.fake.errors)
        notices: list[Notice] = []
        for sent in self.fake.sent[self._seen :]:
            notices += self._check_sent(sent)
        self._seen = len(self.fake.sent)
        for name, game_id in self.games.items():
            await self._update_game(name, game_id)
        for notice in notices:
            self._notice(notice)

    def _check_sent(self, sent: Sent) -> list[Notice]:
        """Reminders and timeouts are checked at once; the turn
        notifications found are returned, for the waits as they are after
        this look (the wait a board announces begins with it)."""
        text = sent.content or ""
        now = self.clock.now
        found: list[Notice] = []
        if sent.route == "dm.send" and text.startswith("Reminder:"):
            nonce = str(sent.raw.get("nonce") or "")
            count = int(nonce.rsplit(".", 1)[1]) if nonce.count(".") == 2 else None
            self._reminder(
                Observed(now, "reminder", sent.user_id or 0, _game(text), text, True, count)
            )
        elif sent.route == "channel.send" and "Reminder:" in text:
            allowed = sent.raw.get("allowed_mentions") or {}
            users = [int(u) for u in allowed.get("users") or []]
            assert len(users) == 1 and text.startswith(f"<@{users[0]}> Reminder:"), sent
            self._reminder(Observed(now, "reminder", users[0], _game(text), text, False, None))
        elif sent.route == "dm.send" and text.startswith("Your time ran out"):
            seen = Observed(now, "timeout", sent.user_id or 0, _game(text), text, True, None)
            self.observed.append(seen)
            # Told only when their clock had run out (private decisions too,
            # which leave no public log entry).
            wait = next(
                (w for w in self.waits.values() if (w.game, w.user) == (seen.game, seen.user)),
                None,
            )
            assert wait is not None and wait.deadline is not None, (seen, self.waits)
            assert now >= wait.deadline - 0.5, ("told of a timeout early", seen, wait)
        elif sent.route == "dm.send" and sent.user_id in self.by_id:
            found += self._dm_notice(sent)
        if sent.route.startswith("channel.") and sent.created:
            found += self._channel_notices(sent)
        return found

    def _dm_notice(self, sent: Sent) -> list[Notice]:
        """A "your turn" DM, or the DM of a private menu (which may carry
        the "your turn" line too)."""
        text = sent.content or ""
        user = sent.user_id or 0
        silent = bool(sent.flags & SILENT)
        turn = any(words in text for words in TURN_DM)
        out: list[Notice] = []
        if MENU in text:
            # One DM, one notice: the menu's DM carries the turn line too.
            out.append(Notice(self.clock.now, _game(text), user, "menu", False, silent, text))
        elif turn:
            last = "has chosen" in text
            out.append(Notice(self.clock.now, _game(text), user, "dm", last, silent, text))
        return out

    def _channel_notices(self, sent: Sent) -> list[Notice]:
        """Who a channel post pings, and why; nobody is pinged while away or
        in their quiet hours (README, "Your own notifications")."""
        now = self.clock.now
        text = sent.content or ""
        users = pinged(self.fake, sent)
        out: list[Notice] = []
        for user_id in users:
            member = self.by_id.get(user_id)
            if member is None:
                continue
            back = self.away.get(user_id)
            if back is not None and now < back:
                self._violation("pinged while quiet or away", f"{member.user.name} away: {text}")
            if member.quiet_at(now):
                self._violation("pinged while quiet or away", f"{member.user.name} quiet: {text}")
            if "Reminder:" in text:
                continue  # a reminder (DMs closed): checked as one
            game = self._places.get(sent.channel_id or 0)
            if game is None:
                found = GAME_ID.search(text)
                if found is None:
                    continue
                game = int(found[1])
            # The one notice that their DMs are closed is not a turn
            # notification, unless it says it is their turn (their ``dm``
            # setting's DM could not be sent).
            told = any(words in text for words in TURN_DM) or DMS_CLOSED not in text
            way: NoticeWay = "ping" if told else "closed"
            if told and DMS_CLOSED in text:
                way = "closed-turn"  # the DM that was to tell them could not
            last = any(words in text for words in LAST_ONE)
            out.append(Notice(now, game, user_id, way, last, False, text))
        return out

    def _notice(self, notice: Notice) -> None:
        """A turn notification belongs to the player's wait in that game."""
        self.notices.append(notice)
        member = self.by_id[notice.user]
        wait = next(
            (w for w in self.waits.values() if (w.game, w.user) == (notice.game, notice.user)),
            None,
        )
        if wait is None:
            if notice.way in ("ping", "dm"):
                self._violation(
                    "told unasked",
                    f"{member.user.name} told of #{notice.game} owing nothing: {notice.text}",
                )
            return
        if notice.way == "dm" and notice.silent != member.quiet_at(notice.at):
            # A turn DM is silent exactly while the player is quiet (or away,
            # when none is sent at all).
            self._violation(
                "loud DM in quiet hours",
                f"{member.user.name}: silent={notice.silent}: {notice.text}",
            )
        wait.notices.append(notice)

    def _reminder(self, seen: Observed) -> None:
        """A reminder must be for a seat that owed that game a decision just
        before (its wait open: owing, not away, game not paused), and be the
        next due time of the documented schedule, never a repeat."""
        self.observed.append(seen)
        member = self.by_id[seen.user]
        assert seen.user not in self.away, f"day {self.day:.2f}: {member.user.name} is away"
        wait = next(
            (w for w in self.waits.values() if w.game == seen.game and w.user == seen.user), None
        )
        if wait is None:
            self._violation(
                "reminder without a wait",
                f"{member.user.name} was reminded of game #{seen.game} without owing it a "
                f"decision: {seen.text}",
            )
            return
        if self._catching_up:
            # Missed reminders come as one: this one stands for the latest
            # scheduled reminder already due.
            k = len(wait.received) + wait.collapsed
            while k + 1 < len(wait.schedule) and wait.schedule[k + 1] <= seen.at + 1:
                wait.collapsed += 1
                k += 1
        k = len(wait.received) + wait.collapsed
        if k >= len(wait.schedule):
            self._violation(
                "extra reminder",
                f"reminder {k + 1} of one wait for {member.user.name} in #{seen.game} at "
                f"{seen.at - wait.start:.0f}s into it, but the documented schedule from "
                f"{wait.start - self.start_time:.0f}s to the deadline at "
                f"{_rel(wait.deadline, wait.start)}s has {len(wait.schedule)}: "
                f"{[d - wait.start for d in wait.schedule]} ({seen.text[:80]})",
            )
            return
        due = wait.schedule[k]
        if self._catching_up:
            assert due <= seen.at + 1, (due, seen)  # fell due while the bot was down
        elif abs(due - seen.at) > 1:
            self._violation(
                "reminder off schedule",
                f"{member.user.name} reminded at {seen.at - wait.start:.0f}s into a wait in "
                f"#{seen.game}, documented: {[d - wait.start for d in wait.schedule]}",
            )
        if seen.count is not None:
            # (game, seat, wait, count) never repeats
            assert seen.count == len(wait.received), (seen, k)
        if wait.deadline is not None:
            found = LEFT.search(seen.text)
            assert found and found[1] == format_left(wait.deadline - seen.at), (
                seen.text,
                format_left(wait.deadline - seen.at),
            )
        wait.received.append((seen.at, seen.text, seen.count))

    async def _update_game(self, name: str, game_id: int) -> None:
        """Close the waits that ended and open the ones that started, from
        the game as it is now and its log since the last look."""
        service = self.bot().service
        live = await service.get(game_id)
        now = self.clock.now
        new_entries = await self.bot().store.log(game_id, after_seq=self._log_seq.get(game_id, 0))
        acted: set[int] = set()
        timed_out: set[int] = set()
        for entry in new_entries:
            self._log_seq[game_id] = entry.seq
            if entry.action in ("@timeout", "@forfeit"):
                timed_out.add(entry.actor)
                self.timeouts.append((entry.created_at, game_id, entry.actor, entry.action))
                self._check_timeout(game_id, entry.actor, entry.created_at)
            if not entry.action.startswith("@") or entry.action in ("@timeout", "@forfeit"):
                acted.add(entry.actor)
        public, private = service.owing(live)
        owing = public | private
        away = await service.away_until(live)
        timers = await service.timers.of_game(game_id)
        # A move (not a table event such as a resume) starts a fresh clock
        # for whoever owes a decision after it; so does the game's start
        # (which may have no chance to log: Artaban's set-ups).
        moved = any(not e.action.startswith("@") for e in new_entries)
        starting = game_id not in self._looked
        self._looked.add(game_id)
        spec = self.specs[name]
        table = spec.table()
        clock = parse_clock(table["clock"])
        for seat in range(len(live.seats)):
            key = (game_id, seat)
            wait = self.waits.get(key)
            keeps = seat in owing and seat not in away and not live.paused and seat not in acted
            if wait is not None and not keeps:
                self._close(wait, now, timed_out=seat in timed_out)
                wait = None
            if wait is None and seat in owing and seat not in away and not live.paused:
                deadline = next(
                    (t.due for t in timers if (t.kind, t.seat) == ("clock", seat)), None
                )
                assert (deadline is None) == (clock is None), (name, seat, timers)
                member = self.by_id[live.user_of(seat)]
                option = member.reminding(parse_reminder(table["reminder"]))
                silenced = "" if option is not None else "reminders off"
                if seat in private and member.dms_closed and option is not None:
                    # A private decision is reminded by DM only: a mention
                    # would tell the channel who was asked (README).
                    option, silenced = None, "private, DMs closed"
                until = now + 30 * DAY
                wait = Wait(
                    game_id,
                    seat,
                    live.user_of(seat),
                    now,
                    deadline,
                    reminder_schedule(
                        option, clock, now, deadline, until=until, quiet_end=member.quiet_end
                    ),
                    fresh=moved,
                    silenced=silenced,
                    unquiet=len(reminder_schedule(option, clock, now, deadline, until=until)),
                    private=seat in private,
                    by_menu=asked_privately(live, seat),
                    # A move started it, unless the player's own move at the
                    # keyboard left them owing (their reply has the next menu).
                    announced=(moved or starting) and self._acting != key,
                    quiet=member.quiet_at(now),
                    renewed=seat in timed_out,
                )
                if clock is not None and deadline is not None:
                    self._check_deadline(name, wait, clock)
                self.waits[key] = wait
                self._plan(wait)
            if wait is None:
                self.plans.pop(key, None)

    def _check_deadline(self, name: str, wait: Wait, clock: Clock) -> None:
        """A deadline is never later than the clock allows, and a per-move
        clock is full when a move starts the wait (the documented clock)."""
        assert wait.deadline is not None
        left = wait.deadline - wait.start
        assert 0 < left <= clock.initial + 1, (name, left, clock)  # a bank is capped
        if clock.per_move and wait.fresh and not self._catching_up:
            assert abs(left - clock.initial) <= 1, (name, wait, clock)

    def _close(self, wait: Wait, now: float, *, timed_out: bool) -> None:
        """A wait ended at ``now``: every reminder documented before then
        came, exactly once, and the player was told of it as documented.
        One a restart's catch-up ended got at most those due before it
        ended: reminders missed while the bot was down are sent as one, and
        none once the seat's clock has run out."""
        del self.waits[(wait.game, wait.seat)]
        self.closed_waits.append(wait)
        self.plans.pop((wait.game, wait.seat), None)
        wait.timed_out = timed_out
        self._check_notices(wait)
        due = [d for d in wait.schedule if d <= now]
        if wait.deadline is not None and wait.deadline <= now:
            due = [d for d in wait.schedule if d < wait.deadline]
        got = len(wait.received) + wait.collapsed
        member = self.by_id[wait.user]
        # Reminders due while the bot was up came then; those due while it
        # was down came as one at start-up, unless the deadline passed too.
        while_up = [d for d in due if d < self._down_since]
        if timed_out and got == 0:
            if wait.silenced:
                wait.unreminded = wait.silenced
            elif due and self._catching_up and not while_up:
                wait.unreminded = "bot down"  # through the reminder and the deadline
            elif due:
                wait.unreminded = ""  # a violation, below
            elif wait.unquiet:
                wait.unreminded = "quiet hours until the deadline"
            else:
                wait.unreminded = "shorter than the last warning"
        if self._catching_up:
            assert got <= len(due), (wait, due)
            # Missed reminders come as one, and none once the clock has run out.
            late = [r for r in wait.received if wait.deadline is not None and r[0] >= wait.deadline]
            assert not late, ("a reminder after the clock ran out", wait)
            due = while_up
        if got < len(due):
            kind = "timeout without a reminder" if timed_out and got == 0 else "reminder missing"
            self._violation(
                kind,
                f"game #{wait.game} seat {wait.seat} ({member.user.name}): {got} reminders in a "
                f"wait from {wait.start - self.start_time:.0f}s to the deadline at "
                f"{_rel(wait.deadline, wait.start)}s, documented {len(due)}: "
                f"{[d - wait.start for d in wait.schedule]}",
            )

    def _check_notices(self, wait: Wait) -> None:
        """The player heard of the wait once, the way they asked (see the
        module's docstring), and the last one of a simultaneous phase at
        most once more."""
        member = self.by_id[wait.user]
        got = Counter(n.way for n in wait.notices if not n.last_one)
        again = Counter(n.way for n in wait.notices if n.last_one)
        who = f"#{wait.game} seat {wait.seat} ({member.user.name}, turn {member.turn})"
        if any(count > 1 for count in again.values()):
            self._violation("told twice", f"{who}: the last one told {dict(again)}")
        menu = wait.by_menu and not member.dms_closed
        if wait.private or menu:
            # Told by the DM with its menu (issue 30: a decision made in a DM
            # menu is announced by that DM, whatever ``turn`` says; a
            # ``both`` player is pinged on the board as well, unless quiet);
            # with DMs closed the channel's one notice says to use /game
            # hand (documented: once a game).
            heard = got["menu"] + got["closed"] + got["closed-turn"]
            pings = int(
                menu
                and not wait.private
                and wait.announced
                and not wait.quiet
                and member.turn == "both"
            )
            if got["dm"] or got["ping"] > pings:
                self._violation("told unasked", f"{who}: a menu's decision announced {dict(got)}")
            if got["ping"] < pings:
                self._violation("unannounced", f"{who}: asked for both, not pinged {dict(got)}")
            if wait.announced and heard == 0 and not member.dms_closed:
                self._violation("unannounced", f"{who}: a menu's decision, no menu DM")
            if heard > 1:
                self._violation("told twice", f"{who}: a menu's decision, {dict(got)}")
            return
        expected: dict[NoticeWay, int] = {"ping": 0, "dm": 0}
        if wait.announced:
            if not wait.quiet and (member.turn in ("ping", "both") or member.dms_closed):
                expected["ping"] = 1
            if member.turn in ("dm", "both") and not member.dms_closed:
                expected["dm"] = 1
        got["ping"] += got.pop("closed-turn", 0)
        for way, count in expected.items():
            if got[way] == count:
                continue
            if got[way] < count:
                kind = "unannounced"
            elif count == 0 and not wait.announced:
                kind = "told unasked"
            else:
                kind = "told twice"
            self._violation(
                kind,
                f"{who}: {got[way]} {way} for a wait from {wait.start - self.start_time:.0f}s "
                f"(expected {count}; quiet={wait.quiet}): "
                + " | ".join(n.text[:70] for n in wait.notices),
            )

    def _check_timeout(self, game_id: int, seat: int, at: float) -> None:
        """A timeout comes when the seat's clock ran out, not before; while
        the bot is up, exactly then."""
        wait = self.waits.get((game_id, seat))
        assert wait is not None and wait.deadline is not None, (game_id, seat, at)
        assert at >= wait.deadline - 0.5, ("timed out early", game_id, seat, at, wait)
        if not self._catching_up:
            assert at - wait.deadline <= 1, ("timed out late", game_id, seat, at, wait)

    def _plan(self, wait: Wait) -> None:
        """When the seat's player acts in this wait, from their behaviour."""
        member = self.by_id.get(wait.user)
        if member is None or member.behaviour == "vanished":
            return
        if member.behaviour == "prompt":
            when = wait.start + member.delay
        elif wait.schedule:
            # An hour after being reminded (the first, or the last reminder).
            when = wait.schedule[-1 if member.last_reminder else 0] + HOUR
        elif wait.deadline is not None:
            when = wait.start + 0.75 * (wait.deadline - wait.start)
        else:
            when = wait.start + DAY
        if wait.deadline is not None:
            when = min(when, wait.deadline - 10 * MINUTE)
        self.plans[(wait.game, wait.seat)] = max(when, self.clock.now)

    def finish(self) -> None:
        """The end of the run: the waits still open are checked for their
        notifications too (their reminders are still to come)."""
        for wait in self.waits.values():
            self._check_notices(wait)

    def _untold(self, wait: Wait) -> str:
        """Why an announced wait was told nothing (checked as it closed)."""
        member = self.by_id[wait.user]
        if wait.private:
            return "private, DMs closed"
        if wait.quiet and member.turn == "ping":
            return "began in quiet hours (named on the board)"
        if wait.quiet and member.dms_closed:
            return "began in quiet hours, DMs closed"
        return "unexplained"

    def user_of(self, game_id: int, seat: int) -> int:
        """The user id seated at ``seat`` (from the waits and games seen)."""
        for wait in [*self.closed_waits, *self.waits.values()]:
            if (wait.game, wait.seat) == (game_id, seat):
                return wait.user
        raise AssertionError(f"no wait seen for game #{game_id} seat {seat}")

    def figures(self) -> dict[str, Any]:
        """What the run saw: waits, reminders, timeouts, notifications per
        wait, and the violations by kind."""
        waits = [*self.closed_waits, *self.waits.values()]
        announced = [w for w in waits if w.announced]
        per_wait = Counter(
            "+".join(sorted(f"{n.way}{'*' if n.last_one else ''}" for n in w.notices)) or "none"
            for w in announced
        )
        return {
            "days": round(self.day, 2),
            "games": len(self.games),
            "moves": sum(self.moves.values()),
            "waits": len(waits),
            "private waits": sum(w.private for w in waits),
            "waits announced": len(announced),
            "waits begun in quiet hours": sum(w.quiet for w in announced),
            "waits renewed by a timeout": sum(w.renewed for w in waits),
            "announced waits told nothing, documented": dict(
                Counter(self._untold(w) for w in announced if not w.notices)
            ),
            "notifications per announced wait": dict(sorted(per_wait.items())),
            "reminders": sum(1 for o in self.observed if o.kind == "reminder"),
            "reminders per wait": dict(sorted(Counter(len(w.received) for w in waits).items())),
            "timeouts": dict(Counter(a for *_, a in self.timeouts)),
            "timeouts after a reminder": sum(1 for w in waits if w.timed_out and w.received),
            "timeouts without a reminder, documented": dict(
                Counter(w.unreminded for w in waits if w.unreminded)
            ),
            "restarts": len(self.restarts),
            "violations": dict(Counter(v.kind for v in self.violations)),
        }

    # -- moderators and members --------------------------------------------------

    async def command(
        self, actor: FakeUser, command: str, game: str | None = None, **options: Any
    ) -> list[Sent]:
        """A slash command (in the game's channel, with ``game:<n>``, when it
        names one), then a look at what it changed."""
        channel: int | None = None
        if game is not None:
            options["game"] = self.games[game]
            channel = self.channel(self.specs[game].channel)
        out = await self.fake.slash(actor, command, channel_id=channel, option_values=options)
        await self.observe()
        return out


def choose(texts: list[str], *, seed: int) -> str:
    """A legal move a person might pick: a whole random set-up when one is
    offered (Artaban), never a draw offer or starting a set-up again, and in
    Mahabharata a token behind the screen when one may go there (so a Pati
    completes, and players are asked privately whether to announce)."""
    assert texts, "no legal move"
    if "setup random" in texts:
        return "setup random"
    usable = [t for t in texts if not t.startswith(("offer-draw", "setup reset"))] or texts
    screens = [t for t in usable if t.endswith(" screen")]
    return (screens or usable)[seed % len(screens or usable)]


def _game(text: str) -> int:
    found = GAME_ID.search(text)
    assert found, text
    return int(found[1])


def _rel(moment: float | None, start: float) -> str:
    return "none" if moment is None else f"{moment - start:.0f}"


async def overdue_timers(path: Path, now: float) -> list[Timer]:
    """The timers due at ``now`` in the database at ``path``, read with the
    bot's own store while no bot runs."""
    db = await open_database(path)
    try:
        return await TimerStore(db).due(now, limit=10_000)
    finally:
        await db.close()
