"""The tournament desk: what moderators and players ask of a tournament, and
what a tournament says in its channel.

:class:`~bot.director.TournamentDirector` runs tournaments without Discord;
this is its Discord edge, as :class:`bot.edge.table.Table` is the game service's.
Slash commands (``bot/edge/cogs/tournament.py``) and the Join and Leave buttons
on the announcement both land here.  Refusals are ephemeral and change
nothing.  Every public post is made once: round and final announcements are
claimed in SQLite before they are posted, so a restart never repeats one;
and nobody is pinged by any of them (each board pings whoever must move).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.director import (
    FORMAT_TITLES,
    TIME_LOSSES_TO_DROP,
    RoundStarted,
    TournamentDirector,
    planned_rounds,
)
from bot.edge.delivery import Delivery, jump_url
from bot.edge.ports import Discord
from bot.edge.replies import NO_PINGS, reply
from bot.edge.table import Table, player_of
from bot.engines import get_engine
from bot.engines.core import GameError, whole_number
from bot.outgoing import (
    clip,
    discord_time,
    format_points,
    plain_name,
    plural,
    points_text,
    safe_name,
)
from bot.server_settings import server_settings
from bot.service import GameService, LiveGame, ServiceError
from bot.timekeeping import TableOptions, format_duration, parse_duration, split_options
from bot.tournament import standings
from renderers.common import to_png
from renderers.standings import StandingRow, render_standings
from storage.games import GameRecord
from storage.timekeeping import Timer
from storage.tournaments import (
    TournamentPlayer,
    TournamentRecord,
    TournamentStore,
    TournamentTable,
)

if TYPE_CHECKING:
    from storage.games import GameStore
    from storage.timekeeping import SettingsStore

log = logging.getLogger(__name__)

TIEBREAK_TITLES: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: "Buchholz",
    standings.Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger",
    standings.Tiebreak.OPPONENTS_POINTS: "Opp. points",
    standings.Tiebreak.AVERAGE_PLACE: "Avg. place",
}
TIEBREAK_WORDS: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: "Buchholz",
    standings.Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger",
    standings.Tiebreak.OPPONENTS_POINTS: "opponents' points",
    standings.Tiebreak.AVERAGE_PLACE: "average place",
}
"""A tie-break in a standings line: its name, spelled out ("Bh 0 · SB 0"
told a newcomer nothing, issue 31)."""
TIEBREAK_MEANINGS: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: "the points of everyone you met, added up",
    standings.Tiebreak.SONNEBORN_BERGER: "the points of each player you beat, and half "
    "of each you drew",
    standings.Tiebreak.OPPONENTS_POINTS: "the others' mean points at each of your tables, added up",
    standings.Tiebreak.AVERAGE_PLACE: "your mean place at a table, lower first",
}
"""What each tie-break counts, for the line under the standings."""
MEDALS = ("🥇", "🥈", "🥉")
NAMES_SHOWN = 40
"""Names listed in an announcement before "…and N more"."""
NAMES_CHARS = 1200
"""…or fewer, so the announcement's other lines always fit."""
HEADINGS_KEPT = 4096
"""Games whose tournament heading is remembered (a bounded cache)."""
MENU_OPTIONS = 25
"""Discord's limit of options in one select menu."""
NO_ROUND_TIME = ("off", "none", "no")
"""What a moderator writes for no round deadline."""


def parse_round_time(text: str) -> float | None:
    """``7d``, ``36h`` (seconds), or ``off``/``none``: no deadline."""
    word = text.strip().lower()
    if word in NO_ROUND_TIME:
        return None
    return parse_duration(word, "A round time")


def describe_round_time(record: TournamentRecord) -> str:
    if record.round_time is None:
        return "none (a round lasts until its last game ends)"
    return (
        f"{format_duration(record.round_time)} (then the games still running are settled "
        "by the timeout policy and the next round starts)"
    )


def round_deadline(record: TournamentRecord) -> str | None:
    """When the round being played is settled, in each reader's own time
    zone (``<t:…:R> (<t:…:f>)``); None without a deadline."""
    if record.round_deadline is None or record.status != "running":
        return None
    return f"{discord_time(record.round_deadline)} ({discord_time(record.round_deadline, 'f')})"


def settings_text(record: TournamentRecord, entrants: int, policy: str) -> str:
    """What ``/tournament settings`` shows."""
    shown = {k: v for k, v in sorted(record.options.items()) if k != "rated"}
    options = ", ".join(f"{k}={v}" for k, v in shown.items()) or "none"
    size = "2" if record.table_size == 2 else f"{record.table_size} (pods)"
    lines = [
        f"🏆 **{safe_name(record.title)}** ({get_engine(record.engine).title}) — settings",
        f"Format: {describe_format(record, entrants)}.",
        f"Rounds: {record.rounds or 'as many as the format needs'}. Table size: {size}.",
        f"Game options: {options} (on timeout: {policy}; every game is rated).",
        f"Round time: {describe_round_time(record)}.",
    ]
    if (deadline := round_deadline(record)) is not None:
        lines.append(f"Round {record.round} is settled {deadline}.")
    lines.append(
        "Auto-drop: "
        + (
            f"on (a player who loses {TIME_LOSSES_TO_DROP} games in a row on time is dropped)."
            if record.auto_drop
            else "off."
        )
    )
    return clip("\n".join(lines))


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def name_list(names: Sequence[str], limit: int = NAMES_SHOWN, chars: int = NAMES_CHARS) -> str:
    """Names, escaped and bold, at most ``limit`` of them and about
    ``chars`` characters, then "…and N more"."""
    shown: list[str] = []
    used = 0
    for name in names[:limit]:
        entry = f"**{safe_name(name)}**"
        if shown and used + len(entry) + 2 > chars:
            break
        shown.append(entry)
        used += len(entry) + 2
    text = ", ".join(shown)
    if len(names) > len(shown):
        text += f" …and {len(names) - len(shown)} more"
    return text or "nobody yet"


def describe_format(record: TournamentRecord, entrants: int) -> str:
    """``Swiss, 3 rounds, tables of 2`` (the rounds as they stand now)."""
    fmt = FORMAT_TITLES[record.format]
    rounds = planned_rounds(record, entrants)
    if record.format in ("round_robin", "elimination") or not record.rounds:
        count = (
            f"{plural(rounds, 'round')} with {plural(entrants, 'player')}"
            if entrants >= 2
            else "rounds as needed"
        )
    else:
        count = plural(rounds, "round")
    tables = "two players a game" if record.table_size == 2 else f"tables of {record.table_size}"
    return f"{fmt}, {count}, {tables}"


def heading_of(record: TournamentRecord, table: TournamentTable) -> str:
    return f"🏆 {safe_name(record.title)} — round {table.round}, table {table.number}"


def announcement_text(
    record: TournamentRecord, players: Sequence[TournamentPlayer], *, status: str = ""
) -> str:
    engine = get_engine(record.engine)
    named = f"**{safe_name(record.name)}**, " if record.name else ""
    lines = [
        f"🏆 {named}tournament #{record.id} of **{engine.title}**",
        f"Format: {describe_format(record, len(players))}.",
    ]
    shown = {k: v for k, v in sorted(record.options.items()) if k != "rated"}
    if shown:
        lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in shown.items()) + ".")
    if record.round_time is not None:
        lines.append(
            f"Each round lasts at most {format_duration(record.round_time)}: then the games "
            "still running are settled by the timeout policy."
        )
    active = [p.display_name for p in players if p.active]
    lines.append(f"Players ({len(active)}): {name_list(active)}")
    if record.status == "open":
        lines.append(
            "Press **Join** to enter (or `/tournament join`). A moderator starts it with "
            "`/moderate tournament start`; every game is rated."
        )
    elif status:
        lines.append(status)
    return clip("\n".join(lines))


def table_line(
    table: TournamentTable, names: Mapping[int, str], where: str = "", *, ended: bool = False
) -> str:
    """``Table 2: **A** vs **B** — in <#thread>`` or the result."""
    if table.is_bye:
        return f"Bye: **{safe_name(names[table.seats[0]])}** (a win's points)"
    if table.places is None:
        seated = (" vs " if len(table.seats) == 2 else ", ").join(
            f"**{safe_name(names[u])}**" for u in table.seats
        )
        state = "ended without a result" if ended else f"playing {where}".rstrip()
        return f"Table {table.number}: {seated} — {state}"
    order = sorted(range(len(table.seats)), key=lambda seat: table.places[seat])  # type: ignore[index]
    places = table.places
    judged = " (adjudicated)" if table.adjudicated else ""
    if len(table.seats) == 2:
        a, b = (f"**{safe_name(names[u])}**" for u in table.seats)
        if places[0] == places[1]:
            said = f"{a} and {b} drew"
        else:
            winner, loser = (a, b) if places[0] < places[1] else (b, a)
            said = f"{winner} beat {loser}"
    else:
        said = ", ".join(
            f"{ordinal(1 + sum(p < places[seat] for p in places))} "
            f"**{safe_name(names[table.seats[seat]])}**"
            for seat in order
        )
    return f"Table {table.number}: {said}{judged}"


def standing_rows(
    table: Sequence[standings.Standing], players: Mapping[int, TournamentPlayer]
) -> list[StandingRow]:
    return [
        StandingRow(
            rank=s.rank,
            name=players[s.player].display_name if s.player in players else f"Player {s.player}",
            points=s.points,
            tiebreaks=tuple(value for _, value in s.tiebreaks),
            games=s.games,
            byes=s.byes,
            dropped=s.player in players and not players[s.player].active,
        )
        for s in table
    ]


def tiebreak_legend(kinds: Sequence[standings.Tiebreak]) -> str:
    """The line under the standings saying what breaks a tie, in order."""
    if not kinds:
        return ""
    said = [f"{TIEBREAK_WORDS[kind]} ({TIEBREAK_MEANINGS[kind]})" for kind in kinds]
    return "Equal points are split by " + ", then by ".join(said) + "."


def standings_text(
    title: str, table: Sequence[standings.Standing], players: Mapping[int, TournamentPlayer]
) -> str:
    """The standings as lines, cut to fit one message (the image has all),
    with each tie-break named and, under them, what it counts."""
    lines = [title]
    legend = tiebreak_legend([kind for kind, _ in table[0].tiebreaks]) if table else ""
    budget = 1900 - len(title) - len(legend)
    for shown, row in enumerate(table):
        name = players[row.player].display_name if row.player in players else "?"
        dropped = " (dropped)" if row.player in players and not players[row.player].active else ""
        breaks = " · ".join(
            f"{TIEBREAK_WORDS[kind]} {'–' if value == float('inf') else format_points(value)}"
            for kind, value in row.tiebreaks
        )
        line = f"{row.rank}. **{safe_name(name)}**{dropped} — {points_text(row.points)}" + (
            f" · {breaks}" if breaks else ""
        )
        if len(line) + 1 > budget:
            lines.append(f"…and {len(table) - shown} more in the image.")
            break
        budget -= len(line) + 1
        lines.append(line)
    if legend:
        lines.append(legend)
    return clip("\n".join(lines))


class DeskHost(Discord, Protocol):
    """What the desk uses of the bot: Discord's channels, the games' store
    and service, delivery, the table (its refusals, who moderates), each
    server's settings and the clock."""

    @property
    def store(self) -> GameStore: ...
    @property
    def service(self) -> GameService: ...
    @property
    def delivery(self) -> Delivery: ...
    @property
    def table(self) -> Table: ...
    @property
    def server_settings(self) -> SettingsStore: ...
    @property
    def clock(self) -> Callable[[], float]: ...


class TournamentDesk:
    def __init__(self, bot: DeskHost, director: TournamentDirector) -> None:
        self.bot = bot
        self.director = director
        self._headings: OrderedDict[int, str] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, str] = {}
        """What each announcement was last edited to (no edit when unchanged)."""

    @property
    def store(self) -> TournamentStore:
        return self.director.store

    # -- what games of a tournament show --------------------------------------------

    async def heading(self, game: LiveGame) -> str:
        """The line above a tournament game's lobby message ("" for other games)."""
        if game.id in self._headings:
            self._headings.move_to_end(game.id)
            return self._headings[game.id]
        found = await self.store.table_of_game(game.id)
        text = ""
        if found is not None:
            record = await self.store.get(found[0])
            if record is not None:
                text = heading_of(record, found[1])
        self._headings[game.id] = text
        while len(self._headings) > HEADINGS_KEPT:
            self._headings.popitem(last=False)
        return text

    async def table_message(self, game: LiveGame) -> tuple[int, int] | None:
        """Before a tournament game's first board: its table message in the
        tournament's channel (the game's "lobby" message, from which its
        thread opens).  None for games that are not a tournament's."""
        from bot.edge.lobby import lobby_text

        heading = await self.heading(game)
        if not heading:
            return None
        defaults = await self.bot.service.server_defaults(game.record.guild_id)
        try:
            message = await self.bot.get_partial_messageable(
                game.record.channel_id, guild_id=game.record.guild_id
            ).send(
                content=lobby_text(game, defaults=defaults, heading=heading),
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException as exc:
            log.warning("game %d: no table message (%s %s)", game.id, exc.status, exc.code)
            return None
        await self.bot.store.set_message(game.id, "lobby", message.channel.id, message.id)
        return message.channel.id, message.id

    # -- what a tournament says ---------------------------------------------------------

    async def after(self, moved: RoundStarted | None) -> None:
        """Deliver a director's pass: the games it started (each opens its
        thread from a table message), then the announcements it calls for."""
        if moved is None:
            return
        if moved.auto_dropped:
            await self._post_auto_dropped(moved.tournament, moved.auto_dropped)
        for result in moved.games:
            try:
                await self.bot.delivery.publish(result)
            except Exception:
                log.exception("game %d could not be delivered", result.game.id)
        await self.announce(moved.tournament.id)

    async def _post_auto_dropped(self, record: TournamentRecord, users: Sequence[int]) -> None:
        """Say who auto-drop took out (once: the drop itself is the guard)."""
        players = {p.user_id: p for p in await self.store.players(record.id)}
        names = name_list([players[u].display_name for u in users if u in players])
        verb = "is" if len(users) == 1 else "are"
        try:
            await self._send(
                record.channel_id,
                record.guild_id,
                f"⏰ {names} lost {TIME_LOSSES_TO_DROP} games in a row on time and {verb} "
                f"dropped from **{safe_name(record.title)}**. (Moderators can turn auto-drop "
                "off with `/moderate tournament settings`.)",
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
            count = len(settled.games)
            games = f"{plural(count, 'game')} still running " + ("was" if count == 1 else "were")
            try:
                await self._send(
                    record.channel_id,
                    record.guild_id,
                    f"⏰ **{safe_name(record.title)}**: round {record.round}'s time is up "
                    f"({discord_time(deadline.due, 'f')}). {games} settled by the timeout "
                    "policy.",
                )
            except discord.HTTPException as exc:
                log.warning("tournament %d: deadline not announced (%s)", record.id, exc.status)
        for result in settled.games:
            await self._publish_game(result.game.id)
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
                try:
                    if key == "final":
                        await self._post_final(record)
                    else:
                        await self._post_round(record)
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
        from bot.edge.ui.items import tournament_view

        if record.message_channel_id is None or record.message_id is None:
            return
        players = await self.store.players(record.id)
        status = await self._status(record)
        view = tournament_view(record) if record.status == "open" else None
        content = announcement_text(record, players, status=status)
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

    async def _status(self, record: TournamentRecord) -> str:
        if record.status == "cancelled":
            return "This tournament was cancelled before it started."
        if record.status == "finished":
            table = await self.director.table_of_standings(record.id)
            players = {p.user_id: p for p in await self.store.players(record.id)}
            if not table:
                return "This tournament is over."
            winner = players.get(table[0].player)
            name = safe_name(winner.display_name) if winner else "?"
            return (
                f"This tournament is over after {plural(record.round, 'round')}. "
                f"Winner: **{name}** 🏆"
            )
        total = planned_rounds(record, len(await self.store.players(record.id)))
        deadline = round_deadline(record)
        return (
            f"Round {record.round} of {total} is being played"
            + (f" (settled {deadline})" if deadline else "")
            + ": `/tournament pairings` shows the games, `/tournament standings` the table."
        )

    async def _post_round(self, record: TournamentRecord) -> None:
        tables = await self.store.tables(record.id, record.round)
        players = {p.user_id: p for p in await self.store.players(record.id)}
        total = planned_rounds(record, len(players))
        lines = [f"🏆 **{safe_name(record.title)}**: round {record.round} of {total} has begun."]
        if (deadline := round_deadline(record)) is not None:
            lines.append(
                f"Deadline: {deadline}; games still running then are settled by the timeout policy."
            )
        lines += await self._table_lines(record, tables, players)
        lines.append("Each game is played in its own thread; Chaupal records every result.")
        view = await self._follow_view(tables)
        if view is not None:
            lines.append("**Follow** a table to get a DM when its game ends.")
        await self._send(record.channel_id, record.guild_id, "\n".join(lines), view=view)

    async def _follow_view(self, tables: Iterable[TournamentTable]) -> discord.ui.View | None:
        """**Follow** for each table whose game is running (issue 21)."""
        from bot.edge.ui.items import follow_view

        live: list[tuple[int, str]] = []
        for table in tables:
            if table.game_id is None or table.places is not None:
                continue
            game = await self.bot.store.get_game(table.game_id)
            if game is not None and game.status == "active":
                live.append((table.game_id, f"Table {table.number}"))
        return follow_view(live)

    async def _post_final(self, record: TournamentRecord) -> None:
        table = await self.director.table_of_standings(record.id)
        players = {p.user_id: p for p in await self.store.players(record.id)}
        podium = [
            f"{MEDALS[i]} **{safe_name(players[s.player].display_name)}** — "
            f"{points_text(s.points)}"
            for i, s in enumerate(table[:3])
            if s.player in players
        ]
        title = (
            f"🏆 **{safe_name(record.title)}** ({get_engine(record.engine).title}) is over "
            f"after {plural(record.round, 'round')}."
        )
        content = "\n".join([title, *podium, "Final standings:"])
        png = await self._standings_png(record, table, players, final=True)
        where = [record.channel_id]
        settings = await server_settings(self.bot.server_settings, record.guild_id)
        if settings.announcements is not None and settings.announcements not in where:
            where.append(settings.announcements)
        for channel_id in where:
            try:
                await self._send(channel_id, record.guild_id, content, png=png)
            except discord.HTTPException as exc:
                if channel_id == record.channel_id:
                    raise
                log.info("tournament %d: announcements channel refused (%s)", record.id, exc)

    async def _send(
        self,
        channel_id: int,
        guild_id: int,
        content: str,
        *,
        png: bytes | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.Message:
        extra: dict[str, Any] = {}
        if png is not None:
            extra["file"] = discord.File(io.BytesIO(png), filename="standings.png")
        if view is not None:
            extra["view"] = view
        return await self.bot.get_partial_messageable(channel_id, guild_id=guild_id).send(
            content=clip(content), allowed_mentions=NO_PINGS, **extra
        )

    async def _table_lines(
        self,
        record: TournamentRecord,
        tables: Iterable[TournamentTable],
        players: Mapping[int, TournamentPlayer],
    ) -> list[str]:
        names = {u: p.display_name for u, p in players.items()}
        lines: list[str] = []
        budget = 1700
        tables = list(tables)
        for shown, table in enumerate(tables):
            game = None if table.game_id is None else await self.bot.store.get_game(table.game_id)
            where = "" if game is None else await self._where(game)
            ended = table.places is None and game is not None and game.status != "active"
            line = table_line(table, names, where, ended=ended)
            if len(line) + 1 > budget:
                lines.append(f"…and {len(tables) - shown} more: `/tournament pairings`.")
                break
            budget -= len(line) + 1
            lines.append(line)
        return lines

    async def _where(self, game: GameRecord) -> str:
        """Where a table's game is played: its thread, else its table message."""
        if game.thread_id is not None:
            return f"in <#{game.thread_id}>"
        lobby = await self.bot.store.get_message(game.id, "lobby")
        if lobby is not None:
            return f"(game #{game.id}: {jump_url(game.guild_id, lobby[0], lobby[1])})"
        return f"(game #{game.id})"

    async def _standings_png(
        self,
        record: TournamentRecord,
        table: Sequence[standings.Standing],
        players: Mapping[int, TournamentPlayer],
        *,
        final: bool = False,
    ) -> bytes | None:
        if not table:
            return None
        kinds = [kind for kind, _ in table[0].tiebreaks]
        total = planned_rounds(record, len(players))
        when = "final standings" if final else f"after round {record.round} of {total}"
        rows = standing_rows(table, players)
        title = f"{get_engine(record.engine).title} — {record.title}"
        subtitle = f"{FORMAT_TITLES[record.format]}, {when}"
        try:
            image = await asyncio.to_thread(
                render_standings,
                rows,
                title=title,
                subtitle=subtitle,
                tiebreak_names=[TIEBREAK_TITLES[k] for k in kinds],
            )
            return await asyncio.to_thread(to_png, image)
        except Exception:
            log.exception("tournament %d: standings not drawn", record.id)
            return None

    # -- requests ------------------------------------------------------------------------

    async def resolve(
        self, itx: discord.Interaction[Any], tournament_id: int | None, *, finished: bool = False
    ) -> TournamentRecord:
        """The tournament a command means: the one named, or the only open or
        running one (in this channel first, then on the server); with
        ``finished``, else the newest one of this channel (standings and
        pairings are worth reading after the end)."""
        guild_id = itx.guild_id
        if guild_id is None:
            raise ServiceError("Tournaments belong to a server; use this in one.")
        if tournament_id is not None:
            record: TournamentRecord | None = await self.store.get(tournament_id)
            if record is None or record.guild_id != guild_id:
                raise ServiceError(f"There is no tournament #{tournament_id} on this server.")
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
                "No tournament is open or running here. A moderator opens one with "
                "`/moderate tournament new`; `/tournament standings tournament:<number>` "
                "shows an old one."
            )
        if len(here) > 1:
            listed = ", ".join(f"#{r.id} ({get_engine(r.engine).title})" for r in here[:10])
            raise ServiceError(
                f"Several tournaments are on: {listed}. Say which with `tournament`."
            )
        return here[0]

    async def _moderator(self, itx: discord.Interaction[Any], doing: str) -> None:
        if not await self.bot.table.is_moderator(itx):
            raise ServiceError(
                f"Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                f"moderator role) can {doing}."
            )

    async def new(
        self,
        itx: discord.Interaction[Any],
        *,
        engine_name: str,
        format: str,
        rounds: int,
        table_size: int | None,
        options: dict[str, str],
        name: str,
        round_time: str | None = None,
        auto_drop: bool = True,
    ) -> None:
        from bot.edge.ui.items import tournament_view

        try:
            if itx.guild_id is None:
                raise ServiceError("Tournaments belong to a server; use this in one.")
            await self._moderator(itx, "open a tournament")
            seconds = None if round_time is None else parse_round_time(round_time)
            record = await self.director.new(
                guild_id=itx.guild_id,
                channel_id=itx.channel_id or 0,
                engine_name=engine_name,
                format=format,
                rounds=rounds,
                table_size=table_size,
                options=options,
                creator_id=itx.user.id,
                now=self.bot.clock(),
                name=name,
                round_time=seconds,
                auto_drop=auto_drop,
            )
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await reply(
            itx, announcement_text(record, []), ephemeral=False, view=tournament_view(record)
        )
        message = await itx.original_response()
        await self.store.set_message(record.id, message.channel.id, message.id)
        settings = await server_settings(self.bot.server_settings, record.guild_id)
        if settings.announcements is not None and settings.announcements != record.channel_id:
            link = jump_url(record.guild_id, message.channel.id, message.id)
            try:
                await self._send(
                    settings.announcements,
                    record.guild_id,
                    f"🏆 {safe_name(record.heading)} of **{get_engine(record.engine).title}** "
                    f"is open for entries: {link}",
                )
            except discord.HTTPException as exc:
                log.info("tournament %d: announcements channel refused (%s)", record.id, exc)

    async def join(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        try:
            if tournament_id is None and await self._offer_open(itx):
                return
            record = await self.resolve(itx, tournament_id)
            if record.status != "open":
                raise ServiceError(f"{record.heading} has started; it takes no one new.")
            joined = await self.director.join(record.id, player_of(itx), self.bot.clock())
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        said = (
            f"You are in {safe_name(record.title)}. Your games will start by themselves, "
            "each in its own thread; the board pings you when it is your move."
            if joined
            else f"You are already in {safe_name(record.title)}."
        )
        await reply(itx, said)
        await self.refresh(record)

    async def _offer_open(self, itx: discord.Interaction[Any]) -> bool:
        """With several open tournaments here (this channel's, else the
        server's) and none named, answer with a menu of them; True if so."""
        from bot.edge.ui.items import TournamentJoinSelect

        if itx.guild_id is None:
            return False
        live = await self.store.live_in_guild(itx.guild_id)
        here = [r for r in live if r.channel_id == itx.channel_id] or live
        choices = [r for r in here if r.status == "open"]
        if len(choices) < 2:
            return False
        options = [
            discord.SelectOption(
                label=clip(
                    f"#{r.id} {plain_name(r.name) + ' — ' if r.name else ''}"
                    f"{get_engine(r.engine).title}, {FORMAT_TITLES[r.format]}",
                    100,
                ),
                value=str(r.id),
            )
            for r in choices[:MENU_OPTIONS]
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentJoinSelect(options))
        more = (
            f" (the first {MENU_OPTIONS}; name another with `tournament`)"
            if len(choices) > MENU_OPTIONS
            else ""
        )
        await reply(
            itx, f"{plural(len(choices), 'tournament')} are open here: which one?{more}", view=view
        )
        return True

    async def leave(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        try:
            record = await self.resolve(itx, tournament_id)
            if record.status == "running":
                raise ServiceError(
                    f"{record.heading} has started: to leave it, drop out with "
                    "`/tournament drop` (an unfinished game of yours is resigned)."
                )
            left = await self.director.leave(record.id, itx.user.id)
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await reply(
            itx,
            f"You left {safe_name(record.title)}."
            if left
            else f"You are not in {safe_name(record.title)}.",
        )
        await self.refresh(record)

    async def start(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        try:
            record = await self.resolve(itx, tournament_id)
            if itx.user.id != record.creator_id:
                await self._moderator(itx, "start a tournament")
            await itx.response.defer(ephemeral=True, thinking=True)
            moved = await self.director.start(record.id, self.bot.clock())
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await self.after(moved)
        await reply(itx, f"{safe_name(record.heading)} has started: round 1 is on.")

    async def standings(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        try:
            record = await self.resolve(itx, tournament_id, finished=True)
            table = await self.director.table_of_standings(record.id)
            players = {p.user_id: p for p in await self.store.players(record.id)}
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        if record.round == 0:
            await reply(
                itx,
                f"{safe_name(record.heading)} has not started yet: "
                f"{plural(len(players), 'player')} "
                + ("has joined." if len(players) == 1 else "have joined."),
            )
            return
        await itx.response.defer(ephemeral=True, thinking=True)
        total = planned_rounds(record, len(players))
        done = record.round - 1 + _round_done(await self.store.tables(record.id, record.round))
        when = (
            "final standings"
            if record.status == "finished"
            else f"standings after round {done} of {total}"
            if done
            else f"round 1 of {total} is being played"
        )
        text = standings_text(f"🏆 **{safe_name(record.title)}** — {when}", table, players)
        png = await self._standings_png(record, table, players, final=record.status == "finished")
        extra: dict[str, Any] = {}
        if png is not None:
            extra["file"] = discord.File(io.BytesIO(png), filename="standings.png")
        await reply(itx, text, **extra)

    async def pairings(
        self, itx: discord.Interaction[Any], tournament_id: int | None, round: int | None
    ) -> None:
        try:
            record = await self.resolve(itx, tournament_id, finished=True)
            number = record.round if round is None else round
            if record.round == 0:
                raise ServiceError(f"{record.heading} has not started yet.")
            if not 1 <= number <= record.round:
                raise ServiceError(f"{record.heading} has played rounds 1 to {record.round}.")
            tables = await self.store.tables(record.id, number)
            players = {p.user_id: p for p in await self.store.players(record.id)}
            lines = [f"🏆 **{safe_name(record.title)}** — round {number}"]
            if number == record.round and (deadline := round_deadline(record)) is not None:
                lines[0] += f", settled {deadline}"
            lines += await self._table_lines(record, tables, players)
            view = await self._follow_view(tables) if number == record.round else None
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        if view is not None:
            await reply(itx, "\n".join(lines), view=view)
        else:
            await reply(itx, "\n".join(lines))

    async def drop(
        self,
        itx: discord.Interaction[Any],
        tournament_id: int | None,
        user: discord.abc.User | None,
    ) -> None:
        """Drop ``user`` (moderators), or without one the caller themself."""
        if user is None:
            user = itx.user
        try:
            record = await self.resolve(itx, tournament_id)
            if user.id != itx.user.id:
                await self._moderator(itx, "drop another player")
            dropped = await self.director.drop(record.id, user.id, self.bot.clock())
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        if dropped.resigned is not None:
            await self.bot.delivery.publish(dropped.resigned)
        await self.after(dropped.moved)
        name = safe_name(getattr(user, "display_name", str(user.id)))
        await reply(
            itx,
            f"**{name}** is out of {safe_name(record.title)}: never paired again, still "
            "counted as an opponent."
            + (" Their unfinished game was resigned." if dropped.resigned is not None else ""),
        )
        await self.refresh(dropped.tournament)

    async def settings(
        self,
        itx: discord.Interaction[Any],
        tournament_id: int | None,
        *,
        round_time: str | None,
        auto_drop: bool | None,
    ) -> None:
        """Show a tournament's settings; moderators change the round time
        and auto-drop with the same command."""
        try:
            record = await self.resolve(itx, tournament_id, finished=True)
            if round_time is not None or auto_drop is not None:
                await self._moderator(itx, "change a tournament's settings")
                seconds = record.round_time if round_time is None else parse_round_time(round_time)
                record = await self.director.settings(
                    record.id,
                    round_time=seconds,
                    auto_drop=record.auto_drop if auto_drop is None else auto_drop,
                )
                changed = True
            else:
                changed = False
            entrants = len(await self.store.players(record.id))
            _, table_given = split_options(record.options)
            try:
                defaults = await self.bot.service.server_defaults(record.guild_id)
                policy = TableOptions.parse(table_given, defaults=defaults).timeout
            except GameError:
                policy = "substitute"
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        text = settings_text(record, entrants, policy)
        await reply(itx, ("Changed.\n" if changed else "") + text)
        if changed:
            await self.refresh(record)

    async def adjudicate(
        self,
        itx: discord.Interaction[Any],
        tournament_id: int | None,
        game_id: int,
        result: str,
    ) -> None:
        try:
            record = await self.resolve(itx, tournament_id)
            await self._moderator(itx, "adjudicate a game")
            found = await self.store.table_of_game(game_id)
            if found is None or found[0] != record.id:
                raise ServiceError(f"Game #{game_id} is not a game of {record.title}.")
            table = found[1]
            players = {p.user_id: p for p in await self.store.players(record.id)}
            places = parse_places(result, table, {u: p.display_name for u, p in players.items()})
            await itx.response.defer(ephemeral=True, thinking=True)
            moved = await self.director.adjudicate(record.id, game_id, places, self.bot.clock())
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        await self._publish_game(game_id)
        await self.after(moved)
        line = table_line(
            TournamentTable(table.round, table.number, table.seats, game_id, places, True),
            {u: p.display_name for u, p in players.items()},
        )
        await reply(itx, f"Recorded. {line}")

    async def end(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        try:
            record = await self.resolve(itx, tournament_id)
            await self._moderator(itx, "end a tournament")
            await itx.response.defer(ephemeral=True, thinking=True)
            record, ended = await self.director.end(record.id, self.bot.clock())
        except Exception as exc:
            await self.bot.table.refuse(itx, exc)
            return
        for game_id in ended:
            await self._publish_game(game_id)
        await self.announce(record.id)
        said = (
            "cancelled (it had not started)"
            if record.status == "cancelled"
            else "over; the final standings are posted"
        )
        unfinished = (
            ""
            if not ended
            else f" {plural(len(ended), 'unfinished game')} "
            + ("was" if len(ended) == 1 else "were")
            + " ended without a result."
        )
        await reply(itx, f"{safe_name(record.heading)} is {said}.{unfinished}")

    async def _publish_game(self, game_id: int) -> None:
        try:
            await self.bot.delivery.catch_up(game_id)
        except Exception:
            log.exception("game %d: its end could not be delivered", game_id)

    async def autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[tuple[str, int]]:
        if itx.guild_id is None:
            return []
        records = await self.store.in_guild(itx.guild_id)
        typed = current.strip().lstrip("#").lower()
        return [
            (
                clip(
                    f"#{r.id} {plain_name(r.name) + ' — ' if r.name else ''}"
                    f"{get_engine(r.engine).title}, "
                    f"{FORMAT_TITLES[r.format]} ({r.status})",
                    100,
                ),
                r.id,
            )
            for r in records
            if typed in str(r.id) or typed in r.name.lower()
        ][:25]


def _round_done(tables: Sequence[TournamentTable]) -> int:
    """1 when every table of the round has its result."""
    return int(all(t.places is not None for t in tables))


_PLACE = re.compile(r"[0-9]+")
_PLACES = re.compile(r"[0-9]+(?:(?:\s*,\s*|\s+-\s+|-|\s+)[0-9]+)*")
"""Places in seat order: ``2 1 3``, ``2,1``, ``2-1`` or ``2 - 1``."""


def parse_places(text: str, table: TournamentTable, names: Mapping[int, str]) -> tuple[int, ...]:
    """A moderator's verdict for a table: ``draw``, a winner's name (at two
    seats), or one place per seat in seat order (``2 1 3``)."""
    said = text.strip()
    seats = table.seats
    order = ", ".join(f"{i + 1}. {safe_name(names.get(u, '?'))}" for i, u in enumerate(seats))
    if said.lower() in ("draw", "tie", "½-½", "1/2-1/2"):
        return (1,) * len(seats)
    if _PLACES.fullmatch(said):
        # ASCII digits only (``²``, ``①`` and ``٣`` are not places), and a
        # hyphen only between two places: ``-2 -1`` and ``1 -2`` are signs.
        found = [whole_number(part) for part in _PLACE.findall(said)]
        places = tuple(p for p in found if p is not None)
        if (
            len(places) == len(found) == len(seats)
            and all(1 <= p <= len(seats) for p in places)
            and min(places) == 1
        ):
            return places
    if len(seats) == 2:
        wanted = said.lstrip("@").casefold()
        for seat, user in enumerate(seats):
            if wanted and (
                wanted == names.get(user, "").casefold() or said.strip("<@!>") == str(user)
            ):
                return (1, 2) if seat == 0 else (2, 1)
    raise GameError(
        "Give the result as `draw`, "
        + ("the winner's name, " if len(seats) == 2 else "")
        + f"or one place per seat in seat order ({order}), e.g. "
        + f"`{' '.join(str(i + 1) for i in range(len(seats)))}`."
    )


__all__ = [
    "TournamentDesk",
    "announcement_text",
    "parse_places",
    "standings_text",
    "table_line",
]
