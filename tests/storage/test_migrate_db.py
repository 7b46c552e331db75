"""``python -m bot migrate-db``: a running community moved from SQLite to
PostgreSQL with every game, rating and tournament intact, then played on.

The community (:func:`build_community`) has a live game of each of the five
games with moves, clocks and delivery rows, a deleted game (its id must
never come back), ratings, a tournament mid-round, server and player
settings and a vacation.  tests/storage/test_backup.py reuses it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.engines import ENGINES
from bot.engines.core import progress_seat
from bot.service import GameService, Player
from bot.tournament.ratings import FinishedGame, rate
from storage.copying import TABLES
from storage.database import Database
from storage.followers import FollowerStore
from storage.games import GameChange, GameStore, OutboxRow, TakebackAsk, TakebackAskChange
from storage.opening import open_database
from storage.ratings import RatingStore
from storage.settings import PlayerSettingsStore, SettingsStore
from storage.timekeeping import TimerStore, Vacation
from storage.tournaments import TournamentStore
from tests.bot.test_service import Seeded
from tests.fakes import quick_thinking

GUILD = 700_000_000_000_000_007
PLAYERS = [Player(900_000_000_000_000_000 + i, name) for i, name in enumerate("ABCDE")]


def service_on(db: Database, seed: int) -> GameService:
    return GameService(
        GameStore(db),
        draw=Seeded(seed),
        snapshot_every=4,
        thinker=quick_thinking(),
        think_pad={},
    )


async def play_some(svc: GameService, game_id: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        game = await svc.get(game_id)
        if game.is_over:
            return
        seat = progress_seat(game.engine, game.state)
        await svc.play(game_id, game.user_of(seat), rng.choice(svc.legal_texts(game, seat)))


async def build_community(db: Database) -> dict[str, Any]:
    """A community in the middle of things; returns what the tests look for."""
    svc = service_on(db, 11)
    rng = random.Random(5)
    games: dict[str, int] = {}
    for n, engine in enumerate(sorted(ENGINES)):
        players = PLAYERS[: ENGINES[engine].min_players + (n % 2)]
        game = await svc.new_game(
            engine,
            creator=players[0],
            guild_id=GUILD,
            channel_id=1_100_000_000_000_000_000 + n,
            options={"clock": "1d"},
        )
        for player in players[1:]:
            await svc.join(game.id, player)
        await svc.start(game.id, players[0].user_id, moderator=False)
        await play_some(svc, game.id, 9, rng)
        games[engine] = game.id
        record = (await svc.get(game.id)).record
        await svc.store.set_message(game.id, "board", record.channel_id, 5_000 + n)
        await svc.store.set_outbox(
            game.id, OutboxRow("board", record.version, awaited=frozenset({0}), simultaneous=True)
        )
        await svc.store.set_outbox(game.id, OutboxRow("seat:0", record.version, digest="d1ge5t"))
        # Who delivers it (issue 20): a claim that a process holds, or gave back.
        assert await svc.store.claim_delivery(game.id, f"host:{n}:abc", 70.0, 250.0)
        if n % 2:
            assert await svc.store.release_delivery(game.id, f"host:{n}:abc")
    # A takeback request waiting for an agreement (issue 31), as the
    # service writes it: through the game's one guarded commit.
    record = (await svc.get(games["sangram"])).record
    ask = TakebackAsk(0, record.version - 1, record.version, frozenset({1}), 74.25)
    await svc.store.commit(
        record.id,
        expected_version=record.version,
        change=GameChange(ask=TakebackAskChange(expected=None, new=ask)),
        now=74.5,
    )
    gone = await svc.new_game("artaban", creator=PLAYERS[0], guild_id=GUILD, channel_id=3)
    await svc.store.delete_game(gone.id)

    ratings = RatingStore(db)
    finished = FinishedGame(
        "artaban", tuple(p.user_id for p in PLAYERS[:2]), (frozenset({1}), frozenset({0}))
    )
    assert await ratings.apply(
        games["artaban"], GUILD, "artaban", rate({}, finished).values(), 50.5
    )

    tournaments = TournamentStore(db)
    cup = await tournaments.create(
        guild_id=GUILD,
        channel_id=8,
        engine="artaban",
        format="swiss",
        rounds=3,
        table_size=2,
        options={"clock": "1d"},
        creator_id=PLAYERS[0].user_id,
        now=60.25,
        name="Diwali Cup",
        round_time=86_400.0,
    )
    for p in PLAYERS[:4]:
        assert await tournaments.join(cup.id, p.user_id, p.display_name, 25.0, now=61.0)
    ids = [p.user_id for p in PLAYERS[:4]]
    assert await tournaments.add_round(cup.id, 1, [ids[:2], ids[2:]], now=62.0)
    assert await tournaments.link_game(cup.id, 1, 1, games["artaban"])
    assert await tournaments.record_result(cup.id, 1, 2, [2, 1])

    # A member who follows a game they do not play (issue 21).
    watcher = 999_000_000_000_000_001
    assert await FollowerStore(db).follow(games["sangram"], watcher, every_move=True, now=73.5)
    await svc.store.set_outbox(games["sangram"], OutboxRow(f"follow:{watcher}", 3, digest="owed"))
    await SettingsStore(db).set(GUILD, "threads", True, now=70.0)
    await PlayerSettingsStore(db).set(PLAYERS[1].user_id, "turn", "dm", now=71.0)
    await TimerStore(db).add_vacation(Vacation(PLAYERS[2].user_id, 72.0, 1e10))
    return {"games": games, "deleted": gone.id, "tournament": cup.id}


async def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in primary-key order."""
    rows: dict[str, list[tuple[Any, ...]]] = {}
    columns_of = {table: sorted(await db.columns(table)) for table, _ in TABLES}
    async with db.read() as conn:
        for table, key in TABLES:
            columns = columns_of[table]
            found = await conn.execute_fetchall(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(key)}"
            )
            rows[table] = [tuple(r) for r in found]
    return rows


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _build(target: str) -> dict[str, Any]:
    db = await open_database(target)
    try:
        return await build_community(db)
    finally:
        await db.close()


async def _dump(target: str) -> dict[str, list[tuple[Any, ...]]]:
    db = await open_database(target)
    try:
        return await dump(db)
    finally:
        await db.close()


# ----------------------------------------------------------------- the tests


async def test_the_copy_knows_every_table(database_target: str) -> None:
    db = await open_database(database_target)
    try:
        assert sorted(await db.tables()) == sorted(name for name, _ in TABLES)
    finally:
        await db.close()


def test_a_community_moves_to_postgresql_and_plays_on(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "chaupal.sqlite3"
    community = run(_build(str(path)))
    before = run(_dump(str(path)))
    assert all(before[table] for table, _ in TABLES), [t for t, _ in TABLES if not before[t]]

    assert main(["migrate-db", "--from", f"sqlite:{path}", "--to", postgres_url]) == 0
    out = capsys.readouterr().out
    for table, _ in TABLES:
        assert f"  {table} " in out
    assert f"{len(before['actions']):,} rows" in out
    assert str(path) in out and postgres_url in out

    assert run(_dump(postgres_url)) == before  # every row, every value, exactly
    run(_play_on(postgres_url, community, before))


async def _play_on(url: str, community: dict[str, Any], before: dict[str, Any]) -> None:
    db = await open_database(url)
    try:
        svc = service_on(db, 12)
        rng = random.Random(6)
        for engine, game_id in community["games"].items():
            svc.forget(game_id)
            game = await svc.get(game_id)  # rebuilt from the copied snapshot and log
            assert game.engine.name == engine and game.record.status == "active"
            version = game.version
            await play_some(svc, game_id, 1, rng)
            svc.forget(game_id)
            again = await svc.get(game_id)
            assert again.version > version
            assert len(await svc.store.log(game_id)) == again.version
            assert (await svc.store.outbox(game_id))["seat:0"].digest == "d1ge5t"
        assert await TimerStore(db).count() > 0
        # New ids continue after every id ever handed out, the deleted game's too.
        fresh = await svc.new_game("sangram", creator=PLAYERS[0], guild_id=GUILD, channel_id=4)
        assert fresh.id > community["deleted"] > max(community["games"].values())
        ratings = RatingStore(db)
        assert [r.user_id for r in await ratings.top(GUILD, "artaban")] == [
            PLAYERS[1].user_id,
            PLAYERS[0].user_id,
        ]
        assert await ratings.is_rated(community["games"]["artaban"])
        tournaments = TournamentStore(db)
        cup = await tournaments.get(community["tournament"])
        assert cup is not None and cup.name == "Diwali Cup" and cup.round == 1
        assert cup.round_deadline == 62.0 + 86_400.0
        tables = await tournaments.tables(cup.id)
        assert [(t.game_id, t.places) for t in tables] == [
            (community["games"]["artaban"], None),
            (None, (2, 1)),
        ]
        assert await tournaments.record_result(cup.id, 1, 1, [1, 2])
        assert await tournaments.add_round(
            cup.id, 2, [[PLAYERS[0].user_id, PLAYERS[2].user_id]], 90.0
        )
        newer = await tournaments.create(
            guild_id=GUILD,
            channel_id=8,
            engine="sangram",
            format="pods",
            rounds=1,
            table_size=3,
            options={},
            creator_id=PLAYERS[0].user_id,
            now=91.0,
        )
        assert newer.id > cup.id
        assert (await SettingsStore(db).get(GUILD)) == {"threads": True}
        assert (await PlayerSettingsStore(db).get(PLAYERS[1].user_id)) == {"turn": "dm"}
    finally:
        await db.close()


def test_migrate_db_refuses_a_database_that_holds_data(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "chaupal.sqlite3"
    run(_build(str(path)))
    assert main(["migrate-db", "--from", str(path), "--to", postgres_url]) == 0
    copied = run(_dump(postgres_url))
    capsys.readouterr()
    assert main(["migrate-db", "--from", str(path), "--to", postgres_url]) == 3
    assert "already holds Chaupal data" in capsys.readouterr().err
    assert run(_dump(postgres_url)) == copied  # nothing added, nothing lost


def test_migrate_db_without_a_source_creates_nothing(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothing-here.sqlite3"
    assert main(["migrate-db", "--from", f"sqlite:{missing}", "--to", postgres_url]) == 3
    assert "nothing to migrate" in capsys.readouterr().err
    assert not missing.exists()


def test_a_failed_copy_leaves_the_target_empty(
    tmp_path: Path,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "chaupal.sqlite3"
    run(_build(str(path)))
    import storage.copying

    real = storage.copying._copy_table

    async def failing(reader: Any, writer: Any, table: str, *args: Any) -> int:
        if table == "tournaments":
            raise storage.copying.StorageError("the disk is full")
        return await real(reader, writer, table, *args)

    monkeypatch.setattr(storage.copying, "_copy_table", failing)
    assert main(["migrate-db", "--from", str(path), "--to", postgres_url]) == 3
    assert "the disk is full" in capsys.readouterr().err
    assert not any(run(_dump(postgres_url)).values())  # one transaction: nothing kept
    monkeypatch.undo()
    assert main(["migrate-db", "--from", str(path), "--to", postgres_url]) == 0  # again, whole
