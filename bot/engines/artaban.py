"""Artaban: the pure rules engine.

The rulings R1-R10 in ``docs/rules/artaban.md`` fill the rulebook's gaps.
Two players, an 8x8 board, files ``a``-``h`` and ranks ``1``-``8``.  Seat 0
(White, ``{p0}``) sets up on rank 2 and advances towards rank 8; seat 1
(Black, ``{p1}``) sets up on rank 7 and advances towards rank 1.  Forward, left and
right are always meant from the die owner's side, so Black's left is the
board's file-h side.

A die is a real cube (R1), stored as its top face and the face towards its
owner's front; the standard Western handedness (1, 2 and 3 counterclockwise
round their corner) gives every other face (:func:`right_face`).

Action text (what :meth:`ArtabanEngine.describe` returns and
:meth:`ArtabanEngine.parse` accepts; case-insensitive, blanks anywhere are
ignored, so ``C2 ^`` and ``c2 x c3`` work too)::

    play (the player to move)
      c2^   c2<   c2>      tip the die on c2 forward / left / right (R2)
      c2@<  c2@>           turn it a quarter left / right in place (R3)
      c2xc3                capture the enemy die on c3 with the die on c2 (R4, R5)
      c2!c3                sacrifice the die on c2 against the equal die on c3 (R6)
      offer-draw           offer a draw, then make your move as usual (R9)
      accept-draw          accept your opponent's pending offer: the game is drawn
      decline-draw         refuse it, then make your move
    set-up (both players at once, each in private; R7)
      set a 3              top value 3 for the next file to fill (files go a..h)
      leader c             after all eight values: the Leader stands on file c
      commit               lock the arrangement in (both revealed once both commit)
      setup random         a random legal arrangement instead, dealt by chance
                           and committed at once
      setup reset          throw away what you have chosen and start again
      setup 3 4 5 2 6 1 4 3 leader c
                           the whole arrangement at once (values for a..h),
                           ready to commit; accepted when typed, never listed
    chance (seat CHANCE), dealing a random set-up file by file
      p0 set a 3           seat 0's file a gets top value 3
      p0 leader c          seat 0's Leader goes on file c

:meth:`ArtabanEngine.legal_actions` lists a player's dice in square order
(a1, b1 .. h8); for each die its tips and captures/sacrifices in the order
forward, left, right (then the two forward diagonals with R5), then its two
turns; the draw actions come last.  In set-up the choices for the current step
come first, then ``setup random`` and ``setup reset``.

Readings of the rulings, explained where they are implemented:

- R7 says a player "may instead ask for a random legal arrangement", i.e.
  instead of committing one: ``setup random`` has chance deal values file by
  file (each weighted by how many completions it leaves, so every legal
  arrangement and Leader file is equally likely) and the result is committed
  at once.  Set-up goes file by file so each step offers at most ten choices.

- R9's last sentence ("a player with a turn available but nothing else may
  turn; ... passes automatically") can never apply: by R9's first case the game
  ends as soon as the player to move has no tip, capture or sacrifice.  So there
  is no pass action.
- R9 does not say how a draw offer sits with the turn.  ``offer-draw`` does not
  use the offerer's move (as in chess: offer, then move); the opponent may then
  ``accept-draw``, ``decline-draw`` (and still move) or simply move, which lets
  the offer lapse.  Offers are not plies for the 40-ply rule.

States are frozen dataclasses.  In pure Python the per-move path builds them
through :func:`_replace`/:func:`_after_move` (``object.__new__`` plus the field
dict) instead of the generated frozen ``__init__``, which nearly doubles
playout speed; compiled, :class:`ArtabanState` is a native class, built by its
own compiled ``__init__`` (:data:`_NATIVE`), which is cheaper still.
For random playouts and search (issue 19) a die's moves come from tables
indexed by the verdicts on its neighbours (:func:`_generate`), and a PLAY
state keeps each seat's moves in a slot outside its fields (:data:`_LEGAL`):
``apply`` works out the next player's moves once (R9 needs them to know
whether the game is over), ``legal_actions`` hands out copies, and a turn,
which keeps the die's top value, or a draw offer keeps them as they are.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache
from typing import Any, Final, NoReturn

from bot.engines.artaban_views import (
    ArtabanView,
    DieView,
    FinalView,
    LastMoveView,
    PlayerView,
    SetupView,
)
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
    seat_tag,
    whole_number,
)

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
_DIRECTION_WORD: Final = {FORWARD: "forward", LEFT: "left", RIGHT: "right"}

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

# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tip:
    """R2: roll the die on ``square`` one square ``^`` forward, ``<`` left or ``>`` right."""

    square: int
    direction: str


@dataclass(frozen=True, slots=True)
class Turn:
    """R3: rotate the die on ``square`` a quarter ``<`` left or ``>`` right."""

    square: int
    direction: str


@dataclass(frozen=True, slots=True)
class Capture:
    """R4/R5: move the die on ``frm``, unchanged, onto the enemy die on ``to``."""

    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Sacrifice:
    """R6: the die on ``frm`` leaves the game against the equal enemy on ``to``."""

    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class OfferDraw:
    pass


@dataclass(frozen=True, slots=True)
class AcceptDraw:
    pass


@dataclass(frozen=True, slots=True)
class DeclineDraw:
    pass


@dataclass(frozen=True, slots=True)
class SetValue:
    """R7: the top value for ``file`` (0 = a), the next file to fill."""

    file: int
    value: int


@dataclass(frozen=True, slots=True)
class SetLeader:
    file: int


@dataclass(frozen=True, slots=True)
class SetupRandom:
    pass


@dataclass(frozen=True, slots=True)
class SetupReset:
    pass


@dataclass(frozen=True, slots=True)
class Commit:
    pass


@dataclass(frozen=True, slots=True)
class SetupAll:
    """The typed one-line set-up: eight values for files a..h and the Leader's file."""

    values: tuple[int, ...]
    leader: int


@dataclass(frozen=True, slots=True)
class DealValue:
    """Chance: a random set-up gives ``seat``'s ``file`` the top ``value``."""

    seat: Seat
    file: int
    value: int


@dataclass(frozen=True, slots=True)
class DealLeader:
    """Chance: a random set-up puts ``seat``'s Leader on ``file``."""

    seat: Seat
    file: int


ArtabanAction = (
    Tip
    | Turn
    | Capture
    | Sacrifice
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | SetValue
    | SetLeader
    | SetupRandom
    | SetupReset
    | Commit
    | SetupAll
    | DealValue
    | DealLeader
)
_MOVES: Final = (Tip, Turn, Capture, Sacrifice)
_SETUP_ACTIONS: Final = (SetValue, SetLeader, SetupRandom, SetupReset, Commit, SetupAll)
_OFFER: Final = OfferDraw()
_ACCEPT: Final = AcceptDraw()
_DECLINE: Final = DeclineDraw()
_RANDOM: Final = SetupRandom()
_RESET: Final = SetupReset()
_COMMIT: Final = Commit()

_TIP_ACTS: Final = tuple({d: Tip(sq, d) for d in _DIRECTIONS} for sq in range(64))
_TURN_ACTS: Final = tuple((Turn(sq, LEFT), Turn(sq, RIGHT)) for sq in range(64))
_SET_ACTS: Final = tuple(tuple(SetValue(f, v) for v in range(7)) for f in range(NUM_FILES))
_LEADER_ACTS: Final = tuple(SetLeader(f) for f in range(NUM_FILES))

Slot = tuple[int, tuple[ArtabanAction, ...]]
"""(target square, (the tip there, the capture there, the sacrifice there)),
indexed by :data:`_VERDICT` (a diagonal slot has no tip)."""

_STRAIGHT: Final[tuple[tuple[tuple[Slot, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            (dst, (_TIP_ACTS[sq][d], Capture(sq, dst), Sacrifice(sq, dst)))
            for d in _DIRECTIONS
            if (dst := _STEPS[s][d][sq]) >= 0
        )
        for sq in range(64)
    )
    for s in (0, 1)
)
_DIAGONAL: Final[tuple[tuple[tuple[Slot, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            (dst, (_TIP_ACTS[sq][FORWARD], Capture(sq, dst), Sacrifice(sq, dst)))
            for dst in _diagonals(s, sq)
        )
        for sq in range(64)
    )
    for s in (0, 1)
)

TIP_SLOT: Final = 0
CAPTURE_SLOT: Final = 1
SACRIFICE_SLOT: Final = 2
NOTHING: Final = 3


def _verdict(attacker: int, target: int) -> int:
    """What the die ``attacker`` may do on a square holding ``target`` (R2, R4, R6)."""
    if not target:
        return TIP_SLOT
    if _OWNER[target] == _OWNER[attacker]:
        return NOTHING
    mine, theirs = _TOP[attacker], _TOP[target]
    if theirs < mine or (_LEADER[attacker] and theirs == mine):
        return CAPTURE_SLOT
    return SACRIFICE_SLOT if theirs == mine else NOTHING


_VERDICT: Final = tuple(
    tuple(_verdict(a, t) for t in range(97)) if a else (NOTHING,) * 97 for a in range(97)
)

# Move generation by table (issue 19 §3, speed).  A die's moves depend only on
# the verdicts on its neighbours, so each die costs three (R5: five) verdict
# look-ups and one table look-up.  The verdicts are packed two bits each,
# forward | left << 2 | right << 4 (diagonals: forward-left | forward-right
# << 2); a neighbour off the board is looked up as the die's own square,
# whose verdict (an own die) is always NOTHING, so it adds no move.


def _neighbours(s: Seat, sq: int) -> tuple[int, int, int, int, int]:
    """(forward, left, right, forward-left, forward-right) of a die of seat
    ``s`` on ``sq``, ``sq`` itself where that is off the board."""
    steps = [_STEPS[s][d][sq] for d in _DIRECTIONS]
    straight = [dst if dst >= 0 else sq for dst in steps]
    f, r = sq % 8, sq // 8 + (1 if s == 0 else -1)
    ahead = 1 if s == 0 else -1
    diagonal = [r * 8 + g if 0 <= r < 8 and 0 <= g < 8 else sq for g in (f - ahead, f + ahead)]
    return straight[0], straight[1], straight[2], diagonal[0], diagonal[1]


_NEIGHBOURS: Final = tuple(tuple(_neighbours(s, sq) for sq in range(64)) for s in (0, 1))
_NEAR: Final = tuple(tuple((sq << 6, *_NEIGHBOURS[s][sq][:3]) for sq in range(64)) for s in (0, 1))
"""Per seat and square: (the square's offset in the tables below, forward,
left, right)."""
_NEAR_DIAGONAL: Final = tuple(
    tuple((sq << 6, *_NEIGHBOURS[s][sq][:3], sq << 4, *_NEIGHBOURS[s][sq][3:]) for sq in range(64))
    for s in (0, 1)
)
"""The same, then the square's offset in :data:`_DIAGONAL_MOVES`,
forward-left and forward-right."""


def _pattern_moves(slots: tuple[Slot, ...], sq: int, pattern: int, tips: bool) -> tuple[int, ...]:
    """Which of ``slots`` (in order) give a move for the packed ``pattern``:
    any verdict short of NOTHING, or (``tips`` false: the diagonals) only a
    capture or a sacrifice.  Returned as slot index * 4 + verdict."""
    out = []
    for i, (dst, _) in enumerate(slots):
        x = (pattern >> 2 * i) & 3
        if dst != sq and x < NOTHING and (tips or x):
            out.append(i * 4 + x)
    return tuple(out)


def _move_table(seat: Seat, diagonal: bool, turns: bool) -> tuple[tuple[ArtabanAction, ...], ...]:
    """Per ``sq * 64 + pattern`` (``diagonal``: ``sq * 16 + pattern``): the
    die's moves to those neighbours in the order of :data:`_STRAIGHT`
    (forward, left, right) or :data:`_DIAGONAL`, then its two turns when
    ``turns``.  Equal tuples are shared."""
    shared: dict[tuple[ArtabanAction, ...], tuple[ArtabanAction, ...]] = {}
    table: list[tuple[ArtabanAction, ...]] = []
    for sq in range(64):
        nb = _NEIGHBOURS[seat][sq]
        squares: tuple[int, ...]
        # Every slot, off-board ones included (as ``sq``), in packing order.
        if diagonal:
            by_dst = {dst: acts for dst, acts in _DIAGONAL[seat][sq]}
            squares = nb[3:]
        else:
            by_dst = {dst: acts for dst, acts in _STRAIGHT[seat][sq]}
            squares = nb[:3]
        slots = tuple((dst, by_dst.get(dst, ())) for dst in squares)
        for pattern in range(16 if diagonal else 64):
            acts = tuple(
                slots[k >> 2][1][k & 3] for k in _pattern_moves(slots, sq, pattern, not diagonal)
            )
            if turns:
                acts += _TURN_ACTS[sq]
            table.append(shared.setdefault(acts, acts))
    return tuple(table)


_PLAIN_MOVES: Final = tuple(_move_table(s, False, True) for s in (0, 1))
"""Without R5: a die's tips, captures and sacrifices, then its turns."""
_STRAIGHT_MOVES: Final = tuple(_move_table(s, False, False) for s in (0, 1))
"""With R5: a die's tips, captures and sacrifices forward, left and right ..."""
_DIAGONAL_MOVES: Final = tuple(_move_table(s, True, True) for s in (0, 1))
"""... then its diagonal captures and sacrifices, then its turns."""


def _generate(
    board: tuple[int, ...], squares: tuple[int, ...], seat: Seat, diagonal: bool
) -> list[ArtabanAction]:
    """Every tip, capture, sacrifice and turn of the dice of ``seat`` on
    ``squares`` (R2-R6, R8): for each die in square order its moves
    forward, left, right (then the two forward diagonals with R5), then its
    two turns.  Each die has exactly two turns, so the dice can tip,
    capture or sacrifice (R9) unless the list is twice as long as
    ``squares``."""
    out: list[ArtabanAction] = []
    verdicts = _VERDICT
    if diagonal:
        straight = _STRAIGHT_MOVES[seat]
        diagonals = _DIAGONAL_MOVES[seat]
        wide = _NEAR_DIAGONAL[seat]
        for sq in squares:
            v = verdicts[board[sq]]
            at, f, left, right, at_diagonal, fl, fr = wide[sq]
            out += straight[at | v[board[f]] | v[board[left]] << 2 | v[board[right]] << 4]
            out += diagonals[at_diagonal | v[board[fl]] | v[board[fr]] << 2]
        return out
    plain = _PLAIN_MOVES[seat]
    near = _NEAR[seat]
    for sq in squares:
        v = verdicts[board[sq]]
        at, f, left, right = near[sq]
        out += plain[at | v[board[f]] | v[board[left]] << 2 | v[board[right]] << 4]
    return out


# --------------------------------------------------------------------------
# Set-up arithmetic (R7)
# --------------------------------------------------------------------------


@cache
def arrangements(files: int, total: int) -> int:
    """How many ways ``files`` top values (1-6 each) can sum to ``total``."""
    if files == 0:
        return 1 if total == 0 else 0
    return sum(arrangements(files - 1, total - v) for v in range(1, 7) if v <= total)


def value_odds(done: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """The values the next file may take after ``done`` (so 28 stays
    reachable), each with the probability that makes a random arrangement
    uniform over all legal ones."""
    return _odds_after(len(done), sum(done))


@cache
def _odds_after(files: int, total: int) -> tuple[tuple[int, Fraction], ...]:
    """:func:`value_odds` after ``files`` files summing to ``total``: all it
    depends on, so a few hundred tables serve every set-up, and chance
    sampling (``sample_chance``, which keeps its tables for the very
    probability objects it is given) finds them again."""
    left = NUM_FILES - files - 1
    rest = SETUP_SUM - total
    ways = arrangements(left + 1, rest)
    if left < 0 or ways == 0:
        return ()
    return tuple(
        (v, Fraction(arrangements(left, rest - v), ways))
        for v in range(1, 7)
        if arrangements(left, rest - v)
    )


@cache
def _allowed_after(files: int, total: int) -> frozenset[int]:
    """The values of :func:`_odds_after`."""
    return frozenset(v for v, _ in _odds_after(files, total))


_LEADER_ODDS: Final = Fraction(1, NUM_FILES)


@cache
def _value_step(files: int, total: int) -> tuple[ArtabanAction, ...]:
    """R7: a player's set-up choices with ``files`` values set, summing to
    ``total``: the next file's values, then ``setup random`` (and ``setup
    reset`` once something is set)."""
    row = _SET_ACTS[files]
    reset = (_RESET,) if files else ()
    return (*(row[v] for v, _ in _odds_after(files, total)), _RANDOM, *reset)


@cache
def _deal_odds(seat: Seat, files: int, total: int) -> tuple[tuple[ArtabanAction, Fraction], ...]:
    """Chance's outcomes for the next step of ``seat``'s random set-up, with
    ``files`` values dealt so far, summing to ``total``."""
    if files < NUM_FILES:
        return tuple((DealValue(seat, files, v), p) for v, p in _odds_after(files, total))
    return tuple((DealLeader(seat, f), _LEADER_ODDS) for f in range(NUM_FILES))


@cache
def _value_steps(files: int, total: int) -> tuple[tuple[float, int], ...]:
    """The values the first of ``files`` files may take so that the rest can
    still make ``total``, each after the running share of arrangements up to
    it: the float twin of :func:`value_odds`, for :func:`_deal_values`."""
    ways = arrangements(files, total)
    steps: list[tuple[float, int]] = []
    running = 0
    for v in range(1, 7):
        completions = arrangements(files - 1, total - v) if v <= total else 0
        if completions:
            running += completions
            steps.append((running / ways, v))
    return tuple(steps)


def _deal_values(draw: Callable[[], float]) -> tuple[int, ...]:
    """R7: eight top values summing to 28, every legal arrangement equally
    likely (file by file, as chance deals ``setup random``), one draw a file."""
    values: list[int] = []
    total = SETUP_SUM
    for files in range(NUM_FILES, 0, -1):
        u = draw()
        steps = _value_steps(files, total)
        value = steps[-1][1]
        for share, v in steps:
            if u < share:
                value = v
                break
        values.append(value)
        total -= value
    return tuple(values)


def _values_ok(values: tuple[int, ...]) -> bool:
    return (
        len(values) == NUM_FILES and all(1 <= v <= 6 for v in values) and sum(values) == SETUP_SUM
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


# --------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------

_MOVE_RE: Final = re.compile(_SQUARE_RE + r"(\^|<|>|@<|@>|x" + _SQUARE_RE + "|!" + _SQUARE_RE + ")")
# ASCII digits only: ``\d`` would also take ``٣`` (and int() reads it).
_SET_RE: Final = re.compile(r"set([a-h])([0-9])")
_LEADER_RE: Final = re.compile(r"leader([a-h])")
_ALL_RE: Final = re.compile(r"setup([0-9]{8})leader([a-h])")
_DEAL_RE: Final = re.compile(r"p([01])(set([a-h])([0-9])|leader([a-h]))")
_MENU_RE: Final = re.compile(_SQUARE_RE + r"[\^<>@x!]")
_WORDS: Final[dict[str, ArtabanAction]] = {
    "offerdraw": _OFFER,
    "acceptdraw": _ACCEPT,
    "declinedraw": _DECLINE,
    "setuprandom": _RANDOM,
    "setupreset": _RESET,
    "commit": _COMMIT,
}
_HELP_PLAY: Final = (
    "Moves look like 'c2^' (tip forward), 'c2<' / 'c2>' (tip left / right), "
    "'c2@<' / 'c2@>' (turn), 'c2xc3' (capture), 'c2!c3' (sacrifice), "
    "'offer-draw', 'accept-draw' or 'decline-draw'."
)
_HELP_SETUP: Final = (
    "Set up with 'set a 3', 'leader c', 'commit', 'setup random' or "
    "'setup 3 4 5 2 6 1 4 3 leader c'."
)


def _help(state: ArtabanState) -> str:
    """The forms that matter now (a refusal stays short)."""
    return _HELP_SETUP if state.phase == SETUP else _HELP_PLAY


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class ArtabanEngine:
    name: str = "artaban"
    title: str = "Artaban"
    revision: int = 1
    min_players: int = 2
    max_players: int = 2

    def __init__(self) -> None:
        self.options: Mapping[str, Option] = {
            "diagonal_captures": Option(
                False, "R5: captures and sacrifices may also go to the two forward diagonals"
            )
        }

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> ArtabanState:
        if num_players != 2:
            raise InvalidOptions("Artaban is a game for exactly 2 players.")
        for key in options:
            if key not in self.options:
                raise InvalidOptions(
                    f"Artaban has no option {excerpt(key)} (options: diagonal_captures)."
                )
        diagonal = options.get("diagonal_captures", False)
        if not isinstance(diagonal, bool):
            raise InvalidOptions("Option 'diagonal_captures' takes yes or no.")
        return ArtabanState(
            phase=SETUP,
            diagonal=diagonal,
            board=_EMPTY_BOARD,
            to_play=0,
            quiet=0,
            ply=0,
            draw_offer=None,
            last_move=None,
            values=((), ()),
            leaders=(-1, -1),
            committed=(False, False),
            dealing=None,
            result="",
            movers=((), ()),
        )

    # ----- whose turn -------------------------------------------------------

    def to_move(self, state: ArtabanState) -> frozenset[Seat]:
        phase = state.phase
        if phase == PLAY:
            return _SEAT_SETS[state.to_play]
        if phase == SETUP:
            if state.dealing is not None:
                return _CHANCE_SET
            waiting = _UNCOMMITTED.get(state.committed)
            if waiting is None:
                waiting = frozenset(s for s in (0, 1) if not state.committed[s])
            return waiting
        return frozenset()

    def waiting_on(self, state: ArtabanState) -> frozenset[Seat]:
        # Who has not committed yet is public (R7); nothing else is hidden.
        if state.phase == PLAY:
            return _SEAT_SETS[state.to_play]
        return self.to_move(state) - _CHANCE_SET

    # ----- legal actions ----------------------------------------------------

    def choices_are_public(self, state: ArtabanState, seat: Seat) -> bool:
        """R7: during set-up every choice (the values a file may still take,
        the Leader's file, what is committed, chance's deals) follows from a
        hidden arrangement, so none is public, not even once one player has
        committed; after the reveal everything is public."""
        return state.phase != SETUP

    def chance_outcomes(self, state: ArtabanState) -> list[tuple[ArtabanAction, Fraction]]:
        seat = state.dealing
        if state.phase != SETUP or seat is None:
            return []
        done = state.values[seat]
        return list(_deal_odds(seat, len(done), sum(done)))

    def legal_actions(self, state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        if state.phase == PLAY:
            if seat != state.to_play:
                return []
            known: Known | None = getattr(state, _LEGAL, None)
            moves = known[seat] if known is not None else None
            if moves is None:
                moves = _moves_of(state, seat)
            offer = state.draw_offer
            if offer is None:
                return [*moves, _OFFER]
            if offer != seat:
                return [*moves, _ACCEPT, _DECLINE]
            return list(moves)
        if state.phase != SETUP:
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        if seat not in self.to_move(state):
            return []
        return self._setup_actions(state, seat)

    def _setup_actions(self, state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        done = state.values[seat]
        if len(done) < NUM_FILES:
            return list(_value_step(len(done), sum(done)))
        if state.leaders[seat] < 0:
            return [*_LEADER_ACTS, _RANDOM, _RESET]
        return [_COMMIT, _RANDOM, _RESET]

    # ----- apply ------------------------------------------------------------

    def apply(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        phase = state.phase
        if phase == PLAY:
            if seat != state.to_play:
                raise NotYourTurn("It is not your turn: your opponent is to move.")
            # The hot path of every game (issue 19), inline: tips and turns.
            if type(action) is Tip:
                sq = action.square
                d = action.direction
                movers = state.movers
                board = state.board
                if sq in movers[seat] and d in _DIRECTIONS:
                    dst = _STEPS[seat][d][sq]
                    if dst >= 0 and not board[dst]:
                        new = list(board)
                        new[dst] = _TIPPED[d][board[sq]]
                        new[sq] = 0
                        forward = d == FORWARD
                        if forward:
                            mine = _moved(movers[seat], sq, dst, _HOME[seat])
                        else:
                            # Sideways: the next square of the same rank, so
                            # the squares stay in order (as in _moved).
                            kept = list(movers[seat])
                            kept[kept.index(sq)] = dst
                            mine = tuple(kept)
                        return _after_move(
                            state,
                            seat,
                            tuple(new),
                            (mine, movers[1]) if seat == 0 else (movers[0], mine),
                            (seat, "tip", sq, dst),
                            forward,
                            None,
                        )
                self._refuse_tip(state, seat, action)
            if type(action) is Turn:
                sq = action.square
                d = action.direction
                if sq in state.movers[seat] and d in (LEFT, RIGHT):
                    new = list(state.board)
                    new[sq] = _TURNED[d][new[sq]]
                    # R3: a turn keeps the die's top value (and owner and
                    # Leader), all that any move depends on, so both seats
                    # keep their moves.
                    return _after_move(
                        state,
                        seat,
                        tuple(new),
                        state.movers,
                        (seat, "turn", sq, sq),
                        False,
                        getattr(state, _LEGAL, None),
                    )
                self._refuse_turn(state, seat, action)
            return self._apply_play(state, seat, action)
        if phase == OVER:
            raise IllegalAction("The game is over.")
        if seat not in self.to_move(state):
            if seat not in (0, 1, CHANCE):
                raise NotYourTurn(f"There is no seat {seat} in Artaban.")
            if state.dealing is not None:
                raise NotYourTurn("It is not your turn: a random set-up is being dealt.")
            if seat == CHANCE:
                raise NotYourTurn("Nothing is being dealt now: the players are setting up.")
            raise NotYourTurn(
                "You have committed your set-up; waiting for your opponent to commit theirs."
            )
        if seat == CHANCE:
            return self._apply_deal(state, action)
        return self._apply_setup(state, seat, action)

    # ----- set-up -----------------------------------------------------------

    def _apply_setup(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        done = state.values[seat]
        if isinstance(action, SetValue):
            if len(done) >= NUM_FILES:
                raise IllegalAction("All eight values are set: choose the Leader's file.")
            if action.file != len(done):
                raise IllegalAction(
                    f"Files are set in order: the next one is file {FILES[len(done)]}."
                )
            allowed = [v for v, _ in value_odds(done)]
            if action.value not in allowed:
                raise IllegalAction(
                    f"File {FILES[action.file]} can take "
                    f"{', '.join(map(str, allowed))} so that the total can still be 28."
                )
            return _replace(state, values=_set(state.values, seat, (*done, action.value)))
        if isinstance(action, SetLeader):
            if len(done) < NUM_FILES:
                raise IllegalAction("Set all eight values before choosing the Leader's file.")
            if state.leaders[seat] >= 0:
                raise IllegalAction("Your Leader's file is chosen: commit, or reset the set-up.")
            if not 0 <= action.file < NUM_FILES:
                raise IllegalAction("The Leader goes on one of the files a to h.")
            return _replace(state, leaders=_set(state.leaders, seat, action.file))
        if isinstance(action, SetupAll):
            if not _values_ok(action.values):
                raise IllegalAction(
                    "A set-up is eight top values from 1 to 6, for files a to h, summing to 28."
                )
            if not 0 <= action.leader < NUM_FILES:
                raise IllegalAction("The Leader goes on one of the files a to h.")
            return _replace(
                state,
                values=_set(state.values, seat, action.values),
                leaders=_set(state.leaders, seat, action.leader),
            )
        if isinstance(action, SetupRandom):
            return _replace(
                state,
                values=_set(state.values, seat, ()),
                leaders=_set(state.leaders, seat, -1),
                dealing=seat,
            )
        if isinstance(action, SetupReset):
            if not done:
                raise IllegalAction("Nothing is set yet, so there is nothing to reset.")
            return _replace(
                state, values=_set(state.values, seat, ()), leaders=_set(state.leaders, seat, -1)
            )
        if isinstance(action, Commit):
            if len(done) < NUM_FILES or state.leaders[seat] < 0:
                raise IllegalAction(
                    "Your set-up is not complete: set all eight values and the Leader's file."
                )
            committed = _set(state.committed, seat, True)
            state = _replace(state, committed=committed)
            return self._reveal(state) if all(committed) else state
        raise IllegalAction(f"The players are setting up their dice. {_HELP_SETUP}")

    def _apply_deal(self, state: ArtabanState, action: ArtabanAction) -> ArtabanState:
        seat = state.dealing
        assert seat is not None
        if not isinstance(action, DealValue | DealLeader) or action.seat != seat:
            raise IllegalAction("A random set-up is being dealt: only its values can be dealt.")
        done = state.values[seat]
        if isinstance(action, DealValue):
            if action.file != len(done) or action.value not in _allowed_after(len(done), sum(done)):
                raise IllegalAction("That value cannot be dealt to that file now.")
            return _replace(state, values=_set(state.values, seat, (*done, action.value)))
        if len(done) < NUM_FILES or not 0 <= action.file < NUM_FILES:
            raise IllegalAction("The Leader's file cannot be dealt now.")
        # R7: a random arrangement is asked for instead of committing one, so
        # it is committed as soon as it is dealt.
        committed = _set(state.committed, seat, True)
        state = _replace(
            state,
            leaders=_set(state.leaders, seat, action.file),
            dealing=None,
            committed=committed,
        )
        return self._reveal(state) if all(committed) else state

    def _reveal(self, state: ArtabanState) -> ArtabanState:
        """R7: both set-ups stand on their second ranks; seat 0 moves first."""
        board = list(_EMPTY_BOARD)
        for s in (0, 1):
            base = (START_RANK[s] - 1) * 8
            for f, v in enumerate(state.values[s]):
                board[base + f] = _code(s, f == state.leaders[s], v, start_front(v))
        final = tuple(board)
        return _replace(state, phase=PLAY, board=final, to_play=0, movers=_movers(final))

    # ----- search (issue 19) -------------------------------------------------

    def determinize(
        self, state: ArtabanState, seat: Seat, draw: Callable[[], float]
    ) -> ArtabanState:
        """A state ``seat`` cannot tell from ``state``: the opponent's set-up
        dealt afresh (:class:`bot.engines.core.Determinizes`).

        R7: until both have committed, ``seat`` sees its own arrangement,
        who has committed and whether a random set-up is being dealt (then
        nobody but chance is to move); not how far the opponent has got.  So
        the opponent gets a whole legal arrangement, every one equally likely
        (eight values summing to 28 and a Leader file), committed or not as
        before.  While chance deals the opponent's random set-up it starts
        from nothing: chance deals the rest at its turn.  After the reveal
        nothing is hidden, and the state is returned as it is.
        """
        if state.phase != SETUP or seat not in (0, 1):
            return state
        other = 1 - seat
        if state.dealing == other:
            values: tuple[int, ...] = ()
            leader = -1
        else:
            values = _deal_values(draw)
            leader = min(int(draw() * NUM_FILES), NUM_FILES - 1)
        return _replace(
            state,
            values=_set(state.values, other, values),
            leaders=_set(state.leaders, other, leader),
        )

    # ----- play -------------------------------------------------------------

    def _refuse_tip(self, state: ArtabanState, seat: Seat, action: Tip) -> NoReturn:
        """Why ``apply`` refuses this tip, in the order the rules are checked."""
        sq = action.square
        board = state.board
        if sq not in state.movers[seat]:
            self._own_die(state, seat, sq)
        d = action.direction
        if d not in _DIRECTIONS:
            raise IllegalAction("A die tips forward (^), left (<) or right (>).")
        dst = _STEPS[seat][d][sq]
        if dst < 0:
            raise IllegalAction(
                f"The die on {square_name(sq)} cannot tip {_DIRECTION_WORD[d]}: "
                "that is off the board."
            )
        if board[dst]:
            raise IllegalAction(
                f"The die on {square_name(sq)} cannot tip onto {square_name(dst)}: "
                "it is occupied (a capture is written like "
                f"'{square_name(sq)}x{square_name(dst)}')."
            )
        raise IllegalAction(f"The die on {square_name(sq)} cannot tip now.")  # never reached

    def _refuse_turn(self, state: ArtabanState, seat: Seat, action: Turn) -> NoReturn:
        """Why ``apply`` refuses this turn."""
        if action.square not in state.movers[seat]:
            self._own_die(state, seat, action.square)
        raise IllegalAction("A die turns left (@<) or right (@>).")

    def _apply_play(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        """Captures, sacrifices and draw offers (``apply`` does tips and turns)."""
        board = state.board
        kind: str
        movers: Squares
        if isinstance(action, Capture | Sacrifice):
            sq = self._own_die(state, seat, action.frm)
            dst = action.to
            straight = any(dst == slot[0] for slot in _STRAIGHT[seat][sq])
            diagonal = any(dst == slot[0] for slot in _DIAGONAL[seat][sq])
            if not straight and not (diagonal and state.diagonal):
                where = "forward, left or right"
                if state.diagonal:
                    where += ", or diagonally forward"
                raise IllegalAction(
                    f"The die on {square_name(sq)} can only reach the squares next to it {where}."
                )
            target = board[dst] if 0 <= dst < 64 else 0
            if not target or _OWNER[target] == seat:
                raise IllegalAction(f"There is no enemy die on {square_name(dst)}.")
            mine, theirs = _TOP[board[sq]], _TOP[target]
            leader = bool(_LEADER[board[sq]])
            new = list(board)
            if isinstance(action, Capture):
                if not (theirs < mine or (leader and theirs == mine)):
                    rule = "lower or equal (it is the Leader)" if leader else "lower"
                    hint = (
                        f" Equal dice may be sacrificed: '{square_name(sq)}!{square_name(dst)}'."
                        if theirs == mine
                        else ""
                    )
                    raise IllegalAction(
                        f"The die on {square_name(sq)} ({mine}) can only capture a {rule} "
                        f"value, and {square_name(dst)} shows {theirs}.{hint}"
                    )
                new[dst] = board[sq]
                kind = "capture"
                mine_after = _moved(state.movers[seat], sq, dst, _HOME[seat])
                theirs_after = _moved(state.movers[1 - seat], dst, -1, _HOME[1 - seat])
                movers = (mine_after, theirs_after) if seat == 0 else (theirs_after, mine_after)
            else:
                if leader:
                    raise IllegalAction(
                        "The Leader cannot be sacrificed (R6); it captures an equal die instead: "
                        f"'{square_name(sq)}x{square_name(dst)}'."
                    )
                if theirs != mine:
                    raise IllegalAction(
                        f"A sacrifice needs equal values: {square_name(sq)} shows {mine} and "
                        f"{square_name(dst)} shows {theirs}."
                    )
                kind = "sacrifice"
                movers = _pair(state.movers, seat, _moved(state.movers[seat], sq, -1, _HOME[seat]))
            new[sq] = 0
            return _after_move(state, seat, tuple(new), movers, (seat, kind, sq, dst), True, None)
        if isinstance(action, OfferDraw):
            if state.draw_offer == seat:
                raise IllegalAction("You have already offered a draw: make your move.")
            if state.draw_offer is not None:
                raise IllegalAction(
                    "Your opponent has offered a draw: 'accept-draw' or 'decline-draw'."
                )
            return self._same_moves(state, _replace(state, draw_offer=seat))
        if isinstance(action, AcceptDraw | DeclineDraw):
            if state.draw_offer is None or state.draw_offer == seat:
                raise IllegalAction("Your opponent has not offered a draw.")
            if isinstance(action, AcceptDraw):
                return _replace(state, phase=OVER, draw_offer=None, result=AGREED)
            return self._same_moves(state, _replace(state, draw_offer=None))
        raise IllegalAction(f"The set-up is over: it is time to move. {_HELP_PLAY}")

    @staticmethod
    def _same_moves(before: ArtabanState, after: ArtabanState) -> ArtabanState:
        """``after`` keeping ``before``'s moves: R9's draw offer and refusal
        change neither the board nor who moves next."""
        known = getattr(before, _LEGAL, None)
        if known is not None:
            _set_fields(after, _LEGAL, known)
        return after

    @staticmethod
    def _own_die(state: ArtabanState, seat: Seat, sq: int) -> int:
        """``sq`` if it holds a die of ``seat`` that may still move (R8), else
        IllegalAction saying why."""
        if not 0 <= sq < 64:
            raise IllegalAction("There is no such square.")
        code = state.board[sq]
        if not code:
            raise IllegalAction(f"There is no die on {square_name(sq)}.")
        if _OWNER[code] != seat:
            raise IllegalAction(f"The die on {square_name(sq)} is not yours.")
        if _HOME[seat][sq]:
            raise IllegalAction(
                f"The die on {square_name(sq)} is home on your last rank: it no longer moves (R8)."
            )
        return sq

    # ----- scoring ----------------------------------------------------------

    @staticmethod
    def tally(board: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """R10: per seat, (home score, dice on the last rank, dice on the board)."""
        score = [0, 0]
        home = [0, 0]
        on_board = [0, 0]
        for sq, code in enumerate(board):
            if not code:
                continue
            s = _OWNER[code]
            on_board[s] += 1
            if _HOME[s][sq]:
                home[s] += 1
                score[s] += _TOP[code]
        return (score[0], score[1]), (home[0], home[1]), (on_board[0], on_board[1])

    def outcome(self, state: ArtabanState) -> Outcome | None:
        if state.phase != OVER:
            return None
        # The reason names seats as {p0}/{p1}, filled in by the caller.
        who = seat_tag
        scores, home, on_board = self.tally(state.board)
        both = frozenset((0, 1))
        if state.result == AGREED:
            return Outcome((both,), scores, "The players agreed to a draw.")
        if state.result == QUIET:
            # "Moves", not the rules' "plies": each player's move counts.
            why = (
                f"{QUIET_LIMIT} moves in a row passed without a forward tip, a capture "
                "or a sacrifice."
            )
        else:
            why = f"{who(state.to_play)}, to move, could not tip, capture or sacrifice."
        why += f" {who(0)} scores {scores[0]} and {who(1)} scores {scores[1]}"
        ranking: tuple[frozenset[Seat], ...]
        if scores[0] != scores[1]:
            why += "."
            best = 0 if scores[0] > scores[1] else 1
        elif home[0] != home[1]:
            why += (
                f"; with the scores tied, more dice on the last rank wins ({home[0]} to {home[1]})."
            )
            best = 0 if home[0] > home[1] else 1
        elif on_board[0] != on_board[1]:
            why += (
                f"; with the scores and the dice on the last rank tied, more dice on the board "
                f"wins ({on_board[0]} to {on_board[1]})."
            )
            best = 0 if on_board[0] > on_board[1] else 1
        else:
            why += (
                "; the scores, the dice on the last rank and the dice on the board are all "
                "tied: a draw."
            )
            return Outcome((both,), scores, why)
        ranking = (frozenset((best,)), frozenset((1 - best,)))
        return Outcome(ranking, scores, why)

    # ----- view -------------------------------------------------------------

    def view(self, state: ArtabanState, seat: Seat | None) -> ArtabanView:
        board = state.board
        dice: list[DieView] = []
        leader_sq: list[str | None] = [None, None]
        for sq, code in enumerate(board):
            if not code:
                continue
            owner, leader, top, front = _decode(code)
            right = right_face(top, front)
            name = square_name(sq)
            if leader:
                leader_sq[owner] = name
            dice.append(
                DieView(
                    square=name,
                    file=sq % 8,
                    rank=sq // 8 + 1,
                    owner=owner,
                    top=top,
                    front=front,
                    left=7 - right,
                    right=right,
                    leader=leader,
                    home=_HOME[owner][sq],
                )
            )
        scores, home, on_board = self.tally(board)
        revealed = state.phase != SETUP
        players = tuple(
            PlayerView(
                seat=s,
                committed=state.committed[s],
                score=scores[s],
                home=home[s],
                on_board=on_board[s] if revealed else NUM_FILES,
                leader=leader_sq[s],
            )
            for s in (0, 1)
        )
        last: LastMoveView | None = None
        if state.last_move is not None:
            mover, kind, frm, to = state.last_move
            last = LastMoveView(
                seat=mover,
                kind=kind,
                frm=square_name(frm),
                to=square_name(to),
                forward=kind == "tip" and _STEPS[mover][FORWARD][frm] == to,
            )
        final: FinalView | None = None
        # Like the outcome's, the reason names seats with {pN} tags: the board
        # draws it with the players' names (the colours White and Black are
        # the rules' words, not the orange and blue seats a player sees).
        outcome = self.outcome(state)
        if outcome is not None:
            final = FinalView(
                ranking=tuple(tuple(sorted(g)) for g in outcome.ranking),
                scores=outcome.scores,
                reason=outcome.reason,
                agreed=state.result == AGREED,
            )
        me: SetupView | None = None
        if state.phase == SETUP and seat in (0, 1):
            assert seat is not None
            mine = state.values[seat]
            lead = state.leaders[seat]
            me = SetupView(
                seat=seat,
                values=mine,
                leader=FILES[lead] if lead >= 0 else None,
                committed=state.committed[seat],
                total=sum(mine),
            )
        return ArtabanView(
            phase=state.phase,
            diagonal_captures=state.diagonal,
            to_play=state.to_play if state.phase == PLAY else None,
            waiting_on=tuple(sorted(self.waiting_on(state))),
            players=players,
            dice=tuple(dice),
            last_move=last,
            draw_offer=state.draw_offer,
            quiet_plies=state.quiet,
            quiet_limit=QUIET_LIMIT,
            ply=state.ply,
            final=final,
            viewer=seat if seat in (0, 1) else None,
            me=me,
        )

    # ----- text -------------------------------------------------------------

    def parse(self, state: ArtabanState, seat: Seat, text: str) -> ArtabanAction:
        raw = text.strip().lower()
        compact = "".join(ch for ch in raw if not ch.isspace() and ch not in "-_,")
        if not compact:
            raise InvalidAction(f"Type a move. {_help(state)}")
        word = _WORDS.get(compact)
        if word is not None:
            return word
        m = _MOVE_RE.fullmatch(compact)
        if m is not None:
            sq = square_of(m.group(1))
            rest = m.group(2)
            if rest in _DIRECTIONS:
                return _TIP_ACTS[sq][rest]
            if rest[0] == "@":
                return _TURN_ACTS[sq][0 if rest[1] == LEFT else 1]
            if rest[0] == "x":
                return Capture(sq, square_of(m.group(3)))
            return Sacrifice(sq, square_of(m.group(4)))
        m = _SET_RE.fullmatch(compact)
        if m is not None:
            return SetValue(FILES.index(m.group(1)), self._value(m.group(2)))
        m = _LEADER_RE.fullmatch(compact)
        if m is not None:
            return _LEADER_ACTS[FILES.index(m.group(1))]
        m = _ALL_RE.fullmatch(compact)
        if m is not None:
            values = tuple(self._value(ch) for ch in m.group(1))
            return SetupAll(values, FILES.index(m.group(2)))
        m = _DEAL_RE.fullmatch(compact)
        if m is not None:
            who = int(m.group(1))
            if m.group(3) is not None:
                return DealValue(who, FILES.index(m.group(3)), self._value(m.group(4)))
            return DealLeader(who, FILES.index(m.group(5)))
        raise InvalidAction(f"I don't understand {excerpt(text)}. {_help(state)}")

    @staticmethod
    def _value(digit: str) -> int:
        v = whole_number(digit, max_digits=1)
        if v is None or not 1 <= v <= 6:
            raise InvalidAction(f"A die's top value is 1 to 6, not {excerpt(digit)}.")
        return v

    def describe(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> str:
        match action:
            case Tip(sq, d):
                return f"{square_name(sq)}{d}"
            case Turn(sq, d):
                return f"{square_name(sq)}@{d}"
            case Capture(frm, to):
                return f"{square_name(frm)}x{square_name(to)}"
            case Sacrifice(frm, to):
                return f"{square_name(frm)}!{square_name(to)}"
            case OfferDraw():
                return "offer-draw"
            case AcceptDraw():
                return "accept-draw"
            case DeclineDraw():
                return "decline-draw"
            case SetValue(f, v):
                return f"set {FILES[f]} {v}"
            case SetLeader(f):
                return f"leader {FILES[f]}"
            case SetupRandom():
                return "setup random"
            case SetupReset():
                return "setup reset"
            case Commit():
                return "commit"
            case SetupAll(values, leader):
                return f"setup {' '.join(map(str, values))} leader {FILES[leader]}"
            case DealValue(s, f, v):
                return f"p{s} set {FILES[f]} {v}"
            case DealLeader(s, f):
                return f"p{s} leader {FILES[f]}"
        raise InvalidAction(f"Not an Artaban action: {action!r}")

    def menu_words(self, state: ArtabanState, seat: Seat, text: str) -> tuple[str, ...]:
        """How an action's text splits into menu levels: a die's moves group
        under its square (``c2^`` -> ``("c2", "c2^")``); everything else,
        set-up steps included (at most ten choices each), is one level."""
        m = _MENU_RE.match(text)
        if m is not None:
            return (m.group(1), text)
        return (text,)

    def _die_text(self, state: ArtabanState, sq: int) -> str:
        code = state.board[sq] if 0 <= sq < 64 else 0
        if not code:
            return square_name(sq) if 0 <= sq < 64 else "?"
        lead = " (Leader)" if _LEADER[code] else ""
        return f"{square_name(sq)}: {_TOP[code]}{lead}"

    def choice_label(self, state: ArtabanState, seat: Seat, prefix: str) -> str:
        """Menu text for the moves of one die: ``c2: 5 (Leader)``."""
        if re.fullmatch(_SQUARE_RE, prefix):
            return self._die_text(state, square_of(prefix))
        return prefix

    def label(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> str:
        text = self._label(state, seat, action)
        return text if text else self.describe(state, seat, action)

    def _label(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> str:
        board = state.board
        match action:
            case Tip(sq, d):
                code = board[sq]
                owner = _OWNER[code] if code else seat
                dst = _STEPS[owner][d][sq] if d in _DIRECTIONS else -1
                if not code or dst < 0:
                    return ""
                new = _TIPPED[d][code]
                return (
                    f"Tip {square_name(sq)} {_DIRECTION_WORD[d]} to {square_name(dst)} "
                    f"(top {_TOP[code]} -> {_TOP[new]})"
                )
            case Turn(sq, d):
                code = board[sq]
                if not code:
                    return ""
                _, _, top, front = _decode(code)
                _, _, _, new_front = _decode(_TURNED[d][code])
                return (
                    f"Turn {square_name(sq)} {_DIRECTION_WORD[d]} in place "
                    f"(top stays {top}, front {front} -> {new_front})"
                )
            case Capture(frm, to):
                a, b = board[frm], board[to]
                if not a or not b:
                    return ""
                who = "Leader" if _LEADER[a] else "die"
                return (
                    f"{square_name(frm)} {who} ({_TOP[a]}) captures the "
                    f"{_TOP[b]} on {square_name(to)}"
                )
            case Sacrifice(frm, to):
                a, b = board[frm], board[to]
                if not a or not b:
                    return ""
                return (
                    f"Sacrifice {square_name(frm)} ({_TOP[a]}) against the "
                    f"{_TOP[b]} on {square_name(to)}"
                )
            case OfferDraw():
                return "Offer a draw (then make your move)"
            case AcceptDraw():
                return "Accept the draw: the game ends drawn"
            case DeclineDraw():
                return "Decline the draw (then make your move)"
            case SetValue(f, v):
                return f"File {FILES[f]}: top value {v}"
            case SetLeader(f):
                done = state.values[seat] if seat in (0, 1) else ()
                note = f" (top {done[f]})" if f < len(done) else ""
                return f"Leader on file {FILES[f]}{note}"
            case SetupRandom():
                return "Random arrangement, committed at once"
            case SetupReset():
                return "Start the set-up again"
            case Commit():
                if seat not in (0, 1):
                    return ""
                done = state.values[seat]
                lead = state.leaders[seat]
                if lead < 0:
                    return "Commit your set-up"
                return f"Commit: {' '.join(map(str, done))}, Leader on {FILES[lead]}"
            case SetupAll(values, leader):
                return f"Set up {' '.join(map(str, values))}, Leader on {FILES[leader]}"
            case DealValue(s, f, v):
                return f"{seat_tag(s)}, file {FILES[f]}: top value {v}"
            case DealLeader(s, f):
                return f"{seat_tag(s)}: Leader on file {FILES[f]}"
        return ""

    def narrate(
        self, before: ArtabanState, seat: Seat, action: ArtabanAction, after: ArtabanState
    ) -> str:
        who = seat_tag(seat)
        board = before.board
        text = ""
        match action:
            case SetValue() | SetLeader() | SetupReset() | SetupAll():
                # R7: nothing about the arrangement itself.
                text = f"{who} is arranging their dice."
            case SetupRandom():
                text = f"{who} has committed a random set-up."
                if before.committed[1 - seat]:
                    text += (
                        f" Then both set-ups are revealed: {seat_tag(0)} moves first, from "
                        f"rank 2; {seat_tag(1)} from rank 7."
                    )
            case Commit():
                text = f"{who} has committed their set-up."
                if after.phase == PLAY:
                    text += (
                        f" Both set-ups are revealed: {seat_tag(0)} moves first, from rank 2; "
                        f"{seat_tag(1)} from rank 7."
                    )
            case DealValue() | DealLeader():
                text = ""
            case Tip(sq, d):
                code = board[sq]
                dst = _STEPS[seat][d][sq]
                text = (
                    f"{who} tipped {square_name(sq)} {_DIRECTION_WORD[d]} to {square_name(dst)} "
                    f"(top {_TOP[code]} -> {_TOP[_TIPPED[d][code]]})."
                )
            case Turn(sq, d):
                text = f"{who} turned {square_name(sq)} {_DIRECTION_WORD[d]} in place."
            case Capture(frm, to):
                a, b = board[frm], board[to]
                mine = "their Leader" if _LEADER[a] else "the"
                lost = " Leader" if _LEADER[b] else ""
                text = (
                    f"{who} captured the {_TOP[b]}{lost} on {square_name(to)} with {mine} "
                    f"{_TOP[a]} from {square_name(frm)}."
                )
            case Sacrifice(frm, to):
                text = (
                    f"{who} sacrificed the {_TOP[board[frm]]} on {square_name(frm)} against "
                    f"the {_TOP[board[to]]} on {square_name(to)}."
                )
            case OfferDraw():
                text = f"{who} offers a draw."
            case AcceptDraw():
                text = f"{who} accepted the draw."
            case DeclineDraw():
                text = f"{who} declined the draw."
        if (
            isinstance(action, _MOVES)
            and before.draw_offer is not None
            and before.draw_offer != seat
        ):
            text += " The draw offer lapses."
        if after.phase == OVER and before.phase != OVER:
            outcome = self.outcome(after)
            if outcome is not None:
                text = f"{text} Game over: {outcome.reason}".strip()
        return text

    def private_to(self, before: ArtabanState, seat: Seat, action: ArtabanAction) -> Seat | None:
        # R7: a set-up stays with its owner until both have committed,
        # including the chance steps of a random one.
        if isinstance(action, _SETUP_ACTIONS):
            return seat
        if isinstance(action, DealValue | DealLeader):
            return action.seat
        return None

    # ----- serialisation ----------------------------------------------------

    def to_json(self, state: ArtabanState) -> JSON:
        dice = []
        for sq, code in enumerate(state.board):
            if code:
                owner, leader, top, front = _decode(code)
                dice.append(
                    {
                        "square": square_name(sq),
                        "owner": owner,
                        "top": top,
                        "front": front,
                        "leader": leader,
                    }
                )
        last = None
        if state.last_move is not None:
            mover, kind, frm, to = state.last_move
            last = {"seat": mover, "kind": kind, "from": square_name(frm), "to": square_name(to)}
        return {
            "phase": state.phase,
            "diagonal_captures": state.diagonal,
            "to_play": state.to_play,
            "quiet": state.quiet,
            "ply": state.ply,
            "draw_offer": state.draw_offer,
            "last_move": last,
            "dice": dice,
            "setup": [
                {
                    "values": list(state.values[s]),
                    "leader": FILES[state.leaders[s]] if state.leaders[s] >= 0 else None,
                    "committed": state.committed[s],
                }
                for s in (0, 1)
            ],
            "dealing": state.dealing,
            "result": state.result,
        }

    def from_json(self, obj: JSON) -> ArtabanState:
        try:
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            result = str(obj["result"])
            if result not in _RESULTS:
                raise ValueError(f"unknown result {result!r}")
            board = [0] * 64
            for die in obj["dice"]:
                name = str(die["square"])
                if not re.fullmatch(_SQUARE_RE, name):
                    raise ValueError(f"bad square {name!r}")
                sq = square_of(name)
                if board[sq]:
                    raise ValueError(f"two dice on {name}")
                owner = int(die["owner"])
                if owner not in (0, 1):
                    raise ValueError(f"bad owner {owner}")
                top, front = int(die["top"]), int(die["front"])
                if (top, front) not in _ORIENT:
                    raise ValueError(f"no die shows {top} on top and {front} in front")
                board[sq] = _code(owner, bool(die["leader"]), top, front)
            last_obj = obj["last_move"]
            last: LastMove | None = None
            if last_obj is not None:
                last = (
                    int(last_obj["seat"]),
                    str(last_obj["kind"]),
                    square_of(str(last_obj["from"])),
                    square_of(str(last_obj["to"])),
                )
            setups = obj["setup"]
            if len(setups) != 2:
                raise ValueError("needs two set-ups")
            values: list[tuple[int, ...]] = []
            leaders: list[int] = []
            for s in setups:
                vals = tuple(int(v) for v in s["values"])
                if len(vals) > NUM_FILES or not all(1 <= v <= 6 for v in vals):
                    raise ValueError(f"bad set-up values {vals}")
                values.append(vals)
                lead = s["leader"]
                leaders.append(-1 if lead is None else FILES.index(str(lead)))
            offer = obj["draw_offer"]
            dealing = obj["dealing"]
            state = ArtabanState(
                phase=phase,
                diagonal=bool(obj["diagonal_captures"]),
                board=tuple(board),
                to_play=int(obj["to_play"]),
                quiet=int(obj["quiet"]),
                ply=int(obj["ply"]),
                draw_offer=None if offer is None else int(offer),
                last_move=last,
                values=(values[0], values[1]),
                leaders=(leaders[0], leaders[1]),
                committed=(bool(setups[0]["committed"]), bool(setups[1]["committed"])),
                dealing=None if dealing is None else int(dealing),
                result=result,
                movers=_movers(tuple(board)),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"Not an Artaban state: {exc}") from None
        if state.to_play not in (0, 1):
            raise ValueError("Not an Artaban state: to_play must be 0 or 1")
        return state


_SEAT_SETS: Final = (frozenset((0,)), frozenset((1,)))
_CHANCE_SET: Final = frozenset((CHANCE,))
_UNCOMMITTED: Final[dict[tuple[bool, bool], frozenset[Seat]]] = {
    (a, b): frozenset(s for s, done in enumerate((a, b)) if not done)
    for a in (False, True)
    for b in (False, True)
}
"""R7: who is still setting up, by who has committed."""

__all__ = [
    "FILES",
    "ORIENTATIONS",
    "QUIET_LIMIT",
    "SETUP_SUM",
    "AcceptDraw",
    "ArtabanAction",
    "ArtabanEngine",
    "ArtabanState",
    "Capture",
    "Commit",
    "DealLeader",
    "DealValue",
    "DeclineDraw",
    "OfferDraw",
    "Sacrifice",
    "SetLeader",
    "SetValue",
    "SetupAll",
    "SetupRandom",
    "SetupReset",
    "Tip",
    "Turn",
    "arrangements",
    "right_face",
    "square_name",
    "square_of",
    "start_front",
    "tip",
    "turn",
    "value_odds",
]
