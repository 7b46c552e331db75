"""Mahabharata's rules (R1-R14, ``docs/rules/mahabharata.md``): the
set-up, the snake draft's order, whose turn it is, the legal actions and
chance's odds, and the scoring (R11-R13).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from operator import itemgetter
from typing import Any

from bot.engines.core import (
    CHANCE,
    InvalidOptions,
    Option,
    Outcome,
    Seat,
    excerpt,
)
from bot.engines.mahabharata_components import (
    _PATI_CACHE_SIZE,
    CLASSES,
    PATI,
    PATI_VP,
    RAJA,
    Components,
    LeaderSpec,
    default_components,
)
from bot.engines.mahabharata_state import (
    _ANNOUNCE,
    _CHANCE_ONLY,
    _LEGAL,
    _NOBODY,
    _OPEN,
    _PASS,
    _TO_LEADER,
    _TO_NOTHING,
    _TO_SCREEN,
    ANNOUNCE,
    DRAFT,
    FIRST,
    OVER,
    ROLL,
    SETUP,
    ChooseFirst,
    DrawLeader,
    MahabharataAction,
    MahabharataState,
    PlaceLeader,
    PlaceScreen,
    Roll,
    TakeNothing,
    _build,
    _Getter,
    _PickInfo,
)
from bot.engines.messages import Msg

_Groups = dict[tuple[int, bool], tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]]
"""Draws of one icon class by (tokens drawn, complete): counts, ways each, total ways."""


def snake_order(num_players: int, elephant: Seat) -> tuple[Seat, ...]:
    """R7: elephant holder to the left round the table, the last seat twice, back."""
    return _snake(num_players, elephant)


@cache
def _snake(num_players: int, elephant: Seat) -> tuple[Seat, ...]:
    forward = tuple((elephant + i) % num_players for i in range(num_players))
    return forward + forward[::-1]


@cache
def _one_in(count: int) -> Fraction:
    return Fraction(1, count)


@cache
def _first_outcomes(num_players: int) -> tuple[tuple[ChooseFirst, Fraction], ...]:
    """R5: each seat may take the elephant, equally likely."""
    return tuple((ChooseFirst(s), _one_in(num_players)) for s in range(num_players))


@cache
def _pickers(num_players: int, elephant: Seat) -> tuple[frozenset[Seat], ...]:
    """:func:`_snake` as the ``to_move`` of each pick: built once, not per call."""
    return tuple(frozenset((s,)) for s in _snake(num_players, elephant))


def leader_winner(influence: Sequence[int]) -> Seat | None:
    """R12: highest influence wins; on a tie at the top, the next lower level
    wins if exactly one player holds it and it is above zero."""
    levels = sorted(set(influence), reverse=True)
    top = levels[0]
    if top <= 0:
        return None
    holders = [s for s, v in enumerate(influence) if v == top]
    if len(holders) == 1:
        return holders[0]
    if len(levels) > 1 and levels[1] > 0:
        second = [s for s, v in enumerate(influence) if v == levels[1]]
        if len(second) == 1:
            return second[0]
    return None


def rank_scores(scores: Sequence[int]) -> tuple[frozenset[Seat], ...]:
    """R13: most VP wins; a tie on top hands the win to the single player with
    the next lower total; otherwise everybody draws."""
    levels = sorted(set(scores), reverse=True)
    groups = [frozenset(s for s, v in enumerate(scores) if v == level) for level in levels]
    if len(groups[0]) == 1:
        return tuple(groups)
    if len(groups) > 1 and len(groups[1]) == 1:
        # "The player with the second highest points wins": that seat first,
        # then the tied top group, then the rest by score.
        return (groups[1], groups[0], *groups[2:])
    return (frozenset(range(len(scores))),)


# --------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------


class MahabharataRules:
    """What the rules allow: the game's tables, the set-up, whose turn it
    is, the legal actions (built fast, from prebuilt actions and bit masks)
    and chance's odds, and the scoring.  Playing an action is
    :class:`~bot.engines.mahabharata_round.MahabharataRound`'s;
    :class:`~bot.engines.mahabharata.MahabharataEngine` adds the text."""

    name: str = "mahabharata"
    title: str = "Mahabharata"
    revision: int = 1
    min_players: int = 2
    max_players: int = 4

    def __init__(self, components: Components | None = None) -> None:
        self.options: Mapping[str, Option] = {}
        c = components if components is not None else default_components()
        self.components = c
        self._n_dice = len(c.dice)
        self._roll_outcomes: tuple[tuple[tuple[Roll, Fraction], ...], ...] = tuple(
            tuple(
                (Roll(d + 1, face), Fraction(die.faces.count(face), len(die.faces)))
                for face in dict.fromkeys(die.faces)
            )
            for d, die in enumerate(c.dice)
        )
        self._screen_actions = tuple(PlaceScreen(d + 1) for d in range(self._n_dice))
        self._nothing_actions = tuple(TakeNothing(d + 1) for d in range(self._n_dice))
        self._face_index: dict[str, int] = dict(c.token_index)
        self._face_index[RAJA] = -1
        self._pati_cache: dict[tuple[int, ...], tuple[str, ...]] = {}
        self._class_deal_cache: dict[tuple[str, tuple[int, ...], tuple[int, ...]], _Groups] = {}
        # Every leader space of the table numbered 0..44 (leader by leader),
        # and every possible leader placement built once: legal_actions only
        # picks from these (speed).
        self._first_space: tuple[int, ...] = tuple(
            itertools.accumulate((len(ld.icons) for ld in c.leaders), initial=0)
        )[:-1]
        spaces = [(ld.key, j + 1, icon) for ld in c.leaders for j, icon in enumerate(ld.icons)]
        self._space_class: tuple[str, ...] = tuple(icon for _, _, icon in spaces)
        self._leader_actions: tuple[tuple[tuple[PlaceLeader, ...], ...], ...] = tuple(
            tuple(
                tuple(PlaceLeader(d + 1, key, sp, t.kind) for key, sp, _ in spaces)
                for t in c.tokens
            )
            for d in range(self._n_dice)
        )
        self._token_counts: tuple[int, ...] = tuple(t.count for t in c.tokens)
        # The playout path works on small integers (speed): a face as its
        # token kind index (-1 for Raja, -2 for not rolled), a class as its
        # index in CLASSES, each leader's spaces as (table-wide number, class).
        self._face_kind: dict[str | None, int] = {None: -2}
        self._face_kind.update(self._face_index)
        self._kinds: tuple[str, ...] = tuple(t.kind for t in c.tokens)
        self._kind_class: tuple[int, ...] = tuple(CLASSES.index(t.cls) for t in c.tokens)
        self._leader_spaces: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(
                (self._first_space[li] + j, CLASSES.index(icon)) for j, icon in enumerate(ld.icons)
            )
            for li, ld in enumerate(c.leaders)
        )
        self._roll_info: dict[int, tuple[int, str]] = {
            id(roll): (roll.die - 1, roll.face) for odds in self._roll_outcomes for roll, _ in odds
        }
        # Every pick legal_actions can list, by identity (the objects live as
        # long as the engine, so no other object shares their id): what it
        # is, its die index, token kind, leader index and space index.  A
        # leader placement whose token does not fit the space's class (R8)
        # is never listed, so it is left out and goes the long way.
        # The last slot keeps the pick's LastPick per seat and face (see
        # _listed_pick), at most _FACE_KEYS per seat.
        self._pick_info: dict[int, _PickInfo] = {}
        for d in range(self._n_dice):
            self._pick_info[id(self._screen_actions[d])] = (_TO_SCREEN, d, -1, -1, -1, -1, {})
            self._pick_info[id(self._nothing_actions[d])] = (_TO_NOTHING, d, -1, -1, -1, -1, {})
            for k in range(len(c.tokens)):
                for li, numbered in enumerate(self._leader_spaces):
                    for j, (sid, cls) in enumerate(numbered):
                        if cls == self._kind_class[k]:
                            action = self._leader_actions[d][k][sid]
                            self._pick_info[id(action)] = (_TO_LEADER, d, k, li, j, sid, {})
        # Per class index: the bit mask of its table-wide space numbers.
        self._class_masks: tuple[int, ...] = tuple(
            sum(1 << sid for sid, cls in itertools.chain(*self._leader_spaces) if cls == ci)
            for ci in range(len(CLASSES))
        )
        self._getters: dict[int, _Getter] = {}
        self._unrolled: tuple[None, ...] = (None,) * self._n_dice
        self._draws: tuple[DrawLeader, ...] = tuple(DrawLeader(ld.key) for ld in c.leaders)
        self._draw_index: dict[int, int] = {id(a): i for i, a in enumerate(self._draws)}
        self._vps: tuple[int, ...] = tuple(ld.vp for ld in c.leaders)
        self._setups: dict[int, dict[str, Any]] = {}

    # ----- names --------------------------------------------------------

    def _token_name(self, kind: str) -> str:
        i = self.components.token_index.get(kind)
        # A name from the table, said as a message (issue 33; DATA_NAMES).
        return Msg(self.components.tokens[i].name) if i is not None else kind

    def _face_name(self, face: str | None) -> str:
        if face is None:
            return Msg("not rolled")
        return Msg("Raja") if face == RAJA else self._token_name(face)

    def _leader_spec(self, key: str) -> LeaderSpec | None:
        i = self.components.leader_index.get(key)
        return self.components.leaders[i] if i is not None else None

    def _leader_name(self, key: str) -> str:
        spec = self._leader_spec(key)
        return Msg(spec.name) if spec is not None else key

    # ----- setup ----------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> MahabharataState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(
                Msg(
                    "Mahabharata takes {low} to {high} players.",
                    low=self.min_players,
                    high=self.max_players,
                )
            )
        for key in options:
            raise InvalidOptions(Msg("Mahabharata has no option {name}.", name=excerpt(key)))
        # Built once per player count, then copied (a playout starts often).
        template = self._setups.get(num_players)
        if template is None:
            template = self._setups[num_players] = self._new_setup(num_players).__dict__
        return _build(template.copy())

    def _new_setup(self, num_players: int) -> MahabharataState:
        supply = tuple(t.count for t in self.components.tokens)
        zeros = (0,) * len(self.components.tokens)
        return MahabharataState(
            num_players=num_players,
            phase=SETUP,
            drawn=(),
            leaders=(),
            round=0,
            elephant=None,
            faces=(None,) * self._n_dice,
            taken=(None,) * self._n_dice,
            picks=0,
            spaces=(),
            screens=(zeros,) * num_players,
            supply=(supply,) * num_players,
            pending=frozenset(),
            announced=(False,) * num_players,
            reason="",
        )

    # ----- whose turn -----------------------------------------------------

    def to_move(self, state: MahabharataState) -> frozenset[Seat]:
        phase = state.phase
        if phase == DRAFT:
            assert state.elephant is not None
            return _pickers(state.num_players, state.elephant)[state.picks]
        if phase == ANNOUNCE:
            return state.pending
        if phase == OVER:
            return _NOBODY
        return _CHANCE_ONLY

    def waiting_on(self, state: MahabharataState) -> frozenset[Seat]:
        phase = state.phase
        if phase == DRAFT:
            assert state.elephant is not None
            return _pickers(state.num_players, state.elephant)[state.picks]
        # R14 (announce): who is asked would reveal who holds a complete
        # Pati.  Otherwise chance is to move, or nobody.
        return _NOBODY

    def deciding_privately(self, state: MahabharataState) -> frozenset[Seat]:
        # R14: the players asked to announce or pass owe a decision (with a
        # clock and reminders), but the channel may not learn who they are.
        return state.pending if state.phase == ANNOUNCE else frozenset()

    def _current_picker(self, state: MahabharataState) -> Seat:
        assert state.elephant is not None
        return _snake(state.num_players, state.elephant)[state.picks]

    # ----- legal actions ---------------------------------------------------

    def chance_outcomes(self, state: MahabharataState) -> list[tuple[MahabharataAction, Fraction]]:
        phase = state.phase
        if phase == ROLL:
            return list(self._roll_outcomes[state.faces.index(None)])
        if phase == SETUP:
            # R4: uniform over the cards left in the deck.  The same action
            # and Fraction objects each time, so sample_chance finds its
            # table of odds for them.
            drawn = state.drawn
            left = [a for i, a in enumerate(self._draws) if i not in drawn]
            p = _one_in(len(left))
            return [(a, p) for a in left]
        if phase == FIRST:
            # R5: the elephant goes to a seat chosen by chance.
            return list(_first_outcomes(state.num_players))
        return []

    def legal_actions(self, state: MahabharataState, seat: Seat) -> list[MahabharataAction]:
        phase = state.phase
        if phase == DRAFT:
            assert state.elephant is not None
            if seat != _snake(state.num_players, state.elephant)[state.picks]:
                return []
            # A copy: the state keeps its list (see _legal).
            legal = state.__dict__.get(_LEGAL)
            if legal is None:
                legal = state.__dict__[_LEGAL] = self._picks(state, seat)
            return legal.copy()
        if phase == ANNOUNCE:
            return [_ANNOUNCE, _PASS] if seat in state.pending else []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        return []

    def choices_are_public(self, state: MahabharataState, seat: Seat) -> bool:
        """Which dice a picker is offered, and what under each, depends on
        their supply, which R14 keeps private (the public sees only how many
        tokens are left): a die whose token kind has run out is not offered
        (R9), and a Raja die lists only kinds still in supply.  So the choices
        are public only when the public view settles every such question.
        Chance's leader draws and rolls are public; so are the (empty)
        choices of seats not to move.  In the announce phase who is asked
        reveals a complete Pati (R14), so nothing there is public.
        """
        if state.phase == ANNOUNCE:
            return False
        if state.phase != DRAFT or seat != self._current_picker(state):
            return True
        return self._supply_settled(state, seat)

    def _supply_settled(self, state: MahabharataState, seat: Seat) -> bool:
        """Whether the public view alone tells, for every token kind a
        remaining die could place for ``seat``, if any is left in supply.

        Public: the tokens the seat put on leaders and how many are behind its
        screen (R14), so supply of kind k lies between ``count - on leaders -
        screen`` and ``count - on leaders``; it is known to be non-zero when
        the lower bound is above 0 and known to be zero when the upper is 0.
        Computed from public facts only, never from ``state.supply``.
        """
        c = self.components
        on_leaders = [0] * len(c.tokens)
        for spaces in state.spaces:
            for owner, stack in spaces:
                if owner == seat:
                    for k in stack:
                        on_leaders[k] += 1
        behind = sum(state.screens[seat])
        open_ = self._open_spaces(state, seat)
        for d in range(self._n_dice):
            if state.taken[d] is not None:
                continue
            face = state.faces[d]
            if face == RAJA:
                kinds = [k for k, cls in enumerate(c.token_class) if open_[cls]]
            elif face is not None:
                kinds = [c.token_index[face]]
            else:
                kinds = []
            for k in kinds:
                most = c.tokens[k].count - on_leaders[k]
                if most > 0 and most - behind <= 0:
                    return False
        return True

    def _open_spaces(self, state: MahabharataState, seat: Seat) -> dict[str, list[int]]:
        """Per icon class, the table-wide space numbers the seat may use (R8)."""
        first = self._first_space
        classes = self._space_class
        open_: dict[str, list[int]] = {c: [] for c in CLASSES}
        for li, spaces in zip(state.leaders, state.spaces, strict=True):
            base = first[li]
            for j, (owner, _) in enumerate(spaces):
                # R8: another player's token closes the space; our own stacks.
                if owner is None or owner == seat:
                    open_[classes[base + j]].append(base + j)
        return open_

    def _legal(self, state: MahabharataState, picker: Seat) -> list[MahabharataAction]:
        """The picks of ``picker``, the seat to pick in a draft state, in
        the order ``legal_actions`` lists them.

        Computed once per state and kept in its ``__dict__`` under
        :data:`_LEGAL` (states are immutable, so it never goes stale; every
        state built from another drops it, see :func:`_fields_of`): a
        playout or a search lists the picks and then ``apply`` asks whether
        a forced empty pick (R9) is legal, from the same list.  Callers get
        copies (``legal_actions``) or only read it.
        """
        legal: list[MahabharataAction] | None = state.__dict__.get(_LEGAL)
        if legal is None:
            legal = state.__dict__[_LEGAL] = self._picks(state, picker)
        return legal

    def _picks(self, state: MahabharataState, seat: Seat) -> list[MahabharataAction]:
        """Dice ascending; per die the screen, then the open spaces of its
        token's class (leaders in table order, spaces ascending), for a
        Raja die kind by kind in table order.  One function on small
        integers and prebuilt actions: it runs for every pick of a playout.
        :meth:`_picks_in_state_order` is the plain version (and the
        reference the tests compare this one with)."""
        masks = state.__dict__.get(_OPEN) or self._open_masks(state)
        if masks is None:
            return self._picks_in_state_order(state, seat)
        # Per class index: what picks a die's placements (a row of
        # _leader_actions) onto the spaces of that class the seat may use
        # (R8), ascending; None when there is none.
        usable = masks[0] | masks[1][seat]
        cached = self._getters.get
        new = self._getter
        # Unrolled over the four classes (CLASSES): getters are truthy.
        chariot, elephant, cavalry, infantry = self._class_masks
        chariot &= usable
        elephant &= usable
        cavalry &= usable
        infantry &= usable
        getters = (
            (cached(chariot) or new(chariot)) if chariot else None,
            (cached(elephant) or new(elephant)) if elephant else None,
            (cached(cavalry) or new(cavalry)) if cavalry else None,
            (cached(infantry) or new(infantry)) if infantry else None,
        )
        supply = state.supply[seat]
        kind_class = self._kind_class
        taken = state.taken
        faces = state.faces
        face_kind = self._face_kind
        screens = self._screen_actions
        table = self._leader_actions
        out: list[MahabharataAction] = []
        raja: list[tuple[int, _Getter]] | None = None
        for d in range(self._n_dice):
            if taken[d] is not None:
                continue
            k = face_kind[faces[d]]
            assert k != -2  # every die is rolled before the draft (R6)
            rows = table[d]
            if k >= 0:
                if supply[k]:
                    out.append(screens[d])
                    getter = getters[kind_class[k]]
                    if getter is not None:
                        out += getter(rows[k])
            else:
                # R8: a Raja: any token from supply onto a matching leader
                # space.  The kinds that have one are the same for every
                # Raja die.
                if raja is None:
                    raja = []
                    for k, left in enumerate(supply):
                        getter = getters[kind_class[k]]
                        if left and getter is not None:
                            raja.append((k, getter))
                for k, getter in raja:
                    out += getter(rows[k])
        if out:
            return out
        # R9: nothing can be placed: take any remaining die, place nothing.
        return [self._nothing_actions[d] for d in range(self._n_dice) if taken[d] is None]

    def _getter(self, bits: int) -> _Getter:
        """What picks the items of a mask's space numbers, ascending, out of
        a row of :attr:`_leader_actions`, always as a tuple (kept: few
        masks recur)."""
        sids: list[int] = []
        rest = bits
        while rest:
            low = rest & -rest  # the lowest bit set
            sids.append(low.bit_length() - 1)
            rest ^= low
        # itemgetter of one index gives the item itself; of a slice, a tuple.
        getter = itemgetter(*sids) if len(sids) > 1 else itemgetter(slice(sids[0], sids[0] + 1))
        if len(self._getters) >= _PATI_CACHE_SIZE:
            self._getters.clear()  # bounded memory in a long-running bot
        self._getters[bits] = getter
        return getter

    def _picks_in_state_order(self, state: MahabharataState, seat: Seat) -> list[MahabharataAction]:
        """:meth:`_picks` the plain way, spaces in the state's leader order."""
        c = self.components
        supply = state.supply[seat]
        open_ = self._open_spaces(state, seat)
        table = self._leader_actions
        out: list[MahabharataAction] = []
        untaken: list[int] = []
        for d in range(self._n_dice):
            if state.taken[d] is not None:
                continue
            untaken.append(d)
            face = state.faces[d]
            assert face is not None
            if face == RAJA:
                # R8: any token from supply onto a matching leader space.
                for k, cls in enumerate(c.token_class):
                    if supply[k]:
                        row = table[d][k]
                        out.extend([row[sid] for sid in open_[cls]])
            else:
                k = c.token_index[face]
                if supply[k]:
                    out.append(self._screen_actions[d])
                    row = table[d][k]
                    out.extend([row[sid] for sid in open_[c.token_class[k]]])
        if out:
            return out
        # R9: nothing can be placed: take any remaining die, place nothing.
        return [self._nothing_actions[d] for d in untaken]

    def _open_masks(self, state: MahabharataState) -> tuple[int, tuple[int, ...]] | None:
        """R8: the leader spaces nobody holds and those each seat holds, as
        bit masks over the table-wide space numbers (bit order is the order
        ``legal_actions`` lists spaces in): a seat may use the free ones and
        its own.  Kept in the state (:data:`_OPEN`).  ``None`` when the
        leaders are not in table order (only a state edited by hand), where
        bit order would not be list order."""
        masks: tuple[int, tuple[int, ...]] | None = state.__dict__.get(_OPEN)
        if masks is not None:
            return masks
        leaders = state.leaders
        if any(a >= b for a, b in itertools.pairwise(leaders)):
            return None
        n = state.num_players
        free = 0
        own = [0] * n
        for li, row in zip(leaders, state.spaces, strict=True):
            for (sid, _), (owner, _) in zip(self._leader_spaces[li], row, strict=True):
                if owner is None:
                    free |= 1 << sid
                elif 0 <= owner < n:
                    own[owner] |= 1 << sid
        masks = state.__dict__[_OPEN] = (free, tuple(own))
        return masks

    def _can_place(self, state: MahabharataState, seat: Seat, die: int) -> bool:
        c = self.components
        supply = state.supply[seat]
        face = state.faces[die]
        if face is None:
            return False
        if face != RAJA:
            # The screen always takes a non-Raja token that is in supply.
            return supply[c.token_index[face]] > 0
        classes = {c.token_class[k] for k, n in enumerate(supply) if n}
        for li, spaces in zip(state.leaders, state.spaces, strict=True):
            icons = c.leaders[li].icons
            for j, (owner, _) in enumerate(spaces):
                if icons[j] in classes and (owner is None or owner == seat):
                    return True
        return False

    def _screen_kinds(self, screen: tuple[int, ...]) -> tuple[str, ...]:
        """Token kinds behind a screen, in table order."""
        return tuple(
            t.kind for t, n in zip(self.components.tokens, screen, strict=True) for _ in range(n)
        )

    # ----- scoring --------------------------------------------------------

    def pati_missing(self, screen: tuple[int, ...]) -> tuple[str, ...]:
        """R11: what the screen lacks for a Pati (empty when complete).

        Per class, some subset of the tokens must show exactly the target
        number of icons; extra tokens do not spoil it.
        """
        cached = self._pati_cache.get(screen)
        if cached is not None:
            return cached
        c = self.components
        missing: list[str] = []
        for cls, target, text in PATI:
            reachable = 1  # bit i set: a subset shows exactly i icons
            mask = (1 << (target + 1)) - 1
            for k in c.kinds_by_class[cls]:
                for _ in range(screen[k]):
                    reachable = (reachable | (reachable << c.tokens[k].icons)) & mask
            if not reachable >> target & 1:
                missing.append(text)
        result = tuple(missing)
        if len(self._pati_cache) >= _PATI_CACHE_SIZE:
            self._pati_cache.clear()  # bounded memory in a long-running bot
        self._pati_cache[screen] = result
        return result

    def _influence(self, state: MahabharataState, pos: int) -> tuple[int, ...]:
        counts = [0] * state.num_players
        for owner, stack in state.spaces[pos]:
            if owner is not None:
                counts[owner] += len(stack)
        return tuple(counts)

    def _score(
        self, state: MahabharataState
    ) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[Seat | None, ...]]:
        pati = tuple(not self.pati_missing(s) for s in state.screens)
        scores = [PATI_VP if p else 0 for p in pati]
        winners: list[Seat | None] = []
        for pos, li in enumerate(state.leaders):
            w = leader_winner(self._influence(state, pos))
            winners.append(w)
            if w is not None:
                scores[w] += self.components.leaders[li].vp
        return tuple(scores), pati, tuple(winners)

    def outcome(self, state: MahabharataState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores, _, _ = self._score(state)
        return Outcome(ranking=rank_scores(scores), scores=scores, reason=state.reason)
