"""Taking a move back (issue 31), through discord.py's real dispatch on a
fake clock: **Take back** under a player's "Played: …", ``/game takeback``
and the request the other players answer in the game's thread with
**Agree** or **Decline**, boards from before out of date, refusals that
say why, the server's setting and a table's, and the throw that waits
under **Take back** in Chaturaji."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engines.messages import decode
from bot.takeback import THROW_GRACE
from tests.bot.driver import (
    CUSTOM_ID,
    board_picks,
    boards,
    bot_of,
    make_bot,
    open_lobby,
    play_by_buttons,
    start,
)
from tests.bot.test_discord_kauda_baji import press_as_seen, seen_picks
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

TAKEBACK_ID = re.compile(r"^chaupal:takeback:\d+:\d+$")
ANSWER_ID = re.compile(r"^chaupal:takeback-answer:\d+:\d+:(yes|no)$")


class Game:
    """One game on its own bot, database and fake clock: Asha and Bhima
    play, Chitra watches, a moderator moderates."""

    def __init__(self, fake: FakeDiscord, clock: FakeClock) -> None:
        self.fake, self.clock = fake, clock
        self.asha, self.bhima = fake.user("asha"), fake.user("bhima")
        self.chitra, self.mod = fake.user("chitra"), fake.moderator("mod")
        self.rng = random.Random(2)
        self.id = 0

    async def open(self, engine: str, options: str | None = None) -> Game:
        self.id, lobby = await open_lobby(self.fake, engine, self.asha, self.bhima, options=options)
        await start(self.fake, self.asha, lobby)
        if engine == "artaban":
            for user in (self.asha, self.bhima):
                out = await self.fake.slash(user, "game play", action="setup random")
                assert played(out), out
        return self

    @property
    def bot(self) -> Any:
        return bot_of(self.fake)

    async def live(self) -> Any:
        return await self.bot.service.get(self.id)

    def board(self) -> Sent:
        return self.fake.current(boards(self.fake)[-1])

    async def move(self, user: FakeUser) -> Sent:
        """A move from the newest board; its "Played: …" reply."""
        out = await play_by_buttons(self.fake, user, self.rng)
        await self.fake.settle()
        return self.fake.current(played(out))


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[list[Game]]:
    opened: list[Game] = []
    yield opened
    for game in opened:
        await game.fake.close()


async def open_game(
    games: list[Game],
    tmp_path: Path,
    engine: str = "artaban",
    options: str | None = None,
    *,
    throw_grace: bool = False,
) -> Game:
    clock = FakeClock()
    path = tmp_path / f"{engine}-{len(games)}.sqlite3"
    fake = await FakeDiscord.start(make_bot(path, 3, clock, throw_grace=throw_grace))
    game = Game(fake, clock)
    games.append(game)
    return await game.open(engine, options)


def played(out: list[Sent]) -> Sent:
    return next(s for s in out if (s.content or "").startswith("Played:"))


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content or "" for s in out)


def refused(out: list[Sent], words: str) -> None:
    """An ephemeral refusal saying ``words``, and nothing public."""
    assert words in texts([s for s in out if s.ephemeral]), texts(out)
    assert not [s for s in out if s.route in ("channel.send", "dm.send")], out


def take_back_button(fake: FakeDiscord, reply: Sent) -> str | None:
    found = [b["custom_id"] for b in fake.buttons(reply) if b["label"] == "Take back"]
    for custom_id in found:
        assert TAKEBACK_ID.match(custom_id) and len(custom_id) <= 100, custom_id
    return found[0] if found else None


async def test_take_back_under_played_undoes_the_move_and_outdates_its_board(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path)
    fake = game.fake
    before = (await game.live()).state
    reply = await game.move(game.asha)
    button = take_back_button(fake, reply)
    assert button is not None, fake.buttons(reply)
    after_move = game.board()
    seen = copy.deepcopy(fake.message(after_move))
    narration = decode((await game.bot.store.log(game.id))[-1].narration).replace(
        "{p0}", "**asha**"
    )

    out = await fake.click(game.asha, reply, button)
    await fake.settle()

    answer = fake.current(reply)
    assert (answer.content or "").startswith(f"You took back your last move: {narration}")
    assert take_back_button(fake, answer) is None
    assert not [s for s in out if s.route == "dm.send"]
    live = await game.live()
    assert live.state == before and live.engine.to_move(live.state) == frozenset({0})
    board = game.board()
    assert board.message_id != after_move.message_id, "a new board: Asha acts again"
    assert f"**asha** took back their last move: {narration}" in (board.content or "")
    allowed = boards(fake)[-1].raw.get("allowed_mentions") or {}
    assert not allowed.get("users"), "the player at the keyboard is not pinged"
    assert board_picks(fake, board), "the new board offers Asha's moves"
    assert not board_picks(fake, fake.current(after_move)), "the old board lost its buttons"
    # Bhima's client may still show the board after Asha's move: out of date.
    out = await press_as_seen(fake, game.bhima, seen, seen_picks(seen)[0])
    refused(out, "out of date")
    assert (await game.live()).version == live.version


async def test_after_the_other_moved_they_agree_in_the_thread(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path)
    fake = game.fake
    before = (await game.live()).state
    await game.move(game.asha)
    reply = await game.move(game.bhima)
    assert take_back_button(fake, reply) is not None
    version = (await game.live()).version

    out = await fake.slash(game.asha, "game takeback")
    await fake.settle()
    said = [s for s in out if s.ephemeral]
    assert said and "**bhima** must agree: I asked in the game's thread" in texts(said)
    (request,) = [s for s in out if s.route == "channel.send"]
    assert request.channel_id != fake.channel_id, "in the game's thread"
    assert [int(u) for u in (request.raw.get("allowed_mentions") or {}).get("users", [])] == [
        game.bhima.id
    ]
    assert set(re.findall(r"<@!?(\d+)>", request.content or "")) == {str(game.bhima.id)}
    assert "**asha** asks to take back their move" in (request.content or "")
    assert "That undoes the 1 move made since, too." in (request.content or "")
    labels = [b["label"] for b in fake.buttons(request)]
    assert labels == ["Agree", "Decline"]
    agree = fake.find_button(request, label="Agree")["custom_id"]
    assert ANSWER_ID.match(agree) and agree.endswith(f":{version}:yes")
    assert (await game.live()).version == version, "asking changes nothing"

    # Only the other player answers.
    refused(await fake.click(game.chitra, request, agree), "Only the other players")
    refused(await fake.click(game.asha, request, agree), "the other players answer it")
    assert fake.buttons(fake.current(request)), "the request still stands"

    posts = len(boards(fake))
    await fake.click(game.bhima, request, agree)
    await fake.settle()
    answered = fake.current(request)
    assert (answered.content or "").startswith("Taken back with everyone's agreement: ")
    assert not fake.buttons(answered)
    live = await game.live()
    assert live.state == before and live.version == version + 1
    assert len(boards(fake)) == posts + 1
    board = game.board()
    assert "took back a move, with everyone's agreement" in (board.content or "")
    allowed = boards(fake)[-1].raw.get("allowed_mentions") or {}
    assert [int(u) for u in allowed.get("users") or []] == [game.asha.id], "her turn again"
    for sent in fake.sent:
        for row in sent.components:
            for item in row.get("components", []):
                if "custom_id" in item:
                    assert CUSTOM_ID.match(item["custom_id"]), item["custom_id"]


async def test_a_declined_or_outdated_request_changes_nothing(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path)
    fake = game.fake
    await game.move(game.asha)
    await game.move(game.bhima)
    version = (await game.live()).version
    out = await fake.slash(game.asha, "game takeback")
    (request,) = [s for s in out if s.route == "channel.send"]
    await fake.click(game.bhima, request, fake.find_button(request, label="Decline")["custom_id"])
    declined = fake.current(request)
    assert "**bhima** declined to take back **asha**'s move" in (declined.content or "")
    assert not fake.buttons(declined)
    assert (await game.live()).version == version

    out = await fake.slash(game.asha, "game takeback")
    (request,) = [s for s in out if s.route == "channel.send"]
    again = await fake.slash(game.asha, "game takeback")
    assert "You asked already: waiting for **bhima**" in texts(again)
    assert not [s for s in again if s.route == "channel.send"], "asked once"
    await game.move(game.asha)  # she plays on instead
    moved = (await game.live()).version
    await fake.click(game.bhima, request, fake.find_button(request, label="Agree")["custom_id"])
    stale = fake.current(request)
    assert "out of date" in (stale.content or "") and not fake.buttons(stale)
    assert (await game.live()).version == moved


async def test_refusals_and_the_settings_that_turn_takebacks_off(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path)
    fake = game.fake
    refused(await fake.slash(game.bhima, "game takeback"), "chance followed it")
    refused(
        await fake.slash(game.chitra, "game takeback", game=game.id), "You are not playing"
    )
    shown = await fake.slash(game.mod, "chaupal settings show")
    assert "`takeback`: on (default)" in texts(shown)

    out = await fake.slash(game.mod, "moderate settings takeback", value="off")
    assert "no game on this server takes a move back any more" in texts(out)
    assert "`takeback`: off" in texts(await fake.slash(game.mod, "chaupal settings show"))
    reply = await game.move(game.asha)
    assert take_back_button(fake, reply) is None
    refused(await fake.slash(game.asha, "game takeback"), "turned off on this server")
    await fake.slash(game.mod, "moderate settings takeback", value="on")
    reply = await game.move(game.bhima)
    assert take_back_button(fake, reply) is not None

    # A table that says no.
    other = await open_game(games, tmp_path, options="takeback=no")
    reply = await other.move(other.asha)
    assert take_back_button(other.fake, reply) is None
    refused(await other.fake.slash(other.asha, "game takeback"), "`takeback=no`")


async def test_the_dice_wait_under_take_back_then_come(games: list[Game], tmp_path: Path) -> None:
    """Chaturaji rolls the next dice after each turn: with the bot's grace,
    the move that ends a turn says when they come and offers **Take back**
    meanwhile, and no board goes out until they are rolled; taken back, the
    turn is the player's again; left alone, the timer rolls them once and
    one board tells the move and the roll."""
    game = await open_game(games, tmp_path, "chaturaji", throw_grace=True)
    fake, bot = game.fake, game.bot

    async def turn_end() -> tuple[FakeUser, Sent]:
        for _ in range(30):
            live = await game.live()
            (seat,) = live.engine.waiting_on(live.state)
            user = game.asha if live.user_of(seat) == game.asha.id else game.bhima
            posts = len(boards(fake))
            reply = await game.move(user)
            if "The next throw or draw comes" in (reply.content or ""):
                assert len(boards(fake)) == posts, "no board before the dice"
                return user, reply
        raise AssertionError("no turn ended")

    user, reply = await turn_end()
    assert f"<t:{int(game.clock() + THROW_GRACE)}:R>" in (reply.content or "")
    button = take_back_button(fake, reply)
    assert button is not None
    other = game.bhima if user is game.asha else game.asha
    refused(await fake.slash(other, "game play", action="pass"), "Wait a few seconds")
    await fake.click(user, reply, button)
    await fake.settle()
    assert (fake.current(reply).content or "").startswith("You took back your last move")
    assert "took back their last move" in (game.board().content or "")

    user, reply = await turn_end()
    posts = len(boards(fake))
    game.clock.now += THROW_GRACE
    await bot.scheduler.run_due()
    await bot.scheduler.wait_idle()
    await fake.settle()
    assert len(boards(fake)) == posts + 1, "the move and its dice on one board"
    live = await game.live()
    assert all(t.seat != -1 for t in await bot.service.timers.of_game(game.id))
    roll = (await bot.store.log(game.id))[-1]
    assert roll.actor == -1
    said = decode(roll.narration).replace("{p0}", "**asha**").replace("{p1}", "**bhima**")
    assert said in (game.board().content or "")
    refused(
        await fake.click(user, reply, take_back_button(fake, reply) or ""), "chance followed it"
    )
    assert (await game.live()).version == live.version
