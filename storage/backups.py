"""``python -m bot backup FILE``: a consistent copy of the database, taken
while the bot runs, written to *FILE* as a SQLite database of its own.

- A SQLite file (:func:`backup_database`): SQLite's online backup, which
  reads one snapshot, write-ahead log included, without stopping writers.
- A PostgreSQL database (:func:`backup_postgres`): one REPEATABLE READ
  snapshot copied, every table (:func:`storage.copying.copy_database`), into
  a new SQLite file at the same schema version, which ``migrate-db``
  restores into an empty PostgreSQL database.

Either way the copy is written beside *FILE* first, checked (``PRAGMA
integrity_check``) and renamed over it, so *FILE* is never half-written.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from storage.copying import copy_database
from storage.errors import CorruptDatabase, StorageError
from storage.postgres import PostgresDatabase
from storage.schema import load_migrations
from storage.sqlite import BUSY_TIMEOUT_MS, SqliteDatabase

__all__ = ["Backup", "backup_database", "backup_postgres"]


@dataclass(frozen=True)
class Backup:
    """What :func:`backup_database` wrote."""

    source: Path | str
    """The file copied, or the PostgreSQL database (its URL without the password)."""
    target: Path
    size: int
    """Bytes in the backup file."""
    games: int | None
    """Games in the backup (None if the file has no games table)."""


def backup_database(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Backup:
    """Copy the database at *source* to *target*, consistently, even while the bot runs.

    Copying the file itself misses what is still in the write-ahead log (the
    moves acknowledged since the last checkpoint).  SQLite's online backup
    reads one consistent snapshot, WAL included, without stopping writers.
    The copy is written to a temporary file next to *target*, checked with
    ``PRAGMA integrity_check``, and renamed over *target*, so *target* is
    never a half-written file.  Raises :class:`StorageError` with a message
    for the operator.
    """
    src = Path(source)
    dst = Path(target)
    if not src.is_file():
        raise StorageError(
            f"There is no database at {src}, so there is nothing to back up. "
            "Check CHAUPAL_DATABASE (and the folder you run this from)."
        )
    if dst.is_dir():
        raise StorageError(
            f"{dst} is a folder; give the backup a file name, like {dst / src.name}."
        )
    live = src.resolve()
    sidecars = {live, live.with_name(live.name + "-wal"), live.with_name(live.name + "-shm")}
    if dst.resolve() in sidecars or (dst.exists() and dst.samefile(src)):
        raise StorageError(
            f"Refusing to write the backup over the live database {src}; choose another file."
        )
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{dst.name}.", suffix=".partial", dir=dst.parent
        )
        os.close(handle)
    except OSError as exc:
        raise StorageError(f"Cannot write the backup {dst}: {exc}.") from exc
    temp = Path(temp_name)
    try:
        games = _copy_online(src, temp)
        # The data must be on disk before the rename makes it the backup.
        with temp.open("rb+") as written:
            os.fsync(written.fileno())
        # -wal/-shm files of an older file at *target* would be applied to
        # the new one the next time it is opened, and damage it.
        for stale in ("-wal", "-shm"):
            dst.with_name(dst.name + stale).unlink(missing_ok=True)
        os.replace(temp, dst)
        _fsync_folder(dst.parent)
    except sqlite3.Error as exc:
        raise StorageError(f"Backing up {src} to {dst} failed: {exc}.") from exc
    except OSError as exc:
        raise StorageError(f"Cannot write the backup {dst}: {exc}.") from exc
    finally:
        temp.unlink(missing_ok=True)
        for sidecar in ("-journal", "-wal", "-shm"):
            temp.with_name(temp.name + sidecar).unlink(missing_ok=True)
    return Backup(source=src, target=dst, size=dst.stat().st_size, games=games)


def _copy_online(src: Path, temp: Path) -> int | None:
    """SQLite's online backup of *src* into the empty file *temp*; returns the game count."""
    # mode=ro: a backup must never create, migrate or otherwise change the live file.
    source = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
    try:
        source.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        copy = sqlite3.connect(temp)
        try:
            # pages=-1 (the default): one step, one read snapshot; in WAL mode
            # the bot keeps writing meanwhile, and the copy never restarts.
            source.backup(copy)
            check = [str(r[0]) for r in copy.execute("PRAGMA integrity_check")]
            if check != ["ok"]:
                raise CorruptDatabase(
                    f"The backup of {src} fails its integrity check "
                    f"({'; '.join(check[:3])}); the database itself may be damaged. "
                    "Nothing was written."
                )
            has_games = copy.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
            ).fetchone()
            if has_games is None:
                return None
            return int(copy.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            copy.close()
    finally:
        source.close()


async def backup_postgres(url: str, target: str | os.PathLike[str]) -> Backup:
    """Copy the PostgreSQL database at *url* into a new SQLite file *target*.

    One REPEATABLE READ snapshot, so the copy is consistent while the bot
    runs; nothing is written to the server (its schema is not migrated).
    The file is written beside *target* first, checked, and renamed over
    it, so *target* is never half-written.  Restore it with ``python -m bot
    migrate-db --from sqlite:FILE --to postgresql://...`` into an empty
    database.  Raises :class:`StorageError` with a message for the operator.
    """
    dst = Path(target)
    if dst.is_dir():
        raise StorageError(
            f"{dst} is a folder; give the backup a file name, like {dst / 'chaupal.sqlite3'}."
        )
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{dst.name}.", suffix=".partial", dir=dst.parent
        )
        os.close(handle)
    except OSError as exc:
        raise StorageError(f"Cannot write the backup {dst}: {exc}.") from exc
    temp = Path(temp_name)  # an empty file: an empty SQLite database
    source = await PostgresDatabase.connect(url, upgrade=False)
    try:
        copy = await SqliteDatabase.open_file(
            temp, migrations=load_migrations()[: source.schema_version]
        )
        try:
            copied = await copy_database(source, copy)
        finally:
            await copy.close()
        _check_copy(temp)
        with temp.open("rb+") as written:
            os.fsync(written.fileno())
        for stale in ("-wal", "-shm"):
            dst.with_name(dst.name + stale).unlink(missing_ok=True)
        os.replace(temp, dst)
        _fsync_folder(dst.parent)
    except OSError as exc:
        raise StorageError(f"Cannot write the backup {dst}: {exc}.") from exc
    finally:
        await source.close()
        for leftover in ("", "-journal", "-wal", "-shm"):
            temp.with_name(temp.name + leftover).unlink(missing_ok=True)
    return Backup(
        source=source.location, target=dst, size=dst.stat().st_size, games=copied.rows.get("games")
    )


def _check_copy(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        check = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
    finally:
        conn.close()
    if check != ["ok"]:
        raise CorruptDatabase(
            f"The backup written to {path} fails its integrity check ({'; '.join(check[:3])})."
        )


def _fsync_folder(folder: Path) -> None:
    """Make a rename in *folder* durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
