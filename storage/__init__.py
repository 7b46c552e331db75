"""Chaupal's storage layer: one SQLite file through aiosqlite, or a
PostgreSQL database through asyncpg, with the same SQL.

``Database`` owns the connections, the migrations and the transactions;
``GameStore`` is the small async API the service uses.  See
storage/backend.py, storage/database.py, storage/postgres.py and
storage/games.py.
"""

from storage.database import (
    Backup,
    CorruptDatabase,
    Database,
    DatabaseNotWritable,
    DatabaseTooNew,
    StorageError,
    StorageUnavailable,
    backup_database,
)
from storage.games import (
    GameNotFound,
    GameRecord,
    GameStatus,
    GameStore,
    LogEntry,
    NewEntry,
    NotSeated,
    SeatRecord,
    SeatTaken,
    StaleVersion,
    WrongStatus,
)

__all__ = [
    "Backup",
    "CorruptDatabase",
    "Database",
    "DatabaseNotWritable",
    "DatabaseTooNew",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "LogEntry",
    "NewEntry",
    "NotSeated",
    "SeatRecord",
    "SeatTaken",
    "StaleVersion",
    "StorageError",
    "StorageUnavailable",
    "WrongStatus",
    "backup_database",
]
