"""Sangram: the pure rules engine, and its text.

The engine is built in layers, a module each: :mod:`~bot.engines.sangram_cards`
(the components, R1-R2), :mod:`~bot.engines.sangram_state` (the state, the
actions, the working copy), :mod:`~bot.engines.sangram_rules` (set-up, whose
turn, legal actions, chance, hidden cards, ranking),
:mod:`~bot.engines.sangram_activities` (the warriors' activities, R5-R9),
:mod:`~bot.engines.sangram_round` (applying an action and the round's
automatic steps), and this module's :class:`SangramEngine`: the view, the
action text below, narration and JSON.

The rulings R1-R14 in ``docs/rules/sangram.md`` fill the rulebook's gaps.
The 55 warrior cards (R1) live in ``bot/engines/data/sangram.toml`` and are checked when loaded
(:func:`load_components_text`).

Cards are identified by their motivation (unique, 1..55); in text a card is
written ``<type>-<motivation>`` (``acharya-53``); a bare motivation (``53``)
is accepted when typing.  Players are numbered from 1 in typed text
(``target 2`` is seat 1); labels, narration and the outcome's reason name
seats as ``{p1}``, filled in with names by the caller.

Action text (what :meth:`SangramEngine.describe` returns and
:meth:`SangramEngine.parse` accepts, case-insensitively, extra blanks ignored)::

    commit phase (R4, simultaneous)
      commit acharya-53     put this card face down (again: swap it for the one
                            committed before; allowed until the last player commits)
    activate phase (R5-R9), asked of the resolving card's owner
      target 2              Acharya: retreat the second player; Guptchar: pull
                            their crown down; Vyapari: trade with them
      copy 2                Yuvaraj: copy the card the second player committed
      discard 3             Maharaja/Senapati: discard 3 of your Britishers
      give 2 to 3           Mantri: give 2 of your Britishers to the third player
      take senapati-38      Vaidik: take this card from the 5 newest discards
      give vaidik-3         Vyapari: hand this card to the player you took from
      use                   Sarthi: draw a card and activate it (R4, R7)
      decline               do not use the activity (R4)
    recruit phase (R10), one player at a time
      recruit senapati-38   take this volunteer into hand
    chance (seat CHANCE)
      draw acharya-53       the next card drawn from the deck (R3), uniform over
                            the deck; into a hand, the volunteers or for a Sarthi
      grab acharya-53       Vyapari: the card taken at random from the hand (R9)

Every decision offers at most a dozen actions (a hand holds at most 6 cards,
there are at most 6 volunteers, 4 opponents, 6 Britishers to discard).

The state machine (:attr:`SangramState.phase`)::

    setup --(deal n+1 volunteers, 3 cards each: chance)--> commit
    commit --(last uncommitted player commits: reveal)--> activate
    activate --(all cards resolved; activated cards discarded)--> recruit
    recruit --(all recruited; leftover volunteers discarded)--> refill
    refill --(n+1 volunteers drawn: chance; then Train)--> grow
    grow --(Grow draws: chance; end check R13)--> commit (next round) or over

Automatic steps (reveal, activities without a choice, Train, the end check)
happen inside :meth:`SangramEngine.apply`; its narration lists them.  The
state is an immutable named tuple (:class:`SangramState`); ``apply`` works on a
mutable copy (:class:`_W`) and freezes it, or takes :meth:`_fast_path`.

Hidden information (R14): hands, face-down commits and the deck never reach
the public view or narration.  ``private_to``: a commit, a card drawn into a
hand (deal, Grow) and the Vyapari's gift go to the acting or drawing seat;
the Vyapari's random take goes to the taker (the victim sees it in their hand).

Interpretations of the rulings (each one is tested in tests/engines/test_sangram.py):

* R4 decline: only Shoorveer and Maharani, whose use can never hurt their
  owner or change anyone else's options, apply without asking; all others ask
  and offer ``decline``.  A Sarthi's owner is asked (``use`` or ``decline``)
  before the draw, a drawn or copied Sarthi too.  An activity that cannot do
  anything (no target, no Britishers, no discards, nothing to draw) is wasted
  without asking.
* Public choices (:meth:`SangramEngine.choices_are_public`): an activity's
  choice and recruiting follow from the table; commits, the Vyapari's gift
  and chance's draws and takes come from hidden hands or the deck.
* R4 outcome (public, :attr:`SangramState.outcomes`): a resolved card was
  ``used``, ``declined`` or ``wasted`` (nothing it could do, including a
  Maharani at 9).  A Yuvaraj takes the outcome of the activity it copies; a
  Sarthi is used once it draws, whatever its drawn card does.
* R5: the committed Acharya may retreat any opponent who committed a card and
  is not retreated; if that card already resolved, the target keeps it spent
  (it is discarded as usual) but still skips Recruit and cannot be targeted.
  A copied or drawn Acharya only offers opponents whose card has not resolved.
* R6: a Yuvaraj offers only opponents whose card is not a Yuvaraj (copying one
  is wasted, the same as declining).
* R7: a drawn card is discarded as soon as its activity ends (a drawn Sarthi
  at once, before the next draw), so a later Vaidik can see it.
* R9 Vyapari: targets are opponents with a card in hand; the random take is a
  chance action whose text is private to the taker; the gift is compulsory.
* R10: players who could not commit (empty hand) recruit after the others,
  in seat order; a single remaining volunteer is taken without asking.
* R12: both thresholds are judged on the Total Army Strength after Train;
  Grow draws count from then on (so also for the end check).  Hands never
  exceed 6: a recruit, a Vaidik take or a Grow draw that would is skipped
  (with the rulebook's card flow this cannot happen; it is a safety net).
* R3: "if both are empty, the draw is skipped" is implemented, but cannot
  happen: hands hold at most 30 cards and volunteers 6, so deck plus discard
  always hold at least 19.
* R12: the total is checked again after the 7-draws, so cards drawn at 7
  that carry it to 13 give the 13-draw in the same Grow (:meth:`_grow_again`).
* R13: the rulebook has no round limit.  The lobby option ``round_limit``
  (default 0, off) ends the game after that round, ranked the same way;
  automatic play (the demo, benchmarks, whole-game tests) sets it, because
  random players finish slowly (two random players: median 37 rounds, 1 game
  in 100 over 180).
* R14 for search (:meth:`SangramEngine.determinize`, issue 19): the cards a
  seat cannot see are dealt afresh; a card sent back to hand (R5) and a hand
  shown at Grow (R12) stay with their holder until the next reveal, and in
  the commit phase each hidden hand stays below the Grow step its holder has
  not reached (``grown`` is public).  What only the log tells (recruits, a
  Vaidik's take, a Vyapari's trade, the discards a reshuffled deck came
  from) is not in the state and is not honoured.
* Games created before revision 2 (R4's Sarthi question, R12's re-check,
  R13's lobby option) keep revision 1's rules, so their logs replay as they
  were played: see :attr:`SangramState.legacy_rules`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from bot.engines.core import (
    JSON,
    InvalidAction,
    Seat,
    excerpt,
    seat_tag,
    whole_number,
)
from bot.engines.messages import Msg, Plural
from bot.engines.sangram_activities import PROMPT_SENTENCES
from bot.engines.sangram_cards import (
    ACHARYA,
    BRITISHERS,
    DISCARD_UP_TO,
    GUPTCHAR,
    KEEP_ON_RESHUFFLE,
    LEGACY_ROUND_LIMIT,
    MANTRI_UP_TO,
    MAX_HAND,
    MAX_LEVEL,
    NUM_CARDS,
    VAIDIK,
    VYAPARI,
    WARRIORS,
    joined,
)
from bot.engines.sangram_round import SangramRound
from bot.engines.sangram_state import (
    _DECLINE,
    _DRAW_PHASES,
    _NOBODY,
    _ORIGINS,
    _OUTCOMES,
    _PHASES,
    _TASKS,
    _USE,
    _W,
    ACTIVATE,
    CHOOSE,
    COMMIT,
    GIVE,
    NO_CARD,
    OVER,
    RECRUIT,
    VOLUNTEER,
    Commit,
    Copy,
    Decline,
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
    Use,
    _recruit_order,
)
from bot.engines.sangram_views import (
    STATUS_DONE,
    STATUS_RESOLVING,
    STATUS_RETREATED,
    STATUS_WAITING,
    ChoiceView,
    FinalView,
    GrowRevealView,
    HandView,
    PlayerView,
    RevealView,
    SangramView,
)

_CARD_WORDS: Final[dict[str, Callable[[int], SangramAction]]] = {
    "commit": Commit, "take": Take, "give": Give, "recruit": Recruit, "draw": Draw, "grab": Grab
}  # fmt: skip
_HELP: Final[str] = Msg(
    "Moves look like 'commit acharya-53', 'target 2', 'copy 2', 'discard 3', 'give 2 to 3', "
    "'take vaidik-3', 'give vaidik-3', 'use', 'recruit senapati-38' or 'decline'."
)
_GROUP_LABELS: Final[dict[str, str]] = {
    "commit": Msg("Commit a card"),
    "recruit": Msg("Recruit a volunteer"),
    "target": Msg("Choose an opponent"),
    "copy": Msg("Copy an opponent's card"),
    "discard": Msg("Discard Britishers"),
    "give": Msg("Give"),
    "take": Msg("Take a card from the discard pile"),
    "draw": Msg("Draw a card"),
    "grab": Msg("Take a card at random"),
}


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class SangramEngine(SangramRound):
    """The Sangram engine: the rules (:class:`SangramRules`), an action's
    play (:class:`SangramRound`), and here the view, the action text
    (parse, describe, labels, narration) and the JSON of a state."""

    def view(self, state: SangramState, seat: Seat | None) -> SangramView:
        cv = self._card_views
        n = state.num_players
        phase = state.phase
        in_round = phase in (COMMIT, ACTIVATE, RECRUIT)
        recruiting = phase == RECRUIT
        players = tuple(
            PlayerView(
                seat=s,
                level=state.levels[s],
                britishers=state.britishers[s],
                hand_size=len(state.hands[s]),
                committed=bool(state.committed[s]),
                retreated=in_round and s in state.retreated,
                skips_recruit=in_round and (s in state.retreated or s in state.vaidik),
                no_britishers=in_round and s in state.no_britishers,
                grown=state.grown[s],
                recruited=recruiting and s in state.recruited,
            )
            for s in range(n)
        )
        revealed: list[RevealView] = []
        active = phase == ACTIVATE
        outcomes = state.outcomes
        for i, (s, card) in enumerate(state.revealed):
            outcome: str | None = None
            if s in state.returned:
                status = STATUS_RETREATED
            elif not active or i < state.cursor:
                status = STATUS_DONE
                outcome = outcomes[i] or None
            elif i == state.cursor:
                status = STATUS_RESOLVING
            else:
                status = STATUS_WAITING
            revealed.append(RevealView(s, cv[card], status, outcome))
        choice: ChoiceView | None = None
        if active and state.task in (CHOOSE, GIVE):
            card_no = state.flying or state.committed[state.actor]
            if state.task == CHOOSE:
                prompt = PROMPT_SENTENCES.get(state.effect, Msg("Choose."))
                kind = "activity"
            else:
                # The view is drawn as it is: no {pN} tags here.
                prompt = Msg("Choose a card to give in exchange.")
                kind = "give"
            choice = ChoiceView(
                seat=state.actor,
                kind=kind,
                effect=state.effect,
                card=cv[card_no] if card_no else None,
                origin=state.origin,
                prompt=prompt,
            )
        elif phase == RECRUIT and state.queue:
            choice = ChoiceView(
                seat=state.queue[0],
                kind="recruit",
                effect="",
                card=None,
                origin="",
                prompt=Msg("Choose a volunteer."),
            )
        strength = self._strength
        grow = tuple(
            GrowRevealView(
                seat=s,
                round=r,
                cards=tuple(cv[c] for c in hand),
                level=level,
                total_strength=level + sum(map(strength.__getitem__, hand)),
            )
            for s, r, hand, level in state.grow_reveals
        )
        final: FinalView | None = None
        if phase == OVER:
            final = FinalView(
                ranking=tuple(tuple(sorted(place)) for place in self.ranking(state)),
                total_strength=tuple(self.total_strength(state, s) for s in range(n)),
                britishers=state.britishers,
                best_card=tuple(cv[h[0]] if h else None for h in state.hands),
                hands=tuple(tuple(cv[c] for c in h) for h in state.hands),
                reason=state.reason,
            )
        me: HandView | None = None
        if seat is not None and 0 <= seat < n:
            hand = state.hands[seat]
            hand_strength = sum(map(strength.__getitem__, hand))
            mine = state.committed[seat]
            me = HandView(
                seat=seat,
                hand=tuple(cv[c] for c in hand),
                committed=cv[mine] if mine else None,
                hand_strength=hand_strength,
                total_strength=state.levels[seat] + hand_strength,
            )
        return SangramView(
            num_players=n,
            phase=phase,
            round=state.round,
            round_limit=state.round_limit,
            players=players,
            volunteers=tuple(cv[c] for c in state.volunteers),
            deck_size=len(state.deck),
            discard_size=len(state.discard),
            discard_top=tuple(cv[c] for c in reversed(state.discard[-KEEP_ON_RESHUFFLE:])),
            supply=state.supply,
            revealed=tuple(revealed),
            revealed_round=state.revealed_round,
            drawn=cv[state.flying] if state.flying else None,
            choice=choice,
            recruit_order=_recruit_order(state) if recruiting else (),
            waiting_on=tuple(sorted(self.waiting_on(state))),
            grow_reveals=grow,
            events=state.recent,
            final=final,
            me=me,
        )

    # ----- text ---------------------------------------------------------------------

    def parse(self, state: SangramState, seat: Seat, text: str) -> SangramAction:
        words = text.strip().lower().split()
        if words == ["decline"]:
            return _DECLINE
        if words == ["use"]:
            return _USE
        if len(words) == 2:
            verb, arg = words
            maker = _CARD_WORDS.get(verb)
            if verb == "give" and whole_number(arg) is not None and arg not in self._by_id:
                raise InvalidAction(
                    Msg("Give a card like 'give vaidik-3', or Britishers like 'give 2 to 3'.")
                )
            if maker is not None:
                card = self._parse_card(arg)
                return maker(card)
            if verb == "target":
                return Target(self._parse_player(state, arg))
            if verb == "copy":
                return Copy(self._parse_player(state, arg))
            if verb == "discard":
                count = whole_number(arg)
                if count is None or not 1 <= count <= max(DISCARD_UP_TO.values()):
                    raise InvalidAction(Msg("Discard 1 to 6 Britishers: try 'discard 3'."))
                return DiscardBritishers(count)
        if len(words) == 4 and words[0] == "give" and words[2] == "to":
            count = whole_number(words[1])
            if count is None or not 1 <= count <= MANTRI_UP_TO:
                raise InvalidAction(Msg("A Mantri gives 1 or 2 Britishers: try 'give 2 to 3'."))
            return GiveBritishers(count, self._parse_player(state, words[3]))
        raise InvalidAction(
            Msg("I don't understand {text}. {help}", text=excerpt(text), help=_HELP)
        )

    def _parse_card(self, word: str) -> int:
        m = self._by_id.get(word)
        if m is not None:
            return m
        number = whole_number(word)
        if number is not None and 1 <= number <= NUM_CARDS:
            return number
        raise InvalidAction(
            Msg(
                "There is no card {text}: cards are written like 'acharya-53' "
                "(type and motivation).",
                text=excerpt(word),
            )
        )

    def _parse_player(self, state: SangramState, word: str) -> Seat:
        number = whole_number(word)
        if number is None or not 1 <= number <= state.num_players:
            raise InvalidAction(
                Msg(
                    "Players are numbered 1 to {last} in moves; {text} is not one.",
                    last=state.num_players,
                    text=excerpt(word),
                )
            )
        return number - 1

    def describe(self, state: SangramState, seat: Seat, action: SangramAction) -> str:
        ids = self._id
        match action:
            case Commit(card):
                return f"commit {ids[card]}"
            case Target(s):
                return f"target {s + 1}"
            case Copy(s):
                return f"copy {s + 1}"
            case DiscardBritishers(count):
                return f"discard {count}"
            case GiveBritishers(count, s):
                return f"give {count} to {s + 1}"
            case Take(card):
                return f"take {ids[card]}"
            case Give(card):
                return f"give {ids[card]}"
            case Decline():
                return "decline"
            case Use():
                return "use"
            case Recruit(card):
                return f"recruit {ids[card]}"
            case Draw(card):
                return f"draw {ids[card]}"
            case Grab(card):
                return f"grab {ids[card]}"
        raise InvalidAction(Msg("Not a Sangram action: {action}", action=repr(action)))

    def menu_words(self, state: SangramState, seat: Seat, text: str) -> tuple[str, ...]:
        """Menu levels for an action: every decision offers a dozen actions at
        most, so each action is one entry of a single menu."""
        return (text,)

    def choice_label(self, state: SangramState, seat: Seat, prefix: str) -> str:
        """Menu text for a group of actions sharing ``prefix`` (``commit``)."""
        words = prefix.split()
        if len(words) == 1 and words[0] in _GROUP_LABELS:
            if words[0] == "give" and state.phase == ACTIVATE and state.task == GIVE:
                return Msg("Give a card to {player}", player=seat_tag(state.target))
            if words[0] == "give":
                return Msg("Give Britishers")
            return _GROUP_LABELS[words[0]]
        try:
            return self.label(state, seat, self.parse(state, seat, prefix))
        except InvalidAction:
            return prefix

    def _card_label(self, card: int) -> str:
        return Plural(
            "{card} (strength {strength}, {n} Britisher)",
            "{card} (strength {strength}, {n} Britishers)",
            self._brit[card],
            card=self._names[card],
            strength=self._strength[card],
        )

    def label(self, state: SangramState, seat: Seat, action: SangramAction) -> str:
        effect = state.effect
        match action:
            case Commit(card):
                return Msg("Commit {card}", card=self._card_label(card))
            case Recruit(card):
                strength = self._strength[card]
                if seat in state.no_britishers:
                    return Msg(
                        "Recruit {card} (strength {strength}, no Britishers)",
                        card=self._names[card],
                        strength=strength,
                    )
                # R2: the Britishers the supply still has, not the card's print.
                brought = _britishers_brought(self._brit[card], state.supply)
                return Msg(
                    "Recruit {card} (strength {strength}, {britishers})",
                    card=self._names[card],
                    strength=strength,
                    britishers=brought,
                )
            case Target(s):
                who = seat_tag(s)
                if effect == ACHARYA:
                    return Msg("Retreat {player}", player=who)
                if effect == GUPTCHAR:
                    level = state.levels[s]
                    return Msg(
                        "Pull {player}'s crown down (level {level} to {lower})",
                        player=who,
                        level=level,
                        lower=level - 1,
                    )
                if effect == VYAPARI:
                    size = len(state.hands[s])
                    return Plural(
                        "Trade cards with {player} ({n} card in hand)",
                        "Trade cards with {player} ({n} cards in hand)",
                        size,
                        player=who,
                    )
                return Msg("Target {player}", player=who)
            case Copy(s):
                copied = state.committed[s]
                if copied:
                    return Msg(
                        "Copy {player}'s {card}", player=seat_tag(s), card=self._names[copied]
                    )
                return Msg("Copy {player}'s card", player=seat_tag(s))
            case DiscardBritishers(count):
                have = state.britishers[seat]
                return Plural(
                    "Discard {n} Britisher ({have} to {left})",
                    "Discard {n} Britishers ({have} to {left})",
                    count,
                    have=have,
                    left=max(0, have - count),
                )
            case GiveBritishers(count, s):
                return Plural(
                    "Give {n} Britisher to {player}",
                    "Give {n} Britishers to {player}",
                    count,
                    player=seat_tag(s),
                )
            case Take(card):
                brought = _britishers_brought(self._brit[card], state.supply)
                return Msg(
                    "Take {card} from the discards ({britishers})",
                    card=self._names[card],
                    britishers=brought,
                )
            case Give(card):
                return Msg(
                    "Give {card} to {player}", card=self._names[card], player=seat_tag(state.target)
                )
            case Use():
                return Msg("Draw a card and activate it (Sarthi)")
            case Decline():
                if effect == VAIDIK:
                    return Msg("Decline the Vaidik (recruit as usual)")
                name = self._warrior_name.get(effect, "")
                if name:
                    return Msg("Decline the {warrior} activity", warrior=Msg(name))
                return Msg("Decline")
            case Draw(card):
                return Msg("Draw {card}", card=self._names[card])
            case Grab(card):
                return Msg("Take {card} at random", card=self._names[card])
        return self.describe(state, seat, action)

    def narrate(
        self, before: SangramState, seat: Seat, action: SangramAction, after: SangramState
    ) -> str:
        return joined(after.news)

    def private_to(self, before: SangramState, seat: Seat, action: SangramAction) -> Seat | None:
        # R14: a committed card, a card drawn into a hand, the card a Vyapari
        # takes at random (kept to the taker) and the card they give back.
        match action:
            case Commit() | Give():
                return seat
            case Grab():
                return before.actor
            case Draw():
                if before.phase in _DRAW_PHASES and before.draws:
                    to = before.draws[0]
                    return None if to == VOLUNTEER else to
                return None
        return None

    # ----- serialisation ---------------------------------------------------------

    def to_json(self, state: SangramState) -> JSON:
        _remember(state.news)
        _remember(state.recent)
        ids = self._id

        def cards(seq: Sequence[int]) -> list[str]:
            return [ids[c] for c in seq]

        return {
            "players": state.num_players,
            "phase": state.phase,
            "round": state.round,
            "deck": cards(state.deck),
            "discard": cards(state.discard),
            "volunteers": cards(state.volunteers),
            "hands": [cards(h) for h in state.hands],
            "committed": [ids[c] if c else None for c in state.committed],
            "levels": list(state.levels),
            "britishers": list(state.britishers),
            "supply": state.supply,
            "grown": list(state.grown),
            "revealed": [[s, ids[c]] for s, c in state.revealed],
            "revealed_round": state.revealed_round,
            "cursor": state.cursor,
            "queue": list(state.queue),
            "retreated": sorted(state.retreated),
            "returned": sorted(state.returned),
            "no_britishers": sorted(state.no_britishers),
            "vaidik": sorted(state.vaidik),
            "task": state.task,
            "actor": state.actor,
            "effect": state.effect,
            "origin": state.origin,
            "target": state.target,
            "flying": ids[state.flying] if state.flying else None,
            "draws": list(state.draws),
            "grow_reveals": [
                {"seat": s, "round": r, "cards": cards(h), "level": lv}
                for s, r, h, lv in state.grow_reveals
            ],
            "news": list(state.news),
            "recent": list(state.recent),
            "reason": state.reason,
            "outcomes": list(state.outcomes),
            "recruited": sorted(state.recruited),
            "round_limit": state.round_limit,
            "legacy_rules": state.legacy_rules,
            "known": [cards(k) for k in state.known],
        }

    def from_json(self, obj: JSON) -> SangramState:
        by_id = self._by_id

        def card(value: Any) -> int:
            if value is None:
                return NO_CARD
            return by_id[str(value)]

        def desc(values: Any) -> tuple[int, ...]:
            return tuple(sorted((by_id[str(v)] for v in values), reverse=True))

        def seats(values: Any) -> frozenset[Seat]:
            return frozenset(int(s) for s in values)

        try:
            n = int(obj["players"])
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            task, effect, origin = str(obj["task"]), str(obj["effect"]), str(obj["origin"])
            if task not in _TASKS or origin not in _ORIGINS or (effect and effect not in WARRIORS):
                raise ValueError("unknown activity")
            state = SangramState(
                num_players=n,
                phase=phase,
                round=int(obj["round"]),
                deck=tuple(sorted(by_id[str(c)] for c in obj["deck"])),
                discard=tuple(by_id[str(c)] for c in obj["discard"]),
                volunteers=desc(obj["volunteers"]),
                hands=tuple(desc(h) for h in obj["hands"]),
                committed=tuple(card(c) for c in obj["committed"]),
                levels=tuple(int(v) for v in obj["levels"]),
                britishers=tuple(int(v) for v in obj["britishers"]),
                supply=int(obj["supply"]),
                grown=tuple(int(v) for v in obj["grown"]),
                revealed=tuple((int(s), by_id[str(c)]) for s, c in obj["revealed"]),
                revealed_round=int(obj["revealed_round"]),
                cursor=int(obj["cursor"]),
                queue=tuple(int(s) for s in obj["queue"]),
                retreated=seats(obj["retreated"]),
                returned=seats(obj["returned"]),
                no_britishers=seats(obj["no_britishers"]),
                vaidik=seats(obj["vaidik"]),
                task=task,
                actor=int(obj["actor"]),
                effect=effect,
                origin=origin,
                target=int(obj["target"]),
                flying=card(obj["flying"]),
                draws=tuple(int(s) for s in obj["draws"]),
                grow_reveals=tuple(
                    (int(g["seat"]), int(g["round"]), desc(g["cards"]), int(g["level"]))
                    for g in obj["grow_reveals"]
                ),
                news=tuple(_recalled(str(x)) for x in obj["news"]),
                recent=tuple(_recalled(str(x)) for x in obj["recent"]),
                reason=reason_message(str(obj["reason"])),
                movers=_NOBODY,
                awaited=_NOBODY,
                outcomes=(),
                recruited=_NOBODY,
                # Snapshots written before revision 2 lack both fields: such a
                # game keeps revision 1's rules, with its 50-round limit.
                round_limit=int(obj.get("round_limit", LEGACY_ROUND_LIMIT)),
                legacy_rules=bool(obj.get("legacy_rules", "round_limit" not in obj)),
                # Older snapshots lack it: nothing known, which is always sound.
                known=tuple(desc(k) for k in obj.get("known", [[]] * n)),
            )
            # Fields added after the first release: older saves lack them.
            if "outcomes" in obj:
                outcomes = tuple(str(x) for x in obj["outcomes"])
            else:
                outcomes = ("",) * len(state.revealed)  # not known: shown as None
            if "recruited" in obj:
                recruited = seats(obj["recruited"])
            elif phase == RECRUIT:
                # Those whose turn has passed (one with a full hand took none).
                recruited = frozenset(_recruit_order(state)) - frozenset(state.queue)
            else:
                recruited = _NOBODY
            movers, awaited = _W(state).movers()
            state = state._replace(
                movers=movers, awaited=awaited, outcomes=outcomes, recruited=recruited
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Not a Sangram state: {exc}") from None
        problem = self.check(state)
        if problem:
            raise ValueError(f"Not a Sangram state: {problem}")
        return state

    def check(self, state: SangramState) -> str:
        """The state's invariants; ``""`` when they hold, else the problem."""
        n = state.num_players
        if not self.min_players <= n <= self.max_players:
            return f"{n} players"
        per_seat = (state.hands, state.committed, state.levels, state.britishers, state.grown)
        if any(len(v) != n for v in per_seat):
            return "wrong number of seats"
        zones = [
            *state.deck, *state.discard, *state.volunteers,
            *(c for h in state.hands for c in h),
            *(c for c in state.committed if c),
        ]  # fmt: skip
        if state.flying:
            zones.append(state.flying)
        if sorted(zones) != list(range(1, NUM_CARDS + 1)):
            return "the 55 cards are not each in exactly one place"
        if state.supply < 0 or min(state.britishers) < 0:
            return "negative Britishers"
        if state.supply + sum(state.britishers) != BRITISHERS:
            return f"Britishers do not add up to {BRITISHERS}"
        if any(not 0 <= lv <= MAX_LEVEL for lv in state.levels):
            return "a level is off the track"
        if any(len(h) > MAX_HAND for h in state.hands):
            return "a hand holds more than 6 cards"
        if len(state.outcomes) != len(state.revealed) or not set(state.outcomes) <= _OUTCOMES:
            return "the outcomes do not match the revealed cards"
        if not state.recruited <= frozenset(range(n)):
            return "an unknown seat recruited"
        if len(state.known) != n or any(
            not set(k) <= {*state.hands[s], state.committed[s]} for s, k in enumerate(state.known)
        ):
            return "a card known to be in a hand is not there"
        return ""


_SAID: dict[str, str] = {}
"""Lines this process wrote to a state's JSON, by their English (issue 33):
a state read back from that JSON (a snapshot, a search's copy) says them
as messages again.  The JSON itself keeps the English, as the seeded
playout hashes have it; a line from another process stays English."""
_SAID_LIMIT: Final = 4096


def _remember(lines: Sequence[str]) -> None:
    for line in lines:
        if isinstance(line, Msg):
            if len(_SAID) >= _SAID_LIMIT:
                _SAID.clear()
            _SAID[str.__str__(line)] = line


def _recalled(line: str) -> str:
    return _SAID.get(line, line)


def _britishers_brought(printed: int, supply: int) -> str:
    """R2: the Britishers a recruit or a Vaidik's take will bring, for its
    label: the card's print, or as many as the supply still has."""
    got = min(printed, supply)
    if got == printed:
        return Plural("{n} Britisher", "{n} Britishers", got)
    if not got:
        return Msg("no Britishers: the supply is empty")
    return Plural("{n} Britisher: the supply's last", "{n} Britishers: the supply's last", got)


_REASON_RE: Final = re.compile(
    r"At the end of round ([0-9]+) an army reached Total Army Strength ([0-9]+) "
    r"\(the goal is ([0-9]+)\)\.|The round limit \(([0-9]+) rounds?\) was reached; "
    r"the strongest army has ([0-9]+)\."
)


def reason_message(text: str) -> str:
    """A game's end as :meth:`SangramRound._end_check` says it, read back
    from a saved state's English (issue 33): the message again, so a
    restored game's ending is translated too; any other text as it is."""
    m = _REASON_RE.fullmatch(text)
    if m is None:
        return text
    said: str
    if m.group(1) is not None:
        said = Msg(
            "At the end of round {round} an army reached Total Army Strength {best} "
            "(the goal is {goal}).",
            round=int(m.group(1)),
            best=int(m.group(2)),
            goal=int(m.group(3)),
        )
    else:
        said = Plural(
            "The round limit ({n} round) was reached; the strongest army has {best}.",
            "The round limit ({n} rounds) was reached; the strongest army has {best}.",
            int(m.group(4)),
            best=int(m.group(5)),
        )
    return said if said == text else text
