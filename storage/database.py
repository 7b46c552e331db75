"""The SQLite connection, its migrations and its transactions.

One :class:`Database` owns one aiosqlite connection (WAL mode,
``synchronous=NORMAL``, foreign keys on).  The schema lives in numbered SQL
files in ``storage/migrations`` (``0001_initial.sql``, ``0002_....sql``...),
applied in order at :meth:`Database.open`, each in its own transaction, and
recorded in ``PRAGMA user_version``.

Concurrency: there is one connection shared by every task, and on a shared
connection ``COMMIT`` commits every task's pending statements.  So every write
goes through :meth:`Database.transaction` (``BEGIN IMMEDIATE`` ... ``COMMIT``,
or ``ROLLBACK`` on an exception), serialised by one :class:`asyncio.Lock`.
:meth:`Database.read` takes the same lock, so a reader never sees another
task's half-written transaction.  Neither may be nested in the same task: the
lock is not re-entrant and nesting would deadlock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

__all__ = [
    "APPLICATION_ID",
    "CorruptDatabase",
    "Database",
    "DatabaseTooNew",
    "Migration",
    "StorageError",
    "load_migrations",
]

log = logging.getLogger(__name__)

#: Written to ``PRAGMA application_id`` so a Chaupal file can be told apart
#: from another program's SQLite database ("CHPL" in ASCII).
APPLICATION_ID = 0x4348504C

#: How long a statement waits for another process's lock before giving up.
BUSY_TIMEOUT_MS = 5000

_MIGRATION_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_]+)\.sql$")
_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


class StorageError(Exception):
    """Base class of every error the storage layer raises on purpose."""


class CorruptDatabase(StorageError):
    """The database file is not SQLite, or fails its integrity check."""


class DatabaseTooNew(StorageError):
    """The file was written by a newer Chaupal with a schema this one does not know."""


@dataclass(frozen=True)
class Migration:
    """One numbered schema step: ``NNNN_name.sql``."""

    number: int
    name: str
    sql: str


def load_migrations() -> list[Migration]:
    """Read ``storage/migrations/NNNN_name.sql`` in order.

    The numbers must run 1, 2, 3... without gaps or duplicates; anything else
    is a packaging mistake and raises :class:`RuntimeError`.
    """
    found: list[Migration] = []
    folder = resources.files("storage").joinpath("migrations")
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        found.append(
            Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8"))
        )
    found.sort(key=lambda m: m.number)
    _check_numbering(found)
    return found


def _check_numbering(migrations: Sequence[Migration]) -> None:
    numbers = [m.number for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(
            f"storage migrations must be numbered 1..n without gaps or duplicates, got {numbers}"
        )


def split_statements(script: str) -> list[str]:
    """Split an SQL script into single statements (``CREATE TRIGGER ... END;`` kept whole).

    :meth:`sqlite3.Cursor.executescript` would do this, but on Python 3.11 it
    first COMMITs any open transaction, which would break "one migration, one
    transaction".
    """
    statements: list[str] = []
    *pieces, tail = script.split(";")
    buffer = ""
    for piece in pieces:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    rest = (buffer + tail).strip()  # a last statement without ';', or a comment
    if rest:
        statements.append(rest)
    return statements


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc)
    return "not a database" in text or "malformed" in text


async def _reap_failed_connect(conn: aiosqlite.Connection) -> None:
    """Wait for the worker thread of a connection that failed or was closed.

    aiosqlite stops that thread itself but does not wait for it; if the event
    loop closes first, the thread dies with "Event loop is closed".
    """
    thread = getattr(conn, "_thread", conn)  # a Thread attribute, or (older) a Thread
    if not isinstance(thread, threading.Thread):
        return
    for _ in range(500):  # it ends within microseconds; give up after about 5 s
        if not thread.is_alive():
            return
        await asyncio.sleep(0.01)


async def _pragma_int(conn: aiosqlite.Connection, name: str) -> int:
    row = next(iter(await conn.execute_fetchall(f"PRAGMA {name}")))
    return int(row[0])


async def _rollback_quietly(conn: aiosqlite.Connection) -> None:
    """ROLLBACK if a transaction is open; never mask the exception being handled."""
    # An error here means "no transaction is active": the failure already ended it.
    with contextlib.suppress(sqlite3.Error):
        await conn.execute("ROLLBACK")


def _corrupt_message(path: str, detail: str) -> str:
    return (
        f"{path} is not a usable SQLite database ({detail}). "
        "Stop Chaupal, move the file aside (with any -wal and -shm files next to it) "
        "and restart to start fresh, or restore a backup."
    )


class Database:
    """One SQLite file, opened with :meth:`open` and closed with :meth:`close`."""

    def __init__(self, path: str, conn: aiosqlite.Connection, schema_version: int) -> None:
        # Use Database.open(); this only stores what open() prepared.
        self.path = path
        self._conn: aiosqlite.Connection | None = conn
        self._schema_version = schema_version
        self._lock = asyncio.Lock()

    # ----------------------------------------------------------------- opening

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations: Sequence[Migration] | None = None,
    ) -> Database:
        """Open (or create) the database at *path* and bring its schema up to date.

        *migrations* replaces the packaged migrations (for tests only).

        Raises :class:`CorruptDatabase` if the file is not SQLite or fails
        ``PRAGMA quick_check``, :class:`DatabaseTooNew` if a newer Chaupal wrote
        it, and :class:`StorageError` for a file that cannot be opened at all or
        belongs to another program.
        """
        text_path = os.fspath(path)
        steps = list(load_migrations() if migrations is None else migrations)
        _check_numbering(steps)
        if text_path != ":memory:":
            try:
                Path(text_path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(
                    f"Cannot create the folder for the database {text_path}: {exc}. "
                    "Check the path and its permissions."
                ) from exc

        conn = aiosqlite.connect(text_path, isolation_level=None)
        try:
            await conn
        except sqlite3.Error as exc:
            await _reap_failed_connect(conn)
            raise StorageError(
                f"Cannot open the database {text_path} ({exc}). "
                "Check that the path is a file Chaupal may read and write."
            ) from exc
        conn.row_factory = sqlite3.Row
        try:
            version = await cls._prepare(conn, text_path, steps)
        except BaseException:
            await conn.close()
            # close() stops the worker but does not wait for it to end.
            await _reap_failed_connect(conn)
            raise
        return cls(text_path, conn, version)

    @classmethod
    async def _prepare(
        cls, conn: aiosqlite.Connection, path: str, steps: Sequence[Migration]
    ) -> int:
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # The first statement that reads the file: "file is not a database" shows here.
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            mode = str(rows[0][0]) if rows else "?"
            if mode.lower() not in ("wal", "memory"):
                log.warning("%s: journal_mode is %s, not WAL", path, mode)
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            check = [str(r[0]) for r in await conn.execute_fetchall("PRAGMA quick_check")]
            if check != ["ok"]:
                raise CorruptDatabase(
                    _corrupt_message(path, "integrity check failed: " + "; ".join(check[:3]))
                )
            current = await cls._user_version(conn)
            await cls._refuse_foreign(conn, path, current)
            latest = len(steps)
            if current > latest:
                raise DatabaseTooNew(
                    f"{path} was written by a newer Chaupal (schema {current}, "
                    f"this version knows up to {latest}). Upgrade Chaupal, "
                    "or point it at another database file."
                )
            for step in steps[current:]:
                await cls._apply(conn, path, step)
            return await cls._user_version(conn)
        except StorageError:
            raise
        except sqlite3.Error as exc:
            if _is_corruption(exc):
                raise CorruptDatabase(_corrupt_message(path, str(exc))) from exc
            raise StorageError(
                f"Cannot open the database {path} ({exc}). "
                "Check that the file is readable and writable, and that no other "
                "program holds it locked."
            ) from exc

    @staticmethod
    async def _user_version(conn: aiosqlite.Connection) -> int:
        return await _pragma_int(conn, "user_version")

    @staticmethod
    async def _refuse_foreign(conn: aiosqlite.Connection, path: str, version: int) -> None:
        """Never migrate another program's data.

        Every Chaupal migration stamps ``PRAGMA application_id``; a file without
        that stamp must be a fresh, empty one (no tables, user_version 0).
        """
        app_id = await _pragma_int(conn, "application_id")
        if app_id == APPLICATION_ID:
            return
        tables = [
            str(r[0])
            for r in await conn.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 3"
            )
        ]
        if app_id == 0 and version == 0 and not tables:
            return
        held = ", ".join(tables) or "no tables"
        raise StorageError(
            f"{path} is an SQLite database, but not Chaupal's (it holds {held}; "
            f"application id {app_id:#x}, user_version {version}). "
            "Point Chaupal at another file, or move this one aside."
        )

    @staticmethod
    async def _apply(conn: aiosqlite.Connection, path: str, step: Migration) -> None:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if await _pragma_int(conn, "user_version") >= step.number:
                await conn.execute("COMMIT")
                return
            for statement in split_statements(step.sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            await conn.execute(f"PRAGMA user_version = {step.number}")
            await conn.execute("COMMIT")
        except BaseException as exc:
            await _rollback_quietly(conn)
            if isinstance(exc, sqlite3.Error) and not _is_corruption(exc):
                raise StorageError(
                    f"Migration {step.number:04d}_{step.name} failed on {path} ({exc}); "
                    f"the database was left at schema {step.number - 1}. "
                    "Report this as a bug; restore a backup if the file was edited by hand."
                ) from exc
            raise
        log.info("%s: applied migration %04d_%s", path, step.number, step.name)

    # ----------------------------------------------------------------- using

    @property
    def conn(self) -> aiosqlite.Connection:
        """The connection. Prefer :meth:`read` and :meth:`transaction`."""
        if self._conn is None:
            raise StorageError(f"The database {self.path} is closed.")
        return self._conn

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied (``PRAGMA user_version``)."""
        return self._schema_version

    @property
    def closed(self) -> bool:
        return self._conn is None

    def transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """``async with db.transaction() as conn:`` -- one serialised write transaction.

        ``BEGIN IMMEDIATE`` on entry, ``COMMIT`` when the block ends normally,
        ``ROLLBACK`` when it raises (the exception propagates).  Not re-entrant.
        """
        return self._transaction()

    def read(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """``async with db.read() as conn:`` -- reads that never see a half-done write."""
        return self._read()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            conn = self.conn
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                # Even if this task was cancelled, the ROLLBACK is queued on the
                # connection's thread ahead of anything the next lock holder sends.
                await _rollback_quietly(conn)
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self.conn

    async def close(self) -> None:
        """Close the connection (waits for a running transaction). Safe to call twice."""
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is None:
                return
            try:
                await conn.execute("PRAGMA optimize")
            except sqlite3.Error:
                log.debug("PRAGMA optimize failed on %s", self.path, exc_info=True)
            finally:
                await conn.close()
                await _reap_failed_connect(conn)  # let the worker thread end too

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
