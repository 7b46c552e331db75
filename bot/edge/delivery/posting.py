"""Where a game's messages go (part of :class:`~bot.edge.delivery.delivery.Delivery`):
its thread or its channel, posting there (back to the channel when the
thread is gone), the thread itself and the lobby message's status line,
recording what was delivered, and the images."""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.edge.alt import private_alt
from bot.edge.delivery.texts import (
    jump_url,
    status_line,
    thread_name,
)
from bot.edge.ports import Edge
from bot.edge.replies import NO_PINGS
from bot.edge.tables.lobbies import lobby_text
from bot.engines.core import Seat
from bot.i18n import DEFAULT, t
from bot.outgoing import (
    clip,
    game_title,
    plain_name,
)
from bot.server_settings import server_settings
from bot.service import LiveGame
from storage.games import OutboxRow

if TYPE_CHECKING:
    pass


log = logging.getLogger(__name__)

SOLO_NARRATION_LINES = 12
"""At a person's table with automatic seats, a board tells a whole round of
their moves (issue 30): up to this many lines."""

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread hides from the channel list after 7 days without posts
(posting reopens it)."""

VIEW_NOTE_CHARS = 300
"""A standing private view's line on what changed is at most this long."""


class _ClaimLost(Exception):
    """Another process took this game's delivery over (issue 20)."""


class Posting:
    """Posting in a game's place, and what every part of delivery shares."""

    def __init__(self, bot: Edge, owner: str) -> None:
        self.bot = bot
        self.owner = owner
        self._gone: set[int] = set()
        """Threads found deleted (their games fall back to their channels)."""
        self._status: dict[int, str] = {}
        """The status line each game's lobby message was last edited to."""

    def place_id(self, game: LiveGame) -> int:
        """Where the game is played: its thread, else its channel."""
        thread_id = game.record.thread_id
        if thread_id is not None and thread_id not in self._gone:
            return thread_id
        return game.record.channel_id

    def channel(self, game: LiveGame) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(self.place_id(game), guild_id=game.record.guild_id)

    async def send(
        self,
        game: LiveGame,
        *,
        files: Sequence[tuple[str, bytes]] = (),
        descriptions: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> discord.Message:
        """Post in the game's thread (or its channel).  ``files`` are
        ``(filename, bytes)``; other arguments go to ``send`` as they are (build
        them with :mod:`bot.outgoing`); ``descriptions`` are the files' alt
        texts by filename (:mod:`bot.edge.alt`).  A thread that is gone (deleted, or
        closed to the bot) is dropped: the game falls back to its channel, the
        channel is told once, and the message is posted there instead.  Raises
        ``discord.HTTPException`` when the post fails anyway."""

        async def post() -> discord.Message:
            alts = descriptions or {}
            made = [
                discord.File(io.BytesIO(data), filename=name, description=alts.get(name))
                for name, data in files
            ]
            extra: dict[str, Any] = {"files": made} if made else {}
            return await self.channel(game).send(**kwargs, **extra)

        in_thread = self.place_id(game) != game.record.channel_id
        try:
            return await post()
        except (discord.NotFound, discord.Forbidden) as exc:
            if not in_thread:
                raise
            log.info(
                "game %d: its thread is gone (%s %s); back to its channel",
                game.id,
                exc.status,
                exc.code,
            )
            await self._thread_gone(game)
            return await post()

    async def _thread_gone(self, game: LiveGame) -> None:
        thread_id = game.record.thread_id
        if thread_id is None:
            return
        self._gone.add(thread_id)
        live = await self.bot.service.get(game.id)
        if live.record.thread_id == thread_id:
            await self.bot.store.set_thread(game.id, None)
            live.record = dataclasses.replace(live.record, thread_id=None)
        lang = await self.channel_lang(game)
        await self._notice(
            game,
            "thread-gone",
            t(
                lang,
                "The thread of {title} is gone, so the game goes on here in the channel.",
                title=game_title(game, lang),
            ),
        )

    async def channel_lang(self, game: LiveGame) -> str:
        """The language of what the game's channel reads (its server's)."""
        return await self.bot.languages.for_channel(game.record.guild_id)

    async def _notice(self, game: LiveGame, kind: str, text: str) -> bool:
        """A short message in the game's channel, at most once per game and
        ``kind`` (remembered with the game's messages); True once posted."""
        key = f"notice:{kind}"
        if await self.bot.store.get_message(game.id, key) is not None:
            return True
        try:
            message = await self.bot.get_partial_messageable(
                game.record.channel_id, guild_id=game.record.guild_id
            ).send(content=clip(text), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a notice (%s %s)", game.id, exc.status, exc.code)
            return False
        await self.bot.store.set_message(game.id, key, message.channel.id, message.id)
        return True

    async def open_thread(self, game: LiveGame) -> LiveGame:
        """Before a game's first board: open its thread from the lobby
        message, or say once in the channel why it is played there."""
        record = game.record
        if record.thread_id is not None or record.guild_id is None:
            return game
        store = self.bot.store
        if await store.get_message(game.id, "notice:no-thread") is not None:
            return game  # decided (and said) already
        lobby = await store.get_message(game.id, "lobby")
        if lobby is None:
            # A tournament's game has no lobby: its table message is posted
            # now, and the thread opens from it.
            lobby = await self.bot.desk.table_message(game)
        if lobby is None:
            return game  # no lobby message to open a thread from
        if isinstance(self.bot.get_channel(lobby[0]), discord.Thread):
            return game  # opened in a thread already: played there
        lang = await self.channel_lang(game)
        title = game_title(game, lang)
        settings = await server_settings(self.bot.server_settings, record.guild_id)
        if not settings.threads:
            why = t(
                lang,
                "{title} is played here in the channel: threads are turned off on this "
                "server (`/moderate settings threads`).",
                title=title,
            )
        else:
            try:
                thread = await (
                    self.bot.get_partial_messageable(lobby[0], guild_id=record.guild_id)
                    .get_partial_message(lobby[1])
                    .create_thread(
                        name=thread_name(game, lang), auto_archive_duration=THREAD_ARCHIVE_MINUTES
                    )
                )
            except discord.Forbidden as exc:
                log.info("game %d: may not open a thread (%s)", game.id, exc.code)
                why = t(
                    lang,
                    "{title} is played here in the channel: I may not open threads here "
                    "(I need the Create Public Threads and Send Messages in Threads "
                    "permissions).",
                    title=title,
                )
            except (discord.HTTPException, ValueError) as exc:
                log.warning("game %d: could not open a thread (%s)", game.id, exc)
                why = t(
                    lang,
                    "{title} is played here in the channel: Discord would not open a thread.",
                    title=title,
                )
            else:
                live = await self.bot.service.get(game.id)
                await store.set_thread(game.id, thread.id)
                live.record = dataclasses.replace(live.record, thread_id=thread.id)
                return dataclasses.replace(
                    game, record=dataclasses.replace(record, thread_id=thread.id)
                )
        await self._notice(game, "no-thread", why)
        return game

    async def update_status(self, game: LiveGame) -> None:
        """Edit the lobby message: who plays (as the lobby said), then the
        game's status line, only when that text changed (a move changes
        neither).  Never fails delivery: a deleted lobby message just stays
        deleted."""
        store = self.bot.store
        lobby = await store.get_message(game.id, "lobby")
        if lobby is None:
            return
        place = self.place_id(game)
        thread_id = place if place != game.record.channel_id else None
        final_board = ""
        if thread_id is None and game.is_over:
            # Without a thread the final board is the one worth a link; the
            # newest board during play would change with every move.
            board = await store.get_message(game.id, "board")
            if board is not None:
                final_board = jump_url(game.record.guild_id, board[0], board[1])
        content = lobby_text(
            game,
            defaults=await self.bot.service.server_defaults(game.record.guild_id),
            status=status_line(game, thread_id, final_board, lang=await self.channel_lang(game)),
            heading=await self.bot.desk.heading(game),
        )
        if self._status.get(game.id) == content:
            return
        try:
            await (
                self.bot.get_partial_messageable(lobby[0], guild_id=game.record.guild_id)
                .get_partial_message(lobby[1])
                .edit(content=content, allowed_mentions=NO_PINGS)
            )
        except discord.HTTPException as exc:
            log.info("game %d: lobby status not edited (%s %s)", game.id, exc.status, exc.code)
            return
        if game.is_over:
            self._status.pop(game.id, None)  # final: nothing to compare with any more
        else:
            self._status[game.id] = content

    async def record(self, game_id: int, row: OutboxRow) -> None:
        """Record a delivery, only while this process holds the game's
        delivery (issue 20: marked done only by whoever still holds it)."""
        if not await self.bot.store.set_outbox(game_id, row, claimed_by=self.owner):
            raise _ClaimLost(game_id)

    async def public_png(self, game: LiveGame, lang: str | None = None) -> bytes:
        """The public board's image, in ``lang`` (None: the channel's)."""
        if lang is None:
            lang = await self.channel_lang(game)
        view = game.engine.view(game.state, None)
        return await self.bot.renders.png(
            game.engine.name, "board", view, self._names(game), lang=lang
        )

    async def private_png(self, game: LiveGame, seat: Seat, lang: str = DEFAULT) -> bytes:
        """A seat's private view's image, in ``lang`` (its reader's)."""
        view = game.engine.view(game.state, seat)
        return await self.bot.renders.png(
            game.engine.name, "private", view, self._names(game), lang=lang
        )

    @staticmethod
    def _names(game: LiveGame) -> list[str]:
        return [plain_name(n) for n in game.names]

    async def private_file(self, game: LiveGame, seat: Seat, lang: str = DEFAULT) -> discord.File:
        """A seat's view as a file, drawn and described in ``lang`` (the reader's)."""
        png = await self.private_png(game, seat, lang)
        return discord.File(
            io.BytesIO(png),
            filename=f"chaupal-{game.id}-private.png",
            description=private_alt(game, seat, lang),
        )
