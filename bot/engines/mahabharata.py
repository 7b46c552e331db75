"""Mahabharata: the pure rules engine, and its text.

The engine is built in layers, a module each:
:mod:`~bot.engines.mahabharata_components` (tokens, dice and leaders,
R1-R3), :mod:`~bot.engines.mahabharata_state` (the state and the actions),
:mod:`~bot.engines.mahabharata_rules` (set-up, whose turn, legal actions,
chance, scoring), :mod:`~bot.engines.mahabharata_screens` (the screens dealt
afresh for the search), :mod:`~bot.engines.mahabharata_round` (applying an
action: the draw, the roll, the draft, the announcements, the end of a
round), and this module's :class:`MahabharataEngine`: the view, the action
text below, narration and JSON.

The rulings R1-R14 in ``docs/rules/mahabharata.md`` fill the rulebook's
gaps.  Component tables (tokens, dice, leaders: R1-R3) live in
``bot/engines/data/mahabharata.toml`` and are checked when loaded
(:func:`load_components_text`).

Action text (what :meth:`MahabharataEngine.describe` returns and
:meth:`MahabharataEngine.parse` accepts, case-insensitively, extra blanks
ignored).  Dice are ``d1`` .. ``d8`` in table order (d1-d2 chariot, d3-d4
elephant, d5-d6 cavalry, d7-d8 infantry); leader spaces are numbered from 1 in
the card's icon order; leader names are lower case without spaces::

    player, draft phase (R7-R9)
      d3 screen            take die 3, put its token behind your screen
      d3 drona.2           take die 3, put its token on Drona's space 2
      d3 drona.2 cav2      the same for a Raja die: the token must be named
                           (naming the token of a non-Raja die is accepted too)
      d3 none              take die 3 and place nothing (R9: only when no
                           remaining die can be placed)
    player, announce phase (R10)
      announce             reveal a complete Pati: the game ends
      pass                 do not announce
    chance (seat CHANCE)
      leader drona         setup: Drona is drawn (R4)
      first 2              setup: seat 2 (0-based, as in {p2}) takes the elephant (R5)
      roll d3 cav2         die 3 shows Cavalry-2 (R6); faces that repeat on a die
                           are one outcome with their summed probability (2/6)

Token kinds: ``chariot``, ``elephant``, ``cav1``-``cav3``, ``inf1``-``inf5``;
``raja`` is a die face only.

:meth:`MahabharataEngine.legal_actions` lists actions in engine order: dice
ascending; for a die, ``screen`` first, then leaders in play (table order),
spaces ascending, and for a Raja die token kinds in table order (kind-major).

One rule is added to R10 (see :meth:`MahabharataEngine._end_of_round`): the game
also ends at the end of a round when no player has a token left in supply,
because from then on nothing can change the score and the game could otherwise
run forever.

Speed (issue 19): search plays many random games through this engine, so
the playout path works on small integers, prebuilt action objects and bit
masks, and a state keeps derived data outside its fields (its picker's
legal picks, each seat's open leader spaces: :data:`_LEGAL`, :data:`_OPEN`).
``apply`` takes the engine's own action objects (as ``legal_actions`` and
``chance_outcomes`` hand them out) by identity and checks them on integers;
any other action goes the long way, with the same rules and refusals.
"""

from __future__ import annotations

import re
from typing import Any, Final

from bot.engines.core import (
    JSON,
    InvalidAction,
    Seat,
    excerpt,
    seat_tag,
    whole_number,
)
from bot.engines.mahabharata_components import (
    CLASS_WORD,
    RAJA,
    TARGET_VP,
    joined,
    listed,
    reason_message,
)
from bot.engines.mahabharata_round import MahabharataRound
from bot.engines.mahabharata_rules import _snake, rank_scores
from bot.engines.mahabharata_state import (
    _ANNOUNCE,
    _HELP,
    _PASS,
    _PHASES,
    _PLACED,
    ANNOUNCE,
    DRAFT,
    FIRST,
    OVER,
    PLACED_LEADER,
    ROLL,
    SETUP,
    Announce,
    ChooseFirst,
    DrawLeader,
    LastPick,
    MahabharataAction,
    MahabharataState,
    Pass,
    PlaceLeader,
    PlaceScreen,
    Roll,
    Space,
    TakeNothing,
)
from bot.engines.mahabharata_views import (
    DieView,
    FinalView,
    LastPickView,
    LeaderView,
    MahabharataView,
    PlayerView,
    ScreenView,
    SpaceView,
)
from bot.engines.messages import Msg

# ASCII digits only (``\d`` would take ``٣``); the numbers are read by
# core.whole_number, which refuses absurd lengths.
_DIE_RE: Final = re.compile(r"d([0-9]+)")
_DIE_SPACE_RE: Final = re.compile(r"d([0-9]+) (\S+)\.([0-9]+)")
_SPACE_RE: Final = re.compile(r"([a-z0-9]+)\.([0-9]+)")


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class MahabharataEngine(MahabharataRound):
    """The Mahabharata engine: the rules (:class:`MahabharataRules`), an
    action's play (:class:`MahabharataRound`), and here the view, the action
    text (parse, describe, labels, narration) and the JSON of a state."""

    # ----- view -----------------------------------------------------------

    def view(self, state: MahabharataState, seat: Seat | None) -> MahabharataView:
        c = self.components
        n = state.num_players
        kinds = [t.kind for t in c.tokens]
        leaders: list[LeaderView] = []
        if state.leaders:
            for pos, li in enumerate(state.leaders):
                spec = c.leaders[li]
                spaces = tuple(
                    SpaceView(spec.icons[j], owner, tuple(kinds[k] for k in stack))
                    for j, (owner, stack) in enumerate(state.spaces[pos])
                )
                leaders.append(
                    LeaderView(spec.number, spec.name, spec.vp, spaces, self._influence(state, pos))
                )
        else:
            # Setup: the cards drawn so far, in draw order, all empty.
            for li in state.drawn:
                spec = c.leaders[li]
                spaces = tuple(SpaceView(icon, None, ()) for icon in spec.icons)
                leaders.append(LeaderView(spec.number, spec.name, spec.vp, spaces, (0,) * n))
        dice = tuple(
            DieView(d + 1, c.dice[d].kind, state.faces[d], state.taken[d])
            for d in range(self._n_dice)
        )
        players = tuple(
            PlayerView(
                seat=s,
                screen_count=sum(state.screens[s]),
                supply_count=sum(state.supply[s]),
                dice_taken=sum(1 for t in state.taken if t == s),
                announced=state.announced[s],
            )
            for s in range(n)
        )
        if state.phase == ANNOUNCE:
            # R14: only the viewer may learn that they are being asked.
            waiting: tuple[Seat, ...] = (seat,) if seat in state.pending else ()
        else:
            waiting = tuple(sorted(self.waiting_on(state)))
        final: FinalView | None = None
        if state.phase == OVER:
            scores, pati, winners = self._score(state)
            final = FinalView(
                scores=scores,
                pati=pati,
                screens=tuple(self._screen_kinds(s) for s in state.screens),
                leader_winners=winners,
                ranking=tuple(tuple(sorted(g)) for g in rank_scores(scores)),
                reason=state.reason,
            )
        me: ScreenView | None = None
        if seat is not None and 0 <= seat < n:
            screen = state.screens[seat]
            missing = self.pati_missing(screen)
            me = ScreenView(
                seat=seat,
                screen=self._screen_kinds(screen),
                supply=tuple(zip(kinds, state.supply[seat], strict=True)),
                pati_complete=not missing,
                pati_missing=missing,
            )
        last_pick: LastPickView | None = None
        lp = state.last_pick
        if lp is not None:
            last_pick = LastPickView(
                seat=lp.seat,
                die=lp.die,
                face=lp.face,
                placed=lp.placed,
                leader_index=state.leaders.index(lp.leader) if lp.leader is not None else None,
                space=lp.space,
                # R14: never the token behind a screen (the state holds none).
                token=lp.token if lp.placed == PLACED_LEADER else None,
            )
        return MahabharataView(
            num_players=n,
            phase=SETUP if state.phase in (SETUP, FIRST) else state.phase,
            round=state.round,
            elephant=state.elephant,
            waiting_on=waiting,
            leaders=tuple(leaders),
            dice=dice,
            players=players,
            draft_order=_snake(n, state.elephant) if state.elephant is not None else (),
            picks_made=state.picks,
            final=final,
            me=me,
            last_pick=last_pick,
        )

    # ----- text -----------------------------------------------------------

    def parse(self, state: MahabharataState, seat: Seat, text: str) -> MahabharataAction:
        words = text.strip().lower().split()
        c = self.components
        if words == ["announce"]:
            return _ANNOUNCE
        if words == ["pass"]:
            return _PASS
        if len(words) == 2 and words[0] == "leader":
            if words[1] not in c.leader_index:
                raise InvalidAction(
                    Msg("There is no leader called {name}.", name=excerpt(words[1]))
                )
            return DrawLeader(words[1])
        if len(words) == 2 and words[0] == "first":
            first = whole_number(words[1])
            if first is None:
                raise InvalidAction(Msg("{text} is not a seat number.", text=excerpt(words[1])))
            return ChooseFirst(first)
        if len(words) == 3 and words[0] == "roll":
            die = self._parse_die(words[1], text)
            if words[2] not in self._face_index:
                raise InvalidAction(Msg("{text} is not a die face.", text=excerpt(words[2])))
            return Roll(die, words[2])
        if len(words) in (2, 3) and _DIE_RE.fullmatch(words[0]):
            die = self._parse_die(words[0], text)
            if len(words) == 2 and words[1] == "screen":
                return PlaceScreen(die)
            if len(words) == 2 and words[1] == "none":
                return TakeNothing(die)
            m = _SPACE_RE.fullmatch(words[1])
            if m is not None:
                key = m.group(1)
                if key not in c.leader_index:
                    raise InvalidAction(Msg("There is no leader called {name}.", name=excerpt(key)))
                space = whole_number(m.group(2))
                if space is None:
                    raise InvalidAction(
                        Msg(
                            "{text} is not a leader space: try '{key}.2'.",
                            text=excerpt(words[1]),
                            key=key,
                        )
                    )
                token: str | None
                if len(words) == 3:
                    token = words[2]
                    if token not in c.token_index:
                        kinds = ", ".join(t.kind for t in c.tokens)
                        raise InvalidAction(
                            Msg(
                                "{text} is not a token; tokens are {kinds}.",
                                text=excerpt(token),
                                kinds=kinds,
                            )
                        )
                else:
                    # The die implies the token unless it is a Raja (R8).
                    face = state.faces[die - 1] if die <= len(state.faces) else None
                    token = face if face is not None and face != RAJA else None
                return PlaceLeader(die, key, space, token)
        raise InvalidAction(
            Msg("I don't understand {text}. {help}", text=excerpt(text), help=_HELP)
        )

    def _parse_die(self, word: str, text: str) -> int:
        m = _DIE_RE.fullmatch(word)
        if m is None:
            raise InvalidAction(
                Msg("I don't understand {text}. {help}", text=excerpt(text), help=_HELP)
            )
        die = whole_number(m.group(1))
        if die is None or not 1 <= die <= self._n_dice:
            raise InvalidAction(
                Msg(
                    "There is no die {die}; the dice are d1 to d{last}.",
                    die=excerpt(m.group(1)),
                    last=self._n_dice,
                )
            )
        return die

    def describe(self, state: MahabharataState, seat: Seat, action: MahabharataAction) -> str:
        match action:
            case PlaceScreen(die):
                return f"d{die} screen"
            case PlaceLeader(die, leader, space, token):
                face = state.faces[die - 1] if 0 < die <= len(state.faces) else None
                if token is None or token == face:
                    return f"d{die} {leader}.{space}"
                return f"d{die} {leader}.{space} {token}"
            case TakeNothing(die):
                return f"d{die} none"
            case Announce():
                return "announce"
            case Pass():
                return "pass"
            case DrawLeader(leader):
                return f"leader {leader}"
            case ChooseFirst(s):
                return f"first {s}"
            case Roll(die, face):
                return f"roll d{die} {face}"
        raise InvalidAction(Msg("Not a Mahabharata action: {action}", action=repr(action)))

    def _die_label(self, state: MahabharataState, die: int) -> str:
        face = state.faces[die - 1] if 0 < die <= len(state.faces) else None
        return Msg("Die {die} ({face})", die=die, face=self._face_name(face))

    def _on_space(self, die: str, leader: str, space: int, what: str | None = None) -> str:
        """``Die 3 (Raja): Cavalry-2 on Drona, space 2 (cavalry)`` and its
        shorter forms: the die's label, the token (a Raja die's choice) and
        the space, with its class when the player chooses the token."""
        spec = self._leader_spec(leader)
        name = self._leader_name(leader)
        if what is None:
            return Msg("{die} on {leader}, space {space}", die=die, leader=name, space=space)
        if spec is None or not 1 <= space <= len(spec.icons):
            return Msg(
                "{die}: {token} on {leader}, space {space}",
                die=die,
                token=what,
                leader=name,
                space=space,
            )
        return Msg(
            "{die}: {token} on {leader}, space {space} ({kind})",
            die=die,
            token=what,
            leader=name,
            space=space,
            kind=CLASS_WORD[spec.icons[space - 1]],
        )

    def choice_label(self, state: MahabharataState, seat: Seat, prefix: str) -> str:
        """Menu text for a group of actions sharing ``prefix`` (``d3``)."""
        match = _DIE_RE.fullmatch(prefix)
        if match is not None:
            return self._die_label(state, int(match.group(1)))
        # A Raja die's placements on one space, before the token is chosen
        # (``d4 jayadratha.2``): the notation is not a player's words.
        match = _DIE_SPACE_RE.fullmatch(prefix)
        if match is not None:
            die, leader, space = int(match.group(1)), match.group(2), int(match.group(3))
            spec = self._leader_spec(leader)
            label = self._die_label(state, die)
            name = self._leader_name(leader)
            if spec is not None and 1 <= space <= len(spec.icons):
                return Msg(
                    "{die} on {leader}, space {space} ({kind})",
                    die=label,
                    leader=name,
                    space=space,
                    kind=CLASS_WORD[spec.icons[space - 1]],
                )
            return Msg("{die} on {leader}, space {space}", die=label, leader=name, space=space)
        return prefix

    def label(self, state: MahabharataState, seat: Seat, action: MahabharataAction) -> str:
        match action:
            case PlaceScreen(die):
                return Msg("{die} behind your screen", die=self._die_label(state, die))
            case PlaceLeader(die, leader, space, token):
                face = state.faces[die - 1] if 0 < die <= len(state.faces) else None
                label = self._die_label(state, die)
                if face is not None and face != RAJA and token in (None, face):
                    return self._on_space(label, leader, space)
                # A Raja die: the token is the player's choice, so name it and
                # the space's class.
                what = self._token_name(token) if token is not None else Msg("a token")
                return self._on_space(label, leader, space, what)
            case TakeNothing(die):
                return Msg("{die}: take it, place nothing", die=self._die_label(state, die))
            case Announce():
                return Msg("Announce your Pati (the game ends)")
            case Pass():
                return Msg("Do not announce")
            case DrawLeader(leader):
                spec = self._leader_spec(leader)
                if spec is None:
                    return Msg("Draw {leader}", leader=self._leader_name(leader))
                return Msg(
                    "Draw {leader} ({vp} victory points)",
                    leader=self._leader_name(leader),
                    vp=spec.vp,
                )
            case ChooseFirst(s):
                return Msg("{player} takes the Elephant token", player=seat_tag(s))
            case Roll(die, face):
                return Msg("Die {die} rolls {face}", die=die, face=self._face_name(face))
        return self.describe(state, seat, action)

    def narrate(
        self,
        before: MahabharataState,
        seat: Seat,
        action: MahabharataAction,
        after: MahabharataState,
    ) -> str:
        c = self.components
        who = seat_tag(seat)
        text = ""
        match action:
            # The opening draws and every round's eight rolls are said in one
            # line each, when they are complete: one line per card or die
            # buried the board's news under them (the log keeps each step).
            case DrawLeader():
                if after.phase == FIRST:
                    names = listed(
                        [
                            Msg(
                                "{leader} ({vp})",
                                leader=Msg(c.leaders[li].name),
                                vp=c.leaders[li].vp,
                            )
                            for li in after.leaders
                        ]
                    )
                    text = Msg(
                        "Leaders in play, {vp} victory points in all: {leaders}.",
                        vp=TARGET_VP,
                        leaders=names,
                    )
                    aside = [
                        Msg(c.leaders[li].name) for li in after.drawn if li not in after.leaders
                    ]
                    if aside:
                        text = joined([text, Msg("Set aside: {leaders}.", leaders=listed(aside))])
                elif not after.drawn:
                    text = Msg(
                        "No set of the leaders drawn makes exactly {vp} victory "
                        "points: the draw starts over.",
                        vp=TARGET_VP,
                    )
            case ChooseFirst(s):
                text = Msg("{player} takes the Elephant token and picks first.", player=seat_tag(s))
            case Roll():
                if after.phase != ROLL:
                    faces = listed([self._face_name(f) for f in after.faces])
                    text = Msg("The dice were rolled: {faces}.", faces=faces)
                    if after.phase == DRAFT and after.elephant is not None:
                        first = Msg(
                            "Round {round}: {player} picks first.",
                            round=after.round,
                            player=seat_tag(after.elephant),
                        )
                        text = joined([text, first])
            case PlaceScreen(die):
                # R14: never the token kind.
                text = Msg(
                    "{player} took die {die} and placed a token behind their screen.",
                    player=who,
                    die=die,
                )
            case PlaceLeader(die, leader, space, token):
                placed = self._token_name(token or before.faces[die - 1] or "")
                if before.faces[die - 1] == RAJA:
                    text = Msg(
                        "{player} took die {die} (Raja) and placed {token} on {leader}, "
                        "space {space}.",
                        player=who,
                        die=die,
                        token=placed,
                        leader=self._leader_name(leader),
                        space=space,
                    )
                else:
                    text = Msg(
                        "{player} took die {die} and placed {token} on {leader}, space {space}.",
                        player=who,
                        die=die,
                        token=placed,
                        leader=self._leader_name(leader),
                        space=space,
                    )
            case TakeNothing(die):
                text = Msg("{player} took die {die} but could place nothing.", player=who, die=die)
            case Announce():
                text = Msg("{player} announced a complete Pati: the game ends.", player=who)
            case Pass():
                # R14: a pass shows that this seat holds a complete Pati.
                text = ""
        if before.phase == DRAFT and after.phase == ANNOUNCE:
            over = Msg("The round is over; waiting for private decisions.")
            text = joined([text, over]) if text else " " + over
        if after.phase == OVER and before.phase != OVER:
            end = Msg("Game over: {reason}", reason=after.reason)
            text = joined([text, end]) if text else end
        return text

    def private_to(
        self, before: MahabharataState, seat: Seat, action: MahabharataAction
    ) -> Seat | None:
        # R14: screen placements come from public dice and their text names no
        # token, so they are public.  A pass is only possible with a complete
        # Pati, so its text is kept to the passer.
        if isinstance(action, Pass):
            return seat
        return None

    # ----- serialisation ----------------------------------------------------

    def to_json(self, state: MahabharataState) -> JSON:
        c = self.components
        kinds = [t.kind for t in c.tokens]
        return {
            "players": state.num_players,
            "phase": state.phase,
            "drawn": [c.leaders[i].key for i in state.drawn],
            "leaders": [c.leaders[i].key for i in state.leaders],
            "round": state.round,
            "elephant": state.elephant,
            "faces": list(state.faces),
            "taken": list(state.taken),
            "picks": state.picks,
            "spaces": [
                [{"owner": owner, "tokens": [kinds[k] for k in stack]} for owner, stack in spaces]
                for spaces in state.spaces
            ],
            "screens": [list(self._screen_kinds(s)) for s in state.screens],
            "supply": [dict(zip(kinds, s, strict=True)) for s in state.supply],
            "pending": sorted(state.pending),
            "announced": list(state.announced),
            "reason": state.reason,
            "last_pick": self._last_pick_json(state.last_pick),
        }

    def _last_pick_json(self, last: LastPick | None) -> JSON:
        if last is None:
            return None
        return {
            "seat": last.seat,
            "die": last.die,
            "face": last.face,
            "placed": last.placed,
            "leader": None if last.leader is None else self.components.leaders[last.leader].key,
            "space": last.space,
            "token": last.token,
        }

    def _last_pick_from_json(self, obj: Any, leaders: tuple[int, ...]) -> LastPick | None:
        """Saved states from before ``last_pick`` existed have no key: None."""
        if obj is None:
            return None
        c = self.components
        placed = str(obj["placed"])
        if placed not in _PLACED:
            raise ValueError(f"unknown placement {placed!r}")
        leader: int | None = None
        space: int | None = None
        token: str | None = None
        if placed == PLACED_LEADER:
            leader = c.leader_index[obj["leader"]]
            if leader not in leaders:
                raise ValueError(f"{c.leaders[leader].name} is not in play")
            space = int(obj["space"])
            token = str(obj["token"])
            if token not in c.token_index:
                raise ValueError(f"unknown token {token!r}")
        die = int(obj["die"])
        if not 1 <= die <= self._n_dice:
            raise ValueError(f"no die {die}")
        return LastPick(
            seat=int(obj["seat"]),
            die=die,
            face=self._check_face(str(obj["face"])),
            placed=placed,
            leader=leader,
            space=space,
            token=token,
        )

    def from_json(self, obj: JSON) -> MahabharataState:
        c = self.components
        try:
            n = int(obj["players"])
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            leaders = tuple(c.leader_index[k] for k in obj["leaders"])
            spaces: list[tuple[Space, ...]] = []
            for li, raw in zip(leaders, obj["spaces"], strict=True):
                row: list[Space] = []
                for sp in raw:
                    owner = sp["owner"]
                    row.append(
                        (
                            None if owner is None else int(owner),
                            tuple(c.token_index[k] for k in sp["tokens"]),
                        )
                    )
                if len(row) != len(c.leaders[li].icons):
                    raise ValueError(f"{c.leaders[li].name} has {len(row)} spaces")
                spaces.append(tuple(row))
            screens: list[tuple[int, ...]] = []
            for raw_screen in obj["screens"]:
                counts = [0] * len(c.tokens)
                for k in raw_screen:
                    counts[c.token_index[k]] += 1
                screens.append(tuple(counts))
            state = MahabharataState(
                num_players=n,
                phase=phase,
                drawn=tuple(c.leader_index[k] for k in obj["drawn"]),
                leaders=leaders,
                round=int(obj["round"]),
                elephant=None if obj["elephant"] is None else int(obj["elephant"]),
                faces=tuple(None if f is None else self._check_face(str(f)) for f in obj["faces"]),
                taken=tuple(None if t is None else int(t) for t in obj["taken"]),
                picks=int(obj["picks"]),
                spaces=tuple(spaces),
                screens=tuple(screens),
                supply=tuple(tuple(int(s[t.kind]) for t in c.tokens) for s in obj["supply"]),
                pending=frozenset(int(s) for s in obj["pending"]),
                announced=tuple(bool(a) for a in obj["announced"]),
                reason=reason_message(str(obj["reason"])),
                last_pick=self._last_pick_from_json(obj.get("last_pick"), leaders),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Not a Mahabharata state: {exc}") from None
        if not (
            len(state.faces) == len(state.taken) == self._n_dice
            and len(state.screens) == len(state.supply) == len(state.announced) == n
        ):
            raise ValueError("Not a Mahabharata state: wrong number of dice or seats")
        return state

    def _check_face(self, face: str) -> str:
        if face not in self._face_index:
            raise ValueError(f"unknown face {face!r}")
        return face
