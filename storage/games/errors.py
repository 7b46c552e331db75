"""Why the game store refused a read or a write: each a
:class:`storage.errors.StorageError` whose message may be shown to players
(it never quotes a stored row, which may hold a hidden hand).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from storage.errors import StorageError
from storage.games.records import GameStatus

__all__ = [
    "TARGET_TEXT",
    "GameNotFound",
    "NotSeated",
    "SeatTaken",
    "StaleAsk",
    "StaleVersion",
    "UnreadableRow",
    "WrongStatus",
    "decoding",
]

class GameNotFound(StorageError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game #{game_id}; it may have been deleted.")
        self.game_id = game_id


class UnreadableRow(StorageError):
    """A stored row of a game cannot be read (text that is not UTF-8: the
    file was damaged or edited by hand).  The message never quotes the row,
    which may hold a hidden hand."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"Game #{game_id} could not be restored from the database. "
            "A moderator can end it with /game resign."
        )
        self.game_id = game_id


_UNDECODABLE = "Could not decode to UTF-8"
"""How sqlite3 starts the OperationalError for a TEXT value it cannot decode."""


@contextmanager
def decoding(game_id: int) -> Iterator[None]:
    """Turn a row that cannot be decoded into :class:`UnreadableRow`."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if not str(exc).startswith(_UNDECODABLE):
            raise
        # sqlite3's message quotes the row: neither chained nor logged.
        raise UnreadableRow(game_id) from None


class StaleVersion(StorageError):
    MESSAGE = "That board is out of date: the game has moved on since. Use the newest board."

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(self.MESSAGE)
        self.game_id = game_id
        self.expected = expected
        self.current = current


class StaleAsk(StorageError):
    """A takeback request changed since the writer read it (another
    agreement came first): nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__("That request changed meanwhile (someone else answered it); try again.")
        self.game_id = game_id


class SeatTaken(StorageError):
    def __init__(self, game_id: int, user_id: int, seat: int) -> None:
        super().__init__(f"That player already has a seat (seat {seat + 1}) in game #{game_id}.")
        self.game_id = game_id
        self.user_id = user_id
        self.seat = seat


class NotSeated(StorageError):
    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"That player has no seat in game #{game_id}.")
        self.game_id = game_id
        self.user_id = user_id


_STATUS_TEXT: dict[GameStatus, str] = {
    "lobby": "has not started yet",
    "active": "has already started",
    "finished": "is already over",
    "abandoned": "was abandoned",
}


class WrongStatus(StorageError):
    """The game's status does not allow this (e.g. a second "Start", a move after the end)."""

    def __init__(self, game_id: int, status: GameStatus, what: str) -> None:
        super().__init__(f"Game #{game_id} {_STATUS_TEXT[status]}, so it cannot {what}.")
        self.game_id = game_id
        self.status = status


TARGET_TEXT: dict[GameStatus, str] = {
    "lobby": "go back to its lobby",
    "active": "be started",
    "finished": "be finished",
    "abandoned": "be abandoned",
}
