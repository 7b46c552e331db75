"""The automatic-player interface and the uniform-random fallback.

An automatic player picks one legal action for a seat.  It is pure: no I/O,
no clock, no randomness of its own.  Everything random comes from the
``rng`` the caller passes in, so the same state, seat and rng seed always
give the same action.

Hidden information: a player may use only what its seat may see.  That is
its legal actions (with their texts, ``engine.describe``, and labels,
``engine.label``), its own view (``engine.view(state, seat)``) and the public
view (``engine.view(state, None)``).  It never reads the state itself in a
game that hides anything, and never applies an action to look at the result
where that result could reveal a secret (a commit that triggers a reveal).
Only in a game of full information (Chaturaji, Kauda Baji) may it apply its
own action and look at the outcome through its own view.
``tests/players/test_players.py`` checks this on "twin" states that differ
only in what the seat may not see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.engines.core import CHANCE, Engine, NotYourTurn, Seat

T = TypeVar("T")

#: Scores closer than this count as equal (ties are broken with the rng).
EPSILON = 1e-9


@runtime_checkable
class AutomaticPlayer(Protocol):
    """Chooses for a seat that has no human at the controls.

    The service calls :meth:`choose` for whichever seat it must act for: a
    player who timed out, resigned, was kicked or forfeited, also in a
    simultaneous phase where several seats are awaited.
    """

    name: str
    """A short name for logs and reports (``random``, ``kauda_baji-baseline``)."""

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        """One of ``engine.legal_actions(state, seat)``.

        Deterministic given ``rng``'s state; never mutates ``state``.  Raises
        :class:`~bot.engines.core.NotYourTurn` when ``seat`` has nothing to
        choose (it is not to move, or is the chance player).
        """
        ...


def legal_actions(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> list[Any]:
    """``seat``'s legal actions, refusing the chance seat and a seat with none."""
    if seat == CHANCE:
        raise NotYourTurn("Automatic players never act for chance.")
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise NotYourTurn("That seat has nothing to choose now.")
    return actions


def pick_best(options: Sequence[T], score: Callable[[T], float], rng: random.Random) -> T:
    """The option with the highest score; ties are broken uniformly by ``rng``.

    The rng is used only when there is a tie, and always the same way for the
    same scores, so the choice depends on nothing but the scores and the rng.
    """
    scores = [score(option) for option in options]
    best = max(scores)
    top = [option for option, s in zip(options, scores, strict=True) if s >= best - EPSILON]
    if len(top) == 1:
        return top[0]
    return top[rng.randrange(len(top))]


class RandomPlayer:
    """Uniform over the legal actions: the fallback for a game without a
    baseline, and the yardstick the baselines are measured against."""

    name = "random"

    def choose(
        self, engine: Engine[Any, Any, Any], state: Any, seat: Seat, rng: random.Random
    ) -> Any:
        actions = legal_actions(engine, state, seat)
        return actions[rng.randrange(len(actions))]
