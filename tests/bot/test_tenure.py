"""Whose a seat's secrets are (``bot/tenure.py``, issue 29 item 1): the
tenures read from the seats and the log's table events, the one rule that
answers "which seat may this member read at this version", and a public
record written by it line by line.  Pure: no bot, no database."""

from __future__ import annotations

import pickle
from collections.abc import Sequence

import pytest

from bot.engines import get_engine
from bot.engines.core import CHANCE, Seat
from bot.replay import HIDDEN, Action, GameRecord, public_record, states
from bot.tenure import (
    LEFT,
    Reader,
    Tenure,
    holder,
    readable_seat,
    replaced_event,
    tenures,
)
from storage.games import SeatRecord, automatic_player_id
from tests.test_replay import seeded_record

ASHA, BHIMA, CHITRA, DEV, ESHA = 101, 102, 103, 104, 105


def seats(*users: int, left: Sequence[int] = ()) -> list[SeatRecord]:
    """Seats as stored: ``left``, the seats that passed to the automatic player."""
    return [
        SeatRecord(
            1,
            seat,
            user,
            f"player{seat}",
            controller="auto" if seat in left or user < 0 else "human",
            left_order=1 + sorted(left).index(seat) if seat in left else None,
        )
        for seat, user in enumerate(users)
    ]


def log(length: int, **events: tuple[Seat, str]) -> list[tuple[Seat, str]]:
    """A log of ``length`` chance entries with table events at the versions
    named ``v<n>``."""
    out: list[tuple[Seat, str]] = [(CHANCE, "draw") for _ in range(length)]
    for name, event in events.items():
        out[int(name[1:]) - 1] = event
    return out


def test_nobody_changed_seats_everyone_holds_their_own_from_the_start() -> None:
    held = tenures(seats(ASHA, BHIMA), log(5))
    assert held == (Tenure(0, ASHA, 0), Tenure(1, BHIMA, 0))
    for version in (0, 3, 5, None):
        assert readable_seat(held, ASHA, version) == 0
        assert readable_seat(held, BHIMA, version) == 1
    assert readable_seat(held, DEV, 2) is None


def test_a_player_who_left_reads_their_seat_until_they_left_and_never_after() -> None:
    held = tenures(seats(ASHA, BHIMA, CHITRA, left=[2]), log(9, v4=(2, LEFT)))
    assert Tenure(2, CHITRA, 0, 4) in held
    assert [readable_seat(held, CHITRA, v) for v in range(6)] == [2, 2, 2, 2, None, None]
    assert readable_seat(held, CHITRA) is None  # now
    assert holder(seats(ASHA, BHIMA, CHITRA, left=[2]), 2) is None
    assert holder(seats(ASHA, BHIMA, CHITRA, left=[2]), 1) == BHIMA


def test_a_seat_handed_over_is_its_old_players_until_then_and_the_new_ones_after() -> None:
    now = seats(ASHA, DEV)
    held = tenures(now, log(8, v5=(1, replaced_event(BHIMA))))
    assert held == (Tenure(0, ASHA, 0), Tenure(1, BHIMA, 0, 5), Tenure(1, DEV, 5))
    assert [readable_seat(held, BHIMA, v) for v in (0, 4, 5, 8)] == [1, 1, None, None]
    assert [readable_seat(held, DEV, v) for v in (0, 4, 5, 8)] == [None, None, 1, 1]
    assert readable_seat(held, DEV) == 1 and readable_seat(held, BHIMA) is None
    assert holder(now, 1) == DEV


def test_a_seat_left_then_handed_over_has_nobody_in_between() -> None:
    now = seats(ASHA, BHIMA, ESHA)
    held = tenures(now, log(12, v3=(2, LEFT), v7=(2, replaced_event(CHITRA))))
    assert [t for t in held if t.seat == 2] == [Tenure(2, CHITRA, 0, 3), Tenure(2, ESHA, 7)]
    assert [readable_seat(held, CHITRA, v) for v in (2, 3, 6, 7, 12)] == [2, None, None, None, None]
    assert [readable_seat(held, ESHA, v) for v in (2, 3, 6, 7, 12)] == [None, None, None, 2, 2]


def test_two_hand_overs_chain_through_the_ids_they_name() -> None:
    now = seats(ASHA, ESHA)
    events = log(10, v3=(1, replaced_event(BHIMA)), v6=(1, replaced_event(DEV)))
    assert [t for t in tenures(now, events) if t.seat == 1] == [
        Tenure(1, BHIMA, 0, 3),
        Tenure(1, DEV, 3, 6),
        Tenure(1, ESHA, 6),
    ]


def test_a_legacy_hand_over_names_nobody_so_nobody_reads_the_seat_before_it() -> None:
    """``@replaced`` as written before it named who gave the seat up: the
    earlier player is unknown, so nobody but the current holder reads that
    seat, and they only from the hand-over on."""
    now = seats(ASHA, DEV)
    held = tenures(now, log(8, v5=(1, "@replaced")))
    assert [t for t in held if t.seat == 1] == [Tenure(1, None, 0, 5), Tenure(1, DEV, 5)]
    for user in (ASHA, BHIMA, CHITRA):
        assert all(readable_seat(held, user, v) != 1 for v in range(9))
    assert [readable_seat(held, DEV, v) for v in (4, 5)] == [None, 1]
    # Before it, an id that was written still counts.
    earlier = tenures(now, log(9, v2=(1, replaced_event(BHIMA)), v5=(1, "@replaced")))
    assert [t for t in earlier if t.seat == 1] == [
        Tenure(1, BHIMA, 0, 2),
        Tenure(1, None, 2, 5),
        Tenure(1, DEV, 5),
    ]


def test_the_seats_alone_answer_for_now() -> None:
    """Current surfaces ask about now: the seats say who holds each."""
    assert readable_seat(tenures(seats(ASHA, DEV)), DEV) == 1
    assert readable_seat(tenures(seats(ASHA, BHIMA, left=[1])), BHIMA) is None
    assert readable_seat(tenures(seats(ASHA, BHIMA, left=[1])), ASHA) == 0


def test_an_automatic_player_of_the_lobby_holds_nothing_anyone_reads() -> None:
    now = seats(ASHA, automatic_player_id(1))
    assert tenures(now, log(3)) == (Tenure(0, ASHA, 0),)
    assert holder(now, 1) is None and holder(now, 0) == ASHA
    assert readable_seat(tenures(now), automatic_player_id(1)) is None


def test_when_the_seats_and_the_log_disagree_nobody_reads_more_than_either_allows() -> None:
    """The service writes a seat's change and its table event in two
    writes: a crash between them leaves one without the other."""
    # The seat passed to the automatic player, its @left never written: the
    # player's time ends with the log.
    held = tenures(seats(ASHA, BHIMA, left=[1]), log(6))
    assert Tenure(1, BHIMA, 0, 6) in held and readable_seat(held, BHIMA) is None
    # Handed over after its player left, the @replaced never written: the new
    # player reads it from now on only, and who left it is unknown.
    held = tenures(seats(ASHA, DEV), log(6, v2=(1, LEFT)))
    assert [t for t in held if t.seat == 1] == [Tenure(1, None, 0, 2), Tenure(1, DEV, 6)]
    assert readable_seat(held, DEV, 5) is None and readable_seat(held, DEV) == 1


def test_a_reader_asks_the_rule_and_travels_to_the_render_process() -> None:
    """The review and the export are drawn in another process: a Reader is
    a value that pickles."""
    now = seats(ASHA, DEV)
    events = log(8, v5=(1, replaced_event(BHIMA)))
    bhima, dev = Reader.of(BHIMA, now, events), Reader.of(DEV, now, events)
    assert [bhima.seat_at(v) for v in (4, 5)] == [1, None] and bhima.seat_at() is None
    assert [dev.seat_at(v) for v in (4, 5)] == [None, 1] and dev.seat_at() == 1
    assert bhima.last_seat == dev.last_seat == 1
    assert Reader.of(CHITRA, now, events).last_seat is None
    assert pickle.loads(pickle.dumps(dev)) == dev


def test_a_hand_over_round_trips_through_a_game_record() -> None:
    """``@replaced:<id>`` has no space, so a record keeps it whole with its words."""
    record = GameRecord(
        engine="sangram",
        revision=2,
        options={},
        names=("asha", "dev"),
        actions=(
            Action(CHANCE, "draw vaidik-2"),
            Action(1, replaced_event(BHIMA), "A moderator handed over bhima's seat."),
            Action(1, LEFT, "{p1} resigned."),
        ),
    )
    back = GameRecord.parse(record.format())
    assert back == record
    assert back.actions[1].text == f"@replaced:{BHIMA}" and back.actions[1].table_event
    assert back.lines[1] == (1, f"@replaced:{BHIMA}")


@pytest.mark.parametrize("left_at", [10, 40])
def test_a_public_record_keeps_a_seats_lines_only_while_its_reader_held_it(left_at: int) -> None:
    """Seat 2 leaves at ``left_at`` and, later, a member takes it over: its
    first player keeps its private lines before the leave, the new one
    those after the hand-over, and nobody reads the lines in between."""
    complete = seeded_record("sangram", 3, seed=4)
    lines = list(complete.actions)
    handed_at = left_at + 20
    lines.insert(left_at - 1, Action(2, LEFT, "{p2} resigned."))
    lines.insert(handed_at - 1, Action(2, replaced_event(CHITRA), "{p2} took the seat."))
    record = GameRecord(
        engine=complete.engine,
        revision=complete.revision,
        options=complete.options,
        names=complete.names,
        actions=tuple(lines),
    )
    now = seats(ASHA, BHIMA, ESHA)
    engine = get_engine("sangram")
    private: dict[int, int | None] = {}
    for version, (line, action, before, _) in enumerate(states(record), start=1):
        if action is not None:
            private[version] = engine.private_to(before, line.actor, action)
    mine = [v for v, seat in private.items() if seat == 2]
    assert any(v < left_at for v in mine) and any(v > handed_at for v in mine)

    def kept(user: int, lines: Sequence[int] = mine) -> set[int]:
        shown = public_record(record, Reader.of(user, now, record.lines)).actions
        return {v for v in shown_as_they_are(record, shown) if v in lines}

    assert kept(CHITRA) == {v for v in mine if v < left_at}
    assert kept(ESHA) == {v for v in mine if v > handed_at}
    assert kept(ASHA) == set()
    for user, seat in ((CHITRA, 2), (ESHA, 2), (ASHA, 0)):
        assert public_record(record, Reader.of(user, now, record.lines)).reader == seat
    # Her own lines stay hers: Asha reads every line of seat 0.
    zero = [v for v, seat in private.items() if seat == 0]
    assert zero and kept(ASHA, zero) == set(zero)


def shown_as_they_are(record: GameRecord, shown: Sequence[Action]) -> list[int]:
    """The versions of the log's lines a public record shows as they are
    (the others are ``?``, or left out: a private line the channel was never
    told about)."""
    out, at = [], 0
    for version, line in enumerate(record.actions, start=1):
        if at < len(shown) and shown[at] == line:
            out.append(version)
            at += 1
        elif at < len(shown) and shown[at].text == HIDDEN and shown[at].actor == line.actor:
            at += 1
    assert at == len(shown)
    return out
