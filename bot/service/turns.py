"""Who is to act in a game, and how: the seats that owe a decision (in
public or in private), the automatic seats the game waits on and when they
act, the texts of a seat's legal actions and how its menus split them.
Read-only: nothing here writes."""

from __future__ import annotations

from collections.abc import Callable

from bot.engines.core import CHANCE, Seat, owed_decisions
from bot.engines.messages import Msg
from bot.levels import Level
from bot.live import LiveGame, ServiceError
from bot.service.common import SOLO_AUTO_DELAY, menu_words_of
from bot.service.core import Core


class Turns:
    """Who owes the game what now (read-only)."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def seat_for(self, game: LiveGame, user_id: int) -> Seat:
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError(Msg("You are not playing in game #{game}.", game=game.id))
        return seat

    def legal_texts(self, game: LiveGame, seat: Seat) -> list[str]:
        if game.state is None or game.is_over or seat not in game.engine.to_move(game.state):
            return []
        engine, state = game.engine, game.state
        return [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]

    def menu_words(self, game: LiveGame, seat: Seat) -> Callable[[str], tuple[str, ...]]:
        """How this game's action texts split into menu levels."""
        return menu_words_of(game.engine, game.state, seat)

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

    def held_up_by(self, game: LiveGame) -> frozenset[Seat]:
        """The human seats a running game is publicly waiting on
        (``waiting_on``; a seat that already committed is not in it).  Seats
        owing a decision asked privately are left out: naming them, or
        forfeiting them in public, would tell everyone who was asked (who
        holds a complete Pati in Mahabharata), so, as when their clock runs
        out, the automatic player decides for them quietly."""
        public, _private = self.owing(game)
        return public

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
        return self.core.auto_delay > 0 and game.seats[seat].automatic_player

    def delay_of(self, game: LiveGame) -> float:
        """How long a lobby's automatic player waits before it acts: the
        table's readers need ``auto_delay`` between boards; a person alone
        with automatic seats reads one board when it is their turn again
        (:data:`SOLO_AUTO_DELAY`, never more than ``auto_delay``)."""
        if game.solo:
            return min(self.core.auto_delay, SOLO_AUTO_DELAY)
        return self.core.auto_delay

    def level_of(self, game: LiveGame, seat: Seat) -> Level:
        """How strong the automatic player of ``seat`` is: a lobby's automatic
        players play at the table's ``level``; a seat a person left, or a
        timeout's move, at its ``substitute`` level."""
        if 0 <= seat < len(game.seats) and game.seats[seat].automatic_player:
            return game.table.level
        return game.table.substitute

    def holds_chance(self, game: LiveGame) -> bool:
        """Chance is to move and nobody else: a throw held for a takeback
        (or, left by a crash, one ``Games.load`` draws at once)."""
        return (
            game.state is not None
            and not game.is_over
            and game.engine.to_move(game.state) == frozenset({CHANCE})
        )
