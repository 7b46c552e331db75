"""Points and tie-breaks, on small tournaments computed by hand."""

from __future__ import annotations

import math

import pytest

from bot.tournament.standings import (
    Player,
    Result,
    Scoring,
    Tiebreak,
    default_tiebreaks,
    format_tiebreaks,
    standings,
    total_points,
)


def _row(rows, player):
    return next(row for row in rows if row.player == player)


def test_duel_points_win_draw_bye() -> None:
    results = [
        Result.win(1, (1, 2), winner=1),
        Result.draw(1, (3, 4)),
        Result.bye(1, 5),
    ]
    assert total_points(results, Scoring()) == {1: 1, 2: 0, 3: 0.5, 4: 0.5, 5: 1}


def test_pod_placement_points_ties_share_the_average() -> None:
    scoring = Scoring(table_size=4)
    # 3/2/1/0; two tied second share (2 + 1) / 2.
    assert scoring.points(Result(1, (10, 11, 12, 13), (2, 1, 2, 4))) == {
        11: 3,
        10: 1.5,
        12: 1.5,
        13: 0,
    }
    # A table one smaller scores 2/1/0; dense place numbers mean the same ties.
    assert scoring.points(Result(1, (1, 2, 3), (1, 1, 2))) == {1: 1.5, 2: 1.5, 3: 0}
    # A pod bye is worth first place at the tournament's table size.
    assert scoring.points(Result.bye(1, 7)) == {7: 3}


def test_placement_points_are_configurable_by_table_size() -> None:
    scoring = Scoring(table_size=4, placement_points={4: (5, 3, 1, 0)}, bye_points=2)
    assert scoring.points(Result(1, (1, 2, 3, 4), (1, 2, 3, 3))) == {1: 5, 2: 3, 3: 0.5, 4: 0.5}
    assert scoring.points(Result(1, (1, 2, 3), (3, 2, 1))) == {3: 2, 2: 1, 1: 0}
    assert scoring.points(Result.bye(2, 9)) == {9: 2}
    with pytest.raises(ValueError):
        Scoring(table_size=4, placement_points={4: (3, 2, 1)})


def test_buchholz_and_sonneborn_berger_by_hand() -> None:
    # Round 1: 1 beats 2, 3 draws 4.  Round 2: 1 draws 3, 4 beats 2.
    # Points: 1 = 1.5, 2 = 0, 3 = 1, 4 = 1.5.
    results = [
        Result.win(1, (1, 2), 1),
        Result.draw(1, (3, 4)),
        Result.draw(2, (1, 3)),
        Result.win(2, (4, 2), 4),
    ]
    rows = standings([Player(p) for p in (1, 2, 3, 4)], results)
    expected = {
        # player: (Buchholz, Sonneborn-Berger)
        1: (0 + 1, 1 * 0 + 0.5 * 1),
        2: (1.5 + 1.5, 0),
        3: (1.5 + 1.5, 0.5 * 1.5 + 0.5 * 1.5),
        4: (1 + 0, 0.5 * 1 + 1 * 0),
    }
    for player, (buchholz, berger) in expected.items():
        row = _row(rows, player)
        assert row.tiebreak(Tiebreak.BUCHHOLZ) == buchholz
        assert row.tiebreak(Tiebreak.SONNEBORN_BERGER) == berger
    # 4 and 1 both have 1.5: 4's Buchholz is 1, 1's is 1 too; Sonneborn-Berger
    # 0.5 each; so rating decides (equal at 0), then the lower id.
    assert [row.player for row in rows] == [1, 4, 3, 2]
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_ties_fall_to_rating_then_id() -> None:
    results = [Result.draw(1, (1, 2)), Result.draw(1, (3, 4))]
    players = [Player(1, 1400), Player(2, 1600), Player(3, 1600), Player(4, 1500)]
    rows = standings(players, results)
    assert [row.player for row in rows] == [2, 3, 4, 1]


def test_tiebreaks_order_before_rating() -> None:
    # 1 and 3 both win once, but 1 beat someone who went on to score.
    results = [
        Result.win(1, (1, 2), 1),
        Result.win(1, (3, 4), 3),
        Result.win(2, (2, 4), 2),
        Result.win(2, (1, 3), 3),
    ]
    players = [Player(1, 1000), Player(2), Player(3), Player(4, 2000)]
    rows = standings(players, results)
    # Points: 3 = 2, 1 = 1, 2 = 1, 4 = 0.  Buchholz: 1 = 1 + 2 = 3, 2 = 1 + 0 = 1.
    assert [row.player for row in rows] == [3, 1, 2, 4]
    assert _row(rows, 1).tiebreak(Tiebreak.BUCHHOLZ) == 3


def test_byes_count_points_but_no_tiebreak() -> None:
    results = [Result.bye(1, 1), Result.win(1, (2, 3), 2)]
    rows = standings([Player(1), Player(2), Player(3)], results)
    row = _row(rows, 1)
    assert (row.points, row.games, row.byes) == (1, 0, 1)
    assert row.tiebreak(Tiebreak.BUCHHOLZ) == 0
    assert row.tiebreak(Tiebreak.SONNEBORN_BERGER) == 0


def test_pod_tiebreaks_by_hand() -> None:
    scoring = Scoring(table_size=4)
    results = [
        # Round 1, a table of 4: 1 first, 2 and 3 share second, 4 last: 3, 1.5, 1.5, 0.
        Result(1, (1, 2, 3, 4), (1, 2, 2, 4)),
        # Round 1, a table of 3 (2/1/0): 5, 6, 7 in order.
        Result(1, (5, 6, 7), (1, 2, 3)),
        # Round 2: 1 last at a table of 3 with 5 and 2.
        Result(2, (5, 2, 1), (1, 2, 3)),
    ]
    rows = standings([Player(p) for p in range(1, 8)], results, scoring)
    points = {row.player: row.points for row in rows}
    assert points == {1: 3, 2: 2.5, 3: 1.5, 4: 0, 5: 4, 6: 1, 7: 0}
    row = _row(rows, 1)
    # Opponents' points: mean of (2.5, 1.5, 0) plus mean of (4, 2.5).
    assert row.tiebreak(Tiebreak.OPPONENTS_POINTS) == pytest.approx(4 / 3 + 3.25)
    # Places 1 and 3.
    assert row.tiebreak(Tiebreak.AVERAGE_PLACE) == 2
    assert _row(rows, 2).tiebreak(Tiebreak.AVERAGE_PLACE) == 2  # (2 + 2) / 2
    assert default_tiebreaks(4) == (Tiebreak.OPPONENTS_POINTS, Tiebreak.AVERAGE_PLACE)


def test_average_place_lower_is_better_and_none_is_last() -> None:
    scoring = Scoring(table_size=3, bye_points=2)
    results = [
        Result(1, (1, 2, 3), (1, 2, 2)),  # 2, 0.5, 0.5
        Result(1, (4, 5, 6), (2, 1, 3)),  # 1, 2, 0
        Result.bye(1, 7),  # 2
        Result(2, (3, 6, 4), (1, 1, 3)),  # 3 and 6 share 1.5; 4 nil
    ]
    rows = standings(
        [Player(p) for p in range(1, 8)],
        results,
        scoring,
        tiebreaks=(Tiebreak.AVERAGE_PLACE,),
    )
    # 1, 3, 5 and 7 have 2 points: 1 and 5 placed 1st (then id), 3 placed
    # 2nd and 1st (1.5), 7 never played.
    top = [row.player for row in rows if row.points == 2]
    assert top == [1, 5, 3, 7]
    assert math.isinf(_row(rows, 7).tiebreak(Tiebreak.AVERAGE_PLACE))


def test_dropped_players_still_count_as_opponents() -> None:
    results = [Result.win(1, (1, 2), 2), Result.win(2, (2, 3), 2)]
    rows = standings([Player(1), Player(3)], results)
    assert {row.player for row in rows} == {1, 2, 3}
    assert _row(rows, 1).tiebreak(Tiebreak.BUCHHOLZ) == 2


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError):
        Result(1, (1, 1), (1, 2))
    with pytest.raises(ValueError):
        Result(1, (1, 2), (1,))
    with pytest.raises(ValueError):
        Result(0, (1, 2), (1, 2))
    with pytest.raises(ValueError):
        Result.win(1, (1, 2), 3)
    with pytest.raises(ValueError):
        standings([Player(1), Player(1)], [])


def test_a_round_robin_breaks_ties_without_buchholz() -> None:
    """Issue 31: when everyone meets everyone, Buchholz is everybody's total
    less one's own points, equal for every tied player: a round robin's
    standings break ties by Sonneborn-Berger alone (pods: by place)."""
    players = [Player(p) for p in (1, 2, 3, 4)]
    # A four-player round robin: 1 beats 2, 2 beats 3, 3 beats 1, all beat 4.
    results = [
        Result.win(1, (1, 2), winner=1),
        Result.win(1, (3, 4), winner=3),
        Result.win(2, (2, 3), winner=2),
        Result.win(2, (1, 4), winner=1),
        Result.win(3, (3, 1), winner=3),
        Result.win(3, (2, 4), winner=2),
    ]
    rows = standings(players, results, tiebreaks=default_tiebreaks(2))
    tied = [row for row in rows if row.points == 2]
    assert len(tied) == 3
    assert len({row.tiebreak(Tiebreak.BUCHHOLZ) for row in tied}) == 1  # breaks nothing
    assert format_tiebreaks("round_robin", 2) == (Tiebreak.SONNEBORN_BERGER,)
    assert format_tiebreaks("round_robin", 4) == (Tiebreak.AVERAGE_PLACE,)
    for other in ("swiss", "elimination", "pods"):
        assert format_tiebreaks(other, 2) == default_tiebreaks(2)
        assert format_tiebreaks(other, 4) == default_tiebreaks(4)
