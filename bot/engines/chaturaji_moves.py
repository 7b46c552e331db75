"""Martian Chaturaji's moves: which pieces a die roll lets an army move
(counting up, R6), the captures (R4), and the legal piece moves generated
from the tables, kept by the state once generated.
"""

from __future__ import annotations

from typing import Final

from bot.engines.chaturaji_board import (
    _ARMY,
    _BIT,
    _JUMPS,
    _KIND,
    _ON_PROMOTION_ROW,
    _SLIDES,
    _SQUIRE,
    CENTRE,
    MONARCH,
    PALADIN,
    RAVEN,
    SQUIRE,
    piece,
)
from bot.engines.chaturaji_state import _LEGAL, _MOVES, ChaturajiState, Move


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
