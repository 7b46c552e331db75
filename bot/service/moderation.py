"""A moderator's and a tournament's say over a running game: ending it (with
a verdict, without a result, or one that cannot be restored), a round's
deadline, pausing and resuming."""

from __future__ import annotations

import logging

from bot.engines.core import CHANCE, Outcome, progress_seat, seat_tag
from bot.engines.messages import Msg
from bot.live import LiveGame, MoveResult, ServiceError, StaleBoard
from bot.service.automatic import Automatic
from bot.service.common import (
    AUTO_MOVES_LIMIT,
    FORFEIT_EVENT,
    OUT_OF_DATE,
    RETRIES_AFTER_RACE,
    event_entry,
    no_timers,
)
from bot.service.core import Core
from bot.service.games import Games
from bot.service.seats import Seats
from bot.service.takebacks import Takebacks
from bot.service.turns import Turns
from bot.service.writer import Writer
from storage.games import GameChange, StaleVersion, WrongStatus

log = logging.getLogger(__name__)


class Moderation:
    """Ends, settles, pauses and resumes running games."""

    def __init__(
        self,
        core: Core,
        turns: Turns,
        writer: Writer,
        games: Games,
        automatic: Automatic,
        takebacks: Takebacks,
        seats: Seats,
    ) -> None:
        self.core = core
        self.turns = turns
        self.writer = writer
        self.games = games
        self.automatic = automatic
        self.takebacks = takebacks
        self.seats = seats

    async def end_broken(self, game_id: int) -> None:
        """A moderator ends a game that can no longer be restored (a broken
        log or snapshot): abandoned without a result, its timers cleared.
        Nothing is replayed, so nothing broken is read; the write is guarded
        by the version read with it, like every change."""
        async with self.core.lock(game_id):
            for attempt in range(RETRIES_AFTER_RACE + 1):
                read = await self.core.store.game_with_seats(game_id)
                if read is None:
                    raise ServiceError(Msg("There is no game #{game}.", game=game_id))
                record, seats = read
                if record.status in ("finished", "abandoned"):
                    raise ServiceError(Msg("Game #{game} is already over.", game=game_id))
                n = len(seats)
                outcome = Outcome(
                    ranking=(frozenset(range(n)),),
                    scores=tuple(0 for _ in range(n)),
                    reason=Msg("A moderator ended the game: it could not be restored."),
                )
                change = GameChange(
                    status="abandoned", outcome=outcome.to_json(stored=True), timers=no_timers
                )
                try:
                    await self.core.store.commit(
                        game_id,
                        expected_version=record.version,
                        change=change,
                        now=self.core.clock(),
                    )
                except (StaleVersion, WrongStatus):
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
                    continue
                break
            self.core.cache.pop(game_id, None)
            self.core.timers_changed()

    async def end(self, game_id: int) -> MoveResult:
        """End a running game for everyone without a result (a tournament's
        moderator adjudicated it, or ended the tournament)."""

        async def act(game: LiveGame) -> MoveResult:
            self.require_unfinished(game)
            return await self.seats.end_by_moderator(game)

        return await self.games.retrying(game_id, act)

    async def settle_at_deadline(self, game_id: int, *, forfeit: bool) -> MoveResult | None:
        """A tournament round's deadline passed with this game still running.

        With ``forfeit`` the seats holding the game up (``Turns.held_up_by``)
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
                held = sorted(self.turns.held_up_by(game))
                humans = [s.seat for s in game.seats if not game.is_auto(s.seat)]
                # The marker tournaments count (two in a row drop a player).
                forfeits = [event_entry(seat, FORFEIT_EVENT[1:], "") for seat in held]
                if held and len(humans) > 1 and set(humans) <= set(held):
                    departed = sorted(
                        (s for s in game.seats if s.left_order is not None),
                        key=lambda s: -(s.left_order or 0),
                    )
                    outcome = Outcome(
                        ranking=(frozenset(held), *(frozenset({s.seat}) for s in departed)),
                        scores=tuple(0 for _ in game.seats),
                        reason=Msg("Time ran out for every player at the round's deadline."),
                    )
                    return await self.seats.abandon(game, outcome, actor=held[0], events=forfeits)
                for seat, marker in zip(held, forfeits, strict=True):
                    if game.is_over:
                        break
                    # Each seat's loss on time is one write with its marker.
                    result = await self.seats.seat_leaves(
                        game,
                        seat,
                        Msg(
                            "{player} lost on time at the round's deadline.",
                            player=seat_tag(seat),
                        ),
                        events=(marker,),
                    )
                if game.is_over:
                    return result
            await self.writer.table_event(
                game,
                CHANCE,
                "deadline",
                Msg(
                    "The round's deadline passed: the automatic player plays the rest of the "
                    "game for everyone."
                ),
            )
            before = game.state
            for _ in range(AUTO_MOVES_LIMIT):
                if game.is_over or game.state is None:
                    break
                if self.turns.holds_chance(game):
                    await self.takebacks.throw(game, settle=False)  # held for a takeback: made now
                    continue
                seat = progress_seat(game.engine, game.state)
                # A whole game's rest at once: the baseline, not a search.
                await self.automatic.auto_move(
                    game, seat, by_human=False, settle=False, level="easy"
                )
            else:
                log.error("game %d: the automatic players did not finish it", game.id)
            await self.automatic.after_change(game, moved=None)
            return MoveResult(game=game, before=before, steps=(), actor=None, version=game.version)

        return await self.games.retrying(game_id, act)

    async def end_with_result(
        self, game_id: int, places: tuple[int, ...], reason: str
    ) -> MoveResult:
        """End a running game with a moderator's verdict: ``places`` per seat
        (1 best, equal places tie).  Unlike :meth:`end` this is a result, so
        the game is rated (once: the rating store refuses a second time)."""

        async def act(game: LiveGame) -> MoveResult:
            self.require_unfinished(game)
            if len(places) != len(game.seats):
                raise ServiceError(
                    Msg("Game #{game} has {seats} seats.", game=game_id, seats=len(game.seats))
                )
            outcome = Outcome(
                ranking=tuple(
                    frozenset(s for s, p in enumerate(places) if p == place)
                    for place in sorted(set(places))
                ),
                scores=tuple(0 for _ in game.seats),
                reason=reason,
            )
            await self.writer.write(game, status="abandoned", outcome=outcome)
            return MoveResult(
                game=game, before=game.state, steps=(), actor=None, version=game.version
            )

        return await self.games.retrying(game_id, act)

    async def pause(self, game_id: int, user_id: int, *, moderator: bool) -> LiveGame:
        if not moderator:
            raise ServiceError(Msg("Only a moderator can pause a game."))

        async def act(game: LiveGame) -> LiveGame:
            self.require_running(game)
            if game.paused:
                raise ServiceError(Msg("Game #{game} is already paused.", game=game_id))
            # The pause, its entry, the clocks stopped and the timers cleared: one write.
            await self.writer.write(
                game,
                events=[
                    event_entry(
                        CHANCE,
                        "pause",
                        Msg("A moderator paused the game: the clocks are stopped."),
                    )
                ],
                pause=(self.core.clock(),),
            )
            return game

        return await self.games.retrying(game_id, act)

    async def resume(self, game_id: int, user_id: int, *, moderator: bool) -> LiveGame:
        if not moderator:
            raise ServiceError(Msg("Only a moderator can resume a game."))

        async def act(game: LiveGame) -> LiveGame:
            self.require_running(game)
            if not game.paused:
                raise ServiceError(Msg("Game #{game} is not paused.", game=game_id))
            await self.writer.write(
                game,
                events=[
                    event_entry(
                        CHANCE,
                        "resume",
                        Msg("A moderator resumed the game: the clocks run again."),
                    )
                ],
                pause=(None,),
            )
            await self.automatic.after_change(game, moved=None)
            return game

        return await self.games.retrying(game_id, act)

    def require_running(self, game: LiveGame) -> None:
        if game.record.status == "lobby":
            raise ServiceError(Msg("Game #{game} has not started yet.", game=game.id))
        if game.is_over:
            raise ServiceError(Msg("Game #{game} is over.", game=game.id))

    def require_unfinished(self, game: LiveGame) -> None:
        """A game a moderator may still end: started and not over."""
        if game.is_over:
            raise ServiceError(Msg("Game #{game} is already over.", game=game.id))
        if game.record.status == "lobby":
            raise ServiceError(Msg("Game #{game} has not started.", game=game.id))
