"""A Discord server's week of asynchronous play, for ``test_server_week``.

One bot (one guild, one database) on a fake clock runs several games in
several channels.  :class:`Server` moves time from one event to the next (the
earliest timer, a player's planned move, a scripted event), lets the bot's
scheduler fire what is due, then *observes*: every reminder and timeout the
bot sent since the last look is checked against who owed a decision just
before (``service.owing``), and against the reminder schedule documented in
``bot/timekeeping.py`` and the README, which this module computes on its own
(:func:`reminder_schedule`) so the test does not grade the bot with the
bot's own arithmetic.

A *wait* is one stretch during which a seat owes a decision without acting:
it starts when the seat begins to owe one (or acts and still owes one, or
its game resumes, or its player comes back), and ends when the seat acts,
stops owing, its game is paused or its player goes away.  Reminders are
counted per wait: the k-th reminder of a wait must be the k-th documented
due time, fired at that time (or at start-up, when it fell due while the bot
was down), and never twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bot.edge.client import ChaupalBot
from bot.timekeeping import format_left
from storage.database import Database
from storage.timekeeping import Timer, TimerStore
from tests.bot.driver import bot_of, make_bot
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

#: Loggers whose ERROR records count as an exception inside the bot: the
#: harness watches ``discord`` only by default, and the scheduler, keeper and
#: delivery log through ``bot.*`` and ``storage.*``.
ERROR_LOGGERS = ("discord", "bot", "storage")
#: A stuck timer job (issue 16's deadlock) must fail the test in seconds,
#: not after the production watchdog's two minutes.
JOB_LIMIT = 8.0

Behaviour = Literal["prompt", "late", "vanished"]
GAME_ID = re.compile(r"#(\d+)")
LEFT = re.compile(r"; (.+?) left on your clock")


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


def reminder_schedule(
    option: Reminding, clock: Clock | None, start: float, deadline: float | None, until: float
) -> list[float]:
    """When a wait that starts at ``start`` is reminded, up to ``until``, as
    documented:

    - ``auto``: one at half the time left, plus one ``clock.warning`` before
      the deadline when that comes a day or more after the first; without a
      clock, once a day;
    - a delay (``6h``): after that long, then every 24 hours, with a last one
      ``clock.warning`` before the deadline (and only that one when the delay
      would come after it);
    - ``off``: none.
    """
    if option is None:
        return []
    if deadline is None or clock is None:
        first = start + (DAY if option == "auto" else option)
        out = []
        due = first
        while due <= until:
            out.append(due)
            due += DAY
        return out
    final = deadline - clock.warning
    if option == "auto":
        first = start + (deadline - start) / 2
        return [first, final] if final - first >= DAY else [first]
    if start + option >= final:
        return [final] if final > start else []
    out = [start + option]
    while out[-1] < final - MINUTE:
        out.append(min(out[-1] + DAY, final))
    return out


# -- what the test plays with ------------------------------------------------------------


@dataclass
class Member:
    """A server member and how they play: ``prompt`` (a couple of hours after
    being awaited), ``late`` (an hour after their first reminder), or
    ``vanished`` (never)."""

    user: FakeUser
    behaviour: Behaviour
    delay: float = 2 * HOUR
    """How long a prompt member takes (a little different for each, so two
    members never act at the same instant)."""
    last_reminder: bool = False
    """A late member who waits for the last reminder of a wait, not the first."""


@dataclass
class Spec:
    """One game the server plays: its engine, lobby options and players."""

    name: str
    engine: str
    options: str
    players: list[str]
    channel: str

    def table(self) -> dict[str, str]:
        """The table options in force: the lobby's, else the server's
        defaults (``3d`` per move, ``substitute``, reminders ``auto``)."""
        words = dict(w.split("=", 1) for w in self.options.split())
        return {
            "clock": words.get("clock", "3d"),
            "timeout": words.get("timeout", "substitute"),
            "reminder": words.get("reminder", "auto"),
        }


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
    received: list[tuple[float, str, int | None]] = field(default_factory=list)
    """(when, the reminder's text, its nonce count) for each reminder."""
    collapsed: int = 0
    """Scheduled reminders missed while the bot was down that were sent as
    one with a later one (documented: missed reminders come as one)."""


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


class Server:
    """One guild with one bot, its members, games and the fake clock."""

    def __init__(self, root: Path, seed: int) -> None:
        self.path = root / "server.sqlite3"
        self.seed = seed
        self.clock = FakeClock()
        self.start_time = self.clock.now
        self.members: dict[str, Member] = {}
        self.by_id: dict[int, Member] = {}
        self.specs: dict[str, Spec] = {}
        self.games: dict[str, int] = {}
        self.channels: dict[str, int] = {}
        self.waits: dict[tuple[int, int], Wait] = {}
        self.closed_waits: list[Wait] = []
        self.observed: list[Observed] = []
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
        self._catching_up = False
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
        self, name: str, behaviour: Behaviour, delay: float = 2 * HOUR, last_reminder: bool = False
    ) -> Member:
        member = Member(self.fake.user(name), behaviour, delay, last_reminder)
        self.members[name] = member
        self.by_id[member.user.id] = member
        return member

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
        options = {"game": spec.engine} | ({"options": spec.options} if spec.options else {})
        out = await self.fake.slash(creator, "game new", channel_id=channel, option_values=options)
        lobby = next(s for s in out if s.route == "interaction.response")
        found = GAME_ID.search(lobby.content or "")
        assert found and not lobby.ephemeral, lobby
        game_id = int(found[1])
        for user in joiners:
            button = self.fake.find_button(self.fake.current(lobby), label="Join")
            await self.fake.click(user, lobby, button["custom_id"])
        start = self.fake.find_button(self.fake.current(lobby), label="Start")
        await self.fake.click(creator, lobby, start["custom_id"])
        self.specs[spec.name], self.games[spec.name] = spec, game_id
        live = await self.bot().service.get(game_id)
        assert live.record.status == "active", (spec.name, live.record.status)
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
            await self.play(game_id, seat)
            await self.observe()

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
        return overdue

    # -- observing ------------------------------------------------------------------

    async def observe(self) -> None:
        """Check what the bot sent since the last look against the waits as
        they were, then bring the waits up to date."""
        assert not self.fake.errors, "\n".join(e.format() for e in self.fake.errors)
        for sent in self.fake.sent[self._seen :]:
            self._check_sent(sent)
        self._seen = len(self.fake.sent)
        for name, game_id in self.games.items():
            await self._update_game(name, game_id)

    def _check_sent(self, sent: Sent) -> None:
        text = sent.content or ""
        now = self.clock.now
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
        if sent.route.startswith("channel.") and sent.created:
            # Away players are never pinged (issue 16: "they are today").
            allowed = sent.raw.get("allowed_mentions") or {}
            pinged = {int(u) for u in allowed.get("users") or []}
            for user_id, back in self.away.items():
                assert user_id not in pinged or now >= back, (
                    f"day {self.day:.2f}: an away player was pinged: {text[:200]}"
                )

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
        assert wait is not None, (
            f"day {self.day:.2f}: {member.user.name} was reminded of game #{seen.game} "
            f"without owing it a decision: {seen.text}"
        )
        if self._catching_up:
            # Missed reminders come as one: this one stands for the latest
            # scheduled reminder already due.
            k = len(wait.received) + wait.collapsed
            while k + 1 < len(wait.schedule) and wait.schedule[k + 1] <= seen.at + 1:
                wait.collapsed += 1
                k += 1
        k = len(wait.received) + wait.collapsed
        assert k < len(wait.schedule), (
            f"day {self.day:.2f}: reminder {k + 1} of one wait for {member.user.name} in "
            f"#{seen.game}, but the documented schedule from {wait.start} to "
            f"{wait.deadline} has {len(wait.schedule)}: {wait.schedule} ({seen.text})"
        )
        due = wait.schedule[k]
        if self._catching_up:
            assert due <= seen.at + 1, (due, seen)  # fell due while the bot was down
        else:
            assert abs(due - seen.at) <= 1, (
                f"{member.user.name} reminded at {seen.at - wait.start:.0f}s into a wait, "
                f"documented: {[d - wait.start for d in wait.schedule]}"
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
        # for whoever owes a decision after it.
        moved = any(not e.action.startswith("@") for e in new_entries)
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
                option = parse_reminder(table["reminder"])
                wait = Wait(
                    game_id,
                    seat,
                    live.user_of(seat),
                    now,
                    deadline,
                    reminder_schedule(option, clock, now, deadline, until=now + 30 * DAY),
                    fresh=moved,
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
        came, exactly once.  One a restart's catch-up ended got at most
        those due before it ended: reminders missed while the bot was down
        are sent as one, and none once the seat's clock has run out."""
        del self.waits[(wait.game, wait.seat)]
        self.closed_waits.append(wait)
        self.plans.pop((wait.game, wait.seat), None)
        due = [d for d in wait.schedule if d <= now]
        if wait.deadline is not None and wait.deadline <= now:
            due = [d for d in wait.schedule if d < wait.deadline]
        got = len(wait.received) + wait.collapsed
        if self._catching_up:
            assert got <= len(due), (wait, due)
            # Missed reminders come as one, and none once the clock has run out.
            late = [r for r in wait.received if wait.deadline is not None and r[0] >= wait.deadline]
            assert not late, ("a reminder after the clock ran out", wait)
        else:
            assert got == len(due), (
                f"day {self.day:.2f}: game #{wait.game} seat {wait.seat}: {got} reminders in a "
                f"wait from {wait.start - self.start_time:.0f}s, documented {len(due)}: "
                f"{[d - wait.start for d in wait.schedule]}"
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

    def user_of(self, game_id: int, seat: int) -> int:
        """The user id seated at ``seat`` (from the waits and games seen)."""
        for wait in [*self.closed_waits, *self.waits.values()]:
            if (wait.game, wait.seat) == (game_id, seat):
                return wait.user
        raise AssertionError(f"no wait seen for game #{game_id} seat {seat}")

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
    offered (Artaban), never a draw offer or starting a set-up again."""
    assert texts, "no legal move"
    if "setup random" in texts:
        return "setup random"
    usable = [t for t in texts if not t.startswith(("offer-draw", "setup reset"))] or texts
    return usable[seed % len(usable)]


def _game(text: str) -> int:
    found = GAME_ID.search(text)
    assert found, text
    return int(found[1])


async def overdue_timers(path: Path, now: float) -> list[Timer]:
    """The timers due at ``now`` in the database at ``path``, read with the
    bot's own store while no bot runs."""
    db = await Database.open(path)
    try:
        return await TimerStore(db).due(now, limit=10_000)
    finally:
        await db.close()
