"""Martian Chaturaji: the pure rules engine, and its text.

The engine is built in layers, a module each:
:mod:`~bot.engines.chaturaji_board` (the armies, the pieces, the board and
its move tables, R1-R3), :mod:`~bot.engines.chaturaji_state` (the actions
and the state), :mod:`~bot.engines.chaturaji_moves` (counting up the die and
generating the legal moves, R3-R6, R9, R10), :mod:`~bot.engines.chaturaji_rules`
(set-up, whose turn, legal actions, apply, the outcome), and this module's
:class:`ChaturajiEngine`: the view, the action text below, narration and
JSON.

The rules are ``docs/rules/chaturaji.md`` (R1-R15).  Four armies on one
chessboard, files ``a``-``h`` and ranks ``1``-``8``: Blue (South, home row
rank 1), Red (West, file a), Green (North, rank 8) and Yellow (East, file h).
Blue+Green and Red+Yellow are partnerships; turns go Blue, Red, Green, Yellow
(R1).  Squires advance towards the partner's home row (R2).

Seats are players, not armies (R13): with 4 players seat ``n`` commands army
``n``; with 2 players seat 0 commands Blue and Green and seat 1 Red and
Yellow; with 3 players seat 0 commands Blue and Green, seat 1 Red and seat 2
Yellow.  Each seat therefore commands one or two armies.

Action text (what :meth:`ChaturajiEngine.describe` returns and
:meth:`ChaturajiEngine.parse` accepts; case-insensitive, blanks ignored)::

    f2-f3        move the piece on f2 to f3 (R3)
    g1xe3        the same, capturing on e3 (``-`` and ``x`` are both read)
    h7-h8=p      a squire reaching its promotion row becomes a paladin
                 (``=r``: raven), R10
    h8=r         promote a squire standing on its promotion row in place,
                 with a die standing for the squire (R10, R6)
    pass         decline the remaining dice of the army moving now (R5)
    first blue   R14: the partnership that won the start roll picks its
                 first army
    reenter red  R11: re-enter both captured monarchs, Red's placed first
    reenter none R11: leave both captured
    place e1     R11: put the re-entering monarch on e1
    roll 3       chance: the next die shows 3 (1 Monarch .. 4 Squire, R5)

The die a move uses is implied by the piece: its kind (and army) picks the
die, so no die is ever named.  Piece letters (promotion): ``m`` monarch,
``p`` paladin, ``r`` raven, ``s`` squire.

Chaupal's choices
-----------------

Where the rulings leave a gap or differ from the rulebook:

- R5 "``pass`` ends the turn": with a controlled army (R8) ``pass`` declines
  the remaining dice of the army moving now; the controlled army's dice come
  after the mover's own (R8's order), so a ``pass`` on the own dice moves on to
  the controlled army's, and a ``pass`` there ends the turn.
- A turn (or the own part of an R8 turn) ends by itself when none of its
  remaining dice can move anything; the narration says so.  ``pass`` is only
  asked for when a move was possible.
- R6: the rulebook says a player *may* count up.  Counting is made automatic
  (the ruling); since any die may be declined this loses no choice.
- R10: the rulebook allows promotion to "any other piece ... captured" and
  says "may"; the ruling (and issue 8) restricts it to a lost paladin or raven
  and makes it part of the move.  We follow the ruling: a monarch comes back
  only through R11.  A squire with nothing to become stays a squire; a kind
  counts as lost while the army has none of it on the board.
- R11: the capturing player's two choices (yes/no, and whose monarch is placed
  first) are one action, ``reenter <army>`` or ``reenter none``.  The owners
  then place in that order; an owner with no empty square on its home or
  second row keeps its monarch captured and the next owner places.
- R13 with 3 players: seat 0 plays the whole Blue-Green partnership, seats 1
  and 2 play Red and Yellow (the lobby shows it before the game starts).
- R14: in a 4-player game either player of the winning partnership may pick
  its first army (both are asked; the first answer counts).
- R15: a turn is quiet when nothing in it was captured or promoted and no
  squire moved; the count goes up when a turn ends (or is skipped) and the
  game is drawn when it reaches ``4 * quiet_rounds``.

States are frozen dataclasses; the per-move path copies them through
:func:`_replace` (``object.__new__`` plus the field dict), like Artaban.

Speed (issue 19, for search playouts): a MOVE state generates its legal
moves once and keeps them in its ``__dict__`` outside the fields
(:func:`_legal`), so ``_settle`` (can anything move?), ``legal_actions`` and
``apply`` (is this move legal?) share one generation; ``apply`` finds a move
from ``legal_actions`` by identity.  Move generation, rolls and turn changes
use tables built at import.  ``tests/engines/test_chaturaji_speed_safety.py``
holds seeded playout logs hashed before this work: not one legal move, order,
narration, state or outcome changed.
"""

from __future__ import annotations

import re
from typing import Any, Final

from bot.engines.chaturaji_board import (
    _ARMY,
    _CENTRE_SET,
    _FORWARD_WORD,
    _KIND,
    _PHASES,
    _ROW_WORD,
    ARMIES,
    ARMY_TITLES,
    CHOOSE,
    KIND_NAMES,
    KINDS,
    LETTERS,
    MONARCH,
    MOVE,
    OVER,
    PARTNERSHIP_TITLES,
    PARTNERSHIPS,
    PLACE,
    RAVEN,
    REENTER,
    ROLL,
    SQUIRE,
    START,
    THRONES,
    TURNS_PER_ROUND,
    _seats_of,
    piece,
    square_name,
    square_of,
)
from bot.engines.chaturaji_moves import (
    _counted,
    _monarchs,
    _ravens_in_centre,
    _squares,
    _stage_army,
    _stage_kinds,
)
from bot.engines.chaturaji_rules import _CHANCE_SET, ChaturajiRules, _piece_words
from bot.engines.chaturaji_state import (
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
)
from bot.engines.chaturaji_views import (
    ArmyView,
    ChaturajiView,
    DieView,
    FinalView,
    MoveView,
    PieceView,
)
from bot.engines.core import (
    JSON,
    InvalidAction,
    Seat,
    clause_of,
    excerpt,
    joined,
    seat_tag,
    sentence,
    whole_number,
)
from bot.engines.messages import Msg

# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

_SQUARE: Final = "([a-h][1-8])"
_MOVE_RE: Final = re.compile(f"{_SQUARE}[-x:]?{_SQUARE}(?:=?([pr]))?")
_INPLACE_RE: Final = re.compile(f"{_SQUARE}=?([pr])")
_WORD_RE: Final = re.compile(r"(first|reenter|place|roll)(.*)")
_HELP: Final = Msg(
    "Moves are written from-to (f2-f3, g1xe3, h7-h8=p), or pass; see docs/rules/chaturaji.md."
)


class ChaturajiEngine(ChaturajiRules):
    """The Martian Chaturaji engine: the rules (:class:`ChaturajiRules`), and
    here the view, the action text (parse, describe, labels, narration) and
    the JSON of a state."""

    # ----- view -------------------------------------------------------------

    def view(self, state: ChaturajiState, seat: Seat | None) -> ChaturajiView:
        seats = _seats_of(state.num_players)
        board = state.board
        playing = state.phase in (ROLL, MOVE, REENTER, PLACE)
        armies = []
        for a in range(4):
            lost = tuple(
                KINDS[k]
                for k in range(3)
                if (state.monarchs[a] < 0 if k == MONARCH else piece(a, k) not in board)
            )
            lost += ("squire",) * self._squires_lost(board, a)
            armies.append(
                ArmyView(
                    army=ARMIES[a],
                    partnership=a & 1,
                    commander=seats[a],
                    throne=square_name(THRONES[a]),
                    home_row=_ROW_WORD[a],
                    forward=_FORWARD_WORD[a],
                    monarch=square_name(state.monarchs[a]) if state.monarchs[a] >= 0 else None,
                    lost=lost,
                    pieces=sum(1 for c in board if c and _ARMY[c] == a),
                    controlled_by=ARMIES[state.turn] if playing and state.control == a else None,
                )
            )
        pieces = tuple(
            PieceView(
                square=square_name(sq),
                file=sq % 8,
                rank=sq // 8 + 1,
                army=ARMIES[_ARMY[c]],
                kind=KINDS[_KIND[c]],
            )
            for sq, c in enumerate(board)
            if c
        )
        dice = tuple(
            DieView(
                army=ARMIES[a],
                rolled=f,
                kind=KINDS[k] if k >= 0 else None,
                counted_up=k != f - 1,
                used=used,
                void=k < 0,
            )
            for a, f, k, used in state.dice
        )
        to_move = sorted(self.to_move(state) - _CHANCE_SET)
        commanding: tuple[str, ...] = ()
        if playing:
            commanding = (ARMIES[state.turn],) + (
                (ARMIES[state.control],) if state.control >= 0 else ()
            )
        final = None
        outcome = self.outcome(state)
        if outcome is not None:
            final = FinalView(
                ranking=tuple(tuple(sorted(p)) for p in outcome.ranking),
                scores=outcome.scores,
                reason=outcome.reason,
                winners=PARTNERSHIPS[state.winner] if state.winner >= 0 else None,
            )
        mine = None
        if seat is not None and 0 <= seat < state.num_players:
            mine = tuple(ARMIES[a] for a in range(4) if seats[a] == seat)
        return ChaturajiView(
            phase=state.phase,
            num_players=state.num_players,
            seats=tuple(
                tuple(ARMIES[a] for a in range(4) if seats[a] == s)
                for s in range(state.num_players)
            ),
            armies=tuple(armies),
            pieces=pieces,
            turn=ARMIES[state.turn] if playing else None,
            controlled=ARMIES[state.control] if playing and state.control >= 0 else None,
            to_play=to_move[0] if to_move else None,
            commanding=commanding,
            dice=dice,
            start_rolls=state.start_rolls,
            placing=ARMIES[state.placing[0]] if state.phase == PLACE else None,
            last_moves=tuple(self._move_view(r) for r in state.last_moves),
            turn_moves=tuple(self._move_view(r) for r in state.turn_moves),
            skipped=tuple(ARMIES[a] for a in state.skipped),
            quiet_turns=state.quiet,
            quiet_limit=state.quiet_limit,
            quiet_rounds=state.quiet // TURNS_PER_ROUND,
            quiet_round_limit=state.quiet_limit // TURNS_PER_ROUND,
            turns=state.turns,
            final=final,
            viewer=seat if seat is not None and 0 <= seat < state.num_players else None,
            me=mine,
        )

    @staticmethod
    def _squires_lost(board: tuple[int, ...], army: int) -> int:
        """Squires gone from the board: captured, or promoted (R10)."""
        return 3 - sum(1 for c in board if c == piece(army, SQUIRE))

    @staticmethod
    def _move_view(record: MoveRecord) -> MoveView:
        army, kind, frm, to, promo, captured = record
        return MoveView(
            army=ARMIES[army],
            kind=KINDS[kind],
            frm=square_name(frm) if frm >= 0 else None,
            to=square_name(to),
            captured=tuple(square_name(s) for s in captured),
            promoted=KINDS[promo] if promo >= 0 else None,
        )

    # ----- text -------------------------------------------------------------

    def parse(self, state: ChaturajiState, seat: Seat, text: str) -> ChaturajiAction:
        compact = "".join(ch for ch in text.lower() if not ch.isspace())
        if not compact:
            raise InvalidAction(Msg("Type a move. {help}", help=_HELP))
        if compact == "pass":
            return PASS
        m = _MOVE_RE.fullmatch(compact)
        if m is not None:
            promo = -1 if m.group(3) is None else LETTERS.index(m.group(3))
            frm, to = square_of(m.group(1)), square_of(m.group(2))
            if frm == to:
                raise InvalidAction(
                    Msg("A piece must move somewhere, not {text}.", text=excerpt(text))
                )
            return Move(frm, to, promo)
        m = _INPLACE_RE.fullmatch(compact)
        if m is not None:
            sq = square_of(m.group(1))
            return Move(sq, sq, LETTERS.index(m.group(2)))
        m = _WORD_RE.fullmatch(compact)
        if m is not None:
            word, rest = m.group(1), m.group(2)
            if word == "roll":
                value = whole_number(rest, max_digits=1)
                if value is None or not 1 <= value <= 4:
                    raise InvalidAction(Msg("A die shows 1 to 4, not {text}.", text=excerpt(rest)))
                return _ROLLS[value - 1]
            if word == "place":
                if re.fullmatch(_SQUARE, rest):
                    return Place(square_of(rest))
                raise InvalidAction(
                    Msg("Place the monarch on a square (a1-h8), not {text}.", text=excerpt(rest))
                )
            if rest in ARMIES:
                return First(ARMIES.index(rest)) if word == "first" else Reenter(ARMIES.index(rest))
            if word == "reenter" and rest == "none":
                return Reenter(-1)
            raise InvalidAction(
                Msg("Name an army (blue, red, green or yellow), not {text}.", text=excerpt(rest))
            )
        raise InvalidAction(
            Msg("I don't understand {text}. {help}", text=excerpt(text), help=_HELP)
        )

    def describe(self, state: ChaturajiState, seat: Seat, action: ChaturajiAction) -> str:
        match action:
            case Move(frm, to, promo):
                tail = f"={LETTERS[promo]}" if 0 <= promo < 4 else ""
                if frm == to:
                    return f"{square_name(frm)}{tail}"
                sep = "x" if 0 <= to < 64 and state.board[to] else "-"
                return f"{square_name(frm)}{sep}{square_name(to)}{tail}"
            case Pass():
                return "pass"
            case Roll(value):
                return f"roll {value}"
            case First(army):
                return f"first {ARMIES[army]}"
            case Reenter(first):
                return f"reenter {ARMIES[first] if first >= 0 else 'none'}"
            case Place(square):
                return f"place {square_name(square)}"
        raise InvalidAction(Msg("Not a Martian Chaturaji action: {action}", action=repr(action)))

    def menu_words(self, state: ChaturajiState, seat: Seat, text: str) -> tuple[str, ...]:
        """A piece's moves group under its square (``f2-f3`` -> ``("f2",
        "f2-f3")``); everything else is one level."""
        if len(text) >= 3 and re.fullmatch(_SQUARE, text[:2]) and text[2] in "-x=":
            return (text[:2], text)
        return (text,)

    def choice_label(self, state: ChaturajiState, seat: Seat, prefix: str) -> str:
        """Menu text for the moves of one piece: ``f2: Blue squire``."""
        if re.fullmatch(_SQUARE, prefix):
            code = state.board[square_of(prefix)]
            if code:
                return Msg("{square}: {piece}", square=prefix, piece=_piece_words(code))
        return prefix

    def label(self, state: ChaturajiState, seat: Seat, action: ChaturajiAction) -> str:
        text = self.describe(state, seat, action)
        match action:
            case Move(frm, to, promo):
                code = state.board[frm] if 0 <= frm < 64 else 0
                if not code:
                    return text
                mover = _piece_words(code)
                if frm == to:
                    return Msg(
                        "{piece} {move}: promote in place to {kind}",
                        piece=mover,
                        move=text,
                        kind=KIND_NAMES[promo],
                    )
                taken = state.board[to]
                promoted = KIND_NAMES[promo] if promo >= 0 else None
                if taken:
                    if promoted is not None:
                        return Msg(
                            "{piece} {move} takes {taken}, becomes a {kind}",
                            piece=mover,
                            move=text,
                            taken=_piece_words(taken),
                            kind=promoted,
                        )
                    return Msg(
                        "{piece} {move} takes {taken}",
                        piece=mover,
                        move=text,
                        taken=_piece_words(taken),
                    )
                if (
                    _KIND[code] == RAVEN
                    and to in _CENTRE_SET
                    and _ravens_in_centre(state.board, _ARMY[code], to)
                ):
                    if promoted is not None:
                        return Msg(
                            "{piece} {move}: unkindness of ravens, becomes a {kind}",
                            piece=mover,
                            move=text,
                            kind=promoted,
                        )
                    return Msg("{piece} {move}: unkindness of ravens", piece=mover, move=text)
                if promoted is not None:
                    return Msg(
                        "{piece} {move}, becomes a {kind}", piece=mover, move=text, kind=promoted
                    )
                return Msg("{piece} {move}", piece=mover, move=text)
            case Pass():
                # Names the army, its dice and the turn, so a Pass kept in an
                # old menu never reads like a Pass of later dice (menus are
                # matched by label).
                army = _stage_army(state)
                kinds = _stage_kinds(state)
                left = joined([KIND_NAMES[k] for k in range(4) if kinds >> k & 1], ", ") or Msg(
                    "none"
                )
                return Msg(
                    "Pass: {army} declines its dice left ({left}), turn {turn}",
                    army=ARMY_TITLES[army],
                    left=left,
                    turn=state.turns + 1,
                )
            case Roll(value):
                return Msg("Roll {value} ({kind})", value=value, kind=KIND_NAMES[value - 1])
            case First(army):
                return Msg("{army} moves first", army=ARMY_TITLES[army])
            case Reenter(first):
                if first < 0:
                    return Msg("No re-entry: both monarchs stay captured")
                return Msg("Re-enter both monarchs, {army} placing first", army=ARMY_TITLES[first])
            case Place(square):
                army = state.placing[0] if state.placing else -1
                if army < 0:
                    return Msg("The monarch on {square}", square=square_name(square))
                return Msg(
                    "{army} monarch on {square}",
                    army=ARMY_TITLES[army],
                    square=square_name(square),
                )
        return text

    def narrate(
        self,
        before: ChaturajiState,
        seat: Seat,
        action: ChaturajiAction,
        after: ChaturajiState,
    ) -> str:
        seats = _seats_of(before.num_players)
        parts: list[str] = []
        match action:
            case Roll(value):
                if before.phase == START:
                    army = len(before.start_rolls)
                    parts.append(
                        Msg(
                            "{army} rolls {value} for the start",
                            army=ARMY_TITLES[army],
                            value=value,
                        )
                    )
                    if army == 3 and after.phase == START:
                        parts.append(Msg("the partnerships tie and roll again"))  # R14
                    elif after.phase == CHOOSE:
                        p = self._start_winner(after)
                        parts.append(Msg("{partnership} starts", partnership=PARTNERSHIP_TITLES[p]))
                else:
                    army, face, kind, _ = self._last_die(before, value)
                    if kind < 0:
                        parts.append(
                            Msg(
                                "{army} rolls {value}: nothing (void)",
                                army=ARMY_TITLES[army],
                                value=face,
                            )
                        )
                    elif kind != face - 1:
                        parts.append(
                            Msg(
                                "{army} rolls {value} counted up to {kind}",
                                army=ARMY_TITLES[army],
                                value=face,
                                kind=KIND_NAMES[kind],
                            )
                        )
                    else:
                        parts.append(
                            Msg(
                                "{army} rolls {value}: {kind}",
                                army=ARMY_TITLES[army],
                                value=face,
                                kind=KIND_NAMES[kind],
                            )
                        )
            case First(army):
                parts.append(
                    Msg(
                        "{player} chooses {army} to move first",
                        player=seat_tag(seat),
                        army=ARMY_TITLES[army],
                    )
                )
            case Reenter(first):
                if first < 0:
                    parts.append(
                        Msg("{player} declines the re-entry of the monarchs", player=seat_tag(seat))
                    )
                else:
                    parts.append(
                        Msg(
                            "{player} re-enters both captured monarchs, {army} placing first",
                            player=seat_tag(seat),
                            army=ARMY_TITLES[first],
                        )
                    )
            case Place(square):
                army = before.placing[0]
                parts.append(
                    Msg(
                        "{player} places the {army} monarch on {square}",
                        player=seat_tag(seat),
                        army=ARMY_TITLES[army],
                        square=square_name(square),
                    )
                )
            case Pass():
                parts.append(Msg("{player} passes", player=seat_tag(seat)))
            case Move(frm, to, promo):
                code = before.board[frm]
                mover = _piece_words(code)
                move = self.describe(before, seat, action)
                who = seat_tag(seat)
                record = (
                    after.turn_moves[-1]
                    if after.turn_moves
                    else (after.last_moves[-1] if after.last_moves else None)
                )
                taken = before.board[to] if to != frm else 0
                words: str
                if taken:
                    words = Msg(
                        "{player}: {piece} {move} takes the {taken}",
                        player=who,
                        piece=mover,
                        move=move,
                        taken=_piece_words(taken),
                    )
                elif record is not None and len(record[5]) == 3:
                    names = joined([_piece_words(before.board[s]) for s in record[5]], ", ")
                    words = Msg(
                        "{player}: {piece} {move}: an unkindness of ravens takes {names}",
                        player=who,
                        piece=mover,
                        move=move,
                        names=names,
                    )
                else:
                    words = Msg("{player}: {piece} {move}", player=who, piece=mover, move=move)
                if promo >= 0:
                    words = Msg("{move} and becomes a {kind}", move=words, kind=KIND_NAMES[promo])
                parts.append(words)
        parts.extend(self._turn_news(before, after, seats))
        return sentence(joined(parts, "; "))

    @staticmethod
    def _last_die(before: ChaturajiState, value: int) -> Die:
        """The die a roll of ``value`` gives in ``before`` (R6: counted up)."""
        army = before.turn if len(before.dice) < 2 else before.control
        return (army, value, _counted(before.board, before.monarchs, army, value), False)

    def _turn_news(
        self, before: ChaturajiState, after: ChaturajiState, seats: tuple[Seat, ...]
    ) -> list[str]:
        news: list[str] = []
        if after.phase == REENTER and before.phase != REENTER:
            news.append(
                Msg(
                    "{player} may re-enter both captured monarchs",
                    player=seat_tag(seats[after.turn]),
                )
            )
        if after.phase == PLACE and (before.phase != PLACE or after.placing != before.placing):
            army = after.placing[0]
            news.append(
                Msg(
                    "{player} places the {army} monarch",
                    player=seat_tag(seats[army]),
                    army=ARMY_TITLES[army],
                )
            )
        if after.phase == OVER:
            outcome = self.outcome(after)
            if outcome is not None:
                news.append(clause_of(outcome.reason))
            return news
        new_turn = after.turns != before.turns
        if before.phase == MOVE and after.stage == 1 and before.stage == 0 and not new_turn:
            news.append(Msg("now {army}'s dice", army=ARMY_TITLES[after.control]))
        if new_turn and before.phase in (ROLL, MOVE, REENTER, PLACE):
            news.append(Msg("{army}'s turn ends", army=ARMY_TITLES[before.turn]))
        if new_turn:
            for army in after.skipped:
                news.append(
                    Msg("{army}'s turn is skipped (monarch captured)", army=ARMY_TITLES[army])
                )
            if after.control >= 0:
                news.append(
                    Msg(
                        "{army} to play ({player}), commanding {controlled} from its throne",
                        army=ARMY_TITLES[after.turn],
                        player=seat_tag(seats[after.turn]),
                        controlled=ARMY_TITLES[after.control],
                    )
                )
            else:
                news.append(
                    Msg(
                        "{army} to play ({player})",
                        army=ARMY_TITLES[after.turn],
                        player=seat_tag(seats[after.turn]),
                    )
                )
        return news

    def private_to(
        self, before: ChaturajiState, seat: Seat, action: ChaturajiAction
    ) -> Seat | None:
        return None

    # ----- serialisation ----------------------------------------------------

    def to_json(self, state: ChaturajiState) -> JSON:
        def record(r: MoveRecord) -> JSON:
            return [r[0], r[1], r[2], r[3], r[4], list(r[5])]

        return {
            "num_players": state.num_players,
            "quiet_limit": state.quiet_limit,
            "phase": state.phase,
            "pieces": {
                square_name(sq): f"{ARMIES[_ARMY[c]]} {KINDS[_KIND[c]]}"
                for sq, c in enumerate(state.board)
                if c
            },
            "turn": state.turn,
            "control": state.control,
            "stage": state.stage,
            "dice": [[a, f, k, used] for a, f, k, used in state.dice],
            "start_rolls": list(state.start_rolls),
            "reentry": list(state.reentry),
            "placing": list(state.placing),
            "quiet": state.quiet,
            "eventful": state.eventful,
            "turn_moves": [record(r) for r in state.turn_moves],
            "last_moves": [record(r) for r in state.last_moves],
            "skipped": list(state.skipped),
            "turns": state.turns,
            "winner": state.winner,
        }

    def from_json(self, obj: JSON) -> ChaturajiState:
        try:
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            n = int(obj["num_players"])
            if not 2 <= n <= 4:
                raise ValueError(f"bad player count {n}")
            board = [0] * 64
            for name, what in dict(obj["pieces"]).items():
                if not re.fullmatch(_SQUARE, str(name)):
                    raise ValueError(f"bad square {name!r}")
                army, kind = str(what).split()
                board[square_of(str(name))] = piece(ARMIES.index(army), KINDS.index(kind))

            def army_or_none(value: Any) -> int:
                v = int(value)
                if not -1 <= v < 4:
                    raise ValueError(f"bad army {v}")
                return v

            def armies(values: Any) -> tuple[int, ...]:
                out = tuple(int(v) for v in values)
                if any(not 0 <= v < 4 for v in out):
                    raise ValueError(f"bad armies {out}")
                return out

            def records(values: Any) -> tuple[MoveRecord, ...]:
                out: list[MoveRecord] = []
                for r in values:
                    a, k, f, t, p, caps = r
                    out.append(
                        (int(a), int(k), int(f), int(t), int(p), tuple(int(c) for c in caps))
                    )
                return tuple(out)

            dice: list[Die] = []
            for a, f, k, used in obj["dice"]:
                if not (0 <= int(a) < 4 and 1 <= int(f) <= 4 and -1 <= int(k) < 4):
                    raise ValueError("bad die")
                dice.append((int(a), int(f), int(k), bool(used)))
            state = ChaturajiState(
                num_players=n,
                quiet_limit=int(obj["quiet_limit"]),
                phase=phase,
                board=tuple(board),
                monarchs=_monarchs(tuple(board)),
                squares=_squares(tuple(board)),
                turn=army_or_none(obj["turn"]),
                control=army_or_none(obj["control"]),
                stage=int(obj["stage"]),
                dice=tuple(dice),
                start_rolls=tuple(int(v) for v in obj["start_rolls"]),
                reentry=armies(obj["reentry"]),
                placing=armies(obj["placing"]),
                quiet=int(obj["quiet"]),
                eventful=bool(obj["eventful"]),
                turn_moves=records(obj["turn_moves"]),
                last_moves=records(obj["last_moves"]),
                skipped=armies(obj["skipped"]),
                turns=int(obj["turns"]),
                winner=army_or_none(obj["winner"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"broken Martian Chaturaji state: {exc}") from exc
        if phase in (MOVE, ROLL, REENTER) and state.turn < 0:
            raise ValueError("broken Martian Chaturaji state: no army to play")
        if phase == PLACE and not state.placing:
            raise ValueError("broken Martian Chaturaji state: nobody to place")
        return state
