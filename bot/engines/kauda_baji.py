"""Kauda Baji: a race of tuples along a spiralling path, moved by cowrie shells.

The complete rules are docs/rules/kauda_baji.md, numbered R1-R18; comments
here cite those numbers.  The engine is pure: shell throws are chance
actions (``throw 4``) with exact probabilities (R5), so a game is its options
plus its log.

Positions are kept per player as *stacks*: ``(step, size)`` pairs, where the
step counts along the player's own route (R1: 0 the start square, 48 the
centre) and a single piece is a stack of size 1 (R9).  Several stacks of one
player may share a square; they stay separate until they move off together.

Notation (docs/rules/kauda_baji.md, "Move notation"):
``<square> [x<group>] <values> [in|round ...]``, e.g. ``c7 x2 6``,
``a2 4+2 in``, ``a1 x1of3 5``, ``forfeit 5``; chance: ``throw 12``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from bot.engines.core import (
    CHANCE,
    JSON,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    excerpt,
    plural,
    resolve_options,
    seat_tag,
    whole_number,
)
from bot.engines.kauda_baji_views import (
    KaudaBajiView,
    MoveView,
    PlayerView,
    StackView,
)

# --------------------------------------------------------------------------
# The board (R1-R3)
# --------------------------------------------------------------------------

FILES: Final = "abcdefg"
SEAT_NAMES: Final = ("bottom", "right", "top", "left")
SEAT_TITLES: Final = ("Bottom", "Right", "Top", "Left")
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

_THROW_ODDS: Final = tuple(
    (12 if k == 0 else k, Fraction(comb(6, k), 64)) for k in (1, 2, 3, 4, 5, 6, 0)
)
"""R5: value and chance of a throw of six shells, k of them mouth up."""

FIRST, THROW, MOVE, OVER = "first", "throw", "move", "over"

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


# --------------------------------------------------------------------------
# Walking the route (R1, R2, R17)
# --------------------------------------------------------------------------


@cache
def _paths(step: int, dist: int, in1: bool) -> tuple[tuple[int, tuple[bool, ...]], ...]:
    """Every way to walk ``dist`` squares from ``step``: (end step, arrow choices).

    R2: at each arrow square stepped off, turn in or go round; R15: arrow 1
    turns in only when ``in1``; R17: arrow 3 turns in only on the last square,
    and nothing passes through the centre.
    """
    if dist == 0:
        return ((step, ()),)
    if step == CENTRE_STEP:
        return ()
    out: list[tuple[int, tuple[bool, ...]]] = []
    if step in ROUND_TO:
        can_in = (in1 if step == 23 else True) and (step != 47 or dist == 1)
        if can_in:
            out += [(end, (True, *arr)) for end, arr in _paths(step + 1, dist - 1, in1)]
        out += [(end, (False, *arr)) for end, arr in _paths(ROUND_TO[step], dist - 1, in1)]
        return tuple(out)
    return _paths(step + 1, dist - 1, in1)


def _walk(step: int, dist: int, arrows: tuple[bool, ...]) -> tuple[int, ...]:
    """The steps a move passes over and lands on, following ``arrows``."""
    out: list[int] = []
    choices = iter(arrows)
    for _ in range(dist):
        if step in ROUND_TO:
            step = step + 1 if next(choices) else ROUND_TO[step]
        else:
            step += 1
        out.append(step)
    return tuple(out)


@cache
def _submultisets(sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Distinct sub-multisets of ``sizes`` (largest first), the empty one first."""
    counts: dict[int, int] = {}
    for s in sizes:
        counts[s] = counts.get(s, 0) + 1
    out: list[tuple[int, ...]] = [()]
    for s, n in sorted(counts.items(), reverse=True):
        out = [prev + (s,) * k for prev in out for k in range(n + 1)]
    return tuple(sorted(out, key=lambda t: (len(t), [-x for x in t])))


Group = tuple[tuple[int, ...], int, int]
"""Which of a player's tuples on one square move off together: (whole
tuples, split k, split of m)."""


@cache
def _group_table(sizes: tuple[int, ...], at_start: bool, safe: bool) -> dict[Group, Group]:
    """Every legal group of the tuples ``sizes`` on one square, mapped to the
    one Chaupal offers for its effect.

    R9: no tuple forms on the mover's own start square; R11: splits only on
    safe squares.  Two groups with the same effect (the same size moves off
    and the same tuples stay, e.g. a twin beside a single moving ``x2`` or
    ``x1+1of2``) are one move: the first, simplest, is offered and the others
    are read as it.
    """
    table: dict[Group, Group] = {}
    by_effect: dict[tuple[int, tuple[int, ...]], Group] = {}

    def add(group: Group) -> None:
        whole, k, m = group
        stay = list(sizes)
        for w in whole:
            stay.remove(w)
        if k:
            stay.remove(m)
            stay.append(m - k)
        effect = (sum(whole) + k, tuple(sorted(stay)))
        table[group] = by_effect.setdefault(effect, group)

    for whole in _submultisets(sizes)[1:]:
        if not at_start or len(whole) == 1:
            add((whole, 0, 0))
    if safe:
        for m in sorted(set(sizes), reverse=True):
            if m < 2:
                continue
            rest = list(sizes)
            rest.remove(m)
            joins = ((),) if at_start else _submultisets(tuple(rest))
            for k in range(1, m):
                for whole in joins:
                    add((whole, k, m))
    return table


@cache
def _groups(sizes: tuple[int, ...], at_start: bool, safe: bool) -> tuple[Group, ...]:
    """The groups offered on a square, one per effect (see :func:`_group_table`)."""
    return tuple(dict.fromkeys(_group_table(sizes, at_start, safe).values()))


@cache
def _spends(bank: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """R6: one banked value or several together: (sum, values largest first)."""
    return tuple((sum(v), v) for v in _submultisets(bank)[1:])


def _at(stacks: tuple[Stack, ...], step: int) -> tuple[int, ...]:
    return tuple(sorted((size for s, size in stacks if s == step), reverse=True))


_NONE: Final[frozenset[int]] = frozenset()


class _Played(NamedTuple):
    """What playing one offered move does, worked out the first time it is
    played and kept with the square's moves (most offered moves are never
    played, so this is not done for all of them)."""

    square: int
    size: int
    leaving: tuple[Stack, ...]
    """The mover's stacks that leave ``square`` whole or split (R9, R11)."""
    staying: tuple[Stack, ...]
    """What stays behind of a split tuple (R11), if any."""
    end: int
    """The step it ends on (``CENTRE_STEP``: home, R17)."""
    landing: Stack
    """The moved tuple where it ends."""
    path: tuple[int, ...]
    """The board squares it passes over and lands on."""
    to_square: int
    values: tuple[int, ...]
    rest: tuple[int, ...]
    """The bank once ``values`` are spent."""
    text: str
    """The news after the player's tag, up to the values spent."""
    vacates: bool
    """No tuple of the mover's stays on ``square``."""


_NONE_PLAYED: Final[Mapping[int, _Played]] = MappingProxyType({})


class _SquareLegal:
    """The legal moves from one square, and what they spend (kept small:
    thousands are cached)."""

    __slots__ = (
        "bank",
        "direct",
        "moves",
        "played",
        "round_only",
        "seat",
        "sizes",
        "square",
        "step",
    )

    def __init__(
        self,
        seat: int,
        step: int,
        sizes: tuple[int, ...],
        bank: tuple[int, ...],
        moves: tuple[Move, ...],
        direct: frozenset[int],
        round_only: frozenset[int],
    ) -> None:
        self.seat = seat
        self.step = step
        self.sizes = sizes
        self.square: int = ROUTES[seat][step]
        self.bank = bank
        self.moves = moves
        self.direct = direct
        """Banked values some move spends without going round the inner ring
        again (R17)."""
        self.round_only = round_only
        """Banked values this square's moves spend only by going round again."""
        self.played: Mapping[int, _Played] = _NONE_PLAYED
        """By ``id`` of an offered move (held in ``moves``, so the id is its
        own for as long as this lives): what playing it does.  Most squares'
        moves are never played: they share one empty, read-only table."""

    def find(self, move: Move) -> _Played | None:
        """What ``move`` does if it is one of these, else None."""
        played = self.played.get(id(move))
        if played is not None:
            return played
        # An offered move comes back as the very object (automatic players,
        # benchmarks); a parsed one is compared by value.
        for offered in self.moves:
            if offered is move:
                break
        else:
            if move not in self.moves:
                return None
            offered = self.moves[self.moves.index(move)]
            played = self.played.get(id(offered))
            if played is not None:
                return played
        played = self._play(offered)
        table = self.played
        if not isinstance(table, dict):
            table = self.played = {}
        table[id(offered)] = played
        return played

    def _play(self, move: Move) -> _Played:
        size = move.size
        walked = _walk(self.step, sum(move.values) // size, move.arrows)
        route = ROUTES[self.seat]
        path = tuple(route[s] for s in walked)
        end, to_sq = walked[-1], path[-1]
        rest = list(self.bank)
        for v in move.values:
            rest.remove(v)
        text = (
            f" moves a {SIZE_NAMES[size]} from {_SQUARE_NAMES[move.square]} "
            + ("into the centre" if end == CENTRE_STEP else f"to {_SQUARE_NAMES[to_sq]}")
            + f" with {_values_text(move.values)}"
        )
        step, k, m = self.step, move.split_k, move.split_of
        return _Played(
            move.square,
            size,
            tuple((step, w) for w in move.whole) + (((step, m),) if k else ()),
            ((step, m - k),) if k else (),
            end,
            (end, size),
            path,
            to_sq,
            move.values,
            tuple(rest),
            text,
            len(move.whole) == len(self.sizes) and not move.split_k,
        )


class _Legal:
    """A position's legal moves, gathered square by square."""

    __slots__ = ("actions", "forfeits", "moves", "parts")

    def __init__(self, parts: list[_SquareLegal], moves: list[Move], round_only: bool) -> None:
        self.parts = parts
        self.moves = moves
        """Every legal move, square by square (never handed out: callers get
        copies)."""
        self.forfeits: tuple[Forfeit, ...] = ()
        """R17: values whose every legal use goes round the inner ring again."""
        self.actions: Sequence[Move | Forfeit] = moves
        """The legal actions in the order offered: moves, then forfeits."""
        if round_only:
            maybe = frozenset().union(*(part.round_only for part in parts))
            direct = frozenset().union(*(part.direct for part in parts))
            self.forfeits = tuple(Forfeit(v) for v in sorted(maybe - direct, reverse=True))
            self.actions = [*moves, *self.forfeits]

    def find(self, move: Move) -> _Played | None:
        """What ``move`` does if it is legal, else None."""
        square = move.square
        for part in self.parts:
            if part.square == square:
                return part.find(move)
        return None


def _legal(state: KaudaBajiState) -> _Legal:
    """Every legal move of the player to move (R6, R9-R11, R15, R17), kept
    with the state once worked out."""
    legal: _Legal | None = state.__dict__.get(_LEGAL)
    if legal is None:
        p = state.turn
        in1 = not state.markut or state.killed[p]
        legal = _legal_of(SEATINGS[state.num_players][p], state.stacks[p], state.bank, in1)
        state.__dict__[_LEGAL] = legal
    return legal


def _legal_of(seat: int, stacks: tuple[Stack, ...], bank: tuple[int, ...], in1: bool) -> _Legal:
    """The moves of ``stacks`` spending ``bank`` (only the mover's own pieces
    matter: opponents never block, R13), gathered square by square."""
    parts: list[_SquareLegal] = []
    moves: list[Move] = []
    round_only = False
    sizes: tuple[int, ...] = ()
    here = -1
    # Stacks are sorted by step then size: each square's sizes come
    # smallest first and are offered largest first.
    for step, size in stacks:
        if step == here:
            sizes = (size, *sizes)
            continue
        if sizes:
            part = _square_legal(seat, here, sizes, bank, in1)
            parts.append(part)
            moves += part.moves
            if part.round_only:
                round_only = True
        here = step
        sizes = (size,)
    if sizes:
        part = _square_legal(seat, here, sizes, bank, in1)
        parts.append(part)
        moves += part.moves
        if part.round_only:
            round_only = True
    return _Legal(parts, moves, round_only)


@lru_cache(maxsize=16384)
def _square_legal(
    seat: int, step: int, sizes: tuple[int, ...], bank: tuple[int, ...], in1: bool
) -> _SquareLegal:
    """The moves of the tuples ``sizes`` (largest first) on one square."""
    sq = ROUTES[seat][step]
    out: list[Move] = []
    used: set[int] = set()
    direct: set[int] = set()
    for whole, k, m in _groups(sizes, step == 0, sq in SAFE):
        size = sum(whole) + k
        for total, values in _spends(bank):
            if total % size:
                continue  # R10
            for _, arrows in _paths(step, total // size, in1):
                move = Move(sq, whole, k, m, values, arrows)
                out.append(move)
                used.update(values)
                if not _goes_round_at_arrow3(seat, move):
                    direct.update(values)
    round_only = used - direct
    return _SquareLegal(
        seat,
        step,
        sizes,
        bank,
        tuple(out),
        frozenset(direct),
        frozenset(round_only) if round_only else _NONE,
    )


def _goes_round_at_arrow3(seat: int, move: Move) -> bool:
    step = STEP_OF[seat][move.square]
    if step + sum(move.values) // move.size <= 47:
        return False
    choices = iter(move.arrows)
    for _ in range(sum(move.values) // move.size):
        if step in ROUND_TO:
            turn_in = next(choices)
            if step == 47 and not turn_in:
                return True
            step = step + 1 if turn_in else ROUND_TO[step]
        else:
            step += 1
    return False


def _canonical(state: KaudaBajiState, move: Move) -> Move:
    """``move`` as the group Chaupal offers for the same effect (or as typed)."""
    p = state.turn
    seat = SEATINGS[state.num_players][p]
    step = STEP_OF[seat][move.square]
    table = _group_table(_at(state.stacks[p], step), step == 0, move.square in SAFE)
    group = table.get((move.whole, move.split_k, move.split_of))
    if group is None:
        return move
    whole, k, m = group
    return Move(move.square, whole, k, m, move.values, move.arrows)


def _squares_of(seat: int, stacks: tuple[Stack, ...]) -> frozenset[int]:
    """The board squares a player's stacks stand on."""
    route = ROUTES[seat]
    return frozenset([route[step] for step, _ in stacks])


def _occupancy(
    num_players: int, stacks: tuple[tuple[Stack, ...], ...]
) -> tuple[frozenset[int], ...]:
    seating = SEATINGS[num_players]
    return tuple(_squares_of(seating[p], mine) for p, mine in enumerate(stacks))


@cache
def _values_text(values: tuple[int, ...]) -> str:
    return "+".join(str(v) for v in values)


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

_SQUARE_RE: Final = re.compile(r"[a-g][1-7]")
SPENDS_SHOWN: Final = 20
"""Up to this many ways to spend the bank are offered at once (a row of
board buttons); a bigger bank is first narrowed by its largest value."""
_MENU_RE: Final = re.compile(
    r"(?P<pieces>[a-g][1-7](?: x[0-9+of]+)?) (?P<values>[0-9]+(?:\+[0-9]+)*)(?: (?:in|round))*"
)
_HELP: Final = (
    "Moves look like `c7 x2 6`, `a2 4+2 in` or `forfeit 5` "
    "(docs: square, pieces, values, arrow choices)."
)
_CHANCE_SET: Final = frozenset({CHANCE})
_ONLY: Final = tuple(frozenset({p}) for p in range(4))
_TAGS: Final = tuple(seat_tag(p) for p in range(4))
_NOBODY: Final[frozenset[Seat]] = frozenset()
_MOVERS: Final[Mapping[str, frozenset[Seat]]] = {
    FIRST: _CHANCE_SET,
    THROW: _CHANCE_SET,
    OVER: _NOBODY,
}
"""Who moves in each phase but the move phase (the player to move) and
nobody in any other."""
_THROW_OUTCOMES: Final = tuple((Throw(v), p) for v, p in _THROW_ODDS)
"""R5 as chance outcomes, built once: the same objects every throw."""
_THROW_VALUE_SET: Final = frozenset(THROW_VALUES)
_TURN_OVER: Final[Mapping[str, Any]] = {"bank": (), "run": 0, "bonus": False, "pending": 0}
"""What a turn's end clears (R6, R16)."""
_SQUARE_SETS: Final = tuple(frozenset({sq}) for sq in range(49))
_THROW_NEWS: Final = tuple({v: f"{tag} throws {v}." for v in THROW_VALUES} for tag in _TAGS)
"""Each player's news of an ordinary throw, written once."""
_OPPONENTS: Final = {
    n: tuple(tuple((q, seating[q]) for q in range(n) if q != p) for p in range(n))
    for n, seating in SEATINGS.items()
}
"""Per player count and player, the other players and their seats (R12)."""


class KaudaBajiEngine:
    name: str = "kauda_baji"
    title: str = "Kauda Baji"
    revision: int = 1
    min_players: int = 2
    max_players: int = 4

    def __init__(self) -> None:
        self.options: Mapping[str, Option] = {
            "pieces": Option(6, "R4: pieces per player", low=1, high=6),
            "markut": Option(True, "R15: arrow 1 opens only after the player's first kill"),
            "kill_bonus": Option(True, "R16: an extra throw for each tuple killed"),
            "multi_opponent_combat": Option(
                "none",
                "R14: with two or more opponents on a square, none kills nothing; "
                "pairwise settles each opponent as with one",
                choices=("none", "pairwise"),
            ),
            "play_to_end": Option(True, "R18: play on for every place (no: stop at the first)"),
        }

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> KaudaBajiState:
        if not isinstance(num_players, int) or not 2 <= num_players <= 4:
            raise InvalidOptions("Kauda Baji is a game for 2, 3 or 4 players.")
        opts = resolve_options(self, options)
        pieces = opts["pieces"]
        return KaudaBajiState(
            num_players=num_players,
            pieces=pieces,
            markut=opts["markut"],
            kill_bonus=opts["kill_bonus"],
            pairwise=opts["multi_opponent_combat"] == "pairwise",
            play_to_end=opts["play_to_end"],
            phase=FIRST,
            turn=-1,
            stacks=tuple(((0, 1),) * pieces for _ in range(num_players)),
            occupied=tuple(
                frozenset({ROUTES[seat][0]}) for seat in SEATINGS[num_players][:num_players]
            ),
            home=(0,) * num_players,
            killed=(False,) * num_players,
            bank=(),
            run=0,
            bonus=False,
            pending=0,
            contenders=tuple(range(num_players)),
            first_throws=(),
            places=(),
            last=None,
            news="",
        )

    # ----- menus -------------------------------------------------------------

    def menu_words(self, state: KaudaBajiState, seat: Seat, text: str) -> tuple[str, ...]:
        """Menu levels for spending the bank (issue: value, then pieces, then
        arrows): ``c7 x2 6 in`` -> ``("6", "c7 x2", "c7 x2 6 in")``.
        Forfeits and throws are one level."""
        m = _MENU_RE.fullmatch(text)
        if m is None:
            return (text,)
        values = m.group("values")
        if len(_spends(state.bank)) > SPENDS_SHOWN:
            # A big bank (kill bonuses) has too many sums for one row of
            # buttons: first pick the largest value spent.
            return (values.split("+")[0] + "…", values, m.group("pieces"), text)
        return (values, m.group("pieces"), text)

    def choice_label(self, state: KaudaBajiState, seat: Seat, prefix: str) -> str:
        """``6`` -> ``Spend 6``; ``4+2`` -> ``Spend 4+2 together``;
        ``6 c7 x2`` -> ``Twin on c7``."""
        words = prefix.split()
        if words and words[0].endswith("…"):
            if len(words) == 1:
                return f"Spend {words[0][:-1]}, alone or with smaller values"
            words = words[1:]
        if len(words) == 1:
            return f"Spend {words[0]}" + (" together" if "+" in words[0] else "")
        if len(words) >= 2 and _SQUARE_RE.fullmatch(words[1]):
            square = words[1]
            whole: tuple[int, ...] = (1,)
            split_k = split_of = 0
            if len(words) >= 3:
                try:
                    whole, split_k, split_of = self._parse_group(words[2])
                except InvalidAction:
                    return prefix
            return self._pieces_text(whole, split_k, split_of).capitalize() + f" on {square}"
        return prefix

    @staticmethod
    def _pieces_text(whole: tuple[int, ...], split_k: int, split_of: int) -> str:
        """``a twin``, ``a twin and a single (a triple)``, ``1 split off a triple``."""
        parts = [f"a {SIZE_NAMES[w]}" for w in whole]
        if split_k:
            parts.append(f"{plural(split_k, 'piece')} split off a {SIZE_NAMES[split_of]}")
        text = " and ".join(parts)
        size = sum(whole) + split_k
        if len(parts) > 1 and size < len(SIZE_NAMES):
            text += f" (a {SIZE_NAMES[size]})"
        return text.removeprefix("a ")

    def seat_roles(self, num_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        """R4: the seat each player takes, for the lobby."""
        seating = SEATINGS.get(num_players)
        return tuple(SEAT_TITLES[s] for s in seating) if seating else ()

    # ----- whose turn -------------------------------------------------------

    def to_move(self, state: KaudaBajiState) -> frozenset[Seat]:
        phase = state.phase
        if phase == MOVE:
            return _ONLY[state.turn]
        return _MOVERS.get(phase, _NOBODY)

    def waiting_on(self, state: KaudaBajiState) -> frozenset[Seat]:
        return _ONLY[state.turn] if state.phase == MOVE else _NOBODY

    def choices_are_public(self, state: KaudaBajiState, seat: Seat) -> bool:
        """Nothing is hidden (rules, "Hidden information")."""
        return True

    # ----- legal actions ----------------------------------------------------

    def chance_outcomes(self, state: KaudaBajiState) -> list[tuple[KaudaBajiAction, Fraction]]:
        if state.phase in (FIRST, THROW):
            return list(_THROW_OUTCOMES)
        return []

    def legal_actions(self, state: KaudaBajiState, seat: Seat) -> list[KaudaBajiAction]:
        if state.phase == MOVE and seat == state.turn:
            return list((state.__dict__.get(_LEGAL) or _legal(state)).actions)
        if seat not in self.to_move(state):
            return []
        if seat == CHANCE:
            return [throw for throw, _ in _THROW_OUTCOMES]
        return list(_legal(state).actions)

    # ----- applying ---------------------------------------------------------

    def apply(self, state: KaudaBajiState, seat: Seat, action: KaudaBajiAction) -> KaudaBajiState:
        # The two common cases first (the hot path of every game): an
        # offered move by the player to move, and a throw for the bank.
        phase = state.phase
        if phase == MOVE and seat == state.turn and type(action) is Move:
            # _Legal.find, inlined: an offered move played before is one
            # lookup by its id.
            square = action.square
            for part in (state.__dict__.get(_LEGAL) or _legal(state)).parts:
                if part.square == square:
                    played = part.played.get(id(action)) or part.find(action)
                    if played is not None:
                        return self._move(state, played)
                    break
        elif (
            phase == THROW
            and seat == CHANCE
            and type(action) is Throw
            and action.value in _THROW_VALUE_SET
        ):
            return self._throw(state, action.value)
        if phase == OVER:
            raise IllegalAction("The game is over.")
        if seat not in self.to_move(state):
            if seat == CHANCE:
                raise NotYourTurn("The shells are not being thrown now.")
            raise NotYourTurn("It is not your turn (or the shells are being thrown).")
        if seat == CHANCE:
            if not isinstance(action, Throw) or action.value not in THROW_VALUES:
                raise IllegalAction("A throw of six shells is 1 to 6 or 12.")
            if state.phase == FIRST:
                return self._first_throw(state, action.value)
            return self._throw(state, action.value)
        if isinstance(action, Throw):
            raise IllegalAction("Chaupal throws the shells for you; spend the bank with a move.")
        legal = _legal(state)
        if isinstance(action, Forfeit):
            if Forfeit(action.value) not in legal.forfeits:
                raise IllegalAction(
                    f"You may forfeit a {action.value} only when every move that spends it "
                    "goes round the inner ring again (R17)."
                )
            bank = list(state.bank)
            bank.remove(action.value)
            news = f"{seat_tag(seat)} forfeits a {action.value} (R17)."
            return self._settle(state, {"bank": tuple(bank), "news": news})
        if not isinstance(action, Move):
            raise IllegalAction("That is not a Kauda Baji move.")
        played = legal.find(action)
        if played is None:
            action = _canonical(state, action)
            played = legal.find(action)
            if played is None:
                raise IllegalAction(self._why_not(state, action))
        return self._move(state, played)

    def _why_not(self, state: KaudaBajiState, move: Move) -> str:
        p = state.turn
        seat = _seat(state, p)
        here = _at(state.stacks[p], STEP_OF[seat][move.square])
        name = square_name(move.square)
        if not here:
            return f"You have no pieces on {name}."
        if not move.whole and not move.split_k:
            return f"Say which of your pieces on {name} move (x1, x2, x1+1, x1of2 …)."
        bank = list(state.bank)
        for v in move.values:
            if v not in bank:
                return f"There is no {v} in your bank ({_values_text(state.bank) or 'empty'})."
            bank.remove(v)
        if sum(move.values) % move.size:
            return f"A tuple of {move.size} can only spend a total that {move.size} divides (R10)."
        if move.split_k and move.square not in SAFE:
            return "A tuple may split only on a safe square (R11)."
        return (
            "That move is not allowed: check the pieces (R9, R11) and the arrow choices, "
            "one `in` or `round` for each arrow square stepped off (R2, R15, R17)."
        )

    def _first_throw(self, state: KaudaBajiState, value: int) -> KaudaBajiState:
        """R7: every contender throws once; the highest starts, ties throw again."""
        player = state.contenders[len(state.first_throws)]
        throws = (*state.first_throws, value)
        news = f"{seat_tag(player)} throws {value} for the first turn."
        if len(throws) < len(state.contenders):
            return _replace(state, first_throws=throws, news=news)
        best = max(throws)
        tied = tuple(p for p, v in zip(state.contenders, throws, strict=True) if v == best)
        if len(tied) > 1:
            names = ", ".join(seat_tag(p) for p in tied)
            return _replace(
                state, contenders=tied, first_throws=(), news=f"{news} {names} tie and throw again."
            )
        return _replace(
            state,
            phase=THROW,
            turn=tied[0],
            contenders=(),
            first_throws=(),
            news=f"{news} {seat_tag(tied[0])} starts.",
        )

    def _throw(self, state: KaudaBajiState, value: int) -> KaudaBajiState:
        """R6, R16: bank the throw; 6 and 12 throw again; the third in a row forfeits."""
        p = state.turn
        bank = (value,) if not state.bank else tuple(sorted((*state.bank, value), reverse=True))
        if value not in EXTRA_THROW and not state.bonus and not state.pending:
            # The commonest throw, settled here (R8, as in _settle): the
            # mover's pieces are as they were.
            news = _THROW_NEWS[p][value]
            in1 = not state.markut or state.killed[p]
            legal = _legal_of(SEATINGS[state.num_players][p], state.stacks[p], bank, in1)
            if legal.moves:
                return _made(
                    {
                        **state.__dict__,
                        "bank": bank,
                        "run": 0,
                        "news": news,
                        "phase": MOVE,
                        _LEGAL: legal,
                    }
                )
            return self._settle(state, {"bank": bank, "run": 0, "bonus": False, "news": news})
        if value in EXTRA_THROW:
            who = _TAGS[p]
            bonus = " (kill bonus)" if state.bonus else ""
            run = state.run + (0 if state.bonus else 1)
            if run >= 3:
                lost = state.bank
                news = (
                    f"{who} throws a third {value} in a row and forfeits the turn"
                    + (f", losing {_values_text(lost)}" if lost else "")
                    + " (R6)."
                )
                return self._next_turn(state, {"news": news})
            return _with(
                state,
                {
                    "bank": bank,
                    "run": run,
                    "bonus": False,
                    "news": f"{who} throws {value}{bonus} and throws again.",
                },
            )
        bonus = " (kill bonus)" if state.bonus else ""
        news = f"{_TAGS[p]} throws {value}{bonus}." if bonus else _THROW_NEWS[p][value]
        if state.pending:
            return _with(
                state,
                {"bank": bank, "run": 0, "bonus": True, "pending": state.pending - 1, "news": news},
            )
        return self._settle(state, {"bank": bank, "run": 0, "bonus": False, "news": news})

    def _settle(self, state: KaudaBajiState, changes: dict[str, Any]) -> KaudaBajiState:
        """``state`` with ``changes``, then R8: the turn goes on while a legal
        move exists; what is left is forfeited."""
        p = state.turn
        bank: tuple[int, ...] = changes.get("bank", state.bank)
        if not bank:
            return self._next_turn(state, changes)
        stacks: tuple[tuple[Stack, ...], ...] = changes.get("stacks", state.stacks)
        killed: tuple[bool, ...] = changes.get("killed", state.killed)
        in1 = not state.markut or killed[p]
        legal = _legal_of(SEATINGS[state.num_players][p], stacks[p], bank, in1)
        if legal.moves:
            changes["phase"] = MOVE
            changes[_LEGAL] = legal  # the new state's moves, worked out here once
            return _with(state, changes)
        news = changes.get("news", state.news)
        changes["news"] = f"{news} {seat_tag(p)} cannot use {_values_text(bank)} (R8).".strip()
        return self._next_turn(state, changes)

    def _next_turn(self, state: KaudaBajiState, changes: dict[str, Any]) -> KaudaBajiState:
        """``state`` with ``changes``, then R4, R18: the next unfinished player
        anticlockwise, or the end."""
        places: tuple[int, ...] = changes.get("places", state.places)
        n = state.num_players
        changes.update(_TURN_OVER)
        if not places:
            changes["phase"] = THROW
            changes["turn"] = (state.turn + 1) % n
            return _with(state, changes)
        left = [p for p in range(n) if p not in places]
        if len(left) <= 1 or (places and not state.play_to_end):
            if state.play_to_end:
                changes["places"] = places + tuple(left)
            changes["phase"] = OVER
            return _with(state, changes)
        p = state.turn
        for _ in range(n):
            p = (p + 1) % n
            if p not in places:
                break
        changes["phase"] = THROW
        changes["turn"] = p
        return _with(state, changes)

    @staticmethod
    def _kill(
        stacks: list[tuple[Stack, ...]],
        occupied: list[frozenset[int]],
        opponents: tuple[tuple[int, int], ...],
        pairwise: bool,
        sq: int,
        size: int,
        landing: bool,
    ) -> int:
        """R12-R14: kills on ``sq`` (not a safe square) by a tuple of ``size``
        landing or leaving; ``opponents`` are the other players and their seats.

        Returns how many tuples died; their pieces go back to the start square
        as singles.
        """
        present = []
        for q, seat in opponents:
            if sq in occupied[q]:
                step = STEP_OF[seat][sq]
                present.append((q, seat, step, [s for st, s in stacks[q] if st == step]))
        if not present or (len(present) > 1 and not pairwise):
            return 0  # R14
        kills = 0
        for q, seat, step, sizes in present:
            beatable = [s for s in sizes if (s <= size if landing else s < size)]
            if not beatable:
                continue
            victim = max(beatable)
            theirs = list(stacks[q])
            theirs.remove((step, victim))
            theirs += [(0, 1)] * victim
            theirs.sort()
            stacks[q] = tuple(theirs)
            occupied[q] = _squares_of(seat, stacks[q])
            kills += 1
        return kills

    def _move(self, state: KaudaBajiState, played: _Played) -> KaudaBajiState:
        frm, size, leaving, staying, end, landing, path, to_sq, values, rest, text, vacates = played
        p = state.turn
        stacks = list(state.stacks)
        occupied = list(state.occupied)
        mine = list(stacks[p])
        for stack in leaving:
            mine.remove(stack)
        mine += staying
        ours = occupied[p]
        if vacates:
            ours = ours - _SQUARE_SETS[frm]
        kill_squares: tuple[int, ...] = ()
        kills = 0
        opponents = _OPPONENTS[state.num_players][p]
        # R13 order: leaving first, then landing.  Most squares hold no
        # opponent: looked up here before any kill is worked out.
        if frm not in SAFE:
            for q, _ in opponents:
                if frm in occupied[q]:
                    kills = self._kill(
                        stacks, occupied, opponents, state.pairwise, frm, size, False
                    )
                    if kills:
                        kill_squares = (frm,)
                    break
        home = state.home
        if end == CENTRE_STEP:
            home = (*home[:p], home[p] + size, *home[p + 1 :])  # R17
        else:
            if to_sq not in SAFE:
                for q, _ in opponents:
                    if to_sq in occupied[q]:
                        landed = self._kill(
                            stacks, occupied, opponents, state.pairwise, to_sq, size, True
                        )
                        if landed:
                            kill_squares += (to_sq,)
                            kills += landed
                        break
            mine.append(landing)
            if to_sq not in ours:
                ours = ours | _SQUARE_SETS[to_sq]
        mine.sort()
        stacks[p] = tuple(mine)
        occupied[p] = ours
        news = _TAGS[p] + text + (f", killing {plural(kills, 'tuple')}." if kills else ".")
        after_stacks = tuple(stacks)
        after_occupied = tuple(occupied)
        last = (p, frm, to_sq, values, path, kill_squares)
        if not kills and home[p] != state.pieces:
            # The commonest ends of a move, written straight into the new
            # state (the general path below gives the same).
            if not rest:
                if not state.places:  # R4: the turn passes anticlockwise
                    return _made(
                        {
                            **state.__dict__,
                            "stacks": after_stacks,
                            "occupied": after_occupied,
                            "home": home,
                            "bank": rest,
                            "last": last,
                            "news": news,
                            "run": 0,
                            "bonus": False,
                            "pending": 0,
                            "phase": THROW,
                            "turn": (p + 1) % state.num_players,
                            _LEGAL: None,
                        }
                    )
            else:
                in1 = not state.markut or state.killed[p]
                legal = _legal_of(SEATINGS[state.num_players][p], after_stacks[p], rest, in1)
                if legal.moves:  # R8: the turn goes on
                    return _made(
                        {
                            **state.__dict__,
                            "stacks": after_stacks,
                            "occupied": after_occupied,
                            "home": home,
                            "bank": rest,
                            "last": last,
                            "news": news,
                            _LEGAL: legal,
                        }
                    )
        changes: dict[str, Any] = {
            "stacks": after_stacks,
            "occupied": after_occupied,
            "home": home,
            "bank": rest,
            "last": last,
            "news": news,
        }
        if kills and not state.killed[p]:
            changes["killed"] = (*state.killed[:p], True, *state.killed[p + 1 :])
        if home[p] == state.pieces:  # R18
            changes["places"] = (*state.places, p)
            changes["news"] = f"{news} {seat_tag(p)} has finished, place {len(state.places) + 1}."
            return self._next_turn(state, changes)
        if kills and state.kill_bonus:  # R16
            changes.update(phase=THROW, bonus=True, pending=kills - 1, run=0)
            return _with(state, changes)
        if not rest:
            return self._next_turn(state, changes)
        return self._settle(state, changes)

    # ----- the end ----------------------------------------------------------

    def outcome(self, state: KaudaBajiState) -> Outcome | None:
        if state.phase != OVER:
            return None
        if state.play_to_end:
            ranking = tuple(frozenset({p}) for p in state.places)
            reason = f"{seat_tag(state.places[0])} brought every piece to the centre first."
        else:
            first = state.places[0]
            rest = frozenset(range(state.num_players)) - {first}
            ranking = (frozenset({first}), rest)
            reason = (
                f"{seat_tag(first)} brought every piece to the centre first; "
                "the others share second place."
            )
        return Outcome(ranking=ranking, scores=state.home, reason=reason)

    # ----- views ------------------------------------------------------------

    def view(self, state: KaudaBajiState, seat: Seat | None) -> KaudaBajiView:
        stacks: list[StackView] = []
        players: list[PlayerView] = []
        for p in range(state.num_players):
            s = _seat(state, p)
            for step, size in state.stacks[p]:
                sq = ROUTES[s][step]
                stacks.append(
                    StackView(square_name(sq), sq % 7, sq // 7 + 1, p, SEAT_NAMES[s], size, step)
                )
            route = ROUTES[s]
            players.append(
                PlayerView(
                    player=p,
                    seat=SEAT_NAMES[s],
                    start=square_name(route[0]),
                    arrows=tuple(
                        (square_name(route[a]), square_name(route[a + 1])) for a in ARROW_STEPS
                    ),
                    at_start=sum(size for step, size in state.stacks[p] if step == 0),
                    on_board=sum(size for _, size in state.stacks[p]),
                    finished=state.home[p],
                    has_killed=state.killed[p] or not state.markut,
                    place=state.places.index(p) + 1 if p in state.places else 0,
                )
            )
        last = None
        if state.last is not None:
            p, frm, to, values, path, kills = state.last
            last = MoveView(
                player=p,
                frm=square_name(frm),
                to=square_name(to),
                size=sum(values) // max(1, len(path)),  # R10: value = size x squares
                values=values,
                path=tuple(square_name(sq) for sq in path),
                killed=tuple(square_name(sq) for sq in kills),
            )
        return KaudaBajiView(
            viewer=seat,
            me=None,
            phase=state.phase,
            turn=state.turn,
            bank=state.bank,
            run=state.run,
            bonus_throws=state.pending + (1 if state.bonus else 0),
            stacks=tuple(stacks),
            players=tuple(players),
            safe=tuple(sorted(square_name(sq) for sq in SAFE)),
            last_move=last,
            first_throws=tuple(zip(state.contenders, state.first_throws, strict=False)),
            places=state.places,
            news=state.news,
        )

    # ----- notation ---------------------------------------------------------

    def parse(self, state: KaudaBajiState, seat: Seat, text: str) -> KaudaBajiAction:
        words = str(text).lower().split()
        if not words:
            raise InvalidAction(f"Type a move. {_HELP}")
        head = words[0]
        if head in ("throw", "forfeit"):
            if len(words) != 2:
                raise InvalidAction(f"Write `{head}` and one value, not {excerpt(text)}.")
            value = whole_number(words[1], max_digits=2)
            if value is None or value not in THROW_VALUES:
                raise InvalidAction(f"A throw is 1 to 6 or 12, not {excerpt(words[1])}.")
            return Throw(value) if head == "throw" else Forfeit(value)
        if not _SQUARE_RE.fullmatch(head):
            raise InvalidAction(f"I don't understand {excerpt(text)}. {_HELP}")
        sq = square_of(head)
        rest = words[1:]
        whole: tuple[int, ...] = ()
        split_k = split_of = 0
        if rest and rest[0].startswith("x"):
            whole, split_k, split_of = self._parse_group(rest[0])
            rest = rest[1:]
        elif 0 <= seat < state.num_players:
            step = STEP_OF[_seat(state, seat)][sq]
            here = _at(state.stacks[seat], step)
            if len(here) == 1:
                whole = here
        if not rest:
            raise InvalidAction(f"Say which banked values the move spends, e.g. `{head} 4`.")
        values: list[int] = []
        for part in rest[0].split("+"):
            value = whole_number(part, max_digits=2)
            if value is None or value not in THROW_VALUES:
                raise InvalidAction(f"A banked value is 1 to 6 or 12, not {excerpt(part)}.")
            values.append(value)
        arrows: list[bool] = []
        for word in rest[1:]:
            if word not in ("in", "round"):
                raise InvalidAction(
                    f"After the values, write `in` or `round` for each arrow, not {excerpt(word)}."
                )
            arrows.append(word == "in")
        if len(values) > 12 or len(arrows) > 40:
            raise InvalidAction("That move is far too long.")
        return Move(
            sq, whole, split_k, split_of, tuple(sorted(values, reverse=True)), tuple(arrows)
        )

    @staticmethod
    def _parse_group(word: str) -> tuple[tuple[int, ...], int, int]:
        """``x2+1``, ``x1of3``, ``x2+1of3`` (R9, R11)."""
        parts = word[1:].split("+")
        whole: list[int] = []
        split_k = split_of = 0
        bad = InvalidAction(f"Pieces are written like x2, x2+1 or x1of3, not {excerpt(word)}.")
        for i, part in enumerate(parts):
            k_text, of_text = ([*part.split("of", 1), ""])[:2] if "of" in part else (part, "")
            k = whole_number(k_text, max_digits=1)
            if k is None or not 1 <= k <= 6:
                raise bad
            if of_text:
                m = whole_number(of_text, max_digits=1)
                if m is None or not k < m <= 6 or i != len(parts) - 1:
                    raise bad
                split_k, split_of = k, m
            else:
                whole.append(k)
        if sum(whole) + split_k > 6:
            raise bad
        return tuple(sorted(whole, reverse=True)), split_k, split_of

    def describe(self, state: KaudaBajiState, seat: Seat, action: KaudaBajiAction) -> str:
        if isinstance(action, Throw):
            return f"throw {action.value}"
        if isinstance(action, Forfeit):
            return f"forfeit {action.value}"
        words = [square_name(action.square)]
        only_one = False
        if 0 <= seat < state.num_players:
            step = STEP_OF[_seat(state, seat)][action.square]
            only_one = _at(state.stacks[seat], step) == (1,)
        if not (only_one and action.whole == (1,) and not action.split_k):
            group = "+".join(str(w) for w in action.whole)
            if action.split_k:
                group += ("+" if group else "") + f"{action.split_k}of{action.split_of}"
            words.append("x" + group)
        words.append(_values_text(action.values))
        words += ["in" if a else "round" for a in action.arrows]
        return " ".join(words)

    def label(self, state: KaudaBajiState, seat: Seat, action: KaudaBajiAction) -> str:
        """``Twin c7 to a7 with 6``; ``Single a2 to b2 with 6, in at c1``."""
        if isinstance(action, Throw):
            return f"Throw {action.value}"
        if isinstance(action, Forfeit):
            return f"Forfeit a {action.value} (R17)"
        size = action.size
        what = SIZE_NAMES[size] if 0 < size < len(SIZE_NAMES) else "tuple"
        total = sum(action.values)
        dest = "?"
        turns: list[str] = []
        if 0 <= seat < state.num_players and size and total % size == 0:
            route = ROUTES[_seat(state, seat)]
            step = STEP_OF[_seat(state, seat)][action.square]
            choices = iter(action.arrows)
            for _ in range(total // size):
                if step in ROUND_TO:
                    turn_in = next(choices, None)
                    if turn_in is None:
                        break
                    turns.append(f"{'in' if turn_in else 'round'} at {square_name(route[step])}")
                    step = step + 1 if turn_in else ROUND_TO[step]
                else:
                    step += 1
            else:
                dest = "the centre" if step == CENTRE_STEP else square_name(route[step])
        spent = _values_text(action.values)
        text = f"{what.capitalize()} {square_name(action.square)} to {dest} with {spent}"
        if action.split_k:
            text += f", split off a {SIZE_NAMES[action.split_of]}"
        if turns:
            text += ", " + ", ".join(turns)
        return text[:100]

    def narrate(
        self, before: KaudaBajiState, seat: Seat, action: KaudaBajiAction, after: KaudaBajiState
    ) -> str:
        news = after.news
        if after.phase == OVER and before.phase != OVER:
            outcome = self.outcome(after)
            if outcome is not None:
                news += " " + outcome.reason
        elif after.turn != before.turn and after.phase == THROW and before.phase != FIRST:
            news += f" {seat_tag(after.turn)} to throw."
        return news

    def private_to(
        self, before: KaudaBajiState, seat: Seat, action: KaudaBajiAction
    ) -> Seat | None:
        return None

    # ----- storage ----------------------------------------------------------

    def to_json(self, state: KaudaBajiState) -> JSON:
        return {
            "num_players": state.num_players,
            "pieces": state.pieces,
            "markut": state.markut,
            "kill_bonus": state.kill_bonus,
            "pairwise": state.pairwise,
            "play_to_end": state.play_to_end,
            "phase": state.phase,
            "turn": state.turn,
            "stacks": [[list(s) for s in mine] for mine in state.stacks],
            "home": list(state.home),
            "killed": list(state.killed),
            "bank": list(state.bank),
            "run": state.run,
            "bonus": state.bonus,
            "pending": state.pending,
            "contenders": list(state.contenders),
            "first_throws": list(state.first_throws),
            "places": list(state.places),
            "last": None
            if state.last is None
            else [
                state.last[0],
                state.last[1],
                state.last[2],
                list(state.last[3]),
                list(state.last[4]),
                list(state.last[5]),
            ],
            "news": state.news,
        }

    def from_json(self, obj: JSON) -> KaudaBajiState:
        last = obj["last"]
        num_players = int(obj["num_players"])
        stacks = tuple(tuple(sorted((int(a), int(b)) for a, b in mine)) for mine in obj["stacks"])
        return KaudaBajiState(
            num_players=num_players,
            pieces=int(obj["pieces"]),
            markut=bool(obj["markut"]),
            kill_bonus=bool(obj["kill_bonus"]),
            pairwise=bool(obj["pairwise"]),
            play_to_end=bool(obj["play_to_end"]),
            phase=str(obj["phase"]),
            turn=int(obj["turn"]),
            stacks=stacks,
            occupied=_occupancy(num_players, stacks),
            home=tuple(int(h) for h in obj["home"]),
            killed=tuple(bool(k) for k in obj["killed"]),
            bank=tuple(sorted((int(v) for v in obj["bank"]), reverse=True)),
            run=int(obj["run"]),
            bonus=bool(obj["bonus"]),
            pending=int(obj["pending"]),
            contenders=tuple(int(p) for p in obj["contenders"]),
            first_throws=tuple(int(v) for v in obj["first_throws"]),
            places=tuple(int(p) for p in obj["places"]),
            last=None
            if last is None
            else (
                int(last[0]),
                int(last[1]),
                int(last[2]),
                tuple(int(v) for v in last[3]),
                tuple(int(v) for v in last[4]),
                tuple(int(v) for v in last[5]),
            ),
            news=str(obj["news"]),
        )


def iter_routes() -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each seat's route as square names (R1), for documentation and tests."""
    for seat in range(4):
        yield SEAT_NAMES[seat], tuple(square_name(sq) for sq in ROUTES[seat])
