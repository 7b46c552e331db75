"""Swiss pairing: small rounds by hand, and properties checked against brute force."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournament.pairing import Player, Round, pair_swiss
from bot.tournament.standings import Result, standings
from tests.bot.tournament.brute import duel_pairings


def _players(count: int) -> list[Player]:
    # Higher rating for lower ids, so the seeding is 1, 2, 3, ...
    return [Player(id=index, rating=2000 - index) for index in range(1, count + 1)]


def _pairs(paired: Round) -> set[frozenset[int]]:
    return {frozenset(table.seats) for table in paired.tables}


def _met(history: list[Result]) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for result in history:
        for player in result.seats:
            met.setdefault(player, set()).update(set(result.seats) - {player})
    return met


def test_first_round_top_half_meets_bottom_half_with_alternating_seats() -> None:
    paired = pair_swiss(_players(8), [])
    assert paired.number == 1
    assert [table.seats for table in paired.tables] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert paired.byes == ()


def test_winners_meet_winners() -> None:
    history = [
        Result.win(1, (1, 5), 1),
        Result.win(1, (6, 2), 6),
        Result.win(1, (3, 7), 3),
        Result.win(1, (8, 4), 4),
    ]
    paired = pair_swiss(_players(8), history)
    assert paired.number == 2
    winners = {1, 6, 3, 4}
    for table in paired.tables:
        assert (set(table.seats) <= winners) or not (set(table.seats) & winners)


def test_seat_zero_goes_to_who_had_it_less() -> None:
    history = [Result.win(1, (1, 3), 1), Result.win(1, (4, 2), 4)]
    history += [Result.win(2, (4, 1), 4), Result.win(2, (3, 2), 2)]
    # Only 1 v 2 and 3 v 4 are fresh. 1 had seats 0, 1 and 2 had seat 1 twice:
    # 2 takes seat 0. 3 had seats 1, 0 and 4 had seat 0 twice: 3 takes seat 0.
    third = pair_swiss(_players(4), history)
    assert {table.seats for table in third.tables} == {(2, 1), (3, 4)}


def test_equal_seat_balance_alternates_from_the_last_seat() -> None:
    history = [Result.win(1, (1, 5), 1), Result.win(1, (6, 2), 2), Result.draw(1, (3, 4))]
    history += [Result.win(2, (3, 1), 1), Result.win(2, (2, 4), 2), Result.draw(2, (5, 6))]
    # 1 and 2 lead with 2 points and seat balance 0; 1 had seat 1 last, so
    # 1 takes seat 0 (as board parity would give it too) ...
    third = pair_swiss(_players(6), history)
    assert third.tables[0].seats == (1, 2)
    # ... and with their histories swapped, 2 takes it against board parity.
    swap = {1: 2, 2: 1}
    flipped = [Result(r.round, tuple(swap.get(p, p) for p in r.seats), r.places) for r in history]
    # Now 2 holds 1's history (seat 1 last) and 1 holds 2's: 2 takes seat 0.
    fourth = pair_swiss(_players(6), flipped)
    assert fourth.tables[0].seats == (2, 1)


def test_rematch_avoided_even_across_score_groups() -> None:
    # 1 and 2 lead and have met; 3 and 4 have met: the only fresh pairing is
    # 1 v 3 (or 4) and 2 v the other.
    history = [Result.win(1, (1, 3), 1), Result.win(1, (2, 4), 2)]
    history += [Result.draw(2, (1, 2)), Result.draw(2, (3, 4))]
    paired = pair_swiss(_players(4), history)
    assert frozenset((1, 2)) not in _pairs(paired)
    assert frozenset((3, 4)) not in _pairs(paired)
    assert frozenset((1, 3)) not in _pairs(paired)


def test_forced_rematch_when_nothing_else_exists() -> None:
    history = [Result.win(1, (1, 2), 1)]
    paired = pair_swiss(_players(2), history)
    assert _pairs(paired) == {frozenset((1, 2))}
    assert paired.byes == ()


def test_bye_to_lowest_ranked_without_one() -> None:
    players = _players(5)
    assert pair_swiss(players, []).byes == (5,)
    # 5 had the bye; 4 is now the lowest ranked without one.
    history = [Result.bye(1, 5), Result.win(1, (1, 3), 1), Result.win(1, (4, 2), 2)]
    ranking = [row.player for row in standings(players, history)]
    assert ranking[-1] == 4
    assert pair_swiss(players, history).byes == (4,)


def test_everyone_had_a_bye_then_lowest_ranked_again() -> None:
    players = _players(3)
    history = [Result.bye(r, p) for r, p in ((1, 1), (2, 2), (3, 3))]
    history += [Result.win(1, (2, 3), 2), Result.win(2, (1, 3), 1), Result.win(3, (1, 2), 1)]
    paired = pair_swiss(players, history)
    ranking = [row.player for row in standings(players, history)]
    assert paired.byes == (ranking[-1],)


def test_large_score_group_in_small_slices_still_pairs_everyone() -> None:
    players = _players(41)
    paired = pair_swiss(players, [], bracket_limit=4)
    assert sorted(paired.players()) == list(range(1, 42))
    assert paired.byes == (41,)


def test_empty_and_single_fields() -> None:
    assert pair_swiss([], []) == Round(1, ())
    assert pair_swiss([Player(7)], []) == Round(1, (), (7,))


# --- properties -------------------------------------------------------------------------


@st.composite
def swiss_fields(draw: st.DrawFn, max_players: int = 9) -> tuple[list[Player], list[Result]]:
    """A field and any history at all: random past pairings, byes and outcomes."""
    count = draw(st.integers(1, max_players))
    ids = list(range(1, count + 1))
    ratings = draw(st.lists(st.integers(1000, 1010), min_size=count, max_size=count))
    players = [Player(player, float(rating)) for player, rating in zip(ids, ratings, strict=True)]
    history: list[Result] = []
    for number in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(ids))
        if len(order) % 2 == 1:
            history.append(Result.bye(number, order[-1]))
            order = order[:-1]
        for a, b in zip(order[::2], order[1::2], strict=True):
            outcome = draw(st.sampled_from(("first", "second", "draw")))
            if outcome == "draw":
                history.append(Result.draw(number, (a, b)))
            else:
                history.append(Result.win(number, (a, b), a if outcome == "first" else b))
    dropped = draw(st.sets(st.sampled_from(ids), max_size=2)) if count > 2 else set()
    active = [player for player in players if player.id not in dropped]
    return active, history


_FIELD_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@_FIELD_SETTINGS
@given(swiss_fields(), st.sampled_from((2, 3, 4, 20)))
def test_every_player_plays_or_has_the_bye_exactly_once(field, limit) -> None:
    players, history = field
    paired = pair_swiss(players, history, bracket_limit=limit)
    seen = Counter(paired.players())
    assert sorted(seen) == sorted(player.id for player in players)
    assert set(seen.values()) <= {1}
    assert len(paired.byes) == len(players) % 2
    assert all(len(table.seats) == 2 for table in paired.tables)


@_FIELD_SETTINGS
@given(swiss_fields(), st.sampled_from((2, 3, 4, 20)))
def test_no_avoidable_rematch_and_no_second_bye(field, limit) -> None:
    players, history = field
    ids = [player.id for player in players]
    met = _met(history)
    had_bye = {result.seats[0] for result in history if result.is_bye}
    eligible = {player for player in ids if player not in had_bye} or set(ids)
    paired = pair_swiss(players, history, bracket_limit=limit)

    # Byes at most once while anyone active has had none.
    assert set(paired.byes) <= eligible

    def rematches(pairs: list[tuple[int, int]]) -> int:
        return sum(b in met.get(a, set()) for a, b in pairs)

    fewest = min(
        rematches(pairs) for pairs, bye in duel_pairings(ids) if bye is None or bye in eligible
    )
    ours = rematches([(table.seats[0], table.seats[1]) for table in paired.tables])
    # Zero when a rematch-free pairing exists; never more rematches than needed.
    assert ours == fewest


@_FIELD_SETTINGS
@given(swiss_fields())
def test_bye_goes_to_the_lowest_ranked_it_can(field) -> None:
    players, history = field
    ids = [player.id for player in players]
    met = _met(history)
    had_bye = {result.seats[0] for result in history if result.is_bye}
    eligible = {player for player in ids if player not in had_bye} or set(ids)
    paired = pair_swiss(players, history)  # one bracket: the whole field
    if not paired.byes:
        return
    ranking = [row.player for row in standings(players, history) if row.player in ids]

    def clean(pairs: list[tuple[int, int]]) -> bool:
        return not any(b in met.get(a, set()) for a, b in pairs)

    possible = {bye for pairs, bye in duel_pairings(ids) if bye in eligible and clean(pairs)}
    if possible:
        lowest = max(possible, key=ranking.index)
        assert paired.byes == (lowest,)
    else:
        assert paired.byes[0] in eligible


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**16))
def test_whole_tournament_by_its_own_pairings(count, seed) -> None:
    """Rounds paired by pair_swiss itself: nobody has a second bye."""
    import random

    rng = random.Random(seed)
    players = _players(count)
    history: list[Result] = []
    rounds = count - 1 if count % 2 == 0 else count
    byes: Counter[int] = Counter()
    for _ in range(min(rounds, 5)):
        paired = pair_swiss(players, history, bracket_limit=rng.choice((2, 4, 20)))
        for table in paired.tables:
            history.append(
                Result.win(paired.number, (table.seats[0], table.seats[1]), rng.choice(table.seats))
            )
        for player in paired.byes:
            byes[player] += 1
            history.append(Result.bye(paired.number, player))
    # Fewer rounds than players: someone without a bye is always there to take it.
    assert max(byes.values(), default=0) <= 1
