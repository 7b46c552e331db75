"""Pairing speed: one 1,000-player Swiss round and one pod round, after simulated rounds.

Called by ``python -m bot.bench``; timing lives here, never in tests. The
simulated history is seeded, so every run pairs the same rounds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from bot.tournament.pairing import Player, Result, pair_pods, pair_swiss


def _simulated_history(
    players: Sequence[Player], rounds: int, rng: random.Random, *, table_size: int
) -> list[Result]:
    """Results of ``rounds`` rounds paired by this package, games decided by ``rng``."""
    history: list[Result] = []
    for _ in range(rounds):
        if table_size == 2:
            paired = pair_swiss(players, history)
        else:
            paired = pair_pods(players, history, table_size=table_size)
        for table in paired.tables:
            if table_size == 2:
                first, second = table.seats
                outcome = rng.random()
                if outcome < 0.1:
                    history.append(Result.draw(paired.number, table.seats))
                else:
                    winner = first if outcome < 0.55 else second
                    history.append(Result.win(paired.number, (first, second), winner))
            else:
                places = list(range(1, len(table.seats) + 1))
                rng.shuffle(places)
                history.append(Result(paired.number, table.seats, tuple(places)))
        history.extend(Result.bye(paired.number, player) for player in paired.byes)
    return history


def bench_pairing(players: int = 1000, seed: int = 1, prior_rounds: int = 5) -> dict[str, float]:
    """Milliseconds to pair one round of ``players`` after ``prior_rounds`` simulated rounds.

    ``swiss_ms``: a two-sided Swiss round; ``pods_ms``: a pod round at tables of 4.
    """
    rng = random.Random(seed)
    entrants = [Player(id=index + 1, rating=rng.gauss(1500, 200)) for index in range(players)]
    figures: dict[str, float] = {}
    swiss_history = _simulated_history(entrants, prior_rounds, rng, table_size=2)
    started = time.perf_counter()
    pair_swiss(entrants, swiss_history)
    figures["swiss_ms"] = (time.perf_counter() - started) * 1000
    pod_history = _simulated_history(entrants, prior_rounds, rng, table_size=4)
    started = time.perf_counter()
    pair_pods(entrants, pod_history, table_size=4)
    figures["pods_ms"] = (time.perf_counter() - started) * 1000
    return figures


if __name__ == "__main__":
    print(bench_pairing())
