"""Rendering off the event loop.

Pillow drawing holds the GIL, so render threads starve the event loop (each
aiosqlite round trip waits for the GIL behind them): under load a 1 ms move
took 35-70 ms.  A render *process* keeps the loop free; views are small
picklable values and PNGs come back as bytes.  ``workers=0`` renders in a
thread instead (tests, tiny hosts).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
import time
from collections.abc import Awaitable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from renderers import get_renderer
from renderers.common import to_png

log = logging.getLogger(__name__)

#: How long :meth:`RenderPool.close` lets running renders finish (one takes
#: well under a second) before it terminates the workers.
CLOSE_TIMEOUT = 10.0

#: How long one image may take, queueing included, before it is given up:
#: far above a busy pool's worst case, far below "for ever".
RENDER_TIMEOUT = 60.0


def render_png(engine_name: str, kind: str, view: Any, names: Sequence[str]) -> bytes:
    """Draw and encode one image; runs in the pool."""
    renderer = get_renderer(engine_name)
    draw = renderer.board if kind == "board" else renderer.private
    return to_png(draw(view, names=list(names)))


def _warm_up() -> None:
    # Import the engines' view types and load fonts once per worker.
    import bot.engines  # noqa: F401


class RenderTimeout(TimeoutError):
    """An image took longer than :attr:`RenderPool.render_timeout` to draw."""


class RenderPool:
    def __init__(self, workers: int = 1, *, render_timeout: float = RENDER_TIMEOUT) -> None:
        self.workers = workers
        self.render_timeout = render_timeout
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
        """Draw one image off the event loop; :class:`RenderTimeout` if it hangs.

        A hung worker would otherwise hold up its game's delivery for ever
        (and every image queued behind it); its processes are replaced.
        """
        pool = self._pool()
        work: Awaitable[bytes]
        if pool is None:
            work = asyncio.to_thread(render_png, engine_name, kind, view, list(names))
        else:
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(pool, render_png, engine_name, kind, view, list(names))
        try:
            return await asyncio.wait_for(work, self.render_timeout)
        except TimeoutError:
            log.error(
                "a %s %s image took over %g s to draw; %s",
                engine_name,
                kind,
                self.render_timeout,
                "restarting the render workers" if pool is not None else "giving up on it",
            )
            if pool is not None and pool is self._executor:
                # The next image starts a fresh pool; this one's hung worker is terminated.
                self._executor = None
                await asyncio.to_thread(_stop, pool, 0.0)
            raise RenderTimeout(f"drawing the {kind} image took too long") from None

    def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Stop the workers: queued renders are cancelled, running ones get *timeout*
        seconds, then a worker still busy (hung) is terminated.

        ``shutdown(wait=True)`` alone would wait for ever on a hung worker,
        and so would the bot's exit (and a test run).
        """
        executor, self._executor = self._executor, None
        if executor is not None:
            _stop(executor, timeout)


def _stop(executor: Executor, timeout: float) -> None:
    """Shut *executor* down within about *timeout* seconds, terminating hung workers."""
    # Read before shutdown(), which drops them.  Private attributes, so read
    # defensively: without them this is a plain shutdown that does not wait.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            log.warning("render worker %s did not stop; terminating it", process.pid)
            process.terminate()
            process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join(2.0)
    # The executor's manager thread ends once its workers have.
    if isinstance(manager, threading.Thread):
        manager.join(max(0.0, deadline - time.monotonic()) + 2.0)
