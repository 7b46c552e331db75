"""Sangram baseline (docs/rules/sangram.md).

Hands, committed cards and the deck are secret (R14), so the baseline never
applies an action to look ahead (a commit can trigger the reveal).  It reads
its own hand (``view.me``) and the public table: levels, Britishers, hand
sizes, volunteers, the newest discards and the revealed cards.

Total Army Strength is the hand's strength plus the crown's level (R12,
R13), and the crown climbs each round only with 4 Britishers or fewer
(R11).  So every card is weighed as its strength less what its Britishers
cost: each Britisher costs a little, and going above 4 costs a whole level.
Then:

- **Commit** (R4) the card whose activity is worth most for the strength it
  takes out of the hand: a Guptchar or Vyapari (strength 0) when they have
  a target, a Maharani (+1 level for 1 strength), a Maharaja or Senapati
  when there are Britishers to shed, and so on; higher motivation breaks
  ties (it acts and recruits first).
- **Recruit** (R10) the volunteer with the best strength for its Britishers
  (none after a Shoorveer, R9).
- **Activities** are always used when they help: discard as many Britishers
  as allowed; a Mantri gives 2 to the opponent they would stop training;
  a Guptchar, Acharya or Vyapari targets the strongest-looking opponent
  (level and hand size); a Yuvaraj copies the most useful revealed card; a
  Vaidik takes the best of the newest discards unless a volunteer is as
  good (it skips Recruit, R8); a Sarthi draws (R7); a Vyapari gives back its
  weakest card.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engines.core import Engine, Seat
from bot.engines.sangram_views import CardView, SangramView
from bot.players.base import legal_actions, pick_best

#: R11: the crown moves up only with this many Britishers or fewer.
TRAIN_MAX = 4
MAX_LEVEL = 9
#: What one Britisher costs, in strength.
BRITISHER = 0.5
#: What going above TRAIN_MAX costs (a level a round until shed).
BLOCKED = 1.5
#: The worth of activities that need no numbers (in strength).
ACTIVITY = {
    "acharya": 0.7,
    "guptchar": 1.0,
    "maharani": 1.0,
    "vyapari": 0.8,
    "sarthi": 0.5,
    "yuvaraj": 0.6,
}


def britisher_cost(count: int) -> float:
    """What holding ``count`` Britishers costs (R11: above 4 blocks Train)."""
    return BRITISHER * count + (BLOCKED if count > TRAIN_MAX else 0.0)


def relief(have: int, shed: int) -> float:
    """What shedding ``shed`` of ``have`` Britishers is worth."""
    return britisher_cost(have) - britisher_cost(max(0, have - shed))


class _Table:
    """What the seat knows, from its own view."""

    def __init__(self, view: SangramView, seat: Seat) -> None:
        self.view = view
        self.seat = seat
        me = view.players[seat]
        self.level = me.level
        self.britishers = me.britishers
        self.no_britishers = me.no_britishers
        hand = view.me.hand if view.me is not None else ()
        self.hand = {c.id: c for c in hand}
        cards = [*hand, *view.volunteers, *view.discard_top, *(r.card for r in view.revealed)]
        if view.me is not None and view.me.committed is not None:
            cards.append(view.me.committed)
        if view.drawn is not None:
            cards.append(view.drawn)
        self.cards = {c.id: c for c in cards}
        self.opponents = [p for p in view.players if p.seat != seat]

    def threat(self, seat: Seat) -> float:
        """How strong an opponent looks: level and hand size (public)."""
        player = self.view.players[seat]
        return player.level + 0.8 * player.hand_size

    def keep_value(self, card: CardView, britishers: bool = True) -> float:
        """A card in the hand: its strength less its Britishers' cost."""
        cost = relief(self.britishers + card.britishers, card.britishers) if britishers else 0.0
        return card.strength - cost

    def best_volunteer(self) -> float:
        values = sorted(
            (self.keep_value(c, not self.no_britishers) for c in self.view.volunteers),
            reverse=True,
        )
        if not values:
            return 0.0
        # Others may recruit first: count on the second best when there is one.
        return values[1] if len(values) > 1 else values[0]

    def activity(self, kind: str) -> float:
        """What using ``kind``'s activity now is worth (before its cost)."""
        b = self.britishers
        if kind == "maharaja":
            return relief(b, 4)
        if kind == "senapati":
            return relief(b, 6)
        if kind == "mantri":
            return relief(b, 2) + (0.4 if b else 0.0)
        if kind == "shoorveer":
            coming = max((c.britishers for c in self.view.volunteers), default=0)
            return relief(b + coming, coming)
        if kind == "guptchar":
            return ACTIVITY[kind] if any(p.level > 0 for p in self.opponents) else 0.0
        if kind == "vyapari":
            return ACTIVITY[kind] if any(p.hand_size for p in self.opponents) else 0.0
        if kind == "maharani":
            return ACTIVITY[kind] if self.level < MAX_LEVEL else 0.0
        if kind == "vaidik":
            top = max((self.keep_value(c) for c in self.view.discard_top), default=0.0)
            return max(0.0, top - self.best_volunteer())
        return ACTIVITY.get(kind, 0.0)

    def score(self, text: str) -> float:
        words = text.split()
        verb = words[0]
        if verb == "commit":
            card = self.hand[words[1]]
            return self.activity(card.kind) - card.strength + card.motivation / 1000
        if verb == "recruit":
            card = self.cards[words[1]]
            return self.keep_value(card, not self.no_britishers)
        if verb == "take":
            return self.keep_value(self.cards[words[1]]) - self.best_volunteer()
        if verb == "give" and len(words) == 2:
            # Vyapari's give-back (R9): part with the weakest card.
            card = self.hand[words[1]]
            return -(card.strength + self.activity(card.kind) / 2 + card.motivation / 1000)
        if verb == "give":
            count, target = int(words[1]), int(words[3]) - 1
            theirs = self.view.players[target].britishers
            blocks = 2.0 if theirs <= TRAIN_MAX < theirs + count else 0.0
            return relief(self.britishers, count) + blocks + self.threat(target) / 100
        if verb == "discard":
            return relief(self.britishers, int(words[1]))
        if verb == "target":
            return 1.0 + self.threat(int(words[1]) - 1) / 100
        if verb == "copy":
            return self._copy_value(int(words[1]) - 1)
        if verb == "use":
            return ACTIVITY["sarthi"]
        return 0.0  # decline

    def _copy_value(self, seat: Seat) -> float:
        """R6: what copying ``seat``'s revealed card would be worth."""
        for reveal in self.view.revealed:
            if reveal.seat == seat:
                return self.activity(reveal.card.kind)
        return 0.0


class SangramBaseline:
    """Card-by-card scoring from the seat's own view (hidden information)."""

    name = "sangram-baseline"

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]
        table = _Table(engine.view(state, seat), seat)
        texts = [engine.describe(state, seat, a) for a in actions]
        return actions[pick_best(range(len(actions)), lambda i: table.score(texts[i]), rng)]
