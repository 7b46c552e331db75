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
from bot.engines.sangram_cards import WARRIORS
from storage.games import OutboxRow
from tests.bot.driver import (
    assert_no_secret_ids,
    board_picks,
    boards,
    bot_of,
    make_bot,
    movers,
    open_lobby,
    start,
)
from tests.bot.menu_player import new_game
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.engines.test_sangram import commit as sangram_commit
from tests.engines.test_sangram import table as sangram_table

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


# -- issue 31: what a recruit brings, and nothing of a round that never comes ---------------


async def _install(fake: FakeDiscord, game_id: int, state: Any) -> Sent:
    """Load ``state`` into the running game as a snapshot is loaded, and let
    delivery post its board (as after a crash between a move and its post)."""
    bot = bot_of(fake)
    game = await bot.service.get(game_id)
    snapshot = game.engine.to_json(state)
    await bot.store.append(game_id, expected_version=game.version, entries=[], now=0.0,
                           snapshot=snapshot)  # fmt: skip
    bot.service.forget(game_id)
    await bot.store.set_outbox(game_id, OutboxRow("board", game.version - 1))
    assert await bot.delivery.catch_up(game_id)
    await fake.settle()
    return fake.current(boards(fake)[-1])


async def _recruit_labels(fake: FakeDiscord, user: FakeUser, board: Sent) -> list[str]:
    """The Recruit choices a player is offered: the board's own, or those
    of the menu its **Choose…** opens."""
    labels = [label for _, _, label in board_picks(fake, board)]
    if labels == ["Choose…"]:
        out = await fake.click(user, board, board_picks(fake, board)[0][0])
        menu = next(s for s in out if s.message_id and fake.selects(s.message_id))
        selects = fake.selects(menu.message_id or 0)
        labels = [option["label"] for select in selects for option in select["options"]]
    return [label for label in labels if label.startswith("Recruit")]


async def test_a_recruit_says_the_britishers_the_supply_gives(tmp_path: Path) -> None:
    """R2 (issue 31): with one Britisher left, the Recruit button of a
    Senapati (3 printed) says it brings the supply's last, the channel says
    what it brought, and the next recruit says the supply is empty."""
    fake = await FakeDiscord.start(make_bot(tmp_path / "supply.sqlite3", 7))
    try:
        users = [fake.user("asha"), fake.user("bhima")]
        game_id, lobby = await open_lobby(fake, "sangram", *users)
        await start(fake, users[0], lobby)
        state = sangram_table(
            [["maharani-30", "vaidik-1"], ["maharani-29", "vaidik-2"]],
            volunteers=["senapati-40", "senapati-39", "senapati-38"],
            brit=[20, 19],
        )
        state = sangram_commit(state, {0: "maharani-30", 1: "maharani-29"})
        assert state.phase == "recruit" and state.supply == 1
        board = await _install(fake, game_id, state)
        labels = await _recruit_labels(fake, users[0], board)
        last = "Recruit Senapati-40 (strength 2, 1 Britisher: the supply's last)"
        assert last in labels, sorted(labels)
        await fake.slash(users[0], "game play", action="recruit senapati-40")
        said = fake.current(boards(fake)[-1]).content or ""
        assert "recruited Senapati-40 and 1 Britisher (the supply's last)." in said, said
        labels = await _recruit_labels(fake, users[1], fake.current(boards(fake)[-1]))
        empty = "Recruit Senapati-39 (strength 2, no Britishers: the supply is empty)"
        assert empty in labels, sorted(labels)
    finally:
        await fake.close()


async def test_the_game_over_post_says_nothing_of_a_next_round(tmp_path: Path) -> None:
    """R10, R13 (issue 31): the last round's Refill draws volunteers no round
    uses; the game-over post and the log's last entry (the review's last
    move) do not name them."""
    player = await new_game(tmp_path, "sangram", 2, 3, options="round_limit=2")
    fake = player.fake
    try:
        assert await player.play(400)
        final = fake.current(boards(fake)[-1]).content or ""
        assert "is over" in final and "volunteer" not in final.lower(), final
        log = await bot_of(fake).store.log(player.game_id)
        assert "volunteer" not in log[-1].narration.lower(), log[-1].narration
        assert "Game over." in log[-1].narration
    finally:
        await fake.close()
