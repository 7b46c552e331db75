"""A player's games: the one waiting longest for them (``/game next``,
**My turn** under every board), all their live games (``/game mine``), this
channel's games and theirs (``/game list``), and time away from them all
(``/game away``, ``/game back``)."""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bot.edge.delivery.delivery import Delivery
from bot.edge.delivery.texts import jump_url
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import reply
from bot.engines import get_engine
from bot.engines.core import GameError
from bot.i18n import DEFAULT, N_, localize, t, tn
from bot.outgoing import channel_mention, discord_time, game_title, names_of
from bot.service import GameService, LiveGame
from bot.timekeeping import clock_deadline
from storage.games import GameRecord, GameStatus, MovesMade


class MyGames:
    """What waits for a player, across all their games."""

    def __init__(self, bot: Edge, delivery: Delivery) -> None:
        self.bot = bot
        self.delivery = delivery

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> MyGames:
        """The bot's :class:`MyGames`, for a component's callback."""
        return cast(MyGames, itx.client.my_games)

    @property
    def service(self) -> GameService:
        return self.bot.service

    @refusing
    async def next_turn(self, itx: discord.Interaction[Any]) -> None:
        """``/game next`` (and **My turn**): a link to the game where the
        caller must act that has waited longest.  A wait starts when the
        seat's clock started (``clock_since``) or, in a game without a clock,
        at the game's last change (``updated_at``)."""
        await itx.response.defer(ephemeral=True)
        lang = await self.bot.languages.for_reader(itx)
        waits: list[tuple[float, LiveGame]] = []
        running: tuple[GameStatus, ...] = ("active",)
        for record in await self.bot.store.games_of_user(itx.user.id, statuses=running):
            try:
                game = await self.service.get(record.id)
            except GameError:
                continue  # cannot be loaded: /game mine says so
            seat = game.seat_of(itx.user.id)
            public, private = self.service.owing(game)
            if seat is None or seat not in public | private:
                continue
            since = game.seats[seat].clock_since
            waits.append((record.updated_at if since is None else since, game))
        if not waits:
            await reply(itx, t(lang, "Nobody is waiting for you."))
            return
        waits.sort(key=lambda wait: (wait[0], wait[1].id))
        since, game = waits[0]
        board = await self.bot.store.get_message(game.id, "board")
        link = (
            jump_url(game.record.guild_id, board[0], board[1])
            if board is not None
            else f"<#{self.delivery.place_id(game)}>"
        )
        more = len(waits) - 1
        tail = " " + t(lang, "({more} more waiting for you: /game mine)", more=more) if more else ""
        await reply(
            itx,
            t(
                lang,
                "Your turn in {title}, waiting since {since}: {link}",
                title=game_title(game, lang),
                since=discord_time(since),
                link=link,
            )
            + tail,
        )

    @refusing
    async def mine(self, itx: discord.Interaction[Any]) -> None:
        """``/game mine``: the caller's live games anywhere, theirs to play
        first, each with a link to its newest board."""
        await itx.response.defer(ephemeral=True)
        lang = await self.bot.languages.for_reader(itx)
        records = await self.bot.store.games_of_user(itx.user.id)
        lines: list[tuple[int, str]] = []
        for record in records:
            lines.append(await self._mine_line(itx.user.id, record, lang))
        if not lines:
            await reply(itx, t(lang, "You are in no live game. Open one with /game new."))
            return
        yours = sum(1 for order, _ in lines if order == 0)
        head = (
            t(
                lang,
                "**Your games** ({count}; your turn in {yours}):",
                count=len(lines),
                yours=yours,
            )
            if yours
            else t(lang, "**Your games** ({count}; none waits for you):", count=len(lines))
        )
        body = [line for _, line in sorted(lines, key=lambda item: item[0])]
        await reply(itx, "\n".join([head, *body]), suppress_embeds=True)

    async def _mine_line(
        self, user_id: int, record: GameRecord, lang: str = DEFAULT
    ) -> tuple[int, str]:
        """``(order, line)``: order 0 when it is the user's turn.  The game's
        thread, and a tidy link to its newest board (``[board](<…>)``, as
        ``/game history`` writes links), not a raw URL."""
        where = record.thread_id or record.channel_id
        title = t(
            lang,
            "#{game} {title} in {where}",
            game=record.id,
            title=t(lang, get_title(record.engine)),
            where=channel_mention(where),
        )
        kind = "lobby" if record.status == "lobby" else "board"
        stored = await self.bot.store.get_message(record.id, kind)
        url = jump_url(record.guild_id, stored[0], stored[1]) if stored else ""
        link = f" — [{t(lang, LINK_WORDS[kind])}](<{url}>)" if stored else ""
        if record.status == "lobby":
            return 2, t(lang, "{title} — lobby, not started", title=title) + link
        try:
            game = await self.service.get(record.id)
        except GameError:
            return 2, t(
                lang, "{title} — cannot be loaded; a moderator can end it", title=title
            ) + link
        seat = game.seat_of(user_id)
        state = game.state
        if state is None or game.is_over:
            return 2, f"{title}{link}"
        paused = " " + t(lang, "(paused)") if game.paused else ""
        waiting = game.engine.waiting_on(state)
        if seat is not None and seat in waiting:
            deadline = None if game.paused else clock_deadline(game.seats[seat], game.table.clock)
            runs_out = (
                ""
                if deadline is None
                else t(lang, ", your clock runs out {when}", when=discord_time(deadline))
            )
            return 0, t(lang, "▶ **{title} — your turn**", title=title) + runs_out + paused + link
        if waiting:
            said = t(
                lang, "{title} — waiting for {names}", title=title, names=names_of(game, waiting)
            )
            return 1, said + paused + link
        return 1, t(lang, "{title} — waiting", title=title) + paused + link

    @refusing
    async def away(self, itx: discord.Interaction[Any], days: int | None) -> None:
        """``/game away days:n`` (or ``/game back`` with ``days`` None)."""
        await itx.response.defer(ephemeral=True)
        lang = await self.bot.languages.for_reader(itx)
        if days is None:
            said = await self.service.back(itx.user.id)
        else:
            said = await self.service.away(itx.user.id, days)
        await reply(itx, localize(said, lang))
        # Each of the caller's boards says so (and shows when they are back).
        for record in await self.bot.store.games_of_user(itx.user.id):
            if record.status == "active":
                await self.delivery.catch_up(record.id)

    async def list_games(self, itx: discord.Interaction[Any]) -> None:
        """``/game list``: this channel's games, and the caller's own."""
        lang = await self.bot.languages.for_reader(itx)
        here = await self.bot.store.games_in_channel(itx.channel_id or 0)
        mine = await self.bot.store.games_of_user(itx.user.id)
        # The players' moves, not the log's length (chance and table events).
        made = await self.bot.store.moves_made(
            [g.id for g in (*here, *mine) if g.status == "active"]
        )
        links = {g.id: await self.game_link(g, lang) for g in (*here, *mine)}
        lines = [t(lang, "**In this channel**")]
        lines += [
            f"#{g.id} {t(lang, get_engine(g.engine).title)} — {status_word(g.status, lang)}"
            + (moves_word(made.get(g.id), lang) if g.status == "active" else "")
            + links[g.id]
            for g in here
        ] or [t(lang, "(none — start one with /game new)")]
        lines.append(t(lang, "**Yours**"))
        lines += [
            # Where it is played: its own thread once started, not the
            # channel the thread hangs off.
            f"#{g.id} {t(lang, get_engine(g.engine).title)} — "
            + t(
                lang,
                "{status} in {where}",
                status=status_word(g.status, lang),
                where=channel_mention(g.thread_id or g.channel_id),
            )
            + (moves_word(made.get(g.id), lang) if g.status == "active" else "")
            + links[g.id]
            for g in mine
        ] or [t(lang, "(none)")]
        await reply(itx, "\n".join(lines), suppress_embeds=True)

    async def game_link(self, record: GameRecord, lang: str = DEFAULT) -> str:
        """`` — [board](<link>)`` to a game's newest board (a lobby's message
        while it waits), as ``/game history`` writes its links; empty when
        neither was stored."""
        kind = "lobby" if record.status == "lobby" else "board"
        stored = await self.bot.store.get_message(record.id, kind)
        if stored is None:
            return ""
        url = jump_url(record.guild_id, stored[0], stored[1])
        return f" — [{t(lang, LINK_WORDS[kind])}](<{url}>)"


class MyTurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:next",
):
    """**My turn**: whoever presses it gets a link to the next game waiting
    for them (``/game next``); the custom_id holds nothing."""

    def __init__(self, label: str = N_("My turn")) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id="chaupal:next"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MyTurnButton:
        return cls()

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await MyGames.of(itx).next_turn(itx)


def get_title(engine_name: str) -> str:
    try:
        return get_engine(engine_name).title
    except GameError:
        return engine_name


LINK_WORDS: dict[str, str] = {"lobby": N_("lobby"), "board": N_("board")}
"""The words of a link to a game's lobby or board message."""

STATUS_WORDS: dict[str, str] = {
    "lobby": N_("lobby"),
    "active": N_("active"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}
"""A game's status, as a list shows it (any other status as it is stored)."""


def status_word(status: str, lang: str = DEFAULT) -> str:
    """A game's status in ``lang``."""
    return t(lang, STATUS_WORDS.get(status, status))


def moves_word(made: MovesMade | None, lang: str = DEFAULT) -> str:
    """``, 8 moves, the last <t:…:R>`` for a running game in a list."""
    if made is None:
        return t(lang, ", no move yet")
    return t(
        lang,
        ", {moves}, the last {when}",
        moves=tn(lang, "{n} move", "{n} moves", made.count),
        when=discord_time(made.last_at),
    )


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (MyTurnButton,)
"""The components whose clicks :class:`MyGames` answers."""
