"""Opening a game: a lobby (``/game new``, **Play** under ``/help``, a
**Rematch**), joining, leaving and starting it (its **Join**, **Leave** and
**Start**, or the commands), and what a game is (its rules, what its
options do: **Rules**, **Complete rules**, **Options**).  The lobby's text
is :mod:`bot.edge.tables.lobbies`; its buttons are here, each custom_id holding
only a game's number or name and a verb, so they work after a restart."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, ClassVar, cast

import discord

from bot.edge.arguments import find_game, player_of
from bot.edge.delivery.delivery import Delivery
from bot.edge.delivery.texts import jump_url
from bot.edge.lobby.options import parse_options
from bot.edge.moderators import is_moderator
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import NO_PINGS, edit_reply, pinging, reply
from bot.edge.tables.lobbies import lobby_text, option_help_lines, title
from bot.engines import get_engine
from bot.engines.core import GameError
from bot.i18n import DEFAULT, N_, PSEUDO, Msg, pseudo, t
from bot.outgoing import clip, mention, safe_name
from bot.service import GameService, LiveGame

log = logging.getLogger(__name__)

LABELS = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "start": N_("Start"),
    "rules": N_("Rules"),
    "full": N_("Full"),
    "options": N_("Options"),
    "new": N_("New"),
}
"""The buttons' labels (a verb's own, where its caller gives none)."""


def rules_summary(engine_name: str, lang: str = DEFAULT) -> str:
    """A game's one-message summary (``bot/engines/data/<game>.rules.md``;
    in another language ``bot/engines/data/<lang>/<game>.rules.md``, the
    English one where a language has none; the pseudo-locale marks the
    English)."""
    data = resources.files("bot.engines") / "data"
    if lang not in (DEFAULT, PSEUDO):
        try:
            return (data / lang / f"{engine_name}.rules.md").read_text(encoding="utf-8")
        except FileNotFoundError:
            pass
    try:
        text = (data / f"{engine_name}.rules.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        return t(lang, "No summary yet.")
    return pseudo(text) if lang == PSEUDO else text


def complete_rules(engine_name: str) -> str:
    """A game's complete rules, with its glossary: the package's copy of
    ``docs/rules/<game>.md`` (``bot/engines/data/rules/``; a test keeps the
    copy identical), so an installed bot has them without the repository."""
    return (resources.files("bot.engines") / "data" / "rules" / f"{engine_name}.md").read_text(
        encoding="utf-8"
    )


class Lobby:
    """Lobbies: opened, joined, left, started, and rematched; and a game's
    rules and options, which a lobby shows."""

    def __init__(self, bot: Edge, delivery: Delivery) -> None:
        self.bot = bot
        self.delivery = delivery

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Lobby:
        """The bot's :class:`Lobby`, for a component's callback."""
        return cast(Lobby, itx.client.lobby)

    @property
    def service(self) -> GameService:
        return self.bot.service

    @refusing
    async def lobby(self, itx: discord.Interaction[Any], game_id: int | None, verb: str) -> None:
        service = self.service
        lang = await self.bot.languages.for_reader(itx)
        name = safe_name(itx.user.display_name)
        if verb == "join":
            game = await find_game(self.bot.store, self.service, itx, game_id, "lobby")
            game = await service.join(game.id, player_of(itx))
            note = t(lang, "{name} joined game #{game_id}.", name=name, game_id=game.id)
        elif verb == "leave":
            game = await find_game(self.bot.store, self.service, itx, game_id, "mine")
            left = await service.leave(game.id, itx.user.id)
            if left is None:
                await self._refresh_lobby(itx, game, closed=True)
                return
            game = left
            note = t(lang, "{name} left game #{game_id}.", name=name, game_id=game.id)
        else:
            game = await find_game(self.bot.store, self.service, itx, game_id, "any")
            moderator = await is_moderator(self.bot.server_settings, itx)
            result = await service.start(game.id, itx.user.id, moderator=moderator)
            await self._refresh_lobby(itx, result.game)
            await self.delivery.publish(result)
            return
        await self._refresh_lobby(itx, game, note=note)

    async def _refresh_lobby(
        self, itx: discord.Interaction[Any], game: LiveGame, *, note: str = "", closed: bool = False
    ) -> None:
        lang = await self.bot.languages.for_channel(game.record.guild_id, itx)
        content = (
            lobby_text(
                game,
                defaults=await self.service.server_defaults(game.record.guild_id),
                lang=lang,
            )
            if not closed
            else t(lang, "Game #{game_id}: the lobby was closed (everyone left).", game_id=game.id)
        )
        view = None if closed or game.record.status != "lobby" else lobby_rules_view(game, lang)
        stored = await self.bot.store.get_message(game.id, "lobby")
        is_lobby_click = (
            itx.type is discord.InteractionType.component
            and itx.message is not None
            and stored is not None
            and itx.message.id == stored[1]
        )
        if is_lobby_click and not itx.response.is_done():
            await edit_reply(itx, content, view=view)
            return
        if stored is not None:
            try:
                await (
                    self.bot.get_partial_messageable(stored[0])
                    .get_partial_message(stored[1])
                    .edit(content=content, view=view, allowed_mentions=NO_PINGS)
                )
            except discord.HTTPException:
                log.info("game %d: lobby message could not be edited", game.id)
        if not itx.response.is_done() or note:
            await reply(itx, note or content)

    @refusing
    async def new(
        self,
        itx: discord.Interaction[Any],
        engine_name: str,
        options: str | None,
        *,
        bots: int = 0,
        level: str | None = None,
    ) -> None:
        """``/game new``: the options as typed (``name=value, ...``), the
        automatic players' level, then :meth:`open_lobby`."""
        given = parse_options(options)
        if level is not None:
            given = {**given, "level": level}
        await self.open_lobby(itx, engine_name, given, bots=bots)

    @refusing
    async def open_lobby(
        self,
        itx: discord.Interaction[Any],
        engine_name: str,
        options: Mapping[str, str],
        *,
        bots: int = 0,
    ) -> None:
        """A new lobby in this channel (``/game new``, or a **Play** button
        of ``/help``), posted publicly with Join, Leave, Start and Rules;
        ``bots`` seats are the automatic players' (``/game new bots:N``)."""
        if itx.guild_id is None:
            raise GameError(Msg("Start games in a server channel, not in DMs."))
        live = await self.service.new_game(
            engine_name,
            creator=player_of(itx),
            guild_id=itx.guild_id,
            channel_id=itx.channel_id or 0,
            options=dict(options),
            automatic_players=bots,
        )
        lang = await self.bot.languages.for_channel(itx.guild_id, itx)
        text = lobby_text(
            live, defaults=await self.service.server_defaults(itx.guild_id), lang=lang
        )
        await reply(itx, text, ephemeral=False, view=lobby_rules_view(live, lang))
        message = await itx.original_response()
        await self.bot.store.set_message(live.id, "lobby", message.channel.id, message.id)

    @refusing
    async def rematch(self, itx: discord.Interaction[Any], game_id: int) -> None:
        """**Rematch** on a finished game's board: a new lobby of the same
        game with the same options (the game's and the table's) in the
        game's channel, opened by the clicker; the other players are pinged
        once and each presses **Join**.  Only the game's players may press
        it; while the rematch's lobby is open, another press points to it."""

        await itx.response.defer(ephemeral=True)
        old = await self.service.get(game_id)
        if old.seat_of(itx.user.id) is None:
            raise GameError(
                Msg(
                    "Only the players of game #{game_id} can ask for its rematch; "
                    "open a game of your own with /game new.",
                    game_id=game_id,
                )
            )
        if not old.is_over:
            raise GameError(Msg("Game #{game_id} is not over yet.", game_id=game_id))
        if await self.bot.desk.heading(old):
            # Issue 31: its board offers none; an old button asks for one.
            raise GameError(
                Msg(
                    "Game #{game_id} was a tournament's game: its players meet as the "
                    "tournament pairs them.",
                    game_id=game_id,
                )
            )
        lang = await self.bot.languages.for_reader(itx)
        open_link = await self._open_rematch(old)
        if open_link is not None:
            await reply(
                itx,
                t(
                    lang,
                    "The rematch of game #{game_id} is open already: {link}",
                    game_id=game_id,
                    link=open_link,
                ),
            )
            return
        live = await self.service.new_game(
            old.engine.name,
            creator=player_of(itx),
            guild_id=old.record.guild_id,
            channel_id=old.record.channel_id,
            options={**old.record.options, **old.table.to_json()},
        )
        others = sorted({s.user_id for s in old.seats} - {itx.user.id})
        invited = " ".join(mention(u) for u in others)
        channel_lang = await self.bot.languages.for_channel(old.record.guild_id, itx)
        head = t(
            channel_lang,
            "Rematch of game #{game_id}: {invited}, press **Join** to play again.",
            game_id=game_id,
            invited=invited,
        )
        defaults = await self.service.server_defaults(old.record.guild_id)
        try:
            message = await self.bot.get_partial_messageable(old.record.channel_id).send(
                content=clip(head + "\n" + lobby_text(live, defaults=defaults, lang=channel_lang)),
                view=lobby_rules_view(live, channel_lang),
                allowed_mentions=pinging(others),
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a rematch (%s %s)", game_id, exc.status, exc.code)
            await self.service.leave(live.id, itx.user.id)  # closes the empty lobby
            await reply(itx, t(lang, "I could not post the rematch's lobby; nothing changed."))
            return
        await self.bot.store.set_message(live.id, "lobby", message.channel.id, message.id)
        await self.bot.store.set_message(game_id, "rematch", message.channel.id, message.id)
        link = jump_url(old.record.guild_id, message.channel.id, message.id)
        await reply(
            itx, t(lang, "Opened game #{game_id}, the rematch: {link}", game_id=live.id, link=link)
        )

    async def _open_rematch(self, old: LiveGame) -> str | None:
        """A link to the rematch of ``old`` while its lobby is still open."""
        stored = await self.bot.store.get_message(old.id, "rematch")
        if stored is None:
            return None
        for record in await self.bot.store.games_in_channel(old.record.channel_id):
            if (
                record.status == "lobby"
                and await self.bot.store.get_message(record.id, "lobby") == stored
            ):
                return jump_url(old.record.guild_id, stored[0], stored[1])
        return None

    @refusing
    async def rules(self, itx: discord.Interaction[Any], engine_name: str, *, full: bool) -> None:
        """A game's summary with a **Complete rules** button, or (``full``)
        its complete rules as a Markdown file: one message a player can read
        in Discord's preview, download or search, instead of a dozen pages."""
        engine = get_engine(engine_name)
        lang = await self.bot.languages.for_reader(itx)
        if not full:
            await reply(itx, rules_summary(engine.name, lang), view=rules_view(engine.name, lang))
            return
        try:
            text = complete_rules(engine.name)
        except FileNotFoundError:
            raise GameError(
                Msg("The complete rules of {title} are missing.", title=Msg(engine.title))
            ) from None
        await reply(
            itx,
            t(
                lang,
                "The complete rules of **{title}**, as Chaupal plays them; the glossary "
                "of the board's words is at the end.",
                title=title(engine, lang),
            ),
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{engine.name}-rules.md"),
        )

    @refusing
    async def option_help(
        self, itx: discord.Interaction[Any], engine_name: str, game_id: int | None
    ) -> None:
        """What every option of a game does (**Options**): with a lobby's
        ``game_id``, that lobby's values; without, the game's defaults and
        this server's table defaults (under a game's rules).  Only the
        presser sees it; a lobby names only the options it changed."""
        engine = get_engine(engine_name)
        lang = await self.bot.languages.for_reader(itx)
        defaults = await self.service.server_defaults(itx.guild_id)
        values: Mapping[str, Any] = {}
        if game_id is not None:
            game = await self.service.get(game_id)
            if game.engine.name != engine.name or game.record.guild_id != itx.guild_id:
                raise GameError(
                    Msg(
                        "There is no {title} game #{game_id} here.",
                        title=Msg(engine.title),
                        game_id=game_id,
                    )
                )
            values, defaults = game.record.options, game.table
        await reply(itx, "\n".join(option_help_lines(engine, values, defaults, lang)))


# -- the components ---------------------------------------------------------------


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:lobby:(?P<game>\d+):(?P<verb>join|leave|start)",
):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, game_id: int, verb: str, lang: str = DEFAULT) -> None:
        self.game_id, self.verb = game_id, verb
        super().__init__(
            discord.ui.Button(
                label=t(lang, LABELS[verb]),
                style=self.STYLES[verb],
                custom_id=f"chaupal:lobby:{game_id}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game"]), match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Lobby.of(itx).lobby(itx, self.game_id, self.verb)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:rematch:(?P<game>\d+)",
):
    """**Rematch** on a finished game's board: a new lobby of the same game
    and options, opened by whoever pressed it (one of the game's players)."""

    def __init__(self, game_id: int, lang: str = DEFAULT) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t(lang, "Rematch"),
                style=discord.ButtonStyle.success,
                custom_id=f"chaupal:rematch:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Lobby.of(itx).rematch(itx, self.game_id)


class GameHelpButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"chaupal:help:(?P<game>[a-z_]{1,40}):"
        r"(?P<verb>rules|full|new|options)(?::(?P<table>\d{1,20}))?"
    ),
):
    """A game's **Rules** (its summary, with buttons for the complete rules
    and the options), **Complete rules** (the whole rules page as a file),
    **Options** (what every option does: with a lobby's game number, that
    lobby's values) or **Play** (a new lobby in the channel).  The custom_id
    holds only the game's name, the verb and, for a lobby's **Options**, its
    public game number, so the buttons of ``/help`` and of a lobby work after
    a restart; the lobby checks the game again when one is pressed."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "rules": discord.ButtonStyle.secondary,
        "full": discord.ButtonStyle.secondary,
        "options": discord.ButtonStyle.secondary,
        "new": discord.ButtonStyle.success,
    }

    def __init__(
        self,
        engine_name: str,
        verb: str,
        *,
        label: str = "",
        row: int | None = None,
        game_id: int | None = None,
        lang: str = DEFAULT,
    ) -> None:
        self.engine_name, self.verb = engine_name, verb
        # Only **Options** reads a lobby's values; other verbs are the game's.
        self.game_id = game_id if verb == "options" else None
        table = "" if self.game_id is None else f":{self.game_id}"
        super().__init__(
            discord.ui.Button(
                label=(label or t(lang, LABELS[verb]))[:80],
                style=self.STYLES[verb],
                custom_id=f"chaupal:help:{engine_name}:{verb}{table}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameHelpButton:
        table = match["table"]
        return cls(match["game"], match["verb"], game_id=int(table) if table else None)

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        lobby = Lobby.of(itx)
        if self.verb == "new":
            await lobby.open_lobby(itx, self.engine_name, {})
        elif self.verb == "options":
            await lobby.option_help(itx, self.engine_name, self.game_id)
        else:
            await lobby.rules(itx, self.engine_name, full=self.verb == "full")


def lobby_view(game: LiveGame, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("join", "leave", "start"):
        view.add_item(LobbyButton(game.id, verb, lang))
    return view


def rules_view(engine_name: str, lang: str = DEFAULT) -> discord.ui.View:
    """Under a game's summary: its complete rules, and what its options do."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameHelpButton(engine_name, "full", label=t(lang, "Complete rules")))
    view.add_item(GameHelpButton(engine_name, "options", lang=lang))
    return view


def lobby_rules_view(game: LiveGame, lang: str = DEFAULT) -> discord.ui.View:
    """A lobby's buttons: Join, Leave and Start, what this lobby's options
    do (the lobby itself names only those changed), and the game's Rules."""
    view = lobby_view(game, lang)
    view.add_item(GameHelpButton(game.engine.name, "options", game_id=game.id, lang=lang))
    view.add_item(GameHelpButton(game.engine.name, "rules", lang=lang))
    return view


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LobbyButton, RematchButton, GameHelpButton)
"""The components whose clicks :class:`Lobby` answers."""
