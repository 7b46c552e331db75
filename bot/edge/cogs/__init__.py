"""Slash-command groups, one module each, and what they use of the bot.

The client loads them by name (:data:`bot.edge.client.EXTENSIONS`) and hands
each module's ``setup`` itself; the groups never import the client, only
:class:`CogHost`, which mypy checks the client against in
:mod:`bot.edge.client`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from discord.ext import commands

if TYPE_CHECKING:
    from bot.edge.archive import Archive
    from bot.edge.delivery import Delivery
    from bot.edge.desk import TournamentDesk
    from bot.edge.table import Table
    from bot.service import GameService
    from storage.games import GameStore
    from storage.timekeeping import SettingsStore


class CogHost(Protocol):
    """What the command groups use of the bot: the table, the desk and the
    archive they hand commands to, delivery (``/game board``), the service, the games'
    store (autocomplete, ratings), each server's settings and the clock;
    ``add_cog`` for ``setup``."""

    @property
    def table(self) -> Table: ...
    @property
    def desk(self) -> TournamentDesk: ...
    @property
    def archive(self) -> Archive: ...
    @property
    def delivery(self) -> Delivery: ...
    @property
    def service(self) -> GameService: ...
    @property
    def store(self) -> GameStore: ...
    @property
    def server_settings(self) -> SettingsStore: ...
    @property
    def clock(self) -> Callable[[], float]: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...
