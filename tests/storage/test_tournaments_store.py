"""Tournaments in storage (migration 0005), on both backends: players join
while it is open, rounds are written whole and once, a table plays one game
and records one result, and a restart mid-round finds everything as it was."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage.backend import INTEGRITY_ERRORS
from storage.database import Database
from storage.errors import StorageError
from storage.games import GameStore
from storage.opening import open_database
from storage.tournaments import TournamentClosed, TournamentStore


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await open_database(database_target)
    try:
        yield database
    finally:
        await database.close()


async def new_tournament(store: TournamentStore, format: str = "swiss") -> int:
    record = await store.create(
        guild_id=9,
        channel_id=1,
        engine="artaban",
        format=format,  # type: ignore[arg-type]
        rounds=3,
        table_size=2,
        options={"clock": "1d"},
        creator_id=5,
        now=1.0,
    )
    assert record.status == "open" and record.round == 0 and record.options == {"clock": "1d"}
    return record.id


async def new_game(db: Database) -> int:
    record = await GameStore(db).create_game(
        engine="artaban",
        engine_revision=1,
        options={},
        guild_id=9,
        channel_id=1,
        thread_id=None,
        creator_id=5,
        now=0.0,
    )
    return record.id


async def test_players_join_and_leave_while_open_only(db: Database) -> None:
    store = TournamentStore(db)
    tid = await new_tournament(store)
    assert await store.join(tid, 100, "Asha", 20.0, now=2.0)
    assert not await store.join(tid, 100, "Asha", 20.0, now=3.0)  # already in
    assert await store.join(tid, 101, "Bhima", 10.0, now=4.0)
    assert await store.leave(tid, 101) and not await store.leave(tid, 101)
    assert [p.user_id for p in await store.players(tid)] == [100]
    assert await store.add_round(tid, 1, [[100]], now=5.0)
    with pytest.raises(TournamentClosed):
        await store.join(tid, 102, "Chitra", 0.0, now=6.0)
    with pytest.raises(StorageError):
        await store.join(999, 1, "x", 0.0, now=6.0)


async def test_a_round_is_written_whole_and_once(db: Database) -> None:
    store = TournamentStore(db)
    tid = await new_tournament(store)
    assert not await store.add_round(tid, 2, [[1, 2]], now=2.0)  # not the next round
    assert await store.add_round(tid, 1, [[1, 2], [3, 4], [5]], now=2.0)
    assert not await store.add_round(tid, 1, [[1, 3]], now=3.0)  # again, after a restart
    record = await store.get(tid)
    assert record is not None and record.round == 1 and record.status == "running"
    tables = await store.tables(tid, 1)
    assert [t.seats for t in tables] == [(1, 2), (3, 4), (5,)]
    assert tables[2].is_bye and not tables[0].is_bye
    assert await store.add_round(tid, 2, [[1, 3], [2, 5], [4]], now=4.0)
    assert len(await store.tables(tid)) == 6


async def test_a_table_plays_one_game_and_records_one_result(db: Database) -> None:
    store = TournamentStore(db)
    tid = await new_tournament(store)
    await store.add_round(tid, 1, [[1, 2], [3, 4]], now=2.0)
    game, other = await new_game(db), await new_game(db)
    assert await store.link_game(tid, 1, 1, game)
    assert not await store.link_game(tid, 1, 1, other)  # a restart never starts it twice
    with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)unique"):
        await store.link_game(tid, 1, 2, game)  # one game, one table
    found = await store.table_of_game(game)
    assert found is not None and found[0] == tid and found[1].number == 1
    assert await store.table_of_game(other) is None
    assert not await store.record_result(tid, 1, 1, [1, 2, 3])  # one place per seat
    assert await store.record_result(tid, 1, 1, [2, 1])
    assert not await store.record_result(tid, 1, 1, [1, 2])  # once
    assert await store.record_result(tid, 1, 2, [1, 1], adjudicated=True)
    tables = await store.tables(tid, 1)
    assert tables[0].places == (2, 1) and not tables[0].adjudicated
    assert tables[1].places == (1, 1) and tables[1].adjudicated


async def test_a_restart_mid_round_finds_everything(database_target: str) -> None:
    path = database_target
    db = await open_database(path)
    store = TournamentStore(db)
    tid = await new_tournament(store, "pods")
    for uid in (1, 2, 3, 4, 5, 6):
        await store.join(tid, uid, f"p{uid}", 0.0, now=1.0)
    await store.add_round(tid, 1, [[1, 2, 3], [4, 5, 6]], now=2.0)
    game = await new_game(db)
    await store.link_game(tid, 1, 1, game)
    await store.record_result(tid, 1, 1, [1, 2, 3])
    await store.drop(tid, 6, after_round=1)
    await db.close()
    db = await open_database(path)
    try:
        store = TournamentStore(db)
        tables = await store.tables(tid)
        assert [(t.game_id, t.places) for t in tables] == [(game, (1, 2, 3)), (None, None)]
        players = await store.players(tid)
        assert [p.user_id for p in players if p.active] == [1, 2, 3, 4, 5]
        assert [t.id for t in await store.live_in_guild(9)] == [tid]
        await store.set_status(tid, "finished", now=9.0)
        assert await store.live_in_guild(9) == []
    finally:
        await db.close()
