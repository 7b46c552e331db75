"""Timers falling due: a seat's clock (it times out, or its automatic
player's moment to act came), a throw held for a takeback, and reminders."""

from __future__ import annotations

from dataclasses import replace

from bot.engines.core import CHANCE, GameError, Seat, seat_tag
from bot.engines.messages import Msg
from bot.live import LiveGame, MoveResult, Reminder, StaleBoard
from bot.service.automatic import Automatic
from bot.service.common import FORFEIT_EVENT, THINK_LEASE, event_entry
from bot.service.core import Core
from bot.service.games import Games
from bot.service.moves import Moves
from bot.service.preferences import Preferences
from bot.service.seats import Seats
from bot.service.takebacks import Takebacks
from bot.service.turns import Turns
from bot.service.writer import Writer
from bot.timekeeping import MAX_TIMEOUTS_IN_A_ROW, clock_deadline, next_reminder
from storage.timekeeping import Timer


class Timeouts:
    """Handles the game timers that fall due: clocks, timeouts and reminders."""

    def __init__(
        self,
        core: Core,
        turns: Turns,
        preferences: Preferences,
        writer: Writer,
        games: Games,
        automatic: Automatic,
        takebacks: Takebacks,
        moves: Moves,
        seats: Seats,
    ) -> None:
        self.core = core
        self.turns = turns
        self.preferences = preferences
        self.writer = writer
        self.games = games
        self.automatic = automatic
        self.takebacks = takebacks
        self.moves = moves
        self.seats = seats

    async def clock_timer(self, timer: Timer) -> MoveResult | None:
        """A seat's clock timer fell due: time out, restart a clock after a
        vacation, or just set the timers right.  Returns a move to deliver."""
        async with self.core.lock(timer.game_id):
            try:
                game = await self.games.load(timer.game_id)
            except GameError:
                await self.core.timers.claim(timer)
                return None
            seat = timer.seat
            due = (
                not game.paused
                and timer.version == game.version
                and seat in self.turns.automatic_turn(game)
            )
            level = self.turns.level_of(game, seat) if due else "easy"
            if not due or level == "easy":
                if not await self.core.timers.holds(timer):
                    return None
                async with self.writer.taking(timer):
                    if due:
                        # An automatic seat's moment to act came (``auto_delay``).
                        return await self.automatic.auto_move(game, seat, by_human=False)
                    try:
                        return await self.on_clock(game, timer)
                    except StaleBoard:
                        # Another process changed the game between this
                        # one's look and its write (issue 20): the timer was
                        # set for a version that is gone.  Look again at the
                        # game as it is: its own timers are set right, and
                        # the seat's clock runs on under them.
                        game = await self.games.load(timer.game_id)
                        return await self.on_clock(game, timer)
            # A search takes up to a second: it runs outside the game's lock
            # (the players of a simultaneous phase may still act), and the
            # timer is kept as a lease, so a bot stopped mid-thought thinks
            # again after a restart instead of never moving.
            lease = replace(timer, due=self.core.clock() + THINK_LEASE)
            if not await self.core.timers.postpone(timer, lease.due):
                return None
            self.core.timers_changed()
            state, version, seed = game.state, game.version, int(self.core.draw() * 2**53)
        return await self.automatic.think_and_move(game, lease, state, version, level, seed)

    async def on_clock(self, game: LiveGame, timer: Timer) -> MoveResult | None:
        """The rest of :meth:`clock_timer`, under the game's lock."""
        seat = timer.seat
        if seat == CHANCE:
            # A throw held for a takeback: its moment came (issue 31).
            if game.paused or timer.version != game.version or not self.turns.holds_chance(game):
                await self.writer.keep_time(game, moved=None)
                return None
            return await self.takebacks.throw(game)
        public, private = self.turns.owing(game)
        if (
            game.paused
            or timer.version != game.version
            or seat not in public | private
            or await self.vacation_ended_at(game, seat, timer.due)
        ):
            await self.writer.keep_time(game, moved=None)
            return None
        if seat in public:
            deadline = clock_deadline(game.seats[seat], game.table.clock)
            if deadline is None or deadline - self.core.clock() > 0.5:
                await self.writer.keep_time(game, moved=None)
                return None
        return await self.time_out(game, seat, private=seat in private)

    async def vacation_ended_at(self, game: LiveGame, seat: Seat, due: float) -> bool:
        """Whether ``due`` is when the seat's player came back from a
        vacation (a clock timer set to start the clock again, not to end it)."""
        user = game.user_of(seat)
        vacations = await self.core.timers.vacations([user], since=due - 1.0)
        return any(abs(v.ends - due) < 1.0 for v in vacations)

    async def take_reminder(self, timer: Timer) -> Reminder | None:
        """A reminder timer fell due: what to send, or None (the seat no
        longer owes that decision, is away, or is in their quiet hours: the
        reminder then waits).  The timer is moved on to the next reminder
        (or removed) before anything is sent, so a crash can lose one
        reminder but never send one twice."""
        async with self.core.lock(timer.game_id):
            try:
                game = await self.games.load(timer.game_id)
            except GameError:
                await self.core.timers.claim(timer)
                return None
            seat = timer.seat
            public, private = self.turns.owing(game)
            if (
                timer.version != game.version
                or game.paused
                or seat not in public | private
                or seat in await self.preferences.away_until(game)
            ):
                # Void (an old wait, or a reminder from before reminders
                # were per seat): set the game's timers again.
                if await self.core.timers.claim(timer):
                    await self.writer.keep_time(game, moved=None)
                return None
            now = self.core.clock()
            later = await self.quiet_until(game, seat, now)
            if later > now:
                if await self.core.timers.postpone(timer, later):
                    self.core.timers_changed()
                return None
            rule = game.table.clock
            if seat in public:
                deadline = clock_deadline(game.seats[seat], rule)
            else:
                timers = await self.core.timers.of_game(game.id)
                clocks = [t.due for t in timers if (t.kind, t.seat) == ("clock", seat)]
                deadline = clocks[0] if clocks else None
            (how,) = (await self.preferences.reminder_options(game, [seat])).values()
            after = next_reminder(how, rule, after=timer.due, deadline=deadline)
            # Reminders missed while the bot was down are sent as one.
            while after is not None and after <= now:
                after = next_reminder(how, rule, after=after, deadline=deadline)
            if deadline is not None and deadline <= now:
                # The clock has run out: its timer tells the player, not this.
                await self.core.timers.claim(timer)
                return None
            if after is None:
                moved_on = await self.core.timers.claim(timer)
            else:
                moved_on = await self.core.timers.reschedule(timer, after)
            if not moved_on:
                return None
            self.core.timers_changed()
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

    async def quiet_until(self, game: LiveGame, seat: Seat, now: float) -> float:
        """When the seat's player may be reminded: ``now``, or when their
        quiet hours end (``/chaupal me quiet``)."""
        user = game.user_of(seat)
        own = (await self.preferences.notifications([user]))[user]
        return own.quiet_ends(now)

    async def time_out(self, game: LiveGame, seat: Seat, *, private: bool = False) -> MoveResult:
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
                action = await self.automatic.choose_for(game, seat, pad=True)
            result = await self.moves.commit_move(game, seat, action, by_human=False)
            return replace(result, timeout="private")
        streak = game.seats[seat].timeouts + 1
        if streak >= MAX_TIMEOUTS_IN_A_ROW:
            policy = "forfeit"  # a vanished player does not hold the game up for ever
        if policy == "forfeit":
            # One write with the seat's leaving, as for a timeout's move.
            forfeit = event_entry(seat, FORFEIT_EVENT[1:], "")
            result = await self.seats.seat_leaves(
                game, seat, Msg("{player} ran out of time.", player=name), events=(forfeit,)
            )
            return replace(result, timeout="lost" if game.is_over else "seat")
        skip = policy == "skip" and "pass" in texts
        if skip:
            said = Msg(
                "{player} ran out of time and passes (timeout {streak} of {most} in a row "
                "before the seat is forfeited).",
                player=name,
                streak=streak,
                most=MAX_TIMEOUTS_IN_A_ROW,
            )
        else:
            said = Msg(
                "{player} ran out of time; the automatic player makes this move for them "
                "(timeout {streak} of {most} in a row before the seat is forfeited).",
                player=name,
                streak=streak,
                most=MAX_TIMEOUTS_IN_A_ROW,
            )
        action = texts["pass"] if skip else await self.automatic.choose_for(game, seat, pad=True)
        # The timeout and the move made for it are one write: a process
        # killed between two writes left the timeout without its move, and
        # the seat, its clock still spent, timed out again after the restart
        # (the load test).  The version guards it: a timeout that lost the
        # race to another process's write (issue 20) is not written, nor
        # counted in the streak, which is set after.
        event = event_entry(seat, "timeout", said)
        result = await self.moves.commit_move(
            game, seat, action, by_human=False, event=event, seats={seat: {"timeouts": streak}}
        )
        return replace(result, timeout="skip" if skip else "substitute")
