"""Handing a seat to another person (issue 16), through discord.py's real
dispatch on a fake clock.

A moderator's ``/game replace game:<n> seat:<player> with:<member>`` posts an
offer in the game's thread that pings only the member asked, with **Take the
seat** and **Decline**.  Taking it hands the seat over: the game, the clock
and the timers carry on, the seat's hidden information goes by DM to the new
player only, the old player is told by DM, and the result is rated for
whoever holds the seat at the end.  Every refusal is ephemeral and changes
nothing.  ``/game kick`` tells the player removed by DM.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.timekeeping import HOUR, time_left
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, play_turn, resign, start
from tests.discord_harness import CommandUnavailable, FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

NAMES = ("asha", "bhima", "chitra", "dev")
OFFER_ID = re.compile(r"^chaupal:replace:\d+:\d+:\d+:\d+:(take|decline)$")


class Game:
    """One game on its own bot, database and fake clock, with a moderator and
    two members who are not playing (yet)."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path, self.seed, self.clock = path, seed, FakeClock()

    async def open(self, engine: str, players: int, options: str, *, started: bool = True) -> Game:
        self.fake = await FakeDiscord.start(make_bot(self.path, self.seed, self.clock))
        self.users = [self.fake.user(NAMES[i]) for i in range(players)]
        self.mod = self.fake.moderator("mod")
        self.chitra = self.fake.user("chitra") if players < 3 else self.fake.user("esha")
        self.dev = self.fake.user("dev") if players < 4 else self.fake.user("farid")
        self.id, self.lobby = await open_lobby(
            self.fake, engine, self.users[0], *self.users[1:], options=options
        )
        if started:
            await start(self.fake, self.users[0], self.lobby)
        return self

    @property
    def bot(self) -> Any:
        return bot_of(self.fake)

    async def live(self) -> Any:
        return await self.bot.service.get(self.id)

    async def restart(self) -> None:
        self.seed += 1
        self.fake = await self.fake.restart(make_bot(self.path, self.seed, self.clock))
        await self.fake.settle()
        await self.bot.scheduler.wait_idle()
        await self.fake.settle()

    def board(self) -> Sent:
        return self.fake.current(boards(self.fake)[-1])

    async def replace(
        self, old: FakeUser, new: FakeUser, by: FakeUser | None = None, game: int | None = None
    ) -> list[Sent]:
        # ``validate=False`` for a member who is not a moderator: Discord
        # hides /moderate from them, but a server may show it anyway.
        return await self.fake.slash(
            by or self.mod,
            "moderate game replace",
            game=self.id if game is None else game,
            option_values={"seat": old, "with": new},
            validate=by is None,
        )

    async def offer(self, old: FakeUser, new: FakeUser) -> Sent:
        """A moderator's offer, checked: one public message pinging only ``new``."""
        out = await self.replace(old, new)
        said = [s for s in out if s.ephemeral]
        assert said and f"Asked {new.name}" in texts(said), out
        posted = [s for s in out if s.route == "channel.send"]
        assert len(posted) == 1, out
        offer = posted[0]
        assert not offer.ephemeral and offer.channel_id != self.fake.channel_id  # the thread
        allowed = offer.raw.get("allowed_mentions") or {}
        assert not allowed.get("parse"), allowed
        assert [int(u) for u in allowed.get("users") or []] == [new.id]
        assert set(re.findall(r"<@!?(\d+)>", offer.content or "")) == {str(new.id)}
        labels = [b["label"] for b in self.fake.buttons(offer)]
        assert labels == ["Take the seat", "Decline"], labels
        for button in self.fake.buttons(offer):
            assert OFFER_ID.match(button["custom_id"]) and len(button["custom_id"]) <= 100
        return offer

    async def answer(self, user: FakeUser, offer: Sent, verb: str) -> list[Sent]:
        button = next(
            b
            for b in self.fake.buttons(self.fake.current(offer))
            if b["custom_id"].endswith(f":{verb}")
        )
        out = await self.fake.click(user, self.fake.current(offer), button["custom_id"])
        await self.fake.settle()
        return out


def texts(out: list[Sent]) -> str:
    return "\n".join(s.content or "" for s in out)


def refused(out: list[Sent], words: str) -> None:
    """An ephemeral refusal saying ``words``, and nothing public."""
    assert words in texts([s for s in out if s.ephemeral]), texts(out)
    assert not [s for s in out if s.route in ("channel.send", "dm.send")], out


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[list[Game]]:
    opened: list[Game] = []
    yield opened
    for game in opened:
        await game.fake.close()


async def open_game(
    games: list[Game],
    tmp_path: Path,
    engine: str,
    players: int,
    options: str,
    *,
    seed: int = 5,
    started: bool = True,
) -> Game:
    game = await Game(tmp_path / f"{engine}-{len(games)}.sqlite3", seed).open(
        engine, players, options, started=started
    )
    games.append(game)
    return game


# -- a game with hidden information ----------------------------------------------------


async def test_the_new_player_gets_the_seat_its_hand_and_its_clock(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "sangram", 2, "clock=1d reminder=off")
    fake, bot = game.fake, game.bot
    asha, bhima = game.users
    chitra = game.chitra
    game.clock.now += 3 * HOUR  # both clocks run in the opening commit
    live = await game.live()
    seat = live.seat_of(bhima.id)
    held = live.seats[seat]
    assert held.clock_since is not None
    rule = live.table.clock
    left = time_left(held, rule, game.clock.now)
    hand = bot.service.legal_texts(live, seat)
    assert hand and all(t.startswith("commit ") for t in hand)
    bhima_dms = len(fake.dms(bhima))
    asha_dms = len(fake.dms(asha))

    offer = await game.offer(bhima, chitra)
    assert (await game.live()).seats[seat].user_id == bhima.id  # nothing until accepted
    # Only the member asked may answer.
    for verb in ("take", "decline"):
        out = await game.answer(asha, offer, verb)
        assert "not for you" in texts([s for s in out if s.ephemeral]), out
    assert (await game.live()).seats[seat].user_id == bhima.id
    posts = len(fake.channel_posts())

    out = await game.answer(chitra, offer, "take")
    assert "You play" in texts([s for s in out if s.ephemeral]), out
    shown = fake.current(offer)
    assert "chitra took over **bhima**'s seat" in (shown.content or "")
    assert not fake.buttons(shown)

    live = await game.live()
    now = live.seats[seat]
    assert (now.user_id, now.display_name, now.controller) == (chitra.id, "chitra", "human")
    assert (now.clock_left, now.clock_since) == (held.clock_left, held.clock_since)
    assert time_left(now, rule, game.clock.now) == left
    assert live.seat_of(bhima.id) is None
    # The channel's lobby message names the seat's new player (one line a seat).
    seat_lines = (fake.current(game.lobby).content or "").splitlines()[1 : 1 + len(live.seats)]
    assert "2. chitra" in seat_lines[1] and "bhima" not in "\n".join(seat_lines), seat_lines
    actions = [e.action for e in await bot.store.log(game.id)]
    assert actions.count(f"@replaced:{bhima.id}") == 1  # who gave the seat up (bot/tenure.py)
    # The board says so, with the seat's player's name as it reads now.
    text = game.board().content or ""
    assert "handed over bhima's seat: it is now played by **chitra**" in text, text
    # The seat's hand went by DM to the new player only, with its menu.
    views = [d for d in fake.dms(chitra) if d.files]
    assert len(views) == 1, fake.dms(chitra)
    assert views[0].files[0][1] == await bot.delivery.private_png(live, seat)
    menu = fake.selects(views[0].message_id or 0)
    assert menu, views[0]
    labels = [o["label"] for s in menu for o in s["options"]]
    # The old player is told, without any view; the other player gets nothing.
    told = fake.dms(bhima)[bhima_dms:]
    assert len(told) == 1 and not told[0].files and not told[0].components, told
    assert "no longer yours" in (told[0].content or "")
    assert "rating" in (told[0].content or "")
    assert len(fake.dms(asha)) == asha_dms
    # No secret reached the channel: not the hand's cards, not the menu's words.
    public = [*fake.channel_posts()[posts - 1 :], shown, game.board()]
    secrets = {t.split()[1] for t in hand} | set(labels)
    for sent in public:
        words = (sent.content or "") + " ".join(b.get("label", "") for b in fake.buttons(sent))
        assert not any(secret in words for secret in secrets), (sent.content, secrets)

    # The old player can no longer move, by command or by the menu they had.
    out = await fake.slash(bhima, "game play", game=game.id, action=hand[0])
    assert "not playing in game" in texts(out), out
    old_menu = next(
        d for d in reversed(fake.dms(bhima)) if d.message_id and fake.selects(d.message_id)
    )
    select = fake.selects(old_menu.message_id or 0)[0]
    out = await fake.select(bhima, old_menu.message_id or 0, select["custom_id"], ["0"])
    assert "not playing in game" in texts(out), out
    assert (await game.live()).version == live.version
    # The new one can.
    out = await fake.slash(chitra, "game play", game=game.id, action=hand[0])
    assert any((s.content or "").startswith("Played:") for s in out), out
    await fake.settle()

    # Play on a while: the old player never hears from the game again.
    rng = random.Random(2)
    players = {asha.id: asha, chitra.id: chitra}
    for _ in range(12):
        if (await game.live()).is_over:
            break
        await play_turn(fake, game.id, players, rng, "command")
        await fake.settle()
    assert len(fake.dms(bhima)) == bhima_dms + 1
    assert len([d for d in fake.dms(chitra) if d.files]) > 1


async def test_a_seat_the_automatic_player_took_goes_back_to_a_person(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 3, "pieces=1 clock=1d reminder=off")
    fake, bot = game.fake, game.bot
    asha, bhima, chitra = game.users
    newcomer = game.dev
    out = await resign(fake, chitra)
    assert any("automatic player" in (s.content or "") for s in out), out
    live = await game.live()
    seat = live.seat_of(chitra.id)
    assert live.is_auto(seat) and live.seats[seat].left_order == 1
    chitra_dms = len(fake.dms(chitra))

    offer = await game.offer(chitra, newcomer)
    assert "**chitra**'s seat" in (offer.content or "")
    await game.answer(newcomer, offer, "take")
    live = await game.live()
    now = live.seats[seat]
    assert (now.user_id, now.controller, now.left_order, now.timeouts) == (
        newcomer.id,
        "human",
        None,
        0,
    )
    assert "instead of the automatic player" in (game.board().content or "")
    told = fake.dms(chitra)[chitra_dms:]
    assert len(told) == 1 and "no longer yours" in (told[0].content or ""), told

    # The automatic player no longer moves for the seat: the game waits for its
    # new player, who moves like anyone.
    rng = random.Random(4)
    players = {u.id: u for u in (asha, bhima, newcomer)}
    for _ in range(60):
        live = await game.live()
        if seat in live.engine.waiting_on(live.state):
            break
        await play_turn(fake, game.id, players, rng, "command")
        await fake.settle()
    live = await game.live()
    assert seat in live.engine.waiting_on(live.state) and not live.is_over
    version = live.version
    game.clock.now += HOUR
    await bot.scheduler.run_due()
    await fake.settle()
    assert (await game.live()).version == version  # nobody moved for them
    assert f"<@{newcomer.id}>" in (game.board().content or "")  # the board waits on them
    moved = await play_turn(fake, game.id, {newcomer.id: newcomer}, rng, "command")
    assert moved is newcomer
    assert (await game.live()).version > version


# -- the offer survives a restart; the seat is rated for its player at the end ------------


async def test_an_offer_taken_after_a_restart_and_rated_for_the_new_player(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1 reminder=off")
    asha, bhima = game.users
    chitra = game.chitra
    offer = await game.offer(bhima, chitra)
    await game.restart()
    out = await game.answer(chitra, offer, "take")
    assert "You play" in texts(out), out
    live = await game.live()
    seat = live.seat_of(chitra.id)
    assert seat is not None and live.seat_of(bhima.id) is None
    # A move first: a game ended before anyone moved is not rated (issue 31).
    players = {u.id: u for u in (asha, chitra)}
    assert await play_turn(game.fake, game.id, players, random.Random(1), "buttons")
    # The game ends with the new player in the seat: it is rated for them.
    out = await resign(game.fake, chitra, game=game.id)
    live = await game.live()
    assert live.is_over and live.outcome is not None
    assert live.outcome.ranking[-1] == frozenset({seat})
    ratings = game.bot.service.ratings
    rated = await ratings.ratings(game.fake.guild_id, "kauda_baji", [asha.id, bhima.id, chitra.id])
    assert set(rated) == {asha.id, chitra.id}


async def test_decline_changes_nothing(games: list[Game], tmp_path: Path) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    fake = game.fake
    asha, bhima = game.users
    chitra = game.chitra
    offer = await game.offer(bhima, chitra)
    version = (await game.live()).version
    bhima_dms = len(fake.dms(bhima))
    out = await game.answer(chitra, offer, "decline")
    shown = fake.current(offer)
    assert "chitra declined" in (shown.content or "") and not fake.buttons(shown), shown
    assert not [s for s in out if s.route == "dm.send"], out
    live = await game.live()
    assert live.version == version
    assert [s.user_id for s in live.seats] == [asha.id, bhima.id]
    assert len(fake.dms(bhima)) == bhima_dms
    assert not fake.dms(chitra)


# -- refusals -----------------------------------------------------------------------------


async def test_every_refusal_is_ephemeral_and_changes_nothing(
    games: list[Game], tmp_path: Path
) -> None:
    game = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    fake = game.fake
    asha, bhima = game.users
    chitra, dev = game.chitra, game.dev
    robot = fake.user("robot", bot=True)
    version = (await game.live()).version

    with pytest.raises(CommandUnavailable):
        await game.fake.slash(
            asha,
            "moderate game replace",
            game=game.id,
            option_values={"seat": bhima, "with": chitra},
        )
    refused(await game.replace(bhima, chitra, by=asha), "Only a moderator")
    refused(await game.replace(dev, chitra), "That player is not in game")
    refused(await game.replace(bhima, asha), "asha already plays in game")
    refused(await game.replace(bhima, bhima), "bhima already plays in game")
    refused(await game.replace(bhima, robot), "robot is a bot")
    live = await game.live()
    assert live.version == version and [s.user_id for s in live.seats] == [asha.id, bhima.id]

    # A stale offer: the seat changed hands since it was made.
    first = await game.offer(bhima, chitra)
    second = await game.offer(bhima, dev)
    await game.answer(chitra, first, "take")
    out = await game.answer(dev, second, "take")
    refused(out, "out of date: that seat has changed hands")
    live = await game.live()
    assert live.seat_of(chitra.id) == 1 and live.seat_of(dev.id) is None
    # A stale offer: the game ended since.
    third = await game.offer(chitra, dev)
    await resign(fake, asha, game=game.id)
    assert (await game.live()).is_over
    out = await game.answer(dev, third, "take")
    refused(out, "out of date: game #")
    assert (await game.live()).seat_of(dev.id) is None
    # A game that is over, and one that has not started.
    refused(await game.replace(chitra, dev), "is over")
    lobby = await open_lobby(fake, "kauda_baji", dev, robot)
    refused(await game.replace(dev, bhima, game=lobby[0]), "has not started")


async def test_a_tournament_seat_is_not_handed_over(games: list[Game], tmp_path: Path) -> None:
    game = Game(tmp_path / "cup.sqlite3", 9)
    game.fake = await FakeDiscord.start(make_bot(game.path, game.seed, game.clock))
    games.append(game)
    fake = game.fake
    mod = fake.moderator("referee")
    players = [fake.user(n) for n in ("asha", "bhima")]
    outsider = fake.user("chitra")
    out = await fake.slash(mod, "moderate tournament new", game="artaban", format="swiss", rounds=1)
    announcement = next(s for s in out if s.route == "interaction.response")
    for user in players:
        join = fake.find_button(announcement, label="Join")["custom_id"]
        await fake.click(user, announcement, join)
    await fake.slash(mod, "moderate tournament start")
    await fake.settle()
    record = next(iter(await bot_of(fake).store.live_games()))
    assert record.status == "active"
    out = await fake.slash(
        mod,
        "moderate game replace",
        game=record.id,
        option_values={"seat": players[0], "with": outsider},
    )
    refused(out, "/tournament drop")
    live = await bot_of(fake).service.get(record.id)
    assert live.seat_of(outsider.id) is None


# -- kicked players are told -------------------------------------------------------------


async def test_a_kicked_player_is_told_by_dm_in_two_and_four_player_games(
    games: list[Game], tmp_path: Path
) -> None:
    two = await open_game(games, tmp_path, "kauda_baji", 2, "pieces=1")
    gone = two.users[1]
    await two.fake.slash(two.mod, "moderate game kick", game=two.id, option_values={"user": gone})
    told = [d for d in two.fake.dms(gone) if "removed you" in (d.content or "")]
    assert len(told) == 1, two.fake.dms(gone)
    assert f"Kauda Baji #{two.id}" in (told[0].content or "")
    assert "ended the game, and you lost" in (told[0].content or "")
    assert (await two.live()).is_over

    four = await open_game(games, tmp_path, "kauda_baji", 4, "pieces=1")
    gone = four.users[2]
    await four.fake.slash(
        four.mod, "moderate game kick", game=four.id, option_values={"user": gone}
    )
    told = [d for d in four.fake.dms(gone) if "removed you" in (d.content or "")]
    assert len(told) == 1, four.fake.dms(gone)
    assert "the automatic player plays your seat from now on, ranked last" in (
        told[0].content or ""
    )
    live = await four.live()
    assert not live.is_over and live.is_auto(live.seat_of(gone.id))
    assert not any(d.files for d in four.fake.dms(gone)[-1:])

    # DMs closed: nothing else happens (no mention in the channel or thread).
    closed = four.users[3]
    four.fake.block_dms(closed)
    posts = len(four.fake.channel_posts())
    await four.fake.slash(
        four.mod, "moderate game kick", game=four.id, option_values={"user": closed}
    )
    assert (await four.live()).is_auto(live.seat_of(closed.id))
    for sent in four.fake.channel_posts()[posts:]:
        assert f"<@{closed.id}>" not in (sent.content or ""), sent.content
        users = (sent.raw.get("allowed_mentions") or {}).get("users") or []
        assert str(closed.id) not in [str(u) for u in users]
