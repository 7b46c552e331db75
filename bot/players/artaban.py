"""Artaban baseline (docs/rules/artaban.md).

Only the set-up is secret (R7), so the baseline never applies an action to
look ahead: it reads the board from its own view and works out each move's
result itself with the die arithmetic of R1-R3 (``tip`` and ``turn``, pure
functions of a die's public faces).

Set-up: a balanced arrangement, 3s and 4s (close to ``3 4 3 4 4 3 4 3``,
taking the offered value nearest each file's target), the Leader on the
highest value, then ``commit``.

Play: each move is scored by the position it leaves.  Dice home count their
top value, which is what scores (R10), plus a bonus; dice on the way count
how far they have come; a die one step from home counts what its forward tip
would show; a die an enemy die could capture next (R4, R5) counts for less;
and a move after which the opponent cannot tip, capture or sacrifice ends
the game (R9), so it is scored by the final result.  So it:

- captures whenever that gains (the most advanced and highest enemy dice
  first), and never sacrifices for nothing (R6);
- advances towards its last rank, landing high values there;
- keeps out of reach of higher enemy dice.

It never offers a draw, and lets an offer lapse by moving (R9).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from bot.engines.artaban_board import FORWARD, LEFT, RIGHT, tip, turn
from bot.engines.artaban_views import ArtabanView
from bot.engines.core import Engine, Seat
from bot.players.base import legal_actions, pick_best

#: Target top values for files a .. h (sum 28, R7).
SETUP_PLAN = (3, 4, 3, 4, 4, 3, 4, 3)
#: A die on its last rank: this, plus its top value times HOME_TOP.
HOME = 4.0
HOME_TOP = 1.5
#: Per rank advanced.
ADVANCE = 0.6
#: Per point of top value of a die still on its way (it captures more).
TOP = 0.15
#: How much of a die's worth is counted lost when an enemy die can take it.
THREAT = 0.6
WIN = 1000.0

_MOVE = re.compile(r"([a-h][1-8])(\^|<|>|@<|@>|x[a-h][1-8]|![a-h][1-8])")
_DRAW_WORDS = frozenset({"offer-draw", "accept-draw", "decline-draw"})
Square = tuple[int, int]
"""(file 0 .. 7, rank 1 .. 8)."""


@dataclass(frozen=True)
class Die:
    owner: Seat
    top: int
    front: int
    leader: bool


Board = dict[Square, Die]


def _square(name: str) -> Square:
    return "abcdefgh".index(name[0]), int(name[1])


def _home_rank(seat: Seat) -> int:
    return 8 if seat == 0 else 1


def _step(seat: Seat, sq: Square, direction: str) -> Square | None:
    """One square in the owner's direction (R2), or None off the board."""
    ahead = 1 if seat == 0 else -1
    f, r = sq
    if direction == FORWARD:
        r += ahead
    elif direction == LEFT:
        f -= ahead
    else:
        f += ahead
    return (f, r) if 0 <= f < 8 and 1 <= r <= 8 else None


def _attack_squares(seat: Seat, sq: Square, diagonal: bool) -> list[Square]:
    """Where a die of ``seat`` on ``sq`` may capture or sacrifice (R4-R6)."""
    out = [s for d in (FORWARD, LEFT, RIGHT) if (s := _step(seat, sq, d)) is not None]
    if diagonal:
        ahead = 1 if seat == 0 else -1
        f, r = sq
        out += [(g, r + ahead) for g in (f - 1, f + 1) if 0 <= g < 8 and 1 <= r + ahead <= 8]
    return out


def _can_progress(board: Board, seat: Seat, diagonal: bool) -> bool:
    """R9: whether ``seat`` has a tip, a capture or a sacrifice."""
    for sq, die in board.items():
        if die.owner != seat or sq[1] == _home_rank(seat):
            continue
        for d in (FORWARD, LEFT, RIGHT):
            dst = _step(seat, sq, d)
            if dst is not None and dst not in board:
                return True
        for dst in _attack_squares(seat, sq, diagonal):
            other = board.get(dst)
            if other is not None and other.owner != seat and other.top <= die.top:
                return True
    return False


def _worth(die: Die, sq: Square) -> float:
    """What one die is worth to its owner where it stands."""
    if sq[1] == _home_rank(die.owner):
        return HOME + HOME_TOP * die.top
    left = abs(_home_rank(die.owner) - sq[1])
    worth = ADVANCE * (6 - left) + TOP * die.top
    if left == 1:
        worth += 0.5 * (HOME + HOME_TOP * (7 - die.front))
    return worth


def evaluate(board: Board, me: Seat, diagonal: bool) -> float:
    """How good ``board`` is for ``me``, with the opponent to move."""
    them = 1 - me
    if not _can_progress(board, them, diagonal):
        # R9, R10: the game ends now.
        score = [0, 0]
        home = [0, 0]
        count = [0, 0]
        for sq, die in board.items():
            count[die.owner] += 1
            if sq[1] == _home_rank(die.owner):
                home[die.owner] += 1
                score[die.owner] += die.top
        mine = (score[me], home[me], count[me])
        theirs = (score[them], home[them], count[them])
        if mine == theirs:
            return 0.0
        return (WIN if mine > theirs else -WIN) + score[me] - score[them]
    # R4: the strongest capture each enemy die threatens, per square, as
    # 2 x value (+1 for the Leader, which also takes an equal value).
    power: dict[Square, int] = {}
    for sq, die in board.items():
        if die.owner == them and sq[1] != _home_rank(them):
            strength = 2 * die.top + die.leader
            for dst in _attack_squares(them, sq, diagonal):
                if power.get(dst, 0) < strength:
                    power[dst] = strength
    total = 0.0
    for sq, die in board.items():
        worth = _worth(die, sq)
        if die.owner == me:
            if power.get(sq, 0) > 2 * die.top and sq[1] != _home_rank(me):
                worth *= 1 - THREAT
            total += worth
        else:
            total -= worth
    return total


def _after(board: Board, me: Seat, text: str) -> Board | None:
    """The board after ``me`` plays ``text`` (R2-R6); None for draw words."""
    m = _MOVE.fullmatch(text)
    if m is None:
        return None
    frm = _square(m.group(1))
    how = m.group(2)
    die = board[frm]
    after = dict(board)
    del after[frm]
    if how in (FORWARD, LEFT, RIGHT):
        dst = _step(me, frm, how)
        assert dst is not None
        top, front = tip(die.top, die.front, how)
        after[dst] = Die(me, top, front, die.leader)
    elif how[0] == "@":
        top, front = turn(die.top, die.front, how[1])
        after[frm] = Die(me, top, front, die.leader)
    elif how[0] == "x":
        after[_square(how[1:])] = die
    # A sacrifice ("!"): the die leaves, the enemy die stays.
    return after


def _setup_choice(view: ArtabanView, texts: list[str]) -> str:
    """R7: the next step of a balanced arrangement."""
    if "commit" in texts:
        return "commit"
    me = view.me
    values = me.values if me is not None else ()
    sets = [t for t in texts if t.startswith("set ")]
    if sets:
        target = SETUP_PLAN[min(len(values), len(SETUP_PLAN) - 1)]
        return min(sets, key=lambda t: (abs(int(t.split()[2]) - target), int(t.split()[2])))
    leaders = [t for t in texts if t.startswith("leader ")]
    if leaders and values:
        best = max(range(len(values)), key=lambda i: (values[i], -abs(3.5 - i)))
        wanted = f"leader {'abcdefgh'[best]}"
        if wanted in leaders:
            return wanted
    if leaders:
        return leaders[0]
    return "setup random" if "setup random" in texts else texts[0]


class ArtabanBaseline:
    """Set-up by plan, then one-move evaluation on the board it can see."""

    name = "artaban-baseline"

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]
        texts = [engine.describe(state, seat, a) for a in actions]
        view: ArtabanView = engine.view(state, seat)
        if view.phase == "setup":
            return actions[texts.index(_setup_choice(view, texts))]
        board: Board = {(d.file, d.rank): Die(d.owner, d.top, d.front, d.leader) for d in view.dice}
        moves = [(a, t) for a, t in zip(actions, texts, strict=True) if t not in _DRAW_WORDS]
        if not moves:
            # Only draw words: answer an offer by declining it.
            return actions[texts.index("decline-draw")] if "decline-draw" in texts else actions[0]

        def score(move: tuple[Any, str]) -> float:
            after = _after(board, seat, move[1])
            return -WIN * 10 if after is None else evaluate(after, seat, view.diagonal_captures)

        return pick_best(moves, score, rng)[0]
