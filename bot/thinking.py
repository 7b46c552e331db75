"""Automatic players think off the event loop.

A ``hard`` search takes about a second of one core, and pure Python holds
the GIL while it runs: in a thread it would starve every other game's moves
(see ``bot/rendering.py``, which met the same problem with drawing).  So
searches run in a worker *process*; the state, a small picklable value, goes
there with the engine's name, the seat, the level and a seed, and the chosen
action comes back.  ``workers=0`` thinks in a thread instead (tests, tiny
hosts).  The easy level (a rule of thumb) is cheap and runs inline.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from concurrent.futures import Executor
from typing import Any

from bot.engines import get_engine
from bot.engines.core import Seat
from bot.players import Level, player_for
from bot.pools import CLOSE_TIMEOUT, spawn_pool, stop_pool


def think(engine_name: str, state: Any, seat: Seat, level: Level, seed: int, scale: float) -> Any:
    """The action ``level``'s player chooses for ``seat``; runs in the pool."""
    engine = get_engine(engine_name)
    player = player_for(engine_name, level, scale=scale)
    return player.choose(engine, state, seat, random.Random(seed))


def _warm_up() -> None:
    import bot.engines
    import bot.players  # noqa: F401


class ThinkPool:
    """Where automatic players search (``CHAUPAL_THINK_WORKERS`` processes)."""

    def __init__(self, workers: int = 1, *, scale: float = 1.0) -> None:
        self.workers = workers
        self.scale = scale
        """Shrinks every search budget (tests; the code path is the same)."""
        self._executor: Executor | None = None
        self.thought: Counter[Level] = Counter()
        """Decisions made per level since the bot started (for logs and tests)."""

    def _pool(self) -> Executor | None:
        if self.workers <= 0:
            return None
        if self._executor is None:
            self._executor = spawn_pool(self.workers, _warm_up)
        return self._executor

    async def choose(
        self, engine_name: str, state: Any, seat: Seat, level: Level, seed: int
    ) -> Any:
        self.thought[level] += 1
        if level == "easy":
            return think(engine_name, state, seat, level, seed, self.scale)
        pool = self._pool()
        if pool is None:
            return await asyncio.to_thread(
                think, engine_name, state, seat, level, seed, self.scale
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            pool, think, engine_name, state, seat, level, seed, self.scale
        )

    def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            stop_pool(executor, timeout)
