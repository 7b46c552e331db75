"""Round deadlines, auto-drop and a moderator's verdict rated (issue 16),
through discord.py's real dispatch and a fake clock.

A tournament may give each round a time (``round_time``).  When a round has
run that long, the games still running are settled by the tournament's
timeout policy: with ``forfeit`` the seats a game is waiting on lose on
time; with ``substitute`` (or ``skip``) the automatic player plays the rest
of the game for everyone.  Then the next round starts.  The deadline fires
once, also when it fell due while the bot was down.  A player who loses two
games in a row on time is dropped and it is announced, unless a moderator
turned auto-drop off.  An adjudicated game is rated.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.timekeeping import DAY
from tests.bot.driver import bot_of
from tests.bot.test_discord_tournaments import Cup
from tests.discord_harness import CommandUnavailable, FakeUser, Sent

NO_CLOCK = "clock=none reminder=off"
"""No game clock: only the round's deadline can settle a game."""


@pytest.fixture
async def cup(tmp_path: Path) -> AsyncIterator[Cup]:
    c = Cup(tmp_path / "cup.sqlite3", 7)
    yield c
    await c.fake.close()


def said(out: list[Sent], text: str) -> bool:
    return any(text in (s.content or "") and s.ephemeral for s in out)


def no_pings(sent: Sent) -> bool:
    mentions = sent.raw.get("allowed_mentions") or {}
    return not mentions.get("users") and not mentions.get("parse") and not mentions.get("roles")


async def log_of(cup: Cup, game_id: int) -> list[Any]:
    return list(await bot_of(cup.fake).store.log(game_id))


async def rated_for(cup: Cup, game_id: int, users: list[int]) -> dict[int, int]:
    """How many rating changes each user got for ``game_id`` (1 each, once rated)."""
    ratings = bot_of(cup.fake).service.ratings
    return {
        u: sum(
            h.game_id == game_id
            for h in await ratings.history(cup.fake.guild_id, u, 50, engine="artaban")
        )
        for u in users
    }


async def play_until_held_by(cup: Cup, game_id: int, user: FakeUser) -> frozenset[int]:
    """Everyone but ``user`` moves (by the automatic player, as if they
    chose) until the game waits on ``user`` alone; returns the seats held up."""
    service = bot_of(cup.fake).service
    for _ in range(2_000):
        game = await service.get(game_id)
        assert not game.is_over
        held = service.held_up_by(game)
        seat = game.seat_of(user.id)
        if held == {seat}:
            return held
        mover = min(held - {seat})
        async with service.lock(game_id):
            await service.auto_move(game, mover, by_human=True)
    raise AssertionError("the game never came to wait on that player alone")


async def fire_deadlines(cup: Cup) -> None:
    """Let the running round scheduler see the (fake) time and fire."""
    bot = bot_of(cup.fake)
    bot.round_scheduler.rearm()
    await bot.round_scheduler.wait_idle()
    await cup.fake.settle()


async def test_a_deadline_overdue_at_a_restart_settles_the_round_once_by_forfeit(
    cup: Cup,
) -> None:
    await cup.open(4)
    tid, announcement = await cup.new(
        "artaban", "swiss", rounds=2, round_time="7d", options=f"{NO_CLOCK} timeout=forfeit"
    )
    assert "Each round lasts at most 7d" in (announcement.content or "")
    await cup.join_everyone(announcement)
    await cup.start()
    record = await cup.record()
    assert record.round_deadline == pytest.approx(cup.clock.now + 7 * DAY)
    first, second = await cup.tables(1)
    await cup.play(first.game_id)
    # The second game stops waiting on one player, who never moves.
    late = cup.by_id[second.seats[1]]
    held = await play_until_held_by(cup, second.game_id, late)
    (late_seat,) = held

    # Six days: nothing happens.
    cup.clock.now += 6 * DAY
    await fire_deadlines(cup)
    assert (await cup.record()).round == 1
    assert not (await bot_of(cup.fake).service.get(second.game_id)).is_over

    # The deadline falls due while the bot is down.
    cup.clock.now += DAY + 60
    await cup.restart()
    await fire_deadlines(cup)
    bot = bot_of(cup.fake)
    game = await bot.service.get(second.game_id)
    assert game.is_over
    (_, settled) = await cup.tables(1)
    # The player the game waited on lost on time; the opponent won.
    assert settled.places == tuple(2 if s == late_seat else 1 for s in range(2))
    log = await log_of(cup, second.game_id)
    assert any(e.action == "@forfeit" and e.actor == late_seat for e in log)
    # A result: both players of the settled game are rated for it.
    assert await rated_for(cup, second.game_id, list(second.seats)) == dict.fromkeys(
        second.seats, 1
    )
    # The next round started, paired and announced once, with a new deadline.
    assert len(await cup.tables(2)) == 2
    assert len(cup.posts(r"round 2 of 2 has begun")) == 1
    (up,) = cup.posts(r"round 1's time is up")
    assert "1 game still running was settled" in (up.content or "") and no_pings(up)
    record = await cup.record()
    assert record.round == 2 and record.round_deadline == pytest.approx(cup.clock.now + 7 * DAY)

    # Fired once: another restart and another look change nothing.
    await cup.restart()
    bot = bot_of(cup.fake)
    assert await bot.round_scheduler.run_due() == 0
    assert len(await cup.store.tables(tid)) == 4
    assert len(cup.posts(r"round 2 of 2 has begun")) == 1
    assert len(cup.posts(r"round 1's time is up")) == 1


async def test_substitute_plays_the_rest_for_everyone_and_settings_move_the_deadline(
    cup: Cup,
) -> None:
    await cup.open(2)
    _tid, announcement = await cup.new(
        "artaban", "swiss", rounds=1, options=f"{NO_CLOCK} timeout=substitute"
    )
    await cup.join_everyone(announcement)
    await cup.start()
    (table,) = await cup.tables(1)
    await cup.play(table.game_id, moves=3)
    assert (await cup.record()).round_deadline is None  # no round time: no deadline

    # Anyone sees the settings; only a moderator changes them, and a bad
    # value is refused with a sentence, changing nothing.
    out = await cup.fake.slash(cup.players[0], "tournament settings")
    assert said(out, "Round time: none") and said(out, "Auto-drop: on")
    assert said(out, "on timeout: substitute") and said(out, "Game options: clock=none")
    # Changing is /moderate's, hidden from players; shown anyway (a server
    # can), the bot still refuses them.
    with pytest.raises(CommandUnavailable):
        await cup.fake.slash(cup.players[0], "moderate tournament settings", round_time="1d")
    out = await cup.fake.slash(
        cup.players[0], "moderate tournament settings", round_time="1d", validate=False
    )
    assert said(out, "Only a moderator")
    out = await cup.fake.slash(cup.moderator, "moderate tournament settings", round_time="soon")
    assert said(out, "A round time is written like")
    assert (await cup.record()).round_time is None

    # A moderator gives the running round a day: counted from its start.
    started = (await cup.record()).round_started
    cup.clock.now += 2 * 3600
    out = await cup.fake.slash(cup.moderator, "moderate tournament settings", round_time="1d")
    assert said(out, "Changed.") and said(out, "Round time: 1d")
    record = await cup.record()
    assert record.round_deadline == pytest.approx(started + DAY)

    cup.clock.now = started + DAY - 60
    await fire_deadlines(cup)
    assert not (await bot_of(cup.fake).service.get(table.game_id)).is_over
    cup.clock.now = started + DAY + 1
    await fire_deadlines(cup)
    game = await bot_of(cup.fake).service.get(table.game_id)
    # A real result, played out by the automatic player: nobody forfeited.
    assert game.record.status == "finished" and game.outcome is not None
    log = await log_of(cup, table.game_id)
    assert "@deadline" in [e.action for e in log]
    assert "@forfeit" not in [e.action for e in log]
    assert not any(game.is_auto(s) for s in range(2))
    (table,) = await cup.tables(1)
    assert table.places is not None and not table.adjudicated
    assert (await cup.record()).status == "finished"
    assert len(cup.posts(r"is over after 1 round\.")) == 1


@pytest.mark.parametrize("auto_drop", [True, False])
async def test_two_games_lost_on_time_in_a_row_drop_a_player(cup: Cup, auto_drop: bool) -> None:
    await cup.open(4)
    tid, announcement = await cup.new(
        "artaban",
        "swiss",
        rounds=3,
        round_time="1d",
        options=f"{NO_CLOCK} timeout=forfeit",
        name="Night <@1> **Cup**",
    )
    await cup.join_everyone(announcement)
    if not auto_drop:
        out = await cup.fake.slash(cup.moderator, "moderate tournament settings", auto_drop=False)
        assert said(out, "Auto-drop: off")
    await cup.start()
    gone = cup.players[2]
    for round in (1, 2):
        for table in await cup.tables(round):
            if gone.id in table.seats:
                await play_until_held_by(cup, table.game_id, gone)
            else:
                await cup.play(table.game_id)
        assert (await cup.record()).round == round
        cup.clock.now += DAY + 1
        await fire_deadlines(cup)
    players = {p.user_id: p for p in await cup.store.players(tid)}
    round3 = await cup.tables(3)
    drops = cup.posts(r"lost 2 games in a row on time")
    if auto_drop:
        assert players[gone.id].dropped_after == 2
        assert gone.id not in {u for t in round3 for u in t.seats}
        (drop,) = drops
        assert f"**{gone.name}**" in (drop.content or "") and no_pings(drop)
        assert "<@1>" not in (drop.content or "")  # the tournament's name is escaped
    else:
        assert players[gone.id].active
        assert gone.id in {u for t in round3 for u in t.seats}
        assert not drops
    out = await cup.fake.slash(cup.players[0], "tournament settings")
    assert said(out, "Auto-drop: on" if auto_drop else "Auto-drop: off")


async def test_an_adjudicated_game_is_rated_once(cup: Cup) -> None:
    await cup.open(2)
    _tid, announcement = await cup.new("artaban", "swiss", rounds=1, options=NO_CLOCK)
    await cup.join_everyone(announcement)
    await cup.start()
    (table,) = await cup.tables(1)
    await cup.play(table.game_id, moves=2)
    winner = cup.by_id[table.seats[1]]
    out = await cup.fake.slash(
        cup.moderator, "moderate tournament adjudicate", game=table.game_id, result=winner.name
    )
    assert said(out, "Recorded.")
    await cup.fake.settle()
    bot = bot_of(cup.fake)
    assert await rated_for(cup, table.game_id, list(table.seats)) == dict.fromkeys(
        table.seats, 1
    )
    top = await bot.service.ratings.top(cup.fake.guild_id, "artaban", 10)
    assert top[0].user_id == winner.id and all(r.games == 1 for r in top)
    # The game's end says it was adjudicated, and the tournament is over.
    game = await bot.service.get(table.game_id)
    assert game.outcome is not None and "adjudicated" in game.outcome.reason
    assert (await cup.record()).status == "finished"


async def test_join_with_several_open_offers_a_menu_that_survives_a_restart(cup: Cup) -> None:
    await cup.open(2)
    first, _ = await cup.new("artaban", "swiss", name="Spring **Cup** <@1>")
    second, _ = await cup.new("kauda_baji", "round_robin")
    asha, bhima = cup.players
    out = await cup.fake.slash(asha, "tournament join")
    menu = next(s for s in out if s.ephemeral and s.message_id)
    assert "2 tournaments are open here" in (menu.content or "")
    (select,) = cup.fake.selects(menu.message_id or 0)
    labels = {o["value"]: o["label"] for o in select["options"]}
    assert set(labels) == {str(first), str(second)}
    assert all(len(label) <= 100 for label in labels.values())
    assert labels[str(first)].startswith(f"#{first} Spring **Cup** <@1> — Artaban")
    assert select["custom_id"] == "chaupal:tournaments:join"  # ids only, nothing hidden
    assert await cup.store.players(first) == []  # asking joined nothing

    out = await cup.fake.select(asha, menu.message_id or 0, select["custom_id"], [str(second)])
    assert said(out, "You are in")
    assert [p.user_id for p in await cup.store.players(second)] == [asha.id]
    assert await cup.store.players(first) == []

    # The same menu still works after a restart.
    menu2 = next(
        s for s in await cup.fake.slash(bhima, "tournament join") if s.ephemeral and s.message_id
    )
    await cup.restart()
    out = await cup.fake.select(bhima, menu2.message_id or 0, select["custom_id"], [str(first)])
    assert said(out, "You are in")
    assert [p.user_id for p in await cup.store.players(first)] == [bhima.id]
    # Naming one still joins it directly.
    out = await cup.fake.slash(asha, "tournament join", tournament=first)
    assert said(out, "You are in")


async def test_drop_without_user_drops_the_caller(cup: Cup) -> None:
    await cup.open(3)
    tid, announcement = await cup.new("artaban", "swiss", rounds=2, options=NO_CLOCK)
    await cup.join_everyone(announcement)
    await cup.start()
    outsider = cup.fake.user("outsider")
    out = await cup.fake.slash(outsider, "tournament drop")
    assert said(out, "That player is not in")
    assert all(p.active for p in await cup.store.players(tid))
    quitter = next(
        cup.by_id[t.seats[0]] for t in await cup.tables(1) if not t.is_bye
    )
    out = await cup.fake.slash(quitter, "tournament drop")
    assert said(out, f"**{quitter.name}** is out of")
    players = {p.user_id: p for p in await cup.store.players(tid)}
    assert not players[quitter.id].active
    assert sum(p.active for p in players.values()) == 2


async def test_a_deadline_claimed_by_a_run_that_crashed_fires_again_once(cup: Cup) -> None:
    """The deadline is claimed before the round is settled: a crash in
    between leaves a running round without one, and start-up gives it back."""
    await cup.open(2)
    tid, announcement = await cup.new(
        "artaban", "swiss", rounds=2, round_time="1d", options=f"{NO_CLOCK} timeout=substitute"
    )
    await cup.join_everyone(announcement)
    await cup.start()
    (table,) = await cup.tables(1)
    await cup.play(table.game_id, moves=2)
    cup.clock.now += DAY + 1
    deadlines = bot_of(cup.fake).tournaments.deadlines
    (due,) = await deadlines.due(cup.clock.now)
    assert due.game_id == tid and due.version == 1
    assert await deadlines.claim(due)  # ...and the bot stops before settling
    assert not await deadlines.claim(due)  # a claim succeeds once
    await cup.restart()
    await fire_deadlines(cup)
    assert (await bot_of(cup.fake).service.get(table.game_id)).is_over
    assert len(await cup.tables(2)) == 1
    assert len(cup.posts(r"round 1's time is up")) == 1
    assert len(cup.posts(r"round 2 of 2 has begun")) == 1
