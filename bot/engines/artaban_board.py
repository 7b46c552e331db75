"""Artaban's board and dice (R1-R3): the files and ranks, the phases and
results, a die's faces and how it tips and turns, a die on a square as one
int, and the squares a die steps to.
"""

from __future__ import annotations

from typing import Any, Final

from bot.engines.core import (
    Seat,
)
from bot.engines.messages import Msg

FILES: Final = "abcdefgh"
NUM_FILES: Final = 8
SETUP_SUM: Final = 28
"""R7: the top values of a player's eight dice sum to exactly 28."""
QUIET_LIMIT: Final = 40
"""R9: the game ends after 40 plies without a forward tip, capture or sacrifice."""
START_RANK: Final = (2, 7)
"""R7: seat 0 sets up on rank 2, seat 1 on rank 7."""
HOME_RANK: Final = (8, 1)
"""R8: the last rank of each seat."""

SETUP: Final = "setup"
PLAY: Final = "play"
OVER: Final = "over"
_PHASES: Final = (SETUP, PLAY, OVER)

STUCK: Final = "stuck"
QUIET: Final = "quiet"
AGREED: Final = "agreed"
_RESULTS: Final = ("", STUCK, QUIET, AGREED)

FORWARD: Final = "^"
LEFT: Final = "<"
RIGHT: Final = ">"
_DIRECTIONS: Final = (FORWARD, LEFT, RIGHT)
_DIRECTION_WORD: Final = {FORWARD: Msg("forward"), LEFT: Msg("left"), RIGHT: Msg("right")}
"""The directions' names in sentences (messages: translated inside them)."""

# --------------------------------------------------------------------------
# Dice (R1-R3)
# --------------------------------------------------------------------------

Vec = tuple[int, int, int]
_NORMAL: Final[dict[int, Vec]] = {
    # Face -> outward normal in a frame where 1 x 2 = 3: the standard Western
    # die, on which 1, 2 and 3 run counterclockwise round their corner.
    1: (1, 0, 0),
    2: (0, 1, 0),
    3: (0, 0, 1),
    6: (-1, 0, 0),
    5: (0, -1, 0),
    4: (0, 0, -1),
}
_FACE_OF: Final[dict[Vec, int]] = {v: k for k, v in _NORMAL.items()}


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def right_face(top: int, front: int) -> int:
    """R1: the face on the owner's right of a die showing ``top`` and ``front``.

    With x to the owner's right, y forward and z up (a right-handed frame),
    the right face's normal is front x top.
    """
    if not (1 <= top <= 6 and 1 <= front <= 6) or front in (top, 7 - top):
        raise ValueError(f"no die shows {top} on top and {front} in front")
    return _FACE_OF[_cross(_NORMAL[front], _NORMAL[top])]


def tip(top: int, front: int, direction: str) -> tuple[int, int]:
    """R2: (top, front) after tipping one square forward, left or right."""
    if direction == FORWARD:
        return 7 - front, top
    if direction == RIGHT:
        return 7 - right_face(top, front), front  # the old left face comes up
    if direction == LEFT:
        return right_face(top, front), front  # the old right face comes up
    raise ValueError(f"no tip direction {direction!r}")


def turn(top: int, front: int, direction: str) -> tuple[int, int]:
    """R3: (top, front) after a quarter turn left or right in place."""
    if direction == LEFT:
        return top, right_face(top, front)
    if direction == RIGHT:
        return top, 7 - right_face(top, front)
    raise ValueError(f"no turn direction {direction!r}")


def start_front(top: int) -> int:
    """R7: a die starts with the lowest face adjacent to its top in front."""
    return min(f for f in range(1, 7) if f not in (top, 7 - top))


ORIENTATIONS: Final[tuple[tuple[int, int], ...]] = tuple(
    (t, f) for t in range(1, 7) for f in range(1, 7) if f not in (t, 7 - t)
)
"""The 24 (top, front) pairs of a real die."""
_ORIENT: Final = {tf: i for i, tf in enumerate(ORIENTATIONS)}

# A die on the board is one int: 0 is an empty square, otherwise
# 1 + owner * 48 + leader * 24 + orientation index.
_CODES: Final = range(1, 97)


def _code(owner: Seat, leader: bool, top: int, front: int) -> int:
    return 1 + owner * 48 + (24 if leader else 0) + _ORIENT[(top, front)]


def _decode(code: int) -> tuple[Seat, bool, int, int]:
    owner, rest = divmod(code - 1, 48)
    leader, o = divmod(rest, 24)
    top, front = ORIENTATIONS[o]
    return owner, bool(leader), top, front


def _table(fn: Any) -> tuple[int, ...]:
    out = [0] * 97
    for code in _CODES:
        owner, leader, top, front = _decode(code)
        out[code] = fn(owner, leader, top, front)
    return tuple(out)


_OWNER: Final = _table(lambda o, ld, t, f: o)
_LEADER: Final = _table(lambda o, ld, t, f: int(ld))
_TOP: Final = _table(lambda o, ld, t, f: t)
_TIPPED: Final[dict[str, tuple[int, ...]]] = {
    d: _table(lambda o, ld, t, f, d=d: _code(o, ld, *tip(t, f, d))) for d in _DIRECTIONS
}
_TURNED: Final[dict[str, tuple[int, ...]]] = {
    d: _table(lambda o, ld, t, f, d=d: _code(o, ld, *turn(t, f, d))) for d in (LEFT, RIGHT)
}

# --------------------------------------------------------------------------
# The board
# --------------------------------------------------------------------------


def square_name(sq: int) -> str:
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def square_of(name: str) -> int:
    """``c2`` -> 10 (rank-major from a1 = 0)."""
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def _step(seat: Seat, sq: int, direction: str) -> int:
    """The square one step from ``sq`` in the owner's ``direction``, or -1."""
    f, r = sq % 8, sq // 8
    ahead = 1 if seat == 0 else -1
    if direction == FORWARD:
        r += ahead
    elif direction == LEFT:
        f -= ahead  # seat 0's left is the a-file side, seat 1's the h-file side
    else:
        f += ahead
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else -1


def _diagonals(seat: Seat, sq: int) -> tuple[int, ...]:
    """R5: the forward-left and forward-right squares on the board."""
    f, r = sq % 8, sq // 8
    r += 1 if seat == 0 else -1
    if not 0 <= r < 8:
        return ()
    ahead = 1 if seat == 0 else -1
    return tuple(r * 8 + g for g in (f - ahead, f + ahead) if 0 <= g < 8)


_STEPS: Final = tuple(
    {d: tuple(_step(s, sq, d) for sq in range(64)) for d in _DIRECTIONS} for s in (0, 1)
)
_HOME: Final = tuple(tuple(sq // 8 + 1 == HOME_RANK[s] for sq in range(64)) for s in (0, 1))
_SQUARE_RE: Final = "([a-h][1-8])"
