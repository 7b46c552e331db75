"""Following a game one does not play (``/game follow``, ``/game unfollow``,
a tournament round's **Follow** buttons), issue 21 §3.

Following only records a preference (:mod:`storage.followers`); delivery
sends the DMs with the board's outbox, and a follower sees only what the
channel sees.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.edge.archive.texts import (
    title_of,
)
from bot.edge.arguments import game_here
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import reply
from bot.edge.selects import picked, select
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, localize, t

log = logging.getLogger(__name__)


class Follows:
    """Who follows a game, as they ask."""

    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Follows:
        """The bot's :class:`Follows`, for a component's callback."""
        return cast(Follows, itx.client.follows)

    @refusing
    async def follow(
        self, itx: discord.Interaction[Any], game_id: int, *, every_move: bool
    ) -> None:
        """``/game follow`` and a tournament table's **Follow**: DMs about a
        running game of this server that the member does not play."""
        await itx.response.defer(ephemeral=True)
        record = await game_here(self.bot.store, itx, game_id)
        said = await self.bot.followers.follow(
            game_id, itx.user.id, every_move=every_move, now=self.bot.clock()
        )
        lang = await self.bot.languages.for_reader(itx)
        title = f"**{title_of(record.engine, lang)} #{record.id}**"
        what = (
            t(lang, "each new board, and its end")
            if every_move
            else t(
                lang,
                "its end, with the final board, the result and the replay "
                "(`every_move:true` for every new board)",
            )
        )
        answers = {
            "followed": Msg("You follow {game}: I'll DM you {what}.", game=title, what=what),
            "updated": Msg(
                "You still follow {game}; from now on I'll DM you {what}.", game=title, what=what
            ),
            "unchanged": Msg(
                "You already follow {game}: I'll DM you {what}.", game=title, what=what
            ),
            "no-game": Msg("There is no game #{id} on this server.", id=game_id),
            "lobby": Msg("Game #{id} has not started yet: follow it once it has.", id=game_id),
            "over": Msg(
                "{game} is over: there is nothing left to follow. "
                "`/game history` lists it with its result.",
                game=title,
            ),
            "player": Msg(
                "You play in {game}, so you see all of it already: following is "
                "for members who watch.",
                game=title,
            ),
        }
        text = localize(answers[said], lang)
        if said in ("followed", "updated", "unchanged"):
            text += " " + t(
                lang,
                "Nothing private: only what the channel sees. `/game unfollow game:{id}` "
                "stops it; if your DMs are closed to me, I stop trying.",
                id=game_id,
            )
        await reply(itx, text)

    @refusing
    async def unfollow(self, itx: discord.Interaction[Any], game_id: int) -> None:
        await itx.response.defer(ephemeral=True)
        stopped = await self.bot.followers.unfollow(game_id, itx.user.id)
        lang = await self.bot.languages.for_reader(itx)
        if stopped:
            await reply(itx, t(lang, "You no longer follow game #{id}.", id=game_id))
        else:
            await reply(itx, t(lang, "You do not follow game #{id}.", id=game_id))


# -- the components ---------------------------------------------------------------


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
        await Follows.of(itx).follow(itx, self.game_id, every_move=False)


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
        await Follows.of(itx).follow(itx, max(0, picked(self.item)), every_move=False)


FOLLOW_BUTTONS = 20
"""Tables offered as **Follow** buttons (four rows of five); beyond that,
selects of 25 (up to :data:`FOLLOW_SELECT_TABLES`)."""


FOLLOW_SELECT_TABLES = 100


def follow_view(tables: Sequence[tuple[int, str]], lang: str = DEFAULT) -> discord.ui.View | None:
    """**Follow** for each live table (its game and its label, "Table 3"):
    buttons when they fit, else selects (four of 25: the fifth row stays
    free); None without a live table."""
    if not tables:
        return None
    view = discord.ui.View(timeout=None)
    if len(tables) <= FOLLOW_BUTTONS:
        for i, (game_id, label) in enumerate(tables):
            view.add_item(FollowButton(game_id, t(lang, "Follow {table}", table=label), row=i // 5))
        return view
    shown = tables[:FOLLOW_SELECT_TABLES]
    for chunk, start in enumerate(range(0, len(shown), 25)):
        part = shown[start : start + 25]
        options = [
            discord.SelectOption(label=label[:100], value=str(game_id)) for game_id, label in part
        ]
        head = t(lang, "Follow a table ({first} … {last})…", first=part[0][1], last=part[-1][1])
        view.add_item(FollowSelect(options, chunk, head))
    return view


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    FollowButton,
    FollowSelect,
)
"""The components whose clicks :class:`Follows` answers."""
