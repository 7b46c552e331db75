"""Issue 16: clocks, reminders and timeouts that survive restarts, through
discord.py's dispatch on a fake clock.

Each defect the issue names has a test here that failed before its fix:
the keeper's deadlock on the first reminder after a restart, a reminder
carried over to the next player when a seat leaves, private decisions with
no clock, the wrong DM when a two-player game is lost on time, and ``skip``
never forfeiting.  Then the new defaults, the capped time bank, and every
kind of overdue deadline across a restart, each firing once.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.scheduler import Scheduler
from bot.service import FORFEIT_EVENT, GameLock
from bot.timekeeping import DAY, HOUR, MINUTE, ClockRule, first_reminder, next_reminder
from storage.games import GameStore, NewEntry
from storage.opening import open_database
from storage.timekeeping import Timer, TimerStore
from tests.bot.driver import bot_of, play_turn
from tests.bot.test_discord_async_play import Game, open_game
from tests.bot.test_discord_mahabharata import log_reaching_announce
from tests.discord_harness import FakeUser


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[list[Game]]:
    opened: list[Game] = []
    yield opened
    for game in opened:
        await game.fake.close()


def reminders(game: Game, user: FakeUser) -> list[str]:
    """The reminder texts a player got, by DM or by a mention in the thread."""
    dms = [d.content or "" for d in game.fake.dms(user)]
    posts = [
        p.content or "" for p in game.fake.channel_posts() if user.mention in (p.content or "")
    ]
    return [t for t in dms + posts if "Reminder:" in t]


def time_ran_out(game: Game, user: FakeUser) -> list[str]:
    return [d.content or "" for d in game.fake.dms(user) if "time ran out" in (d.content or "")]


# -- 1. the deadlock after a restart, and the watchdog ---------------------------------


async def test_the_first_reminder_after_a_restart_is_sent_and_nothing_hangs(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 reminder=1h clock=none")
    (late,) = await game.awaited()
    await game.restart()  # empties the service's cache of games
    game.clock.now += 2 * HOUR
    fired = await asyncio.wait_for(bot_of(game.fake).scheduler.run_due(), timeout=10)
    assert fired == 1
    await game.fake.settle()
    assert len(reminders(game, late)) == 1
    out = await game.fake.slash(late, "game mine")
    assert any(f"#{game.id}" in (s.content or "") for s in out), out


async def test_a_game_lock_is_reentrant_within_its_task_only() -> None:
    lock = GameLock()
    async with lock, lock:  # the same task: no deadlock
        assert lock.locked()
        other = asyncio.ensure_future(lock.__aenter__())
        await asyncio.sleep(0.01)
        assert not other.done()  # another task waits
    await asyncio.wait_for(other, timeout=1)
    await lock.__aexit__(None, None, None)
    assert not lock.locked()


async def test_a_stuck_job_is_cut_off_and_the_others_still_fire(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await open_database(tmp_path / "db.sqlite3")
    try:
        store = GameStore(db)
        ids = []
        for _ in range(3):
            record = await store.create_game(
                engine="kauda_baji",
                engine_revision=1,
                options={},
                guild_id=1,
                channel_id=1,
                thread_id=None,
                creator_id=1,
                now=0.0,
            )
            ids.append(record.id)
        timers = TimerStore(db)
        for i, game_id in enumerate(ids):
            await timers.replace(game_id, [Timer(10.0 + i, game_id, "remind", 0, 0)])
        fired: list[int] = []

        async def fire(timer: Timer) -> None:
            if timer.game_id == ids[0]:
                await asyncio.Event().wait()  # never returns
            await timers.claim(timer)
            fired.append(timer.game_id)

        now = [100.0]
        scheduler = Scheduler(timers, fire, lambda: now[0], job_limit=0.05)
        with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
            await asyncio.wait_for(scheduler.run_due(), timeout=5)
        assert fired == ids[1:]
        assert any("did not finish" in r.getMessage() for r in caplog.records)
        # The stuck one is tried again later, not forgotten.
        (again,) = await timers.of_game(ids[0])
        assert again.due > now[0]
    finally:
        await db.close()


# -- 2. a reminder belongs to one player's wait ------------------------------------------


async def test_a_reminder_does_not_carry_over_when_a_seat_leaves(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 3, "pieces=1 clock=none reminder=1d")
    (gone,) = await game.awaited()
    game.clock.now += DAY - 10 * MINUTE
    moderator = game.fake.moderator()
    await game.fake.slash(moderator, "moderate game kick", option_values={"user": gone})
    (nxt,) = await game.awaited()
    assert nxt is not gone
    await game.advance(20 * MINUTE)  # the old wait's reminder would have fallen due
    assert reminders(game, nxt) == []
    await game.advance(DAY - 20 * MINUTE)
    assert len(reminders(game, nxt)) == 1


# -- 3. private decisions run a clock and get reminders ------------------------------------


async def announce_game(game: Game, users: list[FakeUser], table_options: dict[str, str]) -> int:
    """A stored two-player Mahabharata game stopped in the announce phase
    (as a restart finds it: no timers yet)."""
    bot = bot_of(game.fake)
    record = await bot.store.create_game(
        engine="mahabharata",
        engine_revision=1,
        options={},
        guild_id=game.fake.guild_id,
        channel_id=game.fake.channel_id,
        thread_id=None,
        creator_id=users[0].id,
        now=game.clock.now,
        table_options=table_options,
    )
    for user in users:
        await bot.store.add_seat(record.id, user.id, user.name, game.clock.now)
    await bot.store.start(record.id, game.clock.now)
    await bot.store.append(
        record.id,
        expected_version=0,
        now=game.clock.now,
        entries=[
            NewEntry(actor=s, action=t, narration="", private_to=None)
            for s, t in log_reaching_announce(2)
        ],
    )
    return record.id


async def test_a_private_decision_times_out_quietly_with_a_reminder_first(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    users = game.users
    game.id = await announce_game(
        game, users, {"clock": "1h", "timeout": "forfeit", "reminder": "auto"}
    )
    await game.restart()  # start-up sets the timers of a game that has none
    posts_before = len(game.fake.channel_posts())
    live = await game.live()
    public, private = bot_of(game.fake).service.owing(live)
    assert not public and private
    deciders = [users[s] for s in sorted(private)]
    clocks = {t.seat for t in await bot_of(game.fake).service.timers.of_game(game.id)}
    assert clocks == set(private)
    await game.advance(30 * MINUTE + 1)  # auto: half the time
    for user in deciders:
        assert len(reminders(game, user)) == 1
    for post in game.fake.channel_posts()[posts_before:]:
        assert not any(user.mention in (post.content or "") for user in users)
    await game.advance(30 * MINUTE)
    live = await game.live()
    assert not set(bot_of(game.fake).service.owing(live)[1]) & {
        users.index(u) for u in deciders
    }
    for user in deciders:
        (told,) = time_ran_out(game, user)
        assert "Nobody else was told" in told
    # Nothing public says who was asked or that anyone ran out of time.
    for post in game.fake.channel_posts()[posts_before:]:
        assert "ran out of time" not in (post.content or "")
    assert FORFEIT_EVENT not in await game.log_actions()


# -- 4. the right DM when a two-player game is lost on time --------------------------------


async def test_a_two_player_game_lost_on_time_says_so(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1h timeout=forfeit")
    (late,) = await game.awaited()
    await game.advance(HOUR + 1)
    (told,) = time_ran_out(game, late)
    assert "lost the game on time" in told
    assert "made that move for you" not in told
    assert (await game.log_actions()).count(FORFEIT_EVENT) == 1


# -- 5. skip forfeits like substitute ------------------------------------------------------


@pytest.mark.parametrize("policy", ["skip", "substitute"])
async def test_three_timeouts_in_a_row_forfeit_under_skip_and_substitute(
    games: list[Game], tmp_path: Path, policy: str
) -> None:
    game = await open_game(
        games, tmp_path, "chaturaji", 2, f"clock=1h timeout={policy} reminder=off"
    )
    vanished = game.users[0]
    rng = random.Random(3)
    for _ in range(200):
        live = await game.live()
        if live.is_over:
            break
        awaited = await game.awaited()
        if vanished in awaited:
            await game.advance(HOUR + 1)
        else:
            users = {u.id: u for u in game.users if u is not vanished}
            await play_turn(game.fake, game.id, users, rng, "command")
            await game.fake.settle()
    live = await game.live()
    assert live.is_over and live.outcome is not None
    assert live.outcome.ranking[-1] == frozenset({live.seat_of(vanished.id)})
    told = time_ran_out(game, vanished)
    assert len(told) == 3 and "lost the game on time" in told[-1]
    assert "this was 2" in told[1]
    # Issue 19: a timeout's move is the substitute level's (medium by
    # default), searched in the ThinkPool; skip passes without searching.
    thought = bot_of(game.fake).thinking.thought
    if policy == "substitute":
        assert thought["medium"] == 2 and not thought["easy"], thought
    else:
        assert not thought["medium"], thought


# -- defaults, reminders that follow the clock, a capped bank --------------------------------


async def test_new_games_get_a_correspondence_clock_and_reminders_that_follow_it(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    live = await game.live()
    assert live.table.clock == ClockRule(3 * DAY, per_move=True)
    assert "Clocks:" in (game.board().content or "")
    (late,) = await game.awaited()
    await game.advance(1.5 * DAY - MINUTE)
    assert reminders(game, late) == []
    await game.advance(MINUTE)  # half the time left
    (first,) = reminders(game, late)
    assert "1d 12h left" in first
    await game.advance(1.25 * DAY - MINUTE)
    assert len(reminders(game, late)) == 1
    await game.advance(MINUTE)  # shortly before the deadline (six hours)
    assert len(reminders(game, late)) == 2 and "6h left" in reminders(game, late)[-1]
    await game.advance(6 * HOUR + 1)
    assert len(time_ran_out(game, late)) == 1
    assert len(reminders(game, late)) == 2


def test_reminders_follow_the_clock_and_never_come_twice_a_day_unless_asked() -> None:
    day = ClockRule(DAY, per_move=True)
    # auto, 1d: one reminder at half the time; the last warning would come
    # within a day of it, so it is not sent.
    assert first_reminder("auto", day, now=0, deadline=DAY) == 12 * HOUR
    assert next_reminder("auto", day, after=12 * HOUR, deadline=DAY) is None
    # A 12h clock with a 12h reminder used to time out with no warning.
    half = ClockRule(12 * HOUR, per_move=True)
    due = first_reminder(12 * HOUR, half, now=0, deadline=12 * HOUR)
    assert due is not None and 0 < due < 12 * HOUR
    # Without a clock: once a day.
    assert first_reminder("auto", None, now=0, deadline=None) == DAY
    assert next_reminder("auto", None, after=DAY, deadline=None) == 2 * DAY
    # Asked for 6h with a 3d clock: daily, then a last warning, then none.
    three = ClockRule(3 * DAY, per_move=True)
    times = [first_reminder(6 * HOUR, three, now=0, deadline=3 * DAY)]
    while (after := times[-1]) is not None and len(times) < 10:
        times.append(next_reminder(6 * HOUR, three, after=after, deadline=3 * DAY))
    assert times == [6 * HOUR, 30 * HOUR, 54 * HOUR, 66 * HOUR, None]
    assert first_reminder(None, three, now=0, deadline=3 * DAY) is None


async def test_a_time_bank_never_grows_past_its_start(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1d+12h")
    rng = random.Random(2)
    users = {u.id: u for u in game.users}
    for _ in range(12):
        if (await game.live()).is_over:
            break
        game.clock.now += 10 * MINUTE
        await play_turn(game.fake, game.id, users, rng, "command")
        await game.fake.settle()
    live = await game.live()
    for seat in live.seats:
        assert seat.clock_left is None or seat.clock_left <= DAY


# -- every kind of overdue deadline across a restart fires once ------------------------------


@pytest.mark.parametrize(
    ("options", "kind"),
    [
        ("clock=none reminder=1h", "reminder"),
        ("clock=1h timeout=substitute reminder=off", "substitute"),
        ("clock=1h timeout=skip reminder=off", "skip"),
        ("clock=1h timeout=forfeit reminder=off", "forfeit"),
        ("clock=1h reminder=auto", "reminder+substitute"),
    ],
)
async def test_every_overdue_deadline_fires_once_after_a_restart(
    games: list[Game], tmp_path: Path, options: str, kind: str
) -> None:
    game = await open_game(games, tmp_path, "chaturaji", 2, options)
    (late,) = await game.awaited()
    game.clock.now += 2 * HOUR  # due while the bot is down
    await game.restart()
    await game.restart()  # and again: nothing fires twice
    assert await game.advance(0) == 0
    actions = await game.log_actions()
    told = time_ran_out(game, late)
    if kind == "reminder":
        assert len(reminders(game, late)) == 1 and not told
    elif kind == "reminder+substitute":
        # Overdue together: the reminder (at half the hour) is not sent once
        # the clock has run out; the timeout's DM says what happened, once.
        assert reminders(game, late) == [] and len(told) == 1
        assert actions.count("@timeout") == 1
    elif kind == "forfeit":
        assert len(told) == 1 and actions.count(FORFEIT_EVENT) == 1
        assert (await game.live()).is_over
    else:
        assert len(told) == 1 and actions.count("@timeout") == 1
        assert "this was 1" in told[0]


async def test_a_vacation_ending_while_the_bot_is_down_restarts_the_clock_once(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1d reminder=off")
    (late,) = await game.awaited()
    await game.fake.slash(late, "game away", days=1)
    version = (await game.live()).version
    game.clock.now += DAY + HOUR  # the vacation ended an hour ago, bot down
    await game.restart()
    live = await game.live()
    seat = live.seat_of(late.id)
    assert live.version == version  # the clock started again; no timeout
    assert live.seats[seat].clock_since is not None
    assert time_ran_out(game, late) == []
    await game.advance(DAY - HOUR - MINUTE)
    assert time_ran_out(game, late) == []
    await game.advance(HOUR + 2 * MINUTE)
    assert len(time_ran_out(game, late)) == 1


# -- each player's own reminders and quiet hours ------------------------------------------


async def test_a_players_own_reminder_setting_comes_before_the_games(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=none reminder=1h")
    (late,) = await game.awaited()
    await game.fake.slash(late, "chaupal me", reminders="off")
    other = next(u for u in game.users if u is not late)
    await game.fake.slash(other, "chaupal me", reminders="3h")
    # The setting counts from the player's next wait.
    await game.fake.slash(late, "game play", action=game_text(await game.live(), late))
    await game.fake.settle()
    assert await game.awaited() == [other]
    await game.advance(HOUR)
    assert reminders(game, other) == []  # 3h, not the game's 1h
    await game.advance(2 * HOUR)
    assert len(reminders(game, other)) == 1
    await game.fake.slash(other, "game play", action=game_text(await game.live(), other))
    await game.fake.settle()
    assert await game.awaited() == [late]
    before = len(reminders(game, late))
    await game.advance(3 * DAY)
    assert len(reminders(game, late)) == before  # off


def game_text(live: object, user: FakeUser) -> str:
    from bot.service import LiveGame

    assert isinstance(live, LiveGame)
    seat = live.seat_of(user.id)
    assert seat is not None
    engine, state = live.engine, live.state
    return engine.describe(state, seat, engine.legal_actions(state, seat)[0])


async def test_a_reminder_due_in_quiet_hours_waits_until_they_end(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=none reminder=1h")
    (late,) = await game.awaited()
    # Quiet for the next six hours, in the player's own zone (UTC+5:30).
    import datetime as dt

    local = dt.datetime.fromtimestamp(game.clock.now, dt.timezone(dt.timedelta(hours=5.5)))
    start = local.replace(second=0, microsecond=0) - dt.timedelta(minutes=1)
    end = start + dt.timedelta(hours=6)
    quiet = f"{start:%H:%M}-{end:%H:%M}"
    out = await game.fake.slash(late, "chaupal me", quiet=quiet, timezone="+05:30")
    assert any("05:30" in (s.content or "") for s in out), out
    await game.advance(HOUR)
    await game.advance(4 * HOUR)
    assert reminders(game, late) == []
    await game.advance(HOUR + MINUTE)  # quiet hours over: the reminder comes, once
    assert len(reminders(game, late)) == 1
    await game.advance(HOUR)
    assert len(reminders(game, late)) == 1


async def test_reminders_missed_while_down_are_one_and_none_after_the_deadline(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=12h reminder=6h")
    (late,) = await game.awaited()
    game.clock.now += 13 * HOUR  # the reminders at 6h and 10h30 and the deadline: all missed
    await game.restart()
    assert reminders(game, late) == []  # no "0m left" reminder after the clock ran out
    assert len(time_ran_out(game, late)) == 1
    # The next wait of the same player is reminded as usual.
    await game.advance(0)
    assert reminders(game, late) == []


async def test_a_delivery_cut_off_by_the_watchdog_is_retried(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    delivery = bot_of(game.fake).delivery
    started = asyncio.Event()

    async def hangs(*args: object, **kwargs: object) -> bool:
        started.set()
        await asyncio.Event().wait()
        return True

    monkeypatch.setattr(delivery, "_board", hangs)
    job = asyncio.ensure_future(delivery.catch_up(game.id))
    await asyncio.wait_for(started.wait(), timeout=5)
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    assert game.id in delivery._retries  # what was not delivered goes out later


async def test_a_reminder_stored_before_reminders_were_per_seat_is_replaced(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=none reminder=1h")
    (late,) = await game.awaited()
    timers = bot_of(game.fake).service.timers
    version = (await game.live()).version
    # As an older Chaupal stored it: one reminder for the whole game.
    await timers.replace(game.id, [Timer(game.clock.now, game.id, "remind", -1, version)])
    await game.advance(0)
    assert reminders(game, late) == []
    seat = (await game.live()).seat_of(late.id)
    assert {(t.kind, t.seat) for t in await timers.of_game(game.id)} == {("remind", seat)}
    await game.advance(HOUR)
    assert len(reminders(game, late)) == 1


async def test_a_private_decision_overdue_across_a_restart_times_out_once(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    users = game.users
    game.id = await announce_game(game, users, {"clock": "1h", "reminder": "off"})
    await game.restart()
    _, private = bot_of(game.fake).service.owing(await game.live())
    deciders = [users[s] for s in sorted(private)]
    game.clock.now += 2 * HOUR  # the private deadline passes while the bot is down
    await game.restart()
    await game.restart()
    for user in deciders:
        assert len(time_ran_out(game, user)) == 1
    _, private = bot_of(game.fake).service.owing(await game.live())
    assert not private & {users.index(u) for u in deciders}


async def test_a_private_decision_is_never_reminded_in_the_channel(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    users = game.users
    game.id = await announce_game(game, users, {"clock": "4h", "reminder": "1h"})
    for user in users:
        game.fake.block_dms(user)
    await game.restart()
    posts = len(game.fake.channel_posts())
    await game.advance(HOUR + MINUTE)
    for post in game.fake.channel_posts()[posts:]:
        assert "Reminder" not in (post.content or "")
        assert not any(user.mention in (post.content or "") for user in users)


# -- issue 29: a wait is reminded as its schedule says, once ---------------------------------


@pytest.mark.parametrize("trigger", ["another commits", "another goes away", "private"])
async def test_a_wait_gets_no_reminder_after_its_last_one_whoever_else_acts(
    games: list[Game], tmp_path: Path, trigger: str
) -> None:
    # A 12h clock (a day for the private decision) with reminders ``auto``:
    # one reminder at half the time, and no last warning (it would come
    # within a day of the first; README).  Another player's commit, or any
    # change to the game (a vacation taken by someone else), set the timers
    # again, and the seat whose reminder had been sent got a second one at
    # half of what was left (the three-week simulation's 12h Sangram wait).
    clock = DAY if trigger == "private" else 12 * HOUR
    if trigger == "another commits":
        game = await open_game(games, tmp_path, "sangram", 3, "clock=12h")
        waiting = await game.awaited()
    else:
        game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=12h")
        waiting = await game.awaited()
        if trigger == "private":
            game.id = await announce_game(game, game.users, {"clock": "1d"})
            await game.restart()  # start-up sets the timers of a game that has none
            _, private = bot_of(game.fake).service.owing(await game.live())
            waiting = [game.users[s] for s in sorted(private)]
    assert len(waiting) >= 1
    await game.advance(clock / 2 + 1)
    assert [len(reminders(game, u)) for u in waiting] == [1] * len(waiting)
    await game.advance(HOUR)
    if trigger == "another commits":
        mover, *waiting = waiting
        live = await game.live()
        seat = live.seat_of(mover.id)
        texts = bot_of(game.fake).service.legal_texts(live, seat)
        await game.fake.slash(mover, "game play", action=texts[0], game=game.id)
        await game.fake.settle()
    else:
        other = next(u for u in game.users if u not in waiting)
        await game.fake.slash(other, "game away", days=1)
    await game.advance(clock / 2 - HOUR - 2 * MINUTE)  # just before the deadline
    live = await game.live()
    owing = set().union(*bot_of(game.fake).service.owing(live))
    assert all(live.seat_of(u.id) in owing for u in waiting)  # still the same wait
    assert [len(reminders(game, u)) for u in waiting] == [1] * len(waiting)
