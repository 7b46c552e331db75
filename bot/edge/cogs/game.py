"""``/game``: open, join, play and inspect games.  Thin: every request goes to
:class:`bot.edge.table.Table` or :class:`bot.service.GameService`."""

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.delivery import jump_url
from bot.edge.lobby import TABLE_OPTION_HELP, option_values
from bot.edge.replies import reply
from bot.engines import ENGINES, get_engine
from bot.engines.core import Engine, GameError, excerpt, resolve_options
from bot.outgoing import Style, fill_seats
from bot.players import LEVELS
from bot.timekeeping import TABLE_OPTIONS, TableOptions
from storage.games import GameRecord, GameStatus

if TYPE_CHECKING:
    from bot.edge.cogs import CogHost

log = logging.getLogger(__name__)

GAME_NUMBER = "Game number (only needed when you are in several games)"

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.name) for e in ENGINES.values()]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]


def parse_options(text: str | None) -> dict[str, str]:
    """``"diagonal_captures=yes, other=2"`` -> a dict; the engine checks values."""
    options: dict[str, str] = {}
    if not text:
        return options
    for part in text.replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise GameError(f"Options look like name=value; {excerpt(part)} does not.")
        options[name.strip().lower()] = value.strip()
    return options


_LAST_OPTION = re.compile(r"[^,\s]*$")


def option_completions(engine_name: str | None, typed: str) -> list[tuple[str, str]]:
    """``/game new``'s ``options:`` suggestions as (shown, value): the text
    typed so far with its last ``name=value`` completed from the chosen
    game's options and the table's (``clock``, ``timeout``, ``reminder``,
    ``rated``), matching what was typed as a prefix.  At most 25, each
    within Discord's 100 characters (a value that would not fit is left
    out: it could not be sent back whole)."""
    # Options are separated by commas or spaces: the last one is being typed.
    last = typed[len(_LAST_OPTION.sub("", typed)) :]
    head = typed[: len(typed) - len(last)].rstrip(", \t")
    prefix = f"{head}, " if head else ""
    chosen = {part.partition("=")[0].strip().lower() for part in head.replace(",", " ").split()}
    known: list[tuple[str, tuple[str, ...], str]] = []
    try:
        engine = get_engine(engine_name) if engine_name else None
    except GameError:
        engine = None
    if engine is not None:
        for name, option in sorted(engine.options.items()):
            known.append((name, option_values(option), option.help))
    for name in TABLE_OPTIONS:
        help_text, values = TABLE_OPTION_HELP[name]
        known.append((name, values, help_text.replace("`", "")))
    wanted = last.lower()
    completions: list[tuple[str, str]] = []
    if not wanted:
        # Nothing typed of the next option: more values than fit, so each
        # option's first values come round in turn, and every option shows.
        rounds = max((len(values) for _, values, _ in known), default=0)
        known = [
            (name, values[i : i + 1], help_text)
            for i in range(rounds)
            for name, values, help_text in known
            if i < len(values)
        ]
    for name, values, help_text in known:
        if name in chosen:
            continue
        for value in values:
            pair = f"{name}={value}"
            if not pair.startswith(wanted):
                continue
            full = prefix + pair
            if len(full) > 100:
                continue
            completions.append((_shown(head, pair, help_text), full))
        # A number typed that is not among the suggestions, but allowed.
        typed_value = wanted.partition("=")[2]
        if wanted.startswith(f"{name}=") and typed_value and typed_value not in values:
            full = prefix + wanted
            if len(full) <= 100 and _accepted(engine, name, typed_value):
                completions.insert(0, (_shown(head, wanted, help_text), full))
    return completions[:25]


def _shown(head: str, pair: str, help_text: str) -> str:
    """A suggestion as the list shows it: the option it adds (after "…"
    when options were typed before it) and what the option does."""
    return f"{'… ' if head else ''}{pair} — {help_text}"[:100]


def _accepted(engine: Engine[Any, Any, Any] | None, name: str, value: str) -> bool:
    """Whether the lobby would take ``name=value`` (the engine's own check,
    or the table's)."""
    try:
        if name in TABLE_OPTIONS:
            TableOptions.parse({name: value})
        elif engine is not None:
            resolve_options(engine, {name: value})
        else:
            return False
    except GameError:
        return False
    return True


async def channel_game_choices(
    bot: CogHost,
    itx: discord.Interaction[Any],
    current: str,
    *,
    statuses: Collection[GameStatus],
) -> list[app_commands.Choice[int]]:
    """Autocomplete: this channel's games with one of ``statuses``, newest
    first, whose number holds what was typed."""
    records = await bot.store.games_in_channel(itx.channel_id or 0, statuses=statuses)
    return [
        app_commands.Choice(name=f"#{r.id} {get_engine(r.engine).title} ({r.status})", value=r.id)
        for r in reversed(records)
        if current.strip("#") in str(r.id)
    ][:25]


class GameCog(commands.GroupCog, group_name="game", group_description="Play board games here"):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        super().__init__()

    # -- autocomplete ------------------------------------------------------

    async def my_games_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        records = await self.bot.store.games_of_user(itx.user.id)
        here = [r for r in records if r.channel_id == itx.channel_id] or records
        return [
            app_commands.Choice(
                name=f"#{r.id} {get_engine(r.engine).title} ({r.status})", value=r.id
            )
            for r in here
            if current.strip("#") in str(r.id)
        ][:25]

    async def channel_games_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """Started games of this channel (or its thread), newest first."""
        return await channel_game_choices(
            self.bot, itx, current, statuses=("active", "finished", "abandoned")
        )

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
        choices: list[app_commands.Choice[str]] = []
        for action in engine.legal_actions(state, seat) if seat in engine.to_move(state) else []:
            text = engine.describe(state, seat, action)
            if wanted and wanted not in text:
                continue
            label = fill_seats(engine.label(state, seat, action), game, Style.PLAIN)
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

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game",
        options="Options as name=value; start typing to see the game's",
        bots="Seats for automatic players (play alone, or fill a table); the game is not rated",
        level="How strong the automatic players are (default medium)",
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
        try:
            given = parse_options(options)
        except GameError as exc:
            await self.bot.table.refuse(itx, exc)
            return
        if level is not None:
            given = {**given, "level": level.value}
        await self.bot.table.open_lobby(itx, game.value, given, bots=bots)

    @app_commands.command(name="join", description="Join the open lobby in this channel")
    @app_commands.describe(game="Game number (only needed when several lobbies are open here)")
    async def join(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.lobby(itx, game, "join")

    @app_commands.command(name="leave", description="Leave a lobby before it starts")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=my_games_autocomplete)
    async def leave(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.lobby(itx, game, "leave")

    @app_commands.command(name="start", description="Start the lobby (its creator or a moderator)")
    @app_commands.describe(game=GAME_NUMBER)
    async def start(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.lobby(itx, game, "start")

    @app_commands.command(name="play", description="Make a move, typed in the game's notation")
    @app_commands.describe(action="Your move; start typing to see the legal ones", game=GAME_NUMBER)
    @app_commands.autocomplete(action=action_autocomplete)
    @app_commands.autocomplete(game=my_games_autocomplete)
    async def play(
        self, itx: discord.Interaction[Any], action: str, game: int | None = None
    ) -> None:
        await self.bot.table.play_text(itx, game, action)

    @app_commands.command(name="board", description="Post the current board again")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=my_games_autocomplete)
    async def board(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        from bot.edge.delivery import next_up

        try:
            await itx.response.defer(ephemeral=True)
            live = await self.bot.table.find_game(itx, game, "any")
            if live.state is None:
                raise GameError(f"Game #{live.id} has not started yet; its lobby is above.")
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await self.bot.delivery.post_board(live, next_up(live))
        await reply(itx, f"Posted the board of game #{live.id}.")

    @app_commands.command(name="hand", description="See your hand or screen (only you see it)")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=my_games_autocomplete)
    async def hand(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.show_mine(itx, game)

    @app_commands.command(
        name="resign", description="Resign from a game, after a confirmation (moderators: end any)"
    )
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=my_games_autocomplete)
    async def resign(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.ask_resign(itx, game)

    @app_commands.command(
        name="takeback",
        description="Take back your last move (after others moved, if everyone agrees)",
    )
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=my_games_autocomplete)
    async def takeback(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.take_back(itx, game)

    @app_commands.command(
        name="next", description="A link to the game that has waited longest for your move"
    )
    async def next_(self, itx: discord.Interaction[Any]) -> None:
        await self.bot.table.next_turn(itx)

    @app_commands.command(name="list", description="Games in this channel, and your own games")
    async def list_(self, itx: discord.Interaction[Any]) -> None:
        from bot.edge.table import moves_word

        here = await self.bot.store.games_in_channel(itx.channel_id or 0)
        mine = await self.bot.store.games_of_user(itx.user.id)
        # The players' moves, not the log's length (chance and table events).
        made = await self.bot.store.moves_made(
            [g.id for g in (*here, *mine) if g.status == "active"]
        )
        links = {g.id: await self.game_link(g) for g in (*here, *mine)}
        lines = ["**In this channel**"]
        lines += [
            f"#{g.id} {get_engine(g.engine).title} — {g.status}"
            + (moves_word(made.get(g.id)) if g.status == "active" else "")
            + links[g.id]
            for g in here
        ] or ["(none — start one with /game new)"]
        lines.append("**Yours**")
        lines += [
            # Where it is played: its own thread once started, not the
            # channel the thread hangs off.
            f"#{g.id} {get_engine(g.engine).title} — {g.status} in <#{g.thread_id or g.channel_id}>"
            + (moves_word(made.get(g.id)) if g.status == "active" else "")
            + links[g.id]
            for g in mine
        ] or ["(none)"]
        await reply(itx, "\n".join(lines), suppress_embeds=True)

    async def game_link(self, record: GameRecord) -> str:
        """`` — [board](<link>)`` to a game's newest board (a lobby's message
        while it waits), as ``/game history`` writes its links; empty when
        neither was stored."""
        kind = "lobby" if record.status == "lobby" else "board"
        stored = await self.bot.store.get_message(record.id, kind)
        if stored is None:
            return ""
        return f" — [{kind}](<{jump_url(record.guild_id, stored[0], stored[1])}>)"

    @app_commands.command(name="log", description="The public log of a game here, as a file")
    @app_commands.describe(game="Game number (running or finished; default: the one here)")
    @app_commands.autocomplete(game=channel_games_autocomplete)
    async def log(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.log(itx, game)

    @app_commands.command(
        name="export", description="A game as text: its moves in notation, one a line"
    )
    @app_commands.describe(game="Game number (running or finished; default: the one here)")
    @app_commands.autocomplete(game=channel_games_autocomplete)
    async def export(self, itx: discord.Interaction[Any], game: int | None = None) -> None:
        await self.bot.table.export(itx, game)

    @app_commands.command(
        name="mine", description="Your live games anywhere, and where it is your turn"
    )
    async def mine(self, itx: discord.Interaction[Any]) -> None:
        await self.bot.table.mine(itx)

    @app_commands.command(
        name="away", description="Stop your clocks in all your games for a few days"
    )
    @app_commands.describe(days="1 to 14 (at most 14 days in any 60)")
    async def away(
        self, itx: discord.Interaction[Any], days: app_commands.Range[int, 1, 14]
    ) -> None:
        await self.bot.table.away(itx, days)

    @app_commands.command(name="back", description="End your time away now")
    async def back(self, itx: discord.Interaction[Any]) -> None:
        await self.bot.table.away(itx, None)

    # -- looking back and looking on (issue 21) -------------------------------

    @app_commands.command(name="history", description="Finished games on this server, newest first")
    @app_commands.describe(
        player="Only this player's games",
        game="Only this game",
        share="Post it in the channel (by default only you see it)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        itx: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
        share: bool = False,
    ) -> None:
        await self.bot.archive.open_history(
            itx,
            None if player is None else player.id,
            None if game is None else game.value,
            share=share,
        )

    @app_commands.command(
        name="replay", description="The whole game as an animated image, posted here"
    )
    @app_commands.describe(game="Game number")
    @app_commands.autocomplete(game=channel_games_autocomplete)
    async def replay(self, itx: discord.Interaction[Any], game: int) -> None:
        await self.bot.archive.replay(itx, game)

    @app_commands.command(
        name="review", description="Step through a game move by move (only you see it)"
    )
    @app_commands.describe(game="Game number")
    @app_commands.autocomplete(game=channel_games_autocomplete)
    async def review(self, itx: discord.Interaction[Any], game: int) -> None:
        await self.bot.archive.review(itx, game)

    async def running_games_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """Running games of this channel (or its thread), newest first."""
        running: tuple[GameStatus, ...] = ("active",)
        return await channel_game_choices(self.bot, itx, current, statuses=running)

    async def followed_autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in await self.bot.archive.followed_choices(itx, current)
        ]

    @app_commands.command(
        name="follow", description="Get a DM when a game you don't play ends (or every board)"
    )
    @app_commands.describe(
        game="Game number", every_move="A DM with every new board, not only at the end"
    )
    @app_commands.autocomplete(game=running_games_autocomplete)
    async def follow(
        self, itx: discord.Interaction[Any], game: int, every_move: bool = False
    ) -> None:
        await self.bot.archive.follow(itx, game, every_move=every_move)

    @app_commands.command(name="unfollow", description="Stop following a game")
    @app_commands.describe(game="Game number")
    @app_commands.autocomplete(game=followed_autocomplete)
    async def unfollow(self, itx: discord.Interaction[Any], game: int) -> None:
        await self.bot.archive.unfollow(itx, game)

    @app_commands.command(
        name="rules", description="A game's rules: a summary, and the complete rules as a file"
    )
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, itx: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        await self.bot.table.rules(itx, game.value, full=False)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(GameCog(bot))
