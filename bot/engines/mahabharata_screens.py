"""Mahabharata's hidden screens for the search (issue 19): every other
seat's screen dealt afresh, as likely as the table's facts allow (R14).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence

from bot.engines.core import (
    Seat,
)
from bot.engines.mahabharata_components import _PATI_CACHE_SIZE, PATI
from bot.engines.mahabharata_rules import MahabharataRules, _Groups
from bot.engines.mahabharata_state import ANNOUNCE, OVER, PLACED_SCREEN, MahabharataState, _replace


class MahabharataScreens(MahabharataRules):
    """What a seat cannot see, dealt afresh (:class:`bot.engines.core.Determinizes`)."""

    def determinize(
        self, state: MahabharataState, seat: Seat, draw: Callable[[], float]
    ) -> MahabharataState:
        """A state ``seat`` cannot tell from ``state``: every other seat's
        screen dealt afresh (:class:`bot.engines.core.Determinizes`).

        R14: of another seat the public sees how many tokens are behind its
        screen and the tokens it put on leaders, nothing else.  Each kind
        starts with ``count`` tokens (R1), so per kind ``count - on leaders``
        tokens lie behind the screen or in supply; the screen's tokens are
        drawn from those without replacement and the rest is its supply.
        The latest pick, when it went behind a screen, shows its die's face
        (R14: the die is public), so that screen keeps one such token.  Read
        from ``state``: the board, the screen sizes, the latest pick and this
        seat's own screen and supply; never another screen or supply.

        In the announce phase who else is asked is hidden too (R10, R14: it
        tells who holds a complete Pati), so it is derived from the dealt
        screens by the rule that opens the phase: another seat is asked when
        its dealt screen holds a complete Pati and it has not announced (an
        announcement is public and ends its decision).  The deal fits what is
        public there (see :meth:`_deal_for_announce`).  ``seat``'s own
        decision stays as it is.  Nothing else is hidden: the leader deck is
        drawn by chance (R4) and dice are rolled by chance (R6), both at
        their turn.  A finished game shows every screen, so it is returned
        as it is.
        """
        n = state.num_players
        others = [s for s in range(n) if s != seat and any(state.screens[s])]
        if state.phase == OVER or not others:
            # An empty screen hides nothing: its supply is the public
            # ``count - on leaders`` of each kind (and it holds no Pati, so
            # in the announce phase its seat is not asked).
            return state
        k_count = len(self._token_counts)
        on_leaders = [[0] * k_count for _ in range(n)]
        for spaces in state.spaces:
            for owner, stack in spaces:
                if owner is not None:
                    row = on_leaders[owner]
                    for k in stack:
                        row[k] += 1
        last = state.last_pick
        shown = -1  # the seat whose latest pick went behind its screen
        shown_kind = 0
        if last is not None and last.placed == PLACED_SCREEN:
            shown = last.seat
            shown_kind = self.components.token_index[last.face]
        # Per other seat: the hidden tokens left to deal (R1, R14: behind the
        # screen or in supply), the tokens known to be behind the screen, and
        # how many more the screen holds (public, R14).
        deals: dict[Seat, tuple[list[int], list[int], int]] = {}
        for s in others:
            pool = [c - m for c, m in zip(self._token_counts, on_leaders[s], strict=True)]
            known = [0] * k_count
            size = sum(state.screens[s])
            if s == shown:
                known[shown_kind] = 1
                pool[shown_kind] -= 1
                size -= 1
            deals[s] = (pool, known, size)
        if state.phase == ANNOUNCE:
            dealt = self._deal_for_announce(state, seat, deals, draw)
        else:
            dealt = {s: self._deal_screen(*deals[s], draw) for s in others}
        screens = list(state.screens)
        supply = list(state.supply)
        for s, screen in dealt.items():
            pool, known, _ = deals[s]
            screens[s] = screen
            supply[s] = tuple(p + k - b for p, k, b in zip(pool, known, screen, strict=True))
        state = _replace(state, screens=tuple(screens), supply=tuple(supply))
        if state.phase != ANNOUNCE:
            return state
        # R10: the rule that opens the phase, on the dealt screens.
        asked = {
            s for s in others if not state.announced[s] and not self.pati_missing(state.screens[s])
        }
        return _replace(state, pending=frozenset(asked | (state.pending & {seat})))

    @staticmethod
    def _deal_screen(
        pool: list[int], known: list[int], size: int, draw: Callable[[], float]
    ) -> tuple[int, ...]:
        """``size`` tokens drawn from ``pool`` without replacement, plus the
        ``known`` ones."""
        tokens = [k for k, count in enumerate(pool) for _ in range(count)]
        screen = list(known)
        # Partial Fisher-Yates: ``size`` distinct tokens of the pool.
        m = len(tokens)
        for i in range(size):
            j = i + min(int(draw() * (m - i)), m - i - 1)
            tokens[i], tokens[j] = tokens[j], tokens[i]
            screen[tokens[i]] += 1
        return tuple(screen)

    def _deal_for_announce(
        self,
        state: MahabharataState,
        seat: Seat,
        deals: Mapping[Seat, tuple[list[int], list[int], int]],
        draw: Callable[[], float],
    ) -> dict[Seat, tuple[int, ...]]:
        """The other screens in the announce phase, dealt to fit what is
        public there: a seat that announced holds a complete Pati (R10), and
        while the phase lasts somebody is still asked, so when ``seat`` is
        not (any more), at least one other seat that has not announced holds
        one.  The deals that fit keep the odds they have among all deals
        (:meth:`_deal_screen`): whether a seat gets a Pati is drawn first,
        from its share of the deals that fit, then its screen as a whole
        from the weights of :class:`_PatiDeals`.
        """
        tables = {s: _PatiDeals(self, *deals[s]) for s in deals}
        free = [s for s in deals if not state.announced[s]]
        # Public: the phase is not over, so somebody still owes a decision.
        need_one = seat not in state.pending
        dealt: dict[Seat, tuple[int, ...]] = {}
        for s, table in tables.items():
            want: bool | None = None
            if state.announced[s]:
                want = True
            elif need_one:
                later = free[free.index(s) + 1 :]
                any_later = math.prod(tables[t].weight(None) for t in later)
                none_later = math.prod(tables[t].weight(False) for t in later)
                with_pati = table.weight(True) * any_later
                without = table.weight(False) * (any_later - none_later)
                if with_pati + without:
                    want = draw() * (with_pati + without) < with_pati
                    need_one = not want
            if want is not None and not table.weight(want):
                want = None  # only a state edited by hand gets here
            dealt[s] = table.sample(want, draw)
        return dealt

    def _class_deals(
        self, cls: str, target: int, pool: tuple[int, ...], known: tuple[int, ...]
    ) -> _Groups:
        """The draws of one icon class for a screen (R11), grouped by
        (tokens drawn, whether the class is complete): each as per-kind
        counts (the class's kinds in table order) with its number of ways,
        ``comb(pool, drawn)`` per kind, and the group's total."""
        key = (cls, pool, known)
        cached = self._class_deal_cache.get(key)
        if cached is not None:
            return cached
        c = self.components
        kinds = c.kinds_by_class[cls]
        mask = (1 << (target + 1)) - 1
        found: dict[tuple[int, bool], list[tuple[tuple[int, ...], int]]] = {}
        for drawn in itertools.product(*(range(p + 1) for p in pool)):
            ways = 1
            reachable = 1  # bit i set: a subset shows exactly i icons (R11)
            for k, p, b, x in zip(kinds, pool, known, drawn, strict=True):
                ways *= math.comb(p, x)
                for _ in range(b + x):
                    reachable = (reachable | (reachable << c.tokens[k].icons)) & mask
            found.setdefault((sum(drawn), bool(reachable >> target & 1)), []).append((drawn, ways))
        groups: _Groups = {
            key2: (tuple(x for x, _ in rows), tuple(w for _, w in rows), sum(w for _, w in rows))
            for key2, rows in found.items()
        }
        if len(self._class_deal_cache) >= _PATI_CACHE_SIZE:
            self._class_deal_cache.clear()  # bounded memory in a long-running bot
        self._class_deal_cache[key] = groups
        return groups


class _PatiDeals:
    """Every screen one seat may be dealt (``size`` tokens from ``pool``
    plus the ``known`` ones), weighted by its number of ways to be drawn, as
    :meth:`MahabharataEngine._deal_screen` draws them, and split by whether
    it holds a complete Pati (R11).  The four icon classes are judged apart
    (R11), so the deals are counted class by class."""

    def __init__(
        self, engine: MahabharataScreens, pool: list[int], known: list[int], size: int
    ) -> None:
        by_class = engine.components.kinds_by_class
        self._size = size
        self._known = known
        self._classes: list[tuple[tuple[int, ...], _Groups]] = []
        for cls, target, _ in PATI:
            kinds = by_class[cls]
            groups = engine._class_deals(
                cls, target, tuple(pool[k] for k in kinds), tuple(known[k] for k in kinds)
            )
            self._classes.append((kinds, groups))
        # _reach[i][(n, complete)]: ways to draw n tokens of the first i
        # classes, all of them complete or not.
        self._reach: list[dict[tuple[int, bool], int]] = [{(0, True): 1}]
        for _, groups in self._classes:
            step: dict[tuple[int, bool], int] = {}
            for (n, whole), ways in self._reach[-1].items():
                for (drawn, complete), (_, _, total) in groups.items():
                    if n + drawn <= size:
                        key = (n + drawn, whole and complete)
                        step[key] = step.get(key, 0) + ways * total
            self._reach.append(step)

    def weight(self, pati: bool | None) -> int:
        """Ways to deal the screen with a complete Pati (``True``), without
        (``False``) or either (``None``)."""
        final = self._reach[-1]
        return sum(final.get((self._size, p), 0) for p in (True, False) if pati in (None, p))

    def sample(self, pati: bool | None, draw: Callable[[], float]) -> tuple[int, ...]:
        """A screen drawn among those that fit ``pati`` (see :meth:`weight`),
        each with its number of ways; the classes are drawn last first."""
        final = self._reach[-1]
        wanted = [p for p in (True, False) if pati in (None, p)]
        whole = wanted[_choose([final.get((self._size, p), 0) for p in wanted], draw)]
        n = self._size
        screen = list(self._known)
        for i in range(len(self._classes) - 1, -1, -1):
            kinds, groups = self._classes[i]
            before = self._reach[i]
            steps: list[tuple[int, bool, bool]] = []
            weights: list[int] = []
            for (drawn, complete), (_, _, total) in groups.items():
                for earlier in (True, False):
                    ways = before.get((n - drawn, earlier), 0)
                    if ways and (earlier and complete) == whole:
                        steps.append((drawn, complete, earlier))
                        weights.append(ways * total)
            drawn, complete, whole = steps[_choose(weights, draw)]
            counts, ways_each, _ = groups[(drawn, complete)]
            for k, x in zip(kinds, counts[_choose(ways_each, draw)], strict=True):
                screen[k] += x
            n -= drawn
        return tuple(screen)


def _choose(weights: Sequence[int], draw: Callable[[], float]) -> int:
    """An index drawn with probability proportional to its weight."""
    r = draw() * sum(weights)
    last = 0
    for i, w in enumerate(weights):
        if w:
            if r < w:
                return i
            r -= w
            last = i
    return last  # only float rounding gets here
