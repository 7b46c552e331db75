"""Tournaments, their players and each round's tables (migration 0005).

Every write is one transaction, and the writes that a restart could repeat
are guarded, so a restart mid-round loses nothing and does nothing twice:

- :meth:`TournamentStore.add_round` writes a whole round's tables at once,
  and only if it is the next round;
- :meth:`TournamentStore.link_game` ties a table to its game only while the
  table has none;
- :meth:`TournamentStore.record_result` records a table's result once.

A round may have a deadline (migration 0008): :class:`RoundDeadlines` gives
the pending deadlines to a :class:`bot.scheduler.Scheduler` of their own, and
:meth:`RoundDeadlines.claim` clears one only if it is still the deadline
read, so it is acted on once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from storage.backend import Connection, for_update
from storage.database import Database
from storage.errors import StorageError
from storage.games.records import storable_id
from storage.timekeeping import Timer, local_owner

__all__ = [
    "RoundDeadlines",
    "TournamentFormat",
    "TournamentPlayer",
    "TournamentRecord",
    "TournamentStatus",
    "TournamentStore",
    "TournamentTable",
]

TournamentFormat = Literal["swiss", "round_robin", "elimination", "pods"]
TournamentStatus = Literal["open", "running", "finished", "cancelled"]

_COLUMNS = (
    "id, guild_id, channel_id, engine, format, rounds, table_size, options, status, round, "
    "creator_id, created_at, updated_at, name, message_channel_id, message_id, announced, "
    "round_time, round_started, round_deadline, auto_drop"
)


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    engine: str
    format: TournamentFormat
    rounds: int
    table_size: int
    options: dict[str, Any]
    status: TournamentStatus
    round: int
    creator_id: int
    created_at: float
    updated_at: float
    name: str = ""
    message_channel_id: int | None = None
    message_id: int | None = None
    """The announcement (with its Join and Leave buttons), once posted."""
    announced: str = ""
    """The last thing announced: ``round:N`` or ``final`` (migration 0006)."""
    round_time: float | None = None
    """Seconds a round may last before its running games are settled (0008)."""
    round_started: float | None = None
    round_deadline: float | None = None
    """When the current round is settled, until someone claims it."""
    auto_drop: bool = True
    """Two games lost on time in a row drop a player."""

    @property
    def title(self) -> str:
        """The moderator's name for it, or ``tournament #N``."""
        return self.name or f"tournament #{self.id}"

    @property
    def heading(self) -> str:
        """:attr:`title` to begin a sentence (a given name as it was written)."""
        return self.name or f"Tournament #{self.id}"


@dataclass(frozen=True)
class TournamentPlayer:
    user_id: int
    display_name: str
    rating: float
    dropped_after: int | None = None

    @property
    def active(self) -> bool:
        return self.dropped_after is None


@dataclass(frozen=True)
class TournamentTable:
    round: int
    number: int
    seats: tuple[int, ...]
    game_id: int | None = None
    places: tuple[int, ...] | None = None
    adjudicated: bool = False

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1


class TournamentClosed(StorageError):
    """The tournament no longer takes players (it started or ended)."""


def _record(row: Any) -> TournamentRecord:
    return TournamentRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        engine=str(row["engine"]),
        format=cast(TournamentFormat, row["format"]),
        rounds=int(row["rounds"]),
        table_size=int(row["table_size"]),
        options=cast(dict[str, Any], json.loads(row["options"])),
        status=cast(TournamentStatus, row["status"]),
        round=int(row["round"]),
        creator_id=int(row["creator_id"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        name=str(row["name"]),
        message_channel_id=_maybe_int(row["message_channel_id"]),
        message_id=_maybe_int(row["message_id"]),
        announced=str(row["announced"]),
        round_time=_maybe_float(row["round_time"]),
        round_started=_maybe_float(row["round_started"]),
        round_deadline=_maybe_float(row["round_deadline"]),
        auto_drop=bool(row["auto_drop"]),
    )


def _maybe_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _maybe_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _table(row: Any) -> TournamentTable:
    places = row["places"]
    return TournamentTable(
        round=int(row["round"]),
        number=int(row["number"]),
        seats=tuple(int(u) for u in json.loads(row["seats"])),
        game_id=None if row["game_id"] is None else int(row["game_id"]),
        places=None if places is None else tuple(int(p) for p in json.loads(places)),
        adjudicated=bool(row["adjudicated"]),
    )


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        engine: str,
        format: TournamentFormat,
        rounds: int,
        table_size: int,
        options: dict[str, Any],
        creator_id: int,
        now: float,
        name: str = "",
        round_time: float | None = None,
        auto_drop: bool = True,
    ) -> TournamentRecord:
        async with self.db.transaction() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "INSERT INTO tournaments (guild_id, channel_id, engine, format, rounds, "
                    "table_size, options, creator_id, created_at, updated_at, name, "
                    "round_time, auto_drop) "
                    f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
                    (
                        guild_id,
                        channel_id,
                        engine,
                        format,
                        rounds,
                        table_size,
                        json.dumps(options, sort_keys=True),
                        creator_id,
                        now,
                        now,
                        name,
                        round_time,
                        int(auto_drop),
                    ),
                )
            )
        return _record(rows[0])

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        if not storable_id(tournament_id):
            return None  # no row has an id outside 64-bit integers
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
                )
            )
        return _record(rows[0]) if rows else None

    async def live_in_guild(self, guild_id: int) -> list[TournamentRecord]:
        """Open and running tournaments of a server, by id."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? "
                "AND status IN ('open', 'running') ORDER BY id",
                (guild_id,),
            )
        return [_record(r) for r in rows]

    async def set_status(
        self,
        tournament_id: int,
        status: TournamentStatus,
        now: float,
        *,
        only_from: Sequence[TournamentStatus] = ("open", "running"),
    ) -> TournamentRecord | None:
        """Move to ``status`` from one of ``only_from``; None if it was not
        in one of them (e.g. already finished by another pass)."""
        marks = ", ".join("?" for _ in only_from)
        async with self.db.transaction() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "UPDATE tournaments SET status = ?, updated_at = ?, "
                    # Only a running tournament has a round to settle.
                    "round_deadline = CASE WHEN ? = 'running' THEN round_deadline END "
                    f"WHERE id = ? AND status IN ({marks}) RETURNING {_COLUMNS}",
                    (status, now, status, tournament_id, *only_from),
                )
            )
        return _record(rows[0]) if rows else None

    async def set_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        """Remember the announcement message (the one with the Join button)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE tournaments SET message_channel_id = ?, message_id = ? WHERE id = ?",
                (channel_id, message_id, tournament_id),
            )

    async def claim_announcement(self, tournament_id: int, before: str, after: str) -> bool:
        """Move ``announced`` from ``before`` to ``after``; False if another
        pass (or a run before a restart) claimed it first.  Claimed before
        posting: a crash in between loses one announcement, never repeats it."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournaments SET announced = ? WHERE id = ? AND announced = ?",
                (after, tournament_id, before),
            )
            return cursor.rowcount == 1

    async def in_guild(self, guild_id: int, *, limit: int = 25) -> list[TournamentRecord]:
        """A server's tournaments, newest first."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [_record(r) for r in rows]

    async def running(self) -> list[TournamentRecord]:
        """Every running tournament, by id (to resume at start-up)."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM tournaments WHERE status = 'running' ORDER BY id"
            )
        return [_record(r) for r in rows]

    async def set_settings(
        self, tournament_id: int, *, round_time: float | None, auto_drop: bool
    ) -> TournamentRecord | None:
        """Change the round time and auto-drop of an open or running
        tournament (None if it is over).  A running round's deadline moves
        with the round time: its start plus the new time (which may be due
        at once), or none."""
        async with self.db.transaction() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "UPDATE tournaments SET round_time = ?, auto_drop = ?, "
                    "round_deadline = CASE WHEN status = 'running' AND round >= 1 "
                    "THEN round_started + ? END "
                    "WHERE id = ? AND status IN ('open', 'running') "
                    f"RETURNING {_COLUMNS}",
                    (round_time, int(auto_drop), round_time, tournament_id),
                )
            )
        return _record(rows[0]) if rows else None

    async def restore_deadlines(self) -> int:
        """At start-up: a running round with a round time, unfinished tables
        and no deadline was claimed by a run that stopped before settling it
        (a crash): give it back its deadline (overdue, so it fires again).
        Returns how many were restored."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournaments SET round_deadline = round_started + round_time "
                "WHERE status = 'running' AND round_time IS NOT NULL "
                "AND round_started IS NOT NULL AND round_deadline IS NULL AND EXISTS ("
                "SELECT 1 FROM tournament_tables AS t WHERE t.tournament_id = tournaments.id "
                "AND t.round = tournaments.round AND t.places IS NULL)"
            )
            return cursor.rowcount

    # ---- players

    async def join(
        self, tournament_id: int, user_id: int, display_name: str, rating: float, now: float
    ) -> bool:
        """Add a player to an open tournament; False if already in.  Raises
        :class:`TournamentClosed` once it started."""
        async with self.db.transaction() as conn:
            status = await self._status(conn, tournament_id)
            if status != "open":
                raise TournamentClosed("That tournament no longer takes players.")
            cursor = await conn.execute(
                "INSERT INTO tournament_players "
                "(tournament_id, user_id, display_name, rating, joined_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (tournament_id, user_id, display_name, rating, now),
            )
            return cursor.rowcount == 1

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Leave an open tournament; False if not in it."""
        async with self.db.transaction() as conn:
            status = await self._status(conn, tournament_id)
            if status != "open":
                raise TournamentClosed(
                    "That tournament has started: drop out with /tournament drop."
                )
            cursor = await conn.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            return cursor.rowcount == 1

    async def drop(self, tournament_id: int, user_id: int, after_round: int) -> bool:
        """A player leaves a running tournament after ``after_round``."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournament_players SET dropped_after = ? WHERE tournament_id = ? "
                "AND user_id = ? AND dropped_after IS NULL",
                (after_round, tournament_id, user_id),
            )
            return cursor.rowcount == 1

    async def players(self, tournament_id: int) -> list[TournamentPlayer]:
        if not storable_id(tournament_id):
            return []
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT user_id, display_name, rating, dropped_after FROM tournament_players "
                "WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        return [
            TournamentPlayer(
                int(r["user_id"]),
                str(r["display_name"]),
                float(r["rating"]),
                None if r["dropped_after"] is None else int(r["dropped_after"]),
            )
            for r in rows
        ]

    # ---- rounds and tables

    async def add_round(
        self, tournament_id: int, round: int, tables: Sequence[Sequence[int]], now: float
    ) -> bool:
        """Write round ``round``'s tables (seats in order; one id is a bye)
        and make it the current round, in one transaction; False if that is
        not the next round (already paired, e.g. before a restart)."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournaments SET round = ?, status = 'running', updated_at = ?, "
                "round_started = ?, round_deadline = ? + round_time "
                "WHERE id = ? AND round = ? AND status IN ('open', 'running')",
                (round, now, now, now, tournament_id, round - 1),
            )
            if cursor.rowcount != 1:
                return False
            await conn.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, seats) "
                "VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, round, n, json.dumps([int(u) for u in seats]))
                    for n, seats in enumerate(tables, start=1)
                ],
            )
        return True

    async def tables(self, tournament_id: int, round: int | None = None) -> list[TournamentTable]:
        if not storable_id(tournament_id) or (round is not None and not storable_id(round)):
            return []
        in_round, in_round_value = ("", ()) if round is None else (" AND round = ?", (round,))
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT round, number, seats, game_id, places, adjudicated FROM tournament_tables "
                f"WHERE tournament_id = ?{in_round} ORDER BY round, number",
                (tournament_id, *in_round_value),
            )
        return [_table(r) for r in rows]

    async def link_game(self, tournament_id: int, round: int, number: int, game_id: int) -> bool:
        """Tie a table to the game it plays, only while it has none."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? AND round = ? "
                "AND number = ? AND game_id IS NULL",
                (game_id, tournament_id, round, number),
            )
            return cursor.rowcount == 1

    async def record_result(
        self,
        tournament_id: int,
        round: int,
        number: int,
        places: Sequence[int],
        *,
        adjudicated: bool = False,
    ) -> bool:
        """A table's places (one per seat, 1 best), once."""
        async with self.db.transaction() as conn:
            # A table's seats never change once its round is written.
            rows = await conn.execute_fetchall(
                "SELECT seats FROM tournament_tables WHERE tournament_id = ? AND round = ? "
                "AND number = ?",
                (tournament_id, round, number),
            )
            if not rows or len(json.loads(rows[0]["seats"])) != len(places):
                return False
            cursor = await conn.execute(
                "UPDATE tournament_tables SET places = ?, adjudicated = ? WHERE tournament_id = ? "
                "AND round = ? AND number = ? AND places IS NULL",
                (
                    json.dumps([int(p) for p in places]),
                    int(adjudicated),
                    tournament_id,
                    round,
                    number,
                ),
            )
            return cursor.rowcount == 1

    async def table_of_game(self, game_id: int) -> tuple[int, TournamentTable] | None:
        """The tournament and table a game was played for, if any."""
        if not storable_id(game_id):
            return None
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT tournament_id, round, number, seats, game_id, places, adjudicated "
                    "FROM tournament_tables WHERE game_id = ?",
                    (game_id,),
                )
            )
        if not rows:
            return None
        return int(rows[0]["tournament_id"]), _table(rows[0])

    @staticmethod
    async def _status(conn: Connection, tournament_id: int) -> str:
        """The tournament's status, its row locked until the transaction ends
        (a join and the first round's pairing take turns)."""
        rows = await conn.execute_fetchall(
            f"SELECT status FROM tournaments WHERE id = ?{for_update(conn)}", (tournament_id,)
        )
        if not rows:
            raise StorageError(f"There is no tournament #{tournament_id}.")
        return str(rows[0]["status"])


class RoundDeadlines:
    """The tournaments' round deadlines, for a :class:`bot.scheduler.Scheduler`
    of their own (the ``timers`` table belongs to games).

    A deadline reaches the scheduler as a :class:`~storage.timekeeping.Timer`
    whose ``game_id`` is the tournament, ``version`` the round and ``due``
    the deadline: ``due``, ``earliest`` and ``reschedule`` for the
    scheduler, ``claim`` for its handler."""

    def __init__(self, db: Database, owner: str | None = None) -> None:
        self.db = db
        self.owner = owner or local_owner()
        """This process in the claims it takes (issue 20, migration 0009)."""

    _SELECT = (
        "SELECT id, round, round_deadline FROM tournaments WHERE round_deadline IS NOT NULL "
        "AND status = 'running'"
    )

    @staticmethod
    def _deadline(row: Any) -> Timer:
        return Timer(
            due=float(row["round_deadline"]),
            game_id=int(row["id"]),
            kind="clock",
            seat=-1,
            version=int(row["round"]),
        )

    async def earliest(self) -> Timer | None:
        """The next deadline to fire; one that another process holds counts
        from when its lease runs out (see :meth:`TimerStore.earliest`)."""
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    f"{self._SELECT} AND deadline_claimed_by IS NULL "
                    "ORDER BY round_deadline, id LIMIT 1"
                )
            )
            held = list(
                await conn.execute_fetchall(
                    f"{self._SELECT.replace('SELECT ', 'SELECT deadline_lease, ', 1)} "
                    "AND deadline_claimed_by IS NOT NULL ORDER BY deadline_lease LIMIT 1"
                )
            )
        found = [self._deadline(r) for r in rows]
        for row in held:
            deadline = self._deadline(row)
            lease = float(row["deadline_lease"])
            found.append(replace(deadline, due=max(deadline.due, lease)))
        return min(found) if found else None

    async def due(self, now: float, limit: int = 500) -> list[Timer]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"{self._SELECT} AND round_deadline <= ? ORDER BY round_deadline, id LIMIT ?",
                (now, limit),
            )
        return [self._deadline(r) for r in rows]

    async def claim_due(self, now: float, until: float, limit: int = 500) -> list[Timer]:
        """Claim the deadlines due at ``now`` that nobody holds (or whose
        holder's lease ran out) until ``until``: one statement, as
        :meth:`TimerStore.claim_due`."""
        async with self.db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "UPDATE tournaments SET deadline_claimed_by = ?, deadline_lease = ? "
                f"WHERE id IN (SELECT d.id FROM ({self._SELECT} AND round_deadline <= ? "
                "AND (deadline_claimed_by IS NULL OR deadline_lease <= ?) "
                f"ORDER BY round_deadline, id LIMIT ?{for_update(conn, skip_locked=True)}) AS d) "
                "RETURNING id, round, round_deadline",
                (self.owner, until, now, now, limit),
            )
        return sorted(self._deadline(r) for r in rows)

    async def holds(self, timer: Timer) -> bool:
        """Whether the deadline is still the one read and no other process
        holds it (the handler's check before it settles the round)."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT 1 FROM tournaments WHERE id = ? AND round = ? AND round_deadline = ? "
                "AND status = 'running' AND "
                "(deadline_claimed_by IS NULL OR deadline_claimed_by = ?)",
                (timer.game_id, timer.version, timer.due, self.owner),
            )
        return bool(list(rows))

    async def release(self, timer: Timer) -> bool:
        """Give this process's claim on an unchanged deadline back."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournaments SET deadline_claimed_by = NULL, deadline_lease = NULL "
                "WHERE id = ? AND round = ? AND round_deadline = ? AND deadline_claimed_by = ?",
                (timer.game_id, timer.version, timer.due, self.owner),
            )
            return cursor.rowcount == 1

    async def claim(self, timer: Timer) -> bool:
        """Clear the deadline if it is still the one read (same tournament,
        round and time) and no other process holds it; True if this call
        cleared it, and so settles it."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournaments SET round_deadline = NULL, deadline_claimed_by = NULL, "
                "deadline_lease = NULL WHERE id = ? AND round = ? "
                "AND round_deadline = ? AND status = 'running' AND "
                "(deadline_claimed_by IS NULL OR deadline_claimed_by = ?)",
                (timer.game_id, timer.version, timer.due, self.owner),
            )
            return cursor.rowcount == 1

    async def reschedule(self, timer: Timer, due: float) -> bool:
        """Try a deadline again at ``due`` (its handler failed, or the
        scheduler's watchdog stopped it): unchanged, or claimed by that
        handler while its round still has tables without a result.  Settling
        again is safe: games already over are left as they are."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE tournaments SET round_deadline = ?, deadline_claimed_by = NULL, "
                "deadline_lease = NULL WHERE id = ? AND round = ? "
                "AND status = 'running' AND (round_deadline = ? OR (round_deadline IS NULL "
                "AND EXISTS (SELECT 1 FROM tournament_tables AS t WHERE t.tournament_id = "
                "tournaments.id AND t.round = tournaments.round AND t.places IS NULL))) "
                "AND (deadline_claimed_by IS NULL OR deadline_claimed_by = ?)",
                (due, timer.game_id, timer.version, timer.due, self.owner),
            )
            return cursor.rowcount == 1
