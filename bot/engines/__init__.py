"""The registry of game engines.

Adding a game means adding its module here; the service, storage, delivery and
commands need nothing game-specific.
"""

from __future__ import annotations

from typing import Any

from bot.engines.artaban import ArtabanEngine
from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.core import Engine, GameError
from bot.engines.kauda_baji import KaudaBajiEngine
from bot.engines.mahabharata import MahabharataEngine
from bot.engines.sangram import SangramEngine

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


__all__ = ["ENGINES", "UnknownGame", "get_engine"]
