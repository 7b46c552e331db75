"""What the edge's parts ask of each other, as narrow interfaces.

The client (:class:`bot.edge.client.ChaupalBot`) builds the parts and hands
each one itself, but the parts never import the client: each names only
what it uses (``DeliveryHost`` in :mod:`bot.edge.delivery`, ``TableHost``,
``DeskHost``, ``KeeperHost``, ``Clicks`` in :mod:`bot.edge.ui.items`), and
mypy checks the client against each where it hands itself over.  This
module holds the two interfaces several parts share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.live import LiveGame


class Discord(Protocol):
    """What the edge asks of discord.py's client: channels to post in and
    DMs to open (no gateway, no cache beyond a channel lookup)."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


class Headings(Protocol):
    """What delivery and the table ask of the tournament desk: a tournament
    game's heading and its table message (the desk is built on both)."""

    async def heading(self, game: LiveGame) -> str: ...

    async def table_message(self, game: LiveGame) -> tuple[int, int] | None: ...
