"""Kauda Baji's actions and state: the frozen :class:`KaudaBajiState`
(with its legal moves kept outside its fields) and building the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

from bot.engines.kauda_baji_board import SEATINGS

# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw:
    """Chance: a throw of six shells (R5)."""

    value: int


@dataclass(frozen=True)
class Forfeit:
    """R17: give up a banked value that could only go round the inner ring."""

    value: int


@dataclass(frozen=True, slots=True)
class Move:
    """One move (R6): pieces on ``square`` spend ``values`` together.

    ``whole`` lists the whole tuples moving off together (largest first, R9);
    ``split_k`` pieces split off one tuple of size ``split_of`` join them
    (R11, 0 and 0 for no split).  ``arrows`` holds the choice at each arrow
    square the move steps off, in order (True: turn in, R2).
    """

    square: int
    whole: tuple[int, ...]
    split_k: int
    split_of: int
    values: tuple[int, ...]
    arrows: tuple[bool, ...]

    @property
    def size(self) -> int:
        return sum(self.whole) + self.split_k


KaudaBajiAction = Throw | Forfeit | Move

# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

Stack = tuple[int, int]
"""``(step, size)`` on the owner's route."""


# A Python class when compiled (see bot/engines/compiled.py): it keeps
# derived data in its ``__dict__``, which mypyc's native classes lack.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class KaudaBajiState:
    num_players: int
    pieces: int
    markut: bool
    kill_bonus: bool
    pairwise: bool
    play_to_end: bool
    phase: str
    turn: int
    """The player to throw or move; -1 while finding the first player (R7)."""
    stacks: tuple[tuple[Stack, ...], ...]
    """Per player, sorted by step then size."""
    home: tuple[int, ...]
    """Per player, pieces that reached the centre (R17)."""
    killed: tuple[bool, ...]
    """Per player, has killed at least once (R15)."""
    bank: tuple[int, ...]
    """Unspent values of the turn, largest first (R6)."""
    run: int
    """6s and 12s in a row in this turn (R6)."""
    bonus: bool
    """The next throw is a kill bonus throw (R16)."""
    pending: int
    """Further bonus throws owed after the current one (R16)."""
    contenders: tuple[int, ...]
    """R7: players throwing for first player this round."""
    first_throws: tuple[int, ...]
    """R7: their throws so far, in order."""
    places: tuple[int, ...]
    """R18: finished players, best first."""
    last: tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None
    """The last move: player, from square, to square, values, path, kill squares."""
    news: str
    """The last action as told in the channel."""
    occupied: tuple[frozenset[int], ...]
    """Per player, the board squares their stacks stand on: derived from
    ``stacks`` (never stored), kept so a kill check is one set lookup."""

    # The legal moves of a state in the move phase are worked out once and
    # kept beside its fields under ``_LEGAL`` (not a field: no part of
    # equality, hashing, repr or JSON), so that settling the turn (R8),
    # offering the moves and checking the one played share one computation.

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (search workers, copies) without the kept moves: they are
        worked out again on demand."""
        return {k: v for k, v in self.__dict__.items() if k != _LEGAL}


_LEGAL: Final = "_legal"
"""Where a state keeps its legal moves (see :class:`KaudaBajiState`)."""


def _replace(state: KaudaBajiState, **changes: Any) -> KaudaBajiState:
    """``dataclasses.replace`` without re-running ``__init__`` (the hot path
    of every action).  Field names are checked by the tests' round trips
    (``to_json`` writes every field), not here."""
    return _with(state, changes)


def _with(state: KaudaBajiState, changes: dict[str, Any]) -> KaudaBajiState:
    """:func:`_replace` with the changes as a dict; the new state does not
    keep the old one's legal moves unless ``changes`` sets ``_LEGAL``."""
    after: KaudaBajiState = object.__new__(KaudaBajiState)
    object.__setattr__(after, "__dict__", {**state.__dict__, _LEGAL: None, **changes})
    return after


def _made(fields: dict[str, Any]) -> KaudaBajiState:
    """A state with exactly ``fields`` (every field, and ``_LEGAL``): the
    hot paths write a new state's fields in one dict."""
    after: KaudaBajiState = _new(KaudaBajiState)
    _set(after, "__dict__", fields)
    return after


_new: Final = object.__new__
_set: Final = object.__setattr__


def _seat(state: KaudaBajiState, player: int) -> int:
    return SEATINGS[state.num_players][player]
