"""What the game store hands back: a game's row, its seats, its log entries,
what was delivered of it, its undo points and takeback request.

Status only moves forward: ``lobby -> active -> finished | abandoned`` (a
lobby may also go straight to ``finished`` or ``abandoned``); ``finished``
and ``abandoned`` are final.  JSON values (options, outcome) come back as
what :func:`json.loads` gives (so dict keys are always strings and tuples
come back as lists).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

__all__ = [
    "ALL_STATUSES",
    "FINAL_STATUSES",
    "LIVE_STATUSES",
    "MAX_AUTOMATIC_PLAYERS",
    "SQLITE_INTEGERS",
    "Controller",
    "GameRecord",
    "GameStatus",
    "LogEntry",
    "MovesMade",
    "OutboxRow",
    "SeatRecord",
    "TakebackAsk",
    "UndoPoint",
    "automatic_player_id",
    "is_automatic_player",
    "storable_id",
]

GameStatus = Literal["lobby", "active", "finished", "abandoned"]

ALL_STATUSES: tuple[GameStatus, ...] = get_args(GameStatus)
LIVE_STATUSES: tuple[GameStatus, ...] = ("lobby", "active")
FINAL_STATUSES: tuple[GameStatus, ...] = ("finished", "abandoned")


@dataclass(frozen=True)
class GameRecord:
    id: int
    engine: str
    engine_revision: int
    options: dict[str, Any]
    status: GameStatus
    #: Number of entries in the action log (seq of the last one); 0 before any action.
    version: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: int
    created_at: float
    updated_at: float
    outcome: dict[str, Any] | None
    #: Options the service reads, not the engine (clock, timeout, reminders).
    table_options: dict[str, Any] = field(default_factory=dict)
    #: When a moderator paused the game; None while it runs.
    paused_at: float | None = None


Controller = Literal["human", "auto"]


MAX_AUTOMATIC_PLAYERS = 1000
"""Automatic players asked for in a lobby sit as users -1, -2, ... of their
game: Discord ids (snowflakes) are positive, so these can never be a person
(``seats.user_id`` is NOT NULL and unique per game)."""


def automatic_player_id(n: int) -> int:
    """The user id of a game's ``n``-th automatic player (1, 2, ...)."""
    if not 1 <= n <= MAX_AUTOMATIC_PLAYERS:
        raise ValueError(f"no automatic player {n}")
    return -n


def is_automatic_player(user_id: int) -> bool:
    """Whether a seat's user id is an automatic player's, not a person's."""
    return user_id < 0


@dataclass(frozen=True)
class SeatRecord:
    game_id: int
    seat: int
    user_id: int
    display_name: str
    #: ``auto`` once the seat passed to the automatic player.
    controller: Controller = "human"
    #: 1 for the first seat handed to the automatic player, 2 for the next...
    left_order: int | None = None
    #: Consecutive timeouts under the ``substitute`` policy.
    timeouts: int = 0
    #: Seconds left on the seat's clock (None: no clock).
    clock_left: float | None = None
    #: When the clock started running (None: stopped).
    clock_since: float | None = None

    @property
    def automatic_player(self) -> bool:
        """An automatic player asked for in the lobby (``/game new bots:N``),
        not a person: never pinged, DMed, reminded or rated."""
        return is_automatic_player(self.user_id)


@dataclass(frozen=True)
class LogEntry:
    game_id: int
    seq: int
    actor: int
    action: str
    narration: str
    private_to: int | None
    created_at: float


@dataclass(frozen=True)
class OutboxRow:
    """What a game last delivered to one target (migration 0002)."""

    #: ``"board"`` or ``"seat:<n>"``.
    target: str
    #: The game version last delivered to this target.
    version: int
    #: Board: the seats the posted board waits on.
    awaited: frozenset[int] = frozenset()
    #: Board: the final board of a finished game was posted.
    over: bool = False
    #: Board: the board message showed a simultaneous phase.
    simultaneous: bool = False
    #: Seat: fingerprint of the private view and choices last delivered.
    digest: str = ""
    #: Seat: the channel was told this player's DMs are closed.
    notice: bool = False


@dataclass(frozen=True)
class UndoPoint:
    """What taking back one person's move needs that the log does not hold
    (issue 31, migration 0011): every seat's clock just before the move.
    Written with the move, for moves a person made (the automatic player's
    and a timeout's are nobody's to take back)."""

    #: The game's version before the move: what taking it back returns to.
    version: int
    seat: int
    #: Who held the seat then: a seat handed over since is not theirs to undo.
    user_id: int
    #: ``{seat: (clock_left, clock_since)}`` before the move (empty: no clock).
    clocks: Mapping[int, tuple[float | None, float | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class TakebackAsk:
    """A request to take back a move after others moved (issue 31): every
    other person at the table must agree.  It holds only while the game is
    at ``version``."""

    seat: int
    #: The version the game would return to.
    target: int
    #: The game's version when asked: any action since makes it void.
    version: int
    agreed: frozenset[int] = frozenset()
    asked_at: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class MovesMade:
    """The players' moves in one game (:meth:`GameStore.moves_made`)."""

    count: int
    #: When the last of them was made.
    last_at: float


SQLITE_INTEGERS = range(-(2**63), 2**63)
"""What an INTEGER column holds (a BIGINT on PostgreSQL: the same range);
binding anything else raises OverflowError."""


def storable_id(value: int) -> bool:
    """Whether ``value`` could be a stored row's id.  Ids come from players
    (command options, custom_ids): one outside SQLite's integer range names
    nothing, so a read by it finds nothing instead of raising."""
    return value in SQLITE_INTEGERS
