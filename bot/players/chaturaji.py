"""Martian Chaturaji baseline (docs/rules/chaturaji.md).

Chaturaji hides nothing, so the baseline tries each legal action on the
state and scores the position it leads to, as the seat's own view shows it:
material of its partnership against the enemy's (a monarch above all, since
capturing both enemy monarchs wins, R12), a little for squires advancing
towards promotion (R10), less for its own pieces that an enemy piece
attacks (R3, R4: the enemy needs the right die, so part of their worth),
and a win or a loss above everything.  So it:

- captures whenever it gains by it, the most valuable piece it can reach,
  monarchs first (R4, R7);
- promotes squires when it can (R10), and otherwise advances them;
- keeps its pieces, above all its monarchs, out of reach of enemy pieces,
  and passes (R5) rather than step into a capture;
- declines re-entry (R11: ``reenter none``): with one monarch left on each
  side, its next monarch capture wins.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engines.chaturaji_views import ChaturajiView
from bot.engines.core import Engine, Seat
from bot.players.base import legal_actions, pick_best

#: What a piece is worth (R3); a monarch's capture silences its army (R7).
VALUES = {"monarch": 20.0, "paladin": 5.0, "raven": 4.0, "squire": 1.0}
#: Per square a squire has advanced towards its promotion row (R10).
SQUIRE_STEP = 0.05
#: The share of a piece's worth counted lost when an enemy piece attacks it:
#: about the chance that one of the enemy's two dice moves the attacker (R5).
THREAT = 0.4
WIN = 1000.0

_ROOK = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_FORWARD = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}
Square = tuple[int, int]
"""(file 0 .. 7, rank 1 .. 8)."""


def _attacks(kind: str, forward: str, sq: Square, board: dict[Square, str]) -> list[Square]:
    """R3: the squares a piece of ``kind`` on ``sq`` could capture on."""
    f, r = sq
    out: list[Square] = []

    def on_board(df: int, dr: int) -> Square | None:
        g, s = f + df, r + dr
        return (g, s) if 0 <= g < 8 and 1 <= s <= 8 else None

    def rays(directions: tuple[tuple[int, int], ...]) -> None:
        for df, dr in directions:
            g, s = f + df, r + dr
            while 0 <= g < 8 and 1 <= s <= 8:
                out.append((g, s))
                if (g, s) in board:
                    break
                g, s = g + df, s + dr

    if kind == "monarch":
        rays(_ROOK + _BISHOP)
    elif kind == "paladin":
        rays(_BISHOP)
        out += [t for df, dr in _KNIGHT if (t := on_board(df, dr)) is not None]
    elif kind == "raven":
        rays(_ROOK)
        out += [t for df, dr in _BISHOP if (t := on_board(2 * df, 2 * dr)) is not None]
    else:
        # A squire captures one square diagonally forward only.
        df, dr = _FORWARD[forward]
        sides = ((df + dr, dr + df), (df - dr, dr - df))
        out += [t for a, b in sides if (t := on_board(a, b)) is not None]
    return out


def _advance(view: ChaturajiView, army: str, file: int, rank: int) -> int:
    """How far a squire of ``army`` on (file, rank) has come (0 .. 7)."""
    forward = next(a.forward for a in view.armies if a.army == army)
    return {"north": rank - 1, "south": 8 - rank, "east": file, "west": 7 - file}[forward]


def _layout(view: ChaturajiView) -> tuple[dict[str, str], dict[Square, str]]:
    """Each army's forward direction, and which army stands on each square."""
    forward = {a.army: a.forward for a in view.armies}
    return forward, {(p.file, p.rank): p.army for p in view.pieces}


def evaluate(view: ChaturajiView, seat: Seat) -> float:
    """How good the position is for ``seat``'s partnership (higher is better)."""
    mine = {a.army for a in view.armies if a.commander == seat}
    side = next(a.partnership for a in view.armies if a.army in mine)
    ours = {a.army for a in view.armies if a.partnership == side}
    if view.final is not None and view.final.winners is not None:
        won = view.final.winners.split("-")
        return WIN if set(won) == ours else -WIN
    forward, board = _layout(view)
    attacked: set[Square] = set()
    for p in view.pieces:
        if p.army not in ours:
            attacked.update(_attacks(p.kind, forward[p.army], (p.file, p.rank), board))
    total = 0.0
    for p in view.pieces:
        worth = VALUES[p.kind]
        if p.kind == "squire":
            worth += SQUIRE_STEP * _advance(view, p.army, p.file, p.rank)
        if p.army not in ours:
            total -= worth
        elif (p.file, p.rank) in attacked:
            total += worth * (1 - THREAT)
        else:
            total += worth
    return total


def army(view: ChaturajiView) -> tuple[float, float]:
    """Each partnership's pieces other than its monarchs, at their worth (R3)."""
    side = {a.army: a.partnership for a in view.armies}
    worth = [0.0, 0.0]
    for p in view.pieces:
        if p.kind != "monarch":
            worth[side[p.army]] += VALUES[p.kind]
    return worth[0], worth[1]


def pressure(view: ChaturajiView, partnership: int) -> float:
    """How closely ``partnership`` presses the enemy monarchs still on the
    board (R12: capturing both wins), in [0, 1]: per monarch, 1 when one of
    its pieces attacks it, else less the further the nearest one stands
    (king's steps), averaged over the monarchs.  Material alone cannot tell
    a hunt from a stroll once one side is far ahead."""
    ours = {a.army for a in view.armies if a.partnership == partnership}
    forward, board = _layout(view)
    hunters = [p for p in view.pieces if p.army in ours]
    targets = [(p.file, p.rank) for p in view.pieces if p.kind == "monarch" and p.army not in ours]
    if not targets or not hunters:
        return 0.0
    attacked: set[Square] = set()
    for p in hunters:
        attacked.update(_attacks(p.kind, forward[p.army], (p.file, p.rank), board))
    total = 0.0
    for f, r in targets:
        if (f, r) in attacked:
            total += 1.0
        else:
            near = min(max(abs(p.file - f), abs(p.rank - r)) for p in hunters)
            total += (8 - near) / 8 * 0.75
    return total / len(targets)


class ChaturajiBaseline:
    """One-step lookahead with :func:`evaluate` (full information only)."""

    name = "chaturaji-baseline"

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]
        texts = [engine.describe(state, seat, a) for a in actions]
        if "reenter none" in texts:
            return actions[texts.index("reenter none")]

        def score(action: Any) -> float:
            return evaluate(engine.view(engine.apply(state, seat, action), seat), seat)

        return pick_best(actions, score, rng)
