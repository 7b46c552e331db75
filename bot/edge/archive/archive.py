"""Looking back and looking on (issue 21): a server's finished games
(``/game history``, the **History** button of ``/profile``), a game's
animated replay (``/game replay``, the **Replay** buttons) and stepping
through it (``/game review``), and members who follow a game they do not
play (``/game follow``, ``/game unfollow``, a tournament round's **Follow**
buttons); with the buttons and menus that ask for them.

Replays and reviews are drawn in the render pool from the game's complete
record, which never leaves it: what comes back is public boards, and, for
a review of a finished game, the asker's own seat's view.

The history is read from storage alone (the games' rows, seats, stored
outcomes and rating changes): no game is loaded or replayed to list it.  Its
pages are stateless: each button's custom_id names the page and its filters
(:class:`bot.edge.archive.texts.HistoryPage`), so they work after a restart.

Following only records a preference (:mod:`storage.followers`); delivery
sends the DMs with the board's outbox, and a follower sees only what the
channel sees.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import math
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.edge.archive.texts import (
    HISTORY_VERBS,
    LAST_FRAME,
    PAGE_SIZE,
    REVIEW_VERBS,
    SERVER_ONLY,
    HistoryPage,
    ReviewMenu,
    ReviewStep,
    history_custom_id,
    history_row,
    replay_filename,
    replay_text,
    review_menus,
    review_target,
    review_text,
    short_name,
    title_of,
)
from bot.edge.delivery.texts import jump_url
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import NO_PINGS, edit_reply, reply
from bot.edge.selects import picked, select
from bot.engines.core import GameError
from bot.outgoing import clip
from bot.replay import load_record
from bot.tenure import Reader
from storage.games import GameRecord

log = logging.getLogger(__name__)


class Archive:
    """The history, replays and reviews, and following a game."""

    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Archive:
        """The bot's :class:`Archive`, for a component's callback."""
        return cast(Archive, itx.client.archive)

    # -- /game history -------------------------------------------------------------

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
        content, view = await self._page(guild_id, page, total, records)
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
                "Only the member who asked for this history turns its pages; "
                "`/game history` shows you your own.",
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
        content, view = await self._page(guild_id, shown, total, records)
        if target != wanted:
            # A page that no longer exists (games were deleted since it
            # was drawn): say so rather than show something else silently.
            content = (
                f"That page is gone (the history is shorter now); here is page {target + 1}.\n"
                + content
            )
        await edit_reply(itx, content, suppress_embeds=True, view=view)

    async def _page(
        self, guild_id: int, page: HistoryPage, total: int, records: Sequence[GameRecord]
    ) -> tuple[str, discord.ui.View | None]:
        store = self.bot.store
        player = page.player or None
        engine = None if page.engine == "all" else page.engine
        whose = ""
        if player is not None:
            names = await self.bot.service.ratings.seat_names(guild_id, [player])
            whose = f" of **{short_name(names.get(player) or 'that player')}**"
        which = f" in {title_of(engine)}" if engine is not None else ""
        if not records:
            content = (
                f"No finished games{whose}{which} on this server yet: games show up here "
                "when they end."
            )
            return content, None
        pages = max(1, math.ceil(total / PAGE_SIZE))
        ids = [r.id for r in records]
        seats = await store.seats_of(ids)
        changes = await self.bot.service.ratings.changes(ids)
        rows = []
        for record in records:
            link = await self._link(record)
            changed = changes.get(record.id, {})
            rows.append(history_row(record, seats[record.id], changed, link, player))
        games = "1 game" if total == 1 else f"{total} games"
        head = f"**Finished games{whose}{which}** on this server, newest first ({games}"
        head += f"; page {page.page + 1} of {pages}):" if pages > 1 else "):"
        return "\n".join([head, *rows]), history_view(page, pages, ids)

    async def _link(self, record: GameRecord) -> str:
        """Where the game was played: its last board, else its thread or channel."""
        board = await self.bot.store.get_message(record.id, "board")
        if board is not None:
            return jump_url(record.guild_id, board[0], board[1])
        return jump_url(record.guild_id, record.thread_id or record.channel_id)

    # -- /game replay and the Replay buttons (issue 21 §1) ------------------------

    @refusing
    async def replay(
        self, itx: discord.Interaction[Any], game_id: int, *, public: bool = True
    ) -> None:
        """``/game replay``, **Replay** on the final board and **Replay #n** in
        the history: the animated replay of the whole game (the public view
        only), drawn in the render pool (a second request comes from its
        cache).  ``public``: posted in the channel; else only the presser sees
        it (the button was on their own ephemeral history page).  A game
        still being played is replayed up to now, and the message says so."""
        # Refusals first, quickly and only to the asker: the drawing
        # below is deferred publicly.
        await self._started_here(itx, game_id, "Replay")
        # Drawing takes seconds for a long game: answer Discord first.
        await itx.response.defer(ephemeral=not public, thinking=True)
        game = await self.bot.service.get(game_id)
        drawn = await self.bot.renders.replay(await load_record(self.bot.store, game_id))
        if len(drawn.data) > itx.filesize_limit:
            raise GameError(
                f"The replay of game #{game_id} is too big for this server's upload limit."
            )
        await reply(
            itx,
            replay_text(game, drawn),
            ephemeral=not public,
            file=discord.File(io.BytesIO(drawn.data), filename=replay_filename(game.id)),
        )

    async def _started_here(
        self, itx: discord.Interaction[Any], game_id: int, doing: str
    ) -> GameRecord:
        record = await self._game_here(itx, game_id, doing)
        if record.status == "lobby":
            raise GameError(f"Game #{game_id} has not started yet: there is nothing to show.")
        return record

    # -- /game review: step through a game (issue 21 §2) ----------------------------

    @refusing
    async def review(self, itx: discord.Interaction[Any], game_id: int) -> None:
        """``/game review``: the board at the last move, only to the asker,
        with ⏮ ◀ ▶ ⏭ and a "move k" menu (:class:`bot.edge.archive.texts.ReviewStep`)."""
        await self._started_here(itx, game_id, "Review")
        await itx.response.defer(ephemeral=True, thinking=True)
        content, files, view = await self._review(itx.user.id, game_id, LAST_FRAME)
        await reply(itx, content, files=files, view=view)

    @refusing
    async def review_step(
        self, itx: discord.Interaction[Any], step: ReviewStep, target: int
    ) -> None:
        """A press under a review: the frame ``target`` (kept in range) in
        place of the one shown.  Checked every time: the member whose review
        it is, the game still there and still this server's."""
        if itx.user.id != step.owner:
            raise GameError(
                "This review is someone else's: `/game review` opens your own.",
            )
        record = await self.bot.store.get_game(step.game_id)
        if record is None or record.guild_id != itx.guild_id or record.status == "lobby":
            raise GameError(f"Game #{step.game_id} is not there any more.")
        # Drawing may wait behind another image in the render pool.
        await itx.response.defer()
        content, files, view = await self._review(itx.user.id, step.game_id, target)
        await itx.edit_original_response(
            content=clip(content), attachments=files, view=view, allowed_mentions=NO_PINGS
        )

    async def _review(
        self, user_id: int, game_id: int, target: int
    ) -> tuple[str, list[discord.File], discord.ui.View]:
        """The text, images and components of a review at frame ``target``."""
        game = await self.bot.service.get(game_id)
        full = await load_record(self.bot.store, game_id)
        # The hidden-information rule: a seat's own view, to whoever held it
        # at that frame (bot.tenure), once the game is over; while it is
        # played, the public board only.
        reader = Reader.of(user_id, game.seats, full.lines) if game.is_over else None
        shot = await self.bot.renders.shot(full, target, reader)
        step = ReviewStep(user_id, game_id, shot.index)
        files = [discord.File(io.BytesIO(shot.board), filename=f"chaupal-{game_id}-review.png")]
        if shot.private is not None:
            files.append(
                discord.File(io.BytesIO(shot.private), filename=f"chaupal-{game_id}-yours.png")
            )
        return review_text(game, shot), files, review_view(step, shot.count, review_menus(shot))

    # -- following a game ------------------------------------------------------------

    @refusing
    async def follow(
        self, itx: discord.Interaction[Any], game_id: int, *, every_move: bool
    ) -> None:
        """``/game follow`` and a tournament table's **Follow**: DMs about a
        running game of this server that the member does not play."""
        await itx.response.defer(ephemeral=True)
        record = await self._game_here(itx, game_id)
        said = await self.bot.followers.follow(
            game_id, itx.user.id, every_move=every_move, now=self.bot.clock()
        )
        title = f"**{title_of(record.engine)} #{record.id}**"
        what = (
            "each new board, and its end"
            if every_move
            else "its end, with the final board, the result and the replay "
            "(`every_move:true` for every new board)"
        )
        answers = {
            "followed": f"You follow {title}: I'll DM you {what}.",
            "updated": f"You still follow {title}; from now on I'll DM you {what}.",
            "unchanged": f"You already follow {title}: I'll DM you {what}.",
            "no-game": f"There is no game #{game_id} on this server.",
            "lobby": f"Game #{game_id} has not started yet: follow it once it has.",
            "over": f"{title} is over: there is nothing left to follow. "
            "`/game history` lists it with its result.",
            "player": f"You play in {title}, so you see all of it already: following is "
            "for members who watch.",
        }
        text = answers[said]
        if said in ("followed", "updated", "unchanged"):
            text += (
                f" Nothing private: only what the channel sees. `/game unfollow game:{game_id}` "
                "stops it; if your DMs are closed to me, I stop trying."
            )
        await reply(itx, text)

    @refusing
    async def unfollow(self, itx: discord.Interaction[Any], game_id: int) -> None:
        await itx.response.defer(ephemeral=True)
        stopped = await self.bot.followers.unfollow(game_id, itx.user.id)
        if stopped:
            await reply(itx, f"You no longer follow game #{game_id}.")
        else:
            await reply(itx, f"You do not follow game #{game_id}.")

    async def _game_here(
        self, itx: discord.Interaction[Any], game_id: int, doing: str = "Follow"
    ) -> GameRecord:
        """A game of this server whose channel the member may see."""
        if itx.guild_id is None:
            raise GameError(f"{doing} a game from its server (where its board is posted).")
        record = await self.bot.store.get_game(game_id)
        if record is None or record.guild_id != itx.guild_id:
            raise GameError(f"There is no game #{game_id} on this server.")
        guild, member = itx.guild, itx.user
        if guild is not None and isinstance(member, discord.Member):
            # A follower gets the channel's view by DM: never of a channel
            # they could not read themselves.
            place = guild.get_channel_or_thread(record.thread_id or record.channel_id)
            place = place or guild.get_channel(record.channel_id)
            if place is not None and not place.permissions_for(member).read_messages:
                raise GameError(f"Game #{game_id} is played in a channel you can't see.")
        return record


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
        await Archive.of(itx).history_page(itx, self.page, self.verb)


class PlayerHistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:history:(?P<player>\d+)",
):
    """**History** under a ``/profile``: that player's finished games, the
    first page of ``/game history player:…``, answered only to whoever
    presses it (the profile itself is the channel's)."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        super().__init__(
            discord.ui.Button(
                label="History",
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
        await Archive.of(itx).open_history(itx, self.player_id, None)


def player_history_view(player_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayerHistoryButton(player_id))
    return view


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:replay:(?P<game>\d+)",
):
    """**Replay** on a finished game's board and **Replay #n** beside a game in
    ``/game history``: the animated replay of the whole game
    (:meth:`Archive.replay`), posted where the button is:
    in the channel under a public message, only to the presser under their
    own ephemeral history page."""

    def __init__(self, game_id: int, label: str | None = None, *, row: int | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=(label or f"Replay #{game_id}")[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"chaupal:replay:{game_id}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        # Under an ephemeral message (a history page only its reader sees)
        # the replay stays as private; under a public one it is the channel's.
        message = itx.message
        public = message is None or not message.flags.ephemeral
        await Archive.of(itx).replay(itx, self.game_id, public=public)


def history_view(page: HistoryPage, pages: int, game_ids: Sequence[int]) -> discord.ui.View | None:
    """The page's **Replay** buttons (one row: a page holds at most five
    games) and, when there is more than one page, ⏮ ◀ ▶ ⏭."""
    if not game_ids and pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for game_id in game_ids[:5]:
        view.add_item(ReplayButton(game_id))
    if pages > 1:
        last = page.page >= pages - 1
        for verb in HISTORY_VERBS:
            first = verb in ("first", "prev")
            view.add_item(
                HistoryButton(page, verb, disabled=page.page == 0 if first else last, row=1)
            )
    return view


class FollowButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:follow:(?P<game>\d+)",
):
    """**Follow** a tournament table's game: the clicker gets one DM when
    it ends (``/game follow`` for every move)."""

    def __init__(self, game_id: int, label: str = "Follow", *, row: int | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"chaupal:follow:{game_id}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FollowButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Archive.of(itx).follow(itx, self.game_id, every_move=False)


class FollowSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:follows:(?P<chunk>\d+)",
):
    """**Follow a table…**: the same as :class:`FollowButton` when a round
    has more tables than buttons fit.  Option values are public game
    numbers, checked again (this server, still running) when picked."""

    def __init__(
        self, options: Sequence[discord.SelectOption] = (), chunk: int = 0, placeholder: str = ""
    ) -> None:
        super().__init__(
            select(f"chaupal:follows:{chunk}", options, placeholder or "Follow a table…")
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FollowSelect:
        return cls(chunk=int(match["chunk"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        # A value that is not a number is refused as game #0, which never exists.
        await Archive.of(itx).follow(itx, max(0, picked(self.item)), every_move=False)


FOLLOW_BUTTONS = 20
"""Tables offered as **Follow** buttons (four rows of five); beyond that,
selects of 25 (up to :data:`FOLLOW_SELECT_TABLES`)."""
FOLLOW_SELECT_TABLES = 100


def follow_view(tables: Sequence[tuple[int, str]]) -> discord.ui.View | None:
    """**Follow** for each live table (its game and its label, "Table 3"):
    buttons when they fit, else selects (four of 25: the fifth row stays
    free); None without a live table."""
    if not tables:
        return None
    view = discord.ui.View(timeout=None)
    if len(tables) <= FOLLOW_BUTTONS:
        for i, (game_id, label) in enumerate(tables):
            view.add_item(FollowButton(game_id, f"Follow {label}", row=i // 5))
        return view
    shown = tables[:FOLLOW_SELECT_TABLES]
    for chunk, start in enumerate(range(0, len(shown), 25)):
        part = shown[start : start + 25]
        options = [
            discord.SelectOption(label=label[:100], value=str(game_id)) for game_id, label in part
        ]
        head = f"Follow a table ({part[0][1]} … {part[-1][1]})…"
        view.add_item(FollowSelect(options, chunk, head))
    return view


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:review:(?P<owner>\d+):(?P<game>\d+):(?P<frame>\d+)"
    r":(?P<verb>first|prev|next|last)",
):
    """⏮ ◀ ▶ ⏭ under ``/game review``: the frame before or after the one shown
    (in the custom_id, with the game and the member whose review it is)."""

    def __init__(
        self, step: ReviewStep, verb: str, *, disabled: bool = False, row: int = 1
    ) -> None:
        self.step, self.verb = step, verb
        super().__init__(
            discord.ui.Button(
                label=REVIEW_VERBS[verb],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"chaupal:review:{step.owner}:{step.game_id}:{step.frame}:{verb}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        step = ReviewStep(int(match["owner"]), int(match["game"]), int(match["frame"]))
        return cls(step, match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Archive.of(itx).review_step(itx, self.step, review_target(self.step, self.verb))


class ReviewSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:review-move:(?P<owner>\d+):(?P<game>\d+):(?P<frame>\d+)"
    r"(?::(?P<level>\d))?",
):
    """**Go to a move…** under ``/game review``: option values are frame
    numbers (public: every frame of a game is its channel's), read back and
    kept in range by the archive.  A review has one select per level of
    :func:`bot.replay.menu_levels` (ranges of moves, then moves), ``level``
    keeping their custom_ids apart; a range's value is its first frame, so
    every level means the same ("show this frame"), and a select sent
    before levels (no ``level``) still answers so."""

    def __init__(
        self,
        step: ReviewStep,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "Go to move…",
        level: int | None = None,
    ) -> None:
        self.step = step
        suffix = "" if level is None else f":{level}"
        super().__init__(
            select(
                f"chaupal:review-move:{step.owner}:{step.game_id}:{step.frame}{suffix}",
                options,
                placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewSelect:
        step = ReviewStep(int(match["owner"]), int(match["game"]), int(match["frame"]))
        return cls(step)

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        # A value that is not a number reads as -1: the start, kept in range.
        await Archive.of(itx).review_step(itx, self.step, picked(self.item))


def review_view(step: ReviewStep, count: int, menus: Sequence[ReviewMenu]) -> discord.ui.View:
    """A review's components: the "go to a move" selects (``menus``, at
    most four, 25 options each) above ⏮ ◀ ▶ ⏭, the first two disabled at
    the start and the last two at the end."""
    view = discord.ui.View(timeout=None)
    shown = menus[:4] if count > 1 else []
    # Each select fills a row of its own, in order (a select's row cannot
    # be set through a DynamicItem in discord.py 2.7); the buttons go under.
    for level, menu in enumerate(shown):
        options = [
            discord.SelectOption(label=label[:100] or "…", value=str(frame), default=default)
            for frame, label, default in menu.options[:25]
        ]
        view.add_item(ReviewSelect(step, options, menu.placeholder[:150], level))
    at_start, at_end = step.frame <= 0, step.frame >= count - 1
    for verb in REVIEW_VERBS:
        disabled = at_start if verb in ("first", "prev") else at_end
        view.add_item(ReviewButton(step, verb, disabled=disabled, row=len(shown)))
    return view


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HistoryButton,
    PlayerHistoryButton,
    ReplayButton,
    FollowButton,
    FollowSelect,
    ReviewButton,
    ReviewSelect,
)
"""The components whose clicks :class:`Archive` answers."""
