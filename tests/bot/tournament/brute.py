"""Brute-force references for the pairing properties: every pairing or grouping of a small field."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence


def duel_pairings(players: Sequence[int]) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    """Every way to pair ``players``, with one bye when the count is odd."""
    if len(players) % 2 == 1:
        for index, bye in enumerate(players):
            rest = [*players[:index], *players[index + 1 :]]
            for pairs, _ in duel_pairings(rest):
                yield pairs, bye
        return
    if not players:
        yield [], None
        return
    first, rest = players[0], list(players[1:])
    for index, partner in enumerate(rest):
        remaining = rest[:index] + rest[index + 1 :]
        for pairs, _ in duel_pairings(remaining):
            yield [(first, partner), *pairs], None


def groupings(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (tables unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for companions in itertools.combinations(rest, size - 1):
            remaining = [player for player in rest if player not in companions]
            for tables in groupings(remaining, left):
                yield [(first, *companions), *tables]


def repeats(tables: Sequence[Sequence[int]], met: dict[int, set[int]]) -> int:
    """How many pairs at these tables already met."""
    return sum(
        b in met.get(a, set()) for table in tables for a, b in itertools.combinations(table, 2)
    )
