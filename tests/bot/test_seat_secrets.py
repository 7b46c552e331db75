"""A seat's secrets are its holder's (issue 29, item 1), through
discord.py's real dispatch.

The defect: in a Sangram game of three, a player resigned before any move,
the automatic player took her seat and committed a card face down, and her
``/game export`` still said ``p2 commit vaidik-4`` (and, later, every card
drawn into that hand).  ``/game hand``, **Show mine**, ``/game play``'s
suggestions, DMs, menus and ``/game review`` read the seat the same way: by
whose name the seat was stored under, not by who held it.

The rule (``bot/tenure.py``): a player who left a seat reads what it hid up
to her leaving and is a spectator from then on; a member who took a seat
over reads what it holds from then on, never what it held before.

**Twin games.**  Two bots draw the same chance, and the same players do
the same things, until Chitra (seat 2) leaves before any move (she
resigns, is kicked, or runs out of time); from then on each bot draws its
own chance, so the automatic player commits another card for her seat in
each.  Asha then commits, and Bhima's decision is still open: the twins
are identical in public, and differ in what seat 2 hides.  Whatever
Chitra can obtain after her leaving, through every surface, must be the
same in both, and must never name her seat's private lines from after it.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from bot.edge.client import ChaupalBot
from bot.engines import get_engine
from bot.engines.core import CHANCE
from bot.rendering import render_png
from bot.replay import GameRecord, frames, load_record, state_at
from bot.timekeeping import HOUR
from storage.games import LogEntry
from tests.bot.driver import boards, bot_of, make_bot, open_lobby, play_turn, resign, start
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

NAMES = ("asha", "bhima", "chitra")
LEAVER = 2
"""Chitra's seat: she leaves it before any move."""
SHARED_CHANCE = 11
"""The seed of the chance both twins draw until Chitra leaves."""
OWN_CHANCE = (1, 2)
"""Each twin's own chance from then on: its automatic player commits
another card for seat 2 (checked)."""
SNOWFLAKE = re.compile(r"\d{15,}")


class Draws:
    """The service's ``draw`` (chance, and the automatic players' seeds):
    the shared sequence until :meth:`part`, then a twin's own."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def part(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


@dataclass
class Twin:
    """One of the two games, on its own bot, database and fake clock."""

    fake: FakeDiscord
    clock: FakeClock
    game_id: int
    users: list[FakeUser]
    mod: FakeUser
    left_at: int
    """The version Chitra's ``@left`` made."""
    mark: int
    """How much the bot had sent just before Chitra left."""

    @property
    def bot(self) -> ChaupalBot:
        return bot_of(self.fake)

    @property
    def leaver(self) -> FakeUser:
        return self.users[LEAVER]

    async def live(self) -> Any:
        return await self.bot.service.get(self.game_id)

    def board(self) -> Sent:
        return self.fake.current(boards(self.fake)[-1])

    async def end(self) -> None:
        """A moderator ends the game before Bhima commits (his commit would
        reveal seat 2's card to everyone)."""
        await resign(self.fake, self.mod, self.game_id, command="moderate game end")
        await self.fake.settle()
        assert (await self.live()).is_over

    def to_leaver(self, since: int) -> list[Sent]:
        """Everything the bot sent Chitra since ``since``: replies,
        suggestions and DMs."""
        return [s for s in self.fake.sent[since:] if s.user_id == self.leaver.id]


Leaving = Literal["resign", "kick", "time"]
"""How Chitra leaves: she resigns, a moderator kicks her, or her clock runs
out under ``timeout=forfeit`` (the keeper delivers that, with no actor)."""


async def open_twin(path: Path, own_chance: int, leaving: Leaving) -> Twin:
    clock = FakeClock()
    draws = Draws(SHARED_CHANCE)
    fake = await FakeDiscord.start(make_bot(path, 0, clock, draw=draws))
    users = [fake.user(name) for name in NAMES]
    asha, bhima, chitra = users
    mod = fake.moderator("mod")
    service = bot_of(fake).service
    # Chitra asks to be told of her turn by DM: a turn DM for the seat she
    # left would show.
    await fake.slash(chitra, "chaupal me", turn="dm")
    game_id, lobby = await open_lobby(
        fake, "sangram", *users, options="clock=1d timeout=forfeit reminder=12h"
    )
    await start(fake, asha, lobby)
    await fake.settle()
    # Asha and Bhima go away, so that their clocks stand still while
    # Chitra's runs out (the way of leaving "time").
    for user in (asha, bhima):
        await fake.slash(user, "game away", days=3)
    await fake.settle()
    draws.part(own_chance)
    mark = len(fake.sent)
    if leaving == "resign":
        out = await resign(fake, chitra, game_id)
        assert any("You left game" in (s.content or "") for s in out), out
    elif leaving == "kick":
        await fake.slash(mod, "moderate game kick", game=game_id, option_values={"user": chitra})
    else:
        clock.now += 24 * HOUR + 60
        await bot_of(fake).scheduler.run_due()
    await fake.settle()
    # Asha is back and commits; Bhima's decision stays open (his commit
    # would reveal every card).
    await fake.slash(asha, "game back")
    live = await service.get(game_id)
    first = sorted(service.legal_texts(live, 0))[0]
    out = await fake.slash(asha, "game play", game=game_id, action=first)
    assert any((s.content or "").startswith("Played:") for s in out), out
    await fake.settle()
    entries = await bot_of(fake).store.log(game_id)
    left_at = next(e.seq for e in entries if e.action == "@left")
    return Twin(fake, clock, game_id, users, mod, left_at, mark)


@pytest.fixture
async def twins(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Twin, Twin]]:
    leaving: Leaving = request.param
    one = await open_twin(tmp_path / "one.sqlite3", OWN_CHANCE[0], leaving)
    try:
        two = await open_twin(tmp_path / "two.sqlite3", OWN_CHANCE[1], leaving)
        try:
            await same_in_public_only(one, two)
            yield one, two
        finally:
            await two.fake.close()
    finally:
        await one.fake.close()


async def same_in_public_only(one: Twin, two: Twin) -> None:
    """The twins are what the test needs: the same in public and in every
    seat Chitra may read, different in what seat 2 hides since she left."""
    a, b = await one.live(), await two.live()
    engine = a.engine
    assert a.version == b.version and one.left_at == two.left_at
    assert engine.view(a.state, None) == engine.view(b.state, None)
    assert engine.waiting_on(a.state) == engine.waiting_on(b.state) == frozenset({1})
    for seat in (0, 1):
        assert engine.view(a.state, seat) == engine.view(b.state, seat)
    assert engine.view(a.state, LEAVER) != engine.view(b.state, LEAVER), "the twins hide the same"
    log_a = await one.bot.store.log(one.game_id)
    log_b = await two.bot.store.log(two.game_id)
    assert [e.narration for e in log_a] == [e.narration for e in log_b]
    assert log_a[: one.left_at] == log_b[: one.left_at]  # the same until she left
    commits = {e.action for e in (*log_a, *log_b) if e.actor == LEAVER and e.seq > one.left_at}
    assert len(commits) == 2, commits  # a different card committed face down in each


def canonical(fake: FakeDiscord, sent: list[Sent]) -> list[tuple[Any, ...]]:
    """What a member sees of messages, without the ids that differ between
    two bots (message, channel and user ids are snowflakes): the text, each
    file's bytes (by digest), each component's label, options and custom_id."""

    def masked(text: str | None) -> str:
        return SNOWFLAKE.sub("#", text or "")

    out: list[tuple[Any, ...]] = []
    for s in sent:
        components = [
            (
                c.get("type"),
                masked(c.get("custom_id")),
                c.get("label"),
                tuple(o.get("label") for o in c.get("options") or []),
            )
            for row in s.components
            for c in row.get("components", [])
        ]
        files = [
            (name, hashlib.sha256(data).hexdigest(), s.descriptions.get(name))
            for name, data in s.files
        ]
        choices = [(c.get("name"), c.get("value")) for c in s.choices or []]
        out.append((s.route, s.ephemeral, masked(s.content), files, components, choices))
    return out


# -- what Chitra does on each surface, once she has left ---------------------------------------


async def export(twin: Twin) -> None:
    await twin.fake.slash(twin.leaver, "game export", game=twin.game_id)


async def hand(twin: Twin) -> None:
    await twin.fake.slash(twin.leaver, "game hand", game=twin.game_id)


async def show_mine(twin: Twin) -> None:
    await twin.fake.click(twin.leaver, twin.board(), f"chaupal:mine:{twin.game_id}")


async def autocomplete(twin: Twin) -> None:
    for typed in ("", "commit"):
        await twin.fake.autocomplete(
            twin.leaver, "game play", focused="action", action=typed, game=twin.game_id
        )


async def dms(twin: Twin) -> None:
    """Her private views and turn DMs, and reminders: Bhima is back, half a
    day passes (he is reminded), then the game ends."""
    bhima = twin.users[1]
    await twin.fake.slash(bhima, "game back")
    twin.clock.now += 13 * HOUR
    await twin.bot.scheduler.run_due()
    await twin.fake.settle()
    assert any("Reminder:" in (d.content or "") for d in twin.fake.dms(bhima))
    await twin.end()


async def menus(twin: Twin) -> None:
    """The menu she was sent before she left, the board's **Choose…**, and
    a board button and a menu of an older Chaupal (answered with the
    current choices)."""
    fake, leaver, game_id = twin.fake, twin.leaver, twin.game_id
    old = next(d for d in reversed(fake.dms(leaver)) if d.message_id and fake.selects(d.message_id))
    select = fake.selects(old.message_id or 0)[0]
    await fake.select(leaver, old.message_id or 0, select["custom_id"], ["0"])
    await fake.click(
        leaver, twin.board(), fake.find_button(twin.board(), label="Choose…")["custom_id"]
    )
    version = (await twin.live()).version
    raw = fake.world.messages[twin.board().message_id or 0]
    older: list[tuple[dict[str, Any], dict[str, Any]]] = [
        (
            {
                "type": 2,
                "style": 1,
                "label": "c",
                "custom_id": f"chaupal:pick:{game_id}:{version}:0",
            },
            {},
        ),
        (
            {
                "type": 3,
                "custom_id": f"chaupal:menu:{game_id}:{version}::0",
                "options": [{"label": "c", "value": "0"}],
                "min_values": 1,
                "max_values": 1,
            },
            {"values": ["0"]},
        ),
    ]
    for component, picked in older:
        message = {**raw, "components": [{"type": 1, "components": [component]}]}
        data = {"custom_id": component["custom_id"], "component_type": component["type"], **picked}
        await fake._component_interaction(
            leaver, message, data, expect_error=False, expect_ack=True
        )


async def review(twin: Twin) -> None:
    """After the end: every frame, from the first."""
    await twin.end()
    fake, leaver = twin.fake, twin.leaver
    message = next(
        s
        for s in await fake.slash(leaver, "game review", game=twin.game_id)
        if s.message_id and s.files
    )

    def button(label: str) -> dict[str, Any]:
        return fake.find_button(fake.current(message), label=label)

    await fake.click(leaver, message, button("⏮")["custom_id"])
    while not button("▶").get("disabled"):
        await fake.click(leaver, message, button("▶")["custom_id"])


async def follow(twin: Twin) -> None:
    """She follows the game like anyone (every move), and it ends."""
    out = await twin.fake.slash(twin.leaver, "game follow", game=twin.game_id, every_move=True)
    said = " ".join(s.content or "" for s in out)
    assert "You follow" in said, said
    await twin.end()


SURFACES: dict[str, Callable[[Twin], Awaitable[None]]] = {
    "export": export,
    "hand": hand,
    "show mine": show_mine,
    "autocomplete": autocomplete,
    "dms": dms,
    "menus": menus,
    "review": review,
    "follow": follow,
}


# Each surface with one way of leaving, so that every way is tried; DMs with
# the clock's forfeit, which the keeper delivers without an actor (after a
# resignation or a kick the leaving seat is the actor, whose new view was
# never DMed: the player who acted gets their menu in their reply).
CASES: list[tuple[str, Leaving]] = [
    ("export", "resign"),
    ("hand", "kick"),
    ("show mine", "time"),
    ("autocomplete", "resign"),
    ("dms", "time"),
    ("menus", "kick"),
    ("review", "time"),
    ("follow", "resign"),
]


@pytest.mark.parametrize(
    ("surface", "twins"), CASES, indirect=["twins"], ids=[f"{s}-{how}" for s, how in CASES]
)
async def test_a_player_who_left_obtains_the_same_from_twins_differing_in_her_seat(
    twins: tuple[Twin, Twin], surface: str
) -> None:
    seen = []
    for twin in twins:
        # DMs: everything since she left (the automatic player's first
        # commit for her seat was delivered then); else what this surface
        # answered.
        since = twin.mark if surface == "dms" else len(twin.fake.sent)
        await SURFACES[surface](twin)
        await twin.fake.settle()
        got = twin.to_leaver(since)
        await no_later_secret(twin, got)
        seen.append((canonical(twin.fake, got), got))
    (one, got), (two, _) = seen
    assert one == two
    assert got, "the surface answered nothing"
    if surface == "export":
        await export_keeps_her_lines_until_she_left(twins[0], got)
    if surface in ("hand", "show mine", "autocomplete", "menus"):
        # Nothing of the seat: no picture, no choice.
        assert not any(s.files for s in got), got
        assert not [c for s in got for c in s.choices or []], got
        assert not [s for s in got if s.message_id and twins[0].fake.selects(s.message_id)], got
    if surface == "review":
        await review_shows_her_seat_until_she_left(twins[0])
    if surface in ("dms", "follow"):
        dmed = [s for s in got if s.route.startswith("dm.")]
        assert all(not s.components for s in dmed), dmed
        if surface == "dms":
            # The news that her time ran out, and nothing else: no view, no
            # turn DM, no reminder.
            assert len(dmed) == 1 and not dmed[0].files, dmed
            assert "Your time ran out" in (dmed[0].content or "")
        else:
            names = [name for s in dmed for name, _ in s.files]
            assert names and all(n.endswith("-replay.gif") or n.endswith(".png") for n in names)
            assert not any("private" in n for n in names), names


async def no_later_secret(twin: Twin, sent: list[Sent]) -> None:
    """No text sent to Chitra names a private line of her seat's from after
    she left (the card committed for it, say)."""
    entries = await twin.bot.store.log(twin.game_id)
    later = {e.action for e in entries if e.seq > twin.left_at and e.private_to == LEAVER}
    assert later, "her seat had no secret after she left: the test proves nothing"
    for s in sent:
        for text in later:
            assert text not in (s.content or ""), (s, text)
            for _, data in s.files:
                assert text.encode() not in data, (s, text)
            for description in s.descriptions.values():
                assert text not in (description or ""), (s, text)


def line_of(entry: LogEntry) -> str:
    """A log entry as a game record writes it."""
    return f"{'chance' if entry.actor == CHANCE else f'p{entry.actor}'} {entry.action}"


def stood_since(record: GameRecord, version: int) -> int:
    """The first version at which the position after ``version`` lines
    stood: table events change nothing, and a frame folds them in."""
    while version > 0 and record.actions[version - 1].table_event:
        version -= 1
    return version


async def export_keeps_her_lines_until_she_left(twin: Twin, got: list[Sent]) -> None:
    """Her own seat's lines from before she left are hers to keep."""
    [(_, data)] = [f for s in got for f in s.files]
    record = GameRecord.parse(data.decode("utf-8"))
    lines = data.decode("utf-8").splitlines()
    mine = [e for e in await twin.bot.store.log(twin.game_id) if e.private_to == LEAVER]
    assert [line_of(e) in lines for e in mine] == [e.seq < twin.left_at for e in mine]
    assert record.reader == LEAVER


async def review_shows_her_seat_until_she_left(twin: Twin) -> None:
    """Each frame the review drew for her: her seat's view with it exactly
    when the position shown stood before she left."""
    record = await load_record(twin.bot.store, twin.game_id)
    shown = frames(record)
    reviews = [
        s
        for s in twin.fake.sent[twin.mark :]
        if s.user_id == twin.leaver.id and s.files and any("review" in n for n, _ in s.files)
    ]
    assert len(reviews) >= len(shown)
    names = list(record.names)
    own = {
        f.version: render_png("sangram", "private", seat_view(record, f.version, LEAVER), names)
        for f in shown
    }
    privates = [data for s in reviews for name, data in s.files if name.endswith("-yours.png")]
    before = [f for f in shown if stood_since(record, f.version) < twin.left_at]
    assert before and len(before) < len(shown)
    assert set(privates) == {own[f.version] for f in before}


def seat_view(record: GameRecord, version: int, seat: int) -> Any:
    """A seat's own view of the position after ``version`` lines."""
    return get_engine(record.engine).view(state_at(record, version), seat)


# -- a seat handed to another member, and a player who stays ----------------------------------


@pytest.fixture
async def handed_over(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """A Sangram game of three where a moderator hands Bhima's seat (1) to
    Dev after a few moves, and the game goes on a while."""
    clock = FakeClock()
    fake = await FakeDiscord.start(make_bot(tmp_path / "handed.sqlite3", 8, clock))
    try:
        asha, bhima, chitra, dev = (fake.user(n) for n in ("asha", "bhima", "chitra", "dev"))
        mod = fake.moderator("mod")
        game_id, lobby = await open_lobby(fake, "sangram", asha, bhima, chitra)
        await start(fake, asha, lobby)
        rng = random.Random(3)
        players = {u.id: u for u in (asha, bhima, chitra)}
        for _ in range(8):
            await play_turn(fake, game_id, players, rng, "hand")
            await fake.settle()
        out = await fake.slash(
            mod,
            "moderate game replace",
            game=game_id,
            option_values={"seat": bhima, "with": dev},
        )
        offer = next(s for s in out if s.route == "channel.send")
        take = next(
            b for b in fake.buttons(fake.current(offer)) if b["custom_id"].endswith(":take")
        )
        await fake.click(dev, fake.current(offer), take["custom_id"])
        await fake.settle()
        service = bot_of(fake).service
        assert (await service.get(game_id)).seat_of(dev.id) == 1
        mark = len(fake.sent)
        players = {u.id: u for u in (asha, dev, chitra)}
        for _ in range(16):
            if (await service.get(game_id)).is_over:
                break
            await play_turn(fake, game_id, players, rng, "hand")
            await fake.settle()
        yield {
            "fake": fake,
            "id": game_id,
            "asha": asha,
            "bhima": bhima,
            "dev": dev,
            "mod": mod,
            "mark": mark,
        }
    finally:
        await fake.close()


async def test_a_seat_handed_over_is_read_by_its_old_player_until_then_and_the_new_one_after(
    handed_over: dict[str, Any],
) -> None:
    fake, game_id = handed_over["fake"], handed_over["id"]
    bhima, dev = handed_over["bhima"], handed_over["dev"]
    bot = bot_of(fake)
    entries = await bot.store.log(game_id)
    [handed] = [e for e in entries if e.action.startswith("@replaced")]
    assert handed.action == f"@replaced:{bhima.id}" and handed.actor == 1
    seat_lines = [e for e in entries if e.private_to == 1]
    assert any(e.seq < handed.seq for e in seat_lines)
    assert any(e.seq > handed.seq for e in seat_lines), "the seat hid nothing after the hand-over"

    # Now: the seat's view and choices are Dev's, not Bhima's.
    out = await fake.slash(bhima, "game hand", game=game_id)
    assert not any(s.files for s in out) and "not playing" in " ".join(s.content or "" for s in out)
    out = await fake.slash(dev, "game hand", game=game_id)
    assert any(s.files and s.ephemeral for s in out), out
    assert not [d for d in fake.dms(bhima)[handed_over["mark"] :] if d.files]
    assert [d for d in fake.dms(dev) if d.files]

    if not (await bot.service.get(game_id)).is_over:
        await resign(fake, handed_over["mod"], game_id, command="moderate game end")
        await fake.settle()

    # The export: Bhima's lines of the seat until the hand-over, Dev's after it.
    before = {line_of(e) for e in seat_lines if e.seq < handed.seq}
    after = {line_of(e) for e in seat_lines if e.seq > handed.seq}
    for user, kept, hidden in ((bhima, before, after), (dev, after, before)):
        out = await fake.slash(user, "game export", game=game_id)
        [(_, data)] = [f for s in out for f in s.files]
        lines = set(data.decode("utf-8").splitlines())
        # (A card drawn or committed again reads the same: not told apart.)
        assert kept - hidden <= lines, user.name
        assert not (hidden - kept) & lines, user.name

    # The review: the seat's view of each position, to whoever held the
    # seat while it stood (the position the seat was handed over in: both).
    record = await load_record(bot.store, game_id)
    shown = frames(record)
    names = list(record.names)
    for user, held in (
        (bhima, lambda f: stood_since(record, f.version) < handed.seq),
        (dev, lambda f: f.version >= handed.seq),
    ):
        drawn = await review_privates(fake, user, game_id, len(shown))
        for frame, private in zip(shown, drawn, strict=True):
            view = seat_view(record, frame.version, 1)
            if view.me is None:
                continue
            if held(frame):
                assert private == render_png("sangram", "private", view, names), (user.name, frame)
            else:
                assert private is None, (user.name, frame)


async def review_privates(
    fake: FakeDiscord, user: FakeUser, game_id: int, count: int
) -> list[bytes | None]:
    """The private image each frame of ``user``'s review shows, first to last."""
    message = next(
        s for s in await fake.slash(user, "game review", game=game_id) if s.message_id and s.files
    )

    def button(label: str) -> dict[str, Any]:
        return fake.find_button(fake.current(message), label=label)

    await fake.click(user, message, button("⏮")["custom_id"])
    out: list[bytes | None] = []
    for index in range(count):
        files = dict(fake.current(message).files)
        out.append(next((d for n, d in files.items() if n.endswith("-yours.png")), None))
        if index < count - 1:
            await fake.click(user, message, button("▶")["custom_id"])
    return out


async def test_a_player_who_stays_reads_her_own_seat_everywhere(tmp_path: Path) -> None:
    """No regression: Asha never left, so every surface shows her seat."""
    twin = await open_twin(tmp_path / "stays.sqlite3", OWN_CHANCE[0], "resign")
    fake, game_id, asha = twin.fake, twin.game_id, twin.users[0]
    try:
        bot = twin.bot
        live = await twin.live()
        mine = await bot.delivery.private_png(live, 0)
        assert [d for d in fake.dms(asha) if d.files], "her view was never DMed"
        for out in (
            await fake.slash(asha, "game hand", game=game_id),
            await fake.click(asha, twin.board(), f"chaupal:mine:{game_id}"),
        ):
            [answer] = [s for s in out if s.files]
            assert answer.ephemeral and answer.files[0][1] == mine
            assert fake.selects(answer.message_id or 0)  # she may still change her card
        choices = await fake.autocomplete(
            asha, "game play", focused="action", action="", game=game_id
        )
        assert sorted(c["value"] for c in choices) == sorted(bot.service.legal_texts(live, 0))

        await twin.end()
        out = await fake.slash(asha, "game export", game=game_id)
        [(_, data)] = [f for s in out for f in s.files]
        lines = data.decode("utf-8").splitlines()
        ours = [e for e in await bot.store.log(game_id) if e.private_to == 0]
        assert ours and all(line_of(e) in lines for e in ours)

        record = await load_record(bot.store, game_id)
        shown = frames(record)
        drawn = await review_privates(fake, asha, game_id, len(shown))
        names = list(record.names)
        for frame, private in zip(shown, drawn, strict=True):
            view = seat_view(record, frame.version, 0)
            assert private == (
                None if view.me is None else render_png("sangram", "private", view, names)
            )
    finally:
        await fake.close()
