"""Playing any registered game through Discord, for the bot tests.

Everything here goes through discord.py's real dispatch (``FakeDiscord``):
slash commands, autocomplete, board buttons and the menus they open.  The
bot's own service is read only to know who must act (what a player would see
on the board).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import pytest

from bot.config import Settings
from bot.edge.client import ChaupalBot
from bot.engines.core import CHANCE
from storage.games import OutboxRow
from tests.discord_harness import FakeDiscord, FakeUser, Sent

Style = Literal["buttons", "command", "hand"]

CUSTOM_ID = re.compile(
    r"^chaupal:(lobby:\d+:(join|leave|start)|move:\d+:\d+:[\d.]*|choose:\d+:\d+:[\d.]*:\d+|board:\d+:\d+:\d+|mine:\d+|tournament:\d+:(join|leave)|replace:\d+:\d+:\d+:\d+:(take|decline)|tournaments:join|help:[a-z_]+:(rules|full|new|options(:\d+)?)|resign:\d+:\d+:\d+:(yes|no)|takeback:\d+:\d+|takeback-answer:\d+:\d+:(yes|no)|rematch:\d+|next|history:\d+:\d+:[a-z_]+:\d+:\d+:(first|prev|next|last)|history:\d+|replay:\d+|review:\d+:\d+:\d+:(first|prev|next|last)|review-move:\d+:\d+:\d+(:\d)?|follow:\d+|follows:\d+)$"
)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NAMES = ("asha", "bhima", "chitra", "dev")
"""The players a :class:`Tables` game seats, in join order."""


def make_bot(
    path: Path | str,
    seed: int,
    clock: Callable[[], float] | None = None,
    *,
    draw: Callable[[], float] | None = None,
    throw_grace: bool = False,
) -> ChaupalBot:
    """A bot for the tests; ``draw``, the service's source of chance, is
    seeded from ``seed`` unless given.  ``throw_grace``: the chance after a
    person's move waits for a takeback, as in production (issue 31)."""
    settings = Settings(
        token=None,
        dev_guild_id=None,
        database=path,
        log_level="DEBUG",
        snapshot_every=5,
        render_workers=0,
        # Automatic players search with a twentieth of their budget, in a
        # thread, without the constant thinking time (a fake clock).
        think_workers=0,
        search_scale=0.05,
        think_pad=False,
        # Chance after a person's move is drawn at once, as before takebacks
        # (issue 31), unless a test of the grace asks for it.
        throw_grace=throw_grace,
    )
    return ChaupalBot(
        settings, draw=draw or random.Random(seed).random, sync_commands=False, clock=clock
    )


def bot_of(fake: FakeDiscord) -> ChaupalBot:
    bot = fake.bot
    assert isinstance(bot, ChaupalBot)
    return bot


def boards(fake: FakeDiscord) -> list[Sent]:
    return [
        s
        for s in fake.channel_posts()
        if s.route == "channel.send" and any(name.endswith(".png") for name, _ in s.files)
    ]


async def open_lobby(
    fake: FakeDiscord, game: str, creator: FakeUser, *joiners: FakeUser, options: str | None = None
) -> tuple[int, Sent]:
    """``/game new``, then joins alternating between the button and ``/game join``."""
    kwargs = {"options": options} if options else {}
    out = await fake.slash(creator, "game new", game=game, **kwargs)
    lobby = next(s for s in out if s.route == "interaction.response")
    assert not lobby.ephemeral, lobby
    found = re.search(r"game #(\d+)", lobby.content or "")
    assert found, lobby.content
    game_id = int(found[1])
    for i, user in enumerate(joiners):
        if i % 2 == 0:
            await fake.click(user, lobby, fake.find_button(lobby, label="Join")["custom_id"])
        else:
            await fake.slash(user, "game join")
    return game_id, lobby


async def start(fake: FakeDiscord, creator: FakeUser, lobby: Sent) -> Sent:
    await fake.click(creator, lobby, fake.find_button(lobby, label="Start")["custom_id"])
    return boards(fake)[-1]


async def resign(
    fake: FakeDiscord,
    user: FakeUser,
    game_id: int | None = None,
    *,
    command: str = "game resign",
    **kwargs: Any,
) -> list[Sent]:
    """``/game resign`` (or ``command``), then **Resign** on the question it
    asks.  Returns what the command sent and what the click sent; when the
    command refused (no question), just what it sent."""
    options: dict[str, Any] = {"game": game_id} if game_id is not None else {}
    out = await fake.slash(user, command, **options, **kwargs)
    question = next(
        (
            s
            for s in out
            if s.message_id
            and any(b["custom_id"].startswith("chaupal:resign:") for b in fake.buttons(s))
        ),
        None,
    )
    if question is None:
        return out
    assert question.ephemeral, question
    # **Resign**, in whatever language the player reads (issue 33).
    (button,) = [b for b in fake.buttons(question) if b["custom_id"].endswith(":yes")]
    return out + await fake.click(user, question, button["custom_id"])


async def movers(fake: FakeDiscord, game_id: int, users: dict[int, FakeUser]) -> list[FakeUser]:
    game = await bot_of(fake).service.get(game_id)
    if game.is_over:
        return []
    seats = sorted(game.engine.to_move(game.state) - {CHANCE})
    return [users[game.user_of(s)] for s in seats]


async def walk_menu(
    fake: FakeDiscord, user: FakeUser, out: list[Sent], rng: random.Random
) -> list[Sent]:
    """From a reply holding a menu, choose at random until a move is played."""
    for _ in range(8):
        if any((s.content or "").startswith("Played:") for s in out):
            return out
        menu = next((s for s in reversed(out) if s.message_id and fake.selects(s.message_id)), None)
        if menu is None:
            raise AssertionError(f"no menu and no move: {out}")
        select = rng.choice(fake.selects(menu.message_id or 0))
        value = rng.choice(select["options"])["value"]
        out = await fake.select(user, menu.message_id or 0, select["custom_id"], [value])
    raise AssertionError(f"menus never reached a move: {out}")


BoardPick = tuple[str, str | None, str]
"""A choice on a board: (custom_id, select value or None for a button, label)."""


def board_picks(fake: FakeDiscord, board: Sent) -> list[BoardPick]:
    """Every choice the board offers: its pick buttons (``Choose…``
    included) and the options of its selects."""
    picks: list[BoardPick] = [
        (b["custom_id"], None, b["label"])
        for b in fake.buttons(board)
        if b["custom_id"].startswith("chaupal:move:")
    ]
    for select in fake.selects(board):
        if select["custom_id"].startswith("chaupal:board:"):
            picks += [(select["custom_id"], o["value"], o["label"]) for o in select["options"]]
    return picks


async def press(fake: FakeDiscord, user: FakeUser, board: Sent, pick: BoardPick) -> list[Sent]:
    """Click a board's button or select one of its options."""
    custom_id, value, _ = pick
    if value is None:
        return await fake.click(user, board, custom_id)
    return await fake.select(user, board, custom_id, [value])


async def play_by_buttons(fake: FakeDiscord, user: FakeUser, rng: random.Random) -> list[Sent]:
    """A choice on the newest board (a button, a select, or "Choose…"), then menus."""
    board = fake.current(boards(fake)[-1])  # a board may have been edited in place
    picks = board_picks(fake, board)
    assert picks, f"no choices on {board}"
    out = await press(fake, user, board, rng.choice(picks))
    return await walk_menu(fake, user, out, rng)


async def play_by_hand(
    fake: FakeDiscord, user: FakeUser, rng: random.Random, game_id: int | None = None
) -> list[Sent]:
    """``/game hand`` (the DM fallback), then its menu."""
    kwargs = {"game": game_id} if game_id is not None else {}
    out = await fake.slash(user, "game hand", **kwargs)
    assert any(s.files and s.ephemeral for s in out), out
    return await walk_menu(fake, user, out, rng)


async def play_by_command(
    fake: FakeDiscord, user: FakeUser, rng: random.Random, *, prefer: str | None = None
) -> list[Sent]:
    """``/game play`` with a value autocomplete offered (``prefer``: typed text)."""
    choices = await fake.autocomplete(user, "game play", focused="action", action=prefer or "")
    assert choices, "autocomplete offered no legal action"
    out = await fake.slash(user, "game play", action=rng.choice(choices)["value"])
    assert any((s.content or "").startswith("Played:") and s.ephemeral for s in out), out
    return out


async def play_turn(
    fake: FakeDiscord,
    game_id: int,
    users: dict[int, FakeUser],
    rng: random.Random,
    style: Style,
) -> FakeUser | None:
    """One player's move in whatever way ``style`` says (falling back to the
    hand menu when a decision is private).  Returns who moved."""
    who = await movers(fake, game_id, users)
    if not who:
        return None
    user = rng.choice(who)
    game = await bot_of(fake).service.get(game_id)
    seat = game.seat_of(user.id)
    public = seat in game.engine.waiting_on(game.state)
    single = len(game.engine.to_move(game.state) - {CHANCE}) == 1
    if (
        style == "buttons"
        and public
        and single
        and game.engine.choices_are_public(game.state, seat)
    ):
        await play_by_buttons(fake, user, rng)
    elif style == "command":
        await play_by_command(fake, user, rng)
    else:
        await play_by_hand(fake, user, rng, game_id)
    return user


def assert_no_secret_ids(fake: FakeDiscord) -> None:
    """Every custom_id the bot ever sent is one of ours: ids and indices only."""
    for sent in fake.sent:
        for row in sent.components:
            for item in row.get("components", []):
                if "custom_id" in item:
                    assert CUSTOM_ID.match(item["custom_id"]), item["custom_id"]


# -- a table of players, for tests that play one game decision by decision --


class Table:
    """One game: its players, and the checks made after every decision.

    A game's tests subclass it with how that game's menus name a decision
    (``_by_board``, ``offers``, ``choose_in``) and what is checked after each
    one (``check``)."""

    def __init__(self, fake: FakeDiscord, game_id: int, users: list[FakeUser], path: Path):
        self.fake, self.game_id, self.users, self.path = fake, game_id, users, path
        self.by_id = {u.id: u for u in users}
        self.pinged: Counter[int] = Counter()
        self.styles: Counter[str] = Counter()
        self.checked = len(fake.sent)

    async def game(self) -> Any:
        return await bot_of(self.fake).service.get(self.game_id)

    def board(self) -> Sent:
        """The newest board, as it is now (boards are edited in place)."""
        return self.fake.current(boards(self.fake)[-1])

    def name(self, seat: int) -> str:
        return f"**{self.users[seat].name}**"

    def filled(self, narration: str) -> str:
        """A narration with its seat tags filled the way the board does."""
        for seat in range(len(self.users)):
            narration = narration.replace(f"{{p{seat}}}", self.name(seat))
        return narration

    # -- checks -----------------------------------------------------------------

    async def check(self, actor: int | None = None) -> None:
        """The checks made after every decision (``actor``: the seat that
        made it) and once a game is set up or loaded."""
        raise NotImplementedError

    async def check_played(
        self, game: Any, seat: int, text: str, label: str, played: list[Sent], out: list[Sent]
    ) -> None:
        """Checks made once ``seat`` has played ``text`` (``label``: its
        label before the move; ``game``: the game now; ``played``: the
        "Played:" replies among ``out``, what the decisive interaction sent)."""

    async def started(self, lobby: Sent, lines: list[str]) -> None:
        """The checks made once the game has started (``lines``: the
        lobby's seats)."""
        await self.check()

    def closed(self) -> None:
        """The checks made once the game's bot is closed: every custom_id
        it sent is ids and indices only."""
        assert_no_secret_ids(self.fake)

    def assert_loaded(self, live: Any, state: Any) -> None:
        """``install`` loaded ``state``: the service now holds ``live``."""
        assert live == state, (live, state)

    def board_pings(self, expected: frozenset[int]) -> list[set[int]]:
        """Every board posted since the last check pings (and names) only
        users in ``expected``.  Returns the users each such board pinged
        (counted in ``pinged`` too)."""
        pings: list[set[int]] = []
        for sent in self.fake.sent[self.checked :]:
            if sent.route != "channel.send" or not any(n.endswith(".png") for n, _ in sent.files):
                continue
            allowed = sent.raw.get("allowed_mentions") or {}
            assert not allowed.get("parse"), allowed
            users = {int(u) for u in allowed.get("users") or []}
            named = {int(m) for m in re.findall(r"<@!?(\d+)>", sent.content or "")}
            assert users <= expected, (sent.content, users, expected)
            assert named <= expected, (sent.content, named, expected)
            pings.append(users)
            self.pinged.update(users)
        self.checked = len(self.fake.sent)
        return pings

    # -- one decision, made the way a player would --------------------------

    async def user_to_move(self) -> FakeUser:
        raise NotImplementedError

    async def act(self, text: str, style: str, user: FakeUser | None = None) -> list[Sent]:
        """Play ``text`` (a decision the mover may make now) by ``style``
        (see ``by_style``), then make the checks after every decision.
        Returns what the decisive interaction sent."""
        user = user or await self.user_to_move()
        game = await self.game()
        seat = game.seat_of(user.id)
        before = game.version
        assert text in bot_of(self.fake).service.legal_texts(game, seat), text
        label = game.engine.label(game.state, seat, game.engine.parse(game.state, seat, text))
        out = await self.by_style(style, user, text)
        played = [s for s in out if (s.content or "").startswith("Played:")]
        assert played, out
        after = await self.game()
        assert after.version > before, f"{text} played nothing"
        await self.check_played(after, seat, text, label, played, out)
        self.styles[style] += 1
        await self.check(actor=seat)
        return out

    async def by_style(self, style: str, user: FakeUser, text: str) -> list[Sent]:
        """Play ``text`` by ``style``: ``buttons`` (the newest board's
        button, then the menu it opens), ``menu`` (the newest menu already
        sent to the player, else "Show mine") or ``command`` (``/game play``
        with a value autocomplete offered).  Returns what the decisive
        interaction sent."""
        if style == "buttons":
            return await self._by_board(user, text)
        if style == "menu":
            return await self._by_menu(user, text)
        return await self._by_command(user, text)

    async def _by_board(self, user: FakeUser, text: str) -> list[Sent]:
        raise NotImplementedError

    def offers(self, game: Any, seat: int, text: str, message: int) -> bool:
        """Whether the menu ``message`` offers (a first step towards) ``text``."""
        raise NotImplementedError

    async def choose_in(self, user: FakeUser, message: int, text: str) -> list[Sent]:
        """Select ``text`` in a menu message, level by level."""
        raise NotImplementedError

    def newest_menu(self, user: FakeUser) -> int | None:
        """The newest private message sent to ``user`` that still shows a select."""
        touched: dict[int, int] = {}
        for index, sent in enumerate(self.fake.sent):
            private = sent.ephemeral or sent.route.startswith("dm.")
            if sent.user_id == user.id and sent.message_id and private:
                touched[sent.message_id] = index
        for mid in sorted(touched, key=touched.__getitem__, reverse=True):
            if self.fake.selects(mid):
                return mid
        return None

    async def _by_menu(self, user: FakeUser, text: str) -> list[Sent]:
        game = await self.game()
        mid = self.newest_menu(user)
        if mid is not None and self.offers(game, game.seat_of(user.id), text, mid):
            self.styles["menu already sent"] += 1
            return await self.choose_in(user, mid, text)
        self.styles["Show mine"] += 1
        out = await self.fake.click(user, self.board(), f"chaupal:mine:{self.game_id}")
        menu = next(s for s in out if s.files and self.fake.selects(s.message_id or 0))
        assert menu.ephemeral, menu
        return await self.choose_in(user, menu.message_id or 0, text)

    def typed(self, text: str) -> str:
        """What a player types before autocomplete offers ``text``."""
        return text.split()[0]

    async def _by_command(self, user: FakeUser, text: str) -> list[Sent]:
        typed = self.typed(text)
        choices = await self.fake.autocomplete(user, "game play", focused="action", action=typed)
        if text not in [c["value"] for c in choices]:
            choices = await self.fake.autocomplete(user, "game play", focused="action", action=text)
        values = [c["value"] for c in choices]
        assert text in values, (text, values)
        out = await self.fake.slash(user, "game play", action=text)
        assert any((s.content or "").startswith("Played:") and s.ephemeral for s in out), out
        return out


TableT = TypeVar("TableT", bound=Table)


class Tables(Generic[TableT]):
    """The games a test opens, each with its own bot and database."""

    def __init__(
        self,
        root: Path,
        game: str,
        seating: Mapping[int, Sequence[str]],
        table: Callable[[FakeDiscord, int, list[FakeUser], Path], TableT],
    ) -> None:
        self.root, self.game, self.seating, self.table = root, game, seating, table
        self.opened: list[TableT] = []

    async def open(self, players: int, seed: int, options: str | None = None) -> TableT:
        """A game started through the lobby (join order = seats, named as
        ``seating`` says)."""
        path = self.root / f"{self.game}-{players}-{seed}.sqlite3"
        fake = await FakeDiscord.start(make_bot(path, seed))
        users = [fake.user(NAMES[i]) for i in range(players)]
        table = self.table(fake, 0, users, path)
        self.opened.append(table)
        game_id, lobby = await open_lobby(fake, self.game, *users, options=options)
        table.game_id = game_id
        lines = [f"{i + 1}. {u.name} — {self.seating[players][i]}" for i, u in enumerate(users)]
        text = fake.current(lobby).content or ""
        assert all(line in text for line in lines), text
        await start(fake, users[0], lobby)
        await table.started(lobby, lines)
        return table

    async def close(self) -> None:
        """Closes every bot (and database) opened, then makes each table's
        last checks (``Table.closed``)."""
        for table in self.opened:
            await table.fake.close()
        for table in self.opened:
            table.closed()


def tables_fixture(
    game: str,
    seating: Mapping[int, Sequence[str]],
    table: Callable[[FakeDiscord, int, list[FakeUser], Path], TableT],
) -> Any:
    """A ``tables`` fixture for a module's tests: the games a test opens
    (see ``Tables``), closed when it ends."""

    @pytest.fixture(name="tables")
    async def tables(tmp_path: Path) -> AsyncIterator[Tables[TableT]]:
        opened = Tables(tmp_path, game, seating, table)
        yield opened
        await opened.close()

    return tables


async def install(table: Table, state: Any) -> Sent:
    """Load ``state`` into the running game the way a snapshot is loaded,
    then let delivery post its board, as after a crash between a move and
    its post (the board's outbox row is set one version back)."""
    bot = bot_of(table.fake)
    game = await table.game()
    await bot.store.append(
        table.game_id,
        expected_version=game.version,
        entries=[],
        now=0.0,
        snapshot=game.engine.to_json(state),
    )
    bot.service.forget(table.game_id)
    live = await table.game()
    assert live.version == game.version, (live.version, game.version)
    table.assert_loaded(live.state, state)
    await bot.store.set_outbox(table.game_id, OutboxRow("board", game.version - 1))
    posts = len(boards(table.fake))
    assert await bot.delivery.catch_up(table.game_id)
    await table.fake.settle()
    assert len(boards(table.fake)) == posts + 1, "delivery posted no board"
    await table.check()
    return table.board()


def board_labels(table: Table) -> list[str]:
    return [b["label"] for b in table.fake.buttons(table.board())]
