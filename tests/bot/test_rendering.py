"""The render pool draws the same PNG in a worker process as in a thread."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.rendering
from bot.engines import get_engine
from bot.engines.core import resolve_chance
from bot.rendering import RenderPool, RenderTimeout, render_png

#: Lets a hung render thread end when its test is over: a thread cannot be
#: killed, and the event loop's executor waits for it when the loop closes.
#: (A render process gets its own copy, never set: close() terminates it.)
_release = threading.Event()


def hung_render(
    engine_name: str, kind: str, view: Any, names: Sequence[str], lang: str = "en"
) -> bytes:
    """Stands in for render_png (in the worker too: it is pickled by name)."""
    _release.wait(3600)
    return b""


def hang(marker: str) -> None:
    """Runs in a render worker: says it started, then never returns."""
    Path(marker).write_text("started")
    time.sleep(3600)


async def test_process_and_thread_rendering_agree() -> None:
    engine = get_engine("mahabharata")
    state, _ = resolve_chance(engine, engine.setup(3, {}), random.Random(1).random)
    names = ["Asha", "Bhima", "Chitra"]
    expected = render_png("mahabharata", "board", engine.view(state, None), names)
    private = render_png("mahabharata", "private", engine.view(state, 1), names)
    assert expected.startswith(b"\x89PNG") and private != expected
    for workers in (0, 1):
        pool = RenderPool(workers)
        try:
            board = await pool.png("mahabharata", "board", engine.view(state, None), names)
            assert board == expected
            assert await pool.png("mahabharata", "private", engine.view(state, 1), names) == private
        finally:
            pool.close()


def test_close_terminates_a_hung_worker(tmp_path: Path) -> None:
    """``shutdown(wait=True)`` waited for ever on a hung worker, and so did the bot's exit."""
    pool = RenderPool(1)
    executor = pool._pool()
    assert executor is not None
    marker = tmp_path / "started"
    executor.submit(hang, str(marker))
    for _ in range(600):  # the worker process starts in well under a minute
        if marker.exists():
            break
        time.sleep(0.1)
    assert marker.exists(), "the render worker never started"
    workers = list(executor._processes.values())  # type: ignore[attr-defined]
    closer = threading.Thread(target=pool.close, kwargs={"timeout": 0.5}, daemon=True)
    closer.start()
    closer.join(60)  # a bound for this test only, far above close()'s own
    try:
        assert not closer.is_alive(), "RenderPool.close() hung on a busy worker"
        assert workers and not any(w.is_alive() for w in workers)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()


@pytest.mark.parametrize("workers", [0, 1])
async def test_a_hung_render_times_out_and_the_pool_recovers(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An image that never comes used to hold up its game's delivery for ever."""
    engine = get_engine("mahabharata")
    state, _ = resolve_chance(engine, engine.setup(2, {}), random.Random(1).random)
    view = engine.view(state, None)
    pool = RenderPool(workers, render_timeout=1.0)
    _release.clear()
    try:
        monkeypatch.setattr(bot.rendering, "render_png", hung_render)
        with pytest.raises(RenderTimeout):
            await pool.png("mahabharata", "board", view, ["A", "B"])
        monkeypatch.undo()
        pool.render_timeout = 120.0  # a fresh worker may take a while to start
        assert (await pool.png("mahabharata", "board", view, ["A", "B"])).startswith(b"\x89PNG")
    finally:
        _release.set()
        pool.close(timeout=1.0)


@dataclass(frozen=True)
class SomeRecord:
    """Just what the pool reads of a record before it sends it on."""

    engine: str = "mahabharata"
    game_id: int = 1


def slow_replay(record: Any, budget: int | None) -> Any:
    """Stands in for draw_replay in the replay worker (pickled by name):
    a replay that takes a long while."""
    time.sleep(3600)


async def test_a_board_is_drawn_while_a_long_replay_is_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With one render worker, a replay of seconds held up every board
    queued behind it: replays draw in a process of their own."""
    import asyncio

    engine = get_engine("mahabharata")
    state, _ = resolve_chance(engine, engine.setup(2, {}), random.Random(1).random)
    pool = RenderPool(1)
    monkeypatch.setattr(bot.rendering, "draw_replay", slow_replay)
    try:
        replaying = asyncio.ensure_future(pool._draw_replay(SomeRecord(), None))  # type: ignore[arg-type]
        await asyncio.sleep(0.5)  # the replay has the worker it was given
        board = await pool.png("mahabharata", "board", engine.view(state, None), ["A", "B"])
        assert board.startswith(b"\x89PNG")
        assert not replaying.done()
        replaying.cancel()
    finally:
        pool.close(timeout=0.5)
