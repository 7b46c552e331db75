"""What the stores need from a database connection, whichever engine holds it.

Chaupal stores its data in SQLite (the embedded default, through aiosqlite) or
in PostgreSQL (through asyncpg).  The stores write each statement once, in
the SQL both engines accept (``?`` placeholders, ``INSERT ... ON CONFLICT``,
``RETURNING``, no engine-only functions), and run it through a
:class:`Connection`: :class:`storage.sqlite.SqliteConnection` hands it to
aiosqlite as it is, :class:`storage.postgres.PostgresConnection` rewrites the
placeholders to ``$1 .. $n`` once per distinct statement.

Where the engines must differ, the difference is written once: here
(:func:`for_update`, the errors both raise) or in a migration's dialect
block (:mod:`storage.schema`).  A *target* is what ``CHAUPAL_DATABASE``
holds: a SQLite path (``sqlite:PATH`` also works) or a ``postgresql://`` URL.
"""

from __future__ import annotations

import re
import sqlite3
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal, Protocol, overload

import asyncpg

__all__ = [
    "INTEGRITY_ERRORS",
    "Connection",
    "Dialect",
    "Executed",
    "Row",
    "for_update",
    "is_foreign_key_violation",
    "is_postgres_url",
    "redact",
    "scrub",
    "secrets_of",
    "sqlite_path",
]

Dialect = Literal["sqlite", "postgresql"]


class Row(Protocol):
    """One result row, read by column name or by position (``sqlite3.Row``
    and ``asyncpg.Record`` both are)."""

    @overload
    def __getitem__(self, key: int, /) -> Any: ...
    @overload
    def __getitem__(self, key: str, /) -> Any: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...


class Executed(Protocol):
    """What running one statement reports."""

    @property
    def rowcount(self) -> int:
        """Rows the statement inserted, updated or deleted (-1 for other statements)."""
        ...


class Connection(Protocol):
    """A connection inside :meth:`Database.transaction` or :meth:`Database.read`.

    Statements use ``?`` placeholders, one per value in *parameters*.
    """

    @property
    def dialect(self) -> Dialect: ...

    async def execute(self, sql: str, parameters: Iterable[Any] = (), /) -> Executed: ...

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] = (), /
    ) -> Sequence[Row]: ...

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> None: ...


def for_update(conn: Connection, *, skip_locked: bool = False, of: str | None = None) -> str:
    """The clause that ends a ``SELECT`` whose rows a write transaction is
    about to change on the strength of what it read.

    PostgreSQL runs transactions side by side (READ COMMITTED): `` FOR
    UPDATE`` locks the rows read until the transaction ends, so a second
    writer waits, then reads the new values.  SQLite's write transaction
    already holds the whole database, and has no such clause: ``""``.

    ``skip_locked``: a process claiming a batch of work (issue 20) passes
    over rows another process's claim is locking right now instead of
    waiting for them (they are that process's work); on SQLite, whose one
    writer claims alone, there is nothing to skip.  ``of``: the table (or
    alias) whose rows are locked, when the ``SELECT`` joins others.
    """
    if conn.dialect != "postgresql":
        return ""
    return " FOR UPDATE" + (f" OF {of}" if of else "") + (" SKIP LOCKED" if skip_locked else "")


#: What a broken constraint raises (a foreign key, a primary key, NOT NULL,
#: a CHECK, the action log's append-only triggers), on either engine.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.IntegrityConstraintViolationError,
)

_SQLITE_CONSTRAINT_FOREIGNKEY = 787
_FOREIGN_KEY_VIOLATION = "23503"


def is_foreign_key_violation(exc: BaseException) -> bool:
    """Whether *exc* is a write refused because a referenced row is missing."""
    if isinstance(exc, sqlite3.IntegrityError):
        return getattr(exc, "sqlite_errorcode", None) == _SQLITE_CONSTRAINT_FOREIGNKEY
    return getattr(exc, "sqlstate", None) == _FOREIGN_KEY_VIOLATION


# ----------------------------------------------------------------- targets

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_PREFIX = "sqlite:"


def is_postgres_url(target: object) -> bool:
    """Whether *target* is a ``postgresql://`` (or ``postgres://``) URL."""
    return isinstance(target, str) and target.strip().lower().startswith(_POSTGRES_SCHEMES)


def sqlite_path(target: str) -> str:
    """The file of a SQLite target: ``sqlite:PATH`` or a plain path."""
    text = target.strip()
    if text.lower().startswith(_SQLITE_PREFIX):
        return text[len(_SQLITE_PREFIX) :]
    return text


def redact(url: str) -> str:
    """*url* with its password (in the user part or a ``password=`` query
    parameter) replaced by ``***``: safe to print and log."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "a PostgreSQL URL that cannot be read"
    netloc = parts.netloc
    if "@" in netloc:
        user, _, hosts = netloc.rpartition("@")
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{hosts}"
    query = re.sub(r"(^|&)password=[^&]*", r"\1password=***", parts.query)
    return (
        f"{parts.scheme}://{netloc}{parts.path}"
        + (f"?{query}" if query else "")
        + (f"#{parts.fragment}" if parts.fragment else "")
    )


def secrets_of(url: str) -> list[str]:
    """The password(s) written in *url*, to scrub from any message that
    might echo them (longest first; empty when there is none)."""
    found: list[str] = []
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return found
    if parts.password:
        found += [parts.password, urllib.parse.unquote(parts.password)]
    for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        if key == "password" and value:
            found.append(value)
    return sorted({s for s in found if s}, key=len, reverse=True)


def scrub(text: str, secrets: Sequence[str]) -> str:
    """*text* with every one of *secrets* replaced by ``***``."""
    for secret in secrets:
        text = text.replace(secret, "***")
    return text
