"""Tournaments through discord.py's real dispatch (issue 11).

A moderator opens each tournament with ``/tournament new``; players join by
the announcement's Join button and by ``/tournament join``; ``/tournament
start`` pairs round 1.  Every game then starts by itself in its own thread,
from a table message in the tournament's channel.  Its moves are chosen by
the automatic players (``bot/players``) and sent with ``/game play``, as a
player would type them; results flow back without anyone typing them, and
each round is paired when the last game of the one before ends.  A restart
mid-round loses nothing and starts nothing twice; final standings are
checked against the results the games produced.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import CHANCE
from bot.players import player_for
from bot.tournament.standings import Player, Result, Scoring, standings
from storage.games import ALL_STATUSES
from storage.opening import open_database
from storage.tournaments import TournamentStore
from tests.bot.driver import assert_no_secret_ids, bot_of, make_bot, resign
from tests.bot.menu_player import wording_problems
from tests.discord_harness import CommandUnavailable, FakeDiscord, Sent
from tests.fakes import FakeClock

TYPED_MOVES = 4
"""Moves of each game typed through Discord; the automatic player plays on."""
MAX_MOVES = 5_000


class Cup:
    """One server, one moderator, ``count`` players, one tournament."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path, self.seed, self.clock = path, seed, FakeClock()
        self.rng = random.Random(seed)

    async def open(self, count: int) -> Cup:
        self.fake = await FakeDiscord.start(make_bot(self.path, self.seed, self.clock))
        self.moderator = self.fake.user("referee", moderator=True)
        self.players = [self.fake.user(f"player{i}") for i in range(count)]
        self.by_id = {u.id: u for u in self.players}
        return self

    async def restart(self) -> None:
        self.seed += 1
        self.fake = await self.fake.restart(make_bot(self.path, self.seed, self.clock))
        await self.fake.settle()  # start-up: catch-up, then resuming tournaments
        await bot_of(self.fake).scheduler.wait_idle()
        await self.fake.settle()

    @property
    def store(self) -> Any:
        return bot_of(self.fake).tournaments.store

    async def new(self, game: str, format: str, **options: Any) -> tuple[int, Sent]:
        out = await self.fake.slash(
            self.moderator, "moderate tournament new", game=game, format=format, **options
        )
        announcement = next(s for s in out if s.route == "interaction.response")
        assert not announcement.ephemeral, announcement
        found = re.search(r"tournament #(\d+)", announcement.content or "")
        assert found, announcement.content
        self.id = int(found[1])
        return self.id, announcement

    async def join_everyone(self, announcement: Sent) -> None:
        for i, user in enumerate(self.players):
            if i % 2 == 0:
                join = self.fake.find_button(announcement, label="Join")["custom_id"]
                out = await self.fake.click(user, announcement, join)
            else:
                out = await self.fake.slash(user, "tournament join")
            assert any("You are in" in (s.content or "") and s.ephemeral for s in out), out
        players = await self.store.players(self.id)
        assert [p.user_id for p in players] == [u.id for u in self.players]

    async def start(self) -> list[Sent]:
        out = await self.fake.slash(self.moderator, "moderate tournament start")
        await self.fake.settle()
        return out

    async def tables(self, round: int) -> list[Any]:
        return list(await self.store.tables(self.id, round))

    async def record(self) -> Any:
        return await self.store.get(self.id)

    async def play(self, game_id: int, *, typed: int = TYPED_MOVES, moves: int = MAX_MOVES) -> int:
        """Play ``game_id`` out (or ``moves`` of it).  The first ``typed``
        moves are chosen by the automatic players and typed with ``/game
        play`` by whoever must move; the bot's own automatic player then
        plays the rest for the players (as a timeout would), and the newest
        board is delivered.  Returns the moves played."""
        bot = bot_of(self.fake)
        service = bot.service
        played = 0
        while played < moves:
            game = await service.get(game_id)
            if game.is_over:
                break
            # Those still awaited first: in a simultaneous phase a player
            # who has chosen may change their mind, but need not.
            awaited = sorted(game.engine.waiting_on(game.state))
            movers = [s for s in awaited if not game.is_auto(s)] or [
                s for s in sorted(game.engine.to_move(game.state) - {CHANCE})
                if not game.is_auto(s)
            ]
            assert movers, f"game #{game_id} waits on nobody"
            seat = movers[0]
            if played < typed:
                choose = player_for(game.engine.name).choose
                action = choose(game.engine, game.state, seat, self.rng)
                text = game.engine.describe(game.state, seat, action)
                user = self.by_id[game.user_of(seat)]
                out = await self.fake.slash(user, "game play", game=game_id, action=text)
                assert any((s.content or "").startswith("Played:") for s in out), (text, out)
            else:
                async with service.lock(game_id):
                    await service.auto_move(game, seat, by_human=True)
            played += 1
        await bot.delivery.catch_up(game_id)
        await self.fake.settle()
        return played

    async def play_round(self, round: int) -> None:
        for table in await self.tables(round):
            if table.game_id is not None:
                await self.play(table.game_id)
        await self.fake.settle()

    def posts(self, pattern: str) -> list[Sent]:
        return [
            s
            for s in self.fake.channel_posts(threads=False)
            if re.search(pattern, s.content or "")
        ]


@pytest.fixture
async def cup(tmp_path: Path) -> AsyncIterator[Cup]:
    c = Cup(tmp_path / "cup.sqlite3", 11)
    yield c
    await c.fake.close()


def expected_standings(tables: list[Any], table_size: int) -> list[tuple[int, float]]:
    results = [Result(t.round, t.seats, t.places) for t in tables if t.places is not None]
    players = {u for t in tables for u in t.seats}
    rows = standings([Player(u) for u in players], results, Scoring(table_size=table_size))
    return [(r.player, r.points) for r in rows]


async def assert_games_in_threads(cup: Cup, round: int) -> None:
    """Each table's game has its own thread, opened from its table message
    in the tournament channel, and its first board is posted there."""
    bot = bot_of(cup.fake)
    for table in await cup.tables(round):
        if table.is_bye:
            continue
        record = await bot.store.get_game(table.game_id)
        assert record is not None and record.thread_id is not None, table
        assert cup.fake.world.is_thread(record.thread_id)
        lobby = await bot.store.get_message(table.game_id, "lobby")
        assert lobby is not None and lobby[0] == cup.fake.channel_id
        table_message = cup.fake.current(lobby[1])
        assert f"round {round}, table {table.number}" in (table_message.content or "")
        assert any(s.files for s in cup.fake.channel_posts(record.thread_id)), "no board"


async def test_a_seven_player_swiss_artaban_tournament_over_three_rounds(cup: Cup) -> None:
    await cup.open(7)
    tid, announcement = await cup.new("artaban", "swiss", rounds=3, name="Autumn Cup")
    assert "Autumn Cup" in (announcement.content or "")
    await cup.join_everyone(announcement)
    # Only a moderator starts it: players do not see the command, and the
    # bot refuses them where a server shows it anyway.
    with pytest.raises(CommandUnavailable):
        await cup.fake.slash(cup.players[0], "moderate tournament start")
    refused = await cup.fake.slash(cup.players[0], "moderate tournament start", validate=False)
    assert any("Only a moderator" in (s.content or "") and s.ephemeral for s in refused)
    assert (await cup.record()).round == 0
    await cup.start()
    # The Join button is gone once it started, and the announcement says so.
    assert not cup.fake.buttons(cup.fake.current(announcement))
    assert "Round 1 of 3" in (cup.fake.current(announcement).content or "")

    for round in (1, 2, 3):
        tables = await cup.tables(round)
        assert len(tables) == 4 and sum(t.is_bye for t in tables) == 1  # a bye each round
        await assert_games_in_threads(cup, round)
        (said,) = cup.posts(rf"round {round} of 3 has begun")  # announced once
        assert "Bye:" in (said.content or "")
        mentions = said.raw.get("allowed_mentions") or {}
        assert not mentions.get("users") and not mentions.get("parse"), mentions  # no pings
        if round == 2:
            # A restart with the round half played: nothing lost, nothing twice.
            first = next(t for t in tables if not t.is_bye)
            await cup.play(first.game_id)
            second = next(t for t in tables if not t.is_bye and t is not first)
            await cup.play(second.game_id, moves=3)
            await cup.restart()
            assert [t.game_id for t in await cup.tables(2)] == [t.game_id for t in tables]
            games = await bot_of(cup.fake).store.games_in_channel(
                cup.fake.channel_id, statuses=ALL_STATUSES
            )
            assert len(games) == 3 + 3  # rounds 1 and 2: no game started twice
            table_messages = cup.posts(r"round 2, table \d")
            assert len(table_messages) == 3  # one per game of round 2, none again
            assert len(cup.posts(r"round 2 of 3 has begun")) == 1
            assert len(await cup.tables(3)) == 0
        await cup.play_round(round)

    record = await cup.record()
    assert record.status == "finished" and record.round == 3
    every = list(await cup.store.tables(tid))
    byes = Counter(t.seats[0] for t in every if t.is_bye)
    assert len(byes) == 3 and max(byes.values()) == 1  # nobody gets two byes
    pairs = [frozenset(t.seats) for t in every if not t.is_bye]
    assert len(pairs) == len(set(pairs))  # no rematch
    assert all(t.places is not None for t in every)
    # The final announcement: a podium and the standings image, once.
    (final,) = cup.posts(r"is over after 3 rounds")
    assert "🥇" in (final.content or "") and any(n.endswith(".png") for n, _ in final.files)
    expected = expected_standings(every, 2)
    winner_name = cup.by_id[expected[0][0]].name
    assert winner_name in (final.content or "").split("\n")[1]
    # /tournament standings answers with the same order, as text and image.
    out = await cup.fake.slash(cup.players[3], "tournament standings", tournament=tid)
    answer = next(s for s in out if s.files)
    order = re.findall(r"^\d+\. \*\*(\w+)\*\*", answer.content or "", re.M)
    assert order == [cup.by_id[u].name for u, _ in expected]
    assert sum(p for _, p in expected) == 9 + 3  # nine games, three byes
    assert_no_secret_ids(cup.fake)


async def test_a_nine_player_sangram_pod_tournament_over_two_rounds(cup: Cup) -> None:
    await cup.open(9)
    tid, announcement = await cup.new(
        "sangram", "pods", rounds=2, table_size=3, options="round_limit=4"
    )
    await cup.join_everyone(announcement)
    await cup.start()
    met: Counter[frozenset[int]] = Counter()
    for round in (1, 2):
        tables = await cup.tables(round)
        assert [len(t.seats) for t in tables] == [3, 3, 3]  # three tables of three
        await assert_games_in_threads(cup, round)
        for t in tables:
            for a in t.seats:
                for b in t.seats:
                    if a < b:
                        met[frozenset((a, b))] += 1
        if round == 1:
            # A player resigns: the automatic player finishes their seat,
            # and it counts for them, last at the table.
            table = tables[0]
            quitter = cup.by_id[table.seats[1]]
            await resign(cup.fake, quitter, game=table.game_id)
            game = await bot_of(cup.fake).service.get(table.game_id)
            assert game.is_auto(1) and not game.is_over
        await cup.play_round(round)
        if round == 1:
            played = (await cup.tables(1))[0]
            assert played.places is not None and played.places[1] == 3
    # Pods never seat the same pair twice when another grouping exists.
    assert max(met.values()) == 1
    record = await cup.record()
    assert record.status == "finished"
    every = list(await cup.store.tables(tid))
    expected = expected_standings(every, 3)
    out = await cup.fake.slash(cup.players[0], "tournament standings")
    answer = next(s for s in out if s.files)
    order = re.findall(r"^\d+\. \*\*(\w+)\*\*", answer.content or "", re.M)
    assert order == [cup.by_id[u].name for u, _ in expected]
    # Placement points: 2/1/0 a table, ties share: 3 points a table, 6 tables.
    assert sum(p for _, p in expected) == pytest.approx(18)
    assert "opponents' points" in (answer.content or "")  # pod tie-breaks
    assert_no_secret_ids(cup.fake)


def winner_of(table: Any) -> int:
    """Who goes through: the winner, or after a draw the better seed.  On a
    new server nobody is rated yet, so seeds go by id (lowest first)."""
    if table.places[0] == table.places[1]:
        return int(min(table.seats))
    return int(table.seats[table.places.index(1)])


async def test_an_eight_player_single_elimination_mahabharata_tournament(cup: Cup) -> None:
    await cup.open(8)
    bot = bot_of(cup.fake)
    _tid, announcement = await cup.new("mahabharata", "elimination")
    await cup.join_everyone(announcement)
    await cup.start()
    alive = {u.id for u in cup.players}
    for round, games in ((1, 4), (2, 2), (3, 1)):
        tables = await cup.tables(round)
        assert len(tables) == games and all(len(t.seats) == 2 for t in tables)
        assert all(set(t.seats) <= alive for t in tables)  # only winners go on
        await assert_games_in_threads(cup, round)
        if round == 2:
            await cup.play(tables[0].game_id, moves=2)
            await cup.restart()
            bot = bot_of(cup.fake)
            assert len(await cup.tables(2)) == 2 and not await cup.tables(3)
        await cup.play_round(round)
        finished = await cup.tables(round)
        assert all(t.places is not None for t in finished)
        if round < 3:
            # The winners, and only they, sit in the next round.
            through = {u for t in await cup.tables(round + 1) for u in t.seats}
            for t in finished:
                assert len(through & set(t.seats)) == 1
                assert winner_of(t) in through
            alive = through
        else:
            (last,) = finished
            alive = {winner_of(last)}
    record = await cup.record()
    assert record.status == "finished" and record.round == 3
    (final,) = cup.posts(r"is over after 3 rounds")
    champion = cup.by_id[next(iter(alive))].name
    assert f"🥇 **{champion}**" in (final.content or "")
    # Every game was rated, for every player.
    assert len(await bot.service.ratings.top(cup.fake.guild_id, "mahabharata", 20)) == 8
    assert_no_secret_ids(cup.fake)


async def test_a_tournament_on_a_clock_plays_itself_out_when_nobody_moves(cup: Cup) -> None:
    """Nobody moves: every clock runs out, the automatic player substitutes,
    three timeouts in a row forfeit the game, and the results still carry
    the tournament through its rounds to the end (with a restart between)."""
    await cup.open(4)
    tid, announcement = await cup.new(
        "artaban", "swiss", rounds=2, options="clock=1h timeout=substitute reminder=off"
    )
    await cup.join_everyone(announcement)
    await cup.start()
    bot = bot_of(cup.fake)
    for step in range(400):
        record = await cup.record()
        if record.status == "finished":
            break
        if step == 5:
            await cup.restart()
            bot = bot_of(cup.fake)
        cup.clock.now += 3_601
        await bot.scheduler.run_due()
        await bot.scheduler.wait_idle()
        await cup.fake.settle()
    record = await cup.record()
    assert record.status == "finished" and record.round == 2
    every = list(await cup.store.tables(tid))
    assert len(every) == 4 and all(t.places is not None for t in every)
    for table in every:
        log = [e.action for e in await bot.store.log(table.game_id)]
        assert "@timeout" in log  # decided by the clock, not by anyone typing
    (final,) = cup.posts(r"is over after 2 rounds")
    assert "🥇" in (final.content or "")


async def test_closing_the_bot_lets_a_tournament_pass_finish(cup: Cup) -> None:
    """A game ends and the bot closes at once: the tournament's pass (run in
    the background after the move) still records the result and finishes
    the tournament before the database closes."""
    await cup.open(2)
    tid, announcement = await cup.new("artaban", "swiss", rounds=1)
    await cup.join_everyone(announcement)
    await cup.start()
    (table,) = await cup.tables(1)
    service = bot_of(cup.fake).service
    for _ in range(MAX_MOVES):
        game = await service.get(table.game_id)
        if game.is_over:
            break
        seat = sorted(game.engine.to_move(game.state) - {CHANCE})[0]
        async with service.lock(table.game_id):
            await service.auto_move(game, seat, by_human=True)
    assert (await service.get(table.game_id)).is_over
    await cup.fake.close()  # no settle: the pass is still pending
    db = await open_database(cup.path)
    try:
        store = TournamentStore(db)
        (played,) = await store.tables(tid, 1)
        record = await store.get(tid)
    finally:
        await db.close()
    assert played.places is not None
    assert record is not None and record.status == "finished"


async def test_a_tournament_table_is_short_and_its_finished_game_offers_no_rematch(
    cup: Cup,
) -> None:
    """Issue 31: a two-player table says "2 players" and lists no option
    that is its default; its finished game offers **Replay** but no
    **Rematch** (its players meet as the tournament pairs them), and a
    Rematch pressed on a board from before is refused."""
    await cup.open(2)
    _tid, announcement = await cup.new("kauda_baji", "swiss", rounds=1)
    await cup.join_everyone(announcement)
    await cup.start()
    (table,) = await cup.tables(1)
    bot = bot_of(cup.fake)
    stored = await bot.store.get_message(table.game_id, "lobby")
    assert stored is not None
    text = cup.fake.current(stored[1]).content or ""
    assert "round 1, table 1" in text and "2 players" in text and "2-4" not in text, text
    assert "Options:" not in text and "=" not in text, text
    await cup.play(table.game_id, moves=2)
    loser = cup.by_id[table.seats[0]]
    await resign(cup.fake, loser, table.game_id)
    await cup.fake.settle()
    game = await bot.service.get(table.game_id)
    assert game.is_over and game.record.thread_id is not None
    final = [s for s in cup.fake.channel_posts(game.record.thread_id) if s.files][-1]
    labels = [b["label"] for b in cup.fake.buttons(cup.fake.current(final))]
    assert "Replay" in labels and "Rematch" not in labels, labels
    # A board posted before this change still shows a Rematch button.
    rematch = f"chaupal:rematch:{table.game_id}"
    message = cup.fake.world.messages[final.message_id or 0]
    button = {"type": 2, "style": 2, "label": "Rematch", "custom_id": rematch}
    message["components"] = [*message["components"], {"type": 1, "components": [button]}]
    out = await cup.fake.click(loser, final.message_id or 0, rematch)
    assert any("tournament" in (s.content or "") and s.ephemeral for s in out), out
    games = await bot.store.games_in_channel(cup.fake.channel_id, statuses=ALL_STATUSES)
    assert len(games) == 1, games  # no rematch lobby opened
    # One round, one point: "after 1 round", "1 point" (issue 31, item 6).
    (final,) = cup.posts(r"is over after")
    assert "after 1 round." in (final.content or ""), final.content
    problems = wording_problems(cup.fake)
    assert not problems, "\n".join(dict.fromkeys(problems))


async def test_round_robin_standings_spell_out_their_one_tiebreak(cup: Cup) -> None:
    """Issue 31: the standings said "Bh 0 · SB 0", and a round robin showed
    Buchholz, which cannot split players who all met the same opponents.
    Now each tie-break is named and explained, and a round robin has only
    Sonneborn-Berger."""
    await cup.open(3)
    tid, announcement = await cup.new("artaban", "round_robin")
    await cup.join_everyone(announcement)
    await cup.start()
    for round in (1, 2, 3):
        for table in await cup.tables(round):
            if table.game_id is not None:
                await resign(cup.fake, cup.by_id[table.seats[1]], game=table.game_id)
        await cup.fake.settle()
    assert (await cup.record()).status == "finished"
    out = await cup.fake.slash(cup.players[0], "tournament standings", tournament=tid)
    answer = next(s for s in out if s.files)
    text = answer.content or ""
    rows = re.findall(r"^\d+\. \*\*\w+\*\* — .*$", text, re.M)
    assert len(rows) == 3
    assert all(re.search(r"— \d+ points? · Sonneborn-Berger \d", row) for row in rows), rows
    assert "Buchholz" not in text and "Bh " not in text and " SB " not in text
    assert "Equal points are split by Sonneborn-Berger (the points of each player you beat" in text
