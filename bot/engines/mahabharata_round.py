"""Mahabharata's round: applying an action (the leaders' draw, the first
player, the roll, a pick of the draft, an announcement) and the end of a
round, with the fast path for the engine's own actions.
"""

from __future__ import annotations

from bot.engines.core import (
    CHANCE,
    IllegalAction,
    NotYourTurn,
    Seat,
    excerpt,
)
from bot.engines.mahabharata_components import (
    CLASS_WORD,
    RAJA,
    SETUP_DRAW,
    TARGET_VP,
    joined,
    keep_for_eighteen,
)
from bot.engines.mahabharata_rules import _snake
from bot.engines.mahabharata_screens import MahabharataScreens
from bot.engines.mahabharata_state import (
    _EMPTY_SPACE,
    _FACE_KEYS,
    _HELP,
    _LEGAL,
    _NOBODY,
    _OPEN,
    _PICKS,
    _TO_LEADER,
    _TO_SCREEN,
    ANNOUNCE,
    DRAFT,
    FIRST,
    OVER,
    PLACED_LEADER,
    PLACED_NOTHING,
    PLACED_SCREEN,
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
    _build,
    _fields_of,
    _new_state,
    _replace,
    _set,
    _set_field,
)
from bot.engines.messages import Msg, Plural


def _one_fewer(
    supplies: tuple[tuple[int, ...], ...], seat: Seat, kind: int
) -> tuple[tuple[int, ...], ...]:
    """``supplies`` with one token of ``kind`` gone from ``seat``'s supply
    (to a leader space or behind the screen)."""
    supply = list(supplies[seat])
    supply[kind] -= 1
    changed = list(supplies)
    changed[seat] = tuple(supply)
    return tuple(changed)


class MahabharataRound(MahabharataScreens):
    """Applying an action: the draw of leaders (R4), the first player, the
    roll, the snake draft's picks, the announcements and the end of a round."""

    # ----- apply ----------------------------------------------------------

    def apply(
        self, state: MahabharataState, seat: Seat, action: MahabharataAction
    ) -> MahabharataState:
        phase = state.phase
        if phase == ROLL and seat == CHANCE:
            # The engine's own outcome for the die to roll next (as from
            # chance_outcomes), found by identity; anything else is checked
            # the long way.
            info = self._roll_info.get(id(action))
            faces = state.faces
            if info is not None and faces.index(None) == info[0]:
                d = info[0]
                # _fields_of, inline (speed); a rolling state lists no picks.
                fields = state.__dict__.copy()
                new_faces = list(faces)
                new_faces[d] = info[1]
                fields["faces"] = tuple(new_faces)
                if d + 1 == self._n_dice:
                    fields["phase"] = DRAFT  # R6: all eight dice are rolled
                after: MahabharataState = _new_state(MahabharataState)
                _set_field(after, "__dict__", fields)
                return after
            return self._apply_roll(state, action)
        if phase == OVER:
            raise IllegalAction(Msg("The game is over."))
        if phase == DRAFT:
            assert state.elephant is not None
            if seat != _snake(state.num_players, state.elephant)[state.picks]:
                raise NotYourTurn(Msg("It is not your turn: another player is choosing a die."))
            fast = self._listed_pick(state, seat, action)
            if fast is not None:
                return fast
            if not isinstance(action, _PICKS):
                raise IllegalAction(Msg("It is time to take a die. {help}", help=_HELP))
            return self._apply_pick(state, seat, action)
        if phase == ANNOUNCE:
            if seat not in state.pending:
                if 0 <= seat < state.num_players and state.announced[seat]:
                    raise NotYourTurn(Msg("You have already announced."))
                raise NotYourTurn(
                    Msg(
                        "It is not your turn: the round is over and players are being asked "
                        "in private whether to announce a Pati."
                    )
                )
            if isinstance(action, Announce):
                announced = list(state.announced)
                announced[seat] = True
                state = _replace(state, announced=tuple(announced))
            elif not isinstance(action, Pass):
                raise IllegalAction(Msg("The round is over: answer 'announce' or 'pass'."))
            state = _replace(state, pending=state.pending - {seat})
            if state.pending:
                # R10: everybody asked decides before the round is settled.
                return state
            return self._end_of_round(state)
        # SETUP, FIRST, ROLL: chance acts.
        if seat != CHANCE:
            if phase == ROLL:
                raise NotYourTurn(Msg("It is not your turn: the dice are being rolled."))
            raise NotYourTurn(Msg("It is not your turn: the game is being set up."))
        if phase == SETUP:
            return self._apply_draw(state, action)
        return self._apply_first(state, action)

    def _apply_draw(self, state: MahabharataState, action: MahabharataAction) -> MahabharataState:
        c = self.components
        # The engine's own draws (as from chance_outcomes) by identity.
        i = self._draw_index.get(id(action))
        if i is None:
            if not isinstance(action, DrawLeader):
                raise IllegalAction(Msg("A leader card is to be drawn now."))
            i = c.leader_index.get(action.leader)
            if i is None:
                raise IllegalAction(
                    Msg("There is no leader called {name}.", name=excerpt(action.leader))
                )
        if i in state.drawn:
            raise IllegalAction(
                Msg("{leader} has already been drawn.", leader=Msg(c.leaders[i].name))
            )
        drawn = (*state.drawn, i)
        vps = tuple(map(self._vps.__getitem__, drawn))
        # R4: after four cards, keep drawing while below 18; at or above 18
        # keep the best subset making exactly 18, or draw on if none does.
        if len(drawn) >= SETUP_DRAW and sum(vps) >= TARGET_VP:
            keep = keep_for_eighteen(vps)
            if keep is not None:
                leaders = tuple(sorted(drawn[k] for k in keep))
                return _replace(
                    state,
                    phase=FIRST,
                    drawn=drawn,
                    leaders=leaders,
                    spaces=tuple((_EMPTY_SPACE,) * len(c.leaders[li].icons) for li in leaders),
                )
        if len(drawn) == len(c.leaders):
            # R4: the deck is empty: start over.  A validated table always has
            # an 18 subset among all cards, so this cannot happen with one.
            drawn = ()
        return _replace(state, drawn=drawn)

    def _apply_first(self, state: MahabharataState, action: MahabharataAction) -> MahabharataState:
        if not isinstance(action, ChooseFirst):
            raise IllegalAction(Msg("The first player is to be chosen now."))
        if not 0 <= action.seat < state.num_players:
            raise IllegalAction(Msg("There is no such seat."))
        return _replace(state, phase=ROLL, round=1, elephant=action.seat)

    def _apply_roll(self, state: MahabharataState, action: MahabharataAction) -> MahabharataState:
        if not isinstance(action, Roll):
            raise IllegalAction(Msg("The dice are to be rolled now."))
        d = state.faces.index(None)
        if action.die != d + 1:
            raise IllegalAction(Msg("Die {die} is to be rolled next.", die=d + 1))
        if action.face not in self.components.dice[d].faces:
            raise IllegalAction(
                Msg(
                    "Die {die} has no {face} face.",
                    die=d + 1,
                    face=self._face_name(action.face),
                )
            )
        faces = _set(state.faces, d, action.face)
        # R6: all eight dice are rolled, then the draft begins.
        return _replace(state, faces=faces, phase=DRAFT if d + 1 == self._n_dice else ROLL)

    def _listed_pick(
        self, state: MahabharataState, seat: Seat, action: MahabharataAction
    ) -> MahabharataState | None:
        """``apply`` of a pick for the picker ``seat`` when ``action`` is one
        of the engine's own pick objects (as ``legal_actions`` lists them)
        and legal here, found by identity and checked on small integers;
        ``None`` for anything else, which :meth:`_apply_pick` checks the
        long way and refuses in words.  The same rules: the die is not
        taken; a screen takes a non-Raja die's token from supply (R7); a
        leader space takes a token of its class from supply, the die's own
        or any for a Raja, unless another player holds it (R8); nothing is
        placed only when nothing can be (R9)."""
        info = self._pick_info.get(id(action))
        if info is None:
            return None
        what, d, k, li, j, sid, lasts = info
        taken = state.taken
        if taken[d] is not None:
            return None
        face = state.faces[d]
        if face is None:
            return None  # not rolled: only a state edited by hand
        fk = self._face_kind[face]
        supplies = state.supply
        supply = supplies[seat]
        fields = state.__dict__.copy()  # _fields_of, inline (speed)
        fields.pop(_LEGAL, None)
        # Tuples are rebuilt inline below as list copies (no helper calls,
        # no slices): this runs for every pick of a playout.
        if what == _TO_LEADER:
            if (fk != k and fk != -1) or not supply[k]:
                return None
            try:
                pos = state.leaders.index(li)
            except ValueError:
                return None  # not in play
            spaces = state.spaces
            row = spaces[pos]
            owner, stack = row[j]
            if owner is not None and owner != seat:
                return None
            new_row = list(row)
            new_row[j] = (seat, (*stack, k))
            new_spaces = list(spaces)
            new_spaces[pos] = tuple(new_row)
            fields["spaces"] = tuple(new_spaces)
            fields["supply"] = _one_fewer(supplies, seat, k)
            if owner is None:
                # The space closes to everybody else (R8): keep the masks
                # (carried over by _fields_of) right.
                masks = fields.get(_OPEN)
                if masks is not None:
                    own = list(masks[1])
                    bit = 1 << sid
                    own[seat] |= bit
                    fields[_OPEN] = (masks[0] & ~bit, tuple(own))
        elif what == _TO_SCREEN:
            if fk < 0 or not supply[fk]:
                return None
            new_screen = list(state.screens[seat])
            new_screen[fk] += 1
            new_screens = list(state.screens)
            new_screens[seat] = tuple(new_screen)
            fields["screens"] = tuple(new_screens)
            fields["supply"] = _one_fewer(supplies, seat, fk)
        elif not isinstance(self._legal(state, seat)[0], TakeNothing):
            return None
        new_taken = list(taken)
        new_taken[d] = seat
        fields["taken"] = tuple(new_taken)
        picks = fields["picks"] = state.picks + 1
        # The same LastPick object for the same pick by the same seat of the
        # same face (immutable, so states share it).
        last = lasts.get(seat * _FACE_KEYS + fk + 1)
        if last is None:
            last = lasts[seat * _FACE_KEYS + fk + 1] = self._new_last_pick(
                seat, what, d, face, li, j, k
            )
        fields["last_pick"] = last
        after: MahabharataState = _new_state(MahabharataState)
        _set_field(after, "__dict__", fields)
        if picks < 2 * state.num_players:
            return after
        return self._round_over(after)

    def _new_last_pick(
        self, seat: Seat, what: int, d: int, face: str, li: int, j: int, k: int
    ) -> LastPick:
        if what == _TO_LEADER:
            return LastPick(seat, d + 1, face, PLACED_LEADER, li, j + 1, self._kinds[k])
        # R14: a screen's token is not recorded.
        return LastPick(seat, d + 1, face, PLACED_SCREEN if what == _TO_SCREEN else PLACED_NOTHING)

    def _apply_pick(
        self,
        state: MahabharataState,
        seat: Seat,
        action: PlaceScreen | PlaceLeader | TakeNothing,
    ) -> MahabharataState:
        c = self.components
        d = action.die - 1
        if not 0 <= d < self._n_dice:
            raise IllegalAction(
                Msg(
                    "There is no die {die}; the dice are d1 to d{last}.",
                    die=action.die,
                    last=self._n_dice,
                )
            )
        if state.taken[d] is not None:
            raise IllegalAction(Msg("Die {die} has already been taken this round.", die=action.die))
        face = state.faces[d]
        assert face is not None
        supply = state.supply[seat]
        if isinstance(action, TakeNothing):
            # R9: forced choice.
            for other in range(self._n_dice):
                if state.taken[other] is None and self._can_place(state, seat, other):
                    raise IllegalAction(
                        Msg(
                            "You must take a die you can place (die {other} can be placed); "
                            "'d{die} none' is only allowed when no remaining die can be.",
                            other=other + 1,
                            die=action.die,
                        )
                    )
            last = LastPick(seat, action.die, face, PLACED_NOTHING)
            return self._after_pick(state, seat, d, state.supply, state.screens, state.spaces, last)
        if isinstance(action, PlaceScreen):
            if face == RAJA:
                raise IllegalAction(
                    Msg("A Raja die cannot be used for your Pati: place it on a leader.")
                )
            k = c.token_index[face]
            if not supply[k]:
                raise IllegalAction(
                    Msg("You have no {token} tokens left.", token=self._token_name(face))
                )
            screen = state.screens[seat]
            screens = _set(state.screens, seat, _set(screen, k, screen[k] + 1))
            supplies = _set(state.supply, seat, _set(supply, k, supply[k] - 1))
            # R14: the die is public, but the token is not recorded.
            last = LastPick(seat, action.die, face, PLACED_SCREEN)
            return self._after_pick(state, seat, d, supplies, screens, state.spaces, last)
        # PlaceLeader
        token = action.token
        if face == RAJA:
            if token is None:
                raise IllegalAction(
                    Msg(
                        "Die {die} is a Raja: name the token to place, "
                        "e.g. 'd{die} {leader}.{space} cav2'.",
                        die=action.die,
                        leader=action.leader,
                        space=action.space,
                    )
                )
        elif token is None:
            token = face
        elif token != face:
            raise IllegalAction(
                Msg(
                    "Die {die} shows {face}, so it places a {face} token; "
                    "only a Raja die lets you choose.",
                    die=action.die,
                    face=self._face_name(face),
                )
            )
        k_or_none = c.token_index.get(token)
        if k_or_none is None:
            raise IllegalAction(Msg("There is no token kind {token}.", token=excerpt(token)))
        k = k_or_none
        if not supply[k]:
            raise IllegalAction(
                Msg("You have no {token} tokens left.", token=self._token_name(token))
            )
        li = c.leader_index.get(action.leader)
        if li is None or li not in state.leaders:
            raise IllegalAction(
                Msg("{leader} is not in play.", leader=self._leader_name(action.leader))
            )
        pos = state.leaders.index(li)
        spec = c.leaders[li]
        if not 1 <= action.space <= len(spec.icons):
            raise IllegalAction(
                Plural(
                    "{leader} has only {n} space.",
                    "{leader} has only {n} spaces.",
                    len(spec.icons),
                    leader=Msg(spec.name),
                )
            )
        j = action.space - 1
        icon = spec.icons[j]
        if icon != c.token_class[k]:
            raise IllegalAction(
                Msg(
                    "Space {space} of {leader} takes {wanted}, not {given}.",
                    space=action.space,
                    leader=Msg(spec.name),
                    wanted=CLASS_WORD[icon],
                    given=CLASS_WORD[c.token_class[k]],
                )
            )
        owner, stack = state.spaces[pos][j]
        if owner is not None and owner != seat:
            raise IllegalAction(
                Msg(
                    "Space {space} of {leader} holds another player's token.",
                    space=action.space,
                    leader=Msg(spec.name),
                )
            )
        spaces = _set(state.spaces, pos, _set(state.spaces[pos], j, (seat, (*stack, k))))
        supplies = _set(state.supply, seat, _set(supply, k, supply[k] - 1))
        last = LastPick(seat, action.die, face, PLACED_LEADER, li, action.space, token)
        return self._after_pick(state, seat, d, supplies, state.screens, spaces, last)

    def _after_pick(
        self,
        state: MahabharataState,
        seat: Seat,
        d: int,
        supply: tuple[tuple[int, ...], ...],
        screens: tuple[tuple[int, ...], ...],
        spaces: tuple[tuple[Space, ...], ...],
        last: LastPick,
    ) -> MahabharataState:
        picks = state.picks + 1
        state = _replace(
            state,
            taken=_set(state.taken, d, seat),
            picks=picks,
            supply=supply,
            screens=screens,
            spaces=spaces,
            last_pick=last,
        )
        if picks < 2 * state.num_players:
            return state
        return self._round_over(state)

    def _round_over(self, state: MahabharataState) -> MahabharataState:
        # R10: the round is over; those with a complete Pati are asked.
        cache = self._pati_cache
        holders: list[Seat] = []
        for s, screen in enumerate(state.screens):
            missing = cache.get(screen)
            if missing is None:
                missing = self.pati_missing(screen)
            if not missing:
                holders.append(s)
        if holders:
            return _replace(state, phase=ANNOUNCE, pending=frozenset(holders))
        return self._end_of_round(state)

    def _end_of_round(self, state: MahabharataState) -> MahabharataState:
        reasons: list[str] = []
        if any(state.announced):
            reasons.append(Msg("A Pati was announced."))
        masks = self._open_masks(state)
        # No free space left (R8 masks) is every space holding a token.
        if masks[0] == 0 if masks is not None else self._all_spaces_filled(state):
            total = sum(len(sp) for sp in state.spaces)
            reasons.append(Msg("All {total} leader spaces hold a token.", total=total))
        if not any(map(any, state.supply)):
            # Added to R10: nothing can change any more (see module docstring).
            reasons.append(Msg("No player has a token left to place."))
        if reasons:
            return _replace(state, phase=OVER, pending=frozenset(), reason=joined(reasons))
        assert state.elephant is not None
        # R5: the elephant passes to the left; R6: a new roll.
        fields = _fields_of(state)
        fields["phase"] = ROLL
        fields["round"] = state.round + 1
        fields["elephant"] = (state.elephant + 1) % state.num_players
        fields["faces"] = fields["taken"] = self._unrolled
        fields["picks"] = 0
        fields["pending"] = _NOBODY
        return _build(fields)

    @staticmethod
    def _all_spaces_filled(state: MahabharataState) -> bool:
        return all(owner is not None for spaces in state.spaces for owner, _ in spaces)
