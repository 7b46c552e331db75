"""The names of the automatic players' levels, and nothing else.

Table options (``bot.timekeeping``), the game service and the commands parse
and name levels; the players that play them (``bot.players``) are a search
and every game's rules of thumb.  Kept apart, with no imports of the
project's, so naming a level does not load the players (issue 32).
"""

from __future__ import annotations

from typing import Final, Literal

Level = Literal["easy", "medium", "hard"]
LEVELS: Final[tuple[Level, ...]] = ("easy", "medium", "hard")
DEFAULT_LEVEL: Final[Level] = "medium"


def parse_level(text: object) -> Level | None:
    """``easy``, ``medium`` or ``hard`` (any case); None for anything else."""
    word = str(text).strip().lower()
    for level in LEVELS:
        if word == level:
            return level
    return None
