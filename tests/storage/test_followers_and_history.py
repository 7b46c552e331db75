"""Followers (``storage/followers.py``, migration 0010) and the queries of
``/game history`` (``GameStore.finished``, ``GameStore.seats_of``,
``RatingStore.changes``), on both backends (``database_target``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from storage.database import Database
from storage.followers import FollowerStore
from storage.games import GameRecord, GameStore, OutboxRow
from storage.opening import open_database
from storage.ratings import RatingChange, RatingStore

GUILD = 900_000_000_000_000_001
OTHER_GUILD = 900_000_000_000_000_002
CHANNEL = 1_234_567_890_123_456_789
ALICE, BOB, CAROL = 111_000_000_000_000_001, 222_000_000_000_000_002, 333


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await open_database(database_target)
    try:
        yield database
    finally:
        await database.close()


async def game(
    store: GameStore,
    players: tuple[int, ...] = (ALICE, BOB),
    *,
    engine: str = "artaban",
    guild: int = GUILD,
    ended: float | None = None,
) -> GameRecord:
    """A started game; with ``ended``, finished at that time with a winner."""
    record = await store.create_game(
        engine=engine,
        engine_revision=1,
        options={},
        guild_id=guild,
        channel_id=CHANNEL,
        thread_id=None,
        creator_id=players[0],
        now=100.0,
    )
    for i, user in enumerate(players):
        await store.add_seat(record.id, user, f"player{i}", now=101.0)
    record = await store.start(record.id, now=102.0)
    if ended is not None:
        outcome = {"ranking": [[0], [1]], "scores": [1, 0], "reason": "{p0} won."}
        record = await store.set_status(record.id, "finished", ended, outcome=outcome)
    return record


async def test_follow_refuses_players_lobbies_finished_and_unknown_games(db: Database) -> None:
    store, followers = GameStore(db), FollowerStore(db)
    running = await game(store)
    over = await game(store, ended=500.0)
    lobby = await store.create_game(
        engine="artaban",
        engine_revision=1,
        options={},
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=None,
        creator_id=ALICE,
        now=1.0,
    )
    assert await followers.follow(running.id, ALICE, every_move=False, now=1.0) == "player"
    assert await followers.follow(over.id, CAROL, every_move=False, now=1.0) == "over"
    assert await followers.follow(lobby.id, CAROL, every_move=False, now=1.0) == "lobby"
    assert await followers.follow(10**6, CAROL, every_move=False, now=1.0) == "no-game"
    assert await followers.follow(2**70, CAROL, every_move=False, now=1.0) == "no-game"
    assert await followers.of_game(running.id) == []


async def test_following_twice_updates_the_preference_and_clears_a_refusal(db: Database) -> None:
    store, followers = GameStore(db), FollowerStore(db)
    running = await game(store)
    assert await followers.follow(running.id, CAROL, every_move=False, now=1.0) == "followed"
    assert await followers.follow(running.id, CAROL, every_move=False, now=2.0) == "unchanged"
    assert await followers.follow(running.id, CAROL, every_move=True, now=3.0) == "updated"
    [follower] = await followers.of_game(running.id)
    assert follower.every_move and not follower.dms_closed and follower.since == 3.0
    await followers.close_dms(running.id, CAROL)
    assert (await followers.get(running.id, CAROL)).dms_closed  # type: ignore[union-attr]
    assert await followers.follow(running.id, CAROL, every_move=True, now=4.0) == "updated"
    assert not (await followers.get(running.id, CAROL)).dms_closed  # type: ignore[union-attr]
    assert [f.game_id for f in await followers.of_user(CAROL)] == [running.id]
    assert await followers.unfollow(running.id, CAROL)
    assert not await followers.unfollow(running.id, CAROL)
    assert await followers.of_game(running.id) == []


async def test_follows_survive_a_restart_and_go_with_their_game(database_target: str) -> None:
    first = await open_database(database_target)
    try:
        running = await game(GameStore(first))
        await FollowerStore(first).follow(running.id, CAROL, every_move=True, now=1.0)
    finally:
        await first.close()
    again = await open_database(database_target)
    try:
        [follower] = await FollowerStore(again).of_game(running.id)
        assert follower.user_id == CAROL and follower.every_move
        await GameStore(again).delete_game(running.id)
        assert await FollowerStore(again).of_game(running.id) == []
    finally:
        await again.close()


async def test_many_follow_at_once_each_once(db: Database) -> None:
    store, followers = GameStore(db), FollowerStore(db)
    running = await game(store)
    users = [1000 + i for i in range(12)]
    said = await asyncio.gather(
        *(followers.follow(running.id, u, every_move=u % 2 == 0, now=1.0) for u in users)
    )
    assert said == ["followed"] * len(users)
    assert [f.user_id for f in await followers.of_game(running.id)] == users


async def test_an_owed_follower_dm_puts_the_game_behind(db: Database) -> None:
    store = GameStore(db)
    over = await game(store, ended=500.0)
    await store.set_outbox(over.id, OutboxRow("board", over.version, over=True))
    assert await store.games_behind() == []
    await store.set_outbox(over.id, OutboxRow(f"follow:{CAROL}", over.version, digest="owed:end"))
    assert await store.games_behind() == [over.id]
    # And the sweep of another process takes it (a process died before sending).
    claimed = await store.claim_deliveries(
        "p2", now=1000.0, until=1180.0, quiet_since=1000.0, horizon=0.0
    )
    assert claimed == [over.id]
    await store.set_outbox(over.id, OutboxRow(f"follow:{CAROL}", over.version, digest="sent"))
    assert await store.games_behind() == []


async def test_finished_games_newest_first_filtered_and_paged(db: Database) -> None:
    store = GameStore(db)
    a = await game(store, ended=300.0)
    b = await game(store, (BOB, CAROL), ended=200.0)
    c = await game(store, (ALICE, CAROL), engine="sangram", ended=400.0)
    await game(store)  # still running
    await game(store, guild=OTHER_GUILD, ended=450.0)  # another server
    total, page = await store.finished(GUILD, limit=2)
    assert total == 3 and [r.id for r in page] == [c.id, a.id]
    total, page = await store.finished(GUILD, limit=2, offset=2)
    assert total == 3 and [r.id for r in page] == [b.id]
    total, page = await store.finished(GUILD, user_id=ALICE)
    assert total == 2 and [r.id for r in page] == [c.id, a.id]
    total, page = await store.finished(GUILD, engine="sangram")
    assert [r.id for r in page] == [c.id]
    total, page = await store.finished(GUILD, user_id=CAROL, engine="artaban")
    assert [r.id for r in page] == [b.id]
    # Pages stay put while new games end.
    later = await game(store, ended=900.0)
    total, page = await store.finished(GUILD, until=401.0)
    assert total == 3 and later.id not in [r.id for r in page]
    assert await store.finished(GUILD, user_id=2**70) == (0, [])
    seats = await store.seats_of([a.id, b.id, 10**6])
    assert [s.user_id for s in seats[a.id]] == [ALICE, BOB]
    assert [s.user_id for s in seats[b.id]] == [BOB, CAROL]
    assert seats[10**6] == []


async def test_rating_changes_of_games(db: Database) -> None:
    store, ratings = GameStore(db), RatingStore(db)
    rated = await game(store, ended=300.0)
    unrated = await game(store, ended=310.0)
    await ratings.apply(
        rated.id,
        GUILD,
        "artaban",
        [
            RatingChange(ALICE, 25.0, 8.0, 27.0, 7.5, place=1, won=True),
            RatingChange(BOB, 25.0, 8.0, 23.0, 7.5, place=2, won=False),
        ],
        now=300.0,
    )
    changes = await ratings.changes([rated.id, unrated.id])
    assert set(changes) == {rated.id}
    assert changes[rated.id][ALICE] == pytest.approx(27.0 - 22.5 - (25.0 - 24.0))
    assert changes[rated.id][BOB] < 0
    assert await ratings.changes([]) == {}
