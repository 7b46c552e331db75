"""Mahabharata baseline (docs/rules/mahabharata.md).

Screens and supplies are secret (R14), so the baseline never applies an
action to look ahead.  It reads its own view: the leader cards with every
seat's tokens (public), the dice, and its own screen and supply.  Each pick
(R8) is scored:

- **A token on a leader** by how it changes the seat's lead in victory
  points from leaders, with R12's rule for who wins a card (so it takes a
  card nobody holds, breaks an opponent's sole lead, or secures its own), a
  little for a larger margin on the card, less a little for spending a token
  its Pati still needs.
- **A token behind the screen** by how much closer it brings a Pati (R11),
  worth 7 VP: each missing part (chariot, elephant, cavalry summing to 3,
  infantry summing to 5) is given a chance of being completed in time, and
  a token that completes a part (or brings a sum within reach of more die
  faces) raises the product of those chances.
- Taking a die and placing nothing (R9) is forced; any such die will do.

Announcing (R10) ends the game, so it announces only when it would win even
if every opponent with enough tokens behind their screen held a Pati.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.engines.core import Engine, Seat
from bot.engines.mahabharata_rules import leader_winner
from bot.engines.mahabharata_views import LeaderView, MahabharataView
from bot.players.base import legal_actions, pick_best

PATI_VP = 7
#: R11: the icons each cavalry and infantry subset must show.
CAVALRY_TARGET = 3
INFANTRY_TARGET = 5
#: The fewest tokens that can make a Pati (chariot, elephant, cav3, inf5).
PATI_MIN_TOKENS = 4
#: Chance given to completing a missing chariot or elephant in time.
SINGLE_CHANCE = 0.6
#: Chance given to a missing sum, plus this per token kind that would complete it.
SUM_BASE = 0.3
SUM_PER_KIND = 0.12
#: Per token of margin on a card (clipped to two), in VP of that card.
MARGIN = 0.15
#: Spending on a leader a token kind the Pati still needs, in VP.
TOKEN_COST = 0.4


def _class_icons(kind: str) -> tuple[str, int]:
    """R1: a token kind's class (C, E, H, I) and icons."""
    if kind == "chariot":
        return "C", 1
    if kind == "elephant":
        return "E", 1
    return ("H" if kind.startswith("cav") else "I"), int(kind[3:])


def _sums(icons: Sequence[int], target: int) -> set[int]:
    """R11: every total up to ``target`` some subset of ``icons`` shows."""
    reach = {0}
    for n in icons:
        reach |= {s + n for s in reach if s + n <= target}
    return reach


def pati_chance(screen: Sequence[str], supply: dict[str, int]) -> float:
    """A rough chance that ``screen`` becomes a complete Pati in time."""
    chance = 1.0
    for cls in ("C", "E"):
        if not any(_class_icons(k)[0] == cls for k in screen):
            chance *= SINGLE_CHANCE
    for cls, target in (("H", CAVALRY_TARGET), ("I", INFANTRY_TARGET)):
        icons = [n for k in screen for c, n in [_class_icons(k)] if c == cls]
        reach = _sums(icons, target)
        if target in reach:
            continue
        helpful = sum(
            1
            for k, left in supply.items()
            if left > 0 and _class_icons(k)[0] == cls and target - _class_icons(k)[1] in reach
        )
        chance *= min(0.95, SUM_BASE + SUM_PER_KIND * helpful)
    return chance


def _needed(screen: Sequence[str], kind: str) -> bool:
    """Whether ``kind`` behind the screen would bring the Pati closer."""
    cls, icons = _class_icons(kind)
    if cls in ("C", "E"):
        return not any(_class_icons(k)[0] == cls for k in screen)
    target = CAVALRY_TARGET if cls == "H" else INFANTRY_TARGET
    have = [n for k in screen for c, n in [_class_icons(k)] if c == cls]
    reach = _sums(have, target)
    return target not in reach and any(s + icons <= target for s in reach)


def leader_points(leaders: Sequence[LeaderView], influence: Sequence[Sequence[int]]) -> list[int]:
    """Each seat's VP from leaders, with these influences (R12)."""
    points = [0] * len(influence[0])
    for leader, counts in zip(leaders, influence, strict=True):
        winner = leader_winner(counts)
        if winner is not None:
            points[winner] += leader.vp
    return points


def points_margin(points: Sequence[int], me: Seat) -> float:
    """``me``'s points against the leading opponent and the field."""
    others = [p for s, p in enumerate(points) if s != me]
    return points[me] - (max(others) + sum(others) / len(others)) / 2


def _lead(counts: Sequence[int], me: Seat) -> int:
    """``me``'s influence on a card over the best opponent's, clipped to +-2."""
    best = max(c for s, c in enumerate(counts) if s != me)
    return max(-2, min(2, counts[me] - best))


class MahabharataBaseline:
    """Greedy picks by leader points and Pati progress (own view only)."""

    name = "mahabharata-baseline"

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]
        view: MahabharataView = engine.view(state, seat)
        texts = [engine.describe(state, seat, a) for a in actions]
        if "announce" in texts:
            return actions[texts.index(self._announce_or_pass(view, seat))]
        screen = view.me.screen if view.me is not None else ()
        supply = dict(view.me.supply) if view.me is not None else {}
        influence = [list(leader.influence) for leader in view.leaders]
        before_points = points_margin(leader_points(view.leaders, influence), seat)
        before_pati = pati_chance(screen, supply)
        faces = {d.index: d.face for d in view.dice}
        keys = {
            "".join(ch for ch in ld.name.lower() if ch.isalnum()): i
            for i, ld in enumerate(view.leaders)
        }

        def score(text: str) -> float:
            words = text.split()
            face = faces.get(int(words[0][1:]))
            if words[1] == "none" or face is None:
                return 0.0
            if words[1] == "screen":
                after = {**supply, face: supply.get(face, 0) - 1}
                return PATI_VP * (pati_chance((*screen, face), after) - before_pati)
            name, _ = words[1].split(".")
            kind = words[2] if len(words) > 2 else face
            pos = keys[name]
            counts = influence[pos]
            changed = [*counts]
            changed[seat] += 1
            trial = [*influence]
            trial[pos] = changed
            gain = points_margin(leader_points(view.leaders, trial), seat) - before_points
            gain += MARGIN * view.leaders[pos].vp * (_lead(changed, seat) - _lead(counts, seat))
            if _needed(screen, kind):
                gain -= TOKEN_COST
            return gain

        index = pick_best(range(len(actions)), lambda i: score(texts[i]), rng)
        return actions[index]

    @staticmethod
    def _announce_or_pass(view: MahabharataView, seat: Seat) -> str:
        """R10: announce only when ahead even against every possible Pati."""
        points = leader_points(view.leaders, [leader.influence for leader in view.leaders])
        mine = points[seat] + PATI_VP
        for player in view.players:
            if player.seat == seat:
                continue
            theirs = points[player.seat]
            if player.screen_count >= PATI_MIN_TOKENS:
                theirs += PATI_VP
            if theirs >= mine:
                return "pass"
        return "announce"
