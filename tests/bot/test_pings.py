"""Issue item 8 (ping storm) and issue 30: who each message notifies.

A simultaneous phase announces each awaited player's decision once when it
opens, by the DM that carries their menu; the commits in between edit the
board in place and notify nobody, the last to commit included.  Over whole
games nobody is pinged again and again while the same wait goes on, and no
message can ping anyone but the seated players it names (never
``@everyone``, roles or a parsed-anything ``allowed_mentions``).

Pings are read the way Discord decides them: a new message in the channel
(not an edit, not ephemeral, not a DM) notifies the users mentioned in its
content that its ``allowed_mentions`` lets through.
"""

from __future__ import annotations

import collections
import itertools
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.bot.driver import bot_of
from tests.bot.menu_player import (
    MENTION,
    MenuPlayer,
    is_board_post,
    new_game,
    notified,
    notifies,
    pinged,
)
from tests.discord_harness import FakeDiscord, Sent

LAST_ONE = "waiting for you"
DM_NOTICE = "can't DM you"


@dataclass
class Step:
    """One decision (or the start of the game) and what it caused."""

    start: int
    end: int
    """``fake.sent[start:end]`` is what the step sent."""
    actor: int | None
    phase_before: str
    phase_after: str
    awaited_before: frozenset[int]
    awaited_after: frozenset[int]
    """User ids in ``waiting_on`` before and after."""


async def awaited_users(player: MenuPlayer) -> tuple[str, frozenset[int]]:
    live = await bot_of(player.fake).service.get(player.game_id)
    if live.is_over:
        return "over", frozenset()
    engine = live.engine
    phase = str(getattr(engine.view(live.state, None), "phase", ""))
    return phase, frozenset(live.user_of(s) for s in engine.waiting_on(live.state))


async def observe(player: MenuPlayer, max_decisions: int) -> list[Step]:
    """Play the game (see ``MenuPlayer``), recording each step."""
    phase, awaited = await awaited_users(player)
    steps = [Step(0, len(player.fake.sent), None, "", phase, frozenset(), awaited)]
    while len(player.decisions) < max_decisions:
        mark = len(player.fake.sent)
        if not await player.step():
            break
        after_phase, after = await awaited_users(player)
        actor = player.decisions[-1].user_id
        steps.append(Step(mark, len(player.fake.sent), actor, phase, after_phase, awaited, after))
        phase, awaited = after_phase, after
    return steps


def pings_in(fake: FakeDiscord, sents: list[Sent]) -> collections.Counter[int]:
    counts: collections.Counter[int] = collections.Counter()
    for sent in sents:
        counts.update(pinged(fake, sent))
    return counts


def notifications_in(fake: FakeDiscord, sents: list[Sent]) -> collections.Counter[int]:
    counts: collections.Counter[int] = collections.Counter()
    for sent in sents:
        counts.update(notified(fake, sent))
    return counts


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (4, 22)])
async def test_a_commit_phase_is_announced_once_each_by_its_dm_menu(
    tmp_path: Path, players: int, seed: int
) -> None:
    """Issue 30: a commit is decided in a DM menu, so that DM announces it.
    When the phase opens, each awaited player (but whoever just acted and
    has their menu in the reply) gets one notification, the DM with their
    menu, and the thread names them without pinging them.  Commits in
    between edit the board in place and notify nobody: the last to commit
    is not told again (before, they were pinged when the phase opened,
    DMed the menu, and pinged once more as the last one)."""
    player = await new_game(tmp_path, "sangram", players, seed, options="round_limit=3")
    fake = player.fake
    try:
        steps = await observe(player, 400)
        names = {u.id: u.name for u in player.users}
        phases = 0
        for i, opening in enumerate(steps):
            if opening.phase_after != "commit" or opening.phase_before == "commit":
                continue
            closing = next(
                (k for k in range(i + 1, len(steps)) if steps[k].phase_after != "commit"), None
            )
            if closing is None:
                break  # the game stopped inside this phase
            phases += 1
            where = f"commit phase #{phases} (step {i})"
            sent = fake.sent[opening.start : opening.end]
            posts = [s for s in sent if is_board_post(s)]
            assert len(posts) == 1, f"{where}: {len(posts)} boards posted when it opened"
            board = posts[0]
            expected = collections.Counter(opening.awaited_after - {opening.actor})
            if i == 0:
                assert set(expected) == {u.id for u in player.users}, where
            assert not pings_in(fake, sent), f"{where}: the thread pinged {pings_in(fake, sent)}"
            told = notifications_in(fake, sent)
            assert told == expected, f"{where}: notified {told}, expected {expected}"
            for step in steps[i + 1 : closing]:
                between = fake.sent[step.start : step.end]
                what = f"{where}, {names[step.actor or 0]} committing"
                assert not [s for s in between if is_board_post(s)], f"{what}: new board posted"
                assert any(
                    s.route == "channel.edit" and s.message_id == board.message_id and s.files
                    for s in between
                ), f"{what}: the board was not edited in place"
                assert not notifications_in(fake, between), (
                    f"{what}: notified {notifications_in(fake, between)}"
                )
            assert LAST_ONE not in " ".join(
                s.content or "" for s in fake.sent[opening.start : steps[closing].start]
            )
        assert phases >= 2, f"only {phases} commit phases were seen"
    finally:
        await fake.close()


def check_allowed_mentions(fake: FakeDiscord, seated: set[int]) -> None:
    """Every message: no wildcard parse, no user outside the game, and a new
    channel message lists only users its content mentions."""
    for sent in fake.sent:
        allowed = sent.raw.get("allowed_mentions")
        content = sent.content or ""
        if allowed is None:
            # Discord's default parses every mention in the content.
            assert not notifies(fake, sent) or (
                not MENTION.search(content)
                and "@everyone" not in content
                and "@here" not in content
            ), f"a new message without allowed_mentions: {sent}"
            continue
        parse = set(allowed.get("parse") or [])
        assert not parse & {"everyone", "roles", "users"}, f"{sent}: parse {parse}"
        assert not allowed.get("roles"), f"{sent}: roles {allowed.get('roles')}"
        users = {int(u) for u in allowed.get("users") or []}
        assert users <= seated, f"{sent}: lets {users - seated} be pinged, who are not playing"
        if notifies(fake, sent):
            named = {int(m) for m in MENTION.findall(content)}
            assert users <= named, f"{sent}: allows {users - named}, not named in it"
        assert pinged(fake, sent) <= seated, sent


@pytest.mark.parametrize(
    ("game", "players", "seed", "options", "closed"),
    [
        pytest.param("sangram", 4, 31, "round_limit=8", (), id="sangram-4p"),
        pytest.param("sangram", 3, 32, "round_limit=8", (2,), id="sangram-3p-dms-closed"),
        pytest.param("mahabharata", 3, 33, None, (), id="mahabharata-3p"),
        pytest.param("mahabharata", 4, 34, None, (1,), id="mahabharata-4p-dms-closed"),
        pytest.param("artaban", 2, 35, None, (), id="artaban"),
    ],
)
async def test_no_ping_storm_over_a_whole_game(
    tmp_path: Path,
    game: str,
    players: int,
    seed: int,
    options: str | None,
    closed: tuple[int, ...],
) -> None:
    """Between two of their own decisions a player is pinged at most twice,
    and twice only when the second says the game is waiting for them (a
    closed-DMs notice, sent once, is apart)."""
    player = await new_game(tmp_path, game, players, seed, options=options, blocked=closed)
    fake = player.fake
    try:
        finished = await player.play(600)
        assert finished, "the game did not end"
        seated = {u.id for u in player.users}
        names = {u.id: u.name for u in player.users}
        check_allowed_mentions(fake, seated)
        notices = [s for s in fake.channel_posts() if DM_NOTICE in (s.content or "")]
        assert sorted(p for s in notices for p in pinged(fake, s)) == sorted(player.blocked)
        for user in player.users:
            own = [d.sent_index for d in player.decisions if d.user_id == user.id]
            bounds = [0, *own, len(fake.sent)]
            for start, end in itertools.pairwise(bounds):
                pings = [
                    s
                    for s in fake.sent[start:end]
                    if user.id in pinged(fake, s) and DM_NOTICE not in (s.content or "")
                ]
                texts = [(s.content or "")[:90] for s in pings]
                assert len(pings) <= 2, f"{names[user.id]} pinged {len(pings)} times: {texts}"
                if len(pings) == 2:
                    assert LAST_ONE in (pings[1].content or ""), (
                        f"{names[user.id]} pinged twice while waited on: {texts}"
                    )
    finally:
        await fake.close()
