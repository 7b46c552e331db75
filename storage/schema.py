"""Chaupal's schema: the numbered migrations both engines apply.

The schema is created and upgraded by the SQL files in
``storage/migrations`` (``0001_initial.sql``, ``0002_....sql``...), applied
in order, each in its own transaction, by the driver that holds the data
(:mod:`storage.sqlite`, :mod:`storage.postgres`).

A migration is written once, in the SQL both engines accept.  Where they
differ, a dialect block holds each engine's version of it::

    -- dialect sqlite
    CREATE TRIGGER ... END;
    -- dialect postgresql
    CREATE FUNCTION ... ; CREATE TRIGGER ...;
    -- dialect end

Each engine runs only its own blocks (:meth:`Migration.text_for`);
PostgreSQL also reads SQLite's column types as its own
(:func:`storage.postgres.postgres_migration`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from storage.backend import Dialect

__all__ = [
    "APPLICATION_ID",
    "DIALECTS",
    "Migration",
    "check_numbering",
    "dialect_text",
    "load_migrations",
]

#: Written to SQLite's ``PRAGMA application_id`` so a Chaupal file can be told
#: apart from another program's database ("CHPL" in ASCII); PostgreSQL's
#: migrations take it as their advisory lock.
APPLICATION_ID = 0x4348504C

_MIGRATION_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered schema step: ``NNNN_name.sql``."""

    number: int
    name: str
    sql: str

    def text_for(self, dialect: Dialect) -> str:
        """The script *dialect* runs: :attr:`sql` without the other engine's
        dialect blocks (see the module's docstring)."""
        return dialect_text(self.sql, dialect)


_DIALECT_MARK = re.compile(r"^\s*--\s*dialect\s+(\S+)\s*$", re.IGNORECASE)
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")
"""The engines a migration may hold a block for."""


def dialect_text(script: str, dialect: Dialect) -> str:
    """*script* as *dialect* runs it: the lines of another dialect's block
    (``-- dialect <name>`` ... ``-- dialect end``) are left out.

    A block may follow another directly (``-- dialect sqlite`` ... ``--
    dialect postgresql`` ... ``-- dialect end``).  An unknown dialect, the
    same dialect twice in a row, an ``end`` outside a block or a block left
    open is a mistake in the migration: :class:`RuntimeError`.
    """
    kept: list[str] = []
    inside: str | None = None
    for line in script.splitlines(keepends=True):
        mark = _DIALECT_MARK.match(line)
        if mark is not None:
            word = mark.group(1).lower()
            if word == "end" and inside is not None:
                inside = None
            elif word in DIALECTS and word != inside:
                inside = word
            else:
                raise RuntimeError(f"misplaced dialect mark in a migration: {line.strip()!r}")
            kept.append(line)
        elif inside is None or inside == dialect:
            kept.append(line)
    if inside is not None:
        raise RuntimeError(f"a migration's '-- dialect {inside}' block has no '-- dialect end'")
    return "".join(kept)


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
    check_numbering(found)
    for migration in found:
        for dialect in DIALECTS:
            migration.text_for(dialect)  # a broken dialect block fails here, not half-way
    return found


def check_numbering(migrations: Sequence[Migration]) -> None:
    """Refuse migrations not numbered 1, 2, 3... (:class:`RuntimeError`)."""
    numbers = [m.number for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(
            f"storage migrations must be numbered 1..n without gaps or duplicates, got {numbers}"
        )
