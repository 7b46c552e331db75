"""What a Martian Chaturaji seat (or the channel) may see: the renderer's input.

Kept apart from the engine so renderers and tests can build views by hand.
Squares are written as players type them (``a1`` .. ``h8``).  Armies are
named ``blue`` (South, rank-1 edge), ``red`` (West, a-file edge), ``green``
(North) and ``yellow`` (East); pieces are ``monarch``, ``paladin``,
``raven`` and ``squire`` (docs/rules/chaturaji.md, R1-R3).  Nothing in the
game is hidden, so every view shows the whole state.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engines.core import Seat


@dataclass(frozen=True)
class PieceView:
    square: str
    """``a1`` .. ``h8``."""
    file: int
    """0 (file a) .. 7 (file h)."""
    rank: int
    """1 .. 8."""
    army: str
    kind: str
    """``monarch``, ``paladin``, ``raven`` or ``squire``."""


@dataclass(frozen=True)
class ArmyView:
    army: str
    partnership: int
    """0: Blue and Green; 1: Red and Yellow (R1)."""
    commander: Seat
    """The seat that plays this army's turns (R13)."""
    throne: str
    """The army's throne square, its monarch's starting square (R2)."""
    home_row: str
    """``rank 1``, ``file a``, ``rank 8`` or ``file h``."""
    forward: str
    """Where its squires advance: ``north``, ``east``, ``south`` or ``west``."""
    monarch: str | None
    """The monarch's square, ``None`` while it is captured (R7)."""
    lost: tuple[str, ...]
    """Piece kinds the army started with and no longer has on the board
    (a promoted squire gives its new kind back, R10)."""
    pieces: int
    """How many of its pieces are on the board."""
    controlled_by: str | None
    """The army commanding it this turn through its throne (R8)."""


@dataclass(frozen=True)
class DieView:
    army: str
    """Whose die (a controlling player rolls the controlled army's dice, R8)."""
    rolled: int
    """The face: 1 Monarch, 2 Paladin, 3 Raven, 4 Squire (R5)."""
    kind: str | None
    """The piece kind it moves after counting up (R6); ``None`` when void."""
    counted_up: bool
    """The army had no piece of the rolled kind, so the die counted up (R6)."""
    used: bool
    """Moved with, or declined with ``pass``."""
    void: bool


@dataclass(frozen=True)
class MoveView:
    army: str
    kind: str
    """The moving piece's kind before the move (a placement: ``monarch``)."""
    frm: str | None
    """Where it came from; ``None`` for a monarch placed on re-entry (R11)."""
    to: str
    captured: tuple[str, ...]
    """Squares whose pieces were captured (three for an unkindness, R9)."""
    promoted: str | None
    """The kind a squire became (R10)."""


@dataclass(frozen=True)
class FinalView:
    ranking: tuple[tuple[Seat, ...], ...]
    scores: tuple[int, ...]
    reason: str
    winners: str | None
    """``blue-green`` or ``red-yellow``; ``None`` for a quiet-rounds draw (R15)."""


@dataclass(frozen=True)
class ChaturajiView:
    phase: str
    """``start`` (rolling who starts, R14), ``choose`` (the winning partnership
    picks its first army), ``roll``, ``move``, ``reenter`` (R11: the capturing
    player decides), ``place`` (R11: an owner places a monarch), ``over``."""
    num_players: int
    seats: tuple[tuple[str, ...], ...]
    """Per seat, the armies it commands (R13)."""
    armies: tuple[ArmyView, ...]
    """Blue, Red, Green, Yellow: turn order (R1)."""
    pieces: tuple[PieceView, ...]
    """Every piece on the board, in square order."""
    turn: str | None
    """The army whose turn it is (``None`` before the first turn and at the end)."""
    controlled: str | None
    """The army the mover also commands this turn (R8)."""
    to_play: Seat | None
    """The seat to act, ``None`` when only dice are due or the game is over
    (while the partnership chooses who starts, its lower seat)."""
    commanding: tuple[str, ...]
    """The armies :attr:`to_play` moves this turn (R8)."""
    dice: tuple[DieView, ...]
    """This turn's dice: the own pair, then the controlled army's (R8)."""
    start_rolls: tuple[int, ...]
    """R14: the starting dice rolled so far, Blue, Red, Green, Yellow."""
    placing: str | None
    """R11: the army whose monarch is being placed."""
    last_moves: tuple[MoveView, ...]
    """The moves of the last turn that moved something."""
    turn_moves: tuple[MoveView, ...]
    """The moves made so far this turn."""
    skipped: tuple[str, ...]
    """Armies whose turns were just skipped (captured monarch, R7)."""
    quiet_turns: int
    """Complete turns in a row without a capture, promotion or squire move."""
    quiet_limit: int
    """The game is drawn when :attr:`quiet_turns` reaches this (R15; 0: off)."""
    quiet_rounds: int
    """:attr:`quiet_turns` in complete rounds (four army turns): what a board
    shows, in the words of the lobby option ``quiet_rounds``."""
    quiet_round_limit: int
    """The lobby's ``quiet_rounds``: the game is drawn once that many rounds
    pass quietly (R15; 0: off)."""
    turns: int
    final: FinalView | None
    viewer: Seat | None
    """Whose view this is (``None``: public); lets an image turn the board to
    the viewer's side.  Hides nothing."""
    me: tuple[str, ...] | None
    """The viewer's own armies (R13); ``None`` in the public view."""
