"""What the game service hands out: a live game as it holds it, what one
request changed, a reminder to send, and the refusals it raises; and the
per-game lock every change takes.  Value types only: the writing is
:class:`bot.service.GameService`'s."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.choices import MenuOption
from bot.engines.core import (
    Determinizes,
    Engine,
    GameError,
    Outcome,
    Seat,
    Step,
    owed_decisions,
)
from bot.tenure import holder, readable_seat, tenures
from bot.timekeeping import TableOptions
from storage.games import GameRecord, SeatRecord

__all__ = [
    "RECENT_STATES",
    "GameBroken",
    "GameLock",
    "LiveGame",
    "MoveResult",
    "PathResult",
    "Player",
    "Reminder",
    "ServiceError",
    "StaleBoard",
    "TakebackRequest",
    "TimeoutKind",
]

RECENT_STATES = 16
"""Recent states kept per live game for reading older menus; older ones are
rebuilt from storage when a menu that old is used."""


class GameLock:
    """A game's lock, re-entrant within one task.

    Everything that changes a game holds its lock, and loading a game that
    is not cached takes it too; a task that already holds it (the keeper
    reading a game it locked, after a restart emptied the cache) must not
    wait for itself for ever.
    """

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    async def __aenter__(self) -> GameLock:
        task = asyncio.current_task()
        if task is not None and self._owner is task:
            self._depth += 1
            return self
        await self._lock.acquire()
        self._owner, self._depth = task, 1
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()

    def locked(self) -> bool:
        return self._lock.locked()


class ServiceError(GameError):
    """A request the service refuses; the message is shown to the player."""


class StaleBoard(ServiceError):
    """A button from an older board was clicked."""


class GameBroken(ServiceError):
    """A stored game can no longer be rebuilt (corrupt log or snapshot)."""


@dataclass(frozen=True)
class Player:
    user_id: int
    display_name: str


@dataclass
class LiveGame:
    """A game as the service holds it: its record, seats, engine and state."""

    record: GameRecord
    seats: list[SeatRecord]
    engine: Engine[Any, Any, Any]
    state: Any | None
    """``None`` while the game is a lobby."""
    outcome: Outcome | None = None
    recent: dict[int, Any] = field(default_factory=dict)
    """States at recent versions, so a menu drawn a few moves ago can be
    read again (see :meth:`GameService.play_path`)."""

    def remember(self, version: int, state: Any) -> None:
        self.recent[version] = state
        while len(self.recent) > RECENT_STATES:
            del self.recent[min(self.recent)]

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def names(self) -> list[str]:
        return [s.display_name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_of(self, seat: Seat) -> int:
        return self.seats[seat].user_id

    def readable_seat(self, user_id: int) -> Seat | None:
        """The seat whose secrets ``user_id`` may read now: the seat they
        hold, never one they left (:func:`bot.tenure.readable_seat`)."""
        return readable_seat(tenures(self.seats), user_id)

    def holder(self, seat: Seat) -> int | None:
        """Who may read ``seat``'s secrets now (:func:`bot.tenure.holder`):
        None once the automatic player has it."""
        return holder(self.seats, seat)

    @property
    def hides_information(self) -> bool:
        """Whether the game keeps anything from some seat (a hand, a screen,
        a secret set-up): its engine deals what a seat cannot see
        (``Determinizes``).  Where everything is on the board, a seat's view
        holds nothing the public one does not: no private DMs, and an
        automatic player's thinking time tells nothing (issue 30)."""
        return isinstance(self.engine, Determinizes)

    def awaits_people(self) -> bool:
        """Whether a person owes the game a decision now, public or asked
        privately: when none does, only automatic seats may act, and the
        board offers nothing to press (issue 30).  A person who committed
        and may still change their mind owes nothing: their menu is in
        their own DM."""
        if self.state is None or self.is_over:
            return False
        public, private = owed_decisions(self.engine, self.state)
        return any(not self.is_auto(s) for s in public | private)

    @property
    def solo(self) -> bool:
        """One person plays, every other seat is automatic (a lobby's
        automatic players, or seats people left): nobody else reads the
        board between that person's decisions (issue 30)."""
        held = [s for s in range(len(self.seats)) if self.holder(s) is not None]
        return len(held) == 1 and len(self.seats) > 1

    def is_auto(self, seat: Seat) -> bool:
        """The seat passed to the automatic player."""
        return 0 <= seat < len(self.seats) and self.seats[seat].controller == "auto"

    @property
    def table(self) -> TableOptions:
        """The game's clock, timeout policy and reminders."""
        return TableOptions.from_json(self.record.table_options)

    @property
    def paused(self) -> bool:
        return self.record.paused_at is not None

    @property
    def is_over(self) -> bool:
        return self.record.status in ("finished", "abandoned")


TimeoutKind = Literal["substitute", "skip", "lost", "seat", "private"]
"""What a timeout did: the automatic player moved for the seat, the seat
passed, lost the game (two players), passed to the automatic player for
good (more players), or a private decision was made for it quietly."""


@dataclass(frozen=True)
class MoveResult:
    """What one request changed, for delivery."""

    game: LiveGame
    before: Any | None
    steps: tuple[Step, ...]
    actor: Seat | None
    version: int = -1
    """The game's version right after this request (``game`` is live and
    may have moved on by the time delivery runs)."""
    timeout: TimeoutKind | None = None
    """Set when the move is a seat's time running out: what happened."""
    takeback: int | None = None
    """The version the mover may take this move back to on their own, now
    (the **Take back** button under its "Played: …"; issue 31); None when
    they may not (takebacks are off, chance followed it, it showed them
    something hidden, the game is over)."""
    takeback_until: float | None = None
    """When the chance that follows the move is made (its throw waits for
    a takeback: ``bot.takeback.THROW_GRACE``); None when nothing waits."""
    undone: str | None = None
    """Set when this request took a move back: that move's public narration
    (``{pN}`` tags), what the channel saw of it."""


@dataclass(frozen=True)
class Reminder:
    """A reminder to send now: who, in which game, and what to say."""

    game: LiveGame
    seat: Seat
    left: float | None
    """Time left before the seat's deadline (None: no clock)."""
    last_one: bool
    """Everyone else in a simultaneous phase has chosen."""
    count: int
    """Reminders already sent for this wait (for the message nonce)."""
    deadline: float | None = None
    """When the seat's time runs out (None: no clock)."""
    private: bool = False
    """The decision is one the channel must not know about: the reminder
    goes by DM or not at all, never as a mention in the channel."""


@dataclass(frozen=True)
class PathResult:
    """Where a menu path led: a move, or the next menu to show."""

    result: MoveResult | None
    options: list[MenuOption]
    path: tuple[int, ...]
    """The path to draw the next menu at (rebased to ``version``)."""
    version: int
    depth: int = 0
    """The menu level ``options`` are at (how its selects are divided)."""


@dataclass(frozen=True)
class TakebackRequest:
    """A takeback that needs everyone's agreement (others moved since the
    move): who asked, what it would undo, and who has agreed so far
    (issue 31).  It holds while the game stays at ``version``."""

    game: LiveGame
    seat: Seat
    """Who asked."""
    target: int
    """The version the game would return to."""
    version: int
    """The game's version when asked: any action since makes it void."""
    asked: frozenset[Seat]
    """Every other seat held by a person: each must agree."""
    agreed: frozenset[Seat]
    move: str
    """The move taken back, as the channel saw it (its public narration)."""
    undoes: int
    """How many public moves of other players it undoes too."""
    new: bool = True
    """False when the same request was already waiting (asked again)."""
    declined_by: Seat | None = None
    """The seat that declined it (the request is gone then)."""

    @property
    def waiting_for(self) -> frozenset[Seat]:
        return self.asked - self.agreed
