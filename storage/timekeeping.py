"""Timers, server settings and vacations (migration 0003).

Timers are the deadlines that keep asynchronous games moving: a reminder for
the players a game waits on, a seat's clock running out.  They are derived
data: the service sets a game's timers from its state after every change and
recomputes all of them at start-up, so nothing is lost if a crash falls
between a move and its timers.  The scheduler only ever asks for the earliest
one (``timers_by_due``), so start-up costs one indexed query however many
games are live.

A timer fires at most once: :meth:`TimerStore.claim` deletes it only if it is
still exactly the timer the scheduler read (same due time, same game
version), and :meth:`TimerStore.reschedule` moves a reminder on the same way.

Several processes may share the database (issue 20): each scheduler fires
only the timers it claimed (:meth:`TimerStore.claim_due`: ``claimed_by`` and
``lease_until``, migration 0009), and deleting or moving a timer on succeeds
only while no other process holds it.  A claimed timer stays in the table
until its handler is done, so a process that dies meanwhile loses it when
the lease runs out, and another process fires it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from storage.backend import Connection, for_update
from storage.database import Database
from storage.settings import SettingsStore

__all__ = [
    "SettingsStore",
    "Timer",
    "TimerKind",
    "TimerPlan",
    "TimerStore",
    "Vacation",
    "rewrite_timers",
]


TimerKind = Literal["remind", "clock"]

_TIMER_COLUMNS = "game_id, kind, seat, due, version, count"


@dataclass(frozen=True, order=True)
class Timer:
    """One pending deadline.  Ordered by due time, then game, kind and seat,
    which is the order overdue timers fire in."""

    due: float
    game_id: int
    kind: TimerKind
    #: The seat whose clock runs out (``clock``) or who is reminded
    #: (``remind``); -1 only in reminders stored before they were per seat.
    seat: int
    #: The game version the timer was set for; older is void.
    version: int
    #: Reminders already sent for this wait (``remind`` only).
    count: int = 0


@dataclass(frozen=True)
class Vacation:
    user_id: int
    starts: float
    ends: float


def _identity(timer: Timer) -> tuple[int, str, int, float, int, int]:
    """What makes a stored timer the one read: its key, due time, version
    and count (the order of the statements' ``WHERE``)."""
    return (timer.game_id, timer.kind, timer.seat, timer.due, timer.version, timer.count)


def _timer(row: Any) -> Timer:
    return Timer(
        due=float(row["due"]),
        game_id=int(row["game_id"]),
        kind=cast(TimerKind, row["kind"]),
        seat=int(row["seat"]),
        version=int(row["version"]),
        count=int(row["count"]),
    )


TimerPlan = Callable[[Sequence[Timer]], Sequence[Timer]]
"""How a game's timers follow from the ones stored: a pure function, called
inside the transaction that changes the game (:func:`rewrite_timers`), so
that what it keeps (a reminder of the same wait, the deadline of a private
decision) is what is stored at that moment, not what an earlier read saw
before a scheduler moved a reminder on."""


async def rewrite_timers(conn: Connection, game_id: int, plan: TimerPlan) -> bool:
    """Make the game's timers what ``plan`` makes of the stored ones, in the
    caller's write transaction (:meth:`storage.games.GameStore.commit`); True
    if they changed.  The stored rows are locked while they are read (on
    PostgreSQL a scheduler moving one on waits, or is waited for), and a
    rewritten timer is nobody's claim: a handler holding the old one finds
    it changed and does not act on it."""
    rows = await conn.execute_fetchall(
        f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? "
        f"ORDER BY due, kind, seat{for_update(conn)}",
        (game_id,),
    )
    stored = sorted(_timer(r) for r in rows)
    wanted = sorted(plan(stored))
    if any(t.game_id != game_id for t in wanted):
        raise ValueError("every timer must belong to the game being set")
    if len({(t.kind, t.seat) for t in wanted}) != len(wanted):
        raise ValueError("a game has at most one timer of each kind per seat")
    if wanted == stored:
        return False
    await conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
    await conn.executemany(
        f"INSERT INTO timers ({_TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        [(t.game_id, t.kind, t.seat, t.due, t.version, t.count) for t in wanted],
    )
    return True


def local_owner() -> str:
    """An owner for a store built without one (a test, a tool): claims
    nobody else's."""
    return f"local:{secrets.token_hex(4)}"


#: The condition that a timer is not another process's: unclaimed, or ours.
_NOT_OTHERS = "(claimed_by IS NULL OR claimed_by = ?)"


class TimerStore:
    """The timers table, and the vacations the clocks respect.  ``owner``
    names this process in the claims it takes (:mod:`bot.claims`)."""

    def __init__(self, db: Database, owner: str | None = None) -> None:
        self.db = db
        self.owner = owner or local_owner()

    async def replace(self, game_id: int, timers: Iterable[Timer]) -> None:
        """Make ``timers`` the game's only timers (none: clear them)."""
        rows = [(t.game_id, t.kind, t.seat, t.due, t.version, t.count) for t in timers]
        if any(r[0] != game_id for r in rows):
            raise ValueError("every timer must belong to the game being set")
        async with self.db.transaction() as conn:
            # Two replacements at once (on PostgreSQL) take turns on the game's row.
            await conn.execute_fetchall(
                f"SELECT 1 FROM games WHERE id = ?{for_update(conn)}", (game_id,)
            )
            await conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            await conn.executemany(
                f"INSERT INTO timers ({_TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", rows
            )

    async def of_game(self, game_id: int) -> list[Timer]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY due, kind, seat",
                (game_id,),
            )
        return [_timer(r) for r in rows]

    async def earliest(self) -> Timer | None:
        """The next timer to fire, or None: the earliest unclaimed one, or,
        when a claim's lease runs out sooner (a process that died holding
        it), that timer with ``due`` moved to the moment it can be claimed
        again, so that the scheduler wakes then (two indexed reads)."""
        async with self.db.read() as conn:
            free = list(
                await conn.execute_fetchall(
                    f"SELECT {_TIMER_COLUMNS} FROM timers WHERE claimed_by IS NULL "
                    "ORDER BY due, game_id, kind, seat LIMIT 1"
                )
            )
            held = list(
                await conn.execute_fetchall(
                    f"SELECT {_TIMER_COLUMNS}, lease_until FROM timers "
                    "WHERE claimed_by IS NOT NULL ORDER BY lease_until LIMIT 1"
                )
            )
        found = [_timer(r) for r in free]
        for row in held:
            timer = _timer(row)
            found.append(replace(timer, due=max(timer.due, float(row["lease_until"]))))
        return min(found) if found else None

    async def claim_due(self, now: float, until: float, limit: int = 500) -> list[Timer]:
        """Claim the timers due at ``now`` or before that nobody holds (or
        whose holder's lease ran out) for this process until ``until``, at
        most ``limit``, earliest first: one statement, so two processes
        never claim the same timer (on PostgreSQL each passes over the rows
        the other is claiming, ``SKIP LOCKED``)."""
        async with self.db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "UPDATE timers SET claimed_by = ?, lease_until = ? "
                "WHERE (game_id, kind, seat) IN (SELECT game_id, kind, seat FROM timers "
                "WHERE due <= ? AND (claimed_by IS NULL OR lease_until <= ?) "
                f"ORDER BY due, game_id, kind, seat LIMIT ?{for_update(conn, skip_locked=True)}) "
                f"RETURNING {_TIMER_COLUMNS}",
                (self.owner, until, now, now, limit),
            )
        return sorted(_timer(r) for r in rows)

    async def holds(self, timer: Timer) -> bool:
        """Whether ``timer`` is unchanged and no other process holds it: a
        handler's check before it acts on a timer it will finish after."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT 1 FROM timers WHERE game_id = ? AND kind = ? AND seat = ? "
                f"AND due = ? AND version = ? AND count = ? AND {_NOT_OTHERS}",
                (*_identity(timer), self.owner),
            )
        return bool(list(rows))

    async def release(self, timer: Timer) -> bool:
        """Give up this process's claim on ``timer`` (unchanged): it can be
        claimed again at once.  True if this call released it."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE game_id = ? "
                "AND kind = ? AND seat = ? AND due = ? AND version = ? AND count = ? "
                "AND claimed_by = ?",
                (*_identity(timer), self.owner),
            )
            return cursor.rowcount == 1

    async def due(self, now: float, limit: int = 500) -> list[Timer]:
        """Timers due at ``now`` or before, earliest first."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE due <= ? "
                "ORDER BY due, game_id, kind, seat LIMIT ?",
                (now, limit),
            )
        return [_timer(r) for r in rows]

    async def claim(self, timer: Timer) -> bool:
        """Delete ``timer`` if it is unchanged and no other process holds
        it; True if this call removed it (so whoever claims it acts on it,
        once)."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM timers WHERE game_id = ? AND kind = ? AND seat = ? "
                f"AND due = ? AND version = ? AND count = ? AND {_NOT_OTHERS}",
                (*_identity(timer), self.owner),
            )
            return cursor.rowcount == 1

    async def reschedule(self, timer: Timer, due: float) -> bool:
        """Move an unchanged ``timer`` to ``due``, counting one more firing;
        True if this call moved it."""
        return await self._move(timer, due, fired=1)

    async def postpone(self, timer: Timer, due: float) -> bool:
        """Move an unchanged ``timer`` to ``due`` without counting a firing
        (a reminder waiting for the player's quiet hours to end)."""
        return await self._move(timer, due, fired=0)

    async def _move(self, timer: Timer, due: float, *, fired: int) -> bool:
        async with self.db.transaction() as conn:
            # Moved on, the timer is nobody's until it falls due again.
            cursor = await conn.execute(
                "UPDATE timers SET due = ?, count = count + ?, claimed_by = NULL, "
                "lease_until = NULL WHERE game_id = ? AND kind = ? "
                f"AND seat = ? AND due = ? AND version = ? AND count = ? AND {_NOT_OTHERS}",
                (due, fired, *_identity(timer), self.owner),
            )
            return cursor.rowcount == 1

    async def games_to_settle(self) -> list[int]:
        """Running games whose timers may be missing or void (set for an
        older version), by id: what start-up must look at again."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT g.id FROM games AS g WHERE g.status = 'active' AND ("
                "NOT EXISTS (SELECT 1 FROM timers AS t WHERE t.game_id = g.id) OR "
                "EXISTS (SELECT 1 FROM timers AS t WHERE t.game_id = g.id "
                "AND t.version <> g.version)) ORDER BY g.id"
            )
        return [int(r["id"]) for r in rows]

    async def count(self) -> int:
        async with self.db.read() as conn:
            rows = list(await conn.execute_fetchall("SELECT COUNT(*) AS n FROM timers"))
        return int(rows[0]["n"])

    # ---- vacations

    async def add_vacation(self, vacation: Vacation) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO vacations (user_id, starts, ends) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, starts) DO UPDATE SET ends = excluded.ends",
                (vacation.user_id, vacation.starts, vacation.ends),
            )

    async def end_vacation(self, user_id: int, now: float) -> bool:
        """End the user's current vacation now; True if one was running."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE vacations SET ends = ? WHERE user_id = ? AND starts <= ? AND ends > ?",
                (now, user_id, now, now),
            )
            return cursor.rowcount > 0

    async def vacations(self, user_ids: Sequence[int], since: float) -> list[Vacation]:
        """The users' vacations ending after ``since``, oldest first."""
        if not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT user_id, starts, ends FROM vacations WHERE user_id IN ({marks}) "
                "AND ends > ? ORDER BY starts",
                (*user_ids, since),
            )
        return [Vacation(int(r["user_id"]), float(r["starts"]), float(r["ends"])) for r in rows]
