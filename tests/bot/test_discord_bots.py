"""Play alone or fill a table (issue 18, section 3), through discord.py's
real dispatch: ``/game new bots:N`` seats automatic players, one person
plays any game to the end against them, each automatic move waits the same
``AUTO_DELAY`` (kept in a timer, so a restart plays a pending move once),
and nothing ever pings, DMs, reminds or rates an automatic player."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engines import get_engine
from bot.engines.core import CHANCE, owed_decisions
from bot.service import AUTO_DELAY, SOLO_AUTO_DELAY
from tests.bot.driver import (
    boards,
    bot_of,
    make_bot,
    play_by_buttons,
    play_by_command,
    play_by_hand,
)
from tests.discord_harness import FakeDiscord, Sent
from tests.fakes import FakeClock

GAMES = ("mahabharata", "chaturaji", "sangram", "artaban", "kauda_baji")
SMALL = {"kauda_baji": "pieces=1", "sangram": ""}
"""Options that keep a whole game short."""


class Solo:
    """One person's game against automatic players, on a fake clock."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path, self.seed, self.clock = path, seed, FakeClock()
        self.rng = random.Random(seed)

    async def open(
        self, engine: str, bots: int, options: str = "", level: str | None = None
    ) -> list[Sent]:
        self.fake = await FakeDiscord.start(make_bot(self.path, self.seed, self.clock))
        self.me = self.fake.user("asha")
        kwargs: dict[str, Any] = {"game": engine, "bots": bots}
        if options:
            kwargs["options"] = options
        if level:
            kwargs["level"] = level
        out = await self.fake.slash(self.me, "game new", **kwargs)
        lobby = next(s for s in out if s.route == "interaction.response")
        found = re.search(r"game #(\d+)", lobby.content or "")
        if found:
            self.id, self.lobby = int(found[1]), lobby
        return out

    async def start(self) -> None:
        await self.fake.click(
            self.me, self.lobby, self.fake.find_button(self.lobby, label="Start")["custom_id"]
        )

    async def live(self) -> Any:
        return await bot_of(self.fake).service.get(self.id)

    async def advance(self, seconds: float) -> int:
        self.clock.now += seconds
        scheduler = bot_of(self.fake).scheduler
        fired = await scheduler.run_due()
        await scheduler.wait_idle()
        await self.fake.settle()
        return fired

    async def restart(self) -> None:
        self.fake = await self.fake.restart(make_bot(self.path, self.seed + 1, self.clock))
        await self.fake.settle()
        await bot_of(self.fake).scheduler.wait_idle()
        await self.fake.settle()

    async def my_move(self) -> None:
        """The person's move: board buttons when the board offers them,
        else the private menu (``/game hand``), sometimes ``/game play``."""
        game = await self.live()
        seat = game.seat_of(self.me.id)
        public = seat in game.engine.waiting_on(game.state)
        single = len(game.engine.to_move(game.state) - {CHANCE}) == 1
        if public and single and game.engine.choices_are_public(game.state, seat):
            if self.rng.random() < 0.2:
                await play_by_command(self.fake, self.me, self.rng)
            else:
                await play_by_buttons(self.fake, self.me, self.rng)
        else:
            await play_by_hand(self.fake, self.me, self.rng, self.id)

    async def play_out(self, limit: int = 3000) -> Any:
        for _ in range(limit):
            game = await self.live()
            if game.is_over:
                return game
            seat = game.seat_of(self.me.id)
            public, private = owed_decisions(game.engine, game.state)
            if seat in public | private:
                await self.my_move()
            elif await self.advance(AUTO_DELAY) == 0:
                # Nothing was due: the person may still change a commitment.
                assert seat in game.engine.to_move(game.state), "the game stalled"
                await self.my_move()
        raise AssertionError("the game did not end")


def no_bot_reached(fake: FakeDiscord) -> None:
    """Nothing the bot sent mentions, DMs or names an automatic player's id."""
    for sent in fake.sent:
        assert "<@-" not in (sent.content or ""), sent
        if sent.route.startswith("dm."):
            assert sent.user_id is not None and sent.user_id > 0, sent


@pytest.mark.parametrize("engine", GAMES)
async def test_one_person_plays_a_whole_game_against_the_automatic_players(
    tmp_path: Path, engine: str
) -> None:
    solo = Solo(tmp_path / "solo.db", seed=7)
    try:
        await solo.open(engine, 1, SMALL.get(engine, ""))
        assert "🤖 Bot 1" in (solo.lobby.content or "")
        await solo.start()
        game = await solo.play_out()
        assert game.outcome is not None and game.record.status == "finished"
        assert "is over" in (solo.fake.current(boards(solo.fake)[-1]).content or "")
        # Practice is never rated: no rating row for anyone, bots least of all.
        store = bot_of(solo.fake).service.ratings
        assert not await store.is_rated(game.id)
        assert await store.top(game.record.guild_id, engine) == []
        no_bot_reached(solo.fake)
    finally:
        await solo.fake.close()


async def test_the_lobby_shows_the_seats_and_others_may_still_join(tmp_path: Path) -> None:
    solo = Solo(tmp_path / "lobby.db", seed=1)
    try:
        await solo.open("kauda_baji", 2, "pieces=1")
        text = solo.lobby.content or ""
        assert "1. asha" in text
        assert "2. 🤖 Bot 1" in text and "3. 🤖 Bot 2" in text
        assert "not rated" in text
        friend = solo.fake.user("bhima")
        await solo.fake.click(
            friend, solo.lobby, solo.fake.find_button(solo.lobby, label="Join")["custom_id"]
        )
        game = await solo.live()
        assert [s.user_id for s in game.seats] == [solo.me.id, -1, -2, friend.id]
        assert [s.controller for s in game.seats] == ["human", "auto", "auto", "human"]
        assert all(s.left_order is None for s in game.seats)
        # The creator leaving does not close it while a person remains; the
        # automatic players keep their seats when seats are renumbered.
        await solo.fake.slash(solo.me, "game leave")
        game = await solo.live()
        assert [s.user_id for s in game.seats] == [-1, -2, friend.id]
        assert [s.controller for s in game.seats] == ["auto", "auto", "human"]
        await solo.fake.slash(friend, "game leave")
        assert (await bot_of(solo.fake).store.get_game(solo.id)).status == "abandoned"  # type: ignore[union-attr]
    finally:
        await solo.fake.close()


@pytest.mark.parametrize(
    ("engine", "bots", "words"),
    [
        ("artaban", 2, "Artaban is for 2 players: at most 1 automatic player beside you, not 2."),
        ("kauda_baji", 4, "at most 3 automatic players beside you, not 4"),
        ("chaturaji", -1, "`bots` is how many automatic players to seat: 0 to 3, not -1."),
    ],
)
async def test_too_many_or_negative_bots_are_refused(
    tmp_path: Path, engine: str, bots: int, words: str
) -> None:
    solo = Solo(tmp_path / "refuse.db", seed=1)
    try:
        out = await solo.open(engine, bots)
        (reply,) = [s for s in out if s.route.startswith("interaction") or s.route == "followup"]
        assert reply.ephemeral and words in (reply.content or ""), reply
        assert await bot_of(solo.fake).store.games_in_channel(reply.channel_id or 0) == []
    finally:
        await solo.fake.close()


async def test_rated_yes_with_bots_is_refused(tmp_path: Path) -> None:
    solo = Solo(tmp_path / "rated.db", seed=1)
    try:
        out = await solo.open("artaban", 1, "rated=yes")
        assert any(
            s.ephemeral and "automatic players is not rated" in (s.content or "") for s in out
        )
    finally:
        await solo.fake.close()


async def test_an_automatic_move_waits_the_same_moment_and_is_named_not_pinged(
    tmp_path: Path,
) -> None:
    """Alone with an automatic player, its moves come after the same short
    moment (``SOLO_AUTO_DELAY``, issue 30: nobody else reads the boards in
    between), never sooner, and go out on the board the person acts on
    next, naming it, never pinging it: no board is posted while only it is
    to play (before, each of its moves was a board of its own, 4 s apart)."""
    solo = Solo(tmp_path / "delay.db", seed=3)
    try:
        await solo.open("chaturaji", 1)
        await solo.start()
        waits: list[float] = []
        bot_turns = 0
        for _ in range(6):
            game = await solo.live()
            seat = game.seat_of(solo.me.id)
            if seat in game.engine.waiting_on(game.state):
                await solo.my_move()
                continue
            bot_turns += 1
            version, posted = game.version, len(boards(solo.fake))
            timers = await bot_of(solo.fake).service.timers.of_game(solo.id)
            (timer,) = [t for t in timers if t.seat != seat]
            waits.append(timer.due - solo.clock.now)
            # Not a moment early ...
            assert await solo.advance(SOLO_AUTO_DELAY - 0.1) == 0
            assert (await solo.live()).version == version
            # ... and then it plays; a board goes out only once it is the
            # person's turn again, and says what the automatic player did.
            while await solo.advance(SOLO_AUTO_DELAY) >= 1:
                game = await solo.live()
                if seat in game.engine.waiting_on(game.state) or game.is_over:
                    break
            game = await solo.live()
            assert game.version > version
            if not game.is_over:
                new = boards(solo.fake)[posted:]
                assert len(new) == 1, new
                assert "**🤖 Bot 1**" in (new[0].content or ""), new[0].content
        assert bot_turns and waits == [pytest.approx(SOLO_AUTO_DELAY)] * len(waits), waits
        no_bot_reached(solo.fake)
    finally:
        await solo.fake.close()


async def test_a_restart_with_an_automatic_move_pending_plays_it_once(tmp_path: Path) -> None:
    solo = Solo(tmp_path / "restart.db", seed=5)
    try:
        await solo.open("kauda_baji", 1, "pieces=1")
        await solo.start()
        game = await solo.live()
        while solo.me.id == game.user_of(min(game.engine.waiting_on(game.state))):
            await solo.my_move()
            game = await solo.live()
        version = game.version
        pending = await bot_of(solo.fake).service.timers.of_game(solo.id)
        assert [(t.kind, t.seat) for t in pending] == [("clock", 1)], pending
        solo.clock.now += AUTO_DELAY + 60  # falls due while the bot is down
        await solo.restart()
        log = await bot_of(solo.fake).store.log(solo.id, after_seq=version)
        bot_moves = [e for e in log if e.actor >= 0 and not e.action.startswith("@")]
        assert len(bot_moves) >= 1
        first = bot_moves[0]
        assert first.actor == 1
        # Once: the timer is gone, and firing the scheduler again adds nothing.
        after = (await solo.live()).version
        await solo.advance(0)
        assert (await solo.live()).version == after
    finally:
        await solo.fake.close()


async def test_no_reminder_or_clock_for_an_automatic_player(tmp_path: Path) -> None:
    solo = Solo(tmp_path / "remind.db", seed=9)
    try:
        await solo.open("artaban", 1, "clock=1h reminder=10m")
        await solo.start()
        game = await solo.live()
        bot = 1 - game.seat_of(solo.me.id)
        for timer in await bot_of(solo.fake).service.timers.of_game(solo.id):
            if timer.seat == bot:
                assert timer.kind == "clock" and timer.due - solo.clock.now <= AUTO_DELAY
        await solo.play_out()
        no_bot_reached(solo.fake)
    finally:
        await solo.fake.close()


def test_every_game_can_be_played_alone() -> None:
    for name in GAMES:
        engine = get_engine(name)
        assert engine.min_players <= 2 <= engine.max_players


async def test_a_whole_game_against_two_hard_automatic_players(tmp_path: Path) -> None:
    """Issue 19: ``/game new bots:2 level:hard``; both automatic seats search
    (a twentieth of the iterations in tests, in a thread) and the game ends."""
    solo = Solo(tmp_path / "hard.db", seed=11)
    try:
        await solo.open("mahabharata", 2, level="hard")
        assert "level **hard**" in (solo.lobby.content or "")
        await solo.start()
        game = await solo.play_out()
        assert game.outcome is not None and game.table.level == "hard"
        thinking = bot_of(solo.fake).thinking
        assert thinking.thought["hard"] > 10 and not thinking.thought["easy"], thinking.thought
        no_bot_reached(solo.fake)
    finally:
        await solo.fake.close()


async def test_an_unknown_level_is_refused(tmp_path: Path) -> None:
    solo = Solo(tmp_path / "level.db", seed=1)
    try:
        out = await solo.open("chaturaji", 1, "level=expert")
        replies = [s.content or "" for s in out if s.ephemeral]
        assert any("`level` is easy, medium or hard, not" in r for r in replies), out
        assert not any(s.route == "interaction.response" and not s.ephemeral for s in out)
    finally:
        await solo.fake.close()
