"""``/tournament``: moderators run tournaments; players join, watch the
standings and find their games.  Thin: every request goes to
:class:`bot.desk.TournamentDesk`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.game import GAME_CHOICES, parse_options

if TYPE_CHECKING:
    from bot.client import ChaupalBot

TOURNAMENT = "Tournament number (only needed when several are on)"
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Single elimination", value="elimination"),
    app_commands.Choice(name="Pods (tables of 3 to 5, for games of 3 or more)", value="pods"),
]


class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Tournaments on this server"
):
    def __init__(self, bot: ChaupalBot) -> None:
        self.bot = bot
        super().__init__()

    async def tournaments_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in await self.bot.desk.autocomplete(itx, current)
        ]

    @app_commands.command(name="new", description="Open a tournament here (moderators)")
    @app_commands.describe(
        game="Which game",
        format="Swiss, round robin, single elimination, or pods (tables of 3-5)",
        rounds="Rounds for Swiss or pods (left out: as many as the field needs)",
        table_size="Players per table, for pods (3 to 5)",
        options="Options every game gets, e.g. clock=1d timeout=substitute",
        name="A name for the tournament, e.g. Diwali Cup",
        round_time="How long a round may last, e.g. 7d; then running games are settled",
        auto_drop="Drop a player who loses two games in a row on time (default: on)",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    @app_commands.guild_only()
    async def new(
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
        try:
            parsed = parse_options(options)
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await self.bot.desk.new(
            itx,
            engine_name=game.value,
            format=format.value,
            rounds=rounds,
            table_size=table_size,
            options=parsed,
            name=name,
            round_time=round_time,
            auto_drop=auto_drop,
        )

    @app_commands.command(name="join", description="Enter an open tournament")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def join(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.bot.desk.join(itx, tournament)

    @app_commands.command(name="leave", description="Leave a tournament before it starts")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def leave(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.bot.desk.leave(itx, tournament)

    @app_commands.command(name="start", description="Pair round 1 and start its games")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def start(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.bot.desk.start(itx, tournament)

    @app_commands.command(name="standings", description="The standings, as an image and text")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def standings(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.bot.desk.standings(itx, tournament)

    @app_commands.command(name="pairings", description="A round's tables, results and threads")
    @app_commands.describe(tournament=TOURNAMENT, round="Which round (the current one if left out)")
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def pairings(
        self,
        itx: discord.Interaction[Any],
        tournament: int | None = None,
        round: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        await self.bot.desk.pairings(itx, tournament, round)

    @app_commands.command(name="drop", description="Leave a running tournament, or drop a player")
    @app_commands.describe(
        user="Who drops out (left out: yourself; anyone else: moderators only)",
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
        await self.bot.desk.drop(itx, tournament, user)

    @app_commands.command(
        name="settings", description="A tournament's settings; moderators change them"
    )
    @app_commands.describe(
        round_time="Moderators: how long a round may last (e.g. 7d), or off",
        auto_drop="Moderators: drop a player who loses two games in a row on time",
        tournament=TOURNAMENT,
    )
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def settings(
        self,
        itx: discord.Interaction[Any],
        round_time: app_commands.Range[str, 1, 20] | None = None,
        auto_drop: bool | None = None,
        tournament: int | None = None,
    ) -> None:
        await self.bot.desk.settings(itx, tournament, round_time=round_time, auto_drop=auto_drop)

    @app_commands.command(name="adjudicate", description="Decide an unfinished game (moderators)")
    @app_commands.describe(
        game="The game's number",
        result="draw, the winner's name, or places in seat order such as 2 1 3",
        tournament=TOURNAMENT,
    )
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def adjudicate(
        self,
        itx: discord.Interaction[Any],
        game: int,
        result: app_commands.Range[str, 1, 100],
        tournament: int | None = None,
    ) -> None:
        await self.bot.desk.adjudicate(itx, tournament, game, result)

    @app_commands.command(name="end", description="End a tournament now (moderators)")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournaments_autocomplete)
    @app_commands.guild_only()
    async def end(self, itx: discord.Interaction[Any], tournament: int | None = None) -> None:
        await self.bot.desk.end(itx, tournament)


async def setup(bot: ChaupalBot) -> None:
    await bot.add_cog(TournamentCog(bot))
