"""Who moderates Chaupal in a server, read from an interaction: Manage
Server, Manage Messages, or the server's configured moderator role (a
setting read by :mod:`bot.server_settings`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.server_settings import server_settings
from storage.timekeeping import SettingsStore


def has_moderator_permissions(itx: discord.Interaction[Any]) -> bool:
    """Manage Server or Manage Messages in the channel."""
    perms = itx.permissions
    return bool(perms.manage_guild or perms.manage_messages)


def has_moderator_role(itx: discord.Interaction[Any], role_id: int | None) -> bool:
    """The caller holds the server's configured Chaupal moderator role."""
    if role_id is None or itx.guild_id is None:
        return False
    user = itx.user
    if not isinstance(user, discord.Member):
        return False
    return user.get_role(role_id) is not None


async def is_moderator(store: SettingsStore, itx: discord.Interaction[Any]) -> bool:
    """A Chaupal moderator here: Manage Server, Manage Messages, or the
    server's configured moderator role (``/moderate settings moderator_role``)."""
    if has_moderator_permissions(itx):
        return True
    if itx.guild_id is None:
        return False
    settings = await server_settings(store, itx.guild_id)
    return has_moderator_role(itx, settings.moderator_role)
