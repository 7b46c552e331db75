"""Artaban's rules (R1-R10, ``docs/rules/artaban.md``): the set-up (R7),
whose turn it is, the legal actions and chance's odds, applying an action,
the hidden set-up for the search, the end of the game (R9) and the score
(R10).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final, NoReturn

from bot.engines.artaban_board import (
    _DIRECTION_WORD,
    _DIRECTIONS,
    _HOME,
    _LEADER,
    _OWNER,
    _STEPS,
    _TIPPED,
    _TOP,
    _TURNED,
    AGREED,
    FILES,
    FORWARD,
    LEFT,
    NUM_FILES,
    OVER,
    PLAY,
    QUIET,
    QUIET_LIMIT,
    RIGHT,
    SETUP,
    START_RANK,
    _code,
    square_name,
    start_front,
)
from bot.engines.artaban_moves import (
    _ACCEPT,
    _COMMIT,
    _DECLINE,
    _DIAGONAL,
    _LEADER_ACTS,
    _OFFER,
    _RANDOM,
    _RESET,
    _STRAIGHT,
    AcceptDraw,
    ArtabanAction,
    Capture,
    Commit,
    DealLeader,
    DealValue,
    DeclineDraw,
    OfferDraw,
    Sacrifice,
    SetLeader,
    SetupAll,
    SetupRandom,
    SetupReset,
    SetValue,
    Tip,
    Turn,
)
from bot.engines.artaban_setup import (
    _allowed_after,
    _deal_odds,
    _deal_values,
    _value_step,
    _values_ok,
    value_odds,
)
from bot.engines.artaban_state import (
    _EMPTY_BOARD,
    _LEGAL,
    ArtabanState,
    Known,
    Squares,
    _after_move,
    _moved,
    _movers,
    _moves_of,
    _pair,
    _replace,
    _set,
    _set_fields,
)
from bot.engines.core import (
    CHANCE,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    excerpt,
    joined,
    seat_tag,
)
from bot.engines.messages import Msg

_HELP_PLAY: Final = Msg(
    "Moves look like 'c2^' (tip forward), 'c2<' / 'c2>' (tip left / right), "
    "'c2@<' / 'c2@>' (turn), 'c2xc3' (capture), 'c2!c3' (sacrifice), "
    "'offer-draw', 'accept-draw' or 'decline-draw'."
)
_HELP_SETUP: Final = Msg(
    "Set up with 'set a 3', 'leader c', 'commit', 'setup random' or "
    "'setup 3 4 5 2 6 1 4 3 leader c'."
)


_SEAT_SETS: Final = (frozenset((0,)), frozenset((1,)))
_CHANCE_SET: Final = frozenset((CHANCE,))
_UNCOMMITTED: Final[dict[tuple[bool, bool], frozenset[Seat]]] = {
    (a, b): frozenset(s for s, done in enumerate((a, b)) if not done)
    for a in (False, True)
    for b in (False, True)
}
"""R7: who is still setting up, by who has committed."""


# --------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------


class ArtabanRules:
    """What the rules allow and what an action does: the set-up, whose turn
    it is, the legal actions, applying them, and the scoring.
    :class:`~bot.engines.artaban.ArtabanEngine` adds the text."""

    name: str = "artaban"
    title: str = "Artaban"
    revision: int = 1
    min_players: int = 2
    max_players: int = 2

    def __init__(self) -> None:
        self.options: Mapping[str, Option] = {
            "diagonal_captures": Option(
                False, Msg("R5: captures and sacrifices may also go to the two forward diagonals")
            )
        }

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> ArtabanState:
        if num_players != 2:
            raise InvalidOptions(Msg("Artaban is a game for exactly 2 players."))
        for key in options:
            if key not in self.options:
                raise InvalidOptions(
                    Msg(
                        "Artaban has no option {name} (options: diagonal_captures).",
                        name=excerpt(key),
                    )
                )
        diagonal = options.get("diagonal_captures", False)
        if not isinstance(diagonal, bool):
            raise InvalidOptions(Msg("Option 'diagonal_captures' takes yes or no."))
        return ArtabanState(
            phase=SETUP,
            diagonal=diagonal,
            board=_EMPTY_BOARD,
            to_play=0,
            quiet=0,
            ply=0,
            draw_offer=None,
            last_move=None,
            values=((), ()),
            leaders=(-1, -1),
            committed=(False, False),
            dealing=None,
            result="",
            movers=((), ()),
        )

    # ----- whose turn -------------------------------------------------------

    def to_move(self, state: ArtabanState) -> frozenset[Seat]:
        phase = state.phase
        if phase == PLAY:
            return _SEAT_SETS[state.to_play]
        if phase == SETUP:
            if state.dealing is not None:
                return _CHANCE_SET
            waiting = _UNCOMMITTED.get(state.committed)
            if waiting is None:
                waiting = frozenset(s for s in (0, 1) if not state.committed[s])
            return waiting
        return frozenset()

    def waiting_on(self, state: ArtabanState) -> frozenset[Seat]:
        # Who has not committed yet is public (R7); nothing else is hidden.
        if state.phase == PLAY:
            return _SEAT_SETS[state.to_play]
        return self.to_move(state) - _CHANCE_SET

    # ----- legal actions ----------------------------------------------------

    def choices_are_public(self, state: ArtabanState, seat: Seat) -> bool:
        """R7: during set-up every choice (the values a file may still take,
        the Leader's file, what is committed, chance's deals) follows from a
        hidden arrangement, so none is public, not even once one player has
        committed; after the reveal everything is public."""
        return state.phase != SETUP

    def chance_outcomes(self, state: ArtabanState) -> list[tuple[ArtabanAction, Fraction]]:
        seat = state.dealing
        if state.phase != SETUP or seat is None:
            return []
        done = state.values[seat]
        return list(_deal_odds(seat, len(done), sum(done)))

    def legal_actions(self, state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        if state.phase == PLAY:
            if seat != state.to_play:
                return []
            known: Known | None = getattr(state, _LEGAL, None)
            moves = known[seat] if known is not None else None
            if moves is None:
                moves = _moves_of(state, seat)
            offer = state.draw_offer
            if offer is None:
                return [*moves, _OFFER]
            if offer != seat:
                return [*moves, _ACCEPT, _DECLINE]
            return list(moves)
        if state.phase != SETUP:
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        if seat not in self.to_move(state):
            return []
        return self._setup_actions(state, seat)

    def _setup_actions(self, state: ArtabanState, seat: Seat) -> list[ArtabanAction]:
        done = state.values[seat]
        if len(done) < NUM_FILES:
            return list(_value_step(len(done), sum(done)))
        if state.leaders[seat] < 0:
            return [*_LEADER_ACTS, _RANDOM, _RESET]
        return [_COMMIT, _RANDOM, _RESET]

    # ----- apply ------------------------------------------------------------

    def apply(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        phase = state.phase
        if phase == PLAY:
            if seat != state.to_play:
                raise NotYourTurn(Msg("It is not your turn: your opponent is to move."))
            # The hot path of every game (issue 19), inline: tips and turns.
            if type(action) is Tip:
                sq = action.square
                d = action.direction
                movers = state.movers
                board = state.board
                if sq in movers[seat] and d in _DIRECTIONS:
                    dst = _STEPS[seat][d][sq]
                    if dst >= 0 and not board[dst]:
                        new = list(board)
                        new[dst] = _TIPPED[d][board[sq]]
                        new[sq] = 0
                        forward = d == FORWARD
                        if forward:
                            mine = _moved(movers[seat], sq, dst, _HOME[seat])
                        else:
                            # Sideways: the next square of the same rank, so
                            # the squares stay in order (as in _moved).
                            kept = list(movers[seat])
                            kept[kept.index(sq)] = dst
                            mine = tuple(kept)
                        return _after_move(
                            state,
                            seat,
                            tuple(new),
                            (mine, movers[1]) if seat == 0 else (movers[0], mine),
                            (seat, "tip", sq, dst),
                            forward,
                            None,
                        )
                self._refuse_tip(state, seat, action)
            if type(action) is Turn:
                sq = action.square
                d = action.direction
                if sq in state.movers[seat] and d in (LEFT, RIGHT):
                    new = list(state.board)
                    new[sq] = _TURNED[d][new[sq]]
                    # R3: a turn keeps the die's top value (and owner and
                    # Leader), all that any move depends on, so both seats
                    # keep their moves.
                    return _after_move(
                        state,
                        seat,
                        tuple(new),
                        state.movers,
                        (seat, "turn", sq, sq),
                        False,
                        getattr(state, _LEGAL, None),
                    )
                self._refuse_turn(state, seat, action)
            return self._apply_play(state, seat, action)
        if phase == OVER:
            raise IllegalAction(Msg("The game is over."))
        if seat not in self.to_move(state):
            if seat not in (0, 1, CHANCE):
                raise NotYourTurn(Msg("There is no seat {seat} in Artaban.", seat=seat))
            if state.dealing is not None:
                raise NotYourTurn(Msg("It is not your turn: a random set-up is being dealt."))
            if seat == CHANCE:
                raise NotYourTurn(Msg("Nothing is being dealt now: the players are setting up."))
            raise NotYourTurn(
                Msg("You have committed your set-up; waiting for your opponent to commit theirs.")
            )
        if seat == CHANCE:
            return self._apply_deal(state, action)
        return self._apply_setup(state, seat, action)

    # ----- set-up -----------------------------------------------------------

    def _apply_setup(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        done = state.values[seat]
        if isinstance(action, SetValue):
            if len(done) >= NUM_FILES:
                raise IllegalAction(Msg("All eight values are set: choose the Leader's file."))
            if action.file != len(done):
                raise IllegalAction(
                    Msg(
                        "Files are set in order: the next one is file {file}.",
                        file=FILES[len(done)],
                    )
                )
            allowed = [v for v, _ in value_odds(done)]
            if action.value not in allowed:
                raise IllegalAction(
                    Msg(
                        "File {file} can take {values} so that the total can still be 28.",
                        file=FILES[action.file],
                        values=", ".join(map(str, allowed)),
                    )
                )
            return _replace(state, values=_set(state.values, seat, (*done, action.value)))
        if isinstance(action, SetLeader):
            if len(done) < NUM_FILES:
                raise IllegalAction(Msg("Set all eight values before choosing the Leader's file."))
            if state.leaders[seat] >= 0:
                raise IllegalAction(
                    Msg("Your Leader's file is chosen: commit, or reset the set-up.")
                )
            if not 0 <= action.file < NUM_FILES:
                raise IllegalAction(Msg("The Leader goes on one of the files a to h."))
            return _replace(state, leaders=_set(state.leaders, seat, action.file))
        if isinstance(action, SetupAll):
            if not _values_ok(action.values):
                raise IllegalAction(
                    Msg(
                        "A set-up is eight top values from 1 to 6, for files a to h, summing to 28."
                    )
                )
            if not 0 <= action.leader < NUM_FILES:
                raise IllegalAction(Msg("The Leader goes on one of the files a to h."))
            return _replace(
                state,
                values=_set(state.values, seat, action.values),
                leaders=_set(state.leaders, seat, action.leader),
            )
        if isinstance(action, SetupRandom):
            return _replace(
                state,
                values=_set(state.values, seat, ()),
                leaders=_set(state.leaders, seat, -1),
                dealing=seat,
            )
        if isinstance(action, SetupReset):
            if not done:
                raise IllegalAction(Msg("Nothing is set yet, so there is nothing to reset."))
            return _replace(
                state, values=_set(state.values, seat, ()), leaders=_set(state.leaders, seat, -1)
            )
        if isinstance(action, Commit):
            if len(done) < NUM_FILES or state.leaders[seat] < 0:
                raise IllegalAction(
                    Msg("Your set-up is not complete: set all eight values and the Leader's file.")
                )
            committed = _set(state.committed, seat, True)
            state = _replace(state, committed=committed)
            return self._reveal(state) if all(committed) else state
        raise IllegalAction(Msg("The players are setting up their dice. {help}", help=_HELP_SETUP))

    def _apply_deal(self, state: ArtabanState, action: ArtabanAction) -> ArtabanState:
        seat = state.dealing
        assert seat is not None
        if not isinstance(action, DealValue | DealLeader) or action.seat != seat:
            raise IllegalAction(
                Msg("A random set-up is being dealt: only its values can be dealt.")
            )
        done = state.values[seat]
        if isinstance(action, DealValue):
            if action.file != len(done) or action.value not in _allowed_after(len(done), sum(done)):
                raise IllegalAction(Msg("That value cannot be dealt to that file now."))
            return _replace(state, values=_set(state.values, seat, (*done, action.value)))
        if len(done) < NUM_FILES or not 0 <= action.file < NUM_FILES:
            raise IllegalAction(Msg("The Leader's file cannot be dealt now."))
        # R7: a random arrangement is asked for instead of committing one, so
        # it is committed as soon as it is dealt.
        committed = _set(state.committed, seat, True)
        state = _replace(
            state,
            leaders=_set(state.leaders, seat, action.file),
            dealing=None,
            committed=committed,
        )
        return self._reveal(state) if all(committed) else state

    def _reveal(self, state: ArtabanState) -> ArtabanState:
        """R7: both set-ups stand on their second ranks; seat 0 moves first."""
        board = list(_EMPTY_BOARD)
        for s in (0, 1):
            base = (START_RANK[s] - 1) * 8
            for f, v in enumerate(state.values[s]):
                board[base + f] = _code(s, f == state.leaders[s], v, start_front(v))
        final = tuple(board)
        return _replace(state, phase=PLAY, board=final, to_play=0, movers=_movers(final))

    # ----- search (issue 19) -------------------------------------------------

    def determinize(
        self, state: ArtabanState, seat: Seat, draw: Callable[[], float]
    ) -> ArtabanState:
        """A state ``seat`` cannot tell from ``state``: the opponent's set-up
        dealt afresh (:class:`bot.engines.core.Determinizes`).

        R7: until both have committed, ``seat`` sees its own arrangement,
        who has committed and whether a random set-up is being dealt (then
        nobody but chance is to move); not how far the opponent has got.  So
        the opponent gets a whole legal arrangement, every one equally likely
        (eight values summing to 28 and a Leader file), committed or not as
        before.  While chance deals the opponent's random set-up it starts
        from nothing: chance deals the rest at its turn.  After the reveal
        nothing is hidden, and the state is returned as it is.
        """
        if state.phase != SETUP or seat not in (0, 1):
            return state
        other = 1 - seat
        if state.dealing == other:
            values: tuple[int, ...] = ()
            leader = -1
        else:
            values = _deal_values(draw)
            leader = min(int(draw() * NUM_FILES), NUM_FILES - 1)
        return _replace(
            state,
            values=_set(state.values, other, values),
            leaders=_set(state.leaders, other, leader),
        )

    # ----- play -------------------------------------------------------------

    def _refuse_tip(self, state: ArtabanState, seat: Seat, action: Tip) -> NoReturn:
        """Why ``apply`` refuses this tip, in the order the rules are checked."""
        sq = action.square
        board = state.board
        if sq not in state.movers[seat]:
            self._own_die(state, seat, sq)
        d = action.direction
        if d not in _DIRECTIONS:
            raise IllegalAction(Msg("A die tips forward (^), left (<) or right (>)."))
        dst = _STEPS[seat][d][sq]
        if dst < 0:
            raise IllegalAction(
                Msg(
                    "The die on {square} cannot tip {direction}: that is off the board.",
                    square=square_name(sq),
                    direction=_DIRECTION_WORD[d],
                )
            )
        if board[dst]:
            raise IllegalAction(
                Msg(
                    "The die on {square} cannot tip onto {target}: "
                    "it is occupied (a capture is written like '{capture}').",
                    square=square_name(sq),
                    target=square_name(dst),
                    capture=square_name(sq) + "x" + square_name(dst),
                )
            )
        raise IllegalAction(
            Msg("The die on {square} cannot tip now.", square=square_name(sq))
        )  # never reached

    def _refuse_turn(self, state: ArtabanState, seat: Seat, action: Turn) -> NoReturn:
        """Why ``apply`` refuses this turn."""
        if action.square not in state.movers[seat]:
            self._own_die(state, seat, action.square)
        raise IllegalAction(Msg("A die turns left (@<) or right (@>)."))

    def _apply_play(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> ArtabanState:
        """Captures, sacrifices and draw offers (``apply`` does tips and turns)."""
        board = state.board
        kind: str
        movers: Squares
        if isinstance(action, Capture | Sacrifice):
            sq = self._own_die(state, seat, action.frm)
            dst = action.to
            straight = any(dst == slot[0] for slot in _STRAIGHT[seat][sq])
            diagonal = any(dst == slot[0] for slot in _DIAGONAL[seat][sq])
            if not straight and not (diagonal and state.diagonal):
                if state.diagonal:
                    raise IllegalAction(
                        Msg(
                            "The die on {square} can only reach the squares next to it "
                            "forward, left or right, or diagonally forward.",
                            square=square_name(sq),
                        )
                    )
                raise IllegalAction(
                    Msg(
                        "The die on {square} can only reach the squares next to it "
                        "forward, left or right.",
                        square=square_name(sq),
                    )
                )
            target = board[dst] if 0 <= dst < 64 else 0
            if not target or _OWNER[target] == seat:
                raise IllegalAction(
                    Msg("There is no enemy die on {square}.", square=square_name(dst))
                )
            mine, theirs = _TOP[board[sq]], _TOP[target]
            leader = bool(_LEADER[board[sq]])
            new = list(board)
            if isinstance(action, Capture):
                if not (theirs < mine or (leader and theirs == mine)):
                    refusal: str
                    if leader:
                        refusal = Msg(
                            "The die on {square} ({mine}) can only capture a lower or equal "
                            "(it is the Leader) value, and {target} shows {theirs}.",
                            square=square_name(sq),
                            mine=mine,
                            target=square_name(dst),
                            theirs=theirs,
                        )
                    else:
                        refusal = Msg(
                            "The die on {square} ({mine}) can only capture a lower "
                            "value, and {target} shows {theirs}.",
                            square=square_name(sq),
                            mine=mine,
                            target=square_name(dst),
                            theirs=theirs,
                        )
                    if theirs == mine:
                        refusal = Msg(
                            "{refusal} Equal dice may be sacrificed: '{sacrifice}'.",
                            refusal=refusal,
                            sacrifice=square_name(sq) + "!" + square_name(dst),
                        )
                    raise IllegalAction(refusal)
                new[dst] = board[sq]
                kind = "capture"
                mine_after = _moved(state.movers[seat], sq, dst, _HOME[seat])
                theirs_after = _moved(state.movers[1 - seat], dst, -1, _HOME[1 - seat])
                movers = (mine_after, theirs_after) if seat == 0 else (theirs_after, mine_after)
            else:
                if leader:
                    raise IllegalAction(
                        Msg(
                            "The Leader cannot be sacrificed (R6); it captures an equal die "
                            "instead: '{capture}'.",
                            capture=square_name(sq) + "x" + square_name(dst),
                        )
                    )
                if theirs != mine:
                    raise IllegalAction(
                        Msg(
                            "A sacrifice needs equal values: {square} shows {mine} and "
                            "{target} shows {theirs}.",
                            square=square_name(sq),
                            mine=mine,
                            target=square_name(dst),
                            theirs=theirs,
                        )
                    )
                kind = "sacrifice"
                movers = _pair(state.movers, seat, _moved(state.movers[seat], sq, -1, _HOME[seat]))
            new[sq] = 0
            return _after_move(state, seat, tuple(new), movers, (seat, kind, sq, dst), True, None)
        if isinstance(action, OfferDraw):
            if state.draw_offer == seat:
                raise IllegalAction(Msg("You have already offered a draw: make your move."))
            if state.draw_offer is not None:
                raise IllegalAction(
                    Msg("Your opponent has offered a draw: 'accept-draw' or 'decline-draw'.")
                )
            return self._same_moves(state, _replace(state, draw_offer=seat))
        if isinstance(action, AcceptDraw | DeclineDraw):
            if state.draw_offer is None or state.draw_offer == seat:
                raise IllegalAction(Msg("Your opponent has not offered a draw."))
            if isinstance(action, AcceptDraw):
                return _replace(state, phase=OVER, draw_offer=None, result=AGREED)
            return self._same_moves(state, _replace(state, draw_offer=None))
        raise IllegalAction(Msg("The set-up is over: it is time to move. {help}", help=_HELP_PLAY))

    @staticmethod
    def _same_moves(before: ArtabanState, after: ArtabanState) -> ArtabanState:
        """``after`` keeping ``before``'s moves: R9's draw offer and refusal
        change neither the board nor who moves next."""
        known = getattr(before, _LEGAL, None)
        if known is not None:
            _set_fields(after, _LEGAL, known)
        return after

    @staticmethod
    def _own_die(state: ArtabanState, seat: Seat, sq: int) -> int:
        """``sq`` if it holds a die of ``seat`` that may still move (R8), else
        IllegalAction saying why."""
        if not 0 <= sq < 64:
            raise IllegalAction(Msg("There is no such square."))
        code = state.board[sq]
        if not code:
            raise IllegalAction(Msg("There is no die on {square}.", square=square_name(sq)))
        if _OWNER[code] != seat:
            raise IllegalAction(Msg("The die on {square} is not yours.", square=square_name(sq)))
        if _HOME[seat][sq]:
            raise IllegalAction(
                Msg(
                    "The die on {square} is home on your last rank: it no longer moves (R8).",
                    square=square_name(sq),
                )
            )
        return sq

    # ----- scoring ----------------------------------------------------------

    @staticmethod
    def tally(board: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """R10: per seat, (home score, dice on the last rank, dice on the board)."""
        score = [0, 0]
        home = [0, 0]
        on_board = [0, 0]
        for sq, code in enumerate(board):
            if not code:
                continue
            s = _OWNER[code]
            on_board[s] += 1
            if _HOME[s][sq]:
                home[s] += 1
                score[s] += _TOP[code]
        return (score[0], score[1]), (home[0], home[1]), (on_board[0], on_board[1])

    def outcome(self, state: ArtabanState) -> Outcome | None:
        if state.phase != OVER:
            return None
        # The reason names seats as {p0}/{p1}, filled in by the caller.
        who = seat_tag
        scores, home, on_board = self.tally(state.board)
        both = frozenset((0, 1))
        if state.result == AGREED:
            return Outcome((both,), scores, Msg("The players agreed to a draw."))
        first: str
        if state.result == QUIET:
            # "Moves", not the rules' "plies": each player's move counts.
            first = Msg(
                "{moves} moves in a row passed without a forward tip, a capture or a sacrifice.",
                moves=QUIET_LIMIT,
            )
        else:
            first = Msg(
                "{player}, to move, could not tip, capture or sacrifice.",
                player=who(state.to_play),
            )
        # The scores name the seats as {p0} and {p1} themselves.
        s0, s1 = scores
        then: str
        ranking: tuple[frozenset[Seat], ...]
        if scores[0] != scores[1]:
            then = Msg("{p0} scores {s0} and {p1} scores {s1}.", s0=s0, s1=s1)
            best = 0 if scores[0] > scores[1] else 1
        elif home[0] != home[1]:
            then = Msg(
                "{p0} scores {s0} and {p1} scores {s1}; with the scores tied, more dice on "
                "the last rank wins ({a} to {b}).",
                s0=s0,
                s1=s1,
                a=home[0],
                b=home[1],
            )
            best = 0 if home[0] > home[1] else 1
        elif on_board[0] != on_board[1]:
            then = Msg(
                "{p0} scores {s0} and {p1} scores {s1}; with the scores and the dice on the "
                "last rank tied, more dice on the board wins ({a} to {b}).",
                s0=s0,
                s1=s1,
                a=on_board[0],
                b=on_board[1],
            )
            best = 0 if on_board[0] > on_board[1] else 1
        else:
            then = Msg(
                "{p0} scores {s0} and {p1} scores {s1}; the scores, the dice on the last "
                "rank and the dice on the board are all tied: a draw.",
                s0=s0,
                s1=s1,
            )
            return Outcome((both,), scores, joined([first, then], " "))
        ranking = (frozenset((best,)), frozenset((1 - best,)))
        return Outcome(ranking, scores, joined([first, then], " "))
