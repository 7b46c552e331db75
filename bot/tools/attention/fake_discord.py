"""The fake Discord the games are played against (:class:`RecordingDiscord`):
discord.py's own dispatch for slash commands and clicks, every request the
bot makes answered as Discord would and recorded, on a fake clock.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.edge.client import ChaupalBot
from bot.tools.attention.recorded import EPHEMERAL, JSON, LOADING, Outgoing, Place, Stalled

APPLICATION_ID: Final = 900_000_000_000_000_007
GUILD_ID: Final = 910_000_000_000_000_001
CHANNEL_ID: Final = 910_000_000_000_000_002
FIRST_USER: Final = 920_000_000_000_000_001


class FakeClock:
    """Time that moves only when the driver moves it."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


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
