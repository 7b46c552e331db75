"""Sangram's activities (R5-R9): what each warrior card does when it
resolves, the choice it asks of its owner and the narration of its effect.
"""

from __future__ import annotations

from typing import Final

from bot.engines.core import (
    CHANCE,
    IllegalAction,
    Seat,
)
from bot.engines.messages import Msg, Plural
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

_PROMPTS: Final[dict[str, str]] = {
    ACHARYA: Msg("choose an opponent to retreat"),
    MAHARAJA: Msg("choose how many Britishers to discard"),
    SENAPATI: Msg("choose how many Britishers to discard"),
    MANTRI: Msg("choose Britishers to give and to whom"),
    GUPTCHAR: Msg("choose an opponent whose crown goes down"),
    YUVARAJ: Msg("choose an opponent's card to copy"),
    VYAPARI: Msg("choose an opponent to trade cards with"),
    VAIDIK: Msg("choose a card from the discard pile"),
    SARTHI: Msg("choose whether to draw a card"),
}
"""What an activity asks its player, inside a sentence (a refusal)."""
PROMPT_SENTENCES: Final[dict[str, str]] = {
    ACHARYA: Msg("Choose an opponent to retreat."),
    MAHARAJA: Msg("Choose how many Britishers to discard."),
    SENAPATI: Msg("Choose how many Britishers to discard."),
    MANTRI: Msg("Choose Britishers to give and to whom."),
    GUPTCHAR: Msg("Choose an opponent whose crown goes down."),
    YUVARAJ: Msg("Choose an opponent's card to copy."),
    VYAPARI: Msg("Choose an opponent to trade cards with."),
    VAIDIK: Msg("Choose a card from the discard pile."),
    SARTHI: Msg("Choose whether to draw a card."),
}
"""The same, as the choice's prompt on the board (:class:`ChoiceView`)."""


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
                w.say(
                    Msg(
                        "{player} declined to use {activity}.",
                        player=who,
                        activity=self._activity(state, "their"),
                    )
                )
                self._end(w, OUTCOME_DECLINED)
            case Use():
                # R7: draw and activate; a drawn Sarthi is discarded before
                # its own draw.
                w.say(Msg("{activity} draws a card.", activity=what))
                self._discard_flying(w)
                w.task = SARTHI_DRAW
            case Target(target):
                if effect == ACHARYA:
                    self._retreat(w, target, what)
                    self._end(w, OUTCOME_USED)
                elif effect == GUPTCHAR:
                    w.levels[target] -= 1
                    w.say(
                        Msg(
                            "{activity} pulled {target}'s crown down to level {level}.",
                            activity=what,
                            target=_TAG[target],
                            level=w.levels[target],
                        )
                    )
                    self._end(w, OUTCOME_USED)
                else:  # VYAPARI: chance picks the card (R9)
                    w.target = target
                    w.task = GRAB
                    w.say(
                        Msg("{activity} trades with {target}.", activity=what, target=_TAG[target])
                    )
            case Copy(target):
                copied = state.committed[target]
                w.say(
                    Msg(
                        "{activity} copies {target}'s {card}.",
                        activity=what,
                        target=_TAG[target],
                        card=self._names[copied],
                    )
                )
                self._start(w, self._kind[copied], FROM_COPY)
            case DiscardBritishers(count):
                w.britishers[seat] -= count
                w.supply += count
                w.say(
                    Plural(
                        "{activity}: {player} discarded {n} Britisher ({left} left).",
                        "{activity}: {player} discarded {n} Britishers ({left} left).",
                        count,
                        activity=what,
                        player=who,
                        left=w.britishers[seat],
                    )
                )
                self._end(w, OUTCOME_USED)
            case GiveBritishers(count, target):
                w.britishers[seat] -= count
                w.britishers[target] += count
                w.say(
                    Plural(
                        "{activity}: {player} gave {n} Britisher to {target}.",
                        "{activity}: {player} gave {n} Britishers to {target}.",
                        count,
                        activity=what,
                        player=who,
                        target=_TAG[target],
                    )
                )
                self._end(w, OUTCOME_USED)
            case Take(card):
                w.discard = _remove_last(w.discard, card)
                w.hands[seat] = _insert_desc(w.hands[seat], card)
                w.known[seat] = _insert_desc(w.known[seat], card)
                got = self._take_britishers(w, seat, self._brit[card])
                w.vaidik = w.vaidik | {seat}
                w.say(
                    Msg(
                        "{activity}: {player} took {card} from the discard pile and "
                        "{britishers}; no Recruit this round.",
                        activity=what,
                        player=who,
                        card=self._names[card],
                        britishers=_britishers_taken(got, self._brit[card]),
                    )
                )
                self._end(w, OUTCOME_USED)
            case _:
                raise IllegalAction(self._why_not(state, action))

    def _why_not(self, state: SangramState, action: SangramAction) -> str:
        prompt = _PROMPTS.get(state.effect, Msg("choose"))
        return Msg(
            "That is not possible now: you are to {prompt} for {activity}.",
            prompt=prompt,
            activity=self._activity(state, "your"),
        )

    def _apply_give(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if not isinstance(action, Give):
            raise IllegalAction(Msg("Vyapari: give one card from your hand: try 'give <card>'."))
        if action.card not in state.hands[seat]:
            raise IllegalAction(
                Msg("You have no {card} in hand.", card=self._card_text(action.card))
            )
        target = state.target
        w.hands[seat] = _remove(w.hands[seat], action.card)
        w.hands[target] = _insert_desc(w.hands[target], action.card)
        w.say(
            Msg(
                "{player} gave a card to {target} in exchange.",
                player=_TAG[seat],
                target=_TAG[target],
            )
        )
        self._end(w, OUTCOME_USED)

    def _grab_card(self, w: _W, card: int) -> None:
        target = w.target
        w.hands[target] = _remove(w.hands[target], card)
        w.hands[w.actor] = _insert_desc(w.hands[w.actor], card)
        # R9: the table does not see which card, nor the one given back.
        w.known[target] = w.known[w.actor] = ()
        w.task = GIVE
        w.say(
            Msg(
                "{player} took a random card from {target}.",
                player=_TAG[w.actor],
                target=_TAG[target],
            )
        )

    def _activity(self, state: SangramState | _W, whose: str = "") -> str:
        """``{p0}'s Mantri-33`` (``{p0}'s Yuvaraj (as Mantri)``, ``{p0}'s drawn
        Mantri-33``); ``whose`` (``their``, ``your``) replaces ``{p0}'s``."""
        who = _TAG[state.actor]
        if state.origin == FROM_COPY:
            name = Msg(self._warrior_name[state.effect])
            if whose == "their":
                return Msg("their Yuvaraj (as {warrior})", warrior=name)
            if whose == "your":
                return Msg("your Yuvaraj (as {warrior})", warrior=name)
            return Msg("{player}'s Yuvaraj (as {warrior})", player=who, warrior=name)
        if state.origin == FROM_DRAW:
            card = self._names[state.flying]
            if whose == "their":
                return Msg("their drawn {card}", card=card)
            if whose == "your":
                return Msg("your drawn {card}", card=card)
            return Msg("{player}'s drawn {card}", player=who, card=card)
        card = self._names[state.committed[state.actor]]
        if whose == "their":
            return Msg("their {card}", card=card)
        if whose == "your":
            return Msg("your {card}", card=card)
        key = (state.actor, state.committed[state.actor])
        said = self._seats_cards.get(key)
        if said is None:
            said = self._seats_cards[key] = Msg("{player}'s {card}", player=who, card=card)
        return said

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
                w.say(Msg("{activity} has nothing to draw: wasted.", activity=self._activity(w)))
                self._end(w, OUTCOME_WASTED)
            return
        what = self._activity(w) if effect in (SHOORVEER, MAHARANI) else ""
        if effect == SHOORVEER:
            w.no_britishers = w.no_britishers | {actor}
            w.say(
                Msg(
                    "{activity}: {player} takes no Britishers at Recruit.",
                    activity=what,
                    player=_TAG[actor],
                )
            )
            self._end(w, OUTCOME_USED)
            return
        if effect == MAHARANI:
            if w.levels[actor] < MAX_LEVEL:
                w.levels[actor] += 1
                w.say(
                    Msg(
                        "{activity}: {player}'s crown moves up to level {level}.",
                        activity=what,
                        player=_TAG[actor],
                        level=w.levels[actor],
                    )
                )
                self._end(w, OUTCOME_USED)
            else:
                w.say(
                    Msg(
                        "{activity}: {player}'s crown is already at the top.",
                        activity=what,
                        player=_TAG[actor],
                    )
                )
                self._end(w, OUTCOME_WASTED)
            return
        if self._ask(w):
            return
        w.say(self._wasted(self._activity(w), w, effect))
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

    def _wasted(self, what: str, w: _W, effect: str) -> str:
        if effect in (MAHARAJA, SENAPATI, MANTRI) and not w.britishers[w.actor]:
            return Msg("{activity}: no Britishers, wasted.", activity=what)
        if effect == VAIDIK:
            if not w.discard:
                return Msg("{activity}: the discard pile is empty, wasted.", activity=what)
            return Msg("{activity}: the hand is full, wasted.", activity=what)
        if effect == YUVARAJ:
            return Msg("{activity}: no opponent's card can be copied, wasted.", activity=what)
        return Msg("{activity}: no opponent can be targeted, wasted.", activity=what)

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
                Msg(
                    "{activity} retreats {target}: {card} goes back to their hand unused; "
                    "they skip Activate and Recruit.",
                    activity=what,
                    target=_TAG[target],
                    card=self._names[card],
                )
            )
        else:
            w.say(
                Msg(
                    "{activity} retreats {target}, whose card was already used: they skip Recruit.",
                    activity=what,
                    target=_TAG[target],
                )
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
        return Plural("{n} Britisher", "{n} Britishers", got)
    if not got:
        return Msg("no Britishers (the supply is empty)")
    return Plural("{n} Britisher (the supply's last)", "{n} Britishers (the supply's last)", got)
