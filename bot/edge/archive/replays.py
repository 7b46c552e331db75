"""A game's animated replay (``/game replay``, the **Replay** buttons) and
stepping through it (``/game review``), issue 21 §1 and §2.

Replays and reviews are drawn in the render pool from the game's complete
record, which never leaves it: what comes back is public boards, and, for
a review of a finished game, the asker's own seat's view.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.edge.alt import replay_alt, review_alts
from bot.edge.archive.texts import (
    LAST_FRAME,
    REVIEW_VERBS,
    ReviewMenu,
    ReviewStep,
    replay_filename,
    replay_text,
    review_menus,
    review_target,
    review_text,
)
from bot.edge.arguments import game_here
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import NO_PINGS, reply
from bot.edge.selects import picked, select
from bot.engines.core import GameError
from bot.engines.messages import Msg
from bot.i18n import DEFAULT
from bot.outgoing import clip
from bot.replay import load_record
from bot.tenure import Reader
from storage.games import GameRecord

log = logging.getLogger(__name__)


class Replays:
    """Replays and reviews of a game of this server."""

    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Replays:
        """The bot's :class:`Replays`, for a component's callback."""
        return cast(Replays, itx.client.replays)

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
        # Posted in the channel: the server's language; else the presser's.
        lang = (
            await self.bot.languages.for_channel(itx.guild_id, itx)
            if public
            else await self.bot.languages.for_reader(itx)
        )
        drawn = await self.bot.renders.replay(
            await load_record(self.bot.store, game_id), lang=lang
        )
        if len(drawn.data) > itx.filesize_limit:
            raise GameError(
                Msg(
                    "The replay of game #{id} is too big for this server's upload limit.",
                    id=game_id,
                )
            )
        await reply(
            itx,
            replay_text(game, drawn, lang),
            ephemeral=not public,
            file=discord.File(
                io.BytesIO(drawn.data),
                filename=replay_filename(game.id),
                description=replay_alt(game, drawn, lang),
            ),
        )

    async def _started_here(
        self, itx: discord.Interaction[Any], game_id: int, doing: str
    ) -> GameRecord:
        record = await game_here(self.bot.store, itx, game_id, doing)
        if record.status == "lobby":
            raise GameError(
                Msg("Game #{id} has not started yet: there is nothing to show.", id=game_id)
            )
        return record

    @refusing
    async def review(self, itx: discord.Interaction[Any], game_id: int) -> None:
        """``/game review``: the board at the last move, only to the asker,
        with ⏮ ◀ ▶ ⏭ and a "move k" menu (:class:`bot.edge.archive.texts.ReviewStep`)."""
        await self._started_here(itx, game_id, "Review")
        await itx.response.defer(ephemeral=True, thinking=True)
        lang = await self.bot.languages.for_reader(itx)
        content, files, view = await self._review(itx.user.id, game_id, LAST_FRAME, lang)
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
                Msg("This review is someone else's: `/game review` opens your own."),
            )
        record = await self.bot.store.get_game(step.game_id)
        if record is None or record.guild_id != itx.guild_id or record.status == "lobby":
            raise GameError(Msg("Game #{id} is not there any more.", id=step.game_id))
        # Drawing may wait behind another image in the render pool.
        await itx.response.defer()
        lang = await self.bot.languages.for_reader(itx)
        content, files, view = await self._review(itx.user.id, step.game_id, target, lang)
        await itx.edit_original_response(
            content=clip(content), attachments=files, view=view, allowed_mentions=NO_PINGS
        )

    async def _review(
        self, user_id: int, game_id: int, target: int, lang: str = DEFAULT
    ) -> tuple[str, list[discord.File], discord.ui.View]:
        """The text, images and components of a review at frame ``target``
        (the images described in ``lang``, the reviewer's)."""
        game = await self.bot.service.get(game_id)
        full = await load_record(self.bot.store, game_id)
        # The hidden-information rule: a seat's own view, to whoever held it
        # at that frame (bot.tenure), once the game is over; while it is
        # played, the public board only.
        reader = Reader.of(user_id, game.seats, full.lines) if game.is_over else None
        shot = await self.bot.renders.shot(full, target, reader, lang=lang)
        step = ReviewStep(user_id, game_id, shot.index)
        board_alt, mine_alt = await review_alts(game, full, shot, reader, lang)
        files = [
            discord.File(
                io.BytesIO(shot.board),
                filename=f"chaupal-{game_id}-review.png",
                description=board_alt,
            )
        ]
        if shot.private is not None:
            files.append(
                discord.File(
                    io.BytesIO(shot.private),
                    filename=f"chaupal-{game_id}-yours.png",
                    description=mine_alt,
                )
            )
        return (
            review_text(game, shot, lang),
            files,
            review_view(step, shot.count, review_menus(shot, lang)),
        )


# -- the components ---------------------------------------------------------------


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:replay:(?P<game>\d+)",
):
    """**Replay** on a finished game's board and **Replay #n** beside a game in
    ``/game history``: the animated replay of the whole game
    (:meth:`Replays.replay`), posted where the button is:
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
        await Replays.of(itx).replay(itx, self.game_id, public=public)


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
        await Replays.of(itx).review_step(itx, self.step, review_target(self.step, self.verb))


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
        await Replays.of(itx).review_step(itx, self.step, picked(self.item))


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
    ReplayButton,
    ReviewButton,
    ReviewSelect,
)
"""The components whose clicks :class:`Replays` answers."""
