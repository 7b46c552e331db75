"""Artaban's state: the frozen :class:`ArtabanState` (a native class when
compiled, with each seat's moves kept outside its fields), and building the
state a move leads to.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, fields
from typing import Any, Final

from bot.engines.artaban_board import _HOME, _OWNER, OVER, PLAY, QUIET, QUIET_LIMIT, STUCK
from bot.engines.artaban_moves import ArtabanAction, _generate
from bot.engines.core import (
    Seat,
)

# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

LastMove = tuple[Seat, str, int, int]
"""(seat, kind, from square, to square); kind is tip, turn, capture or sacrifice."""

# The two pairs below are typed as tuples of any length so that mypyc keeps
# them as tuple objects: a pair type it unpacks into C values, and indexing
# it by seat then builds a new tuple every time.
Squares = tuple[tuple[int, ...], ...]
"""One tuple of squares per seat."""
Known = tuple[list[ArtabanAction] | None, ...]
"""What a state keeps under :data:`_LEGAL`: each seat's moves, or None."""


class _MoveCache:
    """The slot in which a state keeps its moves (:data:`_LEGAL`): declared
    on a base class, as an annotation in the dataclass would make a field of
    it (and mypyc needs the annotation to give the native class the slot)."""

    __slots__ = ("_legal",)
    _legal: Known

    @property
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        # Only the compiled (native) class gets here: its fields live in C
        # slots, so vars() and _fields_of find them through this.  The pure
        # class's own __dict__ comes first.
        return {name: getattr(self, name) for name in _FIELD_ORDER}


@dataclass(frozen=True)
class ArtabanState(_MoveCache):
    phase: str
    diagonal: bool
    """R5: the diagonal-captures variant is on."""
    board: tuple[int, ...]
    """64 die codes (0 = empty), rank-major from a1."""
    to_play: Seat
    quiet: int
    """Plies in a row without a forward tip, a capture or a sacrifice (R9)."""
    ply: int
    draw_offer: Seat | None
    last_move: LastMove | None
    values: tuple[tuple[int, ...], tuple[int, ...]]
    """R7: each seat's top values for files a, b, ... (hidden until both commit)."""
    leaders: tuple[int, int]
    """R7: each seat's Leader file, -1 while not chosen."""
    committed: tuple[bool, bool]
    dealing: Seat | None
    """The seat whose random set-up chance is dealing now."""
    result: str
    """How the game ended: ``stuck``, ``quiet``, ``agreed`` (empty while on)."""
    movers: Squares
    """Derived from :attr:`board` (kept for speed): each seat's squares with a
    die that may still move (not home, R8), ascending."""

    def __init__(
        self,
        phase: str,
        diagonal: bool,
        board: tuple[int, ...],
        to_play: Seat,
        quiet: int,
        ply: int,
        draw_offer: Seat | None,
        last_move: LastMove | None,
        values: tuple[tuple[int, ...], tuple[int, ...]],
        leaders: tuple[int, int],
        committed: tuple[bool, bool],
        dealing: Seat | None,
        result: str,
        movers: Squares,
    ) -> None:
        # The frozen dataclass's own __init__ (dataclass() keeps one the
        # class defines), written out so that mypyc compiles it instead of
        # leaving it to the interpreter: a compiled state is then built for
        # about the cost of a tuple (_after_move).
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "diagonal", diagonal)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "to_play", to_play)
        object.__setattr__(self, "quiet", quiet)
        object.__setattr__(self, "ply", ply)
        object.__setattr__(self, "draw_offer", draw_offer)
        object.__setattr__(self, "last_move", last_move)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "leaders", leaders)
        object.__setattr__(self, "committed", committed)
        object.__setattr__(self, "dealing", dealing)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "movers", movers)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to a search worker) without the move cache (:data:`_LEGAL`)."""
        return _fields_of(self)


def _movers(board: tuple[int, ...]) -> Squares:
    found: tuple[list[int], list[int]] = ([], [])
    for sq, code in enumerate(board):
        if code and not _HOME[_OWNER[code]][sq]:
            found[_OWNER[code]].append(sq)
    return tuple(found[0]), tuple(found[1])


_NATIVE: Final = ArtabanState.__dictoffset__ == 0
"""Compiled with mypyc, ArtabanState is a native class: its fields live in
C slots, not in a ``__dict__``, and its ``__init__`` is compiled."""
_new_state: Final = object.__new__
_set_fields: Final = object.__setattr__
_FIELD_ORDER: Final = tuple(f.name for f in fields(ArtabanState))
_FIELD_NAMES: Final = frozenset(_FIELD_ORDER)

_LEGAL: Final = "_legal"
"""The slot in which a PLAY state keeps, per seat, the list of its dice's
moves (:func:`_generate`) or None where not worked out: not a field, so
equality, hashing, ``repr``, ``vars``, JSON and pickles never see it.
States are immutable, so it never goes stale; a state built from another
starts without it unless the rules say the moves are the same (a turn, a
draw offer or a refusal; see ``_after_move`` and ``_same_moves``)."""


def _fields_of(state: ArtabanState) -> dict[str, Any]:
    """The state's fields as a fresh dict (the move cache is not among them:
    it may be wrong for any state built from this one).

    Always a plain (combined) dict: a copy of the split dict ``__init__``
    gives an instance stays split, and on a class with ``__slots__`` every
    attribute read of such a state is twice as slow (CPython 3.11 only
    specializes combined dicts there)."""
    return {**state.__dict__}


def _build(d: dict[str, Any]) -> ArtabanState:
    """The state with the field dict ``d``, built like ``ArtabanState(**d)``
    would be: in pure Python at a third of the cost of the frozen
    ``__init__``, compiled by that (compiled) ``__init__`` itself."""
    if _NATIVE:
        return ArtabanState(**d)
    after = _new_state(ArtabanState)
    _set_fields(after, "__dict__", d)
    return after


def _replace(state: ArtabanState, **changes: Any) -> ArtabanState:
    """``dataclasses.replace`` without its per-call introspection: a copy of
    ``state`` with ``changes`` (and without its move cache)."""
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"ArtabanState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
    if _NATIVE:
        # Compiled: the fields read and the state built natively, several
        # times cheaper than through the field dict.
        return ArtabanState(
            changes.get("phase", state.phase),
            changes.get("diagonal", state.diagonal),
            changes.get("board", state.board),
            changes.get("to_play", state.to_play),
            changes.get("quiet", state.quiet),
            changes.get("ply", state.ply),
            changes.get("draw_offer", state.draw_offer),
            changes.get("last_move", state.last_move),
            changes.get("values", state.values),
            changes.get("leaders", state.leaders),
            changes.get("committed", state.committed),
            changes.get("dealing", state.dealing),
            changes.get("result", state.result),
            changes.get("movers", state.movers),
        )
    d = _fields_of(state)
    d.update(changes)
    return _build(d)


def _pair(pair: Squares, seat: Seat, squares: tuple[int, ...]) -> Squares:
    return (squares, pair[1]) if seat == 0 else (pair[0], squares)


def _moved(squares: tuple[int, ...], old: int, new: int, home: tuple[bool, ...]) -> tuple[int, ...]:
    """``squares`` with ``old`` taken out and ``new`` (unless it is home or -1) put in."""
    kept = list(squares)
    if new < 0 or home[new]:
        kept.remove(old)
    elif new - old in (1, -1):
        # Sideways, to the next square of the same rank: no square lies
        # between the two, so the order stands.
        kept[kept.index(old)] = new
    else:
        kept.remove(old)
        insort(kept, new)
    return tuple(kept)


_EMPTY_BOARD: Final = (0,) * 64


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


def _moves_of(state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
    """The moves of ``seat``'s dice in ``state`` (PLAY), kept in the state
    (:data:`_LEGAL`); never handed out, so callers copy."""
    known: Known | None = getattr(state, _LEGAL, None)
    if known is not None:
        moves = known[seat]
        if moves is not None:
            return moves
    moves = _generate(state.board, state.movers[seat], seat, state.diagonal)
    other = known[1 - seat] if known is not None else None
    _set_fields(state, _LEGAL, (moves, other) if seat == 0 else (other, moves))
    return moves


def _after_move(
    state: ArtabanState,
    seat: Seat,
    board: tuple[int, ...],
    movers: Squares,
    last: LastMove,
    progress: bool,
    known: Known | None,
) -> ArtabanState:
    """The state after ``seat``'s tip, turn, capture or sacrifice;
    ``known``: both seats' moves when the move cannot have changed them
    (a turn), else None."""
    quiet = 0 if progress else state.quiet + 1
    nxt = 1 - seat
    keep: Known | None = None
    if quiet >= QUIET_LIMIT:
        result = QUIET
    else:
        # R9: the game ends when the player to move next has no tip, capture
        # or sacrifice.  Their moves are worked out now (and kept for
        # legal_actions): each die has two turns, so anything more is one.
        theirs = known[nxt] if known is not None else None
        if theirs is None:
            theirs = _generate(board, movers[nxt], nxt, state.diagonal)
        if len(theirs) == 2 * len(movers[nxt]):
            result = STUCK
        else:
            result = ""
            mine = known[seat] if known is not None else None
            keep = (mine, theirs) if nxt == 1 else (theirs, mine)
    # R9: the opponent's pending offer lapses when this player moves
    # instead; this player's own offer stands for the opponent to answer.
    offer = state.draw_offer
    if offer is not None and (result or offer != seat):
        offer = None
    if not _NATIVE:
        # The hot path of every game, in Python: the fields copied and the
        # changed ones set, at a third of the cost of the frozen __init__.
        d = {**state.__dict__}  # a combined dict, see _fields_of
        if result or state.dealing is not None or state.result:
            d["phase"] = OVER if result else PLAY
            d["dealing"] = None  # only a hand-made state could say otherwise
            d["result"] = result
        d["board"] = board
        d["to_play"] = nxt
        d["quiet"] = quiet
        d["ply"] = state.ply + 1
        d["draw_offer"] = offer
        d["last_move"] = last
        d["movers"] = movers
        after = _new_state(ArtabanState)  # as _build does
        _set_fields(after, "__dict__", d)
        if keep is not None:
            _set_fields(after, _LEGAL, keep)
        return after
    # Compiled: the native class's compiled __init__ beats any copy.
    after = ArtabanState(
        OVER if result else PLAY,
        state.diagonal,
        board,
        nxt,
        quiet,
        state.ply + 1,
        offer,
        last,
        state.values,
        state.leaders,
        state.committed,
        None,
        result,
        movers,
    )
    if keep is not None:
        # Written out, mypyc calls the slot's setter directly (the alias
        # above is the cheaper call in Python).
        object.__setattr__(after, _LEGAL, keep)
    return after
