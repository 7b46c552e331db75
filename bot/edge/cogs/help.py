"""``/help``: what Chaupal is, how a game starts, and the five games, with a
button for each game's rules and one to open a lobby for it (the buttons
are :class:`bot.edge.ui.items.GameHelpButton`, so they work after a restart)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.replies import reply
from bot.engines import ENGINES
from bot.engines.core import Engine

if TYPE_CHECKING:
    from bot.edge.cogs import CogHost

GAME_LINES: Final = {
    "mahabharata": "draft dice to win the epic's leaders and build a secret Pati behind "
    "your screen.",
    "chaturaji": "four armies on one chessboard, two dice choosing which pieces move; "
    "capture both enemy monarchs.",
    "sangram": "play warrior cards face down at once, recruit volunteers and be first to "
    "army strength 18.",
    "artaban": "tip and turn your dice across a chessboard; the top faces that reach "
    "the far rank score.",
    "kauda_baji": "race your pieces along a spiral to the centre, moved by six cowrie "
    "shells; kill on the way.",
}
"""One line per game, in players' words (a game without one shows its title)."""


def players(engine: Engine[Any, Any, Any]) -> str:
    low, high = engine.min_players, engine.max_players
    return f"{low} players" if low == high else f"{low}-{high} players"


def help_text() -> str:
    """The one page ``/help`` shows (well within one message)."""
    games = "\n".join(
        f"- **{engine.title}** ({players(engine)}): {GAME_LINES.get(name, engine.title + '.')}"
        for name, engine in ENGINES.items()
    )
    return (
        "**Chaupal** runs board games in this server's channels, played at "
        "everyone's own pace: move when you like, and the bot posts the board after every "
        "move and pings whoever is next. What is secret (a hand, a screen, a set-up) comes "
        "only to you, by DM or in a message only you can see.\n"
        "\n"
        "**Starting a game**\n"
        "1. `/game new` and choose the game (`options:` suggests its variants as you type).\n"
        "2. Everyone who plays presses **Join** on the lobby; its creator presses **Start**.\n"
        "3. Play with the buttons under the board: a die or square when the choice is "
        "public, **Choose…** for your menu, **Show mine** for your hand or screen. "
        "`/game play` takes a move typed in the game's notation.\n"
        "`/game mine` lists your games and where it is your turn; `/game rules` gives a "
        "game's rules.\n"
        "`/game history` lists the server's finished games (a player's, a game's); "
        "`/game replay` posts a whole game as an animated image, and `/game review` steps "
        "through it move by move, only for you; `/game export` gives you its moves as text; "
        "`/game follow` DMs you when a game you watch ends (`every_move:true`: every "
        "board), `/game unfollow` stops it.\n"
        "\n"
        f"**The games**\n{games}\n"
        "\n"
        "Below: each game's rules, or **Play** to open a lobby for it in this channel."
    )


class HelpCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    @app_commands.command(
        name="help", description="What Chaupal is, how to start a game, and the games"
    )
    async def help(self, itx: discord.Interaction[Any]) -> None:
        from bot.edge.ui.items import help_view

        await reply(itx, help_text(), view=help_view())


async def setup(bot: CogHost) -> None:
    await bot.add_cog(HelpCog(bot))
