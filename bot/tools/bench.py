"""``python -m bot.bench``: speed and size figures as JSON.

- engines: seeded random playouts on one core (games/s, moves/s, mean apply µs);
- renderers: board and private render + PNG encode (p50/p95 ms, PNG bytes);
- interactions: button presses and menu selections per decision of random
  games, through the menus the bot draws (the board's when the choice is
  public, else the DM menu), the way ``tests/bot/menu_player.py`` plays
  them through dispatch;
- search: seconds per decision of the ``medium`` and ``hard`` automatic
  players (p50/p95/max) and their iterations per second;
- service: move latency through GameService on a temporary SQLite file with
  1, 100 and 1,000 live games, one move at a time and 8 at once ("move" is
  lock + load + engine + chance + the transaction; "move_and_render" adds the
  board PNG that delivery posts);
- attention (issue 30, :mod:`bot.tools.attention`): whole games played through
  discord.py's dispatch with default settings, and what they cost their
  players: notifications and DMs without a decision per decision owed, the
  lobby message's edits and length, boards offering choices while only
  automatic seats act, messages and edits, and one person's waits for the
  automatic players.  The quick run plays two of its games (a table of
  three people, one person against four automatic seats: about 10 s),
  ``--full`` all five (about 40 s).

- replays (issue 31): CPU seconds of one core to draw each game's replay
  (rebuilding the frames and encoding the GIF, as the render pool does)
  over the seeded games of ``tests/test_replay.py`` at every player count,
  the longest Kauda Baji game (four players, 2,164 moves) among them, with
  frames kept and bytes.  Part of ``--full``; ``--replays`` runs it alone
  (about 40 s).

Two sizes: the default quick run (well under a minute on two cores: shorter
playouts, fewer renders and moves, 1 and 100 live games) for a first look,
and ``--full`` (5 to 6 minutes: adds 1,000 live games) for figures worth
comparing.  Progress goes to stderr, so stdout stays one JSON document.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.engines import ENGINE_BUILD, ENGINES, get_engine
from bot.engines.core import (
    CHANCE,
    Engine,
    GameError,
    progress_seat,
    resolve_chance,
    sample_chance,
)
from bot.engines.playouts import play_out
from bot.outgoing import plural
from renderers import get_renderer
from renderers.common import to_png

#: Bench playouts cap games that can go on for ever with random players
#: (Sangram), through the engine's own lobby option when it has one.
PLAYOUT_ROUND_LIMIT = 50


@dataclass(frozen=True)
class Profile:
    """How much work one bench run does."""

    seconds: float
    """Playout time per engine and player count."""
    renders: int
    """Sample states rendered per engine (board and private each)."""
    moves: int
    """Service moves per live-game count (sequential, then 8 in flight)."""
    counts: tuple[int, ...]
    """Live-game counts; the last is also measured with thread rendering."""
    games: int = 3
    """Random games per engine and player count for the interaction figures."""
    searches: int = 4
    """Decisions timed per engine and search level."""
    attention: tuple[str, ...] | None = None
    """The games of the attention figures (``bot.tools.attention.play.SCENARIOS`` by
    name); None: all of them."""


QUICK = Profile(
    seconds=0.5,
    renders=20,
    moves=60,
    counts=(1, 100),
    games=3,
    searches=4,
    attention=("mahabharata-3p", "sangram-solo"),
)
FULL = Profile(seconds=3.0, renders=100, moves=600, counts=(1, 100, 1000), games=20, searches=40)


class Progress:
    """One line per step on stderr, with the time since the run started.

    A full run takes minutes; without these lines it looks hung.
    """

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.start = time.perf_counter()

    def __call__(self, message: str) -> None:
        if not self.quiet:
            elapsed = time.perf_counter() - self.start
            print(f"[bench {elapsed:6.1f}s] {message}", file=sys.stderr, flush=True)


def playout_options(engine: Engine[Any, Any, Any]) -> dict[str, Any]:
    """The engine's default options, with a round limit where it has one."""
    options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
    if "round_limit" in engine.options:
        options["round_limit"] = PLAYOUT_ROUND_LIMIT
    return options


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
    narration, which the service adds); returns (final state, moves with
    chance included, seconds spent in player applies)."""
    state, moves, _, apply_time = playout(engine, n, rng)
    return state, moves, apply_time


_CHANCE_ONLY: Final = frozenset({CHANCE})


def playout(
    engine: Engine[Any, Any, Any], n: int, rng: random.Random
) -> tuple[Any, int, int, float]:
    """:func:`random_playout`, also counting the players' own moves (passes
    included; not dice, shells or draws)."""
    state = engine.setup(n, playout_options(engine))
    moves = player_moves = 0
    apply_time = 0.0
    clock = time.perf_counter
    while engine.outcome(state) is None:
        movers = engine.to_move(state)
        if movers == _CHANCE_ONLY:
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
        player_moves += 1
    return state, moves, player_moves, apply_time


def bench_engine(name: str, seconds: float, seed: int) -> dict[str, Any]:
    engine = get_engine(name)
    rng = random.Random(seed)
    results: dict[str, Any] = {}
    for n in sorted({engine.min_players, engine.max_players}):
        games = moves = player_moves = 0
        options = playout_options(engine)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            # The engines' play-out loop (compiled with them, see
            # bot/engines/playouts.py), as the searches' rollouts run it.
            _, m, p = play_out(engine, engine.setup(n, options), rng.random, rng.randrange)
            games += 1
            moves += m
            player_moves += p
        elapsed = time.perf_counter() - start
        # The players' applies alone, timed one by one in a shorter run.
        timed_moves = 0
        apply_time = 0.0
        timed_start = time.perf_counter()
        while time.perf_counter() - timed_start < seconds / 4:
            _, _, p, a = playout(engine, n, rng)
            timed_moves += p
            apply_time += a
        results[f"{n}p"] = {
            "games": games,
            "games_per_s": round(games / elapsed, 1),
            "moves_per_s": round(moves / elapsed, 0),
            # The players' moves (passes included), not dice, shells or draws.
            "player_moves_per_s": round(player_moves / elapsed, 0),
            "mean_game_length": round(player_moves / max(1, games), 1),
            "mean_player_apply_us": round(1e6 * apply_time / max(1, timed_moves), 2),
        }
    return results


def sample_states(name: str, count: int, seed: int) -> list[tuple[Any, int]]:
    """States from random games, weighted toward the busy late game."""
    engine = get_engine(name)
    rng = random.Random(seed)
    states: list[tuple[Any, int]] = []
    n = engine.max_players
    while len(states) < count:
        state = engine.setup(n, playout_options(engine))
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


def bench_renderer(name: str, count: int, seed: int, lang: str = "en") -> dict[str, Any]:
    """Board and private renders with their PNG encoding, the words drawn
    in ``lang`` (issue 33: Hindi is shaped by raqm, and longer)."""
    engine = get_engine(name)
    renderer = get_renderer(name)
    names = ["Asha", "Bhima", "Chitra", "Dev", "Esha"]
    out: dict[str, Any] = {}
    states = sample_states(name, count, seed)
    # Untimed first drawings, as a render worker warms up (bot.rendering):
    # loading a script's fonts and filling the per-language caches (Sangram's
    # card faces) happen once per process, not per board.
    if states:
        state, n = states[0]
        to_png(renderer.board(engine.view(state, None), names=names[:n], lang=lang))
        to_png(renderer.private(engine.view(state, 0), names=names[:n], lang=lang))
    for kind in ("board", "private"):
        times: list[float] = []
        sizes: list[int] = []
        for state, n in states:
            t0 = time.perf_counter()
            if kind == "board":
                image = renderer.board(engine.view(state, None), names=names[:n], lang=lang)
            else:
                image = renderer.private(engine.view(state, 0), names=names[:n], lang=lang)
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


def bench_replays(names: Sequence[str], seed: int = 1) -> dict[str, Any]:
    """Each seeded game's replay, drawn as the render pool draws it: CPU
    seconds of this process (one core), frames given and kept, and bytes.

    The games are ``tests/test_replay.py``'s ``seeded_record``: the demo's
    random players seeded with ``f"{seed}:{name}:{players}"``, at most 3,000
    moves."""
    from bot.rendering import draw_replay
    from bot.replay import frames
    from bot.tools.demo import demo_record, playthrough

    out: dict[str, Any] = {}
    for name in names:
        engine = get_engine(name)
        for players in range(engine.min_players, engine.max_players + 1):
            rng = random.Random(f"{seed}:{name}:{players}")
            record = demo_record(engine, players, list(playthrough(engine, players, rng, 3000)))
            start = time.process_time()
            replay = draw_replay(record)  # the frames rebuilt, then drawn
            seconds = time.process_time() - start
            shown = frames(record)
            out[f"{name}-{players}p"] = {
                "moves": shown[-1].move,
                "frames": len(shown),
                "kept": replay.frames,
                "bytes": len(replay.data),
                "cpu_s": round(seconds, 2),
            }
    return out


def bench_interactions(name: str, games: int, seed: int) -> dict[str, Any]:
    """Interactions per decision of random players, per player count.

    A decision costs the presses along its menu path (``bot.choices``),
    starting from the menu the bot already sent: the board's buttons or
    selects when the choice is public (one more press when the board can
    only offer "Choose…"), otherwise the seat's DM menu."""
    from bot.choices import path_to
    from bot.edge.tables.menus import board_menu
    from bot.live import LiveGame
    from bot.service import menu_words_of
    from storage.games import GameRecord, SeatRecord

    engine = get_engine(name)
    rng = random.Random(seed)
    results: dict[str, Any] = {}
    for n in sorted({engine.min_players, engine.max_players}):
        counts: list[int] = []
        for _ in range(games):
            state = engine.setup(n, playout_options(engine))
            version = 0
            while engine.outcome(state) is None:
                state, _ = resolve_chance(engine, state, rng.random)
                if engine.outcome(state) is not None:
                    break
                record = GameRecord(
                    id=1,
                    engine=name,
                    engine_revision=engine.revision,
                    options={},
                    status="active",
                    version=version,
                    guild_id=1,
                    channel_id=1,
                    thread_id=None,
                    creator_id=1,
                    created_at=0.0,
                    updated_at=0.0,
                    outcome=None,
                )
                seats = [SeatRecord(1, s, 1 + s, f"P{s}") for s in range(n)]
                live = LiveGame(record=record, seats=seats, engine=engine, state=state)
                seat = progress_seat(engine, state)
                actions = engine.legal_actions(state, seat)
                action = rng.choice(actions)
                texts = [engine.describe(state, seat, a) for a in actions]
                path = path_to(
                    texts, engine.describe(state, seat, action), menu_words_of(engine, state, seat)
                )
                board = board_menu(live)
                extra = int(seat in board.seats and board.buttons == [((), "Choose…")])
                counts.append(len(path) + extra)
                state = engine.apply(state, seat, action)
                version += 1
        counts.sort()
        results[f"{n}p"] = {
            "decisions": len(counts),
            "mean": round(sum(counts) / max(1, len(counts)), 3),
            "p95": counts[min(len(counts) - 1, int(0.95 * len(counts)))] if counts else 0,
            "max": counts[-1] if counts else 0,
        }
    return results


def bench_search(name: str, decisions: int, seed: int) -> dict[str, Any]:
    """Seconds per decision of the search levels (p50, p95, max) on states
    from random games, and iterations per second (issue 19's budget:
    ``hard`` at most 1 s at the 95th percentile, ``medium`` 0.2 s)."""
    from bot.players import player_for
    from bot.players.search import SearchPlayer

    engine = get_engine(name)
    rng = random.Random(seed)
    settled = [
        resolve_chance(engine, s, rng.random)[0]
        for s, _ in sample_states(name, decisions * 3, seed)
    ]
    states = [
        (state, progress_seat(engine, state))
        for state in settled
        if engine.outcome(state) is None and CHANCE not in engine.to_move(state)
    ]
    states = [(s, seat) for s, seat in states if len(engine.legal_actions(s, seat)) > 1]
    states = states[:: max(1, len(states) // max(1, decisions))][:decisions]
    out: dict[str, Any] = {}
    for level in ("medium", "hard"):
        player = player_for(name, level)
        assert isinstance(player, SearchPlayer)
        times: list[float] = []
        for state, seat in states:
            t0 = time.perf_counter()
            player.choose(engine, state, seat, rng)
            times.append(time.perf_counter() - t0)
        out[level] = {
            "iterations": player.iterations,
            "decisions": len(times),
            "p50_s": round(percentile(times, 0.5), 3),
            "p95_s": round(percentile(times, 0.95), 3),
            "max_s": round(max(times, default=0.0), 3),
            "iterations_per_s": round(player.iterations * len(times) / max(1e-9, sum(times))),
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
    from storage.games import GameStore
    from storage.opening import open_database

    engine = get_engine(name)
    renders = RenderPool(render_workers)
    await renders.png(
        name, "board", engine.view(sample_states(name, 1, seed)[0][0], None), ["a"] * 4
    )
    rng = random.Random(seed)
    n = engine.min_players
    made = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(Path(tmp) / "bench.sqlite3")
        try:
            service = GameService(GameStore(db), draw=rng.random)

            async def new_game() -> int:
                nonlocal made
                made += 1
                base = 1000 * made
                live = await service.new_game(
                    name,
                    creator=Player(base, "p0"),
                    guild_id=1,
                    channel_id=1 + made % 50,
                    options=playout_options(engine),
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


async def bench_timers(games: int, due: int) -> dict[str, Any]:
    """The scheduler with ``games`` running games, each with a reminder and a
    clock timer: start-up (the earliest timer, and the start-up query for
    games whose timers need setting again), the memory the scheduler holds,
    and the time to fire ``due`` overdue timers (each claimed once, the
    scheduler's own cost; a real handler adds the game's work)."""
    import tracemalloc

    from bot.scheduler import Scheduler
    from storage.opening import open_database
    from storage.timekeeping import Timer, TimerStore

    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(Path(tmp) / "timers.sqlite3")
        try:
            async with db.transaction() as conn:
                await conn.executemany(
                    "INSERT INTO games (id, engine, engine_revision, options, status, version, "
                    "channel_id, creator_id, created_at, updated_at) "
                    "VALUES (?, 'artaban', 1, '{}', 'active', 5, 1, 1, 0, 0)",
                    [(i,) for i in range(1, games + 1)],
                )
                rng = random.Random(1)
                rows = []
                for i in range(1, games + 1):
                    rows.append((i, "remind", -1, 10_000.0 + rng.random() * 1e6, 5))
                    rows.append((i, "clock", i % 4, 10_000.0 + rng.random() * 1e6, 5))
                await conn.executemany(
                    "INSERT INTO timers (game_id, kind, seat, due, version) VALUES (?, ?, ?, ?, ?)",
                    rows,
                )
            timers = TimerStore(db)
            tracemalloc.start()
            t0 = time.perf_counter()
            earliest = await timers.earliest()
            to_settle = await timers.games_to_settle()
            startup = time.perf_counter() - t0
            held, _ = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert earliest is not None and not to_settle

            fired: list[Timer] = []

            async def claim(timer: Timer) -> None:
                if await timers.claim(timer):
                    fired.append(timer)

            now = sorted(r[3] for r in rows)[due - 1]
            scheduler = Scheduler(timers, claim, lambda: now)
            t0 = time.perf_counter()
            count = await scheduler.run_due()
            firing = time.perf_counter() - t0
        finally:
            await db.close()
    return {
        "games": games,
        "timers": 2 * games,
        "startup_ms": round(1000 * startup, 1),
        "scheduler_bytes_per_game": round(held / games, 2),
        "fired": count,
        "fire_ms_total": round(1000 * firing, 1),
        "fire_ms_per_timer": round(1000 * firing / max(1, count), 3),
    }


async def bench_attention(
    names: Sequence[str] | None, engines: Sequence[str] | None, progress: Progress
) -> dict[str, Any]:
    """Issue 30's figures (:mod:`bot.tools.attention`) for the scenarios named
    (None: all) whose game is among ``engines`` (None: any)."""
    from bot.tools.attention.figures import measure_all
    from bot.tools.attention.play import SCENARIOS

    chosen = [
        s
        for s in SCENARIOS
        if (names is None or s.name in names) and (engines is None or s.engine in engines)
    ]
    return await measure_all(chosen, progress)


def _parse(argv: list[str] | None) -> tuple[argparse.Namespace, Profile]:
    parser = argparse.ArgumentParser(
        prog="python -m bot.bench",
        description="Speed and size figures as JSON on stdout; progress on stderr. "
        "The default is a quick run (about 30 s); --full takes 5 to 6 minutes.",
    )
    parser.add_argument("--games", nargs="*", default=None, help="engines (default: all)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help="the full run, with 1,000 live games")
    # --quick is the default now; still accepted so older scripts keep working.
    size.add_argument("--quick", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=None, help="playout time per engine")
    parser.add_argument("--renders", type=int, default=None, help="states rendered per engine")
    parser.add_argument("--moves", type=int, default=None, help="service moves per game count")
    parser.add_argument(
        "--counts", type=int, nargs="+", default=None, help="live-game counts for the service"
    )
    parser.add_argument(
        "--searches", type=int, default=None, help="decisions timed per search level"
    )
    parser.add_argument(
        "--replays", action="store_true", help="only the replays' figures (about 40 s)"
    )
    parser.add_argument(
        "--renderers", action="store_true", help="only the renderers' figures (about 20 s)"
    )
    parser.add_argument(
        "--lang",
        default="en",
        help="the language of the words drawn (en, hi; qps: the pseudo-locale)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-progress", action="store_true", help="print nothing on stderr")
    args = parser.parse_args(argv)
    base = FULL if args.full else QUICK
    profile = Profile(
        seconds=base.seconds if args.seconds is None else args.seconds,
        renders=base.renders if args.renders is None else args.renders,
        moves=base.moves if args.moves is None else args.moves,
        counts=base.counts if args.counts is None else tuple(args.counts),
        games=base.games,
        searches=base.searches if args.searches is None else args.searches,
        attention=base.attention,
    )
    return args, profile


def profile_for(argv: list[str]) -> Profile:
    """The sizes a run with these arguments uses."""
    return _parse(argv)[1]


def main(argv: list[str] | None = None) -> int:
    args, profile = _parse(argv)
    progress = Progress(quiet=args.no_progress)
    names = args.games or sorted(ENGINES)
    if args.replays:
        progress(f"replays of the seeded games: {', '.join(names)}")
        json.dump({"replays": bench_replays(names)}, sys.stdout, indent=2)
        print()
        return 0
    if args.renderers:
        progress(f"renderers in {args.lang!r}: {', '.join(names)}")
        drawn = {
            name: bench_renderer(name, profile.renders, args.seed, args.lang) for name in names
        }
        json.dump({"lang": args.lang, "renderers": drawn}, sys.stdout, indent=2)
        print()
        return 0
    progress(
        f"{'full' if args.full else 'quick'} run: {', '.join(names)}; "
        f"{profile.seconds:g} s playouts, {profile.renders} renders, "
        f"{profile.moves} moves at {', '.join(map(str, profile.counts))} live games"
    )
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "lang": args.lang,
        "engine_build": ENGINE_BUILD,
        "engines": {},
        "renderers": {},
        "interactions": {},
        "search": {},
        "service": {},
    }
    for name in names:
        progress(f"{name}: random playouts")
        report["engines"][name] = bench_engine(name, profile.seconds, args.seed)
        progress(f"{name}: rendering {profile.renders} states")
        report["renderers"][name] = bench_renderer(name, profile.renders, args.seed, args.lang)
        progress(f"{name}: search levels on {profile.searches} decisions")
        report["search"][name] = bench_search(name, profile.searches, args.seed)
        progress(f"{name}: interactions per decision over {profile.games} games")
        report["interactions"][name] = bench_interactions(name, profile.games, args.seed)
        service: dict[str, Any] = {}
        for count in profile.counts:
            progress(f"{name}: service moves with {plural(count, 'live game')}")
            service[str(count)] = asyncio.run(bench_service(name, count, profile.moves, args.seed))
        last = profile.counts[-1]
        games = plural(last, "live game")
        progress(f"{name}: service moves with {games}, images drawn in a thread")
        service[f"{last}_thread_render"] = asyncio.run(
            bench_service(name, last, profile.moves, args.seed, render_workers=0)
        )
        report["service"][name] = service
    if args.full:
        progress("replays of the seeded games")
        report["replays"] = bench_replays(names)
    attention = asyncio.run(bench_attention(profile.attention, args.games, progress))
    if attention:
        report["attention"] = attention
    if args.games is None:
        progress("scheduler: 10,000 games with timers")
        report["scheduler"] = asyncio.run(bench_timers(10_000, 1_000))
        from bot.tools.pairing_bench import bench_pairing

        progress("tournaments: pairing 1,000 players (Swiss, pods of 4)")
        report["pairing"] = bench_pairing(1_000)
    progress("done")
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
