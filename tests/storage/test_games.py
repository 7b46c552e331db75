"""GameStore: games, seats, the append-only log, snapshots, messages, a restart.

Every test runs on both backends (``database_target``: SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage.backend import INTEGRITY_ERRORS
from storage.database import Database
from storage.games import (
    GameNotFound,
    GameRecord,
    GameStatus,
    GameStore,
    NewEntry,
    NotSeated,
    SeatTaken,
    StaleVersion,
    WrongStatus,
)
from storage.opening import open_database

GUILD = 900_000_000_000_000_001
CHANNEL = 1_234_567_890_123_456_789  # snowflakes are big: close to 2**63
THREAD = 1_234_567_890_123_456_790
ALICE, BOB, CAROL, DAVE = 111_000_000_000_000_001, 222, 333, 444


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await open_database(database_target)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def store(db: Database) -> GameStore:
    return GameStore(db)


async def new_game(
    store: GameStore,
    *,
    channel_id: int = CHANNEL,
    thread_id: int | None = None,
    options: dict[str, Any] | None = None,
    now: float = 1000.0,
) -> GameRecord:
    return await store.create_game(
        engine="mahabharata",
        engine_revision=3,
        options={"variant": "classic", "seats": 4} if options is None else options,
        guild_id=GUILD,
        channel_id=channel_id,
        thread_id=thread_id,
        creator_id=ALICE,
        now=now,
    )


async def active_game(store: GameStore, players: tuple[int, ...] = (ALICE, BOB)) -> GameRecord:
    game = await new_game(store)
    for i, user in enumerate(players):
        await store.add_seat(game.id, user, f"player{i}", now=1001.0)
    return await store.start(game.id, now=1002.0)


def entries(*actions: str) -> list[NewEntry]:
    return [NewEntry(actor=i % 2, action=a, narration=f"{{p{i % 2}}} plays {a}", private_to=None)
            for i, a in enumerate(actions)]


async def raw(store: GameStore, sql: str, *params: object) -> list[tuple[object, ...]]:
    async with store.db.read() as conn:
        return [tuple(r) for r in await conn.execute_fetchall(sql, params)]


# ----------------------------------------------------------------- games


async def test_create_and_get_game(store: GameStore) -> None:
    game = await new_game(store, thread_id=THREAD, options={"z": [1, 2], "a": {"b": None}})
    assert game.id >= 1
    assert game.engine == "mahabharata" and game.engine_revision == 3
    assert game.options == {"z": [1, 2], "a": {"b": None}}
    assert game.status == "lobby" and game.version == 0
    assert (game.guild_id, game.channel_id, game.thread_id) == (GUILD, CHANNEL, THREAD)
    assert game.creator_id == ALICE
    assert game.created_at == game.updated_at == 1000.0
    assert game.outcome is None
    assert await store.get_game(game.id) == game
    assert await store.get_game(game.id + 1000) is None
    # JSON is stored compact with sorted keys.
    assert await raw(store, "SELECT options FROM games WHERE id = ?", game.id) == [
        ('{"a":{"b":null},"z":[1,2]}',)
    ]


async def test_game_ids_are_never_reused(store: GameStore) -> None:
    first = await new_game(store)
    await store.delete_game(first.id)
    second = await new_game(store)
    assert second.id > first.id


async def test_listing_games(store: GameStore) -> None:
    lobby = await new_game(store)
    in_thread = await new_game(store, channel_id=CHANNEL, thread_id=THREAD)
    elsewhere = await new_game(store, channel_id=42)
    await store.add_seat(lobby.id, BOB, "Bob", now=1.0)
    await store.add_seat(elsewhere.id, BOB, "Bob", now=1.0)
    await store.start(elsewhere.id, now=2.0)
    finished = await new_game(store)
    await store.add_seat(finished.id, BOB, "Bob", now=1.0)
    await store.set_status(finished.id, "abandoned", now=3.0)

    ids = [g.id for g in await store.games_in_channel(CHANNEL)]
    assert ids == [lobby.id, in_thread.id]
    assert [g.id for g in await store.games_in_channel(THREAD)] == [in_thread.id]
    assert [g.id for g in await store.games_in_channel(CHANNEL, ["abandoned"])] == [finished.id]
    assert await store.games_in_channel(CHANNEL, []) == []

    assert [g.id for g in await store.games_of_user(BOB)] == [lobby.id, elsewhere.id]
    all_statuses: tuple[GameStatus, ...] = ("lobby", "active", "finished", "abandoned")
    assert [g.id for g in await store.games_of_user(BOB, all_statuses)] == [
        lobby.id, elsewhere.id, finished.id,
    ]
    assert await store.games_of_user(CAROL) == []

    live = await store.live_games()
    assert [(g.id, g.status) for g in live] == [
        (lobby.id, "lobby"), (in_thread.id, "lobby"), (elsewhere.id, "active"),
    ]
    with pytest.raises(ValueError):
        await store.games_in_channel(CHANNEL, ["bogus"])  # type: ignore[list-item]


# ----------------------------------------------------------------- seats


async def test_add_seats_in_order(store: GameStore) -> None:
    game = await new_game(store)
    a = await store.add_seat(game.id, ALICE, "Alice", now=1001.0)
    b = await store.add_seat(game.id, BOB, "Bób ✓", now=1002.0)
    assert (a.game_id, a.seat, a.user_id, a.display_name) == (game.id, 0, ALICE, "Alice")
    assert (b.seat, b.display_name) == (1, "Bób ✓")
    assert await store.seats(game.id) == [a, b]
    refreshed = await store.get_game(game.id)
    assert refreshed is not None and refreshed.updated_at == 1002.0
    assert await store.seats(game.id + 99) == []


async def test_seat_taken(store: GameStore) -> None:
    game = await new_game(store)
    await store.add_seat(game.id, ALICE, "Alice", now=1.0)
    await store.add_seat(game.id, BOB, "Bob", now=1.0)
    with pytest.raises(SeatTaken) as info:
        await store.add_seat(game.id, BOB, "Bob again", now=2.0)
    assert info.value.seat == 1 and info.value.user_id == BOB
    assert "already has a seat" in str(info.value)
    assert [s.user_id for s in await store.seats(game.id)] == [ALICE, BOB]


async def test_remove_seat_renumbers_keeping_order(store: GameStore) -> None:
    game = await new_game(store)
    for user, name in ((ALICE, "A"), (BOB, "B"), (CAROL, "C"), (DAVE, "D")):
        await store.add_seat(game.id, user, name, now=1.0)
    await store.remove_seat(game.id, BOB)
    seats = await store.seats(game.id)
    assert [(s.seat, s.user_id, s.display_name) for s in seats] == [
        (0, ALICE, "A"), (1, CAROL, "C"), (2, DAVE, "D"),
    ]
    await store.remove_seat(game.id, ALICE)
    assert [(s.seat, s.user_id) for s in await store.seats(game.id)] == [(0, CAROL), (1, DAVE)]
    again = await store.add_seat(game.id, BOB, "B", now=2.0)
    assert again.seat == 2


async def test_not_seated(store: GameStore) -> None:
    game = await new_game(store)
    await store.add_seat(game.id, ALICE, "A", now=1.0)
    with pytest.raises(NotSeated, match="no seat"):
        await store.remove_seat(game.id, BOB)
    assert len(await store.seats(game.id)) == 1


async def test_seats_change_only_in_the_lobby(store: GameStore) -> None:
    game = await active_game(store)
    with pytest.raises(WrongStatus, match="already started"):
        await store.add_seat(game.id, CAROL, "C", now=5.0)
    with pytest.raises(WrongStatus):
        await store.remove_seat(game.id, ALICE)
    with pytest.raises(WrongStatus):
        await store.set_seat_order(game.id, [BOB, ALICE])
    assert [s.user_id for s in await store.seats(game.id)] == [ALICE, BOB]
    with pytest.raises(GameNotFound):
        await store.add_seat(game.id + 50, CAROL, "C", now=5.0)


async def test_set_seat_order(store: GameStore) -> None:
    game = await new_game(store)
    for user, name in ((ALICE, "A"), (BOB, "B"), (CAROL, "C")):
        await store.add_seat(game.id, user, name, now=1.0)
    await store.set_seat_order(game.id, [CAROL, ALICE, BOB])
    assert [(s.seat, s.user_id, s.display_name) for s in await store.seats(game.id)] == [
        (0, CAROL, "C"), (1, ALICE, "A"), (2, BOB, "B"),
    ]
    with pytest.raises(NotSeated):
        await store.set_seat_order(game.id, [CAROL, ALICE, DAVE])
    with pytest.raises(ValueError):
        await store.set_seat_order(game.id, [CAROL, ALICE])
    with pytest.raises(ValueError):
        await store.set_seat_order(game.id, [CAROL, ALICE, ALICE])
    assert [s.user_id for s in await store.seats(game.id)] == [CAROL, ALICE, BOB]


async def test_concurrent_joins_get_distinct_seats(store: GameStore) -> None:
    game = await new_game(store)
    users = [ALICE, BOB, CAROL, DAVE]
    seats = await asyncio.gather(*(store.add_seat(game.id, u, str(u), now=1.0) for u in users))
    assert sorted(s.seat for s in seats) == [0, 1, 2, 3]


# ----------------------------------------------------------------- status


async def test_start_and_status_move_forward_only(store: GameStore) -> None:
    game = await new_game(store)
    started = await store.start(game.id, now=1500.0)
    assert started.status == "active" and started.updated_at == 1500.0
    with pytest.raises(WrongStatus, match="already started"):
        await store.start(game.id, now=1501.0)
    with pytest.raises(WrongStatus):
        await store.set_status(game.id, "lobby", now=1501.0)
    done = await store.set_status(game.id, "finished", now=1600.0, outcome={"winners": [0]})
    assert done.status == "finished" and done.outcome == {"winners": [0]}
    assert done.updated_at == 1600.0
    with pytest.raises(WrongStatus, match="already over"):
        await store.set_status(game.id, "abandoned", now=1700.0)
    assert await store.get_game(game.id) == done
    with pytest.raises(GameNotFound):
        await store.start(game.id + 7, now=1.0)


async def test_lobby_can_be_abandoned(store: GameStore) -> None:
    game = await new_game(store)
    gone = await store.set_status(game.id, "abandoned", now=2000.0)
    assert gone.status == "abandoned" and gone.outcome is None
    with pytest.raises(WrongStatus, match="was abandoned"):
        await store.start(game.id, now=2001.0)


# ----------------------------------------------------------------- append


async def test_append_assigns_seqs_and_version(store: GameStore) -> None:
    game = await active_game(store)
    after = await store.append(
        game.id, expected_version=0, entries=entries("e2e4", "e7e5"), now=2000.0
    )
    assert after.version == 2 and after.updated_at == 2000.0 and after.status == "active"
    after = await store.append(
        game.id,
        expected_version=2,
        entries=[NewEntry(actor=-1, action="deal 7H", narration="cards dealt", private_to=1)],
        now=2001.0,
    )
    assert after.version == 3
    log = await store.log(game.id)
    assert [(e.seq, e.actor, e.action, e.private_to) for e in log] == [
        (1, 0, "e2e4", None), (2, 1, "e7e5", None), (3, -1, "deal 7H", 1),
    ]
    assert log[0].narration == "{p0} plays e2e4"
    assert [e.created_at for e in log] == [2000.0, 2000.0, 2001.0]
    assert [e.seq for e in await store.log(game.id, after_seq=2)] == [3]
    assert await store.get_game(game.id) == after


async def test_stale_version_writes_nothing(store: GameStore) -> None:
    game = await active_game(store)
    current = await store.append(
        game.id, expected_version=0, entries=entries("a"), now=2000.0, snapshot={"n": 1}
    )
    with pytest.raises(StaleVersion) as info:
        await store.append(
            game.id,
            expected_version=0,
            entries=entries("b", "c"),
            now=2100.0,
            snapshot={"n": 99},
            status="finished",
            outcome={"winners": [1]},
        )
    assert str(info.value) == (
        "That board is out of date: the game has moved on since. Use the newest board."
    )
    assert (info.value.expected, info.value.current) == (0, 1)
    assert await store.get_game(game.id) == current
    assert [e.action for e in await store.log(game.id)] == ["a"]
    assert await store.latest_snapshot(game.id) == (1, {"n": 1})
    with pytest.raises(StaleVersion):  # ahead of the game is stale too
        await store.append(game.id, expected_version=5, entries=entries("x"), now=2100.0)


async def test_failure_after_the_version_bump_rolls_everything_back(store: GameStore) -> None:
    game = await active_game(store)
    bad = NewEntry(actor=0, action=None, narration="n", private_to=None)  # type: ignore[arg-type]
    with pytest.raises(INTEGRITY_ERRORS):
        await store.append(game.id, expected_version=0, entries=[entries("ok")[0], bad], now=9.0)
    again = await store.get_game(game.id)
    assert again is not None and again.version == 0
    assert await store.log(game.id) == []


async def test_snapshots_latest_wins(store: GameStore) -> None:
    game = await active_game(store)
    assert await store.latest_snapshot(game.id) is None
    # An empty append stores a snapshot at the current version (0 here).
    same = await store.append(
        game.id, expected_version=0, entries=[], now=1.0, snapshot={"board": [], "turn": 0}
    )
    assert same.version == 0
    assert await store.latest_snapshot(game.id) == (0, {"board": [], "turn": 0})
    await store.append(
        game.id, expected_version=0, entries=entries("a", "b"), now=2.0, snapshot={"turn": 2}
    )
    await store.append(game.id, expected_version=2, entries=entries("c"), now=3.0)
    assert await store.latest_snapshot(game.id) == (2, {"turn": 2})
    await store.append(
        game.id, expected_version=3, entries=entries("d", "e", "f"), now=4.0, snapshot=["s", 6]
    )
    assert await store.latest_snapshot(game.id) == (6, ["s", 6])
    seqs = await raw(store, "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", game.id)
    assert seqs == [(0,), (2,), (6,)]


async def test_append_can_finish_the_game(store: GameStore) -> None:
    game = await active_game(store)
    done = await store.append(
        game.id,
        expected_version=0,
        entries=entries("mate"),
        now=3000.0,
        snapshot={"over": True},
        status="finished",
        outcome={"winners": [0], "reason": "checkmate"},
    )
    assert done.status == "finished" and done.version == 1
    assert done.outcome == {"winners": [0], "reason": "checkmate"}
    assert await store.get_game(game.id) == done
    with pytest.raises(WrongStatus, match="already over"):
        await store.append(game.id, expected_version=1, entries=entries("late"), now=3001.0)
    assert len(await store.log(game.id)) == 1


async def test_append_can_start_a_lobby(store: GameStore) -> None:
    game = await new_game(store)
    started = await store.append(
        game.id,
        expected_version=0,
        entries=[NewEntry(-1, "shuffle 42", "The deck is shuffled.", -1)],
        now=5.0,
        status="active",
    )
    assert started.status == "active" and started.version == 1
    with pytest.raises(WrongStatus, match="go back to its lobby"):
        await store.append(game.id, expected_version=1, entries=[], now=6.0, status="lobby")


async def test_append_to_missing_game(store: GameStore) -> None:
    with pytest.raises(GameNotFound, match="#12345"):
        await store.append(12345, expected_version=0, entries=entries("a"), now=1.0)


async def test_bad_entries_are_rejected_before_writing(store: GameStore) -> None:
    game = await active_game(store)
    with pytest.raises(ValueError):
        await store.append(
            game.id, expected_version=0, entries=[NewEntry(-2, "a", "n", None)], now=1.0
        )
    with pytest.raises(ValueError):
        await store.append(
            game.id, expected_version=0, entries=[NewEntry(0, "a", "n", -3)], now=1.0
        )
    record = await store.get_game(game.id)
    assert record is not None and record.version == 0


async def test_concurrent_appends_exactly_one_wins(store: GameStore) -> None:
    game = await active_game(store)
    results = await asyncio.gather(
        store.append(game.id, expected_version=0, entries=entries("a1", "a2"), now=1.0),
        store.append(game.id, expected_version=0, entries=entries("b1", "b2"), now=1.0),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, GameRecord)]
    losers = [r for r in results if isinstance(r, StaleVersion)]
    assert len(winners) == 1 and len(losers) == 1
    log = [e.action for e in await store.log(game.id)]
    assert log in (["a1", "a2"], ["b1", "b2"])
    assert winners[0].version == 2


# ----------------------------------------------------------------- append-only


async def test_action_log_refuses_update_and_delete(store: GameStore) -> None:
    game = await active_game(store)
    await store.append(game.id, expected_version=0, entries=entries("a", "b"), now=1.0)
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        async with store.db.transaction() as conn:
            await conn.execute("UPDATE actions SET action = 'forged' WHERE game_id = ?", (game.id,))
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        async with store.db.transaction() as conn:
            await conn.execute("DELETE FROM actions WHERE game_id = ? AND seq = 2", (game.id,))
    assert [e.action for e in await store.log(game.id)] == ["a", "b"]


async def test_delete_game_cascades(store: GameStore) -> None:
    keep = await active_game(store)
    await store.append(keep.id, expected_version=0, entries=entries("k"), now=1.0, snapshot={})
    gone = await active_game(store, players=(CAROL, DAVE))
    await store.append(gone.id, expected_version=0, entries=entries("g"), now=1.0, snapshot={})
    await store.set_message(gone.id, "board", CHANNEL, 5)
    await store.delete_game(gone.id)
    await store.delete_game(gone.id)  # deleting twice is harmless
    assert await store.get_game(gone.id) is None
    for table in ("seats", "actions", "snapshots", "messages"):
        rows = await raw(store, f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", gone.id)
        assert rows == [(0,)], table
    assert [e.action for e in await store.log(keep.id)] == ["k"]
    assert len(await store.seats(keep.id)) == 2


# ----------------------------------------------------------------- messages


async def test_messages_upsert(store: GameStore) -> None:
    game = await new_game(store)
    assert await store.get_message(game.id, "lobby") is None
    await store.set_message(game.id, "lobby", CHANNEL, 1_300_000_000_000_000_001)
    assert await store.get_message(game.id, "lobby") == (CHANNEL, 1_300_000_000_000_000_001)
    await store.set_message(game.id, "board", THREAD, 77)
    await store.set_message(game.id, "lobby", THREAD, 78)
    assert await store.get_message(game.id, "lobby") == (THREAD, 78)
    assert await store.get_message(game.id, "board") == (THREAD, 77)
    assert await raw(store, "SELECT COUNT(*) FROM messages WHERE game_id = ?", game.id) == [(2,)]
    with pytest.raises(GameNotFound):
        await store.set_message(game.id + 99, "lobby", CHANNEL, 1)


# ----------------------------------------------------------------- restart


async def test_restart_keeps_everything_and_continues(database_target: str) -> None:
    path = database_target
    db1 = await open_database(path)
    try:
        store1 = GameStore(db1)
        game = await new_game(store1, thread_id=THREAD, options={"variant": "four"})
        await store1.add_seat(game.id, ALICE, "Alice", now=1001.0)
        await store1.add_seat(game.id, BOB, "Bob", now=1002.0)
        await store1.start(game.id, now=1003.0)
        await store1.append(
            game.id, expected_version=0, entries=entries("a", "b"), now=1004.0,
            snapshot={"turn": 2},
        )
        before = await store1.append(
            game.id,
            expected_version=2,
            entries=[NewEntry(-1, "roll 6", "{p0} rolls a six", 0)],
            now=1005.0,
        )
        await store1.set_message(game.id, "board", THREAD, 555)
        log_before = await store1.log(game.id)
        seats_before = await store1.seats(game.id)
    finally:
        await db1.close()

    db2 = await open_database(path)
    try:
        store2 = GameStore(db2)
        assert await store2.get_game(game.id) == before
        assert [g.id for g in await store2.live_games()] == [game.id]
        assert await store2.seats(game.id) == seats_before
        assert await store2.log(game.id) == log_before
        assert await store2.latest_snapshot(game.id) == (2, {"turn": 2})
        assert await store2.get_message(game.id, "board") == (THREAD, 555)
        with pytest.raises(StaleVersion):
            await store2.append(game.id, expected_version=2, entries=entries("x"), now=1006.0)
        after = await store2.append(
            game.id, expected_version=3, entries=entries("c"), now=1006.0, snapshot={"turn": 4}
        )
        assert after.version == 4
        assert [e.seq for e in await store2.log(game.id)] == [1, 2, 3, 4]
        assert await store2.latest_snapshot(game.id) == (4, {"turn": 4})
    finally:
        await db2.close()


async def test_a_nul_character_in_a_name_or_an_entry_is_stored_not_refused(
    store: GameStore,
) -> None:
    """PostgreSQL's text cannot hold U+0000 (SQLite can): a name or a log
    text carrying one is written (as U+FFFD there), never a failed write."""
    game = await new_game(store)
    await store.add_seat(game.id, ALICE, "nul\x00name", now=1001.0)
    await store.add_seat(game.id, BOB, "bob", now=1001.0)
    await store.start(game.id, now=1002.0)
    await store.append(game.id, expected_version=0, entries=entries("a\x00b"), now=1003.0)
    (seat, _) = await store.seats(game.id)
    (entry,) = await store.log(game.id)
    assert seat.display_name.replace("\x00", "\ufffd") == "nul\ufffdname"
    assert entry.action.replace("\x00", "\ufffd") == "a\ufffdb"
