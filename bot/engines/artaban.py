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

States are frozen dataclasses; the per-move path builds them through
:func:`_replace`/``_after_move`` (``object.__new__`` plus the field dict)
instead of the generated frozen ``__init__``, which nearly doubles playout speed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache
from typing import Any, Final

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

# --------------------------------------------------------------------------
# Set-up arithmetic (R7)
# --------------------------------------------------------------------------


@cache
def arrangements(files: int, total: int) -> int:
    """How many ways ``files`` top values (1-6 each) can sum to ``total``."""
    if files == 0:
        return 1 if total == 0 else 0
    return sum(arrangements(files - 1, total - v) for v in range(1, 7) if v <= total)


@cache
def value_odds(done: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """The values the next file may take after ``done`` (so 28 stays
    reachable), each with the probability that makes a random arrangement
    uniform over all legal ones."""
    left = NUM_FILES - len(done) - 1
    rest = SETUP_SUM - sum(done)
    ways = arrangements(left + 1, rest)
    if left < 0 or ways == 0:
        return ()
    return tuple(
        (v, Fraction(arrangements(left, rest - v), ways))
        for v in range(1, 7)
        if arrangements(left, rest - v)
    )


@cache
def _deal_odds(seat: Seat, done: tuple[int, ...]) -> tuple[tuple[ArtabanAction, Fraction], ...]:
    """Chance's outcomes for the next step of ``seat``'s random set-up."""
    if len(done) < NUM_FILES:
        return tuple((DealValue(seat, len(done), v), p) for v, p in value_odds(done))
    p = Fraction(1, NUM_FILES)
    return tuple((DealLeader(seat, f), p) for f in range(NUM_FILES))


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


@dataclass(frozen=True)
class ArtabanState:
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
    movers: tuple[tuple[int, ...], tuple[int, ...]]
    """Derived from :attr:`board` (kept for speed): each seat's squares with a
    die that may still move (not home, R8), ascending."""


def _movers(board: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    found: tuple[list[int], list[int]] = ([], [])
    for sq, code in enumerate(board):
        if code and not _HOME[_OWNER[code]][sq]:
            found[_OWNER[code]].append(sq)
    return tuple(found[0]), tuple(found[1])


_new_state: Final = object.__new__
_set_fields: Final = object.__setattr__
_FIELD_NAMES: Final = frozenset(f.name for f in fields(ArtabanState))


def _replace(state: ArtabanState, **changes: Any) -> ArtabanState:
    """``dataclasses.replace`` without its per-call introspection: a copy of
    ``state`` with ``changes``, built like the hot path in ``_after_move``."""
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"ArtabanState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
    after = _new_state(ArtabanState)
    _set_fields(after, "__dict__", {**state.__dict__, **changes})
    return after


def _pair(
    pair: tuple[tuple[int, ...], tuple[int, ...]], seat: Seat, squares: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (squares, pair[1]) if seat == 0 else (pair[0], squares)


def _moved(squares: tuple[int, ...], old: int, new: int, home: tuple[bool, ...]) -> tuple[int, ...]:
    """``squares`` with ``old`` taken out and ``new`` (unless it is home or -1) put in."""
    kept = list(squares)
    if new >= 0 and not home[new]:
        kept[kept.index(old)] = new
        kept.sort()
    else:
        kept.remove(old)
    return tuple(kept)


_EMPTY_BOARD: Final = (0,) * 64


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


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
            return frozenset(s for s in (0, 1) if not state.committed[s])
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
        return list(_deal_odds(seat, state.values[seat]))

    def legal_actions(self, state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        if state.phase == PLAY:
            if seat != state.to_play:
                return []
            out = self._moves(state, seat)
            offer = state.draw_offer
            if offer is None:
                out.append(_OFFER)
            elif offer != seat:
                out.append(_ACCEPT)
                out.append(_DECLINE)
            return out
        if state.phase != SETUP:
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        if seat not in self.to_move(state):
            return []
        return self._setup_actions(state, seat)

    def _setup_actions(self, state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        done = state.values[seat]
        out: list[ArtabanAction] = []
        if len(done) < NUM_FILES:
            row = _SET_ACTS[len(done)]
            out.extend(row[v] for v, _ in value_odds(done))
            out.append(_RANDOM)
            if done:
                out.append(_RESET)
        elif state.leaders[seat] < 0:
            out.extend(_LEADER_ACTS)
            out.append(_RANDOM)
            out.append(_RESET)
        else:
            out.extend((_COMMIT, _RANDOM, _RESET))
        return out

    @staticmethod
    def _moves(state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        """Every tip, capture, sacrifice and turn of ``seat`` (R2-R6, R8)."""
        out: list[ArtabanAction] = []
        append = out.append
        board = state.board
        straight = _STRAIGHT[seat]
        diag = _DIAGONAL[seat] if state.diagonal else None
        turns = _TURN_ACTS
        verdicts = _VERDICT
        for sq in state.movers[seat]:
            verdict = verdicts[board[sq]]
            for dst, acts in straight[sq]:
                x = verdict[board[dst]]
                if x < NOTHING:
                    append(acts[x])
            if diag is not None:
                for dst, acts in diag[sq]:
                    x = verdict[board[dst]]
                    if x and x < NOTHING:
                        append(acts[x])
            out.extend(turns[sq])
        return out

    @staticmethod
    def _can_progress(
        board: tuple[int, ...], squares: tuple[int, ...], seat: Seat, diagonal: bool
    ) -> bool:
        """R9: whether the dice of ``seat`` on ``squares`` have a tip, a capture
        or a sacrifice."""
        straight = _STRAIGHT[seat]
        diag = _DIAGONAL[seat]
        verdicts = _VERDICT
        for sq in squares:
            verdict = verdicts[board[sq]]
            for dst, _ in straight[sq]:
                if verdict[board[dst]] < NOTHING:
                    return True
            if diagonal:
                for dst, _ in diag[sq]:
                    x = verdict[board[dst]]
                    if x and x < NOTHING:
                        return True
        return False

    # ----- apply ------------------------------------------------------------

    def apply(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        phase = state.phase
        if phase == PLAY:
            if seat != state.to_play:
                raise NotYourTurn("It is not your turn: your opponent is to move.")
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
            if action.file != len(done) or action.value not in dict(value_odds(done)):
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

    def _apply_play(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        board = state.board
        kind: str
        if type(action) is Tip:
            sq = action.square
            if not (0 <= sq < 64 and sq in state.movers[seat]):
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
            new = list(board)
            new[sq] = 0
            new[dst] = _TIPPED[d][board[sq]]
            movers = _pair(state.movers, seat, _moved(state.movers[seat], sq, dst, _HOME[seat]))
            return self._after_move(
                state, seat, tuple(new), movers, (seat, "tip", sq, dst), d == FORWARD
            )
        if type(action) is Turn:
            sq = action.square
            if not (0 <= sq < 64 and sq in state.movers[seat]):
                self._own_die(state, seat, sq)
            if action.direction not in (LEFT, RIGHT):
                raise IllegalAction("A die turns left (@<) or right (@>).")
            new = list(board)
            new[sq] = _TURNED[action.direction][board[sq]]
            return self._after_move(
                state, seat, tuple(new), state.movers, (seat, "turn", sq, sq), False
            )
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
            return self._after_move(state, seat, tuple(new), movers, (seat, kind, sq, dst), True)
        if isinstance(action, OfferDraw):
            if state.draw_offer == seat:
                raise IllegalAction("You have already offered a draw: make your move.")
            if state.draw_offer is not None:
                raise IllegalAction(
                    "Your opponent has offered a draw: 'accept-draw' or 'decline-draw'."
                )
            return _replace(state, draw_offer=seat)
        if isinstance(action, AcceptDraw | DeclineDraw):
            if state.draw_offer is None or state.draw_offer == seat:
                raise IllegalAction("Your opponent has not offered a draw.")
            if isinstance(action, AcceptDraw):
                return _replace(state, phase=OVER, draw_offer=None, result=AGREED)
            return _replace(state, draw_offer=None)
        raise IllegalAction(f"The set-up is over: it is time to move. {_HELP_PLAY}")

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

    def _after_move(
        self,
        state: ArtabanState,
        seat: Seat,
        board: tuple[int, ...],
        movers: tuple[tuple[int, ...], tuple[int, ...]],
        last: LastMove,
        progress: bool,
    ) -> ArtabanState:
        quiet = 0 if progress else state.quiet + 1
        nxt = 1 - seat
        # R9: the opponent's pending offer lapses when this player moves
        # instead; this player's own offer stands for the opponent to answer.
        offer = seat if state.draw_offer == seat else None
        result = ""
        if quiet >= QUIET_LIMIT:
            result = QUIET
        elif not self._can_progress(board, movers[nxt], nxt, state.diagonal):
            result = STUCK
        # The hot path of every game: built like ArtabanState(...) would be,
        # field for field, at a third of the cost of the frozen __init__.
        after = _new_state(ArtabanState)
        _set_fields(
            after,
            "__dict__",
            {
                "phase": OVER if result else PLAY,
                "diagonal": state.diagonal,
                "board": board,
                "to_play": nxt,
                "quiet": quiet,
                "ply": state.ply + 1,
                "draw_offer": None if result else offer,
                "last_move": last,
                "values": state.values,
                "leaders": state.leaders,
                "committed": state.committed,
                "dealing": None,
                "result": result,
                "movers": movers,
            },
        )
        return after

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
        # The reason names seats as {p0}/{p1}, filled in by the caller.
        who = seat_tag
        if state.phase != OVER:
            return None
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
