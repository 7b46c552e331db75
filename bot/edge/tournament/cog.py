"""``/tournament``: players join, watch the standings and find their
games; moderators run tournaments with ``/moderate tournament``
(:mod:`bot.edge.moderate.cog`).  Thin: every request goes to
:class:`bot.edge.tournament.desk.TournamentDesk`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.tournament.desk import TournamentDesk
from bot.i18n import N_

TOURNAMENT = N_("Tournament number (only needed when several are on)")
FORMAT_CHOICES = [
    app_commands.Choice(name=N_("Swiss"), value="swiss"),
    app_commands.Choice(name=N_("Round robin"), value="round_robin"),
    app_commands.Choice(name=N_("Single elimination"), value="elimination"),
    app_commands.Choice(name=N_("Pods (tables of 3 to 5, for games of 3 or more)"), value="pods"),
]


class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description=N_("Tournaments on this server")
):
    def __init__(self, desk: TournamentDesk) -> None:
        self.desk = desk
        super().__init__()

    async def tournaments_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in await self.desk.autocomplete(itx, current)
        ]

    @app_commands.command(name="join", description=N_("Enter an open tournament"))
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def join(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.desk.join(itx, tournament)

    @app_commands.command(name="leave", description=N_("Leave a tournament before it starts"))
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def leave(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.desk.leave(itx, tournament)

    @app_commands.command(name="standings", description=N_("The standings, as an image and text"))
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def standings(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.desk.standings(itx, tournament)

    @app_commands.command(name="pairings", description=N_("A round's tables, results and threads"))
    @app_commands.describe(
        tournament=TOURNAMENT, round=N_("Which round (the current one if left out)")
    )
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def pairings(
        self,
        itx: discord.Interaction[Any],
        tournament: int | None = None,
        round: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        await self.desk.pairings(itx, tournament, round)

    @app_commands.command(
        name="drop", description=N_("Leave a running tournament, or drop a player")
    )
    @app_commands.describe(
        user=N_("Who drops out (left out: yourself; anyone else: moderators only)"),
        tournament=TOURNAMENT,
    )
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def drop(
        self,
        itx: discord.Interaction[Any],
        user: discord.User | None = None,
        tournament: int | None = None,
    ) -> None:
        await self.desk.drop(itx, tournament, user)

    @app_commands.command(name="settings", description=N_("A tournament's settings"))
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def settings(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        """Shows them; moderators change them with ``/moderate tournament settings``."""
        await self.desk.settings(itx, tournament, round_time=None, auto_drop=None)
