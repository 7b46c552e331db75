"""GameService: the only writer of game state.

Every change goes: per-game lock -> load (cache, or snapshot + log replay) ->
engine.apply -> chance resolved -> one storage transaction guarded by the
version the move was made against.  Only after the write succeeds does the
caller post anything, so nothing a player did is lost on restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot.choices import StaleChoice, follow, locate, split_words, trail
from bot.engines import get_engine
from bot.engines.core import (
    CHANCE,
    Engine,
    GameError,
    NotYourTurn,
    Outcome,
    Seat,
    SplitsMenus,
    Step,
    apply_step,
    owed_decisions,
    plural,
    progress_seat,
    resolve_chance,
    resolve_options,
    seat_tag,
)
from bot.live import (
    GameBroken,
    GameLock,
    LiveGame,
    MoveResult,
    PathResult,
    Player,
    Reminder,
    ServiceError,
    StaleBoard,
    TakebackRequest,
    TimeoutKind,
)
from bot.notifications import Notifications
from bot.outgoing import discord_time, safe_name
from bot.players import Level
from bot.server_settings import server_settings, table_defaults
from bot.takeback import (
    LogReplay,
    MissingState,
    in_effect,
    restored_clocks,
    reveals,
    takeback_event,
    targets_of,
)
from bot.tenure import LEFT, REPLACED, replaced_event
from bot.thinking import ThinkPool
from bot.timekeeping import (
    DAY,
    MAX_TIMEOUTS_IN_A_ROW,
    ReminderOption,
    TableOptions,
    Waits,
    clock_changes,
    clock_deadline,
    game_timers,
    next_reminder,
    split_options,
    vacation_allowance,
)
from bot.tournament.ratings import FinishedGame, Rating, rate
from storage.games import (
    GameChange,
    GameRecord,
    GameStatus,
    GameStore,
    LogEntry,
    NewEntry,
    NotSeated,
    SeatHandover,
    SeatRecord,
    SeatTaken,
    StaleAsk,
    StaleVersion,
    TakebackAsk,
    TakebackAskChange,
    UndoChange,
    UndoPoint,
    UnreadableRow,
    WrongStatus,
    automatic_player_id,
)
from storage.players import PlayerSettingsStore
from storage.ratings import RatingStore, StaleRating
from storage.timekeeping import SettingsStore, Timer, TimerPlan, TimerStore, Vacation

log = logging.getLogger(__name__)

TABLE_EVENT = "@"
"""Log entries whose action starts with this are the table's, not the
engine's (a seat passing to the automatic player, a timeout, a pause): they
carry a public narration and are skipped when the game is replayed."""
AUTO_MOVES_LIMIT = 10_000
"""A guard: automatic seats never play more moves than this in a row."""
FORFEIT_EVENT = "@forfeit"
"""The log entry (actor: the seat) written when a seat is forfeited because
its time ran out; a tournament reads it to drop players who keep losing on
time."""

_Done = TypeVar("_Done")


AUTO_DELAY = 4.0
"""Seconds an automatic seat waits before it acts, so a board is not
replaced faster than anyone can read it.  Constant, whatever the position
and whatever it decides, so its timing tells nobody anything (a private
decision included).  Kept in a ``clock`` timer of the seat, so it survives a
restart and fires once."""
SOLO_AUTO_DELAY = 0.3
"""``AUTO_DELAY`` at a table of one person and automatic seats (issue 30):
nobody else reads the boards between the person's decisions, which go out
as one board when the person must act again, so the automatic seats move
quickly.  Constant too, whatever the position or decision."""
THINK_PAD: Mapping[Level, float] = {"easy": 0.0, "medium": 0.5, "hard": 1.5}
"""Seconds a lobby's automatic player takes at least to choose, thinking
included (after ``AUTO_DELAY``): a search's time depends on the position,
and so on what the seat holds; padded to a constant, it tells nobody
anything.  Above a level's 95th percentile on the reference machine.  Only
in games that hide something (their engines deal what a seat cannot see:
``Determinizes``): where everything is on the board, how long a move took
tells nothing that is not public, and nothing is padded (issue 30)."""
THINK_LEASE = 120.0
"""How long a thinking seat's timer is moved on while it searches: a bot
stopped mid-thought moves after a restart once this has passed."""
RETRIES_AFTER_RACE = 1
"""A player's move that lost the race to another process's write of the
same game (issue 20: the version guard refused it, nothing was written) is
loaded again and tried once more against the new state: it applies if it
is still legal, and is refused as any move would be otherwise."""
OUT_OF_DATE = "That board is out of date: the game has moved on since. Use the newest board."
SERVER_SETTING_TTL = 30.0
"""Seconds a server's ``takeback`` setting is kept in memory: read on every
move a person makes where takebacks may apply, it is a read saved per move;
a change made in this process takes effect at once, one made in another
process within this long."""
HELD_CHANCE = (
    "Wait a few seconds: the dice, shells or cards that follow the last move are not drawn "
    "yet, so that its player may still take it back."
)
AUTOMATIC_PLAYER = "🤖 Bot"
"""How a lobby's automatic players are named: "🤖 Bot 1", short so every board draws it whole."""


def automatic_player_name(n: int) -> str:
    return f"{AUTOMATIC_PLAYER} {n}"


def check_automatic_players(engine: Engine[Any, Any, Any], bots: int) -> None:
    """Refuse a number of automatic players the game cannot seat beside the
    player opening the lobby, with a sentence."""
    most = engine.max_players - 1
    if bots < 0:
        raise ServiceError(
            f"`bots` is how many automatic players to seat: 0 to {most}, not {bots}."
        )
    if bots > most:
        players = (
            f"{engine.max_players} players"
            if engine.min_players == engine.max_players
            else f"{engine.min_players}-{engine.max_players} players"
        )
        raise ServiceError(
            f"{engine.title} is for {players}: at most {most} automatic "
            f"player{'s' * (most != 1)} beside you, not {bots}."
        )


def menu_words_of(
    engine: Engine[Any, Any, Any], state: Any, seat: Seat
) -> Callable[[str], tuple[str, ...]]:
    """How a game's action texts split into menu levels (pick a die, then
    its move), for any state."""
    if isinstance(engine, SplitsMenus):
        return lambda text: engine.menu_words(state, seat, text)
    return split_words


class _LostRace(StaleBoard):
    """A move's write lost to another writer of the same game: nothing of
    it was stored, so it may be tried again (``RETRIES_AFTER_RACE``)."""


def secrets_of(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> Any:
    """The part of a seat's view that only it sees (the contract's ``me``)."""
    return getattr(engine.view(state, seat), "me", None)


class GameService:
    def __init__(
        self,
        store: GameStore,
        *,
        draw: Callable[[], float],
        clock: Callable[[], float] = time.time,
        snapshot_every: int = 25,
        auto_delay: float = AUTO_DELAY,
        thinker: ThinkPool | None = None,
        think_pad: Mapping[Level, float] | None = None,
        owner: str | None = None,
        shared: bool | None = None,
        throw_grace: float = 0.0,
    ) -> None:
        self.store = store
        self.throw_grace = throw_grace
        """Seconds the chance that follows a person's move waits, so that the
        move may still be taken back before anyone sees it
        (``bot.takeback.THROW_GRACE`` in the bot; 0, the tests' and the
        benchmarks' default: chance is drawn at once, as before issue 31)."""
        self._takeback_servers: dict[int, tuple[float, bool]] = {}
        """Per server, its ``takeback`` setting and when it was read
        (:data:`SERVER_SETTING_TTL`)."""
        self.thinker = thinker or ThinkPool(0)
        """Where automatic players search (a worker process in the bot)."""
        self.think_pad = dict(THINK_PAD if think_pad is None else think_pad)
        """Seconds each level's move takes at least (see ``THINK_PAD``)."""
        self.auto_delay = auto_delay
        """How long an automatic seat waits before it acts (see
        ``AUTO_DELAY``); 0 plays automatic seats at once, inside the change
        that made them due (the benchmarks and simulations)."""
        dialect = getattr(store.db, "dialect", None)  # None: a store without a database (tests)
        self.shared = dialect == "postgresql" if shared is None else shared
        """Whether other processes may write this database too (issue 20):
        then a cached game is checked against storage before it is used
        (:meth:`_current`, two reads).  Only PostgreSQL is shared; a SQLite
        file is one process's (``bot.config`` refuses shards split over
        processes on it), so there the cache is the truth and every move
        saves those reads (a third of the throughput of a busy server)."""
        self.timers = TimerStore(store.db, owner)
        """The games' timers, claimed in this process's name (``owner``,
        :mod:`bot.claims`; one of its own when not given)."""
        self._taken: dict[int, Timer] = {}
        """Per game, the timer whose handler is acting on it now (under the
        game's lock): still stored, so that a process that dies meanwhile
        leaves it to another (issue 20), but no longer counted as the game's
        when its timers are set again."""
        self.settings = SettingsStore(store.db)
        self.player_settings = PlayerSettingsStore(store.db)
        self.ratings = RatingStore(store.db)
        self._draw = draw
        self._clock = clock
        self._snapshot_every = snapshot_every
        self._locks: dict[int, GameLock] = {}
        self._cache: dict[int, LiveGame] = {}
        self.timers_changed: Callable[[], None] = lambda: None
        """Called after a game's timers change (the scheduler re-arms)."""
        self.game_over_hooks: list[Callable[[LiveGame], None]] = []
        """Called once a game ends (a tournament reads its result); a hook
        must not block: it schedules its own work."""

    # -- loading ---------------------------------------------------------

    def lock(self, game_id: int) -> GameLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock()
        return lock

    async def get(self, game_id: int) -> LiveGame:
        """The live game as storage holds it now: the cached copy if no
        other process changed it, else rebuilt from storage."""
        cached = self._cache.get(game_id)
        if cached is not None and (not self.shared or await self._current(cached)):
            return cached
        async with self.lock(game_id):
            return await self._load(game_id)

    async def _current(self, game: LiveGame) -> bool:
        """Whether the cached ``game`` is still what storage holds.

        Several processes may share the database (issue 20), and any of them
        may change any game (a DM's menu arrives on shard 0, whatever the
        game's guild): another process's write leaves this cache behind.  One
        read of the game's row and seats together tells (their version,
        status, pause, thread, seats and clocks; not ``updated_at``, which
        moves with every clock and is not kept in the cache).  A cached game
        with the same version but another row or seats (a clock, a seat
        handed over) is brought up to date in place; another version is
        reloaded.

        The read is one statement, so row and seats agree, and it is copied
        in only if no writer of this process changed the game while it was
        read (:meth:`get` asks without the game's lock): a read older than
        that write must not turn the cached game's version back under its
        state (issue 29)."""
        record_then, seats_then = game.record, game.seats
        read = await self.store.game_with_seats(game.id)
        if game.record is not record_then or game.seats is not seats_then:
            # Written here meanwhile, under the lock: newer than this read.
            return True
        if read is None:
            self._cache.pop(game.id, None)
            return False
        record, seats = read
        if record.version != game.version or record.status != game.record.status:
            return False  # a lobby started with no chance to resolve keeps version 0
        if replace(record, updated_at=0.0) != replace(game.record, updated_at=0.0):
            game.record = record
            if record.outcome is not None:
                game.outcome = Outcome.from_json(record.outcome)
        if seats != game.seats:
            game.seats = seats
        return True

    async def _load(self, game_id: int) -> LiveGame:
        cached = self._cache.get(game_id)
        if cached is not None:
            if not self.shared or await self._current(cached):
                return cached
            # Another process moved the game on: rebuild it from storage.
            self._cache.pop(game_id, None)
        read = await self.store.game_with_seats(game_id)
        if read is None:
            raise ServiceError(f"There is no game #{game_id}.")
        record, seats = read
        try:
            engine = get_engine(record.engine)
        except GameError as exc:
            raise GameBroken(f"Game #{game_id} uses a game this bot no longer has: {exc}") from None
        game = LiveGame(record=record, seats=seats, engine=engine, state=None)
        if record.status != "lobby":
            # Replayed up to the version read with the seats, not to
            # whatever the log holds by the time it is read: one consistent
            # game, whose version is its state's (issue 29).
            game.state = await self._rebuild(game)
            if record.outcome is not None:
                game.outcome = Outcome.from_json(record.outcome)
            game.remember(record.version, game.state)
        if (
            record.status == "active"
            and engine.to_move(game.state) == frozenset({CHANCE})
            and not await self._throw_waits(game)
        ):
            # A crash between a move and its chance (or an older version that
            # stored them apart) would leave a game nobody can move: settle
            # and store the chance before anyone acts.  A throw held for a
            # takeback waits for its timer (issue 31).
            state, steps = resolve_chance(engine, game.state, self._draw)
            await self._write(game, state=state, steps=steps)
            log.info("game %d: resolved %d pending chance action(s) on load", game_id, len(steps))
        self._cache[game_id] = game
        return game

    async def _rebuild(self, game: LiveGame) -> Any:
        """Snapshot plus the log after it; replay never rolls again."""
        engine = game.engine
        record = game.record
        if record.engine_revision != engine.revision:
            log.warning(
                "game %d was stored by %s revision %d; replaying with revision %d",
                record.id,
                engine.name,
                record.engine_revision,
                engine.revision,
            )
        try:
            return await self._replay(game, up_to=record.version)
        except (GameError, KeyError, TypeError, ValueError, UnreadableRow) as exc:
            # The message names the game, never the failing action (it may be secret);
            # UnreadableRow: a snapshot or log row that is not UTF-8 (storage/games.py).
            log.error("game %d cannot be rebuilt: %s", record.id, type(exc).__name__)
            raise GameBroken(
                f"Game #{record.id} could not be restored from the database. "
                "A moderator can end it with /moderate game end."
            ) from exc

    async def _replay(self, game: LiveGame, up_to: int | None) -> Any:
        """The newest snapshot at or before ``up_to``, plus the log after it.
        Table events pass (the engine never sees them), and a takeback
        returns to the state at its version (``bot.takeback``); every
        takeback stores a snapshot at its own version, so that version is
        normally after the snapshot this starts from."""
        engine = game.engine
        snapshot = await self.store.latest_snapshot(game.id, at_most=up_to)
        if snapshot is not None:
            seq, state_json = snapshot
            state = engine.from_json(state_json)
        else:
            seq, state = 0, engine.setup(len(game.seats), game.record.options)
        entries = await self.store.log(game.id, after_seq=seq, up_to=up_to)
        replay = LogReplay(engine, seq, state, targets_of(e.action for e in entries))
        for entry in entries:
            try:
                replay.follow(entry.seq, entry.actor, entry.action)
            except MissingState as missing:
                # Back before this snapshot (one that was never stored):
                # that version is rebuilt on its own.
                replay.jump(entry.seq, await self._replay(game, up_to=missing.version))
        return replay.state

    def forget(self, game_id: int) -> None:
        """Drop the cached copy (tests use it to prove storage alone suffices)."""
        self._cache.pop(game_id, None)

    # -- lobby -----------------------------------------------------------

    async def new_game(
        self,
        engine_name: str,
        *,
        creator: Player,
        guild_id: int | None,
        channel_id: int,
        options: Mapping[str, Any] | None = None,
        automatic_players: int = 0,
    ) -> LiveGame:
        """A new lobby, its creator seated, and ``automatic_players`` seats
        for the automatic players (``/game new bots:N``)."""
        engine = get_engine(engine_name)
        engine_given, table_given = split_options(options or {})
        bots = automatic_players
        if bots:
            check_automatic_players(engine, bots)
            # Practice against the automatic players is not rated: their
            # strength is no player's, and a solo game has nobody to rate.
            if str(table_given.get("rated", "no")).strip().lower() in ("yes", "true", "on"):
                raise ServiceError(
                    "A game with automatic players is not rated; leave out rated=yes."
                )
            table_given = {**table_given, "rated": "no"}
        resolved = resolve_options(engine, engine_given)
        table = TableOptions.parse(table_given, defaults=await self.server_defaults(guild_id))
        record = await self.store.create_game(
            engine=engine.name,
            engine_revision=engine.revision,
            options=resolved,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            creator_id=creator.user_id,
            now=self._clock(),
            table_options=table.to_json(),
        )
        await self.store.add_seat(record.id, creator.user_id, creator.display_name, self._clock())
        for n in range(1, bots + 1):
            await self.store.add_seat(
                record.id,
                automatic_player_id(n),
                automatic_player_name(n),
                self._clock(),
                controller="auto",
            )
        return await self.get(record.id)

    async def join(self, game_id: int, player: Player) -> LiveGame:
        async with self.lock(game_id):
            game = await self._load(game_id)
            self._require_lobby(game)
            if game.seat_of(player.user_id) is not None:
                raise ServiceError(f"You are already in game #{game_id}.")
            if len(game.seats) >= game.engine.max_players:
                raise ServiceError(f"Game #{game_id} is full ({game.engine.max_players} players).")
            await self.store.add_seat(game_id, player.user_id, player.display_name, self._clock())
            game.seats = await self.store.seats(game_id)
            return game

    async def leave(self, game_id: int, user_id: int) -> LiveGame | None:
        """Leave a lobby; the last player leaving closes it (returns ``None``)."""
        async with self.lock(game_id):
            game = await self._load(game_id)
            if game.record.status == "active":
                raise ServiceError(
                    f"Game #{game_id} has already started; use /game resign to leave it."
                )
            self._require_lobby(game)
            if game.seat_of(user_id) is None:
                raise ServiceError(f"You are not in game #{game_id}.")
            await self.store.remove_seat(game_id, user_id)
            game.seats = await self.store.seats(game_id)
            if all(s.automatic_player for s in game.seats):
                # Nobody is left to play with the automatic players.
                game.record = await self.store.set_status(game_id, "abandoned", self._clock())
                self._cache.pop(game_id, None)
                return None
            return game

    async def start(self, game_id: int, user_id: int, *, moderator: bool) -> MoveResult:
        async with self.lock(game_id):
            game = await self._load(game_id)
            self._require_lobby(game)
            if user_id != game.record.creator_id and not moderator:
                raise ServiceError(
                    "Only the player who opened the game or a moderator can start it."
                )
            engine = game.engine
            if len(game.seats) < engine.min_players:
                raise ServiceError(
                    f"{engine.title} needs at least {engine.min_players} players; "
                    f"{len(game.seats)} joined so far."
                )
            state = engine.setup(len(game.seats), game.record.options)
            state, steps = resolve_chance(engine, state, self._draw)
            # One transaction: lobby -> active together with the opening
            # chance (shuffles, first rolls), the clocks and the timers, so
            # a crash never leaves an active game that nobody can move.
            try:
                await self._write(game, state=state, steps=steps, status="active")
            except _LostRace:
                raise ServiceError(
                    f"Game #{game_id} changed while it was being started (another "
                    "start?); look at the game again."
                ) from None
            await self._after_change(game, moved=None)
            return MoveResult(
                game=game,
                before=None,
                steps=tuple(steps),
                actor=None,
                version=game.version,
            )

    def _require_unfinished(self, game: LiveGame) -> None:
        """A game a moderator may still end: started and not over."""
        if game.is_over:
            raise ServiceError(f"Game #{game.id} is already over.")
        if game.record.status == "lobby":
            raise ServiceError(f"Game #{game.id} has not started.")

    def _require_lobby(self, game: LiveGame) -> None:
        if game.record.status != "lobby":
            raise ServiceError(f"Game #{game.id} has already started.")

    # -- play ------------------------------------------------------------

    def seat_for(self, game: LiveGame, user_id: int) -> Seat:
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError(f"You are not playing in game #{game.id}.")
        return seat

    def legal_texts(self, game: LiveGame, seat: Seat) -> list[str]:
        if game.state is None or game.is_over or seat not in game.engine.to_move(game.state):
            return []
        engine, state = game.engine, game.state
        return [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]

    def menu_words(self, game: LiveGame, seat: Seat) -> Callable[[str], tuple[str, ...]]:
        """How this game's action texts split into menu levels."""
        return menu_words_of(game.engine, game.state, seat)

    async def play(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
    ) -> MoveResult:
        """Apply one player's action given in its text form."""
        async with self.lock(game_id):
            for attempt in range(RETRIES_AFTER_RACE + 1):
                game = await self._load(game_id)
                seat = self._check_can_act(game, user_id, expected_version)
                engine, before = game.engine, game.state
                action = engine.parse(before, seat, text)
                try:
                    return await self._commit_move(game, seat, action)
                except _LostRace:
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
            raise AssertionError("unreachable")

    async def play_path(
        self,
        game_id: int,
        user_id: int,
        path: tuple[int, ...],
        *,
        expected_version: int,
        rebase: bool = False,
    ) -> PathResult:
        """Follow a menu path from a button or select.

        Returns the move result when the path ends on an action, else the
        next menu's options (with the path and version to draw it at).

        With ``rebase`` (menus in DMs and ephemerals), a path drawn at an
        older version is not refused for its version: it is read back as the
        options it showed and looked up among the seat's current legal
        actions, so another player's move does not kill a menu whose choice
        is still legal.  Board buttons stay strict.
        """
        async with self.lock(game_id):
            drawn = path
            for attempt in range(RETRIES_AFTER_RACE + 1):
                game = await self._load(game_id)
                seat = self._check_can_act(game, user_id, None if rebase else expected_version)
                path = drawn
                if expected_version != game.version:
                    path = await self._rebase(game, seat, expected_version, path)
                texts = self.legal_texts(game, seat)
                try:
                    chosen, options, depth = follow(texts, path, self.menu_words(game, seat))
                except StaleChoice as exc:
                    raise StaleBoard(str(exc)) from None
                if chosen is None:
                    return PathResult(None, options, path, game.version, depth)
                action = game.engine.parse(game.state, seat, chosen)
                try:
                    result = await self._commit_move(game, seat, action)
                except _LostRace:
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
                    continue
                return PathResult(result, [], path, result.version)
            raise AssertionError("unreachable")

    async def _rebase(
        self, game: LiveGame, seat: Seat, version: int, path: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The current path that picks what ``path`` picked at ``version``."""
        stale = StaleBoard("That choice is no longer on offer.")
        if not path:
            return path
        if version > game.version:
            raise stale
        engine = game.engine
        then = await self._state_at(game, version)
        if then is None or seat not in engine.to_move(then):
            raise stale
        then_texts = [engine.describe(then, seat, a) for a in engine.legal_actions(then, seat)]
        now_texts = self.legal_texts(game, seat)
        try:
            picked = trail(then_texts, path, menu_words_of(engine, then, seat))
            rebased = locate(now_texts, picked, self.menu_words(game, seat))
        except StaleChoice:
            raise stale from None
        last = picked[-1]
        if last.leaf:
            # Same text, same meaning: a die re-rolled under the same number
            # reads differently, and must not be played blind.
            label_then = engine.label(then, seat, engine.parse(then, seat, last.text))
            label_now = engine.label(game.state, seat, engine.parse(game.state, seat, last.text))
            if label_then != label_now:
                raise stale
        return rebased

    async def _state_at(self, game: LiveGame, version: int) -> Any | None:
        """The game's state at an earlier version (recent ones are kept)."""
        state = game.recent.get(version)
        if state is not None:
            return state
        try:
            state = await self._replay(game, up_to=version)
        except (GameError, KeyError, TypeError, ValueError):
            return None
        return state

    def _check_can_act(self, game: LiveGame, user_id: int, expected_version: int | None) -> Seat:
        if game.record.status == "lobby":
            raise ServiceError(f"Game #{game.id} has not started yet.")
        if game.is_over:
            raise ServiceError(f"Game #{game.id} is over.")
        seat = self.seat_for(game, user_id)
        if game.is_auto(seat):
            raise ServiceError(f"You left game #{game.id}; the automatic player has your seat now.")
        if expected_version is not None and expected_version != game.version:
            raise StaleBoard(OUT_OF_DATE)
        if seat not in game.engine.to_move(game.state):
            if game.engine.to_move(game.state) == frozenset({CHANCE}):
                raise NotYourTurn(HELD_CHANCE)
            waiting = game.engine.waiting_on(game.state)
            if waiting:
                names = ", ".join(safe_name(game.names[s]) for s in sorted(waiting))
                raise NotYourTurn(f"It is not your turn: waiting for {names}.")
            raise NotYourTurn("It is not your turn.")
        return seat

    async def _commit_move(
        self,
        game: LiveGame,
        seat: Seat,
        action: Any,
        *,
        by_human: bool = True,
        event: NewEntry | None = None,
        seats: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> MoveResult:
        """Apply and write one move (and the chance it brings); ``event``, a
        table event that caused it (a timeout), is written before it in the
        same write, and ``seats`` (a timeout's streak) with it, so a crash
        never leaves one without the other.

        A person's move in a game that takes moves back (issue 31) is
        written with its undo point (the clocks it would restore), and the
        chance that follows it waits ``throw_grace`` (a timer in the same
        write) instead of being drawn at once, so that the move may still be
        taken back before anyone sees the dice: unless the move showed its
        player something hidden, which no takeback undoes anyway, or the
        person plays alone with automatic seats, whose play flows."""
        engine, before, version = game.engine, game.state, game.version
        state, step = apply_step(engine, before, seat, action)
        person = by_human and event is None and not game.is_auto(seat)
        allowed = person and await self.takebacks_allowed(game)
        chance_follows = engine.to_move(state) == frozenset({CHANCE})
        # Not at a person's table with automatic seats: their boards flow
        # (issue 30: a wait of 3 s at most between the person's decisions),
        # which a held throw after each of their turns would undo.
        holdable = self.throw_grace > 0 and not game.solo
        undoable = (
            allowed
            and bool(step.narration)
            and engine.outcome(state) is None
            and (holdable or not chance_follows)
            and not reveals(engine, before, seat, step.text, state, _reveal_seed(game.id, version))
        )
        hold = undoable and chance_follows
        chance_steps: list[Step] = []
        if not hold:
            state, chance_steps = resolve_chance(engine, state, self._draw)
        steps = [step, *chance_steps]
        changes = dict(seats or {})
        if by_human and game.seats[seat].timeouts:
            changes[seat] = {**changes.get(seat, {}), "timeouts": 0}
        point = None
        if allowed:
            clocks = (
                {s.seat: (s.clock_left, s.clock_since) for s in game.seats}
                if game.table.clock is not None
                else {}
            )
            point = UndoPoint(version, seat, game.user_of(seat), clocks)
        await self._write(
            game,
            state=state,
            steps=steps,
            events=() if event is None else (event,),
            seats=changes,
            moved=seat,
            undo=None if point is None else UndoChange(add=point),
        )
        written = game.version
        result = MoveResult(
            game=game,
            before=before,
            steps=tuple(steps),
            actor=seat,
            version=written,
            takeback=version if undoable else None,
            takeback_until=self._clock() + self.throw_grace if hold else None,
        )
        await self._after_change(game, moved=seat)
        if game.version != written:
            # Automatic seats moved at once after it: whether it may still be
            # taken back, and with whose agreement, is for /game takeback.
            result = replace(result, takeback=None, takeback_until=None)
        return result

    async def _write(
        self,
        game: LiveGame,
        *,
        state: Any = None,
        steps: Sequence[Step] = (),
        events: Sequence[NewEntry] = (),
        status: GameStatus | None = None,
        outcome: Outcome | None = None,
        seats: Mapping[int, Mapping[str, Any]] | None = None,
        handover: SeatHandover | None = None,
        pause: tuple[float | None] | None = None,
        moved: Seat | None = None,
        rated: bool = True,
        undo: UndoChange | None = None,
        ask: TakebackAskChange | None = None,
        snapshot: bool = False,
    ) -> None:
        """Write one action's whole change to ``game`` (under its lock) in
        one transaction guarded by the version it was computed against
        (issue 29): the table's ``events`` and the ``steps`` (the new
        ``state``, when it changes), the status and ``outcome`` (the end
        the table made; else the engine's, ranked with the seats that
        left), how ``seats`` are played, a ``handover``, a ``pause``, and
        what follows from them: the clocks (``moved`` just moved) and the
        game's timers; and for takebacks (issue 31) the ``undo`` points, a
        request (``ask``), and a ``snapshot`` at the new version whatever
        the version (a takeback's, so loading never goes back before its
        newest snapshot).  An action that loses the race to another writer
        leaves nothing behind: :class:`_LostRace` (nothing was written; the
        cached game is dropped), which the caller may try once more on the
        game as it is now.  A write that ends the game rates it (with
        ``rated``) and tells the game-over hooks."""
        engine, now = game.engine, self._clock()
        new_state = game.state if state is None else state
        entries = [
            *events,
            *(
                NewEntry(
                    actor=s.seat, action=s.text, narration=s.narration, private_to=s.private_to
                )
                for s in steps
            ),
        ]
        version = game.version + len(entries)
        after = _after_seats(game.seats, seats or {}, handover)
        if outcome is None and new_state is not None and status != "lobby":
            outcome = ranked_with_departures(engine.outcome(new_state), after)
            if outcome is not None:
                status = "finished"
        # The game as this change leaves it, for its clocks and timers.
        draft = LiveGame(
            record=replace(
                game.record,
                version=version,
                status=status or game.record.status,
                paused_at=game.record.paused_at if pause is None else pause[0],
            ),
            seats=after,
            engine=engine,
            state=new_state,
            outcome=outcome,
        )
        clocks, timers = await self._time_plan(draft, moved=moved, now=now)
        every = self._snapshot_every
        crosses = game.version // every != version // every
        chance_at = [
            game.version + n
            for n, entry in enumerate(entries, start=1)
            if entry.actor == CHANCE and not entry.action.startswith(TABLE_EVENT)
        ]
        if chance_at:
            # No takeback crosses chance: the moves before it are for good.
            undo = replace(undo or UndoChange(), forget_before=chance_at[-1])
        change = GameChange(
            entries=entries,
            snapshot=(
                engine.to_json(new_state)
                if new_state is not None
                and ((steps and (crosses or outcome is not None)) or snapshot)
                else None
            ),
            status=status,
            outcome=None if outcome is None else outcome.to_json(),
            seats=_merged(seats or {}, clocks),
            handover=handover,
            pause=pause,
            timers=timers,
            undo=undo,
            ask=ask,
        )
        try:
            written = await self.store.commit(
                game.id, expected_version=game.version, change=change, now=now
            )
        except (StaleVersion, WrongStatus, StaleAsk) as exc:
            # Another process wrote between this one's look at storage and
            # its write (issue 20), or ended the game meanwhile: nothing was
            # written; the next load rebuilds the game from storage.
            self._cache.pop(game.id, None)
            raise _LostRace(OUT_OF_DATE) from exc
        was_over = game.is_over
        game.record, game.seats, game.state = written.record, written.seats, new_state
        if outcome is not None:
            game.outcome = outcome
        if entries:
            game.remember(game.version, new_state)
        if written.timers_changed:
            self.timers_changed()
        if game.is_over and not was_over:
            if rated:
                # A result (the engine's, a resignation, a forfeit, a
                # verdict); a moderator's plain end is not one.
                await self._rate(game)
            self._game_over(game)

    async def _retrying(
        self, game_id: int, act: Callable[[LiveGame], Awaitable[_Done]]
    ) -> _Done:
        """Under the game's lock: load the game and ``act`` on it.  An act
        that lost the race to another process's write (:class:`_LostRace`:
        nothing of it was stored) is tried once more on the game as it is
        now, where it applies, or is refused as it would be anyway (not your
        turn, the game is over); a second loss is "out of date"."""
        async with self.lock(game_id):
            for attempt in range(RETRIES_AFTER_RACE + 1):
                game = await self._load(game_id)
                try:
                    return await act(game)
                except _LostRace:
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
            raise AssertionError("unreachable")

    # -- taking a move back (issue 31) ----------------------------------------------

    async def takebacks_allowed(self, game: LiveGame) -> bool:
        """Whether the game takes moves back: its ``takeback`` table option
        (a lobby's ``takeback=no``, a tournament's default) and its server's
        setting, which turns them off everywhere at once."""
        if not game.table.takeback:
            return False
        guild = game.record.guild_id
        if guild is None:
            return True
        now = time.monotonic()
        known = self._takeback_servers.get(guild)
        if known is None or now - known[0] > SERVER_SETTING_TTL:
            allowed = (await server_settings(self.settings, guild)).takeback
            known = self._takeback_servers[guild] = (now, allowed)
        return known[1]

    def settings_changed(self, guild_id: int | None) -> None:
        """A server's settings changed here: read them afresh."""
        if guild_id is not None:
            self._takeback_servers.pop(guild_id, None)

    def holds_chance(self, game: LiveGame) -> bool:
        """Chance is to move and nobody else: a throw held for a takeback
        (or, left by a crash, one :meth:`_load` draws at once)."""
        return (
            game.state is not None
            and not game.is_over
            and game.engine.to_move(game.state) == frozenset({CHANCE})
        )

    async def _throw_waits(self, game: LiveGame) -> bool:
        """Whether the chance the game is waiting on is held for a takeback:
        a timer of this version will make it (or the game is paused, and
        its timer is set again when it resumes)."""
        if game.paused:
            return True
        return any(_throws(t, game.version) for t in await self.timers.of_game(game.id))

    async def _throw(self, game: LiveGame, *, settle: bool = True) -> MoveResult:
        """Make the chance a game holds for a takeback (under its lock): its
        own write, then the automatic seats due to act."""
        before = game.state
        state, steps = resolve_chance(game.engine, before, self._draw)
        await self._write(game, state=state, steps=steps)
        result = MoveResult(
            game=game, before=before, steps=tuple(steps), actor=None, version=game.version
        )
        if settle:
            await self._after_change(game, moved=None)
        return result

    async def take_back(
        self, game_id: int, user_id: int, *, target: int | None = None
    ) -> MoveResult | TakebackRequest:
        """``user_id`` takes back their last move (``/game takeback``; the
        **Take back** button passes the version the move was made at, as
        ``target``).  While nothing happened since (nobody else acted, no
        chance was drawn) it is taken back at once, in one write: the
        ``@takeback`` entry, the state of ``target`` and a snapshot of it,
        the clocks restored, the timers.  After others acted it needs every
        other person's agreement: the request is stored and returned (the
        table asks them).  Never across chance, nor across a move that
        showed someone something hidden."""

        async def act(game: LiveGame) -> MoveResult | TakebackRequest:
            seat = self._taking_back_seat(game, user_id)
            plan = await self._takeback_plan(game, seat, user_id)
            if target is not None and plan.target != target:
                raise ServiceError(
                    "That is no longer your last move, so it stays. /game takeback takes back "
                    "your last one."
                )
            if not plan.asked:
                return await self._take_back(game, plan, ask=None)
            stored = await self.store.takeback_ask(game.id)
            current = stored if stored is not None and stored.version == game.version else None
            if current is not None and current.seat != seat:
                raise ServiceError(
                    f"{safe_name(game.names[current.seat])} asked to take back a move first: "
                    "that request holds until it is answered or someone moves."
                )
            if current is not None and current.target == plan.target:
                return plan.request(game, current.agreed, new=False)
            ask = TakebackAsk(seat, plan.target, game.version, frozenset(), self._clock())
            await self._write(game, ask=TakebackAskChange(expected=stored, new=ask))
            return plan.request(game, frozenset(), new=True)

        return await self._retrying(game_id, act)

    async def answer_takeback(
        self, game_id: int, user_id: int, version: int, *, agree: bool
    ) -> MoveResult | TakebackRequest:
        """Another player agrees to a takeback request, or declines it.  The
        last agreement takes the move back, in the same write as the
        request's end; a refusal ends the request.  A request the game has
        moved on from (any action since it was made) is out of date."""

        async def act(game: LiveGame) -> MoveResult | TakebackRequest:
            stored = await self.store.takeback_ask(game.id)
            if game.is_over:
                raise ServiceError(f"Game #{game.id} is over: its moves stand.")
            if stored is None or stored.version != game.version or version != stored.version:
                raise StaleBoard(
                    "This request is out of date: the game has moved on since it was made, "
                    "so nothing was taken back."
                )
            seat = game.seat_of(user_id)
            if seat == stored.seat:
                raise ServiceError("You asked for this takeback: the other players answer it.")
            asker = game.holder(stored.seat)
            if asker is None:
                raise StaleBoard("This request is out of date: its player has left the seat.")
            plan = await self._takeback_plan(game, stored.seat, asker)
            if seat is None or seat not in plan.asked or plan.target != stored.target:
                raise ServiceError(
                    f"Only the other players of game #{game.id} answer this request."
                )
            if not agree:
                await self._write(game, ask=TakebackAskChange(expected=stored, new=None))
                return replace(plan.request(game, stored.agreed, new=False), declined_by=seat)
            agreed = stored.agreed | {seat}
            if plan.asked <= agreed:
                return await self._take_back(
                    game, plan, ask=TakebackAskChange(expected=stored, new=None)
                )
            await self._write(
                game, ask=TakebackAskChange(expected=stored, new=replace(stored, agreed=agreed))
            )
            return plan.request(game, agreed, new=False)

        return await self._retrying(game_id, act)

    def _taking_back_seat(self, game: LiveGame, user_id: int) -> Seat:
        """The seat whose move ``user_id`` may ask to take back, or why not."""
        if game.record.status == "lobby":
            raise ServiceError(f"Game #{game.id} has not started yet.")
        if game.is_over:
            raise ServiceError(f"Game #{game.id} is over: its moves stand.")
        seat = self.seat_for(game, user_id)
        if game.is_auto(seat):
            raise ServiceError(f"You left game #{game.id}; the automatic player has your seat now.")
        return seat

    async def _takeback_plan(self, game: LiveGame, seat: Seat, user_id: int) -> _TakebackPlan:
        """What taking back ``seat``'s last move would do, or a
        :class:`ServiceError` saying exactly why it may not be taken back."""
        if game.paused:
            raise ServiceError(f"Game #{game.id} is paused: nothing is taken back meanwhile.")
        if not game.table.takeback:
            raise ServiceError(
                f"Game #{game.id} takes no move back (its table says `takeback=no`)."
            )
        if not await self.takebacks_allowed(game):
            raise ServiceError(
                "Takebacks are turned off on this server (`/moderate settings takeback`)."
            )
        engine = game.engine
        log_entries = await self.store.log(game.id, up_to=game.version)
        standing = in_effect(log_entries)
        mine = [
            i
            for i, e in enumerate(standing)
            if e.actor == seat and not e.action.startswith(TABLE_EVENT)
        ]
        if not mine:
            raise ServiceError(f"You have no move in game #{game.id} to take back.")
        at = mine[-1]
        move, since = standing[at], standing[at + 1 :]
        drawn = next(
            (e for e in since if e.actor == CHANCE and not e.action.startswith(TABLE_EVENT)), None
        )
        if drawn is not None:
            what = f" ({drawn.narration})" if drawn.narration else ""
            raise ServiceError(
                f"Your last move stands: chance followed it{what}, and a takeback never undoes "
                "a throw, a draw or a reveal."
            )
        if not move.narration:
            raise ServiceError(
                "Your last move was a decision the table was not told about: taking it back "
                "would tell everyone, so it stands."
            )
        target = move.seq - 1
        points = await self.store.undo_points(game.id)
        point = next((p for p in points if p.version == target), None)
        if point is None or point.seat != seat or point.user_id != user_id:
            raise ServiceError(_not_yours(standing[:at], move, point, user_id))
        # Another player's decision the table was not told about (a private
        # pass) is undone with the rest, but neither asks for its player's
        # agreement nor is looked at: either would tell the asker that
        # someone had been asked something in private.
        moves = [
            move,
            *(
                e
                for e in since
                if e.actor >= 0 and not e.action.startswith(TABLE_EVENT) and e.narration
            ),
        ]
        for made in moves:
            before = await self._state_at(game, made.seq - 1)
            after = await self._state_at(game, made.seq)
            if before is None or after is None:
                raise GameBroken(f"Game #{game.id} could not be rebuilt to take a move back.")
            if reveals(
                engine, before, made.actor, made.action, after, _reveal_seed(game.id, made.seq - 1)
            ):
                whose = "Your last move" if made is move else "A move made since yours"
                raise ServiceError(
                    f"{whose} showed hidden information ({made.narration or 'a reveal'}), and a "
                    "takeback never undoes a reveal: your move stands."
                )
        others = [e for e in moves[1:] if e.actor != seat]
        humans = frozenset(
            s.seat
            for s in game.seats
            if s.seat != seat and not game.is_auto(s.seat) and game.holder(s.seat) is not None
        )
        return _TakebackPlan(
            seat=seat,
            target=target,
            move=move,
            point=point,
            undoes=sum(1 for e in others if e.narration),
            asked=humans if others else frozenset(),
        )

    async def _take_back(
        self, game: LiveGame, plan: _TakebackPlan, *, ask: TakebackAskChange | None
    ) -> MoveResult:
        """Take the move back (under the game's lock): one write of the
        ``@takeback`` entry with the state of its version, a snapshot there,
        the clocks restored, the undo points it consumed and the timers."""
        state = await self._state_at(game, plan.target)
        if state is None:
            raise GameBroken(f"Game #{game.id} could not be rebuilt to take a move back.")
        before = game.state
        now = self._clock()
        clocks = restored_clocks(
            game.seats,
            plan.point,
            moved_at=plan.move.created_at,
            rule=game.table.clock,
            now=now,
        )
        tag = seat_tag(plan.seat)
        if plan.asked:
            more = f"; {plural(plan.undoes, 'move')} made since undone too" if plan.undoes else ""
            said = f"{tag} took back a move, with everyone's agreement{more}: {plan.move.narration}"
        else:
            said = f"{tag} took back their last move: {plan.move.narration}"
        entry = self._event_entry(plan.seat, takeback_event(plan.target)[1:], said)
        await self._write(
            game,
            state=state,
            events=(entry,),
            seats=clocks,
            undo=UndoChange(forget_from=plan.target),
            ask=ask,
            snapshot=True,
        )
        result = MoveResult(
            game=game,
            before=before,
            steps=(),
            actor=None if plan.asked else plan.seat,
            version=game.version,
            undone=plan.move.narration,
        )
        await self._after_change(game, moved=None)
        return result

    async def resign(self, game_id: int, user_id: int, *, moderator: bool = False) -> MoveResult:
        """A player leaves a running game.

        With two players the game ends, the resigner last.  With more, the
        seat passes to the automatic player and ranks last, and the others
        play on.  A moderator who is not playing may end a game for everyone
        (a draw).
        """

        async def act(game: LiveGame) -> MoveResult:
            if game.is_over:
                raise ServiceError(f"Game #{game_id} is already over.")
            seat = game.seat_of(user_id)
            if game.record.status == "lobby":
                raise ServiceError(f"Game #{game_id} has not started; use /game leave.")
            if seat is None and not moderator:
                raise ServiceError(f"You are not playing in game #{game_id}.")
            if seat is not None and game.is_auto(seat):
                raise ServiceError(f"You have already left game #{game_id}.")
            if seat is not None:
                return await self._seat_leaves(game, seat, f"{seat_tag(seat)} resigned.")
            return await self._end_by_moderator(game)

        return await self._retrying(game_id, act)

    async def end_broken(self, game_id: int) -> None:
        """A moderator ends a game that can no longer be restored (a broken
        log or snapshot): abandoned without a result, its timers cleared.
        Nothing is replayed, so nothing broken is read; the write is guarded
        by the version read with it, like every change."""
        async with self.lock(game_id):
            for attempt in range(RETRIES_AFTER_RACE + 1):
                read = await self.store.game_with_seats(game_id)
                if read is None:
                    raise ServiceError(f"There is no game #{game_id}.")
                record, seats = read
                if record.status in ("finished", "abandoned"):
                    raise ServiceError(f"Game #{game_id} is already over.")
                n = len(seats)
                outcome = Outcome(
                    ranking=(frozenset(range(n)),),
                    scores=tuple(0 for _ in range(n)),
                    reason="A moderator ended the game: it could not be restored.",
                )
                change = GameChange(
                    status="abandoned", outcome=outcome.to_json(), timers=_no_timers
                )
                try:
                    await self.store.commit(
                        game_id, expected_version=record.version, change=change, now=self._clock()
                    )
                except (StaleVersion, WrongStatus):
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
                    continue
                break
            self._cache.pop(game_id, None)
            self.timers_changed()

    async def end(self, game_id: int) -> MoveResult:
        """End a running game for everyone without a result (a tournament's
        moderator adjudicated it, or ended the tournament)."""

        async def act(game: LiveGame) -> MoveResult:
            self._require_unfinished(game)
            return await self._end_by_moderator(game)

        return await self._retrying(game_id, act)

    # -- tournaments: a round's deadline, a moderator's verdict (issue 16) -------------

    def held_up_by(self, game: LiveGame) -> frozenset[Seat]:
        """The human seats a running game is publicly waiting on
        (``waiting_on``; a seat that already committed is not in it).  Seats
        owing a decision asked privately are left out: naming them, or
        forfeiting them in public, would tell everyone who was asked (who
        holds a complete Pati in Mahabharata), so, as when their clock runs
        out, the automatic player decides for them quietly."""
        public, _private = self.owing(game)
        return public

    async def settle_at_deadline(self, game_id: int, *, forfeit: bool) -> MoveResult | None:
        """A tournament round's deadline passed with this game still running.

        With ``forfeit`` the seats holding the game up (:meth:`held_up_by`)
        lose on time, in seat order, as if their clocks ran out: each gets an
        ``@forfeit`` entry, then with two players the game ends with that seat
        last, and with more the seat passes to the automatic player, ranked
        last.  When every player still in the game is holding it up (a
        simultaneous decision nobody made), nobody kept anyone waiting: the
        game ends with them sharing the place above the seats that left.
        Whatever still runs then is played out by the automatic player for
        every seat (``substitute`` and ``skip`` do only that), so the game
        reaches a real result, rated as usual.  None if it was already over.
        """

        async def act(game: LiveGame) -> MoveResult | None:
            if game.is_over or game.record.status != "active" or game.state is None:
                return None
            result: MoveResult | None = None
            if forfeit:
                held = sorted(self.held_up_by(game))
                humans = [s.seat for s in game.seats if not game.is_auto(s.seat)]
                # The marker tournaments count (two in a row drop a player).
                forfeits = [self._event_entry(seat, FORFEIT_EVENT[1:], "") for seat in held]
                if held and len(humans) > 1 and set(humans) <= set(held):
                    departed = sorted(
                        (s for s in game.seats if s.left_order is not None),
                        key=lambda s: -(s.left_order or 0),
                    )
                    outcome = Outcome(
                        ranking=(frozenset(held), *(frozenset({s.seat}) for s in departed)),
                        scores=tuple(0 for _ in game.seats),
                        reason="Time ran out for every player at the round's deadline.",
                    )
                    return await self._abandon(game, outcome, actor=held[0], events=forfeits)
                for seat, marker in zip(held, forfeits, strict=True):
                    if game.is_over:
                        break
                    # Each seat's loss on time is one write with its marker.
                    result = await self._seat_leaves(
                        game,
                        seat,
                        f"{seat_tag(seat)} lost on time at the round's deadline.",
                        events=(marker,),
                    )
                if game.is_over:
                    return result
            await self._table_event(
                game,
                CHANCE,
                "deadline",
                "The round's deadline passed: the automatic player plays the rest of the game "
                "for everyone.",
            )
            before = game.state
            for _ in range(AUTO_MOVES_LIMIT):
                if game.is_over or game.state is None:
                    break
                if self.holds_chance(game):
                    await self._throw(game, settle=False)  # held for a takeback: made now
                    continue
                seat = progress_seat(game.engine, game.state)
                # A whole game's rest at once: the baseline, not a search.
                await self.auto_move(game, seat, by_human=False, settle=False, level="easy")
            else:
                log.error("game %d: the automatic players did not finish it", game.id)
            await self._after_change(game, moved=None)
            return MoveResult(game=game, before=before, steps=(), actor=None, version=game.version)

        return await self._retrying(game_id, act)

    async def end_with_result(
        self, game_id: int, places: tuple[int, ...], reason: str
    ) -> MoveResult:
        """End a running game with a moderator's verdict: ``places`` per seat
        (1 best, equal places tie).  Unlike :meth:`end` this is a result, so
        the game is rated (once: the rating store refuses a second time)."""

        async def act(game: LiveGame) -> MoveResult:
            self._require_unfinished(game)
            if len(places) != len(game.seats):
                raise ServiceError(f"Game #{game_id} has {len(game.seats)} seats.")
            outcome = Outcome(
                ranking=tuple(
                    frozenset(s for s, p in enumerate(places) if p == place)
                    for place in sorted(set(places))
                ),
                scores=tuple(0 for _ in game.seats),
                reason=reason,
            )
            await self._write(game, status="abandoned", outcome=outcome)
            return MoveResult(
                game=game, before=game.state, steps=(), actor=None, version=game.version
            )

        return await self._retrying(game_id, act)

    async def kick(self, game_id: int, target_user_id: int, *, moderator: bool) -> MoveResult:
        """A moderator removes a player who is gone: as if they resigned."""
        if not moderator:
            raise ServiceError("Only a moderator can remove a player from a game.")

        async def act(game: LiveGame) -> MoveResult:
            if game.is_over:
                raise ServiceError(f"Game #{game_id} is already over.")
            if game.record.status == "lobby":
                raise ServiceError(f"Game #{game_id} has not started; players can still leave it.")
            seat = game.seat_of(target_user_id)
            if seat is None:
                raise ServiceError(f"That player is not in game #{game_id}.")
            if game.is_auto(seat):
                raise ServiceError(
                    f"{safe_name(game.names[seat])} has already left game #{game_id}."
                )
            return await self._seat_leaves(
                game, seat, f"A moderator removed {seat_tag(seat)} from the game."
            )

        return await self._retrying(game_id, act)

    # -- handing a seat to another person (``/moderate game replace``) -----------------------

    def _replacement_refusal(
        self,
        game: LiveGame,
        seat: Seat | None,
        new_user_id: int,
        *,
        tournament: bool,
    ) -> str | None:
        """Why ``seat`` cannot be handed to ``new_user_id`` now (None: it can)."""
        if game.record.status == "lobby":
            return f"Game #{game.id} has not started; players can still join or leave its lobby."
        if game.is_over or game.record.status != "active":
            return f"Game #{game.id} is over: its seats no longer change hands."
        if tournament:
            return (
                f"Game #{game.id} is a tournament game, and a tournament seat belongs to its "
                "entrant: take a player out with /tournament drop instead."
            )
        if seat is None:
            return f"That player is not in game #{game.id}."
        taken = game.seat_of(new_user_id)
        if taken is not None:
            return f"{safe_name(game.names[taken])} already plays in game #{game.id}."
        return None

    async def check_replacement(
        self,
        game_id: int,
        old_user_id: int,
        new_user_id: int,
        *,
        moderator: bool,
        tournament: bool,
    ) -> tuple[LiveGame, Seat]:
        """Whether a moderator may offer ``old_user_id``'s seat to
        ``new_user_id`` (nothing changes until they accept): the game and
        the seat, or a :class:`ServiceError` saying why not."""
        if not moderator:
            raise ServiceError("Only a moderator can hand a player's seat to someone else.")
        async with self.lock(game_id):
            game = await self._load(game_id)
            seat = game.seat_of(old_user_id)
            refusal = self._replacement_refusal(game, seat, new_user_id, tournament=tournament)
            if refusal is not None or seat is None:
                raise ServiceError(refusal or f"That player is not in game #{game_id}.")
            return game, seat

    async def replace_seat(
        self,
        game_id: int,
        seat: Seat,
        old_user_id: int,
        new_player: Player,
        *,
        tournament: bool,
    ) -> tuple[MoveResult, SeatRecord]:
        """``new_player`` accepted a moderator's offer of ``seat``, which
        ``old_user_id`` held when it was made: the seat is theirs now, played
        by a person again even if the automatic player had taken it, and the
        game, its clock and timers carry on.  Everything is checked again
        under the game's lock (an offer outlives restarts, and the seat may
        have changed hands since).  Returns the change and the seat as it was
        (its old player's name).  Ratings count whoever holds a seat when the
        game ends."""

        async def act(game: LiveGame) -> tuple[MoveResult, SeatRecord]:
            if (
                game.record.status == "active"
                and not game.is_over
                and (not 0 <= seat < len(game.seats) or game.seats[seat].user_id != old_user_id)
            ):
                raise ServiceError(
                    "This offer is out of date: that seat has changed hands since it was made."
                )
            if game.is_over or game.record.status != "active":
                raise ServiceError(f"This offer is out of date: game #{game_id} is over.")
            if game.seat_of(new_player.user_id) is not None:
                raise ServiceError(f"You already play in game #{game_id}.")
            refusal = self._replacement_refusal(
                game, seat, new_player.user_id, tournament=tournament
            )
            if refusal is not None:
                raise ServiceError(refusal)
            old = game.seats[seat]
            # {pN} reads as the seat's player now (the new one); the old name
            # is written in, escaped, with braces doubled for the seat tags.
            was = safe_name(old.display_name).replace("{", "{{").replace("}", "}}")
            instead = " instead of the automatic player" if old.controller == "auto" else ""
            # The entry names who held the seat until now, so that who may
            # read the seat's secrets when can be told from the log (issue 29).
            handed = self._event_entry(
                seat,
                replaced_event(old_user_id)[1:],
                f"A moderator handed over {was}'s seat: it is now played by "
                f"{seat_tag(seat)}{instead}.",
            )
            handover = SeatHandover(
                seat, old_user_id, new_player.user_id, new_player.display_name
            )
            try:
                # The hand-over and its entry are one write: the new player
                # takes the seat with its clock and timers (a fresh reminder).
                await self._write(game, events=(handed,), handover=handover)
            except (NotSeated, SeatTaken):
                self._cache.pop(game_id, None)
                raise _LostRace(OUT_OF_DATE) from None
            result = MoveResult(
                game=game, before=game.state, steps=(), actor=None, version=game.version
            )
            await self._after_change(game, moved=None)
            return result, old

        try:
            return await self._retrying(game_id, act)
        except StaleBoard:
            raise ServiceError(
                "This offer is out of date: the game changed while it was being accepted. "
                "Ask a moderator for a new one."
            ) from None

    async def _seat_leaves(
        self, game: LiveGame, seat: Seat, why: str, *, events: Sequence[NewEntry] = ()
    ) -> MoveResult:
        """``seat`` is out: the game ends (two players) or the automatic
        player takes the seat, ranked last (more).  ``events`` (a forfeit's
        marker) are written in the same write as the end or the leaving,
        with the seat's new controller and the timers of the game as it is
        then (the automatic player's moment to act), never apart from them:
        a leaving that lost the race to another process's move leaves
        nothing behind (issue 29)."""
        n = len(game.seats)
        humans = [s.seat for s in game.seats if s.controller == "human" and s.seat != seat]
        if n <= 2 or not humans:
            if game.is_auto(seat):
                raise ServiceError(f"That seat has already left game #{game.id}.")
            others = frozenset(s for s in range(n) if s != seat)
            outcome = Outcome(
                ranking=(others, frozenset({seat})) if others else (frozenset({seat}),),
                scores=tuple(0 for _ in range(n)),
                reason=why,
            )
            return await self._abandon(game, outcome, actor=seat, events=events)
        order = 1 + max((s.left_order or 0) for s in game.seats)
        said = f"{why} The automatic player plays their seat from now on, ranked last."
        await self._write(
            game,
            events=[*events, self._event_entry(seat, LEFT[1:], said)],
            seats={seat: {"controller": "auto", "left_order": order, "clock_since": None}},
        )
        result = MoveResult(
            game=game, before=game.state, steps=(), actor=seat, version=game.version
        )
        await self._after_change(game, moved=None)
        return result

    async def _end_by_moderator(self, game: LiveGame) -> MoveResult:
        n = len(game.seats)
        outcome = Outcome(
            ranking=(frozenset(range(n)),),
            scores=tuple(0 for _ in range(n)),
            reason="A moderator ended the game.",
        )
        return await self._abandon(game, outcome, actor=None)

    async def _abandon(
        self,
        game: LiveGame,
        outcome: Outcome,
        actor: Seat | None,
        *,
        events: Sequence[NewEntry] = (),
    ) -> MoveResult:
        # A resignation or a forfeit is a result; a moderator's end is not.
        await self._write(
            game, events=events, status="abandoned", outcome=outcome, rated=actor is not None
        )
        return MoveResult(
            game=game, before=game.state, steps=(), actor=actor, version=game.version
        )

    @staticmethod
    def _event_entry(seat: Seat, what: str, narration: str) -> NewEntry:
        """Something the table did (not a move), as the public log keeps it."""
        return NewEntry(
            actor=seat, action=f"{TABLE_EVENT}{what}", narration=narration, private_to=None
        )

    async def _table_event(self, game: LiveGame, seat: Seat, what: str, narration: str) -> None:
        """Record something the table did (not a move) in the public log, in
        one write with the clocks and timers of the game as it is then."""
        await self._write(game, events=[self._event_entry(seat, what, narration)])

    # -- pausing, vacations ----------------------------------------------------

    async def pause(self, game_id: int, user_id: int, *, moderator: bool) -> LiveGame:
        if not moderator:
            raise ServiceError("Only a moderator can pause a game.")

        async def act(game: LiveGame) -> LiveGame:
            self._require_running(game)
            if game.paused:
                raise ServiceError(f"Game #{game_id} is already paused.")
            # The pause, its entry, the clocks stopped and the timers cleared: one write.
            await self._write(
                game,
                events=[
                    self._event_entry(
                        CHANCE, "pause", "A moderator paused the game: the clocks are stopped."
                    )
                ],
                pause=(self._clock(),),
            )
            return game

        return await self._retrying(game_id, act)

    async def resume(self, game_id: int, user_id: int, *, moderator: bool) -> LiveGame:
        if not moderator:
            raise ServiceError("Only a moderator can resume a game.")

        async def act(game: LiveGame) -> LiveGame:
            self._require_running(game)
            if not game.paused:
                raise ServiceError(f"Game #{game_id} is not paused.")
            await self._write(
                game,
                events=[
                    self._event_entry(
                        CHANCE, "resume", "A moderator resumed the game: the clocks run again."
                    )
                ],
                pause=(None,),
            )
            await self._after_change(game, moved=None)
            return game

        return await self._retrying(game_id, act)

    def _require_running(self, game: LiveGame) -> None:
        if game.record.status == "lobby":
            raise ServiceError(f"Game #{game.id} has not started yet.")
        if game.is_over:
            raise ServiceError(f"Game #{game.id} is over.")

    async def away(self, user_id: int, days: int) -> str:
        """``/game away``: the caller's clocks stop in all their games."""
        now = self._clock()
        taken = await self.timers.vacations([user_id], since=now - 60 * DAY)
        if any(v.starts <= now < v.ends for v in taken):
            raise ServiceError("You are already away; use /game back first to change it.")
        refusal = vacation_allowance([(v.starts, v.ends) for v in taken], now, days)
        if refusal is not None:
            raise ServiceError(refusal)
        await self.timers.add_vacation(Vacation(user_id, now, now + days * DAY))
        count = await self._refresh_games_of(
            user_id,
            f"is away for {days} day{'s' * (days != 1)}: their clock is stopped meanwhile.",
        )
        return (
            f"You are away for {days} day{'s' * (days != 1)}, until "
            f"{discord_time(now + days * DAY, 'f')} ({discord_time(now + days * DAY)}): "
            f"your clocks are stopped in {count} game{'s' * (count != 1)} and nobody will "
            "remind you. /game back ends it early."
        )

    async def back(self, user_id: int) -> str:
        if not await self.timers.end_vacation(user_id, self._clock()):
            raise ServiceError("You are not away.")
        count = await self._refresh_games_of(user_id, "is back.")
        return f"Welcome back: your clocks run again in {count} game{'s' * (count != 1)}."

    async def _refresh_games_of(self, user_id: int, news: str) -> int:
        """Tell each of the user's running games (the log, so the next board
        says it) and set its clocks and timers again, in one write each."""
        games = [g for g in await self.store.games_of_user(user_id) if g.status == "active"]
        for record in games:

            async def act(game: LiveGame) -> None:
                seat = game.seat_of(user_id)
                if game.is_over:
                    return
                if seat is not None and not game.is_auto(seat):
                    await self._table_event(game, seat, "away", f"{seat_tag(seat)} {news}")
                else:
                    await self._keep_time(game, moved=None)
                await self._after_change(game, moved=None)

            await self._retrying(record.id, act)
        return len(games)

    async def away_until(self, game: LiveGame) -> dict[Seat, float]:
        """Seats whose players are away now, and when they come back."""
        now = self._clock()
        users = [s.user_id for s in game.seats]
        out: dict[Seat, float] = {}
        for v in await self.timers.vacations(users, since=now):
            if v.starts <= now:
                for s in game.seats:
                    if s.user_id == v.user_id:
                        out[s.seat] = max(out.get(s.seat, 0.0), v.ends)
        return out

    async def notifications(self, user_ids: Iterable[int]) -> dict[int, Notifications]:
        """Each user's own notifications (``/chaupal me``), in one query;
        every id is present, with the defaults for anyone who set none."""
        ids = {int(u) for u in user_ids}
        stored = await self.player_settings.get_many(ids)
        return {u: Notifications.from_json(stored.get(u, {})) for u in ids}

    async def server_defaults(self, guild_id: int | None) -> TableOptions:
        """A server's defaults for new games (``/chaupal settings``)."""
        return await table_defaults(self.settings, guild_id)

    def now(self) -> float:
        """The service's clock (a fake one in tests)."""
        return self._clock()

    async def keep_time(self, game: LiveGame) -> None:
        """Set a game's clocks and timers again (under the game's lock)."""
        await self._keep_time(game, moved=None)

    # -- after every change: automatic seats, clocks and timers ----------------

    async def _after_change(self, game: LiveGame, *, moved: Seat | None) -> None:
        """Let the automatic seats that do not wait play, here and now (called
        under the game's lock, after a change was written): a seat that
        passed to the automatic player mid-game, and any with no delay.  A
        lobby's automatic player waits for its ``clock`` timer, which the
        change's own write set (see :meth:`clock_timer`); so does every
        automatic seat the game waits on, so that a process that stops
        before it plays leaves the move to its timer."""
        try:
            if moved is not None or any(s.controller == "auto" for s in game.seats):
                await self._play_automatic(game)
        except StaleBoard:
            # Another process changed the game after this change was stored
            # (issue 20): its own change set the automatic seats, clocks and
            # timers for the game as it made it; nothing here is owed.
            log.info("game %d: changed by another process meanwhile", game.id)

    def automatic_turn(self, game: LiveGame) -> list[Seat]:
        """The automatic seats whose decision the game waits on now."""
        if game.state is None or game.is_over or game.record.status != "active":
            return []
        engine = game.engine
        # Awaited automatic seats play; one that already committed in a
        # simultaneous phase (still in to_move, may change its pick) does not.
        movers = engine.to_move(game.state) - {CHANCE}
        public, private = owed_decisions(engine, game.state)
        awaited = public | private
        seats = sorted(s for s in awaited if game.is_auto(s))
        if not seats and movers and not awaited and all(game.is_auto(s) for s in movers):
            seats = sorted(movers)
        return seats

    def waits_to_act(self, game: LiveGame, seat: Seat) -> bool:
        """Whether an automatic seat waits ``auto_delay`` before it acts: a
        lobby's automatic player does; a seat that passed to the automatic
        player mid-game moves at once, as it always has (its moves go out
        on the board of the move that made them due)."""
        return self.auto_delay > 0 and game.seats[seat].automatic_player

    def delay_of(self, game: LiveGame) -> float:
        """How long a lobby's automatic player waits before it acts: the
        table's readers need ``auto_delay`` between boards; a person alone
        with automatic seats reads one board when it is their turn again
        (:data:`SOLO_AUTO_DELAY`, never more than ``auto_delay``)."""
        if game.solo:
            return min(self.auto_delay, SOLO_AUTO_DELAY)
        return self.auto_delay

    async def _play_automatic(self, game: LiveGame) -> None:
        """Automatic seats that do not wait play at once, until a person or
        a waiting automatic player must act."""
        for _ in range(AUTO_MOVES_LIMIT):
            seats = [s for s in self.automatic_turn(game) if not self.waits_to_act(game, s)]
            if not seats:
                return
            await self.auto_move(game, seats[0], by_human=False, settle=False)
        log.error("game %d: automatic seats did not stop playing", game.id)

    async def auto_move(
        self,
        game: LiveGame,
        seat: Seat,
        *,
        by_human: bool,
        settle: bool = True,
        action: Any = None,
        level: Level | None = None,
    ) -> MoveResult:
        """The automatic player moves for ``seat`` (under the game's lock):
        ``action`` when it was chosen already (a search), else its level's
        choice, padded to the level's ``THINK_PAD`` like every automatic
        move, so the board after it comes no sooner for what the seat
        holds.  One write, with the clocks and timers that follow."""
        engine = game.engine
        if action is None:
            action = await self.choose_for(game, seat, level, pad=True)
        engine_before = game.state
        state, step = apply_step(engine, engine_before, seat, action)
        state, chance_steps = resolve_chance(engine, state, self._draw)
        await self._write(game, state=state, steps=[step, *chance_steps], moved=seat)
        result = MoveResult(
            game=game,
            before=engine_before,
            steps=(step, *chance_steps),
            actor=seat,
            version=game.version,
        )
        if settle:
            await self._after_change(game, moved=seat)
        return result

    def owing(self, game: LiveGame) -> tuple[frozenset[Seat], frozenset[Seat]]:
        """The human seats that owe the game a decision now, ``(public,
        private)`` (see :func:`bot.engines.core.owed_decisions`); a paused
        or finished game is owed nothing."""
        if game.state is None or game.is_over or game.record.status != "active":
            return frozenset(), frozenset()
        public, private = owed_decisions(game.engine, game.state)

        def humans(seats: frozenset[Seat]) -> frozenset[Seat]:
            return frozenset(s for s in seats if 0 <= s < len(game.seats) and not game.is_auto(s))

        return humans(public), humans(private)

    async def reminder_options(
        self, game: LiveGame, seats: Iterable[Seat]
    ) -> dict[Seat, ReminderOption]:
        """How each seat is reminded: the player's own choice
        (``/chaupal me reminders``) before the game's ``reminder`` option."""
        wanted = [s for s in seats if 0 <= s < len(game.seats)]
        if not wanted:
            return {}
        own = await self.notifications(game.user_of(s) for s in wanted)
        out: dict[Seat, ReminderOption] = {}
        for seat in wanted:
            mine = own[game.user_of(seat)].reminders
            out[seat] = game.table.reminder if mine == "game" else mine
        return out

    async def _time_plan(
        self, game: LiveGame, *, moved: Seat | None, now: float
    ) -> tuple[dict[int, dict[str, Any]], TimerPlan]:
        """The clocks and timers of ``game`` as a change leaves it (``game``
        is that change's draft): how the seats' clocks change, and how the
        game's timers follow from the stored ones (:func:`game_timers`, run
        inside the change's transaction).

        The clocks of the human seats the channel waits on run (not while
        the game is paused or the player is away); a clock that stops loses
        the time it ran, and ``moved`` gets its increment.  A private
        decision's clock is not the seat's public clock: a clock running on
        the board would tell everyone who was asked.  Automatic seats the
        game waits on get their moment to act: ``auto_delay`` from now for
        a lobby's automatic player, now for a seat a person left."""
        rule = game.table.clock
        public, private = self.owing(game)
        owing = public | private
        automatic = (
            {}
            if game.paused
            else {
                s: now + (self.delay_of(game) if self.waits_to_act(game, s) else 0.0)
                for s in self.automatic_turn(game)
            }
        )
        # A throw held for a takeback (issue 31) is made by its timer; nobody
        # owes anything meanwhile, so no clock runs.
        throw_at = (
            now + self.throw_grace
            if not game.paused and self.holds_chance(game) and game.record.status == "active"
            else None
        )
        away = await self.away_until(game) if owing else {}
        running = set() if game.paused else public - set(away)
        clocks = clock_changes(game.seats, rule=rule, running=running, moved=moved, now=now)
        if game.paused or (not owing and not automatic and throw_at is None):
            return clocks, _no_timers
        waits = Waits(
            game_id=game.id,
            version=game.version,
            now=now,
            rule=rule,
            seats=_after_seats(game.seats, clocks, None),
            public=public,
            private=private,
            away=away,
            reminders=await self.reminder_options(game, owing - set(away)),
            automatic=automatic,
            moved=moved,
            taken=self._taken.get(game.id),
            throw_at=throw_at,
        )
        return clocks, functools.partial(game_timers, waits)

    async def _keep_time(self, game: LiveGame, *, moved: Seat | None) -> None:
        """Set the game's clocks and timers again for the decisions owed now
        (under the game's lock), if they are not what they should be: a
        write of its own, guarded by the version like any change, and made
        only when something changes.  A game that is over or not started
        has no timers."""
        if game.record.status != "active":
            if await self.timers.of_game(game.id):
                await self.timers.replace(game.id, [])  # nothing can change it any more
                self.timers_changed()
            return
        clocks, plan = await self._time_plan(game, moved=moved, now=self._clock())
        stored = sorted(await self.timers.of_game(game.id))
        if not clocks and sorted(plan(stored)) == stored:
            return
        await self._write(game, moved=moved)

    async def settle_timers(self) -> int:
        """At start-up: set the timers of every running game whose timers
        are missing or void (a crash between a move and its timers, in a
        version that wrote them apart)."""
        fixed = 0
        for game_id in await self.timers.games_to_settle():
            async with self.lock(game_id):
                try:
                    game = await self._load(game_id)
                    await self._keep_time(game, moved=None)
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
        unmarked = await self._unmarked_departures(game)
        if unmarked:
            return f"seat {unmarked[0]} passed to the automatic player without its @left"
        movers = game.engine.to_move(game.state) - {CHANCE}
        stored = await self.timers.of_game(game.id)
        if not movers:
            if self.holds_chance(game):
                # A throw held for a takeback waits for its timer (issue 31).
                if not any(_throws(t, game.version) for t in stored):
                    return "a throw waits with no timer to make it"
                return None
            return "nobody can move"
        if any(t.version != game.version for t in stored):
            return "its timers were set for another version"
        clocks = {t.seat: t for t in stored if t.kind == "clock"}
        for seat in self.automatic_turn(game):
            if seat not in clocks:
                return f"automatic seat {seat} has no timer to act"
        public, private = self.owing(game)
        away = await self.away_until(game) if public | private else {}
        if game.table.clock is not None:
            for seat in sorted((public | private) - set(away)):
                if seat not in clocks:
                    return f"seat {seat} owes a decision with no deadline"
        return None

    async def _unmarked_departures(self, game: LiveGame) -> list[Seat]:
        """Seats a person left to the automatic player with no ``@left``
        since the seat last changed hands: what a leaving written apart from
        its log entry (before issue 29) could leave behind."""
        handed = {s.seat for s in game.seats if s.controller == "auto" and not s.automatic_player}
        if not handed:
            return []
        left: dict[Seat, bool] = {}
        for entry in await self.store.table_events(game.id):
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
        for record in await self.store.live_games():
            if record.status != "active" or record.paused_at is not None:
                continue
            async with self.lock(record.id):
                try:
                    game = await self._load(record.id)
                    why = await self.stranded(game)
                    if why is None:
                        continue
                    log.error("game %d waited on nothing due (%s): repairing it", game.id, why)
                    unmarked = await self._unmarked_departures(game)
                    if unmarked:
                        # The log says who left, as a leaving always does:
                        # their view of the seat ends here.
                        said = "is no longer at the table: the automatic player plays their seat."
                        await self._write(
                            game,
                            events=[
                                self._event_entry(s, LEFT[1:], f"{seat_tag(s)} {said}")
                                for s in unmarked
                            ],
                        )
                    else:
                        await self._keep_time(game, moved=None)
                    await self._after_change(game, moved=None)
                except GameError:
                    continue  # broken (a moderator ends it) or changed meanwhile
            repaired.append(record.id)
        return repaired

    def _game_over(self, game: LiveGame) -> None:
        for hook in self.game_over_hooks:
            try:
                hook(game)
            except Exception:
                log.exception("game %d: a game-over hook failed", game.id)

    # -- ratings ---------------------------------------------------------------------

    async def _rate(self, game: LiveGame) -> None:
        """Rate a finished game once (issue 11): OpenSkill per player, game
        and server, unless the lobby said ``rated=no``.  Never fails the move
        that ended the game."""
        guild = game.record.guild_id
        if guild is None or game.outcome is None or not game.table.rated:
            return
        if any(s.automatic_player for s in game.seats):
            # Practice against automatic players (``/game new bots:N``) is
            # never rated, whatever its options say.
            return
        if game.id not in await self.store.moves_made([game.id]):
            # Issue 31: a game ended before anyone made a move (an entry of
            # a seat that is no table event: a set-up step counts, being a
            # seat's own decision) was never played, so it is not rated.
            return
        finished = FinishedGame.of(game.engine.name, [s.user_id for s in game.seats], game.outcome)
        for _ in range(3):
            try:
                stored = await self.ratings.ratings(guild, finished.engine, finished.players)
                changes = rate({u: Rating.of(r) for u, r in stored.items()}, finished)
                await self.ratings.apply(
                    game.id, guild, finished.engine, changes.values(), self._clock()
                )
                return
            except StaleRating:
                continue  # another game of the same players ended meanwhile
            except (GameError, ValueError) as exc:
                log.warning("game %d could not be rated: %s", game.id, exc)
                return
        log.warning("game %d: ratings kept changing; not rated", game.id)

    # -- timeouts ------------------------------------------------------------------

    async def clock_timer(self, timer: Timer) -> MoveResult | None:
        """A seat's clock timer fell due: time out, restart a clock after a
        vacation, or just set the timers right.  Returns a move to deliver."""
        async with self.lock(timer.game_id):
            try:
                game = await self._load(timer.game_id)
            except GameError:
                await self.timers.claim(timer)
                return None
            seat = timer.seat
            due = (
                not game.paused
                and timer.version == game.version
                and seat in self.automatic_turn(game)
            )
            level = self.level_of(game, seat) if due else "easy"
            if not due or level == "easy":
                if not await self.timers.holds(timer):
                    return None
                async with self._taking(timer):
                    if due:
                        # An automatic seat's moment to act came (``auto_delay``).
                        return await self.auto_move(game, seat, by_human=False)
                    try:
                        return await self._clock_timer(game, timer)
                    except StaleBoard:
                        # Another process changed the game between this
                        # one's look and its write (issue 20): the timer was
                        # set for a version that is gone.  Look again at the
                        # game as it is: its own timers are set right, and
                        # the seat's clock runs on under them.
                        game = await self._load(timer.game_id)
                        return await self._clock_timer(game, timer)
            # A search takes up to a second: it runs outside the game's lock
            # (the players of a simultaneous phase may still act), and the
            # timer is kept as a lease, so a bot stopped mid-thought thinks
            # again after a restart instead of never moving.
            lease = replace(timer, due=self._clock() + THINK_LEASE)
            if not await self.timers.postpone(timer, lease.due):
                return None
            self.timers_changed()
            state, version, seed = game.state, game.version, int(self._draw() * 2**53)
        return await self._think_and_move(game, lease, state, version, level, seed)

    def level_of(self, game: LiveGame, seat: Seat) -> Level:
        """How strong the automatic player of ``seat`` is: a lobby's automatic
        players play at the table's ``level``; a seat a person left, or a
        timeout's move, at its ``substitute`` level."""
        if 0 <= seat < len(game.seats) and game.seats[seat].automatic_player:
            return game.table.level
        return game.table.substitute

    async def choose_for(
        self, game: LiveGame, seat: Seat, level: Level | None = None, *, pad: bool = False
    ) -> Any:
        """The automatic player's action for ``seat`` now (under the game's
        lock): a search runs in the ThinkPool, off the event loop.  With
        ``pad`` (every automatic move) it takes at least the level's
        ``THINK_PAD``, so its timing tells nothing of what the seat holds."""
        seed = int(self._draw() * 2**53)
        chosen = self.level_of(game, seat) if level is None else level
        return await self._think(
            game.engine.name, game.state, seat, chosen, seed, pad=pad and game.hides_information
        )

    async def _think(
        self, engine_name: str, state: Any, seat: Seat, level: Level, seed: int, *, pad: bool
    ) -> Any:
        """A search in the ThinkPool; with ``pad`` it takes at least the
        level's ``THINK_PAD``, so how long the automatic player took tells
        nobody anything about what it holds."""
        started = time.monotonic()
        action = await self.thinker.choose(engine_name, state, seat, level, seed)
        rest = self.think_pad.get(level, 0.0) - (time.monotonic() - started) if pad else 0.0
        if rest > 0:
            await asyncio.sleep(rest)
        return action

    async def _think_and_move(
        self, game: LiveGame, lease: Timer, state: Any, version: int, level: Level, seed: int
    ) -> MoveResult | None:
        """Search for the seat of ``lease`` (its timer, moved on as a lease),
        then play the move if nothing changed meanwhile."""
        seat = lease.seat
        pad = game.hides_information
        action = await self._think(game.engine.name, state, seat, level, seed, pad=pad)
        async with self.lock(game.id):
            try:
                game = await self._load(game.id)
            except GameError:
                return None
            # The lease is gone when someone moved meanwhile (the game's
            # timers were set afresh, and this seat thinks again if it is
            # still due) or the bot stopped: nothing is played then.
            if not await self.timers.holds(lease):
                return None
            async with self._taking(lease):
                if (
                    game.paused
                    or game.version != version
                    or seat not in self.automatic_turn(game)
                ):
                    await self._keep_time(game, moved=None)
                    return None
                return await self.auto_move(game, seat, by_human=False, action=action)

    @contextlib.asynccontextmanager
    async def _taking(self, timer: Timer) -> AsyncIterator[None]:
        """Act on ``timer`` (under its game's lock), then delete it if it is
        still there (compare-and-delete: setting the game's timers again
        usually replaced it already).  Deleted after, not before: a process
        that dies meanwhile leaves the timer claimed, and another process
        fires it once the claim's lease runs out (issue 20); acting twice is
        impossible all the same, because what a timer does is a write
        guarded by the game's version, which the first acting changed."""
        self._taken[timer.game_id] = timer
        try:
            yield
        finally:
            self._taken.pop(timer.game_id, None)
        await self.timers.claim(timer)

    async def _clock_timer(self, game: LiveGame, timer: Timer) -> MoveResult | None:
        """The rest of :meth:`clock_timer`, under the game's lock."""
        seat = timer.seat
        if seat == CHANCE:
            # A throw held for a takeback: its moment came (issue 31).
            if game.paused or timer.version != game.version or not self.holds_chance(game):
                await self._keep_time(game, moved=None)
                return None
            return await self._throw(game)
        public, private = self.owing(game)
        if (
            game.paused
            or timer.version != game.version
            or seat not in public | private
            or await self._vacation_ended_at(game, seat, timer.due)
        ):
            await self._keep_time(game, moved=None)
            return None
        if seat in public:
            deadline = clock_deadline(game.seats[seat], game.table.clock)
            if deadline is None or deadline - self._clock() > 0.5:
                await self._keep_time(game, moved=None)
                return None
        return await self._time_out(game, seat, private=seat in private)

    async def _vacation_ended_at(self, game: LiveGame, seat: Seat, due: float) -> bool:
        """Whether ``due`` is when the seat's player came back from a
        vacation (a clock timer set to start the clock again, not to end it)."""
        user = game.user_of(seat)
        vacations = await self.timers.vacations([user], since=due - 1.0)
        return any(abs(v.ends - due) < 1.0 for v in vacations)

    async def take_reminder(self, timer: Timer) -> Reminder | None:
        """A reminder timer fell due: what to send, or None (the seat no
        longer owes that decision, is away, or is in their quiet hours: the
        reminder then waits).  The timer is moved on to the next reminder
        (or removed) before anything is sent, so a crash can lose one
        reminder but never send one twice."""
        async with self.lock(timer.game_id):
            try:
                game = await self._load(timer.game_id)
            except GameError:
                await self.timers.claim(timer)
                return None
            seat = timer.seat
            public, private = self.owing(game)
            if (
                timer.version != game.version
                or game.paused
                or seat not in public | private
                or seat in await self.away_until(game)
            ):
                # Void (an old wait, or a reminder from before reminders
                # were per seat): set the game's timers again.
                if await self.timers.claim(timer):
                    await self._keep_time(game, moved=None)
                return None
            now = self._clock()
            later = await self._quiet_until(game, seat, now)
            if later > now:
                if await self.timers.postpone(timer, later):
                    self.timers_changed()
                return None
            rule = game.table.clock
            if seat in public:
                deadline = clock_deadline(game.seats[seat], rule)
            else:
                timers = await self.timers.of_game(game.id)
                clocks = [t.due for t in timers if (t.kind, t.seat) == ("clock", seat)]
                deadline = clocks[0] if clocks else None
            (how,) = (await self.reminder_options(game, [seat])).values()
            after = next_reminder(how, rule, after=timer.due, deadline=deadline)
            # Reminders missed while the bot was down are sent as one.
            while after is not None and after <= now:
                after = next_reminder(how, rule, after=after, deadline=deadline)
            if deadline is not None and deadline <= now:
                # The clock has run out: its timer tells the player, not this.
                await self.timers.claim(timer)
                return None
            if after is None:
                moved_on = await self.timers.claim(timer)
            else:
                moved_on = await self.timers.reschedule(timer, after)
            if not moved_on:
                return None
            self.timers_changed()
            several = len(game.engine.to_move(game.state) - {CHANCE}) > 1
            return Reminder(
                game=game,
                seat=seat,
                left=None if deadline is None else max(0.0, deadline - now),
                deadline=deadline,
                last_one=several and seat in public and len(public) == 1,
                count=timer.count,
                private=seat not in public,
            )

    async def _quiet_until(self, game: LiveGame, seat: Seat, now: float) -> float:
        """When the seat's player may be reminded: ``now``, or when their
        quiet hours end (``/chaupal me quiet``)."""
        user = game.user_of(seat)
        own = (await self.notifications([user]))[user]
        return own.quiet_ends(now)

    async def _time_out(self, game: LiveGame, seat: Seat, *, private: bool = False) -> MoveResult:
        engine = game.engine
        policy = game.table.timeout
        name = seat_tag(seat)
        texts = {
            engine.describe(game.state, seat, a): a for a in engine.legal_actions(game.state, seat)
        }
        if private:
            # A private decision times out quietly, whatever the policy: the
            # automatic player decides (a pass where there is one), and only
            # the player is told.  A forfeit, or a public line, would tell
            # everyone who had been asked.
            action = texts.get("pass")
            if action is None:
                action = await self.choose_for(game, seat, pad=True)
            result = await self._commit_move(game, seat, action, by_human=False)
            return replace(result, timeout="private")
        streak = game.seats[seat].timeouts + 1
        if streak >= MAX_TIMEOUTS_IN_A_ROW:
            policy = "forfeit"  # a vanished player does not hold the game up for ever
        if policy == "forfeit":
            # One write with the seat's leaving, as for a timeout's move.
            forfeit = self._event_entry(seat, FORFEIT_EVENT[1:], "")
            result = await self._seat_leaves(
                game, seat, f"{name} ran out of time.", events=(forfeit,)
            )
            return replace(result, timeout="lost" if game.is_over else "seat")
        count = (
            f" (timeout {streak} of {MAX_TIMEOUTS_IN_A_ROW} in a row before the seat is forfeited)"
        )
        skip = policy == "skip" and "pass" in texts
        if skip:
            said = f"{name} ran out of time and passes{count}."
        else:
            said = f"{name} ran out of time; the automatic player makes this move for them{count}."
        action = texts["pass"] if skip else await self.choose_for(game, seat, pad=True)
        # The timeout and the move made for it are one write: a process
        # killed between two writes left the timeout without its move, and
        # the seat, its clock still spent, timed out again after the restart
        # (the load test).  The version guards it: a timeout that lost the
        # race to another process's write (issue 20) is not written, nor
        # counted in the streak, which is set after.
        event = self._event_entry(seat, "timeout", said)
        result = await self._commit_move(
            game, seat, action, by_human=False, event=event, seats={seat: {"timeouts": streak}}
        )
        return replace(result, timeout="skip" if skip else "substitute")

    # -- queries ---------------------------------------------------------

    async def games_here(self, channel_id: int) -> list[GameRecord]:
        return await self.store.games_in_channel(channel_id)

    async def games_of(self, user_id: int) -> list[GameRecord]:
        return await self.store.games_of_user(user_id)

    async def find_game(
        self,
        *,
        channel_id: int,
        user_id: int,
        game_id: int | None,
        want: str,
    ) -> LiveGame:
        """Resolve the game a command means when its id was left out.

        ``want`` is ``"lobby"`` (to join), ``"mine"`` (a live game the caller
        sits in, here) or ``"any"`` (any live game here).
        """
        if game_id is not None:
            game = await self.get(game_id)
            if game.record.channel_id != channel_id and want != "mine":
                raise ServiceError(f"Game #{game_id} is in another channel.")
            return game
        here = await self.store.games_in_channel(channel_id)
        if want == "lobby":
            candidates = [g for g in here if g.status == "lobby"]
        elif want == "mine":
            mine = await self.store.games_of_user(user_id)
            mine_ids = {g.id for g in mine}
            # In a DM (or another channel) a player's only live game is meant.
            candidates = [g for g in here if g.id in mine_ids] or mine
        else:
            candidates = here
        if not candidates:
            if want == "mine":
                # A game that just ended is the likeliest meaning: say so.
                ended = await self.store.games_of_user(user_id, statuses=("finished", "abandoned"))
                ended = [g for g in ended if channel_id in (g.channel_id, g.thread_id)]
                if ended:
                    raise ServiceError(
                        f"Game #{ended[-1].id} is over, and you have no running game in this "
                        "channel. Start one with /game new."
                    )
            what = {"lobby": "open lobby", "mine": "game of yours", "any": "game"}[want]
            raise ServiceError(f"There is no {what} in this channel. Start one with /game new.")
        if len(candidates) > 1:
            ids = ", ".join(f"#{g.id}" for g in candidates)
            raise ServiceError(f"Several games match ({ids}); give the game number.")
        return await self.get(candidates[0].id)


@dataclass(frozen=True)
class _TakebackPlan:
    """What taking back one seat's last move would do (issue 31)."""

    seat: Seat
    target: int
    """The version the game returns to (the move was entry ``target + 1``)."""
    move: LogEntry
    point: UndoPoint
    undoes: int
    """Public moves of other players it undoes too."""
    asked: frozenset[Seat]
    """The other people who must agree (empty: the mover alone decides)."""

    def request(
        self, game: LiveGame, agreed: frozenset[Seat], *, new: bool
    ) -> TakebackRequest:
        return TakebackRequest(
            game=game,
            seat=self.seat,
            target=self.target,
            version=game.version,
            asked=self.asked,
            agreed=agreed & self.asked,
            move=self.move.narration,
            undoes=self.undoes,
            new=new,
        )


def _not_yours(
    before: Sequence[LogEntry], move: LogEntry, point: UndoPoint | None, user_id: int
) -> str:
    """Why a seat's last move has no undo point of its holder's."""
    if before and before[-1].action == f"{TABLE_EVENT}timeout" and before[-1].actor == move.actor:
        return (
            "Your last move was made for you when your time ran out, so it is not yours to "
            "take back."
        )
    if point is not None and point.user_id != user_id:
        return "Your seat's last move was made before you took the seat over: it stands."
    return (
        "Your last move cannot be taken back: it was made when takebacks were not allowed "
        "in this game."
    )


def _throws(timer: Timer, version: int) -> bool:
    """Whether ``timer`` makes the throw a game holds at ``version``."""
    return timer.kind == "clock" and timer.seat == CHANCE and timer.version == version


def _reveal_seed(game_id: int, version: int) -> int:
    """The seed :func:`bot.takeback.reveals` deals with for the move made at
    ``version`` of a game: the same answer each time that move is asked about."""
    return game_id * 1_000_003 + version


def _no_timers(stored: Sequence[Timer]) -> list[Timer]:
    """A game with nothing to wait for (over, paused, or owed nothing) has no timers."""
    return []


def _merged(
    first: Mapping[int, Mapping[str, Any]], then: Mapping[int, Mapping[str, Any]]
) -> dict[int, dict[str, Any]]:
    """Seat changes ``{seat: {column: value}}``: ``then``'s over ``first``'s."""
    out = {seat: dict(columns) for seat, columns in first.items()}
    for seat, columns in then.items():
        out.setdefault(seat, {}).update(columns)
    return out


def _after_seats(
    seats: Sequence[SeatRecord],
    changes: Mapping[int, Mapping[str, Any]],
    handover: SeatHandover | None,
) -> list[SeatRecord]:
    """The seats as a change leaves them (what :meth:`GameStore.commit`
    writes), to plan the clocks and timers that follow before writing."""
    out = []
    for seat in seats:
        if handover is not None and seat.seat == handover.seat:
            seat = replace(
                seat,
                user_id=handover.new_user_id,
                display_name=handover.display_name,
                controller="human",
                left_order=None,
                timeouts=0,
            )
        columns = changes.get(seat.seat)
        out.append(replace(seat, **columns) if columns else seat)
    return out


def ranked_with_departures(outcome: Outcome | None, seats: Iterable[SeatRecord]) -> Outcome | None:
    """The engine's outcome with seats that passed to the automatic player
    moved to the bottom, the first to leave lowest (issue 10: they rank last)."""
    if outcome is None:
        return None
    left = sorted(
        (s for s in seats if s.left_order is not None), key=lambda s: -(s.left_order or 0)
    )
    if not left:
        return outcome
    gone = {s.seat for s in left}
    ranking = [group - gone for group in outcome.ranking]
    ranking = [g for g in ranking if g]
    ranking += [frozenset({s.seat}) for s in left]
    return Outcome(ranking=tuple(ranking), scores=outcome.scores, reason=outcome.reason)


__all__ = [
    "CHANCE",
    "FORFEIT_EVENT",
    "GameBroken",
    "GameLock",
    "GameService",
    "LiveGame",
    "MoveResult",
    "PathResult",
    "Player",
    "Reminder",
    "ServiceError",
    "StaleBoard",
    "TakebackRequest",
    "TimeoutKind",
]
