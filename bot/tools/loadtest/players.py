"""The simulated players and racers, and the SIGKILL and restart of one
worker mid-run: what the coordinator heard back (throughput, latency).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.tools.loadtest.processes import Worker
from bot.tools.loadtest.world import Deadline, Seeded, shard_of

RACE_SPREAD = 0.3
"""A racer's click lands within this many seconds either side of its aim
(:class:`Aim`)."""


@dataclass
class Ack:
    """A move the coordinator heard back about (throughput and latency
    only: the checks read what the workers journalled)."""

    game: int
    start: int
    end: int
    seat: int
    interaction: int = 0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    error_kinds: Counter[str] = field(default_factory=Counter)
    deadlines: list[Deadline] = field(default_factory=list)
    """Every deadline a racer saw (the seeded ones are in :class:`Seeded`)."""
    races: Counter[str] = field(default_factory=Counter)
    """How racers' clicks ended: played, or refused (and why)."""
    race_aim: float = 0.0
    """Where racers aimed at the end, in seconds after a deadline."""


def percentile(samples: Sequence[float], q: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


@dataclass
class Aim:
    """When racers click, after a deadline: ``offset`` seconds, give or take
    :data:`RACE_SPREAD`.  A timeout is written some time after its deadline
    (the scheduler wakes, claims, loads the game: a few milliseconds on an
    idle machine, seconds on a loaded one), and a click takes its own time
    to be dispatched and written, so a fixed aim would have the player win
    almost every race, or lose it.  The offset learns where the two meet
    as the run goes: earlier after a race the clock won, later after one
    the player won, by a step that grows while the races keep going the
    same way (to catch up with a loaded machine) and halves when they turn
    (to stay where they split), so about half go each way and the clicks
    keep landing while the timeout is being written."""

    offset: float = 0.3
    step: float = 0.1
    last: bool | None = None

    def landing(self, rng: random.Random) -> float:
        return self.offset + rng.uniform(-RACE_SPREAD, RACE_SPREAD)

    def learn(self, clock_won: bool) -> None:
        if self.last is not None:
            grown = self.step * 1.5 if clock_won == self.last else self.step / 2
            self.step = min(1.0, max(0.05, grown))
        self.last = clock_won
        self.offset += -self.step if clock_won else self.step
        self.offset = max(-RACE_SPREAD, self.offset)


async def drive(
    workers: list[Worker], seeded: Seeded, args: argparse.Namespace, processes: int
) -> Stats:
    """The players, the racers, and the SIGKILL and restart of one worker mid-run."""
    stats = Stats()
    aim = Aim()
    games = list(seeded.games)
    done: set[int] = set()
    end = time.monotonic() + args.seconds
    wall_end = time.time() + args.seconds

    def owner(guild: int) -> Worker:
        return workers[shard_of(guild, args.shard_count) % processes]

    async def click(worker: Worker, turn: Mapping[str, Any], path: Any, **where: Any) -> Any:
        return await worker.call(
            op="click",
            channel=turn["channel"],
            user=turn["user"],
            seat=turn["seat"],
            path=path,
            version=turn["version"],
            **where,
        )

    def count_error(answer: Mapping[str, Any]) -> None:
        stats.errors += 1
        stats.error_kinds[str(answer.get("error"))[:80]] += 1

    async def player(number: int) -> None:
        mine = random.Random(args.seed * 1000 + number)
        while time.monotonic() < end and len(done) < len(games):
            game_id, guild = games[mine.randrange(len(games))]
            if game_id in done:
                continue
            dm = mine.random() < 0.25
            worker = workers[0] if dm else owner(guild)
            turn = await worker.call(op="turn", game=game_id)
            if turn.get("over"):
                done.add(game_id)
                continue
            if "texts" not in turn or not turn["texts"]:
                await asyncio.sleep(0.05)
                continue
            path = mine.choice(turn["paths"])
            await asyncio.sleep(mine.random() * args.think)
            sent = time.monotonic()
            where = "dm" if dm else "channel"
            answer = await click(worker, turn, path, where=where, game=game_id, guild=guild)
            if answer.get("ok"):
                stats.latencies.append((time.monotonic() - sent) * 1000)
                stats.acks.append(
                    Ack(
                        game_id, answer["from"], answer["to"], answer["seat"], answer["interaction"]
                    )
                )
            elif "refused" in answer:
                stats.refused[answer["refused"]] += 1
            else:
                count_error(answer)
                await asyncio.sleep(0.2)

    async def racer(game_id: int, guild: int) -> None:
        """Plays one timed game, each move timed to land just before or
        just after the awaited seat's clock runs out."""
        mine = random.Random(args.seed * 7919 + game_id)
        while time.monotonic() < end:
            dm = mine.random() < 0.25
            worker = workers[0] if dm else owner(guild)
            turn = await worker.call(op="turn", game=game_id)
            if turn.get("over"):
                return
            deadline = turn.get("deadline")
            if not turn.get("texts") or deadline is None:
                # Chance, an automatic seat, or timers being set: look again.
                await asyncio.sleep(0.5)
                continue
            if deadline > wall_end:
                return  # its clock runs out after the run
            stats.deadlines.append(Deadline(game_id, turn["seat"], turn["version"], deadline))
            land = deadline + aim.landing(mine)
            await asyncio.sleep(max(0.0, land - time.time()))
            path = mine.choice(turn["paths"])
            where = "dm" if dm else "channel"
            answer = await click(worker, turn, path, where=where, game=game_id, guild=guild)
            if answer.get("ok"):
                stats.races["played"] += 1
                aim.learn(clock_won=False)
            elif "refused" in answer:
                # The timeout came first: the board moved on, the turn
                # passed, or the seat was forfeited.
                stats.races[f"refused: {answer['refused']}"[:60]] += 1
                aim.learn(clock_won=True)
            else:
                count_error(answer)
                await asyncio.sleep(0.2)

    async def killer() -> None:
        await asyncio.sleep(args.seconds * args.kill_at)
        victim = workers[-1]
        victim.kill()
        if victim.process is not None:
            await victim.process.wait()
        await victim.start()

    tasks = [asyncio.create_task(player(i)) for i in range(args.players)]
    tasks += [asyncio.create_task(racer(g, guild)) for g, guild in seeded.clocked]
    kill = asyncio.create_task(killer()) if args.kill_at > 0 else None
    await asyncio.gather(*tasks)
    if kill is not None:
        await kill
    stats.race_aim = aim.offset
    return stats
