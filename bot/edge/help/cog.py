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
from bot.edge.refusals import reader_language
from bot.edge.replies import reply
from bot.edge.tables.lobbies import title
from bot.engines import ENGINES
from bot.engines.core import Engine
from bot.i18n import DEFAULT, N_, t, tn

GAME_LINES: Final = {
    "mahabharata": N_(
        "draft dice to win the epic's leaders and build a secret Pati behind your screen."
    ),
    "chaturaji": N_(
        "four armies on one chessboard, two dice choosing which pieces move; "
        "capture both enemy monarchs."
    ),
    "sangram": N_(
        "play warrior cards face down at once, recruit volunteers and be first to army strength 18."
    ),
    "artaban": N_(
        "tip and turn your dice across a chessboard; the top faces that reach the far rank score."
    ),
    "kauda_baji": N_(
        "race your pieces along a spiral to the centre, moved by six cowrie "
        "shells; kill on the way."
    ),
}
"""One line per game, in players' words (a game without one shows its title)."""


def players(engine: Engine[Any, Any, Any], lang: str = DEFAULT) -> str:
    low, high = engine.min_players, engine.max_players
    if low == high:
        return tn(lang, "{n} player", "{n} players", low)
    return t(lang, "{low}-{high} players", low=low, high=high)


def help_text(lang: str = DEFAULT) -> str:
    """The one page ``/help`` shows, for a newcomer (issue 31): what to do
    first, the few commands a player needs, and where settings, ratings and
    tournaments are; each command's own description says the rest.  Well
    within one message's 2,000 characters."""
    games = "\n".join(
        f"- **{title(engine, lang)}** ({players(engine, lang)}): "
        + (t(lang, GAME_LINES[name]) if name in GAME_LINES else title(engine, lang) + ".")
        for name, engine in ENGINES.items()
    )
    return t(
        lang,
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
        "**The games**\n{games}\n"
        "\n"
        "Below: each game's rules, or **Play** to open a lobby for it in this channel.",
        games=games,
    )


def help_view(lang: str = DEFAULT) -> discord.ui.View:
    """``/help``'s buttons: each game's rules and a new lobby, a row per
    game; past five games (Discord's five rows), two games to a row."""
    view = discord.ui.View(timeout=None)
    per_row = 1 if len(ENGINES) <= 5 else 2
    for index, engine in enumerate(list(ENGINES.values())[: 5 * per_row]):
        row = index // per_row
        name = title(engine, lang)
        view.add_item(
            GameHelpButton(
                engine.name, "rules", label=t(lang, "{title} rules", title=name), row=row
            )
        )
        view.add_item(
            GameHelpButton(engine.name, "new", label=t(lang, "Play {title}", title=name), row=row)
        )
    return view


class HelpCog(commands.Cog):
    @app_commands.command(
        name="help", description=N_("How to start playing, the key commands, and the games")
    )
    async def help(self, itx: discord.Interaction[Any]) -> None:
        lang = await reader_language(itx)
        await reply(itx, help_text(lang), view=help_view(lang))
