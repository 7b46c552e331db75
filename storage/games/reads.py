"""The game store's reads: games, seats, the action log, snapshots, undo
points and the takeback request, and the players' moves counted.

Each read is one statement (or one read on one connection), so what it
returns belongs to one version of the game.  An id that could not be
stored (:func:`storage.games.records.storable_id`) finds nothing, and a row
that is not UTF-8 raises :class:`storage.games.errors.UnreadableRow`.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from storage.games.errors import decoding
from storage.games.records import (
    LIVE_STATUSES,
    GameRecord,
    GameStatus,
    LogEntry,
    MovesMade,
    SeatRecord,
    TakebackAsk,
    UndoPoint,
    storable_id,
)
from storage.games.rows import (
    GAME_COLUMNS,
    LOG_COLUMNS,
    SEAT_COLUMNS,
    StorePart,
    as_entry,
    as_game,
    as_seat,
    as_undo_point,
    check_status,
    fetch_one,
    placeholders,
    stored_ask,
    upper_bound,
)

__all__ = ["GameReads"]


class GameReads(StorePart):
    """Reading games: by id, by channel or player, the live ones, the
    finished ones (``/game history``), and each game's seats and log."""

    # ---- games

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not storable_id(game_id):
            return None
        with decoding(game_id):
            async with self.db.read() as conn:
                row = await fetch_one(
                    conn, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                )
        return None if row is None else as_game(row)

    async def game_with_seats(
        self, game_id: int
    ) -> tuple[GameRecord, list[SeatRecord]] | None:
        """A game's row and its seats as one read (one statement), so the
        two always agree: a write committed between two reads would pair a
        row with seats of another version (issue 29).  None: no such game."""
        if not storable_id(game_id):
            return None
        columns = ", ".join(
            [*(f"g.{c}" for c in GAME_COLUMNS.split(", ")),
             *(f"s.{c}" for c in SEAT_COLUMNS.split(", "))]
        )
        with decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {columns} FROM games AS g LEFT JOIN seats AS s "
                    "ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat",
                    (game_id,),
                )
        if not rows:
            return None
        return as_game(rows[0]), [as_seat(r) for r in rows if r["seat"] is not None]

    async def games_in_channel(
        self, channel_id: int, statuses: Collection[GameStatus] = LIVE_STATUSES
    ) -> list[GameRecord]:
        """Games whose channel *or thread* is *channel_id*, by id."""
        return await self._games_where(
            "(channel_id = ? OR thread_id = ?)", (channel_id, channel_id), statuses
        )

    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus] = LIVE_STATUSES
    ) -> list[GameRecord]:
        """Games in which *user_id* has a seat, by id."""
        return await self._games_where(
            "id IN (SELECT game_id FROM seats WHERE user_id = ?)", (user_id,), statuses
        )

    async def _games_where(
        self, clause: str, params: tuple[int, ...], statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        wanted = [check_status(s) for s in statuses]
        if not wanted:
            return []
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE {clause} "
                f"AND status IN ({placeholders(wanted)}) ORDER BY id",
                (*params, *wanted),
            )
        return [as_game(r) for r in rows]

    async def live_games(self) -> list[GameRecord]:
        """Every game in ``lobby`` or ``active``, by id (for start-up)."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games "
                "WHERE status IN ('lobby', 'active') ORDER BY id"
            )
        return [as_game(r) for r in rows]

    async def finished(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        engine: str | None = None,
        until: float | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> tuple[int, list[GameRecord]]:
        """A server's games that ended with an outcome (``/game history``),
        newest end first: how many there are in all, and ``limit`` of them
        from ``offset``.  ``user_id``: only games that member had a seat in;
        ``engine``: only that game; ``until``: only games that ended before
        that time (a history's pages stay put while new games end)."""
        if not storable_id(guild_id) or (user_id is not None and not storable_id(user_id)):
            return 0, []
        # Built in Python: PostgreSQL cannot type a bare ``? IS NULL``.
        clause = "guild_id = ? AND status IN ('finished', 'abandoned') AND outcome IS NOT NULL"
        params: list[Any] = [guild_id]
        if user_id is not None:
            clause += " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
            params.append(user_id)
        if engine is not None:
            clause += " AND engine = ?"
            params.append(engine)
        if until is not None:
            clause += " AND updated_at < ?"
            params.append(float(until))
        async with self.db.read() as conn:
            counted = await fetch_one(
                conn, f"SELECT COUNT(*) AS n FROM games WHERE {clause}", params
            )
            rows = await conn.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE {clause} "
                "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
                (*params, max(0, limit), max(0, offset)),
            )
        total = int(counted["n"]) if counted is not None else 0
        return total, [as_game(r) for r in rows]

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[SeatRecord]]:
        """The seats of several games in one query, by game and seat."""
        ids = sorted({int(g) for g in game_ids if storable_id(int(g))})
        if not ids:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN ({placeholders(ids)}) "
                "ORDER BY game_id, seat",
                ids,
            )
        found: dict[int, list[SeatRecord]] = {g: [] for g in ids}
        for row in rows:
            seat = as_seat(row)
            found[seat.game_id].append(seat)
        return found

    # ---- seats and the action log

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The seats of a game, ordered by seat ([] for an unknown game)."""
        if not storable_id(game_id):
            return []
        with decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                )
        return [as_seat(r) for r in rows]

    async def log(
        self, game_id: int, after_seq: int = 0, up_to: int | None = None
    ) -> list[LogEntry]:
        """Log entries with *after_seq* < seq <= *up_to* (no upper bound by
        default), ordered by seq ([] for an unknown game)."""
        if not storable_id(game_id):
            return []
        bound, bound_value = upper_bound("seq", up_to)
        with decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {LOG_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
                    f"{bound} ORDER BY seq",
                    (game_id, after_seq, *bound_value),
                )
        return [as_entry(r) for r in rows]

    async def table_events(self, game_id: int) -> list[LogEntry]:
        """The game's table events (``@left``, ``@replaced``...: entries
        whose action starts with ``@``), ordered by seq: who held which seat
        when, without reading the moves."""
        if not storable_id(game_id):
            return []
        with decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {LOG_COLUMNS} FROM actions WHERE game_id = ? "
                    "AND action LIKE '@%' ORDER BY seq",
                    (game_id,),
                )
        return [as_entry(r) for r in rows]

    async def latest_snapshot(
        self, game_id: int, at_most: int | None = None
    ) -> tuple[int, Any] | None:
        """``(seq, state)`` of the newest snapshot (with seq <= *at_most*, if
        given), state decoded from JSON; None if none.  A snapshot that is
        not UTF-8 raises :class:`UnreadableRow`; one that is not JSON,
        ``ValueError``."""
        if not storable_id(game_id):
            return None
        bound, bound_value = upper_bound("seq", at_most)
        with decoding(game_id):
            async with self.db.read() as conn:
                row = await fetch_one(
                    conn,
                    f"SELECT seq, state FROM snapshots WHERE game_id = ?{bound} "
                    "ORDER BY seq DESC LIMIT 1",
                    (game_id, *bound_value),
                )
        if row is None:
            return None
        return int(row["seq"]), json.loads(row["state"])

    # ---- takebacks (issue 31)

    async def undo_points(self, game_id: int) -> list[UndoPoint]:
        """The game's undo points, oldest first: the moves people made that a
        takeback might still reach."""
        if not storable_id(game_id):
            return []
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT version, seat, user_id, clocks FROM undo_points WHERE game_id = ? "
                "ORDER BY version",
                (game_id,),
            )
        return [as_undo_point(r) for r in rows]

    async def takeback_ask(self, game_id: int) -> TakebackAsk | None:
        """The game's takeback request, if one was made (it may be void:
        compare its version with the game's)."""
        if not storable_id(game_id):
            return None
        async with self.db.read() as conn:
            return await stored_ask(conn, game_id)

    # ---- what players did (issue 17)

    async def moves_made(self, game_ids: Collection[int]) -> dict[int, MovesMade]:
        """Per game, the moves the players made and when the last was: log
        entries of a seat (not chance, actor -1) that are not the table's own
        events (``@left``, ``@timeout``...).  ``games.version`` counts every
        entry, so "move 25" after eight moves.  One query, by primary key;
        games without a move are absent."""
        ids = sorted({int(g) for g in game_ids})
        if not ids:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT game_id, COUNT(*) AS moves, MAX(created_at) AS last_at FROM actions "
                f"WHERE game_id IN ({placeholders(ids)}) AND actor >= 0 "
                "AND substr(action, 1, 1) != '@' GROUP BY game_id",
                ids,
            )
        return {
            int(r["game_id"]): MovesMade(int(r["moves"]), float(r["last_at"])) for r in rows
        }
