"""The bot: a ``commands.AutoShardedBot`` whose ``setup_hook`` opens storage,
builds the service and loads the cogs and restart-proof buttons.

Sharded (issue 20) so that several processes can share one bot: each runs
the shards it is given (``CHAUPAL_SHARDS``), all on one PostgreSQL
database.  Interactions do not respect shards (every DM arrives on shard
0), so any process serves any game: the version check guards every move,
and the work nobody asked for (timers, deliveries left behind) is claimed
in the database (:mod:`bot.claims`)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.claims import STRANDED_SWEEP_EVERY, process_id
from bot.config import Settings
from bot.director import TournamentDirector
from bot.edge.archive import follows as follows_items
from bot.edge.archive import history as history_items
from bot.edge.archive import replays as replays_items
from bot.edge.archive.follows import Follows
from bot.edge.archive.history import History
from bot.edge.archive.log import GameLog
from bot.edge.archive.ratings import RatingsCog
from bot.edge.archive.replays import Replays
from bot.edge.delivery.delivery import Delivery
from bot.edge.delivery.keeper import Keeper
from bot.edge.help.cog import HelpCog
from bot.edge.languages import Languages
from bot.edge.lobby import lobby as lobby_items
from bot.edge.lobby.lobby import Lobby
from bot.edge.moderate.cog import ModerateCog
from bot.edge.play import games as games_items
from bot.edge.play import moves as moves_items
from bot.edge.play.cog import GameCog
from bot.edge.play.games import MyGames
from bot.edge.play.moves import BoardComponents, Play
from bot.edge.ports import Edge
from bot.edge.refusals import SOMETHING_WENT_WRONG, reader_language
from bot.edge.replies import reply
from bot.edge.seats import seats as seats_items
from bot.edge.seats import takebacks as takebacks_items
from bot.edge.seats.seats import Seats
from bot.edge.seats.takebacks import Takebacks
from bot.edge.settings.cog import ChaupalCog
from bot.edge.tournament import entries as entries_items
from bot.edge.tournament.cog import TournamentCog
from bot.edge.tournament.desk import TournamentDesk
from bot.edge.translator import CatalogTranslator
from bot.engines import ENGINES
from bot.engines.core import excerpt
from bot.i18n import DEFAULT, N_, t
from bot.rendering import RenderPool
from bot.scheduler import Scheduler
from bot.service import GameService, LiveGame
from bot.takeback import THROW_GRACE
from bot.thinking import ThinkPool
from storage.database import Database
from storage.followers import FollowerStore
from storage.games import GameStore
from storage.opening import open_database
from storage.ratings import RatingStore
from storage.timekeeping import SettingsStore
from storage.tournaments import TournamentStore

log = logging.getLogger(__name__)

TOURNAMENT_GRACE = 5.0
"""Seconds a closing bot gives tournament passes still running."""

ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    *lobby_items.ITEMS,
    *moves_items.ITEMS,
    *games_items.ITEMS,
    *seats_items.ITEMS,
    *takebacks_items.ITEMS,
    *history_items.ITEMS,
    *replays_items.ITEMS,
    *follows_items.ITEMS,
    *entries_items.ITEMS,
)
"""Every feature's restart-proof components, each feature's ``ITEMS``
written next to its items and its handlers: registered once at start-up."""


# Chaupal never joins voice: skip discord.py's warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


OPTION_KINDS: dict[discord.AppCommandOptionType, str] = {
    discord.AppCommandOptionType.channel: N_(
        "That channel is not one I can use here: pick one from this server."
    ),
    discord.AppCommandOptionType.user: N_(
        "That member is not one I can use here: pick one from this server."
    ),
    discord.AppCommandOptionType.role: N_(
        "That role is not one I can use here: pick one from this server."
    ),
    discord.AppCommandOptionType.mentionable: N_(
        "That member or role is not one I can use here: pick one from this server."
    ),
    discord.AppCommandOptionType.attachment: N_(
        "That attachment is not one I can use here: pick one from this server."
    ),
}
"""Options whose value is a Discord object: named by kind, never quoted."""

REFUSALS = (
    app_commands.TransformerError,
    app_commands.CheckFailure,
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
)
"""Failures that are the input's or the caller's, not a bug (logged without
a traceback)."""


def failure_sentence(error: app_commands.AppCommandError, lang: str = DEFAULT) -> str:
    """What a player reads when a command fails before (or outside) its own
    refusals: short, and never the exception's text, which may quote stored
    state; what the player typed is quoted only through :func:`excerpt`."""
    if isinstance(error, app_commands.TransformerError):
        kind = OPTION_KINDS.get(error.type)
        if kind is not None:
            return t(lang, kind)
        return t(
            lang,
            "{typed} is not one of this command's choices: pick one from the list Discord offers.",
            typed=excerpt(error.value),
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "This command works in a server, not in direct messages.")
    if isinstance(error, app_commands.BotMissingPermissions):
        missing = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return t(lang, "I need a permission I don't have here: {missing}.", missing=missing)
    if isinstance(
        error,
        app_commands.MissingPermissions | app_commands.MissingRole | app_commands.MissingAnyRole,
    ):
        return t(lang, "You don't have the permission this command needs here.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return t(
            lang,
            "Not so fast: try again in {seconds} s.",
            seconds=max(1, round(error.retry_after)),
        )
    if isinstance(error, app_commands.CheckFailure):
        return t(lang, "You can't use this command here.")
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t(
            lang,
            "Discord showed you an older form of this command; it is being updated. "
            "Try again in a minute.",
        )
    return t(lang, SOMETHING_WENT_WRONG)


class ChaupalTree(app_commands.CommandTree["ChaupalBot"]):
    """The bot's command tree: every failed command is answered.

    discord.py calls :meth:`on_error` when a value cannot be converted (a
    choice the command does not offer, a channel of another server), a check
    fails, or a command raises.  Without an answer the player would see only
    "This interaction failed"."""

    async def on_error(
        self, interaction: discord.Interaction[ChaupalBot], error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command
        name = command.qualified_name if command is not None else "?"
        user = interaction.user.id
        if not isinstance(error, REFUSALS):
            # A bug: its traceback is for the operator.
            cause = getattr(error, "original", error)
            log.error("/%s by %d failed: %s", name, user, type(cause).__name__, exc_info=cause)
        else:
            # A value or a check refused: the kind of failure, never the value.
            log.info("/%s by %d refused: %s", name, user, type(error).__name__)
        if interaction.type is discord.InteractionType.autocomplete:
            return  # suggestions cannot carry a message
        lang = await reader_language(interaction)
        try:
            await reply(interaction, failure_sentence(error, lang))
        except discord.HTTPException as exc:
            log.warning("/%s: the failure could not be answered (%s)", name, exc.status)


class ChaupalBot(commands.AutoShardedBot):
    db: Database
    store: GameStore
    followers: FollowerStore
    """Who follows which game (``/game follow``, issue 21)."""
    server_settings: SettingsStore
    """Each server's ``/chaupal settings`` (``self.settings`` is the bot's
    own configuration, from the environment)."""
    service: GameService
    languages: Languages
    """Whose language a text is in (:mod:`bot.edge.languages`, issue 33)."""
    components: BoardComponents
    delivery: Delivery
    play: Play
    my_games: MyGames
    lobby: Lobby
    seats: Seats
    takebacks: Takebacks
    history: History
    replays: Replays
    follows: Follows
    game_log: GameLog
    renders: RenderPool
    keeper: Keeper
    scheduler: Scheduler
    round_scheduler: Scheduler
    tournaments: TournamentDirector
    desk: TournamentDesk
    _catch_up: asyncio.Task[None]
    _repairing: asyncio.Task[None]

    def __init__(
        self,
        settings: Settings,
        *,
        draw: Callable[[], float] | None = None,
        sync_commands: bool = True,
        database: Database | None = None,
        clock: Callable[[], float] | None = None,
        process: str | None = None,
    ) -> None:
        sharding: dict[str, Any] = {}
        if settings.shard_count is not None:
            # Neither set: discord.py asks Discord for the recommended count
            # and runs every shard here, which is what a single process wants.
            sharding["shard_count"] = settings.shard_count
        if settings.shards is not None:
            sharding["shard_ids"] = list(settings.shards)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            # Every failed slash command gets an answer (ChaupalTree.on_error).
            tree_cls=ChaupalTree,
            # Nobody is pinged unless a message names them (bot/outgoing.py).
            allowed_mentions=discord.AllowedMentions.none(),
            **sharding,
        )
        self.settings = settings
        self.process = process or process_id()
        """This process's id in the claims it takes (timers, deliveries):
        unique among the processes sharing the database."""
        # Chance is unpredictable in production; tests pass a seeded draw.
        self._draw = draw or random.SystemRandom().random
        self._sync_commands = sync_commands
        self.renders = RenderPool(settings.render_workers)
        self.thinking = ThinkPool(settings.think_workers, scale=settings.search_scale)
        self._database = database
        # Wall-clock time in production; tests pass a fake clock they move.
        self.clock = clock or time.time
        self._tournament_tasks: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        self.db = self._database or await open_database(self.settings.database)
        self.store = GameStore(self.db)
        self.followers = FollowerStore(self.db)
        self.server_settings = SettingsStore(self.db)
        self.service = GameService(
            self.store,
            draw=self._draw,
            clock=self.clock,
            snapshot_every=self.settings.snapshot_every,
            thinker=self.thinking,
            think_pad=None if self.settings.think_pad else {},
            owner=self.process,
            throw_grace=THROW_GRACE if self.settings.throw_grace else 0.0,
        )
        # Whose language each text is in (issue 33); the locales each
        # interaction reports are remembered for the DMs sent without one.
        self.languages = Languages(self.service.player_settings, self.server_settings, self.clock)
        self.add_listener(self.languages.seen, "on_interaction")
        # The commands' descriptions and choices in each language (their names stay English).
        await self.tree.set_translator(CatalogTranslator())
        self.components = BoardComponents(self.service)
        self.delivery = Delivery(self)
        self.keeper = Keeper(self, self.delivery)
        self.scheduler = Scheduler(self.service.timers, self.keeper.fire, self.clock)
        self.service.timers_changed = self.scheduler.rearm
        self.tournaments = TournamentDirector(
            self.service, TournamentStore(self.db), RatingStore(self.db)
        )
        self.desk = TournamentDesk(self, self.tournaments, self.delivery)
        # Round deadlines: a second scheduler over the tournaments' deadlines.
        deadlines = self.tournaments.deadlines
        self.round_scheduler = Scheduler(deadlines, self.desk.round_due, self.clock)
        self.tournaments.deadlines_changed = self.round_scheduler.rearm
        self.service.game_over_hooks.append(self._game_over)
        # The features: each answers its commands and its components' clicks.
        self.takebacks = Takebacks(self, self.delivery)
        self.play = Play(self, self.delivery, self.takebacks)
        self.my_games = MyGames(self, self.delivery)
        self.lobby = Lobby(self, self.delivery)
        self.seats = Seats(self, self.delivery)
        self.history = History(self)
        self.replays = Replays(self)
        self.follows = Follows(self)
        self.game_log = GameLog(self)
        self.add_dynamic_items(*ITEMS)
        await self.add_cog(
            GameCog(
                self,
                play=self.play,
                my_games=self.my_games,
                lobby=self.lobby,
                seats=self.seats,
                history=self.history,
                replays=self.replays,
                follows=self.follows,
                log=self.game_log,
                delivery=self.delivery,
            )
        )
        await self.add_cog(ChaupalCog(self))
        await self.add_cog(RatingsCog(self))
        await self.add_cog(TournamentCog(self.desk))
        await self.add_cog(HelpCog())  # /help (issue 17)
        await self.add_cog(ModerateCog(self, seats=self.seats, desk=self.desk))  # (issue 18)
        live = await self.store.live_games()
        settings = self.settings
        log.info(
            "process %s: shards %s of %s",
            self.process,
            "all" if settings.shards is None else ",".join(map(str, settings.shards)),
            settings.shard_count or "Discord's recommended count",
        )
        log.info(
            "database %s (schema %d): %d live games; engines: %s; cogs: %s",
            self.db.location,
            self.db.schema_version,
            len(live),
            ", ".join(sorted(ENGINES)),
            ", ".join(sorted(self.cogs)),
        )
        if self._sync_commands:
            await self._sync()
        # Whatever a crash or a failed post left undelivered goes out now,
        # while the bot connects.
        self._catch_up = asyncio.create_task(self._start_up(), name="chaupal-catch-up")

    async def _start_up(self) -> None:
        """Set any timers a crash lost and let the scheduler fire what fell
        due while the bot was down (once each), then deliver what is behind.

        The deadlines do not wait for the deliveries: after a long outage
        the backlog can be thousands of boards (each drawn), and a clock
        that ran out must still run out on time, not when the last board is
        posted (the load test found them held back for the whole run)."""
        try:
            settled = await self.service.settle_timers()
        except Exception:
            log.exception("could not set the timers of running games")
        else:
            if settled:
                log.info("set the timers of %d running games", settled)
        await self._repair_stranded()
        self.scheduler.start()
        self.round_scheduler.start()
        await self.delivery.catch_up_all()
        # Deliveries another process left behind (issue 20).
        self.delivery.start_sweeping()
        self._repairing = asyncio.get_running_loop().create_task(
            self._repair_every(STRANDED_SWEEP_EVERY), name="chaupal-stranded-sweep"
        )
        # Tournament rounds a crash interrupted: results not yet read, games
        # not yet started.
        try:
            for moved in await self.tournaments.resume_all(self.clock()):
                await self.desk.after(moved)
        except Exception:
            log.exception("could not resume the running tournaments")

    async def _repair_stranded(self) -> None:
        """Repair the running games that wait on nothing due (issue 29: see
        ``GameService.repair_stranded``, which logs each as an error), and
        post what the repair played."""
        try:
            repaired = await self.service.repair_stranded()
        except Exception:
            log.exception("could not look for stranded games; trying again later")
            return
        for game_id in repaired:
            await self.delivery.catch_up(game_id)

    async def _repair_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            await self._repair_stranded()

    def _game_over(self, game: LiveGame) -> None:
        """A game ended: if a tournament played it, record the result and
        start the next round's games (in the background: the move that ended
        the game is answered first)."""

        async def advance() -> None:
            try:
                moved = await self.tournaments.game_over(game, self.clock())
            except Exception:
                log.exception("game %d: its tournament could not move on", game.id)
                return
            await self.desk.after(moved)

        task = asyncio.get_running_loop().create_task(
            advance(), name=f"chaupal-tournament-{game.id}"
        )
        self._tournament_tasks.add(task)
        task.add_done_callback(self._tournament_tasks.discard)

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %d (instant)", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d servers",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

    async def close(self) -> None:
        delivery = getattr(self, "delivery", None)
        if delivery is not None:
            delivery.close()
        for task in (getattr(self, "_catch_up", None), getattr(self, "_repairing", None)):
            if task is not None and not task.done():
                task.cancel()
        tournament_tasks = set(getattr(self, "_tournament_tasks", ()))
        if tournament_tasks:
            # A tournament's pass after a game ended: let it finish (it is
            # short), else cancel it; start-up's resume_all reads any result
            # it did not record from the game itself.
            _, pending = await asyncio.wait(tournament_tasks, timeout=TOURNAMENT_GRACE)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.close()
        round_scheduler = getattr(self, "round_scheduler", None)
        if round_scheduler is not None:
            await round_scheduler.close()
        await super().close()
        await asyncio.to_thread(self.renders.close)
        await asyncio.to_thread(self.thinking.close)
        db = getattr(self, "db", None) or self._database
        if db is not None:
            await db.close()


if TYPE_CHECKING:

    def _edge(bot: ChaupalBot) -> Edge:
        """Every part is handed the client as an :class:`~bot.edge.ports.Edge`:
        mypy checks here that it is one."""
        return bot
