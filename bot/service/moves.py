"""A person's move: its text or a menu path (rebased onto the current state
for menus in DMs), checked, applied with the chance it brings and written
in one write, tried once more when another process's write won the race."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.choices import StaleChoice, follow, locate, trail
from bot.engines.core import CHANCE, NotYourTurn, Seat, Step, apply_step, resolve_chance
from bot.engines.messages import Msg
from bot.live import LiveGame, MoveResult, PathResult, ServiceError, StaleBoard
from bot.outgoing import safe_name
from bot.service.automatic import Automatic
from bot.service.common import (
    HELD_CHANCE,
    OUT_OF_DATE,
    RETRIES_AFTER_RACE,
    LostRace,
    menu_words_of,
    reveal_seed,
)
from bot.service.core import Core
from bot.service.games import Games
from bot.service.preferences import Preferences
from bot.service.turns import Turns
from bot.service.writer import Writer
from bot.takeback import reveals
from storage.games import NewEntry, UndoChange, UndoPoint


class Moves:
    """Applies and writes the moves people make."""

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

    async def play(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
    ) -> MoveResult:
        """Apply one player's action given in its text form."""
        async with self.core.lock(game_id):
            for attempt in range(RETRIES_AFTER_RACE + 1):
                game = await self.games.load(game_id)
                seat = self.check_can_act(game, user_id, expected_version)
                engine, before = game.engine, game.state
                action = engine.parse(before, seat, text)
                try:
                    return await self.commit_move(game, seat, action)
                except LostRace:
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
        async with self.core.lock(game_id):
            drawn = path
            for attempt in range(RETRIES_AFTER_RACE + 1):
                game = await self.games.load(game_id)
                seat = self.check_can_act(game, user_id, None if rebase else expected_version)
                path = drawn
                if expected_version != game.version:
                    path = await self.rebase(game, seat, expected_version, path)
                texts = self.turns.legal_texts(game, seat)
                try:
                    chosen, options, depth = follow(texts, path, self.turns.menu_words(game, seat))
                except StaleChoice as exc:
                    said = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                    raise StaleBoard(said) from None
                if chosen is None:
                    return PathResult(None, options, path, game.version, depth)
                action = game.engine.parse(game.state, seat, chosen)
                try:
                    result = await self.commit_move(game, seat, action)
                except LostRace:
                    if attempt == RETRIES_AFTER_RACE:
                        raise StaleBoard(OUT_OF_DATE) from None
                    continue
                return PathResult(result, [], path, result.version)
            raise AssertionError("unreachable")

    async def rebase(
        self, game: LiveGame, seat: Seat, version: int, path: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The current path that picks what ``path`` picked at ``version``."""
        stale = StaleBoard(Msg("That choice is no longer on offer."))
        if not path:
            return path
        if version > game.version:
            raise stale
        engine = game.engine
        then = await self.games.state_at(game, version)
        if then is None or seat not in engine.to_move(then):
            raise stale
        then_texts = [engine.describe(then, seat, a) for a in engine.legal_actions(then, seat)]
        now_texts = self.turns.legal_texts(game, seat)
        try:
            picked = trail(then_texts, path, menu_words_of(engine, then, seat))
            rebased = locate(now_texts, picked, self.turns.menu_words(game, seat))
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

    def check_can_act(self, game: LiveGame, user_id: int, expected_version: int | None) -> Seat:
        if game.record.status == "lobby":
            raise ServiceError(Msg("Game #{game} has not started yet.", game=game.id))
        if game.is_over:
            raise ServiceError(Msg("Game #{game} is over.", game=game.id))
        seat = self.turns.seat_for(game, user_id)
        if game.is_auto(seat):
            raise ServiceError(
                Msg("You left game #{game}; the automatic player has your seat now.", game=game.id)
            )
        if expected_version is not None and expected_version != game.version:
            raise StaleBoard(OUT_OF_DATE)
        if seat not in game.engine.to_move(game.state):
            if game.engine.to_move(game.state) == frozenset({CHANCE}):
                raise NotYourTurn(HELD_CHANCE)
            waiting = game.engine.waiting_on(game.state)
            if waiting:
                names = ", ".join(safe_name(game.names[s]) for s in sorted(waiting))
                raise NotYourTurn(Msg("It is not your turn: waiting for {names}.", names=names))
            raise NotYourTurn(Msg("It is not your turn."))
        return seat

    async def commit_move(
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
        allowed = person and await self.preferences.takebacks_allowed(game)
        chance_follows = engine.to_move(state) == frozenset({CHANCE})
        # Not at a person's table with automatic seats: their boards flow
        # (issue 30: a wait of 3 s at most between the person's decisions),
        # which a held throw after each of their turns would undo.
        holdable = self.core.throw_grace > 0 and not game.solo
        undoable = (
            allowed
            and bool(step.narration)
            and engine.outcome(state) is None
            and (holdable or not chance_follows)
            and not reveals(engine, before, seat, step.text, state, reveal_seed(game.id, version))
        )
        hold = undoable and chance_follows
        chance_steps: list[Step] = []
        if not hold:
            state, chance_steps = resolve_chance(engine, state, self.core.draw)
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
        await self.writer.write(
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
            takeback_until=self.core.clock() + self.core.throw_grace if hold else None,
        )
        await self.automatic.after_change(game, moved=seat)
        if game.version != written:
            # Automatic seats moved at once after it: whether it may still be
            # taken back, and with whose agreement, is for /game takeback.
            result = replace(result, takeback=None, takeback_until=None)
        return result
