"""One run and the whole command: the workers started on the seeded world,
the players driven, the run read back and checked, the report and table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.tools import loadtest
from bot.tools.loadtest.checks import (
    VIOLATIONS,
    Notes,
    check_boards,
    check_deadlines,
    check_journal_complete,
    check_moves,
    check_replays,
    check_tables,
)
from bot.tools.loadtest.end_state import read_back, read_journals, write_findings
from bot.tools.loadtest.journal import parse_journal
from bot.tools.loadtest.players import drive, percentile
from bot.tools.loadtest.processes import Worker, deadline_grace, settle
from bot.tools.loadtest.worker import worker_main
from bot.tools.loadtest.world import seed, set_deadlines


async def run_once(target: str, processes: int, args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix=f"chaupal-load-{processes}-"))
    sqlite = "://" not in target
    seed_start = time.monotonic()
    seeded = await seed(target, args)
    seeding = time.monotonic() - seed_start
    seeded_at = time.time()
    workers = []
    for i in range(processes):
        shards = [s for s in range(args.shard_count) if s % processes == i]
        command = [
            sys.executable, "-m", "bot.tools.loadtest", "worker",
            "--index", str(i), "--database", target, "--journal",
            str(folder / f"journal-{i}.jsonl"), "--lease", str(args.lease),
            "--job-limit", str(args.job_limit), "--retry-after", str(args.retry_after),
            "--timer-jitter", str(args.timer_jitter),
            "--shard-count", str(args.shard_count),
            "--render-workers", str(args.render_workers),
        ]  # fmt: skip
        if not sqlite:
            command += ["--shards", ",".join(map(str, shards))]
        workers.append(Worker(i, command))
    await asyncio.gather(*(w.start() for w in workers))
    # The timed games' first deadlines fall in the first half of the run,
    # which starts now that the workers are up; each game's chain of
    # deadlines follows them.
    await set_deadlines(target, seeded, time.time() + 2.0, max(1.0, args.seconds / 2), args.seed)
    await asyncio.gather(*(w.call(op="rearm") for w in workers))
    clock_start = time.monotonic()
    stats = await drive(workers, seeded, args, processes)
    elapsed = time.monotonic() - clock_start
    # Late deadlines fire, the killed worker's claims run out and are taken
    # over, deliveries settle: as long as the workers' settings allow.
    stop, waited = await settle(target, args.grace)
    await asyncio.gather(*(w.call(op="quiesce") for w in workers))
    for w in workers:
        await w.stop()
    end = await read_back(target)
    journal = read_journals(folder)
    journalled = parse_journal(journal)
    report: dict[str, Any] = {
        "database": "sqlite" if sqlite else "postgresql",
        "processes": processes,
        "games": args.games,
        "timed_games": len(seeded.clocked),
        "players": args.players,
        "seconds": round(elapsed, 1),
        "seeding_seconds": round(seeding, 1),
        "settle_seconds": round(waited, 1),
        "grace": round(args.grace, 1),
        "moves": len(stats.acks),
        "moves_per_s": round(len(stats.acks) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {f"p{q}": round(percentile(stats.latencies, q), 1) for q in (50, 95, 99)},
        "refused": dict(stats.refused),
        "races": dict(stats.races),
        "race_aim_s": round(stats.race_aim, 2),
        "errors": stats.errors,
        "error_kinds": dict(stats.error_kinds.most_common(5)),
        "killed": args.kill_at > 0,
    }
    notes: Notes = {}
    report.update(check_journal_complete(stats.acks, journalled, end.log, seeded_at, notes))
    report.update(check_moves(journalled, end.log, notes))
    replays, states = check_replays(end.games, notes)
    report.update(replays)
    report.update(check_tables(end.tables(states), notes))
    deadlines = [*seeded.deadlines, *stats.deadlines]
    report.update(
        check_deadlines(deadlines, end.log, end.timers, journalled, end.active, stop, notes=notes)
    )
    report.update(check_boards(journal))
    report["notes"] = notes
    report["journals"] = str(folder)
    write_findings(folder / "findings.json", notes, end)
    return report


async def main_async(args: argparse.Namespace) -> int:
    from bot.tools.pgserver import PostgresServer

    reports: list[dict[str, Any]] = []
    server: PostgresServer | None = None
    try:
        for processes in args.processes:
            if args.database:
                target = args.database
            else:
                if server is None:
                    server = await asyncio.to_thread(PostgresServer.start)
                name = await asyncio.to_thread(server.create_database)
                target = server.url(name)
            print(f"-- {processes} process(es) on PostgreSQL", file=sys.stderr, flush=True)
            reports.append(await run_once(target, processes, args))
            print(json.dumps(reports[-1]), file=sys.stderr, flush=True)
        if args.sqlite:
            folder = Path(tempfile.mkdtemp(prefix="chaupal-load-sqlite-"))
            print("-- 1 process on SQLite", file=sys.stderr, flush=True)
            reports.append(await run_once(str(folder / "load.sqlite3"), 1, args))
    finally:
        if server is not None:
            await asyncio.to_thread(server.stop)
    print(json.dumps({"runs": reports}, indent=2))
    print(table(reports))
    for r in reports:
        for count, lines in r["notes"].items():
            where = f"{r['database']} N={r['processes']}"
            print(f"{where} {count}: {'; '.join(lines)} (see {r['journals']}/findings.json)")
    bad = [r for r in reports if any(r[k] for k in VIOLATIONS)]
    return 1 if bad else 0


TABLE_COLUMNS = (
    ("blind", "acks_missing_from_journal"),
    ("unjour", "log_entries_unjournalled"),
    ("lost", "acked_not_in_log"),
    ("twice", "applied_twice"),
    ("contra", "replies_contradicting_log"),
    ("replay", "logs_not_replaying"),
    ("dl-due", "deadlines_due"),
    ("dl-clock", "deadlines_timed_out"),
    ("dl-met", "deadlines_met"),
    ("dl-twice", "deadlines_fired_twice"),
    ("too-soon", "timeouts_too_soon"),
    ("dl-never", "deadlines_never_fired"),
    ("late", "timers_overdue_pending"),
    ("held", "timers_overdue_claimed"),
    ("strand", "games_stranded"),
    ("unlog", "seats_left_unlogged"),
)


def table(reports: Sequence[Mapping[str, Any]]) -> str:
    head = "db          N  moves/s   p50 ms   p95 ms   p99 ms  moves  err"
    head += "".join(f" {name:>{max(len(name), 3)}}" for name, _ in TABLE_COLUMNS)
    head += "  boards-twice(raw)"
    lines = [head]
    for r in reports:
        lat = r["latency_ms"]
        line = (
            f"{r['database']:<10} {r['processes']:>2} {r['moves_per_s']:>8} {lat['p50']:>8} "
            f"{lat['p95']:>8} {lat['p99']:>8} {r['moves']:>6} {r['errors']:>4}"
        )
        line += "".join(f" {r[key]:>{max(len(name), 3)}}" for name, key in TABLE_COLUMNS)
        line += f"  {r['boards_posted_twice']:>6} ({r['boards_posted_twice_raw']})"
        lines.append(line)
    return "\n".join(lines)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.loadtest", description=loadtest.__doc__)
    parser.add_argument("role", nargs="?", default="coordinator", choices=["coordinator", "worker"])
    parser.add_argument(
        "--quick", action="store_true", help="500 games (a tenth timed), 20 players, 30 s"
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120.0, help="how long players play")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--sqlite", action="store_true", help="also one process on SQLite")
    parser.add_argument(
        "--database", default=None, help="postgresql://… (else a server is started) or sqlite:FILE"
    )
    parser.add_argument("--shard-count", type=int, default=4)
    parser.add_argument("--guilds", type=int, default=16)
    parser.add_argument("--user-pool", type=int, default=400)
    parser.add_argument(
        "--deadline-share", type=float, default=0.05, help="share of the games that are timed"
    )
    parser.add_argument(
        "--timed",
        default=None,
        help="the timed games' engine:policy, comma-separated (default: every engine, policy)",
    )
    parser.add_argument("--think", type=float, default=0.2, help="seconds a player waits at most")
    parser.add_argument("--kill-at", type=float, default=0.5, help="share of the run (0: no kill)")
    parser.add_argument(
        "--lease",
        type=float,
        default=None,
        help="seconds a claim lasts in the workers (default: a quarter of the run, at least 10)",
    )
    parser.add_argument(
        "--job-limit", type=float, default=None, help="the watchdog (default: 2/3 of the lease)"
    )
    parser.add_argument(
        "--retry-after",
        type=float,
        default=None,
        help="a stopped timer's retry (default: half the lease)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=None,
        help="most seconds to wait for late deadlines (default: from lease, watchdog, retry)",
    )
    parser.add_argument(
        "--timer-jitter",
        type=float,
        default=0.25,
        help="a worker waits up to this long before each game write of a timer's job",
    )
    parser.add_argument("--render-workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    # a worker's own
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--shards", default="")
    parser.add_argument("--journal", default="")
    args = parser.parse_args(argv)
    if args.quick:
        defaults = {"games": 500, "players": 20, "seconds": 30.0, "deadline_share": 0.1}
        given = set(argv or sys.argv[1:])
        for key, value in defaults.items():
            if f"--{key.replace('_', '-')}" not in given:
                setattr(args, key, value)
    if args.lease is None:
        # Short enough that a killed worker's claims are taken over within
        # the run; long enough that the watchdog (two thirds of it) does
        # not stop jobs that are only slow because two cores serve 100
        # players.
        args.lease = max(10.0, args.seconds / 4)
    if args.job_limit is None:
        # The watchdog stays shorter than the lease, as in production.
        args.job_limit = args.lease * 2 / 3
    if args.retry_after is None:
        # Production retries a stopped job a minute later (a third of its
        # lease); in a run of half a minute that was after the end.
        args.retry_after = args.lease / 2
    if args.grace is None:
        args.grace = deadline_grace(args.lease, args.job_limit, args.retry_after)
    if args.database and args.database.startswith("sqlite:"):
        args.database = args.database.removeprefix("sqlite:")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.role == "worker":
        asyncio.run(worker_main(args))
        return 0
    if args.database and "://" not in args.database and args.processes != [1]:
        print("A SQLite file is one process's: --processes 1 with sqlite:FILE.", file=sys.stderr)
        return 2
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
