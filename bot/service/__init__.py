"""The game service: the only writer of game state (see
:mod:`bot.service.game_service` for how its parts fit together).

Importers use this package's names; which module of the package holds each
is its own business (issue 32 split one module of 2,500 lines into parts).
"""

from __future__ import annotations

from bot.engines.core import CHANCE
from bot.live import (
    GameBroken,
    GameLock,
    LiveGame,
    MoveResult,
    PathResult,
    Player,
    Reminder,
    ServiceError,
    StaleBoard,
    TakebackRequest,
    TimeoutKind,
)
from bot.service.common import (
    AUTO_DELAY,
    AUTO_MOVES_LIMIT,
    AUTOMATIC_PLAYER,
    FORFEIT_EVENT,
    HELD_CHANCE,
    SOLO_AUTO_DELAY,
    TABLE_EVENT,
    THINK_LEASE,
    THINK_PAD,
    automatic_player_name,
    check_automatic_players,
    menu_words_of,
    ranked_with_departures,
    secrets_of,
)
from bot.service.game_service import GameService

__all__ = [
    "AUTOMATIC_PLAYER",
    "AUTO_DELAY",
    "AUTO_MOVES_LIMIT",
    "CHANCE",
    "FORFEIT_EVENT",
    "HELD_CHANCE",
    "SOLO_AUTO_DELAY",
    "TABLE_EVENT",
    "THINK_LEASE",
    "THINK_PAD",
    "GameBroken",
    "GameLock",
    "GameService",
    "LiveGame",
    "MoveResult",
    "PathResult",
    "Player",
    "Reminder",
    "ServiceError",
    "StaleBoard",
    "TakebackRequest",
    "TimeoutKind",
    "automatic_player_name",
    "check_automatic_players",
    "menu_words_of",
    "ranked_with_departures",
    "secrets_of",
]
