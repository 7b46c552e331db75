"""The games Chaupal plays: the one line a new game is registered on.

A game called ``name`` (lowercase, words joined by ``_``) is found by its
modules' names, as Django finds an installed app:

- ``bot/engines/<name>.py`` defines ``<Title>Engine`` (``kauda_baji`` →
  ``KaudaBajiEngine``); its sibling modules ``bot/engines/<name>_*.py`` are
  compiled with it (all but ``<name>_views.py``, see
  :data:`bot.engines.compiled.COMPILED_GROUPS`);
- ``renderers/<name>.py`` defines ``<Title>Renderer``;
- ``bot/players/<name>.py`` may define ``<Title>Baseline`` (a game without one
  is played by the uniform random player until it has one);
- ``docs/rules/<name>.md`` holds its rules, which ``/help`` links.

The registries (:data:`bot.engines.ENGINES`, :data:`renderers.RENDERERS`,
:data:`bot.players.BASELINES`) are built from :data:`GAMES` in this order,
which is also the order ``/help`` and the command choices list them in.
This module imports nothing, so every layer may read it.
"""

from __future__ import annotations

from typing import Final

GAMES: Final[tuple[str, ...]] = ("mahabharata", "chaturaji", "sangram", "artaban", "kauda_baji")
"""Every game, by engine name."""


def class_name(game: str, kind: str) -> str:
    """The name of ``game``'s class of ``kind`` by the convention above:
    ``class_name("kauda_baji", "Renderer") == "KaudaBajiRenderer"``."""
    return "".join(word.title() for word in game.split("_")) + kind


def owner(module: str, games: tuple[str, ...] = GAMES) -> str | None:
    """The game a module of ``bot/engines`` (``kauda_baji_rules``) belongs
    to: the longest game name it is, or starts with followed by ``_``."""
    owners = [game for game in games if module == game or module.startswith(game + "_")]
    return max(owners, key=len, default=None)
