"""Martian Chaturaji: the pure rules engine.

The rules are ``docs/rules/chaturaji.md`` (R1-R15).  Four armies on one
chessboard, files ``a``-``h`` and ranks ``1``-``8``: Blue (South, home row
rank 1), Red (West, file a), Green (North, rank 8) and Yellow (East, file h).
Blue+Green and Red+Yellow are partnerships; turns go Blue, Red, Green, Yellow
(R1).  Squires advance towards the partner's home row (R2).

Seats are players, not armies (R13): with 4 players seat ``n`` commands army
``n``; with 2 players seat 0 commands Blue and Green and seat 1 Red and
Yellow; with 3 players seat 0 commands Blue and Green, seat 1 Red and seat 2
Yellow.  Each seat therefore commands one or two armies.

Action text (what :meth:`ChaturajiEngine.describe` returns and
:meth:`ChaturajiEngine.parse` accepts; case-insensitive, blanks ignored)::

    f2-f3        move the piece on f2 to f3 (R3)
    g1xe3        the same, capturing on e3 (``-`` and ``x`` are both read)
    h7-h8=p      a squire reaching its promotion row becomes a paladin
                 (``=r``: raven), R10
    h8=r         promote a squire standing on its promotion row in place,
                 with a die standing for the squire (R10, R6)
    pass         decline the remaining dice of the army moving now (R5)
    first blue   R14: the partnership that won the start roll picks its
                 first army
    reenter red  R11: re-enter both captured monarchs, Red's placed first
    reenter none R11: leave both captured
    place e1     R11: put the re-entering monarch on e1
    roll 3       chance: the next die shows 3 (1 Monarch .. 4 Squire, R5)

The die a move uses is implied by the piece: its kind (and army) picks the
die, so no die is ever named.  Piece letters (promotion): ``m`` monarch,
``p`` paladin, ``r`` raven, ``s`` squire.

Chaupal's choices
-----------------

Where the rulings leave a gap or differ from the rulebook:

- R5 "``pass`` ends the turn": with a controlled army (R8) ``pass`` declines
  the remaining dice of the army moving now; the controlled army's dice come
  after the mover's own (R8's order), so a ``pass`` on the own dice moves on to
  the controlled army's, and a ``pass`` there ends the turn.
- A turn (or the own part of an R8 turn) ends by itself when none of its
  remaining dice can move anything; the narration says so.  ``pass`` is only
  asked for when a move was possible.
- R6: the rulebook says a player *may* count up.  Counting is made automatic
  (the ruling); since any die may be declined this loses no choice.
- R10: the rulebook allows promotion to "any other piece ... captured" and
  says "may"; the ruling (and issue 8) restricts it to a lost paladin or raven
  and makes it part of the move.  We follow the ruling: a monarch comes back
  only through R11.  A squire with nothing to become stays a squire; a kind
  counts as lost while the army has none of it on the board.
- R11: the capturing player's two choices (yes/no, and whose monarch is placed
  first) are one action, ``reenter <army>`` or ``reenter none``.  The owners
  then place in that order; an owner with no empty square on its home or
  second row keeps its monarch captured and the next owner places.
- R13 with 3 players: seat 0 plays the whole Blue-Green partnership, seats 1
  and 2 play Red and Yellow (the lobby shows it before the game starts).
- R14: in a 4-player game either player of the winning partnership may pick
  its first army (both are asked; the first answer counts).
- R15: a turn is quiet when nothing in it was captured or promoted and no
  squire moved; the count goes up when a turn ends (or is skipped) and the
  game is drawn when it reaches ``4 * quiet_rounds``.

States are frozen dataclasses; the per-move path copies them through
:func:`_replace` (``object.__new__`` plus the field dict), like Artaban.

Speed (issue 19, for search playouts): a MOVE state generates its legal
moves once and keeps them in its ``__dict__`` outside the fields
(:func:`_legal`), so ``_settle`` (can anything move?), ``legal_actions`` and
``apply`` (is this move legal?) share one generation; ``apply`` finds a move
from ``legal_actions`` by identity.  Move generation, rolls and turn changes
use tables built at import.  ``tests/engines/test_chaturaji_speed_safety.py``
holds seeded playout logs hashed before this work: not one legal move, order,
narration, state or outcome changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Final

from mypy_extensions import mypyc_attr

from bot.engines.chaturaji_views import (
    ArmyView,
    ChaturajiView,
    DieView,
    FinalView,
    MoveView,
    PieceView,
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

# Armies (R1), in turn order.
BLUE: Final = 0
RED: Final = 1
GREEN: Final = 2
YELLOW: Final = 3
ARMIES: Final = ("blue", "red", "green", "yellow")
ARMY_TITLES: Final = ("Blue", "Red", "Green", "Yellow")
PARTNERSHIPS: Final = ("blue-green", "red-yellow")
"""Partnership ``a & 1`` of army ``a``; the partner of ``a`` is ``a ^ 2``."""

# Piece kinds (R3); the die face is kind + 1 (R5).
MONARCH: Final = 0
PALADIN: Final = 1
RAVEN: Final = 2
SQUIRE: Final = 3
KINDS: Final = ("monarch", "paladin", "raven", "squire")
LETTERS: Final = "mprs"

TURNS_PER_ROUND: Final = 4
"""R1: a round is one turn of each of the four armies, whatever the players."""
QUIET_ROUNDS_DEFAULT: Final = 25
QUIET_ROUNDS_MAX: Final = 1000
"""R15: the largest ``quiet_rounds`` the lobby accepts (0 turns the rule off)."""

START: Final = "start"
CHOOSE: Final = "choose"
ROLL: Final = "roll"
MOVE: Final = "move"
REENTER: Final = "reenter"
PLACE: Final = "place"
OVER: Final = "over"
_PHASES: Final = (START, CHOOSE, ROLL, MOVE, REENTER, PLACE, OVER)


def square_name(sq: int) -> str:
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def square_of(name: str) -> int:
    """``c2`` -> 10 (rank-major from a1 = 0)."""
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def _sq(f: int, r: int) -> int:
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else -1


# --------------------------------------------------------------------------
# The board (R2) and precomputed move tables (R3)
# --------------------------------------------------------------------------

FORWARD: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""R2: each army's squire direction (file step, rank step)."""
_FORWARD_WORD: Final = ("north", "east", "south", "west")
START_SQUARES: Final = (
    # R2: (raven, paladin, monarch, squires...)
    ("h1", "g1", "f1", ("f2", "g2", "h2")),
    ("a1", "a2", "a3", ("b1", "b2", "b3")),
    ("a8", "b8", "c8", ("a7", "b7", "c7")),
    ("h8", "h7", "h6", ("g8", "g7", "g6")),
)
THRONES: Final = tuple(square_of(s[2]) for s in START_SQUARES)
"""R2: each army's throne square, its monarch's starting square."""
_THRONE_OF: Final = tuple(THRONES.index(sq) if sq in THRONES else -1 for sq in range(64))
"""The army whose throne is on each square, -1 for none."""
CENTRE: Final = tuple(square_of(s) for s in ("d4", "e4", "d5", "e5"))
"""R9: the four central squares."""
_CENTRE_SET: Final = frozenset(CENTRE)


def _row(army: int, depth: int) -> tuple[int, ...]:
    """The squares ``depth`` rows in from the army's own edge (0: home row)."""
    if army == BLUE:
        return tuple(_sq(f, depth) for f in range(8))
    if army == GREEN:
        return tuple(_sq(f, 7 - depth) for f in range(8))
    if army == RED:
        return tuple(_sq(depth, r) for r in range(8))
    return tuple(_sq(7 - depth, r) for r in range(8))


HOME_ROWS: Final = tuple(_row(a, 0) for a in range(4))
SECOND_ROWS: Final = tuple(_row(a, 1) for a in range(4))
_ROW_WORD: Final = ("rank 1", "file a", "rank 8", "file h")
_PROMOTION_ROW: Final = tuple(frozenset(HOME_ROWS[a ^ 2]) for a in range(4))
"""R10: the partner's home row."""
_ON_PROMOTION_ROW: Final = tuple(
    tuple(sq in _PROMOTION_ROW[a] for sq in range(64)) for a in range(4)
)


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out = []
    f, r = sq % 8 + df, sq // 8 + dr
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(r * 8 + f)
        f += df
        r += dr
    return tuple(out)


def _leaps(sq: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    f, r = sq % 8, sq // 8
    return tuple(t for df, dr in steps if (t := _sq(f + df, r + dr)) >= 0)


_ORTHO: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT_STEPS: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_ORTHO_RAYS: Final = tuple(tuple(r for d in _ORTHO if (r := _ray(sq, *d))) for sq in range(64))
_DIAG_RAYS: Final = tuple(tuple(r for d in _DIAG if (r := _ray(sq, *d))) for sq in range(64))
_QUEEN_RAYS: Final = tuple(_ORTHO_RAYS[sq] + _DIAG_RAYS[sq] for sq in range(64))
_KNIGHT: Final = tuple(_leaps(sq, _KNIGHT_STEPS) for sq in range(64))
_JUMP2: Final = tuple(_leaps(sq, tuple((2 * a, 2 * b) for a, b in _DIAG)) for sq in range(64))
"""R3: the raven's exact two-square diagonal jump."""
_SLIDES: Final = (_QUEEN_RAYS, _DIAG_RAYS, _ORTHO_RAYS)
_JUMPS: Final = (tuple(() for _ in range(64)), _KNIGHT, _JUMP2)


def _squire_tables(
    army: int,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    df, dr = FORWARD[army]
    starts = {square_of(s) for s in START_SQUARES[army][3]}
    one, two, caps = [], [], []
    for sq in range(64):
        f, r = sq % 8, sq // 8
        one.append(_sq(f + df, r + dr))
        two.append(_sq(f + 2 * df, r + 2 * dr) if sq in starts else -1)
        # Diagonally forward: forward plus one step either way across.
        caps.append(tuple(t for s in (-1, 1) if (t := _sq(f + df + s * dr, r + dr + s * df)) >= 0))
    return tuple(one), tuple(two), tuple(caps)


_SQUIRE: Final = tuple(_squire_tables(a) for a in range(4))

# A piece is one int: 0 is an empty square, otherwise 1 + army * 4 + kind.
_ARMY: Final = (-1, *(c // 4 for c in range(16)))
_KIND: Final = (-1, *(c % 4 for c in range(16)))
_BIT: Final = (0, *(1 << (c // 4) for c in range(16)))


def piece(army: int, kind: int) -> int:
    return 1 + army * 4 + kind


def _start_board() -> tuple[int, ...]:
    board = [0] * 64
    for army, (raven, paladin, monarch, squires) in enumerate(START_SQUARES):
        board[square_of(raven)] = piece(army, RAVEN)
        board[square_of(paladin)] = piece(army, PALADIN)
        board[square_of(monarch)] = piece(army, MONARCH)
        for s in squires:
            board[square_of(s)] = piece(army, SQUIRE)
    return tuple(board)


START_BOARD: Final = _start_board()


def _seats_of(num_players: int) -> tuple[Seat, ...]:
    """R13: the seat commanding each army."""
    if num_players == 4:
        return (0, 1, 2, 3)
    if num_players == 3:
        return (0, 1, 0, 2)
    return (0, 1, 0, 1)


_SEATINGS: Final = {n: _seats_of(n) for n in (2, 3, 4)}


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


def _monarchs(board: tuple[int, ...]) -> tuple[int, ...]:
    found = [-1, -1, -1, -1]
    for sq, code in enumerate(board):
        if code and _KIND[code] == MONARCH:
            found[_ARMY[code]] = sq
    return tuple(found)


def _squares(board: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found: tuple[list[int], ...] = ([], [], [], [])
    for sq, code in enumerate(board):
        if code:
            found[_ARMY[code]].append(sq)
    return tuple(tuple(f) for f in found)


def _has_kind(board: tuple[int, ...], army: int, kind: int) -> bool:
    return piece(army, kind) in board


def _enemies(turn: int, control: int) -> int:
    """R4: the armies the pieces moved this turn may capture: neither the
    mover's partnership nor the army it controls."""
    friends = (1 << turn) | (1 << (turn ^ 2)) | ((1 << control) if control >= 0 else 0)
    return 15 & ~friends


_ENEMIES: Final = tuple(tuple(_enemies(t, c) for c in (-1, 0, 1, 2, 3)) for t in range(4))


_CAPTURES: Final = tuple(tuple(c > 0 and bool(_BIT[c] & e) for c in range(17)) for e in range(16))
"""``_CAPTURES[enemies][code]``: a piece ``code`` is one of ``enemies`` (R4)."""
_REACHES: Final = tuple(tuple(c == 0 or _CAPTURES[e][c] for c in range(17)) for e in range(16))
"""``_REACHES[enemies][code]``: a square holding ``code`` is empty or capturable."""


def _counted(board: tuple[int, ...], monarchs: tuple[int, ...], army: int, face: int) -> int:
    """R6: the kind a die showing ``face`` moves for ``army``, counting up; -1 void."""
    kind = face - 1
    if kind == MONARCH:
        if monarchs[army] >= 0:
            return MONARCH
        kind = PALADIN
    base = 1 + army * 4
    while kind < 4:
        if base + kind in board:
            return kind
        kind += 1
    return -1


def _stage_army(state: ChaturajiState) -> int:
    return state.turn if state.stage == 0 else state.control


def _stage_kinds(state: ChaturajiState) -> int:
    """The kinds the unused dice of the army moving now stand for, as a bit
    mask (bit ``kind``); void dice (R6) stand for nothing."""
    army = state.turn if state.stage == 0 else state.control
    mask = 0
    for a, _, k, used in state.dice:
        if a == army and not used and k >= 0:
            mask |= 1 << k
    return mask


def _legal(state: ChaturajiState) -> list[Move]:
    """The moves of the army moving now with its unused dice (a MOVE state),
    in the order ``legal_actions`` lists them.

    Computed once per state and kept in its ``__dict__`` under
    :data:`_LEGAL` (states are immutable, so it never goes stale; every
    state built from another drops it, see :func:`_fields_of`): ``_settle``
    asks whether anything can move, ``legal_actions`` lists the moves, and
    ``apply`` finds the move among them instead of generating the piece's
    moves again.
    """
    legal: list[Move] | None = state.__dict__.get(_LEGAL)
    if legal is None:
        legal = state.__dict__[_LEGAL] = _generate(state)
    return legal


def _generate(state: ChaturajiState) -> list[Move]:
    """Every move of the army moving now with its unused dice, by square
    ascending, each piece's targets ascending (R3/R4), a squire's
    promotions in place first (R10).  One function, locals only, tables
    for everything: it runs for every MOVE state of a playout."""
    out: list[Move] = []
    turn = state.turn
    control = state.control
    army = turn if state.stage == 0 else control
    kinds = 0
    for a, _, k, used in state.dice:
        if a == army and not used and k >= 0:
            kinds |= 1 << k
    if not kinds:
        return out
    board = state.board
    # R4: neither the mover's partnership nor the army it controls.
    enemies = _ENEMIES[turn][control + 1]
    captures = _CAPTURES[enemies]
    reaches = _REACHES[enemies]
    base = 1 + army * 4
    squares = state.squares[army]
    promos: tuple[int, ...] | None = None
    for sq in squares:
        # ``squares`` holds exactly this army's pieces, so 0 <= kind < 4.
        kind = board[sq] - base
        if not kinds >> kind & 1:
            continue
        targets: list[int] = []
        append = targets.append
        if kind == SQUIRE:
            one, two, caps = _SQUIRE[army]
            t = one[sq]
            if t >= 0 and not board[t]:
                append(t)
                t = two[sq]
                if t >= 0 and not board[t]:
                    append(t)
            for t in caps[sq]:
                if captures[board[t]]:
                    append(t)
            on_row = _ON_PROMOTION_ROW[army]
            if promos is None:
                # R10: a lost paladin or raven (none of its kind on the board).
                present = [board[s] for s in squares]
                promos = tuple(k for k in (PALADIN, RAVEN) if base + k not in present)
            if on_row[sq]:
                # R10: promotion in place, with a die standing for the squire.
                out.extend([Move(sq, sq, k) for k in promos])
            targets.sort()
            row = _MOVES[sq]
            for t in targets:
                if on_row[t] and promos:
                    out.extend([Move(sq, t, k) for k in promos])
                else:
                    out.append(row[t])
            continue
        for ray in _SLIDES[kind][sq]:
            for t in ray:
                c = board[t]
                if c:
                    if captures[c]:
                        append(t)
                    break
                append(t)
        if kind != MONARCH:
            for t in _JUMPS[kind][sq]:
                if reaches[board[t]]:
                    append(t)
        if targets:
            targets.sort()
            out.extend(map(_MOVES[sq].__getitem__, targets))
    return out


def _ravens_in_centre(board: tuple[int, ...], army: int, to: int) -> tuple[int, ...]:
    """R9: the three other centre squares, when each holds a raven of a
    different army other than ``army`` (so a raven of ``army`` landing on
    the empty ``to`` is an unkindness); else ()."""
    others = tuple(s for s in CENTRE if s != to)
    seen = 1 << army
    for s in others:
        c = board[s]
        if not c or _KIND[c] != RAVEN or _BIT[c] & seen:
            return ()
        seen |= _BIT[c]
    return others


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

_SEAT_SETS: Final = tuple(frozenset({s}) for s in range(4))
_COMMANDER_SETS: Final = {n: tuple(_SEAT_SETS[s] for s in seats) for n, seats in _SEATINGS.items()}
"""R13: ``{seat}`` of the seat commanding each army, per player count."""
_CHANCE_SET: Final = frozenset({CHANCE})
_NOBODY: Final[frozenset[Seat]] = frozenset()
_SQUARE: Final = "([a-h][1-8])"
_MOVE_RE: Final = re.compile(f"{_SQUARE}[-x:]?{_SQUARE}(?:=?([pr]))?")
_INPLACE_RE: Final = re.compile(f"{_SQUARE}=?([pr])")
_WORD_RE: Final = re.compile(r"(first|reenter|place|roll)(.*)")
_HELP: Final = (
    "Moves are written from-to (f2-f3, g1xe3, h7-h8=p), or pass; see docs/rules/chaturaji.md."
)


def _piece_words(code: int) -> str:
    return f"{ARMY_TITLES[_ARMY[code]]} {KINDS[_KIND[code]]}"


class ChaturajiEngine:
    name: str = "chaturaji"
    title: str = "Martian Chaturaji"
    revision: int = 1
    min_players: int = 2
    max_players: int = 4

    def __init__(self) -> None:
        self.options: Mapping[str, Option] = {
            "quiet_rounds": Option(
                QUIET_ROUNDS_DEFAULT,
                "R15: draw after this many rounds without a capture, promotion or "
                "squire move (0: never)",
                low=0,
                high=QUIET_ROUNDS_MAX,
            )
        }

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> ChaturajiState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions("Martian Chaturaji is a game for 2, 3 or 4 players.")
        for key in options:
            if key not in self.options:
                raise InvalidOptions(
                    f"Martian Chaturaji has no option {excerpt(key)} (options: quiet_rounds)."
                )
        rounds = options.get("quiet_rounds", QUIET_ROUNDS_DEFAULT)
        if (
            not isinstance(rounds, int)
            or isinstance(rounds, bool)
            or not 0 <= rounds <= QUIET_ROUNDS_MAX
        ):
            raise InvalidOptions(
                "Option quiet_rounds takes a whole number of rounds from 0 (never a "
                f"quiet draw) to {QUIET_ROUNDS_MAX}."
            )
        return ChaturajiState(
            num_players=num_players,
            quiet_limit=TURNS_PER_ROUND * rounds,
            phase=START,
            board=START_BOARD,
            monarchs=_monarchs(START_BOARD),
            squares=_squares(START_BOARD),
            turn=-1,
            control=-1,
            stage=0,
            dice=(),
            start_rolls=(),
            reentry=(),
            placing=(),
            quiet=0,
            eventful=False,
            turn_moves=(),
            last_moves=(),
            skipped=(),
            turns=0,
            winner=-1,
        )

    def commander(self, state: ChaturajiState, army: int) -> Seat:
        """R13: the seat that plays ``army``."""
        return _seats_of(state.num_players)[army]

    # ----- whose turn -------------------------------------------------------

    def seat_roles(self, num_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        """R13: the armies each seat commands, for the lobby."""
        seating = _SEATINGS.get(num_players)
        if seating is None:
            return ()
        return tuple(
            " + ".join(ARMY_TITLES[a] for a in range(4) if seating[a] == seat)
            for seat in range(num_players)
        )

    def to_move(self, state: ChaturajiState) -> frozenset[Seat]:
        phase = state.phase
        if phase in (MOVE, REENTER):
            return _COMMANDER_SETS[state.num_players][state.turn]
        if phase in (ROLL, START):
            return _CHANCE_SET
        seats = _SEATINGS[state.num_players]
        if phase == PLACE:
            return _SEAT_SETS[seats[state.placing[0]]]
        if phase == CHOOSE:
            p = self._start_winner(state)
            return frozenset({seats[p], seats[p + 2]})
        return _NOBODY

    def waiting_on(self, state: ChaturajiState) -> frozenset[Seat]:
        # ``to_move`` is either chance alone or seats alone.
        movers = self.to_move(state)
        return _NOBODY if movers is _CHANCE_SET else movers

    def choices_are_public(self, state: ChaturajiState, seat: Seat) -> bool:
        """Nothing is hidden (rules, "Hidden information")."""
        return True

    @staticmethod
    def _start_winner(state: ChaturajiState) -> int:
        r = state.start_rolls
        return 0 if r[0] + r[2] > r[1] + r[3] else 1

    # ----- legal actions ----------------------------------------------------

    def chance_outcomes(self, state: ChaturajiState) -> list[tuple[ChaturajiAction, Fraction]]:
        if state.phase in (ROLL, START):
            return list(_ROLL_ODDS)
        return []

    def legal_actions(self, state: ChaturajiState, seat: Seat) -> list[ChaturajiAction]:
        phase = state.phase
        if phase == MOVE:  # the hot path, whose turn inline (as ``to_move``)
            if seat != _SEATINGS[state.num_players][state.turn]:
                return []
            return [*_legal(state), PASS]
        if phase == OVER or seat not in self.to_move(state):
            return []
        if phase in (ROLL, START):
            return list(_ROLLS)
        if phase == CHOOSE:
            p = self._start_winner(state)
            return [First(p), First(p + 2)]
        if phase == REENTER:
            return [Reenter(state.reentry[0]), Reenter(state.reentry[1]), Reenter(-1)]
        return [Place(sq) for sq in self._placements(state, state.placing[0])]

    @staticmethod
    def _placements(state: ChaturajiState, army: int) -> list[int]:
        """R11: empty squares of the home row, else of the second row."""
        board = state.board
        for row in (HOME_ROWS[army], SECOND_ROWS[army]):
            empty = sorted(sq for sq in row if not board[sq])
            if empty:
                return empty
        return []

    # ----- apply ------------------------------------------------------------

    def apply(self, state: ChaturajiState, seat: Seat, action: ChaturajiAction) -> ChaturajiState:
        phase = state.phase
        # The two phases of nearly every action first, whose turn inline
        # (what ``to_move`` says for them).
        if phase == ROLL:
            if seat != CHANCE:
                raise NotYourTurn("It is not your turn.")
            if isinstance(action, Roll):
                face = action.value
                if not 1 <= face <= 4:
                    raise IllegalAction("A die shows 1 to 4.")
                return self._roll_die(state, face)
            raise IllegalAction(f"That is not possible now. {self._hint(state)}")
        if phase == MOVE:
            if seat != _SEATINGS[state.num_players][state.turn]:
                raise NotYourTurn("It is not your turn.")
            if isinstance(action, Move):
                return self._move(state, action)
            if isinstance(action, Pass):
                return self._settle(self._decline(state), check=False)
            raise IllegalAction("Move a piece for your dice, or pass.")
        if phase == OVER:
            raise IllegalAction("The game is over.")
        if seat not in self.to_move(state):
            raise NotYourTurn("It is not your turn.")
        if isinstance(action, Roll) and phase == START:
            if not 1 <= action.value <= 4:
                raise IllegalAction("A die shows 1 to 4.")
            return self._roll(state, action.value)
        if phase == CHOOSE and isinstance(action, First):
            p = self._start_winner(state)
            if action.army not in (p, p + 2):
                raise IllegalAction(
                    f"{PARTNERSHIPS[p].title()} won the start roll: first blue/red/"
                    "green/yellow must name one of its armies."
                )
            return self._begin(_fields_of(state), action.army, count=False)
        if phase == REENTER and isinstance(action, Reenter):
            if action.first == -1:
                return self._settle(_replace(state, phase=MOVE, reentry=()))
            if action.first not in state.reentry:
                raise IllegalAction("Name one of the two captured monarchs' armies, or none.")
            second = state.reentry[1] if action.first == state.reentry[0] else state.reentry[0]
            return self._next_placer(_replace(state, reentry=(), placing=(action.first, second)))
        if phase == PLACE and isinstance(action, Place):
            army = state.placing[0]
            if action.square not in self._placements(state, army):
                raise IllegalAction(
                    f"The {ARMY_TITLES[army]} monarch goes on an empty square of its home "
                    "row (or of its second row when the home row is full)."
                )
            board = list(state.board)
            board[action.square] = piece(army, MONARCH)
            monarchs = list(state.monarchs)
            monarchs[army] = action.square
            squares = list(state.squares)
            squares[army] = tuple(sorted((*squares[army], action.square)))
            record: MoveRecord = (army, MONARCH, -1, action.square, -1, ())
            return self._next_placer(
                _replace(
                    state,
                    board=tuple(board),
                    monarchs=tuple(monarchs),
                    squares=tuple(squares),
                    placing=state.placing[1:],
                    turn_moves=(*state.turn_moves, record),
                )
            )
        raise IllegalAction(f"That is not possible now. {self._hint(state)}")

    @staticmethod
    def _hint(state: ChaturajiState) -> str:
        return {
            MOVE: "Move a piece for your dice, or pass.",
            CHOOSE: "Choose the army that moves first (first <army>).",
            REENTER: "Choose reenter <army> or reenter none.",
            PLACE: "Place the monarch (place <square>).",
        }.get(state.phase, "The dice are being rolled.")

    def _roll(self, state: ChaturajiState, face: int) -> ChaturajiState:
        if state.phase == START:
            rolls = (*state.start_rolls, face)
            if len(rolls) < 4:
                return _replace(state, start_rolls=rolls)
            if rolls[0] + rolls[2] == rolls[1] + rolls[3]:
                # R14: re-roll ties.
                return _replace(state, start_rolls=())
            return _replace(state, start_rolls=rolls, phase=CHOOSE)
        return self._roll_die(state, face)

    def _roll_die(self, state: ChaturajiState, face: int) -> ChaturajiState:
        """R5: one of the turn's dice (the mover's two, then the controlled
        army's two, R8)."""
        dice = state.dice
        control = state.control
        army = state.turn if len(dice) < 2 else control
        # R6: counted when rolled, held for the whole turn.
        die: Die = (army, face, _counted(state.board, state.monarchs, army, face), False)
        d = _fields_of(state)
        d["dice"] = dice = (*dice, die)
        if len(dice) < (4 if control >= 0 else 2):
            return _build(d)
        d["phase"] = MOVE
        d["stage"] = 0
        return self._settle(_build(d))

    @staticmethod
    def _decline(state: ChaturajiState) -> ChaturajiState:
        """``pass``: the moving army's remaining dice are declined."""
        army = _stage_army(state)
        dice = tuple((a, f, k, used or a == army) for a, f, k, used in state.dice)
        return _replace(state, dice=dice)

    def _move(self, state: ChaturajiState, action: Move) -> ChaturajiState:
        # Found among the state's legal moves (generated once, see
        # ``_legal``), by identity when it is one of the listed objects (as
        # from ``legal_actions``), else by value (typed or built by hand).
        legal = _legal(state)
        for move in legal:
            if move is action:
                break
        else:
            for move in legal:
                if move == action:
                    break
            else:
                raise IllegalAction(self._why_not(state, action))
        frm, to, promo = move.frm, move.to, move.promo
        before = state.board
        board = list(before)
        code = board[frm]
        army, kind = _ARMY[code], _KIND[code]
        taken = board[to] if to != frm else 0
        captured: tuple[int, ...] = (to,) if taken else ()
        board[frm] = 0
        board[to] = code if promo < 0 else code - kind + promo  # R10: same army
        monarchs = state.monarchs
        squares = state.squares
        if kind == RAVEN and to in _CENTRE_SET and not taken:
            # R9: the unkindness of ravens, the partner's raven included.
            others = _ravens_in_centre(before, army, to)
            for s in others:
                board[s] = 0
            captured = others
        if frm != to:
            moved = list(squares)
            own = list(squares[army])
            own[own.index(frm)] = to
            own.sort()
            moved[army] = tuple(own)
            for s in captured:
                victim = _ARMY[before[s]]
                theirs = list(moved[victim])
                theirs.remove(s)
                moved[victim] = tuple(theirs)
            squares = tuple(moved)
        monarch_taken = taken != 0 and _KIND[taken] == MONARCH
        if kind == MONARCH or monarch_taken:
            where = list(monarchs)
            if kind == MONARCH:
                where[army] = to
            if monarch_taken:
                where[_ARMY[taken]] = -1
            monarchs = tuple(where)
        # The die: the first unused one of this army for the piece's kind.
        dice = list(state.dice)
        for i, die in enumerate(dice):
            if die[0] == army and die[2] == kind and not die[3]:
                dice[i] = (army, die[1], kind, True)
                break
        record: MoveRecord = (army, kind, frm, to, promo, captured)
        d = _fields_of(state)
        d["board"] = tuple(board)
        d["monarchs"] = monarchs
        d["squares"] = squares
        d["dice"] = tuple(dice)
        d["eventful"] = state.eventful or bool(captured) or promo >= 0 or kind == SQUIRE
        d["turn_moves"] = (*state.turn_moves, record)
        after = _build(d)
        if monarch_taken:
            return self._monarch_taken(after, _ARMY[taken])
        return self._settle(after)

    def _why_not(self, state: ChaturajiState, action: Move) -> str:
        frm = action.frm
        if not 0 <= frm < 64 or not 0 <= action.to < 64:
            return "That square is not on the board."
        code = state.board[frm]
        army = _stage_army(state)
        if not code:
            return f"There is no piece on {square_name(frm)}."
        if _ARMY[code] != army:
            return f"The piece on {square_name(frm)} is not {ARMY_TITLES[army]}'s to move now."
        if not _stage_kinds(state) >> _KIND[code] & 1:
            return f"No unused die moves {ARMY_TITLES[army]}'s {KINDS[_KIND[code]]} now."
        return f"The {KINDS[_KIND[code]]} on {square_name(frm)} cannot make that move."

    def _monarch_taken(self, state: ChaturajiState, victim: int) -> ChaturajiState:
        monarchs = state.monarchs
        side = victim & 1
        if monarchs[side] < 0 and monarchs[side + 2] < 0:
            # R12: both enemy monarchs are off the board.
            return self._end(state, winner=side ^ 1)
        own = state.turn & 1
        lost = [a for a in (own, own + 2) if monarchs[a] < 0]
        if len(lost) == 1:
            # R11: the capturing player may re-enter both monarchs.
            return _replace(state, phase=REENTER, reentry=(lost[0], victim))
        return self._settle(state)

    def _next_placer(self, state: ChaturajiState) -> ChaturajiState:
        placing = state.placing
        while placing and not self._placements(state, placing[0]):
            placing = placing[1:]  # R11: no empty square: it stays captured.
        if placing:
            return _replace(state, phase=PLACE, placing=placing)
        return self._settle(_replace(state, phase=MOVE, placing=()))

    def _settle(self, state: ChaturajiState, check: bool = True) -> ChaturajiState:
        """Go on to the controlled army's dice, or end the turn, once the
        moving army's dice are used up or can move nothing."""
        while True:
            if check and _legal(state):
                return state
            if state.stage == 0 and state.control >= 0:
                state = _replace(state, stage=1)
                check = True
                continue
            return self._end_turn(state)

    def _end_turn(self, state: ChaturajiState) -> ChaturajiState:
        d = _fields_of(state)
        d["quiet"] = 0 if state.eventful else state.quiet + 1
        if state.turn_moves:
            d["last_moves"] = state.turn_moves
        d["turn_moves"] = ()
        d["eventful"] = False
        return self._begin(d, (state.turn + 1) % 4, count=True)

    def _begin(self, d: dict[str, Any], army: int, count: bool) -> ChaturajiState:
        """Start ``army``'s turn, skipping armies whose monarch is captured (R7)."""
        d.pop(_LEGAL, None)  # ``d`` may be a copy of a state's ``__dict__``
        monarchs = d["monarchs"]
        skipped: tuple[int, ...] = ()
        limit = d["quiet_limit"]
        d["dice"] = d["reentry"] = d["placing"] = ()
        d["stage"] = 0
        while True:
            if count and limit and d["quiet"] >= limit:
                d["control"] = -1
                d["skipped"] = skipped
                return self._end(_build(d), winner=-1)
            if monarchs[army] >= 0 or monarchs[army ^ 2] == THRONES[army]:
                # R8: a captured army whose partner's monarch is on its throne
                # takes its turn normally.
                break
            skipped += (army,)
            d["quiet"] += 1
            army = (army + 1) % 4
        control = -1
        mine = monarchs[army]
        if mine >= 0:
            other = _THRONE_OF[mine]
            if other >= 0 and other != army and monarchs[other] < 0:
                control = other  # R8: the mover commands that army too.
        d["phase"] = ROLL
        d["turn"] = army
        d["control"] = control
        d["skipped"] = skipped
        d["turns"] += 1
        return _build(d)

    def _end(self, state: ChaturajiState, winner: int) -> ChaturajiState:
        moves = state.turn_moves or state.last_moves
        return _replace(
            state, phase=OVER, winner=winner, last_moves=moves, turn_moves=(), reentry=()
        )

    # ----- outcome ----------------------------------------------------------

    def outcome(self, state: ChaturajiState) -> Outcome | None:
        if state.phase != OVER:
            return None
        seats = _seats_of(state.num_players)
        n = state.num_players
        if state.winner < 0:
            return Outcome(
                ranking=(frozenset(range(n)),),
                scores=(0,) * n,
                reason=f"Drawn: {state.quiet_limit // TURNS_PER_ROUND} quiet rounds passed "
                "without a capture, a promotion or a squire move.",
            )
        w = state.winner
        won = frozenset({seats[w], seats[w + 2]})
        lost = frozenset(range(n)) - won
        names = " and ".join(seat_tag(s) for s in sorted(won))
        armies = f"{ARMY_TITLES[w]} and {ARMY_TITLES[w + 2]}"
        verb = "wins" if len(won) == 1 else "win"
        return Outcome(
            ranking=(won, lost),
            scores=tuple(1 if s in won else 0 for s in range(n)),
            reason=f"{names} ({armies}) {verb}: both enemy monarchs are captured.",
        )

    # ----- view -------------------------------------------------------------

    def view(self, state: ChaturajiState, seat: Seat | None) -> ChaturajiView:
        seats = _seats_of(state.num_players)
        board = state.board
        playing = state.phase in (ROLL, MOVE, REENTER, PLACE)
        armies = []
        for a in range(4):
            lost = tuple(
                KINDS[k]
                for k in range(3)
                if (state.monarchs[a] < 0 if k == MONARCH else piece(a, k) not in board)
            )
            lost += ("squire",) * self._squires_lost(board, a)
            armies.append(
                ArmyView(
                    army=ARMIES[a],
                    partnership=a & 1,
                    commander=seats[a],
                    throne=square_name(THRONES[a]),
                    home_row=_ROW_WORD[a],
                    forward=_FORWARD_WORD[a],
                    monarch=square_name(state.monarchs[a]) if state.monarchs[a] >= 0 else None,
                    lost=lost,
                    pieces=sum(1 for c in board if c and _ARMY[c] == a),
                    controlled_by=ARMIES[state.turn] if playing and state.control == a else None,
                )
            )
        pieces = tuple(
            PieceView(
                square=square_name(sq),
                file=sq % 8,
                rank=sq // 8 + 1,
                army=ARMIES[_ARMY[c]],
                kind=KINDS[_KIND[c]],
            )
            for sq, c in enumerate(board)
            if c
        )
        dice = tuple(
            DieView(
                army=ARMIES[a],
                rolled=f,
                kind=KINDS[k] if k >= 0 else None,
                counted_up=k != f - 1,
                used=used,
                void=k < 0,
            )
            for a, f, k, used in state.dice
        )
        to_move = sorted(self.to_move(state) - _CHANCE_SET)
        commanding: tuple[str, ...] = ()
        if playing:
            commanding = (ARMIES[state.turn],) + (
                (ARMIES[state.control],) if state.control >= 0 else ()
            )
        final = None
        outcome = self.outcome(state)
        if outcome is not None:
            final = FinalView(
                ranking=tuple(tuple(sorted(p)) for p in outcome.ranking),
                scores=outcome.scores,
                reason=outcome.reason,
                winners=PARTNERSHIPS[state.winner] if state.winner >= 0 else None,
            )
        mine = None
        if seat is not None and 0 <= seat < state.num_players:
            mine = tuple(ARMIES[a] for a in range(4) if seats[a] == seat)
        return ChaturajiView(
            phase=state.phase,
            num_players=state.num_players,
            seats=tuple(
                tuple(ARMIES[a] for a in range(4) if seats[a] == s)
                for s in range(state.num_players)
            ),
            armies=tuple(armies),
            pieces=pieces,
            turn=ARMIES[state.turn] if playing else None,
            controlled=ARMIES[state.control] if playing and state.control >= 0 else None,
            to_play=to_move[0] if to_move else None,
            commanding=commanding,
            dice=dice,
            start_rolls=state.start_rolls,
            placing=ARMIES[state.placing[0]] if state.phase == PLACE else None,
            last_moves=tuple(self._move_view(r) for r in state.last_moves),
            turn_moves=tuple(self._move_view(r) for r in state.turn_moves),
            skipped=tuple(ARMIES[a] for a in state.skipped),
            quiet_turns=state.quiet,
            quiet_limit=state.quiet_limit,
            quiet_rounds=state.quiet // TURNS_PER_ROUND,
            quiet_round_limit=state.quiet_limit // TURNS_PER_ROUND,
            turns=state.turns,
            final=final,
            viewer=seat if seat is not None and 0 <= seat < state.num_players else None,
            me=mine,
        )

    @staticmethod
    def _squires_lost(board: tuple[int, ...], army: int) -> int:
        """Squires gone from the board: captured, or promoted (R10)."""
        return 3 - sum(1 for c in board if c == piece(army, SQUIRE))

    @staticmethod
    def _move_view(record: MoveRecord) -> MoveView:
        army, kind, frm, to, promo, captured = record
        return MoveView(
            army=ARMIES[army],
            kind=KINDS[kind],
            frm=square_name(frm) if frm >= 0 else None,
            to=square_name(to),
            captured=tuple(square_name(s) for s in captured),
            promoted=KINDS[promo] if promo >= 0 else None,
        )

    # ----- text -------------------------------------------------------------

    def parse(self, state: ChaturajiState, seat: Seat, text: str) -> ChaturajiAction:
        compact = "".join(ch for ch in text.lower() if not ch.isspace())
        if not compact:
            raise InvalidAction(f"Type a move. {_HELP}")
        if compact == "pass":
            return PASS
        m = _MOVE_RE.fullmatch(compact)
        if m is not None:
            promo = -1 if m.group(3) is None else LETTERS.index(m.group(3))
            frm, to = square_of(m.group(1)), square_of(m.group(2))
            if frm == to:
                raise InvalidAction(f"A piece must move somewhere, not {excerpt(text)}.")
            return Move(frm, to, promo)
        m = _INPLACE_RE.fullmatch(compact)
        if m is not None:
            sq = square_of(m.group(1))
            return Move(sq, sq, LETTERS.index(m.group(2)))
        m = _WORD_RE.fullmatch(compact)
        if m is not None:
            word, rest = m.group(1), m.group(2)
            if word == "roll":
                value = whole_number(rest, max_digits=1)
                if value is None or not 1 <= value <= 4:
                    raise InvalidAction(f"A die shows 1 to 4, not {excerpt(rest)}.")
                return _ROLLS[value - 1]
            if word == "place":
                if re.fullmatch(_SQUARE, rest):
                    return Place(square_of(rest))
                raise InvalidAction(f"Place the monarch on a square (a1-h8), not {excerpt(rest)}.")
            if rest in ARMIES:
                return First(ARMIES.index(rest)) if word == "first" else Reenter(ARMIES.index(rest))
            if word == "reenter" and rest == "none":
                return Reenter(-1)
            raise InvalidAction(f"Name an army (blue, red, green or yellow), not {excerpt(rest)}.")
        raise InvalidAction(f"I don't understand {excerpt(text)}. {_HELP}")

    def describe(self, state: ChaturajiState, seat: Seat, action: ChaturajiAction) -> str:
        match action:
            case Move(frm, to, promo):
                tail = f"={LETTERS[promo]}" if 0 <= promo < 4 else ""
                if frm == to:
                    return f"{square_name(frm)}{tail}"
                sep = "x" if 0 <= to < 64 and state.board[to] else "-"
                return f"{square_name(frm)}{sep}{square_name(to)}{tail}"
            case Pass():
                return "pass"
            case Roll(value):
                return f"roll {value}"
            case First(army):
                return f"first {ARMIES[army]}"
            case Reenter(first):
                return f"reenter {ARMIES[first] if first >= 0 else 'none'}"
            case Place(square):
                return f"place {square_name(square)}"
        raise InvalidAction(f"Not a Martian Chaturaji action: {action!r}")

    def menu_words(self, state: ChaturajiState, seat: Seat, text: str) -> tuple[str, ...]:
        """A piece's moves group under its square (``f2-f3`` -> ``("f2",
        "f2-f3")``); everything else is one level."""
        if len(text) >= 3 and re.fullmatch(_SQUARE, text[:2]) and text[2] in "-x=":
            return (text[:2], text)
        return (text,)

    def choice_label(self, state: ChaturajiState, seat: Seat, prefix: str) -> str:
        """Menu text for the moves of one piece: ``f2: Blue squire``."""
        if re.fullmatch(_SQUARE, prefix):
            code = state.board[square_of(prefix)]
            if code:
                return f"{prefix}: {_piece_words(code)}"
        return prefix

    def label(self, state: ChaturajiState, seat: Seat, action: ChaturajiAction) -> str:
        text = self.describe(state, seat, action)
        match action:
            case Move(frm, to, promo):
                code = state.board[frm] if 0 <= frm < 64 else 0
                if not code:
                    return text
                words = f"{_piece_words(code)} {text}"
                if frm == to:
                    return f"{words}: promote in place to {KINDS[promo]}"
                taken = state.board[to]
                if taken:
                    words += f" takes {_piece_words(taken)}"
                elif (
                    _KIND[code] == RAVEN
                    and to in _CENTRE_SET
                    and _ravens_in_centre(state.board, _ARMY[code], to)
                ):
                    words += ": unkindness of ravens"
                if promo >= 0:
                    words += f", becomes a {KINDS[promo]}"
                return words
            case Pass():
                # Names the army, its dice and the turn, so a Pass kept in an
                # old menu never reads like a Pass of later dice (menus are
                # matched by label).
                army = _stage_army(state)
                kinds = _stage_kinds(state)
                left = ", ".join(KINDS[k] for k in range(4) if kinds >> k & 1) or "none"
                return (
                    f"Pass: {ARMY_TITLES[army]} declines its dice left ({left}), "
                    f"turn {state.turns + 1}"
                )
            case Roll(value):
                return f"Roll {value} ({KINDS[value - 1]})"
            case First(army):
                return f"{ARMY_TITLES[army]} moves first"
            case Reenter(first):
                if first < 0:
                    return "No re-entry: both monarchs stay captured"
                return f"Re-enter both monarchs, {ARMY_TITLES[first]} placing first"
            case Place(square):
                army = state.placing[0] if state.placing else -1
                who = ARMY_TITLES[army] if army >= 0 else "The"
                return f"{who} monarch on {square_name(square)}"
        return text

    def narrate(
        self,
        before: ChaturajiState,
        seat: Seat,
        action: ChaturajiAction,
        after: ChaturajiState,
    ) -> str:
        seats = _seats_of(before.num_players)
        parts: list[str] = []
        match action:
            case Roll(value):
                if before.phase == START:
                    army = len(before.start_rolls)
                    parts.append(f"{ARMY_TITLES[army]} rolls {value} for the start")
                    if army == 3 and after.phase == START:
                        parts.append("the partnerships tie and roll again")  # R14
                    elif after.phase == CHOOSE:
                        p = self._start_winner(after)
                        parts.append(f"{PARTNERSHIPS[p].title()} starts")
                else:
                    army, face, kind, _ = self._last_die(before, value)
                    what = KINDS[kind] if kind >= 0 else "nothing (void)"
                    counted = " counted up to" if kind >= 0 and kind != face - 1 else ":"
                    parts.append(f"{ARMY_TITLES[army]} rolls {face}{counted} {what}")
            case First(army):
                parts.append(f"{seat_tag(seat)} chooses {ARMY_TITLES[army]} to move first")
            case Reenter(first):
                if first < 0:
                    parts.append(f"{seat_tag(seat)} declines the re-entry of the monarchs")
                else:
                    parts.append(
                        f"{seat_tag(seat)} re-enters both captured monarchs, "
                        f"{ARMY_TITLES[first]} placing first"
                    )
            case Place(square):
                army = before.placing[0]
                parts.append(
                    f"{seat_tag(seat)} places the {ARMY_TITLES[army]} monarch on "
                    f"{square_name(square)}"
                )
            case Pass():
                parts.append(f"{seat_tag(seat)} passes")
            case Move(frm, to, promo):
                code = before.board[frm]
                words = (
                    f"{seat_tag(seat)}: {_piece_words(code)} {self.describe(before, seat, action)}"
                )
                record = (
                    after.turn_moves[-1]
                    if after.turn_moves
                    else (after.last_moves[-1] if after.last_moves else None)
                )
                taken = before.board[to] if to != frm else 0
                if taken:
                    words += f" takes the {_piece_words(taken)}"
                elif record is not None and len(record[5]) == 3:
                    names = ", ".join(_piece_words(before.board[s]) for s in record[5])
                    words += f": an unkindness of ravens takes {names}"
                if promo >= 0:
                    words += f" and becomes a {KINDS[promo]}"
                parts.append(words)
        parts.extend(self._turn_news(before, after, seats))
        return "; ".join(parts) + "."

    @staticmethod
    def _last_die(before: ChaturajiState, value: int) -> Die:
        """The die a roll of ``value`` gives in ``before`` (R6: counted up)."""
        army = before.turn if len(before.dice) < 2 else before.control
        return (army, value, _counted(before.board, before.monarchs, army, value), False)

    def _turn_news(
        self, before: ChaturajiState, after: ChaturajiState, seats: tuple[Seat, ...]
    ) -> list[str]:
        news: list[str] = []
        if after.phase == REENTER and before.phase != REENTER:
            news.append(f"{seat_tag(seats[after.turn])} may re-enter both captured monarchs")
        if after.phase == PLACE and (before.phase != PLACE or after.placing != before.placing):
            army = after.placing[0]
            news.append(f"{seat_tag(seats[army])} places the {ARMY_TITLES[army]} monarch")
        if after.phase == OVER:
            outcome = self.outcome(after)
            if outcome is not None:
                news.append(outcome.reason.rstrip("."))
            return news
        new_turn = after.turns != before.turns
        if before.phase == MOVE and after.stage == 1 and before.stage == 0 and not new_turn:
            news.append(f"now {ARMY_TITLES[after.control]}'s dice")
        if new_turn and before.phase in (ROLL, MOVE, REENTER, PLACE):
            news.append(f"{ARMY_TITLES[before.turn]}'s turn ends")
        if new_turn:
            for army in after.skipped:
                news.append(f"{ARMY_TITLES[army]}'s turn is skipped (monarch captured)")
            line = f"{ARMY_TITLES[after.turn]} to play ({seat_tag(seats[after.turn])})"
            if after.control >= 0:
                line += f", commanding {ARMY_TITLES[after.control]} from its throne"
            news.append(line)
        return news

    def private_to(
        self, before: ChaturajiState, seat: Seat, action: ChaturajiAction
    ) -> Seat | None:
        return None

    # ----- serialisation ----------------------------------------------------

    def to_json(self, state: ChaturajiState) -> JSON:
        def record(r: MoveRecord) -> JSON:
            return [r[0], r[1], r[2], r[3], r[4], list(r[5])]

        return {
            "num_players": state.num_players,
            "quiet_limit": state.quiet_limit,
            "phase": state.phase,
            "pieces": {
                square_name(sq): f"{ARMIES[_ARMY[c]]} {KINDS[_KIND[c]]}"
                for sq, c in enumerate(state.board)
                if c
            },
            "turn": state.turn,
            "control": state.control,
            "stage": state.stage,
            "dice": [[a, f, k, used] for a, f, k, used in state.dice],
            "start_rolls": list(state.start_rolls),
            "reentry": list(state.reentry),
            "placing": list(state.placing),
            "quiet": state.quiet,
            "eventful": state.eventful,
            "turn_moves": [record(r) for r in state.turn_moves],
            "last_moves": [record(r) for r in state.last_moves],
            "skipped": list(state.skipped),
            "turns": state.turns,
            "winner": state.winner,
        }

    def from_json(self, obj: JSON) -> ChaturajiState:
        try:
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            n = int(obj["num_players"])
            if not 2 <= n <= 4:
                raise ValueError(f"bad player count {n}")
            board = [0] * 64
            for name, what in dict(obj["pieces"]).items():
                if not re.fullmatch(_SQUARE, str(name)):
                    raise ValueError(f"bad square {name!r}")
                army, kind = str(what).split()
                board[square_of(str(name))] = piece(ARMIES.index(army), KINDS.index(kind))

            def army_or_none(value: Any) -> int:
                v = int(value)
                if not -1 <= v < 4:
                    raise ValueError(f"bad army {v}")
                return v

            def armies(values: Any) -> tuple[int, ...]:
                out = tuple(int(v) for v in values)
                if any(not 0 <= v < 4 for v in out):
                    raise ValueError(f"bad armies {out}")
                return out

            def records(values: Any) -> tuple[MoveRecord, ...]:
                out: list[MoveRecord] = []
                for r in values:
                    a, k, f, t, p, caps = r
                    out.append(
                        (int(a), int(k), int(f), int(t), int(p), tuple(int(c) for c in caps))
                    )
                return tuple(out)

            dice: list[Die] = []
            for a, f, k, used in obj["dice"]:
                if not (0 <= int(a) < 4 and 1 <= int(f) <= 4 and -1 <= int(k) < 4):
                    raise ValueError("bad die")
                dice.append((int(a), int(f), int(k), bool(used)))
            state = ChaturajiState(
                num_players=n,
                quiet_limit=int(obj["quiet_limit"]),
                phase=phase,
                board=tuple(board),
                monarchs=_monarchs(tuple(board)),
                squares=_squares(tuple(board)),
                turn=army_or_none(obj["turn"]),
                control=army_or_none(obj["control"]),
                stage=int(obj["stage"]),
                dice=tuple(dice),
                start_rolls=tuple(int(v) for v in obj["start_rolls"]),
                reentry=armies(obj["reentry"]),
                placing=armies(obj["placing"]),
                quiet=int(obj["quiet"]),
                eventful=bool(obj["eventful"]),
                turn_moves=records(obj["turn_moves"]),
                last_moves=records(obj["last_moves"]),
                skipped=armies(obj["skipped"]),
                turns=int(obj["turns"]),
                winner=army_or_none(obj["winner"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"broken Martian Chaturaji state: {exc}") from exc
        if phase in (MOVE, ROLL, REENTER) and state.turn < 0:
            raise ValueError("broken Martian Chaturaji state: no army to play")
        if phase == PLACE and not state.placing:
            raise ValueError("broken Martian Chaturaji state: nobody to place")
        return state
