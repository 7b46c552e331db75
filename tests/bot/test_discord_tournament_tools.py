"""A moderator's tools through discord.py's dispatch (issue 11): who may open,
start, drop, adjudicate and end; joining and leaving by buttons; joining
after the start; a player dropping out mid-round (their game resigned,
never paired again); an adjudicated game moving the round on; ending a
tournament mid-round (unfinished games end without a result); the final
announcement in the server's announcements channel too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.driver import assert_no_secret_ids, bot_of, resign
from tests.bot.test_discord_tournaments import Cup
from tests.discord_harness import CommandUnavailable


@pytest.fixture
async def cup(tmp_path: Path) -> AsyncIterator[Cup]:
    c = Cup(tmp_path / "cup.sqlite3", 5)
    yield c
    await c.fake.close()


def said(out: list, text: str) -> bool:  # type: ignore[type-arg]
    return any(text in (s.content or "") and s.ephemeral for s in out)


async def test_only_moderators_open_start_adjudicate_and_end(cup: Cup) -> None:
    await cup.open(4)
    asha = cup.players[0]
    # Discord hides /moderate from members without Manage Messages; where a
    # server shows it anyway, the bot still refuses them.
    with pytest.raises(CommandUnavailable):
        await cup.fake.slash(asha, "moderate tournament new", game="artaban", format="swiss")
    out = await cup.fake.slash(
        asha, "moderate tournament new", game="artaban", format="swiss", validate=False
    )
    assert said(out, "Only a moderator")
    assert await bot_of(cup.fake).tournaments.store.in_guild(cup.fake.guild_id) == []
    # A table size is for pods only; nothing is created.
    out = await cup.fake.slash(
        cup.moderator, "moderate tournament new", game="artaban", format="swiss", table_size=3
    )
    assert said(out, "`table_size` is for pods")
    out = await cup.fake.slash(
        cup.moderator, "moderate tournament new", game="artaban", format="pods"
    )
    assert said(out, "Artaban is for 2 players; pods need games for 3 to 5")
    _tid, announcement = await cup.new("artaban", "swiss", rounds=2)
    await cup.join_everyone(announcement)
    for command in ("moderate tournament start", "moderate tournament end"):
        out = await cup.fake.slash(asha, command, validate=False)
        assert said(out, "Only a moderator"), command
    assert (await cup.record()).status == "open"


async def test_join_leave_buttons_and_a_stale_join_after_the_start(cup: Cup) -> None:
    await cup.open(4)
    tid, announcement = await cup.new("artaban", "swiss", rounds=2)
    await cup.join_everyone(announcement)
    leave = cup.fake.find_button(announcement, label="Leave")["custom_id"]
    out = await cup.fake.click(cup.players[3], announcement, leave)
    assert said(out, "You left")
    assert "Players (3)" in (cup.fake.current(announcement).content or "")
    out = await cup.fake.click(cup.players[3], announcement, leave)
    assert said(out, "You are not in")
    join = cup.fake.find_button(announcement, label="Join")["custom_id"]
    out = await cup.fake.click(cup.players[3], announcement, join)
    assert said(out, "You are in")
    out = await cup.fake.click(cup.players[3], announcement, join)
    assert said(out, "already in")
    await cup.start()
    # The announcement lost its buttons, and joining late is refused.
    assert not cup.fake.buttons(cup.fake.current(announcement))
    late = cup.fake.user("latecomer")
    out = await cup.fake.slash(late, "tournament join")
    assert said(out, "has started")
    assert len(await cup.store.players(tid)) == 4
    out = await cup.fake.slash(cup.players[0], "tournament leave")
    assert said(out, "has started")
    assert all(p.active for p in await cup.store.players(tid))


async def test_drop_adjudicate_and_end_mid_round(cup: Cup) -> None:
    await cup.open(4)
    news = cup.fake.add_channel("news")
    await cup.fake.slash(cup.moderator, "moderate settings announcements", channel=news)
    tid, announcement = await cup.new("artaban", "swiss", rounds=3, name="Winter Cup")
    (opening,) = cup.fake.channel_posts(news)  # the server hears of it, with a link
    assert "Winter Cup" in (opening.content or "") and "open for entries" in (opening.content or "")
    await cup.join_everyone(announcement)
    await cup.start()
    first, second = await cup.tables(1)
    out = await cup.fake.slash(cup.players[0], "tournament pairings")
    assert said(out, "Table 1:") and said(out, "playing in <#")

    # A player drops out themselves: their game is resigned, the opponent wins.
    quitter = cup.by_id[first.seats[0]]
    out = await cup.fake.slash(quitter, "tournament drop", option_values={"user": quitter})
    assert said(out, "is out of") and said(out, "resigned")
    await cup.fake.settle()
    (first, second) = await cup.tables(1)
    assert first.places == (2, 1)
    # Nobody but a moderator drops someone else.
    other = cup.by_id[second.seats[0]]
    out = await cup.fake.slash(
        other, "tournament drop", option_values={"user": cup.by_id[second.seats[1]]}
    )
    assert said(out, "Only a moderator")

    # A moderator decides the other game: the round is complete, round 2 is
    # paired without the dropped player, who is never seated again.
    out = await cup.fake.slash(
        other, "moderate tournament adjudicate", game=second.game_id, result="draw", validate=False
    )
    assert said(out, "Only a moderator")
    # Ending it with /game resign is not a verdict: the moderator is sent to adjudicate.
    out = await resign(cup.fake, cup.moderator, game=second.game_id)
    assert said(out, "/moderate tournament adjudicate")
    assert not (await bot_of(cup.fake).service.get(second.game_id)).is_over
    out = await cup.fake.slash(
        cup.moderator, "moderate tournament adjudicate", game=second.game_id, result="1 2 3"
    )
    assert said(out, "one place per seat")
    out = await cup.fake.slash(
        cup.moderator, "moderate tournament adjudicate", game=second.game_id, result=other.name
    )
    assert said(out, "Recorded.") and said(out, "(adjudicated)")
    await cup.fake.settle()
    (_, second) = await cup.tables(1)
    assert second.adjudicated and second.places == (1, 2)
    game = await bot_of(cup.fake).service.get(second.game_id)
    assert game.is_over  # ended, and not re-recorded as a draw
    round2 = await cup.tables(2)
    assert quitter.id not in {u for t in round2 for u in t.seats}
    assert sorted(len(t.seats) for t in round2) == [1, 2]  # three left: a game and a bye
    assert len(cup.posts(r"round 2 of 3 has begun")) == 1

    # The moderator ends it mid-round: the unfinished game ends without a result.
    playing = next(t for t in round2 if not t.is_bye)
    await cup.play(playing.game_id, moves=2)
    out = await cup.fake.slash(cup.moderator, "moderate tournament end")
    # (The tournament's name as the moderator wrote it, not "Winter cup".)
    assert said(out, "Winter Cup is over")
    assert said(out, "1 unfinished game was ended without a result")
    await cup.fake.settle()
    record = await cup.record()
    assert record.status == "finished"
    ended = next(t for t in await cup.tables(2) if not t.is_bye)
    assert ended.places is None
    assert (await bot_of(cup.fake).service.get(ended.game_id)).is_over
    assert not await cup.tables(3)
    # The podium goes to the tournament's channel and the announcements channel.
    final = [
        s
        for s in cup.fake.world.sent
        if s.route == "channel.send" and "is over after 2 rounds" in (s.content or "")
    ]
    assert sorted(s.channel_id for s in final) == sorted([cup.fake.channel_id, news])
    assert all(any(n.endswith(".png") for n, _ in s.files) for s in final)
    # Standings mark the dropped player; ending again is refused.
    out = await cup.fake.slash(cup.players[1], "tournament standings", tournament=tid)
    assert said(out, "(dropped)")
    out = await cup.fake.slash(cup.moderator, "moderate tournament end", tournament=tid)
    assert said(out, "already over")
    assert_no_secret_ids(cup.fake)


async def test_an_open_tournament_ended_is_cancelled(cup: Cup) -> None:
    await cup.open(2)
    tid, announcement = await cup.new("artaban", "round_robin")
    await cup.join_everyone(announcement)
    out = await cup.fake.slash(cup.moderator, "moderate tournament end")
    assert said(out, "cancelled")
    assert (await cup.record()).status == "cancelled"
    assert not cup.fake.buttons(cup.fake.current(announcement))
    assert "cancelled" in (cup.fake.current(announcement).content or "")
    out = await cup.fake.slash(cup.players[0], "tournament join", tournament=tid)
    assert said(out, "has started") or said(out, "no longer")
