"""The errors the storage layer raises on purpose: :class:`StorageError` and
the database's own family (a file or server that is damaged, too new, not
writable, or failing while the bot runs).

Each store adds its own kinds beside its code (:mod:`storage.games.errors`,
:class:`storage.ratings.StaleRating`, :class:`storage.tournaments.TournamentClosed`);
all are :class:`StorageError`, whose message the table shows players as it is.
"""

from __future__ import annotations

__all__ = [
    "PLAYER_MESSAGES",
    "CorruptDatabase",
    "DatabaseNotWritable",
    "DatabaseTooNew",
    "StorageError",
    "StorageUnavailable",
]


class StorageError(Exception):
    """Base class of every error the storage layer raises on purpose."""


class CorruptDatabase(StorageError):
    """The database file is not SQLite, or fails its integrity check."""


class DatabaseTooNew(StorageError):
    """The file was written by a newer Chaupal with a schema this one does not know."""


class DatabaseNotWritable(StorageError):
    """At start-up: the file can be read but not written (read-only, full, locked...)."""


class StorageUnavailable(StorageError):
    """While running: the file failed under a read or write; nothing was changed.

    The message is for players (the table shows StorageError messages as they
    are), so it never holds a path or SQL; :attr:`problem` is one of
    ``read-only``, ``full``, ``busy``, ``disk error``, ``damaged`` and (a
    database server) ``unreachable``.
    """

    def __init__(self, problem: str) -> None:
        super().__init__(PLAYER_MESSAGES[problem])
        self.problem = problem


#: What players are told when the storage failed under a read or write, by
#: :attr:`StorageUnavailable.problem` (both engines map their failures to these).
PLAYER_MESSAGES: dict[str, str] = {
    "read-only": "The bot's storage is read-only right now, so nothing was changed. "
    "Tell the bot's operator.",
    "full": "The bot's storage is full, so nothing was changed. Tell the bot's operator.",
    "busy": "The bot's storage is busy (another program is holding it), so nothing was "
    "changed. Try again in a moment, and tell the bot's operator if it keeps happening.",
    "disk error": "The bot's storage could not be read or written (a disk error), so "
    "nothing was changed. Tell the bot's operator.",
    "damaged": "The bot's storage is damaged, so nothing was changed. Tell the bot's operator.",
    # The connection to a database server broke.  If it broke during COMMIT
    # the server may have saved the change, so this one does not promise.
    "unreachable": "The bot's storage could not be reached just now, so this may not have "
    "been saved. Look at the board, try again in a moment, and tell the bot's operator "
    "if it keeps happening.",
}

