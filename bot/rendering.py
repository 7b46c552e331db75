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
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from bot.replay import GameRecord

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


REPLAY_TIMEOUT = 300.0
"""A replay draws every frame of a game: the longest Kauda Baji game takes
seconds (tens when the budget makes it try again), never minutes."""

T = TypeVar("T")


def render_replay(record: GameRecord, budget: int | None = None) -> bytes:
    """A game's animated replay (GIF bytes) from its *complete* record; runs in
    the pool.  The frames are the public views only (:mod:`bot.replay`)."""
    from bot.replay import frames
    from renderers.replay import BUDGET, encode_replay

    encoded = encode_replay(
        get_renderer(record.engine),
        frames(record),
        record.names,
        budget=BUDGET if budget is None else budget,
    )
    return encoded.data


class ReplayCache:
    """The replays drawn last, newest kept, bounded by count and by bytes.

    One per :class:`RenderPool`, so per process (like the pools: a second
    process draws a replay once more).  Keyed by ``(game id, version)``: a
    game that moved on is a new key, and a finished game's replay never
    changes, so nothing needs invalidating; the oldest fall out."""

    def __init__(self, max_entries: int = 8, max_bytes: int = 64_000_000) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self.bytes = 0

    def get(self, key: Hashable) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= len(old)
        self._items[key] = data
        self.bytes += len(data)
        while len(self._items) > self.max_entries or self.bytes > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


def _warm_up() -> None:
    # Import the engines' view types and load fonts once per worker.
    import bot.engines  # noqa: F401


class RenderTimeout(TimeoutError):
    """An image took longer than :attr:`RenderPool.render_timeout` to draw."""


class RenderPool:
    def __init__(
        self,
        workers: int = 1,
        *,
        render_timeout: float = RENDER_TIMEOUT,
        replay_timeout: float = REPLAY_TIMEOUT,
        replay_cache: ReplayCache | None = None,
    ) -> None:
        self.workers = workers
        self.render_timeout = render_timeout
        self.replay_timeout = replay_timeout
        self.replays = replay_cache if replay_cache is not None else ReplayCache()
        self._executor: Executor | None = None
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

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
        return await self._run(
            render_png,
            (engine_name, kind, view, list(names)),
            self.render_timeout,
            f"a {engine_name} {kind} image",
        )

    async def replay(
        self, record: GameRecord, *, key: Hashable | None = None, budget: int | None = None
    ) -> bytes:
        """A game's animated replay (GIF bytes, under 8 MB) drawn in the pool,
        with its own longer time limit (:data:`REPLAY_TIMEOUT`).

        ``record`` is the game's *complete* record (:func:`bot.replay.load_record`):
        the worker needs every action to rebuild the states, and draws only
        public views.  ``key`` (default ``(game id, number of log entries)``)
        finds it in :attr:`replays`, this process's cache, so a second request
        is served without drawing; two requests at once draw it once."""
        if key is None and record.game_id is not None:
            key = (record.game_id, len(record.actions))
        if key is None:
            return await self._draw_replay(record, budget)
        cached = self.replays.get(key)
        if cached is not None:
            return cached
        drawing = self._drawing.get(key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            data = await self._draw_replay(record, budget)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._drawing.pop(key, None)
        self.replays.put(key, data)
        future.set_result(data)
        return data

    async def _draw_replay(self, record: GameRecord, budget: int | None) -> bytes:
        # Looked up at call time, so a test can count the renders.
        return await self._run(
            render_replay,
            (record, budget),
            self.replay_timeout,
            f"the replay of {record.engine} #{record.game_id}",
        )

    async def _run(
        self, work_fn: Callable[..., T], args: tuple[Any, ...], timeout: float, what: str
    ) -> T:
        pool = self._pool()
        work: Awaitable[T]
        if pool is None:
            work = asyncio.to_thread(work_fn, *args)
        else:
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(pool, work_fn, *args)
        try:
            return await asyncio.wait_for(work, timeout)
        except TimeoutError:
            log.error(
                "%s took over %g s to draw; %s",
                what,
                timeout,
                "restarting the render workers" if pool is not None else "giving up on it",
            )
            if pool is not None and pool is self._executor:
                # The next image starts a fresh pool; this one's hung worker is terminated.
                self._executor = None
                await asyncio.to_thread(_stop, pool, 0.0)
            raise RenderTimeout(f"drawing {what} took too long") from None

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
