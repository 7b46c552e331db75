"""Kauda Baji baseline (docs/rules/kauda_baji.md).

Kauda Baji hides nothing, so the baseline tries each legal move on the
state and scores the position it leads to, as the seat's own view shows it.
The score adds, for each side, how far its pieces have come along its route
(a piece in the centre counts for more than the whole route, R17), and a
bonus once the side has killed (under markut, R15, arrow 1 opens only
then), and subtracts what the mover's pieces risk on squares that are not
safe (R3, R12) from enemy tuples that could land on them next (R13).  So it:

- kills whenever it can (the victims go back to their start square);
- enters the centre whenever it can, and otherwise moves pieces furthest;
- prefers landing on safe squares, and leaves exposed squares.

Against two or more opponents, progress is measured against the average of
the leading opponent and the field.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engines.core import Engine, Seat
from bot.engines.kauda_baji_board import CENTRE_STEP, ROUTES, SEAT_NAMES, square_of
from bot.engines.kauda_baji_views import KaudaBajiView
from bot.players.base import legal_actions, pick_best

#: R5: the chance of each throw value, in 64ths.
THROW_ODDS = {1: 6 / 64, 2: 15 / 64, 3: 20 / 64, 4: 15 / 64, 5: 6 / 64, 6: 1 / 64, 12: 1 / 64}
#: A piece in the centre counts as its whole route plus this.
CENTRE_BONUS = 16.0
#: The worth of having killed once under markut (R15): the inner rings open.
KILLED_BONUS = 24.0
#: Steps a piece may walk before arrow 1 while markut keeps it out (R15).
ARROW1_STEP = 23
#: How much of an exposed tuple's progress counts as lost.
RISK_WEIGHT = 1.0

_STEP_OF = tuple({sq: step for step, sq in enumerate(route)} for route in ROUTES)
_SEAT_INDEX = {name: i for i, name in enumerate(SEAT_NAMES)}


def _reach(view: KaudaBajiView, player: int, step: int, size: int) -> dict[int, float]:
    """Board squares ``player``'s tuple at ``step`` may land on with one
    throw, and the chance of that throw (R5, R10); arrows are taken as
    turned in where they are open, and markut (R15) sends it round."""
    seat = _SEAT_INDEX[view.players[player].seat]
    killed = view.players[player].has_killed
    out: dict[int, float] = {}
    for value, odds in THROW_ODDS.items():
        if value % size:
            continue
        end = step + value // size
        if not killed and step <= ARROW1_STEP < end:
            end -= ARROW1_STEP + 1
        if end >= CENTRE_STEP:
            continue
        square = ROUTES[seat][end]
        out[square] = out.get(square, 0.0) + odds
    return out


def side_progress(view: KaudaBajiView, player: int) -> float:
    """How far ``player`` has come: steps walked, pieces home, a kill made."""
    info = view.players[player]
    total = info.finished * (CENTRE_STEP + CENTRE_BONUS)
    total += sum(s.size * s.step for s in view.stacks if s.player == player)
    if info.has_killed:
        total += KILLED_BONUS
    return total


def _risk(view: KaudaBajiView, me: int) -> float:
    """The progress ``me`` may lose next: each of its tuples off the safe
    squares, times the chance that some enemy tuple at least as big lands
    on it (R12, R13)."""
    safe = {square_of(name) for name in view.safe}
    enemies = [s for s in view.stacks if s.player != me and s.player not in view.places]
    threats: dict[tuple[int, int], dict[int, float]] = {}
    loss = 0.0
    for stack in view.stacks:
        if stack.player != me or stack.step == 0:
            continue
        square = square_of(stack.square)
        if square in safe:
            continue
        chance = 0.0
        for enemy in enemies:
            if enemy.size < stack.size:
                continue
            key = (enemy.player, enemy.step * 8 + enemy.size)
            if key not in threats:
                threats[key] = _reach(view, enemy.player, enemy.step, enemy.size)
            chance += threats[key].get(square, 0.0)
        loss += min(1.0, chance) * stack.size * stack.step
    return loss


def evaluate(view: KaudaBajiView, me: int) -> float:
    """How good the position is for ``me`` (higher is better)."""
    mine = side_progress(view, me)
    others = [side_progress(view, p.player) for p in view.players if p.player != me]
    if me in view.places:
        mine += 1000.0 * (len(view.players) - view.places.index(me))
    rival = (max(others) + sum(others) / len(others)) / 2 if others else 0.0
    return mine - rival - RISK_WEIGHT * _risk(view, me)


class KaudaBajiBaseline:
    """One-step lookahead with :func:`evaluate` (full information only)."""

    name = "kauda_baji-baseline"

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]

        def score(action: Any) -> float:
            return evaluate(engine.view(engine.apply(state, seat, action), seat), seat)

        return pick_best(actions, score, rng)
