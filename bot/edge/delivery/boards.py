"""The public board (part of :class:`~bot.edge.delivery.delivery.Delivery`):
posted when someone new must act, else edited in place; the "your turn"
DMs and the followers' DMs the board owes, and the final board's files."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import logging
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.edge.alt import board_alt, replay_alt
from bot.edge.delivery.texts import (
    FOLLOW,
    NARRATION_LINES,
    OWED,
    OWED_END,
    TIMEOUT_EVENT,
    TURN,
    Audience,
    _owed,
    asked_privately,
    headline,
    jump_url,
)
from bot.edge.ports import Edge
from bot.edge.replies import NO_PINGS, pinging
from bot.edge.tables.menus import board_menu
from bot.engines.core import CHANCE, Seat
from bot.engines.messages import decode
from bot.i18n import DEFAULT, t
from bot.outgoing import (
    clip,
    game_title,
    mention,
    safe_name,
)
from bot.rendering import UPLOAD_LIMIT
from bot.replay import load_record
from bot.service import LiveGame
from bot.takeback import takeback_target
from storage.games import OutboxRow

if TYPE_CHECKING:
    from storage.followers import Follower

from bot.edge.delivery.posting import Posting

log = logging.getLogger(__name__)

SOLO_NARRATION_LINES = 12
"""At a person's table with automatic seats, a board tells a whole round of
their moves (issue 30): up to this many lines."""

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread hides from the channel list after 7 days without posts
(posting reopens it)."""

VIEW_NOTE_CHARS = 300
"""A standing private view's line on what changed is at most this long."""


class Boards:
    """A game's public board and the DMs it owes."""

    def __init__(self, bot: Edge, posting: Posting) -> None:
        self.bot = bot
        self.posting = posting

    async def board(
        self,
        game: LiveGame,
        rows: Mapping[str, OutboxRow],
        actor: Seat | None,
        audience: Audience,
    ) -> bool:
        row = rows.get("board")
        over = game.is_over
        if row is not None and row.version >= game.version and (row.over or not over):
            return True
        awaited = frozenset() if over else game.engine.waiting_on(game.state)
        if not over and game.solo and not game.awaits_people():
            # A person alone with automatic seats: their moves go out
            # together, on the board the person acts on next (issue 30).
            # Nothing is recorded: that board tells everything since this.
            return True
        before = row.awaited if row is not None else frozenset()
        since = row.version if row is not None else 0
        entries = await self.bot.store.log(game.id, after_seq=since, up_to=game.version)
        narrations = [decode(e.narration) for e in entries if e.narration]
        chance = any(e.actor == CHANCE for e in entries)
        # A simultaneous phase (several seats to move: commits, set-ups) that
        # resolved is a public event (the reveal) worth a new message, even
        # when the last to commit is also the first to act after it; a first
        # commit that merely leaves one seat to move is not.
        simultaneous = len(game.engine.to_move(game.state) - {CHANCE}) >= 2
        resolved = row is not None and row.simultaneous and not simultaneous and actor in awaited
        # Ping whoever newly must act; a seat still waited on from the last
        # board was pinged then, and the actor is at the keyboard already.
        # A seat whose time ran out since the last board and that still owes
        # the next decision (a second die, a banked throw, a second pick in
        # a snake draft) starts a new wait, with a full clock: the automatic
        # player made its move, so its player is not at the keyboard and is
        # told as if the turn had just passed to them.
        timed_out = {e.actor for e in entries if e.action == TIMEOUT_EVENT}
        # So does a seat that made a move since the last board and is awaited
        # again after others moved (a person alone with automatic seats,
        # whose rounds go out as one board): a new decision, not the one the
        # last board named.
        moved = {e.actor for e in entries if e.actor >= 0 and not e.action.startswith("@")}
        # So does every seat a takeback (issue 31) awaits again: the game went
        # back, and its decision is not the one the last board named.
        went_back = any(takeback_target(e.action) is not None for e in entries)
        back = set(awaited) if went_back else set()
        renewed = (awaited & before & (timed_out | (moved - {actor}) | back)) - {actor}
        newly = (set(awaited - before) | renewed) - {actor}
        # One notification per owed decision (issue 30), the way the player
        # asked (``/chaupal me turn``): a ping on this board, a "your turn"
        # DM, or both.  A decision made in a DM menu is announced by that DM
        # (the decision is one tap away there), whatever the setting, and
        # the board names its player without pinging them; a player who
        # asked for both is pinged here as well.  Nobody is told again when
        # a simultaneous phase comes down to them: the last to commit was
        # told when it began.
        served = board_menu(game).seats
        by_menu = {s for s in newly if asked_privately(game, s, served)} & audience.reach
        both = audience.ping & audience.dm
        pings = (newly - by_menu) | (by_menu & both)
        turns = ((newly - by_menu) & audience.dm) | by_menu
        # A new message when someone new must act, the game ended or chance
        # showed something (dice, cards); when the awaited set only shrank
        # (players committing one by one) the board is edited in place.
        fresh = row is None or over or bool(awaited - before) or bool(renewed) or chance or resolved
        # Players who asked not to be pinged in the channel (DM only), who
        # are away or in their quiet hours, or whose DM announces their
        # decision, are named, not mentioned.  In the channel's language.
        lang = await self.posting.channel_lang(game)
        content = headline(
            game,
            narrations,
            now=self.bot.clock(),
            away=audience.away,
            named=awaited - (pings & audience.ping),
            lines=SOLO_NARRATION_LINES if game.solo else NARRATION_LINES,
            lang=lang,
        )
        sent = False
        if not fresh:
            sent = await self._edit_board(game, content, lang)
        edited = sent
        if not sent:
            sent = await self._post_board(
                game, content, pings & audience.ping, nonce=True, lang=lang
            )
        if sent:
            # The DMs this wait owes, recorded before the board's own row so
            # that a crash in between loses none (see ``TURN``).
            shown_at = row.version if row is not None else -1
            await self._owe_turns(game, rows, turns, shown_at)
            await self._owe_follows(game, rows, new_board=not edited)
            # Sticky while the same message is edited: it still shows the
            # phase until a new board replaces it.
            shown = simultaneous or (not fresh and row is not None and row.simultaneous)
            await self.posting.record(
                game.id,
                OutboxRow("board", game.version, awaited=awaited, over=over, simultaneous=shown),
            )
            await self.posting.update_status(game)
        return sent

    async def _owe_turns(
        self,
        game: LiveGame,
        rows: Mapping[str, OutboxRow],
        seats: Collection[Seat],
        since: int,
    ) -> None:
        """Record that ``seats`` are owed a "your turn" DM for the wait that
        began after the board of version ``since``; a seat whose DM for that
        wait is owed or sent already (a retry, a restart) owes nothing more."""
        for seat in sorted(seats):
            key = f"{TURN}{seat}"
            old = rows.get(key)
            if old is not None and old.version > since:
                continue
            await self.posting.record(
                game.id,
                OutboxRow(
                    key,
                    game.version,
                    digest=OWED,
                    notice=old.notice if old is not None else False,
                ),
            )

    async def _owe_follows(
        self, game: LiveGame, rows: Mapping[str, OutboxRow], *, new_board: bool
    ) -> None:
        """Record the DMs this board owes the game's followers: the final
        board to every follower, and each new board message (not an edit in
        place: the channel's own rhythm) to those who follow every move.  A
        follower owed or sent this version already (a retry) owes nothing."""
        over = game.is_over
        if not over and not new_board:
            return
        for follower in await self.bot.followers.of_game(game.id):
            if follower.dms_closed or not (over or follower.every_move):
                continue
            key = f"{FOLLOW}{follower.user_id}"
            old = rows.get(key)
            if old is not None and old.version >= game.version:
                continue
            await self.posting.record(
                game.id, OutboxRow(key, game.version, digest=OWED_END if over else OWED)
            )

    async def follow(self, game: LiveGame, row: OutboxRow) -> bool:
        """Send a follower the DM their row owes, once: the public board and
        the public narration only, never a seat's view.  A follower who
        unfollowed or whose DMs are closed is dropped; Discord's refusal
        (50007) closes them for this game and never fails the game's
        delivery."""
        user_id = int(row.target.removeprefix(FOLLOW))
        follower = await self.bot.followers.get(game.id, user_id)
        if follower is None or follower.dms_closed or (not game.is_over and row.digest == OWED_END):
            await self.posting.record(game.id, dataclasses.replace(row, digest="dropped"))
            return True
        lang = await self.bot.languages.for_member(user_id)
        content, files = await self.follower_message(game, follower, row, lang)
        alts = await self.alts(game, files, lang)
        # One DM per follower and version: a retry after a crash mid-send is
        # dropped by Discord.  A digest, because a user id is too long for
        # Discord's 25 characters (it names nothing hidden either way).
        nonce = "f" + hashlib.sha256(f"{game.id}.{user_id}.{row.version}".encode()).hexdigest()
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                content=clip(content),
                files=[
                    discord.File(io.BytesIO(data), filename=name, description=alts.get(name))
                    for name, data in files
                ],
                allowed_mentions=NO_PINGS,
                nonce=nonce[:25],
            )
        except discord.Forbidden as exc:
            log.info("game %d: a follower's DMs are closed (code %s)", game.id, exc.code)
            await self.bot.followers.close_dms(game.id, user_id)
            await self.posting.record(game.id, dataclasses.replace(row, digest="dropped"))
            return True
        except discord.HTTPException as exc:
            log.warning("game %d: a follower's DM failed (%s %s)", game.id, exc.status, exc.code)
            return False
        await self.posting.record(game.id, dataclasses.replace(row, digest="sent"))
        return True

    async def follower_message(
        self, game: LiveGame, follower: Follower, row: OutboxRow, lang: str = DEFAULT
    ) -> tuple[str, list[tuple[str, bytes]]]:
        """A follower's DM: its text and its files.  Only what the channel
        shows: the public narration since the follower's last DM, who acts
        next or the result (names, never mentions: nobody but the reader is
        in a DM), a link to the game, and :meth:`final_files` at the end."""
        since = max(0, game.version - NARRATION_LINES * 4)
        entries = await self.bot.store.log(game.id, after_seq=since, up_to=game.version)
        narrations = [decode(e.narration) for e in entries if e.narration]
        # The end: the last moves before the result; else what led to this board.
        narrations = narrations[-2:] if game.is_over else narrations[-NARRATION_LINES:]
        everyone = set(range(len(game.seats)))
        text = headline(game, narrations, named=everyone, lang=lang)
        link = await self.board_link(game)
        lead = (
            t(
                lang,
                "The end of a game you follow (its final board and the replay of the whole game):",
            )
            if game.is_over
            else t(lang, "A game you follow moved on:")
        )
        tail = t(
            lang,
            "The game: {link} · `/game unfollow game:{game}` to stop.",
            link=link,
            game=game.id,
        )
        if game.is_over:
            files = await self.final_files(game, lang=lang)
        else:
            png = await self.posting.public_png(game, lang)
            files = [(f"chaupal-{game.id}-{game.version}.png", png)]
        return clip(f"{lead}\n{text}\n{tail}"), files

    async def final_files(
        self, game: LiveGame, limit: int = UPLOAD_LIMIT, lang: str | None = None
    ) -> list[tuple[str, bytes]]:
        """How a game that is over is shown to a follower at its end: its
        final board (the public view) and the animated replay of the whole
        game (issue 21 §1, drawn in the render pool, from its cache when
        someone asked for it already).  Both within ``limit`` bytes (one
        message's upload): the replay alone when both would not fit; the
        board alone, and a log line, when the replay cannot be drawn (the DM
        still goes out; ``/game replay`` can try again)."""
        board = (
            f"chaupal-{game.id}-{game.version}.png",
            await self.posting.public_png(game, lang),
        )
        try:
            drawn = await self.bot.renders.replay(await load_record(self.bot.store, game.id))
        except Exception:
            log.exception("game %d: its replay could not be drawn; the final board alone", game.id)
            return [board]
        replay = (f"chaupal-{game.id}-replay.gif", drawn.data)
        if len(board[1]) + len(drawn.data) > limit:
            return [replay] if len(drawn.data) <= limit else [board]
        return [board, replay]

    async def alts(
        self, game: LiveGame, files: list[tuple[str, bytes]], lang: str
    ) -> dict[str, str]:
        """The descriptions of a game's public files (its board, its replay
        from the render pool's cache) in ``lang``, by filename."""
        out: dict[str, str] = {}
        for name, _ in files:
            if name.endswith(".gif"):
                try:
                    record = await load_record(self.bot.store, game.id)
                    drawn = await self.bot.renders.replay(record)
                except Exception:
                    log.exception("game %d: its replay could not be described", game.id)
                    continue
                out[name] = replay_alt(game, drawn, lang)
            else:
                out[name] = board_alt(game, lang)
        return out

    def turn_text(self, game: LiveGame, row: OutboxRow, link: str, lang: str = DEFAULT) -> str:
        return t(lang, "Your turn in {title}: {link}", title=game_title(game, lang), link=link)

    async def board_link(self, game: LiveGame) -> str:
        board = await self.bot.store.get_message(game.id, "board")
        if board is None:
            return f"<#{self.posting.place_id(game)}>"
        return jump_url(game.record.guild_id, board[0], board[1])

    async def turn(
        self, game: LiveGame, seat: Seat, row: OutboxRow | None, audience: Audience
    ) -> bool:
        """Send a seat the "your turn" DM its wait owes (see ``TURN``), once;
        silently in their quiet hours, never while they are away or once the
        wait is over.  With DMs closed, the channel pings them instead."""
        if row is None or not _owed(row):
            return True
        awaited = frozenset() if game.is_over else game.engine.waiting_on(game.state)
        # Only to whoever holds the seat now: a player who left it has no turn.
        user_id = game.holder(seat)
        if seat not in awaited or seat in audience.away or user_id is None:
            await self.posting.record(game.id, dataclasses.replace(row, digest="dropped"))
            return True
        link = await self.board_link(game)
        closed = False
        try:
            lang = await self.bot.languages.for_member(user_id)
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                content=clip(self.turn_text(game, row, link, lang)),
                allowed_mentions=NO_PINGS,
                silent=audience.silent(seat),
                # One wait, one DM: a retry after a crash mid-send is dropped
                # by Discord.
                nonce=f"t{game.id}.{seat}v{row.version}",
            )
        except discord.Forbidden as exc:
            log.info("game %d: DMs closed for a player's turn (code %s)", game.id, exc.code)
            closed = True
            if audience.reachable(seat):
                # The channel tells them instead, with a ping; by name when
                # the board just pinged them (``both``): one wait, one ping.
                ping = seat not in audience.ping
                who = mention(user_id) if ping else f"**{safe_name(game.names[seat])}**"
                channel_lang = await self.posting.channel_lang(game)
                try:
                    await self.posting.send(
                        game,
                        content=clip(
                            t(
                                channel_lang,
                                "{who} it is your turn in {title} "
                                "(your DMs are closed to me, so I say it here).",
                                who=who,
                                title=game_title(game, channel_lang),
                            )
                        ),
                        allowed_mentions=pinging([user_id]) if ping else NO_PINGS,
                        nonce=f"t{game.id}.{seat}v{row.version}",
                    )
                except discord.HTTPException as exc2:
                    log.warning(
                        "game %d: could not post a turn notice (%s %s)",
                        game.id,
                        exc2.status,
                        exc2.code,
                    )
                    return False
        except discord.HTTPException as exc:
            log.warning("game %d: turn DM failed (%s %s)", game.id, exc.status, exc.code)
            return False
        await self.posting.record(
            game.id, dataclasses.replace(row, digest="sent", notice=row.notice or closed)
        )
        return True

    async def post_board(
        self, game: LiveGame, content: str, lang: str | None = None
    ) -> discord.Message | None:
        """Post the current board again (``/game board``), pinging nobody."""
        return await self._send_board(game, content, set(), nonce=False, lang=lang)

    async def _post_board(
        self,
        game: LiveGame,
        content: str,
        pings: set[Seat],
        *,
        nonce: bool,
        lang: str | None = None,
    ) -> bool:
        return await self._send_board(game, content, pings, nonce=nonce, lang=lang) is not None

    async def _send_board(
        self,
        game: LiveGame,
        content: str,
        pings: set[Seat],
        *,
        nonce: bool,
        lang: str | None = None,
    ) -> discord.Message | None:
        """The board posted, its image and buttons in ``lang`` (None: the
        channel's language)."""
        if lang is None:
            lang = await self.posting.channel_lang(game)
        png = await self.posting.public_png(game, lang)
        previous = await self.bot.store.get_message(game.id, "board")
        view = self.bot.components.board_view(
            game, rematch=await self.offers_rematch(game), lang=lang
        )
        kwargs: dict[str, Any] = {}
        if nonce:
            # Discord drops a second message with the same nonce for a few
            # minutes: a retry after a crash mid-post cannot post twice.
            kwargs["nonce"] = f"b{game.id}v{game.version}{'o' if game.is_over else ''}"
        name = f"chaupal-{game.id}-{game.version}.png"
        try:
            message = await self.posting.send(
                game,
                content=clip(content),
                files=[(name, png)],
                descriptions={name: board_alt(game, lang)},
                view=view or discord.utils.MISSING,
                allowed_mentions=pinging(game.user_of(s) for s in pings),
                **kwargs,
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post the board (%s %s)", game.id, exc.status, exc.code)
            return None
        await self.bot.store.set_message(game.id, "board", message.channel.id, message.id)
        if previous is not None and previous[1] != message.id:
            # Old boards keep their image but lose their buttons.
            with contextlib.suppress(discord.HTTPException):
                await (
                    self.bot.get_partial_messageable(previous[0])
                    .get_partial_message(previous[1])
                    .edit(view=None)
                )
        return message

    async def offers_rematch(self, game: LiveGame) -> bool:
        """Whether a finished game's board offers **Rematch**: not a
        tournament's game, whose players meet as the pairings say (issue 31)."""
        return game.is_over and not await self.bot.desk.heading(game)

    async def _edit_board(self, game: LiveGame, content: str, lang: str | None = None) -> bool:
        stored = await self.bot.store.get_message(game.id, "board")
        if stored is None:
            return False
        if lang is None:
            lang = await self.posting.channel_lang(game)
        png = await self.posting.public_png(game, lang)
        view = self.bot.components.board_view(
            game, rematch=await self.offers_rematch(game), lang=lang
        )
        try:
            await (
                self.bot.get_partial_messageable(stored[0])
                .get_partial_message(stored[1])
                .edit(
                    content=clip(content),
                    attachments=[
                        discord.File(
                            io.BytesIO(png),
                            filename=f"chaupal-{game.id}-{game.version}.png",
                            description=board_alt(game, lang),
                        )
                    ],
                    view=view,
                    allowed_mentions=NO_PINGS,
                )
            )
        except discord.HTTPException as exc:
            # Deleted, or too old to edit: post a new board instead.
            log.info("game %d: board could not be edited (%s %s)", game.id, exc.status, exc.code)
            return False
        return True
