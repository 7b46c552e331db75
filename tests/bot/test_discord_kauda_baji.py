"""Kauda Baji through discord.py's real dispatch.

Whole 4-player and 2-player games (short ones: few pieces, a player who
mostly takes the move that advances furthest) are played with the board's
choices (issue 18: every move at once, as a button when there are few and
in a select of the board when there are more, one interaction either way),
the menus already sent to the player (the "Your next choice" reply, "Show
mine") and typed ``/game play`` moves taken from autocomplete.  Positions
random play would take too long to reach are built with the engine and
loaded the way a snapshot is, then played through Discord: a tuple formed
and one split (R9, R11), kills by landing and by leaving (R13) with the
kill bonus throw (R16), the third six in a row (R6), forfeits under R8 and
R17, a finish (R18), and a restart while a bank is half spent.  Throws
are controlled by replacing the service's draw with one that returns the
``u`` a chosen throw falls on.

Throughout: the board offers exactly the mover's moves by their labels
(``Single b3 to b6 with 4+2``, ``Forfeit a 5 (R17)``; grouped by the value
spent, ``Spend 6``, only when they are more than the selects of one message
hold), a new board pings only the player to move, nothing is ever DMed
(nothing is hidden in this game), no custom_id holds a move, and a stale or
someone else's pick is refused and changes nothing.

The rules ("Playing on Discord") say the headline under the board tells
every throw and every forfeit: delivery puts the chance player's
narrations (every throw, R6's third six, an R8 forfeit at the throw, R16's
bonus throw) in the headline (``bot/edge/delivery/boards.py``,
``Boards.board``), which once left them out.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.choices import FLAT_LIMIT, MAX_SELECTS
from bot.edge.tables.menus import BOARD_BUTTON_MOVES, MAX_BOARD_BUTTONS
from bot.engines.core import CHANCE
from bot.engines.kauda_baji import KaudaBajiEngine
from bot.engines.kauda_baji_board import SEATINGS, STEP_OF, square_of
from bot.engines.kauda_baji_state import KaudaBajiState, Throw
from bot.engines.messages import decode
from tests.bot import driver
from tests.bot.driver import (
    CUSTOM_ID,
    assert_no_secret_ids,
    board_labels,
    boards,
    bot_of,
    install,
    make_bot,
)
from tests.discord_harness import FakeDiscord, FakeUser, Sent

E = KaudaBajiEngine()
SEATING = {
    4: ("Bottom", "Right", "Top", "Left"),
    3: ("Bottom", "Right", "Top"),
    2: ("Bottom", "Top"),
}
"""R4: the seat each player (in join order) takes, as the lobby says."""
THROWN = re.compile(r"throws (\d+)(?! for the first turn)")
"""A banked throw as the headline tells it (not R7's throws for the first turn)."""


# -- chance under control ------------------------------------------------------


def u_for(value: int) -> float:
    """The draw in [0, 1) that falls on a throw of ``value`` (R5): the middle
    of its interval in the engine's cumulative chance outcomes."""
    below = Fraction(0)
    for action, chance in E.chance_outcomes(E.setup(2, {})):
        if action == Throw(value):
            return float(below + chance / 2)
        below += chance
    raise AssertionError(f"no throw of {value}")


class Scripted:
    """Draws the chosen throws first, then whatever ``then`` draws."""

    def __init__(self, values: Iterable[int], then: Callable[[], float]) -> None:
        self.queue = deque(u_for(v) for v in values)
        self.then = then

    def __call__(self) -> float:
        return self.queue.popleft() if self.queue else self.then()


class Loaded:
    """A seeded draw that throws a 6 more often than six shells would (R5:
    1 in 64), so banks of several values (R6) are common in whole games."""

    def __init__(self, seed: int, sixes: float) -> None:
        self.rng = random.Random(seed)
        self.sixes = sixes
        self.six = u_for(6)

    def __call__(self) -> float:
        return self.six if self.rng.random() < self.sixes else self.rng.random()


def script(table: Table, *values: int) -> Scripted:
    """The next throws of the table's bot are ``values``, then seeded ones."""
    service = bot_of(table.fake).service
    previous = service._draw
    then = previous.then if isinstance(previous, Scripted) else previous
    scripted = Scripted(values, then)
    service._draw = scripted
    return scripted


# -- a table of players ------------------------------------------------------


class Table(driver.Table):
    """One game: its players, and the checks made after every decision."""

    def __init__(self, fake: FakeDiscord, game_id: int, users: list[FakeUser], path: Path):
        super().__init__(fake, game_id, users, path)
        self.untold: list[str] = []
        """Boards whose headline did not tell the throws of the bank shown."""

    def closed(self) -> None:
        super().closed()  # every custom_id is ids and indices only
        for user in self.users:  # nothing hidden: no DM, let alone one asking to decide
            assert not self.fake.dms(user), self.fake.dms(user)

    async def state(self) -> KaudaBajiState:
        state = (await self.game()).state
        assert isinstance(state, KaudaBajiState)
        return state

    async def user_to_move(self) -> FakeUser:
        game = await self.game()
        seats = sorted(game.engine.waiting_on(game.state))
        assert seats, "nobody to move"
        return self.by_id[game.user_of(seats[0])]

    async def log(self) -> list[Any]:
        return list(await bot_of(self.fake).store.log(self.game_id))

    # -- checks made after every decision -------------------------------------

    async def check(self, actor: int | None = None) -> None:
        """Every board posted since the last check pings (and names) only the
        player to move now, and that player is pinged unless they just
        acted; the newest board offers exactly the mover's top level
        (``check_buttons``)."""
        game = await self.game()
        state: KaudaBajiState = game.state
        expected: frozenset[int] = frozenset()
        if not game.is_over:
            seats = E.waiting_on(state)
            assert seats == E.to_move(state) - {CHANCE} and len(seats) == 1, state
            expected = frozenset(game.user_of(s) for s in seats)
        for sent in self.fake.sent[self.checked :]:
            if sent.route.startswith("dm."):
                raise AssertionError(f"a DM was sent, but nothing is hidden: {sent}")
        pings = self.board_pings(expected)
        new_board = bool(pings)
        posted: set[int] = set().union(*pings)
        if new_board and not game.is_over:
            mover = next(iter(expected))
            if actor is None or mover != game.user_of(actor):
                assert mover in posted, ("the player to move was not pinged", posted)
            else:
                assert not posted, ("the player at the keyboard was pinged", posted)
        if new_board and not game.is_over:
            await self.check_headline(game)
        self.check_buttons(game)

    async def check_headline(self, game: Any) -> None:
        """A new board shows the whole bank before spending: its headline
        tells each throw that went into the bank since the last move."""
        state: KaudaBajiState = game.state
        thrown: list[str] = []
        for entry in reversed(await self.log()):
            if entry.actor != CHANCE or not entry.action.startswith("throw "):
                break
            if not decode(entry.narration).startswith(f"{{p{state.turn}}} throws"):
                break  # another player's turn, forfeited (R6, R8)
            if "for the first turn" in decode(entry.narration):
                break  # R7: who starts, not the bank
            thrown.append(entry.action.split()[1])
        content = self.board().content or ""
        told = Counter(THROWN.findall(content))
        if Counter(thrown) - told:
            self.untold.append(f"bank {state.bank}, thrown {thrown[::-1]}, headline {content!r}")

    def check_buttons(self, game: Any) -> None:
        """The newest board's choices: none once the game is over, else the
        engine's top level (issue 18: every move at once, by its label, as
        buttons when there are few and as selects of the board when there
        are more; grouped by the value spent only beyond what the selects of
        one message hold), then Show mine and My turn; every custom_id is
        ids and indices."""
        board = self.board()
        buttons = self.fake.buttons(board)
        selects = self.fake.selects(board)
        for item in [*buttons, *selects]:
            assert CUSTOM_ID.match(item["custom_id"]), item
        if game.is_over:
            # A finished game's board offers a rematch (issue 18) and its replay (21).
            assert [b["label"] for b in buttons] == ["Rematch", "Replay"], buttons
            assert not selects, selects
            return
        seat = next(iter(E.waiting_on(game.state)))
        level = top_level(game.state, seat)
        expected = [label for _, label in level.options]
        prefix = f"{self.game_id}:{game.version}"
        if level.flat and len(expected) > BOARD_BUTTON_MOVES:
            # Too many moves for a row of buttons: selects on the board, each
            # option a whole move (one interaction), values indexing the level.
            assert [b["label"] for b in buttons] == ["Show mine", "My turn"], buttons
            assert 1 <= len(selects) <= MAX_SELECTS, selects
            options = [o for select in selects for o in select["options"]]
            shown = [o["label"] for o in options]
            assert shown == expected, (shown, expected)
            assert [o["value"] for o in options] == [str(i) for i in range(len(expected))]
            start = 0
            for chunk, select in enumerate(selects):
                assert select["custom_id"] == f"chaupal:board:{prefix}:{chunk}", select
                assert 1 <= len(select["options"]) <= 25, select
                stop = start + len(select["options"])
                held = level.options[start:stop]
                says = placeholder(game.state, seat, level, held, len(selects), start, len(options))
                assert select.get("placeholder") == says, (select.get("placeholder"), says)
                start = stop
            self.styles["board of selects"] += 1
            return
        # A few moves (or, beyond the selects' room, the values to spend) are
        # buttons; more groups than buttons leave only "Choose…".
        assert not selects, selects
        if not level.flat and len(expected) > MAX_BOARD_BUTTONS:
            expected = ["Choose…"]
        assert [b["label"] for b in buttons] == [*expected, "Show mine", "My turn"], (
            [b["label"] for b in buttons],
            expected,
        )
        for index, button in enumerate(buttons[:-2]):
            path = "" if expected == ["Choose…"] else str(index)
            assert button["custom_id"] == f"chaupal:move:{prefix}:{path}", button
        self.styles["board of buttons" if level.flat else "board of groups"] += 1

    # -- one decision, made the way a player would --------------------------

    async def check_played(
        self, game: Any, seat: int, text: str, label: str, played: list[Sent], out: list[Sent]
    ) -> None:
        """The move's own reply names it, the log holds it, and a player still
        spending their bank got the next menu with the reply."""
        assert played[-1].content and played[-1].content.startswith(f"Played: {label}"), played
        mine = [e for e in await self.log() if e.actor != CHANCE]
        assert mine[-1].action == text and mine[-1].actor == seat, (mine[-1], text)
        if seat in E.waiting_on(game.state):  # still spending: the next menu came along
            reply = next(s for s in reversed(out) if "Your next choice" in (s.content or ""))
            assert reply.ephemeral and self.fake.selects(reply.message_id or 0), reply

    def labels(self, game: Any, seat: int, text: str) -> tuple[list[str], str]:
        """(the names of the menu groups holding ``text``, its own label)."""
        state = game.state
        words = E.menu_words(state, seat, text)
        groups = [E.choice_label(state, seat, " ".join(words[:i])) for i in range(1, len(words))]
        return groups, E.label(state, seat, E.parse(state, seat, text))

    async def _by_board(self, user: FakeUser, text: str) -> list[Sent]:
        """The board's pick for ``text``: the move itself (a button or an
        option of a board select: one interaction), or, when the board shows
        groups, the group holding it (or "Choose…") and then its menu."""
        game = await self.game()
        groups, label = self.labels(game, game.seat_of(user.id), text)
        board = self.board()
        picks = driver.board_picks(self.fake, board)
        matching = [p for p in picks if p[2] == label or p[2] in groups]
        if not matching:  # more groups than buttons
            matching = [p for p in picks if p[2] == "Choose…"]
        assert len(matching) == 1, (text, groups, label, [p[2] for p in picks])
        pick = matching[0]
        out = await driver.press(self.fake, user, board, pick)
        if any((s.content or "").startswith("Played:") for s in out):
            assert pick[2] == label, (pick, label)
            self.styles["board button played" if pick[1] is None else "board select played"] += 1
            return out
        assert pick[1] is None and (pick[2] in groups or pick[2] == "Choose…"), (pick, out)
        self.styles["group button, then its menu"] += 1
        menu = next(s for s in reversed(out) if s.message_id and self.fake.selects(s.message_id))
        assert menu.ephemeral, menu
        return await self.choose_in(user, menu.message_id or 0, text)

    def find_option(
        self, game: Any, seat: int, text: str, message: int
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        groups, label = self.labels(game, seat, text)
        found = [
            (select, option)
            for select in self.fake.selects(message)
            for option in select["options"]
            if option["label"] == label
            or any(option["label"].startswith(f"{group} (") for group in groups)
        ]
        assert len(found) <= 1, (text, found)
        return found[0] if found else None

    def offers(self, game: Any, seat: int, text: str, message: int) -> bool:
        return self.find_option(game, seat, text, message) is not None

    async def choose_in(self, user: FakeUser, message: int, text: str) -> list[Sent]:
        """Select ``text`` in a menu message, level by level (options are
        found by the labels a player reads)."""
        for _ in range(4):
            game = await self.game()
            seat = game.seat_of(user.id)
            found = self.find_option(game, seat, text, message)
            offered = [o["label"] for s in self.fake.selects(message) for o in s["options"]]
            assert found, (text, self.labels(game, seat, text), offered)
            select, option = found
            assert CUSTOM_ID.match(select["custom_id"]), select
            label = self.labels(game, seat, text)[1]
            out = await self.fake.select(user, message, select["custom_id"], [option["value"]])
            if any((s.content or "").startswith("Played:") for s in out):
                assert option["label"] == label, (option, label)
                return out
            reply = [s.content or "" for s in out if s.content]
            # A deeper menu says what was picked on the way ("Spend 6: choose one:").
            assert reply and (
                reply[-1].startswith(("Choose", "That choice")) or reply[-1].endswith("choose one:")
            ), out
        raise AssertionError(f"the menu never played {text}")

    # -- refusals -----------------------------------------------------------

    async def refused(self, out: list[Sent], words: str, version: int) -> str:
        """``out`` is one ephemeral refusal holding ``words``; nothing changed."""
        replies = [s.content or "" for s in out if s.content]
        assert replies and all(s.ephemeral for s in out if s.content), out
        assert any(words in r.lower() for r in replies), replies
        assert not any(r.startswith("Played:") for r in replies), replies
        assert (await self.game()).version == version
        assert not [s for s in out if s.route == "channel.send"], out
        return replies[-1]


@dataclass(frozen=True)
class Level:
    """The top level of a seat's menu, as the engine's words make it."""

    flat: bool
    """Whether every option is a whole move."""
    depth: int
    """How many menu words its options share (1 when a lone value to spend
    is passed through)."""
    options: list[tuple[str, str]]
    """(the move's text or the group's prefix, its label), in order."""


def top_level(state: KaudaBajiState, seat: int) -> Level:
    """The seat's top level (issue 18): every move by its label when they
    fit in one message's selects (``FLAT_LIMIT``); beyond, grouped by the
    engine's menu words (the value spent, ``Spend 6``; a group of one move
    is that move), a lone group being no choice and passed through."""
    texts = [E.describe(state, seat, a) for a in E.legal_actions(state, seat)]

    def label(text: str) -> str:
        return E.label(state, seat, E.parse(state, seat, text))

    depth = 0
    while len(texts) > FLAT_LIMIT:
        groups: dict[str, list[str]] = {}
        for text in texts:
            words = E.menu_words(state, seat, text)
            key = " ".join(words[: depth + 1]) if len(words) > depth + 1 else text
            groups.setdefault(key, []).append(text)
        if len(groups) > 1:
            return Level(
                False,
                depth,
                [
                    (key, E.choice_label(state, seat, key))
                    if len(members) > 1
                    else (members[0], label(members[0]))
                    for key, members in groups.items()
                ],
            )
        (texts,) = groups.values()
        depth += 1
    return Level(True, depth, [(text, label(text)) for text in texts])


def first_choices(state: KaudaBajiState, seat: int) -> list[str]:
    """The labels of the seat's top level (``top_level``)."""
    return [label for _, label in top_level(state, seat).options]


def placeholder(
    state: KaudaBajiState,
    seat: int,
    level: Level,
    held: list[tuple[str, str]],
    selects: int,
    start: int,
    total: int,
) -> str:
    """What a board select of whole moves says before a pick: "Choose…" when
    it is the only one; else the groups (values spent) of its first and last
    moves, one name when they are the same group all through, but only when
    every group's moves sit side by side in the level.  Kauda Baji lists its
    moves piece by piece, so a value's moves are usually scattered, and then
    a select says which of the moves it holds ("Choose (1–25 of 91)…")."""
    if selects == 1:
        return "Choose…"

    def group_of(text: str) -> str:
        words = E.menu_words(state, seat, text)
        return " ".join(words[: level.depth + 1]) if len(words) > level.depth + 1 else ""

    runs: list[str] = []
    for text, _ in level.options:
        group = group_of(text)
        if not runs or runs[-1] != group or not group:
            runs.append(group)
    named = [g for g in runs if g]
    if len(set(named)) != len(named):
        return f"Choose ({start + 1}–{start + len(held)} of {total})…"
    groups: list[str] = []
    for text, _ in held:
        group = group_of(text)
        if group and (not groups or groups[-1] != group):
            groups.append(group)
    assert groups, held  # only forfeits: not in a bank this test builds
    names = [E.choice_label(state, seat, g) for g in groups]
    return f"Choose: {names[0]}" if len(names) == 1 else f"Choose: {names[0]} … {names[-1]}"


def offered(table: Table) -> list[str]:
    """The labels of every choice the newest board offers: its buttons
    (Show mine and My turn included), then the options of its selects."""
    board = table.board()
    return board_labels(table) + [
        o["label"] for select in table.fake.selects(board) for o in select["options"]
    ]


def seen_picks(message: dict[str, Any]) -> list[driver.BoardPick]:
    """The picks on a raw message (``driver.board_picks`` for a copy)."""
    picks: list[driver.BoardPick] = []
    for row in message.get("components") or []:
        for item in row.get("components", []):
            custom_id = str(item.get("custom_id", ""))
            if custom_id.startswith("chaupal:move:"):
                picks.append((custom_id, None, item["label"]))
            elif custom_id.startswith("chaupal:board:"):
                picks += [(custom_id, o["value"], o["label"]) for o in item["options"]]
    return picks


async def press_as_seen(
    fake: FakeDiscord, user: FakeUser, seen: dict[str, Any], pick: driver.BoardPick
) -> list[Sent]:
    """Press a button or pick a select's option on a message as the
    player's client still shows it (``seen``, a copy taken earlier):
    Discord delivers message edits asynchronously, so a pick on a board
    that has since moved on reaches the bot.  The pick must be on the copy."""
    assert pick in seen_picks(seen), pick
    custom_id, value, _ = pick
    data: dict[str, Any] = (
        {"custom_id": custom_id, "component_type": 2}
        if value is None
        else {"custom_id": custom_id, "component_type": 3, "values": [value]}
    )
    return await fake._component_interaction(user, seen, data, expect_error=False, expect_ack=True)


# -- setting games up ----------------------------------------------------------


Tables = driver.Tables[Table]
tables = driver.tables_fixture("kauda_baji", SEATING, Table)


def position(
    base: KaudaBajiState,
    stacks: dict[int, list[tuple[str, int]]],
    *,
    turn: int,
    bank: tuple[int, ...],
    killed: tuple[int, ...] = (),
    places: tuple[int, ...] = (),
) -> KaudaBajiState:
    """Players' stacks by square (``{0: [("c7", 2)]}``), ``turn`` to spend
    ``bank``; pieces not on the board are home (in the centre).  The lobby's
    options stay as they were."""
    obj = E.to_json(base)
    assert isinstance(obj, dict)
    n = base.num_players
    seats = SEATINGS[n]
    obj["stacks"] = [
        [[STEP_OF[seats[p]][square_of(sq)], size] for sq, size in stacks.get(p, [])]
        for p in range(n)
    ]
    obj["home"] = [base.pieces - sum(size for _, size in stacks.get(p, [])) for p in range(n)]
    assert all(obj["home"][p] == base.pieces for p in places)
    obj.update(
        phase="move",
        turn=turn,
        bank=sorted(bank, reverse=True),
        run=0,
        bonus=False,
        pending=0,
        contenders=[],
        first_throws=[],
        places=list(places),
        last=None,
        news="",
    )
    obj["killed"] = [p in killed for p in range(n)]
    state = E.from_json(obj)
    assert E.waiting_on(state) == {turn} and E.legal_actions(state, turn), state
    return state


async def open_at(
    tables: Tables,
    players: int,
    seed: int,
    stacks: dict[int, list[tuple[str, int]]],
    *,
    bank: tuple[int, ...],
) -> Table:
    """A game opened through the lobby, then loaded with ``stacks`` and the
    first player (Asha) to spend ``bank`` (see ``position``)."""
    table = await tables.open(players, seed)
    await install(table, position(await table.state(), stacks, turn=0, bank=bank))
    return table


def on(state: KaudaBajiState, player: int) -> list[tuple[str, int]]:
    """A player's stacks as (square, size), sorted."""
    seat = SEATINGS[state.num_players][player]
    view = E.view(state, None)
    assert view.players[player].seat == ("bottom", "right", "top", "left")[seat]
    return sorted((s.square, s.size) for s in view.stacks if s.player == player)


# -- whole games -----------------------------------------------------------------


def gain(state: KaudaBajiState, seat: int, action: Any) -> tuple[int, int]:
    """(pieces brought to the centre, squares gained x pieces) by a move."""

    def ahead(s: KaudaBajiState) -> int:
        return sum(step * size for step, size in s.stacks[seat]) + 48 * s.home[seat]

    after = E.apply(state, seat, action)
    return after.home[seat] - state.home[seat], ahead(after) - ahead(state)


def choose(state: KaudaBajiState, seat: int, rng: random.Random) -> str:
    """Mostly the move that reaches the centre or advances furthest (an R17
    forfeit beats going round the inner ring again), sometimes any."""
    actions = E.legal_actions(state, seat)
    if rng.random() < 0.85:
        action = max(actions, key=lambda a: (gain(state, seat, a), rng.random()))
    else:
        action = rng.choice(actions)
    return E.describe(state, seat, action)


async def play_out(table: Table, rng: random.Random, *, limit: int = 400) -> int:
    """Play to the end, in turn by board, typed move and menu; once on the
    way, a pick on a stale board (a button or a select's option) and another
    player's pick are refused."""
    styles = ("buttons", "command", "menu", "buttons")
    going_on = ("menu", "buttons", "command")
    """A player still spending their bank has their next menu in the reply."""
    refusals = 0
    mover = 0
    for decision in range(limit):
        game = await table.game()
        if game.is_over:
            assert refusals == 2, refusals
            return decision
        seat = next(iter(E.waiting_on(game.state)))
        user = table.by_id[game.user_of(seat)]
        text = choose(game.state, seat, rng)
        seen = copy.deepcopy(table.fake.message(table.board()))
        style = (
            going_on[decision % len(going_on)]
            if user.id == mover
            else styles[decision % len(styles)]
        )
        mover = user.id
        await table.act(text, style, user)
        game = await table.game()
        if game.is_over or refusals == 2 or decision < 6:
            continue
        now = table.by_id[game.user_of(next(iter(E.waiting_on(game.state))))]
        picks = driver.board_picks(table.fake, table.board())
        shown = copy.deepcopy(table.fake.message(table.board()))
        if refusals == 0 and now.id == mover:
            # A board from before the last move, still on the player's screen.
            out = await press_as_seen(table.fake, now, seen, seen_picks(seen)[0])
            await table.refused(out, "out of date", game.version)
            refusals += 1
        elif refusals == 1 and now.id != mover and picks:
            other = table.by_id[mover]
            out = await driver.press(table.fake, other, table.board(), picks[0])
            reply = await table.refused(out, "not your turn", game.version)
            assert now.name in reply, reply
            out = await table.fake.slash(other, "game play", action=text)
            await table.refused(out, "not your turn", game.version)
            refusals += 1
        assert table.fake.message(table.board()) == shown, "a refused pick changed the board"
    raise AssertionError("the game did not end")


async def finish_whole_game(table: Table, rng: random.Random, *, selects: bool) -> None:
    """Play ``table``'s game to the end and check how it ended; ``selects``:
    some board offered more moves than buttons (and one was picked there)."""
    decisions = await play_out(table, rng)
    game = await table.game()
    state: KaudaBajiState = game.state
    assert game.record.status == "finished" and game.outcome is not None
    assert state.phase == "over"
    # R18: every player finished in turn, places in order, the last one last.
    n = len(table.users)
    assert sorted(state.places) == list(range(n))
    assert game.outcome.ranking == tuple(frozenset({p}) for p in state.places)
    narration = table.filled(" ".join(decode(e.narration) for e in await table.log()))
    for place, seat in enumerate(state.places[:-1], start=1):
        assert f"{table.name(seat)} has finished, place {place}." in narration, place
    final = boards(table.fake)[-1]
    content = final.content or ""
    assert "is over" in content, content
    places = "; ".join(f"{i}. {table.name(s)}" for i, s in enumerate(state.places, start=1))
    assert f"({places})" in content, content
    assert f"Winner: {table.name(state.places[0])}" in content, content
    final_buttons = table.fake.buttons(table.fake.current(final))
    labels = [b["label"] for b in final_buttons]
    assert labels == ["Rematch", "Replay"], "only Rematch and Replay on a final board"
    assert decisions > 20
    assert table.styles["buttons"] and table.styles["command"] and table.styles["menu"]
    assert table.styles["board button played"], table.styles
    if selects:  # more moves than buttons: picked from the board's select
        assert table.styles["board of selects"], table.styles
        assert table.styles["board select played"], table.styles
    assert table.styles["menu already sent"] and table.styles["Show mine"], table.styles
    assert set(table.pinged) == {u.id for u in table.users}, table.pinged
    log = [e.action for e in await table.log()]
    assert any(a.startswith("throw") for a in log)
    assert_no_secret_ids(table.fake)
    # Last, as it reads every board: each showed the throws of its bank.
    assert not table.untold, "\n".join(table.untold[:3]) + f"\n({len(table.untold)} boards)"


async def test_whole_4_player_game(tables: Tables) -> None:
    table = await tables.open(4, 41, "pieces=1 markut=no")
    bot_of(table.fake).service._draw = Loaded(41, sixes=0.15)
    await finish_whole_game(table, random.Random(41), selects=False)  # one piece: few moves


async def test_whole_2_player_game(tables: Tables) -> None:
    table = await tables.open(2, 42, "pieces=2")
    game = await table.game()
    assert [p.seat for p in E.view(game.state, None).players] == ["bottom", "top"]  # R4
    bot_of(table.fake).service._draw = Loaded(42, sixes=0.15)
    await finish_whole_game(table, random.Random(42), selects=True)


# -- constructed positions -------------------------------------------------------


def spent(label: str) -> str:
    """The value or sum a board move (or group) spends: ``Single b3 to b6
    with 4+2, in at c1`` and ``Spend 4+2 together`` both spend ``4+2``."""
    found = re.match(r"Spend (\S+)", label) or re.search(r" with (\S+?)(?:,|$)", label)
    assert found, label
    return found[1]


async def test_R9_R11_a_tuple_formed_and_one_split_on_a_safe_square(tables: Tables) -> None:
    """Two singles on b3 leave together as a twin (``x1+1``, R9) and move 6
    / 2 = 3 (R10); then one piece splits off the twin on the safe corner a1
    (``x1of2``, R11), from the menu that came with the reply.  Twelve moves
    are too many for buttons: the board offers them in a select (issue 18),
    and a pick from that select on the board as it was before is refused."""
    table = await open_at(
        tables, 2, 11, {0: [("b3", 1), ("b3", 1), ("a1", 2)], 1: [("f6", 1)]}, bank=(6, 2)
    )
    asha = table.users[0]
    assert board_labels(table) == ["Show mine", "My turn"]
    assert offered(table)[2:] == [
        "Twin a1 to d1 with 6, round at c1",
        "Twin a1 to b1 with 2",
        "Twin a1 to e1 with 6+2, round at c1",
        "Single a1 to g1 with 6, split off a twin, round at c1",
        "Single a1 to c1 with 2, split off a twin",
        "Single a1 to g3 with 6+2, split off a twin, round at c1",
        "Single b3 to e6 with 6",
        "Single b3 to b5 with 2",
        "Single b3 to f5 with 6+2",
        "Twin b3 to b6 with 6",
        "Twin b3 to b4 with 2",
        "Twin b3 to c6 with 6+2",
    ]
    assert [s.get("placeholder") for s in table.fake.selects(table.board())] == ["Choose…"]
    board_id = table.board().message_id
    seen = copy.deepcopy(table.fake.message(table.board()))
    posts = len(boards(table.fake))
    await table.act("b3 x1+1 6", "buttons", asha)
    assert table.styles["board select played"] == 1
    state = await table.state()
    assert on(state, 0) == [("a1", 2), ("b6", 2)] and state.bank == (2,)
    # Still Asha's bank: the board is edited in place, and nobody is pinged.
    assert len(boards(table.fake)) == posts and table.board().message_id == board_id
    assert "moves a twin from b3 to b6 with 6" in (table.board().content or "")
    # Her client may still show the board before the edit: a move picked
    # there (one still legal: the single's 2) is refused, not played.
    shown = copy.deepcopy(table.fake.message(table.board()))
    (stale,) = [p for p in seen_picks(seen) if p[2] == "Twin a1 to b1 with 2"]
    assert stale[0].startswith("chaupal:board:") and stale[1] is not None, stale
    out = await press_as_seen(table.fake, asha, seen, stale)
    await table.refused(out, "out of date", (await table.game()).version)
    assert table.fake.message(table.board()) == shown, "a refused pick changed the board"
    # R11: a single splits off the twin on a1; the twin on b6 (not safe) cannot split.
    game = await table.game()
    texts = bot_of(table.fake).service.legal_texts(game, 0)
    assert texts == ["a1 x2 2", "a1 x1of2 2", "b6 x2 2"], texts
    await table.act("a1 x1of2 2", "menu", asha)
    assert table.styles["menu already sent"] == 1 and not table.styles["Show mine"]
    state = await table.state()
    assert on(state, 0) == [("a1", 1), ("b6", 2), ("c1", 1)]
    assert state.turn == 1 and state.phase == "move"
    assert "moves a single from a1 to c1 with 2" in (boards(table.fake)[-1].content or "")


async def test_R13_R16_kill_by_landing_and_the_bonus_throw_joins_the_bank(
    tables: Tables,
) -> None:
    """Asha's twin lands on Bhima's twin on g2 (R13: the same size dies);
    Bhima's pieces go back to d7 as singles; the kill bonus throw (a 3,
    R16) joins the 1 still in the bank, and the new board offers both."""
    table = await open_at(tables, 2, 12, {0: [("e1", 2), ("b3", 1)], 1: [("g2", 2)]}, bank=(6, 1))
    asha = table.users[0]
    scripted = script(table, 3)
    posts = len(boards(table.fake))
    await table.act("e1 x2 6", "buttons", asha)
    assert not scripted.queue
    state = await table.state()
    assert on(state, 1) == [("d7", 1), ("d7", 1)]  # killed: home as singles
    assert on(state, 0) == [("b3", 1), ("g2", 2)] and state.killed[0]
    assert state.turn == 0 and state.phase == "move" and state.bank == (3, 1)
    view = E.view(state, None)
    assert view.bank == (3, 1) and view.last_move is not None
    assert view.last_move.killed == ("g2",)
    # The bonus throw is news: a new board (Asha is at the keyboard: no ping).
    assert len(boards(table.fake)) == posts + 1
    board = table.board()
    assert board_labels(table) == [
        "Twin g2 to g4 with 3+1",
        "Single b3 to b6 with 3",
        "Single b3 to b4 with 1",
        "Single b3 to c6 with 3+1",
        "Show mine",
        "My turn",
    ]
    assert sorted({spent(label) for label in board_labels(table)[:-2]}) == ["1", "3", "3+1"]
    content = board.content or ""
    assert f"{table.name(0)} moves a twin from e1 to g2 with 6, killing 1 tuple." in content
    # The rest of the bank, typed.
    await table.act("b3 3+1", "command", asha)
    state = await table.state()
    assert on(state, 0) == [("c6", 1), ("g2", 2)] and state.turn == 1
    narration = " ".join(decode(e.narration) for e in await table.log())
    assert "{p0} throws 3 (kill bonus)." in narration  # the engine tells it
    # The board showing the bonus throw tells it.
    assert f"{table.name(0)} throws 3 (kill bonus)" in content, content


async def test_a_big_bank_is_grouped_by_its_largest_value(tables: Tables) -> None:
    """Kill bonuses can bank many values: four singles and a bank of
    12+6+6+5+3+2 make 313 moves, more than the selects of one message hold.
    Only then does the board offer groups, by the largest value spent (the
    engine's menu words); a group's button opens its moves, all at once in
    the selects of one menu, and one pick there plays the move."""
    table = await tables.open(4, 20, "markut=no")
    stacks = {0: [("a2", 1), ("b3", 1), ("c5", 1), ("e1", 1)]}
    await install(table, position(await table.state(), stacks, turn=0, bank=(12, 6, 6, 5, 3, 2)))
    asha = table.users[0]
    assert table.styles["board of groups"] == 1
    assert board_labels(table) == [
        "Spend 12, alone or with smaller values",
        "Spend 6, alone or with smaller values",
        "Spend 5, alone or with smaller values",
        "Spend 3, alone or with smaller values",
        "Spend 2, alone or with smaller values",
        "Show mine",
        "My turn",
    ]
    assert not table.fake.selects(table.board())
    # "Spend 6": its 93 moves, whole, in the selects of one ephemeral menu,
    # each select saying which sums it holds.
    game = await table.game()
    texts = bot_of(table.fake).service.legal_texts(game, 0)
    sixes = [t for t in texts if E.menu_words(game.state, 0, t)[0] == "6…"]
    assert len(texts) == 313 and len(sixes) == 93
    board = table.board()
    out = await table.fake.click(
        asha, board, table.fake.find_button(board, label=board_labels(table)[1])["custom_id"]
    )
    menu = next(s for s in reversed(out) if s.message_id and table.fake.selects(s.message_id))
    assert menu.ephemeral and (menu.content or "").startswith("Spend 6, alone"), menu.content
    selects = table.fake.selects(menu.message_id or 0)
    assert 1 < len(selects) <= MAX_SELECTS, selects
    for select in selects:
        assert select["custom_id"].startswith(f"chaupal:choose:{table.game_id}:{game.version}:1:")
        # The 6's moves are listed piece by piece, so their sums are mixed:
        # each select says which of the 93 moves it holds.
        assert re.fullmatch(r"Choose \(\d+–\d+ of 93\)…", select["placeholder"]), select
    shown = [o["label"] for select in selects for o in select["options"]]
    assert shown == [E.label(game.state, 0, E.parse(game.state, 0, t)) for t in sixes]
    # The same, as a player would: the group's button, then one pick.
    await table.act("e1 6+6", "buttons", asha)
    assert table.styles["group button, then its menu"] == 1
    state = await table.state()
    assert state.turn == 0 and state.bank == (12, 5, 3, 2), state.bank


async def test_R13_kill_by_leaving(tables: Tables) -> None:
    """In a 4-player game, Right's single shares g2 with Asha's twin; the
    twin moves away and the single dies (R13), back to g4; the bonus throw
    (R16) gives Asha a new bank, with a new board."""
    table = await open_at(
        tables,
        4,
        13,
        {0: [("g2", 2), ("b3", 1)], 1: [("g2", 1)], 2: [("f6", 1)], 3: [("b2", 1)]},
        bank=(2,),
    )
    asha = table.users[0]
    # Few moves: they are the buttons, each played at once (issue 18).
    labels = board_labels(table)
    assert labels == [*first_choices(await table.state(), 0), "Show mine", "My turn"]
    assert "Twin g2 to g3 with 2" in labels, labels
    scripted = script(table, 4)
    posts = len(boards(table.fake))
    await table.act("g2 x2 2", "command", asha)
    assert not scripted.queue
    state = await table.state()
    assert on(state, 1) == [("g4", 1)]  # left behind and killed
    assert on(state, 0) == [("b3", 1), ("g3", 2)] and state.killed[0]
    assert state.turn == 0 and state.bank == (4,)
    assert len(boards(table.fake)) == posts + 1
    content = table.board().content or ""
    assert f"{table.name(0)} moves a twin from g2 to g3 with 2, killing 1 tuple." in content
    assert {spent(label) for label in board_labels(table)[:-2]} == {"4"}


async def test_R6_third_six_in_a_row_forfeits_the_turn_in_the_headline(tables: Tables) -> None:
    """Bhima throws 6, 12 and then a third 6 in a row: the 12 and 6 banked
    are lost and the turn ends (R6).  Asha, to move again, reads why on the
    new board."""
    table = await open_at(tables, 2, 14, {0: [("b3", 1)], 1: [("f6", 1)]}, bank=(2,))
    asha = table.users[0]
    assert board_labels(table) == ["Single b3 to b5 with 2", "Show mine", "My turn"]
    scripted = script(table, 6, 12, 6, 3)
    posts = len(boards(table.fake))
    await table.act("b3 2", "buttons", asha)  # the only move: its button plays it
    assert table.styles["board button played"] == 1
    assert not scripted.queue
    state = await table.state()
    assert state.turn == 0 and state.bank == (3,) and on(state, 1) == [("f6", 1)]
    forfeit = "{p1} throws a third 6 in a row and forfeits the turn, losing 12+6 (R6)."
    assert any(forfeit in decode(e.narration) for e in await table.log())  # the engine tells it
    assert len(boards(table.fake)) == posts + 1
    assert board_labels(table)[0].endswith("with 3")
    content = table.board().content or ""
    assert table.filled(forfeit) in content, content


async def test_R8_values_nobody_can_use_are_forfeited(tables: Tables) -> None:
    """Asha's twin can use 3+3 or 5+3 but neither value alone (R10): the
    board offers just those two moves.  After 3+3 the 5 is forfeited (R8);
    then Bhima throws a 3 his twin cannot use, and it is Asha's turn again."""
    table = await open_at(tables, 2, 15, {0: [("b3", 2)], 1: [("c6", 2)]}, bank=(5, 3, 3))
    asha = table.users[0]
    assert board_labels(table) == [
        "Twin b3 to c6 with 5+3",
        "Twin b3 to b6 with 3+3",
        "Show mine",
        "My turn",
    ]
    scripted = script(table, 3, 2)
    await table.act("b3 x2 3+3", "buttons", asha)
    assert not scripted.queue
    state = await table.state()
    assert on(state, 0) == [("b6", 2)] and on(state, 1) == [("c6", 2)]
    assert state.turn == 0 and state.bank == (2,)
    narration = " ".join(decode(e.narration) for e in await table.log())
    assert "{p1} throws 3. {p1} cannot use 3 (R8)." in narration  # the engine tells it
    content = table.board().content or ""
    assert f"{table.name(0)} cannot use 5 (R8)." in content, content
    assert f"{table.name(1)} cannot use 3 (R8)." in content, content


async def test_R17_forfeit_button(tables: Tables) -> None:
    """Asha's single on e3 can use a 5 only by going round the inner ring
    again: the board offers that move and a ``Forfeit a 5 (R17)`` button."""
    table = await open_at(tables, 2, 16, {0: [("e3", 1)], 1: [("f6", 1)]}, bank=(5,))
    asha, bhima = table.users
    assert board_labels(table) == [
        "Single e3 to d5 with 5, round at d3",
        "Forfeit a 5 (R17)",
        "Show mine",
        "My turn",
    ]
    table.pinged.clear()
    out = await table.act("forfeit 5", "buttons", asha)
    assert any(s.content == "Played: Forfeit a 5 (R17)" for s in out), out
    state = await table.state()
    assert on(state, 0) == [("e3", 1)] and state.turn == 1
    assert [e.action for e in await table.log() if e.actor == 0][-1] == "forfeit 5"
    content = table.board().content or ""
    assert f"{table.name(0)} forfeits a 5 (R17)." in content, content
    assert table.pinged == Counter({bhima.id: 1})


async def test_R18_finishes_and_places(tables: Tables) -> None:
    """A 3-player game: Asha's last piece reaches the centre (R17) and she
    takes first place; play goes on without her.  Chitra then finishes with
    4 still in the bank (lost, R18), and Bhima, the last left, is third."""
    table = await open_at(
        tables, 3, 17, {0: [("d3", 1)], 1: [("b3", 1)], 2: [("f6", 1)]}, bank=(1,)
    )
    asha, bhima, chitra = table.users
    await table.act("d3 1 in", "menu", asha)  # from Show mine
    assert table.styles["Show mine"] == 1
    game = await table.game()
    state = game.state
    assert state.places == (0,) and state.turn == 1 and not game.is_over
    content = table.board().content or ""
    assert f"{table.name(0)} has finished, place 1." in content, content
    assert f"<@{bhima.id}>" in content
    # Chitra's last piece on d5, her arrow 3, with 4 and 1 to spend.
    await install(
        table,
        position(
            state, {1: [("b3", 1)], 2: [("d5", 1)]}, turn=2, bank=(4, 1), killed=(2,), places=(0,)
        ),
    )
    table.pinged.clear()
    await table.act("d5 1 in", "command", chitra)
    game = await table.game()
    state = game.state
    assert game.is_over and game.record.status == "finished"
    assert state.places == (0, 2, 1) and state.bank == ()
    assert game.outcome.ranking == (frozenset({0}), frozenset({2}), frozenset({1}))
    final = boards(table.fake)[-1]
    content = final.content or ""
    assert f"{table.name(2)} has finished, place 2." in content, content
    assert "is over" in content and f"Winner: {table.name(0)}." in content, content
    assert f"(1. {table.name(0)}; 2. {table.name(2)}; 3. {table.name(1)})" in content, content
    final_buttons = table.fake.buttons(table.fake.current(final))
    assert [b["label"] for b in final_buttons] == ["Rematch", "Replay"]
    assert not table.pinged  # the end pings nobody
    out = await table.fake.slash(asha, "game play", action="d3 1 in")
    await table.refused(out, f"game #{game.id} is over", game.version)


async def test_restart_while_a_bank_is_half_spent(tables: Tables) -> None:
    """Asha spends the 3 of 6+6+3 from the board; the bot restarts; she
    spends a 6 from the menu sent before the restart and the last 6 from
    the board edited since."""
    table = await open_at(
        tables, 2, 18, {0: [("b3", 1), ("f7", 1)], 1: [("f6", 1)]}, bank=(6, 6, 3)
    )
    asha, bhima = table.users
    # Eleven moves: a select on the board (issue 18).
    assert board_labels(table) == ["Show mine", "My turn"]
    assert offered(table)[2:] == [
        "Single f7 to a6 with 6",
        "Single f7 to c7 with 3",
        "Single f7 to b1 with 6+6",
        "Single f7 to a3 with 6+3",
        "Single f7 to e1 with 6+6+3, round at c1",
        "Single b3 to e6 with 6",
        "Single b3 to b6 with 3",
        "Single b3 to e2 with 6+6",
        "Single b3 to f4 with 6+3",
        "Single b3 to c3 with 6+6+3, in at c2",
        "Single b3 to b2 with 6+6+3, round at c2",
    ]
    board_id = table.board().message_id
    out = await table.act("b3 3", "buttons", asha)
    assert table.styles["board select played"] == 1
    assert table.board().message_id == board_id  # edited in place
    menu = next(s for s in reversed(out) if "Your next choice" in (s.content or ""))
    version = (await table.game()).version

    table.fake = await table.fake.restart(make_bot(table.path, 19))
    game = await table.game()
    assert game.version == version and game.state.bank == (6, 6)
    assert on(game.state, 0) == [("b6", 1), ("f7", 1)]
    # A 6 from the menu sent before the restart (its moves, flat).
    await table.choose_in(asha, menu.message_id or 0, "f7 6")
    await table.check(actor=0)
    state = await table.state()
    assert on(state, 0) == [("a6", 1), ("b6", 1)] and state.bank == (6,)
    assert table.board().message_id == board_id
    # The last 6 from the board, edited in place after the restart: its
    # moves are the buttons (issue 18).
    labels = board_labels(table)
    assert labels == ["Single a6 to b1 with 6", "Single b6 to f4 with 6", "Show mine", "My turn"]
    assert labels[:-2] == first_choices(await table.state(), 0)
    assert all(spent(label) == "6" for label in labels[:-2]), labels
    table.pinged.clear()
    await table.act("b6 6", "buttons", asha)
    state = await table.state()
    assert on(state, 0) == [("a6", 1), ("f4", 1)] and state.turn == 1
    log = [e.action for e in await table.log() if e.actor != CHANCE]
    assert log[-3:] == ["b3 3", "f7 6", "b6 6"]
    assert table.pinged == Counter({bhima.id: 1})
