"""A thread per game, and ``/chaupal settings`` (issue 10, items 1 and 2),
through discord.py's real dispatch.

A game opens a public thread from its lobby message when it starts, and every
board goes there; the lobby message ends in a one-line status, edited only
when the game's state changes (start, pause, a seat changing hands, end),
never for a move.  Without the permission to open threads (403), or with
threads turned off by the server, the game is played in the channel and the
channel is told why, once.  A game whose thread was deleted carries on in the
channel, which is told so once.  The server's settings are for members with
Manage Server or the configured moderator role, and every value is checked.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.edge.moderators import is_moderator
from bot.server_settings import ServerSettings, table_defaults
from bot.timekeeping import DAY, HOUR, ClockRule, TableOptions
from tests.bot.driver import (
    PNG_MAGIC,
    boards,
    bot_of,
    make_bot,
    movers,
    open_lobby,
    play_by_command,
    play_turn,
    resign,
    start,
)
from tests.discord_harness import CommandUnavailable, FakeDiscord, FakeUser, Sent

MENTION = re.compile(r"<@[!&]?\d+>")


Opener = Callable[..., Coroutine[Any, Any, FakeDiscord]]


@pytest.fixture
async def bot_at(tmp_path: Path) -> AsyncIterator[Opener]:
    """``await bot_at(seed)`` starts the bot on a fresh fake Discord;
    ``await bot_at(seed, fake)`` restarts it on the same one.  Whatever is
    still open is closed after the test, even a failed one."""
    opened: list[FakeDiscord] = []
    db = tmp_path / "chaupal.sqlite3"

    async def open_(seed: int, previous: FakeDiscord | None = None) -> FakeDiscord:
        bot = make_bot(db, seed)
        fake = await previous.restart(bot) if previous is not None else await FakeDiscord.start(bot)
        opened.append(fake)
        return fake

    yield open_
    for fake in opened:
        await fake.close()


def board_posts(fake: FakeDiscord, channel_id: int) -> list[Sent]:
    """Boards posted in exactly this channel or thread."""
    return [
        s
        for s in fake.channel_posts(channel_id, threads=False)
        if s.route == "channel.send" and any(n.endswith(".png") for n, _ in s.files)
    ]


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content or "" for s in out)


def no_pings(sent: Sent) -> bool:
    allowed = sent.raw.get("allowed_mentions")
    return allowed is not None and not allowed.get("parse") and not allowed.get("users")


async def started_game(
    fake: FakeDiscord, *players: FakeUser, game: str = "kauda_baji"
) -> tuple[int, Sent]:
    game_id, lobby = await open_lobby(fake, game, *players)
    await start(fake, players[0], lobby)
    return game_id, lobby


async def play_moves(fake: FakeDiscord, game_id: int, users: list[FakeUser], n: int) -> None:
    rng = random.Random(game_id)
    by_id = {u.id: u for u in users}
    for _ in range(n):
        if not await movers(fake, game_id, by_id):
            return
        await play_turn(fake, game_id, by_id, rng, "command")


# -- a thread per game ----------------------------------------------------------


async def test_a_game_is_played_in_its_own_thread(bot_at: Opener) -> None:
    fake = await bot_at(1)
    asha, bhima = fake.user("asha"), fake.user("*bhima*")
    game_id, lobby = await started_game(fake, asha, bhima)

    # The thread: opened from the lobby message, named after the game, kept 7 days.
    created = [s for s in fake.sent if s.route == "thread.create"]
    assert len(created) == 1
    assert created[0].message_id == lobby.message_id
    assert created[0].raw["name"] == f"Kauda Baji #{game_id}"
    assert created[0].raw["auto_archive_duration"] == 10080
    thread_id = int(fake.threads()[0]["id"])
    record = await bot_of(fake).store.get_game(game_id)
    assert record is not None and record.thread_id == thread_id

    # Every board goes to the thread; the channel keeps only the lobby.
    first = board_posts(fake, thread_id)
    assert first and first[0].files[0][1].startswith(PNG_MAGIC)
    assert board_posts(fake, fake.channel_id) == []
    assert [s.message_id for s in fake.channel_posts(threads=False)] == [lobby.message_id]

    # The lobby message keeps who plays, and ends in a one-line status with
    # a link to the thread (issue 30: the game's state, never a move).
    now = fake.current(lobby).content or ""
    status = now.splitlines()[-1]
    assert now.startswith(f"**Kauda Baji** — game #{game_id}")
    assert "1. asha" in now and "2. \\*bhima\\*" in now  # escaped, never raw Markdown
    assert status == f"The game has started; it is played in <#{thread_id}>.", status
    assert fake.buttons(lobby.message_id or 0) == []
    assert not MENTION.search(status), status

    # Moves played from the channel, from the thread and by the board's
    # buttons: every board lands in the thread, and the status follows.
    users = [asha, bhima]
    await play_moves(fake, game_id, users, 3)
    who = await movers(fake, game_id, {u.id: u for u in users})
    choices = await fake.autocomplete(
        who[0], "game play", focused="action", action="", channel_id=thread_id
    )
    out = await fake.slash(
        who[0], "game play", action=choices[0]["value"], game=game_id, channel_id=thread_id
    )
    assert any((s.content or "").startswith("Played:") for s in out), out
    assert board_posts(fake, fake.channel_id) == []
    assert len(board_posts(fake, thread_id)) >= 2
    # Moves leave the lobby message as it was: it is not edited for them.
    assert (fake.current(lobby).content or "") == now
    edits = [s for s in fake.sent if s.route == "channel.edit" and s.message_id == lobby.message_id]
    assert edits and all(no_pings(e) for e in edits)

    # /game board with the game's number, from inside the thread.
    out = await fake.slash(asha, "game board", game=game_id, channel_id=thread_id)
    assert "Posted the board" in texts(out)
    assert board_posts(fake, fake.channel_id) == []

    # A restart: the game goes on in the same thread.
    fake = await bot_at(2, fake)
    before = len(board_posts(fake, thread_id))
    await play_moves(fake, game_id, users, 2)
    assert len(board_posts(fake, thread_id)) > before
    assert board_posts(fake, fake.channel_id) == []

    # The end: the final board in the thread, the result in the status line.
    out = await resign(fake, bhima, channel_id=thread_id)
    assert f"Game #{game_id} is over" in texts(out)
    status = (fake.current(lobby).content or "").splitlines()[-1]
    assert status == f"Over: won by **asha**. Its thread: <#{thread_id}>.", status
    assert "is over" in (board_posts(fake, thread_id)[-1].content or "")
    assert [s for s in fake.sent if s.route == "thread.create"] == created


async def test_without_permission_to_open_threads_the_game_stays_in_the_channel(
    bot_at: Opener,
) -> None:
    fake = await bot_at(3)
    fake.set_bot_permissions(create_public_threads=False)
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await started_game(fake, asha, bhima)

    assert fake.threads() == []
    record = await bot_of(fake).store.get_game(game_id)
    assert record is not None and record.thread_id is None
    assert board_posts(fake, fake.channel_id), "the board goes to the channel"
    await play_moves(fake, game_id, [asha, bhima], 4)
    notices = [s for s in fake.channel_posts() if "Create Public Threads" in (s.content or "")]
    assert len(notices) == 1, notices
    assert f"#{game_id}" in (notices[0].content or "") and no_pings(notices[0])
    # The status line says the game is played here; it links no board
    # while the game runs (the newest would change with every move).
    status = (fake.current(lobby).content or "").splitlines()[-1]
    assert status == "The game has started; it is played in this channel.", status
    # Once over, it links the final board.
    await resign(fake, bhima)
    final = board_posts(fake, fake.channel_id)[-1]
    link = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{final.message_id}"
    status = (fake.current(lobby).content or "").splitlines()[-1]
    assert status == f"Over: won by **asha**. Final board: {link}", status

    # A second game: said once for it too, and only once.
    carl, dev = fake.user("carl"), fake.user("dev")
    second, _ = await started_game(fake, carl, dev)
    await play_moves(fake, second, [carl, dev], 2)
    notices = [s for s in fake.channel_posts() if "Create Public Threads" in (s.content or "")]
    assert len(notices) == 2 and f"#{second}" in (notices[1].content or "")


async def test_threads_turned_off_by_the_server(bot_at: Opener) -> None:
    fake = await bot_at(4)
    mod = fake.moderator("mod")
    out = await fake.slash(mod, "moderate settings threads", value="off")
    assert "Saved" in texts(out) and all(s.ephemeral for s in out)
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, _ = await started_game(fake, asha, bhima)
    await play_moves(fake, game_id, [asha, bhima], 3)
    assert [s for s in fake.sent if s.route == "thread.create"] == []
    assert board_posts(fake, fake.channel_id)
    notices = [s for s in fake.channel_posts() if "threads are turned off" in (s.content or "")]
    assert len(notices) == 1

    # Turned on again: the next game gets its thread.
    await fake.slash(mod, "moderate settings threads", value="on")
    carl, dev = fake.user("carl"), fake.user("dev")
    second, _ = await started_game(fake, carl, dev)
    record = await bot_of(fake).store.get_game(second)
    assert record is not None and record.thread_id is not None


async def test_a_game_whose_thread_was_deleted_goes_on_in_the_channel(bot_at: Opener) -> None:
    fake = await bot_at(5)
    asha, bhima = fake.user("asha"), fake.user("bhima")
    users = [asha, bhima]
    game_id, lobby = await started_game(fake, asha, bhima)
    thread_id = int(fake.threads()[0]["id"])
    await play_moves(fake, game_id, users, 2)
    fake.delete_thread(thread_id)

    # The next moves: boards in the channel, said once, the thread forgotten.
    await play_moves(fake, game_id, users, 4)
    posted = board_posts(fake, fake.channel_id)
    assert posted, "boards go to the channel now"
    gone = [s for s in fake.channel_posts() if "is gone" in (s.content or "")]
    assert len(gone) == 1 and gone[0].channel_id == fake.channel_id
    record = await bot_of(fake).store.get_game(game_id)
    assert record is not None and record.thread_id is None
    assert f"<#{thread_id}>" not in (fake.current(lobby).content or "")

    # Buttons on the new boards work; after a restart it stays in the channel.
    fake = await bot_at(6, fake)
    by_id = {u.id: u for u in users}
    who = await movers(fake, game_id, by_id)
    if who:
        await play_by_command(fake, who[0], random.Random(1))
    assert board_posts(fake, fake.channel_id)[-1].message_id == boards(fake)[-1].message_id
    assert len([s for s in fake.channel_posts() if "is gone" in (s.content or "")]) == 1


# -- /chaupal settings ------------------------------------------------------------


async def test_settings_are_for_moderators_and_checked(bot_at: Opener) -> None:
    fake = await bot_at(7)
    bot = bot_of(fake)
    mod, asha = fake.moderator("mod"), fake.user("asha")

    # Defaults that work, before anyone sets anything.
    out = await fake.slash(mod, "chaupal settings show")
    shown = texts(out)
    assert all(s.ephemeral for s in out)
    for line in ("`threads`: on (default)", "`clock`: 3d (default)",
                 "`timeout`: substitute (default)", "`reminder`: auto (default)",
                 "`substitute`: medium (default)",
                 "`announcements`: none", "`moderator_role`: none"):  # fmt: skip
        assert line in shown, shown
    # Issue 16: a correspondence clock by default, reminders that follow it.
    assert "clock 3d per move; on timeout: substitute; reminders follow the clock" in shown
    assert await table_defaults(bot.server_settings, fake.guild_id) == TableOptions(
        clock=ClockRule(3 * DAY, per_move=True)
    )

    # Every member reads them (issue 18), privately.
    out = await fake.slash(asha, "chaupal settings show")
    assert "`clock`: 3d (default)" in texts(out) and all(s.ephemeral for s in out)
    assert "/moderate settings" in texts(out)
    # Changing them is hidden from players without Manage Messages; where a
    # server shows /moderate anyway, players without Manage Server (or the
    # moderator role) are refused.
    for command, options in (
        ("moderate settings clock", {"value": "1d"}),
        ("moderate settings threads", {"value": "off"}),
    ):
        with pytest.raises(CommandUnavailable):
            await fake.slash(asha, command, **options)
        out = await fake.slash(asha, command, validate=False, **options)
        assert "Only members with the Manage Server permission" in texts(out)
        assert all(s.ephemeral for s in out)
    assert await bot.server_settings.get(fake.guild_id) == {}

    # Each value is checked; a refusal quotes the input harmlessly.
    refusals = {
        ("clock", "soon"): "A clock is written like",
        ("clock", "0h"): "longer than zero",
        ("clock", "3d+"): "A clock's time per move is written like",
        ("clock", "99d"): "at most",
        ("reminder", "tomorrow"): "A reminder is written like",
        ("clock", "<@123> **x** @everyone"): "A clock is written like",
    }
    for (name, value), why in refusals.items():
        out = await fake.slash(mod, f"moderate settings {name}", value=value)
        said = texts(out)
        assert why in said, said
        # Quoted, escaped: shown as typed, never a mention.
        assert not re.search(r"(?<!\\)<@\d|(?<!\\)@everyone", said), said
        assert all(s.ephemeral and no_pings(s) for s in out)
    # A value outside the choices (a client may send any): refused, unchanged.
    out = await fake.slash(mod, "moderate settings substitute", validate=False, value="expert")
    assert "`substitute` is easy, medium or hard, not" in texts(out), texts(out)
    long = "x" * 5000
    out = await fake.slash(mod, "moderate settings clock", value=long)
    assert len(texts(out)) < 300
    assert await bot.server_settings.get(fake.guild_id) == {}

    # Saved, shown, and what new games start with.
    channel = fake.add_channel("announcements")
    for name, options, said in (
        ("clock", {"value": "3d+12h"}, "3d to start, 12h more after each move"),
        ("timeout", {"value": "forfeit"}, "the player is out"),
        ("reminder", {"value": "1d"}, "reminded after 1d"),
        ("substitute", {"value": "hard"}, "at level **hard**"),
        ("threads", {"value": "off"}, "without threads"),
        ("announcements", {"channel": channel}, f"<#{channel}>"),
    ):
        out = await fake.slash(mod, f"moderate settings {name}", **options)
        assert said in texts(out), texts(out)
    stored = await bot.server_settings.get(fake.guild_id)
    assert stored == {
        "clock": "3d+12h",
        "timeout": "forfeit",
        "reminder": "1d",
        "substitute": "hard",
        "threads": False,
        "announcements": channel,
    }
    shown = texts(await fake.slash(mod, "chaupal settings show"))
    assert "`clock`: 3d+12h\n" in shown and "`threads`: off:" in shown
    assert f"`announcements`: <#{channel}>" in shown
    defaults = await table_defaults(bot.server_settings, fake.guild_id)
    assert defaults == TableOptions(
        clock=ClockRule.parse("3d+12h"), timeout="forfeit", reminder=24 * HOUR, substitute="hard"
    )

    # Back to the defaults.
    await fake.slash(mod, "moderate settings clock", value="none")
    await fake.slash(mod, "moderate settings reminder", value="off")
    await fake.slash(mod, "moderate settings announcements")
    stored = await bot.server_settings.get(fake.guild_id)
    assert stored["clock"] == "none" and stored["reminder"] == "off"
    assert "announcements" not in stored
    defaults = await table_defaults(bot.server_settings, fake.guild_id)
    assert defaults.clock is None and defaults.reminder is None


async def test_broken_stored_settings_read_as_their_defaults() -> None:
    assert ServerSettings.from_json(
        {
            "threads": "yes",
            "clock": "soon",
            "timeout": "explode",
            "reminder": "2h",
            "announcements": "#x",
            "moderator_role": True,
        }
    ) == ServerSettings(reminder="2h")
    assert ServerSettings.from_json({}).table() == TableOptions(
        clock=ClockRule(3 * DAY, per_move=True), reminder="auto"
    )


async def test_the_moderator_role(bot_at: Opener) -> None:
    fake = await bot_at(8)
    bot = bot_of(fake)
    mod = fake.moderator("mod")
    role = fake.add_role("Chaupal mods")
    helper = fake.user("helper", role_ids=(role,))
    asha, bhima, carl = fake.user("asha"), fake.user("bhima"), fake.user("carl")

    out = await fake.slash(helper, "moderate settings clock", value="1d", validate=False)
    assert "Only members with the Manage Server permission" in texts(out)
    out = await fake.slash(mod, "moderate settings moderator_role", role=role)
    assert f"<@&{role}>" in texts(out) and all(no_pings(s) for s in out)
    assert (await bot.server_settings.get(fake.guild_id))["moderator_role"] == role

    # The role may now change settings (a role grants no Discord permission,
    # so the server shows /moderate to it); others are told which role it takes.
    out = await fake.slash(helper, "moderate settings clock", value="1d", validate=False)
    assert "1d per move" in texts(out)
    out = await fake.slash(asha, "moderate settings clock", value="2d", validate=False)
    assert f"<@&{role}> role" in texts(out) and all(no_pings(s) for s in out)

    # ... and counts as a moderator at the table: start someone else's
    # lobby, and end a game it does not play in.
    game_id, _ = await open_lobby(fake, "kauda_baji", asha, bhima)
    out = await fake.slash(carl, "game start")
    assert "Only the player who opened" in texts(out)
    await fake.slash(helper, "game start")
    record = await bot.store.get_game(game_id)
    assert record is not None and record.status == "active"
    out = await resign(fake, carl, game=game_id)
    assert f"game #{game_id}" in texts(out).lower() and "not playing" in texts(out)
    out = await resign(fake, helper, game=game_id)
    assert f"Game #{game_id} is over" in texts(out)
    record = await bot.store.get_game(game_id)
    assert record is not None and record.status == "abandoned"

    # Without the role setting, the role means nothing.
    await fake.slash(mod, "moderate settings moderator_role")
    out = await fake.slash(helper, "moderate settings clock", value="2d", validate=False)
    assert "Only members with the Manage Server permission" in texts(out)
    assert "moderator_role" not in await bot.server_settings.get(fake.guild_id)


@pytest.mark.parametrize("manage_guild", [True, False])
async def test_is_moderator_reads_the_role(bot_at: Opener, manage_guild: bool) -> None:
    """The helper the commands use, with and without Manage Server."""
    fake = await bot_at(9)
    bot = bot_of(fake)
    role = fake.add_role("Referees")
    perms = discord.Permissions(manage_guild=manage_guild)
    someone = fake.user("someone", role_ids=(role,), permissions=perms.value)
    seen: list[bool] = []

    async def probe(itx: discord.Interaction[discord.Client]) -> None:
        seen.append(await is_moderator(bot.server_settings, itx))
        await itx.response.send_message("ok", ephemeral=True)

    bot.tree.add_command(
        discord.app_commands.Command(name="probe", description="p", callback=probe)
    )
    await fake.slash(someone, "probe")
    await bot.server_settings.set(fake.guild_id, "moderator_role", role, 0.0)
    await fake.slash(someone, "probe")
    assert seen == [manage_guild, True]


# -- moderators and vacations (the service decides; these are the wires) --------


async def test_pause_resume_kick_away_and_back(bot_at: Opener) -> None:
    fake = await bot_at(10)
    bot = bot_of(fake)
    mod = fake.moderator("mod")
    asha, bhima, carl = fake.user("asha"), fake.user("bhima"), fake.user("carl")
    game_id, lobby = await open_lobby(fake, "kauda_baji", asha, bhima, carl)
    await start(fake, asha, lobby)
    record = await bot.store.get_game(game_id)
    assert record is not None and record.thread_id is not None
    thread_id = record.thread_id

    # Players who are not moderators are refused, ephemerally.
    # (Discord hides /moderate from them; a server may show it anyway.)
    for command, options in (("moderate game pause", {}), ("moderate game kick", {"user": carl})):
        with pytest.raises(CommandUnavailable):
            await fake.slash(asha, command, option_values=options)
        out = await fake.slash(asha, command, option_values=options, validate=False)
        assert "Only a moderator" in texts(out) and all(s.ephemeral for s in out)

    out = await fake.slash(mod, "moderate game pause", game=game_id, channel_id=thread_id)
    assert f"Game #{game_id} is paused" in texts(out)
    record = await bot.store.get_game(game_id)
    assert record is not None and record.paused_at is not None
    paused = (fake.current(lobby).content or "").splitlines()[-1]
    assert paused == f"Paused by a moderator; it is played in <#{thread_id}>.", paused
    out = await fake.slash(mod, "moderate game resume")
    assert f"Game #{game_id} is running again" in texts(out)
    record = await bot.store.get_game(game_id)
    assert record is not None and record.paused_at is None
    running = (fake.current(lobby).content or "").splitlines()[-1]
    assert running == f"The game has started; it is played in <#{thread_id}>.", running

    out = await fake.slash(mod, "moderate game kick", game=game_id, option_values={"user": carl})
    said = [s for s in out if s.ephemeral and s.content]
    assert "carl is out of game" in texts(said) and all(no_pings(s) for s in said)
    seats = await bot.store.seats(game_id)
    assert [s.controller for s in seats if s.user_id == carl.id] == ["auto"]
    assert board_posts(fake, fake.channel_id) == []

    # The reply is private; the game's board (in its thread) says it too.
    out = await fake.slash(bhima, "game away", days=3)
    assert "away for 3 days" in texts([s for s in out if s.ephemeral])
    assert board_posts(fake, fake.channel_id) == []
    out = await fake.slash(bhima, "game back")
    assert "Welcome back" in texts([s for s in out if s.ephemeral])
    assert board_posts(fake, fake.channel_id) == []
    out = await fake.slash(bhima, "game back")
    assert "not away" in texts(out)
