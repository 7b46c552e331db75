"""``/game``: open, join, play and inspect games.  Thin: every command hands
over to the feature that answers it (:class:`~bot.edge.play.moves.Play`,
:class:`~bot.edge.lobby.lobby.Lobby`, :class:`~bot.edge.seats.seats.Seats`,
the archive, ...).  One ``GroupCog`` for the whole group: discord.py collects
a group's subcommands from one class, in the order they are written, which
is the order Discord lists them."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.archive.follows import Follows
from bot.edge.archive.history import History
from bot.edge.archive.log import GameLog
from bot.edge.archive.replays import Replays
from bot.edge.arguments import (
    GAME_NUMBER,
    FollowedGame,
    GameNumber,
    MyGame,
    RunningGame,
    StartedGame,
)
from bot.edge.delivery.delivery import Delivery
from bot.edge.lobby.lobby import Lobby
from bot.edge.lobby.options import option_completions
from bot.edge.play.games import MyGames
from bot.edge.play.moves import Play
from bot.edge.ports import Edge
from bot.edge.seats.seats import Seats
from bot.engines import ENGINES
from bot.engines.core import GameError
from bot.i18n import N_
from bot.outgoing import Style, fill_seats
from bot.players import LEVELS

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.name) for e in ENGINES.values()]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]


class GameCog(commands.GroupCog, group_name="game", group_description=N_("Play board games here")):
    def __init__(
        self,
        bot: Edge,
        *,
        play: Play,
        my_games: MyGames,
        lobby: Lobby,
        seats: Seats,
        history: History,
        replays: Replays,
        follows: Follows,
        log: GameLog,
        delivery: Delivery,
    ) -> None:
        self.bot = bot
        self.moves = play
        self.my_games = my_games
        self.lobby = lobby
        self.seats = seats
        self.finished = history
        self.replays = replays
        self.follows = follows
        self.game_log = log
        self.delivery = delivery
        super().__init__()

    # -- autocomplete ------------------------------------------------------

    async def action_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(itx.namespace, "game", None)
        try:
            game = await self.bot.service.find_game(
                channel_id=itx.channel_id or 0, user_id=itx.user.id, game_id=game_id, want="mine"
            )
        except GameError:
            return []
        # A seat's legal moves show its hand: only to whoever holds it now,
        # never to a player who left it (bot.tenure).
        seat = game.readable_seat(itx.user.id)
        engine, state = game.engine, game.state
        if state is None or seat is None:
            return []
        wanted = current.strip().lower()
        lang = await self.bot.languages.for_reader(itx)
        choices: list[app_commands.Choice[str]] = []
        for action in engine.legal_actions(state, seat) if seat in engine.to_move(state) else []:
            text = engine.describe(state, seat, action)
            if wanted and wanted not in text:
                continue
            label = fill_seats(engine.label(state, seat, action), game, Style.PLAIN, lang=lang)
            choices.append(app_commands.Choice(name=f"{text} — {label}"[:100], value=text[:100]))
            if len(choices) == 25:
                break
        return choices

    # -- commands ----------------------------------------------------------

    async def options_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """``name=value`` completions from the chosen game's options and the table's."""
        engine_name = getattr(itx.namespace, "game", None)
        return [
            app_commands.Choice(name=shown, value=value)
            for shown, value in option_completions(
                engine_name if isinstance(engine_name, str) else None, current
            )
        ]

    @app_commands.command(name="new", description=N_("Open a lobby for a new game in this channel"))
    @app_commands.describe(
        game=N_("Which game"),
        options=N_("Options as name=value; start typing to see the game's"),
        bots=N_("Seats for automatic players (play alone, or fill a table); the game is not rated"),
        level=N_("How strong the automatic players are (default medium)"),
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    async def new(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Choice[str],
        options: str | None = None,
        bots: int = 0,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.lobby.new(
            itx, game.value, options, bots=bots, level=None if level is None else level.value
        )

    @app_commands.command(name="join", description=N_("Join the open lobby in this channel"))
    @app_commands.describe(game=N_("Game number (only needed when several lobbies are open here)"))
    async def join(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, GameNumber] | None = None,
    ) -> None:
        await self.lobby.lobby(itx, game, "join")

    @app_commands.command(name="leave", description=N_("Leave a lobby before it starts"))
    @app_commands.describe(game=GAME_NUMBER)
    async def leave(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, MyGame] | None = None
    ) -> None:
        await self.lobby.lobby(itx, game, "leave")

    @app_commands.command(
        name="start", description=N_("Start the lobby (its creator or a moderator)")
    )
    @app_commands.describe(game=GAME_NUMBER)
    async def start(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, GameNumber] | None = None,
    ) -> None:
        await self.lobby.lobby(itx, game, "start")

    @app_commands.command(name="play", description=N_("Make a move, typed in the game's notation"))
    @app_commands.describe(
        action=N_("Your move; start typing to see the legal ones"), game=GAME_NUMBER
    )
    @app_commands.autocomplete(action=action_autocomplete)
    async def play(
        self,
        itx: discord.Interaction[Any],
        action: str,
        game: app_commands.Transform[int, MyGame] | None = None,
    ) -> None:
        await self.moves.play_text(itx, game, action)

    @app_commands.command(name="board", description=N_("Post the current board again"))
    @app_commands.describe(game=GAME_NUMBER)
    async def board(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, MyGame] | None = None
    ) -> None:
        await self.moves.board(itx, game)

    @app_commands.command(name="hand", description=N_("See your hand or screen (only you see it)"))
    @app_commands.describe(game=GAME_NUMBER)
    async def hand(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, MyGame] | None = None
    ) -> None:
        await self.moves.show_mine(itx, game)

    @app_commands.command(
        name="resign",
        description=N_("Resign from a game, after a confirmation (moderators: end any)"),
    )
    @app_commands.describe(game=GAME_NUMBER)
    async def resign(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, MyGame] | None = None
    ) -> None:
        await self.seats.ask_resign(itx, game)

    @app_commands.command(
        name="takeback",
        description=N_("Take back your last move (after others moved, if everyone agrees)"),
    )
    @app_commands.describe(game=GAME_NUMBER)
    async def takeback(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, MyGame] | None = None
    ) -> None:
        await self.moves.take_back(itx, game)

    @app_commands.command(
        name="next", description=N_("A link to the game that has waited longest for your move")
    )
    async def next_(self, itx: discord.Interaction[Any]) -> None:
        await self.my_games.next_turn(itx)

    @app_commands.command(name="list", description=N_("Games in this channel, and your own games"))
    async def list_(self, itx: discord.Interaction[Any]) -> None:
        await self.my_games.list_games(itx)

    @app_commands.command(name="log", description=N_("The public log of a game here, as a file"))
    @app_commands.describe(game=N_("Game number (running or finished; default: the one here)"))
    async def log(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, StartedGame] | None = None,
    ) -> None:
        await self.game_log.log(itx, game)

    @app_commands.command(
        name="export", description=N_("A game as text: its moves in notation, one a line")
    )
    @app_commands.describe(game=N_("Game number (running or finished; default: the one here)"))
    async def export(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, StartedGame] | None = None,
    ) -> None:
        await self.game_log.export(itx, game)

    @app_commands.command(
        name="mine", description=N_("Your live games anywhere, and where it is your turn")
    )
    async def mine(self, itx: discord.Interaction[Any]) -> None:
        await self.my_games.mine(itx)

    @app_commands.command(
        name="away", description=N_("Stop your clocks in all your games for a few days")
    )
    @app_commands.describe(days=N_("1 to 14 (at most 14 days in any 60)"))
    async def away(
        self, itx: discord.Interaction[Any], days: app_commands.Range[int, 1, 14]
    ) -> None:
        await self.my_games.away(itx, days)

    @app_commands.command(name="back", description=N_("End your time away now"))
    async def back(self, itx: discord.Interaction[Any]) -> None:
        await self.my_games.away(itx, None)

    # -- looking back and looking on (issue 21) -------------------------------

    @app_commands.command(
        name="history", description=N_("Finished games on this server, newest first")
    )
    @app_commands.describe(
        player=N_("Only this player's games"),
        game=N_("Only this game"),
        share=N_("Post it in the channel (by default only you see it)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        itx: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
        share: bool = False,
    ) -> None:
        await self.finished.open_history(
            itx,
            None if player is None else player.id,
            None if game is None else game.value,
            share=share,
        )

    @app_commands.command(
        name="replay", description=N_("The whole game as an animated image, posted here")
    )
    @app_commands.describe(game=N_("Game number"))
    async def replay(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, StartedGame]
    ) -> None:
        await self.replays.replay(itx, game)

    @app_commands.command(
        name="review", description=N_("Step through a game move by move (only you see it)")
    )
    @app_commands.describe(game=N_("Game number"))
    async def review(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, StartedGame]
    ) -> None:
        await self.replays.review(itx, game)

    @app_commands.command(
        name="follow", description=N_("Get a DM when a game you don't play ends (or every board)")
    )
    @app_commands.describe(
        game=N_("Game number"), every_move=N_("A DM with every new board, not only at the end")
    )
    async def follow(
        self,
        itx: discord.Interaction[Any],
        game: app_commands.Transform[int, RunningGame],
        every_move: bool = False,
    ) -> None:
        await self.follows.follow(itx, game, every_move=every_move)

    @app_commands.command(name="unfollow", description=N_("Stop following a game"))
    @app_commands.describe(game=N_("Game number"))
    async def unfollow(
        self, itx: discord.Interaction[Any], game: app_commands.Transform[int, FollowedGame]
    ) -> None:
        await self.follows.unfollow(itx, game)

    @app_commands.command(
        name="rules", description=N_("A game's rules: a summary, and the complete rules as a file")
    )
    @app_commands.describe(game=N_("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, itx: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        await self.lobby.rules(itx, game.value, full=False)
