"""Artaban's set-up arithmetic (R7): the ways to give eight dice top
values summing to 28, and chance's odds when the set-up is dealt.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Final

from bot.engines.artaban_board import NUM_FILES, SETUP_SUM
from bot.engines.artaban_moves import (
    _RANDOM,
    _RESET,
    _SET_ACTS,
    ArtabanAction,
    DealLeader,
    DealValue,
)
from bot.engines.core import (
    Seat,
)

# --------------------------------------------------------------------------
# Set-up arithmetic (R7)
# --------------------------------------------------------------------------


@cache
def arrangements(files: int, total: int) -> int:
    """How many ways ``files`` top values (1-6 each) can sum to ``total``."""
    if files == 0:
        return 1 if total == 0 else 0
    return sum(arrangements(files - 1, total - v) for v in range(1, 7) if v <= total)


def value_odds(done: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """The values the next file may take after ``done`` (so 28 stays
    reachable), each with the probability that makes a random arrangement
    uniform over all legal ones."""
    return _odds_after(len(done), sum(done))


@cache
def _odds_after(files: int, total: int) -> tuple[tuple[int, Fraction], ...]:
    """:func:`value_odds` after ``files`` files summing to ``total``: all it
    depends on, so a few hundred tables serve every set-up, and chance
    sampling (``sample_chance``, which keeps its tables for the very
    probability objects it is given) finds them again."""
    left = NUM_FILES - files - 1
    rest = SETUP_SUM - total
    ways = arrangements(left + 1, rest)
    if left < 0 or ways == 0:
        return ()
    return tuple(
        (v, Fraction(arrangements(left, rest - v), ways))
        for v in range(1, 7)
        if arrangements(left, rest - v)
    )


@cache
def _allowed_after(files: int, total: int) -> frozenset[int]:
    """The values of :func:`_odds_after`."""
    return frozenset(v for v, _ in _odds_after(files, total))


_LEADER_ODDS: Final = Fraction(1, NUM_FILES)


@cache
def _value_step(files: int, total: int) -> tuple[ArtabanAction, ...]:
    """R7: a player's set-up choices with ``files`` values set, summing to
    ``total``: the next file's values, then ``setup random`` (and ``setup
    reset`` once something is set)."""
    row = _SET_ACTS[files]
    reset = (_RESET,) if files else ()
    return (*(row[v] for v, _ in _odds_after(files, total)), _RANDOM, *reset)


@cache
def _deal_odds(seat: Seat, files: int, total: int) -> tuple[tuple[ArtabanAction, Fraction], ...]:
    """Chance's outcomes for the next step of ``seat``'s random set-up, with
    ``files`` values dealt so far, summing to ``total``."""
    if files < NUM_FILES:
        return tuple((DealValue(seat, files, v), p) for v, p in _odds_after(files, total))
    return tuple((DealLeader(seat, f), _LEADER_ODDS) for f in range(NUM_FILES))


@cache
def _value_steps(files: int, total: int) -> tuple[tuple[float, int], ...]:
    """The values the first of ``files`` files may take so that the rest can
    still make ``total``, each after the running share of arrangements up to
    it: the float twin of :func:`value_odds`, for :func:`_deal_values`."""
    ways = arrangements(files, total)
    steps: list[tuple[float, int]] = []
    running = 0
    for v in range(1, 7):
        completions = arrangements(files - 1, total - v) if v <= total else 0
        if completions:
            running += completions
            steps.append((running / ways, v))
    return tuple(steps)


def _deal_values(draw: Callable[[], float]) -> tuple[int, ...]:
    """R7: eight top values summing to 28, every legal arrangement equally
    likely (file by file, as chance deals ``setup random``), one draw a file."""
    values: list[int] = []
    total = SETUP_SUM
    for files in range(NUM_FILES, 0, -1):
        u = draw()
        steps = _value_steps(files, total)
        value = steps[-1][1]
        for share, v in steps:
            if u < share:
                value = v
                break
        values.append(value)
        total -= value
    return tuple(values)


def _values_ok(values: tuple[int, ...]) -> bool:
    return (
        len(values) == NUM_FILES and all(1 <= v <= 6 for v in values) and sum(values) == SETUP_SUM
    )
