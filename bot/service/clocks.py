"""Players' clocks over all their games, and games no timer would move:
``/game away`` and ``/game back``, and at start-up (and every few minutes)
the games whose timers are missing or that wait on nobody, repaired."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.engines.core import CHANCE, GameError, Seat, seat_tag
from bot.engines.messages import Msg, Plural
from bot.live import LiveGame, ServiceError
from bot.outgoing import discord_time
from bot.service.automatic import Automatic
from bot.service.common import event_entry, throws
from bot.service.core import Core
from bot.service.games import Games
from bot.service.preferences import Preferences
from bot.service.turns import Turns
from bot.service.writer import Writer
from bot.tenure import LEFT, REPLACED
from bot.timekeeping import DAY, vacation_allowance
from storage.timekeeping import Vacation

log = logging.getLogger(__name__)


class Clocks:
    """Vacations, and the games whose clocks or timers need setting again."""

    def __init__(
        self,
        core: Core,
        turns: Turns,
        preferences: Preferences,
        writer: Writer,
        games: Games,
        automatic: Automatic,
    ) -> None:
        self.core = core
        self.turns = turns
        self.preferences = preferences
        self.writer = writer
        self.games = games
        self.automatic = automatic

    async def away(self, user_id: int, days: int) -> str:
        """``/game away``: the caller's clocks stop in all their games."""
        now = self.core.clock()
        taken = await self.core.timers.vacations([user_id], since=now - 60 * DAY)
        if any(v.starts <= now < v.ends for v in taken):
            raise ServiceError(Msg("You are already away; use /game back first to change it."))
        refusal = vacation_allowance([(v.starts, v.ends) for v in taken], now, days)
        if refusal is not None:
            raise ServiceError(refusal)
        await self.core.timers.add_vacation(Vacation(user_id, now, now + days * DAY))
        count = await self.refresh_games_of(
            user_id,
            lambda tag: Plural(
                "{player} is away for {n} day: their clock is stopped meanwhile.",
                "{player} is away for {n} days: their clock is stopped meanwhile.",
                days,
                player=tag,
            ),
        )
        return Msg(
            "You are away for {days}, until {date} ({when}): your clocks are stopped in "
            "{games} and nobody will remind you. /game back ends it early.",
            days=Plural("{n} day", "{n} days", days),
            date=discord_time(now + days * DAY, "f"),
            when=discord_time(now + days * DAY),
            games=Plural("{n} game", "{n} games", count),
        )

    async def back(self, user_id: int) -> str:
        if not await self.core.timers.end_vacation(user_id, self.core.clock()):
            raise ServiceError(Msg("You are not away."))
        count = await self.refresh_games_of(
            user_id, lambda tag: Msg("{player} is back.", player=tag)
        )
        return Plural(
            "Welcome back: your clocks run again in {n} game.",
            "Welcome back: your clocks run again in {n} games.",
            count,
        )

    async def refresh_games_of(self, user_id: int, news: Callable[[str], str]) -> int:
        """Tell each of the user's running games (the log, so the next board
        says it) and set its clocks and timers again, in one write each;
        ``news`` says it of a seat's tag (``{p0}``)."""
        games = [g for g in await self.core.store.games_of_user(user_id) if g.status == "active"]
        for record in games:

            async def act(game: LiveGame) -> None:
                seat = game.seat_of(user_id)
                if game.is_over:
                    return
                if seat is not None and not game.is_auto(seat):
                    await self.writer.table_event(game, seat, "away", news(seat_tag(seat)))
                else:
                    await self.writer.keep_time(game, moved=None)
                await self.automatic.after_change(game, moved=None)

            await self.games.retrying(record.id, act)
        return len(games)

    async def settle_timers(self) -> int:
        """At start-up: set the timers of every running game whose timers
        are missing or void (a crash between a move and its timers, in a
        version that wrote them apart)."""
        fixed = 0
        for game_id in await self.core.timers.games_to_settle():
            async with self.core.lock(game_id):
                try:
                    game = await self.games.load(game_id)
                    await self.writer.keep_time(game, moved=None)
                except GameError:
                    continue
            fixed += 1
        return fixed

    async def stranded(self, game: LiveGame) -> str | None:
        """Why a running game waits on a seat with nothing due (None: it
        does not): an automatic seat with no timer to act, a clock that runs
        with no deadline to end it, timers set for another version.  A
        person without a clock whose reminders are off is awaited, not
        stranded: they can act."""
        if game.record.status != "active" or game.is_over or game.paused or game.state is None:
            return None
        unmarked = await self.unmarked_departures(game)
        if unmarked:
            return f"seat {unmarked[0]} passed to the automatic player without its @left"
        movers = game.engine.to_move(game.state) - {CHANCE}
        stored = await self.core.timers.of_game(game.id)
        if not movers:
            if self.turns.holds_chance(game):
                # A throw held for a takeback waits for its timer (issue 31).
                if not any(throws(t, game.version) for t in stored):
                    return "a throw waits with no timer to make it"
                return None
            return "nobody can move"
        if any(t.version != game.version for t in stored):
            return "its timers were set for another version"
        clocks = {t.seat: t for t in stored if t.kind == "clock"}
        for seat in self.turns.automatic_turn(game):
            if seat not in clocks:
                return f"automatic seat {seat} has no timer to act"
        public, private = self.turns.owing(game)
        away = await self.preferences.away_until(game) if public | private else {}
        if game.table.clock is not None:
            for seat in sorted((public | private) - set(away)):
                if seat not in clocks:
                    return f"seat {seat} owes a decision with no deadline"
        return None

    async def unmarked_departures(self, game: LiveGame) -> list[Seat]:
        """Seats a person left to the automatic player with no ``@left``
        since the seat last changed hands: what a leaving written apart from
        its log entry (before issue 29) could leave behind."""
        handed = {s.seat for s in game.seats if s.controller == "auto" and not s.automatic_player}
        if not handed:
            return []
        left: dict[Seat, bool] = {}
        for entry in await self.core.store.table_events(game.id):
            if entry.action == LEFT:
                left[entry.actor] = True
            elif entry.action.partition(":")[0] == REPLACED:
                left[entry.actor] = False
        return sorted(s for s in handed if not left.get(s))

    async def repair_stranded(self) -> list[int]:
        """Every running game that waits on a seat with nothing due (see
        :meth:`stranded`) is logged as an error and repaired: its clocks and
        timers set again, and automatic seats due to act play.  Run at
        start-up and every few minutes (``bot.edge.client``): a game must
        never wait on nobody (issue 29), whatever bug or crash left it so.
        Returns the games repaired (their boards may be behind)."""
        repaired: list[int] = []
        for record in await self.core.store.live_games():
            if record.status != "active" or record.paused_at is not None:
                continue
            async with self.core.lock(record.id):
                try:
                    game = await self.games.load(record.id)
                    why = await self.stranded(game)
                    if why is None:
                        continue
                    log.error("game %d waited on nothing due (%s): repairing it", game.id, why)
                    unmarked = await self.unmarked_departures(game)
                    if unmarked:
                        # The log says who left, as a leaving always does:
                        # their view of the seat ends here.
                        await self.writer.write(
                            game,
                            events=[
                                event_entry(
                                    s,
                                    LEFT[1:],
                                    Msg(
                                        "{player} is no longer at the table: the automatic "
                                        "player plays their seat.",
                                        player=seat_tag(s),
                                    ),
                                )
                                for s in unmarked
                            ],
                        )
                    else:
                        await self.writer.keep_time(game, moved=None)
                    await self.automatic.after_change(game, moved=None)
                except GameError:
                    continue  # broken (a moderator ends it) or changed meanwhile
            repaired.append(record.id)
        return repaired
