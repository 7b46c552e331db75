"""A game's record as a file: its public log (``/game log``, from the
public narrations only) and its moves in notation (``/game export``)."""

from __future__ import annotations

import datetime
import io
from typing import Any

import discord

from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import reply
from bot.engines.core import GameError
from bot.engines.messages import Msg, decode
from bot.i18n import DEFAULT, t, tn
from bot.outgoing import Style, discord_time, fill_seats, plain_name
from bot.replay import load_record
from bot.service import GameService, LiveGame
from bot.tenure import Reader
from storage.games import ALL_STATUSES, GameRecord, LogEntry

LOG_LIMIT = 8 * 1024 * 1024
"""A game's log file is cut (from the start) past this many bytes."""


class GameLog:
    """``/game log`` and ``/game export``."""

    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def _log_record(self, itx: discord.Interaction[Any], game_id: int | None) -> GameRecord:
        """A started game of this channel (or its thread), live or over."""
        channel_id = itx.channel_id or 0
        store = self.bot.store
        if game_id is not None:
            record = await store.get_game(game_id)
            if record is None:
                raise GameError(Msg("There is no game #{id}.", id=game_id))
            if channel_id not in (record.channel_id, record.thread_id):
                raise GameError(
                    Msg("Game #{id} is in another channel: ask for its log there.", id=game_id)
                )
        else:
            here = [
                r
                for r in await store.games_in_channel(channel_id, statuses=ALL_STATUSES)
                if r.status != "lobby"
            ]
            running = [r for r in here if r.status == "active"]
            if len(running) > 1:
                ids = ", ".join(f"#{r.id}" for r in running)
                raise GameError(
                    Msg("Several games are running here ({ids}); give the game number.", ids=ids)
                )
            if running:
                record = running[0]
            elif here:
                record = here[-1]  # the newest finished game
            else:
                raise GameError(Msg("No game has been played in this channel yet."))
        if record.status == "lobby":
            raise GameError(Msg("Game #{id} has not started yet, so it has no log.", id=record.id))
        return record

    @refusing
    async def log(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game log``: the public log as a text file, only ever from the
        public narrations (an action's own text may be secret)."""
        await itx.response.defer(ephemeral=True, thinking=True)
        record = await self._log_record(itx, game_id)
        game = await self.service.get(record.id)
        entries = await self.bot.store.log(record.id)
        lang = await self.bot.languages.for_reader(itx)
        text = log_text(game, entries, lang)
        data = text.encode("utf-8")
        if len(data) > LOG_LIMIT:
            data = (t(lang, "… (the start is cut)") + "\n").encode() + data[-LOG_LIMIT:]
        # The file's times are UTC (a text file cannot show the reader's
        # own); the message shows when the game was opened in theirs.
        await reply(
            itx,
            t(
                lang,
                "The public log of {game} #{id}, opened {when} ({ago}). Times in the file are UTC.",
                game=t(lang, game.engine.title),
                id=game.id,
                when=discord_time(record.created_at, "f"),
                ago=discord_time(record.created_at),
            ),
            file=discord.File(io.BytesIO(data), filename=f"chaupal-{game.id}-log.txt"),
        )

    @refusing
    async def export(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game export``: the game as text, the moves in Chaupal's notation
        one a line (``python -m bot replay FILE`` reads it), privately.  What
        another seat did in secret is written ``?``, also after the end: the
        secret lines of the caller's seat are kept while they held it
        (:mod:`bot.tenure`: not after they left it, not before they took it
        over), nobody else's."""
        await itx.response.defer(ephemeral=True, thinking=True)
        record = await self._log_record(itx, game_id)
        game = await self.service.get(record.id)
        complete = await load_record(self.bot.store, record.id)
        # A seat's own lines only while the caller held it (bot.tenure).
        reader = Reader.of(itx.user.id, game.seats, complete.lines)
        text, hidden = await self.bot.renders.public_record(complete, reader)
        lang = await self.bot.languages.for_reader(itx)
        if hidden:
            what = tn(
                lang,
                "{n} move other players made in secret is written `?`, so it cannot be "
                "replayed offline; `/game replay` draws the replay here.",
                "{n} moves other players made in secret are written `?`, so it cannot be "
                "replayed offline; `/game replay` draws the replay here.",
                hidden,
            )
        else:
            what = t(lang, "It is complete: `python -m bot replay FILE` draws its replay offline.")
        await reply(
            itx,
            t(
                lang,
                "{game} #{id} as text: the options, the seats, then every move in Chaupal's "
                "notation, one a line. {what}",
                game=t(lang, game.engine.title),
                id=game.id,
                what=what,
            ),
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"chaupal-{game.id}.txt"),
        )


def _utc(timestamp: float) -> str:
    moment = datetime.datetime.fromtimestamp(timestamp, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def log_text(game: LiveGame, entries: list[LogEntry], lang: str = DEFAULT) -> str:
    """The public log of a game as plain text: one line per narration (the
    public account of an action; never the action's own text, which may be
    secret), with its time in UTC (said in the header: Discord's timestamps
    do not render in a file), and the result once the game is over."""
    record = game.record
    players = ", ".join(f"{s.seat + 1}. {plain_name(s.display_name)}" for s in game.seats)
    lines = [
        t(lang, "{game} #{id} — the public log", game=t(lang, game.engine.title), id=game.id),
        t(lang, "Players: {players}", players=players),
        t(
            lang,
            "Opened: {when}. Every time in this log is UTC (Coordinated Universal Time), "
            "as YYYY-MM-DD HH:MM.",
            when=_utc(record.created_at),
        ),
        "",
    ]
    for entry in entries:
        if not entry.narration:
            continue
        said = fill_seats(decode(entry.narration), game, Style.PLAIN, lang)
        lines.append(f"{_utc(entry.created_at)}  {said}")
    if game.is_over and game.outcome is not None:
        outcome = game.outcome
        places = "; ".join(
            f"{rank}. {' & '.join(plain_name(game.names[s]) for s in sorted(group))}"
            for rank, group in enumerate(outcome.ranking, start=1)
        )
        reason = fill_seats(outcome.reason, game, Style.PLAIN, lang)
        lines += [
            "",
            t(
                lang,
                "Over ({when}): {reason} Ranking: {places}",
                when=_utc(record.updated_at),
                reason=reason,
                places=places,
            ),
        ]
    elif game.is_over:
        lines += ["", t(lang, "Over ({when}).", when=_utc(record.updated_at))]
    return "\n".join(lines) + "\n"
