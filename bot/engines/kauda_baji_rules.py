"""Kauda Baji's rules (R1-R18, ``docs/rules/kauda_baji.md``): the set-up,
whose turn it is, the legal actions and the shells' odds, applying a throw
or a move (kills, extra throws, the end of a turn) and the final places.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from bot.engines.core import (
    CHANCE,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    joined,
    resolve_options,
    seat_tag,
)
from bot.engines.kauda_baji_board import (
    _THROW_ODDS,
    CENTRE_STEP,
    EXTRA_THROW,
    FIRST,
    MOVE,
    OVER,
    ROUTES,
    SAFE,
    SEATINGS,
    SIZE_WORDS,
    STEP_OF,
    THROW,
    THROW_VALUES,
    square_name,
)
from bot.engines.kauda_baji_moves import (
    _at,
    _canonical,
    _legal,
    _legal_of,
    _Played,
    _squares_of,
    _values_text,
)
from bot.engines.kauda_baji_state import (
    _LEGAL,
    Forfeit,
    KaudaBajiAction,
    KaudaBajiState,
    Move,
    Stack,
    Throw,
    _made,
    _replace,
    _seat,
    _with,
)
from bot.engines.messages import Msg, Plural

_CHANCE_SET: Final = frozenset({CHANCE})
_ONLY: Final = tuple(frozenset({p}) for p in range(4))
_TAGS: Final = tuple(seat_tag(p) for p in range(4))
_NOBODY: Final[frozenset[Seat]] = frozenset()
_MOVERS: Final[Mapping[str, frozenset[Seat]]] = {
    FIRST: _CHANCE_SET,
    THROW: _CHANCE_SET,
    OVER: _NOBODY,
}
"""Who moves in each phase but the move phase (the player to move) and
nobody in any other."""
_THROW_OUTCOMES: Final = tuple((Throw(v), p) for v, p in _THROW_ODDS)
"""R5 as chance outcomes, built once: the same objects every throw."""
_THROW_VALUE_SET: Final = frozenset(THROW_VALUES)
_TURN_OVER: Final[Mapping[str, Any]] = {"bank": (), "run": 0, "bonus": False, "pending": 0}
"""What a turn's end clears (R6, R16)."""
_SQUARE_SETS: Final = tuple(frozenset({sq}) for sq in range(49))
_THROW_NEWS: Final = tuple(
    {v: Msg("{player} throws {value}.", player=tag, value=v) for v in THROW_VALUES} for tag in _TAGS
)
"""Each player's news of an ordinary throw, written once."""
_OPPONENTS: Final = {
    n: tuple(tuple((q, seating[q]) for q in range(n) if q != p) for p in range(n))
    for n, seating in SEATINGS.items()
}
"""Per player count and player, the other players and their seats (R12)."""


# --------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------


class KaudaBajiRules:
    """What the rules allow and what an action does: the set-up, whose turn
    it is, the legal actions, throws and moves, and the outcome.
    :class:`~bot.engines.kauda_baji.KaudaBajiEngine` adds the text."""

    name: str = "kauda_baji"
    title: str = "Kauda Baji"
    revision: int = 1
    min_players: int = 2
    max_players: int = 4

    def __init__(self) -> None:
        self.options: Mapping[str, Option] = {
            "pieces": Option(6, Msg("R4: pieces per player"), low=1, high=6),
            "markut": Option(True, Msg("R15: arrow 1 opens only after the player's first kill")),
            "kill_bonus": Option(True, Msg("R16: an extra throw for each tuple killed")),
            "multi_opponent_combat": Option(
                "none",
                Msg(
                    "R14: with two or more opponents on a square, none kills nothing; "
                    "pairwise settles each opponent as with one"
                ),
                choices=("none", "pairwise"),
            ),
            "play_to_end": Option(
                True, Msg("R18: play on for every place (no: stop at the first)")
            ),
        }

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> KaudaBajiState:
        if not isinstance(num_players, int) or not 2 <= num_players <= 4:
            raise InvalidOptions(Msg("Kauda Baji is a game for 2, 3 or 4 players."))
        opts = resolve_options(self, options)
        pieces = opts["pieces"]
        return KaudaBajiState(
            num_players=num_players,
            pieces=pieces,
            markut=opts["markut"],
            kill_bonus=opts["kill_bonus"],
            pairwise=opts["multi_opponent_combat"] == "pairwise",
            play_to_end=opts["play_to_end"],
            phase=FIRST,
            turn=-1,
            stacks=tuple(((0, 1),) * pieces for _ in range(num_players)),
            occupied=tuple(
                frozenset({ROUTES[seat][0]}) for seat in SEATINGS[num_players][:num_players]
            ),
            home=(0,) * num_players,
            killed=(False,) * num_players,
            bank=(),
            run=0,
            bonus=False,
            pending=0,
            contenders=tuple(range(num_players)),
            first_throws=(),
            places=(),
            last=None,
            news="",
        )

    # ----- whose turn -------------------------------------------------------

    def to_move(self, state: KaudaBajiState) -> frozenset[Seat]:
        phase = state.phase
        if phase == MOVE:
            return _ONLY[state.turn]
        return _MOVERS.get(phase, _NOBODY)

    def waiting_on(self, state: KaudaBajiState) -> frozenset[Seat]:
        return _ONLY[state.turn] if state.phase == MOVE else _NOBODY

    def choices_are_public(self, state: KaudaBajiState, seat: Seat) -> bool:
        """Nothing is hidden (rules, "Hidden information")."""
        return True

    # ----- legal actions ----------------------------------------------------

    def chance_outcomes(self, state: KaudaBajiState) -> list[tuple[KaudaBajiAction, Fraction]]:
        if state.phase in (FIRST, THROW):
            return list(_THROW_OUTCOMES)
        return []

    def legal_actions(self, state: KaudaBajiState, seat: Seat) -> list[KaudaBajiAction]:
        if state.phase == MOVE and seat == state.turn:
            return list((state.__dict__.get(_LEGAL) or _legal(state)).actions)
        if seat not in self.to_move(state):
            return []
        if seat == CHANCE:
            return [throw for throw, _ in _THROW_OUTCOMES]
        return list(_legal(state).actions)

    # ----- applying ---------------------------------------------------------

    def apply(self, state: KaudaBajiState, seat: Seat, action: KaudaBajiAction) -> KaudaBajiState:
        # The two common cases first (the hot path of every game): an
        # offered move by the player to move, and a throw for the bank.
        phase = state.phase
        if phase == MOVE and seat == state.turn and type(action) is Move:
            # _Legal.find, inlined: an offered move played before is one
            # lookup by its id.
            square = action.square
            for part in (state.__dict__.get(_LEGAL) or _legal(state)).parts:
                if part.square == square:
                    played = part.played.get(id(action)) or part.find(action)
                    if played is not None:
                        return self._move(state, played)
                    break
        elif (
            phase == THROW
            and seat == CHANCE
            and type(action) is Throw
            and action.value in _THROW_VALUE_SET
        ):
            return self._throw(state, action.value)
        if phase == OVER:
            raise IllegalAction(Msg("The game is over."))
        if seat not in self.to_move(state):
            if seat == CHANCE:
                raise NotYourTurn(Msg("The shells are not being thrown now."))
            raise NotYourTurn(Msg("It is not your turn (or the shells are being thrown)."))
        if seat == CHANCE:
            if not isinstance(action, Throw) or action.value not in THROW_VALUES:
                raise IllegalAction(Msg("A throw of six shells is 1 to 6 or 12."))
            if state.phase == FIRST:
                return self._first_throw(state, action.value)
            return self._throw(state, action.value)
        if isinstance(action, Throw):
            raise IllegalAction(
                Msg("Chaupal throws the shells for you; spend the bank with a move.")
            )
        legal = _legal(state)
        if isinstance(action, Forfeit):
            if Forfeit(action.value) not in legal.forfeits:
                raise IllegalAction(
                    Msg(
                        "You may forfeit a {value} only when every move that spends it "
                        "goes round the inner ring again (R17).",
                        value=action.value,
                    )
                )
            bank = list(state.bank)
            bank.remove(action.value)
            news = Msg(
                "{player} forfeits a {value} (R17).", player=seat_tag(seat), value=action.value
            )
            return self._settle(state, {"bank": tuple(bank), "news": news})
        if not isinstance(action, Move):
            raise IllegalAction(Msg("That is not a Kauda Baji move."))
        played = legal.find(action)
        if played is None:
            action = _canonical(state, action)
            played = legal.find(action)
            if played is None:
                raise IllegalAction(self._why_not(state, action))
        return self._move(state, played)

    def _why_not(self, state: KaudaBajiState, move: Move) -> str:
        p = state.turn
        seat = _seat(state, p)
        here = _at(state.stacks[p], STEP_OF[seat][move.square])
        name = square_name(move.square)
        if not here:
            return Msg("You have no pieces on {square}.", square=name)
        if not move.whole and not move.split_k:
            return Msg(
                "Say which of your pieces on {square} move (x1, x2, x1+1, x1of2 …).", square=name
            )
        bank = list(state.bank)
        for v in move.values:
            if v not in bank:
                return Msg(
                    "There is no {value} in your bank ({bank}).",
                    value=v,
                    bank=_values_text(state.bank) or Msg("empty"),
                )
            bank.remove(v)
        if sum(move.values) % move.size:
            return Msg(
                "A tuple of {size} can only spend a total that {size} divides (R10).",
                size=move.size,
            )
        if move.split_k and move.square not in SAFE:
            return Msg("A tuple may split only on a safe square (R11).")
        return Msg(
            "That move is not allowed: check the pieces (R9, R11) and the arrow choices, "
            "one `in` or `round` for each arrow square stepped off (R2, R15, R17)."
        )

    def _first_throw(self, state: KaudaBajiState, value: int) -> KaudaBajiState:
        """R7: every contender throws once; the highest starts, ties throw again."""
        player = state.contenders[len(state.first_throws)]
        throws = (*state.first_throws, value)
        news = Msg(
            "{player} throws {value} for the first turn.", player=seat_tag(player), value=value
        )
        if len(throws) < len(state.contenders):
            return _replace(state, first_throws=throws, news=news)
        best = max(throws)
        tied = tuple(p for p, v in zip(state.contenders, throws, strict=True) if v == best)
        if len(tied) > 1:
            names = joined([seat_tag(p) for p in tied], ", ")
            again = Msg("{players} tie and throw again.", players=names)
            return _replace(
                state, contenders=tied, first_throws=(), news=joined([news, again], " ")
            )
        return _replace(
            state,
            phase=THROW,
            turn=tied[0],
            contenders=(),
            first_throws=(),
            news=joined([news, Msg("{player} starts.", player=seat_tag(tied[0]))], " "),
        )

    def _throw(self, state: KaudaBajiState, value: int) -> KaudaBajiState:
        """R6, R16: bank the throw; 6 and 12 throw again; the third in a row forfeits."""
        p = state.turn
        bank = (value,) if not state.bank else tuple(sorted((*state.bank, value), reverse=True))
        if value not in EXTRA_THROW and not state.bonus and not state.pending:
            # The commonest throw, settled here (R8, as in _settle): the
            # mover's pieces are as they were.
            news = _THROW_NEWS[p][value]
            in1 = not state.markut or state.killed[p]
            legal = _legal_of(SEATINGS[state.num_players][p], state.stacks[p], bank, in1)
            if legal.moves:
                return _made(
                    {
                        **state.__dict__,
                        "bank": bank,
                        "run": 0,
                        "news": news,
                        "phase": MOVE,
                        _LEGAL: legal,
                    }
                )
            return self._settle(state, {"bank": bank, "run": 0, "bonus": False, "news": news})
        if value in EXTRA_THROW:
            who = _TAGS[p]
            run = state.run + (0 if state.bonus else 1)
            if run >= 3:
                lost = state.bank
                if lost:
                    news = Msg(
                        "{player} throws a third {value} in a row and forfeits the turn, "
                        "losing {values} (R6).",
                        player=who,
                        value=value,
                        values=_values_text(lost),
                    )
                else:
                    news = Msg(
                        "{player} throws a third {value} in a row and forfeits the turn (R6).",
                        player=who,
                        value=value,
                    )
                return self._next_turn(state, {"news": news})
            if state.bonus:
                again = Msg(
                    "{player} throws {value} (kill bonus) and throws again.",
                    player=who,
                    value=value,
                )
            else:
                again = Msg("{player} throws {value} and throws again.", player=who, value=value)
            return _with(
                state,
                {
                    "bank": bank,
                    "run": run,
                    "bonus": False,
                    "news": again,
                },
            )
        news = (
            Msg("{player} throws {value} (kill bonus).", player=_TAGS[p], value=value)
            if state.bonus
            else _THROW_NEWS[p][value]
        )
        if state.pending:
            return _with(
                state,
                {"bank": bank, "run": 0, "bonus": True, "pending": state.pending - 1, "news": news},
            )
        return self._settle(state, {"bank": bank, "run": 0, "bonus": False, "news": news})

    def _settle(self, state: KaudaBajiState, changes: dict[str, Any]) -> KaudaBajiState:
        """``state`` with ``changes``, then R8: the turn goes on while a legal
        move exists; what is left is forfeited."""
        p = state.turn
        bank: tuple[int, ...] = changes.get("bank", state.bank)
        if not bank:
            return self._next_turn(state, changes)
        stacks: tuple[tuple[Stack, ...], ...] = changes.get("stacks", state.stacks)
        killed: tuple[bool, ...] = changes.get("killed", state.killed)
        in1 = not state.markut or killed[p]
        legal = _legal_of(SEATINGS[state.num_players][p], stacks[p], bank, in1)
        if legal.moves:
            changes["phase"] = MOVE
            changes[_LEGAL] = legal  # the new state's moves, worked out here once
            return _with(state, changes)
        news = changes.get("news", state.news)
        unused = Msg(
            "{player} cannot use {values} (R8).", player=seat_tag(p), values=_values_text(bank)
        )
        changes["news"] = joined([news, unused], " ") if news.strip() else unused
        return self._next_turn(state, changes)

    def _next_turn(self, state: KaudaBajiState, changes: dict[str, Any]) -> KaudaBajiState:
        """``state`` with ``changes``, then R4, R18: the next unfinished player
        anticlockwise, or the end."""
        places: tuple[int, ...] = changes.get("places", state.places)
        n = state.num_players
        changes.update(_TURN_OVER)
        if not places:
            changes["phase"] = THROW
            changes["turn"] = (state.turn + 1) % n
            return _with(state, changes)
        left = [p for p in range(n) if p not in places]
        if len(left) <= 1 or (places and not state.play_to_end):
            if state.play_to_end:
                changes["places"] = places + tuple(left)
            changes["phase"] = OVER
            return _with(state, changes)
        p = state.turn
        for _ in range(n):
            p = (p + 1) % n
            if p not in places:
                break
        changes["phase"] = THROW
        changes["turn"] = p
        return _with(state, changes)

    @staticmethod
    def _kill(
        stacks: list[tuple[Stack, ...]],
        occupied: list[frozenset[int]],
        opponents: tuple[tuple[int, int], ...],
        pairwise: bool,
        sq: int,
        size: int,
        landing: bool,
    ) -> int:
        """R12-R14: kills on ``sq`` (not a safe square) by a tuple of ``size``
        landing or leaving; ``opponents`` are the other players and their seats.

        Returns how many tuples died; their pieces go back to the start square
        as singles.
        """
        present = []
        for q, seat in opponents:
            if sq in occupied[q]:
                step = STEP_OF[seat][sq]
                present.append((q, seat, step, [s for st, s in stacks[q] if st == step]))
        if not present or (len(present) > 1 and not pairwise):
            return 0  # R14
        kills = 0
        for q, seat, step, sizes in present:
            beatable = [s for s in sizes if (s <= size if landing else s < size)]
            if not beatable:
                continue
            victim = max(beatable)
            theirs = list(stacks[q])
            theirs.remove((step, victim))
            theirs += [(0, 1)] * victim
            theirs.sort()
            stacks[q] = tuple(theirs)
            occupied[q] = _squares_of(seat, stacks[q])
            kills += 1
        return kills

    def _move(self, state: KaudaBajiState, played: _Played) -> KaudaBajiState:
        frm, size, leaving, staying, end, landing, path, to_sq, values, rest, vacates = played
        p = state.turn
        stacks = list(state.stacks)
        occupied = list(state.occupied)
        mine = list(stacks[p])
        for stack in leaving:
            mine.remove(stack)
        mine += staying
        ours = occupied[p]
        if vacates:
            ours = ours - _SQUARE_SETS[frm]
        kill_squares: tuple[int, ...] = ()
        kills = 0
        opponents = _OPPONENTS[state.num_players][p]
        # R13 order: leaving first, then landing.  Most squares hold no
        # opponent: looked up here before any kill is worked out.
        if frm not in SAFE:
            for q, _ in opponents:
                if frm in occupied[q]:
                    kills = self._kill(
                        stacks, occupied, opponents, state.pairwise, frm, size, False
                    )
                    if kills:
                        kill_squares = (frm,)
                    break
        home = state.home
        if end == CENTRE_STEP:
            home = (*home[:p], home[p] + size, *home[p + 1 :])  # R17
        else:
            if to_sq not in SAFE:
                for q, _ in opponents:
                    if to_sq in occupied[q]:
                        landed = self._kill(
                            stacks, occupied, opponents, state.pairwise, to_sq, size, True
                        )
                        if landed:
                            kill_squares += (to_sq,)
                            kills += landed
                        break
            mine.append(landing)
            if to_sq not in ours:
                ours = ours | _SQUARE_SETS[to_sq]
        mine.sort()
        stacks[p] = tuple(mine)
        occupied[p] = ours
        news = self._move_news(p, size, frm, end, to_sq, values, kills)
        after_stacks = tuple(stacks)
        after_occupied = tuple(occupied)
        last = (p, frm, to_sq, values, path, kill_squares)
        if not kills and home[p] != state.pieces:
            # The commonest ends of a move, written straight into the new
            # state (the general path below gives the same).
            if not rest:
                if not state.places:  # R4: the turn passes anticlockwise
                    return _made(
                        {
                            **state.__dict__,
                            "stacks": after_stacks,
                            "occupied": after_occupied,
                            "home": home,
                            "bank": rest,
                            "last": last,
                            "news": news,
                            "run": 0,
                            "bonus": False,
                            "pending": 0,
                            "phase": THROW,
                            "turn": (p + 1) % state.num_players,
                            _LEGAL: None,
                        }
                    )
            else:
                in1 = not state.markut or state.killed[p]
                legal = _legal_of(SEATINGS[state.num_players][p], after_stacks[p], rest, in1)
                if legal.moves:  # R8: the turn goes on
                    return _made(
                        {
                            **state.__dict__,
                            "stacks": after_stacks,
                            "occupied": after_occupied,
                            "home": home,
                            "bank": rest,
                            "last": last,
                            "news": news,
                            _LEGAL: legal,
                        }
                    )
        changes: dict[str, Any] = {
            "stacks": after_stacks,
            "occupied": after_occupied,
            "home": home,
            "bank": rest,
            "last": last,
            "news": news,
        }
        if kills and not state.killed[p]:
            changes["killed"] = (*state.killed[:p], True, *state.killed[p + 1 :])
        if home[p] == state.pieces:  # R18
            changes["places"] = (*state.places, p)
            finished = Msg(
                "{player} has finished, place {place}.",
                player=seat_tag(p),
                place=len(state.places) + 1,
            )
            changes["news"] = joined([news, finished], " ")
            return self._next_turn(state, changes)
        if kills and state.kill_bonus:  # R16
            changes.update(phase=THROW, bonus=True, pending=kills - 1, run=0)
            return _with(state, changes)
        if not rest:
            return self._next_turn(state, changes)
        return self._settle(state, changes)

    @staticmethod
    def _move_news(
        p: int,
        size: int,
        frm: int,
        end: int,
        to_sq: int,
        values: tuple[int, ...],
        kills: int,
    ) -> str:
        """``{p0} moves a twin from c7 to a7 with 6, killing 1 tuple.``"""
        what = SIZE_WORDS[size] if 0 < size < len(SIZE_WORDS) else SIZE_WORDS[0]
        spent = _values_text(values)
        if end == CENTRE_STEP:
            if kills:
                return Plural(
                    "{player} moves a {size} from {square} into the centre with {values}, "
                    "killing {n} tuple.",
                    "{player} moves a {size} from {square} into the centre with {values}, "
                    "killing {n} tuples.",
                    kills,
                    player=_TAGS[p],
                    size=what,
                    square=square_name(frm),
                    values=spent,
                )
            return Msg(
                "{player} moves a {size} from {square} into the centre with {values}.",
                player=_TAGS[p],
                size=what,
                square=square_name(frm),
                values=spent,
            )
        if kills:
            return Plural(
                "{player} moves a {size} from {square} to {target} with {values}, "
                "killing {n} tuple.",
                "{player} moves a {size} from {square} to {target} with {values}, "
                "killing {n} tuples.",
                kills,
                player=_TAGS[p],
                size=what,
                square=square_name(frm),
                target=square_name(to_sq),
                values=spent,
            )
        return Msg(
            "{player} moves a {size} from {square} to {target} with {values}.",
            player=_TAGS[p],
            size=what,
            square=square_name(frm),
            target=square_name(to_sq),
            values=spent,
        )

    # ----- the end ----------------------------------------------------------

    def outcome(self, state: KaudaBajiState) -> Outcome | None:
        if state.phase != OVER:
            return None
        if state.play_to_end:
            ranking = tuple(frozenset({p}) for p in state.places)
            reason = Msg(
                "{player} brought every piece to the centre first.",
                player=seat_tag(state.places[0]),
            )
        else:
            first = state.places[0]
            rest = frozenset(range(state.num_players)) - {first}
            ranking = (frozenset({first}), rest)
            reason = Msg(
                "{player} brought every piece to the centre first; the others share second place.",
                player=seat_tag(first),
            )
        return Outcome(ranking=ranking, scores=state.home, reason=reason)
