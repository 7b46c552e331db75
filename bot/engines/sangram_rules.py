"""Sangram's rules (R1-R14, ``docs/rules/sangram.md``): the set-up, whose
turn it is, the legal actions and chance's odds, the dealing of hidden cards
for the search (R14) and the ranking (R13).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import comb
from typing import Any, Final

from bot.engines.core import (
    CHANCE,
    InvalidOptions,
    Option,
    Outcome,
    Seat,
    excerpt,
)
from bot.engines.messages import Msg
from bot.engines.sangram_cards import (
    ACHARYA,
    BRITISHERS,
    DISCARD_UP_TO,
    GROW_FIRST,
    GROW_SECOND,
    GUPTCHAR,
    KEEP_ON_RESHUFFLE,
    LEGACY_ROUND_LIMIT,
    MAHARAJA,
    MANTRI,
    MANTRI_UP_TO,
    MAX_HAND,
    MAX_STRENGTH,
    NUM_CARDS,
    ROUND_LIMIT_MAX,
    SARTHI,
    SENAPATI,
    START_HAND,
    VAIDIK,
    VAIDIK_LOOK,
    VYAPARI,
    WIN_STRENGTH,
    YUVARAJ,
    Components,
    card_name,
    default_components,
)
from bot.engines.sangram_state import (
    _DECLINE,
    _DRAW_PHASES,
    _LEGAL,
    _NOBODY,
    _ONLY,
    _USE,
    _W,
    ACTIVATE,
    CHOOSE,
    COMMIT,
    FROM_CARD,
    GIVE,
    GRAB,
    IDLE,
    NO_CARD,
    OVER,
    RECRUIT,
    SARTHI_DRAW,
    SETUP,
    VOLUNTEER,
    Commit,
    Copy,
    DiscardBritishers,
    Draw,
    Give,
    GiveBritishers,
    Grab,
    Recruit,
    SangramAction,
    SangramState,
    Take,
    Target,
    _sarthi_can_draw,
)
from bot.engines.sangram_views import (
    CardView,
)

# --------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------


class SangramRules:
    """What the rules allow (R1-R14): the game's tables, the set-up, whose
    turn it is, the legal actions and chance's odds, what a seat may not
    see (for the search) and the final ranking.  Playing an action is
    :class:`~bot.engines.sangram_round.SangramRound`'s;
    :class:`~bot.engines.sangram.SangramEngine` adds the text."""

    name: str = "sangram"
    title: str = "Sangram"
    revision: int = 2
    """2: R4 (a Sarthi may be declined), R12 (the 13-draw after the 7-draws)
    and R13 (no round limit unless the lobby sets one) replay old logs
    differently, so games created under 1 keep its rules
    (:attr:`SangramState.legacy_rules`)."""
    min_players: int = 2
    max_players: int = 5

    def __init__(self, components: Components | None = None, *, fast: bool = True) -> None:
        self.options: Mapping[str, Option] = {
            "round_limit": Option(
                0,
                Msg(
                    "End the game after this many rounds, ranked as usual (0: no limit, as in "
                    "the rulebook; R13)"
                ),
                low=0,
                high=ROUND_LIMIT_MAX,
            )
        }
        self._fast = fast
        """Use :meth:`_fast_path` (tests turn it off to compare)."""
        c = components if components is not None else default_components()
        self.components = c
        # Lookups indexed by motivation (index 0 unused).
        self._kind: tuple[str, ...] = ("", *(card.kind for card in c.cards))
        self._strength: tuple[int, ...] = (0, *(card.strength for card in c.cards))
        self._brit: tuple[int, ...] = (0, *(card.britishers for card in c.cards))
        self._id: tuple[str, ...] = ("", *(card.id for card in c.cards))
        self._names: tuple[str, ...] = (
            "",
            *(card_name(card.name, card.motivation) for card in c.cards),
        )
        self._by_id: dict[str, int] = {card.id: card.motivation for card in c.cards}
        self._card_views: tuple[CardView, ...] = (
            CardView("", "", "", 0, 0, 0, ""),
            *(
                CardView(card.id, card.kind, card.name, card.motivation, card.strength,
                         card.britishers, card.activity)
                for card in c.cards
            ),
        )  # fmt: skip
        self._warrior_name: dict[str, str] = {w.key: w.name for w in c.warriors}
        self._recruit_lines: dict[tuple[int, int, int], str] = {}
        self._seat_cards: dict[tuple[int, int], str] = {}
        """``{p0} Acharya-53`` (a reveal) by (seat, card), made once."""
        self._seats_cards: dict[tuple[int, int], str] = {}
        """``{p0}'s Acharya-53`` (an activity) by (seat, card), made once."""
        """Recruit narrations made so far, by (seat, card, Britishers taken):
        at most 5 x 55 x 5 (:meth:`SangramRound._recruit_line`)."""
        # Every action built once; legal_actions picks from these (speed).
        cards = range(NUM_CARDS + 1)
        self._commit = tuple(Commit(m) for m in cards)
        self._take = tuple(Take(m) for m in cards)
        self._give = tuple(Give(m) for m in cards)
        self._recruit = tuple(Recruit(m) for m in cards)
        self._draw = tuple(Draw(m) for m in cards)
        self._grab = tuple(Grab(m) for m in cards)
        seats = range(self.max_players)
        self._target = tuple(Target(s) for s in seats)
        self._copy = tuple(Copy(s) for s in seats)
        self._discard = tuple(DiscardBritishers(k) for k in range(max(DISCARD_UP_TO.values()) + 1))
        self._give_brit = tuple(
            tuple(GiveBritishers(k, s) for s in seats) for k in range(MANTRI_UP_TO + 1)
        )
        self._uniform: dict[int, Fraction] = {k: Fraction(1, k) for k in range(1, NUM_CARDS + 1)}
        # R3, R9: chance is uniform over the cards it may pick, so each
        # (action, probability) pair is built once per number of cards:
        # ``self._draw_odds[size][card]`` (size 0 unused).
        uniform = (Fraction(0), *self._uniform.values())
        self._draw_odds: tuple[tuple[tuple[SangramAction, Fraction], ...], ...] = tuple(
            tuple((self._draw[c], p) for c in cards) for p in uniform
        )
        self._grab_odds: tuple[tuple[tuple[SangramAction, Fraction], ...], ...] = tuple(
            tuple((self._grab[c], p) for c in cards) for p in uniform
        )

    # ----- names ----------------------------------------------------------

    def card_name(self, card: int) -> str:
        """``Acharya-53``: how narration and labels write a card."""
        return self._names[card]

    def card_id(self, card: int) -> str:
        """``acharya-53``: how moves write a card."""
        return self._id[card]

    def card_view(self, card: int) -> CardView:
        return self._card_views[card]

    def total_strength(self, state: SangramState, seat: Seat) -> int:
        """R12: level plus the strengths of the cards in hand."""
        strength = self._strength
        return state.levels[seat] + sum(map(strength.__getitem__, state.hands[seat]))

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> SangramState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(
                Msg(
                    "Sangram takes {low} to {high} players.",
                    low=self.min_players,
                    high=self.max_players,
                )
            )
        for key in options:
            if key not in self.options:
                raise InvalidOptions(
                    Msg("Sangram has no option {name} (options: round_limit).", name=excerpt(key))
                )
        # Every game created since revision 2 has its options resolved with
        # all defaults filled in, so only a game created under revision 1
        # lacks round_limit: it keeps revision 1's rules (legacy_rules).
        legacy = "round_limit" not in options
        limit = options.get("round_limit", LEGACY_ROUND_LIMIT)
        whole = isinstance(limit, int) and not isinstance(limit, bool)
        if not whole or not 0 <= limit <= ROUND_LIMIT_MAX:
            raise InvalidOptions(
                Msg(
                    "Option round_limit takes a whole number of rounds from 0 (no limit) "
                    "to {high}.",
                    high=ROUND_LIMIT_MAX,
                )
            )
        n = num_players
        zeros = (0,) * n
        # Setup: n+1 volunteers face up, then 3 cards to each player, dealt
        # round the table.  Every card is a chance draw (R3).
        draws = (VOLUNTEER,) * (n + 1) + tuple(s for _ in range(START_HAND) for s in range(n))
        return SangramState(
            num_players=n,
            phase=SETUP,
            round=0,
            deck=tuple(range(1, NUM_CARDS + 1)),
            discard=(),
            volunteers=(),
            hands=((),) * n,
            committed=zeros,
            levels=zeros,
            britishers=zeros,
            supply=BRITISHERS,
            grown=zeros,
            revealed=(),
            revealed_round=0,
            cursor=0,
            queue=(),
            retreated=frozenset(),
            returned=frozenset(),
            no_britishers=frozenset(),
            vaidik=frozenset(),
            task=IDLE,
            actor=CHANCE,
            effect="",
            origin="",
            target=CHANCE,
            flying=NO_CARD,
            draws=draws,
            grow_reveals=(),
            news=(),
            recent=(),
            reason="",
            movers=_ONLY[CHANCE],
            awaited=_NOBODY,
            outcomes=(),
            recruited=frozenset(),
            round_limit=limit,
            legacy_rules=legacy,
            known=((),) * num_players,
        )

    # ----- whose turn -------------------------------------------------------

    def to_move(self, state: SangramState) -> frozenset[Seat]:
        # Commit phase (R4): everybody with a card in hand, also those who
        # committed (they may change their card until the last one commits).
        # Activate: the resolving card's owner, or chance; Recruit: the next
        # recruiter; setup, refill and grow: chance (card draws).
        return state.movers

    def waiting_on(self, state: SangramState) -> frozenset[Seat]:
        # Commit phase: who has committed is public; those who have not yet
        # are waited on.  Otherwise the one player deciding (nobody for chance).
        return state.awaited

    # ----- legal actions ------------------------------------------------------

    def chance_outcomes(self, state: SangramState) -> list[tuple[SangramAction, Fraction]]:
        cards = self._chance_cards(state)
        if not cards:
            return []
        odds = (
            self._grab_odds if state.phase == ACTIVATE and state.task == GRAB else self._draw_odds
        )
        return list(map(odds[len(cards)].__getitem__, cards))

    def _chance_cards(self, state: SangramState) -> tuple[int, ...]:
        phase = state.phase
        if phase == ACTIVATE:
            if state.task == GRAB:
                return state.hands[state.target]
            if state.task != SARTHI_DRAW:
                return ()
        elif phase not in _DRAW_PHASES:
            return ()
        # R3: uniform over the deck; an empty deck is rebuilt from the
        # discard pile except its 5 most recent cards.
        return state.deck or tuple(sorted(state.discard[:-KEEP_ON_RESHUFFLE]))

    def legal_actions(self, state: SangramState, seat: Seat) -> list[SangramAction]:
        phase = state.phase
        if seat == CHANCE:
            cards = self._chance_cards(state)
            table = self._grab if phase == ACTIVATE and state.task == GRAB else self._draw
            return [table[c] for c in cards]
        if not 0 <= seat < state.num_players:
            return []
        if phase == COMMIT:
            commit = self._commit
            return [commit[c] for c in state.hands[seat]]
        if phase == ACTIVATE:
            if seat != state.actor:
                return []
            if state.task == CHOOSE:
                return list(self._options(state))
            if state.task == GIVE:
                give = self._give
                return [give[c] for c in state.hands[seat]]
            return []
        if phase == RECRUIT:
            if not state.queue or state.queue[0] != seat:
                return []
            recruit = self._recruit
            return [recruit[c] for c in state.volunteers]
        return []

    def choices_are_public(self, state: SangramState, seat: Seat) -> bool:
        """R14, phase by phase.  A seat with nothing to do has no choices to
        hide.  Committing and the Vyapari's gift choose from the seat's hidden
        hand; chance draws from the deck and takes from a hand, whose contents
        follow from the hidden hands.  An activity's choice (targets, amounts,
        the five newest discards, whether a Sarthi draws) and recruiting
        follow from public facts only: revealed cards, levels, Britishers,
        hand sizes, the discard pile, the deck's size and the volunteers."""
        if seat not in state.movers:
            return True
        phase = state.phase
        if phase == ACTIVATE:
            return state.task == CHOOSE and seat == state.actor
        return phase == RECRUIT

    # ----- search (issue 19) ----------------------------------------------------

    def determinize(
        self, state: SangramState, seat: Seat, draw: Callable[[], float]
    ) -> SangramState:
        """A state ``seat`` cannot tell apart from ``state`` (core.Determinizes).

        R14: the other hands, their face-down commits (commit phase only: the
        reveal shows them) and the deck are hidden from ``seat``; everything
        else is public or its own.  The unseen cards are gathered in card
        order (never in the order they lie, so twins that differ only there
        deal alike) and dealt afresh with ``draw``: the same hand sizes, a
        face-down card for the same players, the rest to the deck (a multiset
        without order, R3).  What the table has shown of a hidden hand stays
        with its holder (:meth:`_known_holdings`: recruits, a Vaidik's take,
        a hand shown at Grow, a card sent back), and in the commit phase a
        hand's strength stays below the Grow step its holder has not reached
        (:meth:`_strength_budget`).  What the seat alone learnt (the cards of
        its own Vyapari's trade) and which cards a reshuffled deck holds are
        not honoured: the search then assumes less than it could, never more."""
        phase = state.phase
        if phase == OVER:
            return state  # R13: every hand is shown at the end
        hands, committed = state.hands, state.committed
        face_down = phase == COMMIT
        others = [s for s in range(state.num_players) if s != seat]
        unseen = list(state.deck)
        slots: dict[Seat, int] = {}
        for s in others:
            unseen += hands[s]
            slots[s] = len(hands[s])
            if face_down and committed[s]:
                unseen.append(committed[s])
                slots[s] += 1
        unseen.sort()
        known = self._known_holdings(state, slots, unseen)
        if known:
            kept = {c for cards in known.values() for c in cards}
            unseen = [c for c in unseen if c not in kept]
        need = {s: slots[s] - len(known.get(s, ())) for s in others}
        dealt: dict[Seat, list[int]] = {}
        budgets = self._strength_budget(state, need, known) if face_down else {}
        if budgets:
            dealt, unseen = self._deal_within(unseen, need, budgets, draw)
        for s in others:
            if s not in dealt:
                dealt[s] = _deal(unseen, need[s], draw)
        new_hands = list(hands)
        new_committed = list(committed)
        for s in others:
            cards = [*known.get(s, ()), *dealt[s]]
            if face_down and committed[s]:
                # Any of the holder's hidden cards may be the face-down one.
                new_committed[s] = cards.pop(_index(draw, len(cards)))
            new_hands[s] = tuple(sorted(cards, reverse=True))
        return state._replace(
            deck=tuple(sorted(unseen)), hands=tuple(new_hands), committed=tuple(new_committed)
        )

    def _deal_within(
        self,
        unseen: list[int],
        need: Mapping[Seat, int],
        budgets: Mapping[Seat, int],
        draw: Callable[[], float],
    ) -> tuple[dict[Seat, list[int]], list[int]]:
        """Deal the hands with a strength budget from ``unseen``: the
        tightest first, each uniformly among the hands within its budget,
        keeping low cards back for the tight ones after.  Returns those hands
        and the cards left.  Keeping back is a rule of thumb, so when a hand
        finds no cards within budget the deal starts again (a few times, then
        the weakest cards are dealt: only a state that breaks the inference
        of :meth:`_strength_budget` comes that far)."""
        strength = self._strength
        order = sorted(budgets, key=lambda s: (budgets[s] - need[s], s))
        for attempt in range(_DEAL_ATTEMPTS):
            classes: tuple[list[int], list[int], list[int]] = ([], [], [])
            for c in unseen:
                classes[strength[c]].append(c)
            dealt: dict[Seat, list[int]] = {}
            sound = True
            for i, s in enumerate(order):
                later = [(need[t], max(budgets[t], 0)) for t in order[i + 1 :]]
                counts = (len(classes[0]), len(classes[1]), len(classes[2]))
                mix = _strength_mix(counts, need[s], budgets[s], later, draw)
                if mix is None:
                    if attempt + 1 < _DEAL_ATTEMPTS:
                        sound = False
                        break
                    a = min(need[s], counts[0])
                    b = min(need[s] - a, counts[1])
                    mix = (a, b, need[s] - a - b)
                dealt[s] = [
                    c for k, count in zip(classes, mix, strict=True) for c in _deal(k, count, draw)
                ]
            if sound:
                break
        return dealt, [*classes[0], *classes[1], *classes[2]]

    def _known_holdings(
        self, state: SangramState, slots: Mapping[Seat, int], unseen: list[int]
    ) -> dict[Seat, list[int]]:
        """Unseen cards the table has shown to be among a player's hidden
        cards (hand and face-down card): :attr:`SangramState.known`, and for
        snapshots written before that field, what the latest round showed.
        A card an Acharya sent back to hand
        (R5) stays there until the next reveal: a retreated player skips the
        rest of Activate and Recruit and cannot be a Vyapari's target.  A
        hand shown at Grow (R12) is kept until the next reveal, which clears
        it: only Grow draws join it, and committing moves a card face down."""
        pool = set(unseen)
        known: dict[Seat, list[int]] = {}
        for s in slots:
            if state.known[s]:
                mine = known.setdefault(s, [])
                mine += [c for c in state.known[s] if c in pool]
                pool.difference_update(state.known[s])
        if not state.returned and not state.grow_reveals:
            return {s: cards[: slots[s]] for s, cards in known.items() if cards}
        for s, card in state.revealed:
            if s in state.returned and s in slots and card in pool:
                known.setdefault(s, []).append(card)
                pool.discard(card)
        for s, _, shown, _ in state.grow_reveals:
            if s in slots:
                mine = known.setdefault(s, [])
                mine += [c for c in shown if c in pool]
                pool.difference_update(shown)
        # Never more than the holder has room for (a sound state always has).
        return {s: cards[: slots[s]] for s, cards in known.items() if cards}

    def _strength_budget(
        self, state: SangramState, need: Mapping[Seat, int], known: Mapping[Seat, list[int]]
    ) -> dict[Seat, int]:
        """Commit phase: the most strength each hidden hand's dealt cards may
        have, for the holders whose budget can bind.  Every Grow check is
        public (R12: :attr:`SangramState.grown`) and nothing has changed a
        hand since the last one but committing: a holder still at step 0 has
        Total Army Strength below 7, at step 1 below 13 (revision 1,
        ``legacy_rules``, had no re-check after the 7-draws: below 18), and
        nobody has 18 or more, or the game would be over (R13)."""
        strength = self._strength
        below = (GROW_FIRST, WIN_STRENGTH if state.legacy_rules else GROW_SECOND, WIN_STRENGTH)
        budgets: dict[Seat, int] = {}
        for s, count in need.items():
            shown = sum(strength[c] for c in known.get(s, ()))
            budget = below[state.grown[s]] - 1 - state.levels[s] - shown
            if budget < MAX_STRENGTH * count:
                budgets[s] = budget
        return budgets

    def _options(self, state: SangramState) -> tuple[SangramAction, ...]:
        """:meth:`_choices` of a state whose activity asks, computed once per
        state (usually by :meth:`_start`, which needs them to know whether
        to ask) and kept in its ``__dict__`` under :data:`_LEGAL`."""
        kept: dict[str, Any] = state.__dict__
        options: tuple[SangramAction, ...] | None = kept.get(_LEGAL)
        if options is None:
            options = kept[_LEGAL] = tuple(self._choices(state))
        return options

    def _choices(self, state: SangramState | _W) -> list[SangramAction]:
        """The actor's options for the activity resolving (task CHOOSE);
        empty when the activity can do nothing (it is then wasted)."""
        effect = state.effect
        actor = state.actor
        out: list[SangramAction]
        if effect in (MAHARAJA, SENAPATI):
            most = min(DISCARD_UP_TO[effect], state.britishers[actor])
            out = list(self._discard[1 : most + 1])
        elif effect == MANTRI:
            most = min(MANTRI_UP_TO, state.britishers[actor])
            targets = self._targets(state, effect)
            out = [self._give_brit[k][s] for k in range(1, most + 1) for s in targets]
        elif effect == VAIDIK:
            if len(state.hands[actor]) >= MAX_HAND:
                return []
            top = state.discard[-VAIDIK_LOOK:]
            take = self._take
            out = [take[c] for c in sorted(set(top), reverse=True)]
        elif effect == YUVARAJ:
            copy = self._copy
            out = [copy[s] for s in self._targets(state, effect)]
        elif effect == SARTHI:
            # R4: asked before the draw, which uses up a deck card and puts a
            # card where a later Vaidik can take it.  Revision 1
            # (legacy_rules) never asks: _start draws at once.
            out = [_USE] if _sarthi_can_draw(state) and not state.legacy_rules else []
        else:
            target = self._target
            out = [target[s] for s in self._targets(state, effect)]
        if out:
            out.append(_DECLINE)
        return out

    def _targets(self, state: SangramState | _W, effect: str) -> list[Seat]:
        """Opponents an activity may target now (R5, R6, R9)."""
        actor = state.actor
        retreated = state.retreated
        if effect in (ACHARYA, YUVARAJ):
            # Only players who committed a card this round, in seat order.
            pos = {s: i for i, (s, _) in enumerate(state.revealed)}
            out: list[Seat] = []
            for s in sorted(pos):
                if s == actor or s in retreated:
                    continue
                if effect == ACHARYA:
                    # R5: a copied or drawn Acharya only reaches unresolved cards.
                    if state.origin != FROM_CARD and pos[s] <= state.cursor:
                        continue
                elif self._kind[state.committed[s]] == YUVARAJ:
                    continue  # R6: copying a Yuvaraj is wasted
                out.append(s)
            return out
        seats = [s for s in range(state.num_players) if s != actor and s not in retreated]
        if effect == GUPTCHAR:
            return [s for s in seats if state.levels[s] > 0]
        if effect == VYAPARI:
            return [s for s in seats if state.hands[s]]
        return seats  # MANTRI

    def _card_text(self, card: int) -> str:
        return self._names[card] if 0 < card <= NUM_CARDS else Msg("Card {card}", card=card)

    # ----- outcome ----------------------------------------------------------------

    def _rank_key(self, state: SangramState, seat: Seat) -> tuple[int, int, int]:
        hand = state.hands[seat]
        best = hand[0] if hand else 0
        return (-self.total_strength(state, seat), state.britishers[seat], -best)

    def ranking(self, state: SangramState) -> tuple[frozenset[Seat], ...]:
        """R13: strength, then fewer Britishers, then the highest motivation
        card in hand; what is still equal shares a place."""
        keys = {s: self._rank_key(state, s) for s in range(state.num_players)}
        places: list[frozenset[Seat]] = []
        for key in sorted(set(keys.values())):
            places.append(frozenset(s for s, k in keys.items() if k == key))
        return tuple(places)

    def outcome(self, state: SangramState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = tuple(self.total_strength(state, s) for s in range(state.num_players))
        return Outcome(ranking=self.ranking(state), scores=scores, reason=state.reason)


def _index(draw: Callable[[], float], size: int) -> int:
    """A uniform index below ``size`` from a float in [0, 1) (``min``: a
    float just below 1 times ``size`` may round up to ``size``)."""
    return min(int(draw() * size), size - 1)


def _deal(cards: list[int], count: int, draw: Callable[[], float]) -> list[int]:
    """``count`` cards taken at random from ``cards`` (removed from it)."""
    size = len(cards)
    count = min(count, size)
    for i in range(count):
        j = i + int(draw() * (size - i))
        if j >= size:  # a float just below 1 times the size may round up
            j = size - 1
        cards[i], cards[j] = cards[j], cards[i]
    taken = cards[:count]
    del cards[:count]
    return taken


def _strength_mix(
    counts: tuple[int, ...],
    need: int,
    budget: int,
    later: list[tuple[int, int]],
    draw: Callable[[], float],
) -> tuple[int, int, int] | None:
    """How many cards of strength 0, 1 and 2 to deal a hand of ``need``
    cards from a pool holding ``counts`` of each, with at most ``budget``
    strength: drawn in proportion to the number of such hands, so that the
    hand is uniform among those within budget.  ``later``: (need, budget) of
    the hands still to deal, whose low cards are kept back; if no mix
    allows that, it is dropped.  None: no hand fits the budget."""
    zeros, ones, twos = counts
    keep_zeros = sum(max(0, n - b) for n, b in later)
    keep_low = sum(max(0, n - b // 2) for n, b in later)
    for reserve in (True, False):
        # a + b + c == need, b + 2c <= budget, a <= zeros (minus the zeros
        # kept back), a + b <= zeros + ones (minus the low cards kept back).
        most_zeros = zeros - keep_zeros if reserve else zeros
        most_low = zeros + ones - keep_low if reserve else zeros + ones
        mixes: list[tuple[int, int, int]] = []
        cumulative: list[int] = []
        total = 0
        for c in range(max(0, need - most_low), min(need, twos, budget // 2) + 1):
            rest = need - c
            by_c = _COMB[twos][c]
            for b in range(max(0, rest - most_zeros), min(rest, ones, budget - 2 * c) + 1):
                total += _COMB[zeros][rest - b] * _COMB[ones][b] * by_c
                mixes.append((rest - b, b, c))
                cumulative.append(total)
        if total:
            r = draw() * total
            for mix, upto in zip(mixes, cumulative, strict=True):
                if r < upto:
                    return mix
            return mixes[-1]
    return None


_DEAL_ATTEMPTS: Final = 8
"""How often :meth:`SangramEngine._deal_within` deals again."""


_COMB: Final = tuple(tuple(comb(n, k) for k in range(NUM_CARDS + 1)) for n in range(NUM_CARDS + 1))
"""``_COMB[n][k]``: the number of ways to choose k of n cards."""
