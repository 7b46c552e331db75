"""The world the run plays in: guilds over shards, the seeded games (a share
of them timed, under each timeout policy) and their first deadlines.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from bot.engines.games import GAMES

ENGINE_NAMES = GAMES
TIMEOUT_POLICIES = ("substitute", "skip", "forfeit")
USERS = 10_000
"""Players' user ids start here."""
CLOCK = "1m+1m"
"""The timed games' clock: a bank of a minute, a minute more after each
move (never past a minute).  A bank, so that each seat can be given a few
seconds for its first wait (:func:`set_deadlines`) and the game becomes a
chain of deadlines; after any move or timeout the seat has a minute again,
which :func:`check_deadlines` uses: a seat cannot time out twice sooner."""
CLOCK_AFTER_A_TIMEOUT = 60.0
"""What :data:`CLOCK` gives a seat after a move or a timeout (its increment,
capped by its bank)."""
FIRST_WAIT = (2.0, 6.0)
"""Seconds on the clock of each timed seat not yet awaited at the start."""
OVERDUE = 1.0
"""A timer due more than this long ago is overdue (the scheduler needs a
moment to wake and claim it)."""


@dataclass(frozen=True)
class Deadline:
    """A seat's clock running out at ``due``, set for the game's ``version``."""

    game: int
    seat: int
    version: int
    due: float


def guild_of(index: int) -> int:
    """Guild ids spread over the shards: (id >> 22) % shard_count = index % count."""
    return (index << 22) | 7


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


@dataclass
class Seeded:
    games: list[tuple[int, int]]
    """(game id, guild id) of the untimed games players play."""
    clocked: list[tuple[int, int]]
    """(game id, guild id) of the timed games the racers play."""
    deadlines: list[Deadline] = field(default_factory=list)
    """The timed games' first deadlines (:func:`set_deadlines`)."""


def timed_mix(given: str | None) -> list[tuple[str, str]]:
    """The timed games' (engine, timeout policy), in turn: every engine
    under every policy, or ``engine:policy,…`` (``--timed``; a name alone
    takes every policy) to race one kind of game harder."""
    if not given:
        return [(e, p) for p in TIMEOUT_POLICIES for e in ENGINE_NAMES]
    mix: list[tuple[str, str]] = []
    for item in given.split(","):
        name, _, policy = item.strip().partition(":")
        if name not in ENGINE_NAMES or (policy and policy not in TIMEOUT_POLICIES):
            raise ValueError(f"--timed: {item!r} is not engine[:policy]")
        mix += [(name, p) for p in ((policy,) if policy else TIMEOUT_POLICIES)]
    return mix


async def seed(target: str, args: argparse.Namespace) -> Seeded:
    """``--games`` live games through GameService (several at a time); a
    ``--deadline-share`` of them timed (:data:`CLOCK`), each engine under
    each timeout policy in turn (or the ``--timed`` ones)."""
    from bot.engines import get_engine
    from bot.service import GameService, Player
    from storage.games import GameStore
    from storage.opening import open_database

    rng = random.Random(args.seed)
    db = await open_database(target)
    service = GameService(GameStore(db), draw=rng.random, think_pad={})
    played: list[tuple[int, int]] = []
    clocked: list[tuple[int, int]] = []
    count = args.games
    clocked_count = max(1, int(count * args.deadline_share)) if count >= 5 else 0

    mix = timed_mix(args.timed)

    async def make(n: int) -> None:
        timed = n < clocked_count
        name, policy = mix[n % len(mix)] if timed else (ENGINE_NAMES[n % len(ENGINE_NAMES)], "")
        engine = get_engine(name)
        guild = guild_of(n % args.guilds)
        channel = guild + 1 + n % 3
        most = min(engine.max_players, 4)
        # Timed Chaturaji has four players: a forfeit there hands the seat
        # to the automatic player (with two, it ends the game).
        players = most if timed and name == "chaturaji" else rng.randint(engine.min_players, most)
        users = rng.sample(range(USERS, USERS + args.user_pool), players)
        options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
        if timed:
            # No reminders: with a few seconds on the clock, "auto" would
            # remind every wait a second in, which no table has, and their
            # jobs would crowd out the deadlines under test.
            options.update(clock=CLOCK, timeout=policy, substitute="easy", reminder="off")
        live = await service.new_game(
            name,
            creator=Player(users[0], f"u{users[0]}"),
            guild_id=guild,
            channel_id=channel,
            options=options,
        )
        for user in users[1:]:
            await service.join(live.id, Player(user, f"u{user}"))
        await service.start(live.id, users[0], moderator=False)
        (clocked if timed else played).append((live.id, guild))

    queue = list(range(count))

    async def seeder() -> None:
        while queue:
            await make(queue.pop())

    await asyncio.gather(*(seeder() for _ in range(8)))
    await db.close()
    return Seeded(sorted(played), sorted(clocked))


async def set_deadlines(target: str, seeded: Seeded, start: float, span: float, seed: int) -> None:
    """The timed games' first deadlines fall at times spread over
    ``[start, start + span]`` (their clock timers, and the running clocks'
    time left, set to match), and every seat not yet awaited gets
    :data:`FIRST_WAIT` seconds on its bank: each game is a chain of
    deadlines in the run.  Run while the workers are up, who are then told
    to look at their timers again (the ``rearm`` request)."""
    from storage.opening import open_database

    rng = random.Random(seed)
    db = await open_database(target)
    async with db.transaction() as conn:
        for game_id, _guild in seeded.clocked:
            due = start + rng.random() * span
            (version,) = [
                int(r[0])
                for r in await conn.execute_fetchall(
                    "SELECT version FROM games WHERE id = ?", (game_id,)
                )
            ]
            rows = await conn.execute_fetchall(
                "SELECT seat FROM timers WHERE game_id = ? AND kind = 'clock' AND version = ?",
                (game_id, version),
            )
            awaited = [int(r[0]) for r in rows]
            for seat in awaited:
                # A private decision's clock does not run (its deadline is
                # its timer's alone): only a running clock is moved.
                await conn.execute(
                    "UPDATE seats SET clock_left = ? - clock_since "
                    "WHERE game_id = ? AND seat = ? AND clock_since IS NOT NULL",
                    (due, game_id, seat),
                )
                seeded.deadlines.append(Deadline(game_id, seat, version, due))
            seats = await conn.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND clock_since IS NULL", (game_id,)
            )
            for row in seats:
                if int(row[0]) not in awaited:
                    await conn.execute(
                        "UPDATE seats SET clock_left = ? WHERE game_id = ? AND seat = ?",
                        (rng.uniform(*FIRST_WAIT), game_id, int(row[0])),
                    )
            await conn.execute(
                "UPDATE timers SET due = ? WHERE game_id = ? AND kind = 'clock'", (due, game_id)
            )
            await conn.execute(
                "UPDATE timers SET due = ? WHERE game_id = ? AND kind = 'remind'",
                (due + 3600.0, game_id),
            )
    await db.close()
