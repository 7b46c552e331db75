"""Kauda Baji's moves: walking the route (R1, R2, R17), which tuples
move off a square together (R9-R11), the ways to spend the bank (R6), and
the legal moves of a bank of throws, found square by square and cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Final, NamedTuple

from bot.engines.kauda_baji_board import (
    CENTRE_STEP,
    ROUND_TO,
    ROUTES,
    SAFE,
    SEATINGS,
    STEP_OF,
)
from bot.engines.kauda_baji_state import _LEGAL, Forfeit, KaudaBajiState, Move, Stack

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
