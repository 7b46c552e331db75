"""How the game store's parts read and write rows: the columns they select,
JSON stored as compact TEXT with sorted keys, rows decoded into records,
and the status rules a guarded write checks (and the error that says why
one touched no row).  :class:`StorePart` is what each part holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn, cast

from storage.backend import Connection, Row, for_update
from storage.database import Database
from storage.games.errors import GameNotFound, StaleVersion, WrongStatus
from storage.games.records import (
    ALL_STATUSES,
    FINAL_STATUSES,
    LIVE_STATUSES,
    Controller,
    GameRecord,
    GameStatus,
    LogEntry,
    SeatRecord,
    TakebackAsk,
    UndoPoint,
)

__all__ = [
    "GAME_COLUMNS",
    "LOG_COLUMNS",
    "SEAT_COLUMNS",
    "StorePart",
    "as_entry",
    "as_game",
    "as_seat",
    "as_undo_point",
    "check_status",
    "dumps",
    "explain_refusal",
    "fetch_one",
    "locked_status",
    "placeholders",
    "sources_for",
    "stored_ask",
    "upper_bound",
]


class StorePart:
    """One part of :class:`storage.games.store.GameStore`: what it holds is the database."""

    def __init__(self, db: Database) -> None:
        self.db = db


# ----------------------------------------------------------------- columns and rows


GAME_COLUMNS = (
    "id, engine, engine_revision, options, status, version, guild_id, channel_id, "
    "thread_id, creator_id, created_at, updated_at, outcome, table_options, paused_at"
)
SEAT_COLUMNS = (
    "game_id, seat, user_id, display_name, controller, left_order, timeouts, "
    "clock_left, clock_since"
)
LOG_COLUMNS = "game_id, seq, actor, action, narration, private_to, created_at"


def dumps(value: Any) -> str:
    """*value* as the store keeps JSON: compact, keys sorted, no NaN."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def opt_int(value: Any) -> int | None:
    """An optional integer column's value."""
    return None if value is None else int(value)


def as_game(row: Row) -> GameRecord:
    """A row of :data:`GAME_COLUMNS` as a :class:`GameRecord`."""
    outcome = row["outcome"]
    return GameRecord(
        id=int(row["id"]),
        engine=str(row["engine"]),
        engine_revision=int(row["engine_revision"]),
        options=cast(dict[str, Any], json.loads(row["options"])),
        status=cast(GameStatus, row["status"]),
        version=int(row["version"]),
        guild_id=opt_int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=opt_int(row["thread_id"]),
        creator_id=int(row["creator_id"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        outcome=None if outcome is None else cast(dict[str, Any], json.loads(outcome)),
        table_options=cast(dict[str, Any], json.loads(row["table_options"])),
        paused_at=opt_float(row["paused_at"]),
    )


def opt_float(value: Any) -> float | None:
    """An optional REAL column's value."""
    return None if value is None else float(value)


def as_seat(row: Row) -> SeatRecord:
    """A row of :data:`SEAT_COLUMNS` as a :class:`SeatRecord`."""
    return SeatRecord(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        display_name=str(row["display_name"]),
        controller=cast(Controller, row["controller"]),
        left_order=opt_int(row["left_order"]),
        timeouts=int(row["timeouts"]),
        clock_left=opt_float(row["clock_left"]),
        clock_since=opt_float(row["clock_since"]),
    )


def as_entry(row: Row) -> LogEntry:
    """A row of :data:`LOG_COLUMNS` as a :class:`LogEntry`."""
    return LogEntry(
        game_id=int(row["game_id"]),
        seq=int(row["seq"]),
        actor=int(row["actor"]),
        action=str(row["action"]),
        narration=str(row["narration"]),
        private_to=opt_int(row["private_to"]),
        created_at=float(row["created_at"]),
    )


def as_undo_point(row: Row) -> UndoPoint:
    """An ``undo_points`` row as an :class:`UndoPoint` (unreadable clocks: none)."""
    clocks: dict[int, tuple[float | None, float | None]] = {}
    try:
        stored = json.loads(row["clocks"])
    except (TypeError, ValueError):
        stored = {}
    if isinstance(stored, dict):
        for seat, pair in stored.items():
            if isinstance(pair, list) and len(pair) == 2 and str(seat).isdigit():
                clocks[int(seat)] = (opt_float(pair[0]), opt_float(pair[1]))
    return UndoPoint(int(row["version"]), int(row["seat"]), int(row["user_id"]), clocks)


async def stored_ask(conn: Connection, game_id: int) -> TakebackAsk | None:
    """The game's takeback request as stored (None: there is none)."""
    row = await fetch_one(
        conn,
        "SELECT seat, target, version, agreed, asked_at FROM takeback_asks WHERE game_id = ?",
        (game_id,),
    )
    if row is None:
        return None
    try:
        agreed = json.loads(row["agreed"])
    except (TypeError, ValueError):
        agreed = []
    if not isinstance(agreed, list):
        agreed = []
    seats = frozenset(int(s) for s in agreed if isinstance(s, int))
    return TakebackAsk(
        seat=int(row["seat"]),
        target=int(row["target"]),
        version=int(row["version"]),
        agreed=seats,
        asked_at=float(row["asked_at"]),
    )


# ----------------------------------------------------------------- statements and status


#: Where each status may go next (forward only).
_NEXT: dict[GameStatus, frozenset[GameStatus]] = {
    "lobby": frozenset({"active", "finished", "abandoned"}),
    "active": frozenset({"finished", "abandoned"}),
    "finished": frozenset(),
    "abandoned": frozenset(),
}


def placeholders(values: Sequence[object]) -> str:
    """``?, ?, ...``: one placeholder per value, for ``IN (...)``."""
    return ", ".join("?" for _ in values)


def check_status(status: str) -> GameStatus:
    """*status* if it is one (:data:`ALL_STATUSES`), else :class:`ValueError`."""
    if status not in ALL_STATUSES:
        raise ValueError(f"unknown game status {status!r}; expected one of {ALL_STATUSES}")
    return status


async def fetch_one(conn: Connection, sql: str, params: Iterable[object]) -> Row | None:
    """The first row *sql* reads, or None."""
    rows = await conn.execute_fetchall(sql, tuple(params))
    return rows[0] if rows else None


async def locked_status(conn: Connection, game_id: int) -> GameStatus:
    """The game's status, in a write transaction that is about to change the
    game on the strength of it: the game's row stays locked until it ends."""
    row = await fetch_one(
        conn, f"SELECT status FROM games WHERE id = ?{for_update(conn)}", (game_id,)
    )
    if row is None:
        raise GameNotFound(game_id)
    return cast(GameStatus, row["status"])


def upper_bound(column: str, bound: int | None) -> tuple[str, tuple[int, ...]]:
    """``AND column <= ?`` and its value, or nothing without a bound.  (Not
    ``? IS NULL OR ...``: PostgreSQL cannot tell that parameter's type.)"""
    return ("", ()) if bound is None else (f" AND {column} <= ?", (bound,))


async def explain_refusal(
    conn: Connection,
    game_id: int,
    *,
    expected_version: int | None,
    what: str,
) -> NoReturn:
    """A guarded UPDATE touched no row: raise the error that says why."""
    row = await fetch_one(conn, "SELECT status, version FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    status = cast(GameStatus, row["status"])
    if status in FINAL_STATUSES:
        raise WrongStatus(game_id, status, what)
    current = int(row["version"])
    if expected_version is not None and current != expected_version:
        raise StaleVersion(game_id, expected_version, current)
    raise WrongStatus(game_id, status, what)


def sources_for(target: GameStatus, *, allow_same: bool) -> list[GameStatus]:
    """The statuses a game may be in for it to move to *target*."""
    sources = [s for s in ALL_STATUSES if target in _NEXT[s]]
    if allow_same and target in LIVE_STATUSES:
        sources.append(target)
    return sources
