"""Martian Chaturaji through discord.py's real dispatch (issue 8, item 6).

Whole 4-player and 2-player games played from the board (the game is full
information and a seat has far fewer than 100 moves, so the board shows every
whole move: up to five as buttons, more as selects; one pick plays one,
issue 18), the menus the bot sends (the "Your next choice" reply, "Show
mine"), and typed ``/game play`` moves taken from autocomplete.  Positions
that random play would take too long to reach are built with the engine and
loaded the way a snapshot is (``store.append`` with no entries, then
``service.forget``), then played through Discord: a throne takeover (R8), an
unkindness of ravens (R9), promotions (R10), a re-entry (R11), and a restart
between a turn's two dice.  Throughout, a new board pings only the player who
commands the army to move (``docs/rules/chaturaji.md``, R13).  The last test
shows a stale menu's ``pass`` declining dice the menu never showed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bot.edge.tables.menus import BOARD_BUTTON_MOVES
from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.chaturaji_board import ARMIES
from bot.engines.chaturaji_state import ChaturajiState, Roll
from bot.engines.core import CHANCE
from bot.engines.messages import decode
from renderers.chaturaji import _status as chaturaji_status
from renderers.chaturaji import first_army_choosers, lost_words
from renderers.common import display_name
from tests.bot import driver
from tests.bot.driver import (
    CUSTOM_ID,
    assert_no_secret_ids,
    board_labels,
    board_picks,
    boards,
    bot_of,
    install,
    make_bot,
    press,
)
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.fakes import FakeClock

E = ChaturajiEngine()
ARMY = {name: i for i, name in enumerate(ARMIES)}
MONARCH_TAKEN = re.compile(r"takes (Blue|Red|Green|Yellow) monarch")

START_PIECES = {
    "h1": "blue raven", "g1": "blue paladin", "f1": "blue monarch",
    "f2": "blue squire", "g2": "blue squire", "h2": "blue squire",
    "a1": "red raven", "a2": "red paladin", "a3": "red monarch",
    "b1": "red squire", "b2": "red squire", "b3": "red squire",
    "a8": "green raven", "b8": "green paladin", "c8": "green monarch",
    "a7": "green squire", "b7": "green squire", "c7": "green squire",
    "h8": "yellow raven", "h7": "yellow paladin", "h6": "yellow monarch",
    "g8": "yellow squire", "g7": "yellow squire", "g6": "yellow squire",
}  # fmt: skip
"""R2's starting position, in the engine's JSON form."""


# -- a table of players ------------------------------------------------------


class Table(driver.Table):
    """One game: its players, and the checks made after every decision."""

    async def state(self) -> ChaturajiState:
        return (await self.game()).state

    async def user_to_move(self) -> FakeUser:
        game = await self.game()
        seats = sorted(game.engine.to_move(game.state) - {CHANCE})
        assert seats, "nobody to move"
        return self.by_id[game.user_of(seats[0])]

    async def started(self, lobby: Sent, lines: list[str]) -> None:
        text = self.fake.current(lobby).content or ""
        assert all(line in text for line in lines), text
        await self.check()

    def assert_loaded(self, live: Any, state: Any) -> None:
        assert E.to_json(live) == E.to_json(state)
        assert live.squares == state.squares and live.monarchs == state.monarchs

    async def check(self, actor: int | None = None) -> None:
        """Every board posted since the last check pings (and names) only the
        player who commands the army to move now (R13; R8: the controller)."""
        game = await self.game()
        state: ChaturajiState = game.state
        engine = game.engine
        if game.is_over:
            expected: frozenset[int] = frozenset()
        else:
            if state.phase in ("move", "reenter"):
                seats = {engine.commander(state, state.turn)}
            elif state.phase == "place":
                seats = {engine.commander(state, state.placing[0])}
            else:
                seats = set(engine.to_move(state) - {CHANCE})
            assert engine.waiting_on(state) == seats, (state.phase, engine.waiting_on(state))
            expected = frozenset(game.user_of(s) for s in seats)
        self.board_pings(expected)

    # -- one decision, made the way a player would (``act``) -----------------
    #
    # Martian Chaturaji is full information and a seat never has more than
    # 100 legal moves, so every menu is flat (issue 18): the board shows the
    # mover's whole moves (up to five as buttons, else board selects), and a
    # private menu lists them all; one interaction plays a move.

    def label(self, game: Any, seat: int, text: str) -> str:
        """The action's own label, as the board and menus show it."""
        state = game.state
        return E.label(state, seat, E.parse(state, seat, text))

    def all_labels(self, game: Any, seat: int) -> list[str]:
        """The labels of every legal action of ``seat``, in the engine's order."""
        return [E.label(game.state, seat, a) for a in E.legal_actions(game.state, seat)]

    async def _by_board(self, user: FakeUser, text: str) -> list[Sent]:
        game = await self.game()
        seat = game.seat_of(user.id)
        label = self.label(game, seat, text)
        board = self.board()
        for button in self.fake.buttons(board):
            assert CUSTOM_ID.match(button["custom_id"]), button
        for select in self.fake.selects(board):
            assert CUSTOM_ID.match(select["custom_id"]), select
        picks = board_picks(self.fake, board)
        if [p[2] for p in picks] == ["Choose…"]:  # several seats to move (R14, 4 players)
            out = await self.fake.click(user, board, picks[0][0])
            menu = next(
                s for s in reversed(out) if s.message_id and self.fake.selects(s.message_id)
            )
            assert menu.ephemeral, menu
            return await self.choose_in(user, menu.message_id or 0, text)
        # Nothing is hidden: the board shows every move of the mover, whole.
        assert sorted(p[2] for p in picks) == sorted(self.all_labels(game, seat)), picks
        on_buttons = all(p[1] is None for p in picks)
        assert on_buttons == (len(picks) <= BOARD_BUTTON_MOVES), picks
        if not on_buttons:
            assert all(p[0].startswith("chaupal:board:") for p in picks), picks
        pick = next(p for p in picks if p[2] == label)
        self.styles["board select" if pick[1] is not None else "board button"] += 1
        out = await press(self.fake, user, board, pick)
        assert any((s.content or "").startswith("Played:") for s in out), (text, out)
        if pick[1] is not None:  # a board select answers privately, never edits the board
            played = next(s for s in out if (s.content or "").startswith("Played:"))
            assert played.ephemeral, played
        return out

    def offers(self, game: Any, seat: int, text: str, message: int) -> bool:
        label = self.label(game, seat, text)
        return any(o["label"] == label for s in self.fake.selects(message) for o in s["options"])

    async def choose_in(self, user: FakeUser, message: int, text: str) -> list[Sent]:
        """Select ``text`` in a menu message: the menu lists whole moves
        (options found by the labels a player reads), so one pick plays it."""
        game = await self.game()
        label = self.label(game, game.seat_of(user.id), text)
        selects = self.fake.selects(message)
        assert selects, self.fake.current(message)
        found = [(s, o) for s in selects for o in s["options"] if o["label"] == label]
        assert found, (text, label, [o["label"] for s in selects for o in s["options"]])
        select, option = found[0]
        assert CUSTOM_ID.match(select["custom_id"]), select
        assert select["custom_id"].startswith("chaupal:choose:"), select
        out = await self.fake.select(user, message, select["custom_id"], [option["value"]])
        assert any((s.content or "").startswith("Played:") for s in out), (text, out)
        return out

    def typed(self, text: str) -> str:
        return text[:2] if re.match(r"[a-h][1-8]", text) else text.split()[0]


def picked_labels(table: Table) -> list[str]:
    """The labels of the choices the newest board offers (buttons and selects)."""
    return [label for _, _, label in board_picks(table.fake, table.board())]


# -- setting games up ----------------------------------------------------------


SEATING = {
    4: ("Blue", "Red", "Green", "Yellow"),
    2: ("Blue + Green", "Red + Yellow"),
}
"""R13: what the lobby says each seat (in join order) commands."""
Tables = driver.Tables[Table]
tables = driver.tables_fixture("chaturaji", SEATING, Table)


def position(
    base: ChaturajiState,
    pieces: dict[str, str],
    turn: str,
    faces: Iterable[int],
) -> ChaturajiState:
    """``pieces`` on the board, ``turn``'s turn begun and ``faces`` rolled
    (through the engine, so R6's counting up and R8's control are its own)."""
    obj = E.to_json(base)
    assert isinstance(obj, dict)
    obj.update(
        phase="roll",
        pieces=pieces,
        turn=ARMY[turn],
        control=-1,
        stage=0,
        dice=[],
        reentry=[],
        placing=[],
        quiet=0,
        eventful=False,
        turn_moves=[],
        last_moves=[],
        skipped=[],
        turns=5,
        winner=-1,
    )
    state = E.from_json(obj)
    for face in faces:
        state = E.apply(state, CHANCE, Roll(face))
    assert state.phase == "move" and state.turn == ARMY[turn], state.phase
    return state


async def pass_until(table: Table, army: str, styles: Iterable[str]) -> None:
    """Whoever is to move passes until ``army``'s turn."""
    order = iter(styles)
    for _ in range(12):
        state = await table.state()
        if state.phase == "move" and state.turn == ARMY[army]:
            return
        await table.act("pass", next(order, "command"))
    raise AssertionError(f"{army}'s turn never came")


# -- whole games -----------------------------------------------------------------


def choose(game: Any, seat: int, rng: random.Random, greedy: bool) -> str:
    """A player who moves at random (rarely passing) and, once ``greedy``,
    takes monarchs first, then anything, then promotes."""
    texts = bot_of_texts(game, seat)
    state = game.state

    def label(text: str) -> str:
        return E.label(state, seat, E.parse(state, seat, text))

    for wanted in (
        [t for t in texts if MONARCH_TAKEN.search(label(t))],
        [t for t in texts if "x" in t and not t.startswith(("reenter", "place"))],
        [t for t in texts if "=" in t],
    ):
        if wanted and greedy:
            return rng.choice(wanted)
    moves = [t for t in texts if t != "pass"]
    if moves and rng.random() < 0.95:
        return rng.choice(moves)
    return rng.choice(texts)


def bot_of_texts(game: Any, seat: int) -> list[str]:
    return [E.describe(game.state, seat, a) for a in E.legal_actions(game.state, seat)]


async def play_out(table: Table, rng: random.Random, *, warm_up: int, limit: int = 1500) -> int:
    """Play to the end: ``warm_up`` random decisions, then greedy ones (so
    that the game is long enough to show something, yet ends)."""
    styles = ("buttons", "command", "menu", "buttons")
    for decision in range(limit):
        game = await table.game()
        if game.is_over:
            return decision
        seats = sorted(game.engine.to_move(game.state) - {CHANCE})
        seat = rng.choice(seats)
        text = choose(game, seat, rng, greedy=decision >= warm_up)
        await table.act(text, styles[decision % len(styles)], table.by_id[game.user_of(seat)])
    raise AssertionError("the game did not end")


async def finish_whole_game(table: Table, rng: random.Random, warm_up: int) -> None:
    decisions = await play_out(table, rng, warm_up=warm_up)
    game = await table.game()
    assert game.record.status == "finished" and game.outcome is not None
    assert game.state.phase == "over"
    final = boards(table.fake)[-1]
    assert "is over" in (final.content or ""), final.content
    final_buttons = table.fake.buttons(table.fake.current(final))
    labels = [b["label"] for b in final_buttons]
    assert labels == ["Rematch", "Replay"], "only Rematch and Replay on a final board"
    assert decisions > warm_up // 2
    # Nothing is hidden and the board offers every choice: no DM ever asks
    # for a decision (at most one DM each, the view turned to one's side).
    for user in table.users:
        dms = table.fake.dms(user)
        assert len(dms) <= 1 and not any(table.fake.selects(d) for d in dms), dms
    assert table.styles["buttons"] and table.styles["command"] and table.styles["menu"]
    assert table.styles["menu already sent"] and table.styles["Show mine"], table.styles
    # The board's moves were played both ways: buttons (<= 5) and selects.
    assert table.styles["board button"] and table.styles["board select"], table.styles
    assert set(table.pinged) <= {u.id for u in table.users}
    assert len(table.pinged) >= 2, table.pinged
    log = [e.action for e in await bot_of(table.fake).store.log(table.game_id)]
    assert any(a.startswith("roll") for a in log) and any("-" in a for a in log)
    assert_no_secret_ids(table.fake)


async def test_whole_4_player_game(tables: Tables) -> None:
    table = await tables.open(4, 41, "quiet_rounds=10")
    # R14: both players of the starting partnership are asked (and
    # named on the board); the first answer counts, here the second seat's.
    game = await table.game()
    assert game.state.phase == "choose"
    partners = sorted(game.engine.to_move(game.state))
    assert len(partners) == 2
    board = table.board()
    for seat in partners:
        assert f"<@{game.user_of(seat)}>" in (board.content or "")
    picks = picked_labels(table)
    assert picks == ["Choose…"] or (
        len(picks) == 2 and all(x.endswith("moves first") for x in picks)
    ), picks
    second = table.by_id[game.user_of(partners[1])]
    first = E.describe(game.state, partners[1], E.legal_actions(game.state, partners[1])[1])
    await table.act(first, "buttons", second)
    game = await table.game()
    assert game.state.phase == "move" and game.state.turn == ARMY[first.split()[1]]
    await finish_whole_game(table, random.Random(41), warm_up=120)


async def test_whole_2_player_game(tables: Tables) -> None:
    table = await tables.open(2, 42, "quiet_rounds=10")
    asha, bhima = table.users
    game = await table.game()
    view = game.engine.view(game.state, None)
    assert view.seats == (("blue", "green"), ("red", "yellow"))  # R13
    # R14: one player commands the whole starting partnership: its buttons.
    labels = board_labels(table)
    picks = [x for x in labels if x not in ("Show mine", "My turn")]
    assert len(picks) == 2 and all("moves first" in x for x in picks), labels
    assert picked_labels(table) == picks  # buttons, one pick each
    await finish_whole_game(table, random.Random(42), warm_up=100)
    # Each player moved both of their armies.
    log = await bot_of(table.fake).store.log(table.game_id)
    narration = " ".join(decode(e.narration) for e in log)
    for army, user in (("Blue", asha), ("Green", asha), ("Red", bhima), ("Yellow", bhima)):
        assert f"{army} to play (**{user.name}**)" in table.filled(narration), army


# -- constructed positions -------------------------------------------------------


async def test_throne_takeover(tables: Tables) -> None:
    """R8: Blue's monarch takes Red's on Red's throne (a3); at Blue's next
    turn Blue's player commands Red too, and moves a Red piece."""
    table = await tables.open(4, 51)
    asha, bhima = table.users[:2]
    pieces = {k: v for k, v in START_PIECES.items() if k != "b3"}
    pieces["d3"] = pieces.pop("f1")  # Blue's monarch, three squares from a3
    await install(table, position(await table.state(), pieces, "blue", (1, 2)))
    table.pinged.clear()  # from here on, Red's player is never asked

    # The monarch by one board pick (the whole move), then pass.
    await table.act("d3xa3", "buttons", asha)
    state = await table.state()
    assert state.monarchs[ARMY["red"]] == -1
    assert E.to_json(state)["pieces"]["a3"] == "blue monarch"  # on Red's throne
    if state.turn == ARMY["blue"]:
        await table.act("pass", "menu", asha)
    state = await table.state()
    assert state.turn == ARMY["green"], state.turn  # R7: Red's turn is skipped
    assert "Red's turn is skipped" in (table.board().content or "")
    await pass_until(table, "blue", ("command", "buttons", "menu", "command"))

    # R8: the turn begins with Blue commanding Red from its throne.
    game = await table.game()
    view = game.engine.view(game.state, None)
    assert view.turn == "blue" and view.controlled == "red", view
    assert view.commanding == ("blue", "red")
    assert len(view.dice) == 4 and {d.army for d in view.dice[2:]} == {"red"}
    assert view.armies[ARMY["red"]].controlled_by == "blue"
    posts = boards(table.fake)
    assert "commanding Red from its throne" in (posts[-1].content or ""), posts[-1].content
    assert bhima.id not in table.pinged  # Red's own player never was asked

    # Blue's own dice first: decline them, then Red's dice move Red's pieces.
    state = await table.state()
    if state.stage == 0:
        await table.act("pass", "buttons", asha)
    state = await table.state()
    assert state.turn == ARMY["blue"] and state.stage == 1, (state.turn, state.stage)
    # The board offers Red's moves only (and Red's Pass), each whole.
    picks = picked_labels(table)
    assert picks and all(x.startswith(("Red ", "Pass: Red declines")) for x in picks), picks
    assert any(x.startswith("Pass: Red declines") for x in picks), picks
    assert board_labels(table)[-2:] == ["Show mine", "My turn"], board_labels(table)
    assert "now Red's dice" in (table.board().content or "")
    game = await table.game()
    texts = [t for t in bot_of_texts(game, 0) if t != "pass"]
    assert texts and all(t[:2] in ("a1", "a2", "b1", "b2") for t in texts), texts
    await table.act(texts[0], "buttons", asha)
    log = await bot_of(table.fake).store.log(table.game_id)
    mine = [e for e in log if e.actor == 0 and e.action == texts[0]]
    assert mine and "Red" in decode(mine[-1].narration)
    assert bhima.id not in table.pinged


async def test_unkindness_of_ravens(tables: Tables) -> None:
    """R9: Blue's raven lands on the empty fourth centre square, taking the
    other three ravens, its partner's included; typed from autocomplete."""
    table = await tables.open(4, 52)
    asha = table.users[0]
    pieces = {k: v for k, v in START_PIECES.items() if "raven" not in v}
    pieces.update({"h5": "blue raven", "d4": "red raven", "e4": "green raven",
                   "d5": "yellow raven"})  # fmt: skip
    await install(table, position(await table.state(), pieces, "blue", (3, 4)))
    choices = await table.fake.autocomplete(asha, "game play", focused="action", action="h5")
    named = {c["value"]: c["name"] for c in choices}
    assert "unkindness of ravens" in named["h5-e5"], named
    await table.act("h5-e5", "command", asha)
    state = await table.state()
    for square in ("d4", "e4", "d5"):
        assert state.board[_sq(square)] == 0, square
    assert E.to_json(state)["pieces"]["e5"] == "blue raven"
    game = await table.game()
    view = game.engine.view(game.state, None)
    for army in ("red", "green", "yellow"):
        assert "raven" in view.armies[ARMY[army]].lost, army
    assert "raven" not in view.armies[ARMY["blue"]].lost
    move = view.turn_moves[-1]
    assert sorted(move.captured) == ["d4", "d5", "e4"]
    board = table.board()  # edited in place: Blue still has its squire die
    assert "an unkindness of ravens takes" in (board.content or ""), board.content
    # The second die from the menu that came with the reply.
    assert state.turn == ARMY["blue"]
    await table.act("g2-g3", "menu", asha)
    assert table.styles["menu already sent"] == 1 and not table.styles["Show mine"]
    state = await table.state()
    assert state.turn == ARMY["red"]


async def test_promotion(tables: Tables) -> None:
    """R10: Blue, without paladin or raven, rolls 2 and 4 (both squires,
    R6): h7-h8=r by board and menu, then a8=p (in place) typed."""
    table = await tables.open(4, 53)
    asha = table.users[0]
    pieces = {
        "f1": "blue monarch", "g2": "blue squire", "h7": "blue squire", "a8": "blue squire",
        "a1": "red raven", "a2": "red paladin", "a3": "red monarch",
        "b1": "red squire", "b2": "red squire", "b3": "red squire",
        "c8": "green monarch", "b7": "green squire", "c7": "green squire",
        "h6": "yellow monarch", "h4": "yellow raven", "g6": "yellow squire",
    }  # fmt: skip
    state = position(await table.state(), pieces, "blue", (2, 4))
    assert [d[2] for d in state.dice] == [3, 3]  # R6: the 2 counted up to a squire
    await install(table, state)
    # The board shows each promotion as a whole move (Blue lacks both).
    promotions = [x for x in picked_labels(table) if x.startswith("Blue squire h7-h8")]
    expected = [E.label(state, 0, E.parse(state, 0, t)) for t in ("h7-h8=p", "h7-h8=r")]
    assert sorted(promotions) == expected, promotions
    assert expected[1].endswith("becomes a raven"), expected
    out = await table.act("h7-h8=r", "buttons", asha)
    assert any("becomes a raven" in (s.content or "") for s in out)
    state = await table.state()
    assert E.to_json(state)["pieces"]["h8"] == "blue raven"
    game = await table.game()
    assert "a8=p" in bot_of_texts(game, 0) and "a8=r" not in bot_of_texts(game, 0)
    # In place, typed the loose way the notation allows.
    choices = await table.fake.autocomplete(asha, "game play", focused="action", action="a8")
    named = {c["value"]: c["name"] for c in choices}
    assert "promote in place to paladin" in named["a8=p"], named
    out = await table.fake.slash(asha, "game play", action="A8 = P")
    assert any((s.content or "").startswith("Played:") for s in out), out
    await table.check()
    state = await table.state()
    pieces_now = E.to_json(state)["pieces"]
    assert pieces_now["a8"] == "blue paladin" and pieces_now["h8"] == "blue raven"
    assert state.turn == ARMY["red"]
    view = E.view(state, None)
    assert [m.promoted for m in view.last_moves] == ["raven", "paladin"]
    assert "becomes a paladin" in (boards(table.fake)[-1].content or "")


async def test_reentry(tables: Tables) -> None:
    """R11: Green's monarch is captured; Blue's paladin takes Red's monarch.
    Blue's player re-enters both, Red placing first; Red's player places by
    typing, Green's from "Show mine"; Blue then uses its other die."""
    table = await tables.open(4, 54)
    asha, bhima, chitra = table.users[:3]
    pieces = {k: v for k, v in START_PIECES.items() if k not in ("c8", "a3", "g1")}
    pieces.update({"d3": "blue paladin", "e5": "red monarch"})
    await install(table, position(await table.state(), pieces, "blue", (2, 4)))
    await table.act("d3xe5", "buttons", asha)
    game = await table.game()
    assert game.state.phase == "reenter"
    labels = board_labels(table)
    assert "Re-enter both monarchs, Red placing first" in labels, labels
    assert "No re-entry: both monarchs stay captured" in labels
    await table.act("reenter red", "buttons", asha)
    game = await table.game()
    assert game.state.phase == "place" and game.engine.view(game.state, None).placing == "red"
    assert bhima.id in table.pinged  # Red's owner places (R11.2)
    await table.act("place a5", "command", bhima)
    game = await table.game()
    assert game.engine.view(game.state, None).placing == "green"
    assert chitra.id in table.pinged
    await table.act("place e8", "menu", chitra)
    assert table.styles["Show mine"] == 1  # nothing had been sent to Green's player
    game = await table.game()
    view = game.engine.view(game.state, None)
    assert view.armies[ARMY["red"]].monarch == "a5"
    assert view.armies[ARMY["green"]].monarch == "e8"
    assert game.state.phase == "move" and view.turn == "blue"  # the squire die is left
    log = await bot_of(table.fake).store.log(table.game_id)
    narration = table.filled(" ".join(decode(e.narration) for e in log))
    assert f"**{bhima.name}** places the Red monarch on a5" in narration, narration
    assert f"**{chitra.name}** places the Green monarch on e8" in narration, narration
    await table.act("f2-f3", "buttons", asha)
    state = await table.state()
    assert state.turn == ARMY["red"] and not state.skipped  # R11.3: Red plays again


def _sq(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


async def test_restart_mid_turn_between_the_two_dice(tables: Tables) -> None:
    table = await tables.open(4, 61)
    asha, bhima = table.users[:2]
    await install(table, position(await table.state(), START_PIECES, "blue", (4, 2)))

    # First die by the board; the board is edited in place (nobody new to act).
    board_id = table.board().message_id
    posts = len(boards(table.fake))
    out = await table.act("f2-f3", "buttons", asha)
    assert len(boards(table.fake)) == posts and table.board().message_id == board_id
    # The reply (private) offers the second die's moves at once.
    menu = next(
        s
        for s in reversed(out)
        if s.ephemeral and s.message_id and table.fake.selects(s.message_id or 0)
    )
    assert "Your next choice" in (table.fake.current(menu).content or "")
    options = [o["label"] for s in table.fake.selects(menu.message_id or 0) for o in s["options"]]
    assert "Blue paladin g1-h3" in options, options  # whole moves, not pieces
    version = (await table.game()).version

    table.fake = await table.fake.restart(make_bot(table.path, 62))
    game = await table.game()
    assert game.version == version and game.state.turn == ARMY["blue"]
    # Second die from the menu sent before the restart.
    await table.choose_in(asha, menu.message_id or 0, "g1-h3")
    await table.check()
    state = await table.state()
    pieces = E.to_json(state)["pieces"]
    assert pieces["f3"] == "blue squire" and pieces["h3"] == "blue paladin"
    assert "f2" not in pieces and "g1" not in pieces
    assert state.turn == ARMY["red"] and state.phase == "move" and len(state.dice) == 2
    log = [e.action for e in await bot_of(table.fake).store.log(table.game_id)]
    assert log[-4:-2] == ["f2-f3", "g1-h3"] and all(a.startswith("roll") for a in log[-2:])
    assert bhima.id in table.pinged

    # Again, from the board edited in place: Red rolls a double of squires.
    await install(table, position(state, START_PIECES, "red", (4, 4)))
    board_id = table.board().message_id
    await table.act("b2-c2", "command", bhima)
    assert table.board().message_id == board_id  # edited in place
    table.fake = await table.fake.restart(make_bot(table.path, 63))
    labels = picked_labels(table)
    assert "Red squire b1-c1" in labels, labels
    await table.act("b1-c1", "buttons", bhima)
    state = await table.state()
    pieces = E.to_json(state)["pieces"]
    assert pieces["c2"] == "red squire" and pieces["c1"] == "red squire"
    assert state.turn == ARMY["green"]
    assert_no_secret_ids(table.fake)


async def test_a_pass_kept_in_an_old_menu_is_not_played_on_other_dice(tables: Tables) -> None:
    """Menus stay usable, but "a die re-rolled ... is never played blind"
    (docs/ARCHITECTURE.md): with 2 players, a Pass in the menu Asha opened
    ("Show mine") on Blue's turn must not decline Green's dice, rolled turns
    later, that the menu never showed.  Every menu is flat now (issue 18), so
    the old menu's Pass is one pick away, and its label (naming the army,
    its dice and the turn) is what tells Blue's pass from Green's."""
    table = await tables.open(2, 71)
    asha = table.users[0]
    await install(table, position(await table.state(), START_PIECES, "blue", (4, 2)))
    out = await table.fake.click(asha, table.board(), f"chaupal:mine:{table.game_id}")
    menu = next(s for s in out if s.files and table.fake.selects(s.message_id or 0))
    assert menu.ephemeral, menu
    old = [(s, o) for s in table.fake.selects(menu.message_id or 0) for o in s["options"]]
    assert all(s["custom_id"].startswith("chaupal:choose:") for s, _ in old), old
    # Flat: every move of Blue's two dice and the Pass, side by side.
    game = await table.game()
    assert sorted(o["label"] for _, o in old) == sorted(table.all_labels(game, 0))
    select, option = next((s, o) for s, o in old if o["label"].startswith("Pass"))
    assert option["label"].startswith("Pass: Blue declines"), option
    # Blue moves both dice another way; Red passes; Green (Asha again) rolls.
    await table.act("f2-f3", "command", asha)
    await table.act("g1-h3", "buttons", asha)
    await pass_until(table, "green", ("buttons", "command", "buttons"))
    game = await table.game()
    green_turn, green_dice = game.state.turns, game.state.dice
    assert game.state.turn == ARMY["green"] and game.seat_of(asha.id) == 0
    # The old menu's Pass, chosen now: it is not Blue's pass any more.
    green_pass = E.label(game.state, 0, E.parse(game.state, 0, "pass"))
    assert green_pass.startswith("Pass: Green declines") and green_pass != option["label"]
    out = await table.fake.select(
        asha, menu.message_id or 0, select["custom_id"], [option["value"]]
    )
    game = await table.game()
    assert not any((s.content or "").startswith("Played:") for s in out), (
        "a stale Pass declined Green's dice unseen",
        [s.content for s in out],
    )
    assert game.state.turns == green_turn and game.state.dice == green_dice
    assert any("no longer on offer" in (s.content or "") for s in out), out
    # The menu now offers Green's choices instead, its own Pass among them.
    now = [o["label"] for s in table.fake.selects(menu.message_id or 0) for o in s["options"]]
    assert green_pass in now and option["label"] not in now, now


# -- issue 31: the board's words and its image agree ------------------------------------------


async def test_the_first_board_and_its_image_name_the_same_choosers(tmp_path: Path) -> None:
    """R14: a person and an automatic player won the start roll together;
    the first board's text names both as the ones to play, and the image's
    headline (``renderers.chaturaji`` draws it from the same view) names
    both as the ones who may pick the first army, not one of them."""
    fake = await FakeDiscord.start(make_bot(tmp_path / "first.sqlite3", 1, FakeClock()))
    try:
        people = [fake.user(name) for name in ("asha", "bhima", "chitra")]
        out = await fake.slash(people[0], "game new", game="chaturaji", bots=1)
        lobby = next(s for s in out if s.route == "interaction.response")
        for user in people[1:]:
            await fake.click(user, lobby, fake.find_button(lobby, label="Join")["custom_id"])
        await fake.click(people[0], lobby, fake.find_button(lobby, label="Start")["custom_id"])
        game_id = int(re.findall(r"game #(\d+)", lobby.content or "")[0])
        live = await bot_of(fake).service.get(game_id)
        view = live.engine.view(live.state, None)
        assert view.phase == "choose"
        choosers = set(first_army_choosers(view))
        # Seed 1: the automatic player and a person (the case of issue 31).
        assert any(live.is_auto(s) for s in choosers) and not all(
            live.is_auto(s) for s in choosers
        ), choosers
        text = fake.current(boards(fake)[-1]).content or ""
        (line,) = [line for line in text.splitlines() if line.endswith("to play.")]
        in_text = {
            s
            for s in range(len(live.seats))
            if f"<@{live.user_of(s)}>" in line or f"**{live.names[s]}**" in line
        }
        headline = chaturaji_status(view, live.names)
        # As the image draws names (an emoji without an emoji font is left out).
        drawn = [display_name(live.names, s) for s in range(len(live.seats))]
        in_image = {s for s, name in enumerate(drawn) if name in headline}
        assert in_text == in_image == choosers, (line, headline)
    finally:
        await fake.close()


async def test_a_captured_monarch_is_not_lost_nothing(tables: Tables) -> None:
    """R7: Green's monarch is captured and nothing else of Green's is; the
    board's Green panel, which shows the monarch captured, does not say that
    Green lost nothing."""
    table = await tables.open(4, 52)
    pieces = {k: v for k, v in START_PIECES.items() if k != "c8"}
    await install(table, position(await table.state(), pieces, "blue", (4, 2)))
    game = await table.game()
    view = game.engine.view(game.state, None)
    green = view.armies[ARMY["green"]]
    assert green.monarch is None and green.lost == ("monarch",)
    assert lost_words(green) == "only the monarch"
    assert lost_words(view.armies[ARMY["blue"]]) == "nothing"
