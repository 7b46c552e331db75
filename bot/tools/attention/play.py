"""One game, played through the menus the bot sent: the scenarios, and the
table that plays one (a pick on the newest board, or the newest DM or reply
that shows a select).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.edge.client import ChaupalBot
from bot.edge.tables.menus import board_menu
from bot.engines.core import Seat, owed_decisions
from bot.service import LiveGame
from bot.tools.attention.fake_discord import Member, RecordingDiscord
from bot.tools.attention.recorded import Outgoing, Stalled

MAX_DECISIONS: Final = 3000
"""A guard: a game not over after this many decisions of its people is a bug."""
MAX_MENU_STEPS: Final = 12


@dataclass(frozen=True)
class Scenario:
    """One measured game: ``people`` persons (seat order is join order) and
    ``bots`` automatic seats (``/game new bots:N``), default settings."""

    name: str
    engine: str
    people: int
    bots: int = 0
    seed: int = 1

    @property
    def solo(self) -> bool:
        return self.people == 1 and self.bots > 0


SCENARIOS: Final = (
    Scenario("sangram-3p", "sangram", 3, seed=3),
    Scenario("chaturaji-4p", "chaturaji", 4, seed=1),
    Scenario("mahabharata-3p", "mahabharata", 3, seed=1),
    Scenario("chaturaji-solo", "chaturaji", 1, bots=3, seed=1),
    Scenario("sangram-solo", "sangram", 1, bots=4, seed=1),
)
"""The games of issue 30's measure.  Seeds only pick the games' length:
Sangram's seed 3 ends after 154 decisions of its people (seed 1 after 90,
seed 2 after 203, with the same figures within a tenth)."""


@dataclass(frozen=True)
class Decision:
    user_id: int
    seat: Seat
    version: int
    """The game's version when it was made."""
    after: int
    """The game's version once it was made (and delivered)."""
    at: float
    source: str
    """"board", "menu" (a select already sent) or "reopen" ("Show mine")."""
    interactions: int


@dataclass
class Wait:
    """A person's wait: from their decision until the bot awaits them again."""

    seat: Seat
    since: float
    until: float
    from_version: int
    to_version: int
    automatic_moves: int = 0
    pad: float = 0.0

    @property
    def seconds(self) -> float:
        return self.until - self.since + self.pad


class Table:
    """One game through a :class:`RecordingDiscord`, from ``/game new`` to
    the final board, and the rematch's lobby after it."""

    def __init__(self, scenario: Scenario, fake: RecordingDiscord, people: list[Member]) -> None:
        self.scenario = scenario
        self.fake = fake
        self.people = people
        self.by_id = {p.id: p for p in people}
        self.rng = random.Random(scenario.seed)
        self.game_id = 0
        self.lobby_id = 0
        self.decisions: list[Decision] = []
        self.waits: list[Wait] = []
        self.reopens = 0
        self.refusals: list[str] = []
        self._last: dict[Seat, tuple[float, int]] = {}
        """A person's seat -> (time, version) of their last decision."""

    @property
    def bot(self) -> ChaupalBot:
        return self.fake.bot

    async def game(self) -> LiveGame:
        return await self.bot.service.get(self.game_id)

    async def open(self) -> None:
        creator, *joiners = self.people
        options: dict[str, Any] = {"game": self.scenario.engine}
        if self.scenario.bots:
            options["bots"] = self.scenario.bots
        out = await self.fake.slash(creator, "game new", **options)
        lobby = next((s for s in out if s.new and s.place == "channel"), None)
        found = re.search(r"game #(\d+)", lobby.content) if lobby is not None else None
        if lobby is None or found is None:
            raise Stalled(f"/game new opened no lobby: {out}")
        self.game_id, self.lobby_id = int(found[1]), lobby.message_id
        for person in joiners:
            await self.fake.click(person, self.lobby_id, f"chaupal:lobby:{self.game_id}:join")
        await self.fake.click(creator, self.lobby_id, f"chaupal:lobby:{self.game_id}:start")

    async def play(self) -> None:
        """Until the game is over: a person who owes a decision makes it at
        once; when only automatic seats owe one, the clock moves to the next
        timer and the scheduler fires it."""
        while len(self.decisions) < MAX_DECISIONS:
            await self.fake.settle()
            game = await self.game()
            if game.is_over:
                return
            public, private = owed_decisions(game.engine, game.state)
            owing = sorted(s for s in public | private if not game.is_auto(s))
            if not owing:
                await self.advance()
                continue
            seat = self.rng.choice(owing)
            last = self._last.get(seat)
            if last is not None:
                self.waits.append(Wait(seat, last[0], self.fake.clock(), last[1], game.version))
            await self.decide(game, seat)
        raise Stalled(f"game #{self.game_id} not over after {MAX_DECISIONS} decisions")

    async def advance(self) -> None:
        """Move the clock to the earliest timer and fire what is due."""
        timer = await self.bot.service.timers.earliest()
        if timer is None:
            raise Stalled(f"game #{self.game_id} owes nobody a decision and has no timer")
        self.fake.clock.now = max(self.fake.clock.now, timer.due)
        await self.bot.scheduler.run_due()
        await self.bot.scheduler.wait_idle()
        await self.fake.settle()

    async def decide(self, game: LiveGame, seat: Seat) -> None:
        """One decision of ``seat``'s person, from what the bot sent: a pick
        on the newest board when the board offers their choices, else the
        newest menu sent to them; "Show mine" only when neither works."""
        user = self.by_id[game.user_of(seat)]
        version = game.version
        at = self.fake.clock()
        if seat in board_menu(game).seats:
            source, count = await self._from_board(user)
        else:
            menu = self.fake.newest_menu(user.id)
            played = False
            count = 0
            if menu is not None:
                count, played = await self._walk(user, menu)
            source = "menu"
            if not played:
                source, count = "reopen", count + await self._reopen(user)
        after = await self.game()
        if after.version <= version:
            raise Stalled(f"{user.name}'s decision at version {version} played nothing")
        self.decisions.append(Decision(user.id, seat, version, after.version, at, source, count))
        self._last[seat] = (self.fake.clock(), after.version)

    async def _from_board(self, user: Member) -> tuple[str, int]:
        board = self.fake.newest_board()
        picks: list[tuple[str, str | None]] = [
            (b["custom_id"], None)
            for b in self.fake.buttons(board)
            if b["custom_id"].startswith("chaupal:move:") and b.get("label") != "Choose…"
        ]
        for select in self.fake.selects(board):
            if select["custom_id"].startswith("chaupal:board:"):
                picks += [(select["custom_id"], o["value"]) for o in select["options"]]
        if not picks:
            return "reopen", await self._reopen(user)
        custom_id, value = self.rng.choice(picks)
        if value is None:
            out = await self.fake.click(user, board, custom_id)
        else:
            out = await self.fake.select(user, board, custom_id, value)
        reply = _reply(out)
        if _played(reply):
            return "board", 1
        if reply is None:
            raise Stalled(f"no answer to {user.name}'s pick on the board")
        count, played = await self._walk(user, reply.message_id)
        if not played:
            return "reopen", 1 + count + await self._reopen(user)
        return "board", 1 + count

    async def _walk(self, user: Member, message_id: int) -> tuple[int, bool]:
        """Choose at random through a menu until a move is played: (how
        many selections, whether one was played)."""
        for count in range(1, MAX_MENU_STEPS + 1):
            selects = self.fake.selects(message_id)
            if not selects:
                return count - 1, False
            select = self.rng.choice(selects)
            options = [o for o in select["options"] if not _avoid(o["label"])]
            option = self.rng.choice(options or select["options"])
            out = await self.fake.select(user, message_id, select["custom_id"], option["value"])
            reply = _reply(out)
            if _played(reply):
                return count, True
            if reply is not None:
                text = reply.content.lower()
                if any(w in text for w in _REFUSALS):
                    self.refusals.append(reply.content[:120])
                message_id = reply.message_id
        raise Stalled(f"{user.name}'s menu never reached a move")

    async def _reopen(self, user: Member) -> int:
        """Press "Show mine" on the newest board, then choose in its menu:
        what a player must do when no menu they were sent works (counted:
        it should never be needed).  How many interactions it took."""
        self.reopens += 1
        board = self.fake.newest_board()
        out = await self.fake.click(user, board, f"chaupal:mine:{self.game_id}")
        menu = next((s.message_id for s in reversed(out) if s.has_select), None)
        if menu is None:
            raise Stalled(f"'Show mine' offered {user.name} no menu")
        count, played = await self._walk(user, menu)
        if not played:
            raise Stalled(f"{user.name} could not move even from a fresh menu")
        return 1 + count

    async def rematch(self) -> Outgoing | None:
        """**Rematch** on the final board, by the game's creator: the new
        lobby's message."""
        board = self.fake.newest_board()
        ids = [b["custom_id"] for b in self.fake.buttons(board)]
        if f"chaupal:rematch:{self.game_id}" not in ids:
            return None
        mark = len(self.fake.sent)
        await self.fake.click(self.people[0], board, f"chaupal:rematch:{self.game_id}")
        return next(
            (s for s in self.fake.sent[mark:] if s.new and s.content.startswith("Rematch of game")),
            None,
        )


_REFUSALS: Final = ("no longer on offer", "out of date", "not your turn", "something went wrong")


def _reply(out: Sequence[Outgoing]) -> Outgoing | None:
    """The answer to an interaction: its response, follow-up or edit."""
    return next((s for s in reversed(out) if s.interaction_id is not None), None)


def _played(reply: Outgoing | None) -> bool:
    return reply is not None and reply.content.startswith("Played:")


def _avoid(label: str) -> bool:
    """Starting an Artaban set-up over would make a random game endless."""
    return label.startswith("Start the set-up again")
