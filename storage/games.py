"""Games, seats, the append-only action log, snapshots and tracked messages.

Everything the service stores about a game goes through :class:`GameStore`.
Every write is one transaction from :meth:`Database.transaction`; a move is
written with :meth:`GameStore.append`, guarded by the version the move was made
against, so a click on an old board gets :class:`StaleVersion` and writes
nothing.

Status only moves forward: ``lobby -> active -> finished | abandoned`` (a lobby
may also go straight to ``finished`` or ``abandoned``).  ``finished`` and
``abandoned`` are final.  Breaking that rule raises :class:`WrongStatus`.

JSON values (options, outcome, snapshots) are stored as compact TEXT with
sorted keys; they come back as what :func:`json.loads` gives (so dict keys are
always strings and tuples come back as lists).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn, cast, get_args

from storage.backend import (
    INTEGRITY_ERRORS,
    Connection,
    Row,
    for_update,
    is_foreign_key_violation,
)
from storage.database import Database, StorageError
from storage.timekeeping import TimerPlan, rewrite_timers

__all__ = [
    "MAX_AUTOMATIC_PLAYERS",
    "GameChange",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "LogEntry",
    "NewEntry",
    "NotSeated",
    "OutboxRow",
    "SeatHandover",
    "SeatRecord",
    "SeatTaken",
    "StaleAsk",
    "StaleVersion",
    "TakebackAsk",
    "TakebackAskChange",
    "UndoChange",
    "UndoPoint",
    "Written",
    "WrongStatus",
    "automatic_player_id",
    "is_automatic_player",
]

GameStatus = Literal["lobby", "active", "finished", "abandoned"]

ALL_STATUSES: tuple[GameStatus, ...] = get_args(GameStatus)
LIVE_STATUSES: tuple[GameStatus, ...] = ("lobby", "active")
FINAL_STATUSES: tuple[GameStatus, ...] = ("finished", "abandoned")

#: Where each status may go next (forward only).
_NEXT: dict[GameStatus, frozenset[GameStatus]] = {
    "lobby": frozenset({"active", "finished", "abandoned"}),
    "active": frozenset({"finished", "abandoned"}),
    "finished": frozenset(),
    "abandoned": frozenset(),
}

_GAME_COLUMNS = (
    "id, engine, engine_revision, options, status, version, guild_id, channel_id, "
    "thread_id, creator_id, created_at, updated_at, outcome, table_options, paused_at"
)
_SEAT_COLUMNS = (
    "game_id, seat, user_id, display_name, controller, left_order, timeouts, "
    "clock_left, clock_since"
)
_LOG_COLUMNS = "game_id, seq, actor, action, narration, private_to, created_at"


# --------------------------------------------------------------------- records


@dataclass(frozen=True)
class GameRecord:
    id: int
    engine: str
    engine_revision: int
    options: dict[str, Any]
    status: GameStatus
    #: Number of entries in the action log (seq of the last one); 0 before any action.
    version: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: int
    created_at: float
    updated_at: float
    outcome: dict[str, Any] | None
    #: Options the service reads, not the engine (clock, timeout, reminders).
    table_options: dict[str, Any] = field(default_factory=dict)
    #: When a moderator paused the game; None while it runs.
    paused_at: float | None = None


Controller = Literal["human", "auto"]


MAX_AUTOMATIC_PLAYERS = 1000
"""Automatic players asked for in a lobby sit as users -1, -2, ... of their
game: Discord ids (snowflakes) are positive, so these can never be a person
(``seats.user_id`` is NOT NULL and unique per game)."""


def automatic_player_id(n: int) -> int:
    """The user id of a game's ``n``-th automatic player (1, 2, ...)."""
    if not 1 <= n <= MAX_AUTOMATIC_PLAYERS:
        raise ValueError(f"no automatic player {n}")
    return -n


def is_automatic_player(user_id: int) -> bool:
    """Whether a seat's user id is an automatic player's, not a person's."""
    return user_id < 0


@dataclass(frozen=True)
class SeatRecord:
    game_id: int
    seat: int
    user_id: int
    display_name: str
    #: ``auto`` once the seat passed to the automatic player.
    controller: Controller = "human"
    #: 1 for the first seat handed to the automatic player, 2 for the next...
    left_order: int | None = None
    #: Consecutive timeouts under the ``substitute`` policy.
    timeouts: int = 0
    #: Seconds left on the seat's clock (None: no clock).
    clock_left: float | None = None
    #: When the clock started running (None: stopped).
    clock_since: float | None = None

    @property
    def automatic_player(self) -> bool:
        """An automatic player asked for in the lobby (``/game new bots:N``),
        not a person: never pinged, DMed, reminded or rated."""
        return is_automatic_player(self.user_id)


@dataclass(frozen=True)
class NewEntry:
    """One action log entry, as the service appends it."""

    #: A seat, or -1 for the chance player.
    actor: int
    #: The action's text form (may be secret: see ``private_to``).
    action: str
    #: Public one-line account, with ``{p0}``-style seat placeholders.
    narration: str
    #: None = public; a seat = only that player may read ``action``; -1 = nobody.
    private_to: int | None


@dataclass(frozen=True)
class LogEntry:
    game_id: int
    seq: int
    actor: int
    action: str
    narration: str
    private_to: int | None
    created_at: float


@dataclass(frozen=True)
class OutboxRow:
    """What a game last delivered to one target (migration 0002)."""

    #: ``"board"`` or ``"seat:<n>"``.
    target: str
    #: The game version last delivered to this target.
    version: int
    #: Board: the seats the posted board waits on.
    awaited: frozenset[int] = frozenset()
    #: Board: the final board of a finished game was posted.
    over: bool = False
    #: Board: the board message showed a simultaneous phase.
    simultaneous: bool = False
    #: Seat: fingerprint of the private view and choices last delivered.
    digest: str = ""
    #: Seat: the channel was told this player's DMs are closed.
    notice: bool = False


@dataclass(frozen=True)
class SeatHandover:
    """A seat handed from one person to another (``/moderate game replace``):
    played by a person again, its streak of timeouts forgotten, its clock
    kept; what was delivered to the seat (``seat:<n>``) is forgotten too,
    so the new player is sent the whole private view."""

    seat: int
    old_user_id: int
    new_user_id: int
    display_name: str


@dataclass(frozen=True)
class UndoPoint:
    """What taking back one person's move needs that the log does not hold
    (issue 31, migration 0011): every seat's clock just before the move.
    Written with the move, for moves a person made (the automatic player's
    and a timeout's are nobody's to take back)."""

    #: The game's version before the move: what taking it back returns to.
    version: int
    seat: int
    #: Who held the seat then: a seat handed over since is not theirs to undo.
    user_id: int
    #: ``{seat: (clock_left, clock_since)}`` before the move (empty: no clock).
    clocks: Mapping[int, tuple[float | None, float | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class UndoChange:
    """How a :class:`GameChange` changes the game's undo points: the move's
    own point added, and those no takeback can reach any more forgotten
    (before a chance entry: a takeback never crosses chance; from a
    takeback's version on: the moves it undid)."""

    add: UndoPoint | None = None
    forget_before: int | None = None
    forget_from: int | None = None


@dataclass(frozen=True)
class TakebackAsk:
    """A request to take back a move after others moved (issue 31): every
    other person at the table must agree.  It holds only while the game is
    at ``version``."""

    seat: int
    #: The version the game would return to.
    target: int
    #: The game's version when asked: any action since makes it void.
    version: int
    agreed: frozenset[int] = frozenset()
    asked_at: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class TakebackAskChange:
    """A request written (``new``) or removed (None) in a :class:`GameChange`,
    compared with the one the writer read (``expected``, None: none): two
    agreements given at once must not lose one (:class:`StaleAsk`)."""

    expected: TakebackAsk | None
    new: TakebackAsk | None


SEAT_PLAY = frozenset({"controller", "left_order", "timeouts", "clock_left", "clock_since"})
"""The seat columns a :class:`GameChange` may change (how a seat is played
and its clock); who sits in a seat changes only by a :class:`SeatHandover`."""


@dataclass(frozen=True)
class GameChange:
    """Everything one action changes in a running game, written by
    :meth:`GameStore.commit` in one transaction guarded by the version the
    action was computed against (issue 29): the log entries (a move, the
    chance it brought, the table's events), a snapshot, the status and
    outcome, how seats are played and their clocks, a seat handed over, the
    pause, and the game's timers.  An action that loses the race to another
    writer therefore leaves nothing behind: no seat passed to the automatic
    player without its ``@left``, no clock stopped for a move never stored."""

    entries: Sequence[NewEntry] = ()
    snapshot: Any | None = None
    status: GameStatus | None = None
    outcome: dict[str, Any] | None = None
    #: ``{seat: {column: value}}`` over :data:`SEAT_PLAY`.
    seats: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    handover: SeatHandover | None = None
    #: ``(paused_at,)`` to pause (a time) or resume (None); None: unchanged.
    pause: tuple[float | None] | None = None
    #: The game's timers after the change, from those stored (read inside
    #: the transaction, locked); None: the timers stay as they are.
    timers: TimerPlan | None = None
    #: The undo points a move adds or leaves behind (issue 31).
    undo: UndoChange | None = None
    #: A takeback request asked, agreed to or settled (issue 31).
    ask: TakebackAskChange | None = None


@dataclass(frozen=True)
class Written:
    """What :meth:`GameStore.commit` wrote: the game's row and seats as they
    are now, and whether its timers changed (the scheduler looks again)."""

    record: GameRecord
    seats: list[SeatRecord]
    timers_changed: bool = False


SQLITE_INTEGERS = range(-(2**63), 2**63)
"""What an INTEGER column holds (a BIGINT on PostgreSQL: the same range);
binding anything else raises OverflowError."""


def storable_id(value: int) -> bool:
    """Whether ``value`` could be a stored row's id.  Ids come from players
    (command options, custom_ids): one outside SQLite's integer range names
    nothing, so a read by it finds nothing instead of raising."""
    return value in SQLITE_INTEGERS


# --------------------------------------------------------------------- errors


class GameNotFound(StorageError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game #{game_id}; it may have been deleted.")
        self.game_id = game_id


class UnreadableRow(StorageError):
    """A stored row of a game cannot be read (text that is not UTF-8: the
    file was damaged or edited by hand).  The message never quotes the row,
    which may hold a hidden hand."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"Game #{game_id} could not be restored from the database. "
            "A moderator can end it with /game resign."
        )
        self.game_id = game_id


_UNDECODABLE = "Could not decode to UTF-8"
"""How sqlite3 starts the OperationalError for a TEXT value it cannot decode."""


@contextmanager
def _decoding(game_id: int) -> Iterator[None]:
    """Turn a row that cannot be decoded into :class:`UnreadableRow`."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if not str(exc).startswith(_UNDECODABLE):
            raise
        # sqlite3's message quotes the row: neither chained nor logged.
        raise UnreadableRow(game_id) from None


class StaleVersion(StorageError):
    MESSAGE = "That board is out of date: the game has moved on since. Use the newest board."

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(self.MESSAGE)
        self.game_id = game_id
        self.expected = expected
        self.current = current


class StaleAsk(StorageError):
    """A takeback request changed since the writer read it (another
    agreement came first): nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__("That request changed meanwhile (someone else answered it); try again.")
        self.game_id = game_id


class SeatTaken(StorageError):
    def __init__(self, game_id: int, user_id: int, seat: int) -> None:
        super().__init__(f"That player already has a seat (seat {seat + 1}) in game #{game_id}.")
        self.game_id = game_id
        self.user_id = user_id
        self.seat = seat


class NotSeated(StorageError):
    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"That player has no seat in game #{game_id}.")
        self.game_id = game_id
        self.user_id = user_id


_STATUS_TEXT: dict[GameStatus, str] = {
    "lobby": "has not started yet",
    "active": "has already started",
    "finished": "is already over",
    "abandoned": "was abandoned",
}


class WrongStatus(StorageError):
    """The game's status does not allow this (e.g. a second "Start", a move after the end)."""

    def __init__(self, game_id: int, status: GameStatus, what: str) -> None:
        super().__init__(f"Game #{game_id} {_STATUS_TEXT[status]}, so it cannot {what}.")
        self.game_id = game_id
        self.status = status


_TARGET_TEXT: dict[GameStatus, str] = {
    "lobby": "go back to its lobby",
    "active": "be started",
    "finished": "be finished",
    "abandoned": "be abandoned",
}


# --------------------------------------------------------------------- helpers


def _dumps(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _game(row: Row) -> GameRecord:
    outcome = row["outcome"]
    return GameRecord(
        id=int(row["id"]),
        engine=str(row["engine"]),
        engine_revision=int(row["engine_revision"]),
        options=cast(dict[str, Any], json.loads(row["options"])),
        status=cast(GameStatus, row["status"]),
        version=int(row["version"]),
        guild_id=_opt_int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=_opt_int(row["thread_id"]),
        creator_id=int(row["creator_id"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        outcome=None if outcome is None else cast(dict[str, Any], json.loads(outcome)),
        table_options=cast(dict[str, Any], json.loads(row["table_options"])),
        paused_at=_opt_float(row["paused_at"]),
    )


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _seat(row: Row) -> SeatRecord:
    return SeatRecord(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        display_name=str(row["display_name"]),
        controller=cast(Controller, row["controller"]),
        left_order=_opt_int(row["left_order"]),
        timeouts=int(row["timeouts"]),
        clock_left=_opt_float(row["clock_left"]),
        clock_since=_opt_float(row["clock_since"]),
    )


def _entry(row: Row) -> LogEntry:
    return LogEntry(
        game_id=int(row["game_id"]),
        seq=int(row["seq"]),
        actor=int(row["actor"]),
        action=str(row["action"]),
        narration=str(row["narration"]),
        private_to=_opt_int(row["private_to"]),
        created_at=float(row["created_at"]),
    )


def _undo_point(row: Row) -> UndoPoint:
    clocks: dict[int, tuple[float | None, float | None]] = {}
    try:
        stored = json.loads(row["clocks"])
    except (TypeError, ValueError):
        stored = {}
    if isinstance(stored, dict):
        for seat, pair in stored.items():
            if isinstance(pair, list) and len(pair) == 2 and str(seat).isdigit():
                clocks[int(seat)] = (_opt_float(pair[0]), _opt_float(pair[1]))
    return UndoPoint(int(row["version"]), int(row["seat"]), int(row["user_id"]), clocks)


async def _write_undo(conn: Connection, game_id: int, undo: UndoChange) -> None:
    """An :class:`UndoChange`, inside :meth:`GameStore.commit`'s transaction:
    the new point first, so that the chance written with its move forgets it."""
    point = undo.add
    if point is not None:
        clocks = {str(seat): list(pair) for seat, pair in sorted(point.clocks.items())}
        await conn.execute(
            "INSERT INTO undo_points (game_id, version, seat, user_id, clocks) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version) DO UPDATE SET "
            "seat = excluded.seat, user_id = excluded.user_id, clocks = excluded.clocks",
            (game_id, point.version, point.seat, point.user_id, _dumps(clocks)),
        )
    if undo.forget_before is not None:
        await conn.execute(
            "DELETE FROM undo_points WHERE game_id = ? AND version < ?",
            (game_id, undo.forget_before),
        )
    if undo.forget_from is not None:
        await conn.execute(
            "DELETE FROM undo_points WHERE game_id = ? AND version >= ?",
            (game_id, undo.forget_from),
        )


async def _read_ask(conn: Connection, game_id: int) -> TakebackAsk | None:
    row = await _fetch_one(
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


async def _write_ask(conn: Connection, game_id: int, ask: TakebackAskChange) -> None:
    """A :class:`TakebackAskChange`, inside :meth:`GameStore.commit`'s
    transaction, which holds the game's row: the request stored must be the
    one the writer read, or nothing is written (:class:`StaleAsk`)."""
    if await _read_ask(conn, game_id) != ask.expected:
        raise StaleAsk(game_id)
    new = ask.new
    if new is None:
        await conn.execute("DELETE FROM takeback_asks WHERE game_id = ?", (game_id,))
        return
    await conn.execute(
        "INSERT INTO takeback_asks (game_id, seat, target, version, agreed, asked_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET seat = excluded.seat, "
        "target = excluded.target, version = excluded.version, agreed = excluded.agreed, "
        "asked_at = excluded.asked_at",
        (game_id, new.seat, new.target, new.version, _dumps(sorted(new.agreed)), new.asked_at),
    )


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def _check_status(status: str) -> GameStatus:
    if status not in ALL_STATUSES:
        raise ValueError(f"unknown game status {status!r}; expected one of {ALL_STATUSES}")
    return status


def _check_entry(entry: NewEntry) -> None:
    if entry.actor < -1:
        raise ValueError(f"actor must be a seat or -1 (chance), got {entry.actor}")
    if entry.private_to is not None and entry.private_to < -1:
        raise ValueError(f"private_to must be None, a seat or -1, got {entry.private_to}")


async def _fetch_one(conn: Connection, sql: str, params: Iterable[object]) -> Row | None:
    rows = await conn.execute_fetchall(sql, tuple(params))
    return rows[0] if rows else None


async def _game_status(conn: Connection, game_id: int) -> GameStatus:
    """The game's status, in a write transaction that is about to change the
    game on the strength of it: the game's row stays locked until it ends."""
    row = await _fetch_one(
        conn, f"SELECT status FROM games WHERE id = ?{for_update(conn)}", (game_id,)
    )
    if row is None:
        raise GameNotFound(game_id)
    return cast(GameStatus, row["status"])


def _up_to(column: str, bound: int | None) -> tuple[str, tuple[int, ...]]:
    """``AND column <= ?`` and its value, or nothing without a bound.  (Not
    ``? IS NULL OR ...``: PostgreSQL cannot tell that parameter's type.)"""
    return ("", ()) if bound is None else (f" AND {column} <= ?", (bound,))


async def _explain_refusal(
    conn: Connection,
    game_id: int,
    *,
    expected_version: int | None,
    what: str,
) -> NoReturn:
    """A guarded UPDATE touched no row: raise the error that says why."""
    row = await _fetch_one(conn, "SELECT status, version FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    status = cast(GameStatus, row["status"])
    if status in FINAL_STATUSES:
        raise WrongStatus(game_id, status, what)
    current = int(row["version"])
    if expected_version is not None and current != expected_version:
        raise StaleVersion(game_id, expected_version, current)
    raise WrongStatus(game_id, status, what)


def _sources_for(target: GameStatus, *, allow_same: bool) -> list[GameStatus]:
    """The statuses a game may be in for it to move to *target*."""
    sources = [s for s in ALL_STATUSES if target in _NEXT[s]]
    if allow_same and target in LIVE_STATUSES:
        sources.append(target)
    return sources


# --------------------------------------------------------------------- the store


class GameStore:
    """Async access to games; one per :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- games

    async def create_game(
        self,
        *,
        engine: str,
        engine_revision: int,
        options: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator_id: int,
        now: float,
        table_options: dict[str, Any] | None = None,
    ) -> GameRecord:
        """A new game in status ``lobby``, version 0, with no seats."""
        options_json = _dumps(options)
        table_json = _dumps(table_options or {})
        async with self.db.transaction() as conn:
            row = await _fetch_one(
                conn,
                "INSERT INTO games (engine, engine_revision, options, status, version, "
                "guild_id, channel_id, thread_id, creator_id, created_at, updated_at, "
                "table_options) "
                f"VALUES (?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?, ?) RETURNING {_GAME_COLUMNS}",
                (
                    engine,
                    engine_revision,
                    options_json,
                    guild_id,
                    channel_id,
                    thread_id,
                    creator_id,
                    now,
                    now,
                    table_json,
                ),
            )
        assert row is not None
        return _game(row)

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not storable_id(game_id):
            return None
        with _decoding(game_id):
            async with self.db.read() as conn:
                row = await _fetch_one(
                    conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                )
        return None if row is None else _game(row)

    async def game_with_seats(
        self, game_id: int
    ) -> tuple[GameRecord, list[SeatRecord]] | None:
        """A game's row and its seats as one read (one statement), so the
        two always agree: a write committed between two reads would pair a
        row with seats of another version (issue 29).  None: no such game."""
        if not storable_id(game_id):
            return None
        columns = ", ".join(
            [*(f"g.{c}" for c in _GAME_COLUMNS.split(", ")),
             *(f"s.{c}" for c in _SEAT_COLUMNS.split(", "))]
        )
        with _decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {columns} FROM games AS g LEFT JOIN seats AS s "
                    "ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat",
                    (game_id,),
                )
        if not rows:
            return None
        return _game(rows[0]), [_seat(r) for r in rows if r["seat"] is not None]

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
        wanted = [_check_status(s) for s in statuses]
        if not wanted:
            return []
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE {clause} "
                f"AND status IN ({_placeholders(wanted)}) ORDER BY id",
                (*params, *wanted),
            )
        return [_game(r) for r in rows]

    async def live_games(self) -> list[GameRecord]:
        """Every game in ``lobby`` or ``active``, by id (for start-up)."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games "
                "WHERE status IN ('lobby', 'active') ORDER BY id"
            )
        return [_game(r) for r in rows]

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
            counted = await _fetch_one(
                conn, f"SELECT COUNT(*) AS n FROM games WHERE {clause}", params
            )
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE {clause} "
                "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
                (*params, max(0, limit), max(0, offset)),
            )
        total = int(counted["n"]) if counted is not None else 0
        return total, [_game(r) for r in rows]

    async def seats_of(self, game_ids: Collection[int]) -> dict[int, list[SeatRecord]]:
        """The seats of several games in one query, by game and seat."""
        ids = sorted({int(g) for g in game_ids if storable_id(int(g))})
        if not ids:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id IN ({_placeholders(ids)}) "
                "ORDER BY game_id, seat",
                ids,
            )
        found: dict[int, list[SeatRecord]] = {g: [] for g in ids}
        for row in rows:
            seat = _seat(row)
            found[seat.game_id].append(seat)
        return found

    async def delete_game(self, game_id: int) -> None:
        """Delete a game with its seats, log, snapshots and messages. No error if absent."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # ---- seats

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The seats of a game, ordered by seat ([] for an unknown game)."""
        if not storable_id(game_id):
            return []
        with _decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                )
        return [_seat(r) for r in rows]

    async def add_seat(
        self,
        game_id: int,
        user_id: int,
        display_name: str,
        now: float,
        controller: Controller = "human",
    ) -> SeatRecord:
        """Seat *user_id* at the next free seat of a lobby (``controller``
        ``auto``: an automatic player asked for in the lobby, with an id from
        :func:`automatic_player_id`).

        Raises :class:`GameNotFound`, :class:`WrongStatus` (not a lobby) or
        :class:`SeatTaken` (already seated).
        """
        async with self.db.transaction() as conn:
            status = await _game_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "take new players")
            taken = await _fetch_one(
                conn,
                "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            if taken is not None:
                raise SeatTaken(game_id, user_id, int(taken["seat"]))
            row = await _fetch_one(
                conn,
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, controller) "
                "SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ?, ?, ? FROM seats WHERE game_id = ? "
                f"RETURNING {_SEAT_COLUMNS}",
                (game_id, user_id, display_name, now, controller, game_id),
            )
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
        assert row is not None
        return _seat(row)

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Unseat *user_id* from a lobby; the others are renumbered 0..n-1 in order.

        Raises :class:`GameNotFound`, :class:`WrongStatus` (not a lobby) or
        :class:`NotSeated`.
        """
        async with self.db.transaction() as conn:
            status = await _game_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "have its seats changed")
            seated = await self._seat_rows(conn, game_id)
            if all(int(r["user_id"]) != user_id for r in seated):
                raise NotSeated(game_id, user_id)
            await self._rewrite_seats(
                conn, game_id, [r for r in seated if int(r["user_id"]) != user_id]
            )

    async def set_seat_order(self, game_id: int, user_ids: Sequence[int]) -> None:
        """Reorder a lobby's seats: *user_ids* lists every seated player once, new seat 0 first.

        Raises :class:`GameNotFound`, :class:`WrongStatus` (not a lobby),
        :class:`NotSeated` (an id without a seat) or :class:`ValueError` (a
        seated player missing, or an id given twice).
        """
        async with self.db.transaction() as conn:
            status = await _game_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "have its seats changed")
            seated = {int(r["user_id"]): r for r in await self._seat_rows(conn, game_id)}
            for uid in user_ids:
                if uid not in seated:
                    raise NotSeated(game_id, uid)
            if len(user_ids) != len(seated) or len(set(user_ids)) != len(user_ids):
                raise ValueError(
                    f"set_seat_order must list each of the {len(seated)} seated players "
                    f"of game #{game_id} exactly once, got {list(user_ids)}"
                )
            await self._rewrite_seats(conn, game_id, [seated[uid] for uid in user_ids])

    @staticmethod
    async def _seat_rows(conn: Connection, game_id: int) -> list[Row]:
        return list(
            await conn.execute_fetchall(
                "SELECT seat, user_id, display_name, joined_at, controller FROM seats "
                "WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        )

    @staticmethod
    async def _rewrite_seats(conn: Connection, game_id: int, ordered: Sequence[Row]) -> None:
        # Delete and re-insert: shifting seat numbers in place can collide on the
        # primary key half-way through, depending on the order rows are visited.
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, controller) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    n,
                    int(r["user_id"]),
                    str(r["display_name"]),
                    float(r["joined_at"]),
                    str(r["controller"]),
                )
                for n, r in enumerate(ordered)
            ],
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> GameRecord:
        """Set the Discord thread a game is played in (None: its channel).
        Raises :class:`GameNotFound`."""
        async with self.db.transaction() as conn:
            row = await _fetch_one(
                conn,
                f"UPDATE games SET thread_id = ? WHERE id = ? RETURNING {_GAME_COLUMNS}",
                (thread_id, game_id),
            )
        if row is None:
            raise GameNotFound(game_id)
        return _game(row)

    # ---- status

    async def start(self, game_id: int, now: float) -> GameRecord:
        """``lobby -> active``. Raises :class:`WrongStatus` if it is not a lobby."""
        return await self._transition(game_id, "active", now, None, sources=["lobby"])

    async def set_status(
        self,
        game_id: int,
        status: GameStatus,
        now: float,
        outcome: dict[str, Any] | None = None,
    ) -> GameRecord:
        """Move a game forward to *status*; *outcome* (if given) replaces the stored one.

        Raises :class:`GameNotFound`, or :class:`WrongStatus` if the move is not
        forward (same status, back to lobby, or out of a final status).
        """
        target = _check_status(status)
        return await self._transition(
            game_id, target, now, outcome, sources=_sources_for(target, allow_same=False)
        )

    async def _transition(
        self,
        game_id: int,
        target: GameStatus,
        now: float,
        outcome: dict[str, Any] | None,
        *,
        sources: Sequence[GameStatus],
    ) -> GameRecord:
        outcome_json = None if outcome is None else _dumps(outcome)
        async with self.db.transaction() as conn:
            row = None
            if sources:
                row = await _fetch_one(
                    conn,
                    "UPDATE games SET status = ?, updated_at = ?, outcome = COALESCE(?, outcome) "
                    f"WHERE id = ? AND status IN ({_placeholders(sources)}) "
                    f"RETURNING {_GAME_COLUMNS}",
                    (target, now, outcome_json, game_id, *sources),
                )
            if row is None:
                await _explain_refusal(
                    conn, game_id, expected_version=None, what=_TARGET_TEXT[target]
                )
        return _game(row)

    # ---- the action log

    async def append(
        self,
        game_id: int,
        *,
        expected_version: int,
        entries: Sequence[NewEntry],
        now: float,
        snapshot: Any | None = None,
        status: GameStatus | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> GameRecord:
        """Append *entries* to the log of a live game, in one transaction: a
        :meth:`commit` of the log alone (see there)."""
        change = GameChange(entries=entries, snapshot=snapshot, status=status, outcome=outcome)
        written = await self.commit(
            game_id, expected_version=expected_version, change=change, now=now
        )
        return written.record

    async def commit(
        self, game_id: int, *, expected_version: int, change: GameChange, now: float
    ) -> Written:
        """Write one action's :class:`GameChange` to a live game, in one
        transaction guarded by the version (issue 29).

        The entries get seq ``expected_version + 1 .. expected_version + n`` and
        the game's version becomes ``expected_version + n``.  The snapshot (any
        JSON value) is stored at that new version; the status (a forward move,
        or the current live status), outcome, seats, hand-over, pause and
        timers are written in the same transaction.  A change without entries
        (clocks and timers set again) keeps the version, and is guarded by it
        all the same.

        Raises :class:`StaleVersion` if the game's version is not
        *expected_version*, :class:`GameNotFound`, :class:`WrongStatus` (the
        game is over, the status would go backwards, a hand-over outside an
        active game), :class:`NotSeated` or :class:`SeatTaken` (a hand-over
        whose seat changed hands, or whose new player already plays): nothing
        is written then.
        """
        entries = change.entries
        for entry in entries:
            _check_entry(entry)
        for columns in change.seats.values():
            unknown = set(columns) - SEAT_PLAY
            if unknown:
                raise ValueError(f"a game change cannot set the seats' {sorted(unknown)}")
        target = None if change.status is None else _check_status(change.status)
        # A start is ``lobby -> active`` only: two starts racing at version
        # 0 (a game with no opening chance keeps it) must not both succeed.
        sources = (
            list(LIVE_STATUSES)
            if target is None
            else _sources_for(target, allow_same=target != "active")
        )
        sources = [s for s in sources if s in LIVE_STATUSES]  # moves only in live games
        if change.handover is not None:
            sources = [s for s in sources if s == "active"]
        snapshot_json = None if change.snapshot is None else _dumps(change.snapshot)
        outcome_json = None if change.outcome is None else _dumps(change.outcome)
        n = len(entries)
        new_version = expected_version + n
        if change.handover is not None:
            what = "have a seat handed over"
        else:
            what = "record moves" if target is None else _TARGET_TEXT[target]
        sets = [
            "version = version + ?",
            "updated_at = ?",
            "status = COALESCE(?, status)",
            "outcome = COALESCE(?, outcome)",
        ]
        values: list[Any] = [n, now, target, outcome_json]
        if change.pause is not None:
            sets.append("paused_at = ?")
            values.append(change.pause[0])

        async with self.db.transaction() as conn:
            row = None
            if sources:
                row = await _fetch_one(
                    conn,
                    f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? "
                    f"AND status IN ({_placeholders(sources)}) "
                    f"RETURNING {_GAME_COLUMNS}",
                    (*values, game_id, expected_version, *sources),
                )
            if row is None:
                await _explain_refusal(
                    conn, game_id, expected_version=expected_version, what=what
                )
            if change.handover is not None:
                await self._hand_over(conn, game_id, change.handover)
            for seat, columns in sorted(change.seats.items()):
                if not columns:
                    continue
                names = sorted(columns)
                await conn.execute(
                    f"UPDATE seats SET {', '.join(f'{c} = ?' for c in names)} "
                    "WHERE game_id = ? AND seat = ?",
                    (*(columns[c] for c in names), game_id, seat),
                )
            if entries:
                await conn.executemany(
                    "INSERT INTO actions (game_id, seq, actor, action, narration, private_to, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_id,
                            expected_version + i,
                            e.actor,
                            e.action,
                            e.narration,
                            e.private_to,
                            now,
                        )
                        for i, e in enumerate(entries, start=1)
                    ],
                )
            if snapshot_json is not None:
                await conn.execute(
                    "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state, "
                    "created_at = excluded.created_at",
                    (game_id, new_version, snapshot_json, now),
                )
            if change.undo is not None:
                await _write_undo(conn, game_id, change.undo)
            if change.ask is not None:
                await _write_ask(conn, game_id, change.ask)
            if target in FINAL_STATUSES:
                # A game that is over takes nothing back.
                await conn.execute("DELETE FROM undo_points WHERE game_id = ?", (game_id,))
                await conn.execute("DELETE FROM takeback_asks WHERE game_id = ?", (game_id,))
            timers_changed = (
                change.timers is not None
                and await rewrite_timers(conn, game_id, change.timers)
            )
            seat_rows = await conn.execute_fetchall(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return Written(_game(row), [_seat(r) for r in seat_rows], timers_changed)

    @staticmethod
    async def _hand_over(conn: Connection, game_id: int, handover: SeatHandover) -> None:
        """The seat passes to its new player (see :class:`SeatHandover`),
        inside :meth:`commit`'s transaction, which holds the game's row."""
        taken = await _fetch_one(
            conn,
            "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
            (game_id, handover.new_user_id),
        )
        if taken is not None:
            raise SeatTaken(game_id, handover.new_user_id, int(taken["seat"]))
        cursor = await conn.execute(
            "UPDATE seats SET user_id = ?, display_name = ?, controller = 'human', "
            "left_order = NULL, timeouts = 0 WHERE game_id = ? AND seat = ? AND user_id = ?",
            (
                handover.new_user_id,
                handover.display_name,
                game_id,
                handover.seat,
                handover.old_user_id,
            ),
        )
        if cursor.rowcount != 1:
            raise NotSeated(game_id, handover.old_user_id)
        await conn.execute(
            "DELETE FROM outbox WHERE game_id = ? AND target = ?",
            (game_id, f"seat:{handover.seat}"),
        )

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
        return [_undo_point(r) for r in rows]

    async def takeback_ask(self, game_id: int) -> TakebackAsk | None:
        """The game's takeback request, if one was made (it may be void:
        compare its version with the game's)."""
        if not storable_id(game_id):
            return None
        async with self.db.read() as conn:
            return await _read_ask(conn, game_id)

    async def log(
        self, game_id: int, after_seq: int = 0, up_to: int | None = None
    ) -> list[LogEntry]:
        """Log entries with *after_seq* < seq <= *up_to* (no upper bound by
        default), ordered by seq ([] for an unknown game)."""
        if not storable_id(game_id):
            return []
        bound, bound_value = _up_to("seq", up_to)
        with _decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {_LOG_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
                    f"{bound} ORDER BY seq",
                    (game_id, after_seq, *bound_value),
                )
        return [_entry(r) for r in rows]

    async def table_events(self, game_id: int) -> list[LogEntry]:
        """The game's table events (``@left``, ``@replaced``...: entries
        whose action starts with ``@``), ordered by seq: who held which seat
        when, without reading the moves."""
        if not storable_id(game_id):
            return []
        with _decoding(game_id):
            async with self.db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {_LOG_COLUMNS} FROM actions WHERE game_id = ? "
                    "AND action LIKE '@%' ORDER BY seq",
                    (game_id,),
                )
        return [_entry(r) for r in rows]

    async def latest_snapshot(
        self, game_id: int, at_most: int | None = None
    ) -> tuple[int, Any] | None:
        """``(seq, state)`` of the newest snapshot (with seq <= *at_most*, if
        given), state decoded from JSON; None if none.  A snapshot that is
        not UTF-8 raises :class:`UnreadableRow`; one that is not JSON,
        ``ValueError``."""
        if not storable_id(game_id):
            return None
        bound, bound_value = _up_to("seq", at_most)
        with _decoding(game_id):
            async with self.db.read() as conn:
                row = await _fetch_one(
                    conn,
                    f"SELECT seq, state FROM snapshots WHERE game_id = ?{bound} "
                    "ORDER BY seq DESC LIMIT 1",
                    (game_id, *bound_value),
                )
        if row is None:
            return None
        return int(row["seq"]), json.loads(row["state"])

    # ---- tracked Discord messages

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        """Remember (or replace) the message of *kind* ('lobby', 'board', ...) for a game."""
        try:
            async with self.db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO messages (game_id, kind, channel_id, message_id) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                    "channel_id = excluded.channel_id, message_id = excluded.message_id",
                    (game_id, kind, channel_id, message_id),
                )
        except INTEGRITY_ERRORS as exc:
            if is_foreign_key_violation(exc):
                raise GameNotFound(game_id) from exc
            raise

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """``(channel_id, message_id)`` of the message of *kind*, or None."""
        if not storable_id(game_id):
            return None
        async with self.db.read() as conn:
            row = await _fetch_one(
                conn,
                "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?",
                (game_id, kind),
            )
        return None if row is None else (int(row["channel_id"]), int(row["message_id"]))

    # ---- the outbox (what was delivered to Discord)

    async def outbox(self, game_id: int) -> dict[str, OutboxRow]:
        """The delivery rows of a game, by target."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT target, version, awaited, over, simultaneous, digest, notice FROM outbox "
                "WHERE game_id = ?",
                (game_id,),
            )
        return {
            str(r["target"]): OutboxRow(
                target=str(r["target"]),
                version=int(r["version"]),
                awaited=frozenset(int(s) for s in json.loads(r["awaited"])),
                over=bool(r["over"]),
                simultaneous=bool(r["simultaneous"]),
                digest=str(r["digest"]),
                notice=bool(r["notice"]),
            )
            for r in rows
        }

    async def set_outbox(
        self, game_id: int, row: OutboxRow, *, claimed_by: str | None = None
    ) -> bool:
        """Record a delivery (insert or replace the row of its target).
        With ``claimed_by``, only while that process holds the game's
        delivery (:meth:`claim_delivery`): False, and nothing written, once
        another process took it over (issue 20)."""
        values = (
            game_id,
            row.target,
            row.version,
            _dumps(sorted(row.awaited)),
            int(row.over),
            int(row.simultaneous),
            row.digest,
            int(row.notice),
        )
        try:
            async with self.db.transaction() as conn:
                if claimed_by is not None:
                    # The claim's row stays locked until this commits (on
                    # PostgreSQL), so no takeover slips in between.
                    held = await conn.execute_fetchall(
                        "SELECT 1 FROM outbox_claims WHERE game_id = ? AND claimed_by = ?"
                        f"{for_update(conn)}",
                        (game_id, claimed_by),
                    )
                    if not list(held):
                        return False
                await conn.execute(
                    "INSERT INTO outbox "
                    "(game_id, target, version, awaited, over, simultaneous, digest, notice) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, target) DO UPDATE "
                    "SET version = excluded.version, awaited = excluded.awaited, "
                    "over = excluded.over, simultaneous = excluded.simultaneous, "
                    "digest = excluded.digest, notice = excluded.notice",
                    values,
                )
                return True
        except INTEGRITY_ERRORS as exc:
            if is_foreign_key_violation(exc):
                raise GameNotFound(game_id) from exc
            raise

    # ---- who delivers a game (issue 20: several processes, migration 0009)

    async def claim_delivery(self, game_id: int, owner: str, now: float, until: float) -> bool:
        """Make delivering the game ``owner``'s until ``until``: unless
        another process holds it (its lease not run out).  True if ``owner``
        holds it now (a claim it held already is extended)."""
        try:
            async with self.db.transaction() as conn:
                rows = await conn.execute_fetchall(
                    "INSERT INTO outbox_claims (game_id, claimed_by, lease_until) "
                    "VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                    "claimed_by = excluded.claimed_by, lease_until = excluded.lease_until "
                    "WHERE outbox_claims.claimed_by IS NULL OR outbox_claims.claimed_by = ? "
                    "OR outbox_claims.lease_until <= ? RETURNING game_id",
                    (game_id, owner, until, owner, now),
                )
                return bool(list(rows))
        except INTEGRITY_ERRORS as exc:
            if is_foreign_key_violation(exc):
                return False  # the game is gone: nothing to deliver
            raise

    async def release_delivery(
        self, game_id: int, owner: str, *, until: float | None = None
    ) -> bool:
        """``owner`` is done with the game's delivery: nobody holds it now;
        with ``until``, it keeps it that long instead (a retry is due then,
        and another process takes it over if this one is gone by then)."""
        async with self.db.transaction() as conn:
            if until is None:
                cursor = await conn.execute(
                    "UPDATE outbox_claims SET claimed_by = NULL, lease_until = NULL "
                    "WHERE game_id = ? AND claimed_by = ?",
                    (game_id, owner),
                )
            else:
                cursor = await conn.execute(
                    "UPDATE outbox_claims SET lease_until = ? WHERE game_id = ? AND claimed_by = ?",
                    (until, game_id, owner),
                )
            return cursor.rowcount == 1

    async def delivery_holder(self, game_id: int) -> tuple[str, float] | None:
        """Who holds the game's delivery and until when (None: nobody)."""
        async with self.db.read() as conn:
            row = await _fetch_one(
                conn,
                "SELECT claimed_by, lease_until FROM outbox_claims WHERE game_id = ? "
                "AND claimed_by IS NOT NULL",
                (game_id,),
            )
        return None if row is None else (str(row["claimed_by"]), float(row["lease_until"]))

    async def claim_deliveries(
        self,
        owner: str,
        *,
        now: float,
        until: float,
        quiet_since: float,
        horizon: float,
        limit: int = 100,
    ) -> list[int]:
        """The delivery sweep's batch (issue 20), claimed for ``owner`` until
        ``until`` in one statement: games whose delivery a process claimed
        and lost with its lease (it died, or its retry never came), and
        games left behind (their board behind their version, or a turn DM
        or a follower's DM owed, as :meth:`games_behind`) that nobody holds and nobody changed
        since ``quiet_since`` (the process that made the change delivers
        it, a moment later), changed since ``horizon`` unless still active.
        On PostgreSQL the games being changed right now are passed over
        (``SKIP LOCKED``): they are their writers' to deliver."""
        async with self.db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "INSERT INTO outbox_claims (game_id, claimed_by, lease_until) "
                # Typed: PostgreSQL cannot tell a bare parameter's type here.
                "SELECT w.id, CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) "
                "FROM (SELECT g.id FROM games AS g "
                "WHERE g.status <> 'lobby' AND NOT EXISTS (SELECT 1 FROM outbox_claims AS c "
                "WHERE c.game_id = g.id AND c.claimed_by IS NOT NULL AND c.lease_until > ?) "
                "AND (EXISTS (SELECT 1 FROM outbox_claims AS c WHERE c.game_id = g.id "
                "AND c.claimed_by IS NOT NULL) OR (g.updated_at <= ? "
                "AND (g.status = 'active' OR g.updated_at >= ?) "
                "AND EXISTS (SELECT 1 FROM seats AS s WHERE s.game_id = g.id) AND ("
                "NOT EXISTS (SELECT 1 FROM outbox AS o WHERE o.game_id = g.id "
                "AND o.target = 'board' AND o.version >= g.version "
                "AND (o.over = 1 OR g.status NOT IN ('finished', 'abandoned'))) "
                "OR EXISTS (SELECT 1 FROM outbox AS t WHERE t.game_id = g.id "
                "AND (t.target LIKE 'turn:%' OR t.target LIKE 'follow:%') "
                "AND t.digest LIKE 'owed%')))) "
                f"ORDER BY g.id LIMIT ?{for_update(conn, skip_locked=True, of='g')}) AS w "
                "WHERE 1 = 1 ON CONFLICT (game_id) DO UPDATE SET "
                "claimed_by = excluded.claimed_by, lease_until = excluded.lease_until "
                "WHERE outbox_claims.claimed_by IS NULL OR outbox_claims.lease_until <= ? "
                "RETURNING game_id",
                (owner, until, now, quiet_since, horizon, limit, now),
            )
        return sorted(int(r["game_id"]) for r in rows)

    async def games_behind(self) -> list[int]:
        """Started games whose board is behind their version (or whose final
        board was never posted, or whose follower is owed a DM), by id: what
        delivery must catch up."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT g.id FROM games AS g LEFT JOIN outbox AS o "
                "ON o.game_id = g.id AND o.target = 'board' "
                "WHERE g.status <> 'lobby' AND (o.version IS NULL OR o.version < g.version "
                "OR (g.status IN ('finished', 'abandoned') AND o.over = 0) "
                # A follower's DM recorded as owed but not yet sent (issue 21).
                "OR EXISTS (SELECT 1 FROM outbox AS f WHERE f.game_id = g.id "
                "AND f.target LIKE 'follow:%' AND f.digest LIKE 'owed%')) "
                # A lobby everyone left is abandoned without seats or a board.
                "AND EXISTS (SELECT 1 FROM seats AS s WHERE s.game_id = g.id) ORDER BY g.id"
            )
        return [int(r["id"]) for r in rows]

    async def reset_outbox(self, game_id: int, target: str) -> None:
        """Forget what was delivered to *target* (``seat:<n>``): the next
        catch-up delivers it afresh, as to a new player.  No error if absent."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "DELETE FROM outbox WHERE game_id = ? AND target = ?", (game_id, target)
            )

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
                f"WHERE game_id IN ({_placeholders(ids)}) AND actor >= 0 "
                "AND substr(action, 1, 1) != '@' GROUP BY game_id",
                ids,
            )
        return {
            int(r["game_id"]): MovesMade(int(r["moves"]), float(r["last_at"])) for r in rows
        }


@dataclass(frozen=True)
class MovesMade:
    """The players' moves in one game (:meth:`GameStore.moves_made`)."""

    count: int
    #: When the last of them was made.
    last_at: float
