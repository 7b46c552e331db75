"""PostgreSQL's own side of storage (issue 20): the schema it gets, what it
refuses, its failures as sentences, the SQL text it is handed.

The stores' behaviour is tested on both backends by the other files here
(``database_target``); these are what only PostgreSQL has: a URL with a
password, a server that is down, other programs' schemas, several
processes, the rewriting of statements and migrations."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage.backend import redact
from storage.database import Database
from storage.errors import DatabaseNotWritable, DatabaseTooNew, StorageError, StorageUnavailable
from storage.games import GameStore
from storage.opening import open_database
from storage.postgres import PostgresDatabase, postgres_migration, postgres_sql
from storage.schema import Migration, dialect_text, load_migrations
from tests.postgres import PostgresServer

SECRET = "s3cr3t-Pa55"


@pytest.fixture
async def pg(postgres_url: str) -> AsyncIterator[PostgresDatabase]:
    database = await open_database(postgres_url)
    assert isinstance(database, PostgresDatabase)
    try:
        yield database
    finally:
        await database.close()


def _name(url: str) -> str:
    return url.rsplit("/", 1)[1]


async def _raw(url: str, *statements: str) -> list[list[asyncpg.Record]]:
    conn = await asyncpg.connect(url)
    try:
        return [await conn.fetch(s) for s in statements]
    finally:
        await conn.close()


async def _add_game(db: Database) -> int:
    game = await GameStore(db).create_game(
        engine="artaban",
        engine_revision=1,
        options={},
        guild_id=9_000_000_000_000_000_009,
        channel_id=2**63 - 1,  # the largest snowflake a BIGINT holds
        thread_id=None,
        creator_id=5,
        now=1.5,
    )
    return game.id


# ----------------------------------------------------------------- a new database


async def test_a_new_database_gets_the_schema(pg: PostgresDatabase, postgres_url: str) -> None:
    latest = len(load_migrations())
    assert pg.schema_version == latest
    assert pg.location == postgres_url  # no password to hide
    tables = set(await pg.tables())
    for table in ("games", "seats", "actions", "snapshots", "messages", "outbox", "timers"):
        assert table in tables
    assert {"ratings", "rating_history", "tournaments", "tournament_tables"} <= tables
    assert "chaupal_schema" not in tables  # the marker is not one of Chaupal's tables
    [[version], types, triggers] = await _raw(
        postgres_url,
        "SELECT version FROM chaupal_schema",
        "SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name IN ('games', 'tournaments')",
        "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname",
    )
    assert version[0] == latest
    columns = {(r[0], r[1]): (r[2], r[3]) for r in types}
    assert columns["games", "id"] == ("bigint", "YES")  # AUTOINCREMENT: an identity
    assert columns["tournaments", "id"] == ("bigint", "YES")
    assert columns["games", "channel_id"] == ("bigint", "NO")  # snowflakes are 64-bit
    assert columns["games", "created_at"] == ("double precision", "NO")
    assert [r[0] for r in triggers] == ["actions_no_delete", "actions_no_update"]
    game = await _add_game(pg)
    record = await GameStore(pg).get_game(game)
    assert record is not None and record.channel_id == 2**63 - 1 and record.created_at == 1.5


async def test_a_schema_of_its_own_beside_another_programs_tables(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    await _raw(postgres_url, "CREATE TABLE invoices (id INTEGER)", "CREATE SCHEMA chaupal")
    database = await open_database(postgres_url + "?search_path=chaupal")
    try:
        await _add_game(database)
        assert "invoices" not in await database.tables()
    finally:
        await database.close()
    [[in_chaupal], [in_public]] = await _raw(
        postgres_url,
        "SELECT COUNT(*) FROM chaupal.games",
        "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'",
    )
    assert in_chaupal[0] == 1 and in_public[0] == 1  # only invoices


async def test_two_processes_starting_at_once_migrate_once(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="storage")
    opened = await asyncio.gather(*(open_database(postgres_url) for _ in range(3)))
    try:
        applied = [r.getMessage() for r in caplog.records if "applied migration" in r.getMessage()]
        assert len(applied) == len(load_migrations()), applied
        assert {db.schema_version for db in opened} == {len(load_migrations())}
    finally:
        for db in opened:
            await db.close()


# ----------------------------------------------------------------- refusing


async def test_another_programs_schema_is_refused(postgres_url: str) -> None:
    await _raw(postgres_url, "CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StorageError) as info:
        await open_database(postgres_url)
    message = str(info.value)
    assert type(info.value) is StorageError
    assert "not Chaupal's" in message and "invoices" in message and "public" in message
    [tables] = await _raw(
        postgres_url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
    )
    assert [r[0] for r in tables] == ["invoices"]  # nothing was created


async def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    await (await open_database(postgres_url)).close()
    await _raw(postgres_url, "UPDATE chaupal_schema SET version = 99")
    with pytest.raises(DatabaseTooNew) as info:
        await open_database(postgres_url)
    message = str(info.value)
    assert postgres_url in message and "schema 99" in message
    assert f"knows up to {len(load_migrations())}" in message and "Upgrade Chaupal" in message
    [[version]] = await _raw(postgres_url, "SELECT version FROM chaupal_schema")
    assert version[0] == 99  # not touched


async def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    url = f"postgresql://chaupal:{SECRET}@127.0.0.1:1/chaupal"  # nothing listens on port 1
    with pytest.raises(StorageError) as info:
        await open_database(url)
    message = str(info.value)
    assert "Cannot connect to the PostgreSQL database" in message
    assert "127.0.0.1:1/chaupal" in message and "chaupal:***@" in message
    assert SECRET not in message and SECRET not in repr(info.value.__cause__)


async def test_a_missing_database_is_a_clear_error_without_the_password(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.url("no_such_database", password=SECRET) + f"?password={SECRET}"
    with pytest.raises(StorageError) as info:
        await open_database(url)
    message = str(info.value)
    assert "no_such_database" in message and "does not exist" in message
    assert SECRET not in message and "password=***" in message


def test_redact_hides_every_password() -> None:
    assert redact("postgresql://u:p%40ss@h:5/db?sslmode=require&password=x") == (
        "postgresql://u:***@h:5/db?sslmode=require&password=***"
    )
    assert redact("postgres://u@h/db") == "postgres://u@h/db"
    assert (
        redact("postgresql:///db?host=/run/postgresql") == "postgresql:///db?host=/run/postgresql"
    )
    assert (
        redact("postgresql://u:@h/db?password=&a=b") == "postgresql://u:***@h/db?password=***&a=b"
    )


# ----------------------------------------------------------------- failures while running


async def test_a_lost_connection_is_unavailable_and_the_next_write_works(
    pg: PostgresDatabase, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="storage")
    with pytest.raises(StorageUnavailable) as info:
        async with pg.transaction() as conn:
            [row] = await conn.execute_fetchall("SELECT pg_backend_pid()")
            postgres_server.admin(f"SELECT pg_terminate_backend({int(row[0])})")
            await _insert_game(conn)
    assert info.value.problem == "unreachable"
    assert "may not have been saved" in str(info.value)
    assert any("unreachable" in r.getMessage() for r in caplog.records)
    await _add_game(pg)  # the pool replaced the connection
    assert len(await GameStore(pg).live_games()) == 1


async def test_a_pool_that_stays_busy_is_busy_not_unreachable(
    pg: PostgresDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Exhausted:
        async def acquire(self, timeout: float) -> None:
            raise TimeoutError

    monkeypatch.setattr(pg, "_pool", Exhausted())  # put back before pg closes
    with pytest.raises(StorageUnavailable) as info:
        async with pg.read():
            pass
    assert info.value.problem == "busy" and "Try again" in str(info.value)


async def _insert_game(conn: object) -> None:
    await conn.execute(  # type: ignore[attr-defined]
        "INSERT INTO games (engine, engine_revision, status, channel_id, creator_id, "
        "created_at, updated_at) VALUES ('x', 1, 'lobby', 1, 2, 0, 0)"
    )


async def test_a_read_only_server_refuses_writes_with_a_sentence_for_players(
    pg: PostgresDatabase, postgres_server: PostgresServer, postgres_url: str
) -> None:
    name = _name(postgres_url)
    postgres_server.admin(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    await pg.pool.expire_connections()  # new sessions read the setting
    with pytest.raises(StorageUnavailable) as info:
        async with pg.transaction() as conn:
            await _insert_game(conn)
    assert info.value.problem == "read-only" and "read-only" in str(info.value)
    assert postgres_url not in str(info.value)
    assert await GameStore(pg).live_games() == []  # reads still work
    # At start-up, a read-only server stops the bot at once.
    with pytest.raises(DatabaseNotWritable) as opening:
        await open_database(postgres_url)
    assert postgres_url in str(opening.value) and "refuses writes" in str(opening.value)
    postgres_server.admin(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
    await pg.pool.expire_connections()
    await _add_game(pg)


async def test_a_failed_migration_on_a_read_only_server_is_not_a_bug(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    name = _name(postgres_url)
    await (await open_database(postgres_url, migrations=load_migrations()[:1])).close()
    postgres_server.admin(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    with pytest.raises(DatabaseNotWritable) as info:
        await open_database(postgres_url)
    assert "Report this as a bug" not in str(info.value)


async def test_the_connection_hands_out_rows_by_name_and_position(pg: PostgresDatabase) -> None:
    async with pg.transaction() as conn:
        assert conn.dialect == "postgresql"
        await _insert_game(conn)
        done = await conn.execute(
            "UPDATE games SET version = version + ? WHERE engine = ?", (2, "x")
        )
        assert done.rowcount == 1
        created = await conn.execute("CREATE TEMPORARY TABLE scratch (x BIGINT)")
        assert created.rowcount == -1
        await conn.executemany("INSERT INTO scratch VALUES (?)", [(1,), (2,)])
        await conn.executemany("INSERT INTO scratch VALUES (?)", [])
        [row] = await conn.execute_fetchall(
            "SELECT version, '?' AS mark, (SELECT SUM(x) FROM scratch) AS total FROM games "
            "WHERE engine = ? AND version = ?",
            ("x", 2),
        )
    assert row["version"] == row[0] == 2 and row["mark"] == "?" and int(row["total"]) == 3
    assert tuple(row)[:2] == (2, "?") and len(row) == 3


# ----------------------------------------------------------------- the SQL text


def test_placeholders_are_numbered_outside_literals_and_comments() -> None:
    sql = (
        "SELECT '?', \"odd?name\", x FROM t -- why?\n"
        "WHERE a = ? AND b IN (?, ?) /* or? */ AND c = 'it''s ?' AND d = ?"
    )
    assert postgres_sql(sql) == (
        "SELECT '?', \"odd?name\", x FROM t -- why?\n"
        "WHERE a = $1 AND b IN ($2, $3) /* or? */ AND c = 'it''s ?' AND d = $4"
    )
    assert postgres_sql("SELECT 1") == "SELECT 1"
    assert postgres_sql(sql) is postgres_sql(sql)  # rewritten once


def test_migrations_read_sqlites_types_as_postgresqls() -> None:
    step = Migration(
        9,
        "example",
        "CREATE TABLE t (\n"
        "    id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    n integer NOT NULL DEFAULT 0, -- an INTEGER, says the comment\n"
        "    at REAL, raw BLOB, note TEXT DEFAULT 'INTEGER REAL'\n"
        ") WITHOUT ROWID;\n"
        "-- dialect sqlite\n"
        "CREATE TRIGGER t_only_sqlite BEFORE UPDATE ON t BEGIN SELECT 1; END;\n"
        "-- dialect postgresql\n"
        "CREATE INDEX t_only_postgresql ON t (n);\n"
        "-- dialect end\n",
    )
    script = postgres_migration(step)
    assert "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY," in script
    assert "n BIGINT NOT NULL DEFAULT 0, -- an INTEGER, says the comment" in script
    assert "at DOUBLE PRECISION, raw BYTEA, note TEXT DEFAULT 'INTEGER REAL'" in script
    assert "WITHOUT ROWID" not in script and "\n);\n" in script
    assert "t_only_sqlite" not in script and "t_only_postgresql" in script
    sqlite = step.text_for("sqlite")
    assert "t_only_sqlite" in sqlite and "t_only_postgresql" not in sqlite


@pytest.mark.parametrize(
    "script",
    [
        "-- dialect oracle\nSELECT 1;\n-- dialect end\n",
        "-- dialect sqlite\nSELECT 1;\n",
        "-- dialect end\n",
        "-- dialect sqlite\n-- dialect sqlite\n-- dialect end\n",
    ],
)
def test_a_broken_dialect_block_is_a_packaging_mistake(script: str) -> None:
    with pytest.raises(RuntimeError, match="dialect"):
        dialect_text(script, "postgresql")


def test_every_packaged_migration_runs_on_both() -> None:
    for step in load_migrations():
        assert "KEY AUTOINCREMENT" not in postgres_migration(step)
        assert "SELECT RAISE(ABORT" not in postgres_migration(step)
        assert "plpgsql" not in step.text_for("sqlite")
