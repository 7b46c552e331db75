"""What every select of the edge shares: how one is built (never empty, one
pick) and how its pick is read (a value that is not a number reads as -1,
which every handler refuses as stale or out of range)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord


def select(
    custom_id: str, options: Sequence[discord.SelectOption], placeholder: str
) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150] or "Choose…",
        options=list(options) or [discord.SelectOption(label="…", value="0")],
        min_values=1,
        max_values=1,
    )


def picked(select: discord.ui.Select[Any]) -> int:
    try:
        return int(select.values[0])
    except (IndexError, ValueError):
        return -1  # refused as stale by the service
