"""The game store: everything the service keeps about games, in one object
made of its parts, one per concept, over one :class:`storage.database.Database`."""

from __future__ import annotations

from storage.games.lifecycle import GameLifecycle
from storage.games.outbox import GameOutbox
from storage.games.reads import GameReads
from storage.games.writer import GameWriter

__all__ = ["GameStore"]


class GameStore(GameReads, GameLifecycle, GameWriter, GameOutbox):
    """Async access to games; one per :class:`storage.database.Database`.

    - :class:`GameReads`: games, seats, the log, snapshots, undo points;
    - :class:`GameLifecycle`: lobbies, seats, start, end, threads, deletion;
    - :class:`GameWriter`: the one version-checked write of an action;
    - :class:`GameOutbox`: tracked messages, the outbox, delivery claims.
    """
