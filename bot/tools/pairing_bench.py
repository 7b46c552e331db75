"""Pairing speed: one 1,000-player Swiss round and one pod round, after simulated rounds.

Called by ``python -m bot.bench``; timing lives here, never in tests. The
simulated history is seeded, so every run pairs the same rounds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from bot.tournament.pairing import Player, Result, pair_pods, pair_swiss
from bot.tournament.standings import Scoring, Standing, standings


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
    started = time.perf_counter()
    table = standings(entrants, swiss_history, Scoring(table_size=2))
    figures["swiss_standings_ms"] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    standings(entrants, pod_history, Scoring(table_size=4))
    figures["pods_standings_ms"] = (time.perf_counter() - started) * 1000
    figures.update(_bench_standings_image(table))
    return figures


def _bench_standings_image(table: Sequence[Standing]) -> dict[str, float]:
    """The standings image of the top rows (what ``/tournament standings``
    draws): p50 and p95 over 30 renders, and the PNG's size."""
    from renderers.common import to_png
    from renderers.standings import MAX_ROWS, StandingRow, render_standings

    rows = [
        StandingRow(
            rank=row.rank,
            name=f"Player {row.player}",
            points=row.points,
            tiebreaks=tuple(v for _, v in row.tiebreaks),
            games=row.games,
            byes=row.byes,
        )
        for row in table[:MAX_ROWS]
    ]
    names = ["Buchholz", "Sonneborn-Berger"]
    times: list[float] = []
    image = None
    for _ in range(30):
        started = time.perf_counter()
        image = render_standings(rows, title="Bench", subtitle="Swiss", tiebreak_names=names)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    assert image is not None
    return {
        "standings_image_p50_ms": times[len(times) // 2],
        "standings_image_p95_ms": times[int(len(times) * 0.95) - 1],
        "standings_png_bytes": float(len(to_png(image))),
    }


if __name__ == "__main__":
    print(bench_pairing())
