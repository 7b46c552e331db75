"""Sangram's activities (R5-R9): what each warrior card does when it
resolves, the choice it asks of its owner and the narration of its effect.
"""

from __future__ import annotations

from typing import Final

from bot.engines.core import (
    CHANCE,
    IllegalAction,
    Seat,
    plural,
)
from bot.engines.sangram_cards import (
    ACHARYA,
    GUPTCHAR,
    MAHARAJA,
    MAHARANI,
    MANTRI,
    MAX_LEVEL,
    SARTHI,
    SENAPATI,
    SHOORVEER,
    VAIDIK,
    VYAPARI,
    YUVARAJ,
)
from bot.engines.sangram_rules import SangramRules
from bot.engines.sangram_state import (
    _TAG,
    _W,
    CHOOSE,
    FROM_COPY,
    FROM_DRAW,
    GIVE,
    GRAB,
    IDLE,
    NO_CARD,
    SARTHI_DRAW,
    Copy,
    Decline,
    DiscardBritishers,
    Give,
    GiveBritishers,
    SangramAction,
    SangramState,
    Take,
    Target,
    Use,
    _insert_desc,
    _remove,
    _remove_last,
    _sarthi_can_draw,
    _settle,
)
from bot.engines.sangram_views import (
    OUTCOME_DECLINED,
    OUTCOME_USED,
    OUTCOME_WASTED,
)

_PROMPTS: Final = {
    ACHARYA: "choose an opponent to retreat",
    MAHARAJA: "choose how many Britishers to discard",
    SENAPATI: "choose how many Britishers to discard",
    MANTRI: "choose Britishers to give and to whom",
    GUPTCHAR: "choose an opponent whose crown goes down",
    YUVARAJ: "choose an opponent's card to copy",
    VYAPARI: "choose an opponent to trade cards with",
    VAIDIK: "choose a card from the discard pile",
    SARTHI: "choose whether to draw a card",
}


class SangramActivities(SangramRules):
    """The activities of the revealed cards (R5-R9), applied to the working
    copy (:class:`~bot.engines.sangram_state._W`) of the state an action
    changes: a choice, a Vyapari's trade, a Sarthi's draw."""

    def _apply_choice(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if action not in self._options(state):
            raise IllegalAction(self._why_not(state, action))
        who = _TAG[seat]
        what = self._activity(state)
        effect = state.effect
        match action:
            case Decline():
                w.say(f"{who} declined to use {self._activity(state, 'their')}.")
                self._end(w, OUTCOME_DECLINED)
            case Use():
                # R7: draw and activate; a drawn Sarthi is discarded before
                # its own draw.
                w.say(f"{what} draws a card.")
                self._discard_flying(w)
                w.task = SARTHI_DRAW
            case Target(target):
                if effect == ACHARYA:
                    self._retreat(w, target, what)
                    self._end(w, OUTCOME_USED)
                elif effect == GUPTCHAR:
                    w.levels[target] -= 1
                    w.say(f"{what} pulled {_TAG[target]}'s crown down to level {w.levels[target]}.")
                    self._end(w, OUTCOME_USED)
                else:  # VYAPARI: chance picks the card (R9)
                    w.target = target
                    w.task = GRAB
                    w.say(f"{what} trades with {_TAG[target]}.")
            case Copy(target):
                copied = state.committed[target]
                w.say(f"{what} copies {_TAG[target]}'s {self._names[copied]}.")
                self._start(w, self._kind[copied], FROM_COPY)
            case DiscardBritishers(count):
                w.britishers[seat] -= count
                w.supply += count
                w.say(
                    f"{what}: {who} discarded {plural(count, 'Britisher')} "
                    f"({w.britishers[seat]} left)."
                )
                self._end(w, OUTCOME_USED)
            case GiveBritishers(count, target):
                w.britishers[seat] -= count
                w.britishers[target] += count
                w.say(f"{what}: {who} gave {plural(count, 'Britisher')} to {_TAG[target]}.")
                self._end(w, OUTCOME_USED)
            case Take(card):
                w.discard = _remove_last(w.discard, card)
                w.hands[seat] = _insert_desc(w.hands[seat], card)
                w.known[seat] = _insert_desc(w.known[seat], card)
                got = self._take_britishers(w, seat, self._brit[card])
                w.vaidik = w.vaidik | {seat}
                w.say(
                    f"{what}: {who} took {self._names[card]} from the discard pile "
                    f"and {_britishers_taken(got, self._brit[card])}; no Recruit this round."
                )
                self._end(w, OUTCOME_USED)
            case _:
                raise IllegalAction(self._why_not(state, action))

    def _why_not(self, state: SangramState, action: SangramAction) -> str:
        prompt = _PROMPTS.get(state.effect, "choose")
        return f"That is not possible now: you are to {prompt} for {self._activity(state, 'your')}."

    def _apply_give(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if not isinstance(action, Give):
            raise IllegalAction("Vyapari: give one card from your hand: try 'give <card>'.")
        if action.card not in state.hands[seat]:
            raise IllegalAction(f"You have no {self._card_text(action.card)} in hand.")
        target = state.target
        w.hands[seat] = _remove(w.hands[seat], action.card)
        w.hands[target] = _insert_desc(w.hands[target], action.card)
        w.say(f"{_TAG[seat]} gave a card to {_TAG[target]} in exchange.")
        self._end(w, OUTCOME_USED)

    def _grab_card(self, w: _W, card: int) -> None:
        target = w.target
        w.hands[target] = _remove(w.hands[target], card)
        w.hands[w.actor] = _insert_desc(w.hands[w.actor], card)
        # R9: the table does not see which card, nor the one given back.
        w.known[target] = w.known[w.actor] = ()
        w.task = GIVE
        w.say(f"{_TAG[w.actor]} took a random card from {_TAG[target]}.")

    def _activity(self, state: SangramState | _W, whose: str = "") -> str:
        """``{p0}'s Mantri-33`` (``{p0}'s Yuvaraj (as Mantri)``, ``{p0}'s drawn
        Mantri-33``); ``whose`` replaces ``{p0}'s``."""
        who = whose or f"{_TAG[state.actor]}'s"
        name = self._warrior_name[state.effect]
        if state.origin == FROM_DRAW:
            return f"{who} drawn {self._names[state.flying]}"
        if state.origin == FROM_COPY:
            return f"{who} Yuvaraj (as {name})"
        return f"{who} {self._names[state.committed[state.actor]]}"

    # ----- activities ----------------------------------------------------------

    def _start(self, w: _W, effect: str, origin: str) -> None:
        """Begin an activity for ``w.actor``: apply it at once or ask."""
        w.effect = effect
        w.origin = origin
        w.target = CHANCE
        actor = w.actor
        if effect == SARTHI:
            # R4: the owner is asked before the draw (see _choices).
            if self._ask(w):
                return
            if w.legacy_rules and _sarthi_can_draw(w):
                # Revision 1 (legacy_rules) does not ask: it draws at once,
                # as after ``use``.
                self._discard_flying(w)
                w.task = SARTHI_DRAW
            else:
                w.say(f"{self._activity(w)} has nothing to draw: wasted.")
                self._end(w, OUTCOME_WASTED)
            return
        what = self._activity(w) if effect in (SHOORVEER, MAHARANI) else ""
        if effect == SHOORVEER:
            w.no_britishers = w.no_britishers | {actor}
            w.say(f"{what}: {_TAG[actor]} takes no Britishers at Recruit.")
            self._end(w, OUTCOME_USED)
            return
        if effect == MAHARANI:
            if w.levels[actor] < MAX_LEVEL:
                w.levels[actor] += 1
                w.say(f"{what}: {_TAG[actor]}'s crown moves up to level {w.levels[actor]}.")
                self._end(w, OUTCOME_USED)
            else:
                w.say(f"{what}: {_TAG[actor]}'s crown is already at the top.")
                self._end(w, OUTCOME_WASTED)
            return
        if self._ask(w):
            return
        w.say(f"{self._activity(w)}: {self._wasted_reason(w, effect)}")
        self._end(w, OUTCOME_WASTED)

    def _ask(self, w: _W) -> bool:
        """Ask the actor when the activity has options (kept for the new
        state's legal actions); False when it can do nothing."""
        options = self._choices(w)
        if not options:
            return False
        w.task = CHOOSE
        w.legal = tuple(options)
        return True

    def _wasted_reason(self, w: _W, effect: str) -> str:
        if effect in (MAHARAJA, SENAPATI, MANTRI) and not w.britishers[w.actor]:
            return "no Britishers, wasted."
        if effect == VAIDIK:
            if not w.discard:
                return "the discard pile is empty, wasted."
            return "the hand is full, wasted."
        if effect == YUVARAJ:
            return "no opponent's card can be copied, wasted."
        return "no opponent can be targeted, wasted."

    def _retreat(self, w: _W, target: Seat, what: str) -> None:
        """R5: the target leaves the battlefield for this round."""
        w.retreated = w.retreated | {target}
        pos = next(i for i, (s, _) in enumerate(w.revealed) if s == target)
        if pos > w.cursor:
            card = w.committed[target]
            w.committed[target] = NO_CARD
            w.hands[target] = _insert_desc(w.hands[target], card)
            w.known[target] = _insert_desc(w.known[target], card)
            w.returned = w.returned | {target}
            w.say(
                f"{what} retreats {_TAG[target]}: {self._names[card]} goes back "
                "to their hand unused; they skip Activate and Recruit."
            )
        else:
            w.say(
                f"{what} retreats {_TAG[target]}, whose card was already used: they skip Recruit."
            )

    def _discard_flying(self, w: _W) -> None:
        if w.flying:
            w.discard = (*w.discard, w.flying)
            w.flying = NO_CARD

    def _end(self, w: _W, outcome: str) -> None:
        """The activity is over: a drawn card is discarded (R7)."""
        _settle(w, outcome)
        self._discard_flying(w)
        w.task = IDLE

    def _take_britishers(self, w: _W, seat: Seat, count: int) -> int:
        """R2: take up to ``count`` from the supply; returns how many."""
        got = min(count, w.supply)
        w.supply -= got
        w.britishers[seat] += got
        return got


def _britishers_taken(got: int, printed: int) -> str:
    """R2: the Britishers a recruit or a Vaidik's take brought, for the
    narration: the card's print, or what the supply still had."""
    if got == printed:
        return plural(got, "Britisher")
    if not got:
        return "no Britishers (the supply is empty)"
    return f"{plural(got, 'Britisher')} (the supply's last)"
