"""Martian Chaturaji's actions and state: the frozen
:class:`ChaturajiState` (its legal moves kept outside its fields) and
copying it field by field.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Final

from mypy_extensions import mypyc_attr

# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """R3: the piece on ``frm`` goes to ``to`` (capturing what stands there).
    ``promo`` is the kind a squire becomes (R10), -1 for none; ``frm == to``
    is a promotion in place."""

    frm: int
    to: int
    promo: int = -1


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the next die shows ``value`` (1 .. 4)."""

    value: int


@dataclass(frozen=True, slots=True)
class First:
    """R14: the winning partnership's first army."""

    army: int


@dataclass(frozen=True, slots=True)
class Reenter:
    """R11: re-enter both captured monarchs, ``first``'s placed first; -1: no."""

    first: int


@dataclass(frozen=True, slots=True)
class Place:
    """R11: the re-entering monarch goes on ``square``."""

    square: int


ChaturajiAction = Move | Pass | Roll | First | Reenter | Place
PASS: Final = Pass()
_ROLLS: Final = tuple(Roll(v) for v in range(1, 5))
_QUARTER: Final = Fraction(1, 4)
# One odds object for every face: ``sample_chance`` sees a uniform roll by
# identity and indexes it directly.
_ROLL_ODDS: Final = [(r, _QUARTER) for r in _ROLLS]
_MOVES: Final = tuple(tuple(Move(f, t) for t in range(64)) for f in range(64))

MoveRecord = tuple[int, int, int, int, int, tuple[int, ...]]
"""(army, kind, from (-1: placed), to, promoted kind or -1, captured squares)."""
Die = tuple[int, int, int, bool]
"""(army, rolled face 1..4, kind after counting up or -1 when void, used)."""


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------


# A Python class when compiled (see bot/engines/compiled.py): it keeps
# derived data in its ``__dict__``, which mypyc's native classes lack.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class ChaturajiState:
    num_players: int
    quiet_limit: int
    """R15: turns in a row without progress that draw the game (0: off)."""
    phase: str
    board: tuple[int, ...]
    """64 piece codes (0 = empty), rank-major from a1."""
    monarchs: tuple[int, ...]
    """Each army's monarch square, -1 while captured (derived from the board)."""
    squares: tuple[tuple[int, ...], ...]
    """Each army's occupied squares, ascending (derived from the board): move
    generation visits these instead of all 64 squares."""
    turn: int
    """The army whose turn it is (-1 before the first turn)."""
    control: int
    """R8: the army the mover also commands this turn, -1 for none."""
    stage: int
    """0 while the mover's own dice are in use, 1 for the controlled army's."""
    dice: tuple[Die, ...]
    start_rolls: tuple[int, ...]
    """R14: starting dice so far, Blue, Red, Green, Yellow."""
    reentry: tuple[int, ...]
    """R11: the two armies whose monarchs may re-enter (capturer's side first)."""
    placing: tuple[int, ...]
    """R11: armies still to place their monarch, in order."""
    quiet: int
    eventful: bool
    """Something in this turn resets the quiet count (R15)."""
    turn_moves: tuple[MoveRecord, ...]
    last_moves: tuple[MoveRecord, ...]
    skipped: tuple[int, ...]
    """Armies whose turns were skipped when this turn began (R7)."""
    turns: int
    winner: int
    """The winning partnership, -1 (none yet, or a quiet draw)."""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to a search worker) without the legal-move cache."""
        return _fields_of(self)


_new_state: Final = object.__new__
_set_fields: Final = object.__setattr__
_FIELD_NAMES: Final = frozenset(f.name for f in fields(ChaturajiState))
_LEGAL: Final = "_legal"
"""The key under which a MOVE state keeps its legal piece moves (see
:func:`_legal`) in its ``__dict__``: not a field, so equality, hashing,
``repr``, JSON and pickles never see it."""


def _fields_of(state: ChaturajiState) -> dict[str, Any]:
    """The state's fields as a fresh dict, without the legal-move cache
    (which would be wrong for any state built from it)."""
    d = state.__dict__.copy()
    d.pop(_LEGAL, None)
    return d


def _replace(state: ChaturajiState, **changes: Any) -> ChaturajiState:
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"ChaturajiState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
    d = _fields_of(state)
    d.update(changes)
    return _build(d)


def _build(d: dict[str, Any]) -> ChaturajiState:
    after = _new_state(ChaturajiState)
    _set_fields(after, "__dict__", d)
    return after
