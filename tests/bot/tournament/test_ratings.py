"""Ratings (issue 11): every update equals what OpenSkill's Plackett-Luce model
computes for the same result, called directly here with the same teams and
ranks; shared places, multiplayer rankings, Martian Chaturaji partnerships,
automatic seats, unrated games, determinism."""

from __future__ import annotations

import dataclasses
import math

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.chaturaji_board import OVER
from bot.engines.core import Outcome
from bot.tournament.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    FinishedGame,
    RatedTeam,
    Rating,
    rate,
    sides,
    teams,
    trend,
)
from storage.ratings import HistoryEntry, RatingChange, RatingRecord

TOLERANCE = 1e-9


def reference(
    team_ratings: list[list[tuple[float, float]]], ranks: list[float]
) -> list[list[tuple[float, float]]]:
    """OpenSkill itself: a fresh default model, teams in the order given."""
    model = PlackettLuce()
    result = model.rate(
        [[PlackettLuceRating(mu, sigma) for mu, sigma in team] for team in team_ratings],
        ranks=ranks,
    )
    return [[(p.mu, p.sigma) for p in team] for team in result]


def assert_matches(
    changes: dict[int, RatingChange],
    users: list[list[int]],
    expected: list[list[tuple[float, float]]],
) -> None:
    assert sorted(changes) == sorted(u for team in users for u in team)
    for team_users, team_expected in zip(users, expected, strict=True):
        for user, (mu, sigma) in zip(team_users, team_expected, strict=True):
            change = changes[user]
            assert math.isclose(change.mu_after, mu, rel_tol=0, abs_tol=TOLERANCE), user
            assert math.isclose(change.sigma_after, sigma, rel_tol=0, abs_tol=TOLERANCE), user


def ranking(*groups: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(g) for g in groups)


BEFORE = {
    100: Rating(31.2, 4.1, games=12),
    101: Rating(22.0, 6.5, games=3),
    102: Rating(),
    103: Rating(27.5, 2.9, games=40),
    104: Rating(18.3, 7.7, games=1),
}


def pair(user: int) -> tuple[float, float]:
    r = BEFORE.get(user, Rating())
    return (r.mu, r.sigma)


# ----------------------------------------------------------------- plain games


def test_two_player_win_equals_openskill() -> None:
    game = FinishedGame("artaban", (100, 101), ranking((1,), (0,)))
    changes = rate(BEFORE, game)
    # Seat order with ranks: seat 1 (user 101) won.
    assert_matches(changes, [[100], [101]], reference([[pair(100)], [pair(101)]], [1, 0]))
    assert changes[101].mu_after > changes[101].mu_before
    assert changes[100].mu_after < changes[100].mu_before
    assert (changes[101].place, changes[101].won) == (1, True)
    assert (changes[100].place, changes[100].won) == (2, False)
    assert changes[100].mu_before == 31.2 and changes[100].sigma_before == 4.1
    assert changes[100].games_before == 12 and changes[101].games_before == 3


def test_two_player_draw_is_a_tie_and_nobody_wins() -> None:
    game = FinishedGame("artaban", (100, 101), ranking((0, 1)))
    changes = rate(BEFORE, game)
    assert_matches(changes, [[100], [101]], reference([[pair(100)], [pair(101)]], [0, 0]))
    assert all(c.place == 1 and not c.won for c in changes.values())
    # A draw is not a loss for the weaker player: the underdog gains.
    assert changes[101].mu_after > changes[101].mu_before


@pytest.mark.parametrize(
    ("groups", "ranks"),
    [
        (((2,), (0,), (1,)), [1, 2, 0]),
        (((0,), (1,), (2,), (3,)), [0, 1, 2, 3]),
        (((3,), (1,), (0,), (2,)), [2, 1, 3, 0]),
        (((4,), (2,), (0,), (3,), (1,)), [2, 4, 1, 3, 0]),
    ],
    ids=["3-players", "4-players", "4-players-shuffled", "5-players"],
)
def test_multiplayer_rankings_equal_openskill(
    groups: tuple[tuple[int, ...], ...], ranks: list[float]
) -> None:
    users = [100 + seat for seat in range(len(ranks))]
    game = FinishedGame("sangram", tuple(users), ranking(*groups))
    changes = rate(BEFORE, game)
    assert_matches(changes, [[u] for u in users], reference([[pair(u)] for u in users], ranks))
    for seat, user in enumerate(users):
        assert changes[user].place == ranks[seat] + 1
        assert changes[user].won == (ranks[seat] == 0)


@pytest.mark.parametrize(
    ("groups", "ranks"),
    [
        (((0,), (1, 2), (3,)), [0, 1, 1, 2]),
        (((1, 3), (0, 2)), [1, 0, 1, 0]),
        (((4,), (0, 1, 2), (3,)), [1, 1, 1, 2, 0]),
        (((0, 1, 2, 3, 4),), [0, 0, 0, 0, 0]),
    ],
    ids=["middle-shared", "two-pairs", "three-share-second", "all-draw"],
)
def test_shared_places_are_ties(groups: tuple[tuple[int, ...], ...], ranks: list[float]) -> None:
    users = [100 + seat for seat in range(len(ranks))]
    game = FinishedGame("mahabharata", tuple(users), ranking(*groups))
    changes = rate(BEFORE, game)
    assert_matches(changes, [[u] for u in users], reference([[pair(u)] for u in users], ranks))
    everybody_first = all(r == 0 for r in ranks)
    for seat, user in enumerate(users):
        assert changes[user].place == ranks[seat] + 1
        assert changes[user].won == (ranks[seat] == 0 and not everybody_first)


def test_new_players_start_from_openskill_defaults() -> None:
    assert (Rating().mu, Rating().sigma) == (PlackettLuce().mu, PlackettLuce().sigma)
    assert (DEFAULT_MU, DEFAULT_SIGMA) == (25.0, 25.0 / 3.0)
    game = FinishedGame("kauda_baji", (7, 8, 9), ranking((0,), (1,), (2,)))
    changes = rate({}, game)
    default = (DEFAULT_MU, DEFAULT_SIGMA)
    assert_matches(changes, [[7], [8], [9]], reference([[default]] * 3, [0, 1, 2]))
    assert all(c.games_before == 0 for c in changes.values())


def test_a_series_of_games_chains_like_openskill() -> None:
    games = [
        ranking((0,), (1,), (2,)),
        ranking((2,), (0, 1)),
        ranking((1,), (2,), (0,)),
    ]
    ours: dict[int, Rating] = {}
    model = PlackettLuce()
    theirs = {u: model.rating() for u in (1, 2, 3)}
    for groups in games:
        changes = rate(ours, FinishedGame("sangram", (1, 2, 3), groups))
        ours = {
            u: Rating(c.mu_after, c.sigma_after, ours.get(u, Rating()).games + 1)
            for u, c in changes.items()
        }
        ranks = [float(next(i for i, g in enumerate(groups) if s in g)) for s in range(3)]
        result = model.rate([[theirs[1]], [theirs[2]], [theirs[3]]], ranks=ranks)
        theirs = {u: result[u - 1][0] for u in (1, 2, 3)}
    for u in (1, 2, 3):
        assert math.isclose(ours[u].mu, theirs[u].mu, rel_tol=0, abs_tol=TOLERANCE)
        assert math.isclose(ours[u].sigma, theirs[u].sigma, rel_tol=0, abs_tol=TOLERANCE)
        assert ours[u].games == 3


# ----------------------------------------------------------------- Martian Chaturaji


def test_sides_of_each_game() -> None:
    assert sides("chaturaji", 4) == ((0, 2), (1, 3))
    assert sides("chaturaji", 3) == ((0,), (1, 2))
    assert sides("chaturaji", 2) == ((0,), (1,))
    assert sides("sangram", 5) == ((0,), (1,), (2,), (3,), (4,))
    assert sides("artaban", 2) == ((0,), (1,))
    with pytest.raises(ValueError, match="2 to 4"):
        sides("chaturaji", 5)
    with pytest.raises(ValueError):
        sides("sangram", 0)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("winner", [0, 1])
def test_R13_sides_are_the_engines_partnerships(n: int, winner: int) -> None:
    """The engine's own outcome (R12) ranks exactly our sides, winners first."""
    engine = ChaturajiEngine()
    state = dataclasses.replace(engine.setup(n, {}), phase=OVER, winner=winner)
    outcome = engine.outcome(state)
    assert outcome is not None
    expected = sides("chaturaji", n)
    assert outcome.ranking == (frozenset(expected[winner]), frozenset(expected[1 - winner]))
    users = tuple(500 + s for s in range(n))
    game = FinishedGame.of("chaturaji", users, outcome)
    assert teams(game) == [
        RatedTeam(0, tuple(users[s] for s in expected[winner])),
        RatedTeam(1, tuple(users[s] for s in expected[1 - winner])),
    ]


def test_chaturaji_four_players_rate_partnerships_as_teams() -> None:
    game = FinishedGame("chaturaji", (100, 101, 102, 103), ranking((1, 3), (0, 2)))
    changes = rate(BEFORE, game)
    assert_matches(
        changes,
        [[100, 102], [101, 103]],
        reference([[pair(100), pair(102)], [pair(101), pair(103)]], [1, 0]),
    )
    assert {u for u, c in changes.items() if c.won} == {101, 103}
    # Not the same as rating four separate players.
    solo = reference([[pair(u)] for u in (100, 101, 102, 103)], [1, 0, 1, 0])
    assert not math.isclose(changes[101].mu_after, solo[1][0][0], abs_tol=1e-6)


def test_chaturaji_three_players_one_commands_a_partnership() -> None:
    game = FinishedGame("chaturaji", (100, 101, 102), ranking((0,), (1, 2)))
    changes = rate(BEFORE, game)
    assert_matches(
        changes,
        [[100], [101, 102]],
        reference([[pair(100)], [pair(101), pair(102)]], [0, 1]),
    )
    assert changes[100].won and not changes[101].won and not changes[102].won
    assert changes[101].place == changes[102].place == 2


def test_chaturaji_two_players_each_command_a_partnership() -> None:
    game = FinishedGame("chaturaji", (100, 101), ranking((1,), (0,)))
    changes = rate(BEFORE, game)
    assert_matches(changes, [[100], [101]], reference([[pair(100)], [pair(101)]], [1, 0]))


def test_chaturaji_draw_between_partnerships() -> None:
    game = FinishedGame("chaturaji", (100, 101, 102, 103), ranking((0, 1, 2, 3)))
    changes = rate(BEFORE, game)
    assert_matches(
        changes,
        [[100, 102], [101, 103]],
        reference([[pair(100), pair(102)], [pair(101), pair(103)]], [0, 0]),
    )
    assert not any(c.won for c in changes.values())


def test_a_departed_partner_ranks_last_on_its_own() -> None:
    """Seat 2 passed to the automatic player; the service moved it to the bottom
    (ranked_with_departures), so its partner keeps the partnership's first place."""
    game = FinishedGame("chaturaji", (100, 101, 102, 103), ranking((0,), (1, 3), (2,)))
    assert teams(game) == [
        RatedTeam(0, (100,)),
        RatedTeam(1, (101, 103)),
        RatedTeam(2, (102,)),
    ]
    changes = rate(BEFORE, game)
    assert_matches(
        changes,
        [[100], [101, 103], [102]],
        reference([[pair(100)], [pair(101), pair(103)], [pair(102)]], [0, 1, 2]),
    )
    assert changes[102].place == 3 and not changes[102].won


# ----------------------------------------------------------------- automatic player, opt-out


def test_a_seat_taken_over_counts_for_the_player_who_left() -> None:
    # The automatic player finished seat 1's game; seat 1 still holds user 101.
    game = FinishedGame("sangram", (100, 101, 102), ranking((1,), (0,), (2,)))
    changes = rate(BEFORE, game)
    assert changes[101].place == 1 and changes[101].won
    assert changes[101].mu_after > changes[101].mu_before


def test_the_automatic_player_itself_is_never_rated() -> None:
    # Seat 0 has no user: it won, the two players share nothing with it.
    game = FinishedGame("sangram", (None, 101, 102), ranking((0,), (2,), (1,)))
    assert game.players == (101, 102)
    changes = rate(BEFORE, game)
    assert_matches(changes, [[101], [102]], reference([[pair(101)], [pair(102)]], [2, 1]))
    assert changes[102].place == 2 and not changes[102].won
    assert changes[101].place == 3


def test_an_automatic_partner_is_left_out_of_its_team() -> None:
    game = FinishedGame("chaturaji", (100, 101, None, 103), ranking((0, 2), (1, 3)))
    changes = rate(BEFORE, game)
    assert_matches(
        changes,
        [[100], [101, 103]],
        reference([[pair(100)], [pair(101), pair(103)]], [0, 1]),
    )


def test_nobody_is_rated_against_the_automatic_player_alone() -> None:
    game = FinishedGame("artaban", (None, 101), ranking((1,), (0,)))
    assert teams(game) == []
    assert rate(BEFORE, game) == {}


def test_an_unrated_game_rates_nobody() -> None:
    game = FinishedGame("artaban", (100, 101), ranking((1,), (0,)), rated=False)
    assert teams(game) == []
    assert rate(BEFORE, game) == {}
    rated = dataclasses.replace(game, rated=True)
    assert set(rate(BEFORE, rated)) == {100, 101}


# ----------------------------------------------------------------- contract


def test_rating_is_deterministic() -> None:
    game = FinishedGame("sangram", (104, 100, 103, 101, 102), ranking((3,), (0, 4), (1,), (2,)))
    first = rate(BEFORE, game)
    reordered = dict(reversed(list(BEFORE.items())))
    second = rate(reordered, game)
    assert first == second
    assert rate(BEFORE, game) == first


def test_finished_game_from_an_outcome() -> None:
    outcome = Outcome(ranking=ranking((1,), (0, 2)), scores=(3, 5, 3), reason="")
    game = FinishedGame.of("sangram", [100, 101, 102], outcome)
    assert game == FinishedGame("sangram", (100, 101, 102), outcome.ranking)
    assert FinishedGame.of("sangram", [100, 101, 102], outcome, rated=False).rated is False


@pytest.mark.parametrize(
    ("users", "groups", "message"),
    [
        ((1, 2, 3), ((0,), (1,)), "leaves out"),
        ((1, 2), ((0,), (0, 1)), "twice"),
        ((1, 2), ((0,), (2,)), "2 seats"),
        ((1, 2), ((0, 1), ()), "empty"),
        ((1, 1), ((0,), (1,)), "two seats"),
    ],
)
def test_a_broken_game_is_refused(
    users: tuple[int, ...], groups: tuple[tuple[int, ...], ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        rate({}, FinishedGame("sangram", users, ranking(*groups)))


def test_ordinal_is_openskills_conservative_estimate() -> None:
    for rating in BEFORE.values():
        expected = PlackettLuceRating(rating.mu, rating.sigma).ordinal()
        assert math.isclose(rating.ordinal, expected, rel_tol=0, abs_tol=TOLERANCE)
        assert math.isclose(rating.ordinal, rating.mu - 3 * rating.sigma, abs_tol=TOLERANCE)


def test_rating_of_a_stored_record() -> None:
    assert Rating.of(None) == Rating()
    record = RatingRecord(1, "sangram", 5, 30.5, 4.25, 9, 4, 0.0)
    assert Rating.of(record) == Rating(30.5, 4.25, 9)


def _entry(game: int, before: tuple[float, float], after: tuple[float, float]) -> HistoryEntry:
    return HistoryEntry(game, 1, "sangram", 5, *before, *after, 1, True, float(game))


def test_trend_over_the_last_games() -> None:
    newest_first = [
        _entry(3, (27.0, 7.0), (28.0, 6.5)),
        _entry(2, (26.0, 7.5), (27.0, 7.0)),
        _entry(1, (25.0, 8.0), (26.0, 7.5)),
    ]
    assert trend([], 5) == 0.0
    assert math.isclose(trend(newest_first, 1), (28.0 - 19.5) - (27.0 - 21.0))
    assert math.isclose(trend(newest_first, 2), (28.0 - 19.5) - (26.0 - 22.5))
    assert math.isclose(trend(newest_first, 10), (28.0 - 19.5) - (25.0 - 24.0))
    with pytest.raises(ValueError):
        trend(newest_first, 0)
