"""Martian Chaturaji's armies and board (R1-R3): the four armies and their
partnerships, the piece kinds, the phases, the squares, each army's rows,
thrones and squire steps, the move tables built at import, a piece as one
int, the starting board and who commands which army.
"""

from __future__ import annotations

from typing import Final

from bot.engines.core import (
    Seat,
)
from bot.engines.messages import Msg

FILES: Final = "abcdefgh"

# Armies (R1), in turn order.
BLUE: Final = 0
RED: Final = 1
GREEN: Final = 2
YELLOW: Final = 3
ARMIES: Final = ("blue", "red", "green", "yellow")
ARMY_TITLES: Final = (Msg("Blue"), Msg("Red"), Msg("Green"), Msg("Yellow"))
"""The armies' names in sentences (messages: translated inside them)."""
PARTNERSHIPS: Final = ("blue-green", "red-yellow")
"""Partnership ``a & 1`` of army ``a``; the partner of ``a`` is ``a ^ 2``."""
PARTNERSHIP_TITLES: Final = (Msg("Blue-Green"), Msg("Red-Yellow"))
"""``PARTNERSHIPS[p].title()`` as messages."""

# Piece kinds (R3); the die face is kind + 1 (R5).
MONARCH: Final = 0
PALADIN: Final = 1
RAVEN: Final = 2
SQUIRE: Final = 3
KINDS: Final = ("monarch", "paladin", "raven", "squire")
KIND_NAMES: Final = (Msg("monarch"), Msg("paladin"), Msg("raven"), Msg("squire"))
"""The kinds' names in sentences (messages)."""
LETTERS: Final = "mprs"

TURNS_PER_ROUND: Final = 4
"""R1: a round is one turn of each of the four armies, whatever the players."""
QUIET_ROUNDS_DEFAULT: Final = 25
QUIET_ROUNDS_MAX: Final = 1000
"""R15: the largest ``quiet_rounds`` the lobby accepts (0 turns the rule off)."""

START: Final = "start"
CHOOSE: Final = "choose"
ROLL: Final = "roll"
MOVE: Final = "move"
REENTER: Final = "reenter"
PLACE: Final = "place"
OVER: Final = "over"
_PHASES: Final = (START, CHOOSE, ROLL, MOVE, REENTER, PLACE, OVER)


def square_name(sq: int) -> str:
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def square_of(name: str) -> int:
    """``c2`` -> 10 (rank-major from a1 = 0)."""
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def _sq(f: int, r: int) -> int:
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else -1


# --------------------------------------------------------------------------
# The board (R2) and precomputed move tables (R3)
# --------------------------------------------------------------------------

FORWARD: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""R2: each army's squire direction (file step, rank step)."""
_FORWARD_WORD: Final = ("north", "east", "south", "west")
START_SQUARES: Final = (
    # R2: (raven, paladin, monarch, squires...)
    ("h1", "g1", "f1", ("f2", "g2", "h2")),
    ("a1", "a2", "a3", ("b1", "b2", "b3")),
    ("a8", "b8", "c8", ("a7", "b7", "c7")),
    ("h8", "h7", "h6", ("g8", "g7", "g6")),
)
THRONES: Final = tuple(square_of(s[2]) for s in START_SQUARES)
"""R2: each army's throne square, its monarch's starting square."""
_THRONE_OF: Final = tuple(THRONES.index(sq) if sq in THRONES else -1 for sq in range(64))
"""The army whose throne is on each square, -1 for none."""
CENTRE: Final = tuple(square_of(s) for s in ("d4", "e4", "d5", "e5"))
"""R9: the four central squares."""
_CENTRE_SET: Final = frozenset(CENTRE)


def _row(army: int, depth: int) -> tuple[int, ...]:
    """The squares ``depth`` rows in from the army's own edge (0: home row)."""
    if army == BLUE:
        return tuple(_sq(f, depth) for f in range(8))
    if army == GREEN:
        return tuple(_sq(f, 7 - depth) for f in range(8))
    if army == RED:
        return tuple(_sq(depth, r) for r in range(8))
    return tuple(_sq(7 - depth, r) for r in range(8))


HOME_ROWS: Final = tuple(_row(a, 0) for a in range(4))
SECOND_ROWS: Final = tuple(_row(a, 1) for a in range(4))
_ROW_WORD: Final = ("rank 1", "file a", "rank 8", "file h")
_PROMOTION_ROW: Final = tuple(frozenset(HOME_ROWS[a ^ 2]) for a in range(4))
"""R10: the partner's home row."""
_ON_PROMOTION_ROW: Final = tuple(
    tuple(sq in _PROMOTION_ROW[a] for sq in range(64)) for a in range(4)
)


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out = []
    f, r = sq % 8 + df, sq // 8 + dr
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(r * 8 + f)
        f += df
        r += dr
    return tuple(out)


def _leaps(sq: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    f, r = sq % 8, sq // 8
    return tuple(t for df, dr in steps if (t := _sq(f + df, r + dr)) >= 0)


_ORTHO: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT_STEPS: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_ORTHO_RAYS: Final = tuple(tuple(r for d in _ORTHO if (r := _ray(sq, *d))) for sq in range(64))
_DIAG_RAYS: Final = tuple(tuple(r for d in _DIAG if (r := _ray(sq, *d))) for sq in range(64))
_QUEEN_RAYS: Final = tuple(_ORTHO_RAYS[sq] + _DIAG_RAYS[sq] for sq in range(64))
_KNIGHT: Final = tuple(_leaps(sq, _KNIGHT_STEPS) for sq in range(64))
_JUMP2: Final = tuple(_leaps(sq, tuple((2 * a, 2 * b) for a, b in _DIAG)) for sq in range(64))
"""R3: the raven's exact two-square diagonal jump."""
_SLIDES: Final = (_QUEEN_RAYS, _DIAG_RAYS, _ORTHO_RAYS)
_JUMPS: Final = (tuple(() for _ in range(64)), _KNIGHT, _JUMP2)


def _squire_tables(
    army: int,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    df, dr = FORWARD[army]
    starts = {square_of(s) for s in START_SQUARES[army][3]}
    one, two, caps = [], [], []
    for sq in range(64):
        f, r = sq % 8, sq // 8
        one.append(_sq(f + df, r + dr))
        two.append(_sq(f + 2 * df, r + 2 * dr) if sq in starts else -1)
        # Diagonally forward: forward plus one step either way across.
        caps.append(tuple(t for s in (-1, 1) if (t := _sq(f + df + s * dr, r + dr + s * df)) >= 0))
    return tuple(one), tuple(two), tuple(caps)


_SQUIRE: Final = tuple(_squire_tables(a) for a in range(4))

# A piece is one int: 0 is an empty square, otherwise 1 + army * 4 + kind.
_ARMY: Final = (-1, *(c // 4 for c in range(16)))
_KIND: Final = (-1, *(c % 4 for c in range(16)))
_BIT: Final = (0, *(1 << (c // 4) for c in range(16)))


def piece(army: int, kind: int) -> int:
    return 1 + army * 4 + kind


def _start_board() -> tuple[int, ...]:
    board = [0] * 64
    for army, (raven, paladin, monarch, squires) in enumerate(START_SQUARES):
        board[square_of(raven)] = piece(army, RAVEN)
        board[square_of(paladin)] = piece(army, PALADIN)
        board[square_of(monarch)] = piece(army, MONARCH)
        for s in squires:
            board[square_of(s)] = piece(army, SQUIRE)
    return tuple(board)


START_BOARD: Final = _start_board()


def _seats_of(num_players: int) -> tuple[Seat, ...]:
    """R13: the seat commanding each army."""
    if num_players == 4:
        return (0, 1, 2, 3)
    if num_players == 3:
        return (0, 1, 0, 2)
    return (0, 1, 0, 1)


_SEATINGS: Final = {n: _seats_of(n) for n in (2, 3, 4)}
