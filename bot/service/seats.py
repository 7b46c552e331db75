"""Seats changing hands: a player resigns or is removed (the game ends, or
the automatic player takes the seat), and a moderator hands a seat to
another person."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.core import Outcome, Seat, seat_tag
from bot.engines.messages import Msg
from bot.live import LiveGame, MoveResult, Player, ServiceError, StaleBoard
from bot.outgoing import safe_name
from bot.service.automatic import Automatic
from bot.service.common import OUT_OF_DATE, LostRace, event_entry
from bot.service.core import Core
from bot.service.games import Games
from bot.service.writer import Writer
from bot.tenure import LEFT, replaced_event
from storage.games import NewEntry, NotSeated, SeatHandover, SeatRecord, SeatTaken


class Seats:
    """A seat's player leaves, or hands the seat over."""

    def __init__(self, core: Core, writer: Writer, games: Games, automatic: Automatic) -> None:
        self.core = core
        self.writer = writer
        self.games = games
        self.automatic = automatic

    async def resign(self, game_id: int, user_id: int, *, moderator: bool = False) -> MoveResult:
        """A player leaves a running game.

        With two players the game ends, the resigner last.  With more, the
        seat passes to the automatic player and ranks last, and the others
        play on.  A moderator who is not playing may end a game for everyone
        (a draw).
        """

        async def act(game: LiveGame) -> MoveResult:
            if game.is_over:
                raise ServiceError(Msg("Game #{game} is already over.", game=game_id))
            seat = game.seat_of(user_id)
            if game.record.status == "lobby":
                raise ServiceError(
                    Msg("Game #{game} has not started; use /game leave.", game=game_id)
                )
            if seat is None and not moderator:
                raise ServiceError(Msg("You are not playing in game #{game}.", game=game_id))
            if seat is not None and game.is_auto(seat):
                raise ServiceError(Msg("You have already left game #{game}.", game=game_id))
            if seat is not None:
                return await self.seat_leaves(
                    game, seat, Msg("{player} resigned.", player=seat_tag(seat))
                )
            return await self.end_by_moderator(game)

        return await self.games.retrying(game_id, act)

    async def kick(self, game_id: int, target_user_id: int, *, moderator: bool) -> MoveResult:
        """A moderator removes a player who is gone: as if they resigned."""
        if not moderator:
            raise ServiceError(Msg("Only a moderator can remove a player from a game."))

        async def act(game: LiveGame) -> MoveResult:
            if game.is_over:
                raise ServiceError(Msg("Game #{game} is already over.", game=game_id))
            if game.record.status == "lobby":
                raise ServiceError(
                    Msg("Game #{game} has not started; players can still leave it.", game=game_id)
                )
            seat = game.seat_of(target_user_id)
            if seat is None:
                raise ServiceError(Msg("That player is not in game #{game}.", game=game_id))
            if game.is_auto(seat):
                raise ServiceError(
                    Msg(
                        "{name} has already left game #{game}.",
                        name=safe_name(game.names[seat]),
                        game=game_id,
                    )
                )
            return await self.seat_leaves(
                game,
                seat,
                Msg("A moderator removed {player} from the game.", player=seat_tag(seat)),
            )

        return await self.games.retrying(game_id, act)

    def replacement_refusal(
        self,
        game: LiveGame,
        seat: Seat | None,
        new_user_id: int,
        *,
        tournament: bool,
    ) -> str | None:
        """Why ``seat`` cannot be handed to ``new_user_id`` now (None: it can)."""
        if game.record.status == "lobby":
            return Msg(
                "Game #{game} has not started; players can still join or leave its lobby.",
                game=game.id,
            )
        if game.is_over or game.record.status != "active":
            return Msg("Game #{game} is over: its seats no longer change hands.", game=game.id)
        if tournament:
            return Msg(
                "Game #{game} is a tournament game, and a tournament seat belongs to its "
                "entrant: take a player out with /tournament drop instead.",
                game=game.id,
            )
        if seat is None:
            return Msg("That player is not in game #{game}.", game=game.id)
        taken = game.seat_of(new_user_id)
        if taken is not None:
            return Msg(
                "{name} already plays in game #{game}.",
                name=safe_name(game.names[taken]),
                game=game.id,
            )
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
            raise ServiceError(Msg("Only a moderator can hand a player's seat to someone else."))
        async with self.core.lock(game_id):
            game = await self.games.load(game_id)
            seat = game.seat_of(old_user_id)
            refusal = self.replacement_refusal(game, seat, new_user_id, tournament=tournament)
            if refusal is not None or seat is None:
                raise ServiceError(
                    refusal or Msg("That player is not in game #{game}.", game=game_id)
                )
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
                    Msg("This offer is out of date: that seat has changed hands since it was made.")
                )
            if game.is_over or game.record.status != "active":
                raise ServiceError(
                    Msg("This offer is out of date: game #{game} is over.", game=game_id)
                )
            if game.seat_of(new_player.user_id) is not None:
                raise ServiceError(Msg("You already play in game #{game}.", game=game_id))
            refusal = self.replacement_refusal(
                game, seat, new_player.user_id, tournament=tournament
            )
            if refusal is not None:
                raise ServiceError(refusal)
            old = game.seats[seat]
            # {pN} reads as the seat's player now (the new one); the old name
            # is written in, escaped, with braces doubled for the seat tags.
            was = safe_name(old.display_name).replace("{", "{{").replace("}", "}}")
            # The entry names who held the seat until now, so that who may
            # read the seat's secrets when can be told from the log (issue 29).
            if old.controller == "auto":
                said = Msg(
                    "A moderator handed over {was}'s seat: it is now played by {player} "
                    "instead of the automatic player.",
                    was=was,
                    player=seat_tag(seat),
                )
            else:
                said = Msg(
                    "A moderator handed over {was}'s seat: it is now played by {player}.",
                    was=was,
                    player=seat_tag(seat),
                )
            handed = event_entry(seat, replaced_event(old_user_id)[1:], said)
            handover = SeatHandover(seat, old_user_id, new_player.user_id, new_player.display_name)
            try:
                # The hand-over and its entry are one write: the new player
                # takes the seat with its clock and timers (a fresh reminder).
                await self.writer.write(game, events=(handed,), handover=handover)
            except (NotSeated, SeatTaken):
                self.core.cache.pop(game_id, None)
                raise LostRace(OUT_OF_DATE) from None
            result = MoveResult(
                game=game, before=game.state, steps=(), actor=None, version=game.version
            )
            await self.automatic.after_change(game, moved=None)
            return result, old

        try:
            return await self.games.retrying(game_id, act)
        except StaleBoard:
            raise ServiceError(
                Msg(
                    "This offer is out of date: the game changed while it was being accepted. "
                    "Ask a moderator for a new one."
                )
            ) from None

    async def seat_leaves(
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
                raise ServiceError(Msg("That seat has already left game #{game}.", game=game.id))
            others = frozenset(s for s in range(n) if s != seat)
            outcome = Outcome(
                ranking=(others, frozenset({seat})) if others else (frozenset({seat}),),
                scores=tuple(0 for _ in range(n)),
                reason=why,
            )
            return await self.abandon(game, outcome, actor=seat, events=events)
        order = 1 + max((s.left_order or 0) for s in game.seats)
        said = Msg("{why} The automatic player plays their seat from now on, ranked last.", why=why)
        await self.writer.write(
            game,
            events=[*events, event_entry(seat, LEFT[1:], said)],
            seats={seat: {"controller": "auto", "left_order": order, "clock_since": None}},
        )
        result = MoveResult(
            game=game, before=game.state, steps=(), actor=seat, version=game.version
        )
        await self.automatic.after_change(game, moved=None)
        return result

    async def end_by_moderator(self, game: LiveGame) -> MoveResult:
        n = len(game.seats)
        outcome = Outcome(
            ranking=(frozenset(range(n)),),
            scores=tuple(0 for _ in range(n)),
            reason=Msg("A moderator ended the game."),
        )
        return await self.abandon(game, outcome, actor=None)

    async def abandon(
        self,
        game: LiveGame,
        outcome: Outcome,
        actor: Seat | None,
        *,
        events: Sequence[NewEntry] = (),
    ) -> MoveResult:
        # A resignation or a forfeit is a result; a moderator's end is not.
        await self.writer.write(
            game, events=events, status="abandoned", outcome=outcome, rated=actor is not None
        )
        return MoveResult(game=game, before=game.state, steps=(), actor=actor, version=game.version)
