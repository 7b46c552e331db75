"""The registry of game engines, built from :data:`bot.engines.games.GAMES`.

Adding a game means adding its name there (and its modules, named as that
module says); the service, storage, delivery and commands need nothing
game-specific.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any

from bot.engines.compiled import COMPILED_MODULES, compiled_engines, register_pickling

# The compiled engines, when built from today's sources, shadow the pure
# ones: their directory comes first on this package's path, so the imports
# below (and every other) find them.  See bot/engines/compiled.py.
_compiled_dir, ENGINE_BUILD = compiled_engines()
if _compiled_dir is not None:
    __path__.insert(0, str(_compiled_dir))

from bot.engines.core import Engine, GameError  # noqa: E402
from bot.engines.games import GAMES, class_name  # noqa: E402
from bot.engines.playouts import play_out  # noqa: E402


def _engine(game: str) -> Engine[Any, Any, Any]:
    """``game``'s engine: ``<Title>Engine()`` of ``bot.engines.<game>``."""
    engine: Engine[Any, Any, Any] = getattr(
        import_module(f"{__name__}.{game}"), class_name(game, "Engine")
    )()
    return engine


ENGINES: dict[str, Engine[Any, Any, Any]] = {game: _engine(game) for game in GAMES}

for _engine_module in (sys.modules[f"{__name__}.{name}"] for name in COMPILED_MODULES):
    register_pickling(_engine_module)


class UnknownGame(GameError):
    """No engine is registered under that name."""


def get_engine(name: str) -> Engine[Any, Any, Any]:
    try:
        return ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise UnknownGame(f"There is no game called {name!r}. Games: {known}.") from None


__all__ = ["ENGINES", "ENGINE_BUILD", "UnknownGame", "get_engine", "play_out"]
