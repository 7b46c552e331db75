"""The checks: the counts that must be zero (:data:`VIOLATIONS`).

Each check compares what could disagree: what a worker told a player or
believed it wrote (its journal) with what the database holds, or the
database's own parts with each other (a log with the states it replays
to, a game's seats with its log, a waiting game with its timers).  What
the schema itself makes impossible (a (game, seq) twice, a gap in seqs:
the primary key, and seqs numbered from the guarded version in one
statement) is not counted: it could never fail.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.tools.loadtest.journal import Commit, Journalled
from bot.tools.loadtest.players import Ack
from bot.tools.loadtest.world import CLOCK_AFTER_A_TIMEOUT, OVERDUE, Deadline

BOARD_NONCE = re.compile(r"^b(\d+)v(\d+)(o?)$")
TIMEOUT_EVENTS = ("@timeout", "@forfeit")
LEFT_EVENT = "@left"
ACKNOWLEDGEMENTS = ("Played:", "Done.")
"""How the bot's reply to a click begins when it made the move
(``Table._done_text``): what the player reads as "your move is in"."""


Notes = dict[str, list[str]]
"""Per count, the first few things it counted (which game, what), for the
report: a count says that something went wrong, a note where to look."""
NOTES_PER_COUNT = 5


def note(notes: Notes | None, count: str, what: str) -> None:
    if notes is not None and len(notes.setdefault(count, [])) < NOTES_PER_COUNT:
        notes[count].append(what)


@dataclass(frozen=True)
class LogEntry:
    game: int
    seq: int
    actor: int
    action: str
    at: float


def _log_index(log: Iterable[LogEntry]) -> dict[tuple[int, int], tuple[int, str]]:
    return {(e.game, e.seq): (e.actor, e.action) for e in log}


def _in_log(commit: Commit, index: Mapping[tuple[int, int], tuple[int, str]]) -> bool:
    """The commit's entries are the log's, at the seqs it wrote them to."""
    return all(
        index.get((commit.game, commit.start + k)) == entry
        for k, entry in enumerate(commit.entries, start=1)
    )


def _moves_of(commit: Commit, seat: int) -> bool:
    """The commit holds a move of ``seat`` (not a table event)."""
    return any(actor == seat and not action.startswith("@") for actor, action in commit.entries)


def check_moves(
    journalled: Journalled, log: Sequence[LogEntry], notes: Notes | None = None
) -> dict[str, int]:
    """Moves acknowledged and not in the log, moves applied twice, and
    replies that contradict the log, by action (actor, action text, the
    version it was applied at), from what the workers journalled before
    their writes returned:

    - ``acked_not_in_log``: a write that returned whose entries are not
      the log's at its seqs (another action there, or none); or a click
      answered "Played" with no write of its seat's move in the log.
    - ``applied_twice``: one click whose seat's move is in the log from two
      writes (at two seqs); or two writes that both returned for one seq
      (the version guard let both through).
    - ``replies_contradicting_log``: a click refused (any reply but
      "Played") whose move was written and returned.
    """
    index = _log_index(log)
    lost = twice = contradicting = 0
    for commit in journalled.commits:
        if commit.outcome == "stored" and not _in_log(commit, index):
            lost += 1
            note(notes, "acked_not_in_log", f"game {commit.game}: write at {commit.start}")
    own: dict[int, list[Commit]] = defaultdict(list)
    for commit in journalled.commits:
        click = journalled.clicks.get(commit.interaction or -1)
        # A refused write wrote nothing: that its entries match the log is
        # another write's doing (the same move, clicked twice).
        if (
            click is not None
            and commit.outcome != "refused"
            and _moves_of(commit, click.seat)
            and _in_log(commit, index)
        ):
            own[click.interaction].append(commit)
    for interaction, replies in journalled.replies.items():
        acknowledged = any(text.startswith(ACKNOWLEDGEMENTS) for text in replies)
        mine = own.get(interaction, [])
        click = journalled.clicks.get(interaction)
        where = f"game {click.game} at {click.version}" if click else f"click {interaction}"
        if acknowledged and not mine:
            lost += 1
            note(notes, "acked_not_in_log", f"{where}: told {replies[0][:40]!r}")
        if replies and not acknowledged and any(c.outcome == "stored" for c in mine):
            contradicting += 1
            note(notes, "replies_contradicting_log", f"{where}: told {replies[0][:40]!r}")
    for commits in own.values():
        if len(commits) > 1:
            twice += len(commits) - 1
            starts = [c.start for c in commits]
            note(notes, "applied_twice", f"game {commits[0].game}: one click, at {starts}")
    claimed: set[tuple[int, int]] = set()
    for commit in sorted(
        (c for c in journalled.commits if c.outcome == "stored"), key=lambda c: (c.game, c.start)
    ):
        seqs = {(commit.game, commit.start + k) for k in range(1, len(commit.entries) + 1)}
        if seqs & claimed:
            twice += 1
            note(notes, "applied_twice", f"game {commit.game}: two writes at {commit.start}")
        claimed |= seqs
    return {
        "writes_returned": sum(1 for c in journalled.commits if c.outcome == "stored"),
        "acked_not_in_log": lost,
        "applied_twice": twice,
        "replies_contradicting_log": contradicting,
    }


def check_journal_complete(
    acks: Iterable[Ack],
    journalled: Journalled,
    log: Sequence[LogEntry],
    since: float,
    notes: Notes | None = None,
) -> dict[str, int]:
    """The journals against what they should hold:

    - ``acks_missing_from_journal``: a move the coordinator heard was
      played whose write or "Played" reply the journals lack: they would
      be blind to what :func:`check_moves` looks for (a check that cannot
      see cannot fail).
    - ``log_entries_unjournalled``: an entry the log got during the run
      (``since``: after seeding) that no journalled write put there, a
      write refused by the version guard aside: a write that raised
      ``StaleVersion`` and was stored all the same, or one the workers
      never said they made.
    """
    stored = {c.interaction for c in journalled.commits if c.outcome == "stored"}
    missing = 0
    for ack in acks:
        replies = journalled.replies.get(ack.interaction, [])
        if ack.interaction not in stored or not any(
            text.startswith(ACKNOWLEDGEMENTS) for text in replies
        ):
            missing += 1
            note(notes, "acks_missing_from_journal", f"game {ack.game}: click {ack.interaction}")
    written: set[tuple[int, int, int, str]] = set()
    for c in journalled.commits:
        if c.outcome != "refused":
            for k, (actor, action) in enumerate(c.entries, start=1):
                written.add((c.game, c.start + k, actor, action))
    unjournalled = 0
    for e in log:
        if e.at >= since and (e.game, e.seq, e.actor, e.action) not in written:
            unjournalled += 1
            note(notes, "log_entries_unjournalled", f"game {e.game}: seq {e.seq} {e.action!r}")
    return {"acks_missing_from_journal": missing, "log_entries_unjournalled": unjournalled}


@dataclass(frozen=True)
class GameLog:
    """One game as the database holds it at the end."""

    game: int
    engine: str
    seats: int
    options: Mapping[str, Any]
    entries: Sequence[tuple[int, int, str]]
    """(seq, actor, action), in seq order."""
    snapshots: Mapping[int, Any] = field(default_factory=dict)
    """seq -> the state's JSON stored there."""


def replay(game: GameLog) -> tuple[Any, str | None]:
    """The state the log replays to from the engine's set-up, or what is
    wrong: an action the engine refuses where it stands (a move applied
    twice, or computed from a state the game was no longer in), or a stored
    snapshot that is not the state the log gives at its seq (a process that
    wrote from a state that had drifted from its log)."""
    from bot.engines import get_engine
    from bot.takeback import LogReplay, targets_of

    engine = get_engine(game.engine)
    state = engine.setup(game.seats, dict(game.options))

    def differs(seq: int) -> bool:
        if seq not in game.snapshots:
            return False
        replayed = json.loads(json.dumps(engine.to_json(state)))
        return bool(replayed != game.snapshots[seq])

    if differs(0):
        return None, "snapshot 0"
    # Table events pass; a takeback returns to its version (issue 31).
    follow = LogReplay(engine, 0, state, targets_of(action for _, _, action in game.entries))
    for seq, actor, action in game.entries:
        try:
            state = follow.follow(seq, actor, action)
        except Exception as exc:
            return None, f"seq {seq}: {type(exc).__name__}"
        if differs(seq):
            return None, f"snapshot {seq}"
    return state, None


def check_replays(
    games: Iterable[GameLog], notes: Notes | None = None
) -> tuple[dict[str, int], dict[int, Any]]:
    """Games whose log does not replay (see :func:`replay`), and the state
    each game's log replays to (None where it does not)."""
    states: dict[int, Any] = {}
    broken = 0
    for game in games:
        states[game.game], problem = replay(game)
        if problem is not None:
            broken += 1
            note(notes, "logs_not_replaying", f"game {game.game}: {problem}")
    return {"logs_not_replaying": broken}, states


@dataclass(frozen=True)
class SeatAtEnd:
    seat: int
    user: int
    auto: bool
    """The seat is played by the automatic player (a lobby's, or a person's
    who left)."""


@dataclass(frozen=True)
class TableAtEnd:
    """A game at the end, as what it waits on and what will make it move."""

    game: int
    active: bool
    clocked: bool
    paused: bool
    chance_to_move: bool
    awaited: frozenset[int]
    """Seats owing a decision now (public and private)."""
    seats: tuple[SeatAtEnd, ...]
    clock_timers: frozenset[int]
    """Seats with a clock timer set for the game's current version."""
    void_timers: bool
    """A timer set for an older version is left: when it fires (or at the
    next start-up) the game's timers are set again."""
    left_logged: frozenset[int]
    """Seats with a ``@left`` entry in the log."""


def check_tables(tables: Iterable[TableAtEnd], notes: Notes | None = None) -> dict[str, int]:
    """Games that wait for ever, and seats handed over without the log
    saying so:

    - ``games_stranded``: a running game waiting on a decision nothing
      will make: an awaited seat a person left (the automatic player moves
      such a seat at once, with the change that made it due, and no timer
      or start-up ever does); or, unless a void timer will set the game's
      timers again, chance to move (resolved with the move that brings
      it), an awaited lobby automatic player with no clock timer, or an
      awaited person with no clock timer in a timed game (every decision
      owed has a deadline).
    - ``seats_left_unlogged``: a person's seat played by the automatic
      player without a ``@left`` entry of that seat, or a ``@left`` entry
      of a seat a person still plays.
    """
    stranded = unlogged = 0
    for table in tables:
        for seat in table.seats:
            person = seat.user > 0
            if person and seat.auto != (seat.seat in table.left_logged):
                unlogged += 1
                state = "automatic" if seat.auto else "a person's"
                note(notes, "seats_left_unlogged", f"game {table.game}: seat {seat.seat} {state}")
        if not table.active or table.paused:
            continue
        by_seat = {s.seat: s for s in table.seats}
        # A void timer loads the game when it fires (settling chance) and
        # sets its timers again; start-up does the same.  Neither moves a
        # seat a person left: that happens only with the change that made
        # it due.
        replanned = table.void_timers
        why = ["chance to move"] if table.chance_to_move and not replanned else []
        for number in sorted(table.awaited):
            awaited = by_seat.get(number)
            if awaited is None:
                continue
            needs_a_timer = awaited.auto or table.clocked
            if awaited.auto and awaited.user > 0:
                why.append(f"seat {number} left, awaited")
            elif needs_a_timer and number not in table.clock_timers and not replanned:
                why.append(f"seat {number} awaited, no clock timer")
        if why:
            stranded += 1
            note(notes, "games_stranded", f"game {table.game}: {', '.join(why)}")
    return {"games_stranded": stranded, "seats_left_unlogged": unlogged}


@dataclass(frozen=True)
class TimerAtEnd:
    game: int
    kind: str
    seat: int
    due: float
    version: int
    lease_until: float | None


def check_deadlines(
    deadlines: Iterable[Deadline],
    log: Sequence[LogEntry],
    timers: Sequence[TimerAtEnd],
    journalled: Journalled,
    active: Iterable[int],
    stop: float,
    min_gap: float = CLOCK_AFTER_A_TIMEOUT - OVERDUE,
    notes: Notes | None = None,
) -> dict[str, int]:
    """Deadlines fired twice, never, or still waiting, for the deadlines
    the run saw (``deadlines``: the seeded ones and every one a racer
    read) and the timers left at ``stop`` (when the coordinator stopped
    waiting; nothing due after it is checked).

    - ``deadlines_fired_twice``: one timer (game, kind, seat, due, version,
      count) whose timeout writes are in the log from two writes (the
      workers' journals); or a seat's timeout in the log after the seat had
      left.
    - ``timeouts_too_soon``: a seat's timeout in the log sooner after its
      previous one than its clock allows (``min_gap``: a timeout is the
      seat's move, after which :data:`CLOCK` leaves it a full minute): the
      seat's clock was not given its time for the move.
    - ``deadlines_never_fired``: a deadline past, its game still running,
      nothing in the log since the version it was set for, and no timer of
      that seat left: the deadline is gone and nothing happened.
    - ``timers_overdue_pending`` and ``timers_overdue_claimed``: timers of
      running games still there, past due at ``stop``; claimed: under a
      lease that has not run out (a process holds it and did not act).
    - ``deadlines_due``, ``deadlines_timed_out`` (the log's next entry is
      that seat's timeout: the clock won) and ``deadlines_met`` (something
      else came first: the player's move): what the racing amounted to.
    """
    index = _log_index(log)
    running = set(active)
    twice = 0
    acted: Counter[tuple[Any, ...]] = Counter()
    for commit in journalled.commits:
        if (
            commit.timer is not None
            and commit.outcome != "refused"
            and any(a.startswith(TIMEOUT_EVENTS) for _, a in commit.entries)
            and _in_log(commit, index)
        ):
            acted[commit.timer] += 1
    for timer, n in acted.items():
        if n > 1:
            twice += n - 1
            note(notes, "deadlines_fired_twice", f"timer {list(timer)} acted on {n} times")
    last_timeout: dict[tuple[int, int], float] = {}
    left: set[tuple[int, int]] = set()
    too_soon = 0
    for e in sorted(log, key=lambda e: (e.game, e.seq)):
        key = (e.game, e.actor)
        if e.action.startswith(TIMEOUT_EVENTS):
            previous = last_timeout.get(key)
            if key in left:
                twice += 1
                note(notes, "deadlines_fired_twice", f"game {e.game}: seat {e.actor} had left")
            elif previous is not None and e.at - previous < min_gap:
                too_soon += 1
                gap = e.at - previous
                note(notes, "timeouts_too_soon", f"game {e.game}: seat {e.actor}, {gap:.1f} s")
            last_timeout[key] = e.at
        elif e.action.startswith(LEFT_EVENT):
            left.add(key)
    overdue = [t for t in timers if t.game in running and t.due < stop - OVERDUE]
    for t in overdue:
        late = stop - t.due
        note(notes, "timers_overdue", f"game {t.game}: {t.kind} of seat {t.seat}, {late:.0f} s")
    claimed = sum(1 for t in overdue if t.lease_until is not None and t.lease_until > stop)
    timer_seats = {(t.game, t.seat) for t in timers if t.kind == "clock"}
    after: dict[int, list[LogEntry]] = defaultdict(list)
    for e in log:
        after[e.game].append(e)
    due = never = timed_out = met = 0
    for d in sorted(set(deadlines), key=lambda d: (d.game, d.version, d.seat)):
        if d.due >= stop - OVERDUE:
            continue
        due += 1
        later = sorted((e for e in after[d.game] if e.seq > d.version), key=lambda e: e.seq)
        if later:
            first = later[0]
            if first.actor == d.seat and first.action.startswith(TIMEOUT_EVENTS):
                timed_out += 1
            else:
                met += 1
        elif d.game in running and (d.game, d.seat) not in timer_seats:
            never += 1
            note(notes, "deadlines_never_fired", f"game {d.game}: seat {d.seat} at {d.version}")
    return {
        "deadlines_due": due,
        "deadlines_timed_out": timed_out,
        "deadlines_met": met,
        "deadlines_fired_twice": twice,
        "timeouts_too_soon": too_soon,
        "deadlines_never_fired": never,
        "timers_overdue_pending": len(overdue) - claimed,
        "timers_overdue_claimed": claimed,
    }


def check_boards(journal: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Board posts: the same nonce posted more than once (raw: what a
    Discord without nonce de-duplication would show twice; not a fault:
    Chaupal relies on the de-duplication after a crash mid-post), and one
    board (game, version) posted under different nonces (what even Discord
    would show twice)."""
    nonces: Counter[str] = Counter()
    versions: dict[tuple[int, int], set[str]] = defaultdict(set)
    posts = edits = 0
    for record in journal:
        if record.get("m") == "PATCH":
            edits += 1
        if record.get("m") != "POST" or record.get("p") != "/channels/{channel_id}/messages":
            continue
        match = BOARD_NONCE.match(str(record.get("nonce") or ""))
        if match is None:
            continue
        posts += 1
        nonces[match[0]] += 1
        versions[(int(match[1]), int(match[2]))].add(match[0])
    return {
        "boards_posted": posts,
        "board_edits": edits,
        "boards_posted_twice_raw": sum(n - 1 for n in nonces.values() if n > 1),
        "boards_posted_twice": sum(len(v) - 1 for v in versions.values() if len(v) > 1),
    }


VIOLATIONS = (
    "acks_missing_from_journal",
    "log_entries_unjournalled",
    "acked_not_in_log",
    "applied_twice",
    "replies_contradicting_log",
    "logs_not_replaying",
    "deadlines_fired_twice",
    "timeouts_too_soon",
    "deadlines_never_fired",
    "timers_overdue_pending",
    "timers_overdue_claimed",
    "games_stranded",
    "seats_left_unlogged",
    "boards_posted_twice",
)
"""The counts that must be zero (the exit status is 1 otherwise)."""
