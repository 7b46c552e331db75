"""Games, seats, the append-only action log, snapshots and tracked messages.

Everything the service stores about a game goes through
:class:`GameStore`, made of one part per concept:

- :mod:`storage.games.records`: what a read hands back (:class:`GameRecord`,
  :class:`SeatRecord`, :class:`LogEntry`, :class:`OutboxRow`...), the
  statuses, automatic players' ids;
- :mod:`storage.games.changes`: what a write takes (:class:`NewEntry`,
  :class:`GameChange`...) and hands back (:class:`Written`);
- :mod:`storage.games.errors`: why a read or write was refused;
- :mod:`storage.games.rows`: columns, JSON, decoding, the status rules;
- :mod:`storage.games.reads`, :mod:`storage.games.lifecycle`,
  :mod:`storage.games.writer`, :mod:`storage.games.outbox`: the store's
  parts, which :mod:`storage.games.store` puts together.

Every write is one transaction from :meth:`Database.transaction`; a move is
written with :meth:`GameStore.commit` (or :meth:`GameStore.append`), guarded
by the version the move was made against, so a click on an old board gets
:class:`StaleVersion` and writes nothing.

Status only moves forward: ``lobby -> active -> finished | abandoned`` (a lobby
may also go straight to ``finished`` or ``abandoned``).  ``finished`` and
``abandoned`` are final.  Breaking that rule raises :class:`WrongStatus`.

JSON values (options, outcome, snapshots) are stored as compact TEXT with
sorted keys; they come back as what :func:`json.loads` gives (so dict keys are
always strings and tuples come back as lists).

The names below are the package's API: import them from ``storage.games``.
"""

from storage.games.changes import (
    SEAT_PLAY,
    GameChange,
    NewEntry,
    SeatHandover,
    TakebackAskChange,
    UndoChange,
    Written,
)
from storage.games.errors import (
    GameNotFound,
    NotSeated,
    SeatTaken,
    StaleAsk,
    StaleVersion,
    UnreadableRow,
    WrongStatus,
)
from storage.games.records import (
    ALL_STATUSES,
    FINAL_STATUSES,
    LIVE_STATUSES,
    MAX_AUTOMATIC_PLAYERS,
    SQLITE_INTEGERS,
    Controller,
    GameRecord,
    GameStatus,
    LogEntry,
    MovesMade,
    OutboxRow,
    SeatRecord,
    TakebackAsk,
    UndoPoint,
    automatic_player_id,
    is_automatic_player,
    storable_id,
)
from storage.games.store import GameStore

__all__ = [
    "ALL_STATUSES",
    "FINAL_STATUSES",
    "LIVE_STATUSES",
    "MAX_AUTOMATIC_PLAYERS",
    "SEAT_PLAY",
    "SQLITE_INTEGERS",
    "Controller",
    "GameChange",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "LogEntry",
    "MovesMade",
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
    "UnreadableRow",
    "Written",
    "WrongStatus",
    "automatic_player_id",
    "is_automatic_player",
    "storable_id",
]
