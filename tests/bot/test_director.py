"""The tournament director over real SQLite files (issue 11): rounds paired,
one game started per table with the tournament's options, games finished by
automatic players, results read back, the next round paired when the round
is complete, and a restart mid-round that loses nothing and starts nothing
twice.  Discord is not involved here."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.director import TournamentDirector
from bot.engines.core import CHANCE, GameError
from bot.service import GameService, Player, ServiceError
from storage.games import GameStore
from storage.opening import open_database
from storage.ratings import RatingStore
from storage.tournaments import TournamentStore
from tests.fakes import Seeded, quick_thinking


class Club:
    """A service, a director and the hook that tells it when games end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.now = 1_000.0
        self.pending: list[asyncio.Task[object]] = []

    async def open(self) -> Club:
        self.db = await open_database(self.path)
        self.games = GameService(
            GameStore(self.db),
            draw=Seeded(4),
            clock=lambda: self.now,
            snapshot_every=20,
            thinker=quick_thinking(),
            think_pad={},
        )
        self.director = TournamentDirector(
            self.games, TournamentStore(self.db), RatingStore(self.db)
        )
        self.games.game_over_hooks.append(self._over)
        return self

    def _over(self, game: object) -> None:
        self.pending.append(
            asyncio.get_running_loop().create_task(self.director.game_over(game, self.now))  # type: ignore[arg-type]
        )

    async def settle(self) -> None:
        while self.pending:
            task = self.pending.pop(0)
            await task

    async def close(self) -> None:
        await self.settle()
        await self.db.close()

    async def play_round_out(self) -> None:
        """Automatic players finish every running game of the club."""
        for _ in range(20_000):
            live = [r for r in await self.games.store.live_games() if r.status == "active"]
            if not live:
                await self.settle()
                if not [r for r in await self.games.store.live_games() if r.status == "active"]:
                    return
                continue
            record = live[0]
            async with self.games.lock(record.id):
                game = await self.games.get(record.id)
                movers = sorted(game.engine.waiting_on(game.state)) or sorted(
                    game.engine.to_move(game.state) - {CHANCE}
                )
                if not game.is_over and movers:
                    await self.games.auto_move(game, movers[0], by_human=True)
            await self.settle()
        raise AssertionError("the games never ended")


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[Club]:
    c = await Club(tmp_path / "club.sqlite3").open()
    yield c
    await c.close()


PLAYERS = [Player(200 + i, f"p{i}") for i in range(9)]


async def run_tournament(
    club: Club, engine: str, format: str, count: int, rounds: int, **kw: int
) -> int:
    director = club.director
    record = await director.new(
        guild_id=7,
        channel_id=70,
        engine_name=engine,
        format=format,
        rounds=rounds,
        table_size=kw.get("table_size"),
        options={"round_limit": 6} if engine == "sangram" else {},
        creator_id=1,
        now=club.now,
    )
    for p in PLAYERS[:count]:
        assert await director.join(record.id, p, club.now)
    started = await director.start(record.id, club.now)
    assert started.new_round and started.games
    return record.id


async def test_a_seven_player_swiss_artaban_tournament_over_three_rounds(club: Club) -> None:
    tid = await run_tournament(club, "artaban", "swiss", 7, 3)
    store = club.director.store
    for round in (1, 2, 3):
        tables = await store.tables(tid, round)
        assert len(tables) == 4 and sum(t.is_bye for t in tables) == 1  # a bye each round
        games = [t for t in tables if not t.is_bye]
        assert all(t.game_id is not None for t in games)
        await club.play_round_out()
    record = await store.get(tid)
    assert record is not None and record.status == "finished" and record.round == 3
    byes = Counter(t.seats[0] for t in await store.tables(tid) if t.is_bye)
    assert len(byes) == 3 and max(byes.values()) == 1  # nobody twice
    pairs = [frozenset(t.seats) for t in await store.tables(tid) if not t.is_bye]
    assert len(pairs) == len(set(pairs))  # no rematch
    table = await club.director.table_of_standings(tid)
    assert [row.rank for row in table] == list(range(1, 8))
    assert sum(row.points for row in table) == 9 + 3  # 9 games, 3 byes
    # Tournament games are rated.
    assert await RatingStore(club.db).top(7, "artaban")


async def test_a_nine_player_sangram_pod_tournament(club: Club) -> None:
    tid = await run_tournament(club, "sangram", "pods", 9, 2, table_size=3)
    store = club.director.store
    for round in (1, 2):
        tables = await store.tables(tid, round)
        assert [len(t.seats) for t in tables] == [3, 3, 3]
        await club.play_round_out()
    tables = await store.tables(tid)
    groups = [frozenset(t.seats) for t in tables]
    met = Counter(frozenset((a, b)) for g in groups for a in g for b in g if a < b)
    assert max(met.values()) == 1  # nobody shares a table twice
    record = await store.get(tid)
    assert record is not None and record.status == "finished"


async def test_an_eight_player_elimination_and_a_restart_mid_round(
    club: Club, tmp_path: Path
) -> None:
    tid = await run_tournament(club, "mahabharata", "elimination", 8, 0)
    store = club.director.store
    first = await store.tables(tid, 1)
    assert len(first) == 4 and all(t.game_id for t in first)
    # Restart mid-round: nothing lost, nothing started twice.
    await club.close()
    await club.open()
    again = await club.director.resume_all(club.now)
    assert all(not r.games and not r.new_round for r in again)
    assert [t.game_id for t in await club.director.store.tables(tid, 1)] == [
        t.game_id for t in first
    ]
    for _ in range(3):
        await club.play_round_out()
    store = club.director.store
    tables = await store.tables(tid)
    assert [len([t for t in tables if t.round == r]) for r in (1, 2, 3)] == [4, 2, 1]
    record = await store.get(tid)
    assert record is not None and record.status == "finished"
    final = tables[-1]
    assert final.places is not None and sorted(final.places)[0] == 1


async def test_bad_tournaments_are_refused_with_reasons(club: Club) -> None:
    director = club.director
    with pytest.raises(ServiceError, match="pods"):
        await director.new(
            guild_id=7, channel_id=70, engine_name="artaban", format="pods", rounds=2,
            table_size=3, options={}, creator_id=1, now=0.0,
        )  # fmt: skip
    with pytest.raises(ServiceError, match="50 rounds"):
        await director.new(
            guild_id=7, channel_id=70, engine_name="sangram", format="swiss", rounds=99,
            table_size=None, options={}, creator_id=1, now=0.0,
        )  # fmt: skip
    with pytest.raises(GameError, match="clock"):
        await director.new(
            guild_id=7, channel_id=70, engine_name="sangram", format="swiss", rounds=2,
            table_size=None, options={"clock": "soon"}, creator_id=1, now=0.0,
        )  # fmt: skip
    record = await director.new(
        guild_id=7, channel_id=70, engine_name="artaban", format="swiss", rounds=2,
        table_size=None, options={}, creator_id=1, now=0.0,
    )  # fmt: skip
    await director.join(record.id, PLAYERS[0], 0.0)
    with pytest.raises(ServiceError, match="at least 2"):
        await director.start(record.id, 0.0)


async def test_the_bot_posts_each_game_and_moves_the_round_on(tmp_path: Path) -> None:
    """Through discord.py: the bot's director starts a round's games (their
    boards are posted), and when the last game ends by a resignation typed in
    Discord, the next round's games start on their own."""
    from tests.bot.driver import boards, bot_of, make_bot, resign
    from tests.discord_harness import FakeDiscord

    fake = await FakeDiscord.start(make_bot(tmp_path / "bot.sqlite3", 5))
    try:
        bot = bot_of(fake)
        users = [fake.user(f"u{i}") for i in range(4)]
        record = await bot.tournaments.new(
            guild_id=fake.guild_id, channel_id=fake.channel_id, engine_name="artaban",
            format="swiss", rounds=2, table_size=None, options={}, creator_id=1, now=0.0,
        )  # fmt: skip
        for u in users:
            await bot.tournaments.join(record.id, Player(u.id, u.name), 0.0)
        started = await bot.tournaments.start(record.id, 0.0)
        for result in started.games:
            await bot.delivery.publish(result)
        await fake.settle()
        assert len(started.games) == 2 and len(boards(fake)) >= 2
        for table in await bot.tournaments.store.tables(record.id, 1):
            loser = next(u for u in users if u.id == table.seats[1])
            await resign(fake, loser, game=table.game_id)
            await fake.settle()
        second = await bot.tournaments.store.tables(record.id, 2)
        assert len(second) == 2 and all(t.game_id for t in second)
        games = [await bot.service.get(t.game_id or 0) for t in second]
        assert all(g.record.status == "active" for g in games)
    finally:
        await fake.close()
