"""The load test's counts can fail (issue 20, phase 3; issue 29).

Not a load run: ``python -m bot.loadtest`` itself is too slow for the suite
(a run starts a server and several bot processes; README, several
processes).  Here each count is shown a clean input, where it counts
nothing, and the same input with one fault injected (a journal doctored to
hold an acknowledged move the log lacks, a log with one action applied
twice, a deadline's timer deleted without firing, a board posted twice, a
timeout fired twice, a seat handed over behind the log's back), where it
must count it.  The journals are built with the functions the workers
write them with, and read back by the parser the run uses."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from discord.http import Route

from bot.engines import get_engine
from bot.engines.core import CHANCE, apply_step, progress_seat, resolve_chance
from bot.timekeeping import ClockRule
from bot.tools.loadtest.checks import (
    GameLog,
    LogEntry,
    Notes,
    SeatAtEnd,
    TableAtEnd,
    TimerAtEnd,
    check_boards,
    check_deadlines,
    check_journal_complete,
    check_moves,
    check_replays,
    check_tables,
)
from bot.tools.loadtest.end_state import EndState, GameFacts
from bot.tools.loadtest.fake_discord import FakeHttp, _route_params
from bot.tools.loadtest.journal import (
    Journal,
    click_record,
    commit_record,
    outcome_record,
    parse_journal,
    reply_record,
)
from bot.tools.loadtest.players import Ack, Aim
from bot.tools.loadtest.processes import deadline_grace
from bot.tools.loadtest.run import parse
from bot.tools.loadtest.world import CLOCK, CLOCK_AFTER_A_TIMEOUT, Deadline

CLICK = 111
OTHER_CLICK = 222


def journal(*records: dict[str, Any]) -> list[dict[str, Any]]:
    """Records as a worker's journal holds them (its index and time added)."""
    return [{**r, "w": 0, "ts": 0.0} for r in records]


def one_click(
    *, start: int = 0, action: str = "move a", reply: str = "Played: a", stored: bool = True
) -> list[dict[str, Any]]:
    """Seat 0 clicks, its move is written at version ``start``, it is told ``reply``."""
    return journal(
        click_record(CLICK, 1, 0, start),
        commit_record("p.1", 1, start, [(0, action)], interaction=CLICK),
        outcome_record("p.1", version=start + 1) if stored else outcome_record("p.1", error="X"),
        reply_record(CLICK, reply),
    )


def log_of(game: int, *entries: tuple[int, str], at: float = 0.0) -> list[LogEntry]:
    return [LogEntry(game, seq, a, t, at + seq) for seq, (a, t) in enumerate(entries, start=1)]


def moves(records: list[dict[str, Any]], log: list[LogEntry]) -> dict[str, int]:
    return check_moves(parse_journal(records), log)


# -- what a click was told, what a worker wrote, and the log ---------------------------------


def test_a_clean_run_counts_nothing() -> None:
    records = one_click() + journal(
        # Seat 1's automatic reply, written in the click's task, and a
        # second click that lost the race: the version guard refused it.
        commit_record("p.2", 1, 1, [(1, "move b"), (-1, "roll 3")], interaction=CLICK),
        outcome_record("p.2", version=3),
        click_record(OTHER_CLICK, 1, 0, 0),
        commit_record("q.1", 1, 0, [(0, "move a")], interaction=OTHER_CLICK),
        outcome_record("q.1", error="StaleVersion"),
        reply_record(OTHER_CLICK, "This board is out of date."),
    )
    log = log_of(1, (0, "move a"), (1, "move b"), (-1, "roll 3"))
    assert moves(records, log) == {
        "writes_returned": 2,
        "acked_not_in_log": 0,
        "applied_twice": 0,
        "replies_contradicting_log": 0,
    }


def test_an_acknowledged_move_missing_from_the_log_is_lost() -> None:
    log = log_of(1, (0, "move a"))
    assert moves(one_click(), log)["acked_not_in_log"] == 0
    # The journal says the player was told "Played" and the write returned,
    # and the log does not have it.
    assert moves(one_click(), [])["acked_not_in_log"] == 2
    # Another action of the same seat at that seq: actions are compared,
    # not actors.
    assert moves(one_click(), log_of(1, (0, "move z")))["acked_not_in_log"] == 2
    # The same action one version later: not the write that returned.
    later = log_of(1, (1, "move b"), (0, "move a"))
    assert moves(one_click(), later)["acked_not_in_log"] == 2
    # A reply sent for a move that was never stored (the write failed, the
    # player was told "Played" all the same).
    assert moves(one_click(stored=False), [])["acked_not_in_log"] == 1
    # A timer's write that returned and is not in the log.
    timer = journal(
        commit_record(
            "t.1", 2, 4, [(1, "@timeout"), (1, "pass")], timer=[2, "clock", 1, 9.0, 4, 0]
        ),
        outcome_record("t.1", version=6),
    )
    assert moves(timer, [])["acked_not_in_log"] == 1


def test_a_move_applied_twice_is_counted() -> None:
    once = log_of(1, (0, "move a"))
    assert moves(one_click(), once)["applied_twice"] == 0
    # One click whose move went in twice under two seqs (a retry after a
    # write that had in fact been stored).
    twice = one_click() + journal(
        commit_record("p.2", 1, 1, [(0, "move a")], interaction=CLICK),
        outcome_record("p.2", version=2),
    )
    assert moves(twice, log_of(1, (0, "move a"), (0, "move a")))["applied_twice"] == 1
    # Two writes that both returned for one seq: the version guard let
    # both through (whatever the log kept).
    both = one_click() + journal(
        commit_record("q.1", 1, 0, [(0, "move a")]),
        outcome_record("q.1", version=1),
    )
    assert moves(both, once)["applied_twice"] == 1
    # The same move clicked twice, the second refused by the guard: its
    # entries match the log, but it wrote nothing.
    refused = one_click() + journal(
        click_record(OTHER_CLICK, 1, 0, 0),
        commit_record("q.1", 1, 0, [(0, "move a")], interaction=OTHER_CLICK),
        outcome_record("q.1", error="StaleVersion"),
    )
    assert moves(refused, once)["applied_twice"] == 0


def test_a_refusal_for_a_stored_move_contradicts_the_log() -> None:
    log = log_of(1, (0, "move a"))
    assert moves(one_click(), log)["replies_contradicting_log"] == 0
    told_no = one_click(reply="Something went wrong on my side; nothing was changed.")
    found = moves(told_no, log)
    assert found["replies_contradicting_log"] == 1
    assert found["acked_not_in_log"] == 0


def test_the_journal_must_hold_every_move_the_coordinator_heard_of() -> None:
    heard = [Ack(1, 0, 1, 0, CLICK)]
    log = log_of(1, (0, "move a"))

    def missing(records: list[dict[str, Any]]) -> int:
        found = check_journal_complete(heard, parse_journal(records), log, 0.0)
        return found["acks_missing_from_journal"]

    assert missing(one_click()) == 0
    assert missing([r for r in one_click() if "reply" not in r]) == 1
    assert missing([]) == 1


def test_every_entry_written_in_the_run_must_be_a_journalled_write() -> None:
    def unjournalled(records: list[dict[str, Any]], log: list[LogEntry]) -> int:
        found = check_journal_complete([], parse_journal(records), log, since=1.0)
        return found["log_entries_unjournalled"]

    log = log_of(1, (0, "move a"))
    assert unjournalled(one_click(), log) == 0
    # A write the workers never said they made.
    assert unjournalled([], log) == 1
    # One they said the version guard refused, stored all the same.
    refused = journal(
        commit_record("p.1", 1, 0, [(0, "move a")]), outcome_record("p.1", error="StaleVersion")
    )
    assert unjournalled(refused, log) == 1
    # A process killed mid-write: it may have been stored.
    cut_off = journal(commit_record("p.1", 1, 0, [(0, "move a")]))
    assert unjournalled(cut_off, log) == 0
    # Entries from before the run (the seeding's) are no worker's.
    assert unjournalled([], log_of(1, (0, "move a"), at=-5.0)) == 0


def test_outcomes_are_read_as_the_store_defines_them() -> None:
    records = journal(
        commit_record("a", 1, 0, [(0, "x")]),
        outcome_record("a", version=1),
        commit_record("b", 1, 0, [(0, "x")]),
        outcome_record("b", error="StaleVersion"),
        commit_record("c", 1, 0, [(0, "x")]),
        outcome_record("c", error="CancelledError"),  # may have committed
        commit_record("d", 1, 0, [(0, "x")]),  # the process died
    )
    outcomes = [c.outcome for c in parse_journal(records).commits]
    assert outcomes == ["stored", "refused", "unknown", "unknown"]


def test_replies_are_journalled_under_the_click_they_answer(tmp_path: Any) -> None:
    """The fake webhook adapter writes what the player read, under the
    interaction's id, for a first response and for a follow-up."""
    path = tmp_path / "journal.jsonl"
    fake = FakeHttp(Journal(path, 0))
    fake.interaction_ids["tok"] = CLICK

    def route(method: str, path: str) -> SimpleNamespace:
        return SimpleNamespace(method=method, path=path, webhook_id=CLICK, webhook_token="tok")

    async def answer() -> None:
        callback = route("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
        await fake.webhook(callback, payload={"type": 4, "data": {"content": "Played: a"}})
        followup = route("POST", "/webhooks/{webhook_id}/{webhook_token}")
        await fake.webhook(followup, payload={"content": "and then"})

    asyncio.run(answer())
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert parse_journal(records).replies == {CLICK: ["Played: a", "and then"]}


# -- logs that replay ------------------------------------------------------------------------


def played_log(name: str, seats: int, moves_made: int) -> GameLog:
    """A real game of ``name``, seeded, as the database would hold it, with
    a snapshot at the end."""
    engine = get_engine(name)
    rng = random.Random(5)
    options = {k: o.default for k, o in engine.options.items()}
    state = engine.setup(seats, options)
    entries: list[tuple[int, int, str]] = []
    state, steps = resolve_chance(engine, state, rng.random)
    for _ in range(moves_made):
        seat = progress_seat(engine, state)
        if seat == CHANCE or engine.outcome(state) is not None:
            break
        action = rng.choice(engine.legal_actions(state, seat))
        state, step = apply_step(engine, state, seat, action)
        state, chance = resolve_chance(engine, state, rng.random)
        steps += [step, *chance]
    for step in steps:
        entries.append((len(entries) + 1, step.seat, step.text))
    snapshot = json.loads(json.dumps(engine.to_json(state)))
    return GameLog(1, name, seats, options, entries, {len(entries): snapshot})


def test_a_log_with_one_action_applied_twice_does_not_replay() -> None:
    game = played_log("chaturaji", 4, 12)
    assert check_replays([game])[0] == {"logs_not_replaying": 0}
    # The same action written twice, one after the other (the snapshot
    # dropped: the replay alone must find it).
    seq, actor, action = next(e for e in game.entries if e[1] >= 0)
    doubled = [*game.entries[:seq], (seq + 1, actor, action)]
    doubled += [(s + 1, a, t) for s, a, t in game.entries[seq:]]
    twice = replace(game, entries=doubled, snapshots={})
    assert check_replays([twice])[0] == {"logs_not_replaying": 1}


def test_a_snapshot_that_is_not_the_replayed_state_is_counted() -> None:
    game = played_log("artaban", 2, 10)
    ((seq, _),) = game.snapshots.items()
    # The state of one version earlier stored as the last one's: a writer
    # whose state had drifted from its log.
    earlier = played_log("artaban", 2, 9)
    if earlier.snapshots[len(earlier.entries)] == game.snapshots[seq]:
        raise AssertionError("the two states should differ")
    drifted = replace(game, snapshots={seq: earlier.snapshots[len(earlier.entries)]})
    assert check_replays([drifted])[0] == {"logs_not_replaying": 1}
    # Table events are the table's, not the engine's: skipped.
    with_event = replace(
        game, entries=[*game.entries, (seq + 1, 0, "@pause")], snapshots=game.snapshots
    )
    assert check_replays([with_event])[0] == {"logs_not_replaying": 0}


# -- games that wait for ever, seats handed over behind the log ------------------------------


def table(
    *,
    awaited: Iterable[int] = (0,),
    seats: Iterable[SeatAtEnd] = (SeatAtEnd(0, 10, False), SeatAtEnd(1, 11, False)),
    clocked: bool = True,
    clock_timers: Iterable[int] = (0,),
    left_logged: Iterable[int] = (),
    chance: bool = False,
    active: bool = True,
    void_timers: bool = False,
) -> TableAtEnd:
    return TableAtEnd(
        game=1,
        active=active,
        clocked=clocked,
        paused=False,
        chance_to_move=chance,
        awaited=frozenset(awaited),
        seats=tuple(seats),
        clock_timers=frozenset(clock_timers),
        void_timers=void_timers,
        left_logged=frozenset(left_logged),
    )


def test_a_game_waiting_on_a_decision_nothing_will_make_is_stranded() -> None:
    clean = {"games_stranded": 0, "seats_left_unlogged": 0}
    assert check_tables([table()]) == clean
    # Untimed, a person may take as long as they like.
    assert check_tables([table(clocked=False, clock_timers=())]) == clean
    # A timed game waiting on a person with no clock timer.
    assert check_tables([table(clock_timers=())])["games_stranded"] == 1
    # Chance to move, never resolved.
    assert check_tables([table(chance=True)])["games_stranded"] == 1
    # A lobby's automatic player (a negative user) with its timer, and without.
    bot = (SeatAtEnd(0, -1, True), SeatAtEnd(1, 11, False))
    assert check_tables([table(seats=bot, clocked=False)]) == clean
    assert check_tables([table(seats=bot, clocked=False, clock_timers=())])["games_stranded"] == 1
    # A person's seat the automatic player took over, awaited at rest:
    # nothing ever moves it, timer or not.
    left = (SeatAtEnd(0, 10, True), SeatAtEnd(1, 11, False))
    assert check_tables([table(seats=left, left_logged=[0])])["games_stranded"] == 1
    # Over: nothing is owed.
    assert check_tables([table(seats=left, left_logged=[0], active=False)]) == clean
    # A timer set for an older version sets the game's timers again when it
    # fires (loading the game settles chance), as start-up does; neither
    # moves a seat a person left.
    assert check_tables([table(clock_timers=(), chance=True, void_timers=True)]) == clean
    stuck = table(seats=left, left_logged=[0], void_timers=True)
    assert check_tables([stuck])["games_stranded"] == 1


def test_a_seat_handed_over_without_its_log_entry_is_counted() -> None:
    left = (SeatAtEnd(0, 10, False), SeatAtEnd(1, 11, True))
    assert check_tables([table(seats=left, left_logged=[1])])["seats_left_unlogged"] == 0
    # The shape of the forfeit raced by a move: the seat is the automatic
    # player's, the log never said so, and the game waits on it.
    raced = table(seats=left, awaited=[1], clock_timers=())
    notes: Notes = {}
    assert check_tables([raced], notes) == {"games_stranded": 1, "seats_left_unlogged": 1}
    # The report says where to look.
    assert notes == {
        "seats_left_unlogged": ["game 1: seat 1 automatic"],
        "games_stranded": ["game 1: seat 1 left, awaited"],
    }
    # A @left in the log for a seat a person still plays.
    assert check_tables([table(left_logged=[1])])["seats_left_unlogged"] == 1


def test_tables_are_read_from_the_replayed_states() -> None:
    """:meth:`EndState.tables`, which the run uses, on an Artaban game
    that waits on both seats' set-up: one seat a person left behind the
    log's back."""
    game = GameLog(1, "artaban", 2, {}, [])
    seats = (SeatAtEnd(0, 10, False), SeatAtEnd(1, 11, True))
    facts = GameFacts("active", 0, clocked=True, paused=False, seats=seats)
    timer = TimerAtEnd(1, "clock", 0, 5.0, 0, None)
    end = EndState([], [game], {1: facts}, [timer])
    _, states = check_replays([game])
    (found,) = end.tables(states)
    assert found.awaited == frozenset({0, 1}) and found.clock_timers == frozenset({0})
    assert check_tables([found]) == {"games_stranded": 1, "seats_left_unlogged": 1}
    fine = replace(facts, seats=(seats[0], replace(seats[1], auto=False)))
    both_timed = [timer, replace(timer, seat=1)]
    (ok,) = EndState([], [game], {1: fine}, both_timed).tables(states)
    assert check_tables([ok]) == {"games_stranded": 0, "seats_left_unlogged": 0}


# -- deadlines -------------------------------------------------------------------------------

STOP = 1000.0
TIMER = [1, "clock", 0, 899.0, 4, 0]


def deadlines(
    found: Iterable[Deadline],
    log: list[LogEntry],
    timers: Iterable[TimerAtEnd] = (),
    records: Iterable[Mapping[str, Any]] = (),
    active: Iterable[int] = (1,),
) -> dict[str, int]:
    return check_deadlines(found, log, list(timers), parse_journal(records), active, STOP)


def timeout_write(key: str, start: int, timer: list[Any] = TIMER) -> list[dict[str, Any]]:
    return journal(
        commit_record(key, 1, start, [(0, "@timeout"), (0, "pass")], timer=timer),
        outcome_record(key, version=start + 2),
    )


def test_a_deadline_met_or_timed_out_counts_no_fault() -> None:
    due = Deadline(1, 0, 4, 899.0)
    timed_out = [LogEntry(1, 5, 0, "@timeout", 900.0), LogEntry(1, 6, 0, "pass", 900.0)]
    found = deadlines([due], timed_out, records=timeout_write("t", 4))
    assert found == {
        "deadlines_due": 1,
        "deadlines_timed_out": 1,
        "deadlines_met": 0,
        "deadlines_fired_twice": 0,
        "timeouts_too_soon": 0,
        "deadlines_never_fired": 0,
        "timers_overdue_pending": 0,
        "timers_overdue_claimed": 0,
    }
    met = deadlines([due], [LogEntry(1, 5, 0, "move", 898.9)])
    assert met["deadlines_met"] == 1 and met["deadlines_timed_out"] == 0
    # A deadline after the coordinator stopped waiting is not checked.
    assert deadlines([Deadline(1, 0, 4, STOP + 5)], [])["deadlines_due"] == 0


def test_the_gap_between_timeouts_is_what_the_timed_games_clock_gives() -> None:
    rule = ClockRule.parse(CLOCK)
    assert rule is not None and rule.after_move(0.0) == CLOCK_AFTER_A_TIMEOUT


def test_a_timeout_fired_twice_is_counted() -> None:
    log = [
        LogEntry(1, 5, 0, "@timeout", 900.0),
        LogEntry(1, 6, 0, "pass", 900.0),
        LogEntry(1, 7, 0, "@timeout", 900.5),
        LogEntry(1, 8, 0, "pass", 900.5),
    ]
    # One timer whose timeout two writes put in the log (two processes,
    # or one retrying a write that had been stored).
    twice = timeout_write("t.1", 4) + timeout_write("t.2", 6)
    assert deadlines([], log, records=twice)["deadlines_fired_twice"] == 1
    # Two timers, one timeout each: not twice; but the seat timed out again
    # half a second after its timeout, which left it a minute.
    other = timeout_write("t.1", 4) + timeout_write("t.2", 6, timer=[1, "clock", 0, 900.4, 6, 0])
    found = deadlines([], log, records=other)
    assert found["deadlines_fired_twice"] == 0 and found["timeouts_too_soon"] == 1
    # A minute later is the seat's next deadline, not too soon.
    later = [*log[:2], *(replace(e, at=e.at + CLOCK_AFTER_A_TIMEOUT) for e in log[2:])]
    assert deadlines([], later)["timeouts_too_soon"] == 0
    # A forfeit of a seat that had already left.
    left = [
        LogEntry(1, 5, 0, "@forfeit", 900.0),
        LogEntry(1, 6, 0, "@left", 900.0),
        LogEntry(1, 7, 0, "@forfeit", 990.0),
    ]
    assert deadlines([], left)["deadlines_fired_twice"] == 1


def test_a_deadline_whose_timer_was_deleted_without_firing_is_never_fired() -> None:
    due = Deadline(1, 0, 4, 899.0)
    # Nothing in the log since version 4, and no timer left.
    assert deadlines([due], [])["deadlines_never_fired"] == 1
    # Its game is over: nothing was owed any more.
    assert deadlines([due], [], active=())["deadlines_never_fired"] == 0


def test_timers_left_past_due_are_counted_apart_from_those_gone() -> None:
    due = Deadline(1, 0, 4, 899.0)
    pending = TimerAtEnd(1, "clock", 0, 899.0, 4, None)
    found = deadlines([due], [], [pending])
    assert found["deadlines_never_fired"] == 0
    assert found["timers_overdue_pending"] == 1 and found["timers_overdue_claimed"] == 0
    # Claimed under a lease that has not run out: a process holds it.
    held = deadlines([due], [], [replace(pending, lease_until=STOP + 30)])
    assert held["timers_overdue_claimed"] == 1 and held["timers_overdue_pending"] == 0
    # A lease that ran out is pending again.
    lapsed = deadlines([due], [], [replace(pending, lease_until=STOP - 30)])
    assert lapsed["timers_overdue_pending"] == 1
    # Not yet due, or of a game that is over: not overdue.
    assert deadlines([], [], [replace(pending, due=STOP + 1)])["timers_overdue_pending"] == 0
    assert deadlines([], [], [pending], active=())["timers_overdue_pending"] == 0


# -- boards ----------------------------------------------------------------------------------


def test_boards_posted_twice_raw_and_after_discords_nonce_dedup() -> None:
    post: dict[str, Any] = {"m": "POST", "p": "/channels/{channel_id}/messages"}
    records: list[dict[str, Any]] = [
        {**post, "nonce": "b1v3"},
        {**post, "nonce": "b1v3"},  # a retry with the same nonce: Discord collapses it
        {**post, "nonce": "b2v4"},
        {**post, "nonce": "t2.0v4"},  # a turn DM, not a board
        {"m": "PATCH", "p": "/channels/{channel_id}/messages/{message_id}", "nonce": None},
    ]
    found = check_boards(records)
    assert found["boards_posted"] == 3 and found["board_edits"] == 1
    assert found["boards_posted_twice_raw"] == 1
    assert found["boards_posted_twice"] == 0
    # The same board under another nonce: posted twice, even for Discord.
    doubled = check_boards([*records, {**post, "nonce": "b2v4o"}])
    assert doubled["boards_posted_twice"] == 1


# -- settings --------------------------------------------------------------------------------


def test_racers_aim_where_the_clock_and_the_player_split_the_races() -> None:
    aim = Aim(offset=0.2, step=0.05)
    for _ in range(10):
        aim.learn(clock_won=False)  # the timeout is written later than that
    assert aim.offset > 0.6
    for _ in range(100):
        aim.learn(clock_won=True)
    assert aim.offset >= -0.3  # never earlier than a click can be before the deadline
    landing = aim.landing(random.Random(1))
    assert -0.6 <= landing <= 0.0


def test_the_grace_follows_the_workers_settings() -> None:
    route = Route(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=5, message_id=7
    )
    assert _route_params(route) == {"channel_id": "5", "message_id": "7"}
    quick = parse(["--quick", "--players", "7"])
    assert (quick.games, quick.players, quick.seconds) == (500, 7, 30.0)
    assert quick.deadline_share == 0.1
    assert parse([]).games == 10_000 and parse([]).processes == [1, 2, 4]
    # The watchdog within the lease, the retry scaled with it, and a grace
    # that covers a claim lost with a killed worker, a job stopped by the
    # watchdog, its retry and its second run.
    assert quick.job_limit < quick.lease and quick.retry_after == quick.lease / 2
    worst = quick.lease + quick.job_limit + quick.retry_after + quick.job_limit
    assert quick.grace == deadline_grace(quick.lease, quick.job_limit, quick.retry_after)
    assert quick.grace > worst
    longer = parse(["--lease", "40"])
    assert longer.retry_after == 20 and longer.grace > parse([]).grace
