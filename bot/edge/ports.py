"""What the edge's parts find on the client, each capability named once.

The client (:class:`bot.edge.client.ChaupalBot`) builds the parts and hands
each one itself as an :class:`Edge`, but no part imports the client: the
shared capabilities (Discord's channels and DMs, the stores, the service,
the pools, the clock) are declared here once, and mypy checks the client
against :class:`Edge` where it hands itself over.  A part that uses another
feature (delivery, the takebacks) is handed that object itself, typed by its
class; a component's callback finds its feature on the client by name
(``Play.of(itx)``) and calls it directly.

Two capabilities are Protocols because their provider stands above their
user: the desk's :class:`Headings` (delivery, the seats and the lobby ask
them; the desk is built on delivery) and the board's :class:`Components`
(delivery draws them under its posts; their callbacks publish through
delivery).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.director import TournamentDirector
    from bot.edge.languages import Languages
    from bot.engines.core import Seat
    from bot.live import LiveGame
    from bot.rendering import RenderPool
    from bot.service import GameService
    from storage.followers import FollowerStore
    from storage.games import GameStore
    from storage.timekeeping import SettingsStore


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
    """What delivery, the seats and the lobby ask of the tournament desk: a
    tournament game's heading and its table message."""

    async def heading(self, game: LiveGame) -> str: ...

    async def table_message(self, game: LiveGame) -> tuple[int, int] | None: ...


class Components(Protocol):
    """What delivery puts under its posts: a board's buttons and menus, and
    a seat's private menu (``bot.edge.play.moves.BoardComponents``)."""

    def board_view(
        self, game: LiveGame, *, rematch: bool = True, lang: str = "en"
    ) -> discord.ui.View | None: ...

    def private_view(
        self, game: LiveGame, seat: Seat, *, lang: str = "en"
    ) -> discord.ui.View | None: ...


class Edge(Discord, Protocol):
    """What the edge's parts share on the client: Discord, the games' store
    and service, the followers, each server's settings, the render pool, the
    clock, this process's id, the tournaments, the desk's headings and the
    board's components."""

    @property
    def store(self) -> GameStore: ...
    @property
    def service(self) -> GameService: ...
    @property
    def followers(self) -> FollowerStore: ...
    @property
    def server_settings(self) -> SettingsStore: ...
    @property
    def renders(self) -> RenderPool: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def process(self) -> str: ...
    @property
    def tournaments(self) -> TournamentDirector: ...
    @property
    def desk(self) -> Headings: ...
    @property
    def components(self) -> Components: ...
    @property
    def languages(self) -> Languages: ...
