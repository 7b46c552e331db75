"""Playing whole games only from what the bot already sent each player.

A :class:`MenuPlayer` makes every decision the way a player who never asks
for a menu would: a pick button on the newest public board when the decision
is theirs alone and its choices are public, otherwise the newest message the
bot sent them (a DM, or the reply to their own last interaction) that still
shows a select.  It never presses "Choose…" or "Show mine", never runs
``/game hand`` or ``/game play``; when no usable menu was sent it records a
*reopen* and only then falls back to "Show mine" (or "Choose…"), so that the
game can go on and every such decision is counted.

Players whose DMs are closed (``blocked``) use "Show mine" by design; their
decisions are recorded apart.

Everything goes through discord.py's real dispatch (``FakeDiscord``); the
bot's service is read only to know who must act, as ``driver.movers`` does.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.edge.tables.menus import board_menu
from bot.engines.core import CHANCE
from tests.bot.driver import board_picks, boards, bot_of, make_bot, open_lobby, press, start
from tests.discord_harness import FakeDiscord, FakeUser, Sent

REFUSALS = (
    "no longer on offer",
    "out of date",
    "not your turn",
    "something went wrong",
    "is over",
)
"""Words of the bot's refusals (a move's "Played:" reply never has them)."""

MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Decision:
    user_id: int
    seat: int
    version: int
    """The game version the decision was made at."""
    source: str
    """"board" (a pick button on the newest board), "menu" (a select the bot
    had already sent), "reopen" ("Show mine" or "Choose…" was needed)."""
    interactions: int
    why: str = ""
    """For a reopen: what was missing."""
    sent_index: int = 0
    """``len(fake.sent)`` just before the decision's first interaction."""


@dataclass
class Refusal:
    user_id: int
    version: int
    content: str
    custom_id: str


@dataclass
class MenuPlayer:
    fake: FakeDiscord
    game_id: int
    users: list[FakeUser]
    rng: random.Random
    blocked: set[int] = field(default_factory=set)
    decisions: list[Decision] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    _dm_channels: set[int] = field(default_factory=set)

    # -- what the test may look at ----------------------------------------

    @property
    def by_id(self) -> dict[int, FakeUser]:
        return {u.id: u for u in self.users}

    def newest_menu(self, user: FakeUser) -> int | None:
        """The message id of the newest message the bot sent (or edited for)
        ``user`` in private, DM or ephemeral, that still shows a select."""
        world = self.fake.world
        touched: dict[int, int] = {}
        for index, sent in enumerate(self.fake.sent):
            if sent.user_id != user.id or not sent.message_id:
                continue
            private = sent.ephemeral or (
                sent.channel_id is not None and world.is_dm_channel(sent.channel_id)
            )
            if private:
                touched[sent.message_id] = index
        for mid in sorted(touched, key=touched.__getitem__, reverse=True):
            if self.fake.is_deleted(mid) or mid not in world.messages:
                continue
            if self.fake.selects(mid):
                return mid
        return None

    def board(self) -> Sent:
        """The newest board, as it is now (boards are edited in place)."""
        return self.fake.current(boards(self.fake)[-1])

    # -- playing -----------------------------------------------------------

    async def play(self, max_decisions: int) -> bool:
        """Play until the game ends (True) or ``max_decisions`` were made."""
        while len(self.decisions) < max_decisions:
            if not await self.step():
                return True
        return False

    async def step(self) -> bool:
        """One decision by one player who must act; False when the game is over."""
        service = bot_of(self.fake).service
        game = await service.get(self.game_id)
        if game.is_over:
            return False
        # The service keeps one live object per game and updates it in place.
        engine, state, version = game.engine, game.state, game.version
        movers = engine.to_move(state) - {CHANCE}
        assert movers, f"game #{self.game_id} waits on nobody but is not over"
        waiting = engine.waiting_on(state)
        awaited = waiting & movers
        seat = self.rng.choice(sorted(awaited or movers))
        user = self.by_id[game.user_of(seat)]
        on_board = seat in board_menu(game).seats  # the board's buttons are this seat's choices
        mark = len(self.fake.sent)
        if on_board:
            source, count, why = await self._from_board(user, version)
        elif user.id in self.blocked:
            source, count, why = await self._reopen(user, version, "DMs closed")
        else:
            mid = self.newest_menu(user)
            if mid is None:
                source, count, why = await self._reopen(
                    user, version, "no select was sent to this player"
                )
            else:
                count, played = await self._walk(user, mid, version)
                source, why = "menu", ""
                if not played:
                    _, more, why = await self._reopen(user, version, "the menu sent was refused")
                    source, count = "reopen", count + more
        self.decisions.append(Decision(user.id, seat, version, source, count, why, mark))
        after = await service.get(self.game_id)
        assert after.version > version, f"{user.name}'s decision played nothing"
        return True

    async def _from_board(self, user: FakeUser, version: int) -> tuple[str, int, str]:
        board = self.board()
        picks = [p for p in board_picks(self.fake, board) if p[2] != "Choose…"]
        if not picks:
            return await self._reopen(user, version, "the board shows only 'Choose…'")
        pick = self.rng.choice(picks)
        out = await press(self.fake, user, board, pick)
        reply = self._reply(out)
        self._note_refusal(user, version, reply, pick[0])
        if self._played(reply):
            return "board", 1, ""
        assert reply is not None and reply.message_id, f"no reply to a board button: {out}"
        count, played = await self._walk(user, reply.message_id, version)
        if not played:
            _, more, why = await self._reopen(user, version, "the board's menu was refused")
            return "reopen", 1 + count + more, why
        return "board", 1 + count, ""

    async def _reopen(self, user: FakeUser, version: int, why: str) -> tuple[str, int, str]:
        """What a player has to do when no usable menu was sent: "Show mine"
        (or the board's "Choose…"), then its menu."""
        board = self.board()
        mine = self.fake.find_button(board, label="Show mine")
        out = await self.fake.click(user, board, mine["custom_id"])
        reply = self._reply(out)
        menu = next(
            (
                s.message_id
                for s in reversed(out)
                if s.message_id and self.fake.selects(s.message_id)
            ),
            None,
        )
        if menu is None:
            choose = self.fake.find_button(board, label="Choose…")
            out = await self.fake.click(user, board, choose["custom_id"])
            reply = self._reply(out)
            self._note_refusal(user, version, reply, choose["custom_id"])
            if self._played(reply):
                return "reopen", 2, why
            menu = reply.message_id if reply is not None else None
            assert menu, f"neither 'Show mine' nor 'Choose…' offered {user.name} a menu: {out}"
            count, played = await self._walk(user, menu, version)
            assert played, f"{user.name} could not move even from a fresh menu"
            return "reopen", 2 + count, why
        count, played = await self._walk(user, menu, version)
        assert played, f"{user.name} could not move even from a fresh menu"
        return "reopen", 1 + count, why

    async def _walk(self, user: FakeUser, message: int, version: int) -> tuple[int, bool]:
        """Select at random through ``message`` until a move is played.
        Returns (interactions, played); not played when the menu was refused
        and offers nothing more."""
        for count in range(1, 13):
            selects = self.fake.selects(message)
            if not selects:
                return count - 1, False
            select = self.rng.choice(selects)
            options = [o for o in select["options"] if not avoid(o["label"])]
            option = self.rng.choice(options or select["options"])
            out = await self.fake.select(user, message, select["custom_id"], [option["value"]])
            reply = self._reply(out)
            self._note_refusal(user, version, reply, select["custom_id"])
            if self._played(reply):
                return count, True
            if reply is not None and reply.message_id:
                message = reply.message_id
        raise AssertionError(f"{user.name}'s menu never reached a move")

    @staticmethod
    def _reply(out: list[Sent]) -> Sent | None:
        """The message answering the interaction (response, edit or followup)."""
        for sent in reversed(out):
            if sent.route in ("interaction.response", "followup", "edit_original") and (
                sent.content is not None
            ):
                return sent
        return None

    @staticmethod
    def _played(reply: Sent | None) -> bool:
        return reply is not None and (reply.content or "").startswith("Played:")

    def _note_refusal(
        self, user: FakeUser, version: int, reply: Sent | None, custom_id: str
    ) -> None:
        text = (reply.content or "") if reply is not None else ""
        if not self._played(reply) and any(w in text.lower() for w in REFUSALS):
            self.refusals.append(Refusal(user.id, version, text, custom_id))

    # -- statistics --------------------------------------------------------

    def counted(self) -> list[Decision]:
        """Decisions of players whose DMs are open."""
        return [d for d in self.decisions if d.user_id not in self.blocked]

    def reopened(self) -> list[Decision]:
        return [d for d in self.counted() if d.source == "reopen"]


def avoid(label: str) -> bool:
    """Options a random player skips when there are others: starting an
    Artaban set-up over would make a random game endless."""
    return label.startswith("Start the set-up again")


def stats(counts: list[int]) -> tuple[float, int, int]:
    """Mean, 95th percentile (nearest rank) and maximum."""
    if not counts:
        return 0.0, 0, 0
    ordered = sorted(counts)
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return sum(ordered) / len(ordered), p95, ordered[-1]


async def new_game(
    tmp_path: Path,
    game: str,
    players: int,
    seed: int,
    *,
    options: str | None = None,
    names: tuple[str, ...] = ("asha", "bhima", "chitra", "dev", "esha"),
    nick: dict[int, str] | None = None,
    blocked: tuple[int, ...] = (),
) -> MenuPlayer:
    """A started game of ``players`` (seat order = join order) and its player."""
    fake = await FakeDiscord.start(make_bot(tmp_path / f"{game}-{seed}.sqlite3", seed))
    users = [fake.user(names[i], nick=(nick or {}).get(i)) for i in range(players)]
    for i in blocked:
        fake.block_dms(users[i])
    game_id, lobby = await open_lobby(fake, game, users[0], *users[1:], options=options)
    await start(fake, users[0], lobby)
    live = await bot_of(fake).service.get(game_id)
    by_seat = sorted(users, key=lambda u: live.seat_of(u.id) or 0)
    return MenuPlayer(
        fake, game_id, by_seat, random.Random(seed), blocked={users[i].id for i in blocked}
    )


# -- who a message notifies -------------------------------------------------


def is_board_post(sent: Sent) -> bool:
    """A new public board (an image posted to the channel)."""
    return sent.route == "channel.send" and any(n.endswith(".png") for n, _ in sent.files)


def notifies(fake: FakeDiscord, sent: Sent) -> bool:
    """Whether Discord would notify anyone for this call: a new message that
    everyone in a guild channel sees (edits, ephemerals and DMs never ping)."""
    return (
        sent.created
        and not sent.ephemeral
        and sent.channel_id is not None
        and not fake.world.is_dm_channel(sent.channel_id)
    )


SILENT = 1 << 12
"""Discord's SUPPRESS_NOTIFICATIONS flag: a message sent with it (``silent``)
notifies nobody."""


def dm_notified(sent: Sent) -> int | None:
    """The user a new DM notifies (a DM always does, unless sent silently):
    edits never notify."""
    if sent.route == "dm.send" and not sent.flags & SILENT:
        return sent.user_id
    return None


def notified(fake: FakeDiscord, sent: Sent) -> frozenset[int]:
    """Everyone this call notifies: the pings of a new channel message, or
    the recipient of a new DM that is not silent (issue 30's measure)."""
    dm = dm_notified(sent)
    return pinged(fake, sent) | (frozenset() if dm is None else frozenset({dm}))


def pinged(fake: FakeDiscord, sent: Sent) -> frozenset[int]:
    """The users this call pings: mentioned in its content and let through by
    its ``allowed_mentions`` (without one, Discord parses every mention)."""
    if not notifies(fake, sent):
        return frozenset()
    mentioned = {int(m) for m in MENTION.findall(sent.content or "")}
    allowed = sent.raw.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return frozenset(mentioned)
    return frozenset(mentioned & {int(u) for u in allowed.get("users") or []})


# -- words ----------------------------------------------------------------

PLAYER_NUMBER = re.compile(r"\bplayer \d", re.IGNORECASE)
SEAT_TAG = re.compile(r"\{p\d*")
ONE_PLURAL = re.compile(
    r"(?<![\w.,-])1 (tokens|cards|rounds|spaces|britishers|choices|players|points|pts|dice"
    r"|moves|games|days|seats|turns|pieces|tuples|files|icons|picks|frames|pictures|wins"
    r"|throws|hours|minutes|timeouts|discards|levels|leaders|values|plies|volunteers"
    r"|tournaments|shards|rows)\b",
    re.IGNORECASE,
)
"""A count of one with a plural noun ("1 rounds"): every count goes through
``bot.outgoing.plural`` (issue 31)."""
FRACTION = re.compile(r"\d?[\u00bc\u00bd\u00be]")
HALF_AS_DECIMAL = re.compile(r"(?<![\d.])\d+\.(?:0+|5|50|25|75)(?![\d])")
"""Points written as decimals where ``format_points`` writes ``½``, ``¼``,
``¾`` or a whole number: in a text that writes fractions too, two ways to
write one kind of number (issue 31: "3½" beside "11.5 / 7.25")."""


def texts_of(sent: Sent) -> list[tuple[str, str]]:
    """(where, text) of everything a player reads in a call: content, embeds,
    button labels, select placeholders and option labels/descriptions."""
    out = [("content", sent.content or "")]
    for embed in sent.embeds:
        out += [("embed", str(embed.get(k) or "")) for k in ("title", "description")]
        out += [("embed", f"{f.get('name')} {f.get('value')}") for f in embed.get("fields") or []]

    def walk(components: list[dict[str, Any]]) -> None:
        for comp in components:
            if comp.get("type") == 2:
                out.append(("button", str(comp.get("label") or "")))
            if comp.get("type") == 3:
                out.append(("placeholder", str(comp.get("placeholder") or "")))
                for option in comp.get("options") or []:
                    out.append(("option", str(option.get("label") or "")))
                    out.append(("option", str(option.get("description") or "")))
            inner = comp.get("components")
            if isinstance(inner, list):
                walk(inner)

    walk(sent.components)
    return [(where, text) for where, text in out if text]


def wording_problems(fake: FakeDiscord) -> list[str]:
    """Texts naming a seat by number ("Player 2"), with an unfilled ``{p0}``
    tag, with a plural after 1 ("1 cards", "1 pts"), or writing points two
    ways ("3½" beside "11.5")."""
    problems = []
    for sent in fake.sent:
        for where, text in texts_of(sent):
            for pattern in (PLAYER_NUMBER, SEAT_TAG, ONE_PLURAL):
                found = pattern.search(text)
                if found:
                    problems.append(f"{sent.route} {where}: {found[0]!r} in {text[:120]!r}")
            decimal = HALF_AS_DECIMAL.search(text)
            if decimal and FRACTION.search(text):
                problems.append(f"{sent.route} {where}: {decimal[0]!r} beside a fraction in "
                                f"{text[:160]!r}")  # fmt: skip
    return problems

