"""Sangram's round (R3-R13): applying an action and the automatic steps
that follow, commit, reveal, activate, recruit, refill, train, grow and the
end check, with fast paths for the commonest actions.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

from bot.engines.core import (
    CHANCE,
    IllegalAction,
    NotYourTurn,
    Seat,
)
from bot.engines.messages import Msg, Plural
from bot.engines.sangram_activities import SangramActivities, _britishers_taken
from bot.engines.sangram_cards import (
    GROW_FIRST,
    GROW_SECOND,
    KEEP_ON_RESHUFFLE,
    MAX_HAND,
    MAX_LEVEL,
    RECENT_EVENTS,
    START_HAND,
    TRAIN_MAX_BRITISHERS,
    WIN_STRENGTH,
    listed,
)
from bot.engines.sangram_state import (
    _AWAITED,
    _BRITISHERS,
    _COMMITTED,
    _DECK,
    _DISCARD,
    _DRAW_PHASES,
    _DRAWS,
    _HANDS,
    _KNOWN,
    _MOVERS,
    _NEWS,
    _NOBODY,
    _ONLY,
    _PHASE,
    _QUEUE,
    _RECENT,
    _RECRUITED,
    _SUPPLY,
    _TAG,
    _VOLUNTEERS,
    _W,
    ACTIVATE,
    CHOOSE,
    COMMIT,
    FROM_CARD,
    FROM_DRAW,
    GIVE,
    GRAB,
    GROW,
    IDLE,
    NO_CARD,
    OVER,
    RECRUIT,
    REFILL,
    SETUP,
    VOLUNTEER,
    Commit,
    Draw,
    Grab,
    Recruit,
    SangramAction,
    SangramState,
    _insert_desc,
    _new,
    _recruit_order,
    _remove,
    _set,
    _settle,
)
from bot.engines.sangram_views import (
    OUTCOME_USED,
)

_COMMITTED_LINE: Final[dict[int, str]] = {
    s: Msg("{player} committed a card.", player=tag) for s, tag in _TAG.items()
}
"""The lines said most often, made once per seat (issue 33: a message is
dearer to build than the text was, and playouts build these by the million)."""
_CHANGED_LINE: Final[dict[int, str]] = {
    s: Msg("{player} changed their committed card.", player=tag) for s, tag in _TAG.items()
}
_GROW_DRAW_LINE: Final[dict[int, str]] = {
    s: Msg("{player} drew a card (Grow).", player=tag) for s, tag in _TAG.items()
}


class SangramRound(SangramActivities):
    """Applying an action: the fast paths, or the working copy carried
    through the round's automatic steps until a player or chance acts."""

    # ----- apply --------------------------------------------------------------

    def apply(self, state: SangramState, seat: Seat, action: SangramAction) -> SangramState:
        phase = state.phase
        if phase == OVER:
            raise IllegalAction(Msg("The game is over."))
        if seat not in state.movers:
            raise NotYourTurn(self._not_your_turn(state, seat))
        if self._fast:
            done = self._fast_path(state, seat, action)
            if done is not None:
                return done
        w = _W(state)
        if seat == CHANCE:
            self._apply_chance(state, w, action)
        elif phase == COMMIT:
            self._apply_commit(state, w, seat, action)
        elif phase == ACTIVATE:
            if state.task == GIVE:
                self._apply_give(state, w, seat, action)
            else:
                self._apply_choice(state, w, seat, action)
        else:  # RECRUIT
            if not isinstance(action, Recruit):
                raise IllegalAction(Msg("It is time to recruit: try 'recruit <card>'."))
            if action.card not in state.volunteers:
                raise IllegalAction(
                    Msg("{card} is not a volunteer.", card=self._card_text(action.card))
                )
            self._recruit_card(w, seat, action.card)
            w.queue = w.queue[1:]
        self._advance(w)
        return w.freeze()

    def _fast_path(
        self, state: SangramState, seat: Seat, action: SangramAction
    ) -> SangramState | None:
        """The commonest actions without the working copy, for speed: a
        commit that does not reveal, a draw that is not the last of its
        phase, a recruit after which the next recruiter chooses or Refill
        begins.  ``None``: take the general path, which gives the same result
        (a test compares the two), and which refuses what is not legal."""
        phase = state.phase
        if phase == COMMIT:
            if type(action) is Commit:
                return self._fast_commit(state, seat, action.card)
        elif phase == RECRUIT:
            if type(action) is Recruit:
                return self._fast_recruit(state, seat, action.card)
        elif type(action) is Draw and phase in _DRAW_PHASES and len(state.draws) > 1:
            return self._fast_draw(state, action.card)
        return None

    def _fast_commit(self, state: SangramState, seat: Seat, card: int) -> SangramState | None:
        """R4: a commit (or a change of card) that leaves someone to commit."""
        hand = state.hands[seat]
        if card not in hand:
            return None
        awaited = state.awaited
        old = state.committed[seat]
        hand = _remove(hand, card)
        if old:
            hand = _insert_desc(hand, old)
            line = _CHANGED_LINE[seat]
        else:
            awaited = awaited - _ONLY[seat]
            if not awaited:
                return None  # the last commit: the reveal follows
            line = _COMMITTED_LINE[seat]
        v = list(state)
        v[_HANDS] = _set(state.hands, seat, hand)
        v[_COMMITTED] = _set(state.committed, seat, card)
        v[_NEWS] = (line,)
        v[_RECENT] = (*state.recent, line)[-RECENT_EVENTS:]
        v[_MOVERS] = state.movers if hand else state.movers - _ONLY[seat]
        v[_AWAITED] = awaited
        fast: SangramState = _new(SangramState, v)
        return fast

    def _fast_draw(self, state: SangramState, card: int) -> SangramState | None:
        """R3: a card from the deck (ascending) to a hand or the volunteers,
        with more draws to come."""
        deck = state.deck
        i = bisect_left(deck, card)
        if i == len(deck) or deck[i] != card:
            return None  # not in the deck, or the deck is to be rebuilt
        to = state.draws[0]
        v = list(state)
        v[_DECK] = deck[:i] + deck[i + 1 :]
        v[_DRAWS] = state.draws[1:]
        if to == VOLUNTEER:
            v[_VOLUNTEERS] = _insert_desc(state.volunteers, card)
            v[_NEWS] = ()  # said when the round they are for begins (_new_round)
        else:
            hands = state.hands
            v[_HANDS] = _set(hands, to, _insert_desc(hands[to], card))
            if state.phase == SETUP:
                v[_NEWS] = ()  # said once, with the last card of the deal
            else:
                line = _GROW_DRAW_LINE[to]
                v[_NEWS] = (line,)
                v[_RECENT] = (*state.recent, line)[-RECENT_EVENTS:]
        fast: SangramState = _new(SangramState, v)
        return fast

    def _fast_recruit(self, state: SangramState, seat: Seat, card: int) -> SangramState | None:
        """R10: ``seat`` (the first in the queue: apply checked ``movers``)
        takes a volunteer; then the next recruiter chooses among two or more
        volunteers with room in hand, or, the queue done, Refill begins with
        cards to draw.  Any other step (a recruit without a choice, a skip)
        takes the general path."""
        volunteers = state.volunteers
        if card not in volunteers:
            return None
        volunteers = _remove(volunteers, card)
        queue = state.queue[1:]
        v = list(state)
        if queue:
            after = queue[0]
            if len(volunteers) < 2 or len(state.hands[after]) >= MAX_HAND:
                return None
            v[_VOLUNTEERS] = volunteers
            v[_MOVERS] = v[_AWAITED] = _ONLY[after]
        else:
            # _end_recruit: leftover volunteers are discarded; n+1 draws.
            discard = state.discard + volunteers
            if not state.deck and len(discard) <= KEEP_ON_RESHUFFLE:
                return None
            v[_VOLUNTEERS] = ()
            v[_DISCARD] = discard
            v[_DRAWS] = (VOLUNTEER,) * (state.num_players + 1)
            v[_PHASE] = REFILL
            v[_MOVERS] = _ONLY[CHANCE]
            v[_AWAITED] = _NOBODY
        v[_QUEUE] = queue
        v[_HANDS] = _set(state.hands, seat, _insert_desc(state.hands[seat], card))
        v[_KNOWN] = _set(state.known, seat, _insert_desc(state.known[seat], card))
        v[_RECRUITED] = state.recruited | _ONLY[seat]
        if seat in state.no_britishers:
            line = self._recruit_line(seat, card, -1)
        else:
            got = min(self._brit[card], state.supply)
            v[_SUPPLY] = state.supply - got
            v[_BRITISHERS] = _set(state.britishers, seat, state.britishers[seat] + got)
            line = self._recruit_line(seat, card, got)
        v[_NEWS] = (line,)
        v[_RECENT] = (*state.recent, line)[-RECENT_EVENTS:]
        fast: SangramState = _new(SangramState, v)
        return fast

    def _not_your_turn(self, state: SangramState, seat: Seat) -> str:
        phase = state.phase
        if seat == CHANCE:
            return Msg("It is not chance's turn: a player is to decide.")
        if not 0 <= seat < state.num_players:
            return Msg("There is no seat {seat} in this game.", seat=seat)
        if phase == COMMIT:
            return Msg("You have no card to commit this round.")
        if phase == ACTIVATE:
            if state.task in (CHOOSE, GIVE):
                return Msg("It is not your turn: another player is resolving their card.")
            return Msg("It is not your turn: a card is being drawn.")
        if phase == RECRUIT:
            if seat in state.queue:
                return Msg("It is not your turn: another player is recruiting first.")
            return Msg("You do not recruit again this round.")
        return Msg("It is not your turn: cards are being drawn.")

    def _apply_chance(self, state: SangramState, w: _W, action: SangramAction) -> None:
        if state.phase == ACTIVATE and state.task == GRAB:
            if not isinstance(action, Grab):
                raise IllegalAction(Msg("A card is to be taken at random from a hand now."))
            if action.card not in state.hands[state.target]:
                raise IllegalAction(Msg("That card is not in the hand being taken from."))
            self._grab_card(w, action.card)
            return
        if not isinstance(action, Draw):
            raise IllegalAction(Msg("A card is to be drawn from the deck now."))
        card = action.card
        if state.deck:
            if card not in state.deck:
                raise IllegalAction(Msg("{card} is not in the deck.", card=self._card_text(card)))
        elif card not in state.discard[:-KEEP_ON_RESHUFFLE]:
            raise IllegalAction(Msg("{card} is not in the deck.", card=self._card_text(card)))
        self._draw_card(w, card)

    def _draw_card(self, w: _W, card: int) -> None:
        if not w.deck:
            # R3: rebuild the deck, keeping the 5 most recent discards.
            w.deck = tuple(sorted(w.discard[:-KEEP_ON_RESHUFFLE]))
            w.discard = w.discard[-KEEP_ON_RESHUFFLE:]
            w.say(
                Plural(
                    "The deck ran out: {n} discard went into a new deck "
                    "(the {kept} most recent stay).",
                    "The deck ran out: {n} discards went into a new deck "
                    "(the {kept} most recent stay).",
                    len(w.deck),
                    kept=KEEP_ON_RESHUFFLE,
                )
            )
        w.deck = _remove(w.deck, card)
        if w.phase == ACTIVATE:
            # R7: a Sarthi's draw, activated at once for its owner.
            w.flying = card
            _settle(w, OUTCOME_USED)  # the Sarthi drew: used, whatever follows
            w.say(
                Msg("{player}'s Sarthi drew {card}.", player=_TAG[w.actor], card=self._names[card])
            )
            self._start(w, self._kind[card], FROM_DRAW)
            return
        to = w.draws[0]
        w.draws = w.draws[1:]
        if to == VOLUNTEER:
            # Said when the round they are for begins (_new_round): the last
            # round's Refill draws volunteers no round uses (R10, R13).
            w.volunteers = _insert_desc(w.volunteers, card)
        else:
            w.hands[to] = _insert_desc(w.hands[to], card)
            if w.phase == SETUP:
                # One line for the whole opening deal, not one per card.
                if not w.draws:
                    w.say(Msg("Each player was dealt {n} cards.", n=START_HAND), event=False)
            else:
                w.say(_GROW_DRAW_LINE[to])

    def _apply_commit(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if not isinstance(action, Commit):
            raise IllegalAction(Msg("Everybody is choosing a card: try 'commit <card>'."))
        hand = state.hands[seat]
        if action.card not in hand:
            raise IllegalAction(
                Msg("You have no {card} in hand.", card=self._card_text(action.card))
            )
        hand = _remove(hand, action.card)
        old = state.committed[seat]
        if old:
            hand = _insert_desc(hand, old)
            w.say(_CHANGED_LINE[seat])
        else:
            w.say(_COMMITTED_LINE[seat])
        w.hands[seat] = hand
        w.committed[seat] = action.card

    def _recruit_card(self, w: _W, seat: Seat, card: int) -> None:
        w.volunteers = _remove(w.volunteers, card)
        w.hands[seat] = _insert_desc(w.hands[seat], card)
        w.known[seat] = _insert_desc(w.known[seat], card)
        w.recruited = w.recruited | _ONLY[seat]
        if seat in w.no_britishers:
            w.say(self._recruit_line(seat, card, -1))
            return
        got = self._take_britishers(w, seat, self._brit[card])
        w.say(self._recruit_line(seat, card, got))

    def _seat_card(self, seat: Seat, card: int) -> str:
        """``{p0} Acharya-53``, made once per seat and card."""
        key = (seat, card)
        said = self._seat_cards.get(key)
        if said is None:
            said = Msg("{player} {card}", player=_TAG[seat], card=self._names[card])
            self._seat_cards[key] = said
        return said

    def _recruit_line(self, seat: Seat, card: int, got: int) -> str:
        """The narration of a recruit; ``got`` -1: no Britishers (Shoorveer, R9).
        Made once per seat, card and count (see :data:`_COMMITTED_LINE`)."""
        key = (seat, card, got)
        line = self._recruit_lines.get(key)
        if line is not None:
            return line
        if got < 0:
            line = Msg(
                "{player} recruited {card} (no Britishers: Shoorveer).",
                player=_TAG[seat],
                card=self._names[card],
            )
        else:
            line = Msg(
                "{player} recruited {card} and {britishers}.",
                player=_TAG[seat],
                card=self._names[card],
                britishers=_britishers_taken(got, self._brit[card]),
            )
        self._recruit_lines[key] = line
        return line

    # ----- the automatic part of the round ------------------------------------

    def _advance(self, w: _W) -> None:
        """Run automatic steps until a player or chance must act."""
        while True:
            phase = w.phase
            if phase in _DRAW_PHASES:
                if w.draws:
                    if w.deck or len(w.discard) > KEEP_ON_RESHUFFLE:
                        return
                    # R3: nothing left to draw: the draws are skipped.
                    w.say(Msg("The deck and the discard pile are empty: no card is drawn."))
                    w.draws = ()
                if phase == SETUP:
                    self._new_round(w)
                elif phase == REFILL:
                    self._train_and_grow(w)
                elif not w.legacy_rules and self._grow_again(w):
                    continue  # R12 (revision 2 only: legacy_rules)
                elif self._end_check(w):
                    return
                else:
                    self._new_round(w)
            elif phase == COMMIT:
                hands, committed = w.hands, w.committed
                if any(hands[s] and not committed[s] for s in range(w.num_players)):
                    return
                self._reveal(w)
            elif phase == ACTIVATE:
                if w.task != IDLE:
                    return
                self._next_card(w)
            elif phase == RECRUIT:
                if not w.queue:
                    self._end_recruit(w)
                    continue
                seat = w.queue[0]
                if not w.volunteers or len(w.hands[seat]) >= MAX_HAND:
                    if not w.volunteers:
                        w.say(
                            Msg("{player} cannot recruit: no volunteer is left.", player=_TAG[seat])
                        )
                    else:
                        w.say(
                            Msg("{player} cannot recruit: their hand is full.", player=_TAG[seat])
                        )
                    w.queue = w.queue[1:]
                elif len(w.volunteers) == 1:
                    self._recruit_card(w, seat, w.volunteers[0])
                    w.queue = w.queue[1:]
                else:
                    return
            else:
                return

    def _new_round(self, w: _W) -> None:
        w.round += 1
        w.phase = COMMIT
        w.retreated = frozenset()
        w.no_britishers = frozenset()
        w.vaidik = frozenset()
        w.recruited = _NOBODY
        if w.volunteers:
            names = listed([self._names[c] for c in w.volunteers])
            w.say(Msg("New volunteers: {cards}.", cards=names), event=False)
        w.say(Msg("Round {round}: everybody commits a card.", round=w.round), event=False)

    def _reveal(self, w: _W) -> None:
        """R4: all committed cards are revealed; highest motivation first."""
        committed = w.committed
        order = sorted(
            (s for s in range(w.num_players) if committed[s]),
            key=lambda s: committed[s],
            reverse=True,
        )
        w.revealed = tuple((s, committed[s]) for s in order)
        for s in order:
            if committed[s] in w.known[s]:
                w.known[s] = _remove(w.known[s], committed[s])
        w.outcomes = ("",) * len(order)
        w.revealed_round = w.round
        w.returned = frozenset()
        w.grow_reveals = ()
        w.cursor = -1
        w.task = IDLE
        w.phase = ACTIVATE
        if order:
            shown = listed([self._seat_card(s, committed[s]) for s in order])
            w.say(Msg("Reveal: {cards}.", cards=shown))
        else:
            w.say(Msg("Nobody has a card to commit this round."))

    def _next_card(self, w: _W) -> None:
        """Resolve the next revealed card, or end the Activate phase."""
        w.cursor += 1
        if w.cursor >= len(w.revealed):
            self._end_activate(w)
            return
        seat, card = w.revealed[w.cursor]
        if seat in w.retreated and seat in w.returned:
            return  # R5: taken back unused
        w.actor = seat
        self._start(w, self._kind[card], FROM_CARD)

    def _end_activate(self, w: _W) -> None:
        # R4: activated cards go to the discard pile in resolution order.
        discard = list(w.discard)
        for seat, _ in w.revealed:
            card = w.committed[seat]
            if card:
                discard.append(card)
                w.committed[seat] = NO_CARD
        w.discard = tuple(discard)
        w.task = IDLE
        w.actor = CHANCE
        w.effect = ""
        w.origin = ""
        w.target = CHANCE
        w.queue = _recruit_order(w)
        w.phase = RECRUIT

    def _end_recruit(self, w: _W) -> None:
        if w.volunteers:
            w.discard = (*w.discard, *w.volunteers)
            w.volunteers = ()
        w.draws = (VOLUNTEER,) * (w.num_players + 1)
        w.phase = REFILL

    def _train_and_grow(self, w: _W) -> None:
        n = w.num_players
        # R11: Train.
        moved = []
        for s in range(n):
            if w.britishers[s] <= TRAIN_MAX_BRITISHERS and w.levels[s] < MAX_LEVEL:
                w.levels[s] += 1
                moved.append(_TAG[s])
        if moved:
            w.say(Msg("Train: {players} moved up.", players=listed(moved)))
        # R12: Grow, judged on the strength after Train; 7 before 13.
        strength = self._strength
        draws: list[Seat] = []
        reveals: list[tuple[Seat, int, tuple[int, ...], int]] = []
        for s in range(n):
            hand = w.hands[s]
            tas = w.levels[s] + sum(map(strength.__getitem__, hand))
            room = MAX_HAND - len(hand)
            if w.grown[s] == 0 and tas >= GROW_FIRST:
                w.grown[s] = 1
                reveals.append((s, w.round, hand, w.levels[s]))
                w.known[s] = hand
                shown = listed([self._names[c] for c in hand]) if hand else Msg("no cards")
                got = min(2, room)
                room -= got
                draws += [s] * got
                w.say(
                    Msg(
                        "Grow: {player} reached Total Army Strength {strength} and shows "
                        "their hand: {cards}. {drawing}",
                        player=_TAG[s],
                        strength=tas,
                        cards=shown,
                        drawing=_drawing(got),
                    )
                )
            if w.grown[s] == 1 and tas >= GROW_SECOND:
                draws += self._grow_thirteen(w, s, room)
        if reveals:
            w.grow_reveals = tuple(reveals)
        w.draws = tuple(draws)
        w.phase = GROW

    def _grow_thirteen(self, w: _W, seat: Seat, room: int) -> list[Seat]:
        """R12: the first time Total Army Strength reaches 13: draw 1."""
        w.grown[seat] = 2
        got = min(1, room)
        w.say(
            Msg(
                "Grow: {player} reached Total Army Strength 13 or more. {drawing}",
                player=_TAG[seat],
                drawing=_drawing(got),
            )
        )
        return [seat] * got

    def _grow_again(self, w: _W) -> bool:
        """R12: the total is checked again after the 7-draws, so cards drawn
        at 7 that carry it to 13 give the 13-draw in the same Grow.  True when
        that queued a draw.  Only the seats that drew can have changed, and a
        seat that reached 13 is at step 2, so this adds draws once at most."""
        strength = self._strength
        draws: list[Seat] = []
        for s in range(w.num_players):
            hand = w.hands[s]
            if w.grown[s] != 1:
                continue  # only a seat at step 1 can reach 13 now
            if w.levels[s] + sum(map(strength.__getitem__, hand)) >= GROW_SECOND:
                draws += self._grow_thirteen(w, s, MAX_HAND - len(hand))
        w.draws = tuple(draws)
        return bool(draws)

    def _end_check(self, w: _W) -> bool:
        """R13: after Grow, 18 or more ends the game (and the lobby's
        ``round_limit``, when set)."""
        strength = self._strength
        levels, hands = w.levels, w.hands
        best = max(
            levels[s] + sum(map(strength.__getitem__, hands[s])) for s in range(w.num_players)
        )
        if best >= WIN_STRENGTH:
            w.reason = Msg(
                "At the end of round {round} an army reached Total Army Strength {best} "
                "(the goal is {goal}).",
                round=w.round,
                best=best,
                goal=WIN_STRENGTH,
            )
        elif w.round_limit and w.round >= w.round_limit:
            w.reason = Plural(
                "The round limit ({n} round) was reached; the strongest army has {best}.",
                "The round limit ({n} rounds) was reached; the strongest army has {best}.",
                w.round_limit,
                best=best,
            )
        else:
            return False
        w.phase = OVER
        w.task = IDLE
        w.queue = ()
        w.say(Msg("Game over. {reason}", reason=w.reason))
        return True


def _drawing(count: int) -> str:
    if count:
        return Plural("They draw {n} card.", "They draw {n} cards.", count)
    return Msg("Their hand is full (6 cards), so they draw nothing.")
