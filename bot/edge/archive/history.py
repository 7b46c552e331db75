"""``/game history``: a server's finished games, newest first, page by page,
and the **History** button of ``/profile`` (issue 21).

The history is read from storage alone (the games' rows, seats, stored
outcomes and rating changes): no game is loaded or replayed to list it.  Its
pages are stateless: each button's custom_id names the page and its filters
(:class:`bot.edge.archive.texts.HistoryPage`), so they work after a restart.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.edge.archive.replays import ReplayButton
from bot.edge.archive.texts import (
    HISTORY_VERBS,
    PAGE_SIZE,
    SERVER_ONLY,
    HistoryPage,
    history_custom_id,
    history_row,
    short_name,
    title_of,
)
from bot.edge.delivery.texts import jump_url
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import edit_reply, reply
from bot.engines.core import GameError
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, localize, t, tn
from storage.games import GameRecord

log = logging.getLogger(__name__)


class History:
    """A server's finished games, page by page."""

    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> History:
        """The bot's :class:`History`, for a component's callback."""
        return cast(History, itx.client.history)

    @refusing
    async def open_history(
        self,
        itx: discord.Interaction[Any],
        player_id: int | None,
        engine_name: str | None,
        *,
        share: bool = False,
    ) -> None:
        """The first page of a server's finished games (of one player, of one
        game), newest first.  Only the asker sees it unless they ``share`` it:
        a list of results is mostly one person's looking back, and a page
        turned by one reader should not move under everyone else's eyes."""
        guild_id = itx.guild_id
        if guild_id is None:
            raise GameError(SERVER_ONLY)
        await itx.response.defer(ephemeral=not share, thinking=True)
        total, records = await self.bot.store.finished(
            guild_id, user_id=player_id, engine=engine_name, limit=PAGE_SIZE
        )
        # The newest end shown: later games stay off these pages.
        newest = records[0].updated_at if records else self.bot.clock()
        # In milliseconds: a game that ends a moment later stays off.
        until = math.floor(newest * 1000) + 1
        page = HistoryPage(itx.user.id, player_id or 0, engine_name or "all", until, 0)
        # Shared: the channel reads it; else only the asker.
        lang = (
            await self.bot.languages.for_channel(guild_id, itx)
            if share
            else await self.bot.languages.for_reader(itx)
        )
        content, view = await self._page(guild_id, page, total, records, lang)
        await reply(itx, content, ephemeral=not share, suppress_embeds=True, **_view(view))

    @refusing
    async def history_page(
        self, itx: discord.Interaction[Any], page: HistoryPage, verb: str
    ) -> None:
        """⏮ ◀ ▶ ⏭: the page asked for, read again, in place of the one shown."""
        guild_id = itx.guild_id
        if guild_id is None:
            raise GameError(SERVER_ONLY)
        if itx.user.id != page.owner:
            raise GameError(
                Msg(
                    "Only the member who asked for this history turns its pages; "
                    "`/game history` shows you your own."
                ),
            )
        player = page.player or None
        engine = None if page.engine == "all" else page.engine
        total, _ = await self.bot.store.finished(
            guild_id, user_id=player, engine=engine, until=page.until / 1000, limit=0
        )
        pages = max(1, math.ceil(total / PAGE_SIZE))
        wanted = {
            "first": 0,
            "prev": page.page - 1,
            "next": page.page + 1,
            "last": pages - 1,
        }[verb]
        target = min(max(wanted, 0), pages - 1)
        _, records = await self.bot.store.finished(
            guild_id,
            user_id=player,
            engine=engine,
            until=page.until / 1000,
            limit=PAGE_SIZE,
            offset=target * PAGE_SIZE,
        )
        shown = dataclasses.replace(page, page=target)
        lang = await self.bot.languages.for_reader(itx)
        content, view = await self._page(guild_id, shown, total, records, lang)
        if target != wanted:
            # A page that no longer exists (games were deleted since it
            # was drawn): say so rather than show something else silently.
            content = (
                t(
                    lang,
                    "That page is gone (the history is shorter now); here is page {page}.",
                    page=target + 1,
                )
                + "\n"
                + content
            )
        await edit_reply(itx, content, suppress_embeds=True, view=view)

    async def _page(
        self,
        guild_id: int,
        page: HistoryPage,
        total: int,
        records: Sequence[GameRecord],
        lang: str = DEFAULT,
    ) -> tuple[str, discord.ui.View | None]:
        store = self.bot.store
        player = page.player or None
        engine = None if page.engine == "all" else page.engine
        who = ""
        if player is not None:
            names = await self.bot.service.ratings.seat_names(guild_id, [player])
            who = short_name(names.get(player) or t(lang, "that player"))
        game = title_of(engine, lang) if engine is not None else ""
        if not records:
            return (
                _filtered(
                    lang,
                    who,
                    game,
                    Msg("No finished games on this server yet: games show up here when they end."),
                    Msg(
                        "No finished games of **{who}** on this server yet: games show up here "
                        "when they end.",
                        who=who,
                    ),
                    Msg(
                        "No finished games in {game} on this server yet: games show up here "
                        "when they end.",
                        game=game,
                    ),
                    Msg(
                        "No finished games of **{who}** in {game} on this server yet: games "
                        "show up here when they end.",
                        who=who,
                        game=game,
                    ),
                ),
                None,
            )
        pages = max(1, math.ceil(total / PAGE_SIZE))
        ids = [r.id for r in records]
        seats = await store.seats_of(ids)
        changes = await self.bot.service.ratings.changes(ids)
        rows = []
        for record in records:
            link = await self._link(record)
            changed = changes.get(record.id, {})
            rows.append(history_row(record, seats[record.id], changed, link, player, lang))
        games = tn(lang, "{n} game", "{n} games", total)
        if pages > 1:
            count = t(
                lang,
                "{games}; page {page} of {pages}",
                games=games,
                page=page.page + 1,
                pages=pages,
            )
        else:
            count = games
        head = _filtered(
            lang,
            who,
            game,
            Msg("**Finished games** on this server, newest first ({count}):", count=count),
            Msg(
                "**Finished games of **{who}**** on this server, newest first ({count}):",
                who=who,
                count=count,
            ),
            Msg(
                "**Finished games in {game}** on this server, newest first ({count}):",
                game=game,
                count=count,
            ),
            Msg(
                "**Finished games of **{who}** in {game}** on this server, newest first ({count}):",
                who=who,
                game=game,
                count=count,
            ),
        )
        return "\n".join([head, *rows]), history_view(page, pages, ids, lang)

    async def _link(self, record: GameRecord) -> str:
        """Where the game was played: its last board, else its thread or channel."""
        board = await self.bot.store.get_message(record.id, "board")
        if board is not None:
            return jump_url(record.guild_id, board[0], board[1])
        return jump_url(record.guild_id, record.thread_id or record.channel_id)


def _filtered(lang: str, who: str, game: str, *said: Msg) -> str:
    """One of four sentences, by whose games (``who``) and which game
    (``game``) a history lists: all, one player's, one game's, or both."""
    everyone, one_player, one_game, both = said
    chosen = (both if game else one_player) if who else (one_game if game else everyone)
    return localize(chosen, lang)


def _view(view: discord.ui.View | None) -> dict[str, Any]:
    return {} if view is None else {"view": view}


# -- the components ---------------------------------------------------------------


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:history:(?P<owner>\d+):(?P<player>\d+):(?P<game>[a-z_]{1,40})"
    r":(?P<until>\d+):(?P<page>\d+):(?P<verb>first|prev|next|last)",
):
    """⏮ ◀ ▶ ⏭ under a page of ``/game history``.  Stateless: the
    custom_id holds the page shown and its filters (ids, a game's name, a
    time and a number: at most 95 characters), so the buttons work after a
    restart, and the archive reads the page again when one is pressed."""

    def __init__(
        self, page: HistoryPage, verb: str, *, disabled: bool = False, row: int | None = None
    ) -> None:
        self.page, self.verb = page, verb
        super().__init__(
            discord.ui.Button(
                label=HISTORY_VERBS[verb],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=history_custom_id(page, verb),
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        page = HistoryPage(
            int(match["owner"]),
            int(match["player"]),
            match["game"],
            int(match["until"]),
            int(match["page"]),
        )
        return cls(page, match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await History.of(itx).history_page(itx, self.page, self.verb)


class PlayerHistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:history:(?P<player>\d+)",
):
    """**History** under a ``/profile``: that player's finished games, the
    first page of ``/game history player:…``, answered only to whoever
    presses it (the profile itself is the channel's)."""

    def __init__(self, player_id: int, lang: str = DEFAULT) -> None:
        self.player_id = player_id
        super().__init__(
            discord.ui.Button(
                label=t(lang, "History"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"chaupal:history:{player_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayerHistoryButton:
        return cls(int(match["player"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await History.of(itx).open_history(itx, self.player_id, None)


def player_history_view(player_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayerHistoryButton(player_id, lang))
    return view


def history_view(
    page: HistoryPage, pages: int, game_ids: Sequence[int], lang: str = DEFAULT
) -> discord.ui.View | None:
    """The page's **Replay** buttons (one row: a page holds at most five
    games) and, when there is more than one page, ⏮ ◀ ▶ ⏭."""
    if not game_ids and pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for game_id in game_ids[:5]:
        view.add_item(ReplayButton(game_id, t(lang, "Replay #{id}", id=game_id)))
    if pages > 1:
        last = page.page >= pages - 1
        for verb in HISTORY_VERBS:
            first = verb in ("first", "prev")
            view.add_item(
                HistoryButton(page, verb, disabled=page.page == 0 if first else last, row=1)
            )
    return view


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HistoryButton,
    PlayerHistoryButton,
)
"""The components whose clicks :class:`History` answers."""
