"""What Chaupal costs its players in attention (issue 30).

Issue 30 measures what a Discord user experiences, not the bot's internals:
a ping that Discord delivers and every new DM (a DM always notifies)
count as notifications; edits are silent.  This module plays whole games
through discord.py's real dispatch, with each table's default settings,
against a fake Discord that records every message the bot creates or
edits, and counts per player:

- **owed decisions**: each decision a person's seat owed (public, on the
  board, or private, by DM) and made, plus any that timed out;
- **notifications**: every new message whose content mentions them and
  whose ``allowed_mentions`` lets the mention through (in a channel or a
  thread; an ephemeral reply or an edit never notifies), and every new DM
  to them not sent silently (``SUPPRESS_NOTIFICATIONS``);
- **DMs without a decision**: new DMs to them with no menu, sent while
  their seat owed nothing (a "Your view of …" image after someone else's
  move);
- per game: the lobby message's edits, the lobby's text as first posted
  (as a rematch, with automatic players), boards posted or edited with
  choices while only automatic seats are awaited, and every new message
  and edit;
- for one person against automatic seats: their wait from each of their
  decisions until the bot awaits them again.

The games are played only with what the bot sent (a pick on the newest
board, or the newest DM or reply that shows a select), the way
``tests/bot/menu_player.py`` plays them; the bot's service is read only to
know who must act.  Time is a fake clock: automatic seats act when the
scheduler fires their ``clock`` timers (``AUTO_DELAY`` after they became
due), and people act at once, so no reminder ever falls due.  Automatic
players in games that hide something also pad each move to their level's
``THINK_PAD`` with a real ``asyncio.sleep``, outside the fake clock (off
here, as in the tests): each wait adds that pad once per automatic move
made in it, which is what one game's timers, fired one after another, cost
in real time.

``python -m bot.bench`` reports the figures (its ``attention`` section),
and ``tests/bot/test_attention.py`` holds the issue's targets against
them.  A tool like :mod:`bot.loadtest`: it builds a whole bot and may use
the edge.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.config import Settings
from bot.edge.client import ChaupalBot
from bot.edge.play.menus import board_menu
from bot.engines.core import CHANCE, Seat, owed_decisions
from bot.replay import load_record, states
from bot.service import TABLE_EVENT, THINK_PAD, LiveGame

JSON = dict[str, Any]

EPHEMERAL: Final = 1 << 6
LOADING: Final = 1 << 7
SUPPRESS_NOTIFICATIONS: Final = 1 << 12
"""A message sent with ``silent=True``: Discord delivers it without a
notification."""

MENTION: Final = re.compile(r"<@!?(\d+)>")
BOARD_FILE: Final = re.compile(r"^chaupal-(\d+)-(\d+)\.png$")
"""A board image's file name: game and version (posts and edits alike)."""
SEAT_NONCE: Final = re.compile(r"^[st](\d+)\.(\d+)v(\d+)$")
"""A seat's private view (``s``) or "your turn" DM (``t``): game, seat, version."""
CHOICE_IDS: Final = ("chaupal:move:", "chaupal:board:")
"""Custom ids of a board's choices (pick buttons, "Choose…", selects of moves)."""

APPLICATION_ID: Final = 900_000_000_000_000_007
GUILD_ID: Final = 910_000_000_000_000_001
CHANNEL_ID: Final = 910_000_000_000_000_002
FIRST_USER: Final = 920_000_000_000_000_001
NAMES: Final = ("Asha", "Bhima", "Chitra", "Dev", "Esha")

MAX_DECISIONS: Final = 3000
"""A guard: a game not over after this many decisions of its people is a bug."""
MAX_MENU_STEPS: Final = 12

Place = Literal["channel", "dm", "ephemeral"]


class FakeClock:
    """Time that moves only when the driver moves it."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Stalled(AssertionError):
    """A game that waits on nobody, or a menu that leads nowhere: the
    instrument cannot go on (a bug, in the bot or here)."""


class BotTrouble(AssertionError):
    """The bot logged a warning or an error while it was measured (a post
    that failed, a handler that raised): its figures would be wrong."""


class _Troubles(logging.Handler):
    """Collects what the bot logs at WARNING and above (ERROR for discord.py)."""

    LOGGERS: Final = ("bot", "storage", "discord")

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("discord") and record.levelno < logging.ERROR:
            return
        self.seen.append(f"{record.name} {record.levelname}: {record.getMessage()}")

    def __enter__(self) -> _Troubles:
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *_: object) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)


# -- what the fake Discord records ------------------------------------------------------------


@dataclass(frozen=True)
class Outgoing:
    """One message the bot created, or one edit of a message, as Discord
    would show it after the call (an edit's fields are the message's own
    once edited)."""

    seq: int
    new: bool
    """A new message; False: an edit (edits never notify)."""
    place: Place
    """Where it shows: a guild channel or thread, a DM, or an ephemeral reply."""
    message_id: int
    channel_id: int
    user_id: int | None
    """A DM's recipient; an ephemeral reply's reader."""
    content: str
    custom_ids: tuple[str, ...]
    has_select: bool
    files: tuple[str, ...]
    allowed_users: frozenset[int] | None
    """The users its ``allowed_mentions`` lets be pinged; None: every
    mention pings (no ``allowed_mentions``, or ``parse`` with users)."""
    flags: int
    nonce: str | None
    at: float
    """The fake clock when it was sent."""
    interaction_id: int | None = None
    """The interaction it answers, for a response or follow-up."""
    uploaded: tuple[str, ...] = ()
    """The files this call uploaded (a board edited in place uploads its
    new image; an old board losing its buttons uploads none)."""

    @property
    def pinged(self) -> frozenset[int]:
        """Whom Discord notifies for this call, by mention: a new message in
        a channel or thread that mentions them and lets the mention through."""
        if not self.new or self.place != "channel":
            return frozenset()
        mentioned = {int(m) for m in MENTION.findall(self.content)}
        if self.allowed_users is None:
            return frozenset(mentioned)
        return frozenset(mentioned & self.allowed_users)

    @property
    def notifying_dm(self) -> bool:
        """A new DM that Discord announces (not sent with ``silent=True``)."""
        return self.new and self.place == "dm" and not self.flags & SUPPRESS_NOTIFICATIONS

    def notified(self) -> frozenset[int]:
        """Every user this call notifies."""
        if self.notifying_dm and self.user_id is not None:
            return frozenset({self.user_id})
        return self.pinged

    @property
    def board_version(self) -> tuple[int, int] | None:
        """(game, version) of the board image it shows, if it is a board."""
        if self.place != "channel":
            return None
        for name in self.files:
            found = BOARD_FILE.match(name)
            if found:
                return int(found[1]), int(found[2])
        return None

    @property
    def shows_choices(self) -> bool:
        return any(c.startswith(CHOICE_IDS) for c in self.custom_ids)


def source_of(sent: Outgoing) -> str:
    """What kind of message it is, in the words of the report (for the
    breakdown of notifications: which message pinged or DMed whom)."""
    text = sent.content
    if sent.place == "dm":
        if sent.has_select:
            return "DM menu (your view, your decision)"
        if text.startswith("Your view of"):
            return "DM view (no menu)"
        if text.startswith("Your turn in") or "it is your turn" in text:
            return "turn DM"
        if text.startswith("Reminder:"):
            return "reminder DM"
        if "time ran out" in text:
            return "timeout DM"
        if "game you follow" in text:
            return "follower DM"
        return "other DM"
    if sent.place == "channel":
        if sent.board_version is not None:
            if "Everyone else is waiting for you" in text:
                return "board ping (last one of a phase)"
            return "board ping"
        if "has chosen: the game is waiting for you" in text:
            return "last-one nudge"
        if "DMs are closed" in text or "can't DM you" in text:
            return "DMs-closed notice"
        if text.startswith("Rematch of game"):
            return "rematch lobby"
        return "other channel message"
    return "ephemeral reply"


# -- the fake Discord -------------------------------------------------------------------------


@dataclass
class Member:
    id: int
    name: str

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }


@dataclass
class _Interaction:
    id: int
    token: str
    user: Member
    channel_id: int
    message_id: int | None
    """The message whose component was used."""
    response_type: int | None = None
    original_message_id: int | None = None
    loading: bool = False


def _bot_user() -> JSON:
    return {
        "id": str(APPLICATION_ID),
        "username": "chaupal",
        "global_name": None,
        "discriminator": "0",
        "avatar": None,
        "bot": True,
        "public_flags": 0,
    }


def _guild() -> JSON:
    """The server the games are played in: one text channel, and the bot."""
    everyone = discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True,
        read_message_history=True, embed_links=True, attach_files=True,
        use_application_commands=True, create_public_threads=True,
    )  # fmt: skip
    return {
        "id": str(GUILD_ID),
        "name": "Chaupal attention",
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(FIRST_USER - 1),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [
            {"id": str(GUILD_ID), "name": "@everyone", "color": 0, "hoist": False,
             "position": 0, "permissions": str(everyone.value), "managed": False,
             "mentionable": False, "flags": 0}
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "large": False,
        "unavailable": False,
        "member_count": 1,
        "members": [
            {"user": _bot_user(), "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
             "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None,
             "avatar": None, "premium_since": None, "communication_disabled_until": None}
        ],
        "channels": [
            {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "games",
             "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
             "topic": None, "last_message_id": None, "rate_limit_per_user": 0}
        ],
        "threads": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "joined_at": "2024-01-01T00:00:00+00:00",
    }  # fmt: skip


def _walk(components: Sequence[JSON]) -> Iterable[JSON]:
    for comp in components:
        yield comp
        yield from _walk(comp.get("components") or [])


def _route_params(route: Route) -> dict[str, str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(route.path))
    found = re.fullmatch(pattern, route.url[len(Route.BASE) :])
    return dict(found.groupdict()) if found else {}


def _body(json_body: Any, form: Iterable[Mapping[str, Any]] | None) -> tuple[JSON, list[str]]:
    """A request's JSON body and the names of the files it uploads."""
    body: JSON = dict(json_body) if isinstance(json_body, Mapping) else {}
    names: list[str] = []
    for part in form or ():
        if part.get("name") == "payload_json":
            value = part.get("value")
            body = json.loads(value) if isinstance(value, str | bytes) else body
        elif "filename" in part:
            names.append(str(part["filename"]))
    return body, names


def _allowed(body: Mapping[str, Any]) -> frozenset[int] | None:
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return None
    return frozenset(int(u) for u in allowed.get("users") or [])


class RecordingDiscord:
    """Discord for one bot, offline: its REST calls (``bot.http.request``)
    and its interactions' webhook calls answer as Discord would, and every
    message created or edited is recorded as :class:`Outgoing`.  Players'
    slash commands, clicks and selects are ``INTERACTION_CREATE`` payloads
    handed to discord.py's own ``parse_interaction_create``."""

    BACKGROUND: Final = frozenset(
        {"chaupal-scheduler", "chaupal-delivery-sweep", "chaupal-stranded-sweep"}
    )
    """The bot's long-lived tasks: never waited for."""
    SETTLE_LIMIT: Final = 120.0

    def __init__(self, bot: ChaupalBot, clock: FakeClock) -> None:
        self.bot = bot
        self.clock = clock
        self.sent: list[Outgoing] = []
        self.messages: dict[int, JSON] = {}
        self.touched: dict[int, int] = {}
        """Message id -> seq of the last call that created or edited it."""
        self.ephemeral_owner: dict[int, int] = {}
        self.members: dict[int, Member] = {}
        self.dm_of: dict[int, int] = {}
        """User id -> their DM channel's id."""
        self.threads: set[int] = set()
        self._ids = itertools.count(930_000_000_000_000_001)
        self._itx: dict[str, _Interaction] = {}
        self._foreign: set[asyncio.Task[Any]] = set()
        self._original_webhook: Any = None
        self.troubles = _Troubles()

    # -- lifecycle ---------------------------------------------------------

    @classmethod
    async def start(cls, bot: ChaupalBot, clock: FakeClock) -> RecordingDiscord:
        """Bring ``bot`` up as if it had logged in (as ``FakeDiscord`` and
        the load test do), and wait for its start-up catch-up."""
        fake = cls(bot, clock)
        fake._foreign = set(asyncio.all_tasks())
        fake.troubles.__enter__()
        await bot._async_setup_hook()
        state = bot._connection
        state.application_id = APPLICATION_ID
        state.user = discord.ClientUser(state=state, data=_bot_user())  # type: ignore[arg-type]
        bot.http.request = fake._http  # type: ignore[method-assign]
        fake._original_webhook = AsyncWebhookAdapter.request
        AsyncWebhookAdapter.request = _adapter_request  # type: ignore[assignment,method-assign]
        try:
            await bot.setup_hook()
            # The server, as the gateway's GUILD_CREATE puts it in the cache
            # (threads are opened from messages of a known guild).
            state._add_guild_from_data(_guild())  # type: ignore[arg-type]
            await fake.settle()
        except BaseException:
            await fake.close()
            raise
        return fake

    async def close(self) -> None:
        try:
            await self.bot.close()
        finally:
            self.troubles.__exit__()
            for token in self._itx:
                _FAKES.pop(token, None)
            if self._original_webhook is not None:
                AsyncWebhookAdapter.request = self._original_webhook  # type: ignore[method-assign]
                self._original_webhook = None

    async def settle(self) -> None:
        """Wait until every task the bot started since (but its long-lived
        loops) is done: an interaction's handling, deliveries it caused."""
        deadline = time.monotonic() + self.SETTLE_LIMIT
        quiet = 0
        me = asyncio.current_task()
        while quiet < 3:
            pending = [
                t
                for t in asyncio.all_tasks()
                if t is not me and t not in self._foreign and not t.done() and not self._lasts(t)
            ]
            if not pending:
                quiet += 1
                await asyncio.sleep(0)
                continue
            quiet = 0
            left = deadline - time.monotonic()
            if left <= 0:
                raise Stalled(f"tasks still running: {[t.get_name() for t in pending]}")
            await asyncio.wait(pending, timeout=left, return_when=asyncio.FIRST_COMPLETED)
        if self.troubles.seen:
            raise BotTrouble("; ".join(self.troubles.seen[:5]))

    def _lasts(self, task: asyncio.Task[Any]) -> bool:
        if task.get_name() in self.BACKGROUND:
            return True
        qualname = getattr(task.get_coro(), "__qualname__", "")
        return qualname.endswith(("__timeout_task_impl", "Loop._loop"))

    # -- people and what they see ----------------------------------------------

    def member(self, name: str) -> Member:
        member = Member(FIRST_USER + len(self.members), name)
        self.members[member.id] = member
        return member

    def is_dm(self, channel_id: int) -> bool:
        return channel_id in self.dm_of.values()

    def buttons(self, message_id: int) -> list[JSON]:
        comps = self.messages[message_id].get("components") or []
        return [c for c in _walk(comps) if c.get("type") == 2]

    def selects(self, message_id: int) -> list[JSON]:
        comps = self.messages[message_id].get("components") or []
        return [c for c in _walk(comps) if c.get("type") == 3]

    def newest_board(self) -> int:
        """The newest board message (boards are edited in place)."""
        for sent in reversed(self.sent):
            if sent.new and sent.board_version is not None:
                return sent.message_id
        raise Stalled("no board was posted")

    def newest_menu(self, user_id: int) -> int | None:
        """The message the bot last sent or edited for ``user_id`` alone (a
        DM, or an ephemeral reply) that shows a select now."""
        mine = [
            mid
            for mid, msg in self.messages.items()
            if self.ephemeral_owner.get(mid) == user_id
            or self.dm_of.get(user_id) == int(msg["channel_id"])
        ]
        for mid in sorted(mine, key=lambda m: self.touched.get(m, 0), reverse=True):
            if self.selects(mid):
                return mid
        return None

    # -- players' interactions --------------------------------------------------

    async def slash(self, user: Member, command: str, **options: Any) -> list[Outgoing]:
        """``/command`` ("game new": the group, then the subcommand) in the
        games channel; options by parameter name."""
        tree = self.bot.tree
        root_name, *rest = command.split()
        root: Any = tree.get_command(root_name)
        leaf = root
        for part in rest:
            leaf = leaf.get_command(part)
        given: list[JSON] = []
        for param in leaf.parameters:
            if param.name in options:
                given.append(
                    {
                        "name": param.display_name,
                        "type": param.type.value,
                        "value": options[param.name],
                    }
                )
        nested: list[JSON] = given
        for depth in range(len(rest), 0, -1):
            nested = [
                {"type": 1 if depth == len(rest) else 2, "name": rest[depth - 1], "options": nested}
            ]
        data = {"id": str(next(self._ids)), "name": root_name, "type": 1, "options": nested}
        return await self._dispatch(user, 2, CHANNEL_ID, data, None)

    async def click(self, user: Member, message_id: int, custom_id: str) -> list[Outgoing]:
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._component(user, message_id, data)

    async def select(
        self, user: Member, message_id: int, custom_id: str, value: str
    ) -> list[Outgoing]:
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        return await self._component(user, message_id, data)

    async def _component(self, user: Member, message_id: int, data: JSON) -> list[Outgoing]:
        msg = self.messages[message_id]
        if not any(
            c.get("custom_id") == data["custom_id"] for c in _walk(msg.get("components") or [])
        ):
            raise Stalled(f"message {message_id} shows no {data['custom_id']!r}")
        return await self._dispatch(user, 3, int(msg["channel_id"]), data, message_id)

    async def _dispatch(
        self, user: Member, kind: int, channel_id: int, data: JSON, message_id: int | None
    ) -> list[Outgoing]:
        self.members.setdefault(user.id, user)
        iid = next(self._ids)
        itx = _Interaction(iid, f"attention-{iid}", user, channel_id, message_id)
        self._itx[itx.token] = itx
        _FAKES[itx.token] = self
        payload: JSON = {
            "id": str(iid),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": itx.token,
            "version": 1,
            "data": data,
            "locale": "en-US",
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "app_permissions": str(discord.Permissions.all().value),
            "channel_id": str(channel_id),
        }
        if message_id is not None:
            payload["message"] = self.messages[message_id]
        if self.is_dm(channel_id):
            payload.update(
                channel={"id": str(channel_id), "type": 1, "recipients": [user.payload()],
                         "last_message_id": None},
                user=user.payload(),
                context=1,
                authorizing_integration_owners={"0": str(user.id)},
            )  # fmt: skip
        else:
            everyone = discord.Permissions(
                view_channel=True, send_messages=True, send_messages_in_threads=True,
                read_message_history=True, use_application_commands=True,
            )  # fmt: skip
            payload.update(
                guild_id=str(GUILD_ID),
                guild_locale="en-US",
                guild={"id": str(GUILD_ID), "locale": "en-US", "features": []},
                channel=self._channel(channel_id, str(everyone.value)),
                member={"user": user.payload(), "roles": [], "joined_at":
                        "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
                        "pending": False, "nick": None, "avatar": None, "premium_since": None,
                        "communication_disabled_until": None, "permissions": str(everyone.value)},
                context=0,
                authorizing_integration_owners={"0": str(GUILD_ID)},
            )  # fmt: skip
        mark = len(self.sent)
        # What the gateway reader does with an INTERACTION_CREATE event.
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        if itx.response_type is None:
            raise Stalled(f"{user.name}'s interaction {data} was never answered")
        return [s for s in self.sent[mark:] if s.interaction_id == iid]

    def _channel(self, channel_id: int, permissions: str | None = None) -> JSON:
        """A guild channel's payload: the games channel, or a thread opened in it."""
        data: JSON = {"id": str(channel_id), "guild_id": str(GUILD_ID), "name": "games"}
        if channel_id in self.threads:
            data.update(
                type=11,
                parent_id=str(CHANNEL_ID),
                owner_id=str(APPLICATION_ID),
                last_message_id=None,
                rate_limit_per_user=0,
                message_count=0,
                member_count=1,
                total_message_sent=0,
                flags=0,
                thread_metadata={"archived": False, "auto_archive_duration": 10080,
                                 "archive_timestamp": "2025-01-01T00:00:00+00:00",
                                 "locked": False,
                                 "create_timestamp": "2025-01-01T00:00:00+00:00"},
            )  # fmt: skip
        else:
            data.update(type=0, position=0, permission_overwrites=[], parent_id=None)
        if permissions is not None:
            data["permissions"] = permissions
        return data

    # -- messages ------------------------------------------------------------

    def _attachments(
        self, body: JSON, names: Sequence[str], existing: list[JSON] | None
    ) -> list[JSON] | None:
        """The message's attachments after a call (None: unchanged)."""
        uploaded = [
            {
                "id": str(next(self._ids)),
                "filename": name,
                "size": 1,
                "url": f"https://cdn.example/{name}",
                "proxy_url": f"https://cdn.example/{name}",
            }
            for name in names
        ]
        if "attachments" in body:
            kept_ids = {str(a.get("id")) for a in body["attachments"] if "filename" not in a}
            return [a for a in existing or [] if str(a["id"]) in kept_ids] + uploaded
        if uploaded:
            return [*(existing or []), *uploaded]
        return None

    def _create(
        self, channel_id: int, body: JSON, names: Sequence[str], *, flags: int, owner: int | None
    ) -> JSON:
        mid = next(self._ids)
        msg: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": _bot_user(),
            "content": body.get("content") or "",
            "timestamp": "2025-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(body, names, None) or [],
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": flags,
        }
        self.messages[mid] = msg
        if owner is not None and flags & EPHEMERAL:
            self.ephemeral_owner[mid] = owner
        return msg

    def _edit(self, msg: JSON, body: JSON, names: Sequence[str]) -> None:
        for key in ("content", "embeds", "components"):
            if key in body:
                value = body[key]
                msg[key] = ("" if value is None else value) if key == "content" else (value or [])
        attachments = self._attachments(body, names, msg["attachments"])
        if attachments is not None:
            msg["attachments"] = attachments
        msg["edited_timestamp"] = "2025-01-01T00:00:01+00:00"

    def _record(
        self,
        msg: JSON,
        body: JSON,
        uploaded: Sequence[str],
        *,
        new: bool,
        interaction: _Interaction | None = None,
    ) -> None:
        mid, channel_id = int(msg["id"]), int(msg["channel_id"])
        flags = int(msg.get("flags") or 0)
        recipient = next((u for u, c in self.dm_of.items() if c == channel_id), None)
        place: Place
        if flags & EPHEMERAL:
            place, recipient = "ephemeral", self.ephemeral_owner.get(mid)
        elif recipient is not None:
            place = "dm"
        else:
            place = "channel"
        components = msg.get("components") or []
        seq = len(self.sent)
        self.sent.append(
            Outgoing(
                seq=seq,
                new=new,
                place=place,
                message_id=mid,
                channel_id=channel_id,
                user_id=recipient,
                content=str(msg.get("content") or ""),
                custom_ids=tuple(
                    str(c["custom_id"]) for c in _walk(components) if "custom_id" in c
                ),
                has_select=any(c.get("type") == 3 for c in _walk(components)),
                files=tuple(str(a["filename"]) for a in msg.get("attachments") or []),
                allowed_users=_allowed(body),
                # A new message's own flags: silent DMs are marked at send.
                flags=int(body.get("flags") or 0) | flags,
                nonce=str(body["nonce"]) if body.get("nonce") is not None else None,
                at=self.clock(),
                interaction_id=interaction.id if interaction is not None else None,
                uploaded=tuple(uploaded),
            )
        )
        self.touched[mid] = seq

    # -- REST (bot.http.request) -----------------------------------------------------------

    async def _http(
        self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        method, path = route.method, route.path
        params = _route_params(route)
        body, names = _body(kwargs.get("json"), None if form is None else list(form))
        if path == "/channels/{channel_id}/messages" and method == "POST":
            channel_id = int(params["channel_id"])
            msg = self._create(
                channel_id, body, names, flags=int(body.get("flags") or 0), owner=None
            )
            self._record(msg, body, names, new=True)
            return msg
        if path == "/channels/{channel_id}/messages/{message_id}":
            msg = self.messages[int(params["message_id"])]
            if method == "PATCH":
                self._edit(msg, body, names)
                self._record(msg, body, names, new=False)
                return msg
            if method == "GET":
                return msg
            if method == "DELETE":
                return None
        if path == "/channels/{channel_id}/messages/{message_id}/threads" and method == "POST":
            # Like Discord, a thread opened from a message takes its id.
            thread = int(params["message_id"])
            self.threads.add(thread)
            return {**self._channel(thread), "name": body.get("name", "game")}
        if path == "/users/@me/channels" and method == "POST":
            user = int(body["recipient_id"])
            channel = self.dm_of.setdefault(user, next(self._ids))
            recipient = self.members.get(user) or Member(user, f"user{user}")
            return {"id": str(channel), "type": 1, "last_message_id": None,
                    "recipients": [recipient.payload()]}  # fmt: skip
        if path == "/channels/{channel_id}" and method == "GET":
            return self._channel(int(params["channel_id"]))
        if path == "/users/{user_id}" and method == "GET":
            member = self.members.get(int(params["user_id"]))
            return member.payload() if member is not None else _bot_user()
        if path == "/channels/{channel_id}/typing":
            return None
        raise Stalled(f"the fake Discord does not answer {method} {path}")

    # -- interactions' webhook (AsyncWebhookAdapter.request) -------------------------------------

    def _webhook(self, route: Route, payload: JSON | None, multipart: list[JSON] | None) -> Any:
        itx = self._itx[str(route.webhook_token)]
        body, names = _body(payload, multipart)
        method, path = route.method, route.path
        if path.endswith("/callback"):
            return self._callback(itx, body, names)
        if path == "/webhooks/{webhook_id}/{webhook_token}" and method == "POST":
            if itx.loading and itx.original_message_id is not None:
                # The first follow-up after a deferral fills its "thinking" message.
                msg = self.messages[itx.original_message_id]
                self._edit(msg, {**body, "content": body.get("content") or ""}, names)
                msg["flags"] = int(msg["flags"]) & ~LOADING
                itx.loading = False
                self._record(msg, body, names, new=True, interaction=itx)
                return msg
            msg = self._create(
                itx.channel_id, body, names, flags=int(body.get("flags") or 0), owner=itx.user.id
            )
            self._record(msg, body, names, new=True, interaction=itx)
            return msg
        if "/messages/" in path:
            target = route.url.rsplit("/", 1)[1].split("?")[0]
            mid = itx.original_message_id if target == "@original" else int(target)
            if mid is None:
                raise Stalled("no original response to read or edit")
            msg = self.messages[mid]
            if method == "GET":
                return msg
            if method == "PATCH":
                filled = bool(int(msg.get("flags") or 0) & LOADING)
                self._edit(msg, body, names)
                msg["flags"] = int(msg["flags"]) & ~LOADING
                itx.loading = False
                self._record(msg, body, names, new=filled, interaction=itx)
                return msg
            if method == "DELETE":
                return None
        raise Stalled(f"the fake Discord does not answer {method} {path}")

    def _callback(self, itx: _Interaction, body: JSON, names: list[str]) -> JSON:
        kind = int(body["type"])
        data: JSON = body.get("data") or {}
        itx.response_type = kind
        info: JSON = {"id": str(itx.id), "type": kind}
        resource: JSON | None = None
        if kind == 4:  # a message
            msg = self._create(
                itx.channel_id, data, names, flags=int(data.get("flags") or 0), owner=itx.user.id
            )
            itx.original_message_id = int(msg["id"])
            self._record(msg, data, names, new=True, interaction=itx)
            resource = {"type": kind, "message": msg}
        elif kind == 5:  # "thinking…", filled by the first follow-up
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            msg = self._create(itx.channel_id, {}, [], flags=flags, owner=itx.user.id)
            itx.original_message_id = int(msg["id"])
            itx.loading = True
            resource = {"type": kind, "message": msg}
        elif kind in (6, 7):  # the component's own message, edited (7) or not (6)
            if itx.message_id is None:
                raise Stalled("an update answered an interaction without a message")
            msg = self.messages[itx.message_id]
            itx.original_message_id = itx.message_id
            if kind == 7:
                self._edit(msg, data, names)
                self._record(msg, data, names, new=False, interaction=itx)
                resource = {"type": kind, "message": msg}
        if itx.original_message_id is not None:
            info["response_message_id"] = str(itx.original_message_id)
            info["response_message_loading"] = itx.loading
            info["response_message_ephemeral"] = bool(
                int(self.messages[itx.original_message_id].get("flags") or 0) & EPHEMERAL
            )
        result: JSON = {"interaction": info}
        if resource is not None:
            result["resource"] = resource
        return result


_FAKES: dict[str, RecordingDiscord] = {}
"""Interaction token -> the fake that issued it."""


async def _adapter_request(
    adapter: AsyncWebhookAdapter,
    route: Route,
    session: Any,
    *,
    payload: JSON | None = None,
    multipart: list[JSON] | None = None,
    **_: Any,
) -> Any:
    """Stands in for ``AsyncWebhookAdapter.request`` (patched on its class,
    as discord.py sends every interaction response through it): the fake
    that issued the interaction's token answers."""
    fake = _FAKES.get(str(route.webhook_token))
    if fake is None:
        raise Stalled(f"a webhook call with an unknown token: {route.method} {route.path}")
    return fake._webhook(route, payload, multipart)


# -- one game, played through the menus the bot sent ----------------------------------------


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


# -- the figures ------------------------------------------------------------------------------


@dataclass
class SeatFigures:
    seat: Seat
    name: str
    owed: int = 0
    """Decisions owed: made, plus timed out."""
    timed_out: int = 0
    notifications: int = 0
    by_source: Counter[str] = field(default_factory=Counter)
    dms: int = 0
    dms_without_decision: int = 0

    @property
    def notifications_per_decision(self) -> float:
        return self.notifications / max(1, self.owed)

    @property
    def dms_without_decision_per_decision(self) -> float:
        return self.dms_without_decision / max(1, self.owed)

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "name": self.name,
            "owed_decisions": self.owed,
            "timed_out": self.timed_out,
            "notifications": self.notifications,
            "notifications_per_decision": round(self.notifications_per_decision, 3),
            "notifications_by_source": dict(self.by_source.most_common()),
            "dms": self.dms,
            "dms_without_decision": self.dms_without_decision,
            "dms_without_decision_per_decision": round(self.dms_without_decision_per_decision, 3),
        }


def percentile(samples: Sequence[float], q: float) -> float:
    """Nearest rank (``q`` in 0-1); 0 for no samples."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class GameFigures:
    scenario: str
    engine: str
    people: int
    bots: int
    seats: list[SeatFigures]
    """The people's seats (automatic seats owe nobody anything)."""
    finished: bool
    decisions: int
    versions: int
    lobby_chars: int
    rematch_chars: int | None
    lobby_edits: int
    lobby_edits_before_start: int
    boards_posted: int
    boards_edited_in_place: int
    """Edits that drew a new image on the board (the awaited seats only
    shrank or stayed)."""
    boards_stripped: int
    """Older boards edited to lose their buttons when a new one is posted."""
    auto_boards_with_choices: int
    """Boards posted or edited with choices (pick buttons, "Choose…",
    selects of moves) while only automatic seats were awaited."""
    auto_boards_with_components: int
    """The same with any component ("Show mine", "My turn" included)."""
    messages: Counter[str]
    """New messages by place (channel, dm, ephemeral)."""
    edits: Counter[str]
    waits: list[float]
    """A solo person's waits (seconds), from each decision until the bot
    awaited them again; 0 when their next decision came at once (the
    second die of their turn)."""
    waits_for_others: list[float]
    """The waits in which automatic seats moved."""
    wait_pad: float
    """The ``THINK_PAD`` added to waits per automatic move."""
    reopens: int
    refusals: int
    seconds: float
    """Wall-clock time of the measure."""

    def worst(self, attribute: str) -> float:
        values = [float(getattr(s, attribute)) for s in self.seats]
        return max(values, default=0.0)

    def mean(self, attribute: str) -> float:
        values = [float(getattr(s, attribute)) for s in self.seats]
        return sum(values) / max(1, len(values))

    @property
    def wait_p50(self) -> float:
        return percentile(self.waits, 0.5)

    @property
    def wait_p95(self) -> float:
        return percentile(self.waits, 0.95)

    @property
    def wait_max(self) -> float:
        return max(self.waits, default=0.0)

    def to_json(self) -> JSON:
        out: JSON = {
            "people": self.people,
            "bots": self.bots,
            "finished": self.finished,
            "decisions": self.decisions,
            "versions": self.versions,
            "notifications_per_decision": {
                "mean": round(self.mean("notifications_per_decision"), 3),
                "max": round(self.worst("notifications_per_decision"), 3),
            },
            "dms_without_decision_per_decision": {
                "mean": round(self.mean("dms_without_decision_per_decision"), 3),
                "max": round(self.worst("dms_without_decision_per_decision"), 3),
            },
            "lobby_edits": self.lobby_edits,
            "lobby_edits_before_start": self.lobby_edits_before_start,
            "lobby_chars": self.lobby_chars,
            "rematch_lobby_chars": self.rematch_chars,
            "boards_posted": self.boards_posted,
            "boards_edited_in_place": self.boards_edited_in_place,
            "boards_stripped_of_buttons": self.boards_stripped,
            "auto_boards_with_choices": self.auto_boards_with_choices,
            "auto_boards_with_components": self.auto_boards_with_components,
            "new_messages": sum(self.messages.values()),
            "new_messages_by_place": dict(self.messages),
            "edits": sum(self.edits.values()),
            "edits_by_place": dict(self.edits),
            "reopened_menus": self.reopens,
            "refused_menus": self.refusals,
            "seconds": round(self.seconds, 1),
            "players": [s.to_json() for s in self.seats],
        }
        if self.waits:
            others = self.waits_for_others
            out["solo_wait_s"] = {
                "waits": len(self.waits),
                "p50": round(self.wait_p50, 2),
                "p95": round(self.wait_p95, 2),
                "max": round(self.wait_max, 2),
                "waits_for_automatic_seats": len(others),
                "p50_for_automatic_seats": round(percentile(others, 0.5), 2),
                "p95_for_automatic_seats": round(percentile(others, 0.95), 2),
                "think_pad_per_automatic_move": self.wait_pad,
            }
        return out


def count(
    sent: Sequence[Outgoing],
    *,
    seats: Mapping[int, tuple[Seat, str]],
    owed: Mapping[Seat, int],
    owing_at: Callable[[int, Seat], bool],
) -> list[SeatFigures]:
    """Per person (``seats``: user id -> (seat, name)): notifications and
    DMs from what Discord received (``sent``), against the decisions they
    owed.  ``owing_at(version, seat)``: whether the seat owed a decision at
    that version, for a DM without a menu (a view of their own decision
    is part of it)."""
    figures = {
        uid: SeatFigures(seat, name, owed=owed.get(seat, 0)) for uid, (seat, name) in seats.items()
    }
    for out in sent:
        for uid in out.notified():
            if uid in figures:
                figures[uid].notifications += 1
                figures[uid].by_source[source_of(out)] += 1
        if out.new and out.place == "dm" and out.user_id in figures:
            mine = figures[out.user_id]
            mine.dms += 1
            if not out.has_select and not _about_a_decision(out, owing_at):
                mine.dms_without_decision += 1
    return sorted(figures.values(), key=lambda f: f.seat)


def _about_a_decision(out: Outgoing, owing_at: Callable[[int, Seat], bool]) -> bool:
    """A DM without a menu that still belongs to a decision: the seat's own
    view, or its "your turn", sent while that seat owed one."""
    found = SEAT_NONCE.match(out.nonce or "")
    return found is not None and owing_at(int(found[3]), int(found[2]))


async def measure(scenario: Scenario, folder: Path | None = None) -> GameFigures:
    """Play ``scenario`` to its end and count what it cost its people."""
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="attention-")))
        clock = FakeClock()
        bot = ChaupalBot(
            Settings(
                token=None,
                dev_guild_id=None,
                database=folder / f"{scenario.name}-{scenario.seed}.sqlite3",
                log_level="WARNING",
                snapshot_every=25,
                render_workers=0,
                # Automatic players search a twentieth of their budget, in a
                # thread, without the real pad (accounted for in the waits).
                think_workers=0,
                search_scale=0.05,
                think_pad=False,
            ),
            draw=random.Random(scenario.seed).random,
            sync_commands=False,
            clock=clock,
        )
        fake = await RecordingDiscord.start(bot, clock)
        try:
            people = [fake.member(NAMES[i]) for i in range(scenario.people)]
            table = Table(scenario, fake, people)
            await table.open()
            await table.play()
            await fake.settle()
            played = len(fake.sent)
            rematch = await table.rematch()
            return await _figures(table, fake.sent[:played], rematch, time.monotonic() - started)
        finally:
            await fake.close()


async def _figures(
    table: Table, sent: Sequence[Outgoing], rematch: Outgoing | None, seconds: float
) -> GameFigures:
    fake, game = table.fake, await table.game()
    record = await load_record(fake.bot.store, table.game_id)
    at_version: list[Any] = []
    for number, (_, _, before, after) in enumerate(states(record)):
        if number == 0:
            at_version.append(before)
        at_version.append(after)
    engine = game.engine

    def owing(version: int, seat: Seat) -> bool:
        if not 0 <= version < len(at_version):
            return False
        state = at_version[version]
        if engine.outcome(state) is not None:
            return False
        public, private = owed_decisions(engine, state)
        return seat in public | private

    people = {s.user_id: (s.seat, s.display_name) for s in game.seats if not s.automatic_player}
    owed: Counter[Seat] = Counter(d.seat for d in table.decisions)
    timeouts = [
        a.actor
        for a in record.actions
        if a.text.startswith((f"{TABLE_EVENT}timeout", f"{TABLE_EVENT}forfeit"))
    ]
    for seat in timeouts:
        owed[seat] += 1
    seats = count(sent, seats=people, owed=owed, owing_at=owing)
    for figures in seats:
        figures.timed_out = sum(1 for s in timeouts if s == figures.seat)

    automatic = {s.seat for s in game.seats if s.automatic_player}
    boards = [s for s in sent if s.board_version is not None]
    auto_choices = auto_components = 0
    for board in boards:
        _, version = board.board_version or (0, 0)
        if not 0 <= version < len(at_version):
            continue
        state = at_version[version]
        if engine.outcome(state) is not None:
            continue
        awaited = engine.waiting_on(state) - {CHANCE}
        if awaited and awaited <= automatic:
            auto_choices += board.shows_choices
            auto_components += bool(board.custom_ids)

    # The service pads only games that hide something (issue 30).
    pad = THINK_PAD[game.table.level] if game.hides_information else 0.0
    for wait in table.waits:
        moves = record.actions[wait.from_version : wait.to_version]
        wait.automatic_moves = sum(1 for a in moves if a.actor in automatic and not a.table_event)
        wait.pad = pad * wait.automatic_moves

    lobby_posts = [s for s in sent if s.message_id == table.lobby_id]
    first_start = next((s.seq for s in sent if s.board_version is not None), len(fake.sent))
    lobby_edits = [s for s in lobby_posts if not s.new]
    return GameFigures(
        scenario=table.scenario.name,
        engine=table.scenario.engine,
        people=table.scenario.people,
        bots=table.scenario.bots,
        seats=seats,
        finished=game.is_over and game.record.status == "finished",
        decisions=len(table.decisions),
        versions=game.version,
        lobby_chars=len(lobby_posts[0].content) if lobby_posts else 0,
        rematch_chars=len(rematch.content) if rematch is not None else None,
        lobby_edits=len(lobby_edits),
        lobby_edits_before_start=sum(1 for s in lobby_edits if s.seq < first_start),
        boards_posted=sum(1 for b in boards if b.new),
        boards_edited_in_place=sum(1 for b in boards if not b.new and b.uploaded),
        boards_stripped=sum(1 for b in boards if not b.new and not b.uploaded),
        auto_boards_with_choices=auto_choices,
        auto_boards_with_components=auto_components,
        messages=Counter(s.place for s in sent if s.new),
        edits=Counter(s.place for s in sent if not s.new),
        waits=[w.seconds for w in table.waits] if table.scenario.solo else [],
        waits_for_others=[w.seconds for w in table.waits if w.automatic_moves]
        if table.scenario.solo
        else [],
        wait_pad=pad,
        reopens=table.reopens,
        refusals=len(table.refusals),
        seconds=seconds,
    )


async def measure_all(
    scenarios: Sequence[Scenario] = SCENARIOS, progress: Callable[[str], None] | None = None
) -> dict[str, JSON]:
    """Every scenario's figures as JSON (the bench's ``attention`` section)."""
    report: dict[str, JSON] = {}
    for scenario in scenarios:
        if progress is not None:
            progress(f"attention: {scenario.name} through dispatch")
        report[scenario.name] = (await measure(scenario)).to_json()
    return report
