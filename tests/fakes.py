"""Small stand-ins the tests share: a clock that moves only when told, and
a seeded source of chance for the service's ``draw``."""

from __future__ import annotations

import random

from bot.thinking import ThinkPool


class FakeClock:
    """Time that moves only when a test moves it (``clock.now += seconds``)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Seeded:
    """A ``draw`` for the service: uniform floats from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


def quick_thinking() -> ThinkPool:
    """The automatic players' searches as tests run them: a twentieth of each
    level's iterations, in a thread (the same code path, quicker)."""
    return ThinkPool(0, scale=0.05)
