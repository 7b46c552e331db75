"""Martian Chaturaji's rules (R1-R15, ``docs/rules/chaturaji.md``): the
set-up, whose turn it is, the legal actions and the die's odds, applying an
action (rolls, moves, captures, re-entry, placing) and the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from bot.engines.chaturaji_board import (
    _ARMY,
    _CENTRE_SET,
    _KIND,
    _SEATINGS,
    _THRONE_OF,
    ARMY_TITLES,
    CHOOSE,
    HOME_ROWS,
    KIND_NAMES,
    MONARCH,
    MOVE,
    OVER,
    PARTNERSHIP_TITLES,
    PLACE,
    QUIET_ROUNDS_DEFAULT,
    QUIET_ROUNDS_MAX,
    RAVEN,
    REENTER,
    ROLL,
    SECOND_ROWS,
    SQUIRE,
    START,
    START_BOARD,
    THRONES,
    TURNS_PER_ROUND,
    _seats_of,
    piece,
    square_name,
)
from bot.engines.chaturaji_moves import (
    _counted,
    _legal,
    _monarchs,
    _ravens_in_centre,
    _squares,
    _stage_army,
    _stage_kinds,
)
from bot.engines.chaturaji_state import (
    _LEGAL,
    _ROLL_ODDS,
    _ROLLS,
    PASS,
    ChaturajiAction,
    ChaturajiState,
    Die,
    First,
    Move,
    MoveRecord,
    Pass,
    Place,
    Reenter,
    Roll,
    _build,
    _fields_of,
    _replace,
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
    sentence,
)
from bot.engines.messages import Msg

_SEAT_SETS: Final = tuple(frozenset({s}) for s in range(4))
_COMMANDER_SETS: Final = {n: tuple(_SEAT_SETS[s] for s in seats) for n, seats in _SEATINGS.items()}
"""R13: ``{seat}`` of the seat commanding each army, per player count."""
_CHANCE_SET: Final = frozenset({CHANCE})
_NOBODY: Final[frozenset[Seat]] = frozenset()


def _piece_words(code: int) -> str:
    return Msg("{army} {kind}", army=ARMY_TITLES[_ARMY[code]], kind=KIND_NAMES[_KIND[code]])


# --------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------


class ChaturajiRules:
    """What the rules allow and what an action does: the set-up, whose turn
    it is, the legal actions, applying them, and the outcome.
    :class:`~bot.engines.chaturaji.ChaturajiEngine` adds the text."""

    name: str = "chaturaji"
    title: str = "Martian Chaturaji"
    revision: int = 1
    min_players: int = 2
    max_players: int = 4

    def __init__(self) -> None:
        self.options: Mapping[str, Option] = {
            "quiet_rounds": Option(
                QUIET_ROUNDS_DEFAULT,
                Msg(
                    "R15: draw after this many rounds without a capture, promotion or "
                    "squire move (0: never)"
                ),
                low=0,
                high=QUIET_ROUNDS_MAX,
            )
        }

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> ChaturajiState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(Msg("Martian Chaturaji is a game for 2, 3 or 4 players."))
        for key in options:
            if key not in self.options:
                raise InvalidOptions(
                    Msg(
                        "Martian Chaturaji has no option {name} (options: quiet_rounds).",
                        name=excerpt(key),
                    )
                )
        rounds = options.get("quiet_rounds", QUIET_ROUNDS_DEFAULT)
        if (
            not isinstance(rounds, int)
            or isinstance(rounds, bool)
            or not 0 <= rounds <= QUIET_ROUNDS_MAX
        ):
            raise InvalidOptions(
                Msg(
                    "Option quiet_rounds takes a whole number of rounds from 0 (never a "
                    "quiet draw) to {high}.",
                    high=QUIET_ROUNDS_MAX,
                )
            )
        return ChaturajiState(
            num_players=num_players,
            quiet_limit=TURNS_PER_ROUND * rounds,
            phase=START,
            board=START_BOARD,
            monarchs=_monarchs(START_BOARD),
            squares=_squares(START_BOARD),
            turn=-1,
            control=-1,
            stage=0,
            dice=(),
            start_rolls=(),
            reentry=(),
            placing=(),
            quiet=0,
            eventful=False,
            turn_moves=(),
            last_moves=(),
            skipped=(),
            turns=0,
            winner=-1,
        )

    def commander(self, state: ChaturajiState, army: int) -> Seat:
        """R13: the seat that plays ``army``."""
        return _seats_of(state.num_players)[army]

    # ----- whose turn -------------------------------------------------------

    def seat_roles(self, num_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        """R13: the armies each seat commands, for the lobby."""
        seating = _SEATINGS.get(num_players)
        if seating is None:
            return ()
        return tuple(
            joined([ARMY_TITLES[a] for a in range(4) if seating[a] == seat], " + ")
            for seat in range(num_players)
        )

    def to_move(self, state: ChaturajiState) -> frozenset[Seat]:
        phase = state.phase
        if phase in (MOVE, REENTER):
            return _COMMANDER_SETS[state.num_players][state.turn]
        if phase in (ROLL, START):
            return _CHANCE_SET
        seats = _SEATINGS[state.num_players]
        if phase == PLACE:
            return _SEAT_SETS[seats[state.placing[0]]]
        if phase == CHOOSE:
            p = self._start_winner(state)
            return frozenset({seats[p], seats[p + 2]})
        return _NOBODY

    def waiting_on(self, state: ChaturajiState) -> frozenset[Seat]:
        # ``to_move`` is either chance alone or seats alone.
        movers = self.to_move(state)
        return _NOBODY if movers is _CHANCE_SET else movers

    def choices_are_public(self, state: ChaturajiState, seat: Seat) -> bool:
        """Nothing is hidden (rules, "Hidden information")."""
        return True

    @staticmethod
    def _start_winner(state: ChaturajiState) -> int:
        r = state.start_rolls
        return 0 if r[0] + r[2] > r[1] + r[3] else 1

    # ----- legal actions ----------------------------------------------------

    def chance_outcomes(self, state: ChaturajiState) -> list[tuple[ChaturajiAction, Fraction]]:
        if state.phase in (ROLL, START):
            return list(_ROLL_ODDS)
        return []

    def legal_actions(self, state: ChaturajiState, seat: Seat) -> list[ChaturajiAction]:
        phase = state.phase
        if phase == MOVE:  # the hot path, whose turn inline (as ``to_move``)
            if seat != _SEATINGS[state.num_players][state.turn]:
                return []
            return [*_legal(state), PASS]
        if phase == OVER or seat not in self.to_move(state):
            return []
        if phase in (ROLL, START):
            return list(_ROLLS)
        if phase == CHOOSE:
            p = self._start_winner(state)
            return [First(p), First(p + 2)]
        if phase == REENTER:
            return [Reenter(state.reentry[0]), Reenter(state.reentry[1]), Reenter(-1)]
        return [Place(sq) for sq in self._placements(state, state.placing[0])]

    @staticmethod
    def _placements(state: ChaturajiState, army: int) -> list[int]:
        """R11: empty squares of the home row, else of the second row."""
        board = state.board
        for row in (HOME_ROWS[army], SECOND_ROWS[army]):
            empty = sorted(sq for sq in row if not board[sq])
            if empty:
                return empty
        return []

    # ----- apply ------------------------------------------------------------

    def apply(self, state: ChaturajiState, seat: Seat, action: ChaturajiAction) -> ChaturajiState:
        phase = state.phase
        # The two phases of nearly every action first, whose turn inline
        # (what ``to_move`` says for them).
        if phase == ROLL:
            if seat != CHANCE:
                raise NotYourTurn(Msg("It is not your turn."))
            if isinstance(action, Roll):
                face = action.value
                if not 1 <= face <= 4:
                    raise IllegalAction(Msg("A die shows 1 to 4."))
                return self._roll_die(state, face)
            raise IllegalAction(Msg("That is not possible now. {hint}", hint=self._hint(state)))
        if phase == MOVE:
            if seat != _SEATINGS[state.num_players][state.turn]:
                raise NotYourTurn(Msg("It is not your turn."))
            if isinstance(action, Move):
                return self._move(state, action)
            if isinstance(action, Pass):
                return self._settle(self._decline(state), check=False)
            raise IllegalAction(Msg("Move a piece for your dice, or pass."))
        if phase == OVER:
            raise IllegalAction(Msg("The game is over."))
        if seat not in self.to_move(state):
            raise NotYourTurn(Msg("It is not your turn."))
        if isinstance(action, Roll) and phase == START:
            if not 1 <= action.value <= 4:
                raise IllegalAction(Msg("A die shows 1 to 4."))
            return self._roll(state, action.value)
        if phase == CHOOSE and isinstance(action, First):
            p = self._start_winner(state)
            if action.army not in (p, p + 2):
                raise IllegalAction(
                    Msg(
                        "{partnership} won the start roll: first blue/red/"
                        "green/yellow must name one of its armies.",
                        partnership=PARTNERSHIP_TITLES[p],
                    )
                )
            return self._begin(_fields_of(state), action.army, count=False)
        if phase == REENTER and isinstance(action, Reenter):
            if action.first == -1:
                return self._settle(_replace(state, phase=MOVE, reentry=()))
            if action.first not in state.reentry:
                raise IllegalAction(Msg("Name one of the two captured monarchs' armies, or none."))
            second = state.reentry[1] if action.first == state.reentry[0] else state.reentry[0]
            return self._next_placer(_replace(state, reentry=(), placing=(action.first, second)))
        if phase == PLACE and isinstance(action, Place):
            army = state.placing[0]
            if action.square not in self._placements(state, army):
                raise IllegalAction(
                    Msg(
                        "The {army} monarch goes on an empty square of its home "
                        "row (or of its second row when the home row is full).",
                        army=ARMY_TITLES[army],
                    )
                )
            board = list(state.board)
            board[action.square] = piece(army, MONARCH)
            monarchs = list(state.monarchs)
            monarchs[army] = action.square
            squares = list(state.squares)
            squares[army] = tuple(sorted((*squares[army], action.square)))
            record: MoveRecord = (army, MONARCH, -1, action.square, -1, ())
            return self._next_placer(
                _replace(
                    state,
                    board=tuple(board),
                    monarchs=tuple(monarchs),
                    squares=tuple(squares),
                    placing=state.placing[1:],
                    turn_moves=(*state.turn_moves, record),
                )
            )
        raise IllegalAction(Msg("That is not possible now. {hint}", hint=self._hint(state)))

    @staticmethod
    def _hint(state: ChaturajiState) -> str:
        return {
            MOVE: Msg("Move a piece for your dice, or pass."),
            CHOOSE: Msg("Choose the army that moves first (first <army>)."),
            REENTER: Msg("Choose reenter <army> or reenter none."),
            PLACE: Msg("Place the monarch (place <square>)."),
        }.get(state.phase, Msg("The dice are being rolled."))

    def _roll(self, state: ChaturajiState, face: int) -> ChaturajiState:
        if state.phase == START:
            rolls = (*state.start_rolls, face)
            if len(rolls) < 4:
                return _replace(state, start_rolls=rolls)
            if rolls[0] + rolls[2] == rolls[1] + rolls[3]:
                # R14: re-roll ties.
                return _replace(state, start_rolls=())
            return _replace(state, start_rolls=rolls, phase=CHOOSE)
        return self._roll_die(state, face)

    def _roll_die(self, state: ChaturajiState, face: int) -> ChaturajiState:
        """R5: one of the turn's dice (the mover's two, then the controlled
        army's two, R8)."""
        dice = state.dice
        control = state.control
        army = state.turn if len(dice) < 2 else control
        # R6: counted when rolled, held for the whole turn.
        die: Die = (army, face, _counted(state.board, state.monarchs, army, face), False)
        d = _fields_of(state)
        d["dice"] = dice = (*dice, die)
        if len(dice) < (4 if control >= 0 else 2):
            return _build(d)
        d["phase"] = MOVE
        d["stage"] = 0
        return self._settle(_build(d))

    @staticmethod
    def _decline(state: ChaturajiState) -> ChaturajiState:
        """``pass``: the moving army's remaining dice are declined."""
        army = _stage_army(state)
        dice = tuple((a, f, k, used or a == army) for a, f, k, used in state.dice)
        return _replace(state, dice=dice)

    def _move(self, state: ChaturajiState, action: Move) -> ChaturajiState:
        # Found among the state's legal moves (generated once, see
        # ``_legal``), by identity when it is one of the listed objects (as
        # from ``legal_actions``), else by value (typed or built by hand).
        legal = _legal(state)
        for move in legal:
            if move is action:
                break
        else:
            for move in legal:
                if move == action:
                    break
            else:
                raise IllegalAction(self._why_not(state, action))
        frm, to, promo = move.frm, move.to, move.promo
        before = state.board
        board = list(before)
        code = board[frm]
        army, kind = _ARMY[code], _KIND[code]
        taken = board[to] if to != frm else 0
        captured: tuple[int, ...] = (to,) if taken else ()
        board[frm] = 0
        board[to] = code if promo < 0 else code - kind + promo  # R10: same army
        monarchs = state.monarchs
        squares = state.squares
        if kind == RAVEN and to in _CENTRE_SET and not taken:
            # R9: the unkindness of ravens, the partner's raven included.
            others = _ravens_in_centre(before, army, to)
            for s in others:
                board[s] = 0
            captured = others
        if frm != to:
            moved = list(squares)
            own = list(squares[army])
            own[own.index(frm)] = to
            own.sort()
            moved[army] = tuple(own)
            for s in captured:
                victim = _ARMY[before[s]]
                theirs = list(moved[victim])
                theirs.remove(s)
                moved[victim] = tuple(theirs)
            squares = tuple(moved)
        monarch_taken = taken != 0 and _KIND[taken] == MONARCH
        if kind == MONARCH or monarch_taken:
            where = list(monarchs)
            if kind == MONARCH:
                where[army] = to
            if monarch_taken:
                where[_ARMY[taken]] = -1
            monarchs = tuple(where)
        # The die: the first unused one of this army for the piece's kind.
        dice = list(state.dice)
        for i, die in enumerate(dice):
            if die[0] == army and die[2] == kind and not die[3]:
                dice[i] = (army, die[1], kind, True)
                break
        record: MoveRecord = (army, kind, frm, to, promo, captured)
        d = _fields_of(state)
        d["board"] = tuple(board)
        d["monarchs"] = monarchs
        d["squares"] = squares
        d["dice"] = tuple(dice)
        d["eventful"] = state.eventful or bool(captured) or promo >= 0 or kind == SQUIRE
        d["turn_moves"] = (*state.turn_moves, record)
        after = _build(d)
        if monarch_taken:
            return self._monarch_taken(after, _ARMY[taken])
        return self._settle(after)

    def _why_not(self, state: ChaturajiState, action: Move) -> str:
        frm = action.frm
        if not 0 <= frm < 64 or not 0 <= action.to < 64:
            return Msg("That square is not on the board.")
        code = state.board[frm]
        army = _stage_army(state)
        if not code:
            return Msg("There is no piece on {square}.", square=square_name(frm))
        if _ARMY[code] != army:
            return Msg(
                "The piece on {square} is not {army}'s to move now.",
                square=square_name(frm),
                army=ARMY_TITLES[army],
            )
        if not _stage_kinds(state) >> _KIND[code] & 1:
            return Msg(
                "No unused die moves {army}'s {kind} now.",
                army=ARMY_TITLES[army],
                kind=KIND_NAMES[_KIND[code]],
            )
        return Msg(
            "The {kind} on {square} cannot make that move.",
            kind=KIND_NAMES[_KIND[code]],
            square=square_name(frm),
        )

    def _monarch_taken(self, state: ChaturajiState, victim: int) -> ChaturajiState:
        monarchs = state.monarchs
        side = victim & 1
        if monarchs[side] < 0 and monarchs[side + 2] < 0:
            # R12: both enemy monarchs are off the board.
            return self._end(state, winner=side ^ 1)
        own = state.turn & 1
        lost = [a for a in (own, own + 2) if monarchs[a] < 0]
        if len(lost) == 1:
            # R11: the capturing player may re-enter both monarchs.
            return _replace(state, phase=REENTER, reentry=(lost[0], victim))
        return self._settle(state)

    def _next_placer(self, state: ChaturajiState) -> ChaturajiState:
        placing = state.placing
        while placing and not self._placements(state, placing[0]):
            placing = placing[1:]  # R11: no empty square: it stays captured.
        if placing:
            return _replace(state, phase=PLACE, placing=placing)
        return self._settle(_replace(state, phase=MOVE, placing=()))

    def _settle(self, state: ChaturajiState, check: bool = True) -> ChaturajiState:
        """Go on to the controlled army's dice, or end the turn, once the
        moving army's dice are used up or can move nothing."""
        while True:
            if check and _legal(state):
                return state
            if state.stage == 0 and state.control >= 0:
                state = _replace(state, stage=1)
                check = True
                continue
            return self._end_turn(state)

    def _end_turn(self, state: ChaturajiState) -> ChaturajiState:
        d = _fields_of(state)
        d["quiet"] = 0 if state.eventful else state.quiet + 1
        if state.turn_moves:
            d["last_moves"] = state.turn_moves
        d["turn_moves"] = ()
        d["eventful"] = False
        return self._begin(d, (state.turn + 1) % 4, count=True)

    def _begin(self, d: dict[str, Any], army: int, count: bool) -> ChaturajiState:
        """Start ``army``'s turn, skipping armies whose monarch is captured (R7)."""
        d.pop(_LEGAL, None)  # ``d`` may be a copy of a state's ``__dict__``
        monarchs = d["monarchs"]
        skipped: tuple[int, ...] = ()
        limit = d["quiet_limit"]
        d["dice"] = d["reentry"] = d["placing"] = ()
        d["stage"] = 0
        while True:
            if count and limit and d["quiet"] >= limit:
                d["control"] = -1
                d["skipped"] = skipped
                return self._end(_build(d), winner=-1)
            if monarchs[army] >= 0 or monarchs[army ^ 2] == THRONES[army]:
                # R8: a captured army whose partner's monarch is on its throne
                # takes its turn normally.
                break
            skipped += (army,)
            d["quiet"] += 1
            army = (army + 1) % 4
        control = -1
        mine = monarchs[army]
        if mine >= 0:
            other = _THRONE_OF[mine]
            if other >= 0 and other != army and monarchs[other] < 0:
                control = other  # R8: the mover commands that army too.
        d["phase"] = ROLL
        d["turn"] = army
        d["control"] = control
        d["skipped"] = skipped
        d["turns"] += 1
        return _build(d)

    def _end(self, state: ChaturajiState, winner: int) -> ChaturajiState:
        moves = state.turn_moves or state.last_moves
        return _replace(
            state, phase=OVER, winner=winner, last_moves=moves, turn_moves=(), reentry=()
        )

    # ----- outcome ----------------------------------------------------------

    def outcome(self, state: ChaturajiState) -> Outcome | None:
        if state.phase != OVER:
            return None
        seats = _seats_of(state.num_players)
        n = state.num_players
        if state.winner < 0:
            return Outcome(
                ranking=(frozenset(range(n)),),
                scores=(0,) * n,
                reason=sentence(
                    Msg(
                        "Drawn: {rounds} quiet rounds passed "
                        "without a capture, a promotion or a squire move",
                        rounds=state.quiet_limit // TURNS_PER_ROUND,
                    )
                ),
            )
        w = state.winner
        won = frozenset({seats[w], seats[w + 2]})
        lost = frozenset(range(n)) - won
        if len(won) == 1:
            why = Msg(
                "{player} ({army} and {partner}) wins: both enemy monarchs are captured",
                player=seat_tag(seats[w]),
                army=ARMY_TITLES[w],
                partner=ARMY_TITLES[w + 2],
            )
        else:
            first, second = sorted(won)
            why = Msg(
                "{player} and {partner_player} ({army} and {partner}) win: "
                "both enemy monarchs are captured",
                player=seat_tag(first),
                partner_player=seat_tag(second),
                army=ARMY_TITLES[w],
                partner=ARMY_TITLES[w + 2],
            )
        return Outcome(
            ranking=(won, lost),
            scores=tuple(1 if s in won else 0 for s in range(n)),
            reason=sentence(why),
        )
