"""Opening the database ``CHAUPAL_DATABASE`` names, with the driver its
target asks for.

A *target* is a SQLite file (a path, or ``sqlite:PATH``) or a
``postgresql://`` URL (:mod:`storage.backend`).  :func:`open_database` is
the one place that knows both drivers; they build on
:class:`storage.database.Database` and know nothing of each other, as the
stores know nothing of them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from storage.backend import is_postgres_url, sqlite_path
from storage.database import Database
from storage.postgres import PostgresDatabase
from storage.schema import Migration
from storage.sqlite import SqliteDatabase

__all__ = ["open_database"]


async def open_database(
    target: str | os.PathLike[str],
    *,
    migrations: Sequence[Migration] | None = None,
) -> Database:
    """Open (or create) the database *target* names and bring its schema up to date.

    *target* is a SQLite file (a path, or ``sqlite:PATH``) or a
    ``postgresql://`` URL.  *migrations* replaces the packaged migrations
    (for tests only).

    Raises :class:`storage.errors.CorruptDatabase` if the file is not SQLite
    or fails ``PRAGMA quick_check``, :class:`storage.errors.DatabaseTooNew`
    if a newer Chaupal wrote it, :class:`storage.errors.DatabaseNotWritable`
    if it cannot be written, and :class:`storage.errors.StorageError` for a
    database that cannot be opened at all or belongs to another program.
    """
    if is_postgres_url(target):
        return await PostgresDatabase.connect(str(target).strip(), migrations=migrations)
    path = sqlite_path(target) if isinstance(target, str) else os.fspath(target)
    return await SqliteDatabase.open_file(path, migrations=migrations)
