"""Rendering off the event loop.

Pillow drawing holds the GIL, so render threads starve the event loop (each
aiosqlite round trip waits for the GIL behind them): under load a 1 ms move
took 35-70 ms.  A render *process* keeps the loop free; views are small
picklable values and PNGs come back as bytes.  ``workers=0`` renders in a
thread instead (tests, tiny hosts).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from renderers import get_renderer
from renderers.common import to_png


def render_png(engine_name: str, kind: str, view: Any, names: Sequence[str]) -> bytes:
    """Draw and encode one image; runs in the pool."""
    renderer = get_renderer(engine_name)
    draw = renderer.board if kind == "board" else renderer.private
    return to_png(draw(view, names=list(names)))


def _warm_up() -> None:
    # Import the engines' view types and load fonts once per worker.
    import bot.engines  # noqa: F401


class RenderPool:
    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor | None:
        if self.workers <= 0:
            return None
        if self._executor is None:
            # spawn, not fork: the parent already runs threads (aiosqlite).
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up,
            )
        return self._executor

    async def png(self, engine_name: str, kind: str, view: Any, names: Sequence[str]) -> bytes:
        pool = self._pool()
        if pool is None:
            return await asyncio.to_thread(render_png, engine_name, kind, view, list(names))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, render_png, engine_name, kind, view, list(names))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
