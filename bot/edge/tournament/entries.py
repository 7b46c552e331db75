"""A tournament's public side: its announcement with **Join** and **Leave**
(and the menu of open tournaments), who enters and leaves, the rounds and
results posted in its channel, and each table game's heading.  Every public
post is made once: round and final announcements are claimed in SQLite
before they are posted, so a restart never repeats one; and nobody is
pinged by any of them (each board pings whoever must move)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import discord

from bot.director import (
    TIME_LOSSES_TO_DROP,
    RoundStarted,
    TournamentDirector,
    heading_msg,
    planned_rounds,
)
from bot.edge.alt import describe_standings
from bot.edge.archive.follows import follow_view
from bot.edge.arguments import player_of
from bot.edge.delivery.delivery import Delivery
from bot.edge.delivery.texts import jump_url
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import NO_PINGS, reply
from bot.edge.tables.lobbies import lobby_text
from bot.edge.tournament.texts import (
    HEADINGS_KEPT,
    MEDALS,
    MENU_OPTIONS,
    TIEBREAK_TITLES,
    announcement_text,
    format_title,
    heading_of,
    name_list,
    points_in,
    round_deadline,
    standing_rows,
    table_line,
    title_in,
)
from bot.engines import get_engine
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, N_, t, tn
from bot.outgoing import (
    clip,
    discord_time,
    plain_name,
    safe_name,
)
from bot.server_settings import server_settings
from bot.service import LiveGame, ServiceError
from bot.tournament import standings
from renderers.common import to_png
from renderers.standings import render_standings
from storage.games import GameRecord
from storage.timekeeping import Timer
from storage.tournaments import (
    TournamentPlayer,
    TournamentRecord,
    TournamentStore,
    TournamentTable,
)

log = logging.getLogger(__name__)


class Entries:
    """What a tournament shows and who is in it."""

    def __init__(self, bot: Edge, director: TournamentDirector, delivery: Delivery) -> None:
        self.bot = bot
        self.director = director
        self.delivery = delivery
        self._headings: OrderedDict[tuple[int, str], str] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, str] = {}
        """What each announcement was last edited to (no edit when unchanged)."""

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Entries:
        """The bot's :class:`Entries`, for a component's callback."""
        return cast(Entries, itx.client.desk.entries)

    @property
    def store(self) -> TournamentStore:
        return self.director.store

    async def heading(self, game: LiveGame) -> str:
        """The line above a tournament game's lobby message ("" for other
        games), in the server's language."""
        lang = await self.bot.languages.for_channel(game.record.guild_id)
        key = (game.id, lang)
        if key in self._headings:
            self._headings.move_to_end(key)
            return self._headings[key]
        found = await self.store.table_of_game(game.id)
        text = ""
        if found is not None:
            record = await self.store.get(found[0])
            if record is not None:
                text = heading_of(record, found[1], lang)
        self._headings[key] = text
        while len(self._headings) > HEADINGS_KEPT:
            self._headings.popitem(last=False)
        return text

    async def table_message(self, game: LiveGame) -> tuple[int, int] | None:
        """Before a tournament game's first board: its table message in the
        tournament's channel (the game's "lobby" message, from which its
        thread opens).  None for games that are not a tournament's."""
        heading = await self.heading(game)
        if not heading:
            return None
        defaults = await self.bot.service.server_defaults(game.record.guild_id)
        lang = await self.bot.languages.for_channel(game.record.guild_id)
        try:
            message = await self.bot.get_partial_messageable(
                game.record.channel_id, guild_id=game.record.guild_id
            ).send(
                content=lobby_text(game, defaults=defaults, heading=heading, lang=lang),
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException as exc:
            log.warning("game %d: no table message (%s %s)", game.id, exc.status, exc.code)
            return None
        await self.bot.store.set_message(game.id, "lobby", message.channel.id, message.id)
        return message.channel.id, message.id

    async def after(self, moved: RoundStarted | None) -> None:
        """Deliver a director's pass: the games it started (each opens its
        thread from a table message), then the announcements it calls for."""
        if moved is None:
            return
        if moved.auto_dropped:
            await self._post_auto_dropped(moved.tournament, moved.auto_dropped)
        for result in moved.games:
            try:
                await self.delivery.publish(result)
            except Exception:
                log.exception("game %d could not be delivered", result.game.id)
        await self.announce(moved.tournament.id)

    async def _post_auto_dropped(self, record: TournamentRecord, users: Sequence[int]) -> None:
        """Say who auto-drop took out (once: the drop itself is the guard)."""
        players = {p.user_id: p for p in await self.store.players(record.id)}
        lang = await self.bot.languages.for_channel(record.guild_id)
        names = name_list([players[u].display_name for u in users if u in players], lang=lang)
        try:
            await self.send(
                record.channel_id,
                record.guild_id,
                t(
                    lang,
                    "⏰ {names} lost {n} games in a row on time and is dropped from "
                    "**{tournament}**. (Moderators can turn auto-drop off with "
                    "`/moderate tournament settings`.)",
                    names=names,
                    n=TIME_LOSSES_TO_DROP,
                    tournament=safe_name(title_in(record, lang)),
                )
                if len(users) == 1
                else t(
                    lang,
                    "⏰ {names} lost {n} games in a row on time and are dropped from "
                    "**{tournament}**. (Moderators can turn auto-drop off with "
                    "`/moderate tournament settings`.)",
                    names=names,
                    n=TIME_LOSSES_TO_DROP,
                    tournament=safe_name(title_in(record, lang)),
                ),
            )
        except discord.HTTPException as exc:
            log.warning("tournament %d: auto-drop not announced (%s)", record.id, exc.status)

    async def round_due(self, deadline: Timer) -> None:
        """The round scheduler's handler: a round's deadline fell due."""
        settled = await self.director.settle_round(deadline, self.bot.clock())
        if settled is None:
            return
        record = settled.tournament
        if settled.games:
            lang = await self.bot.languages.for_channel(record.guild_id)
            try:
                await self.send(
                    record.channel_id,
                    record.guild_id,
                    tn(
                        lang,
                        "⏰ **{tournament}**: round {round}'s time is up ({when}). {n} game "
                        "still running was settled by the timeout policy.",
                        "⏰ **{tournament}**: round {round}'s time is up ({when}). {n} games "
                        "still running were settled by the timeout policy.",
                        len(settled.games),
                        tournament=safe_name(title_in(record, lang)),
                        round=record.round,
                        when=discord_time(deadline.due, "f"),
                    ),
                )
            except discord.HTTPException as exc:
                log.warning("tournament %d: deadline not announced (%s)", record.id, exc.status)
        for result in settled.games:
            await self.publish_game(result.game.id)
        if settled.moved is not None:
            await self.after(settled.moved)

    async def announce(self, tournament_id: int) -> None:
        """Post what is new (a round, or the end) once, and bring the
        announcement message up to date."""
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            record = await self.store.get(tournament_id)
            if record is None:
                return
            if record.status == "finished":
                key = "final"
            elif record.status == "running" and record.round:
                key = f"round:{record.round}"
            else:
                key = record.announced
            if key != record.announced and await self.store.claim_announcement(
                record.id, record.announced, key
            ):
                lang = await self.bot.languages.for_channel(record.guild_id)
                try:
                    if key == "final":
                        await self._post_final(record, lang)
                    else:
                        await self._post_round(record, lang)
                except discord.HTTPException as exc:
                    log.warning(
                        "tournament %d: %s not announced (%s %s)",
                        record.id,
                        key,
                        exc.status,
                        exc.code,
                    )
            await self.refresh(record)

    async def refresh(self, record: TournamentRecord) -> None:
        """Edit the announcement: its players, and what the tournament is doing."""
        if record.message_channel_id is None or record.message_id is None:
            return
        players = await self.store.players(record.id)
        lang = await self.bot.languages.for_channel(record.guild_id)
        status = await self._status(record, lang)
        view = tournament_view(record, lang) if record.status == "open" else None
        content = announcement_text(record, players, status=status, lang=lang)
        if self._shown.get(record.id) == content:
            return
        try:
            await (
                self.bot.get_partial_messageable(
                    record.message_channel_id, guild_id=record.guild_id
                )
                .get_partial_message(record.message_id)
                .edit(content=content, view=view, allowed_mentions=NO_PINGS)
            )
        except discord.HTTPException as exc:
            log.info("tournament %d: announcement not edited (%s)", record.id, exc.status)
            return
        if record.status in ("open", "running"):
            self._shown[record.id] = content
        else:
            self._shown.pop(record.id, None)  # final: nothing to compare with any more

    async def _status(self, record: TournamentRecord, lang: str = DEFAULT) -> str:
        if record.status == "cancelled":
            return t(lang, "This tournament was cancelled before it started.")
        if record.status == "finished":
            table = await self.director.table_of_standings(record.id)
            players = {p.user_id: p for p in await self.store.players(record.id)}
            if not table:
                return t(lang, "This tournament is over.")
            winner = players.get(table[0].player)
            name = safe_name(winner.display_name) if winner else "?"
            return tn(
                lang,
                "This tournament is over after {n} round. Winner: **{name}** 🏆",
                "This tournament is over after {n} rounds. Winner: **{name}** 🏆",
                record.round,
                name=name,
            )
        total = planned_rounds(record, len(await self.store.players(record.id)))
        deadline = round_deadline(record)
        if deadline:
            return t(
                lang,
                "Round {round} of {total} is being played (settled {deadline}): "
                "`/tournament pairings` shows the games, `/tournament standings` the table.",
                round=record.round,
                total=total,
                deadline=deadline,
            )
        return t(
            lang,
            "Round {round} of {total} is being played: `/tournament pairings` shows the "
            "games, `/tournament standings` the table.",
            round=record.round,
            total=total,
        )

    async def _post_round(self, record: TournamentRecord, lang: str = DEFAULT) -> None:
        tables = await self.store.tables(record.id, record.round)
        players = {p.user_id: p for p in await self.store.players(record.id)}
        total = planned_rounds(record, len(players))
        lines = [
            t(
                lang,
                "🏆 **{tournament}**: round {round} of {total} has begun.",
                tournament=safe_name(title_in(record, lang)),
                round=record.round,
                total=total,
            )
        ]
        if (deadline := round_deadline(record)) is not None:
            lines.append(
                t(
                    lang,
                    "Deadline: {deadline}; games still running then are settled by the "
                    "timeout policy.",
                    deadline=deadline,
                )
            )
        lines += await self.table_lines(record, tables, players, lang)
        lines.append(
            t(lang, "Each game is played in its own thread; Chaupal records every result.")
        )
        view = await self.follow_view(tables, lang)
        if view is not None:
            lines.append(t(lang, "**Follow** a table to get a DM when its game ends."))
        await self.send(record.channel_id, record.guild_id, "\n".join(lines), view=view)

    async def follow_view(
        self, tables: Iterable[TournamentTable], lang: str = DEFAULT
    ) -> discord.ui.View | None:
        """**Follow** for each table whose game is running (issue 21)."""
        live: list[tuple[int, str]] = []
        for table in tables:
            if table.game_id is None or table.places is not None:
                continue
            game = await self.bot.store.get_game(table.game_id)
            if game is not None and game.status == "active":
                live.append((table.game_id, t(lang, "Table {number}", number=table.number)))
        return follow_view(live, lang)

    async def _post_final(self, record: TournamentRecord, lang: str = DEFAULT) -> None:
        table = await self.director.table_of_standings(record.id)
        players = {p.user_id: p for p in await self.store.players(record.id)}
        podium = [
            f"{MEDALS[i]} **{safe_name(players[s.player].display_name)}** — "
            f"{points_in(s.points, lang)}"
            for i, s in enumerate(table[:3])
            if s.player in players
        ]
        title = tn(
            lang,
            "🏆 **{tournament}** ({game}) is over after {n} round.",
            "🏆 **{tournament}** ({game}) is over after {n} rounds.",
            record.round,
            tournament=safe_name(title_in(record, lang)),
            game=t(lang, get_engine(record.engine).title),
        )
        content = "\n".join([title, *podium, t(lang, "Final standings:")])
        png = await self.standings_png(record, table, players, final=True, lang=lang)
        alt = self.standings_alt(record, table, players, lang, final=True)
        where = [record.channel_id]
        settings = await server_settings(self.bot.server_settings, record.guild_id)
        if settings.announcements is not None and settings.announcements not in where:
            where.append(settings.announcements)
        for channel_id in where:
            try:
                await self.send(channel_id, record.guild_id, content, png=png, description=alt)
            except discord.HTTPException as exc:
                if channel_id == record.channel_id:
                    raise
                log.info("tournament %d: announcements channel refused (%s)", record.id, exc)

    async def send(
        self,
        channel_id: int,
        guild_id: int,
        content: str,
        *,
        png: bytes | None = None,
        view: discord.ui.View | None = None,
        description: str | None = None,
    ) -> discord.Message:
        extra: dict[str, Any] = {}
        if png is not None:
            extra["file"] = discord.File(
                io.BytesIO(png), filename="standings.png", description=description
            )
        if view is not None:
            extra["view"] = view
        return await self.bot.get_partial_messageable(channel_id, guild_id=guild_id).send(
            content=clip(content), allowed_mentions=NO_PINGS, **extra
        )

    async def table_lines(
        self,
        record: TournamentRecord,
        tables: Iterable[TournamentTable],
        players: Mapping[int, TournamentPlayer],
        lang: str = DEFAULT,
    ) -> list[str]:
        names = {u: p.display_name for u, p in players.items()}
        lines: list[str] = []
        budget = 1700
        tables = list(tables)
        for shown, table in enumerate(tables):
            game = None if table.game_id is None else await self.bot.store.get_game(table.game_id)
            where = "" if game is None else await self._where(game, lang)
            ended = table.places is None and game is not None and game.status != "active"
            line = table_line(table, names, where, ended=ended, lang=lang)
            if len(line) + 1 > budget:
                lines.append(
                    t(
                        lang,
                        "…and {n} more: `/tournament pairings`.",
                        n=len(tables) - shown,
                    )
                )
                break
            budget -= len(line) + 1
            lines.append(line)
        return lines

    async def _where(self, game: GameRecord, lang: str = DEFAULT) -> str:
        """Where a table's game is played: its thread, else its table message."""
        if game.thread_id is not None:
            thread = "<#" + str(game.thread_id) + ">"
            return t(lang, "in {thread}", thread=thread)
        lobby = await self.bot.store.get_message(game.id, "lobby")
        if lobby is not None:
            return t(
                lang,
                "(game #{id}: {link})",
                id=game.id,
                link=jump_url(game.guild_id, lobby[0], lobby[1]),
            )
        return t(lang, "(game #{id})", id=game.id)

    async def standings_png(
        self,
        record: TournamentRecord,
        table: Sequence[standings.Standing],
        players: Mapping[int, TournamentPlayer],
        *,
        final: bool = False,
        lang: str = DEFAULT,
    ) -> bytes | None:
        if not table:
            return None
        kinds = [kind for kind, _ in table[0].tiebreaks]
        total = planned_rounds(record, len(players))
        when = (
            t(lang, "final standings")
            if final
            else t(lang, "after round {round} of {total}", round=record.round, total=total)
        )
        rows = standing_rows(table, players, lang)
        title = f"{t(lang, get_engine(record.engine).title)} — {title_in(record, lang)}"
        subtitle = t(lang, "{format}, {when}", format=format_title(record.format, lang), when=when)
        try:
            image = await asyncio.to_thread(
                render_standings,
                rows,
                title=title,
                subtitle=subtitle,
                tiebreak_names=[t(lang, TIEBREAK_TITLES[k]) for k in kinds],
                lang=lang,
            )
            return await asyncio.to_thread(to_png, image)
        except Exception:
            log.exception("tournament %d: standings not drawn", record.id)
            return None

    def standings_alt(
        self,
        record: TournamentRecord,
        table: Sequence[standings.Standing],
        players: Mapping[int, TournamentPlayer],
        lang: str,
        *,
        final: bool = False,
    ) -> str:
        """The standings image's description (:func:`bot.alt.describe_standings`)."""
        return describe_standings(
            f"{get_engine(record.engine).title} — {record.title}",
            standing_rows(table, players),
            round=record.round,
            rounds=planned_rounds(record, len(players)),
            final=final,
            lang=lang,
        )

    async def publish_game(self, game_id: int) -> None:
        try:
            await self.delivery.catch_up(game_id)
        except Exception:
            log.exception("game %d: its end could not be delivered", game_id)

    async def resolve(
        self, itx: discord.Interaction[Any], tournament_id: int | None, *, finished: bool = False
    ) -> TournamentRecord:
        """The tournament a command means: the one named, or the only open or
        running one (in this channel first, then on the server); with
        ``finished``, else the newest one of this channel (standings and
        pairings are worth reading after the end)."""
        guild_id = itx.guild_id
        if guild_id is None:
            raise ServiceError(Msg("Tournaments belong to a server; use this in one."))
        if tournament_id is not None:
            record: TournamentRecord | None = await self.store.get(tournament_id)
            if record is None or record.guild_id != guild_id:
                raise ServiceError(
                    Msg("There is no tournament #{id} on this server.", id=tournament_id)
                )
            return record
        live = await self.store.live_in_guild(guild_id)
        here = [r for r in live if r.channel_id == itx.channel_id] or live
        if not here and finished:
            here = [
                r for r in await self.store.in_guild(guild_id) if r.channel_id == itx.channel_id
            ]
            here = here[:1]
        if not here:
            raise ServiceError(
                Msg(
                    "No tournament is open or running here. A moderator opens one with "
                    "`/moderate tournament new`; `/tournament standings tournament:<number>` "
                    "shows an old one."
                )
            )
        if len(here) > 1:
            lang = await self.bot.languages.for_reader(itx)
            listed = ", ".join(
                f"#{r.id} ({t(lang, get_engine(r.engine).title)})" for r in here[:10]
            )
            raise ServiceError(
                Msg(
                    "Several tournaments are on: {listed}. Say which with `tournament`.",
                    listed=listed,
                )
            )
        return here[0]

    @refusing
    async def join(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        if tournament_id is None and await self._offer_open(itx):
            return
        record = await self.resolve(itx, tournament_id)
        if record.status != "open":
            raise ServiceError(
                Msg(
                    "{tournament} has started; it takes no one new.",
                    tournament=heading_msg(record),
                )
            )
        joined = await self.director.join(record.id, player_of(itx), self.bot.clock())
        lang = await self.bot.languages.for_reader(itx)
        title = safe_name(title_in(record, lang))
        said = (
            t(
                lang,
                "You are in {tournament}. Your games will start by themselves, each in its "
                "own thread; the board pings you when it is your move.",
                tournament=title,
            )
            if joined
            else t(lang, "You are already in {tournament}.", tournament=title)
        )
        await reply(itx, said)
        await self.refresh(record)

    async def _offer_open(self, itx: discord.Interaction[Any]) -> bool:
        """With several open tournaments here (this channel's, else the
        server's) and none named, answer with a menu of them; True if so."""
        if itx.guild_id is None:
            return False
        live = await self.store.live_in_guild(itx.guild_id)
        here = [r for r in live if r.channel_id == itx.channel_id] or live
        choices = [r for r in here if r.status == "open"]
        if len(choices) < 2:
            return False
        lang = await self.bot.languages.for_reader(itx)
        options = [
            discord.SelectOption(
                label=clip(
                    f"#{r.id} {plain_name(r.name) + ' — ' if r.name else ''}"
                    f"{t(lang, get_engine(r.engine).title)}, {format_title(r.format, lang)}",
                    100,
                ),
                value=str(r.id),
            )
            for r in choices[:MENU_OPTIONS]
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentJoinSelect(options, t(lang, "Choose a tournament to join…")))
        if len(choices) > MENU_OPTIONS:
            said = t(
                lang,
                "{n} tournaments are open here: which one? (the first {shown}; name another "
                "with `tournament`)",
                n=len(choices),
                shown=MENU_OPTIONS,
            )
        else:
            said = t(lang, "{n} tournaments are open here: which one?", n=len(choices))
        await reply(itx, said, view=view)
        return True

    @refusing
    async def leave(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        record = await self.resolve(itx, tournament_id)
        if record.status == "running":
            raise ServiceError(
                Msg(
                    "{tournament} has started: to leave it, drop out with "
                    "`/tournament drop` (an unfinished game of yours is resigned).",
                    tournament=heading_msg(record),
                )
            )
        left = await self.director.leave(record.id, itx.user.id)
        lang = await self.bot.languages.for_reader(itx)
        title = safe_name(title_in(record, lang))
        await reply(
            itx,
            t(lang, "You left {tournament}.", tournament=title)
            if left
            else t(lang, "You are not in {tournament}.", tournament=title),
        )
        await self.refresh(record)


# -- the components ---------------------------------------------------------------


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:tournament:(?P<tournament>\d+):(?P<verb>join|leave)",
):
    """Join or Leave on a tournament's announcement."""

    def __init__(self, tournament_id: int, verb: str, lang: str = DEFAULT) -> None:
        self.tournament_id, self.verb = tournament_id, verb
        super().__init__(
            discord.ui.Button(
                label=t(lang, BUTTON_LABELS[verb]),
                style=discord.ButtonStyle.success
                if verb == "join"
                else discord.ButtonStyle.secondary,
                custom_id=f"chaupal:tournament:{tournament_id}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(int(match["tournament"]), match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        desk = Entries.of(itx)
        if self.verb == "join":
            await desk.join(itx, self.tournament_id)
        else:
            await desk.leave(itx, self.tournament_id)


BUTTON_LABELS: dict[str, str] = {"join": N_("Join"), "leave": N_("Leave")}


def tournament_view(record: TournamentRecord, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("join", "leave"):
        view.add_item(TournamentButton(record.id, verb, lang))
    return view


class TournamentJoinSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:tournaments:join",
):
    """A menu of the open tournaments, for ``/tournament join`` when several
    are open and none was named.  A DynamicItem, so a pick still joins after
    a restart (the menu stays on the player's screen).  The custom_id holds
    nothing, and each option's value is a tournament's public number; the
    desk checks the pick again (server, still open) when it joins."""

    def __init__(
        self,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "Choose a tournament to join…",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="chaupal:tournaments:join",
                placeholder=placeholder,
                options=list(options) or [discord.SelectOption(label="…", value="0")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentJoinSelect:
        return cls()

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        try:
            tournament_id = int(self.item.values[0])
        except (IndexError, ValueError):
            tournament_id = 0  # refused by the desk: there is no tournament #0
        await Entries.of(itx).join(itx, tournament_id)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TournamentButton, TournamentJoinSelect)
"""The components whose clicks :class:`Entries` answers."""
