"""Kauda Baji's board (R1-R5): the squares, each seat's spiralling route
and its arrows, the safe squares, the seatings and the shells' throws.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from math import comb
from typing import Final

from bot.engines.messages import Msg

# --------------------------------------------------------------------------
# The board (R1-R3)
# --------------------------------------------------------------------------

FILES: Final = "abcdefg"
SEAT_NAMES: Final = ("bottom", "right", "top", "left")
SEAT_TITLES: Final = (Msg("Bottom"), Msg("Right"), Msg("Top"), Msg("Left"))
"""The seats' names for the lobby (messages)."""
CENTRE_STEP: Final = 48
ARROW_STEPS: Final = (23, 39, 47)
"""R1: the steps of arrows 1, 2 and 3 on every seat's route."""
ROUND_TO: Final = {23: 0, 39: 24, 47: 40}
"""R2: where a piece goes when it goes round at an arrow instead of turning in."""
THROW_VALUES: Final = (1, 2, 3, 4, 5, 6, 12)
EXTRA_THROW: Final = frozenset((6, 12))
"""R6: values that earn another throw."""


_SQUARE_NAMES: Final = tuple(FILES[sq % 7] + str(sq // 7 + 1) for sq in range(49))


def square_name(sq: int) -> str:
    return _SQUARE_NAMES[sq]


def square_of(name: str) -> int:
    return FILES.index(name[0]) + 7 * (int(name[1]) - 1)


_BOTTOM_ROUTE: Final = (
    "d1",
    "e1",
    "f1",
    "g1",
    "g2",
    "g3",
    "g4",
    "g5",
    "g6",
    "g7",
    "f7",
    "e7",
    "d7",
    "c7",
    "b7",
    "a7",
    "a6",
    "a5",
    "a4",
    "a3",
    "a2",
    "a1",
    "b1",
    "c1",
    "b2",
    "b3",
    "b4",
    "b5",
    "b6",
    "c6",
    "d6",
    "e6",
    "f6",
    "f5",
    "f4",
    "f3",
    "f2",
    "e2",
    "d2",
    "c2",
    "c3",
    "c4",
    "c5",
    "d5",
    "e5",
    "e4",
    "e3",
    "d3",
    "d4",
)
"""R1: the Bottom seat's route, steps 0 to 48."""


def _turn(sq: int, times: int) -> int:
    """``sq`` turned a quarter turn anticlockwise about d4, ``times`` times."""
    f, r = sq % 7, sq // 7
    for _ in range(times):
        f, r = 6 - r, f
    return f + 7 * r


ROUTES: Final = tuple(
    tuple(_turn(square_of(name), seat) for name in _BOTTOM_ROUTE) for seat in range(4)
)
"""R1: each seat's route (Bottom, Right, Top, Left), board square per step."""
STEP_OF: Final = tuple(tuple(route.index(sq) for sq in range(49)) for route in ROUTES)
"""Each seat's step of every board square."""
_SAFE_NAMES: Final = (
    "a1",
    "g1",
    "a7",
    "g7",
    "d1",
    "g4",
    "d7",
    "a4",
    "c3",
    "e3",
    "c5",
    "e5",
    "d4",
)
SAFE: Final = frozenset(square_of(n) for n in _SAFE_NAMES)
"""R3: the thirteen safe squares."""
SEATINGS: Final = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
"""R4: which seats the players take, in join (and turn) order."""
SIZE_NAMES: Final = ("", "single", "twin", "triple", "quadruple", "quintuple", "sextuple")
SIZE_WORDS: Final = (
    Msg("tuple"),
    Msg("single"),
    Msg("twin"),
    Msg("triple"),
    Msg("quadruple"),
    Msg("quintuple"),
    Msg("sextuple"),
)
"""``SIZE_NAMES`` in sentences (messages: translated inside them)."""
SIZE_TITLES: Final = (
    Msg("Tuple"),
    Msg("Single"),
    Msg("Twin"),
    Msg("Triple"),
    Msg("Quadruple"),
    Msg("Quintuple"),
    Msg("Sextuple"),
)
"""The same at the start of a label."""

_THROW_ODDS: Final = tuple(
    (12 if k == 0 else k, Fraction(comb(6, k), 64)) for k in (1, 2, 3, 4, 5, 6, 0)
)
"""R5: value and chance of a throw of six shells, k of them mouth up."""

FIRST, THROW, MOVE, OVER = "first", "throw", "move", "over"


def iter_routes() -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each seat's route as square names (R1), for documentation and tests."""
    for seat in range(4):
        yield SEAT_NAMES[seat], tuple(square_name(sq) for sq in ROUTES[seat])
