"""Each player's own notifications (issue 16) through discord.py's real
dispatch, on a fake clock: ``/chaupal me`` shows and changes them (in a
server or a DM), they survive a restart, and the boards follow them: a
``dm`` player is told by one DM per wait and never pinged in the channel,
quiet hours and vacations stop every ping (the board names the player
instead, and a DM in quiet hours is silent), ``both`` gets both, closed DMs
fall back to a channel ping, and a private menu carries the "your turn" line
instead of a second DM."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.edge.delivery.texts import TURN
from bot.timekeeping import HOUR
from storage.games import OutboxRow
from tests.bot.driver import bot_of, make_bot, open_lobby, play_by_command, start
from tests.bot.menu_player import is_board_post, pinged
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

LINK = re.compile(r"https://discord\.com/channels/\d+/(\d+)/(\d+)")
SILENT = discord.MessageFlags.suppress_notifications.flag
YOUR_TURN = "Your turn in"

# FakeClock starts at 2023-11-14 22:13:20 UTC: inside these quiet hours.
QUIET_NOW = "22:00-23:00"


class Server:
    """One bot on a fake Discord with a fake clock, and its two players."""

    def __init__(self, path: Path) -> None:
        self.path, self.clock = path, FakeClock()
        self.seed = 5

    async def open(self) -> Server:
        self.fake = await FakeDiscord.start(make_bot(self.path, self.seed, self.clock))
        self.asha, self.bhima = self.fake.user("asha"), self.fake.user("bhima")
        self.users = {u.id: u for u in (self.asha, self.bhima)}
        return self

    async def me(self, user: FakeUser, **options: Any) -> Sent:
        out = await self.fake.slash(user, "chaupal me", **options)
        replies = [s for s in out if s.route in ("interaction.response", "followup")]
        assert len(replies) == 1, out
        assert replies[0].ephemeral, replies[0]
        return replies[0]

    async def game(self, engine: str = "kauda_baji", options: str = "pieces=1 reminder=off") -> int:
        self.id, lobby = await open_lobby(self.fake, engine, self.asha, self.bhima, options=options)
        await start(self.fake, self.asha, lobby)
        await self.fake.settle()
        return self.id

    async def live(self) -> Any:
        return await bot_of(self.fake).service.get(self.id)

    async def awaited(self) -> FakeUser:
        game = await self.live()
        (seat,) = game.engine.waiting_on(game.state)
        return self.users[game.user_of(seat)]

    def other(self, user: FakeUser) -> FakeUser:
        return self.bhima if user is self.asha else self.asha

    async def move(self) -> list[Sent]:
        """The awaited player plays one move with ``/game play``; returns
        everything sent meanwhile (the delivery it caused included)."""
        mark = len(self.fake.sent)
        user = await self.awaited()
        await play_by_command(self.fake, user, random.Random(len(self.fake.sent)))
        await self.fake.settle()
        return self.fake.sent[mark:]

    async def restart(self) -> None:
        self.seed += 1
        self.fake = await self.fake.restart(make_bot(self.path, self.seed, self.clock))
        await self.fake.settle()

    def turn_dms(self, user: FakeUser) -> list[Sent]:
        return [
            d
            for d in self.fake.dms(user)
            if d.route == "dm.send" and YOUR_TURN in (d.content or "")
        ]


def board_posts(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if is_board_post(s)]


def allowed(sent: Sent) -> set[int]:
    """The users a message's ``allowed_mentions`` lets be pinged."""
    return {int(u) for u in (sent.raw.get("allowed_mentions") or {}).get("users") or []}


def named(user: FakeUser, sent: Sent) -> bool:
    """The user appears by name, bold, and is neither mentioned nor let be pinged."""
    content = sent.content or ""
    return (
        f"**{user.name}** to play" in content
        and f"<@{user.id}>" not in content
        and user.id not in allowed(sent)
    )


def mentioned(user: FakeUser, sent: Sent) -> bool:
    return f"<@{user.id}> to play" in (sent.content or "")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    opened = await Server(tmp_path / "chaupal.sqlite3").open()
    yield opened
    await opened.fake.close()


# -- /chaupal me -------------------------------------------------------------------------


async def test_me_shows_and_sets_each_option(server: Server) -> None:
    asha = server.asha
    store = bot_of(server.fake).service.player_settings
    shown = await server.me(asha)
    text = shown.content or ""
    assert "Your Chaupal notifications" in text
    assert "`turn`: a ping in the game's thread or channel (default)" in text, text
    assert "`timezone`: UTC (default)" in text, text
    assert await store.get(asha.id) == {}

    said = await server.me(asha, turn="dm")
    assert (said.content or "").startswith("Saved."), said.content
    assert await store.get(asha.id) == {"turn": "dm"}
    await server.me(asha, reminders="6h")
    await server.me(asha, quiet="23:00-07:00")
    await server.me(asha, timezone="Asia/Kolkata")
    assert await store.get(asha.id) == {
        "turn": "dm",
        "reminders": 6 * HOUR,
        "quiet": [23 * 60, 7 * 60],
        "timezone": "Asia/Kolkata",
    }
    text = (await server.me(asha)).content or ""
    for words in ("a DM with a link", "6h after", "23:00-07:00", "`timezone`: Asia/Kolkata"):
        assert words in text, text
    await server.me(asha, turn="both", reminders="off", quiet="off", timezone="+05:30")
    mine = (await bot_of(server.fake).service.notifications([asha.id]))[asha.id]
    assert (mine.turn, mine.reminders, mine.quiet, mine.timezone) == ("both", None, None, "+05:30")
    # Someone else's settings are their own.
    assert (await server.me(server.bhima)).content == shown.content


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"reminders": "soon"}, "`12h`"),
        ({"quiet": "late at night"}, "23:00-07:00"),
        ({"quiet": "07:00-07:00"}, "different times"),
        ({"timezone": "Mars/Olympus_Mons"}, "Asia/Kolkata"),
        ({"turn": "both", "quiet": "25:00-26:00"}, "23:00-07:00"),
        ({"timezone": "<@1> **x**"}, "time zone"),
    ],
)
async def test_me_refuses_bad_input_and_changes_nothing(
    server: Server, options: dict[str, str], words: str
) -> None:
    asha = server.asha
    store = bot_of(server.fake).service.player_settings
    await server.me(asha, turn="dm", quiet="01:00-02:00")
    before = await store.get(asha.id)
    refused = await server.me(asha, **options)
    text = refused.content or ""
    assert words in text and "Nothing was changed." in text, text
    assert "<@1>" not in text
    assert await store.get(asha.id) == before


async def test_me_works_in_a_dm_and_the_server_settings_do_not(server: Server) -> None:
    asha, fake = server.asha, server.fake
    dm = fake.world.dm_channel_for(asha.id)
    out = await fake.slash(asha, "chaupal me", channel_id=dm, quiet="22:00-06:00")
    assert any((s.content or "").startswith("Saved.") and s.ephemeral for s in out), out
    assert await bot_of(fake).service.player_settings.get(asha.id) == {"quiet": [1320, 360]}
    out = await fake.slash(asha, "chaupal settings show", channel_id=dm)
    assert any("belong to a server" in (s.content or "") for s in out), out


async def test_timezone_autocomplete(server: Server) -> None:
    fake, asha = server.fake, server.asha

    async def offered(typed: str) -> list[str]:
        choices = await fake.autocomplete(asha, "chaupal me", focused="timezone", timezone=typed)
        assert len(choices) <= 25
        for choice in choices:
            assert choice["name"] == choice["value"] and 1 <= len(choice["name"]) <= 100
        return [c["value"] for c in choices]

    assert await offered("kolk") == ["Asia/Kolkata"]
    assert "America/New_York" in await offered("new_y")
    assert "America/New_York" in await offered("new y")
    american = await offered("America/")
    assert len(american) == 25 and all(z.startswith("America/") for z in american)
    assert "UTC" in await offered("")
    assert await offered("+05:30") == ["+05:30"]
    assert await offered("zzzz") == []


async def test_settings_survive_a_restart(server: Server) -> None:
    await server.me(server.asha, turn="both", quiet="23:00-07:00", timezone="Europe/Berlin")
    await server.restart()
    text = (await server.me(server.asha)).content or ""
    assert "a ping in the game's channel and a DM" in text, text
    assert "23:00-07:00" in text and "Europe/Berlin" in text, text


# -- the boards --------------------------------------------------------------------------


async def test_a_dm_player_is_dmed_once_per_wait_and_never_pinged(server: Server) -> None:
    fake = server.fake
    for user in server.users.values():
        await server.me(user, turn="dm")
    mark = len(fake.sent)
    await server.game()
    waits = {u.id: 0 for u in server.users.values()}
    first = await server.awaited()
    waits[first.id] += 1
    sent = fake.sent[mark:]
    for _ in range(6):
        before = await server.awaited()
        sent += await server.move()
        after = await server.awaited()
        if after is not before:
            waits[after.id] += 1
    assert min(waits.values()) >= 2, waits
    for user in server.users.values():
        dms = server.turn_dms(user)
        assert len(dms) == waits[user.id], (user.name, [d.content for d in dms])
        posted = {b.message_id for b in board_posts(fake.sent)}
        for dm in dms:
            link = LINK.search(dm.content or "")
            assert link and int(link[2]) in posted, dm.content
            assert not dm.flags & SILENT, dm
    # Nobody was pinged in the channel; the board named whoever it awaited.
    assert not [s for s in sent if pinged(fake, s)]
    posts = board_posts(sent)
    assert posts
    for post in posts:
        assert named(server.asha, post) or named(server.bhima, post), post.content
    # Delivering again, or after a restart, sends nothing more.
    count = {u.id: len(server.turn_dms(u)) for u in server.users.values()}
    assert await bot_of(fake).delivery.catch_up(server.id)
    await server.restart()
    assert {u.id: len(server.turn_dms(u)) for u in server.users.values()} == count


async def test_a_turn_dm_owed_at_a_crash_is_sent_once_after_the_restart(server: Server) -> None:
    await server.me(server.asha, turn="dm")
    await server.me(server.bhima, turn="dm")
    await server.game()
    late = await server.awaited()
    store = bot_of(server.fake).store
    rows = await store.outbox(server.id)
    row = rows[f"{TURN}{(await server.live()).seat_of(late.id)}"]
    assert row.digest == "sent" and len(server.turn_dms(late)) == 1
    # The crash: the DM was owed (recorded) but never sent.
    await store.set_outbox(server.id, OutboxRow(row.target, row.version, digest="owed"))
    await server.restart()
    dms = server.turn_dms(late)
    assert len(dms) == 2, dms
    assert dms[0].raw.get("nonce") == dms[1].raw.get("nonce")  # Discord drops the repeat
    await server.restart()
    assert len(server.turn_dms(late)) == 2
    # A board delivered again for the same wait (its outbox row set back, as
    # after a crash between a move and its post) owes no second DM.
    live = await server.live()
    store = bot_of(server.fake).store  # the restarted bot's
    await store.set_outbox(server.id, OutboxRow("board", live.version - 1))
    mark = len(server.fake.sent)
    assert await bot_of(server.fake).delivery.catch_up(server.id)
    await server.fake.settle()
    assert board_posts(server.fake.sent[mark:]), "no board was delivered again"
    assert len(server.turn_dms(late)) == 2


async def test_quiet_hours_name_instead_of_pinging_and_silence_the_dm(server: Server) -> None:
    fake = server.fake
    await server.me(server.asha, turn="both", quiet=QUIET_NOW)
    await server.me(server.bhima, turn="both", quiet=QUIET_NOW)
    mark = len(fake.sent)
    await server.game()
    first = await server.awaited()
    (board,) = board_posts(fake.sent[mark:])
    assert named(first, board) and not pinged(fake, board), board.content
    (dm,) = server.turn_dms(first)
    assert dm.flags & SILENT, dm
    # A "ping" player in quiet hours is named, and gets no DM.
    second = server.other(first)
    await server.me(second, turn="ping")
    sent = await server.move()
    (board,) = board_posts(sent)
    assert named(second, board) and not pinged(fake, board), board.content
    assert not server.turn_dms(second)
    # Quiet hours over: pinged and DMed (not silently) again.
    server.clock.now += HOUR
    await server.me(second, turn="both")
    await server.move()
    sent = await server.move()
    (board,) = board_posts(sent)
    assert pinged(fake, board) == {second.id} and mentioned(second, board), board.content
    assert [bool(d.flags & SILENT) for d in server.turn_dms(second)] == [False]


async def test_an_away_player_is_neither_pinged_nor_dmed(server: Server) -> None:
    fake = server.fake
    await server.game()
    first = await server.awaited()
    away = server.other(first)
    await server.me(away, turn="both")
    out = await fake.slash(away, "game away", days=1)
    assert any("away for 1 day" in (s.content or "") for s in out), out
    sent = await server.move()
    assert await server.awaited() is away
    (board,) = board_posts(sent)
    assert named(away, board), board.content
    assert not [s for s in sent if pinged(fake, s)]
    assert not server.turn_dms(away)
    # Back: the next wait pings them again (and DMs them: "both").
    await fake.slash(away, "game back")
    await server.move()
    sent = await server.move()
    (board,) = board_posts(sent)
    assert pinged(fake, board) == {away.id}
    assert len(server.turn_dms(away)) == 1


async def test_both_is_pinged_and_dmed_and_ping_only_pinged(server: Server) -> None:
    fake = server.fake
    await server.me(server.asha, turn="both")
    mark = len(fake.sent)
    await server.game()
    sent = fake.sent[mark:]
    for _ in range(4):
        sent += await server.move()
    pings = [p for s in sent for p in pinged(fake, s)]
    asha, bhima = server.asha, server.bhima
    assert pings.count(asha.id) == len(server.turn_dms(asha)) >= 2
    assert pings.count(bhima.id) >= 2 and not server.turn_dms(bhima)
    for dm in server.turn_dms(asha):
        assert LINK.search(dm.content or ""), dm.content


async def test_closed_dms_fall_back_to_a_channel_ping(server: Server) -> None:
    fake = server.fake
    for user in server.users.values():
        await server.me(user, turn="dm")
        fake.block_dms(user)
    mark = len(fake.sent)
    await server.game()
    first = await server.awaited()
    sent = fake.sent[mark:]
    (board,) = board_posts(sent)
    assert named(first, board) and not pinged(fake, board)
    notices = [s for s in sent if pinged(fake, s)]
    assert [pinged(fake, s) for s in notices] == [{first.id}], notices
    assert "DMs are closed" in (notices[0].content or "")
    # From then on the board itself pings them, and the notice is not repeated.
    await server.move()
    sent = await server.move()
    assert await server.awaited() is first
    (board,) = board_posts(sent)
    assert pinged(fake, board) == {first.id} and mentioned(first, board)
    assert not [s for s in sent if "DMs are closed" in (s.content or "")]


async def test_a_private_menu_carries_the_turn_line_instead_of_a_second_dm(
    server: Server,
) -> None:
    # Sangram opens with both players committing a card in secret: each gets
    # the menu by DM, and that DM says it is their turn.
    for user in server.users.values():
        await server.me(user, turn="dm")
    await server.game("sangram", "reminder=off")
    for user in server.users.values():
        told = server.turn_dms(user)
        assert len(told) == 1, (user.name, told)
        assert server.fake.selects(told[0]), told
        assert "It is your decision" in (told[0].content or "")


# -- issue 29: each wait is announced once, the way the player asked -------------------


async def advance(server: Server, seconds: float) -> list[Sent]:
    """Move the fake clock on and let the scheduler fire what is due;
    returns everything sent meanwhile."""
    mark = len(server.fake.sent)
    server.clock.now += seconds
    scheduler = bot_of(server.fake).scheduler
    await scheduler.run_due()
    await scheduler.wait_idle()
    await server.fake.settle()
    return server.fake.sent[mark:]


@pytest.mark.parametrize("turn", ["ping", "dm"])
async def test_a_timeout_that_leaves_the_seat_the_next_decision_announces_its_new_wait(
    server: Server, turn: str
) -> None:
    # Issue 29 (a): Chaturaji's second die (as Kauda Baji's banked throws and
    # Mahabharata's snake draft) leaves the seat whose time ran out the next
    # decision, with a new clock.  The automatic player made the move, so
    # nobody is at the keyboard: the wait is announced as any other.  It was
    # not (the board's awaited set had not changed), and the timeout's DM
    # said "it's back to you at your next turn".
    for user in server.users.values():
        await server.me(user, turn=turn)
    await server.game("chaturaji", "clock=1h reminder=off")
    renewed = 0
    for _ in range(8):
        late = await server.awaited()
        sent = await advance(server, HOUR + 1)
        live = await server.live()
        if live.is_over or await server.awaited() is not late:
            continue
        renewed += 1
        boards = board_posts(sent)
        if turn == "ping":
            assert [pinged(server.fake, b) for b in boards] == [{late.id}], sent
            assert mentioned(late, boards[0])
        else:
            assert not [s for s in sent if pinged(server.fake, s)], sent
            told = [s for s in sent if s.route == "dm.send" and YOUR_TURN in (s.content or "")]
            assert [s.user_id for s in told] == [late.id], sent
        (news,) = [s for s in sent if "Your time ran out" in (s.content or "")]
        assert "now waits for your next decision" in (news.content or ""), news.content
    assert renewed >= 1, "no timeout left its seat the next decision"


@pytest.mark.parametrize("turn", ["dm", "both"])
async def test_a_player_whose_dms_are_closed_hears_once_when_their_menu_cannot_be_sent(
    server: Server, turn: str
) -> None:
    # Issue 29 (a): the "your turn" line rides on the private menu's DM;
    # when that DM was refused, the turn counted as told, and a ``dm``
    # player (not pinged by the board) heard nothing but that their DMs are
    # closed.  That notice now says it is their turn; to a ``both`` player,
    # whom the board pinged, it does not say it again.
    asha = server.asha
    await server.me(asha, turn=turn)
    server.fake.block_dms(asha)
    mark = len(server.fake.sent)
    await server.game("sangram", "reminder=off")
    sent = server.fake.sent[mark:]
    told = [s for s in sent if asha.id in pinged(server.fake, s)]
    (notice,) = [s for s in told if "DMs are closed" in (s.content or "")]
    says_turn = "it is your turn in Sangram" in (notice.content or "")
    if turn == "dm":
        assert told == [notice] and says_turn, told
    else:
        assert len(board_posts(told)) == 1 and len(told) == 2 and not says_turn, told


async def test_both_with_closed_dms_is_pinged_once_per_wait(server: Server) -> None:
    # Issue 29 (a), the other way round: ``both`` is pinged by the board; the
    # DM that follows is refused, and the channel pinged them a second time
    # for the same wait.
    bhima = server.bhima
    await server.me(bhima, turn="both")
    server.fake.block_dms(bhima)
    mark = len(server.fake.sent)
    await server.game()
    waits = int(await server.awaited() is bhima)
    for _ in range(6):
        before = await server.awaited()
        await server.move()
        waits += before is not bhima and await server.awaited() is bhima
    sent = server.fake.sent[mark:]
    pings = [s for s in sent if bhima.id in pinged(server.fake, s)]
    assert waits >= 2
    assert len(pings) == waits, [p.content for p in pings]
    # They are still told, once, why no DM comes: by name, without a ping.
    (notice,) = [s for s in sent if "DMs are closed" in (s.content or "")]
    assert "**bhima** it is your turn" in (notice.content or ""), notice.content
