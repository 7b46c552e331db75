"""What an Artaban seat (or the channel) may see: the renderer's input.

Kept apart from the engine so renderers and tests can build views by hand.
Squares are written as players type them (``a1`` .. ``h8``); seat 0 plays
from rank 2 towards rank 8, seat 1 from rank 7 towards rank 1.  Faces are
seen from the die owner's side: ``front`` points the way the owner advances,
``left`` and ``right`` are the owner's left and right (docs/rules/artaban.md,
R1).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engines.core import Seat


@dataclass(frozen=True)
class DieView:
    square: str
    """``a1`` .. ``h8``."""
    file: int
    """0 (file a) .. 7 (file h)."""
    rank: int
    """1 .. 8."""
    owner: Seat
    top: int
    """The die's value (R1)."""
    front: int
    """The face towards the owner's front (R1); decides forward tips."""
    left: int
    right: int
    leader: bool
    home: bool
    """On the owner's last rank: scores, never moves again (R8)."""


@dataclass(frozen=True)
class LastMoveView:
    seat: Seat
    kind: str
    """``tip``, ``turn``, ``capture`` or ``sacrifice``."""
    frm: str
    """The square the moving die stood on."""
    to: str
    """Where it went (a turn: the same square; a sacrifice: the enemy die's
    square, which keeps its die)."""
    forward: bool
    """A forward tip (resets the no-progress count, R9)."""


@dataclass(frozen=True)
class PlayerView:
    seat: Seat
    committed: bool
    """The set-up is committed (R7); always True once play has begun."""
    score: int
    """Sum of the top values of the seat's dice on its last rank (R10)."""
    home: int
    """How many of its dice stand on its last rank."""
    on_board: int
    """How many of its dice are still on the board."""
    leader: str | None
    """The square of its Leader die, ``None`` before the reveal or once captured."""


@dataclass(frozen=True)
class FinalView:
    ranking: tuple[tuple[Seat, ...], ...]
    """Places best first; a draw is one place holding both seats."""
    scores: tuple[int, ...]
    reason: str
    agreed: bool
    """The players agreed to a draw (R9)."""


@dataclass(frozen=True)
class SetupView:
    """One player's own set-up while it is still hidden (R7)."""

    seat: Seat
    values: tuple[int, ...]
    """Top values chosen so far, for files a, b, ... in order (up to eight)."""
    leader: str | None
    """The file holding the Leader (``a`` .. ``h``), once chosen."""
    committed: bool
    total: int
    """Sum of :attr:`values`; a full set-up sums to 28."""


@dataclass(frozen=True)
class ArtabanView:
    phase: str
    """``setup`` (hidden, simultaneous), ``play`` or ``over``."""
    diagonal_captures: bool
    """The R5 variant is on."""
    to_play: Seat | None
    """Whose move it is in play; ``None`` during set-up and at the end."""
    waiting_on: tuple[Seat, ...]
    players: tuple[PlayerView, ...]
    dice: tuple[DieView, ...]
    """Every die on the board (empty until both set-ups are revealed)."""
    last_move: LastMoveView | None
    draw_offer: Seat | None
    """Who has a draw offer pending (R9)."""
    quiet_plies: int
    """Plies in a row without a forward tip, capture or sacrifice."""
    quiet_limit: int
    """The game ends when :attr:`quiet_plies` reaches this (40, R9)."""
    ply: int
    """Moves made since the reveal."""
    final: FinalView | None
    viewer: Seat | None
    """Whose view this is (``None``: the public view).  Lets a player's own
    image show the board from their side; hides nothing."""
    me: SetupView | None
    """The viewer's own set-up during the hidden set-up; ``None`` in the
    public view and once both set-ups are revealed."""
