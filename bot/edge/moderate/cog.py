"""``/moderate``: every command only moderators may use, in one group.

Discord hides a command from members without its default permissions, but
only for whole top-level commands, never for one subcommand of ``/game`` or
``/tournament``.  So the moderators' commands live here, under a group that
carries ``default_permissions(manage_messages=True)``: members without
Manage Messages do not see them.  A server can show them to anyone
(Server Settings → Integrations), and the Chaupal moderator role
(``/moderate settings moderator_role``) grants no Discord permission, so
every command still checks who may use it (:func:`bot.edge.moderators.is_moderator`,
the tournament desk, :class:`bot.edge.settings.cog.ServerSettingsChanges`).
Thin: each command hands over to the same code the old ones did.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.arguments import GAME_NUMBER, GameNumber, RunningGame
from bot.edge.play.cog import GAME_CHOICES
from bot.edge.ports import Edge
from bot.edge.seats.seats import Seats
from bot.edge.settings.cog import LANGUAGE_CHOICES, ServerSettingsChanges
from bot.edge.tournament.cog import FORMAT_CHOICES, TOURNAMENT
from bot.edge.tournament.desk import TournamentDesk
from bot.i18n import N_


@app_commands.guild_only()
@app_commands.default_permissions(manage_messages=True)
class ModerateCog(
    commands.GroupCog,
    group_name="moderate",
    group_description=N_("Moderators: run games, tournaments and this server's settings"),
):
    game_group = app_commands.Group(name="game", description=N_("Moderators: a running game"))
    tournament_group = app_commands.Group(
        name="tournament", description=N_("Moderators: run a tournament")
    )
    settings_group = app_commands.Group(
        name="settings", description=N_("Moderators: change this server's Chaupal settings")
    )

    def __init__(self, bot: Edge, *, seats: Seats, desk: TournamentDesk) -> None:
        self.bot = bot
        self.seats = seats
        self.desk = desk
        self.changes = ServerSettingsChanges(bot)
        super().__init__()

    async def tournaments_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in await self.desk.autocomplete(itx, current)
        ]

    # -- /moderate game ... --------------------------------------------------------

    @game_group.command(name="kick", description=N_("Hand a player's seat to the automatic player"))
    @app_commands.describe(user=N_("The player who is gone"), game=GAME_NUMBER)
    async def kick(
        self,
        itx: discord.Interaction[Any],
        user: discord.User,
        game: app_commands.Transform[int, GameNumber] | None = None,
    ) -> None:
        await self.seats.kick(itx, user, game)

    @game_group.command(name="replace", description=N_("Hand a player's seat to another member"))
    @app_commands.describe(
        game=N_("Game number"),
        seat=N_("The player whose seat changes hands (also one the automatic player took)"),
        with_=N_("The member who takes the seat; they accept with a button"),
    )
    @app_commands.rename(with_="with")
    async def replace(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, RunningGame],
        seat: discord.User,
        with_: discord.User,
    ) -> None:
        await self.seats.offer_seat(itx, game, seat, with_)

    @game_group.command(name="pause", description=N_("Stop a game's clocks"))
    @app_commands.describe(game=GAME_NUMBER)
    async def pause(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, GameNumber] | None = None,
    ) -> None:
        await self.seats.pause(itx, game, resume=False)

    @game_group.command(name="resume", description=N_("Start a paused game's clocks"))
    @app_commands.describe(game=GAME_NUMBER)
    async def resume(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, GameNumber] | None = None,
    ) -> None:
        await self.seats.pause(itx, game, resume=True)

    @game_group.command(name="end", description=N_("End a game for everyone, after a confirmation"))
    @app_commands.describe(game=GAME_NUMBER)
    async def end_game(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, RunningGame] | None = None,
    ) -> None:
        await self.seats.ask_resign(itx, game)

    # -- /moderate tournament ... --------------------------------------------------

    @tournament_group.command(name="new", description=N_("Open a tournament here"))
    @app_commands.describe(
        game=N_("Which game"),
        format=N_("Swiss, round robin, single elimination, or pods (tables of 3-5)"),
        rounds=N_("Rounds for Swiss or pods (left out: as many as the field needs)"),
        table_size=N_("Players per table, for pods (3 to 5)"),
        options=N_("Options every game gets, e.g. clock=1d timeout=substitute"),
        name=N_("A name for the tournament, e.g. Diwali Cup"),
        round_time=N_("How long a round may last, e.g. 7d; then running games are settled"),
        auto_drop=N_("Drop a player who loses two games in a row on time (default: on)"),
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def tournament_new(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 0, 50] = 0,
        table_size: app_commands.Range[int, 3, 5] | None = None,
        options: str | None = None,
        name: app_commands.Range[str, 0, 32] = "",
        round_time: app_commands.Range[str, 1, 20] | None = None,
        auto_drop: bool = True,
    ) -> None:
        await self.desk.new(
            itx,
            engine_name=game.value,
            format=format.value,
            rounds=rounds,
            table_size=table_size,
            options=options,
            name=name,
            round_time=round_time,
            auto_drop=auto_drop,
        )

    @tournament_group.command(name="start", description=N_("Pair round 1 and start its games"))
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    async def tournament_start(
        self, itx: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        await self.desk.start(itx, tournament)

    @tournament_group.command(
        name="settings", description=N_("Change a tournament's round time or auto-drop")
    )
    @app_commands.describe(
        round_time=N_("How long a round may last (e.g. 7d), or off"),
        auto_drop=N_("Drop a player who loses two games in a row on time"),
        tournament=TOURNAMENT,
    )
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    async def tournament_settings(
        self,
        itx: discord.Interaction[Any],
        round_time: app_commands.Range[str, 1, 20] | None = None,
        auto_drop: bool | None = None,
        tournament: int | None = None,
    ) -> None:
        await self.desk.settings(itx, tournament, round_time=round_time, auto_drop=auto_drop)

    @tournament_group.command(name="adjudicate", description=N_("Decide an unfinished game"))
    @app_commands.describe(
        game=N_("The game's number"),
        result=N_("draw, the winner's name, or places in seat order such as 2 1 3"),
        tournament=TOURNAMENT,
    )
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    async def tournament_adjudicate(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, GameNumber],
        result: app_commands.Range[str, 1, 100],
        tournament: int | None = None,
    ) -> None:
        await self.desk.adjudicate(itx, tournament, game, result)

    @tournament_group.command(name="end", description=N_("End a tournament now"))
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    async def tournament_end(
        self, itx: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        await self.desk.end(itx, tournament)

    # -- /moderate settings ... (Manage Server or the moderator role) ----------------

    @settings_group.command(name="threads", description=N_("Play each new game in its own thread"))
    @app_commands.describe(value=N_("on: a thread per game (default); off: in the channel"))
    async def threads(self, itx: discord.Interaction[Any], value: Literal["on", "off"]) -> None:
        await self.changes.threads(itx, value)

    @settings_group.command(
        name="takeback",
        description=N_("Whether players may take a move back in this server's games"),
    )
    @app_commands.describe(
        value=N_("on (default): their last move, then with everyone's agreement; off: never")
    )
    async def takeback(self, itx: discord.Interaction[Any], value: Literal["on", "off"]) -> None:
        await self.changes.takeback(itx, value)

    @settings_group.command(name="clock", description=N_("The clock new games get"))
    @app_commands.describe(
        value=N_("3d (default), a time per move like 1d or 12h, a bank like 3d+12h, or none")
    )
    async def clock(self, itx: discord.Interaction[Any], value: str) -> None:
        await self.changes.clock(itx, value)

    @settings_group.command(
        name="timeout", description=N_("What happens when a player's clock runs out")
    )
    @app_commands.describe(
        value=N_(
            "substitute (default): the automatic player moves once; skip: pass; "
            "forfeit: the player is out"
        )
    )
    async def timeout(
        self, itx: discord.Interaction[Any], value: Literal["substitute", "skip", "forfeit"]
    ) -> None:
        await self.changes.timeout(itx, value)

    @settings_group.command(
        name="reminder", description=N_("When players who must act are reminded")
    )
    @app_commands.describe(
        value=N_("auto (default: they follow the clock), a delay like 12h or 1d, or off")
    )
    async def reminder(self, itx: discord.Interaction[Any], value: str) -> None:
        await self.changes.reminder(itx, value)

    @settings_group.command(
        name="substitute",
        description=N_("How strong the automatic player is on a timeout or in a seat someone left"),
    )
    @app_commands.describe(
        value=N_(
            "medium (default): searches about 0.2 s a move; easy: rules of thumb; "
            "hard: searches about 1 s"
        )
    )
    async def substitute(
        self, itx: discord.Interaction[Any], value: Literal["easy", "medium", "hard"]
    ) -> None:
        await self.changes.substitute(itx, value)

    @settings_group.command(
        name="announcements", description=N_("The channel for Chaupal's announcements")
    )
    @app_commands.describe(channel=N_("Leave it out for none"))
    async def announcements(
        self, itx: discord.Interaction[Any], channel: discord.TextChannel | None = None
    ) -> None:
        await self.changes.announcements(itx, channel)

    @settings_group.command(
        name="moderator_role",
        description=N_("Members with this role are Chaupal moderators here"),
    )
    @app_commands.describe(role=N_("Leave it out for none (Manage Server always counts)"))
    async def moderator_role(
        self, itx: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        await self.changes.moderator_role(itx, role)

    @settings_group.command(
        name="language", description=N_("The language of this server's lobbies, boards and posts")
    )
    @app_commands.describe(value=N_("A language, or Discord's: the server's own language"))
    @app_commands.choices(value=LANGUAGE_CHOICES)
    async def language(
        self, itx: discord.Interaction[Any], value: app_commands.Choice[str]
    ) -> None:
        await self.changes.language(itx, value.value)
