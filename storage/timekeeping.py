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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from storage.backend import for_update
from storage.database import Database
from storage.settings import SettingsStore

__all__ = ["SettingsStore", "Timer", "TimerKind", "TimerStore", "Vacation"]


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


def _timer(row: Any) -> Timer:
    return Timer(
        due=float(row["due"]),
        game_id=int(row["game_id"]),
        kind=cast(TimerKind, row["kind"]),
        seat=int(row["seat"]),
        version=int(row["version"]),
        count=int(row["count"]),
    )


class TimerStore:
    """The timers table, and the vacations the clocks respect."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
        """The next timer to fire, or None."""
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {_TIMER_COLUMNS} FROM timers ORDER BY due, game_id, kind, seat "
                    "LIMIT 1"
                )
            )
        return _timer(rows[0]) if rows else None

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
        """Delete ``timer`` if it is unchanged; True if this call removed it
        (so whoever claims it acts on it, once)."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM timers WHERE game_id = ? AND kind = ? AND seat = ? "
                "AND due = ? AND version = ? AND count = ?",
                (timer.game_id, timer.kind, timer.seat, timer.due, timer.version, timer.count),
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
            cursor = await conn.execute(
                "UPDATE timers SET due = ?, count = count + ? WHERE game_id = ? AND kind = ? "
                "AND seat = ? AND due = ? AND version = ? AND count = ?",
                (
                    due,
                    fired,
                    timer.game_id,
                    timer.kind,
                    timer.seat,
                    timer.due,
                    timer.version,
                    timer.count,
                ),
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
