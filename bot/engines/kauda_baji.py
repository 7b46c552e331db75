"""Kauda Baji: a race of tuples along a spiralling path, moved by cowrie shells.

The complete rules are docs/rules/kauda_baji.md, numbered R1-R18; comments
here cite those numbers.  The engine is pure: shell throws are chance
actions (``throw 4``) with exact probabilities (R5), so a game is its options
plus its log.

The engine is built in layers, a module each:
:mod:`~bot.engines.kauda_baji_board` (the board, the routes, the safe
squares and the shells' odds, R1-R5), :mod:`~bot.engines.kauda_baji_state`
(the actions and the state), :mod:`~bot.engines.kauda_baji_moves` (walking
the route: the moves a bank of throws allows, R1, R2, R6, R9-R11, R17),
:mod:`~bot.engines.kauda_baji_rules` (set-up, whose turn, legal actions,
throws, moves and kills, the end), and this module's
:class:`KaudaBajiEngine`: menus, the view, the notation and JSON.

Positions are kept per player as *stacks*: ``(step, size)`` pairs, where the
step counts along the player's own route (R1: 0 the start square, 48 the
centre) and a single piece is a stack of size 1 (R9).  Several stacks of one
player may share a square; they stay separate until they move off together.

Notation (docs/rules/kauda_baji.md, "Move notation"):
``<square> [x<group>] <values> [in|round ...]``, e.g. ``c7 x2 6``,
``a2 4+2 in``, ``a1 x1of3 5``, ``forfeit 5``; chance: ``throw 12``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from bot.engines.core import (
    JSON,
    InvalidAction,
    Seat,
    excerpt,
    joined,
    seat_tag,
    shortened,
    whole_number,
)
from bot.engines.kauda_baji_board import (
    ARROW_STEPS,
    CENTRE_STEP,
    FIRST,
    OVER,
    ROUND_TO,
    ROUTES,
    SAFE,
    SEAT_NAMES,
    SEAT_TITLES,
    SEATINGS,
    SIZE_NAMES,
    SIZE_TITLES,
    SIZE_WORDS,
    STEP_OF,
    THROW,
    THROW_VALUES,
    square_name,
    square_of,
)
from bot.engines.kauda_baji_moves import _at, _occupancy, _spends, _values_text
from bot.engines.kauda_baji_rules import KaudaBajiRules
from bot.engines.kauda_baji_state import (
    Forfeit,
    KaudaBajiAction,
    KaudaBajiState,
    Move,
    Throw,
    _seat,
)
from bot.engines.kauda_baji_views import (
    KaudaBajiView,
    MoveView,
    PlayerView,
    StackView,
)
from bot.engines.messages import Msg, Plural

# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

_SQUARE_RE: Final = re.compile(r"[a-g][1-7]")
SPENDS_SHOWN: Final = 20
"""Up to this many ways to spend the bank are offered at once (a row of
board buttons); a bigger bank is first narrowed by its largest value."""
_MENU_RE: Final = re.compile(
    r"(?P<pieces>[a-g][1-7](?: x[0-9+of]+)?) (?P<values>[0-9]+(?:\+[0-9]+)*)(?: (?:in|round))*"
)
_HELP: Final = Msg(
    "Moves look like `c7 x2 6`, `a2 4+2 in` or `forfeit 5` "
    "(docs: square, pieces, values, arrow choices)."
)


class KaudaBajiEngine(KaudaBajiRules):
    """The Kauda Baji engine: the rules (:class:`KaudaBajiRules`), and here
    the menus, the view, the notation (parse, describe, labels, narration)
    and the JSON of a state."""

    # ----- menus -------------------------------------------------------------

    def menu_words(self, state: KaudaBajiState, seat: Seat, text: str) -> tuple[str, ...]:
        """Menu levels for spending the bank (issue: value, then pieces, then
        arrows): ``c7 x2 6 in`` -> ``("6", "c7 x2", "c7 x2 6 in")``.
        Forfeits and throws are one level."""
        m = _MENU_RE.fullmatch(text)
        if m is None:
            return (text,)
        values = m.group("values")
        if len(_spends(state.bank)) > SPENDS_SHOWN:
            # A big bank (kill bonuses) has too many sums for one row of
            # buttons: first pick the largest value spent.
            return (values.split("+")[0] + "…", values, m.group("pieces"), text)
        return (values, m.group("pieces"), text)

    def choice_label(self, state: KaudaBajiState, seat: Seat, prefix: str) -> str:
        """``6`` -> ``Spend 6``; ``4+2`` -> ``Spend 4+2 together``;
        ``6 c7 x2`` -> ``Twin on c7``."""
        words = prefix.split()
        if words and words[0].endswith("…"):
            if len(words) == 1:
                return Msg("Spend {values}, alone or with smaller values", values=words[0][:-1])
            words = words[1:]
        if len(words) == 1:
            if "+" in words[0]:
                return Msg("Spend {values} together", values=words[0])
            return Msg("Spend {values}", values=words[0])
        if len(words) >= 2 and _SQUARE_RE.fullmatch(words[1]):
            square = words[1]
            whole: tuple[int, ...] = (1,)
            split_k = split_of = 0
            if len(words) >= 3:
                try:
                    whole, split_k, split_of = self._parse_group(words[2])
                except InvalidAction:
                    return prefix
            return Msg(
                "{pieces} on {square}",
                pieces=self._pieces_text(whole, split_k, split_of),
                square=square,
            )
        return prefix

    @staticmethod
    def _pieces_text(whole: tuple[int, ...], split_k: int, split_of: int) -> str:
        """``Twin``, ``Twin and a single (a triple)``, ``1 piece split off a
        triple``: the first capitalised, as a label starts."""
        parts: list[str] = [
            SIZE_TITLES[w] if i == 0 else Msg("a {size}", size=SIZE_WORDS[w])
            for i, w in enumerate(whole)
        ]
        if split_k:
            parts.append(
                Plural(
                    "{n} piece split off a {size}",
                    "{n} pieces split off a {size}",
                    split_k,
                    size=SIZE_WORDS[split_of],
                )
            )
        text = joined(parts, " and ")
        size = sum(whole) + split_k
        if len(parts) > 1 and size < len(SIZE_NAMES):
            text = Msg("{pieces} (a {size})", pieces=text, size=SIZE_WORDS[size])
        return text

    def seat_roles(self, num_players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        """R4: the seat each player takes, for the lobby."""
        seating = SEATINGS.get(num_players)
        return tuple(SEAT_TITLES[s] for s in seating) if seating else ()

    # ----- views ------------------------------------------------------------

    def view(self, state: KaudaBajiState, seat: Seat | None) -> KaudaBajiView:
        stacks: list[StackView] = []
        players: list[PlayerView] = []
        for p in range(state.num_players):
            s = _seat(state, p)
            for step, size in state.stacks[p]:
                sq = ROUTES[s][step]
                stacks.append(
                    StackView(square_name(sq), sq % 7, sq // 7 + 1, p, SEAT_NAMES[s], size, step)
                )
            route = ROUTES[s]
            players.append(
                PlayerView(
                    player=p,
                    seat=SEAT_NAMES[s],
                    start=square_name(route[0]),
                    arrows=tuple(
                        (square_name(route[a]), square_name(route[a + 1])) for a in ARROW_STEPS
                    ),
                    at_start=sum(size for step, size in state.stacks[p] if step == 0),
                    on_board=sum(size for _, size in state.stacks[p]),
                    finished=state.home[p],
                    has_killed=state.killed[p] or not state.markut,
                    place=state.places.index(p) + 1 if p in state.places else 0,
                )
            )
        last = None
        if state.last is not None:
            p, frm, to, values, path, kills = state.last
            last = MoveView(
                player=p,
                frm=square_name(frm),
                to=square_name(to),
                size=sum(values) // max(1, len(path)),  # R10: value = size x squares
                values=values,
                path=tuple(square_name(sq) for sq in path),
                killed=tuple(square_name(sq) for sq in kills),
            )
        return KaudaBajiView(
            viewer=seat,
            me=None,
            phase=state.phase,
            turn=state.turn,
            bank=state.bank,
            run=state.run,
            bonus_throws=state.pending + (1 if state.bonus else 0),
            stacks=tuple(stacks),
            players=tuple(players),
            safe=tuple(sorted(square_name(sq) for sq in SAFE)),
            last_move=last,
            first_throws=tuple(zip(state.contenders, state.first_throws, strict=False)),
            places=state.places,
            news=state.news,
        )

    # ----- notation ---------------------------------------------------------

    def parse(self, state: KaudaBajiState, seat: Seat, text: str) -> KaudaBajiAction:
        words = str(text).lower().split()
        if not words:
            raise InvalidAction(Msg("Type a move. {help}", help=_HELP))
        head = words[0]
        if head in ("throw", "forfeit"):
            if len(words) != 2:
                raise InvalidAction(
                    Msg("Write `{word}` and one value, not {text}.", word=head, text=excerpt(text))
                )
            value = whole_number(words[1], max_digits=2)
            if value is None or value not in THROW_VALUES:
                raise InvalidAction(
                    Msg("A throw is 1 to 6 or 12, not {text}.", text=excerpt(words[1]))
                )
            return Throw(value) if head == "throw" else Forfeit(value)
        if not _SQUARE_RE.fullmatch(head):
            raise InvalidAction(
                Msg("I don't understand {text}. {help}", text=excerpt(text), help=_HELP)
            )
        sq = square_of(head)
        rest = words[1:]
        whole: tuple[int, ...] = ()
        split_k = split_of = 0
        if rest and rest[0].startswith("x"):
            whole, split_k, split_of = self._parse_group(rest[0])
            rest = rest[1:]
        elif 0 <= seat < state.num_players:
            step = STEP_OF[_seat(state, seat)][sq]
            here = _at(state.stacks[seat], step)
            if len(here) == 1:
                whole = here
        if not rest:
            raise InvalidAction(
                Msg("Say which banked values the move spends, e.g. `{square} 4`.", square=head)
            )
        values: list[int] = []
        for part in rest[0].split("+"):
            value = whole_number(part, max_digits=2)
            if value is None or value not in THROW_VALUES:
                raise InvalidAction(
                    Msg("A banked value is 1 to 6 or 12, not {text}.", text=excerpt(part))
                )
            values.append(value)
        arrows: list[bool] = []
        for word in rest[1:]:
            if word not in ("in", "round"):
                raise InvalidAction(
                    Msg(
                        "After the values, write `in` or `round` for each arrow, not {text}.",
                        text=excerpt(word),
                    )
                )
            arrows.append(word == "in")
        if len(values) > 12 or len(arrows) > 40:
            raise InvalidAction(Msg("That move is far too long."))
        return Move(
            sq, whole, split_k, split_of, tuple(sorted(values, reverse=True)), tuple(arrows)
        )

    @staticmethod
    def _parse_group(word: str) -> tuple[tuple[int, ...], int, int]:
        """``x2+1``, ``x1of3``, ``x2+1of3`` (R9, R11)."""
        parts = word[1:].split("+")
        whole: list[int] = []
        split_k = split_of = 0
        bad = InvalidAction(
            Msg("Pieces are written like x2, x2+1 or x1of3, not {text}.", text=excerpt(word))
        )
        for i, part in enumerate(parts):
            k_text, of_text = ([*part.split("of", 1), ""])[:2] if "of" in part else (part, "")
            k = whole_number(k_text, max_digits=1)
            if k is None or not 1 <= k <= 6:
                raise bad
            if of_text:
                m = whole_number(of_text, max_digits=1)
                if m is None or not k < m <= 6 or i != len(parts) - 1:
                    raise bad
                split_k, split_of = k, m
            else:
                whole.append(k)
        if sum(whole) + split_k > 6:
            raise bad
        return tuple(sorted(whole, reverse=True)), split_k, split_of

    def describe(self, state: KaudaBajiState, seat: Seat, action: KaudaBajiAction) -> str:
        if isinstance(action, Throw):
            return f"throw {action.value}"
        if isinstance(action, Forfeit):
            return f"forfeit {action.value}"
        words = [square_name(action.square)]
        only_one = False
        if 0 <= seat < state.num_players:
            step = STEP_OF[_seat(state, seat)][action.square]
            only_one = _at(state.stacks[seat], step) == (1,)
        if not (only_one and action.whole == (1,) and not action.split_k):
            group = "+".join(str(w) for w in action.whole)
            if action.split_k:
                group += ("+" if group else "") + f"{action.split_k}of{action.split_of}"
            words.append("x" + group)
        words.append(_values_text(action.values))
        words += ["in" if a else "round" for a in action.arrows]
        return " ".join(words)

    def label(self, state: KaudaBajiState, seat: Seat, action: KaudaBajiAction) -> str:
        """``Twin c7 to a7 with 6``; ``Single a2 to b2 with 6, in at c1``."""
        if isinstance(action, Throw):
            return Msg("Throw {value}", value=action.value)
        if isinstance(action, Forfeit):
            return Msg("Forfeit a {value} (R17)", value=action.value)
        size = action.size
        what = SIZE_TITLES[size] if 0 < size < len(SIZE_TITLES) else SIZE_TITLES[0]
        total = sum(action.values)
        dest = "?"
        centre = False
        turns: list[str] = []
        if 0 <= seat < state.num_players and size and total % size == 0:
            route = ROUTES[_seat(state, seat)]
            step = STEP_OF[_seat(state, seat)][action.square]
            choices = iter(action.arrows)
            for _ in range(total // size):
                if step in ROUND_TO:
                    turn_in = next(choices, None)
                    if turn_in is None:
                        break
                    turns.append(
                        Msg("in at {square}", square=square_name(route[step]))
                        if turn_in
                        else Msg("round at {square}", square=square_name(route[step]))
                    )
                    step = step + 1 if turn_in else ROUND_TO[step]
                else:
                    step += 1
            else:
                centre = step == CENTRE_STEP
                dest = "" if centre else square_name(route[step])
        spent = _values_text(action.values)
        text: str
        if centre:
            text = Msg(
                "{size} {square} to the centre with {values}",
                size=what,
                square=square_name(action.square),
                values=spent,
            )
        else:
            text = Msg(
                "{size} {square} to {target} with {values}",
                size=what,
                square=square_name(action.square),
                target=dest,
                values=spent,
            )
        if action.split_k:
            text = Msg("{move}, split off a {size}", move=text, size=SIZE_WORDS[action.split_of])
        if turns:
            text = Msg("{move}, {turns}", move=text, turns=joined(turns, ", "))
        return shortened(text, 100)

    def narrate(
        self, before: KaudaBajiState, seat: Seat, action: KaudaBajiAction, after: KaudaBajiState
    ) -> str:
        news = after.news
        if after.phase == OVER and before.phase != OVER:
            outcome = self.outcome(after)
            if outcome is not None:
                news = joined([news, outcome.reason], " ")
        elif after.turn != before.turn and after.phase == THROW and before.phase != FIRST:
            news = joined([news, Msg("{player} to throw.", player=seat_tag(after.turn))], " ")
        return news

    def private_to(
        self, before: KaudaBajiState, seat: Seat, action: KaudaBajiAction
    ) -> Seat | None:
        return None

    # ----- storage ----------------------------------------------------------

    def to_json(self, state: KaudaBajiState) -> JSON:
        return {
            "num_players": state.num_players,
            "pieces": state.pieces,
            "markut": state.markut,
            "kill_bonus": state.kill_bonus,
            "pairwise": state.pairwise,
            "play_to_end": state.play_to_end,
            "phase": state.phase,
            "turn": state.turn,
            "stacks": [[list(s) for s in mine] for mine in state.stacks],
            "home": list(state.home),
            "killed": list(state.killed),
            "bank": list(state.bank),
            "run": state.run,
            "bonus": state.bonus,
            "pending": state.pending,
            "contenders": list(state.contenders),
            "first_throws": list(state.first_throws),
            "places": list(state.places),
            "last": None
            if state.last is None
            else [
                state.last[0],
                state.last[1],
                state.last[2],
                list(state.last[3]),
                list(state.last[4]),
                list(state.last[5]),
            ],
            "news": state.news,
        }

    def from_json(self, obj: JSON) -> KaudaBajiState:
        last = obj["last"]
        num_players = int(obj["num_players"])
        stacks = tuple(tuple(sorted((int(a), int(b)) for a, b in mine)) for mine in obj["stacks"])
        return KaudaBajiState(
            num_players=num_players,
            pieces=int(obj["pieces"]),
            markut=bool(obj["markut"]),
            kill_bonus=bool(obj["kill_bonus"]),
            pairwise=bool(obj["pairwise"]),
            play_to_end=bool(obj["play_to_end"]),
            phase=str(obj["phase"]),
            turn=int(obj["turn"]),
            stacks=stacks,
            occupied=_occupancy(num_players, stacks),
            home=tuple(int(h) for h in obj["home"]),
            killed=tuple(bool(k) for k in obj["killed"]),
            bank=tuple(sorted((int(v) for v in obj["bank"]), reverse=True)),
            run=int(obj["run"]),
            bonus=bool(obj["bonus"]),
            pending=int(obj["pending"]),
            contenders=tuple(int(p) for p in obj["contenders"]),
            first_throws=tuple(int(v) for v in obj["first_throws"]),
            places=tuple(int(p) for p in obj["places"]),
            last=None
            if last is None
            else (
                int(last[0]),
                int(last[1]),
                int(last[2]),
                tuple(int(v) for v in last[3]),
                tuple(int(v) for v in last[4]),
                tuple(int(v) for v in last[5]),
            ),
            news=str(obj["news"]),
        )
