"""A whole 3-player Sangram game through discord.py's real dispatch.

Covers simultaneous commits (R4) from a DM menu, the ``/game hand`` menu
and ``/game play``; a restart between commit and reveal; an Acharya retreat
(R5), a Vyapari exchange (R9) and a Grow reveal (R12); and, throughout, that
no channel message, log line, custom_id or refusal names a card that is
hidden in someone's hand (R14).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engines.core import CHANCE
from bot.engines.sangram import WARRIORS
from tests.bot.driver import (
    assert_no_secret_ids,
    boards,
    bot_of,
    make_bot,
    movers,
    open_lobby,
    start,
)
from tests.discord_harness import FakeDiscord, FakeUser, Sent

CARD = re.compile(r"\b([a-z]+)-(\d{1,2})\b", re.IGNORECASE)


def motivations(text: str) -> set[int]:
    """Motivation numbers of the cards a text names (``Acharya-53``); other
    words with a number (a ``pytest-0`` folder in a log line) are no cards."""
    return {int(n) for kind, n in CARD.findall(text) if kind.lower() in WARRIORS}


def public_cards(view: Any) -> set[int]:
    """Every card the public view shows (R14: volunteers, discards, reveals,
    Grow reveals, a Sarthi's draw, the final hands)."""
    cards = [*view.volunteers, *view.discard_top, *(r.card for r in view.revealed)]
    cards += [c for g in view.grow_reveals for c in g.cards]
    if view.drawn is not None:
        cards.append(view.drawn)
    if view.final is not None:
        cards += [c for hand in view.final.hands for c in hand]
    if view.choice is not None and view.choice.card is not None:
        cards.append(view.choice.card)
    return {c.motivation for c in cards}


class Table:
    """The test's eyes: what has been public so far, and each player's own cards."""

    def __init__(self, fake: FakeDiscord, game_id: int, users: list[FakeUser]) -> None:
        self.fake, self.game_id, self.users = fake, game_id, users
        self.seen_public: set[int] = set()
        self.held: dict[int, set[int]] = {u.id: set() for u in users}
        self.checked = 0

    async def look(self) -> None:
        """Update what is public, then check everything sent since the last look."""
        game = await bot_of(self.fake).service.get(self.game_id)
        engine = game.engine
        self.seen_public |= public_cards(engine.view(game.state, None))
        for seat, user in enumerate(self.users):
            me = engine.view(game.state, seat).me
            if me is not None:
                self.held[user.id] |= {c.motivation for c in me.hand}
        for sent in self.fake.sent[self.checked :]:
            text = " ".join([sent.content or "", *(str(e) for e in sent.embeds)])
            named = motivations(text)
            if sent.route.startswith("channel."):
                assert named <= self.seen_public, f"hidden card in the channel: {sent.content}"
            elif sent.user_id is not None or sent.ephemeral:
                owner = sent.user_id
                allowed = self.seen_public | self.held.get(owner or 0, set())
                if owner is None:  # an ephemeral reply: any of the players' own cards
                    allowed = self.seen_public | set().union(*self.held.values())
                assert named <= allowed, f"another player's card sent privately: {sent}"
        self.checked = len(self.fake.sent)


def pick_option(options: list[dict[str, Any]], prefer: tuple[str, ...]) -> dict[str, Any]:
    for word in prefer:
        for option in options:
            if word.lower() in option["label"].lower():
                return option
    useful = [o for o in options if not o["label"].startswith("Decline")]
    return (useful or options)[0]


async def choose_in(
    fake: FakeDiscord, user: FakeUser, message: int, prefer: tuple[str, ...]
) -> list[Sent]:
    """Select through a menu message until a move is played."""
    out: list[Sent] = []
    for _ in range(4):
        selects = fake.selects(message)
        if not selects:
            break
        option = pick_option(selects[0]["options"], prefer)
        out = await fake.select(user, message, selects[0]["custom_id"], [option["value"]])
        if any((s.content or "").startswith("Played:") for s in out):
            return out
    raise AssertionError(f"no move from menu {message}: {out}")


async def act(
    fake: FakeDiscord, user: FakeUser, way: str, prefer: tuple[str, ...], game_id: int
) -> str:
    """One decision by ``user``, made the way ``way`` says."""
    if way == "dm":
        menus = [s for s in fake.dms(user) if s.message_id and fake.selects(s.message_id)]
        if menus:
            await choose_in(fake, user, menus[-1].message_id or 0, prefer)
            return "dm"
        way = "hand"
    if way == "hand":
        out = await fake.slash(user, "game hand", game=game_id)
        menu = next(s for s in out if s.message_id and fake.selects(s.message_id))
        await choose_in(fake, user, menu.message_id or 0, prefer)
        return "hand"
    choices = await fake.autocomplete(user, "game play", focused="action")
    assert choices
    names = [{"label": c["name"], "value": c["value"]} for c in choices]
    value = pick_option(names, prefer)["value"]
    out = await fake.slash(user, "game play", action=value)
    assert any((s.content or "").startswith("Played:") for s in out), out
    return "command"


async def test_whole_sangram_game(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.DEBUG, logger="storage")
    db_path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(db_path, 31))
    users = [fake.user("asha"), fake.user("bhima"), fake.user("chitra")]
    by_id = {u.id: u for u in users}
    fake.block_dms(users[2])  # chitra plays entirely through ephemeral messages
    # R13: a round limit keeps a game of random choices short.
    game_id, lobby = await open_lobby(fake, "sangram", *users, options="round_limit=30")
    await start(fake, users[0], lobby)
    table = Table(fake, game_id, users)
    await table.look()
    # Players are prompted by DM with their hand and a menu (R4) ...
    for user in users[:2]:
        assert any(s.files and fake.selects(s.message_id or 0) for s in fake.dms(user))
    # ... and a player whose DMs are closed is told (without a secret) where to look.
    notice = [s for s in fake.channel_posts() if "can't DM you" in (s.content or "")]
    assert len(notice) == 1 and users[2].mention in (notice[0].content or "")

    ways = ("dm", "hand", "command")
    used: set[str] = set()
    restarted = False
    turn = 0
    while who := await movers(fake, game_id, by_id):
        game = await bot_of(fake).service.get(game_id)
        engine = game.engine
        view = engine.view(game.state, None)
        awaited = [by_id[game.user_of(s)] for s in engine.waiting_on(game.state) - {CHANCE}]
        user = (awaited or who)[0]
        if view.phase == "commit" and not restarted:
            committed = [p.committed for p in view.players]
            if any(committed) and not all(committed):
                # R4 across a restart: commitments survive, nothing is revealed early.
                reveals_before = sum("Reveal:" in (s.content or "") for s in fake.channel_posts())
                fake = await fake.restart(make_bot(db_path, 32))
                table.fake = fake
                again = await bot_of(fake).service.get(game_id)
                after = again.engine.view(again.state, None)
                assert [p.committed for p in after.players] == committed
                assert after.revealed == () or after.revealed_round != after.round
                assert (
                    sum("Reveal:" in (s.content or "") for s in fake.channel_posts())
                    == reveals_before
                )
                restarted = True
                continue
        prefer = (
            ("acharya", "vyapari", "retreat", "trade")
            if view.phase == "commit"
            else (
                "retreat",
                "trade",
                "give",
            )
        )
        used.add(await act(fake, user, ways[turn % 3], prefer, game_id))
        turn += 1
        await table.look()
        assert turn < 2000, "the game did not end"

    game = await bot_of(fake).service.get(game_id)
    assert game.record.status == "finished" and game.outcome is not None
    assert restarted and used == {"dm", "hand", "command"}
    log = [e.action for e in await bot_of(fake).store.log(game_id)]
    narration = " ".join(e.narration for e in await bot_of(fake).store.log(game_id))
    assert any(a.startswith("target") for a in log), "no targeted activity happened"
    assert "took a random card from" in narration, "no Vyapari exchange happened"
    assert "retreat" in narration.lower(), "no Acharya retreat happened"
    assert "shows their hand" in narration, "no Grow reveal happened"
    assert "is over" in (boards(fake)[-1].content or "")
    assert_no_secret_ids(fake)
    for record in caplog.records:
        assert motivations(record.getMessage()) <= table.seen_public, record.getMessage()
    await fake.close()
