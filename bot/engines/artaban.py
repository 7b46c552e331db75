"""Artaban: the pure rules engine, and its text.

The engine is built in layers, a module each: :mod:`~bot.engines.artaban_board`
(the board, the dice and their rolling, R1-R3),
:mod:`~bot.engines.artaban_moves` (the actions, and a die's moves by table),
:mod:`~bot.engines.artaban_setup` (the set-up's arithmetic, R7),
:mod:`~bot.engines.artaban_state` (the state, and a move's next state),
:mod:`~bot.engines.artaban_rules` (set-up, whose turn, legal actions, apply,
scoring), and this module's :class:`ArtabanEngine`: the view, the action text
below, narration and JSON.

The rulings R1-R10 in ``docs/rules/artaban.md`` fill the rulebook's gaps.
Two players, an 8x8 board, files ``a``-``h`` and ranks ``1``-``8``.  Seat 0
(White, ``{p0}``) sets up on rank 2 and advances towards rank 8; seat 1
(Black, ``{p1}``) sets up on rank 7 and advances towards rank 1.  Forward, left and
right are always meant from the die owner's side, so Black's left is the
board's file-h side.

A die is a real cube (R1), stored as its top face and the face towards its
owner's front; the standard Western handedness (1, 2 and 3 counterclockwise
round their corner) gives every other face (:func:`right_face`).

Action text (what :meth:`ArtabanEngine.describe` returns and
:meth:`ArtabanEngine.parse` accepts; case-insensitive, blanks anywhere are
ignored, so ``C2 ^`` and ``c2 x c3`` work too)::

    play (the player to move)
      c2^   c2<   c2>      tip the die on c2 forward / left / right (R2)
      c2@<  c2@>           turn it a quarter left / right in place (R3)
      c2xc3                capture the enemy die on c3 with the die on c2 (R4, R5)
      c2!c3                sacrifice the die on c2 against the equal die on c3 (R6)
      offer-draw           offer a draw, then make your move as usual (R9)
      accept-draw          accept your opponent's pending offer: the game is drawn
      decline-draw         refuse it, then make your move
    set-up (both players at once, each in private; R7)
      set a 3              top value 3 for the next file to fill (files go a..h)
      leader c             after all eight values: the Leader stands on file c
      commit               lock the arrangement in (both revealed once both commit)
      setup random         a random legal arrangement instead, dealt by chance
                           and committed at once
      setup reset          throw away what you have chosen and start again
      setup 3 4 5 2 6 1 4 3 leader c
                           the whole arrangement at once (values for a..h),
                           ready to commit; accepted when typed, never listed
    chance (seat CHANCE), dealing a random set-up file by file
      p0 set a 3           seat 0's file a gets top value 3
      p0 leader c          seat 0's Leader goes on file c

:meth:`ArtabanEngine.legal_actions` lists a player's dice in square order
(a1, b1 .. h8); for each die its tips and captures/sacrifices in the order
forward, left, right (then the two forward diagonals with R5), then its two
turns; the draw actions come last.  In set-up the choices for the current step
come first, then ``setup random`` and ``setup reset``.

Readings of the rulings, explained where they are implemented:

- R7 says a player "may instead ask for a random legal arrangement", i.e.
  instead of committing one: ``setup random`` has chance deal values file by
  file (each weighted by how many completions it leaves, so every legal
  arrangement and Leader file is equally likely) and the result is committed
  at once.  Set-up goes file by file so each step offers at most ten choices.

- R9's last sentence ("a player with a turn available but nothing else may
  turn; ... passes automatically") can never apply: by R9's first case the game
  ends as soon as the player to move has no tip, capture or sacrifice.  So there
  is no pass action.
- R9 does not say how a draw offer sits with the turn.  ``offer-draw`` does not
  use the offerer's move (as in chess: offer, then move); the opponent may then
  ``accept-draw``, ``decline-draw`` (and still move) or simply move, which lets
  the offer lapse.  Offers are not plies for the 40-ply rule.

States are frozen dataclasses.  In pure Python the per-move path builds them
through :func:`_replace`/:func:`_after_move` (``object.__new__`` plus the field
dict) instead of the generated frozen ``__init__``, which nearly doubles
playout speed; compiled, :class:`ArtabanState` is a native class, built by its
own compiled ``__init__`` (:data:`_NATIVE`), which is cheaper still.
For random playouts and search (issue 19) a die's moves come from tables
indexed by the verdicts on its neighbours (:func:`_generate`), and a PLAY
state keeps each seat's moves in a slot outside its fields (:data:`_LEGAL`):
``apply`` works out the next player's moves once (R9 needs them to know
whether the game is over), ``legal_actions`` hands out copies, and a turn,
which keeps the die's top value, or a draw offer keeps them as they are.
"""

from __future__ import annotations

import re
from typing import Final

from bot.engines.artaban_board import (
    _DIRECTION_WORD,
    _DIRECTIONS,
    _HOME,
    _LEADER,
    _ORIENT,
    _OWNER,
    _PHASES,
    _RESULTS,
    _SQUARE_RE,
    _STEPS,
    _TIPPED,
    _TOP,
    _TURNED,
    AGREED,
    FILES,
    FORWARD,
    LEFT,
    NUM_FILES,
    ORIENTATIONS,
    OVER,
    PLAY,
    QUIET_LIMIT,
    SETUP,
    SETUP_SUM,
    _code,
    _decode,
    right_face,
    square_name,
    square_of,
    start_front,
    tip,
    turn,
)
from bot.engines.artaban_moves import (
    _ACCEPT,
    _COMMIT,
    _DECLINE,
    _LEADER_ACTS,
    _MOVES,
    _OFFER,
    _RANDOM,
    _RESET,
    _SETUP_ACTIONS,
    _TIP_ACTS,
    _TURN_ACTS,
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
from bot.engines.artaban_rules import _HELP_PLAY, _HELP_SETUP, ArtabanRules
from bot.engines.artaban_setup import arrangements, value_odds
from bot.engines.artaban_state import ArtabanState, LastMove, _movers
from bot.engines.artaban_views import (
    ArtabanView,
    DieView,
    FinalView,
    LastMoveView,
    PlayerView,
    SetupView,
)
from bot.engines.core import (
    JSON,
    InvalidAction,
    Seat,
    excerpt,
    joined,
    seat_tag,
    whole_number,
)
from bot.engines.messages import Msg

# --------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------

_MOVE_RE: Final = re.compile(_SQUARE_RE + r"(\^|<|>|@<|@>|x" + _SQUARE_RE + "|!" + _SQUARE_RE + ")")
# ASCII digits only: ``\d`` would also take ``٣`` (and int() reads it).
_SET_RE: Final = re.compile(r"set([a-h])([0-9])")
_LEADER_RE: Final = re.compile(r"leader([a-h])")
_ALL_RE: Final = re.compile(r"setup([0-9]{8})leader([a-h])")
_DEAL_RE: Final = re.compile(r"p([01])(set([a-h])([0-9])|leader([a-h]))")
_MENU_RE: Final = re.compile(_SQUARE_RE + r"[\^<>@x!]")
_WORDS: Final[dict[str, ArtabanAction]] = {
    "offerdraw": _OFFER,
    "acceptdraw": _ACCEPT,
    "declinedraw": _DECLINE,
    "setuprandom": _RANDOM,
    "setupreset": _RESET,
    "commit": _COMMIT,
}


def _help(state: ArtabanState) -> str:
    """The forms that matter now (a refusal stays short)."""
    return _HELP_SETUP if state.phase == SETUP else _HELP_PLAY


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class ArtabanEngine(ArtabanRules):
    """The Artaban engine: the rules (:class:`ArtabanRules`), and here the
    view, the action text (parse, describe, labels, narration) and the JSON
    of a state."""

    # ----- view -------------------------------------------------------------

    def view(self, state: ArtabanState, seat: Seat | None) -> ArtabanView:
        board = state.board
        dice: list[DieView] = []
        leader_sq: list[str | None] = [None, None]
        for sq, code in enumerate(board):
            if not code:
                continue
            owner, leader, top, front = _decode(code)
            right = right_face(top, front)
            name = square_name(sq)
            if leader:
                leader_sq[owner] = name
            dice.append(
                DieView(
                    square=name,
                    file=sq % 8,
                    rank=sq // 8 + 1,
                    owner=owner,
                    top=top,
                    front=front,
                    left=7 - right,
                    right=right,
                    leader=leader,
                    home=_HOME[owner][sq],
                )
            )
        scores, home, on_board = self.tally(board)
        revealed = state.phase != SETUP
        players = tuple(
            PlayerView(
                seat=s,
                committed=state.committed[s],
                score=scores[s],
                home=home[s],
                on_board=on_board[s] if revealed else NUM_FILES,
                leader=leader_sq[s],
            )
            for s in (0, 1)
        )
        last: LastMoveView | None = None
        if state.last_move is not None:
            mover, kind, frm, to = state.last_move
            last = LastMoveView(
                seat=mover,
                kind=kind,
                frm=square_name(frm),
                to=square_name(to),
                forward=kind == "tip" and _STEPS[mover][FORWARD][frm] == to,
            )
        final: FinalView | None = None
        # Like the outcome's, the reason names seats with {pN} tags: the board
        # draws it with the players' names (the colours White and Black are
        # the rules' words, not the orange and blue seats a player sees).
        outcome = self.outcome(state)
        if outcome is not None:
            final = FinalView(
                ranking=tuple(tuple(sorted(g)) for g in outcome.ranking),
                scores=outcome.scores,
                reason=outcome.reason,
                agreed=state.result == AGREED,
            )
        me: SetupView | None = None
        if state.phase == SETUP and seat in (0, 1):
            assert seat is not None
            mine = state.values[seat]
            lead = state.leaders[seat]
            me = SetupView(
                seat=seat,
                values=mine,
                leader=FILES[lead] if lead >= 0 else None,
                committed=state.committed[seat],
                total=sum(mine),
            )
        return ArtabanView(
            phase=state.phase,
            diagonal_captures=state.diagonal,
            to_play=state.to_play if state.phase == PLAY else None,
            waiting_on=tuple(sorted(self.waiting_on(state))),
            players=players,
            dice=tuple(dice),
            last_move=last,
            draw_offer=state.draw_offer,
            quiet_plies=state.quiet,
            quiet_limit=QUIET_LIMIT,
            ply=state.ply,
            final=final,
            viewer=seat if seat in (0, 1) else None,
            me=me,
        )

    # ----- text -------------------------------------------------------------

    def parse(self, state: ArtabanState, seat: Seat, text: str) -> ArtabanAction:
        raw = text.strip().lower()
        compact = "".join(ch for ch in raw if not ch.isspace() and ch not in "-_,")
        if not compact:
            raise InvalidAction(Msg("Type a move. {help}", help=_help(state)))
        word = _WORDS.get(compact)
        if word is not None:
            return word
        m = _MOVE_RE.fullmatch(compact)
        if m is not None:
            sq = square_of(m.group(1))
            rest = m.group(2)
            if rest in _DIRECTIONS:
                return _TIP_ACTS[sq][rest]
            if rest[0] == "@":
                return _TURN_ACTS[sq][0 if rest[1] == LEFT else 1]
            if rest[0] == "x":
                return Capture(sq, square_of(m.group(3)))
            return Sacrifice(sq, square_of(m.group(4)))
        m = _SET_RE.fullmatch(compact)
        if m is not None:
            return SetValue(FILES.index(m.group(1)), self._value(m.group(2)))
        m = _LEADER_RE.fullmatch(compact)
        if m is not None:
            return _LEADER_ACTS[FILES.index(m.group(1))]
        m = _ALL_RE.fullmatch(compact)
        if m is not None:
            values = tuple(self._value(ch) for ch in m.group(1))
            return SetupAll(values, FILES.index(m.group(2)))
        m = _DEAL_RE.fullmatch(compact)
        if m is not None:
            who = int(m.group(1))
            if m.group(3) is not None:
                return DealValue(who, FILES.index(m.group(3)), self._value(m.group(4)))
            return DealLeader(who, FILES.index(m.group(5)))
        raise InvalidAction(
            Msg("I don't understand {text}. {help}", text=excerpt(text), help=_help(state))
        )

    @staticmethod
    def _value(digit: str) -> int:
        v = whole_number(digit, max_digits=1)
        if v is None or not 1 <= v <= 6:
            raise InvalidAction(
                Msg("A die's top value is 1 to 6, not {text}.", text=excerpt(digit))
            )
        return v

    def describe(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> str:
        match action:
            case Tip(sq, d):
                return f"{square_name(sq)}{d}"
            case Turn(sq, d):
                return f"{square_name(sq)}@{d}"
            case Capture(frm, to):
                return f"{square_name(frm)}x{square_name(to)}"
            case Sacrifice(frm, to):
                return f"{square_name(frm)}!{square_name(to)}"
            case OfferDraw():
                return "offer-draw"
            case AcceptDraw():
                return "accept-draw"
            case DeclineDraw():
                return "decline-draw"
            case SetValue(f, v):
                return f"set {FILES[f]} {v}"
            case SetLeader(f):
                return f"leader {FILES[f]}"
            case SetupRandom():
                return "setup random"
            case SetupReset():
                return "setup reset"
            case Commit():
                return "commit"
            case SetupAll(values, leader):
                return f"setup {' '.join(map(str, values))} leader {FILES[leader]}"
            case DealValue(s, f, v):
                return f"p{s} set {FILES[f]} {v}"
            case DealLeader(s, f):
                return f"p{s} leader {FILES[f]}"
        raise InvalidAction(Msg("Not an Artaban action: {action}", action=repr(action)))

    def menu_words(self, state: ArtabanState, seat: Seat, text: str) -> tuple[str, ...]:
        """How an action's text splits into menu levels: a die's moves group
        under its square (``c2^`` -> ``("c2", "c2^")``); everything else,
        set-up steps included (at most ten choices each), is one level."""
        m = _MENU_RE.match(text)
        if m is not None:
            return (m.group(1), text)
        return (text,)

    def _die_text(self, state: ArtabanState, sq: int) -> str:
        code = state.board[sq] if 0 <= sq < 64 else 0
        if not code:
            return square_name(sq) if 0 <= sq < 64 else "?"
        if _LEADER[code]:
            return Msg("{square}: {top} (Leader)", square=square_name(sq), top=_TOP[code])
        return f"{square_name(sq)}: {_TOP[code]}"

    def choice_label(self, state: ArtabanState, seat: Seat, prefix: str) -> str:
        """Menu text for the moves of one die: ``c2: 5 (Leader)``."""
        if re.fullmatch(_SQUARE_RE, prefix):
            return self._die_text(state, square_of(prefix))
        return prefix

    def label(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> str:
        text = self._label(state, seat, action)
        return text if text else self.describe(state, seat, action)

    def _label(self, state: ArtabanState, seat: Seat, action: ArtabanAction) -> str:
        board = state.board
        match action:
            case Tip(sq, d):
                code = board[sq]
                owner = _OWNER[code] if code else seat
                dst = _STEPS[owner][d][sq] if d in _DIRECTIONS else -1
                if not code or dst < 0:
                    return ""
                new = _TIPPED[d][code]
                return Msg(
                    "Tip {square} {direction} to {target} (top {top} -> {new_top})",
                    square=square_name(sq),
                    direction=_DIRECTION_WORD[d],
                    target=square_name(dst),
                    top=_TOP[code],
                    new_top=_TOP[new],
                )
            case Turn(sq, d):
                code = board[sq]
                if not code:
                    return ""
                _, _, top, front = _decode(code)
                _, _, _, new_front = _decode(_TURNED[d][code])
                return Msg(
                    "Turn {square} {direction} in place (top stays {top}, front {front} -> "
                    "{new_front})",
                    square=square_name(sq),
                    direction=_DIRECTION_WORD[d],
                    top=top,
                    front=front,
                    new_front=new_front,
                )
            case Capture(frm, to):
                a, b = board[frm], board[to]
                if not a or not b:
                    return ""
                if _LEADER[a]:
                    return Msg(
                        "{square} Leader ({top}) captures the {value} on {target}",
                        square=square_name(frm),
                        top=_TOP[a],
                        value=_TOP[b],
                        target=square_name(to),
                    )
                return Msg(
                    "{square} die ({top}) captures the {value} on {target}",
                    square=square_name(frm),
                    top=_TOP[a],
                    value=_TOP[b],
                    target=square_name(to),
                )
            case Sacrifice(frm, to):
                a, b = board[frm], board[to]
                if not a or not b:
                    return ""
                return Msg(
                    "Sacrifice {square} ({top}) against the {value} on {target}",
                    square=square_name(frm),
                    top=_TOP[a],
                    value=_TOP[b],
                    target=square_name(to),
                )
            case OfferDraw():
                return Msg("Offer a draw (then make your move)")
            case AcceptDraw():
                return Msg("Accept the draw: the game ends drawn")
            case DeclineDraw():
                return Msg("Decline the draw (then make your move)")
            case SetValue(f, v):
                return Msg("File {file}: top value {value}", file=FILES[f], value=v)
            case SetLeader(f):
                done = state.values[seat] if seat in (0, 1) else ()
                if f < len(done):
                    return Msg("Leader on file {file} (top {top})", file=FILES[f], top=done[f])
                return Msg("Leader on file {file}", file=FILES[f])
            case SetupRandom():
                return Msg("Random arrangement, committed at once")
            case SetupReset():
                return Msg("Start the set-up again")
            case Commit():
                if seat not in (0, 1):
                    return ""
                done = state.values[seat]
                lead = state.leaders[seat]
                if lead < 0:
                    return Msg("Commit your set-up")
                return Msg(
                    "Commit: {values}, Leader on {file}",
                    values=" ".join(map(str, done)),
                    file=FILES[lead],
                )
            case SetupAll(values, leader):
                return Msg(
                    "Set up {values}, Leader on {file}",
                    values=" ".join(map(str, values)),
                    file=FILES[leader],
                )
            case DealValue(s, f, v):
                return Msg(
                    "{player}, file {file}: top value {value}",
                    player=seat_tag(s),
                    file=FILES[f],
                    value=v,
                )
            case DealLeader(s, f):
                return Msg("{player}: Leader on file {file}", player=seat_tag(s), file=FILES[f])
        return ""

    def narrate(
        self, before: ArtabanState, seat: Seat, action: ArtabanAction, after: ArtabanState
    ) -> str:
        who = seat_tag(seat)
        board = before.board
        text = ""
        match action:
            case SetValue() | SetLeader() | SetupReset() | SetupAll():
                # R7: nothing about the arrangement itself.
                text = Msg("{player} is arranging their dice.", player=who)
            case SetupRandom():
                text = Msg("{player} has committed a random set-up.", player=who)
                if before.committed[1 - seat]:
                    text = joined(
                        [
                            text,
                            Msg(
                                "Then both set-ups are revealed: {p0} moves first, from "
                                "rank 2; {p1} from rank 7."
                            ),
                        ],
                        " ",
                    )
            case Commit():
                text = Msg("{player} has committed their set-up.", player=who)
                if after.phase == PLAY:
                    text = joined(
                        [
                            text,
                            Msg(
                                "Both set-ups are revealed: {p0} moves first, from rank 2; "
                                "{p1} from rank 7."
                            ),
                        ],
                        " ",
                    )
            case DealValue() | DealLeader():
                text = ""
            case Tip(sq, d):
                code = board[sq]
                dst = _STEPS[seat][d][sq]
                text = Msg(
                    "{player} tipped {square} {direction} to {target} (top {top} -> {new_top}).",
                    player=who,
                    square=square_name(sq),
                    direction=_DIRECTION_WORD[d],
                    target=square_name(dst),
                    top=_TOP[code],
                    new_top=_TOP[_TIPPED[d][code]],
                )
            case Turn(sq, d):
                text = Msg(
                    "{player} turned {square} {direction} in place.",
                    player=who,
                    square=square_name(sq),
                    direction=_DIRECTION_WORD[d],
                )
            case Capture(frm, to):
                text = self._capture_text(who, board, frm, to)
            case Sacrifice(frm, to):
                text = Msg(
                    "{player} sacrificed the {top} on {square} against the {value} on {target}.",
                    player=who,
                    top=_TOP[board[frm]],
                    square=square_name(frm),
                    value=_TOP[board[to]],
                    target=square_name(to),
                )
            case OfferDraw():
                text = Msg("{player} offers a draw.", player=who)
            case AcceptDraw():
                text = Msg("{player} accepted the draw.", player=who)
            case DeclineDraw():
                text = Msg("{player} declined the draw.", player=who)
        if (
            isinstance(action, _MOVES)
            and before.draw_offer is not None
            and before.draw_offer != seat
        ):
            text = joined([text, Msg("The draw offer lapses.")], " ")
        if after.phase == OVER and before.phase != OVER:
            outcome = self.outcome(after)
            if outcome is not None:
                over = Msg("Game over: {reason}", reason=outcome.reason)
                text = joined([text, over], " ") if text else over
        return text

    @staticmethod
    def _capture_text(who: str, board: tuple[int, ...], frm: int, to: int) -> str:
        """``{p0} captured the 3 Leader on c4 with their Leader 5 from c3.``"""
        a, b = board[frm], board[to]
        args: dict[str, object] = {
            "player": who,
            "value": _TOP[b],
            "target": square_name(to),
            "top": _TOP[a],
            "square": square_name(frm),
        }
        if _LEADER[a] and _LEADER[b]:
            return Msg(
                "{player} captured the {value} Leader on {target} with their Leader "
                "{top} from {square}.",
                **args,
            )
        if _LEADER[a]:
            return Msg(
                "{player} captured the {value} on {target} with their Leader {top} from {square}.",
                **args,
            )
        if _LEADER[b]:
            return Msg(
                "{player} captured the {value} Leader on {target} with the {top} from {square}.",
                **args,
            )
        return Msg(
            "{player} captured the {value} on {target} with the {top} from {square}.", **args
        )

    def private_to(self, before: ArtabanState, seat: Seat, action: ArtabanAction) -> Seat | None:
        # R7: a set-up stays with its owner until both have committed,
        # including the chance steps of a random one.
        if isinstance(action, _SETUP_ACTIONS):
            return seat
        if isinstance(action, DealValue | DealLeader):
            return action.seat
        return None

    # ----- serialisation ----------------------------------------------------

    def to_json(self, state: ArtabanState) -> JSON:
        dice = []
        for sq, code in enumerate(state.board):
            if code:
                owner, leader, top, front = _decode(code)
                dice.append(
                    {
                        "square": square_name(sq),
                        "owner": owner,
                        "top": top,
                        "front": front,
                        "leader": leader,
                    }
                )
        last = None
        if state.last_move is not None:
            mover, kind, frm, to = state.last_move
            last = {"seat": mover, "kind": kind, "from": square_name(frm), "to": square_name(to)}
        return {
            "phase": state.phase,
            "diagonal_captures": state.diagonal,
            "to_play": state.to_play,
            "quiet": state.quiet,
            "ply": state.ply,
            "draw_offer": state.draw_offer,
            "last_move": last,
            "dice": dice,
            "setup": [
                {
                    "values": list(state.values[s]),
                    "leader": FILES[state.leaders[s]] if state.leaders[s] >= 0 else None,
                    "committed": state.committed[s],
                }
                for s in (0, 1)
            ],
            "dealing": state.dealing,
            "result": state.result,
        }

    def from_json(self, obj: JSON) -> ArtabanState:
        try:
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            result = str(obj["result"])
            if result not in _RESULTS:
                raise ValueError(f"unknown result {result!r}")
            board = [0] * 64
            for die in obj["dice"]:
                name = str(die["square"])
                if not re.fullmatch(_SQUARE_RE, name):
                    raise ValueError(f"bad square {name!r}")
                sq = square_of(name)
                if board[sq]:
                    raise ValueError(f"two dice on {name}")
                owner = int(die["owner"])
                if owner not in (0, 1):
                    raise ValueError(f"bad owner {owner}")
                top, front = int(die["top"]), int(die["front"])
                if (top, front) not in _ORIENT:
                    raise ValueError(f"no die shows {top} on top and {front} in front")
                board[sq] = _code(owner, bool(die["leader"]), top, front)
            last_obj = obj["last_move"]
            last: LastMove | None = None
            if last_obj is not None:
                last = (
                    int(last_obj["seat"]),
                    str(last_obj["kind"]),
                    square_of(str(last_obj["from"])),
                    square_of(str(last_obj["to"])),
                )
            setups = obj["setup"]
            if len(setups) != 2:
                raise ValueError("needs two set-ups")
            values: list[tuple[int, ...]] = []
            leaders: list[int] = []
            for s in setups:
                vals = tuple(int(v) for v in s["values"])
                if len(vals) > NUM_FILES or not all(1 <= v <= 6 for v in vals):
                    raise ValueError(f"bad set-up values {vals}")
                values.append(vals)
                lead = s["leader"]
                leaders.append(-1 if lead is None else FILES.index(str(lead)))
            offer = obj["draw_offer"]
            dealing = obj["dealing"]
            state = ArtabanState(
                phase=phase,
                diagonal=bool(obj["diagonal_captures"]),
                board=tuple(board),
                to_play=int(obj["to_play"]),
                quiet=int(obj["quiet"]),
                ply=int(obj["ply"]),
                draw_offer=None if offer is None else int(offer),
                last_move=last,
                values=(values[0], values[1]),
                leaders=(leaders[0], leaders[1]),
                committed=(bool(setups[0]["committed"]), bool(setups[1]["committed"])),
                dealing=None if dealing is None else int(dealing),
                result=result,
                movers=_movers(tuple(board)),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"Not an Artaban state: {exc}") from None
        if state.to_play not in (0, 1):
            raise ValueError("Not an Artaban state: to_play must be 0 or 1")
        return state


__all__ = [
    "FILES",
    "ORIENTATIONS",
    "QUIET_LIMIT",
    "SETUP_SUM",
    "AcceptDraw",
    "ArtabanAction",
    "ArtabanEngine",
    "ArtabanState",
    "Capture",
    "Commit",
    "DealLeader",
    "DealValue",
    "DeclineDraw",
    "OfferDraw",
    "Sacrifice",
    "SetLeader",
    "SetValue",
    "SetupAll",
    "SetupRandom",
    "SetupReset",
    "Tip",
    "Turn",
    "arrangements",
    "right_face",
    "square_name",
    "square_of",
    "start_front",
    "tip",
    "turn",
    "value_odds",
]
