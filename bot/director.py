"""The tournament director: runs tournaments with the game service.

It pairs rounds (``bot.tournament.pairing``), writes each round whole
(``storage.tournaments``), starts one game per table through
:class:`~bot.service.GameService` with the tournament's options, reads each
game's result back when it ends, and pairs the next round once every table
of the round has a result.  A restart mid-round loses nothing and starts
nothing twice: a round is written once, a table is linked to its game only
while it has none, a lobby left by a crash is started on the next pass, and
a result is recorded once.

A round may have a deadline (``round_time``): when it passes, the games
still running are settled by the tournament's timeout policy
(:meth:`TournamentDirector.settle_round`) and the next round starts.  A
player who loses two games in a row on time is dropped (``auto_drop``).

Discord stays out: the caller posts what the returned results say.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.engines import get_engine
from bot.engines.core import GameError, excerpt, resolve_options
from bot.engines.messages import Msg, Plural
from bot.i18n import N_
from bot.outgoing import MAX_NAME as MAX_DISPLAY_NAME
from bot.outgoing import plain_name
from bot.service import (
    FORFEIT_EVENT,
    GameService,
    LiveGame,
    MoveResult,
    Player,
    ServiceError,
)
from bot.timekeeping import TableOptions, split_options
from bot.tournament import pairing, standings
from storage.ratings import RatingStore
from storage.timekeeping import Timer
from storage.tournaments import (
    RoundDeadlines,
    TournamentFormat,
    TournamentRecord,
    TournamentStore,
    TournamentTable,
)

log = logging.getLogger(__name__)

FORMATS: tuple[TournamentFormat, ...] = ("swiss", "round_robin", "elimination", "pods")
FORMAT_TITLES: dict[str, str] = {
    "swiss": N_("Swiss"),
    "round_robin": N_("Round robin"),
    "elimination": N_("Single elimination"),
    "pods": N_("Pods"),
}
MAX_ROUNDS = 50
POD_SIZES = (3, 4, 5)
"""The players at a pod's table."""
MAX_NAME = MAX_DISPLAY_NAME
"""A tournament's own name is cut to this many characters, like a player's."""
LOST_ON_TIME = FORFEIT_EVENT
"""The game log's entry (actor: the seat) for a seat that lost on time, by
its clock or at a round's deadline."""
TIME_LOSSES_TO_DROP = 2
"""Games lost on time in a row that drop a player (unless auto-drop is off)."""


def title_msg(record: TournamentRecord) -> str:
    """:attr:`TournamentRecord.title` as a message (its English is the
    same): the moderator's name for it, or ``tournament #N`` translated."""
    return record.name or Msg("tournament #{id}", id=record.id)


def heading_msg(record: TournamentRecord) -> str:
    """:attr:`TournamentRecord.heading` as a message."""
    return record.name or Msg("Tournament #{id}", id=record.id)


def players_range(low: int, high: int) -> str:
    """``2 players``, ``2 to 4 players``."""
    if low == high:
        return Plural("{n} player", "{n} players", low)
    return Msg("{low} to {high} players", low=low, high=high)


def planned_rounds(record: TournamentRecord, entrants: int) -> int:
    """How many rounds the tournament plays with ``entrants`` players.

    Swiss without a number: enough rounds for one unbeaten winner,
    ceil(log2 n).  Pods without a number: ceil(log_size n) + 1, so that the
    last round brings the leaders together.  Round robin: n - 1 (n even) or n.
    Single elimination: ceil(log2 n).
    """
    n = max(entrants, 2)
    if record.format == "round_robin":
        return n - 1 if n % 2 == 0 else n
    if record.format == "elimination":
        return math.ceil(math.log2(n))
    if record.rounds:
        return record.rounds
    if record.format == "pods":
        size = max(record.table_size, 2)
        return max(2, math.ceil(math.log(n, size) - 1e-9) + 1)
    return max(1, math.ceil(math.log2(n)))


@dataclass(frozen=True)
class Dropped:
    tournament: TournamentRecord
    resigned: MoveResult | None
    """The game resigned for the player, to deliver (if one was playing)."""
    moved: RoundStarted | None = None
    """What a forfeit without a game moved on (the round may be complete)."""


@dataclass(frozen=True)
class RoundStarted:
    """What a pass of the director did: games to deliver, and whether the
    tournament moved on (a new round, or its end)."""

    tournament: TournamentRecord
    games: tuple[MoveResult, ...] = ()
    new_round: bool = False
    finished: bool = False
    auto_dropped: tuple[int, ...] = ()
    """Players this pass dropped for losing two games in a row on time."""


@dataclass(frozen=True)
class Settled:
    """A round's deadline passed: the games it settled, and what moved on."""

    tournament: TournamentRecord
    games: tuple[MoveResult, ...]
    moved: RoundStarted | None
    """None when another process took the deadline over meanwhile."""


class TournamentDirector:
    def __init__(self, games: GameService, store: TournamentStore, ratings: RatingStore) -> None:
        self.games = games
        self.store = store
        self.ratings = ratings
        self._locks: dict[int, asyncio.Lock] = {}
        # Claimed in the same name as the games' timers (one process, one id).
        self.deadlines = RoundDeadlines(store.db, games.timers.owner)
        self.deadlines_changed: Callable[[], None] = lambda: None
        """Called when a round's deadline is set or moved (the round
        scheduler re-arms)."""

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- opening -----------------------------------------------------------------

    async def new(
        self,
        *,
        guild_id: int,
        channel_id: int,
        engine_name: str,
        format: str,
        rounds: int,
        table_size: int | None,
        options: dict[str, Any],
        creator_id: int,
        now: float,
        name: str = "",
        round_time: float | None = None,
        auto_drop: bool = True,
    ) -> TournamentRecord:
        engine = get_engine(engine_name)
        if format not in FORMATS:
            raise ServiceError(
                Msg(
                    "A tournament is {formats}, not {given}.",
                    formats=", ".join(FORMATS),
                    given=excerpt(format),
                )
            )
        if format != "pods" and table_size not in (None, 2):
            raise ServiceError(
                Msg("`table_size` is for pods; the other formats play two players a game.")
            )
        size = table_size or (2 if format != "pods" else min(4, engine.max_players))
        if format == "pods":
            players = players_range(engine.min_players, engine.max_players)
            fits = [n for n in POD_SIZES if engine.min_players <= n <= engine.max_players]
            if not fits:
                raise ServiceError(
                    Msg(
                        "{game} is for {players}; pods need games for {low} to {high}.",
                        game=Msg(engine.title),
                        players=players,
                        low=POD_SIZES[0],
                        high=POD_SIZES[-1],
                    )
                )
            if size not in fits:
                raise ServiceError(
                    Msg(
                        "Pods of {size} do not fit {game}, which is for {players}: "
                        "its pods are of {fits}.",
                        size=size,
                        game=Msg(engine.title),
                        players=players,
                        fits=players_range(fits[0], fits[-1]),
                    )
                )
        elif engine.min_players > 2:
            raise ServiceError(
                Msg("{game} needs pods: it is not a two-player game.", game=Msg(engine.title))
            )
        else:
            size = 2
        if not 0 <= rounds <= MAX_ROUNDS:
            raise ServiceError(
                Msg(
                    "A tournament has 0 (as many as the format needs) to {most} rounds.",
                    most=MAX_ROUNDS,
                )
            )
        if format in ("round_robin", "elimination") and rounds:
            raise ServiceError(
                Msg("A round robin decides its own rounds: leave `rounds` out.")
                if format == "round_robin"
                else Msg("A single elimination decides its own rounds: leave `rounds` out.")
            )
        engine_given, table_given = split_options(options)
        resolve_options(engine, engine_given)  # refuse bad options now, not at round 3
        TableOptions.parse(table_given)
        return await self.store.create(
            guild_id=guild_id,
            channel_id=channel_id,
            engine=engine.name,
            format=format,
            rounds=rounds,
            table_size=size,
            # Tournament games are always rated, and take no move back unless
            # the tournament says `takeback=yes` (issue 31): a result that
            # counts is played as it stands.
            options={"takeback": "no", **options, "rated": "yes"},
            creator_id=creator_id,
            now=now,
            name=plain_name(name) if name.strip() else "",
            round_time=round_time,
            auto_drop=auto_drop,
        )

    async def settings(
        self, tournament_id: int, *, round_time: float | None, auto_drop: bool
    ) -> TournamentRecord:
        """A moderator changes the round time or auto-drop.  A running
        round's deadline becomes its start plus the new time (settled at
        once if that has passed), or none."""
        async with self._lock(tournament_id):
            record = await self._get(tournament_id)
            changed = await self.store.set_settings(
                tournament_id, round_time=round_time, auto_drop=auto_drop
            )
            if changed is None:
                raise ServiceError(Msg("{tournament} is over.", tournament=heading_msg(record)))
        self.deadlines_changed()
        return changed

    async def join(self, tournament_id: int, player: Player, now: float) -> bool:
        record = await self._get(tournament_id)
        rating = await self.ratings.get(record.guild_id, record.engine, player.user_id)
        seed = 0.0 if rating is None else rating.ordinal
        return await self.store.join(tournament_id, player.user_id, player.display_name, seed, now)

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Leave before the start; False if not in it."""
        await self._get(tournament_id)
        return await self.store.leave(tournament_id, user_id)

    # -- a moderator's hand ------------------------------------------------------------

    async def drop(self, tournament_id: int, user_id: int, now: float) -> Dropped:
        """Take a player out of a running tournament: never paired again,
        still counted as an opponent.  An unfinished game of theirs in the
        current round is resigned for them (with two players their opponent
        wins; at a pod the automatic player takes the seat, ranked last)."""
        async with self._lock(tournament_id):
            record = await self._get(tournament_id)
            if record.status == "open":
                raise ServiceError(
                    Msg(
                        "{tournament} has not started: players leave it with /tournament leave.",
                        tournament=heading_msg(record),
                    )
                )
            if record.status != "running":
                raise ServiceError(Msg("{tournament} is over.", tournament=heading_msg(record)))
            if not any(p.user_id == user_id for p in await self.store.players(tournament_id)):
                raise ServiceError(
                    Msg("That player is not in {tournament}.", tournament=title_msg(record))
                )
            if not await self.store.drop(tournament_id, user_id, record.round):
                raise ServiceError(
                    Msg(
                        "That player has already dropped out of {tournament}.",
                        tournament=title_msg(record),
                    )
                )
            resigned: MoveResult | None = None
            forfeited = False
            for table in await self.store.tables(tournament_id, record.round):
                if user_id in table.seats and table.places is None and table.game_id is None:
                    # Paired, but their game never started (a crash): a forfeit.
                    places = [len(table.seats) if u == user_id else 1 for u in table.seats]
                    forfeited = await self.store.record_result(
                        tournament_id, table.round, table.number, places
                    )
                if user_id in table.seats and table.places is None and table.game_id is not None:
                    game = await self.games.get(table.game_id)
                    seat = game.seat_of(user_id)
                    if not game.is_over and seat is not None and not game.is_auto(seat):
                        resigned = await self.games.resign(table.game_id, user_id)
            moved = await self._advance(record, now) if forfeited else None
            return Dropped(record, resigned, moved)

    async def adjudicate(
        self, tournament_id: int, game_id: int, places: tuple[int, ...], now: float
    ) -> RoundStarted:
        """A moderator decides an unfinished game of the current round:
        ``places`` per seat (1 best, equal places tie).  The game ends, and
        the round moves on if it was the last one playing."""
        async with self._lock(tournament_id):
            record = await self._get(tournament_id)
            if record.status != "running":
                raise ServiceError(
                    Msg("{tournament} is not running.", tournament=heading_msg(record))
                )
            found = await self.store.table_of_game(game_id)
            if found is None or found[0] != tournament_id:
                raise ServiceError(
                    Msg(
                        "Game #{id} is not a game of {tournament}.",
                        id=game_id,
                        tournament=title_msg(record),
                    )
                )
            table = found[1]
            if table.places is not None:
                raise ServiceError(Msg("Game #{id} already has its result.", id=game_id))
            if len(places) != len(table.seats) or any(p < 1 for p in places):
                raise ServiceError(
                    Msg(
                        "Game #{id} has {seats} seats: give one place (1 best) "
                        "for each, in seat order.",
                        id=game_id,
                        seats=len(table.seats),
                    )
                )
            # The result first: the game's end then finds it recorded and
            # does not count the moderator's end as a draw.
            await self.store.record_result(
                tournament_id, table.round, table.number, places, adjudicated=True
            )
            game = await self.games.get(game_id)
            if not game.is_over:
                # A verdict is a result, so the game is rated with these
                # places (a moderator's plain end is not).  It may end by
                # itself meanwhile: the verdict stands anyway.
                with contextlib.suppress(ServiceError):
                    await self.games.end_with_result(
                        game_id, places, Msg("A moderator adjudicated the game.")
                    )
            return await self._advance(await self._get(tournament_id), now)

    async def end(self, tournament_id: int, now: float) -> tuple[TournamentRecord, list[int]]:
        """Finish a tournament now: games still playing are ended without a
        result, and the standings stand as they are.  Returns the record and
        the games it ended.  An open tournament is cancelled instead."""
        async with self._lock(tournament_id):
            record = await self._get(tournament_id)
            if record.status == "open":
                cancelled = await self.store.set_status(
                    tournament_id, "cancelled", now, only_from=("open",)
                )
                return cancelled or record, []
            # Games that ended just before (their game-over pass still to
            # come) count: read them now, while the tournament still runs.
            if record.status == "running" and record.round:
                await self._read_results(record, await self.store.tables(record.id, record.round))
            finished = await self.store.set_status(
                tournament_id, "finished", now, only_from=("running",)
            )
            if finished is None:
                raise ServiceError(
                    Msg("{tournament} is already over.", tournament=heading_msg(record))
                )
            ended: list[int] = []
            for table in await self.store.tables(tournament_id, record.round):
                if table.places is None and table.game_id is not None:
                    game = await self.games.get(table.game_id)
                    if not game.is_over:
                        try:
                            await self.games.end(table.game_id)
                        except ServiceError:
                            continue  # it ended by itself meanwhile
                        ended.append(table.game_id)
            return finished, ended

    # -- running ---------------------------------------------------------------------

    async def start(self, tournament_id: int, now: float) -> RoundStarted:
        async with self._lock(tournament_id):
            record = await self._get(tournament_id)
            if record.status != "open":
                raise ServiceError(Msg("Tournament #{id} has already started.", id=tournament_id))
            players = await self.store.players(tournament_id)
            least = 2 if record.format != "pods" else max(3, get_engine(record.engine).min_players)
            if len(players) < least:
                raise ServiceError(
                    Msg(
                        "Tournament #{id} needs at least {least} players; {joined} joined.",
                        id=tournament_id,
                        least=least,
                        joined=Plural("{n} player", "{n} players", len(players)),
                    )
                )
            return await self._advance(record, now)

    async def game_over(self, game: LiveGame, now: float) -> RoundStarted | None:
        """A game ended: record its table's result, and move the tournament
        on when the round is complete."""
        found = await self.store.table_of_game(game.id)
        if found is None or game.outcome is None:
            return None
        tournament_id, table = found
        async with self._lock(tournament_id):
            record = await self._get(tournament_id)
            if record.status != "running":
                return None  # ended by a moderator: its unfinished games do not count
            places = _places(game, table)
            await self.store.record_result(tournament_id, table.round, table.number, places)
            record = await self._get(tournament_id)
            return await self._advance(record, now)

    async def resume_all(self, now: float) -> list[RoundStarted]:
        """At start-up: finish what a crash interrupted in every running
        tournament (games not yet started, results not yet read)."""
        done: list[RoundStarted] = []
        if await self.store.restore_deadlines():
            self.deadlines_changed()
        for guild_records in await self._running():
            async with self._lock(guild_records.id):
                done.append(await self._advance(guild_records, now))
        return done

    async def _running(self) -> list[TournamentRecord]:
        return await self.store.running()

    async def _advance(self, record: TournamentRecord, now: float) -> RoundStarted:
        """Bring a tournament up to date: read finished games, start the
        current round's games, or pair the next round, or finish."""
        started: list[MoveResult] = []
        new_round = False
        dropped_now: list[int] = []
        for _ in range(3):
            tables = await self.store.tables(record.id, record.round) if record.round else []
            await self._read_results(record, tables)
            tables = await self.store.tables(record.id, record.round) if record.round else []
            if tables and any(t.places is None for t in tables):
                started += await self._start_games(record, tables)
                return RoundStarted(record, tuple(started), new_round, False, tuple(dropped_now))
            upcoming = await self._pair(record)
            if upcoming is not None and record.auto_drop and record.round:
                # Before the next round is paired (not at the very end,
                # where dropping changes nothing): players whose last two
                # games were lost on time are out.
                newly = [
                    user
                    for user in await self._lost_twice_on_time(record)
                    if await self.store.drop(record.id, user, record.round)
                ]
                if newly:
                    dropped_now += newly
                    upcoming = await self._pair(record)
            if upcoming is None:
                finished = await self.store.set_status(record.id, "finished", now)
                return RoundStarted(
                    finished or await self._get(record.id),
                    tuple(started),
                    new_round,
                    True,
                    tuple(dropped_now),
                )
            seats = [list(t.seats) for t in upcoming.tables] + [[p] for p in upcoming.byes]
            if await self.store.add_round(record.id, record.round + 1, seats, now):
                new_round = True
                if record.round_time is not None:
                    self.deadlines_changed()
            record = await self._get(record.id)
            tables = await self.store.tables(record.id, record.round)
            dropped = {p.user_id for p in await self.store.players(record.id) if not p.active}
            for table in tables:
                if table.is_bye:
                    await self.store.record_result(record.id, table.round, table.number, [1])
                elif dropped & set(table.seats):
                    # Only a bracket seats a player who dropped (it is drawn
                    # once, so a drop never reshuffles it): they lose by
                    # forfeit, without a game.
                    places = [2 if u in dropped else 1 for u in table.seats]
                    await self.store.record_result(record.id, table.round, table.number, places)
        return RoundStarted(record, tuple(started), new_round, False, tuple(dropped_now))

    async def _lost_twice_on_time(self, record: TournamentRecord) -> list[int]:
        """Active players whose last two games (byes are not games), the
        newest of them in the current round, were both lost on time: the
        game's log has a :data:`LOST_ON_TIME` entry by their seat.  A game a
        moderator adjudicated counts as the verdict says, not as a time loss."""
        played: dict[int, list[tuple[TournamentTable, int]]] = {}
        for table in await self.store.tables(record.id):
            if table.game_id is None or table.is_bye or table.places is None:
                continue
            for seat, user in enumerate(table.seats):
                played.setdefault(user, []).append((table, seat))
        logs: dict[int, set[int]] = {}

        async def lost_on_time(table: TournamentTable, seat: int) -> bool:
            if table.adjudicated or table.game_id is None:
                return False
            if table.game_id not in logs:
                logs[table.game_id] = {
                    e.actor
                    for e in await self.games.store.log(table.game_id)
                    if e.action == LOST_ON_TIME
                }
            return seat in logs[table.game_id]

        out: list[int] = []
        for player in await self.store.players(record.id):
            last = played.get(player.user_id, [])[-TIME_LOSSES_TO_DROP:]
            if not (
                player.active
                and len(last) == TIME_LOSSES_TO_DROP
                and last[-1][0].round == record.round
            ):
                continue
            for table, seat in last:
                if not await lost_on_time(table, seat):
                    break
            else:
                out.append(player.user_id)
        return out

    # -- a round's deadline ----------------------------------------------------------

    async def settle_round(self, deadline: Timer, now: float) -> Settled | None:
        """A round's deadline fell due (``deadline.game_id`` is the
        tournament, ``version`` the round).  Claimed first (compare and
        clear), so it is acted on once; then every game of the round still
        running is settled by its timeout policy
        (:meth:`GameService.settle_at_deadline`) and the tournament moves on.
        None when another pass claimed it or it no longer applies."""
        async with self._lock(deadline.game_id):
            # Checked now, cleared once the games are settled: a process
            # that dies while settling leaves the deadline claimed, and
            # another settles the round when the lease runs out (issue 20);
            # settling again leaves the games already over as they are.
            if not await self.deadlines.holds(deadline):
                return None
            record = await self._get(deadline.game_id)
            settled: list[MoveResult] = []
            for table in await self.store.tables(record.id, record.round):
                if table.places is not None or table.game_id is None:
                    continue
                try:
                    game = await self.games.get(table.game_id)
                    if game.is_over or game.record.status != "active":
                        continue
                    result = await self.games.settle_at_deadline(
                        table.game_id, forfeit=game.table.timeout == "forfeit"
                    )
                except Exception:
                    # One broken game must not hold up the others: it waits
                    # for a moderator's /moderate tournament adjudicate.
                    log.exception(
                        "tournament %d: game %d not settled at the deadline",
                        record.id,
                        table.game_id,
                    )
                    continue
                if result is not None:
                    settled.append(result)
            if not await self.deadlines.claim(deadline):
                # Another process took the round over meanwhile (this one
                # outlived its lease): it moves the tournament on.
                return Settled(record, tuple(settled), None)
            moved = await self._advance(await self._get(record.id), now)
            return Settled(record, tuple(settled), moved)

    async def _read_results(self, record: TournamentRecord, tables: list[TournamentTable]) -> None:
        for table in tables:
            if table.places is not None or table.game_id is None:
                continue
            try:
                game = await self.games.get(table.game_id)
            except GameError:
                continue
            if game.is_over and game.outcome is not None:
                await self.store.record_result(
                    record.id, table.round, table.number, _places(game, table)
                )

    async def _start_games(
        self, record: TournamentRecord, tables: Iterable[TournamentTable]
    ) -> list[MoveResult]:
        players = {p.user_id: p for p in await self.store.players(record.id)}
        started: list[MoveResult] = []
        for table in tables:
            if table.is_bye or table.places is not None:
                continue
            game_id = table.game_id
            if game_id is None:
                first = players[table.seats[0]]
                game = await self.games.new_game(
                    record.engine,
                    creator=Player(first.user_id, first.display_name),
                    guild_id=record.guild_id,
                    channel_id=record.channel_id,
                    options=record.options,
                )
                for user in table.seats[1:]:
                    await self.games.join(game.id, Player(user, players[user].display_name))
                if not await self.store.link_game(record.id, table.round, table.number, game.id):
                    # Another pass linked this table first (in another
                    # process too, issue 20): this lobby is nobody's game.
                    self.games.forget(game.id)
                    await self.games.store.delete_game(game.id)
                    continue
                game_id = game.id
            game = await self.games.get(game_id)
            if game.record.status == "lobby":
                try:
                    result = await self.games.start(game_id, table.seats[0], moderator=True)
                except ServiceError:
                    # Another process started it a moment ago (issue 20),
                    # and delivers it.
                    continue
                started.append(result)
        return started

    async def _pair(self, record: TournamentRecord) -> pairing.Round | None:
        """The next round, or None when the tournament is over."""
        players = [
            standings.Player(p.user_id, p.rating)
            for p in await self.store.players(record.id)
            if p.active
        ]
        history = await self.results(record.id)
        number = record.round + 1
        if len(players) < 2:
            return None
        if record.format == "elimination":
            # The bracket is seeded once over everyone who entered: a player
            # who dropped keeps their place in it and forfeits their games.
            everyone = [
                standings.Player(p.user_id, p.rating) for p in await self.store.players(record.id)
            ]
            return pairing.pair_single_elimination(everyone, history)
        if record.format == "round_robin":
            # The circle is drawn once over everyone who entered, so a drop
            # never reshuffles later rounds: a dropped player's opponent
            # gets that round's bye instead.
            everyone = [
                standings.Player(p.user_id, p.rating) for p in await self.store.players(record.id)
            ]
            schedule = pairing.round_robin_schedule(everyone)
            if number > len(schedule):
                return None
            active = {p.id for p in players}
            planned = schedule[number - 1]
            tables = [t for t in planned.tables if all(u in active for u in t.seats)]
            byes = [u for u in planned.byes if u in active] + [
                u
                for t in planned.tables
                if not all(v in active for v in t.seats)
                for u in t.seats
                if u in active
            ]
            return pairing.Round(planned.number, tuple(tables), tuple(byes))
        if number > planned_rounds(record, len(await self.store.players(record.id))):
            return None
        if record.format == "pods":
            engine = get_engine(record.engine)
            return pairing.pair_pods(
                players,
                history,
                table_size=record.table_size,
                min_players=max(3, engine.min_players),
            )
        return pairing.pair_swiss(players, history)

    # -- reading ----------------------------------------------------------------------

    async def results(self, tournament_id: int) -> list[standings.Result]:
        return [
            standings.Result(t.round, t.seats, t.places)
            for t in await self.store.tables(tournament_id)
            if t.places is not None
        ]

    async def table_of_standings(self, tournament_id: int) -> tuple[standings.Standing, ...]:
        record = await self._get(tournament_id)
        players = [
            standings.Player(p.user_id, p.rating) for p in await self.store.players(record.id)
        ]
        scoring = standings.Scoring(table_size=record.table_size)
        results = await self.results(record.id)
        if record.format == "elimination":
            # A drawn game advances the better seed (as the bracket does), so
            # it scores as the seed's win: points are then rounds survived,
            # and the champion, the finalist and the semi-finalists come
            # first, in that order.
            seed = {player: rank for rank, player in enumerate(pairing.seeded(players))}
            results = [_seed_wins_draw(r, seed) for r in results]
        tiebreaks = standings.format_tiebreaks(record.format, record.table_size)
        return standings.standings(players, results, scoring, tiebreaks)

    async def _get(self, tournament_id: int) -> TournamentRecord:
        record = await self.store.get(tournament_id)
        if record is None:
            raise ServiceError(Msg("There is no tournament #{id}.", id=tournament_id))
        return record


def _seed_wins_draw(result: standings.Result, seed: dict[int, int]) -> standings.Result:
    if result.is_bye or len(set(result.places)) > 1:
        return result
    better = min(result.seats, key=lambda player: seed.get(player, len(seed)))
    return standings.Result(
        result.round, result.seats, tuple(1 if p == better else 2 for p in result.seats)
    )


def _places(game: LiveGame, table: TournamentTable) -> tuple[int, ...]:
    """Each seat's place from the game's outcome (1 best; ties share)."""
    assert game.outcome is not None
    place_of_seat: dict[int, int] = {}
    place = 1
    for group in game.outcome.ranking:
        for seat in group:
            place_of_seat[seat] = place
        place += len(group)
    return tuple(place_of_seat.get(seat, len(table.seats)) for seat in range(len(table.seats)))
