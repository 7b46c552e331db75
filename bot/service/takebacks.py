"""Taking a move back (issue 31): at once while nothing happened since, with
every other person's agreement after others acted, never across chance or
a reveal; and the throw held for a takeback, made when its timer falls due."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engines.core import CHANCE, Seat, resolve_chance, seat_tag
from bot.engines.messages import Msg, Plural, decode
from bot.live import GameBroken, LiveGame, MoveResult, ServiceError, StaleBoard, TakebackRequest
from bot.outgoing import safe_name
from bot.service.automatic import Automatic
from bot.service.common import TABLE_EVENT, event_entry, reveal_seed
from bot.service.core import Core
from bot.service.games import Games
from bot.service.preferences import Preferences
from bot.service.turns import Turns
from bot.service.writer import Writer
from bot.takeback import in_effect, restored_clocks, reveals, takeback_event
from storage.games import LogEntry, TakebackAsk, TakebackAskChange, UndoChange, UndoPoint


class Takebacks:
    """Takes moves back, and makes the throws held for a takeback."""

    def __init__(
        self,
        core: Core,
        turns: Turns,
        preferences: Preferences,
        writer: Writer,
        games: Games,
        automatic: Automatic,
    ) -> None:
        self.core = core
        self.turns = turns
        self.preferences = preferences
        self.writer = writer
        self.games = games
        self.automatic = automatic

    async def throw(self, game: LiveGame, *, settle: bool = True) -> MoveResult:
        """Make the chance a game holds for a takeback (under its lock): its
        own write, then the automatic seats due to act."""
        before = game.state
        state, steps = resolve_chance(game.engine, before, self.core.draw)
        await self.writer.write(game, state=state, steps=steps)
        result = MoveResult(
            game=game, before=before, steps=tuple(steps), actor=None, version=game.version
        )
        if settle:
            await self.automatic.after_change(game, moved=None)
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
            seat = self.taking_back_seat(game, user_id)
            plan = await self.takeback_plan(game, seat, user_id)
            if target is not None and plan.target != target:
                raise ServiceError(
                    Msg(
                        "That is no longer your last move, so it stays. /game takeback takes "
                        "back your last one."
                    )
                )
            if not plan.asked:
                return await self.take_back_now(game, plan, ask=None)
            stored = await self.core.store.takeback_ask(game.id)
            current = stored if stored is not None and stored.version == game.version else None
            if current is not None and current.seat != seat:
                raise ServiceError(
                    Msg(
                        "{name} asked to take back a move first: that request holds until it "
                        "is answered or someone moves.",
                        name=safe_name(game.names[current.seat]),
                    )
                )
            if current is not None and current.target == plan.target:
                return plan.request(game, current.agreed, new=False)
            ask = TakebackAsk(seat, plan.target, game.version, frozenset(), self.core.clock())
            await self.writer.write(game, ask=TakebackAskChange(expected=stored, new=ask))
            return plan.request(game, frozenset(), new=True)

        return await self.games.retrying(game_id, act)

    async def answer_takeback(
        self, game_id: int, user_id: int, version: int, *, agree: bool
    ) -> MoveResult | TakebackRequest:
        """Another player agrees to a takeback request, or declines it.  The
        last agreement takes the move back, in the same write as the
        request's end; a refusal ends the request.  A request the game has
        moved on from (any action since it was made) is out of date."""

        async def act(game: LiveGame) -> MoveResult | TakebackRequest:
            stored = await self.core.store.takeback_ask(game.id)
            if game.is_over:
                raise ServiceError(Msg("Game #{game} is over: its moves stand.", game=game.id))
            if stored is None or stored.version != game.version or version != stored.version:
                raise StaleBoard(
                    Msg(
                        "This request is out of date: the game has moved on since it was made, "
                        "so nothing was taken back."
                    )
                )
            seat = game.seat_of(user_id)
            if seat == stored.seat:
                raise ServiceError(Msg("You asked for this takeback: the other players answer it."))
            asker = game.holder(stored.seat)
            if asker is None:
                raise StaleBoard(Msg("This request is out of date: its player has left the seat."))
            plan = await self.takeback_plan(game, stored.seat, asker)
            if seat is None or seat not in plan.asked or plan.target != stored.target:
                raise ServiceError(
                    Msg("Only the other players of game #{game} answer this request.", game=game.id)
                )
            if not agree:
                await self.writer.write(game, ask=TakebackAskChange(expected=stored, new=None))
                return replace(plan.request(game, stored.agreed, new=False), declined_by=seat)
            agreed = stored.agreed | {seat}
            if plan.asked <= agreed:
                return await self.take_back_now(
                    game, plan, ask=TakebackAskChange(expected=stored, new=None)
                )
            await self.writer.write(
                game, ask=TakebackAskChange(expected=stored, new=replace(stored, agreed=agreed))
            )
            return plan.request(game, agreed, new=False)

        return await self.games.retrying(game_id, act)

    def taking_back_seat(self, game: LiveGame, user_id: int) -> Seat:
        """The seat whose move ``user_id`` may ask to take back, or why not."""
        if game.record.status == "lobby":
            raise ServiceError(Msg("Game #{game} has not started yet.", game=game.id))
        if game.is_over:
            raise ServiceError(Msg("Game #{game} is over: its moves stand.", game=game.id))
        seat = self.turns.seat_for(game, user_id)
        if game.is_auto(seat):
            raise ServiceError(
                Msg("You left game #{game}; the automatic player has your seat now.", game=game.id)
            )
        return seat

    async def takeback_plan(self, game: LiveGame, seat: Seat, user_id: int) -> _TakebackPlan:
        """What taking back ``seat``'s last move would do, or a
        :class:`ServiceError` saying exactly why it may not be taken back."""
        if game.paused:
            raise ServiceError(
                Msg("Game #{game} is paused: nothing is taken back meanwhile.", game=game.id)
            )
        if not game.table.takeback:
            raise ServiceError(
                Msg("Game #{game} takes no move back (its table says `takeback=no`).", game=game.id)
            )
        if not await self.preferences.takebacks_allowed(game):
            raise ServiceError(
                Msg("Takebacks are turned off on this server (`/moderate settings takeback`).")
            )
        engine = game.engine
        log_entries = await self.core.store.log(game.id, up_to=game.version)
        standing = in_effect(log_entries)
        mine = [
            i
            for i, e in enumerate(standing)
            if e.actor == seat and not e.action.startswith(TABLE_EVENT)
        ]
        if not mine:
            raise ServiceError(Msg("You have no move in game #{game} to take back.", game=game.id))
        at = mine[-1]
        move, since = standing[at], standing[at + 1 :]
        drawn = next(
            (e for e in since if e.actor == CHANCE and not e.action.startswith(TABLE_EVENT)), None
        )
        if drawn is not None:
            if drawn.narration:
                raise ServiceError(
                    Msg(
                        "Your last move stands: chance followed it ({what}), and a takeback "
                        "never undoes a throw, a draw or a reveal.",
                        what=decode(drawn.narration),
                    )
                )
            raise ServiceError(
                Msg(
                    "Your last move stands: chance followed it, and a takeback never undoes "
                    "a throw, a draw or a reveal."
                )
            )
        if not move.narration:
            raise ServiceError(
                Msg(
                    "Your last move was a decision the table was not told about: taking it "
                    "back would tell everyone, so it stands."
                )
            )
        target = move.seq - 1
        points = await self.core.store.undo_points(game.id)
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
            before = await self.games.state_at(game, made.seq - 1)
            after = await self.games.state_at(game, made.seq)
            if before is None or after is None:
                raise GameBroken(
                    Msg("Game #{game} could not be rebuilt to take a move back.", game=game.id)
                )
            if reveals(
                engine, before, made.actor, made.action, after, reveal_seed(game.id, made.seq - 1)
            ):
                what = decode(made.narration) or Msg("a reveal")
                if made is move:
                    raise ServiceError(
                        Msg(
                            "Your last move showed hidden information ({what}), and a "
                            "takeback never undoes a reveal: your move stands.",
                            what=what,
                        )
                    )
                raise ServiceError(
                    Msg(
                        "A move made since yours showed hidden information ({what}), and a "
                        "takeback never undoes a reveal: your move stands.",
                        what=what,
                    )
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

    async def take_back_now(
        self, game: LiveGame, plan: _TakebackPlan, *, ask: TakebackAskChange | None
    ) -> MoveResult:
        """Take the move back (under the game's lock): one write of the
        ``@takeback`` entry with the state of its version, a snapshot there,
        the clocks restored, the undo points it consumed and the timers."""
        state = await self.games.state_at(game, plan.target)
        if state is None:
            raise GameBroken(
                Msg("Game #{game} could not be rebuilt to take a move back.", game=game.id)
            )
        before = game.state
        now = self.core.clock()
        clocks = restored_clocks(
            game.seats,
            plan.point,
            moved_at=plan.move.created_at,
            rule=game.table.clock,
            now=now,
        )
        tag = seat_tag(plan.seat)
        undone = decode(plan.move.narration)
        if plan.asked and plan.undoes:
            said: str = Plural(
                "{player} took back a move, with everyone's agreement; {n} move made since "
                "undone too: {move}",
                "{player} took back a move, with everyone's agreement; {n} moves made since "
                "undone too: {move}",
                plan.undoes,
                player=tag,
                move=undone,
            )
        elif plan.asked:
            said = Msg(
                "{player} took back a move, with everyone's agreement: {move}",
                player=tag,
                move=undone,
            )
        else:
            said = Msg("{player} took back their last move: {move}", player=tag, move=undone)
        entry = event_entry(plan.seat, takeback_event(plan.target)[1:], said)
        await self.writer.write(
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
            undone=decode(plan.move.narration),
        )
        await self.automatic.after_change(game, moved=None)
        return result


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

    def request(self, game: LiveGame, agreed: frozenset[Seat], *, new: bool) -> TakebackRequest:
        return TakebackRequest(
            game=game,
            seat=self.seat,
            target=self.target,
            version=game.version,
            asked=self.asked,
            agreed=agreed & self.asked,
            move=decode(self.move.narration),
            undoes=self.undoes,
            new=new,
        )


def _not_yours(
    before: Sequence[LogEntry], move: LogEntry, point: UndoPoint | None, user_id: int
) -> str:
    """Why a seat's last move has no undo point of its holder's."""
    if before and before[-1].action == f"{TABLE_EVENT}timeout" and before[-1].actor == move.actor:
        return Msg(
            "Your last move was made for you when your time ran out, so it is not yours to "
            "take back."
        )
    if point is not None and point.user_id != user_id:
        return Msg("Your seat's last move was made before you took the seat over: it stands.")
    return Msg(
        "Your last move cannot be taken back: it was made when takebacks were not allowed "
        "in this game."
    )
