"""Worker process pools: how the render and think pools start and stop.

Both :class:`bot.rendering.RenderPool` (Pillow) and
:class:`bot.thinking.ThinkPool` (the automatic players' searches) run their
work in worker processes, started and stopped the same way.  That shared
part lives here, apart from either, so that the game service, which thinks
but never draws, does not import Pillow and the renderers with it (issue 32).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor

log = logging.getLogger(__name__)

#: How long a pool's ``close`` lets running work finish (a render or a
#: search takes well under a second) before it terminates the workers.
CLOSE_TIMEOUT = 10.0


def spawn_pool(workers: int, warm_up: Callable[[], None]) -> Executor:
    """A pool of ``workers`` processes, each running ``warm_up`` first (the
    imports its work needs, so the first job does not pay for them)."""
    # spawn, not fork: the parent already runs threads (aiosqlite).
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=warm_up,
    )


def stop_pool(executor: Executor, timeout: float) -> None:
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
            log.warning("pool worker %s did not stop; terminating it", process.pid)
            process.terminate()
            process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join(2.0)
    # The executor's manager thread ends once its workers have.
    if isinstance(manager, threading.Thread):
        manager.join(max(0.0, deadline - time.monotonic()) + 2.0)
