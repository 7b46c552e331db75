"""Database: opening, migrations, corruption and version checks, transactions.

The tests of migrations and transactions run on both backends
(``database_target``); those about SQLite's file (pragmas, corruption,
application_id, a read-only or full file) on SQLite only, and
tests/storage/test_postgres.py has PostgreSQL's own."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage.backend import INTEGRITY_ERRORS
from storage.database import Database
from storage.errors import (
    CorruptDatabase,
    DatabaseNotWritable,
    DatabaseTooNew,
    StorageError,
    StorageUnavailable,
)
from storage.opening import open_database
from storage.schema import APPLICATION_ID, Migration, load_migrations
from storage.sqlite import SqliteDatabase, split_statements

M1 = Migration(1, "counter", "CREATE TABLE counter (n INTEGER); INSERT INTO counter VALUES (1);")
M2 = Migration(2, "notes", "CREATE TABLE notes (body TEXT NOT NULL); UPDATE counter SET n = n + 1;")
M2_BROKEN = Migration(
    2, "broken", "CREATE TABLE half_done (x INTEGER); INSERT INTO no_such_table VALUES (1);"
)


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await open_database(database_target)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await open_database(tmp_path / "chaupal.sqlite3")
    assert isinstance(database, SqliteDatabase)
    try:
        yield database
    finally:
        await database.close()


def _worker_threads() -> set[threading.Thread]:
    # aiosqlite runs each connection on a non-daemon worker thread; a leaked one
    # keeps the process alive at exit or dies later with "Event loop is closed".
    # A set, not a count: an earlier test's worker may finish meanwhile.
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


async def _scalar(database: Database, sql: str) -> object:
    async with database.read() as conn:
        rows = list(await conn.execute_fetchall(sql))
    return rows[0][0]


async def _column(database: Database, sql: str) -> list[object]:
    """The first column of every row, in order (group_concat is SQLite's own)."""
    async with database.read() as conn:
        return [r[0] for r in await conn.execute_fetchall(sql)]


async def _stored_version(database: Database) -> int:
    """The schema version as the database itself records it."""
    sql = (
        "PRAGMA user_version"
        if database.dialect == "sqlite"
        else "SELECT version FROM chaupal_schema"
    )
    return int(str(await _scalar(database, sql)))


def _raw_scalar(path: Path, sql: str) -> object:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


# ----------------------------------------------------------------- new file


async def test_new_file_gets_the_schema_in_a_new_folder(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "chaupal.sqlite3"
    database = await open_database(path)
    try:
        assert path.exists()
        assert database.path == str(path)
        latest = len(load_migrations())
        assert latest >= 1
        assert database.schema_version == latest
        assert await _scalar(database, "PRAGMA user_version") == latest
        assert await _scalar(database, "PRAGMA application_id") == APPLICATION_ID
        async with database.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        objects = {(str(r[0]), str(r[1])) for r in rows}
        for table in ("games", "seats", "actions", "snapshots", "messages"):
            assert ("table", table) in objects
        for index in ("games_by_channel", "games_by_status", "seats_by_user"):
            assert ("index", index) in objects
        assert ("trigger", "actions_no_update") in objects
        assert ("trigger", "actions_no_delete") in objects
    finally:
        await database.close()


async def test_pragmas_wal_foreign_keys_synchronous(sqlite_db: SqliteDatabase) -> None:
    db = sqlite_db
    assert str(await _scalar(db, "PRAGMA journal_mode")).lower() == "wal"
    assert await _scalar(db, "PRAGMA foreign_keys") == 1
    assert await _scalar(db, "PRAGMA synchronous") == 1  # NORMAL
    busy = await _scalar(db, "PRAGMA busy_timeout")
    assert isinstance(busy, int) and busy >= 1000
    assert Path(db.path + "-wal").exists()


def test_packaged_migrations_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.number for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "initial"


# ----------------------------------------------------------------- reopening and upgrading


async def test_reopen_applies_nothing_new(
    database_target: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = database_target
    first = await open_database(path, migrations=[M1])
    await first.close()
    caplog.set_level(logging.INFO, logger="storage")
    caplog.clear()
    second = await open_database(path, migrations=[M1])
    try:
        assert second.schema_version == 1
        # M1 inserts a row: run twice it would make two (or fail on CREATE TABLE).
        assert await _scalar(second, "SELECT COUNT(*) FROM counter") == 1
        assert not [r for r in caplog.records if "applied migration" in r.getMessage()]
    finally:
        await second.close()


async def test_reopen_with_packaged_migrations_keeps_data(database_target: str) -> None:
    path = database_target
    first = await open_database(path)
    async with first.transaction() as conn:
        await conn.execute(
            "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
            "created_at, updated_at) VALUES ('x', 1, 'lobby', 1, 2, 0, 0)"
        )
    version = first.schema_version
    await first.close()
    second = await open_database(path)
    try:
        assert second.schema_version == version
        assert await _scalar(second, "SELECT COUNT(*) FROM games") == 1
    finally:
        await second.close()


async def test_old_database_upgrades(
    database_target: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = database_target
    old = await open_database(path, migrations=[M1])
    assert old.schema_version == 1
    await old.close()

    caplog.set_level(logging.INFO, logger="storage")
    new = await open_database(path, migrations=[M1, M2])
    try:
        assert new.schema_version == 2
        assert await _stored_version(new) == 2
        assert await _scalar(new, "SELECT n FROM counter") == 2  # M1's row kept, M2 ran once
        assert await _scalar(new, "SELECT COUNT(*) FROM notes") == 0
        applied = [r.getMessage() for r in caplog.records if "applied migration" in r.getMessage()]
        assert len(applied) == 1 and "0002_notes" in applied[0]
    finally:
        await new.close()


async def test_empty_file_at_schema_zero_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.write_bytes(b"")  # a zero-byte file is an empty SQLite database at user_version 0
    database = await open_database(path)
    try:
        assert database.schema_version == len(load_migrations())
        assert await _scalar(database, "SELECT COUNT(*) FROM games") == 0
    finally:
        await database.close()


async def test_failed_migration_leaves_previous_schema(database_target: str) -> None:
    path = database_target
    await (await open_database(path, migrations=[M1])).close()
    with pytest.raises(StorageError) as info:
        await open_database(path, migrations=[M1, M2_BROKEN])
    message = str(info.value)
    assert "0002_broken" in message and str(path) in message and "schema 1" in message
    if not path.startswith("postgresql:"):
        assert _raw_scalar(Path(path), "PRAGMA user_version") == 1
    again = await open_database(path, migrations=[M1])
    try:
        assert await _stored_version(again) == 1
        assert "half_done" not in await again.tables()
    finally:
        await again.close()


async def test_migrations_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="without gaps"):
        await open_database(tmp_path / "g.sqlite3", migrations=[M1, Migration(3, "x", "")])


# ----------------------------------------------------------------- refusing bad files


async def test_garbage_file_is_corrupt_and_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "chaupal.sqlite3"
    path.write_bytes(b"this is not sqlite at all\x00\xff" + os.urandom(4000))
    threads_before = _worker_threads()
    with pytest.raises(CorruptDatabase) as info:
        await open_database(path)
    message = str(info.value)
    assert str(path) in message
    assert "not a database" in message
    assert "move the file aside" in message and "backup" in message
    assert not _worker_threads() - threads_before  # the failed connection was closed
    assert path.read_bytes().startswith(b"this is not sqlite")  # left untouched


async def test_damaged_page_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "chaupal.sqlite3"
    await (await open_database(path)).close()
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page_size] = 0xFF  # not a valid b-tree page type
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptDatabase) as info:
        await open_database(path)
    assert str(path) in str(info.value)


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    await (await open_database(path)).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(DatabaseTooNew) as info:
        await open_database(path)
    message = str(info.value)
    assert str(path) in message
    assert "schema 99" in message
    assert f"knows up to {len(load_migrations())}" in message
    assert "Upgrade Chaupal" in message
    assert _raw_scalar(path, "PRAGMA user_version") == 99  # not touched


async def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StorageError) as info:
        await open_database(path)
    assert not isinstance(info.value, CorruptDatabase)
    assert "not Chaupal's" in str(info.value) and "invoices" in str(info.value)
    assert _raw_scalar(path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'games'") == 0


async def test_another_programs_versioned_database_is_not_too_new(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")  # no tables, but another program's schema number
    conn.close()
    with pytest.raises(StorageError) as info:
        await open_database(path)
    assert type(info.value) is StorageError
    assert "not Chaupal's" in str(info.value) and "user_version 7" in str(info.value)


async def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    threads_before = _worker_threads()
    with pytest.raises(StorageError) as info:
        await open_database(tmp_path)
    assert str(tmp_path) in str(info.value)
    assert not _worker_threads() - threads_before  # the worker thread has ended


# ----------------------------------------------------------------- transactions


async def test_transaction_commits_and_rolls_back(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE t (x INTEGER)")
        await conn.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(RuntimeError, match="boom"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t VALUES (2)")
            raise RuntimeError("boom")
    assert await _column(db, "SELECT x FROM t ORDER BY x") == [1]
    if isinstance(db, SqliteDatabase):
        assert not db.conn.in_transaction


async def test_transactions_of_two_tasks_do_not_mix(db: Database) -> None:
    """Task A writes, waits, then fails; task B commits meanwhile.

    On one shared connection without the lock, B's COMMIT would commit A's row,
    or A's ROLLBACK would discard B's.
    """
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE t (who TEXT)")
    a_started = asyncio.Event()

    async def task_a() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t VALUES ('a')")
            a_started.set()
            await asyncio.sleep(0.05)
            raise RuntimeError("a fails")

    async def task_b() -> None:
        await asyncio.wait_for(a_started.wait(), 30)  # bounded: task_a may fail first
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t VALUES ('b')")

    results = await asyncio.gather(task_a(), task_b(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert results[1] is None
    assert await _column(db, "SELECT who FROM t") == ["b"]


async def test_cancelled_transaction_rolls_back(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE t (x INTEGER)")
    inside = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t VALUES (1)")
            inside.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(writer())
    await asyncio.wait_for(inside.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO t VALUES (2)")
    assert await _column(db, "SELECT x FROM t") == [2]


@pytest.mark.parametrize("opening", ["transaction", "snapshot"])
async def test_a_task_cancelled_while_its_begin_waits_leaves_no_transaction_open(
    sqlite_db: SqliteDatabase, opening: str
) -> None:
    """A timer job cut off (issue 32's CI, under load) while its BEGIN sat on
    the connection's thread: the BEGIN runs all the same, so without a
    ROLLBACK behind it every later write failed with "cannot start a
    transaction within a transaction"."""
    conn = sqlite_db.conn
    # Hold the connection's one thread, so the task's BEGIN waits behind it.
    held = asyncio.ensure_future(conn._execute(time.sleep, 0.3))

    async def begins() -> None:
        async with getattr(sqlite_db, opening)() as inside:
            await inside.execute("SELECT 1")

    task = asyncio.create_task(begins())
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await held
    async with sqlite_db.transaction() as inside:
        await inside.execute("CREATE TABLE after_the_cut (x INTEGER)")
    assert "after_the_cut" in await sqlite_db.tables()


async def test_close_is_idempotent_and_final(database_target: str) -> None:
    database = await open_database(database_target)
    await database.close()
    await database.close()
    assert database.closed
    with pytest.raises(StorageError, match="closed"):
        async with database.transaction():
            pass


def test_split_statements_keeps_triggers_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE a (x TEXT DEFAULT ';');
    CREATE TRIGGER t BEFORE DELETE ON a BEGIN
        SELECT RAISE(ABORT, 'no; never');
        SELECT 1;
    END;
    INSERT INTO a VALUES ('x')
    """
    statements = split_statements(script)
    assert len(statements) == 3
    assert statements[0].endswith("DEFAULT ';');")
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    assert statements[2] == "INSERT INTO a VALUES ('x')"
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    conn.close()


# ----------------------------------------------------------------- a file that cannot be written


def _read_only_connect(monkeypatch: pytest.MonkeyPatch) -> None:
    """Open every database read-only, as a read-only file or mount would.

    Tests run as root, whom file permissions do not stop, so the mode is
    forced through SQLite's URI instead.
    """
    import aiosqlite

    real_connect = aiosqlite.connect

    def connect(database: str, **kwargs: object) -> aiosqlite.Connection:
        uri = f"{Path(database).resolve().as_uri()}?mode=ro"
        return real_connect(uri, uri=True, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(aiosqlite, "connect", connect)


async def test_open_refuses_a_read_only_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Up to date, so no migration writes: only the probe finds out.
    path = tmp_path / "chaupal.sqlite3"
    await (await open_database(path)).close()
    _read_only_connect(monkeypatch)
    threads_before = _worker_threads()
    with pytest.raises(DatabaseNotWritable) as info:
        await open_database(path)
    message = str(info.value)
    assert str(path) in message and "read-only" in message
    assert not _worker_threads() - threads_before


async def test_open_of_a_new_read_only_file_is_not_a_migration_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chaupal.sqlite3"
    path.write_bytes(b"")  # an empty database: the first migration is the first write
    _read_only_connect(monkeypatch)
    with pytest.raises(DatabaseNotWritable) as info:
        await open_database(path)
    message = str(info.value)
    assert str(path) in message and "read-only" in message
    assert "Report this as a bug" not in message


async def _games(db: Database) -> int:
    return int(str(await _scalar(db, "SELECT COUNT(*) FROM games")))


async def _add_game(conn: object) -> None:
    await conn.execute(  # type: ignore[attr-defined]
        "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
        "created_at, updated_at) VALUES ('x', 1, 'lobby', 1, 2, 0, 0)"
    )


def _player_sentence(message: str, path: str) -> None:
    assert message.startswith("The bot's storage") and "nothing was changed" in message
    assert path not in message and "sqlite" not in message.lower()
    assert "INSERT" not in message and "games" not in message


async def test_a_read_only_database_refuses_writes_with_a_sentence_for_players(
    sqlite_db: SqliteDatabase, caplog: pytest.LogCaptureFixture
) -> None:
    db = sqlite_db
    async with db.transaction() as conn:
        await _add_game(conn)
    await db.conn.execute("PRAGMA query_only = ON")  # "attempt to write a readonly database"
    caplog.set_level(logging.WARNING, logger="storage.sqlite")
    with pytest.raises(StorageUnavailable) as info:
        async with db.transaction() as conn:
            await _add_game(conn)
    assert info.value.problem == "read-only"
    assert "read-only" in str(info.value)
    _player_sentence(str(info.value), db.path)
    # The operator's log names the file and SQLite's reason.
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(db.path in m and "readonly" in m for m in logged), logged
    # Reads still work, and once the file is writable again so do writes.
    assert await _games(db) == 1
    await db.conn.execute("PRAGMA query_only = OFF")
    async with db.transaction() as conn:
        await _add_game(conn)
    assert await _games(db) == 2


async def test_a_full_disk_rolls_back_and_the_connection_stays_usable(
    sqlite_db: SqliteDatabase,
) -> None:
    db = sqlite_db
    async with db.transaction() as conn:
        await _add_game(conn)
    pages = int(str(await _scalar(db, "PRAGMA page_count")))
    await db.conn.execute(f"PRAGMA max_page_count = {pages}")  # "database or disk is full"
    with pytest.raises(StorageUnavailable) as info:
        async with db.transaction() as conn:
            await _add_game(conn)
            await conn.execute("CREATE TABLE filler (x BLOB)")
            await conn.execute(
                "INSERT INTO filler SELECT randomblob(4000) FROM "
                "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) "
                "SELECT i FROM n)"
            )
    assert info.value.problem == "full" and "full" in str(info.value)
    _player_sentence(str(info.value), db.path)
    assert not db.conn.in_transaction  # rolled back: the game added above is gone too
    assert await _games(db) == 1
    await db.conn.execute("PRAGMA max_page_count = 1073741823")
    async with db.transaction() as conn:
        await _add_game(conn)
    assert await _games(db) == 2


async def test_a_database_locked_by_another_program_is_busy(sqlite_db: SqliteDatabase) -> None:
    db = sqlite_db
    await db.conn.execute("PRAGMA busy_timeout = 50")  # not the usual 5 s
    other = sqlite3.connect(db.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageUnavailable) as info:
            async with db.transaction() as conn:
                await _add_game(conn)
        assert info.value.problem == "busy" and "Try again" in str(info.value)
        _player_sentence(str(info.value), db.path)
    finally:
        other.execute("ROLLBACK")
        other.close()
    async with db.transaction() as conn:
        await _add_game(conn)
    assert await _games(db) == 1


async def test_a_failed_read_is_a_sentence_for_players(sqlite_db: SqliteDatabase) -> None:
    db = sqlite_db
    with pytest.raises(StorageUnavailable) as info:
        async with db.read():
            # What a failing disk raises (without an error code, as from older Pythons).
            raise sqlite3.OperationalError("disk I/O error")
    assert info.value.problem == "disk error"
    _player_sentence(str(info.value), db.path)
    assert await _games(db) == 0


async def test_sql_mistakes_are_not_storage_problems(db: Database) -> None:
    # Constraint and syntax errors are handled by callers or are bugs: unchanged.
    with pytest.raises(INTEGRITY_ERRORS):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at) "
                "VALUES (999, 0, 1, 'x', 0)"
            )
    missing = (sqlite3.OperationalError, asyncpg.UndefinedTableError)
    with pytest.raises(missing, match=r"no such table|does not exist"):
        async with db.read() as conn:
            await conn.execute("SELECT * FROM no_such_table")
    if isinstance(db, SqliteDatabase):
        assert not db.conn.in_transaction
    assert await _games(db) == 0  # and the database still works
