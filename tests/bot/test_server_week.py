"""Issues 16 and 29: Discord servers' weeks of asynchronous play.

Eight members play seven casual games of all five games on one bot, through
discord.py's real dispatch and a fake clock, for eight simulated days: every
timeout policy, per-move clocks (``1d``, ``12h``), a time bank (``2d+12h``),
reminders asked for (``6h``), by default (``auto``) and turned off, and one
game with no options at all (the server defaults: ``3d`` per move,
``substitute``, ``auto``).  Members are prompt, late (they move once
reminded), vanished, away for two days, or have their DMs closed.  A
moderator pauses a game for a day and kicks a vanished player.  The bot is
restarted twice after being down past several deadlines.

Issue 29 runs a second server for three weeks: thirteen members and 24
games of all five games, in three waves, with Sangram's commits,
Mahabharata's private announce decisions (its players keep their tokens
behind their screens, so Patis complete), lobby automatic players, seats
that left (a kick, a resignation, forfeits on time), a pause, two
vacations, three restarts with deadlines overdue, and members with their
own notifications: ``dm`` and ``both``, their own reminder delay or none,
quiet hours in Kolkata, New York and London (whose clocks change in March,
inside the run) and at a fixed offset, and closed DMs.

Throughout (``tests/bot/week.py`` checks it after every step): every
reminder goes to a seat that owed a decision then and was not away, at the
documented time (quiet hours included), with the documented time left,
never more than its wait's schedule; every timeout comes when the clock ran
out, after the reminder its schedule has before the deadline; every wait a
move started is announced once, the way its player asked, and nobody is
pinged while quiet or away; nothing inside the bot logs an error.  At the
end no game is stuck: each one is over or has a timer for every seat that
owes a decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.timekeeping import Timer
from tests.bot.driver import resign
from tests.bot.week import DAY, HOUR, MINUTE, Behaviour, Server, Spec, Violation, Wait

SEED = 16

#: The games, their lobby options and players (join order = seats).
SPECS = (
    # Forfeit in a two-player game: the vanished player loses on time.
    Spec(
        "K1",
        "kauda_baji",
        "pieces=1 clock=1d timeout=forfeit reminder=6h",
        ["asha", "dev"],
        "general",
    ),
    # Skip: the vanished player passes (or is substituted) three times, then forfeits.
    Spec("C1", "chaturaji", "clock=12h timeout=skip reminder=off", ["gita", "hari"], "strategy"),
    # A time bank with default reminders; a simultaneous phase; one player away.
    Spec("S1", "sangram", "clock=2d+12h timeout=substitute", ["bhima", "chitra", "esha"], "cards"),
    # Per-move 1d, default policy and reminders; paused by a moderator for a day.
    Spec("M1", "mahabharata", "clock=1d", ["chitra", "gita"], "cards"),
    # No options at all: the server's defaults; the late player's DMs are closed.
    Spec("A1", "artaban", "", ["bhima", "farid"], "strategy"),
    # Four players, 12h per move with reminders after 6h; the vanished one is kicked.
    Spec(
        "K2",
        "kauda_baji",
        "pieces=1 clock=12h reminder=6h",
        ["asha", "esha", "hari", "farid"],
        "general",
    ),
    # Substitute three times in a row, then forfeit (two players, so the game ends).
    Spec("K3", "kauda_baji", "pieces=1 clock=1d timeout=substitute", ["chitra", "dev"], "general"),
    # Forfeit with three players: the automatic player takes the seat, the others play on.
    Spec(
        "C2",
        "chaturaji",
        "clock=1d timeout=forfeit reminder=6h",
        ["gita", "dev", "bhima"],
        "strategy",
    ),
)

KICK_AT = 16 * HOUR
AWAY_AT, AWAY_DAYS = 1 * DAY + 12 * HOUR, 2
PAUSE_AT, RESUME_AT = 2 * DAY + 1 * HOUR, 3 * DAY + 1 * HOUR
DOWN_1, UP_1 = 3 * DAY + 4 * HOUR, 4 * DAY + 2 * HOUR  # the vacation ends meanwhile
DOWN_2, UP_2 = 6 * DAY + 2 * HOUR, 6 * DAY + 20 * HOUR
END = 8 * DAY


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    server = Server(tmp_path, SEED)
    await server.open()
    yield server
    await server.close()


async def test_a_server_week_with_two_restarts_while_deadlines_are_overdue(
    server: Server,
) -> None:
    await set_up(server)
    t0 = server.start_time

    # Day 0-1: the vanished player of the four-player game is kicked while
    # the game waits for him (his pending reminder must not pass to the next).
    await server.run_until(t0 + KICK_AT)
    await server.run_until_owing("K2", "hari", until=t0 + KICK_AT + DAY)
    await kick(server, "K2", "hari")

    # Day 1.5: Esha goes away for two days (she comes back while the bot is down).
    await server.run_until(t0 + AWAY_AT)
    out = await server.command(server.members["esha"].user, "game away", days=AWAY_DAYS)
    assert any("away for 2 days" in (s.content or "") for s in out), out
    esha = server.members["esha"].user.id
    server.away[esha] = server.clock.now + AWAY_DAYS * DAY
    away_start = server.clock.now

    # Day 2-3: a moderator pauses Mahabharata for a day.
    await server.run_until(t0 + PAUSE_AT)
    await pause_for_a_day(server, "M1", t0 + RESUME_AT)

    # Day 3-4: down for 22 hours; reminders, clocks and the vacation's end fall due.
    await server.run_until(t0 + DOWN_1)
    overdue = await server.restart_after(UP_1 - DOWN_1)
    server.away.pop(esha)
    check_catch_up(server, overdue, vacation_end=away_start + AWAY_DAYS * DAY)

    # Day 4-6, then down again for 18 hours.
    await server.run_until(t0 + DOWN_2)
    overdue = await server.restart_after(UP_2 - DOWN_2)
    check_catch_up(server, overdue, vacation_end=None)

    await server.run_until(t0 + END)
    server.finish()
    await check_the_week(server, esha, away_start)
    assert not server.violations, "\n".join(f"{v.kind}: {v.text}" for v in server.violations)


# -- the scenario's steps -------------------------------------------------------------


async def set_up(server: Server) -> None:
    """The members (and how they play), then every game opened through the lobby."""
    for i, name in enumerate(("asha", "bhima", "gita", "esha")):
        server.add_member(name, "prompt", delay=2 * HOUR + 7 * MINUTE * i)
    server.add_member("chitra", "late")
    server.add_member("farid", "late", last_reminder=True)
    server.add_member("dev", "vanished")
    server.add_member("hari", "vanished")
    server.fake.block_dms(server.members["farid"].user)
    for spec in SPECS:
        await server.open_game(spec)
    await server.observe()


async def kick(server: Server, game: str, name: str) -> None:
    """A moderator removes a vanished player from a game of more than two."""
    service = server.bot().service
    game_id = server.games[game]
    user = server.members[name].user
    live = await service.get(game_id)
    seat = live.seat_of(user.id)
    assert seat is not None and not live.is_auto(seat), "still seated when kicked"
    out = await server.command(server.moderator, "moderate game kick", game=game, user=user)
    assert not any(s.ephemeral and "not" in (s.content or "").lower() for s in out), out
    live = await service.get(game_id)
    assert live.is_auto(seat) and not live.is_over
    actions = [e.action for e in await server.bot().store.log(game_id)]
    assert actions.count("@left") == 1, actions


async def pause_for_a_day(server: Server, game: str, resume_at: float) -> None:
    """``/game pause``: no reminder, clock or timeout while paused; then ``/game resume``."""
    service = server.bot().service
    game_id = server.games[game]
    version = (await service.get(game_id)).version
    await server.command(server.moderator, "moderate game pause", game=game)
    assert (await service.get(game_id)).paused
    assert await service.timers.of_game(game_id) == []
    await server.run_until(resume_at)
    live = await service.get(game_id)
    assert live.paused and live.version == version + 1  # only the @pause entry
    await server.command(server.moderator, "moderate game resume", game=game)
    live = await service.get(game_id)
    assert not live.paused
    public, private = service.owing(live)
    clocks = {t.seat for t in await service.timers.of_game(game_id) if t.kind == "clock"}
    assert public | private <= clocks, "a resumed game has a clock for every seat owing"


def check_catch_up(server: Server, overdue: list[Timer], vacation_end: float | None) -> None:
    """What fell due while the bot was down fired once each at start-up:
    several deadlines were overdue, each overdue clock timed its seat out
    exactly once (a vacation's end only restarts the clock), and every wait
    still open got each reminder that fell due, once."""
    now = server.clock.now
    kinds = Counter(t.kind for t in overdue)
    assert kinds["clock"] >= 1 and kinds["remind"] >= 1, kinds
    catch_up = [t for t in server.timeouts if t[0] == now]
    per_seat = Counter((game, seat) for _, game, seat, _ in catch_up)
    for timer in overdue:
        if timer.kind != "clock":
            continue
        key = (timer.game_id, timer.seat)
        if vacation_end is not None and abs(timer.due - vacation_end) < 1:
            assert per_seat[key] == 0, ("a vacation's end is not a timeout", timer, catch_up)
            continue
        assert per_seat[key] == 1, ("an overdue clock fires once", timer, catch_up)
    assert set(per_seat) <= {(t.game_id, t.seat) for t in overdue if t.kind == "clock"}
    # Each overdue reminder was sent at start-up, unless the seat's clock ran
    # out while the bot was down too (the timeout's DM says it instead), or
    # an overdue clock of its game fell due before it (that timeout moved
    # the game on first).
    sent = Counter(
        (o.game, o.user) for o in server.observed if o.kind == "reminder" and o.at == now
    )
    for timer in overdue:
        if timer.kind != "remind":
            continue
        voided = any(
            t.kind == "clock"
            and t.game_id == timer.game_id
            and (t.due < timer.due or t.seat == timer.seat)
            and not (vacation_end is not None and abs(t.due - vacation_end) < 1)
            for t in overdue
        )
        user = server.user_of(timer.game_id, timer.seat)
        if not voided:
            assert sent[(timer.game_id, user)] >= 1, ("an overdue reminder is sent", timer)
    for wait in server.waits.values():
        if wait.start < now:
            # Reminders missed while the bot was down are sent as one.
            due = [d for d in wait.schedule if d <= now]
            at_start = [r for r in wait.received if r[0] == now]
            assert len(at_start) <= 1, ("missed reminders are sent as one", wait, due)
            assert len(wait.received) <= len(due), ("overdue reminders fire once", wait, due)
    if vacation_end is not None:
        assert any(abs(t.due - vacation_end) < 1 for t in overdue), "the vacation's end was overdue"


async def check_the_week(server: Server, esha: int, away_start: float) -> None:
    """The end of the week: nothing stuck, every policy did what it says,
    and the reminders reached who they should, as they should."""
    service = server.bot().service
    now = server.clock.now
    # No game is stuck: over, or a pending timer for every seat owing a decision.
    for name, game_id in server.games.items():
        live = await service.get(game_id)
        if live.is_over:
            assert not await service.timers.of_game(game_id), name
            continue
        assert not live.paused, name
        public, private = service.owing(live)
        owing = public | private
        assert owing or live.engine.to_move(live.state), name
        timers = await service.timers.of_game(game_id)
        for seat in owing:
            assert any(t.kind == "clock" and t.seat == seat and t.due > now for t in timers), (
                name,
                seat,
                timers,
            )

    over = {n for n, g in server.games.items() if (await service.get(g)).is_over}
    # Forfeit, two players: the vanished player lost on time, at their first deadline.
    assert "K1" in over
    await assert_left_on_time(server, "K1", "dev", ["@forfeit"], "lost the game on time")
    # Skip and substitute: three timeouts in a row, the third a forfeit.
    assert "C1" in over and "K3" in over, over
    lost = "lost the game on time"
    await assert_left_on_time(server, "C1", "hari", ["@timeout", "@timeout", "@forfeit"], lost)
    await assert_left_on_time(server, "K3", "dev", ["@timeout", "@timeout", "@forfeit"], lost)
    # Forfeit, three players: the seat passed to the automatic player, ranked
    # last, and the two others played on.
    await assert_left_on_time(
        server, "C2", "dev", ["@forfeit"], "the automatic player plays your seat from now on"
    )
    # The substitute and skip DMs say what happened and count the timeouts.
    for o in server.observed:
        if o.kind == "timeout" and lost not in o.text and "plays your seat" not in o.text:
            assert "made that move for you" in o.text or "so you passed" in o.text, o.text
            assert "timeouts in a row your seat is forfeited" in o.text, o.text

    # Every kind of timeout happened.
    actions = Counter(a for *_, a in server.timeouts)
    assert actions["@timeout"] >= 4 and actions["@forfeit"] >= 3, actions

    reminders = [o for o in server.observed if o.kind == "reminder"]
    by_user = Counter(server.by_id[o.user].user.name for o in reminders)
    # Farid's DMs are closed: reminded in the thread, never by DM.
    farid = server.members["farid"].user.id
    assert by_user["farid"] >= 1 and all(not o.by_dm for o in reminders if o.user == farid)
    assert all(o.by_dm for o in reminders if o.user != farid)
    # Late members were reminded, in every game whose reminders are on.
    reminded_games = {o.game for o in reminders}
    for name in ("K1", "S1", "M1", "A1", "K2", "K3"):
        assert server.games[name] in reminded_games, (name, by_user)
    assert server.games["C1"] not in reminded_games  # reminder=off
    # The vanished players were reminded: the forfeit and the kick stopped
    # their reminders, which never passed to the player after them.
    assert by_user["dev"] >= 2 and by_user["hari"] >= 1, by_user
    # Nobody was reminded while away.
    assert not any(
        o.user == esha and away_start <= o.at < away_start + AWAY_DAYS * DAY for o in reminders
    )
    # Each (game, seat, wait, count) at most once: checked as they came; and
    # the documented auto schedule gave a second, final warning somewhere.
    all_waits: list[Wait] = [*server.closed_waits, *server.waits.values()]
    assert any(len(w.received) == 2 for w in all_waits if w.game == server.games["A1"])

    # /game mine answers for everyone after the restarts (no stuck lock).
    for member in server.members.values():
        out = await server.fake.slash(member.user, "game mine")
        assert out and out[0].ephemeral, out
    assert not server.fake.errors


async def assert_left_on_time(
    server: Server, game: str, name: str, expected: list[str], told: str | None
) -> None:
    """The vanished player's timeouts, in order, are ``expected``; with
    ``told``, their last timeout DM says it."""
    game_id = server.games[game]
    live = await server.bot().service.get(game_id)
    user = server.members[name].user
    seat = live.seat_of(user.id)
    assert seat is not None
    got = [a for _, g, s, a in server.timeouts if (g, s) == (game_id, seat)]
    assert got == expected, (game, name, got)
    if live.is_over:
        assert live.outcome is not None and live.outcome.ranking[-1] == frozenset({seat})
    else:
        assert live.is_auto(seat)
    dms = [
        o.text
        for o in server.observed
        if o.kind == "timeout" and o.user == user.id and o.game == game_id
    ]
    assert len(dms) == len(expected), dms
    if told is not None:
        assert told in dms[-1], dms


# -- issue 29: three weeks -------------------------------------------------------------------

THREE_WEEKS_SEED = 29
#: 2024-03-01 00:00 UTC: New York's clocks change on the 10th, London's on
#: the 31st, while the run lasts.
THREE_WEEKS_START = 1_709_251_200.0

#: name, behaviour, and how they play and are told (``/chaupal me``).
MEMBERS: tuple[tuple[str, Behaviour, dict[str, Any]], ...] = (
    ("asha", "prompt", {"delay": 2 * HOUR}),
    ("bhima", "prompt", {"delay": 2 * HOUR + 7 * MINUTE, "turn": "dm"}),
    ("chitra", "late", {"quiet": "23:00-07:00", "timezone": "Asia/Kolkata"}),
    ("dev", "vanished", {}),
    ("esha", "prompt", {"delay": 2 * HOUR + 21 * MINUTE, "turn": "both"}),
    ("farid", "late", {"last_reminder": True, "dms_closed": True}),
    (
        "gita",
        "prompt",
        {
            "delay": 2 * HOUR + 28 * MINUTE,
            "turn": "dm",
            "quiet": "22:00-06:00",
            "timezone": "America/New_York",
        },
    ),
    ("hari", "vanished", {}),
    ("indu", "late", {"reminders": "6h", "timezone": "+05:30", "quiet": "01:00-09:00"}),
    ("jai", "prompt", {"delay": 3 * HOUR, "turn": "both", "dms_closed": True}),
    ("kiran", "late", {"reminders": "off"}),
    (
        "lata",
        "prompt",
        {"delay": 10 * HOUR, "quiet": "00:00-08:00", "timezone": "Europe/London"},
    ),
    ("mohan", "prompt", {"delay": HOUR, "turn": "dm", "dms_closed": True}),
    (
        "om",
        "vanished",
        {"dms_closed": True, "quiet": "20:00-09:00", "timezone": "Asia/Kolkata"},
    ),
)

#: The games each wave opens (the day it opens them), their options and players.
WAVES: dict[int, tuple[Spec, ...]] = {
    0: (
        Spec(
            "K1",
            "kauda_baji",
            "pieces=1 clock=1d timeout=forfeit reminder=6h",
            ["asha", "dev"],
            "general",
        ),
        Spec(
            "C1", "chaturaji", "clock=12h timeout=skip reminder=off", ["gita", "hari"], "strategy"
        ),
        Spec("S1", "sangram", "clock=2d+12h", ["bhima", "chitra", "esha"], "cards"),
        Spec("M1", "mahabharata", "clock=1d", ["chitra", "gita"], "cards"),
        Spec("A1", "artaban", "", ["bhima", "farid"], "strategy"),
        Spec(
            "K2",
            "kauda_baji",
            "pieces=1 clock=12h reminder=6h",
            ["asha", "esha", "hari", "farid"],
            "general",
        ),
        Spec("K3", "kauda_baji", "pieces=1 clock=1d", ["chitra", "dev"], "general"),
        Spec(
            "C2",
            "chaturaji",
            "clock=1d timeout=forfeit reminder=6h",
            ["gita", "dev", "bhima"],
            "strategy",
        ),
        Spec("S2", "sangram", "clock=12h", ["indu", "jai", "kiran", "lata"], "cards"),
        Spec("M2", "mahabharata", "clock=1d", ["indu", "kiran", "asha"], "cards"),
        Spec("B1", "artaban", "clock=12h", ["lata"], "strategy", bots=1, level="easy"),
        Spec("C3", "chaturaji", "clock=1d", ["farid", "indu", "jai", "dev"], "strategy"),
    ),
    7: (
        Spec("B2", "sangram", "clock=1d", ["mohan", "hari"], "cards", bots=1, level="easy"),
        Spec("K4", "kauda_baji", "pieces=2 clock=none", ["kiran", "lata"], "general"),
        Spec("M3", "mahabharata", "clock=3d+12h", ["bhima", "esha", "jai"], "cards"),
        Spec("A2", "artaban", "clock=1d timeout=skip", ["chitra", "indu"], "strategy"),
        Spec("C4", "chaturaji", "clock=12h", ["mohan", "dev"], "strategy"),
        Spec("S4", "sangram", "clock=12h", ["esha", "dev", "kiran"], "cards"),
        Spec("M5", "mahabharata", "clock=1d", ["hari", "farid", "chitra"], "cards"),
        Spec("M6", "mahabharata", "clock=1d", ["om", "asha"], "cards"),
    ),
    14: (
        Spec("M4", "mahabharata", "clock=12h", ["gita", "mohan", "lata"], "cards"),
        Spec("S3", "sangram", "clock=1d reminder=12h", ["asha", "esha", "farid", "kiran"], "cards"),
        Spec("K5", "kauda_baji", "pieces=1 clock=1d", ["jai", "hari"], "general"),
        Spec("K6", "kauda_baji", "pieces=1 clock=1d", ["om", "bhima"], "general"),
    ),
}

THREE_WEEKS: dict[str, Server] = {}
"""The three weeks, run once for the tests that read them."""


async def three_weeks(root: Path) -> Server:
    """The second server's three weeks (see the module's docstring), run
    once; the tests below read what it saw."""
    if "run" in THREE_WEEKS:
        return THREE_WEEKS["run"]
    server = Server(root, THREE_WEEKS_SEED, start=THREE_WEEKS_START)
    await server.open()
    try:
        for name, behaviour, how in MEMBERS:
            server.add_member(name, behaviour, **how)
        await server.set_notifications()
        t0 = server.start_time
        # Week 1: a kick, a vacation, a restart while it ends, a resignation.
        await open_wave(server, 0)
        await server.run_until(t0 + 16 * HOUR)
        await server.run_until_owing("K2", "hari", until=t0 + 2 * DAY)
        await kick(server, "K2", "hari")
        await server.run_until(t0 + 1.5 * DAY)
        esha = server.members["esha"].user
        await server.command(esha, "game away", days=3)
        server.away[esha.id] = server.clock.now + 3 * DAY
        await server.run_until(t0 + 3.2 * DAY)
        await server.restart_after(22 * HOUR)
        await server.run_until(t0 + 4.6 * DAY)
        server.away.pop(esha.id)
        await server.run_until(t0 + 5 * DAY)
        lata = server.members["lata"].user
        assert not (await server.bot().service.get(server.games["S2"])).is_over
        await resign(server.fake, lata, server.games["S2"])
        await server.observe()
        # Week 2: a pause, a vacation cut short, a restart.
        await server.run_until(t0 + 7 * DAY)
        await open_wave(server, 7)
        await server.run_until(t0 + 8 * DAY)
        await pause_for_a_day(server, "M3", t0 + 9 * DAY)
        await server.run_until(t0 + 9.5 * DAY)
        kiran = server.members["kiran"].user
        await server.command(kiran, "game away", days=2)
        server.away[kiran.id] = server.clock.now + 2 * DAY
        await server.run_until(t0 + 10.1 * DAY)
        await server.restart_after(17 * HOUR)
        await server.run_until(t0 + 11 * DAY)
        await server.command(kiran, "game back")
        server.away.pop(kiran.id)
        # Week 3: new games, a short restart.
        await server.run_until(t0 + 14 * DAY)
        await open_wave(server, 14)
        await server.run_until(t0 + 16 * DAY)
        await server.restart_after(3 * HOUR)
        await server.run_until(t0 + 21 * DAY)
        server.finish()
        await check_nothing_stuck(server)
    finally:
        await server.close()
    THREE_WEEKS["run"] = server
    return server


async def open_wave(server: Server, day: int) -> None:
    for spec in WAVES[day]:
        await server.open_game(spec)


async def check_nothing_stuck(server: Server) -> None:
    """Every game with a clock is over, or has a deadline ahead for every
    seat that owes it a decision."""
    service = server.bot().service
    now = server.clock.now
    for name, game_id in server.games.items():
        live = await service.get(game_id)
        if live.is_over or server.specs[name].table()["clock"] == "none":
            continue
        public, private = service.owing(live)
        timers = await service.timers.of_game(game_id)
        clocks = {t.seat for t in timers if t.kind == "clock" and t.due > now}
        assert public | private <= clocks, (name, public, private, timers)


def explain(violations: list[Violation]) -> str:
    return "\n".join(f"{v.kind}: {v.text}" for v in violations)


@pytest.mark.timeout(900)
async def test_three_weeks_every_wait_is_announced_once_and_every_timeout_reminded_first(
    tmp_path: Path,
) -> None:
    server = await three_weeks(tmp_path)
    figures = server.figures()
    print(figures)
    # (a) Each wait a move started was announced once, the way its player
    # asked (waits renewed by a timeout among them); nobody was pinged
    # while quiet or away, and no DM was loud in quiet hours.
    # (b) Each timeout whose schedule had a reminder before the deadline
    # came after it; those without one are the documented cases.
    wrong = [v for v in server.violations if v.kind != "extra reminder"]
    assert not wrong, explain(wrong)
    assert figures["waits renewed by a timeout"] >= 2, figures
    assert set(figures["announced waits told nothing, documented"]) <= {
        "began in quiet hours (named on the board)",
        "private, DMs closed",
    }, figures
    assert figures["waits begun in quiet hours"] >= 10, figures
    assert figures["private waits"] >= 3, figures
    assert set(server.moves) == {"artaban", "chaturaji", "kauda_baji", "mahabharata", "sangram"}
    timeouts = figures["timeouts"]
    assert timeouts["@timeout"] >= 10 and timeouts["@forfeit"] >= 3, figures
    assert figures["timeouts after a reminder"] >= 10, figures
    assert figures["restarts"] == 3
    unreminded = figures["timeouts without a reminder, documented"]
    assert set(unreminded) <= {
        "reminders off",
        "private, DMs closed",
        "bot down",
        "quiet hours until the deadline",
        "shorter than the last warning",
    }, unreminded


@pytest.mark.timeout(900)
async def test_three_weeks_no_wait_gets_more_reminders_than_its_schedule(
    tmp_path: Path,
) -> None:
    server = await three_weeks(tmp_path)
    extra = [v for v in server.violations if v.kind == "extra reminder"]
    assert not extra, explain(extra)
