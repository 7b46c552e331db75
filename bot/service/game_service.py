"""GameService: the only writer of game state, composed of parts (issue 32).

Every change goes: per-game lock -> load (cache, or snapshot + log replay) ->
engine.apply -> chance resolved -> one storage transaction guarded by the
version the move was made against.  Only after the write succeeds does the
caller post anything, so nothing a player did is lost on restart.

The service was one class of 2,500 lines; it is now a front over parts, one
concern each, which share one :class:`~bot.service.core.Core` (the stores,
the clock, the dice, the locks and the cache).  A part is handed the parts
below it when it is made, so the parts' imports form layers and no circle:

- ``turns`` (who owes what), ``preferences`` (players' and servers'
  settings), ``ratings`` (a finished game): read the core only;
- ``writer`` (every change, with its clocks and timers), then ``games``
  (loading, the cache, the act-under-the-lock loop);
- ``automatic`` (the automatic seats), then ``takebacks``, ``moves``,
  ``seats``, and on top ``moderation``, ``lobby``, ``clocks`` and
  ``timeouts`` (timers falling due).

Callers use the front only: its methods are the parts', one line each
(:func:`delegate` keeps each one's exact signature for mypy), so moving a
method between parts changes one line here and nothing in the edge.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from bot.levels import Level
from bot.live import LiveGame
from bot.service.automatic import Automatic
from bot.service.clocks import Clocks
from bot.service.common import AUTO_DELAY
from bot.service.core import Core
from bot.service.games import Games
from bot.service.lobby import Lobby
from bot.service.moderation import Moderation
from bot.service.moves import Moves
from bot.service.preferences import Preferences
from bot.service.ratings import Rater
from bot.service.seats import Seats
from bot.service.takebacks import Takebacks
from bot.service.timeouts import Timeouts
from bot.service.turns import Turns
from bot.service.writer import Writer
from bot.thinking import ThinkPool
from storage.games import GameStore
from storage.players import PlayerSettingsStore
from storage.ratings import RatingStore
from storage.timekeeping import SettingsStore, TimerStore

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")


def delegate(
    method: Callable[Concatenate[Any, _P], _R], part: str
) -> Callable[Concatenate[Any, _P], _R]:
    """A method of the front that calls ``method`` on its ``part``, looked up
    at each call, with ``method``'s signature and docstring.  A class-level
    function, so mypy treats it as a method (replacing it on an instance is
    a ``method-assign``, as the load test does on purpose)."""
    name = method.__name__

    def call(self: Any, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        bound: Callable[_P, _R] = getattr(getattr(self, part), name)
        return bound(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = method.__doc__
    return call


class Forward(Generic[_T]):
    """An attribute of the front that is a part's (or the core's): read and
    set there, so that setting it on the service (a test's loaded dice, the
    scheduler's callback, a test replacing a step to kill the process
    midway) changes what every part sees."""

    def __init__(self, part: str, name: str | None = None) -> None:
        self.part = part
        self.name = name or ""

    def __set_name__(self, owner: type, name: str) -> None:
        if not self.name:
            self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> Forward[_T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> _T: ...
    def __get__(self, obj: object | None, owner: type) -> Forward[_T] | _T:
        if obj is None:
            return self
        value: _T = getattr(getattr(obj, self.part), self.name)
        return value

    def __set__(self, obj: object, value: _T) -> None:
        setattr(getattr(obj, self.part), self.name, value)

    def __delete__(self, obj: object) -> None:
        delattr(getattr(obj, self.part), self.name)


class GameService:
    """The front of the game service: the edge, the tournament director and
    the tools call these; the work is the parts'."""

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
        core = self.core = Core(
            store,
            draw=draw,
            clock=clock,
            snapshot_every=snapshot_every,
            auto_delay=auto_delay,
            thinker=thinker,
            think_pad=think_pad,
            owner=owner,
            shared=shared,
            throw_grace=throw_grace,
        )
        # Bottom up: each part is given the parts below it (see the module's
        # docstring), so none reaches one above it.
        self.turns = Turns(core)
        self.preferences = Preferences(core)
        self.rater = Rater(core)
        self.writer = Writer(core, self.turns, self.preferences, self.rater)
        self.games = Games(core, self.writer)
        self.automatic = Automatic(core, self.turns, self.writer, self.games)
        self.takebacks = Takebacks(
            core, self.turns, self.preferences, self.writer, self.games, self.automatic
        )
        self.moves = Moves(
            core, self.turns, self.preferences, self.writer, self.games, self.automatic
        )
        self.seats = Seats(core, self.writer, self.games, self.automatic)
        self.moderation = Moderation(
            core, self.turns, self.writer, self.games, self.automatic, self.takebacks, self.seats
        )
        self.lobby = Lobby(core, self.preferences, self.writer, self.games, self.automatic)
        self.clocks = Clocks(
            core, self.turns, self.preferences, self.writer, self.games, self.automatic
        )
        self.timeouts = Timeouts(
            core,
            self.turns,
            self.preferences,
            self.writer,
            self.games,
            self.automatic,
            self.takebacks,
            self.moves,
            self.seats,
        )

    # -- shared state (the core's) ----------------------------------------------

    store = Forward[GameStore]("core")
    timers = Forward[TimerStore]("core")
    settings = Forward[SettingsStore]("core")
    player_settings = Forward[PlayerSettingsStore]("core")
    ratings = Forward[RatingStore]("core")
    thinker = Forward[ThinkPool]("core")
    think_pad = Forward[dict[Level, float]]("core")
    auto_delay = Forward[float]("core")
    throw_grace = Forward[float]("core")
    shared = Forward[bool]("core")
    timers_changed = Forward[Callable[[], None]]("core")
    game_over_hooks = Forward[list[Callable[[LiveGame], None]]]("core")
    lock = delegate(Core.lock, "core")
    now = delegate(Core.now, "core")

    # Reached into by tests (loaded dice; a step replaced to kill a process
    # midway, or to count its calls): forwarded to where each lives, so
    # replacing one on the service replaces it for every part.
    _draw = Forward[Callable[[], float]]("core", "draw")
    _cache = Forward[dict[int, LiveGame]]("core", "cache")
    _current = Forward[Callable[[LiveGame], Awaitable[bool]]]("games", "current")
    _rebuild = Forward[Callable[[LiveGame], Awaitable[Any]]]("games", "rebuild")
    _replay = Forward[Callable[[LiveGame, int | None], Awaitable[Any]]]("games", "replay")
    _state_at = Forward[Callable[[LiveGame, int], Awaitable[Any]]]("games", "state_at")
    _play_automatic = Forward[Callable[[LiveGame], Awaitable[None]]]("automatic", "play_automatic")
    _after_change = Forward[Callable[..., Awaitable[None]]]("automatic", "after_change")

    # -- games and the cache ------------------------------------------------------

    get = delegate(Games.get, "games")
    forget = delegate(Games.forget, "games")

    # -- lobby and look-ups ---------------------------------------------------------

    new_game = delegate(Lobby.new_game, "lobby")
    join = delegate(Lobby.join, "lobby")
    leave = delegate(Lobby.leave, "lobby")
    start = delegate(Lobby.start, "lobby")
    games_here = delegate(Lobby.games_here, "lobby")
    games_of = delegate(Lobby.games_of, "lobby")
    find_game = delegate(Lobby.find_game, "lobby")

    # -- whose turn, and moves ------------------------------------------------------

    seat_for = delegate(Turns.seat_for, "turns")
    legal_texts = delegate(Turns.legal_texts, "turns")
    menu_words = delegate(Turns.menu_words, "turns")
    owing = delegate(Turns.owing, "turns")
    held_up_by = delegate(Turns.held_up_by, "turns")
    automatic_turn = delegate(Turns.automatic_turn, "turns")
    waits_to_act = delegate(Turns.waits_to_act, "turns")
    delay_of = delegate(Turns.delay_of, "turns")
    level_of = delegate(Turns.level_of, "turns")
    holds_chance = delegate(Turns.holds_chance, "turns")
    play = delegate(Moves.play, "moves")
    play_path = delegate(Moves.play_path, "moves")

    # -- taking a move back (issue 31) ----------------------------------------------

    take_back = delegate(Takebacks.take_back, "takebacks")
    answer_takeback = delegate(Takebacks.answer_takeback, "takebacks")

    # -- seats and moderation -------------------------------------------------------

    resign = delegate(Seats.resign, "seats")
    kick = delegate(Seats.kick, "seats")
    check_replacement = delegate(Seats.check_replacement, "seats")
    replace_seat = delegate(Seats.replace_seat, "seats")
    end_broken = delegate(Moderation.end_broken, "moderation")
    end = delegate(Moderation.end, "moderation")
    settle_at_deadline = delegate(Moderation.settle_at_deadline, "moderation")
    end_with_result = delegate(Moderation.end_with_result, "moderation")
    pause = delegate(Moderation.pause, "moderation")
    resume = delegate(Moderation.resume, "moderation")

    # -- players' and servers' settings ---------------------------------------------

    away_until = delegate(Preferences.away_until, "preferences")
    notifications = delegate(Preferences.notifications, "preferences")
    reminder_options = delegate(Preferences.reminder_options, "preferences")
    server_defaults = delegate(Preferences.server_defaults, "preferences")
    takebacks_allowed = delegate(Preferences.takebacks_allowed, "preferences")
    settings_changed = delegate(Preferences.settings_changed, "preferences")

    # -- clocks, timers and automatic players ---------------------------------------

    keep_time = delegate(Writer.keep_time, "writer")
    away = delegate(Clocks.away, "clocks")
    back = delegate(Clocks.back, "clocks")
    settle_timers = delegate(Clocks.settle_timers, "clocks")
    stranded = delegate(Clocks.stranded, "clocks")
    repair_stranded = delegate(Clocks.repair_stranded, "clocks")
    clock_timer = delegate(Timeouts.clock_timer, "timeouts")
    take_reminder = delegate(Timeouts.take_reminder, "timeouts")
    auto_move = delegate(Automatic.auto_move, "automatic")
    choose_for = delegate(Automatic.choose_for, "automatic")
