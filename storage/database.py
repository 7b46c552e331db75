"""The database the stores use, whichever engine holds it: an abstract base
class, which its two drivers (:mod:`storage.sqlite`, :mod:`storage.postgres`)
implement.

:func:`storage.opening.open_database` takes a *target*, what
``CHAUPAL_DATABASE`` holds, and returns a :class:`Database`: a SQLite path
(or ``sqlite:PATH``) opens a :class:`storage.sqlite.SqliteDatabase`, a
``postgresql://`` URL a :class:`storage.postgres.PostgresDatabase`.  Both
bring the schema up to date first (:mod:`storage.schema`), and both hand the
stores a :class:`storage.backend.Connection`.

The stores use only what this class offers: :meth:`Database.transaction`,
:meth:`Database.read` and :attr:`Database.dialect`, and the connection those
hand out; the drivers know nothing of the stores, and this module knows
nothing of the drivers.

A failure of the file or the server (read-only, full, unreachable...) is
raised as :class:`storage.errors.StorageUnavailable` while the bot runs,
and as :class:`storage.errors.DatabaseNotWritable` when it opens.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from typing import ClassVar

from storage.backend import Connection, Dialect

__all__ = ["Database"]


class Database(ABC):
    """Chaupal's database, opened with :func:`storage.opening.open_database`
    and closed with :meth:`close`: one driver's connection(s) to it."""

    #: Which engine holds the data.
    dialect: ClassVar[Dialect]

    def __init__(self, location: str, schema_version: int) -> None:
        # Use open_database(); this only stores what the driver prepared.
        self.location = location
        """Where the data is, for messages and logs: a file, or a URL without its password."""
        self._schema_version = schema_version

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied."""
        return self._schema_version

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.transaction() as conn:`` -- one write transaction.

        It commits when the block ends normally and rolls back when it raises
        (the exception propagates).  Not re-entrant: never open a
        transaction or a read inside another in the same task.
        """

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.read() as conn:`` -- reads that never see a half-done write."""

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.snapshot() as conn:`` -- a read-only transaction: every
        statement in it sees the same committed state (backups, copies)."""

    @abstractmethod
    async def tables(self) -> list[str]:
        """Chaupal's tables, by name (not the engine's own, nor the schema marker)."""

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """The columns of *table*, in their order."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection(s) (waits for a running transaction). Safe to call twice."""

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
