"""Who holds each seat, and since when: whose a seat's secrets are.

**The rule** (issue 29): a seat's secrets belong to whoever holds the seat
at that moment.  A player who left (resigned, was kicked, lost on time, or
was replaced by a moderator) may read what the seat held only up to the
moment they left it, and is a spectator from then on; a member who took a
seat over may read what it holds from then on, never what it held before.
:func:`readable_seat` is that rule, and every surface that shows a seat's
hidden information (its view, its menus, its private log lines) asks it:
current surfaces about now, log surfaces (a game's record, a review's
frames) about the version of each line or frame.

Pure: the seats as stored and the log's table events are all it reads.
Seats change hands in two ways, both written to the log by the service
(``bot/service/seats.py``), actor the seat:

- ``@left``: the seat passed to the automatic player (a resignation, a
  kick, a forfeit on time).  The seat keeps its user of record
  (``controller`` ``auto``), but nobody holds it from then on.
- ``@replaced:<old user id>``: a moderator handed the seat to another
  member (``/moderate game replace``); the seat's user of record is the new
  one, and ``<old user id>`` the one it was taken from.  A legacy
  ``@replaced``, written before the id was, does not say who that was: the
  seat's earlier holders are then nobody anyone can name, so nobody reads
  the seat before the hand-over.

A *version* is the game's version, the log's length: version ``v`` is the
position after the first ``v`` entries, and a log entry of sequence number
``s`` makes version ``s`` (so a record's ``i``-th line, from 1, is asked
about at version ``i``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engines.core import Seat
from storage.games import SeatRecord

__all__ = [
    "LEFT",
    "REPLACED",
    "Reader",
    "Tenure",
    "holder",
    "readable_seat",
    "replaced_event",
    "tenures",
]

LEFT = "@left"
"""The table event of a seat that passed to the automatic player."""
REPLACED = "@replaced"
"""The table event of a seat handed to another member: ``@replaced:<old user id>``
(``@replaced`` alone before the id was written)."""


def replaced_event(old_user_id: int) -> str:
    """The action text of a hand-over from ``old_user_id`` (no spaces: a
    game record keeps a table event's words after the first space)."""
    return f"{REPLACED}:{old_user_id}"


def _handed_over(action: str) -> tuple[bool, int | None]:
    """Whether ``action`` is a hand-over, and from whom (None: not said)."""
    if action == REPLACED:
        return True, None
    if action.startswith(REPLACED + ":"):
        try:
            return True, int(action[len(REPLACED) + 1 :])
        except ValueError:
            return True, None
    return False, None


@dataclass(frozen=True)
class Tenure:
    """One member's time at one seat."""

    seat: Seat
    user_id: int | None
    """Who held it; None when the log does not say (before a legacy
    ``@replaced``): nobody may read the seat then."""
    since: int
    """The first version at which they held it (0: from the start)."""
    until: int | None = None
    """The version from which they no longer did (the version the ``@left``
    or ``@replaced`` entry made); None: they hold it now."""

    def covers(self, version: int) -> bool:
        return self.since <= version and (self.until is None or version < self.until)


def _now(seat: SeatRecord) -> int | None:
    """Who holds ``seat`` now, as the seats say: its member while a person
    plays it; nobody once it passed to the automatic player, or when an
    automatic player asked for in the lobby sits there."""
    return seat.user_id if seat.controller == "human" and not seat.automatic_player else None


def tenures(
    seats: Sequence[SeatRecord], log: Sequence[tuple[Seat, str]] = ()
) -> tuple[Tenure, ...]:
    """Every member's time at every seat of a game.

    ``log`` is the game's whole log, in order, as ``(actor, action)``: only
    its ``@left`` and ``@replaced`` entries count, and their places give the
    versions.  Without it only who holds each seat now is known (each
    holder's ``since`` is then 0), which is all :func:`readable_seat` needs
    to answer about now; a question about an earlier version needs the log.
    """
    end = len(log)
    out: list[Tenure] = []

    def add(tenure: Tenure) -> None:
        if tenure.until is None or tenure.since < tenure.until:
            out.append(tenure)

    for record in seats:
        if record.automatic_player:
            continue  # a lobby's automatic player: never a person's seat
        seat = record.seat
        events = [
            (version, action)
            for version, (actor, action) in enumerate(log, start=1)
            if actor == seat and (action == LEFT or _handed_over(action)[0])
        ]
        now = _now(record)
        left_last = bool(events) and events[-1][1] == LEFT
        # Who the seat's member was before each hand-over, from the last
        # one back: the seat's user of record, then whom each took it from.
        # A person plays the seat now although the log's last word was that
        # they left: it changed hands after that without the log saying so
        # (a crash between the two writes), so whoever it was is unknown.
        person: int | None = None if now is not None and left_last else record.user_id
        members: list[int | None] = []
        for _, action in reversed(events):
            replaced, old = _handed_over(action)
            if replaced:
                members.append(person)
                person = old
        members.reverse()
        # Forward: each hand-over starts a member's time, a leave ends it.
        hands = iter(members)
        since: int | None = 0
        for version, action in events:
            if action == LEFT:
                if since is not None:
                    add(Tenure(seat, person, since, version))
                since = None
            else:
                if since is not None:
                    add(Tenure(seat, person, since, version))
                person, since = next(hands), version
        if since is not None:
            # The seats may say the player left where the log does not
            # (a crash between the two writes): their time ends with the log.
            add(Tenure(seat, person, since, None if now is not None else end))
        elif now is not None:
            # A hand-over the log does not tell: from now on only.
            add(Tenure(seat, now, end, None))
    return tuple(out)


def readable_seat(held: Iterable[Tenure], user_id: int, version: int | None = None) -> Seat | None:
    """The seat whose secrets ``user_id`` may read at ``version`` (None:
    now), or None: the seat they held then, whatever has happened since.
    This is the hidden-information rule for people who play; nobody else
    reads any seat's secrets."""
    for tenure in held:
        if tenure.user_id != user_id:
            continue  # another member's time, or nobody's anyone can name
        if tenure.until is None if version is None else tenure.covers(version):
            return tenure.seat
    return None


def holder(seats: Sequence[SeatRecord], seat: Seat) -> int | None:
    """Who may read ``seat``'s secrets now (its DMs, its menus), by
    :func:`readable_seat`: its member while they hold it; None once it
    passed to the automatic player."""
    if not 0 <= seat < len(seats):
        return None
    user_id = seats[seat].user_id
    return user_id if readable_seat(tenures(seats), user_id) == seat else None


@dataclass(frozen=True)
class Reader:
    """A member reading a game's log or frames (a record, a review): the
    rule asked line by line.  A value, so the render pool can take it."""

    user_id: int
    held: tuple[Tenure, ...]

    def seat_at(self, version: int | None = None) -> Seat | None:
        """The seat whose secrets they may read at ``version`` (None: now)."""
        return readable_seat(self.held, self.user_id, version)

    @property
    def last_seat(self) -> Seat | None:
        """The seat they held last, if any (a record's ``Reader``)."""
        mine = [t for t in self.held if t.user_id == self.user_id]
        return max(mine, key=lambda t: t.since).seat if mine else None

    @classmethod
    def of(
        cls, user_id: int, seats: Sequence[SeatRecord], log: Sequence[tuple[Seat, str]]
    ) -> Reader:
        """``user_id`` reading a game with these seats and this whole log."""
        return cls(user_id, tuple(t for t in tenures(seats, log) if t.user_id == user_id))
