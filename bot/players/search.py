"""Search-based automatic players: Information-Set Monte Carlo tree search.

One search serves every game (Cowling, Powley & Whitehouse 2012, "single
observer" ISMCTS), through the engine contract alone:

- **Determinization.**  Each iteration starts from a state the searching
  seat cannot tell apart from the real one: a game that hides things deals
  its hidden part afresh (``Determinizes.determinize``, which reads only what
  the seat may see); a game of full information is searched as it is.  So a
  decision never depends on anything outside the seat's information: the
  twin tests in ``tests/players/test_players.py`` check it.
- **Chance.**  Dice, shells and draws are sampled as the chance player
  moves, and the tree's nodes stand for the players' actions only (an
  *open-loop* tree), so a node's value averages over the rolls that can
  follow.
- **Simultaneous and hidden moves.**  Seats are searched one after another.
  An action another seat takes out of the searcher's sight (a face-down
  commit) is chosen by that seat's own statistics but leads to one shared
  child, so the searcher's later choices cannot depend on which it was.
- **Several players.**  Every node keeps a value per seat and each seat picks
  what is best for itself (max^n); the values come from the final ranking,
  so partners, who share a place, share their value.
- **Budget.**  A level is a number of iterations, never a time: the same
  state, seat and rng give the same action on any machine.  Rollouts are
  random and cut off after ``rollout_moves`` player moves, where the game's
  ``estimate`` (or an even split) scores the position.

It stays pure like every player: no I/O, no clock, randomness only from the
``rng`` passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from bot.engines.core import CHANCE, Determinizes, Engine, Outcome, Seat, sample_chance
from bot.engines.playouts import play_out
from bot.players.base import AutomaticPlayer, legal_actions

Estimate = Callable[[Engine[Any, Any, Any], Any], Sequence[float]]
"""A position's worth to each seat, in [0, 1], for a rollout cut off before
the end (a determinized state: it may read the whole state)."""

HIDDEN: Hashable = ("hidden",)
"""The key of the one child every unseen action of another seat leads to."""


def place_values(outcome: Outcome, players: int) -> list[float]:
    """Each seat's value from the final ranking: 1 for first, 0 for last,
    evenly between; seats sharing a place share the mean of its values."""
    values = [0.0] * players
    if players < 2:
        return [1.0] * players
    position = 0
    for place in outcome.ranking:
        size = len(place)
        mean = sum(1 - (position + k) / (players - 1) for k in range(size)) / size
        for seat in place:
            if 0 <= seat < players:
                values[seat] = mean
        position += size
    return values


class _Node:
    """Statistics of one action (the edge into this node) in the tree."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: Seat, players: int) -> None:
        self.seat = seat
        """Who chose the action leading here."""
        self.visits = 0
        self.avail = 0
        """How often the action was legal when its parent was visited (ISUCT)."""
        self.total = [0.0] * players
        self.children: dict[Hashable, _Node] = {}
        """By action: actions are immutable values, so their own keys."""


class SearchPlayer:
    """An automatic player that searches ``iterations`` times per decision."""

    def __init__(
        self,
        name: str,
        *,
        iterations: int,
        rollout_moves: int = 200,
        exploration: float = 0.7,
        estimate: Estimate | None = None,
        defer: Callable[[Engine[Any, Any, Any], Any, Seat], bool] | None = None,
        baseline: AutomaticPlayer | None = None,
    ) -> None:
        self.name = name
        self.defer = defer
        """Decisions the search leaves to ``baseline`` (a secret set-up,
        where no estimate can tell one arrangement from another)."""
        self.baseline = baseline
        self.iterations = iterations
        self.rollout_moves = rollout_moves
        self.exploration = exploration
        self.estimate = estimate

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]
        if self.defer is not None and self.baseline is not None and self.defer(engine, state, seat):
            return self.baseline.choose(engine, state, seat, rng)
        players = _players(engine, state)
        root = _Node(seat, players)
        for _ in range(self.iterations):
            self._iterate(engine, state, seat, root, players, rng)
        best: tuple[int, float] | None = None
        chosen = actions[0]
        for action in actions:
            child = root.children.get(action)
            if child is None:
                continue
            score = (child.visits, child.total[seat] / max(1, child.visits))
            if best is None or score > best:
                best, chosen = score, action
        return chosen

    # -- one iteration -------------------------------------------------------

    def _iterate(
        self,
        engine: Engine[Any, Any, Any],
        state: Any,
        seat: Seat,
        root: _Node,
        players: int,
        rng: random.Random,
    ) -> None:
        if isinstance(engine, Determinizes):
            state = engine.determinize(state, seat, rng.random)
        node = root
        path = [root]
        expanded = False
        values: list[float] | None = None
        while True:
            outcome = engine.outcome(state)
            if outcome is not None:
                values = place_values(outcome, players)
                break
            movers = engine.to_move(state)
            if CHANCE in movers:
                state = engine.apply(
                    state, CHANCE, sample_chance(engine.chance_outcomes(state), rng.random())
                )
                continue
            # The searching seat acts first in a simultaneous phase (its own
            # choice is the one being made); then whoever the game waits on,
            # in seat order (one who already committed may still change its
            # mind, but does not hold the game up).
            if node is root:
                actor = seat
            else:
                awaited = engine.waiting_on(state) & movers
                actor = min(awaited) if awaited else min(movers)
            actions = engine.legal_actions(state, actor)
            if actor != seat and engine.private_to(state, actor, actions[0]) not in (None, seat):
                # Unseen by the searcher: one child, whatever was chosen.
                action = actions[rng.randrange(len(actions))]
                child = node.children.get(HIDDEN)
                if child is None:
                    child = node.children[HIDDEN] = _Node(actor, players)
                    expanded = True
            else:
                action, child, expanded = self._select(node, actor, actions, players, rng)
            state = engine.apply(state, actor, action)
            node = child
            path.append(node)
            if expanded:
                break
        if values is None:
            values = self._rollout(engine, state, players, rng)
        for visited in path:
            visited.visits += 1
            total = visited.total
            for s in range(players):
                total[s] += values[s]

    def _select(
        self,
        node: _Node,
        actor: Seat,
        actions: Sequence[Any],
        players: int,
        rng: random.Random,
    ) -> tuple[Any, _Node, bool]:
        """ISUCT: try an untried action first, else the best upper bound,
        counting only the visits in which each action was legal."""
        children = node.children
        untried = []
        for action in actions:
            child = children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
        if untried:
            action = untried[rng.randrange(len(untried))]
            child = children[action] = _Node(actor, players)
            child.avail = 1
            return action, child, True
        best = -math.inf
        picked: Any = actions[0]
        c = self.exploration
        for action in actions:
            child = children[action]
            bound = child.total[actor] / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if bound > best:
                best, picked = bound, action
        return picked, children[picked], False

    def _rollout(
        self, engine: Engine[Any, Any, Any], state: Any, players: int, rng: random.Random
    ) -> list[float]:
        # The engines' own loop (compiled with them): the same draws as a
        # loop here, at a fraction of the cost.
        state, _, _ = play_out(engine, state, rng.random, rng.randrange, self.rollout_moves)
        outcome = engine.outcome(state)
        if outcome is not None:
            return place_values(outcome, players)
        if self.estimate is not None:
            return list(self.estimate(engine, state))
        return [0.5] * players


def _players(engine: Engine[Any, Any, Any], state: Any) -> int:
    """The number of seats, from the public view."""
    view = engine.view(state, None)
    for name in ("num_players", "players", "seats"):
        value = getattr(view, name, None)
        if isinstance(value, int):
            return value
        if isinstance(value, Sequence) and not isinstance(value, str):
            return len(value)
    raise TypeError(f"{engine.name}: cannot tell how many players a view has")
