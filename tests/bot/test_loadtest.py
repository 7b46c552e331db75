"""The load test's checks find what they are for (issue 20, phase 3).

Not a load run: ``python -m bot.loadtest`` itself is too slow for the suite
(a run starts a server and several bot processes; README, several
processes).  Here its checkers are fed a database's log, its timers and
the fake Discord's journal with one violation each, and must count it."""

from __future__ import annotations

from discord.http import Route

from bot.loadtest import (
    Ack,
    LogEntry,
    _route_params,
    check_boards,
    check_deadlines,
    check_moves,
    parse,
)


def entries(game: int, actors: list[int], at: float = 0.0) -> list[LogEntry]:
    return [LogEntry(game, i + 1, a, "x", at + i) for i, a in enumerate(actors)]


def test_a_clean_run_counts_nothing() -> None:
    log = entries(1, [0, -1, 1, 0])
    acks = [Ack(1, 0, 2, 0), Ack(1, 2, 3, 1), Ack(1, 3, 4, 0)]
    assert check_moves(acks, log) == {"double_applies": 0, "lost_moves": 0, "log_gaps": 0}


def test_double_applies_and_lost_moves_are_counted() -> None:
    log = entries(1, [0, 1, 0])
    # Two acknowledged moves claim seq 2 (one move applied twice, as two
    # processes would if the version guard failed).
    assert (
        check_moves([Ack(1, 0, 1, 0), Ack(1, 1, 2, 1), Ack(1, 1, 2, 1)], log)["double_applies"] == 1
    )
    # A duplicated (game, seq) in the log.
    assert check_moves([], [*log, LogEntry(1, 2, 1, "x", 9.0)])["double_applies"] == 1
    # An acknowledged move whose entry is missing, or another seat's.
    assert check_moves([Ack(1, 3, 4, 1)], log)["lost_moves"] == 1
    assert check_moves([Ack(1, 1, 2, 0)], log)["lost_moves"] == 1
    # A gap in the log.
    assert check_moves([], [e for e in log if e.seq != 2])["log_gaps"] == 1


def test_deadlines_fired_twice_or_never_are_counted() -> None:
    now, grace = 1000.0, 10.0
    fired = [LogEntry(1, 5, 0, "@timeout", 900.0), LogEntry(1, 6, 0, "pass", 900.0)]
    ok = check_deadlines({1: 899.0}, fired, [], now, grace)
    assert ok["deadlines_fired_twice"] == 0 and ok["deadlines_never_fired"] == 0
    assert ok["deadlines_fired"] == 1
    # A second timeout of the seat before the move made for it: one
    # deadline acted on twice.
    twice = [fired[0], LogEntry(1, 6, 0, "@timeout", 900.0), LogEntry(1, 7, 0, "pass", 900.0)]
    assert check_deadlines({1: 899.0}, twice, [], now, grace)["deadlines_fired_twice"] == 1
    # The seat's next deadline a second later (its clock was spent), after
    # the move made for it: not twice, however close in time.
    again = [*fired, LogEntry(1, 7, 0, "@timeout", 901.0), LogEntry(1, 8, 0, "pass", 901.0)]
    assert check_deadlines({1: 899.0}, again, [], now, grace)["deadlines_fired_twice"] == 0
    # One timer acted on by two workers (their journals), by identity.
    timer = [1, "clock", 0, 899.0, 4, 0]
    acted = [timer, [1, "clock", 1, 899.0, 4, 0], list(timer)]
    found = check_deadlines({1: 899.0}, fired, [], now, grace, acted)
    assert found["deadlines_fired_twice"] == 1
    # A timed game that never timed out, and a timer left past due.
    never = check_deadlines({2: 899.0}, fired, [(3, "clock", 0, 800.0, None)], now, grace)
    assert never["deadlines_never_fired"] == 2
    # A timer still held under a live lease is not "never" (yet).
    held = check_deadlines({}, [], [(3, "clock", 0, 800.0, now)], now, grace)
    assert held["deadlines_never_fired"] == 0 and held["timers_under_a_live_lease"] == 1
    # Nor one that falls due within the grace period.
    assert check_deadlines({4: 995.0}, [], [], now, grace)["deadlines_never_fired"] == 0


def test_boards_posted_twice_raw_and_after_discords_nonce_dedup() -> None:
    post = {"m": "POST", "p": "/channels/{channel_id}/messages"}
    journal = [
        {**post, "nonce": "b1v3"},
        {**post, "nonce": "b1v3"},  # a retry with the same nonce: Discord collapses it
        {**post, "nonce": "b2v4"},
        {**post, "nonce": "b2v4o"},  # the same board under another nonce: posted twice
        {**post, "nonce": "t2.0v4"},  # a turn DM, not a board
        {"m": "PATCH", "p": "/channels/{channel_id}/messages/{message_id}", "nonce": None},
    ]
    found = check_boards(journal)
    assert found["boards_posted"] == 4 and found["board_edits"] == 1
    assert found["boards_posted_twice_raw"] == 1
    assert found["boards_posted_twice"] == 1


def test_routes_are_read_back_and_quick_scales_down() -> None:
    route = Route(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=5, message_id=7
    )
    assert _route_params(route) == {"channel_id": "5", "message_id": "7"}
    quick = parse(["--quick", "--players", "7"])
    assert (quick.games, quick.players, quick.seconds) == (500, 7, 30.0)
    assert parse([]).games == 10_000 and parse([]).processes == [1, 2, 4]
