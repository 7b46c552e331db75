"""Looking back and looking on (issue 21): a server's finished games
(``/game history``, the **History** button of ``/profile``), a game's
animated replay (``/game replay``, the **Replay** buttons) and stepping
through it (``/game review``), and members who follow a game they do not
play (``/game follow``, ``/game unfollow``, a tournament round's **Follow**
buttons).

Replays and reviews are drawn in the render pool from the game's complete
record, which never leaves it: what comes back is public boards, and, for
a review of a finished game, the asker's own seat's view.

The history is read from storage alone (the games' rows, seats, stored
outcomes and rating changes): no game is loaded or replayed to list it.  Its
pages are stateless: each button's custom_id names the page and its filters
(:class:`bot.edge.ui.items.HistoryPage`), so they work after a restart.

Following only records a preference (:mod:`storage.followers`); delivery
sends the DMs with the board's outbox (:meth:`bot.edge.delivery.Delivery._follow`),
and a follower sees only what the channel sees.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.edge.delivery import jump_url, next_up
from bot.edge.replies import NO_PINGS, edit_reply, reply
from bot.engines import get_engine
from bot.engines.core import GameError
from bot.outgoing import clip, discord_time, fill_seats, plain_name, safe_name
from bot.replay import load_record, menu_levels
from bot.tenure import Reader
from bot.tournament.ratings import shown_points
from storage.games import GameRecord, SeatRecord

if TYPE_CHECKING:
    from bot.edge.delivery import Delivery
    from bot.edge.table import Table
    from bot.edge.ui.items import HistoryPage, ReviewMenu, ReviewStep
    from bot.live import LiveGame
    from bot.rendering import RenderPool, Replay, Shot
    from bot.service import GameService
    from storage.followers import FollowerStore
    from storage.games import GameStore

log = logging.getLogger(__name__)

PAGE_SIZE = 5
"""Games on a page of the history: five rows of at most :data:`ROW_CHARS`
fit one message's 2,000 characters, and their **Replay** buttons one row."""
ROW_CHARS = 340
PLAYERS_CHARS = 180
"""A row's players (names and rating changes) are cut to this much."""
NAME_CHARS = 20
"""A player's name in a row is cut to this many characters."""
SERVER_ONLY = "The history belongs to a server: use this in one."


def title_of(engine: str) -> str:
    try:
        return get_engine(engine).title
    except GameError:
        return engine


def short_name(display_name: str) -> str:
    """A name for a crowded line: plain, cut, then escaped."""
    plain = plain_name(display_name)
    if len(plain) > NAME_CHARS:
        plain = plain[: NAME_CHARS - 1] + "…"
    return safe_name(plain)


def result_text(record: GameRecord, seats: Sequence[SeatRecord], rated: bool) -> str:
    """``won by **Asha**``, ``a draw`` or ``no result`` (a moderator ended
    it), from the outcome stored with the game."""
    try:
        ranking = [sorted(int(s) for s in group) for group in (record.outcome or {})["ranking"]]
    except (KeyError, TypeError, ValueError):
        return "over"
    names = {s.seat: short_name(s.display_name) for s in seats}
    if not ranking:
        return "over"
    if len(ranking) == 1 and len(ranking[0]) > 1:
        # Everyone tied: a draw if it counted, else the game was just ended.
        return "a draw" if rated or record.status == "finished" else "no result"
    winners = " & ".join(f"**{names.get(s, '?')}**" for s in ranking[0])
    return f"won by {winners}"


def players_text(
    seats: Sequence[SeatRecord], changes: Mapping[int, float], player: int | None
) -> str:
    """The players, each with their rating change when the game was rated
    (in shown rating points, as ``/leaderboard`` and ``/profile`` give
    them), the history's player underlined; cut to :data:`PLAYERS_CHARS`."""
    parts: list[str] = []
    for s in seats:
        name = short_name(s.display_name)
        if s.user_id == player:
            name = f"__{name}__"
        change = changes.get(s.user_id)
        parts.append(name if change is None else f"{name} ({shown_points(change):+d})")
    text = ", ".join(parts)
    while len(text) > PLAYERS_CHARS and len(parts) > 1:
        parts.pop()
        text = ", ".join(parts) + ", …"
    return text[:PLAYERS_CHARS]


def history_row(
    record: GameRecord,
    seats: Sequence[SeatRecord],
    changes: Mapping[int, float],
    link: str,
    player: int | None,
) -> str:
    """``- <t:…:d> **Sangram #12**: Asha (+84), Bhima (-52) — won by
    **Asha** — [board](<link>)``"""
    head = f"- {discord_time(record.updated_at, 'd')} **{title_of(record.engine)} #{record.id}**"
    result = result_text(record, seats, rated=bool(changes))
    line = f"{head}: {players_text(seats, changes, player)} — {result} — [board](<{link}>)"
    return line if len(line) <= ROW_CHARS else f"{head} — [board](<{link}>)"


def replay_filename(game_id: int) -> str:
    return f"chaupal-{game_id}-replay.gif"


def ordinal(n: int) -> str:
    """``2nd``, ``11th``, ``23rd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def moves_text(n: int) -> str:
    return "1 move" if n == 1 else f"{n:,} moves"


def replay_text(game: LiveGame, drawn: Replay) -> str:
    """What a replay's message says it is: the game, its players (escaped),
    how many moves it shows and how (every one, or every k-th to fit
    Discord's upload limit), and where the game stands."""
    players = ", ".join(f"**{safe_name(name)}**" for name in game.names)
    head = f"**Replay of {game.engine.title} #{game.id}** ({players}): "
    if drawn.moves == 0:
        shown = "the start only, no move yet."
    elif not drawn.sampled:
        shown = f"{moves_text(drawn.moves)}, every one shown."
    else:
        # Why some moves are left out: the cap alone (a long game), or
        # Discord's upload limit (big pictures).
        why = (
            f": a replay keeps at most {drawn.cap}"
            if drawn.cap
            else " to fit Discord's upload limit"
        )
        shown = (
            f"{moves_text(drawn.moves)}, shown every {ordinal(drawn.step)} move "
            f"({drawn.frames} pictures{why})."
        )
    if drawn.scale < 1.0:
        shown += " Drawn smaller, to fit."
    lines = [head + shown + " The public board only."]
    if game.is_over:
        lines.append(next_up(game, named=range(len(game.seats))))
    else:
        lines.append(
            "The game is still being played: this is up to the current move. "
            f"`/game replay game:{game.id}` again later shows more."
        )
    return clip("\n".join(lines))


LABEL_CHARS = 100
"""Discord's limit on a select option's label."""


def clip_words(text: str, limit: int = LABEL_CHARS) -> str:
    """``text`` in at most ``limit`` characters, cut after a whole word with
    an ellipsis (a single word longer than that is cut where it must be)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut and not text[limit - 1].isspace():
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.—-") + "…"


def frame_label(move: int, headline: str) -> str:
    """A "move k" menu option: ``Move 12: Asha rolled 5…`` (names plain),
    within Discord's 100 characters, cut between words."""
    label = "Start" if move == 0 else f"Move {move}"
    return clip_words(f"{label}: {headline}") if headline else label


def range_label(first: int, last: int) -> str:
    """A range of a review's moves: ``Start to move 24``, ``Moves 25-49``."""
    if first == last:
        return "Start" if first == 0 else f"Move {first}"
    return f"Start to move {last}" if first == 0 else f"Moves {first}–{last}"


def review_text(game: LiveGame, shot: Shot) -> str:
    """A review's text: the game, the move shown and what happened in it
    (names escaped), and what the images are."""
    where = "the start" if shot.move == 0 else f"move {shot.move} of {shot.last_move}"
    said = " ".join(fill_seats(line, game) for line in shot.lines if line)
    if not said and shot.move == 0:
        said = "The game begins."
    lines = [f"**{game.engine.title} #{game.id}**, {where} (only you see this review).", said]
    if not game.is_over:
        lines.append(
            "The game is still being played: up to the current move, the public board only."
        )
    elif shot.private is not None:
        lines.append("The second image is what only you saw at that moment.")
    return clip("\n".join(line for line in lines if line))


def review_menus(shot: Shot) -> list[ReviewMenu]:
    """A review's "go to a move" selects (:func:`bot.replay.menu_levels`):
    ranges of moves, then the moves of the range shown, each option's value
    the frame it shows (a range: its first move)."""
    from bot.edge.ui.items import ReviewMenu

    levels = menu_levels(shot.count, shot.index)
    headlines = {frame: (move, headline) for frame, move, headline in shot.menu}
    menus: list[ReviewMenu] = []
    for depth, level in enumerate(levels):
        options = []
        for i, (first, last) in enumerate(level.options):
            if level.span == 1 and first in headlines:
                label = frame_label(*headlines[first])
            else:
                label = range_label(first, last)
            options.append((first, label, i == level.current))
        if len(levels) == 1:
            placeholder = f"Go to a move ({shot.count - 1} in all)…"
        elif depth == 0:
            placeholder = f"Go to moves… ({shot.count - 1} in all)"
        elif level.span == 1:
            placeholder = "Go to a move…"
        else:
            placeholder = "Go to moves…"
        menus.append(ReviewMenu(placeholder, tuple(options)))
    return menus


class ArchiveHost(Protocol):
    """What the archive uses of the bot: the games' store, the followers,
    the service (ratings, loading a game), delivery, the render pool
    (replays, a review's frames), the table (its refusals) and the clock."""

    @property
    def table(self) -> Table: ...
    @property
    def store(self) -> GameStore: ...
    @property
    def followers(self) -> FollowerStore: ...
    @property
    def service(self) -> GameService: ...
    @property
    def delivery(self) -> Delivery: ...
    @property
    def renders(self) -> RenderPool: ...
    @property
    def clock(self) -> Callable[[], float]: ...


class Archive:
    def __init__(self, bot: ArchiveHost) -> None:
        self.bot = bot

    async def _refuse(self, itx: discord.Interaction[Any], text: str) -> None:
        await self.bot.table.refuse(itx, GameError(text))

    # -- /game history -------------------------------------------------------------

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
        from bot.edge.ui.items import HistoryPage

        guild_id = itx.guild_id
        if guild_id is None:
            await self._refuse(itx, SERVER_ONLY)
            return
        try:
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
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await reply(itx, content, ephemeral=not share, suppress_embeds=True, **_view(view))

    async def history_page(
        self, itx: discord.Interaction[Any], page: HistoryPage, verb: str
    ) -> None:
        """⏮ ◀ ▶ ⏭: the page asked for, read again, in place of the one shown."""
        guild_id = itx.guild_id
        if guild_id is None:
            await self._refuse(itx, SERVER_ONLY)
            return
        if itx.user.id != page.owner:
            await self._refuse(
                itx,
                "Only the member who asked for this history turns its pages; "
                "`/game history` shows you your own.",
            )
            return
        try:
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
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
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
        from bot.edge.ui.items import history_view

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

    async def replay(
        self, itx: discord.Interaction[Any], game_id: int, *, public: bool = True
    ) -> None:
        """``/game replay``, **Replay** on the final board and **Replay #n** in
        the history: the animated replay of the whole game (the public view
        only), drawn in the render pool (a second request comes from its
        cache).  ``public``: posted in the channel; else only the presser sees
        it (the button was on their own ephemeral history page).  A game
        still being played is replayed up to now, and the message says so."""
        try:
            # Refusals first, quickly and only to the asker: the drawing
            # below is deferred publicly.
            await self._started_here(itx, game_id, "Replay")
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        try:
            # Drawing takes seconds for a long game: answer Discord first.
            await itx.response.defer(ephemeral=not public, thinking=True)
            game = await self.bot.service.get(game_id)
            drawn = await self.bot.renders.replay(await load_record(self.bot.store, game_id))
            if len(drawn.data) > itx.filesize_limit:
                raise GameError(
                    f"The replay of game #{game_id} is too big for this server's upload limit."
                )
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
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

    async def review(self, itx: discord.Interaction[Any], game_id: int) -> None:
        """``/game review``: the board at the last move, only to the asker,
        with ⏮ ◀ ▶ ⏭ and a "move k" menu (:class:`bot.edge.ui.items.ReviewStep`)."""
        from bot.edge.ui.items import LAST_FRAME

        try:
            await self._started_here(itx, game_id, "Review")
            await itx.response.defer(ephemeral=True, thinking=True)
            content, files, view = await self._review(itx.user.id, game_id, LAST_FRAME)
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await reply(itx, content, files=files, view=view)

    async def review_step(
        self, itx: discord.Interaction[Any], step: ReviewStep, target: int
    ) -> None:
        """A press under a review: the frame ``target`` (kept in range) in
        place of the one shown.  Checked every time: the member whose review
        it is, the game still there and still this server's."""
        if itx.user.id != step.owner:
            await self._refuse(
                itx,
                "This review is someone else's: `/game review` opens your own.",
            )
            return
        try:
            record = await self.bot.store.get_game(step.game_id)
            if record is None or record.guild_id != itx.guild_id or record.status == "lobby":
                raise GameError(f"Game #{step.game_id} is not there any more.")
            # Drawing may wait behind another image in the render pool.
            await itx.response.defer()
            content, files, view = await self._review(itx.user.id, step.game_id, target)
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await itx.edit_original_response(
            content=clip(content), attachments=files, view=view, allowed_mentions=NO_PINGS
        )

    async def _review(
        self, user_id: int, game_id: int, target: int
    ) -> tuple[str, list[discord.File], discord.ui.View]:
        """The text, images and components of a review at frame ``target``."""
        from bot.edge.ui.items import ReviewStep, review_view

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

    async def follow(
        self, itx: discord.Interaction[Any], game_id: int, *, every_move: bool
    ) -> None:
        """``/game follow`` and a tournament table's **Follow**: DMs about a
        running game of this server that the member does not play."""
        try:
            await itx.response.defer(ephemeral=True)
            record = await self._game_here(itx, game_id)
            said = await self.bot.followers.follow(
                game_id, itx.user.id, every_move=every_move, now=self.bot.clock()
            )
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
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

    async def unfollow(self, itx: discord.Interaction[Any], game_id: int) -> None:
        try:
            await itx.response.defer(ephemeral=True)
            stopped = await self.bot.followers.unfollow(game_id, itx.user.id)
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
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

    async def followed_choices(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[tuple[str, int]]:
        """``/game unfollow``'s suggestions: the games the member follows."""
        shown: list[tuple[str, int]] = []
        for follower in await self.bot.followers.of_user(itx.user.id):
            if current.strip("#") not in str(follower.game_id):
                continue
            record = await self.bot.store.get_game(follower.game_id)
            engine = title_of(record.engine) if record is not None else "game"
            shown.append((f"#{follower.game_id} {engine}"[:100], follower.game_id))
            if len(shown) == 25:
                break
        return shown


def _view(view: discord.ui.View | None) -> dict[str, Any]:
    return {} if view is None else {"view": view}


__all__ = [
    "Archive",
    "ArchiveHost",
    "history_row",
    "replay_text",
    "result_text",
    "review_text",
]
