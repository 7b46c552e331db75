"""``python -m bot backup FILE``: a consistent copy, even while the bot is writing.

SQLite: the online backup, with the write-ahead log.  PostgreSQL: one
snapshot copied into a SQLite file, which ``migrate-db`` restores."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from storage.backups import backup_database
from storage.errors import StorageError
from storage.opening import open_database
from storage.schema import load_migrations
from tests.postgres import PostgresServer
from tests.storage.test_migrate_db import _build, _dump

MOVES = 40


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A Chaupal database with MOVES games committed but only in the write-ahead log.

    Like the running bot: a writer connection stays open and its last commits
    have not been checkpointed into the main file yet.
    """
    path = tmp_path / "data" / "chaupal.sqlite3"
    asyncio.run(_create(path))
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")  # keep every commit in the WAL
    for n in range(MOVES):
        writer.execute(
            "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
            "created_at, updated_at) VALUES ('sangram', 1, 'active', ?, 2, 0, 0)",
            (n,),
        )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CHAUPAL_DATABASE", str(path))
    try:
        yield path
    finally:
        writer.close()


async def _create(path: Path) -> None:
    await (await open_database(path)).close()


def _games(path: Path) -> int:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        conn.close()


def _integrity(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


def test_copying_the_file_while_the_bot_runs_loses_moves(live: Path, tmp_path: Path) -> None:
    """Why the backup command exists: a plain copy misses what is in the WAL."""
    copy = tmp_path / "copied.sqlite3"
    shutil.copyfile(live, copy)
    assert _games(copy) < MOVES


def test_backup_while_the_bot_runs_has_every_move(
    live: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "backups" / "nightly" / "chaupal.sqlite3"  # folders are created
    assert main(["backup", str(target)]) == 0
    assert _games(target) == MOVES
    assert _integrity(target) == ["ok"]
    out = capsys.readouterr().out
    assert str(live) in out and str(target) in out and f"{MOVES} games" in out
    # Only the backup was written: no temporary or -wal files left beside it.
    assert sorted(p.name for p in target.parent.iterdir()) == ["chaupal.sqlite3"]
    assert _games(live) == MOVES  # the live file is untouched


def test_a_backup_opens_as_a_chaupal_database(live: Path, tmp_path: Path) -> None:
    target = tmp_path / "b.sqlite3"
    backup_database(live, target)

    async def reopen() -> int:
        database = await open_database(target)
        try:
            async with database.read() as conn:
                rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM games"))
            return int(rows[0][0])
        finally:
            await database.close()

    assert asyncio.run(reopen()) == MOVES


def test_backup_replaces_an_older_backup(live: Path, tmp_path: Path) -> None:
    target = tmp_path / "b.sqlite3"
    target.write_bytes(b"yesterday's backup")
    Path(f"{target}-wal").write_bytes(b"a stale write-ahead log")
    backup_database(live, target)
    assert _games(target) == MOVES and _integrity(target) == ["ok"]
    assert not Path(f"{target}-wal").exists()


def test_backup_refuses_to_overwrite_the_live_database(
    live: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = live.read_bytes()
    assert main(["backup", str(live)]) == 3
    assert "live database" in capsys.readouterr().err
    assert live.read_bytes() == before
    with pytest.raises(StorageError, match="live database"):
        backup_database(live, Path(f"{live}-wal"))


def test_backup_without_a_database_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "nothing-here.sqlite3"
    monkeypatch.setenv("CHAUPAL_DATABASE", str(missing))
    target = tmp_path / "b.sqlite3"
    assert main(["backup", str(target)]) == 3
    err = capsys.readouterr().err
    assert str(missing) in err and "nothing to back up" in err
    assert not missing.exists() and not target.exists()  # nothing was created


def test_backup_into_a_folder_asks_for_a_file_name(live: Path, tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="folder"):
        backup_database(live, tmp_path)


# ----------------------------------------------------------------- PostgreSQL


def test_a_postgresql_backup_is_a_chaupal_file_that_restores_whole(
    postgres_server: PostgresServer,
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A consistent copy of the server's data in a SQLite file; migrate-db
    puts it back into an empty database, every row as it was."""
    asyncio.run(_build(postgres_url))
    secret = "n0t-in-any-output"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CHAUPAL_DATABASE", postgres_url.replace("chaupal@", f"chaupal:{secret}@"))
    target = tmp_path / "backups" / "chaupal.sqlite3"
    assert main(["backup", str(target)]) == 0
    out = capsys.readouterr().out
    assert "chaupal:***@" in out and secret not in out
    assert str(target) in out and "5 games" in out
    assert sorted(p.name for p in target.parent.iterdir()) == ["chaupal.sqlite3"]
    assert _integrity(target) == ["ok"] and _games(target) == 5
    original = asyncio.run(_dump(postgres_url))
    assert asyncio.run(_dump(str(target))) == original  # itself a Chaupal database

    restored = postgres_server.create_database()
    try:
        url = postgres_server.url(restored)
        assert main(["migrate-db", "--from", f"sqlite:{target}", "--to", url]) == 0
        assert asyncio.run(_dump(url)) == original
    finally:
        postgres_server.drop_database(restored)


def test_a_postgresql_backup_changes_nothing_on_the_server(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before an upgrade is when a backup matters: the server stays at its
    schema, and the backup is at that schema too."""
    older = load_migrations()[:5]

    async def create_old() -> None:
        db = await open_database(postgres_url, migrations=older)
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
                "created_at, updated_at) VALUES ('sangram', 1, 'active', 1, 2, 0, 0)"
            )
        await db.close()

    asyncio.run(create_old())
    monkeypatch.setenv("CHAUPAL_DATABASE", postgres_url)
    target = tmp_path / "old.sqlite3"
    assert main(["backup", str(target)]) == 0
    conn = sqlite3.connect(target)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 5
    finally:
        conn.close()
    assert _games(target) == 1

    async def version() -> int:
        conn = await asyncpg.connect(postgres_url)
        try:
            return int(await conn.fetchval("SELECT version FROM chaupal_schema"))
        finally:
            await conn.close()

    assert asyncio.run(version()) == 5


def test_a_postgresql_backup_of_nothing_says_so(
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CHAUPAL_DATABASE", postgres_url)  # an empty database
    target = tmp_path / "b.sqlite3"
    assert main(["backup", str(target)]) == 3
    assert "holds no Chaupal data" in capsys.readouterr().err
    assert not target.exists()
