"""What one write of the game store takes: the log entries a move appends,
and everything else one action changes in a running game
(:class:`GameChange`), written by :meth:`storage.games.writer.GameWriter.commit`
in one transaction guarded by the game's version; and what that write
hands back (:class:`Written`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.games.records import GameRecord, GameStatus, SeatRecord, TakebackAsk, UndoPoint
from storage.timekeeping import TimerPlan

__all__ = [
    "SEAT_PLAY",
    "GameChange",
    "NewEntry",
    "SeatHandover",
    "TakebackAskChange",
    "UndoChange",
    "Written",
]

@dataclass(frozen=True)
class NewEntry:
    """One action log entry, as the service appends it."""

    #: A seat, or -1 for the chance player.
    actor: int
    #: The action's text form (may be secret: see ``private_to``).
    action: str
    #: Public one-line account, with ``{p0}``-style seat placeholders.
    narration: str
    #: None = public; a seat = only that player may read ``action``; -1 = nobody.
    private_to: int | None


@dataclass(frozen=True)
class SeatHandover:
    """A seat handed from one person to another (``/moderate game replace``):
    played by a person again, its streak of timeouts forgotten, its clock
    kept; what was delivered to the seat (``seat:<n>``) is forgotten too,
    so the new player is sent the whole private view."""

    seat: int
    old_user_id: int
    new_user_id: int
    display_name: str


@dataclass(frozen=True)
class UndoChange:
    """How a :class:`GameChange` changes the game's undo points: the move's
    own point added, and those no takeback can reach any more forgotten
    (before a chance entry: a takeback never crosses chance; from a
    takeback's version on: the moves it undid)."""

    add: UndoPoint | None = None
    forget_before: int | None = None
    forget_from: int | None = None


@dataclass(frozen=True)
class TakebackAskChange:
    """A request written (``new``) or removed (None) in a :class:`GameChange`,
    compared with the one the writer read (``expected``, None: none): two
    agreements given at once must not lose one (:class:`StaleAsk`)."""

    expected: TakebackAsk | None
    new: TakebackAsk | None


SEAT_PLAY = frozenset({"controller", "left_order", "timeouts", "clock_left", "clock_since"})
"""The seat columns a :class:`GameChange` may change (how a seat is played
and its clock); who sits in a seat changes only by a :class:`SeatHandover`."""


@dataclass(frozen=True)
class GameChange:
    """Everything one action changes in a running game, written by
    :meth:`GameStore.commit` in one transaction guarded by the version the
    action was computed against (issue 29): the log entries (a move, the
    chance it brought, the table's events), a snapshot, the status and
    outcome, how seats are played and their clocks, a seat handed over, the
    pause, and the game's timers.  An action that loses the race to another
    writer therefore leaves nothing behind: no seat passed to the automatic
    player without its ``@left``, no clock stopped for a move never stored."""

    entries: Sequence[NewEntry] = ()
    snapshot: Any | None = None
    status: GameStatus | None = None
    outcome: dict[str, Any] | None = None
    #: ``{seat: {column: value}}`` over :data:`SEAT_PLAY`.
    seats: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    handover: SeatHandover | None = None
    #: ``(paused_at,)`` to pause (a time) or resume (None); None: unchanged.
    pause: tuple[float | None] | None = None
    #: The game's timers after the change, from those stored (read inside
    #: the transaction, locked); None: the timers stay as they are.
    timers: TimerPlan | None = None
    #: The undo points a move adds or leaves behind (issue 31).
    undo: UndoChange | None = None
    #: A takeback request asked, agreed to or settled (issue 31).
    ask: TakebackAskChange | None = None


@dataclass(frozen=True)
class Written:
    """What :meth:`GameStore.commit` wrote: the game's row and seats as they
    are now, and whether its timers changed (the scheduler looks again)."""

    record: GameRecord
    seats: list[SeatRecord]
    timers_changed: bool = False
