"""Whose language a text is in (issue 33), asked in one place.

- **What one player reads** (ephemeral replies, their menus, DMs, private
  images): their own choice (``/chaupal me language``), else the locale of
  the interaction they are answering (Discord's ``Interaction.locale``):
  :meth:`Languages.for_reader`.  With no interaction at hand (a turn DM, a
  reminder) it is their choice, else the locale they last used Chaupal in,
  else English: :meth:`Languages.for_member`.
- **What the channel reads** (boards, narration, lobbies, tournament posts):
  the server's language (``/moderate settings language``), else the server's
  own locale as Discord reports it (``guild_locale``), else the one last
  seen: :meth:`Languages.for_channel`.  A posted message is in one language.

The locales seen are kept in the players' and servers' settings (keys
``seen_locale``), written only when they change (English, the default, is
not written until another was), with a cache in front, so an interaction
costs no write.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

from bot.i18n import DEFAULT, is_supported, normalize
from storage.settings import JsonSettingsStore

__all__ = ["CHOSEN", "SEEN", "Languages"]

log = logging.getLogger(__name__)

CHOSEN: Final = "language"
"""The settings key of a language chosen (a player's, a server's)."""
SEEN: Final = "seen_locale"
"""The settings key of the language Discord last reported."""


def _chosen(settings: dict[str, Any]) -> str | None:
    value = settings.get(CHOSEN)
    return value if isinstance(value, str) and is_supported(value) else None


def _seen(settings: dict[str, Any]) -> str | None:
    value = settings.get(SEEN)
    return value if isinstance(value, str) and is_supported(value) else None


class Languages:
    """Reads (and remembers) which language each reader and each channel uses."""

    def __init__(self, players: JsonSettingsStore, servers: JsonSettingsStore, clock: Any) -> None:
        self.players = players
        self.servers = servers
        self.clock = clock
        self._player_seen: dict[int, str] = {}
        self._server_seen: dict[int, str] = {}

    # -- one reader -------------------------------------------------------------------

    async def for_reader(self, itx: discord.Interaction[Any]) -> str:
        """The language of what ``itx``'s user reads in answer to it."""
        chosen = _chosen(await self.players.get(itx.user.id))
        return chosen or normalize(itx.locale)

    async def for_member(self, user_id: int) -> str:
        """The language of a DM sent with no interaction to answer."""
        return (await self.for_members([user_id]))[int(user_id)]

    async def for_members(self, user_ids: Any) -> dict[int, str]:
        ids = {int(u) for u in user_ids}
        stored = await self.players.get_many(ids)
        out: dict[int, str] = {}
        for user in ids:
            settings = stored.get(user, {})
            out[user] = (
                _chosen(settings) or self._player_seen.get(user) or _seen(settings) or DEFAULT
            )
        return out

    # -- a channel --------------------------------------------------------------------

    async def for_channel(
        self, guild_id: int | None, itx: discord.Interaction[Any] | None = None
    ) -> str:
        """The language of what a server's channels read (a DM channel: the
        reader's)."""
        if guild_id is None:
            if itx is not None:
                return await self.for_reader(itx)
            return DEFAULT
        settings = await self.servers.get(guild_id)
        chosen = _chosen(settings)
        if chosen:
            return chosen
        if itx is not None and itx.guild_locale is not None:
            return normalize(itx.guild_locale)
        return self._server_seen.get(int(guild_id)) or _seen(settings) or DEFAULT

    # -- remembering ------------------------------------------------------------------

    async def seen(self, itx: discord.Interaction[Any]) -> None:
        """Remember the locales an interaction reports, when they changed
        (a listener on every interaction).  Never fails the interaction."""
        try:
            user_lang = normalize(itx.locale)
            if self._player_seen.get(itx.user.id) != user_lang:
                stored = _seen(await self.players.get(itx.user.id))
                if stored != user_lang and (stored is not None or user_lang != DEFAULT):
                    await self.players.set(itx.user.id, SEEN, user_lang, self.clock())
                self._player_seen[itx.user.id] = user_lang
            if itx.guild_id is not None and itx.guild_locale is not None:
                guild_lang = normalize(itx.guild_locale)
                if self._server_seen.get(itx.guild_id) != guild_lang:
                    stored = _seen(await self.servers.get(itx.guild_id))
                    if stored != guild_lang and (stored is not None or guild_lang != DEFAULT):
                        await self.servers.set(itx.guild_id, SEEN, guild_lang, self.clock())
                    self._server_seen[itx.guild_id] = guild_lang
        except Exception:
            log.warning("the locales of an interaction could not be remembered", exc_info=True)

    async def choose_for_player(self, user_id: int, code: str | None) -> None:
        """``/chaupal me language``: a code, or None for Discord's."""
        await self.players.set(user_id, CHOSEN, code, self.clock())

    async def choose_for_server(self, guild_id: int, code: str | None) -> None:
        """``/moderate settings language``: a code, or None for Discord's."""
        await self.servers.set(guild_id, CHOSEN, code, self.clock())
