"""Chaupal's data copied from one database to another, every row of it.

Two commands use it:

- ``python -m bot migrate-db --from sqlite:FILE --to postgresql://...``
  moves a community to PostgreSQL (:func:`migrate_database`): the source is
  migrated to the latest schema first, the target must be empty, and the
  copy is one transaction on the target, so it is all there or not at all.
- ``python -m bot backup FILE`` of a PostgreSQL database
  (:func:`storage.backups.backup_postgres`) copies one consistent snapshot
  (REPEATABLE READ) with :func:`copy_database` into a new SQLite file at the
  same schema version: a Chaupal database of its own, which ``migrate-db``
  restores into an empty PostgreSQL database.

Tables are copied parents first (:data:`TABLES`, the foreign keys' order), a
page at a time in primary-key order, and the id counters follow: a new game
never gets the id of one deleted before the copy (AUTOINCREMENT's promise).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from storage.backend import Connection, is_postgres_url, sqlite_path
from storage.database import Database
from storage.errors import StorageError
from storage.opening import open_database

__all__ = [
    "ID_TABLES",
    "TABLES",
    "Copied",
    "copy_database",
    "migrate_database",
]

#: Every table of Chaupal's schema, parents before the tables whose foreign
#: keys name them, each with its primary key (the order rows are read in).
#: A migration that adds a table adds it here; tests/storage/test_migrate_db.py
#: checks that this is every table.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("games", ("id",)),
    ("seats", ("game_id", "seat")),
    ("actions", ("game_id", "seq")),
    ("snapshots", ("game_id", "seq")),
    ("messages", ("game_id", "kind")),
    ("outbox", ("game_id", "target")),
    ("outbox_claims", ("game_id",)),
    ("followers", ("game_id", "user_id")),
    ("undo_points", ("game_id", "version")),
    ("takeback_asks", ("game_id",)),
    ("timers", ("game_id", "kind", "seat")),
    ("guild_settings", ("guild_id",)),
    ("vacations", ("user_id", "starts")),
    ("player_settings", ("user_id",)),
    ("ratings", ("guild_id", "engine", "user_id")),
    ("rating_history", ("game_id", "user_id")),
    ("tournaments", ("id",)),
    ("tournament_players", ("tournament_id", "user_id")),
    ("tournament_tables", ("tournament_id", "round", "number")),
)

#: Tables whose ``id`` is handed out by the database (AUTOINCREMENT, identity).
ID_TABLES = ("games", "tournaments")

#: Rows read and written at a time.
PAGE = 1000


@dataclass(frozen=True)
class Copied:
    """What :func:`copy_database` copied: rows per table, in :data:`TABLES`' order."""

    rows: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.rows.values())


async def copy_database(
    source: Database,
    target: Database,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> Copied:
    """Copy every row of *source* into *target*, which must hold none.

    Both must be at the same schema version.  *source* is read in one
    snapshot; *target* is written in one transaction.  *progress* is told
    each table's name and row count once it is copied.  Raises
    :class:`StorageError` with a sentence for the operator.
    """
    if source.location == target.location:
        raise StorageError(f"{source.location} cannot be copied onto itself.")
    if source.schema_version != target.schema_version:
        raise StorageError(
            f"{source.location} is at schema {source.schema_version} and "
            f"{target.location} at schema {target.schema_version}; both must be the same."
        )
    known = [name for name, _ in TABLES]
    for database in (source, target):
        unknown = sorted(set(await database.tables()) - set(known))
        if unknown:
            raise StorageError(
                f"{database.location} holds tables this Chaupal does not copy "
                f"({', '.join(unknown)}); upgrade Chaupal, or move them aside."
            )
    present = set(await source.tables())
    columns = {name: await source.columns(name) for name in known if name in present}
    for name, names in columns.items():
        if sorted(await target.columns(name)) != sorted(names):
            raise StorageError(
                f"The table {name} has other columns in {target.location} than in "
                f"{source.location}; both must be Chaupal's schema {source.schema_version}."
            )
    copied = Copied()
    async with target.transaction() as writer:
        for name in columns:
            if await writer.execute_fetchall(f"SELECT 1 FROM {name} LIMIT 1"):
                raise StorageError(
                    f"{target.location} already holds Chaupal data (its table {name} has "
                    "rows). Copy into an empty database: create a new one, or drop and "
                    "recreate this one."
                )
        async with source.snapshot() as reader:
            for name, key in TABLES:
                if name not in columns:
                    continue
                count = await _copy_table(reader, writer, name, key, columns[name])
                copied.rows[name] = count
                if progress is not None:
                    progress(name, count)
            for name in ID_TABLES:
                if name in columns:
                    used = max(await _last_id(reader, name), await _max_id(writer, name))
                    await _set_last_id(writer, name, used)
    return copied


async def _copy_table(
    reader: Connection,
    writer: Connection,
    table: str,
    key: Sequence[str],
    columns: Sequence[str],
) -> int:
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    order = ", ".join(key)
    where = ""
    last: tuple[object, ...] = ()
    count = 0
    positions = [columns.index(k) for k in key]
    while True:
        page = await reader.execute_fetchall(
            f"SELECT {names} FROM {table}{where} ORDER BY {order} LIMIT {PAGE}", last
        )
        if not page:
            return count
        rows = [tuple(row) for row in page]
        await writer.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
        count += len(rows)
        if len(rows) < PAGE:
            return count
        # The next page: rows after the last one read, by primary key.
        last = tuple(rows[-1][p] for p in positions)
        where = f" WHERE ({order}) > ({', '.join('?' for _ in key)})"


async def _max_id(conn: Connection, table: str) -> int:
    rows = await conn.execute_fetchall(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
    return int(rows[0][0])


async def _last_id(conn: Connection, table: str) -> int:
    """The highest id the table ever handed out (its rows may be gone)."""
    if conn.dialect == "sqlite":
        rows = await conn.execute_fetchall(
            "SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)
        )
    else:
        rows = await conn.execute_fetchall(
            "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, 'id')::regclass)",
            (table,),
        )
    return int(rows[0][0] or 0) if rows else 0


async def _set_last_id(conn: Connection, table: str, used: int) -> None:
    """The next id *table* hands out is ``used + 1``."""
    if conn.dialect == "sqlite":
        done = await conn.execute(
            "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (used, table)
        )
        if done.rowcount == 0:
            await conn.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, used)
            )
    else:
        await conn.execute_fetchall(
            "SELECT setval(pg_get_serial_sequence(?, 'id'), ?, ?)",
            (table, max(used, 1), used > 0),
        )


# ----------------------------------------------------------------- migrate-db


async def migrate_database(
    source: str,
    target: str,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> tuple[str, str, Copied]:
    """Open *source* (migrated to the latest schema first) and *target* (an
    empty database, migrated too), and copy the one into the other.
    Returns both locations (passwords hidden) and what was copied."""
    if not is_postgres_url(source):
        path = Path(sqlite_path(source))
        if not path.is_file():
            raise StorageError(
                f"There is no database at {path}, so there is nothing to migrate. "
                "Check --from (and the folder you run this from)."
            )
    source_db = await open_database(source)
    try:
        target_db = await open_database(target)
        try:
            copied = await copy_database(source_db, target_db, progress=progress)
            return source_db.location, target_db.location, copied
        finally:
            await target_db.close()
    finally:
        await source_db.close()
