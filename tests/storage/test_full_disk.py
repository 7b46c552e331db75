"""A full disk (issue 29, item 6): SQLite's write-ahead log stays small and
gives its space back, so freeing a little space lets the players go on and
the bot start.

Before the fix, five new games left a 2 MB log beside a 4 KB database (SQLite
copies the log into the database only past 1,000 pages); on a full disk
each move needs the log to grow, and the database file cannot take the
log's pages without growing too.  SQLite only: PostgreSQL's files are the
server's.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.database import Database
from storage.errors import StorageUnavailable
from storage.opening import open_database
from storage.sqlite import SqliteDatabase
from tests.storage.full_disk import MOVES_AFTER_FREEING, Table, open_service, wal_size

ROOT = Path(__file__).resolve().parents[2]

#: One page in the log: SQLite's 4,096-byte page and its 24-byte frame header.
FRAME = 4096 + 24
#: The log's own header.
WAL_HEADER = 32

#: What the log may hold after any move: the 16 pages it gathers before
#: they are copied into the database (WAL_AUTOCHECKPOINT_PAGES) and the move
#: that crossed that line, at most 24 pages measured (one storing a
#: snapshot), taken as 32.  Before the fix it held ~500 pages after these moves.
MOST_FRAMES_AFTER_A_MOVE = 16 + 32


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await open_database(tmp_path / "chaupal.sqlite3")
    assert isinstance(database, SqliteDatabase)
    try:
        yield database
    finally:
        await database.close()


async def _add_games(db: Database, count: int) -> None:
    """*count* transactions, each adding a game (a few pages of the log each)."""
    for _ in range(count):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
                "created_at, updated_at) VALUES ('x', 1, 'lobby', 1, 2, 0, 0)"
            )


async def _games(db: Database) -> int:
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM games"))
    return int(rows[0][0])


async def _refuse_for_a_full_disk(db: SqliteDatabase) -> StorageUnavailable:
    """A write that SQLite itself refuses with SQLITE_FULL ("database or disk
    is full"): the file may not grow by a page (``max_page_count``), as on a
    disk with no room for the database's next page."""
    pages = int(next(iter(await db.conn.execute_fetchall("PRAGMA page_count")))[0])
    await db.conn.execute(f"PRAGMA max_page_count = {pages}")
    try:
        with pytest.raises(StorageUnavailable) as info:
            async with db.transaction() as conn:
                await conn.execute("CREATE TABLE filler (x BLOB)")
                await conn.execute(
                    "INSERT INTO filler SELECT randomblob(4000) FROM (WITH RECURSIVE n(i) AS "
                    "(SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) SELECT i FROM n)"
                )
    finally:
        await db.conn.execute("PRAGMA max_page_count = 1073741823")
    assert info.value.problem == "full"
    return info.value


def _games_in_the_database_file_alone(database_file: Path, copy: Path) -> int:
    """Games found in a copy of the database file without its log: what the
    file itself holds."""
    shutil.copyfile(database_file, copy)
    conn = sqlite3.connect(copy)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        conn.close()


async def test_five_new_games_leave_a_small_log(tmp_path: Path) -> None:
    database_file = tmp_path / "chaupal.sqlite3"
    database, service = await open_service(database_file)
    table = Table(service)
    largest = 0
    try:
        for _ in range(5):
            await table.new_game()
            for _ in range(8):
                await table.play_one()
                largest = max(largest, wal_size(database_file))
    finally:
        await database.close()
    assert 0 < largest <= WAL_HEADER + MOST_FRAMES_AFTER_A_MOVE * FRAME, largest


async def test_a_big_write_does_not_leave_a_big_log(sqlite_db: SqliteDatabase) -> None:
    db = sqlite_db
    database_file = Path(db.path)
    async with db.transaction() as conn:  # about 130 pages in one transaction
        await conn.execute("CREATE TABLE filler (x BLOB)")
        await conn.execute(
            "INSERT INTO filler SELECT randomblob(4000) FROM (WITH RECURSIVE n(i) AS "
            "(SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 128) SELECT i FROM n)"
        )
    assert wal_size(database_file) > 128 * FRAME
    await _add_games(db, 1)
    # Copied into the database after that write, the log started again and
    # was cut back to WAL_SIZE_LIMIT at the next one.
    assert wal_size(database_file) <= 256 * 1024


async def test_a_write_refused_for_a_full_disk_gives_the_log_back(
    sqlite_db: SqliteDatabase, tmp_path: Path
) -> None:
    db = sqlite_db
    database_file = Path(db.path)
    await _add_games(db, 10)
    assert wal_size(database_file) > 0
    refusal = await _refuse_for_a_full_disk(db)
    assert "full" in str(refusal)
    # The log's pages were copied into the database file and the log cut to
    # nothing, so its space is free for the next move.
    assert wal_size(database_file) == 0
    assert _games_in_the_database_file_alone(database_file, tmp_path / "copy.sqlite3") == 10
    await _add_games(db, 1)
    assert await _games(db) == 11


async def test_a_log_a_reader_kept_is_given_back_before_the_next_write(
    sqlite_db: SqliteDatabase,
) -> None:
    db = sqlite_db
    database_file = Path(db.path)
    await _add_games(db, 10)
    # Another program reading an older snapshot keeps the log from being cut
    # when the write is refused (the copy does not wait for it).
    reader = sqlite3.connect(database_file, isolation_level=None)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM games").fetchone()
        await _add_games(db, 10)
        await _refuse_for_a_full_disk(db)
        kept = wal_size(database_file)
        assert kept > 4 * FRAME
    finally:
        reader.execute("ROLLBACK")
        reader.close()
    await _add_games(db, 1)
    # The log was cut before this write, which wrote its few pages into an
    # empty log; left as it was, the log would have kept its size.
    assert WAL_HEADER < wal_size(database_file) <= WAL_HEADER + 4 * FRAME < kept
    assert await _games(db) == 21


async def test_start_gives_back_a_log_left_by_a_crash(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database_file = tmp_path / "chaupal.sqlite3"
    await (await open_database(database_file)).close()
    # A process killed while its moves were still in the log: it never
    # copied them into the database file, nor removed the log.
    crash = textwrap.dedent(
        """
        import os, sqlite3, sys
        conn = sqlite3.connect(sys.argv[1], isolation_level=None)
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        for _ in range(40):
            conn.execute(
                "INSERT INTO games (engine, engine_revision, status, channel_id, "
                "creator_id, created_at, updated_at, options) "
                "VALUES ('x', 1, 'lobby', 1, 2, 0, 0, hex(randomblob(2000)))"
            )
        os._exit(0)
        """
    )
    subprocess.run([sys.executable, "-c", crash, str(database_file)], check=True, timeout=60)
    left = wal_size(database_file)
    assert left > 40 * FRAME
    caplog.set_level(logging.INFO, logger="storage.sqlite")
    database = await open_database(database_file)
    try:
        # Only the start-up write (one page) is in the log now.
        assert WAL_HEADER < wal_size(database_file) <= WAL_HEADER + 2 * FRAME
        assert await _games(database) == 40
        assert any(f"{left} bytes given back" in r.getMessage() for r in caplog.records)
    finally:
        await database.close()


# ----------------------------------------------------------------- a real full disk


def _namespace_tmpfs(folder: Path, size: str) -> list[str]:
    """The command that runs what follows it in a new user and mount
    namespace, with a tmpfs of *size* on *folder*: a small disk of the
    test's own, without root, that vanishes with the process."""
    script = 'mount -t tmpfs -o "size=$2" chaupal-full-disk "$1" && shift 2 && exec "$@"'
    return [
        "unshare",
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        script,
        "sh",
        str(folder),
        size,
    ]


def test_a_full_disk_freed_a_little_keeps_playing_and_starts(tmp_path: Path) -> None:
    """The issue's story on a real 4 MB disk: five new games, the disk fills,
    64 KB are freed; the next 30 moves succeed, and so do a restart and a
    move after it.  Before the fix the log refilled the 64 KB in two moves
    and the restart was refused."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        pytest.skip("needs Linux's unshare (util-linux) to mount a small tmpfs without root")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounting = subprocess.run(
        [*_namespace_tmpfs(disk, "4m"), "true"], capture_output=True, text=True, timeout=60
    )
    if mounting.returncode != 0:
        pytest.skip(
            "cannot mount a small tmpfs in a user namespace here (unprivileged user "
            f"namespaces are off?): {mounting.stderr.strip()}"
        )
    freed = 64 * 1024
    story = [sys.executable, "-m", "tests.storage.full_disk", str(disk), str(freed)]
    story_run = subprocess.run(
        [*_namespace_tmpfs(disk, "4m"), *story],
        capture_output=True,
        text=True,
        timeout=110,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert story_run.returncode == 0, story_run.stderr
    told = json.loads(story_run.stdout)
    assert told["moves_after_freeing"] == MOVES_AFTER_FREEING, told
    assert told["refused_after_freeing"] is None, told
    assert told["restart"] == "started", told
    assert told["move_after_restart"] == "played", told
