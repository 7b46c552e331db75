"""Ratings: OpenSkill's Plackett-Luce model over a finished game (issue 11).

Pure: no Discord, no storage access, no clock, no randomness.  The same
ratings and the same game always give the same result.  The numbers are
OpenSkill's (:class:`openskill.models.PlackettLuce` with its default
parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300), never hand-written.

One rating per player per game per server: the caller reads the ratings of
the game's players (``storage.ratings.RatingStore.ratings``), calls
:func:`rate`, and records the result with ``RatingStore.apply``, which rates a
game once only and refuses a change computed from an outdated rating::

    stored = await store.ratings(guild_id, game.engine, game.players)
    changes = rate({u: Rating.of(r) for u, r in stored.items()}, game)
    await store.apply(game_id, guild_id, game.engine, changes.values(), now)

The rules chosen here:

- **Places.** The ranking is the game's :class:`Outcome` ranking, best first.
  Seats grouped in one place share it: OpenSkill gets equal ranks for them
  (a tie), and a draw between everybody is one place.
- **Teams.** :func:`sides` says which seats play together: Martian
  Chaturaji's partnerships (R1, R13), one seat per side in every other game.
  An OpenSkill team is the seats of one side that share one place.  The
  engine ranks a partnership's seats together, so normally a team is a whole
  partnership.  If the stored outcome moved a seat that passed to the
  automatic player to the bottom (``ranked_with_departures``), that seat
  becomes a team of its own in its last place, and its partner keeps the
  partnership's place.
- **Seats taken over by the automatic player** count for the player who left
  them: the seat's user id is still theirs, so they are rated by the seat's
  place (last, once the service has moved departures to the bottom).
- **The automatic player itself is never rated**: a seat without a user
  (``None``) is left out, and so is a team with no user left; if fewer than
  two teams remain, nobody is rated.
- **Unrated games** (``rated=False``, the lobby option) rate nobody.
- **Wins.** A player wins when their team holds the ranking's first place
  and some rated team does not (a draw between everybody is not a win).
- **Leaderboards** use the conservative estimate :func:`ordinal`,
  ``mu - 3 sigma`` (OpenSkill's ``ordinal()``).

**The rating players see** (issue 31): the ordinal of a newcomer is 0 and
their first games move it to 3, 2, -3, -4, numbers that read as nothing and
can be negative.  So players see :func:`shown_rating`, an Elo-like scale
drawn from the ordinal: ``1000 + 40 * ordinal``, never below 0.  A newcomer
(mu 25, sigma 25/3: ordinal 0) is 1000, a player known to be exactly the
model's average (mu 25, sigma 0) 2000, and the order is the ordinal's, so
the leaderboard's order and its numbers agree; in practice the ordinal
stays above -10, so no rating reaches 0.  A rating is **provisional** (shown
with a ``?``, as Lichess marks a rating whose deviation is still high)
until :data:`PROVISIONAL_GAMES` rated games: with OpenSkill's defaults the
first game moves a two-player newcomer's ordinal by about 5, and only from
the fifth on are the moves half that, sigma having fallen from 8.3 to about
6.4.  ``/rating`` still gives the model's own numbers, mu and sigma.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.engines.core import Outcome
from storage.ratings import RatingChange, RatingRecord, ordinal, trend

__all__ = [
    "CHATURAJI",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "MODEL",
    "PROVISIONAL_GAMES",
    "FinishedGame",
    "RatedTeam",
    "Rating",
    "ordinal",
    "provisional",
    "rate",
    "rating_words",
    "shown_points",
    "shown_rating",
    "sides",
    "teams",
    "trend",
]

#: The model every rating uses (OpenSkill's defaults).  Never change its
#: parameters on a running bot: stored ratings were computed with them.
MODEL: Final = PlackettLuce()
DEFAULT_MU: Final = MODEL.mu
DEFAULT_SIGMA: Final = MODEL.sigma

SHOWN_START: Final = 1000
"""The rating a newcomer sees (ordinal 0)."""
SHOWN_PER_POINT: Final = 40
"""Shown rating points per point of the ordinal: the model's average,
known exactly (ordinal 25), is 2000."""
PROVISIONAL_GAMES: Final = 5
"""Rated games before a rating loses its ``?`` (see the module's docstring)."""


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players see: ``1000 + 40 * (mu - 3 sigma)``, rounded, at least 0."""
    return max(0, round(SHOWN_START + SHOWN_PER_POINT * ordinal(mu, sigma)))


def shown_points(change: float) -> int:
    """A change of the ordinal (a game's, a trend) in shown rating points."""
    return round(SHOWN_PER_POINT * change)


def provisional(games: int) -> bool:
    """Fewer than :data:`PROVISIONAL_GAMES` rated games: the rating is a first guess."""
    return games < PROVISIONAL_GAMES


def rating_words(mu: float, sigma: float, games: int) -> str:
    """``1184``, or ``1184?`` while provisional."""
    return f"{shown_rating(mu, sigma)}{'?' if provisional(games) else ''}"


#: The engine whose seats play in partnerships.
CHATURAJI: Final = "chaturaji"

# R13: the seat commanding Blue, Red, Green and Yellow; Blue+Green (armies 0
# and 2) and Red+Yellow (1 and 3) are the partnerships (R1).
_CHATURAJI_SIDES: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    2: ((0,), (1,)),  # each player commands a whole partnership
    3: ((0,), (1, 2)),  # seat 0 commands Blue and Green; seats 1 and 2 are partners
    4: ((0, 2), (1, 3)),
}


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game on one server."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    #: Rated games played before (the stored rating's version).
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma``."""
        return ordinal(self.mu, self.sigma)

    @classmethod
    def of(cls, record: RatingRecord | None) -> Rating:
        """The stored rating, or a new player's (None)."""
        if record is None:
            return cls()
        return cls(mu=record.mu, sigma=record.sigma, games=record.games)


@dataclass(frozen=True)
class FinishedGame:
    """What rating needs to know about a finished game."""

    engine: str
    #: The user id of each seat; None for a seat no user ever held (the
    #: automatic player), which is never rated.  A seat the automatic player
    #: took over keeps the id of the player who left it.
    users: tuple[int | None, ...]
    #: The outcome's places, best first; seats sharing a place are grouped.
    ranking: tuple[frozenset[int], ...]
    #: False: the lobby opted out (``rated`` option), and nobody is rated.
    rated: bool = True

    @classmethod
    def of(
        cls,
        engine: str,
        users: Sequence[int | None],
        outcome: Outcome,
        *,
        rated: bool = True,
    ) -> FinishedGame:
        return cls(engine=engine, users=tuple(users), ranking=outcome.ranking, rated=rated)

    @property
    def players(self) -> tuple[int, ...]:
        """The user ids that can be rated, in seat order."""
        return tuple(u for u in self.users if u is not None)


@dataclass(frozen=True)
class RatedTeam:
    """One OpenSkill team: the users of one side sharing one place."""

    #: Index of the place in the ranking (0 = first).
    place: int
    #: User ids, in seat order.
    users: tuple[int, ...]


def sides(engine_name: str, num_players: int) -> tuple[tuple[int, ...], ...]:
    """The seats playing together, side by side: partnerships in Martian
    Chaturaji (R1, R13), one seat per side in every other game."""
    if num_players < 1:
        raise ValueError(f"a game needs players, got {num_players}")
    if engine_name == CHATURAJI:
        try:
            return _CHATURAJI_SIDES[num_players]
        except KeyError:
            raise ValueError(
                f"Martian Chaturaji is played by 2 to 4 players, not {num_players}"
            ) from None
    return tuple((seat,) for seat in range(num_players))


def _places(game: FinishedGame) -> dict[int, int]:
    """Seat -> index of its place, checking the ranking names every seat once."""
    n = len(game.users)
    place_of: dict[int, int] = {}
    for index, group in enumerate(game.ranking):
        if not group:
            raise ValueError(f"place {index + 1} of the ranking is empty")
        for seat in sorted(group):
            if not 0 <= seat < n:
                raise ValueError(f"the ranking names seat {seat}, but the game has {n} seats")
            if seat in place_of:
                raise ValueError(f"the ranking names seat {seat} twice")
            place_of[seat] = index
    if len(place_of) != n:
        missing = sorted(set(range(n)) - set(place_of))
        raise ValueError(f"the ranking leaves out seats {missing}")
    players = game.players
    if len(set(players)) != len(players):
        raise ValueError(f"a user holds two seats: {list(game.users)}")
    return place_of


def teams(game: FinishedGame) -> list[RatedTeam]:
    """The OpenSkill teams of a finished game, best place first (then by seat).

    Empty for an unrated game or when fewer than two teams have a user.
    """
    place_of = _places(game)
    if not game.rated:
        return []
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for side in sides(game.engine, len(game.users)):
        for place in sorted({place_of[seat] for seat in side}):
            seats = [seat for seat in side if place_of[seat] == place]
            users = tuple(u for u in (game.users[s] for s in seats) if u is not None)
            if users:
                found.append((place, min(seats), users))
    if len(found) < 2:
        return []
    found.sort()
    return [RatedTeam(place=place, users=users) for place, _, users in found]


def rate(before: Mapping[int, Rating], game: FinishedGame) -> dict[int, RatingChange]:
    """Each rated player's change, by user id ({} when nobody is rated).

    ``before`` holds the players' current ratings; a player missing from it
    is new and starts from :class:`Rating` ``()``.
    """
    rated = teams(game)
    if not rated:
        return {}
    old = [[before.get(u, Rating()) for u in team.users] for team in rated]
    result = MODEL.rate(
        [[PlackettLuceRating(r.mu, r.sigma) for r in team] for team in old],
        ranks=[float(team.place) for team in rated],
    )
    contested = any(team.place > 0 for team in rated)
    changes: dict[int, RatingChange] = {}
    for team, ratings_before, ratings_after in zip(rated, old, result, strict=True):
        won = contested and team.place == 0
        for user, was, now in zip(team.users, ratings_before, ratings_after, strict=True):
            changes[user] = RatingChange(
                user_id=user,
                mu_before=was.mu,
                sigma_before=was.sigma,
                mu_after=float(now.mu),
                sigma_after=float(now.sigma),
                place=team.place + 1,
                won=won,
                games_before=was.games,
            )
    return changes
