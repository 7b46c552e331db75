"""Issue 17, item 3: every moment a message names is a Discord timestamp
(``<t:UNIX:R>``, ``<t:UNIX:f>``), which each reader's client shows in their
own time zone, and the ``R`` style as a live countdown; and two item-5 fixes:
``/game list`` counts the players' moves (not chance steps and table
events), and ``make run`` without a token ends with Chaupal's sentence only.

Through discord.py's real dispatch on a fake clock; every expected moment is
worked out here from the clock and the game's rules (a clock of ``1d`` runs
out a day after the turn began), not read back from the bot's formatting.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.edge.delivery.texts import jump_url
from bot.engines.core import CHANCE
from bot.timekeeping import DAY, HOUR
from bot.tournament.ratings import FinishedGame, rate
from tests.bot.driver import bot_of, make_bot, open_lobby, play_turn, start
from tests.bot.test_discord_async_play import Game, open_game
from tests.bot.test_discord_tournaments import Cup
from tests.discord_harness import FakeDiscord, Sent

ROOT = Path(__file__).resolve().parents[2]
STAMP = re.compile(r"<t:(-?\d+):([tTdDfFR])>")


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[list[Game]]:
    opened: list[Game] = []
    yield opened
    for game in opened:
        await game.fake.close()


def stamp(unix: float, style: str = "R") -> str:
    """The timestamp Discord renders for ``unix`` (whole seconds)."""
    return f"<t:{int(unix)}:{style}>"


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content or "" for s in out)


def clock_line(content: str) -> str:
    (line,) = [ln for ln in content.splitlines() if ln.startswith(("Clocks:", "Paused."))]
    return line


# -- the clock line above the board -------------------------------------------------------


async def test_the_board_shows_a_running_clock_as_its_deadline_and_a_stopped_one_as_time_left(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1d")
    began = game.clock.now
    (mover,) = await game.awaited()
    other = next(u for u in game.users if u is not mover)
    line = clock_line(game.board().content or "")
    # The player to move: their day runs out a day after the turn began.
    assert f"**{mover.name}** ⏳ runs out {stamp(began + DAY)}" in line, line
    # The other clock stands still: its time left, which does not go stale.
    assert f"**{other.name}** 1d" in line and line.count("<t:") == 1, line
    assert "23h" not in line and "1d 0h" not in line

    # A moderator's pause stops every clock: durations only, no countdown.
    game.clock.now += 3 * HOUR
    await game.fake.slash(game.fake.moderator(), "moderate game pause")
    line = clock_line(game.board().content or "")
    assert line.startswith("Paused. Clocks:") and "<t:" not in line, line
    assert f"**{mover.name}** 21h" in line, line


async def test_an_away_player_is_back_at_a_timestamp(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=none")
    (mover,) = await game.awaited()
    game.clock.now += 90  # not a whole minute: the timestamp is in whole seconds
    out = await game.fake.slash(mover, "game away", days=2)
    back = game.clock.now + 2 * DAY
    said = texts(out)
    assert f"until {stamp(back, 'f')} ({stamp(back)})" in said, said
    # Without a clock the board has an "Away:" line with the same moment.
    content = game.board().content or ""
    assert f"Away: **{mover.name}** (away, back {stamp(back)})" in content, content


# -- reminders, timeouts, /game mine --------------------------------------------------------


async def test_a_reminder_names_the_real_deadline_and_a_timeout_its_moment(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1d reminder=auto")
    deadline = game.clock.now + DAY
    (late,) = await game.awaited()
    live = await game.live()
    # The service's own deadline for the seat is the one worked out here.
    timers = await bot_of(game.fake).service.timers.of_game(game.id)
    seat = live.seat_of(late.id)
    assert any(t.kind == "clock" and t.seat == seat and t.due == deadline for t in timers)

    await game.advance(12 * HOUR + 7)  # the reminder at half the time comes late
    (reminder,) = [d.content or "" for d in game.fake.dms(late) if "Reminder:" in (d.content or "")]
    # "12h left" is for a glance (a notification shows the text raw)...
    assert "; 11h 59m left on your clock" in reminder, reminder
    # ...and the deadline itself, in the reader's zone, live and in full.
    assert f"which runs out {stamp(deadline)} ({stamp(deadline, 'f')})." in reminder, reminder
    assert {int(u) for u, _ in STAMP.findall(reminder)} == {int(deadline)}

    await game.advance(12 * HOUR)
    (told,) = [d.content or "" for d in game.fake.dms(late) if "time ran out" in (d.content or "")]
    assert told.startswith(f"Your time ran out in Kauda Baji #{game.id} ({stamp(deadline, 'f')})")


async def test_game_mine_says_when_your_clock_runs_out(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1d")
    (mover,) = await game.awaited()
    other = next(u for u in game.users if u is not mover)
    deadline = game.clock.now + DAY
    mine = texts(await game.fake.slash(mover, "game mine"))
    assert f"your turn**, your clock runs out {stamp(deadline)}" in mine, mine
    # The other player's line names no deadline (it is not theirs).
    assert "<t:" not in texts(await game.fake.slash(other, "game mine"))


# -- /game list counts the players' moves ----------------------------------------------------


async def test_game_list_counts_the_players_moves_not_chance_or_table_events(
    tmp_path: Path,
) -> None:
    fake = await FakeDiscord.start(make_bot(tmp_path / "list.sqlite3", 5))
    try:
        users = [fake.user("asha"), fake.user("bhima")]
        by_id = {u.id: u for u in users}
        game_id, lobby = await open_lobby(fake, "kauda_baji", *users, options="pieces=1")
        await start(fake, users[0], lobby)
        out = texts(await fake.slash(users[0], "game list"))
        assert f"#{game_id} Kauda Baji — active, no move yet — [board](<" in out, out

        rng = random.Random(2)
        moved = 0
        for _ in range(8):
            moved += await play_turn(fake, game_id, by_id, rng, "hand") is not None
        # Table events are logged too (``@pause``, ``@resume``): not moves.
        moderator = fake.moderator()
        await fake.slash(moderator, "moderate game pause", game=game_id)
        await fake.slash(moderator, "moderate game resume", game=game_id)
        service = bot_of(fake).service
        game = await service.get(game_id)
        log = await bot_of(fake).store.log(game_id)
        assert moved == 8 and not game.is_over
        # The log is longer: the throws (chance) and the pause come in between.
        assert any(e.actor == CHANCE for e in log) and any(e.action == "@pause" for e in log)
        assert game.version > moved
        last = max(e.created_at for e in log if e.actor >= 0 and not e.action.startswith("@"))

        out = texts(await fake.slash(users[1], "game list"))
        line = next(ln for ln in out.splitlines() if ln.startswith(f"#{game_id} "))
        board = await bot_of(fake).store.get_message(game_id, "board")
        assert board is not None
        link = f"[board](<{jump_url(fake.guild_id, board[0], board[1])}>)"
        assert line == f"#{game_id} Kauda Baji — active, 8 moves, the last {stamp(last)} — {link}"
        assert f"move {game.version}" not in out
        # The caller's own games say the same, in the game's thread (issue
        # 31: the list named the channel the thread hangs off).
        record = await bot_of(fake).store.get_game(game_id)
        assert record is not None and record.thread_id is not None
        assert f"in <#{record.thread_id}>, 8 moves" in out, out
        assert f"<#{fake.channel_id}>" not in out
    finally:
        await fake.close()


async def test_moves_made_reads_many_games_at_once(tmp_path: Path) -> None:
    fake = await FakeDiscord.start(make_bot(tmp_path / "moves.sqlite3", 6))
    try:
        users = [fake.user("asha"), fake.user("bhima")]
        first, lobby = await open_lobby(fake, "kauda_baji", *users, options="pieces=1")
        await start(fake, users[0], lobby)
        second, _ = await open_lobby(fake, "artaban", *users)
        rng = random.Random(1)
        by_id = {u.id: u for u in users}
        for _ in range(3):
            await play_turn(fake, first, by_id, rng, "hand")
        made = await bot_of(fake).store.moves_made([first, second, first, 999])
        assert set(made) == {first} and made[first].count == 3
        assert await bot_of(fake).store.moves_made([]) == {}
    finally:
        await fake.close()


# -- /game log -------------------------------------------------------------------------------


async def test_the_log_states_utc_and_its_message_shows_the_opening_in_local_time(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    record = await bot_of(game.fake).store.get_game(game.id)
    assert record is not None
    out = await game.fake.slash(game.users[0], "game log")
    (sent,) = [s for s in out if s.files]
    content = sent.content or ""
    assert f"opened {stamp(record.created_at, 'f')} ({stamp(record.created_at)})" in content
    assert "Times in the file are UTC" in content
    text = sent.files[0][1].decode("utf-8")
    header = text.splitlines()[:4]
    assert header[2].startswith("Opened: 2023-11-14 22:13 UTC."), header
    assert "Every time in this log is UTC" in header[2], header
    assert "<t:" not in text  # timestamps do not render in a file


# -- /profile and tournaments ---------------------------------------------------------------


async def test_profile_says_when_each_result_was_rated(tmp_path: Path) -> None:
    fake = await FakeDiscord.start(make_bot(tmp_path / "profile.sqlite3", 8))
    try:
        bot = bot_of(fake)
        dev, eve = fake.user("dev"), fake.user("eve")
        record = await bot.store.create_game(
            engine="artaban",
            engine_revision=1,
            options={},
            guild_id=fake.guild_id,
            channel_id=fake.channel_id,
            thread_id=None,
            creator_id=dev.id,
            now=1.0,
        )
        await bot.store.add_seat(record.id, dev.id, "dev", 1.0)
        await bot.store.add_seat(record.id, eve.id, "eve", 1.0)
        finished = FinishedGame("artaban", (dev.id, eve.id), (frozenset({0}), frozenset({1})))
        rated_at = 1_700_001_234.5
        assert await bot.service.ratings.apply(
            record.id, fake.guild_id, "artaban", rate({}, finished).values(), rated_at
        )
        out = await fake.slash(eve, "profile", option_values={"user": dev})
        [line] = [ln for ln in texts(out).splitlines() if f"#{record.id}:" in ln]
        assert "1st of 2, won, ▲" in line and f", {stamp(rated_at)} — " in line, line
    finally:
        await fake.close()


async def test_a_round_deadline_is_a_timestamp_wherever_it_is_named(tmp_path: Path) -> None:
    cup = await Cup(tmp_path / "cup.sqlite3", 7).open(2)
    try:
        _, announcement = await cup.new(
            "artaban", "swiss", rounds=2, round_time="3d", options="clock=none reminder=off"
        )
        await cup.join_everyone(announcement)
        began = cup.clock.now
        await cup.start()
        deadline = began + 3 * DAY
        both = f"{stamp(deadline)} ({stamp(deadline, 'f')})"
        (posted,) = cup.posts(r"round 1 of 2 has begun")
        assert f"Deadline: {both}; games still running then" in (posted.content or "")
        settings = texts(await cup.fake.slash(cup.players[0], "tournament settings"))
        assert f"Round 1 is settled {both}." in settings, settings
        pairings = texts(await cup.fake.slash(cup.players[1], "tournament pairings"))
        assert f"round 1, settled {both}" in pairings, pairings
        shown = cup.fake.current(announcement).content or ""
        assert f"Round 1 of 2 is being played (settled {both})" in shown, shown

        # The deadline passes while the bot sleeps: the news says when it was.
        cup.clock.now = deadline + 5 * HOUR
        bot = bot_of(cup.fake)
        bot.round_scheduler.rearm()
        await bot.round_scheduler.wait_idle()
        await cup.fake.settle()
        (up,) = cup.posts(r"round 1's time is up")
        assert f"round 1's time is up ({stamp(deadline, 'f')})." in (up.content or ""), up
    finally:
        await cup.fake.close()


# -- make run without a token -----------------------------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_without_a_token_ends_with_chaupals_sentence_only(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAKE"))}
    # Set and empty: a .env next to the Makefile cannot fill it in (it never
    # overrides the environment), so this never logs in anywhere.
    env["DISCORD_TOKEN"] = ""
    env["CHAUPAL_DATABASE"] = str(tmp_path / "never.sqlite3")
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        # -o: take the virtual environment as it is (no install in a test).
        ["make", "-o", "setup", "-o", ".venv/.installed", f"BIN={bin_dir}", "run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "chaupal: DISCORD_TOKEN is not set." in said, said
    assert "Error" not in said and "make:" not in said and "python -m bot" not in said, said
    # The bot itself still says "a setting is missing" to service managers.
    plain = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, cwd=ROOT, capture_output=True, timeout=120
    )
    assert plain.returncode == 2
