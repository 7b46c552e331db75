"""Asynchronous play through discord.py's real dispatch (issue 10): a fake
clock drives reminders, clock expiry and every timeout policy; a restart
between a deadline's due time and its handling fires it exactly once; and a
four-player game goes on after a resignation and a forfeit and finishes with
the right ranking."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.edge.delivery.delivery import Delivery
from bot.engines.core import CHANCE
from bot.timekeeping import DAY, HOUR
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, play_turn, resign, start
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

NAMES = ("asha", "bhima", "chitra", "dev")
LINK = re.compile(r"https://discord\.com/channels/\d+/\d+/\d+")


class Game:
    """One game on its own bot, database and fake clock."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path, self.seed, self.clock = path, seed, FakeClock()

    async def open(self, engine: str, players: int, options: str) -> Game:
        self.fake = await FakeDiscord.start(make_bot(self.path, self.seed, self.clock))
        self.users = [self.fake.user(NAMES[i]) for i in range(players)]
        self.by_id = {u.id: u for u in self.users}
        self.id, lobby = await open_lobby(
            self.fake, engine, self.users[0], *self.users[1:], options=options
        )
        await start(self.fake, self.users[0], lobby)
        return self

    async def live(self) -> Any:
        return await bot_of(self.fake).service.get(self.id)

    async def awaited(self) -> list[FakeUser]:
        game = await self.live()
        return [self.by_id[game.user_of(s)] for s in sorted(game.engine.waiting_on(game.state))]

    async def advance(self, seconds: float) -> int:
        """Move the clock on and let the bot's scheduler fire what is due."""
        self.clock.now += seconds
        scheduler = bot_of(self.fake).scheduler
        fired = await scheduler.run_due()
        # The bot's own scheduler loop may be woken too (claims keep every
        # timer to one handler): wait until it sleeps again.
        await scheduler.wait_idle()
        await self.fake.settle()
        return fired

    async def restart(self) -> None:
        self.fake = await self.fake.restart(make_bot(self.path, self.seed + 1, self.clock))
        await self.fake.settle()  # start-up's catch-up, which then starts the scheduler
        await bot_of(self.fake).scheduler.wait_idle()
        await self.fake.settle()

    def board(self) -> Sent:
        return self.fake.current(boards(self.fake)[-1])

    async def log_actions(self) -> list[str]:
        return [e.action for e in await bot_of(self.fake).store.log(self.id)]


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[list[Game]]:
    opened: list[Game] = []
    yield opened
    for game in opened:
        await game.fake.close()


async def open_game(
    games: list[Game], tmp_path: Path, engine: str, players: int, options: str, seed: int = 3
) -> Game:
    game = await Game(tmp_path / f"{engine}-{len(games)}.sqlite3", seed).open(
        engine, players, options
    )
    games.append(game)
    return game


# -- reminders ------------------------------------------------------------------------


async def test_reminders_by_dm_with_a_link_then_every_day(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=none reminder=12h")
    (late,) = await game.awaited()
    other = next(u for u in game.users if u is not late)
    assert await game.advance(12 * HOUR - 60) == 0
    await game.advance(60)
    dms = [d for d in game.fake.dms(late) if "Reminder" in (d.content or "")]
    assert len(dms) == 1 and LINK.search(dms[0].content or ""), dms
    assert not any("Reminder" in (d.content or "") for d in game.fake.dms(other))
    await game.advance(DAY)
    assert len([d for d in game.fake.dms(late) if "Reminder" in (d.content or "")]) == 2


async def test_a_player_with_closed_dms_is_reminded_in_the_thread(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 reminder=1h")
    (late,) = await game.awaited()
    game.fake.block_dms(late)
    posts = len(game.fake.channel_posts())
    await game.advance(HOUR)
    new = [p for p in game.fake.channel_posts()[posts:] if "Reminder" in (p.content or "")]
    assert len(new) == 1
    allowed = new[0].raw.get("allowed_mentions") or {}
    assert [int(u) for u in allowed.get("users") or []] == [late.id]
    assert not allowed.get("parse")


# -- clocks and every timeout policy ------------------------------------------------------


async def test_substitute_the_automatic_player_moves_and_the_player_is_told(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1h")
    (late,) = await game.awaited()
    assert "Clocks:" in (game.board().content or "")
    version = (await game.live()).version
    await game.advance(HOUR + 1)
    live = await game.live()
    assert live.version > version and not live.is_over
    assert "ran out of time" in (game.board().content or "")
    told = [d for d in game.fake.dms(late) if "time ran out" in (d.content or "")]
    assert told and "made that move for you" in (told[0].content or "")
    assert "@timeout" in await game.log_actions()


async def test_forfeit_ends_a_two_player_game(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1h timeout=forfeit")
    (late,) = await game.awaited()
    await game.advance(HOUR + 1)
    live = await game.live()
    assert live.is_over and live.outcome is not None
    assert live.outcome.ranking[-1] == frozenset({live.seat_of(late.id)})
    final = game.board()
    assert "is over" in (final.content or "") and "ran out of time" in (final.content or "")
    assert [b["label"] for b in game.fake.buttons(final)] == ["Rematch", "Replay"]


async def test_skip_passes_where_a_pass_is_legal(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "chaturaji", 2, "clock=1h timeout=skip reminder=off")
    for _ in range(4):
        await game.advance(HOUR + 1)
        if "passes" in (game.board().content or ""):
            break
    assert "pass" in await game.log_actions()
    assert "ran out of time and passes" in (game.board().content or "")


# -- restarts ----------------------------------------------------------------------------


async def test_a_deadline_due_across_a_restart_fires_exactly_once(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1h reminder=off")
    version = (await game.live()).version
    game.clock.now += 3 * HOUR  # falls due while the bot is down
    await game.restart()  # the bot's own scheduler fires it at start-up
    actions = await game.log_actions()
    assert actions.count("@timeout") == 1
    after = (await game.live()).version
    assert after > version
    await game.restart()
    assert await game.advance(0) == 0
    assert (await game.live()).version == after
    assert (await game.log_actions()).count("@timeout") == 1


# -- four players: a resignation and a forfeit ---------------------------------------------


async def test_four_players_play_on_after_a_resignation_and_a_forfeit(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(
        games, tmp_path, "kauda_baji", 4, "pieces=1 clock=1d timeout=forfeit reminder=off"
    )
    live = await game.live()
    resigner = game.users[3]
    out = await resign(game.fake, resigner)
    assert any("automatic player" in (s.content or "") for s in out), out
    assert "resigned" in (game.board().content or "") or "@left" in await game.log_actions()
    (late,) = await game.awaited()
    await game.advance(DAY + 1)
    live = await game.live()
    assert not live.is_over
    assert live.is_auto(live.seat_of(resigner.id)) and live.is_auto(live.seat_of(late.id))
    # The two left play to the end, by buttons and commands.
    rng = random.Random(1)
    humans = {u.id: u for u in game.users if u not in (resigner, late)}
    for turn in range(2000):
        live = await game.live()
        if live.is_over:
            break
        await play_turn(game.fake, game.id, humans, rng, "buttons" if turn % 2 else "command")
        await game.fake.settle()
    live = await game.live()
    assert live.is_over and live.outcome is not None
    seat_of = live.seat_of
    ranking = live.outcome.ranking
    assert ranking[-1] == frozenset({seat_of(resigner.id)})
    assert ranking[-2] == frozenset({seat_of(late.id)})
    final = game.board()
    assert "is over" in (final.content or "")
    assert CHANCE not in live.engine.waiting_on(live.state)


# -- vacations and pauses on the board -------------------------------------------------------


async def test_a_vacation_and_a_pause_are_shown_on_the_board(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1d")
    (late,) = await game.awaited()
    out = await game.fake.slash(late, "game away", days=3)
    assert any("away for 3 days" in (s.content or "") for s in out), out
    text = game.board().content or ""
    back = int(game.clock.now + 3 * DAY)  # each reader sees it in their own time zone
    assert "is away for 3 days" in text and f"(away, back <t:{back}:R>)" in text, text
    version = (await game.live()).version
    assert await game.advance(2 * DAY) == 0  # no clock runs out while away
    assert (await game.live()).version == version
    await game.fake.slash(late, "game back")
    assert "is back" in (game.board().content or "")
    moderator = game.fake.moderator()
    await game.fake.slash(moderator, "moderate game pause")
    assert "Paused." in (game.board().content or "")
    assert await game.advance(5 * DAY) == 0
    await game.fake.slash(moderator, "moderate game resume")
    text = game.board().content or ""
    assert "resumed" in text and "Paused." not in text


async def test_in_a_simultaneous_phase_only_those_still_to_choose_are_reminded(
    games: list[Game], tmp_path: Path
) -> None:
    # Sangram opens with both players committing a card at once.
    game = await open_game(games, tmp_path, "sangram", 2, "reminder=2h")
    first, second = await game.awaited()
    live = await game.live()
    seat = live.seat_of(first.id)
    text = bot_of(game.fake).service.legal_texts(live, seat)[0]
    await game.fake.slash(first, "game play", action=text)
    assert await game.awaited() == [second]
    await game.advance(2 * HOUR)
    reminded = [d for d in game.fake.dms(second) if "Reminder" in (d.content or "")]
    assert len(reminded) == 1 and "everyone else has chosen" in (reminded[0].content or "")
    assert not any("Reminder" in (d.content or "") for d in game.fake.dms(first))


async def test_a_reminder_says_everyone_else_has_chosen_only_when_they_have(
    tmp_path: Path,
) -> None:
    """Issue 31 (2): an automatic seat is still to choose (its moment to act
    not come yet: a search under way, a restart) when the last person of a
    simultaneous phase is reminded; the reminder must not say that everyone
    else has chosen."""
    clock = FakeClock()
    fake = await FakeDiscord.start(make_bot(tmp_path / "sangram-bot.sqlite3", 5, clock))
    try:
        bot = bot_of(fake)
        bot.service.auto_delay = 3 * HOUR  # the automatic seat acts after the reminder
        first, second = fake.user("asha"), fake.user("bhima")
        out = await fake.slash(first, "game new", game="sangram", bots=1, options="reminder=2h")
        lobby = next(s for s in out if s.route == "interaction.response")
        game_id = int(re.findall(r"game #(\d+)", lobby.content or "")[0])
        await fake.click(second, lobby, fake.find_button(lobby, label="Join")["custom_id"])
        await start(fake, first, lobby)
        live = await bot.service.get(game_id)
        robot = next(s for s in range(len(live.seats)) if live.is_auto(s))
        text = bot.service.legal_texts(live, live.seat_of(first.id))[0]
        await fake.slash(first, "game play", action=text)
        live = await bot.service.get(game_id)
        assert live.engine.waiting_on(live.state) == {robot, live.seat_of(second.id)}
        clock.now += 2 * HOUR
        await bot.scheduler.run_due()
        await bot.scheduler.wait_idle()
        await fake.settle()
        (reminded,) = [d for d in fake.dms(second) if "Reminder" in (d.content or "")]
        assert "everyone else" not in (reminded.content or ""), reminded.content
    finally:
        await fake.close()


async def test_an_overdue_deadline_fires_while_the_boards_behind_are_still_going_out(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an outage the boards behind can take minutes to go out; the
    clocks that ran out meanwhile must not wait for them (issue 20)."""
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 clock=1h reminder=off")
    backlog = asyncio.Event()  # never set: a backlog that outlasts the test

    async def slow_catch_up(self: Delivery) -> None:
        await backlog.wait()

    monkeypatch.setattr(Delivery, "catch_up_all", slow_catch_up)
    game.clock.now += 3 * HOUR
    game.fake = await game.fake.restart(make_bot(game.path, game.seed + 1, game.clock))
    scheduler = bot_of(game.fake).scheduler
    for _ in range(100):
        if "@timeout" in await game.log_actions():
            break
        await asyncio.sleep(0.01)
    await scheduler.wait_idle()
    assert (await game.log_actions()).count("@timeout") == 1
