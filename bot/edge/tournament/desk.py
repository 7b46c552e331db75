"""The tournament desk: what moderators and players ask of a tournament.

:class:`~bot.director.TournamentDirector` runs tournaments without Discord;
this is its Discord edge, as the edge's features are the game service's.
Slash commands (``bot/edge/tournament/cog.py``, ``/moderate tournament``)
land here, one request each; what a tournament shows in its channel (its
announcement, **Join** and **Leave**, rounds, results, headings) is
:class:`~bot.edge.tournament.entries.Entries`, which the desk is built on.
Refusals are ephemeral and change nothing."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.director import (
    RoundStarted,
    TournamentDirector,
    heading_msg,
    planned_rounds,
    title_msg,
)
from bot.edge.delivery.delivery import Delivery
from bot.edge.delivery.texts import jump_url
from bot.edge.lobby.options import parse_options
from bot.edge.moderators import is_moderator
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import reply
from bot.edge.tournament.entries import Entries, tournament_view
from bot.edge.tournament.texts import (
    _round_done,
    announcement_text,
    format_title,
    heading_in,
    parse_places,
    parse_round_time,
    round_deadline,
    settings_text,
    standings_text,
    table_line,
    title_in,
)
from bot.engines import get_engine
from bot.engines.core import GameError
from bot.engines.messages import Msg
from bot.i18n import N_, t, tn
from bot.outgoing import (
    clip,
    plain_name,
    safe_name,
)
from bot.server_settings import server_settings
from bot.service import LiveGame, ServiceError
from bot.timekeeping import TableOptions, split_options
from storage.timekeeping import Timer
from storage.tournaments import (
    TournamentStore,
    TournamentTable,
)

log = logging.getLogger(__name__)

STATUS_WORDS: dict[str, str] = {
    "open": N_("open"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
"""A tournament's status, as the menu of tournaments shows it."""


class TournamentDesk:
    """What moderators and players ask of a tournament (a request each), over
    :class:`~bot.edge.tournament.entries.Entries`, which shows it."""

    def __init__(self, bot: Edge, director: TournamentDirector, delivery: Delivery) -> None:
        self.bot = bot
        self.director = director
        self.delivery = delivery
        self.entries = Entries(bot, director, delivery)

    # -- what the client and delivery use, from the entries -------------------------

    async def heading(self, game: LiveGame) -> str:
        """A tournament game's heading (:meth:`Entries.heading`: the desk is
        delivery's :class:`~bot.edge.ports.Headings`)."""
        return await self.entries.heading(game)

    async def table_message(self, game: LiveGame) -> tuple[int, int] | None:
        return await self.entries.table_message(game)

    async def after(self, moved: RoundStarted | None) -> None:
        await self.entries.after(moved)

    async def round_due(self, deadline: Timer) -> None:
        await self.entries.round_due(deadline)

    async def join(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        await self.entries.join(itx, tournament_id)

    async def leave(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        await self.entries.leave(itx, tournament_id)

    @property
    def store(self) -> TournamentStore:
        return self.director.store

    async def _moderator(self, itx: discord.Interaction[Any], doing: Msg) -> None:
        """Refused unless a moderator: ``doing`` is the whole refusal."""
        if not await is_moderator(self.bot.server_settings, itx):
            raise ServiceError(doing)

    @refusing
    async def new(
        self,
        itx: discord.Interaction[Any],
        *,
        engine_name: str,
        format: str,
        rounds: int,
        table_size: int | None,
        options: str | None,
        name: str,
        round_time: str | None = None,
        auto_drop: bool = True,
    ) -> None:
        parsed = parse_options(options)
        if itx.guild_id is None:
            raise ServiceError(Msg("Tournaments belong to a server; use this in one."))
        await self._moderator(
            itx,
            Msg(
                "Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                "moderator role) can open a tournament."
            ),
        )
        seconds = None if round_time is None else parse_round_time(round_time)
        record = await self.director.new(
            guild_id=itx.guild_id,
            channel_id=itx.channel_id or 0,
            engine_name=engine_name,
            format=format,
            rounds=rounds,
            table_size=table_size,
            options=parsed,
            creator_id=itx.user.id,
            now=self.bot.clock(),
            name=name,
            round_time=seconds,
            auto_drop=auto_drop,
        )
        lang = await self.bot.languages.for_channel(record.guild_id, itx)
        await reply(
            itx,
            announcement_text(record, [], lang=lang),
            ephemeral=False,
            view=tournament_view(record, lang),
        )
        message = await itx.original_response()
        await self.store.set_message(record.id, message.channel.id, message.id)
        settings = await server_settings(self.bot.server_settings, record.guild_id)
        if settings.announcements is not None and settings.announcements != record.channel_id:
            link = jump_url(record.guild_id, message.channel.id, message.id)
            try:
                await self.entries.send(
                    settings.announcements,
                    record.guild_id,
                    t(
                        lang,
                        "🏆 {tournament} of **{game}** is open for entries: {link}",
                        tournament=safe_name(heading_in(record, lang)),
                        game=t(lang, get_engine(record.engine).title),
                        link=link,
                    ),
                )
            except discord.HTTPException as exc:
                log.info("tournament %d: announcements channel refused (%s)", record.id, exc)

    @refusing
    async def start(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        record = await self.entries.resolve(itx, tournament_id)
        if itx.user.id != record.creator_id:
            await self._moderator(
                itx,
                Msg(
                    "Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                    "moderator role) can start a tournament."
                ),
            )
        await itx.response.defer(ephemeral=True, thinking=True)
        moved = await self.director.start(record.id, self.bot.clock())
        await self.entries.after(moved)
        lang = await self.bot.languages.for_reader(itx)
        await reply(
            itx,
            t(
                lang,
                "{tournament} has started: round 1 is on.",
                tournament=safe_name(heading_in(record, lang)),
            ),
        )

    @refusing
    async def standings(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        record = await self.entries.resolve(itx, tournament_id, finished=True)
        table = await self.director.table_of_standings(record.id)
        players = {p.user_id: p for p in await self.store.players(record.id)}
        lang = await self.bot.languages.for_reader(itx)
        if record.round == 0:
            await reply(
                itx,
                tn(
                    lang,
                    "{tournament} has not started yet: {n} player has joined.",
                    "{tournament} has not started yet: {n} players have joined.",
                    len(players),
                    tournament=safe_name(heading_in(record, lang)),
                ),
            )
            return
        await itx.response.defer(ephemeral=True, thinking=True)
        total = planned_rounds(record, len(players))
        done = record.round - 1 + _round_done(await self.store.tables(record.id, record.round))
        when = (
            t(lang, "final standings")
            if record.status == "finished"
            else t(lang, "standings after round {done} of {total}", done=done, total=total)
            if done
            else t(lang, "round 1 of {total} is being played", total=total)
        )
        text = standings_text(
            t(
                lang,
                "🏆 **{tournament}** — {when}",
                tournament=safe_name(title_in(record, lang)),
                when=when,
            ),
            table,
            players,
            lang,
        )
        png = await self.entries.standings_png(
            record, table, players, final=record.status == "finished", lang=lang
        )
        extra: dict[str, Any] = {}
        if png is not None:
            extra["file"] = discord.File(
                io.BytesIO(png),
                filename="standings.png",
                description=self.entries.standings_alt(
                    record,
                    table,
                    players,
                    await self.bot.languages.for_reader(itx),
                    final=record.status == "finished",
                ),
            )
        await reply(itx, text, **extra)

    @refusing
    async def pairings(
        self, itx: discord.Interaction[Any], tournament_id: int | None, round: int | None
    ) -> None:
        record = await self.entries.resolve(itx, tournament_id, finished=True)
        number = record.round if round is None else round
        if record.round == 0:
            raise ServiceError(
                Msg("{tournament} has not started yet.", tournament=heading_msg(record))
            )
        if not 1 <= number <= record.round:
            raise ServiceError(
                Msg(
                    "{tournament} has played rounds 1 to {round}.",
                    tournament=heading_msg(record),
                    round=record.round,
                )
            )
        lang = await self.bot.languages.for_reader(itx)
        tables = await self.store.tables(record.id, number)
        players = {p.user_id: p for p in await self.store.players(record.id)}
        title = safe_name(title_in(record, lang))
        if number == record.round and (deadline := round_deadline(record)) is not None:
            head = t(
                lang,
                "🏆 **{tournament}** — round {round}, settled {deadline}",
                tournament=title,
                round=number,
                deadline=deadline,
            )
        else:
            head = t(lang, "🏆 **{tournament}** — round {round}", tournament=title, round=number)
        lines = [head]
        lines += await self.entries.table_lines(record, tables, players, lang)
        view = await self.entries.follow_view(tables, lang) if number == record.round else None
        if view is not None:
            await reply(itx, "\n".join(lines), view=view)
        else:
            await reply(itx, "\n".join(lines))

    @refusing
    async def drop(
        self,
        itx: discord.Interaction[Any],
        tournament_id: int | None,
        user: discord.abc.User | None,
    ) -> None:
        """Drop ``user`` (moderators), or without one the caller themself."""
        if user is None:
            user = itx.user
        record = await self.entries.resolve(itx, tournament_id)
        if user.id != itx.user.id:
            await self._moderator(
                itx,
                Msg(
                    "Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                    "moderator role) can drop another player."
                ),
            )
        dropped = await self.director.drop(record.id, user.id, self.bot.clock())
        if dropped.resigned is not None:
            await self.delivery.publish(dropped.resigned)
        await self.entries.after(dropped.moved)
        name = safe_name(getattr(user, "display_name", str(user.id)))
        lang = await self.bot.languages.for_reader(itx)
        title = safe_name(title_in(record, lang))
        if dropped.resigned is not None:
            said = t(
                lang,
                "**{name}** is out of {tournament}: never paired again, still counted as an "
                "opponent. Their unfinished game was resigned.",
                name=name,
                tournament=title,
            )
        else:
            said = t(
                lang,
                "**{name}** is out of {tournament}: never paired again, still counted as an "
                "opponent.",
                name=name,
                tournament=title,
            )
        await reply(itx, said)
        await self.entries.refresh(dropped.tournament)

    @refusing
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
        record = await self.entries.resolve(itx, tournament_id, finished=True)
        if round_time is not None or auto_drop is not None:
            await self._moderator(
                itx,
                Msg(
                    "Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                    "moderator role) can change a tournament's settings."
                ),
            )
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
        lang = await self.bot.languages.for_reader(itx)
        text = settings_text(record, entrants, t(lang, policy), lang)
        await reply(itx, (t(lang, "Changed.") + "\n" if changed else "") + text)
        if changed:
            await self.entries.refresh(record)

    @refusing
    async def adjudicate(
        self,
        itx: discord.Interaction[Any],
        tournament_id: int | None,
        game_id: int,
        result: str,
    ) -> None:
        record = await self.entries.resolve(itx, tournament_id)
        await self._moderator(
            itx,
            Msg(
                "Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                "moderator role) can adjudicate a game."
            ),
        )
        found = await self.store.table_of_game(game_id)
        if found is None or found[0] != record.id:
            raise ServiceError(
                Msg(
                    "Game #{id} is not a game of {tournament}.",
                    id=game_id,
                    tournament=title_msg(record),
                )
            )
        table = found[1]
        players = {p.user_id: p for p in await self.store.players(record.id)}
        places = parse_places(result, table, {u: p.display_name for u, p in players.items()})
        await itx.response.defer(ephemeral=True, thinking=True)
        moved = await self.director.adjudicate(record.id, game_id, places, self.bot.clock())
        await self.entries.publish_game(game_id)
        await self.entries.after(moved)
        lang = await self.bot.languages.for_reader(itx)
        line = table_line(
            TournamentTable(table.round, table.number, table.seats, game_id, places, True),
            {u: p.display_name for u, p in players.items()},
            lang=lang,
        )
        await reply(itx, t(lang, "Recorded. {line}", line=line))

    @refusing
    async def end(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None:
        record = await self.entries.resolve(itx, tournament_id)
        await self._moderator(
            itx,
            Msg(
                "Only a moderator (Manage Server, Manage Messages or the server's Chaupal "
                "moderator role) can end a tournament."
            ),
        )
        await itx.response.defer(ephemeral=True, thinking=True)
        record, ended = await self.director.end(record.id, self.bot.clock())
        for game_id in ended:
            await self.entries.publish_game(game_id)
        await self.entries.announce(record.id)
        lang = await self.bot.languages.for_reader(itx)
        heading = safe_name(heading_in(record, lang))
        if record.status == "cancelled":
            said = t(lang, "{tournament} is cancelled (it had not started).", tournament=heading)
        else:
            said = t(
                lang, "{tournament} is over; the final standings are posted.", tournament=heading
            )
        if ended:
            said += " " + tn(
                lang,
                "{n} unfinished game was ended without a result.",
                "{n} unfinished games were ended without a result.",
                len(ended),
            )
        await reply(itx, said)

    async def autocomplete(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[tuple[str, int]]:
        if itx.guild_id is None:
            return []
        records = await self.store.in_guild(itx.guild_id)
        lang = await self.bot.languages.for_reader(itx)
        typed = current.strip().lstrip("#").lower()
        return [
            (
                clip(
                    f"#{r.id} {plain_name(r.name) + ' — ' if r.name else ''}"
                    f"{t(lang, get_engine(r.engine).title)}, "
                    f"{format_title(r.format, lang)} "
                    f"({t(lang, STATUS_WORDS.get(r.status, r.status))})",
                    100,
                ),
                r.id,
            )
            for r in records
            if typed in str(r.id) or typed in r.name.lower()
        ][:25]
