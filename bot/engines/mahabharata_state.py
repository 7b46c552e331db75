"""Mahabharata's state and actions: the immutable
:class:`MahabharataState` (with the derived data it keeps outside its
fields), the actions players and chance take, and the prebuilt values the
engine hands out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from bot.engines.core import (
    CHANCE,
    Seat,
)
from bot.engines.mahabharata_components import NUM_TOKEN_KINDS
from bot.engines.messages import Msg

_T = TypeVar("_T")

# --------------------------------------------------------------------------
# State and actions
# --------------------------------------------------------------------------

SETUP: Final = "setup"
FIRST: Final = "first"
ROLL: Final = "roll"
DRAFT: Final = "draft"
ANNOUNCE: Final = "announce"
OVER: Final = "over"
_PHASES: Final = (SETUP, FIRST, ROLL, DRAFT, ANNOUNCE, OVER)

Space = tuple[Seat | None, tuple[int, ...]]
"""(owner, stacked token kind indices bottom first) of one leader space."""

_EMPTY_SPACE: Final[Space] = (None, ())
PLACED_SCREEN: Final = "screen"
PLACED_LEADER: Final = "leader"
PLACED_NOTHING: Final = "nothing"
_PLACED: Final = (PLACED_SCREEN, PLACED_LEADER, PLACED_NOTHING)


@dataclass(frozen=True, slots=True)
class LastPick:
    """The latest draft pick, for the board (see :class:`LastPickView`)."""

    seat: Seat
    die: int
    """1-based."""
    face: str
    placed: str
    """``screen``, ``leader`` or ``nothing``."""
    leader: int | None = None
    """Leader placements: the leader's table index."""
    space: int | None = None
    """Leader placements: 1-based."""
    token: str | None = None
    """Leader placements: the token kind.  ``None`` for the screen (R14)."""


# A Python class when compiled (see bot/engines/compiled.py): it keeps
# derived data in its ``__dict__``, which mypyc's native classes lack.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class MahabharataState:
    """One moment of a game.  Immutable; built on the hot path by
    :func:`_build` from a dict of its fields (no ``__slots__``, so a draft
    state can keep its legal picks in its ``__dict__``, see :data:`_LEGAL`)."""

    num_players: int
    phase: str
    drawn: tuple[int, ...]
    """R4: leader table indices drawn in the current attempt, in draw order."""
    leaders: tuple[int, ...]
    """Leader table indices in play, in table order (empty during setup)."""
    round: int
    elephant: Seat | None
    faces: tuple[str | None, ...]
    """Per die: the rolled face this round (token kind or ``raja``)."""
    taken: tuple[Seat | None, ...]
    """Per die: who took it this round."""
    picks: int
    spaces: tuple[tuple[Space, ...], ...]
    """Per leader in play, per space."""
    screens: tuple[tuple[int, ...], ...]
    """Per seat, per token kind: how many are behind the screen."""
    supply: tuple[tuple[int, ...], ...]
    """Per seat, per token kind: how many are left to place."""
    pending: frozenset[Seat]
    """Announce phase: seats with a complete Pati that have not decided."""
    announced: tuple[bool, ...]
    reason: str
    """Why the game ended (phase ``over``)."""
    last_pick: LastPick | None = None
    """The latest pick; kept across rounds, ``None`` before the first."""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to a search worker) as its fields only, without the
        caches (:data:`_LEGAL`, :data:`_OPEN`)."""
        d = self.__dict__
        return {name: d[name] for name in _FIELD_ORDER}


_new_state: Final = object.__new__
_set_field: Final = object.__setattr__
_FIELD_ORDER: Final = tuple(f.name for f in fields(MahabharataState))
_FIELD_NAMES: Final = frozenset(_FIELD_ORDER)
_LEGAL: Final = "_legal"
"""The key under which a draft state keeps its picker's legal picks (see
:meth:`MahabharataEngine._legal`) in its ``__dict__``: not a field, so
equality, hashing, ``repr``, JSON and pickles never see it."""
_OPEN: Final = "_open"
"""The key under which a state keeps which leader spaces each seat may use
(R8; see :meth:`MahabharataEngine._open_masks`) in its ``__dict__``, like
:data:`_LEGAL`.  It follows from ``leaders`` and ``spaces`` alone, so a
state built from another keeps it unless those change: :func:`_replace`
drops it then, and a leader placement (``_listed_pick``) updates it."""


def _fields_of(state: MahabharataState) -> dict[str, Any]:
    """The state's fields as a fresh dict, with the open-space masks but
    without the legal-pick cache (which would be wrong for any state built
    from it)."""
    d = state.__dict__.copy()
    d.pop(_LEGAL, None)
    return d


def _build(d: dict[str, Any]) -> MahabharataState:
    """A state from a complete dict of its fields (from :func:`_fields_of`):
    ``dataclasses.replace`` runs ``__init__`` and its frozen ``__setattr__``
    per field, several times slower on the playout path."""
    after: MahabharataState = _new_state(MahabharataState)
    _set_field(after, "__dict__", d)
    return after


def _replace(state: MahabharataState, **changes: Any) -> MahabharataState:
    """``dataclasses.replace`` for states, without the legal-pick cache."""
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"MahabharataState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
    d = _fields_of(state)
    if "spaces" in changes or "leaders" in changes:
        d.pop(_OPEN, None)
    d.update(changes)
    return _build(d)


@dataclass(frozen=True, slots=True)
class DrawLeader:
    leader: str


@dataclass(frozen=True, slots=True)
class ChooseFirst:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Roll:
    die: int
    face: str


@dataclass(frozen=True, slots=True)
class PlaceScreen:
    die: int


@dataclass(frozen=True, slots=True)
class PlaceLeader:
    die: int
    leader: str
    space: int
    """1-based."""
    token: str | None
    """The token kind; ``None`` only when parsed for a Raja die without one."""


@dataclass(frozen=True, slots=True)
class TakeNothing:
    die: int


@dataclass(frozen=True, slots=True)
class Announce:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    pass


MahabharataAction = (
    DrawLeader | ChooseFirst | Roll | PlaceScreen | PlaceLeader | TakeNothing | Announce | Pass
)
_PICKS: Final = (PlaceScreen, PlaceLeader, TakeNothing)
_NOBODY: Final[frozenset[Seat]] = frozenset()
_CHANCE_ONLY: Final = frozenset((CHANCE,))
# What a listed pick is (see MahabharataEngine._pick_info).
_TO_SCREEN: Final = 0
_TO_LEADER: Final = 1
_TO_NOTHING: Final = 2
_PickInfo = tuple[int, int, int, int, int, int, dict[int, "LastPick"]]
"""(what, die index, token kind, leader index, space index, table-wide space
number, LastPick by seat and face) of a pick ``legal_actions`` may list."""
_Getter = Callable[[tuple["PlaceLeader", ...]], tuple["PlaceLeader", ...]]
"""Picks some placements out of a row of them (see ``_getter``)."""
_FACE_KEYS: Final = NUM_TOKEN_KINDS + 1
"""Faces per seat in a LastPick key: a token kind index, or -1 (Raja) + 1."""
_ANNOUNCE: Final = Announce()
_PASS: Final = Pass()

_HELP: Final[str] = Msg(
    "Try 'd3 screen', 'd3 drona.2', 'd3 drona.2 cav2' (Raja die), 'd3 none', 'announce' or 'pass'."
)


def _set(seq: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """A copy of ``seq`` with item ``i`` replaced."""
    return (*seq[:i], value, *seq[i + 1 :])
