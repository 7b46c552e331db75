"""Automatic players: who moves for a seat without a human at the controls.

The service asks one when a player times out, resigns, is kicked or forfeits
a seat in a game that goes on.  Each is pure (no I/O, no clock) and
deterministic given the ``random.Random`` passed in (see
:class:`AutomaticPlayer` in :mod:`bot.players.base`, which also says what a
player may look at: never another seat's secrets).

``player_for(engine_name)`` gives that game's baseline, a few simple rules
that beat uniform random play (``python -m bot.players.strength`` measures
by how much), or :class:`RandomPlayer` for a game without one.  A stronger
player can later replace a baseline behind the same interface.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from bot.engines.games import GAMES, class_name
from bot.levels import DEFAULT_LEVEL, LEVELS, Level, parse_level
from bot.players.base import AutomaticPlayer, RandomPlayer, legal_actions, pick_best
from bot.players.levels import player_at


def _baselines() -> dict[str, AutomaticPlayer]:
    """``<Title>Baseline()`` of ``bot.players.<game>`` for every game that
    has that module (the convention of :mod:`bot.engines.games`)."""
    found: dict[str, AutomaticPlayer] = {}
    for game in GAMES:
        if find_spec(f"{__name__}.{game}") is not None:
            module = import_module(f"{__name__}.{game}")
            found[game] = getattr(module, class_name(game, "Baseline"))()
    return found


BASELINES: dict[str, AutomaticPlayer] = _baselines()
"""Each registered engine's baseline, by engine name."""

_RANDOM = RandomPlayer()


def player_for(engine_name: str, level: Level = "easy", *, scale: float = 1.0) -> AutomaticPlayer:
    """That engine's automatic player at ``level``: the baseline (uniform
    random for an unknown engine) at ``easy``, search above it."""
    if level == "easy":
        return BASELINES.get(engine_name, _RANDOM)
    return player_at(engine_name, level, BASELINES, scale=scale)


__all__ = [
    "BASELINES",
    "DEFAULT_LEVEL",
    "LEVELS",
    "AutomaticPlayer",
    "Level",
    "RandomPlayer",
    "legal_actions",
    "parse_level",
    "pick_best",
    "player_for",
]
