"""``python -m bot.bench``: speed and size figures as JSON.

- engines: seeded random playouts on one core (games/s, moves/s, mean apply µs);
- renderers: board and private render + PNG encode (p50/p95 ms, PNG bytes);
- service: move latency through GameService on a temporary SQLite file with
  1, 100 and 1,000 live games, one move at a time and 8 at once ("move" is
  lock + load + engine + chance + the transaction; "move_and_render" adds the
  board PNG that delivery posts).

Timing lives here, never in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engines import ENGINES, get_engine
from bot.engines.core import (
    CHANCE,
    Engine,
    GameError,
    progress_seat,
    resolve_chance,
    sample_chance,
)
from renderers import get_renderer
from renderers.common import to_png


def percentile(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def random_playout(
    engine: Engine[Any, Any, Any], n: int, rng: random.Random
) -> tuple[Any, int, float]:
    """One game with random players, on the engine alone (no log text or
    narration, which the service adds); returns (final state, moves,
    seconds spent in player applies)."""
    state = engine.setup(n, {k: o.default for k, o in engine.options.items()})
    moves = 0
    apply_time = 0.0
    clock = time.perf_counter
    while engine.outcome(state) is None:
        movers = engine.to_move(state)
        if movers == {CHANCE}:
            outcome = sample_chance(engine.chance_outcomes(state), rng.random())
            state = engine.apply(state, CHANCE, outcome)
            moves += 1
            continue
        seat = progress_seat(engine, state)
        action = rng.choice(engine.legal_actions(state, seat))
        t0 = clock()
        state = engine.apply(state, seat, action)
        apply_time += clock() - t0
        moves += 1
    return state, moves, apply_time


def bench_engine(name: str, seconds: float, seed: int) -> dict[str, Any]:
    engine = get_engine(name)
    rng = random.Random(seed)
    results: dict[str, Any] = {}
    for n in sorted({engine.min_players, engine.max_players}):
        games = moves = 0
        apply_time = 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, m, a = random_playout(engine, n, rng)
            games += 1
            moves += m
            apply_time += a
        elapsed = time.perf_counter() - start
        results[f"{n}p"] = {
            "games": games,
            "games_per_s": round(games / elapsed, 1),
            "moves_per_s": round(moves / elapsed, 0),
            "mean_player_apply_us": round(1e6 * apply_time / max(1, moves), 2),
        }
    return results


def sample_states(name: str, count: int, seed: int) -> list[tuple[Any, int]]:
    """States from random games, weighted toward the busy late game."""
    engine = get_engine(name)
    rng = random.Random(seed)
    states: list[tuple[Any, int]] = []
    n = engine.max_players
    while len(states) < count:
        state = engine.setup(n, {k: o.default for k, o in engine.options.items()})
        history = []
        while engine.outcome(state) is None:
            state, _ = resolve_chance(engine, state, rng.random)
            if engine.outcome(state) is not None:
                break
            seat = progress_seat(engine, state)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            history.append(state)
        states.extend((s, n) for s in history[len(history) // 2 :: 3])
        states.append((state, n))
    return states[:count]


def bench_renderer(name: str, count: int, seed: int) -> dict[str, Any]:
    engine = get_engine(name)
    renderer = get_renderer(name)
    names = ["Asha", "Bhima", "Chitra", "Dev", "Esha"]
    out: dict[str, Any] = {}
    states = sample_states(name, count, seed)
    for kind in ("board", "private"):
        times: list[float] = []
        sizes: list[int] = []
        for state, n in states:
            t0 = time.perf_counter()
            if kind == "board":
                image = renderer.board(engine.view(state, None), names=names[:n])
            else:
                image = renderer.private(engine.view(state, 0), names=names[:n])
            png = to_png(image)
            times.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(png))
        out[kind] = {
            "renders": len(times),
            "p50_ms": round(percentile(times, 0.5), 2),
            "p95_ms": round(percentile(times, 0.95), 2),
            "png_bytes_p50": int(statistics.median(sizes)),
            "png_bytes_max": max(sizes),
        }
    return out


async def bench_service(
    name: str, games: int, moves: int, seed: int, *, render_workers: int = 1
) -> dict[str, Any]:
    """Move latency through GameService with ``games`` live games on one file.

    ``sequential``: one move at a time, each on a random live game: the cost
    of a move (lock, load, apply, chance, one transaction) and of the board
    PNG after it.  ``saturated``: 8 moves in flight at once, which on two
    cores measures throughput, and latency under that load.  Finished games
    are replaced so ``games`` stay live.  Images are drawn by the bot's
    :class:`~bot.rendering.RenderPool` (``render_workers`` processes; 0 draws
    in a thread, to compare).
    """
    from bot.rendering import RenderPool
    from bot.service import GameService, Player
    from storage.database import Database
    from storage.games import GameStore

    engine = get_engine(name)
    renders = RenderPool(render_workers)
    await renders.png(
        name, "board", engine.view(sample_states(name, 1, seed)[0][0], None), ["a"] * 4
    )
    rng = random.Random(seed)
    n = engine.min_players
    made = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        try:
            service = GameService(GameStore(db), draw=rng.random)

            async def new_game() -> int:
                nonlocal made
                made += 1
                base = 1000 * made
                live = await service.new_game(
                    name, creator=Player(base, "p0"), guild_id=1, channel_id=1 + made % 50
                )
                for s in range(1, n):
                    await service.join(live.id, Player(base + s, f"p{s}"))
                await service.start(live.id, base, moderator=False)
                return live.id

            ids = [await new_game() for _ in range(games)]

            async def one_move(plain: list[float], rendered: list[float]) -> bool:
                slot = rng.randrange(len(ids))
                game = await service.get(ids[slot])
                if game.is_over:
                    ids[slot] = await new_game()
                    return False
                seat = progress_seat(engine, game.state)
                text = rng.choice(service.legal_texts(game, seat))
                t0 = time.perf_counter()
                try:
                    result = await service.play(game.id, game.user_of(seat), text)
                except GameError:
                    return False  # another in-flight move took this turn first
                t1 = time.perf_counter()
                view = engine.view(result.game.state, None)
                await renders.png(name, "board", view, result.game.names)
                t2 = time.perf_counter()
                plain.append((t1 - t0) * 1000)
                rendered.append((t2 - t0) * 1000)
                return True

            async def run(in_flight: int) -> dict[str, Any]:
                plain: list[float] = []
                rendered: list[float] = []
                remaining = moves

                async def worker() -> None:
                    nonlocal remaining
                    while remaining > 0:
                        remaining -= 1
                        await one_move(plain, rendered)

                start = time.perf_counter()
                await asyncio.gather(*(worker() for _ in range(min(in_flight, games))))
                elapsed = time.perf_counter() - start
                return {
                    "in_flight": min(in_flight, games),
                    "moves": len(plain),
                    "moves_per_s": round(len(plain) / elapsed, 1),
                    "move_p50_ms": round(percentile(plain, 0.5), 2),
                    "move_p95_ms": round(percentile(plain, 0.95), 2),
                    "move_and_render_p50_ms": round(percentile(rendered, 0.5), 2),
                    "move_and_render_p95_ms": round(percentile(rendered, 0.95), 2),
                }

            sequential = await run(1)
            saturated = await run(8)
        finally:
            await db.close()
            renders.close()
    return {
        "games": games,
        "render_workers": render_workers,
        "sequential": sequential,
        "saturated": saturated,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench")
    parser.add_argument("--games", nargs="*", default=None, help="engines (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per engine")
    parser.add_argument("--renders", type=int, default=100)
    parser.add_argument("--moves", type=int, default=600, help="service moves per game count")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="tiny run, for smoke tests")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.renders, args.moves = 0.2, 5, 20
    names = args.games or sorted(ENGINES)
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "engines": {},
        "renderers": {},
        "service": {},
    }
    for name in names:
        report["engines"][name] = bench_engine(name, args.seconds, args.seed)
        report["renderers"][name] = bench_renderer(name, args.renders, args.seed)
        counts = (1, 100) if args.quick else (1, 100, 1000)
        service = {
            str(c): asyncio.run(bench_service(name, c, args.moves, args.seed)) for c in counts
        }
        service[f"{counts[-1]}_thread_render"] = asyncio.run(
            bench_service(name, counts[-1], args.moves, args.seed, render_workers=0)
        )
        report["service"][name] = service
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
