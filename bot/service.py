"""GameService: the only writer of game state.

Every change goes: per-game lock -> load (cache, or snapshot + log replay) ->
engine.apply -> chance resolved -> one storage transaction guarded by the
version the move was made against.  Only after the write succeeds does the
caller post anything, so nothing a player did is lost on restart.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.choices import MenuOption, StaleChoice, follow, locate, split_words, trail
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
    resolve_chance,
    resolve_options,
    seat_tag,
)
from bot.outgoing import safe_name
from storage.games import (
    GameRecord,
    GameStatus,
    GameStore,
    NewEntry,
    SeatRecord,
    StaleVersion,
)

log = logging.getLogger(__name__)

RECENT_STATES = 16
"""Recent states kept per live game for reading older menus; older ones are
rebuilt from storage when a menu that old is used."""


class ServiceError(GameError):
    """A request the service refuses; the message is shown to the player."""


class StaleBoard(ServiceError):
    """A button from an older board was clicked."""


class GameBroken(ServiceError):
    """A stored game can no longer be rebuilt (corrupt log or snapshot)."""


@dataclass(frozen=True)
class Player:
    user_id: int
    display_name: str


@dataclass
class LiveGame:
    """A game as the service holds it: its record, seats, engine and state."""

    record: GameRecord
    seats: list[SeatRecord]
    engine: Engine[Any, Any, Any]
    state: Any | None
    """``None`` while the game is a lobby."""
    outcome: Outcome | None = None
    recent: dict[int, Any] = field(default_factory=dict)
    """States at recent versions, so a menu drawn a few moves ago can be
    read again (see :meth:`GameService.play_path`)."""

    def remember(self, version: int, state: Any) -> None:
        self.recent[version] = state
        while len(self.recent) > RECENT_STATES:
            del self.recent[min(self.recent)]

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def names(self) -> list[str]:
        return [s.display_name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_of(self, seat: Seat) -> int:
        return self.seats[seat].user_id

    @property
    def is_over(self) -> bool:
        return self.record.status in ("finished", "abandoned")


@dataclass(frozen=True)
class MoveResult:
    """What one request changed, for delivery."""

    game: LiveGame
    before: Any | None
    steps: tuple[Step, ...]
    actor: Seat | None
    version: int = -1
    """The game's version right after this request (``game`` is live and
    may have moved on by the time delivery runs)."""


@dataclass(frozen=True)
class PathResult:
    """Where a menu path led: a move, or the next menu to show."""

    result: MoveResult | None
    options: list[MenuOption]
    path: tuple[int, ...]
    """The path to draw the next menu at (rebased to ``version``)."""
    version: int


def menu_words_of(
    engine: Engine[Any, Any, Any], state: Any, seat: Seat
) -> Callable[[str], tuple[str, ...]]:
    """How a game's action texts split into menu levels (pick a die, then
    its move), for any state."""
    if isinstance(engine, SplitsMenus):
        return lambda text: engine.menu_words(state, seat, text)
    return split_words


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
    ) -> None:
        self.store = store
        self._draw = draw
        self._clock = clock
        self._snapshot_every = snapshot_every
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, LiveGame] = {}

    # -- loading ---------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def get(self, game_id: int) -> LiveGame:
        """The live game, rebuilt from storage if it is not cached."""
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        async with self.lock(game_id):
            return await self._load(game_id)

    async def _load(self, game_id: int) -> LiveGame:
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        record = await self.store.get_game(game_id)
        if record is None:
            raise ServiceError(f"There is no game #{game_id}.")
        try:
            engine = get_engine(record.engine)
        except GameError as exc:
            raise GameBroken(f"Game #{game_id} uses a game this bot no longer has: {exc}") from None
        seats = await self.store.seats(game_id)
        game = LiveGame(record=record, seats=seats, engine=engine, state=None)
        if record.status != "lobby":
            game.state = await self._rebuild(game)
            if record.outcome is not None:
                game.outcome = Outcome.from_json(record.outcome)
            game.remember(record.version, game.state)
        if record.status == "active" and engine.to_move(game.state) == frozenset({CHANCE}):
            # A crash between a move and its chance (or an older version that
            # stored them apart) would leave a game nobody can move: settle
            # and store the chance before anyone acts.
            state, steps = resolve_chance(engine, game.state, self._draw)
            game.record = await self._persist(game, record, state, steps)
            game.state = state
            game.remember(game.record.version, state)
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
            return await self._replay(game, up_to=None)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            # The message names the game, never the failing action (it may be secret).
            log.error("game %d cannot be rebuilt: %s", record.id, type(exc).__name__)
            raise GameBroken(
                f"Game #{record.id} could not be restored from the database. "
                "A moderator can end it with /game resign."
            ) from exc

    async def _replay(self, game: LiveGame, up_to: int | None) -> Any:
        """The newest snapshot at or before ``up_to``, plus the log after it."""
        engine = game.engine
        snapshot = await self.store.latest_snapshot(game.id, at_most=up_to)
        if snapshot is not None:
            seq, state_json = snapshot
            state = engine.from_json(state_json)
        else:
            seq, state = 0, engine.setup(len(game.seats), game.record.options)
        for entry in await self.store.log(game.id, after_seq=seq, up_to=up_to):
            action = engine.parse(state, entry.actor, entry.action)
            state = engine.apply(state, entry.actor, action)
        return state

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
    ) -> LiveGame:
        engine = get_engine(engine_name)
        resolved = resolve_options(engine, options or {})
        record = await self.store.create_game(
            engine=engine.name,
            engine_revision=engine.revision,
            options=resolved,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            creator_id=creator.user_id,
            now=self._clock(),
        )
        await self.store.add_seat(record.id, creator.user_id, creator.display_name, self._clock())
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
            if not game.seats:
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
            # chance (shuffles, first rolls), so a crash never leaves an
            # active game that nobody can move.
            record = await self._persist(game, game.record, state, steps, status="active")
            game.record, game.state = record, state
            game.remember(record.version, state)
            return MoveResult(
                game=game,
                before=None,
                steps=tuple(steps),
                actor=None,
                version=record.version,
            )

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
            game = await self._load(game_id)
            seat = self._check_can_act(game, user_id, expected_version)
            engine, before = game.engine, game.state
            action = engine.parse(before, seat, text)
            return await self._commit_move(game, seat, action)

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
            game = await self._load(game_id)
            seat = self._check_can_act(game, user_id, None if rebase else expected_version)
            if expected_version != game.version:
                path = await self._rebase(game, seat, expected_version, path)
            texts = self.legal_texts(game, seat)
            try:
                chosen, options, _ = follow(texts, path, self.menu_words(game, seat))
            except StaleChoice as exc:
                raise StaleBoard(str(exc)) from None
            if chosen is None:
                return PathResult(None, options, path, game.version)
            action = game.engine.parse(game.state, seat, chosen)
            result = await self._commit_move(game, seat, action)
            return PathResult(result, [], path, result.version)

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
        if expected_version is not None and expected_version != game.version:
            raise StaleBoard(
                "That board is out of date: the game has moved on since. Use the newest board."
            )
        if seat not in game.engine.to_move(game.state):
            waiting = game.engine.waiting_on(game.state)
            if waiting:
                names = ", ".join(safe_name(game.names[s]) for s in sorted(waiting))
                raise NotYourTurn(f"It is not your turn: waiting for {names}.")
            raise NotYourTurn("It is not your turn.")
        return seat

    async def _commit_move(self, game: LiveGame, seat: Seat, action: Any) -> MoveResult:
        engine, before = game.engine, game.state
        state, step = apply_step(engine, before, seat, action)
        state, chance_steps = resolve_chance(engine, state, self._draw)
        steps = [step, *chance_steps]
        record = await self._persist(game, game.record, state, steps)
        game.record, game.state = record, state
        game.remember(record.version, state)
        return MoveResult(
            game=game, before=before, steps=tuple(steps), actor=seat, version=record.version
        )

    async def _persist(
        self,
        game: LiveGame,
        record: GameRecord,
        state: Any,
        steps: Iterable[Step],
        *,
        status: GameStatus | None = None,
    ) -> GameRecord:
        engine = game.engine
        entries = [
            NewEntry(actor=s.seat, action=s.text, narration=s.narration, private_to=s.private_to)
            for s in steps
        ]
        outcome = engine.outcome(state)
        new_version = record.version + len(entries)
        crosses = record.version // self._snapshot_every != new_version // self._snapshot_every
        snapshot = engine.to_json(state) if (crosses or outcome is not None) else None
        try:
            record = await self.store.append(
                game.id,
                expected_version=record.version,
                entries=entries,
                now=self._clock(),
                snapshot=snapshot,
                status="finished" if outcome is not None else status,
                outcome=outcome.to_json() if outcome is not None else None,
            )
        except StaleVersion:
            # Another process or a lost cache wrote first: reload, refuse this click.
            self._cache.pop(game.id, None)
            raise StaleBoard(
                "That board is out of date: the game has moved on since. Use the newest board."
            ) from None
        game.outcome = outcome
        return record

    async def resign(self, game_id: int, user_id: int, *, moderator: bool = False) -> MoveResult:
        """A player leaves a running game: it ends, the resigner last.

        A moderator who is not playing may end a game for everyone (a draw).
        """
        async with self.lock(game_id):
            game = await self._load(game_id)
            if game.is_over:
                raise ServiceError(f"Game #{game_id} is already over.")
            seat = game.seat_of(user_id)
            if game.record.status == "lobby":
                raise ServiceError(f"Game #{game_id} has not started; use /game leave.")
            n = len(game.seats)
            if seat is not None:
                others = frozenset(s for s in range(n) if s != seat)
                outcome = Outcome(
                    ranking=(others, frozenset({seat})),
                    scores=tuple(0 for _ in range(n)),
                    reason=f"{seat_tag(seat)} resigned.",
                )
            elif moderator:
                outcome = Outcome(
                    ranking=(frozenset(range(n)),),
                    scores=tuple(0 for _ in range(n)),
                    reason="A moderator ended the game.",
                )
            else:
                raise ServiceError(f"You are not playing in game #{game_id}.")
            record = await self.store.set_status(
                game_id, "abandoned", self._clock(), outcome=outcome.to_json()
            )
            game.record, game.outcome = record, outcome
            return MoveResult(
                game=game, before=game.state, steps=(), actor=seat, version=record.version
            )

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
            what = {"lobby": "open lobby", "mine": "game of yours", "any": "game"}[want]
            raise ServiceError(f"There is no {what} in this channel. Start one with /game new.")
        if len(candidates) > 1:
            ids = ", ".join(f"#{g.id}" for g in candidates)
            raise ServiceError(f"Several games match ({ids}); give the game number.")
        return await self.get(candidates[0].id)


__all__ = [
    "CHANCE",
    "GameBroken",
    "GameService",
    "LiveGame",
    "MoveResult",
    "Player",
    "ServiceError",
    "StaleBoard",
]
