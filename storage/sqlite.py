"""SQLite, the embedded default, through aiosqlite.

:class:`SqliteDatabase` is what :func:`storage.opening.open_database`
returns for a file path (or ``sqlite:PATH``): one aiosqlite connection (WAL
mode, ``synchronous=NORMAL``, foreign keys on); the schema version is
``PRAGMA user_version``.  The write-ahead log is kept small
(:data:`WAL_AUTOCHECKPOINT_PAGES`, :data:`WAL_SIZE_LIMIT`) and given back to
the disk at start and after a write that found the disk full
(:func:`_fold_log`), so that freeing a little space is enough to go on.  On a
shared connection ``COMMIT`` commits every task's pending statements, so
every write goes through :meth:`SqliteDatabase.transaction` (``BEGIN
IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on an exception), serialised by
one :class:`asyncio.Lock`.  :meth:`SqliteDatabase.read` takes the same lock,
so a reader never sees another task's half-written transaction.  Neither may
be nested in the same task: the lock is not re-entrant and nesting would
deadlock.

Failures of the file itself (read-only, disk full, I/O error, locked by
another program) are not bugs: at :meth:`SqliteDatabase.open_file` they
raise :class:`storage.errors.DatabaseNotWritable`, naming the file, and once
the bot runs :meth:`SqliteDatabase.transaction` and
:meth:`SqliteDatabase.read` turn them into
:class:`storage.errors.StorageUnavailable`, whose message is a sentence a
player can be shown, with the detail logged for the operator.

The migrations (:mod:`storage.schema`) run as they are written, without the
``-- dialect postgresql`` blocks, one statement at a time
(:func:`split_statements`), each migration in its own transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, cast

import aiosqlite

from storage.backend import Connection, Dialect, Executed, Row
from storage.database import Database
from storage.errors import (
    CorruptDatabase,
    DatabaseNotWritable,
    DatabaseTooNew,
    StorageError,
    StorageUnavailable,
)
from storage.schema import APPLICATION_ID, Migration, check_numbering, load_migrations

__all__ = [
    "BUSY_TIMEOUT_MS",
    "WAL_AUTOCHECKPOINT_PAGES",
    "WAL_SIZE_LIMIT",
    "SqliteConnection",
    "SqliteDatabase",
    "split_statements",
]

log = logging.getLogger(__name__)

#: How long a statement waits for another process's lock before giving up.
BUSY_TIMEOUT_MS = 5000

#: Pages the write-ahead log gathers before SQLite copies them into the
#: database file and starts the log again from its beginning (``PRAGMA
#: wal_autocheckpoint``; SQLite's own default is 1,000 pages, 4 MB).  A move
#: writes about nine 4 KB pages (up to 24 when it stores a snapshot), so the
#: log is copied every second move or so and stays near 40 pages: the
#: database file holds nearly everything, and a disk that filled up needs
#: only a little space freed to go on (docs/ARCHITECTURE.md, "When storage
#: fails").  Each copy costs two fsyncs, about a millisecond a move measured.
WAL_AUTOCHECKPOINT_PAGES = 16

#: Bytes the write-ahead log is cut back to when it starts again after a
#: copy (``PRAGMA journal_size_limit``).  Above its usual size (16 pages and
#: a move), so ordinary play reuses the file's space, which needs no free
#: space, instead of cutting the file and growing it again; only what a rare
#: big transaction (the migrations of a new file) left beyond it is given back.
WAL_SIZE_LIMIT = 256 * 1024

_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


# Failures of the file or the disk, not of Chaupal's SQL: these become
# StorageUnavailable / DatabaseNotWritable.  Anything else (a constraint, a
# syntax error) is a bug or is handled by the caller, and propagates as it is.
_PROBLEMS: dict[int, str] = {
    sqlite3.SQLITE_READONLY: "read-only",
    sqlite3.SQLITE_PERM: "read-only",
    sqlite3.SQLITE_FULL: "full",
    sqlite3.SQLITE_BUSY: "busy",
    sqlite3.SQLITE_IOERR: "disk error",
    sqlite3.SQLITE_CANTOPEN: "disk error",
    sqlite3.SQLITE_CORRUPT: "damaged",
    sqlite3.SQLITE_NOTADB: "damaged",
}
# Only when an exception carries no error code.
_PROBLEM_WORDS = (
    ("readonly", "read-only"),
    ("disk is full", "full"),
    ("database is locked", "busy"),
    ("disk i/o error", "disk error"),
    ("unable to open database file", "disk error"),
    ("malformed", "damaged"),
)

# At start-up, for the operator: what is wrong and what to do.
_OPERATOR_ADVICE: dict[str, str] = {
    "read-only": "it is read-only. Check that Chaupal may write the file and its folder "
    "(SQLite creates -wal and -shm files next to it) and that the disk is not mounted "
    "read-only",
    "full": "the disk is full. Free some space and restart",
    "busy": "another program holds it locked. Stop that program (or the other copy of "
    "Chaupal using this file) and restart",
    "disk error": "the disk reported an error. Check the disk and the file",
    "damaged": "the file is damaged. Restore a backup",
}


def _problem(exc: sqlite3.Error) -> str | None:
    """Which file problem *exc* reports, or None for an ordinary SQL error."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        # Extended codes (SQLITE_IOERR_WRITE...) keep the primary code in the low byte.
        return _PROBLEMS.get(code & 0xFF)
    text = str(exc).lower()
    return next((problem for words, problem in _PROBLEM_WORDS if words in text), None)


def _not_writable(path: str, exc: sqlite3.Error) -> DatabaseNotWritable | None:
    problem = _problem(exc)
    if problem is None or problem == "damaged":
        return None  # damage is reported as CorruptDatabase by the caller
    return DatabaseNotWritable(
        f"Cannot write to the database {path}: {_OPERATOR_ADVICE[problem]} ({exc})."
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


def _wal_bytes(path: str) -> int:
    """The size of the write-ahead log beside *path* (0 if there is none)."""
    try:
        return os.path.getsize(path + "-wal")
    except OSError:
        return 0


async def _fold_log(conn: aiosqlite.Connection, path: str, when: str) -> bool:
    """Copy the write-ahead log into the database file and cut the log to
    nothing (``PRAGMA wal_checkpoint(TRUNCATE)``); True if it was done.

    It is not done while the database file cannot grow to take the log's
    pages (the disk is still full) or another program is using the file.
    Then the log stays as it was, nothing is lost, and the caller may try
    again later: the failure is logged, never raised, so it cannot hide the
    error the caller is reporting or refuse a file that works.
    """
    before = _wal_bytes(path)
    # Without waiting for another program's reader: this runs under the
    # lock every write waits for, and is tried again later anyway.
    waits = await _pragma_int(conn, "busy_timeout")
    await conn.execute("PRAGMA busy_timeout = 0")
    try:
        rows = list(await conn.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)"))
    except sqlite3.Error as exc:
        log.warning(
            "%s: could not copy the write-ahead log (%d bytes) into the database %s: %s [%s]",
            path,
            before,
            when,
            exc,
            getattr(exc, "sqlite_errorname", type(exc).__name__),
        )
        return False
    finally:
        await conn.execute(f"PRAGMA busy_timeout = {waits}")
    # One row: (1 if another connection kept it from completing, frames, frames copied).
    if rows and int(rows[0][0]) != 0:
        log.warning(
            "%s: could not cut the write-ahead log (%d bytes) %s: another program is using "
            "the database; trying again later",
            path,
            before,
            when,
        )
        return False
    log.log(
        logging.INFO if before else logging.DEBUG,
        "%s: write-ahead log copied into the database %s (%d bytes given back)",
        path,
        when,
        before,
    )
    return True


def _corrupt_message(path: str, detail: str) -> str:
    return (
        f"{path} is not a usable SQLite database ({detail}). "
        "Stop Chaupal, move the file aside (with any -wal and -shm files next to it) "
        "and restart to start fresh, or restore a backup."
    )


class SqliteConnection:
    """aiosqlite's connection as a :class:`storage.backend.Connection`:
    statements go to SQLite as they are."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @property
    def dialect(self) -> Dialect:
        return "sqlite"

    async def execute(self, sql: str, parameters: Iterable[Any] = (), /) -> Executed:
        return await self._conn.execute(sql, parameters)

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = (), /) -> Sequence[Row]:
        # aiosqlite returns the list of sqlite3.Row that fetchall() made.
        return cast(Sequence[Row], await self._conn.execute_fetchall(sql, parameters))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> None:
        await self._conn.executemany(sql, parameters)


class SqliteDatabase(Database):
    """One SQLite file: one aiosqlite connection, every use serialised by one lock."""

    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, path: str, conn: aiosqlite.Connection, schema_version: int) -> None:
        super().__init__(path, schema_version)
        self.path = path
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        # A write failed for lack of space and the log could not be copied
        # into the database then: the next write tries again first.
        self._log_to_fold = False

    # ----------------------------------------------------------------- opening

    @classmethod
    async def open_file(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations: Sequence[Migration] | None = None,
    ) -> SqliteDatabase:
        """Open (or create) the SQLite file at *path* and bring its schema up to
        date.  *migrations* replaces the packaged migrations (for tests only).

        Raises :class:`CorruptDatabase` if the file is not SQLite or fails
        ``PRAGMA quick_check``, :class:`DatabaseTooNew` if a newer Chaupal wrote
        it, :class:`DatabaseNotWritable` if it cannot be written, and
        :class:`StorageError` for a file that cannot be opened at all or
        belongs to another program.
        """
        text_path = os.fspath(path)
        steps = list(load_migrations() if migrations is None else migrations)
        check_numbering(steps)
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
            await conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
            await conn.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
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
            pending = steps[current:]
            if pending:
                # A log left by a crash or a full disk is given back before
                # the migrations need space for theirs.
                await _fold_log(conn, path, "before the migrations")
            for step in pending:
                await cls._apply(conn, path, step)
            # The probe then writes into an empty log: a disk that filled up
            # needs only the room for the pages the log held that the database
            # file lacks, plus one page (see WAL_AUTOCHECKPOINT_PAGES).
            await _fold_log(conn, path, "at start")
            await cls._probe_writable(conn)
            return await cls._user_version(conn)
        except StorageError:
            raise
        except sqlite3.Error as exc:
            if _is_corruption(exc):
                raise CorruptDatabase(_corrupt_message(path, str(exc))) from exc
            if (unwritable := _not_writable(path, exc)) is not None:
                raise unwritable from exc
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
    async def _probe_writable(conn: aiosqlite.Connection) -> None:
        """Commit one real write, so a read-only or locked file is refused at start-up.

        Reading works on a read-only file and an up-to-date schema needs no
        migration, so without this the first move would be the first write.
        Rewriting ``user_version`` with its own value changes nothing but
        still writes page 1 to the WAL and commits.
        """
        await conn.execute("BEGIN IMMEDIATE")
        try:
            version = await _pragma_int(conn, "user_version")
            await conn.execute(f"PRAGMA user_version = {version}")
            await conn.execute("COMMIT")
        except BaseException:
            await _rollback_quietly(conn)
            raise

    @staticmethod
    async def _apply(conn: aiosqlite.Connection, path: str, step: Migration) -> None:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if await _pragma_int(conn, "user_version") >= step.number:
                await conn.execute("COMMIT")
                return
            for statement in split_statements(step.text_for("sqlite")):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            await conn.execute(f"PRAGMA user_version = {step.number}")
            await conn.execute("COMMIT")
        except BaseException as exc:
            await _rollback_quietly(conn)
            if isinstance(exc, sqlite3.Error) and (unwritable := _not_writable(path, exc)):
                # Not the migration's fault: a read-only file fails the first write.
                raise unwritable from exc
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

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.transaction() as conn:`` -- one serialised write transaction.

        ``BEGIN IMMEDIATE`` on entry, ``COMMIT`` when the block ends normally,
        ``ROLLBACK`` when it raises (the exception propagates).  Not re-entrant.
        """
        return self._transaction()

    def read(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.read() as conn:`` -- reads that never see a half-done write."""
        return self._read()

    def snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """A read transaction (``BEGIN`` ... ``ROLLBACK``) under the lock: in WAL
        mode it reads one snapshot while other programs keep writing."""
        return self._snapshot()

    async def tables(self) -> list[str]:
        async with self.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        return [str(r[0]) for r in rows]

    async def columns(self, table: str) -> list[str]:
        async with self.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,)
            )
        return [str(r[0]) for r in rows]

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            conn = self.conn
            if self._log_to_fold:
                self._log_to_fold = not await _fold_log(
                    conn, self.path, "before a write, after the disk was full"
                )
            try:
                # A read-only file, or another program's lock held past the
                # busy timeout, already fails here, before any transaction.
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                if (unavailable := self._unavailable(exc, "a write")) is not None:
                    raise unavailable from exc
                raise
            except BaseException:
                # Cancelled (a timer job cut off) while the BEGIN waited on the
                # connection's thread: it runs all the same, so end it before
                # the next lock holder's BEGIN meets an open transaction.
                await _rollback_quietly(conn)
                raise
            try:
                yield SqliteConnection(conn)
                await conn.execute("COMMIT")
            except BaseException as exc:
                # Even if this task was cancelled, the ROLLBACK is queued on the
                # connection's thread ahead of anything the next lock holder sends.
                # After SQLITE_FULL or an I/O error the transaction is still
                # open: without it the next BEGIN would fail too.
                await _rollback_quietly(conn)
                if (unavailable := self._unavailable(exc, "a write")) is not None:
                    if unavailable.problem == "full":
                        # Give the log's space back at once: the space the
                        # operator frees then goes to the next move, not to a
                        # log that only grows until a copy succeeds.
                        self._log_to_fold = not await _fold_log(
                            conn, self.path, "after the disk was full"
                        )
                    raise unavailable from exc
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        async with self._lock:
            try:
                yield SqliteConnection(self.conn)
            except sqlite3.Error as exc:
                if (unavailable := self._unavailable(exc, "a read")) is not None:
                    raise unavailable from exc
                raise

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Connection]:
        async with self._lock:
            conn = self.conn
            try:
                try:
                    await conn.execute("BEGIN")  # deferred: the first read takes the snapshot
                except asyncio.CancelledError:
                    await _rollback_quietly(conn)  # the BEGIN runs all the same: end it
                    raise
                try:
                    yield SqliteConnection(conn)
                finally:
                    await _rollback_quietly(conn)  # it only read: nothing to keep
            except sqlite3.Error as exc:
                if (unavailable := self._unavailable(exc, "a read")) is not None:
                    raise unavailable from exc
                raise

    def _unavailable(self, exc: BaseException, what: str) -> StorageUnavailable | None:
        """*exc* as :class:`StorageUnavailable` if the file failed, else None.

        The player sees only a sentence; the operator gets the file and
        SQLite's own words (which never hold the statement's values, so no
        secret reaches the log).
        """
        problem = _problem(exc) if isinstance(exc, sqlite3.Error) else None
        if problem is None:
            return None
        log.warning(
            "%s: %s failed (%s): %s [%s]",
            self.path,
            what,
            problem,
            exc,
            getattr(exc, "sqlite_errorname", type(exc).__name__),
        )
        return StorageUnavailable(problem)

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
