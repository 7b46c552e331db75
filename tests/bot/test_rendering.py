"""The render pool draws the same PNG in a worker process as in a thread."""

from __future__ import annotations

import random

from bot.engines import get_engine
from bot.engines.core import resolve_chance
from bot.rendering import RenderPool, render_png


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
