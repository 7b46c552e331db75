"""Points, tie-breaks and the ordered standings table of a tournament.

Pure and deterministic: results in, rows out. Every table, two-sided or a pod,
is scored the same way: places turn into placement points (1/0 at two seats,
so a draw shares them as 1/2 each; 3/2/1/0 at four), tied places share the
average of the points they cover, and a bye is worth a win at a table of the
tournament's size.

Arithmetic is exact (fractions) so that equal totals compare equal whatever the
order they were added in; rows carry floats for display.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Player:
    """A tournament entrant: the rating seeds brackets and breaks the last ties."""

    id: int
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class Result:
    """How one table of one round ended.

    ``seats`` are player ids in seat order (seat 0 first), as paired.
    ``places[i]`` is the place of ``seats[i]``: 1 is best, equal numbers tie.
    Only the order matters, so (1, 1, 3, 4) and (1, 1, 2, 3) mean the same.
    A table of one seat is a bye.
    """

    round: int
    seats: tuple[int, ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"round numbers start at 1, not {self.round}")
        if not self.seats or len(self.seats) != len(self.places):
            raise ValueError("a result needs one place per seat")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"a player sits twice at one table: {self.seats}")
        if any(place < 1 for place in self.places):
            raise ValueError(f"places start at 1: {self.places}")

    @classmethod
    def win(cls, round: int, seats: tuple[int, int], winner: int) -> Result:
        """A decided two-player game; ``seats`` in seat order."""
        if winner not in seats:
            raise ValueError(f"winner {winner} did not play at {seats}")
        return cls(round, seats, tuple(1 if player == winner else 2 for player in seats))

    @classmethod
    def draw(cls, round: int, seats: tuple[int, ...]) -> Result:
        """A game where everyone shares first place."""
        return cls(round, seats, (1,) * len(seats))

    @classmethod
    def bye(cls, round: int, player: int) -> Result:
        return cls(round, (player,), (1,))

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    def place_of(self, player: int) -> int:
        """The competition place (1 + how many did strictly better), so ties share."""
        mine = self.places[self.seats.index(player)]
        return 1 + sum(place < mine for place in self.places)


def _default_placement_points(size: int) -> tuple[Fraction, ...]:
    # size-1 down to 0: 1/0 for a duel (so win 1, draw 1/2), 3/2/1/0 at four.
    return tuple(Fraction(size - 1 - position) for position in range(size))


@dataclass(frozen=True)
class Scoring:
    """How places turn into points.

    ``table_size`` is the tournament's table size (2 for two-sided games);
    ``placement_points`` overrides the points for a table of a given size
    (best place first); ``bye_points`` defaults to first place at a table of
    ``table_size``, so 1 in a two-sided tournament, as a win.
    """

    table_size: int = 2
    placement_points: Mapping[int, Sequence[float]] = field(default_factory=dict, hash=False)
    bye_points: float | None = None

    def __post_init__(self) -> None:
        if self.table_size < 2:
            raise ValueError(f"a table seats at least two, not {self.table_size}")
        for size, points in self.placement_points.items():
            if len(points) != size:
                raise ValueError(f"a table of {size} needs {size} placement points: {points}")

    def points_for_places(self, size: int) -> tuple[Fraction, ...]:
        """Points for each place at a table of ``size``, best first."""
        if size in self.placement_points:
            return tuple(Fraction(points) for points in self.placement_points[size])
        return _default_placement_points(size)

    def bye(self) -> Fraction:
        if self.bye_points is not None:
            return Fraction(self.bye_points)
        return self.points_for_places(self.table_size)[0]

    def points(self, result: Result) -> dict[int, Fraction]:
        """Each seated player's points from one result; tied places share the average."""
        if result.is_bye:
            return {result.seats[0]: self.bye()}
        table = self.points_for_places(len(result.seats))
        ordered = sorted(range(len(result.seats)), key=lambda seat: result.places[seat])
        points: dict[int, Fraction] = {}
        start = 0
        while start < len(ordered):
            end = start
            place = result.places[ordered[start]]
            while end < len(ordered) and result.places[ordered[end]] == place:
                end += 1
            share = sum(table[start:end], Fraction(0)) / (end - start)
            for seat in ordered[start:end]:
                points[result.seats[seat]] = share
            start = end
        return points


class Tiebreak(StrEnum):
    """Tie-breaks, applied in the order asked, after points.

    Byes count for none of them: a bye has no opponent.
    """

    #: Sum of the points of every opponent met (at a pod: everyone at the table).
    BUCHHOLZ = "buchholz"
    #: Sum over opponents of (1 beaten, 1/2 tied, 0 lost) times their points.
    SONNEBORN_BERGER = "sonneborn_berger"
    #: Sum over tables of the mean points of the others at the table; at two
    #: seats it equals Buchholz, and tables of different sizes weigh the same.
    OPPONENTS_POINTS = "opponents_points"
    #: Mean competition place over played tables; lower is better; ``inf``
    #: for a player who has played none.
    AVERAGE_PLACE = "average_place"


def default_tiebreaks(table_size: int) -> tuple[Tiebreak, ...]:
    """Buchholz and Sonneborn-Berger for two-sided games; opponents' points and places for pods."""
    if table_size == 2:
        return (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
    return (Tiebreak.OPPONENTS_POINTS, Tiebreak.AVERAGE_PLACE)


def format_tiebreaks(format: str, table_size: int) -> tuple[Tiebreak, ...]:
    """The tie-breaks of a tournament of ``format`` (``"swiss"``,
    ``"round_robin"``, ...): :func:`default_tiebreaks`, but a round robin's
    have no Buchholz nor opponents' points.  When everyone meets everyone,
    a player's opponents are everybody else, so those sums are the same
    total less the player's own points: equal for everyone tied, they break
    no tie (issue 31).  Sonneborn-Berger (whom you beat) and the average
    place still do."""
    if format != "round_robin":
        return default_tiebreaks(table_size)
    sums = (Tiebreak.BUCHHOLZ, Tiebreak.OPPONENTS_POINTS)
    return tuple(kind for kind in default_tiebreaks(table_size) if kind not in sums)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the standings table."""

    rank: int
    player: int
    points: float
    tiebreaks: tuple[tuple[Tiebreak, float], ...]
    games: int
    byes: int
    rating: float

    def tiebreak(self, kind: Tiebreak) -> float:
        for name, value in self.tiebreaks:
            if name == kind:
                return value
        raise KeyError(kind)


def total_points(results: Iterable[Result], scoring: Scoring) -> dict[int, Fraction]:
    """Every player's points over ``results`` (players with none are absent)."""
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for result in results:
        for player, points in scoring.points(result).items():
            totals[player] += points
    return dict(totals)


def _tiebreak_value(
    kind: Tiebreak, player: int, tables: Sequence[Result], totals: Mapping[int, Fraction]
) -> Fraction | None:
    """Exact value, or None for an average place with no table to average."""
    if kind is Tiebreak.AVERAGE_PLACE:
        if not tables:
            return None
        return Fraction(sum(table.place_of(player) for table in tables), len(tables))
    value = Fraction(0)
    for table in tables:
        others = [other for other in table.seats if other != player]
        if kind is Tiebreak.BUCHHOLZ:
            value += sum((totals.get(other, Fraction(0)) for other in others), Fraction(0))
        elif kind is Tiebreak.OPPONENTS_POINTS:
            mates = sum((totals.get(other, Fraction(0)) for other in others), Fraction(0))
            value += mates / len(others)
        else:
            mine = table.place_of(player)
            for other in others:
                theirs = table.place_of(other)
                share = Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else 0
                value += share * totals.get(other, Fraction(0))
    return value


def standings(
    players: Iterable[Player],
    results: Iterable[Result],
    scoring: Scoring | None = None,
    tiebreaks: Sequence[Tiebreak] | None = None,
) -> tuple[Standing, ...]:
    """The ordered standings table.

    Rows cover ``players`` and anyone else named in ``results`` (rating 0), so a
    dropped player still counts as an opponent. Order: points, then each
    tie-break (higher first, except average place: lower first), then rating
    (higher first), then id (lower first) so that no two rows ever tie; ranks
    are therefore 1, 2, 3, ... with no shared rank.
    """
    scoring = scoring or Scoring()
    if tiebreaks is None:
        tiebreaks = default_tiebreaks(scoring.table_size)
    results = list(results)
    ratings: dict[int, float] = {}
    for player in players:
        if player.id in ratings:
            raise ValueError(f"player {player.id} entered twice")
        ratings[player.id] = player.rating
    for result in results:
        for seat in result.seats:
            ratings.setdefault(seat, 0.0)
    totals = total_points(results, scoring)
    tables: dict[int, list[Result]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    for result in results:
        if result.is_bye:
            byes[result.seats[0]] += 1
        else:
            for seat in result.seats:
                tables[seat].append(result)

    def sort_key(player: int) -> tuple[object, ...]:
        key: list[object] = [-totals.get(player, Fraction(0))]
        for kind, value in exact[player]:
            if kind is Tiebreak.AVERAGE_PLACE:
                key.append((1, 0) if value is None else (0, value))
            else:
                key.append(-(value or 0))
        key.extend((-ratings[player], player))
        return tuple(key)

    exact = {
        player: [
            (kind, _tiebreak_value(kind, player, tables[player], totals)) for kind in tiebreaks
        ]
        for player in ratings
    }
    ordered = sorted(ratings, key=sort_key)
    return tuple(
        Standing(
            rank=rank,
            player=player,
            points=float(totals.get(player, Fraction(0))),
            tiebreaks=tuple(
                (kind, math.inf if value is None else float(value)) for kind, value in exact[player]
            ),
            games=len(tables[player]),
            byes=byes[player],
            rating=ratings[player],
        )
        for rank, player in enumerate(ordered, start=1)
    )
