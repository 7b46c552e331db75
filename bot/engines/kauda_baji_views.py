"""What a Kauda Baji seat (or the channel) may see: the renderer's input.

Kept apart from the engine so renderers and tests can build views by hand.
Squares are written as players type them (``a1`` .. ``g7``, files from the
Bottom seat's left, docs/rules/kauda_baji.md "The board").  Seats are
``bottom``, ``right``, ``top`` and ``left`` (R4).  Nothing in the game is
hidden, so every view shows the whole state, the bank included.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engines.core import Seat


@dataclass(frozen=True)
class StackView:
    """One tuple on the board (a single is a tuple of size 1, R9)."""

    square: str
    file: int
    """0 (file a) .. 6 (file g)."""
    rank: int
    """1 .. 7."""
    player: Seat
    seat: str
    """``bottom``, ``right``, ``top`` or ``left``."""
    size: int
    step: int
    """How far along its owner's route (0: start square, 47: last before the centre)."""


@dataclass(frozen=True)
class PlayerView:
    player: Seat
    seat: str
    start: str
    """The start square (R1)."""
    arrows: tuple[tuple[str, str], ...]
    """The seat's three arrows (R1), as (from, to) squares."""
    at_start: int
    """Pieces on the start square."""
    on_board: int
    """Pieces on the board, the start square included."""
    finished: int
    """Pieces that reached the centre (R17)."""
    has_killed: bool
    """R15: arrow 1 is open to this player (always true with markut off)."""
    place: int
    """R18: 1 for first, ...; 0 while still playing."""


@dataclass(frozen=True)
class MoveView:
    player: Seat
    frm: str
    to: str
    """The landing square (``d4`` for the centre)."""
    size: int
    values: tuple[int, ...]
    path: tuple[str, ...]
    """Every square passed over and landed on, in order."""
    killed: tuple[str, ...]
    """Squares where tuples were killed."""


@dataclass(frozen=True)
class KaudaBajiView:
    viewer: Seat | None
    me: None
    """Nothing is secret, so no seat has anything of its own to see."""
    phase: str
    """``first`` (R7 throws), ``throw``, ``move`` or ``over``."""
    turn: Seat
    """Whose turn it is (-1 while the first player is being found)."""
    bank: tuple[int, ...]
    """The turn's unspent throws (R6), largest first."""
    run: int
    """6s and 12s in a row so far (R6)."""
    bonus_throws: int
    """R16: bonus throws still to come after the current one."""
    stacks: tuple[StackView, ...]
    players: tuple[PlayerView, ...]
    safe: tuple[str, ...]
    """The thirteen safe squares (R3)."""
    last_move: MoveView | None
    first_throws: tuple[tuple[Seat, int], ...]
    """R7: this round's throws for the first player."""
    places: tuple[Seat, ...]
    news: str
    """The last action, told as in the channel (seats as ``{p0}`` tags)."""
