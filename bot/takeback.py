"""Taking a move back (issue 31): the log's takeback entry, replaying a log
that holds one, whether a move showed anyone something hidden, and the
clocks a takeback restores.  Pure: the service decides and writes
(:meth:`bot.service.GameService.take_back`).

**The entry.**  ``@takeback:<version>`` (actor: the seat that took its move
back) is a table event meaning *the game is again as it was at
<version>*: the state after the first ``<version>`` log entries.  The log
keeps what happened, the taken-back moves included; everything that
replays a log (the service's loading, ``bot.replay``'s records and frames,
the load test's checks) follows the entry with :class:`LogReplay`, and the
entries a takeback undid are no longer "in effect" (:func:`in_effect`).
The service stores a snapshot at the takeback's own version, so loading
never has to go back before its newest snapshot.

**Never across chance, never across a reveal.**  A throw, a draw or a
reveal is the table learning something nobody chose; taking a move back
across it would let a player see the dice and choose again.  A chance
entry is plain in the log; a reveal is not (Sangram's last commit shows
every committed card, Artaban's last set-up both set-ups: the engine does
it inside the move), so :func:`reveals` asks the engine: a move shows its
mover nothing hidden when the mover's view after it is the same whatever
the hidden part was (``Determinizes`` deals it afresh).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from typing import Any, Final, Protocol, TypeVar

from bot.engines.core import Determinizes, Engine, GameError, Seat
from bot.timekeeping import ClockRule, time_left
from storage.games import SeatRecord, UndoPoint

__all__ = [
    "REVEAL_SAMPLES",
    "TAKEBACK",
    "THROW_GRACE",
    "LogReplay",
    "MissingState",
    "in_effect",
    "restored_clocks",
    "reveals",
    "takeback_event",
    "takeback_target",
    "targets_of",
]

TAKEBACK: Final = "@takeback"
"""The takeback entry's action, before ``:<version>``."""
TABLE_EVENT: Final = "@"

THROW_GRACE: Final = 6.0
"""Seconds the chance that follows a person's move (the next dice in
Chaturaji, the next throw of shells in Kauda Baji, a draw) waits before it
is made, while the mover may still take the move back: a takeback is only
fair before the throw is seen, and the throw does not exist until then.
The "Played: …" reply comes within a second, and a slip is seen when it is
read: six seconds leave time to press **Take back** (Gmail's "undo send"
waits five by default), and cost a live game about what throwing real
shells takes, an asynchronous one nothing.  Only while takebacks are
allowed in the game, and only after a person's move; nobody's clock runs
meanwhile."""

REVEAL_SAMPLES: Final = 8
"""How many other deals of the hidden part :func:`reveals` tries.  A
reveal shows cards or a set-up out of many: in 875 of Sangram's reveals
(30 seeded games), one deal alone told 836 apart and eight told all 875.
Under a millisecond for the eight."""


def takeback_event(version: int) -> str:
    """The takeback entry's action: the game is again as it was at ``version``."""
    return f"{TAKEBACK}:{version}"


def takeback_target(action: str) -> int | None:
    """The version a takeback entry returns to (None: not a takeback)."""
    head, _, digits = action.partition(":")
    if head != TAKEBACK or not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        return None
    return int(digits)


def targets_of(actions: Iterable[str]) -> set[int]:
    """The versions the takebacks among ``actions`` return to."""
    return {t for t in map(takeback_target, actions) if t is not None}


class MissingState(LookupError):
    """A takeback returns to a version :class:`LogReplay` did not see (it
    began after it): the caller rebuilds that version and :meth:`LogReplay.jump`\\ s."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the state at version {version} is not held")
        self.version = version


class LogReplay:
    """A game's log followed from a known state (the set-up, or a snapshot):
    moves are applied, table events pass, and a takeback returns to the
    state at its version.  Only the states some takeback of the log returns
    to are kept (``targets``, :func:`targets_of`)."""

    def __init__(
        self, engine: Engine[Any, Any, Any], version: int, state: Any, targets: Collection[int]
    ) -> None:
        self.engine = engine
        self.version = version
        self.state = state
        self._wanted = set(targets)
        self._kept: dict[int, Any] = {}
        self._keep()

    def _keep(self) -> None:
        if self.version in self._wanted:
            self._kept[self.version] = self.state

    def follow(self, seq: int, actor: Seat, action: str) -> Any:
        """The state after log entry ``seq``; raises :class:`MissingState`
        for a takeback to a version before this replay began, and the
        engine's errors for a move it refuses."""
        target = takeback_target(action)
        if target is not None:
            if target not in self._kept:
                raise MissingState(target)
            self.state = self._kept[target]
        elif not action.startswith(TABLE_EVENT):
            engine, state = self.engine, self.state
            self.state = engine.apply(state, actor, engine.parse(state, actor, action))
        self.version = seq
        self._keep()
        return self.state

    def jump(self, seq: int, state: Any) -> None:
        """Entry ``seq`` was a takeback to a version rebuilt elsewhere: ``state``."""
        self.state, self.version = state, seq
        self._keep()


class Entry(Protocol):
    """What :func:`in_effect` reads of a log entry (``storage.games.LogEntry``)."""

    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> str: ...


_E = TypeVar("_E", bound=Entry)


def in_effect(entries: Sequence[_E]) -> list[_E]:
    """The entries still in effect, in order: each takeback removes the
    entries after the version it returns to, and itself (the log keeps
    them: they happened)."""
    kept: list[_E] = []
    for entry in entries:
        target = takeback_target(entry.action)
        if target is None:
            kept.append(entry)
            continue
        while kept and kept[-1].seq > target:
            kept.pop()
    return kept


def reveals(
    engine: Engine[Any, Any, Any], before: Any, seat: Seat, text: str, after: Any, seed: int
) -> bool:
    """Whether ``seat``'s move ``text`` from ``before`` (to ``after``) showed
    the mover anything hidden: its view after the move would differ had the
    hidden part been otherwise (the opponents' committed cards, a set-up).
    A game that hides nothing never reveals; a move that cannot be replayed
    on another deal counts as revealing (nothing is taken back on a guess).
    ``seed`` makes the answer the same every time it is asked."""
    if not isinstance(engine, Determinizes):
        return False
    seen = engine.view(after, seat)
    draw = random.Random(seed).random
    for _ in range(REVEAL_SAMPLES):
        other = engine.determinize(before, seat, draw)
        try:
            then = engine.apply(other, seat, engine.parse(other, seat, text))
        except (GameError, KeyError, TypeError, ValueError):
            return True
        if engine.view(then, seat) != seen:
            return True
    return False


def restored_clocks(
    seats: Sequence[SeatRecord],
    point: UndoPoint,
    *,
    moved_at: float,
    rule: ClockRule | None,
    now: float,
) -> dict[int, dict[str, Any]]:
    """The seats' clocks once a takeback returns to ``point`` (the move made
    at ``moved_at``), stopped: the service starts those the game then waits
    on from ``now``.  Nobody gains time: each seat gets the least of what it
    had when the move was made and what it has now.  So the mover's clock
    runs again from where it stood at the move, without the increment the
    move earned (nor the time others took since, which was theirs); a seat
    that moved since keeps what it spent and loses what its undone moves
    earned."""
    if rule is None:
        return {}
    out: dict[int, dict[str, Any]] = {}
    for seat in seats:
        left, since = point.clocks.get(seat.seat, (seat.clock_left, None))
        then = time_left(replace(seat, clock_left=left, clock_since=since), rule, moved_at)
        now_left = time_left(seat, rule, now)
        assert then is not None and now_left is not None  # a clock rule gives a time
        out[seat.seat] = {"clock_left": min(then, now_left), "clock_since": None}
    return out
