"""Ratings and rating history (migration 0004): a game is rated once only,
leaderboards by conservative estimate, history and trends, stale ratings
refused, and the migration on a fresh database and on one at schema 3.  On
both backends."""

from __future__ import annotations

import asyncio
import itertools
import math
from collections.abc import AsyncIterator

import pytest

from bot.tournament.ratings import FinishedGame, Rating, rate
from storage.backend import INTEGRITY_ERRORS
from storage.database import Database
from storage.games import GameStore
from storage.opening import open_database
from storage.ratings import RatingChange, RatingStore, StaleRating, ordinal
from storage.schema import load_migrations

GUILD = 900
OTHER_GUILD = 901


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await open_database(database_target)
    try:
        yield database
    finally:
        await database.close()


def change(
    user: int,
    after: tuple[float, float],
    *,
    before: tuple[float, float] = (25.0, 25.0 / 3.0),
    place: int = 1,
    won: bool = False,
    games_before: int = 0,
) -> RatingChange:
    return RatingChange(
        user_id=user,
        mu_before=before[0],
        sigma_before=before[1],
        mu_after=after[0],
        sigma_after=after[1],
        place=place,
        won=won,
        games_before=games_before,
    )


async def dump(db: Database) -> list[tuple[object, ...]]:
    async with db.read() as conn:
        ratings = await conn.execute_fetchall("SELECT * FROM ratings ORDER BY 1, 2, 3")
        history = await conn.execute_fetchall("SELECT * FROM rating_history ORDER BY 1, 4")
    return [tuple(r) for r in ratings] + [tuple(r) for r in history]


async def rate_and_store(
    store: RatingStore, game_id: int, game: FinishedGame, now: float, guild: int = GUILD
) -> bool:
    """What the service will do: read, rate, record."""
    stored = await store.ratings(guild, game.engine, game.players)
    changes = rate({u: Rating.of(r) for u, r in stored.items()}, game)
    return await store.apply(game_id, guild, game.engine, changes.values(), now)


def ranking(*groups: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(g) for g in groups)


# ----------------------------------------------------------------- apply


async def test_apply_writes_ratings_and_history(db: Database) -> None:
    store = RatingStore(db)
    game = FinishedGame("sangram", (1, 2, 3), ranking((2,), (0, 1)))
    assert await rate_and_store(store, 10, game, now=1000.0)
    expected = rate({}, game)
    for user, c in expected.items():
        record = await store.get(GUILD, "sangram", user)
        assert record is not None
        assert (record.mu, record.sigma) == (c.mu_after, c.sigma_after)  # exact round trip
        assert record.games == 1 and record.wins == int(c.won)
        assert record.updated_at == 1000.0
        assert record.ordinal == ordinal(c.mu_after, c.sigma_after)
    assert (await store.get(GUILD, "sangram", 3)).wins == 1  # type: ignore[union-attr]
    assert await store.get(GUILD, "artaban", 1) is None
    assert await store.get(OTHER_GUILD, "sangram", 1) is None
    assert await store.is_rated(10) and not await store.is_rated(11)
    [entry] = await store.history(GUILD, 3, 10)
    assert (entry.game_id, entry.engine, entry.place, entry.won) == (10, "sangram", 1, True)
    assert (entry.mu_before, entry.sigma_before) == (25.0, 25.0 / 3.0)
    assert (entry.mu_after, entry.sigma_after) == (expected[3].mu_after, expected[3].sigma_after)
    assert entry.created_at == 1000.0
    assert [e.place for e in await store.history(GUILD, 1, 10)] == [2]


async def test_a_game_is_rated_once_only(db: Database) -> None:
    store = RatingStore(db)
    game = FinishedGame("artaban", (1, 2), ranking((0,), (1,)))
    assert await rate_and_store(store, 7, game, now=1.0)
    before = await dump(db)
    # The same changes again (a retry), and a recomputation from the new
    # ratings (a restart that finds the game unrated in memory): both refused.
    assert not await store.apply(7, GUILD, "artaban", rate({}, game).values(), 2.0)
    assert not await rate_and_store(store, 7, game, now=3.0)
    assert await dump(db) == before
    record = await store.get(GUILD, "artaban", 1)
    assert record is not None and record.games == 1 and record.updated_at == 1.0


async def test_a_game_is_rated_once_across_a_restart(database_target: str) -> None:
    path = database_target
    game = FinishedGame("artaban", (1, 2), ranking((1,), (0,)))
    first = await open_database(path)
    try:
        assert await rate_and_store(RatingStore(first), 3, game, now=1.0)
        before = await dump(first)
    finally:
        await first.close()
    second = await open_database(path)
    try:
        assert not await rate_and_store(RatingStore(second), 3, game, now=2.0)
        assert await dump(second) == before
    finally:
        await second.close()


async def test_ratings_chain_over_games_and_count_wins(db: Database) -> None:
    store = RatingStore(db)
    results = [ranking((0,), (1,)), ranking((1,), (0,)), ranking((0,), (1,)), ranking((0, 1))]
    ours: dict[int, Rating] = {}
    for game_id, groups in enumerate(results, start=1):
        game = FinishedGame("artaban", (1, 2), groups)
        changes = rate(ours, game)
        ours = {
            u: Rating(c.mu_after, c.sigma_after, ours.get(u, Rating()).games + 1)
            for u, c in changes.items()
        }
        assert await rate_and_store(store, game_id, game, now=float(game_id))
    one = await store.get(GUILD, "artaban", 1)
    two = await store.get(GUILD, "artaban", 2)
    assert one is not None and two is not None
    assert (one.games, one.wins, two.games, two.wins) == (4, 2, 4, 1)  # the draw is no win
    assert (one.mu, one.sigma) == (ours[1].mu, ours[1].sigma)
    assert (two.mu, two.sigma) == (ours[2].mu, ours[2].sigma)
    history = await store.history(GUILD, 1, 10)
    assert [e.game_id for e in history] == [4, 3, 2, 1]  # newest first
    for newer, older in itertools.pairwise(history):
        assert (newer.mu_before, newer.sigma_before) == (older.mu_after, older.sigma_after)
    assert [e.game_id for e in await store.history(GUILD, 1, 2)] == [4, 3]


async def test_a_change_from_an_outdated_rating_is_refused(db: Database) -> None:
    store = RatingStore(db)
    a = FinishedGame("artaban", (1, 2), ranking((0,), (1,)))
    b = FinishedGame("artaban", (1, 3), ranking((1,), (0,)))
    # Both computed before either is stored (two games ending together).
    changes_a = rate({}, a)
    changes_b = rate({}, b)
    assert await store.apply(1, GUILD, "artaban", changes_a.values(), 1.0)
    before = await dump(db)
    with pytest.raises(StaleRating) as info:
        await store.apply(2, GUILD, "artaban", changes_b.values(), 2.0)
    assert info.value.user_id == 1
    assert await dump(db) == before
    assert not await store.is_rated(2)
    # Recomputed from the stored ratings, it goes through.
    assert await rate_and_store(store, 2, b, now=3.0)
    record = await store.get(GUILD, "artaban", 1)
    assert record is not None and record.games == 2


async def _rated_together(
    store: RatingStore, games: dict[int, FinishedGame]
) -> list[bool | BaseException]:
    """Rate the games from the same stored ratings, all at once (on
    PostgreSQL their transactions run side by side)."""
    players = sorted({u for g in games.values() for u in g.players})
    # Reads side by side first, so that a pool has a connection for each game.
    await asyncio.gather(*(store.ratings(GUILD, "artaban", players) for _ in games))
    stored = await store.ratings(GUILD, "artaban", players)
    current = {u: Rating.of(r) for u, r in stored.items()}
    return await asyncio.gather(
        *(
            store.apply(gid, GUILD, "artaban", rate(current, g).values(), 2.0)
            for gid, g in games.items()
        ),
        return_exceptions=True,
    )


async def test_two_games_rated_at_once_never_lose_an_update(db: Database) -> None:
    store = RatingStore(db)
    assert await rate_and_store(store, 1, FinishedGame("artaban", (1, 2), ranking((0,), (1,))), 1.0)
    results = await _rated_together(
        store,
        {
            2: FinishedGame("artaban", (1, 3), ranking((0,), (1,))),
            3: FinishedGame("artaban", (1, 4), ranking((1,), (0,))),
        },
    )
    assert sorted(type(r).__name__ for r in results) == ["StaleRating", "bool"], results
    record = await store.get(GUILD, "artaban", 1)
    assert record is not None and record.games == 2  # the refused game is rated again later


async def test_two_first_ratings_at_once_never_lose_an_update(db: Database) -> None:
    store = RatingStore(db)
    results = await _rated_together(
        store,
        {
            1: FinishedGame("artaban", (1, 2), ranking((0,), (1,))),
            2: FinishedGame("artaban", (1, 3), ranking((1,), (0,))),
        },
    )
    assert sorted(type(r).__name__ for r in results) == ["StaleRating", "bool"], results
    record = await store.get(GUILD, "artaban", 1)
    assert record is not None and record.games == 1


async def test_one_game_rated_twice_at_once_counts_once(db: Database) -> None:
    store = RatingStore(db)
    game = FinishedGame("artaban", (1, 2), ranking((0,), (1,)))
    changes = rate({}, game).values()
    await asyncio.gather(store.is_rated(7), store.is_rated(7))  # two connections
    results = await asyncio.gather(
        store.apply(7, GUILD, "artaban", changes, 1.0),
        store.apply(7, GUILD, "artaban", changes, 1.0),
        return_exceptions=True,
    )
    assert sorted(results, key=str) == [False, True], results
    record = await store.get(GUILD, "artaban", 1)
    assert record is not None and record.games == 1


async def test_a_new_player_must_be_new(db: Database) -> None:
    store = RatingStore(db)
    with pytest.raises(StaleRating):
        await store.apply(1, GUILD, "sangram", [change(1, (26.0, 8.0), games_before=3)], 1.0)
    assert await dump(db) == []


async def test_nothing_to_rate_writes_nothing(db: Database) -> None:
    store = RatingStore(db)
    unrated = FinishedGame("artaban", (1, 2), ranking((0,), (1,)), rated=False)
    assert not await rate_and_store(store, 5, unrated, now=1.0)
    assert await dump(db) == []
    assert not await store.is_rated(5)


async def test_apply_refuses_a_player_twice(db: Database) -> None:
    store = RatingStore(db)
    with pytest.raises(ValueError, match="once per game"):
        await store.apply(1, GUILD, "sangram", [change(1, (26, 8)), change(1, (24, 8))], 1.0)
    with pytest.raises(ValueError):
        await store.apply(1, GUILD, "sangram", [change(1, (26, 8), place=0)], 1.0)
    assert await dump(db) == []


async def test_ratings_are_kept_per_server_and_per_game(db: Database) -> None:
    store = RatingStore(db)
    game = FinishedGame("sangram", (1, 2), ranking((0,), (1,)))
    assert await rate_and_store(store, 1, game, now=1.0, guild=GUILD)
    assert await rate_and_store(store, 2, game, now=2.0, guild=OTHER_GUILD)
    other = FinishedGame("artaban", (1, 2), ranking((1,), (0,)))
    assert await rate_and_store(store, 3, other, now=3.0, guild=GUILD)
    for guild in (GUILD, OTHER_GUILD):
        record = await store.get(guild, "sangram", 1)
        assert record is not None and record.games == 1 and record.wins == 1
    profile = await store.of_user(GUILD, 1)
    assert [(r.engine, r.games, r.wins) for r in profile] == [("artaban", 1, 0), ("sangram", 1, 1)]
    assert [e.game_id for e in await store.history(GUILD, 1, 10)] == [3, 1]
    assert [e.game_id for e in await store.history(GUILD, 1, 10, engine="sangram")] == [1]
    assert set(await store.ratings(GUILD, "sangram", [1, 2, 99])) == {1, 2}
    assert await store.ratings(GUILD, "sangram", []) == {}


# ----------------------------------------------------------------- leaderboards


async def test_top_orders_by_conservative_estimate(db: Database) -> None:
    store = RatingStore(db)
    # 30 players, one game each; mu and sigma chosen so that mu alone, or sigma
    # alone, gives a different order from mu - 3 sigma.
    changes = []
    for user in range(1, 31):
        mu = 20.0 + (user * 7) % 13
        sigma = 1.0 + (user * 5) % 11 / 2.0
        changes.append(change(user, (mu, sigma), won=user % 2 == 0))
    assert await store.apply(1, GUILD, "sangram", changes, 1.0)
    top = await store.top(GUILD, "sangram")
    assert len(top) == 20
    by_ordinal = sorted(changes, key=lambda c: (-ordinal(c.mu_after, c.sigma_after), c.user_id))
    assert [r.user_id for r in top] == [c.user_id for c in by_ordinal[:20]]
    ordinals = [r.ordinal for r in top]
    assert ordinals == sorted(ordinals, reverse=True)
    by_mu = sorted(changes, key=lambda c: (-c.mu_after, c.user_id))
    assert [r.user_id for r in top] != [c.user_id for c in by_mu[:20]]
    assert [r.user_id for r in await store.top(GUILD, "sangram", limit=5)] == [
        c.user_id for c in by_ordinal[:5]
    ]
    assert await store.top(GUILD, "artaban") == []
    assert await store.top(OTHER_GUILD, "sangram") == []
    assert await store.top(GUILD, "sangram", limit=0) == []


async def test_top_breaks_ties_by_games_then_user(db: Database) -> None:
    store = RatingStore(db)
    await store.apply(1, GUILD, "sangram", [change(5, (30, 2)), change(3, (30, 2))], 1.0)
    await store.apply(
        2, GUILD, "sangram", [change(7, (28, 3)), change(8, (24, 1))], 2.0
    )  # ordinals 24, 24, 19, 21
    await store.apply(
        3,
        GUILD,
        "sangram",
        [change(8, (30, 2), before=(24, 1), games_before=1), change(9, (10, 1))],
        3.0,
    )
    top = await store.top(GUILD, "sangram")
    assert [r.user_id for r in top] == [8, 3, 5, 7, 9]


async def test_trends_over_the_last_games(db: Database) -> None:
    store = RatingStore(db)
    game = FinishedGame("artaban", (1, 2), ranking((0,), (1,)))
    for game_id in range(1, 8):
        assert await rate_and_store(store, game_id, game, now=float(game_id))
    trends = await store.trends(GUILD, "artaban", [1, 2, 3], last=5)
    assert trends[3] == 0.0
    history = await store.history(GUILD, 1, 5, engine="artaban")
    expected = ordinal(history[0].mu_after, history[0].sigma_after) - ordinal(
        history[4].mu_before, history[4].sigma_before
    )
    assert math.isclose(trends[1], expected, rel_tol=0, abs_tol=1e-12)
    assert trends[1] > 0 > trends[2]
    whole = await store.trends(GUILD, "artaban", [1], last=50)
    first = (await store.history(GUILD, 1, 50))[-1]
    current = await store.get(GUILD, "artaban", 1)
    assert current is not None
    assert math.isclose(
        whole[1], current.ordinal - ordinal(first.mu_before, first.sigma_before), abs_tol=1e-12
    )
    with pytest.raises(ValueError):
        await store.trends(GUILD, "artaban", [1], last=0)


async def test_rank_is_the_place_on_the_leaderboard(db: Database) -> None:
    store = RatingStore(db)
    changes = []
    for user in range(1, 31):
        mu = 20.0 + (user * 7) % 13
        sigma = 1.0 + (user * 5) % 11 / 2.0
        changes.append(change(user, (mu, sigma)))
    assert await store.apply(1, GUILD, "sangram", changes, 1.0)
    top = await store.top(GUILD, "sangram", limit=30)
    for place, record in enumerate(top, start=1):
        assert await store.rank(GUILD, "sangram", record.user_id) == (place, 30)
    assert await store.rank(GUILD, "sangram", 99) is None
    assert await store.rank(GUILD, "artaban", 1) is None
    assert await store.rank(OTHER_GUILD, "sangram", 1) is None


async def test_rank_breaks_ties_like_top(db: Database) -> None:
    store = RatingStore(db)
    await store.apply(1, GUILD, "sangram", [change(5, (30, 2)), change(3, (30, 2))], 1.0)
    await store.apply(2, GUILD, "sangram", [change(7, (28, 3)), change(8, (24, 1))], 2.0)
    await store.apply(
        3,
        GUILD,
        "sangram",
        [change(8, (30, 2), before=(24, 1), games_before=1), change(9, (10, 1))],
        3.0,
    )
    order = [r.user_id for r in await store.top(GUILD, "sangram")]
    assert order == [8, 3, 5, 7, 9]
    assert [await store.rank(GUILD, "sangram", u) for u in order] == [(k, 5) for k in range(1, 6)]


async def test_seat_names_are_the_newest_seat_on_that_server(db: Database) -> None:
    games = GameStore(db)
    store = RatingStore(db)

    async def seat(guild: int | None, *players: tuple[int, str]) -> None:
        record = await games.create_game(
            engine="sangram",
            engine_revision=1,
            options={},
            guild_id=guild,
            channel_id=5,
            thread_id=None,
            creator_id=players[0][0],
            now=1.0,
        )
        for user, name in players:
            await games.add_seat(record.id, user, name, 1.0)

    await seat(GUILD, (1, "Asha"), (2, "Bhima"))
    await seat(GUILD, (1, "Asha the Second"), (3, "**Chitra**"))
    await seat(OTHER_GUILD, (1, "Asha elsewhere"), (4, "Dev"))
    await seat(None, (2, "Bhima in a DM"), (3, "Chitra in a DM"))
    assert await store.seat_names(GUILD, [1, 2, 3, 4, 5]) == {
        1: "Asha the Second",
        2: "Bhima",
        3: "**Chitra**",  # as written: callers escape
    }
    assert await store.seat_names(OTHER_GUILD, [1]) == {1: "Asha elsewhere"}
    assert await store.seat_names(GUILD, []) == {}


# ----------------------------------------------------------------- the migration


async def _tables(db: Database) -> set[str]:
    """The tables and indexes."""
    sql = (
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'index')"
        if db.dialect == "sqlite"
        else "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
    )
    async with db.read() as conn:
        rows = await conn.execute_fetchall(sql)
    return {str(r[0]) for r in rows} | set(await db.tables())


async def test_migration_on_a_fresh_database(db: Database) -> None:
    assert db.schema_version == len(load_migrations()) >= 4
    assert load_migrations()[3].name == "ratings"
    names = await _tables(db)
    assert {"ratings", "rating_history", "ratings_by_user", "rating_history_by_user"} <= names
    # The primary key is the once-only guard, even for a write that skips apply.
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO rating_history VALUES (1, 2, 'x', 3, 25, 8, 26, 7, 1, 1, 0)"
        )
    with pytest.raises(INTEGRITY_ERRORS):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO rating_history VALUES (1, 2, 'x', 3, 25, 8, 27, 7, 1, 1, 0)"
            )


async def test_migration_on_a_database_at_schema_3(database_target: str) -> None:
    path = database_target
    old = await open_database(path, migrations=load_migrations()[:3])
    try:
        assert old.schema_version == 3
        assert "ratings" not in await _tables(old)
        async with old.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
                "created_at, updated_at, guild_id) VALUES ('artaban', 1, 'finished', 1, 2, 0, 0, "
                f"{GUILD})"
            )
    finally:
        await old.close()
    new = await open_database(path)
    try:
        assert new.schema_version == len(load_migrations())
        assert {"ratings", "rating_history"} <= await _tables(new)
        async with new.read() as conn:
            rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM games"))
        assert rows[0][0] == 1
        store = RatingStore(new)
        game = FinishedGame("artaban", (1, 2), ranking((0,), (1,)))
        assert await rate_and_store(store, 1, game, now=5.0)
        assert [r.user_id for r in await store.top(GUILD, "artaban")] == [1, 2]
    finally:
        await new.close()
