"""The registry of game engines.

Adding a game means adding its module here; the service, storage, delivery and
commands need nothing game-specific.
"""

from __future__ import annotations

import sys
from typing import Any

from bot.engines.compiled import COMPILED_MODULES, compiled_engines, register_pickling

# The compiled engines, when built from today's sources, shadow the pure
# ones: their directory comes first on this package's path, so the imports
# below (and every other) find them.  See bot/engines/compiled.py.
_compiled_dir, ENGINE_BUILD = compiled_engines()
if _compiled_dir is not None:
    __path__.insert(0, str(_compiled_dir))

from bot.engines.artaban import ArtabanEngine  # noqa: E402
from bot.engines.chaturaji import ChaturajiEngine  # noqa: E402
from bot.engines.core import Engine, GameError  # noqa: E402
from bot.engines.kauda_baji import KaudaBajiEngine  # noqa: E402
from bot.engines.mahabharata import MahabharataEngine  # noqa: E402
from bot.engines.playouts import play_out  # noqa: E402
from bot.engines.sangram import SangramEngine  # noqa: E402

for _engine_module in (sys.modules[f"{__name__}.{name}"] for name in COMPILED_MODULES):
    register_pickling(_engine_module)

ENGINES: dict[str, Engine[Any, Any, Any]] = {
    engine.name: engine
    for engine in (
        MahabharataEngine(),
        ChaturajiEngine(),
        SangramEngine(),
        ArtabanEngine(),
        KaudaBajiEngine(),
    )
}


class UnknownGame(GameError):
    """No engine is registered under that name."""


def get_engine(name: str) -> Engine[Any, Any, Any]:
    try:
        return ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise UnknownGame(f"There is no game called {name!r}. Games: {known}.") from None


__all__ = ["ENGINES", "ENGINE_BUILD", "UnknownGame", "get_engine", "play_out"]
