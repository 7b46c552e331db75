"""The one writer: every change to a game, whatever made it, is one
transaction guarded by the version it was computed against (issue 29),
with the clocks and timers that follow from it; and the timers a handler
is acting on."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engines.core import CHANCE, Outcome, Seat, Step
from bot.engines.messages import encode
from bot.live import LiveGame
from bot.service.common import (
    OUT_OF_DATE,
    TABLE_EVENT,
    LostRace,
    after_seats,
    event_entry,
    merged,
    no_timers,
    ranked_with_departures,
)
from bot.service.core import Core
from bot.service.preferences import Preferences
from bot.service.ratings import Rater
from bot.service.turns import Turns
from bot.timekeeping import Waits, clock_changes, game_timers
from storage.games import (
    GameChange,
    GameStatus,
    NewEntry,
    SeatHandover,
    StaleAsk,
    StaleVersion,
    TakebackAskChange,
    UndoChange,
    WrongStatus,
)
from storage.timekeeping import Timer, TimerPlan


class Writer:
    """Writes every change to a game, with its clocks and timers, in one transaction."""

    def __init__(self, core: Core, turns: Turns, preferences: Preferences, rater: Rater) -> None:
        self.core = core
        self.turns = turns
        self.preferences = preferences
        self.rater = rater

    async def write(
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
        leaves nothing behind: :class:`LostRace` (nothing was written; the
        cached game is dropped), which the caller may try once more on the
        game as it is now.  A write that ends the game rates it (with
        ``rated``) and tells the game-over hooks."""
        engine, now = game.engine, self.core.clock()
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
        # Issue 33: narration is kept as data (a message id and its
        # arguments), so each reader can have it in their language.
        entries = [replace(e, narration=encode(e.narration)) for e in entries]
        version = game.version + len(entries)
        after = after_seats(game.seats, seats or {}, handover)
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
        clocks, timers = await self.time_plan(draft, moved=moved, now=now)
        every = self.core.snapshot_every
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
            outcome=None if outcome is None else outcome.to_json(stored=True),
            seats=merged(seats or {}, clocks),
            handover=handover,
            pause=pause,
            timers=timers,
            undo=undo,
            ask=ask,
        )
        try:
            written = await self.core.store.commit(
                game.id, expected_version=game.version, change=change, now=now
            )
        except (StaleVersion, WrongStatus, StaleAsk) as exc:
            # Another process wrote between this one's look at storage and
            # its write (issue 20), or ended the game meanwhile: nothing was
            # written; the next load rebuilds the game from storage.
            self.core.cache.pop(game.id, None)
            raise LostRace(OUT_OF_DATE) from exc
        was_over = game.is_over
        game.record, game.seats, game.state = written.record, written.seats, new_state
        if outcome is not None:
            game.outcome = outcome
        if entries:
            game.remember(game.version, new_state)
        if written.timers_changed:
            self.core.timers_changed()
        if game.is_over and not was_over:
            if rated:
                # A result (the engine's, a resignation, a forfeit, a
                # verdict); a moderator's plain end is not one.
                await self.rater.rate(game)
            self.rater.game_over(game)

    async def time_plan(
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
        public, private = self.turns.owing(game)
        owing = public | private
        automatic = (
            {}
            if game.paused
            else {
                s: now + (self.turns.delay_of(game) if self.turns.waits_to_act(game, s) else 0.0)
                for s in self.turns.automatic_turn(game)
            }
        )
        # A throw held for a takeback (issue 31) is made by its timer; nobody
        # owes anything meanwhile, so no clock runs.
        throw_at = (
            now + self.core.throw_grace
            if not game.paused and self.turns.holds_chance(game) and game.record.status == "active"
            else None
        )
        away = await self.preferences.away_until(game) if owing else {}
        running = set() if game.paused else public - set(away)
        clocks = clock_changes(game.seats, rule=rule, running=running, moved=moved, now=now)
        if game.paused or (not owing and not automatic and throw_at is None):
            return clocks, no_timers
        waits = Waits(
            game_id=game.id,
            version=game.version,
            now=now,
            rule=rule,
            seats=after_seats(game.seats, clocks, None),
            public=public,
            private=private,
            away=away,
            reminders=await self.preferences.reminder_options(game, owing - set(away)),
            automatic=automatic,
            moved=moved,
            taken=self.core.taken.get(game.id),
            throw_at=throw_at,
        )
        return clocks, functools.partial(game_timers, waits)

    async def keep_time(self, game: LiveGame, *, moved: Seat | None = None) -> None:
        """Set the game's clocks and timers again for the decisions owed now
        (under the game's lock), if they are not what they should be: a
        write of its own, guarded by the version like any change, and made
        only when something changes.  A game that is over or not started
        has no timers."""
        if game.record.status != "active":
            if await self.core.timers.of_game(game.id):
                await self.core.timers.replace(game.id, [])  # nothing can change it any more
                self.core.timers_changed()
            return
        clocks, plan = await self.time_plan(game, moved=moved, now=self.core.clock())
        stored = sorted(await self.core.timers.of_game(game.id))
        if not clocks and sorted(plan(stored)) == stored:
            return
        await self.write(game, moved=moved)

    async def table_event(self, game: LiveGame, seat: Seat, what: str, narration: str) -> None:
        """Record something the table did (not a move) in the public log, in
        one write with the clocks and timers of the game as it is then."""
        await self.write(game, events=[event_entry(seat, what, narration)])

    @contextlib.asynccontextmanager
    async def taking(self, timer: Timer) -> AsyncIterator[None]:
        """Act on ``timer`` (under its game's lock), then delete it if it is
        still there (compare-and-delete: setting the game's timers again
        usually replaced it already).  Deleted after, not before: a process
        that dies meanwhile leaves the timer claimed, and another process
        fires it once the claim's lease runs out (issue 20); acting twice is
        impossible all the same, because what a timer does is a write
        guarded by the game's version, which the first acting changed."""
        self.core.taken[timer.game_id] = timer
        try:
            yield
        finally:
            self.core.taken.pop(timer.game_id, None)
        await self.core.timers.claim(timer)
