"""Issue item 15: nobody has to reopen a menu the bot already sent them.

Whole games of every engine are played only from messages the bot already
sent each player (``tests/bot/menu_player.py``): a pick button on the newest
board when the decision is theirs alone and public, otherwise the newest DM
or reply that still shows a select.  A menu drawn before another player's
move must still work while its choice is legal, and every seat whose choices
changed must have been sent a fresh one.  "Choose…", "Show mine", ``/game
hand`` and ``/game play`` are never used, except by a player whose DMs are
closed (their decisions are counted apart).
"""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engines.core import CHANCE
from tests.bot.driver import bot_of
from tests.bot.menu_player import Decision, MenuPlayer, new_game, stats
from tests.engines.test_conformance import TWINS

MAX_DECISIONS = 600
"""Far above what the seeded games below need (Artaban, the longest: ~190)."""

GAMES = [
    pytest.param("sangram", 2, 1, "round_limit=8", id="sangram-2p"),
    pytest.param("sangram", 3, 2, "round_limit=8", id="sangram-3p"),
    pytest.param("sangram", 4, 3, "round_limit=8", id="sangram-4p"),
    pytest.param("sangram", 5, 4, "round_limit=8", id="sangram-5p"),
    pytest.param("mahabharata", 2, 1, None, id="mahabharata-2p"),
    pytest.param("mahabharata", 3, 2, None, id="mahabharata-3p"),
    pytest.param("mahabharata", 4, 3, None, id="mahabharata-4p"),
    pytest.param("artaban", 2, 1, None, id="artaban-seed1"),
    pytest.param("artaban", 2, 2, None, id="artaban-seed2"),
    pytest.param("artaban", 2, 10, None, id="artaban-seed10"),
    pytest.param("chaturaji", 4, 1, "quiet_rounds=10", id="chaturaji-4p"),
    pytest.param("chaturaji", 3, 2, "quiet_rounds=10", id="chaturaji-3p"),
    pytest.param("chaturaji", 2, 3, "quiet_rounds=10", id="chaturaji-2p"),
    pytest.param("kauda_baji", 4, 1, "pieces=1", id="kauda_baji-4p"),
    pytest.param("kauda_baji", 3, 2, "pieces=1", id="kauda_baji-3p"),
    pytest.param("kauda_baji", 2, 3, "pieces=2", id="kauda_baji-2p"),
]

TALLY: dict[str, list[int]] = collections.defaultdict(list)
"""Interactions per decision, by engine, over this module's games."""


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the module: interactions per decision (mean / p95 / max)."""
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is None or capture is None or not TALLY:
        return
    everything = [n for counts in TALLY.values() for n in counts]
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        for name, counts in [*sorted(TALLY.items()), ("all", everything)]:
            mean, p95, top = stats(counts)
            reporter.write_line(
                f"interactions per decision, {name}: {len(counts)} decisions, "
                f"mean {mean:.2f}, p95 {p95}, max {top}"
            )


def describe(player: MenuPlayer, decisions: list[Decision]) -> str:
    names = {u.id: u.name for u in player.users}
    return "\n".join(
        f"  v{d.version} {names[d.user_id]} (seat {d.seat}): {d.why} "
        f"[{d.interactions} interactions]"
        for d in decisions[:12]
    )


async def play_whole_game(
    tmp_path: Path,
    game: str,
    players: int,
    seed: int,
    options: str | None,
    blocked: tuple[int, ...],
) -> MenuPlayer:
    player = await new_game(tmp_path, game, players, seed, options=options, blocked=blocked)
    try:
        finished = await player.play(MAX_DECISIONS)
        live = await bot_of(player.fake).service.get(player.game_id)
        assert finished and live.is_over, f"no end after {len(player.decisions)} decisions"
        assert live.record.status == "finished"
    except BaseException:
        await player.fake.close()
        raise
    return player


@pytest.mark.parametrize(("game", "players", "seed", "options"), GAMES)
async def test_whole_game_from_menus_already_sent(
    tmp_path: Path, game: str, players: int, seed: int, options: str | None
) -> None:
    player = await play_whole_game(tmp_path, game, players, seed, options, ())
    try:
        decisions = player.counted()
        TALLY[game] += [d.interactions for d in decisions]
        reopened = player.reopened()
        assert not reopened, (
            f"{len(reopened)} of {len(decisions)} decisions needed a menu reopened:\n"
            + describe(player, reopened)
        )
        assert not player.refusals, f"menus already sent were refused: {player.refusals[:5]}"
        # Both ways of being asked were exercised: the board and, in a game
        # with secrets, private menus (a game of full information is played
        # from the board alone).
        sources = collections.Counter(d.source for d in decisions)
        assert sources["board"], sources
        if TWINS[game] is not None:
            assert sources["menu"], sources
    finally:
        await player.fake.close()


@pytest.mark.parametrize(
    ("game", "players", "seed", "options", "closed"),
    [
        pytest.param("sangram", 3, 5, "round_limit=8", 1, id="sangram-3p"),
        pytest.param("mahabharata", 3, 5, None, 2, id="mahabharata-3p"),
        pytest.param("artaban", 2, 5, None, 0, id="artaban"),
    ],
)
async def test_dms_closed_for_one_player(
    tmp_path: Path, game: str, players: int, seed: int, options: str | None, closed: int
) -> None:
    """The player whose DMs are closed uses "Show mine"; the others still
    never reopen a menu, and the channel says so once."""
    player = await play_whole_game(tmp_path, game, players, seed, options, (closed,))
    try:
        fake = player.fake
        (blocked_id,) = player.blocked
        theirs = [d for d in player.decisions if d.user_id == blocked_id]
        assert theirs, "the player whose DMs are closed never had to decide"
        assert not fake.dms(blocked_id)
        notices = [s for s in fake.channel_posts() if "can't DM you" in (s.content or "")]
        assert len(notices) == 1 and f"<@{blocked_id}>" in (notices[0].content or "")
        others = player.counted()
        TALLY[game] += [d.interactions for d in others]
        reopened = player.reopened()
        assert not reopened, (
            f"{len(reopened)} of {len(others)} decisions needed a menu reopened:\n"
            + describe(player, reopened)
        )
        assert not player.refusals, f"menus were refused: {player.refusals[:5]}"
    finally:
        await player.fake.close()


async def test_sangram_commit_menus_survive_other_commits(tmp_path: Path) -> None:
    """Item 15 as reported: each player's commit menu, sent when the phase
    opened, still works after every other player has committed."""
    player = await new_game(tmp_path, "sangram", 4, 7, options="round_limit=8")
    fake = player.fake
    try:
        service = bot_of(fake).service
        live = await service.get(player.game_id)
        opened = live.version
        assert live.engine.view(live.state, None).phase == "commit"
        menus = {}
        for user in player.users:
            dm = [s for s in fake.dms(user) if s.message_id and fake.selects(s.message_id)]
            assert len(dm) == 1, f"{user.name} got {len(dm)} commit menus"
            menus[user.id] = dm[0].message_id or 0
        rng = random.Random(7)
        waiting = list(player.users)
        while waiting:
            user = waiting.pop(0)
            message = menus[user.id]
            select = fake.selects(message)[0]
            assert select["custom_id"].startswith(f"chaupal:choose:{player.game_id}:{opened}:")
            value = rng.choice(select["options"])["value"]
            out = await fake.select(user, message, select["custom_id"], [value])
            texts = [s.content or "" for s in out if s.route == "interaction.response"]
            assert texts and texts[0].startswith("Played:"), (user.name, texts)
            # Those still to commit got no new menu: theirs had not changed.
            for other in waiting:
                sent = [s for s in fake.dms(other) if s.message_id and fake.selects(s.message_id)]
                assert [s.message_id for s in sent] == [menus[other.id]], other.name
        assert live.version > opened + 3
        assert live.engine.view(live.state, None).phase != "commit"
    finally:
        await fake.close()


async def test_artaban_setup_menu_survives_the_other_commit(tmp_path: Path) -> None:
    """Item 15: in Artaban's hidden set-up, the second player to commit uses
    the menu sent at the start, after the first one's commit."""
    player = await new_game(tmp_path, "artaban", 2, 8)
    fake = player.fake
    try:
        first, second = player.users
        menus = {}
        for user in player.users:
            dm = [s for s in fake.dms(user) if s.message_id and fake.selects(s.message_id)]
            assert dm, f"{user.name} got no set-up menu"
            menus[user.id] = dm[-1].message_id or 0
        # The first player commits a random set-up from their DM at once.
        select = fake.selects(menus[first.id])[0]
        random_setup = next(o for o in select["options"] if o["label"].startswith("Random"))
        out = await fake.select(
            first, menus[first.id], select["custom_id"], [random_setup["value"]]
        )
        assert any((s.content or "").startswith("Played:") for s in out), out
        live = await bot_of(fake).service.get(player.game_id)
        assert live.engine.view(live.state, None).players[0].committed
        # The second player's menu from the start still works, step by step.
        rng = random.Random(8)
        message = menus[second.id]
        for _ in range(12):
            if live.engine.view(live.state, None).phase != "setup":
                break
            selects = fake.selects(message)
            assert selects, fake.current(message).content
            options = [o for o in selects[0]["options"] if not o["label"].startswith("Start")]
            out = await fake.select(
                second, message, selects[0]["custom_id"], [rng.choice(options)["value"]]
            )
            texts = [s.content or "" for s in out if s.route == "interaction.response"]
            assert texts and not any(w in texts[0] for w in ("no longer", "out of date")), texts
        assert live.engine.view(live.state, None).phase == "play"
        assert CHANCE not in live.engine.to_move(live.state)
    finally:
        await fake.close()
