"""The state every part of the game service shares (issue 32).

One :class:`Core` per service: the stores, the injected clock and dice, the
per-game locks and the cache of live games, the knobs the bot and the tests
set (``auto_delay``, ``throw_grace``...) and the callbacks the edge hangs on
it.  The parts (``bot.service.games``, ``moves``...) each hold this one
object, so a knob set on the service (a test's loaded dice) is seen by all
of them at once, and none keeps a copy of its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from bot.levels import Level
from bot.live import GameLock, LiveGame
from bot.service.common import AUTO_DELAY, THINK_PAD
from bot.thinking import ThinkPool
from storage.games import GameStore
from storage.players import PlayerSettingsStore
from storage.ratings import RatingStore
from storage.timekeeping import SettingsStore, Timer, TimerStore


class Core:
    """The state the parts share: one per service, never copied."""

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
        self.takeback_servers: dict[int, tuple[float, bool]] = {}
        """Per server, its ``takeback`` setting and when it was read
        (:data:`~bot.service.common.SERVER_SETTING_TTL`)."""
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
        (``Games.current``, two reads).  Only PostgreSQL is shared; a SQLite
        file is one process's (``bot.config`` refuses shards split over
        processes on it), so there the cache is the truth and every move
        saves those reads (a third of the throughput of a busy server)."""
        self.timers = TimerStore(store.db, owner)
        """The games' timers, claimed in this process's name (``owner``,
        :mod:`bot.claims`; one of its own when not given)."""
        self.taken: dict[int, Timer] = {}
        """Per game, the timer whose handler is acting on it now (under the
        game's lock): still stored, so that a process that dies meanwhile
        leaves it to another (issue 20), but no longer counted as the game's
        when its timers are set again."""
        self.settings = SettingsStore(store.db)
        self.player_settings = PlayerSettingsStore(store.db)
        self.ratings = RatingStore(store.db)
        self.draw = draw
        """The dice, shells and shuffles: uniform in [0, 1) (loaded in tests)."""
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.locks: dict[int, GameLock] = {}
        self.cache: dict[int, LiveGame] = {}
        self.timers_changed: Callable[[], None] = lambda: None
        """Called after a game's timers change (the scheduler re-arms)."""
        self.game_over_hooks: list[Callable[[LiveGame], None]] = []
        """Called once a game ends (a tournament reads its result); a hook
        must not block: it schedules its own work."""

    def lock(self, game_id: int) -> GameLock:
        """The game's lock: every change to a game is made under it."""
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = GameLock()
        return lock

    def now(self) -> float:
        """The service's clock (a fake one in tests)."""
        return self.clock()
