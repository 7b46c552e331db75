"""``/help``: what Chaupal is, what a newcomer does first, the commands a
player needs and where settings, ratings and tournaments are, and the five
games, with a button for each game's rules and one to open a lobby for it
(the buttons are :class:`bot.edge.lobby.lobby.GameHelpButton`, so they work
after a restart)."""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.lobby.lobby import GameHelpButton
from bot.edge.replies import reply
from bot.engines import ENGINES
from bot.engines.core import Engine
from bot.i18n import N_

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
    """The one page ``/help`` shows, for a newcomer (issue 31): what to do
    first, the few commands a player needs, and where settings, ratings and
    tournaments are; each command's own description says the rest.  Well
    within one message's 2,000 characters."""
    games = "\n".join(
        f"- **{engine.title}** ({players(engine)}): {GAME_LINES.get(name, engine.title + '.')}"
        for name, engine in ENGINES.items()
    )
    return (
        "**Chaupal** runs board games in this server's channels, at everyone's own pace: "
        "move when you like; the bot posts the board and pings whoever is next. Your hand "
        "or screen comes only to you.\n"
        "\n"
        "**Start here**\n"
        "1. Press **Play** under a game below, or `/game new`.\n"
        "2. Friends press **Join**; the lobby's creator presses **Start**.\n"
        "3. Play with the buttons under the board; **Show mine** shows your hand.\n"
        "\n"
        "**Everyday**\n"
        "`/game mine`: your games, yours to play first · `/game next`: the game waiting "
        "for you · `/game rules`: a game's rules · `/game history`, `/game replay`, "
        "`/game review`: look back at finished games\n"
        "**Your settings**: `/chaupal me` (how you are told it is your turn, reminders, "
        "quiet hours, time zone)\n"
        "**Ratings**: `/leaderboard`, `/rating`, `/profile`\n"
        "**Tournaments**: `/tournament join` when a moderator opens one here; "
        "`/tournament standings`, `/tournament pairings`\n"
        "**Moderators**: `/chaupal settings show`, then `/moderate settings`, "
        "`/moderate tournament new`\n"
        "\n"
        f"**The games**\n{games}\n"
        "\n"
        "Below: each game's rules, or **Play** to open a lobby for it in this channel."
    )


def help_view() -> discord.ui.View:
    """``/help``'s buttons: each game's rules and a new lobby, a row per
    game; past five games (Discord's five rows), two games to a row."""
    view = discord.ui.View(timeout=None)
    per_row = 1 if len(ENGINES) <= 5 else 2
    for index, engine in enumerate(list(ENGINES.values())[: 5 * per_row]):
        row = index // per_row
        view.add_item(GameHelpButton(engine.name, "rules", label=f"{engine.title} rules", row=row))
        view.add_item(GameHelpButton(engine.name, "new", label=f"Play {engine.title}", row=row))
    return view


class HelpCog(commands.Cog):
    @app_commands.command(
        name="help", description=N_("How to start playing, the key commands, and the games")
    )
    async def help(self, itx: discord.Interaction[Any]) -> None:
        await reply(itx, help_text(), view=help_view())
