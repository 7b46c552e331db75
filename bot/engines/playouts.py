"""Random play-outs through the engine contract: the inner loop of the
searches' rollouts (``bot.players.search``) and of the benchmarks.

Compiled with the engines (see :mod:`bot.engines.compiled`), so that the
loop's own work (whose turn, sampling the dice, picking a move) costs little
beside the engine's; in the pure build it is the same loop in Python.  It
asks the engine only what any caller may ask (``outcome``, ``to_move``,
``waiting_on``, ``chance_outcomes``, ``legal_actions``, ``apply``), so it
plays every game, and it draws exactly as the loops it replaced did: the
same seed gives the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engines.core import CHANCE, Engine, sample_chance


def play_out(
    engine: Engine[Any, Any, Any],
    state: Any,
    draw: Callable[[], float],
    pick: Callable[[int], int],
    max_moves: int = -1,
) -> tuple[Any, int, int]:
    """Play ``state`` on with uniformly random players until the game ends
    or ``max_moves`` player moves are made (-1: no limit); the dice, shells
    and draws that follow the last move are still thrown.

    Chance outcomes are sampled with ``draw()`` in [0, 1) (as
    :func:`~bot.engines.core.sample_chance`); the seat to act is the lowest
    awaited one (as :func:`~bot.engines.core.progress_seat`), and its
    action ``actions[pick(len(actions))]``.  Returns ``(state, steps,
    player moves)``, chance steps counted in ``steps``.
    """
    steps = moves = 0
    while engine.outcome(state) is None:
        movers = engine.to_move(state)
        if CHANCE in movers:
            outcomes = engine.chance_outcomes(state)
            u = draw()
            chosen: Any = None
            if outcomes:
                # Uniform odds by identity (a die's faces, a deck's cards):
                # index directly, as sample_chance does, without calling it.
                first = outcomes[0][1]
                uniform = True
                for outcome in outcomes:
                    if outcome[1] is not first:
                        uniform = False
                        break
                if uniform:
                    num, den = float(u).as_integer_ratio()
                    index = num * len(outcomes) // den
                    chosen = outcomes[index if index < len(outcomes) else -1][0]
                else:
                    chosen = sample_chance(outcomes, u)
            else:
                chosen = sample_chance(outcomes, u)  # raises: nothing to sample
            state = engine.apply(state, CHANCE, chosen)
            steps += 1
            continue
        if moves == max_moves:
            break
        if len(movers) == 1:
            actor = next(iter(movers))
        else:
            awaited = engine.waiting_on(state) & movers
            actor = min(awaited) if awaited else min(movers)
        actions = engine.legal_actions(state, actor)
        state = engine.apply(state, actor, actions[pick(len(actions))])
        steps += 1
        moves += 1
    return state, steps, moves
