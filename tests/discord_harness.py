"""Drive a discord.py 2.x bot through discord.py's *real* interaction dispatch, offline.

The harness feeds gateway-shaped ``INTERACTION_CREATE`` payloads to
``bot._connection.parse_interaction_create`` (exactly what the gateway reader calls in
production), so the bot's ``CommandTree``, ``View``/``DynamicItem`` routing, ``Modal``
dispatch, checks, transformers and error handlers all run unmodified.  Nothing talks to
the network: the two places where discord.py does HTTP are replaced by recorders.

* ``discord.webhook.async_.AsyncWebhookAdapter.request`` (class attribute, shared by all
  instances): every interaction callback, followup, ``@original`` get/edit/delete.
* ``bot.http.request`` (instance attribute): every REST call of ``discord.http.HTTPClient``
  (``channel.send``, ``message.edit``, DMs, fetches, ``tree.sync`` ...).  Routes the fake
  does not know raise :class:`HarnessError` inside the bot, so they surface as test
  failures instead of being silently ignored.  ``bot.http.get_from_cdn`` serves the bytes of
  attachments recorded by the fake, so ``Attachment.read()`` works.

The fake behaves like Discord where bots are most often wrong:

* Outgoing messages are validated like Discord's API does (content length, empty message,
  embeds, action rows, custom_id length/uniqueness, select options, autocomplete choices,
  modal shape, file count/size) and rejected with ``HTTPException`` 400 / code 50035.
* An interaction that is never acknowledged raises :class:`NotAcknowledged` ("This
  interaction failed" in the client); acknowledging twice is a 400 / 40060.
* The first followup after a ``defer()`` (type 5) fills the deferred "thinking" message and
  keeps the ephemerality chosen at defer time (discord-api-docs#3466, discord.js#6465).
* ``block_dms(user)``: opening the DM channel succeeds, sending to it raises
  ``discord.Forbidden`` (403, code 50007), as on Discord.
* Threads: ``Message.create_thread`` opens a public thread with the message's id (400 /
  160004 for a second one, 403 / 50013 without Create Public Threads: see
  ``set_bot_permissions``); posting in it needs Send Messages in Threads; after
  ``delete_thread(id)`` the thread and its messages answer 404 (10003 / 10008).
* Buttons/selects can only be used if they exist, are enabled and are visible to the user
  (ephemeral messages belong to one user); values of selects must be valid options.
* Slash commands respect the option types of the registered command, required options,
  choices, min/max and a command's ``default_permissions`` (Discord hides such commands).

Typical use::

    fake = await FakeDiscord.start(MyBot())
    alice = fake.user("alice")
    out = await fake.slash(alice, "game new", kind="chaturaji")
    board = fake.channel_posts()[-1]
    await fake.click(alice, board, fake.find_button(board, label="Join")["custom_id"])
    fake2 = await fake.restart(MyBot())      # same guild/channel/messages, new bot object
    await fake2.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import re
import traceback
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, TypeVar, cast

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

_T = TypeVar("_T")

__all__ = [
    "BotError",
    "CapturedError",
    "CommandUnavailable",
    "FakeDiscord",
    "FakeUser",
    "HarnessError",
    "HarnessTimeout",
    "NotAcknowledged",
    "Sent",
    "World",
]

JSON = dict[str, Any]

# Interaction types (gateway) and interaction callback types (responses).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

_log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- errors


class HarnessError(AssertionError):
    """The test or the bot did something the real Discord would refuse or report."""


class NotAcknowledged(HarnessError):
    """The bot never answered an interaction (the client shows "This interaction failed")."""


class CommandUnavailable(HarnessError):
    """Discord would not let this user run this command (``default_permissions``)."""


class HarnessTimeout(HarnessError):
    """Tasks started by an interaction did not finish in time."""


@dataclass
class CapturedError:
    """An error the bot hit: logged by discord.py (``on_error`` handlers) or an
    exception nobody retrieved from a task started during an interaction."""

    source: str
    message: str
    exception: BaseException | None

    def summary(self) -> str:
        text = f"[{self.source}] {self.message}"
        exc = self.exception
        while exc is not None and exc.__cause__ is not None:  # CommandInvokeError -> original
            exc = exc.__cause__
        if exc is not None:
            text += f" -> {type(exc).__name__}: {exc}"
        return text

    def format(self) -> str:
        text = self.summary()
        if self.exception is not None:
            tb = "".join(
                traceback.format_exception(
                    type(self.exception), self.exception, self.exception.__traceback__
                )
            )
            text += "\n" + tb
        return text


class BotError(HarnessError):
    """The bot raised during an interaction (discord.py logged and swallowed it)."""

    def __init__(self, errors: Sequence[CapturedError]) -> None:
        self.errors = list(errors)
        summary = "\n".join("  " + e.summary() for e in self.errors)
        body = "\n".join(e.format() for e in self.errors)
        super().__init__(f"{len(self.errors)} error(s) inside the bot:\n{summary}\n\n{body}")


class _FakeResponse:
    """Enough of ``aiohttp.ClientResponse`` for ``discord.HTTPException.__init__``."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _http_error(status: int, code: int, message: str) -> discord.HTTPException:
    cls: type[discord.HTTPException]
    reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")
    if status == 403:
        cls = discord.Forbidden
    elif status == 404:
        cls = discord.NotFound
    else:
        cls = discord.HTTPException
    return cls(cast(Any, _FakeResponse(status, reason)), {"code": code, "message": message})


def _invalid_form(problems: Sequence[str]) -> discord.HTTPException:
    return _http_error(400, 50035, "Invalid Form Body: " + "; ".join(problems))


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class FakeUser:
    """A Discord user; in a guild context it is sent as a member.

    ``moderator=True`` gives the member the guild's "Moderator" role (Manage Guild, Manage
    Messages, ...).  ``permissions`` overrides the computed guild permissions (an int
    bit-field) sent as the interaction's ``permissions``; ``role_ids`` adds extra roles
    created with :meth:`FakeDiscord.add_role`.
    """

    id: int
    name: str
    moderator: bool = False
    global_name: str | None = None
    nick: str | None = None
    bot: bool = False
    role_ids: tuple[int, ...] = ()
    permissions: int | None = None
    locale: str = "en-US"
    """The Discord client's language this user's interactions report
    (``Interaction.locale``; issue 33): ``hi`` for Hindi, ``qps`` for the
    pseudo-locale."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Sent:
    """One outgoing call the bot made (a new message, an edit, a response, ...).

    ``route`` is one of: ``interaction.response`` (``type`` 4/5/6/7/9), ``autocomplete``
    (type 8, see ``choices``), ``followup``, ``followup.edit``, ``followup.delete``,
    ``edit_original``, ``delete_original``, ``channel.send``, ``channel.edit``,
    ``channel.delete``, ``dm.send``, ``dm.edit``, ``dm.delete``, ``thread.create``
    (``message_id`` is the message the thread was opened from, and the thread's id).
    Posts and edits in a thread are ``channel.*`` with the thread's id as ``channel_id``.

    ``content``/``embeds``/``components``/``files`` are what this call carried (for edits
    only the edited fields; ``None``/empty otherwise).  ``created`` is true when the call
    made a message visible (new message, or filled a deferred "thinking" message).
    """

    route: str
    channel_id: int | None
    user_id: int | None
    content: str | None = None
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    message_id: int | None = None
    type: int | None = None
    choices: list[JSON] | None = None
    modal: JSON | None = None
    flags: int = 0
    created: bool = False
    interaction_id: int | None = None
    raw: JSON = field(default_factory=dict)

    @property
    def descriptions(self) -> dict[str, str | None]:
        """Each file's description (its alt text), by filename, as this call
        sent it (``None``: sent without one)."""
        listed = {
            int(a["id"]): a
            for a in self.raw.get("attachments") or []
            if "url" not in a and str(a.get("id", "")).isdigit()
        }
        return {
            name: (listed.get(i) or {}).get("description") for i, (name, _) in enumerate(self.files)
        }

    def __repr__(self) -> str:  # short, readable in assertion diffs
        bits = [self.route, f"msg={self.message_id}", f"ch={self.channel_id}"]
        if self.type is not None:
            bits.append(f"type={self.type}")
        if self.ephemeral:
            bits.append("ephemeral")
        if self.content:
            bits.append(repr(self.content[:60]))
        if self.files:
            bits.append(f"files={[name for name, _ in self.files]}")
        if self.components:
            bits.append(f"custom_ids={_custom_ids(self.components)}")
        return f"Sent({', '.join(bits)})"


class _Snowflakes:
    """Monotonic, realistic snowflakes (``created_at`` is "now")."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = discord.utils.time_snowflake(discord.utils.utcnow())
        self._last = max(self._last + 1, now)
        return self._last


@dataclass
class World:
    """Everything that outlives one bot process: guild, channels, users, messages.

    A :class:`FakeDiscord` binds one bot to a world; :meth:`FakeDiscord.restart` binds a new
    bot to the same world.
    """

    application_id: int
    bot_name: str
    guild_id: int
    channel_id: int
    moderator_role_id: int
    bot_role_id: int
    snowflake: _Snowflakes
    everyone_permissions: int
    moderator_permissions: int
    bot_permissions: int
    guild_name: str = "Chaupal Test Guild"
    owner_id: int = 0
    guild_locale: str = "en-US"
    """The server's language as Discord reports it (``guild_locale``;
    issue 33): set ``fake.world.guild_locale = "hi"`` before the commands."""
    channels: dict[int, JSON] = field(default_factory=dict)
    roles: dict[int, JSON] = field(default_factory=dict)
    users: dict[int, FakeUser] = field(default_factory=dict)
    dm_channels: dict[int, int] = field(default_factory=dict)  # user id -> DM channel id
    blocked_dms: set[int] = field(default_factory=set)
    messages: dict[int, JSON] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    cdn: dict[str, bytes] = field(default_factory=dict)
    sent: list[Sent] = field(default_factory=list)
    command_ids: dict[str, int] = field(default_factory=dict)
    ephemeral_owner: dict[int, int] = field(default_factory=dict)  # message id -> user id
    message_interaction: dict[int, int] = field(default_factory=dict)  # msg id -> itx id
    threads: dict[int, JSON] = field(default_factory=dict)  # thread id -> channel payload
    deleted_channels: set[int] = field(default_factory=set)

    @classmethod
    def create(cls, *, application_id: int | None = None, bot_name: str = "Chaupal") -> World:
        snow = _Snowflakes()
        everyone = discord.Permissions(
            view_channel=True,
            send_messages=True,
            send_messages_in_threads=True,
            read_message_history=True,
            embed_links=True,
            attach_files=True,
            add_reactions=True,
            use_external_emojis=True,
            use_application_commands=True,
            create_public_threads=True,
        )
        moderator = discord.Permissions(
            manage_guild=True, manage_messages=True, manage_channels=True, kick_members=True
        )
        bot_perms = discord.Permissions(
            view_channel=True,
            send_messages=True,
            send_messages_in_threads=True,
            read_message_history=True,
            embed_links=True,
            attach_files=True,
            add_reactions=True,
            use_external_emojis=True,
            manage_messages=True,
            create_public_threads=True,
        )
        guild_id = snow()
        world = cls(
            application_id=application_id or snow(),
            bot_name=bot_name,
            guild_id=guild_id,
            channel_id=0,
            moderator_role_id=snow(),
            bot_role_id=snow(),
            snowflake=snow,
            everyone_permissions=everyone.value,
            moderator_permissions=moderator.value,
            bot_permissions=bot_perms.value,
        )
        world.owner_id = snow()
        world.users[world.owner_id] = FakeUser(world.owner_id, "owner")
        world.roles[guild_id] = _role(guild_id, "@everyone", everyone.value, 0)
        world.roles[world.moderator_role_id] = _role(
            world.moderator_role_id, "Moderator", moderator.value, 2
        )
        world.roles[world.bot_role_id] = _role(
            world.bot_role_id, bot_name, bot_perms.value, 1, managed=True
        )
        world.channel_id = world.add_channel("games")
        return world

    def add_channel(self, name: str) -> int:
        cid = self.snowflake()
        self.channels[cid] = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        return cid

    def bot_user_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "username": self.bot_name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "public_flags": 0,
        }

    def is_dm_channel(self, channel_id: int) -> bool:
        return channel_id in self.dm_channels.values()

    def is_thread(self, channel_id: int) -> bool:
        return channel_id in self.threads

    def guild_channel(self, channel_id: int) -> JSON | None:
        """A text channel's or thread's payload (None: unknown or deleted)."""
        if channel_id in self.deleted_channels:
            return None
        return self.channels.get(channel_id) or self.threads.get(channel_id)

    def add_thread(self, parent_id: int, thread_id: int, name: str, archive_minutes: int) -> JSON:
        now = discord.utils.utcnow().isoformat()
        data: JSON = {
            "id": str(thread_id),
            "type": 11,  # PUBLIC_THREAD
            "guild_id": str(self.guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.application_id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": archive_minutes,
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
            },
        }
        self.threads[thread_id] = data
        return data

    def dm_recipient(self, channel_id: int) -> int | None:
        for uid, cid in self.dm_channels.items():
            if cid == channel_id:
                return uid
        return None

    def dm_channel_for(self, user_id: int) -> int:
        if user_id not in self.dm_channels:
            self.dm_channels[user_id] = self.snowflake()
        return self.dm_channels[user_id]

    def member_permissions(self, user: FakeUser) -> int:
        if user.permissions is not None:
            return user.permissions
        value = self.everyone_permissions
        if user.moderator:
            value |= self.moderator_permissions
        for rid in user.role_ids:
            value |= int(self.roles[rid]["permissions"])
        if value & discord.Permissions(administrator=True).value:
            value = discord.Permissions.all().value
        return value

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> JSON:
        roles = list(user.role_ids)
        if user.moderator:
            roles.append(self.moderator_role_id)
        data: JSON = {
            "roles": [str(r) for r in roles],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": user.nick,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "permissions": str(self.member_permissions(user)),
        }
        if with_user:
            data["user"] = user.payload()
        return data


def _role(rid: int, name: str, permissions: int, position: int, *, managed: bool = False) -> JSON:
    return {
        "id": str(rid),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": position,
        "permissions": str(permissions),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }


@dataclass
class _Itx:
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    source_message_id: int | None = None
    name: str | None = None
    response_type: int | None = None
    original_message_id: int | None = None
    loading: bool = False
    deferred_ephemeral: bool = False


# --------------------------------------------------------------------------- helpers


def _walk(components: Sequence[JSON]) -> Iterator[JSON]:
    """Every component in a tree (action rows, v2 containers, sections, labels)."""
    for comp in components:
        yield comp
        yield from _walk(comp.get("components") or [])
        for key in ("component", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, dict):
                yield from _walk([inner])


def _custom_ids(components: Sequence[JSON]) -> list[str]:
    return [c["custom_id"] for c in _walk(components) if "custom_id" in c]


def _read_body(
    payload: JSON | None, multipart: Sequence[JSON] | None
) -> tuple[JSON, list[tuple[str, bytes]]]:
    """JSON body and uploaded files of a request (``payload_json`` + ``files[n]`` parts)."""
    if not multipart:
        return dict(payload or {}), []
    body: JSON = {}
    files: list[tuple[str, bytes]] = []
    for part in multipart:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
        elif "filename" in part:
            value = part["value"]
            raw = value.read() if hasattr(value, "read") else bytes(value)
            files.append((str(part["filename"]), bytes(raw)))
    return body, files


def _route_params(route: Route) -> dict[str, str]:
    """Values of the ``{placeholders}`` of a route, read back from its URL."""
    pattern = re.escape(route.path)
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", pattern)
    match = re.fullmatch(pattern, route.url[len(Route.BASE) :])
    return dict(match.groupdict()) if match else {}


def _problems_components(components: Sequence[JSON], *, v2: bool) -> list[str]:
    problems: list[str] = []
    ids = _custom_ids(components)
    for cid in ids:
        if not cid or len(cid) > 100:
            problems.append(f"custom_id must be 1-100 characters: {cid!r} ({len(cid)})")
    dupes = sorted({c for c in ids if ids.count(c) > 1})
    if dupes:
        problems.append(f"duplicate custom_id(s) in one message: {dupes}")
    if not v2:
        if len(components) > 5:
            problems.append(f"at most 5 action rows, got {len(components)}")
        for row in components:
            if row.get("type") != 1:
                problems.append(
                    f"top-level component must be an action row, got type {row.get('type')}"
                )
                continue
            kids = row.get("components") or []
            if not kids:
                problems.append("empty action row")
            buttons = [k for k in kids if k.get("type") == 2]
            if len(buttons) > 5:
                problems.append(f"at most 5 buttons per row, got {len(buttons)}")
            if buttons and len(buttons) != len(kids):
                problems.append("an action row cannot mix buttons and selects")
            if not buttons and len(kids) > 1:
                problems.append("a select must be alone in its action row")
    elif len(list(_walk(components))) > 40:
        problems.append("at most 40 components in a components-v2 message")
    for comp in _walk(components):
        ctype = comp.get("type")
        if ctype == 2:
            label = comp.get("label") or ""
            if len(label) > 80:
                problems.append(f"button label over 80 characters: {label!r}")
            style = comp.get("style")
            if style == 5 and not comp.get("url"):
                problems.append("link button without url")
            if style not in (5, 6) and "custom_id" not in comp:
                problems.append("non-link button without custom_id")
            if not label and not comp.get("emoji") and style != 6:
                problems.append("button needs a label or an emoji")
        elif ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                problems.append(f"string select needs 1-25 options, got {len(options)}")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                problems.append("duplicate select option values")
            for opt in options:
                if not 1 <= len(opt.get("label") or "") <= 100:
                    problems.append(
                        f"select option label must be 1-100 chars: {opt.get('label')!r}"
                    )
                if not 1 <= len(opt.get("value") or "") <= 100:
                    problems.append(
                        f"select option value must be 1-100 chars: {opt.get('value')!r}"
                    )
            if len(comp.get("placeholder") or "") > 150:
                problems.append("select placeholder over 150 characters")
            max_values = int(comp.get("max_values", 1))
            if max_values > len(options):
                problems.append("select max_values exceeds the number of options")
    return problems


def _problems_embeds(embeds: Sequence[JSON]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"at most 10 embeds, got {len(embeds)}")
    total = 0
    for e in embeds:
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            text = e.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {key} over {limit} characters")
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append("at most 25 embed fields")
        for f in fields:
            name, value = f.get("name") or "", f.get("value") or ""
            total += len(name) + len(value)
            if not name or len(name) > 256:
                problems.append(f"embed field name must be 1-256 characters: {name!r}")
            if not value or len(value) > 1024:
                problems.append(f"embed field value must be 1-1024 characters ({name!r})")
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            problems.append("embed footer over 2048 characters")
        if len(author) > 256:
            problems.append("embed author name over 256 characters")
    if total > 6000:
        problems.append(f"embeds total over 6000 characters ({total})")
    return problems


def _problems_message(
    body: JSON, files: Sequence[tuple[str, bytes]], *, existing: JSON | None = None
) -> list[str]:
    """What Discord's API would reject in a create (``existing=None``) or edit body."""
    problems: list[str] = []
    flags = int(body.get("flags") or (existing or {}).get("flags") or 0)
    v2 = bool(flags & COMPONENTS_V2)
    content = body.get("content")
    if content is not None and len(content) > 2000:
        problems.append(f"content over 2000 characters ({len(content)})")
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    problems += _problems_embeds(embeds)
    problems += _problems_components(components, v2=v2)
    if v2 and (content or embeds):
        problems.append("components-v2 messages cannot have content or embeds")
    if len(files) > 10:
        problems.append(f"at most 10 files, got {len(files)}")
    for name, data in files:
        if len(data) > ATTACHMENT_SIZE_LIMIT:
            problems.append(f"file {name!r} is {len(data)} bytes (limit {ATTACHMENT_SIZE_LIMIT})")
    merged = dict(existing or {})
    merged.update({k: v for k, v in body.items() if k in ("content", "embeds", "components")})
    has_any = (
        bool(merged.get("content"))
        or bool(merged.get("embeds"))
        or bool(merged.get("components"))
        or bool(files)
        or bool(body.get("attachments") if existing is not None else False)
        or bool((existing or {}).get("attachments") and "attachments" not in body)
        or bool(body.get("poll"))
        or bool(body.get("sticker_ids"))
    )
    if not has_any:
        problems.append("Cannot send an empty message (no content, embeds, components or files)")
    return problems


def _enum_choice_value(param: app_commands.Parameter, value: Any) -> Any:
    if isinstance(value, app_commands.Choice):
        return value.value
    if isinstance(value, Enum) and param.choices:
        for choice in param.choices:
            if choice.name == value.name or choice.value == value.value:
                return choice.value
    return value


# ------------------------------------------------------------ webhook adapter patch

_TOKENS: dict[str, FakeDiscord] = {}
_ADAPTER_PATCH: list[Any] = []  # [original request] while installed
_ADAPTER_USERS = 0
_CURRENT_ITX: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "fake_discord_interaction", default=None
)


async def _fake_adapter_request(
    self: AsyncWebhookAdapter,
    route: Route,
    session: Any,
    *,
    payload: JSON | None = None,
    multipart: list[JSON] | None = None,
    proxy: Any = None,
    proxy_auth: Any = None,
    files: Any = None,
    reason: str | None = None,
    auth_token: str | None = None,
    params: JSON | None = None,
) -> Any:
    fake = _TOKENS.get(route.webhook_token or "")
    if fake is None:
        raise HarnessError(
            f"webhook request with an unknown token (no FakeDiscord issued it): "
            f"{route.method} {route.path}"
        )
    return await fake._webhook_request(route, payload=payload, multipart=multipart)


def _install_adapter_patch() -> None:
    global _ADAPTER_USERS
    if not _ADAPTER_PATCH:
        _ADAPTER_PATCH.append(AsyncWebhookAdapter.request)
        AsyncWebhookAdapter.request = _fake_adapter_request  # type: ignore[method-assign]
    _ADAPTER_USERS += 1


def _remove_adapter_patch() -> None:
    global _ADAPTER_USERS
    _ADAPTER_USERS = max(0, _ADAPTER_USERS - 1)
    if _ADAPTER_USERS == 0 and _ADAPTER_PATCH:
        AsyncWebhookAdapter.request = _ADAPTER_PATCH.pop()  # type: ignore[method-assign]


class _ErrorLogHandler(logging.Handler):
    def __init__(self, sink: Callable[[logging.LogRecord], None]) -> None:
        super().__init__(level=logging.ERROR)
        self._sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self._sink(record)


# Long-lived tasks discord.py starts that an interaction must not wait for.
BOT_BACKGROUND_TASKS: frozenset[str] = frozenset(
    {"chaupal-scheduler", "chaupal-delivery-sweep", "chaupal-stranded-sweep"}
)
"""Tasks the bot keeps for its whole life (the timer scheduler sleeps until
the next deadline, the delivery sweep until its next look): never waited
for when an interaction settles."""
_BACKGROUND_QUALNAMES = ("__timeout_task_impl", "Loop._loop", ".inner_call")


# --------------------------------------------------------------------------- FakeDiscord


class FakeDiscord:
    """A fake Discord for one bot object.  Create with :meth:`start`."""

    # A bound, not a budget: generous, as a replay drawn on a loaded 2-core
    # machine running the tests in parallel (make test) can take over 10 s.
    DEFAULT_TIMEOUT: ClassVar[float] = 30.0

    def __init__(
        self,
        bot: discord.Client,
        world: World,
        *,
        task_timeout: float,
        ignore_tasks: Callable[[asyncio.Task[Any]], bool] | None,
        error_loggers: Sequence[str],
    ) -> None:
        self.bot = bot
        self.world = world
        self.task_timeout = task_timeout
        self.ignore_tasks = ignore_tasks
        self.errors: list[CapturedError] = []
        self.http_calls: list[tuple[str, str]] = []  # (method, path) of every REST call
        self.closed = False
        self._error_loggers = list(error_loggers)
        self._log_handler = _ErrorLogHandler(self._on_log_record)
        self._itx: dict[int, _Itx] = {}
        self._tokens: set[str] = set()
        self._created: list[asyncio.Task[Any]] = []
        self._factory_active = False
        self._previous_factory: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._orig_http: dict[str, Any] = {}

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def start(
        cls,
        bot: discord.Client,
        *,
        world: World | None = None,
        task_timeout: float | None = None,
        ignore_tasks: Callable[[asyncio.Task[Any]], bool] | None = None,
        error_loggers: Sequence[str] = ("discord",),
        dispatch_ready: bool = True,
        guild_locale: str | None = None,
    ) -> FakeDiscord:
        """Bring ``bot`` up as if it had logged in and received its guild.

        Order (as in production): ``_async_setup_hook`` -> ``bot.user`` is set ->
        ``setup_hook()`` -> the guild (with roles, channels and the bot's member) is put in
        the cache -> ``ready`` (``on_ready`` runs if ``dispatch_ready``).

        ``ignore_tasks(task) -> bool`` marks long-lived tasks the bot starts while handling
        an interaction that the harness must not wait for.  ``error_loggers`` are logger
        names whose ERROR records count as bot errors (add your bot's own loggers).
        """
        if world is None:
            app_id = getattr(bot, "application_id", None)
            world = World.create(application_id=app_id)
        if guild_locale is not None:
            world.guild_locale = guild_locale
        fake = cls(
            bot,
            world,
            task_timeout=cls.DEFAULT_TIMEOUT if task_timeout is None else task_timeout,
            ignore_tasks=ignore_tasks,
            error_loggers=error_loggers,
        )
        try:
            await fake._start(dispatch_ready=dispatch_ready)
        except BaseException as failed:
            # The start-up failure is the news; a slow close after it (a
            # loaded machine) must not replace it.
            try:
                await fake.close()
            except HarnessTimeout as closing:
                failed.add_note(f"Closing the bot afterwards failed too: {closing}")
            raise
        return fake

    async def _start(self, *, dispatch_ready: bool) -> None:
        bot = self.bot
        world = self.world
        self._loop = asyncio.get_running_loop()
        self._install_task_factory()
        for name in self._error_loggers:
            logging.getLogger(name).addHandler(self._log_handler)
        _install_adapter_patch()

        await self._bounded(bot._async_setup_hook(), "bot._async_setup_hook()")
        state = bot._connection
        if state.application_id is None:
            state.application_id = world.application_id
        elif state.application_id != world.application_id:
            raise HarnessError(
                f"bot.application_id {state.application_id} differs from the world's "
                f"{world.application_id}; construct the bot without application_id or pass "
                f"a matching World"
            )
        state.user = discord.ClientUser(state=state, data=cast(Any, world.bot_user_payload()))

        http = bot.http
        self._orig_http = {"request": http.request, "get_from_cdn": http.get_from_cdn}
        http.request = self._http_request  # type: ignore[method-assign]
        http.get_from_cdn = self._get_from_cdn  # type: ignore[method-assign]

        mark = len(self._created), len(self.errors)
        await self._bounded(bot.setup_hook(), "bot.setup_hook()")
        self._add_guild_to_cache()
        if bot._ready is not discord.utils.MISSING:
            bot._ready.set()
        if dispatch_ready:
            bot.dispatch("ready")
        await self._settle(mark[0], "startup", only_events=True)
        self._raise_new_errors(mark[1], expect_error=False)

    def _add_guild_to_cache(self) -> None:
        world = self.world
        state = self.bot._connection
        members = [world.member_payload(FakeUser(world.application_id, world.bot_name, bot=True))]
        members[0]["roles"] = [str(world.bot_role_id)]
        members[0]["user"] = world.bot_user_payload()
        if state._intents.members:
            members += [world.member_payload(u) for u in world.users.values()]
        data: JSON = {
            "id": str(world.guild_id),
            "name": world.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(world.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": list(world.roles.values()),
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
            "preferred_locale": world.guild_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "members": members,
            "channels": [dict(c) for c in world.channels.values()],
            "threads": [
                dict(t) for tid, t in world.threads.items() if tid not in world.deleted_channels
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
        }
        state._add_guild_from_data(cast(Any, data))

    async def restart(self, new_bot: discord.Client, *, close_old: bool = True) -> FakeDiscord:
        """Model a process restart: the same world (guild, channels, users, messages,
        ``sent``) served to a brand-new bot object.  Only persistent views / DynamicItems
        registered by the new bot's ``setup_hook`` will answer clicks on old messages."""
        if close_old:
            await self.close()
        return await type(self).start(
            new_bot,
            world=self.world,
            task_timeout=self.task_timeout,
            ignore_tasks=self.ignore_tasks,
            error_loggers=self._error_loggers,
        )

    async def close(self) -> None:
        """``await bot.close()`` (no network involved) and remove every patch."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.bot.loop is not discord.utils.MISSING:
                try:
                    await self._bounded(self.bot.close(), "bot.close()")
                except HarnessTimeout:
                    raise  # a hang is a bug; other errors while closing are not the test's
                except Exception:
                    pass
        finally:
            current = asyncio.current_task()
            leftovers = [t for t in self._created if not t.done() and t is not current]
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.wait(leftovers, timeout=2)
            for task in leftovers:
                if task.done() and not task.cancelled():
                    task.exception()  # retrieved: no "never retrieved" noise at exit
            self._remove_task_factory()
            for name in self._error_loggers:
                logging.getLogger(name).removeHandler(self._log_handler)
            for token in self._tokens:
                _TOKENS.pop(token, None)
            if self._orig_http:
                self.bot.http.request = self._orig_http["request"]  # type: ignore[method-assign]
                self.bot.http.get_from_cdn = self._orig_http["get_from_cdn"]  # type: ignore[method-assign]
            _remove_adapter_patch()

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls, bot: discord.Client, **kwargs: Any) -> AsyncIterator[FakeDiscord]:
        """``async with FakeDiscord.running(bot) as fake:`` -- closes on exit."""
        fake = await cls.start(bot, **kwargs)
        try:
            yield fake
        finally:
            await fake.close()

    # ------------------------------------------------------------------ world access

    @property
    def guild_id(self) -> int:
        return self.world.guild_id

    @property
    def channel_id(self) -> int:
        return self.world.channel_id

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def sent(self) -> list[Sent]:
        return self.world.sent

    @property
    def guild(self) -> discord.Guild:
        guild = self.bot.get_guild(self.world.guild_id)
        assert guild is not None
        return guild

    def user(self, name: str, *, moderator: bool = False, **kwargs: Any) -> FakeUser:
        """A new user (member of the guild) with a fresh id."""
        user = FakeUser(self.world.snowflake(), name, moderator=moderator, **kwargs)
        self._know_user(user)
        return user

    def moderator(self, name: str = "mod", **kwargs: Any) -> FakeUser:
        """A member holding the Moderator role (Manage Guild, Manage Messages ...)."""
        return self.user(name, moderator=True, **kwargs)

    def add_channel(self, name: str) -> int:
        """Another text channel in the guild (cached in the bot too); returns its id."""
        cid = self.world.add_channel(name)
        guild = self.guild
        channel = discord.TextChannel(
            state=self.bot._connection, guild=guild, data=cast(Any, self.world.channels[cid])
        )
        guild._add_channel(channel)
        return cid

    def add_role(self, name: str, permissions: discord.Permissions | int = 0) -> int:
        """A role in the guild; give it to users with ``FakeUser(role_ids=(rid,))``."""
        rid = self.world.snowflake()
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        data = _role(rid, name, value, len(self.world.roles))
        self.world.roles[rid] = data
        guild = self.guild
        guild._add_role(discord.Role(guild=guild, state=self.bot._connection, data=cast(Any, data)))
        return rid

    def block_dms(self, user: FakeUser | int) -> None:
        """Sending a DM to this user fails with ``discord.Forbidden`` (403, code 50007)."""
        self.world.blocked_dms.add(user if isinstance(user, int) else user.id)

    def unblock_dms(self, user: FakeUser | int) -> None:
        self.world.blocked_dms.discard(user if isinstance(user, int) else user.id)

    def _know_user(self, user: FakeUser) -> None:
        self.world.users[user.id] = user
        state = self.bot._connection
        if state._intents.members:
            guild = self.bot.get_guild(self.world.guild_id)
            if guild is not None and guild.get_member(user.id) is None:
                member = discord.Member(
                    data=cast(Any, self.world.member_payload(user)), guild=guild, state=state
                )
                guild._add_member(member)

    # ------------------------------------------------------------------ queries

    def channel_posts(
        self, channel_id: int | None = None, *, threads: bool | None = None
    ) -> list[Sent]:
        """Visible (non-ephemeral) messages created in a guild channel, in order.

        Without ``channel_id``: the main channel *and its threads* (where a game
        is played is the bot's choice; tests that care pass ``threads=False``
        or a thread's id).  With ``channel_id``: that channel or thread only,
        unless ``threads=True`` adds the threads opened in it.
        """
        cid = self.world.channel_id if channel_id is None else channel_id
        with_threads = channel_id is None if threads is None else threads
        where = {cid}
        if with_threads:
            where |= {t for t, data in self.world.threads.items() if int(data["parent_id"]) == cid}
        return [
            s
            for s in self.world.sent
            if s.created
            and not s.ephemeral
            and s.channel_id in where
            and not s.route.startswith("dm.")
        ]

    def threads(self, parent_id: int | None = None) -> list[JSON]:
        """Threads opened in a channel (default: the main one), oldest first,
        deleted ones included (see :meth:`is_channel_deleted`)."""
        cid = self.world.channel_id if parent_id is None else parent_id
        return [t for t in self.world.threads.values() if int(t["parent_id"]) == cid]

    def delete_thread(self, thread_id: int) -> None:
        """A moderator deletes a thread: it and its messages are gone (404 from now on)."""
        world = self.world
        if thread_id not in world.threads:
            raise HarnessError(f"no thread {thread_id}")
        world.deleted_channels.add(thread_id)
        for mid, msg in world.messages.items():
            if int(msg["channel_id"]) == thread_id:
                world.deleted.add(mid)
        guild = self.bot.get_guild(world.guild_id)
        if guild is not None:
            guild._remove_thread(discord.Object(id=thread_id))

    def is_channel_deleted(self, channel_id: int) -> bool:
        return channel_id in self.world.deleted_channels

    def set_bot_permissions(self, **changes: bool) -> None:
        """Change what the bot's role allows (``create_public_threads=False`` ...)."""
        perms = discord.Permissions(self.world.bot_permissions)
        perms.update(**changes)
        self.world.bot_permissions = perms.value
        role = self.world.roles[self.world.bot_role_id]
        role["permissions"] = str(perms.value)
        guild = self.bot.get_guild(self.world.guild_id)
        cached = guild.get_role(self.world.bot_role_id) if guild is not None else None
        if cached is not None:
            cached._update(cast(Any, role))

    def dms(self, user: FakeUser | int) -> list[Sent]:
        """Messages sent (``dm.send``) or edited (``dm.edit``) in a user's DMs."""
        uid = user if isinstance(user, int) else user.id
        return [s for s in self.world.sent if s.route.startswith("dm.") and s.user_id == uid]

    def ephemerals(self, user: FakeUser | int | None = None) -> list[Sent]:
        """Ephemeral responses/followups/edits (optionally only those for one user)."""
        uid = user if isinstance(user, int) or user is None else user.id
        return [s for s in self.world.sent if s.ephemeral and (uid is None or s.user_id == uid)]

    def message(self, message: Sent | int) -> JSON:
        """The current raw state (dict) of a message, as Discord would return it."""
        mid = self._message_id(message)
        if mid not in self.world.messages:
            raise HarnessError(f"no message {mid}")
        return self.world.messages[mid]

    def current(self, message: Sent | int) -> Sent:
        """The current state of a message (after edits) as a ``Sent`` (route ``current``)."""
        msg = self.message(message)
        return Sent(
            route="current",
            channel_id=int(msg["channel_id"]),
            user_id=self.world.ephemeral_owner.get(int(msg["id"])),
            content=msg.get("content"),
            embeds=list(msg.get("embeds") or []),
            components=list(msg.get("components") or []),
            files=[
                (a["filename"], self.world.cdn.get(a["url"], b""))
                for a in msg.get("attachments") or []
            ],
            ephemeral=bool(int(msg.get("flags") or 0) & EPHEMERAL),
            message_id=int(msg["id"]),
            flags=int(msg.get("flags") or 0),
            raw=msg,
        )

    def is_deleted(self, message: Sent | int) -> bool:
        return self._message_id(message) in self.world.deleted

    def buttons(self, message: Sent | int) -> list[JSON]:
        """Button dicts of a ``Sent`` (as recorded) or of a message id (current state)."""
        comps = (
            message.components if isinstance(message, Sent) else self.current(message).components
        )
        return [c for c in _walk(comps) if c.get("type") == 2]

    def selects(self, message: Sent | int) -> list[JSON]:
        comps = (
            message.components if isinstance(message, Sent) else self.current(message).components
        )
        return [c for c in _walk(comps) if c.get("type") in (3, 5, 6, 7, 8)]

    def find_button(
        self,
        message: Sent | int,
        label: str | None = None,
        custom_id_prefix: str | None = None,
        *,
        custom_id: str | None = None,
    ) -> JSON:
        """The first button matching every given criterion (label is exact)."""
        buttons = self.buttons(message)
        for b in buttons:
            if label is not None and b.get("label") != label:
                continue
            if custom_id is not None and b.get("custom_id") != custom_id:
                continue
            if custom_id_prefix is not None and not str(b.get("custom_id", "")).startswith(
                custom_id_prefix
            ):
                continue
            return b
        shown = [(b.get("label"), b.get("custom_id")) for b in buttons]
        raise HarnessError(
            f"no button label={label!r} custom_id={custom_id!r} prefix={custom_id_prefix!r}; "
            f"buttons are {shown}"
        )

    def _message_id(self, message: Sent | int) -> int:
        if isinstance(message, Sent):
            if message.message_id is None:
                raise HarnessError(f"{message!r} has no message id")
            return message.message_id
        return int(message)

    # ------------------------------------------------------------------ interactions

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel_id: int | None = None,
        expect_error: bool = False,
        expect_ack: bool = True,
        validate: bool = True,
        option_values: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> list[Sent]:
        """Run ``/command`` ("game new" = group + subcommand) as ``user``.

        Options are matched to the registered command's parameters by Python name or
        Discord (display) name; values are encoded with the parameter's option type
        (``FakeUser``/ids for users, channel/role ids, ``(filename, bytes)`` for
        attachments, ``Choice``/``Enum`` for choices).  ``validate`` applies the checks
        Discord's client enforces (required, choices, ranges, lengths, default
        permissions).  ``option_values`` passes options whose names are not Python
        identifiers or clash with this method's keywords.  Returns everything sent while
        handling this interaction (including channel sends and DMs it caused).
        """
        options = {**(option_values or {}), **options}
        ctx_channel = self.world.channel_id if channel_id is None else channel_id
        leaf, root, path, scoped = self._resolve_command(command, ctx_channel)
        if validate:
            self._check_default_permissions(root, user, command, ctx_channel)
        opts, resolved = self._build_options(leaf, options, ctx_channel, None, validate)
        data = self._command_data(root, path, opts, resolved, scoped)
        itx = self._new_itx(APPLICATION_COMMAND, user, ctx_channel, name=command)
        return await self._dispatch(
            itx, data, expect_error=expect_error, expect_ack=expect_ack, what=f"/{command}"
        )

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        focused: str,
        *,
        channel_id: int | None = None,
        expect_error: bool = False,
        option_values: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> list[JSON]:
        """Autocomplete for option ``focused`` (its typed text is ``options[focused]``,
        default ``""``); returns the choices the bot answered with."""
        ctx_channel = self.world.channel_id if channel_id is None else channel_id
        leaf, root, path, scoped = self._resolve_command(command, ctx_channel)
        options = {**(option_values or {}), **options}
        param = self._find_param(leaf, focused)
        if param is None:
            raise HarnessError(f"/{command} has no option {focused!r}")
        if not param.autocomplete:
            raise HarnessError(f"option {focused!r} of /{command} has no autocomplete")
        if (
            focused not in options
            and param.name not in options
            and param.display_name not in options
        ):
            options[focused] = ""
        opts, resolved = self._build_options(leaf, options, ctx_channel, param, False)
        data = self._command_data(root, path, opts, resolved, scoped)
        itx = self._new_itx(AUTOCOMPLETE, user, ctx_channel, name=command)
        out = await self._dispatch(
            itx,
            data,
            expect_error=expect_error,
            expect_ack=not expect_error,
            what=f"autocomplete /{command} {focused}",
        )
        for s in out:
            if s.route == "autocomplete" and s.choices is not None:
                return s.choices
        return []

    async def click(
        self,
        user: FakeUser,
        message: Sent | int,
        custom_id: str,
        *,
        expect_error: bool = False,
        expect_ack: bool = True,
    ) -> list[Sent]:
        """Press the button ``custom_id`` on a message (its current state)."""
        msg, comp = self._component_on(user, message, custom_id, kinds=(2,))
        if comp.get("style") in (5, 6):
            raise HarnessError(f"button {custom_id!r} is a link/premium button: no interaction")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._component_interaction(
            user, msg, data, expect_error=expect_error, expect_ack=expect_ack
        )

    async def select(
        self,
        user: FakeUser,
        message: Sent | int,
        custom_id: str,
        values: Sequence[str | int | FakeUser],
        *,
        expect_error: bool = False,
        expect_ack: bool = True,
    ) -> list[Sent]:
        """Choose ``values`` in a select menu (string selects: option values; user/role/
        channel selects: ids or ``FakeUser``)."""
        msg, comp = self._component_on(user, message, custom_id, kinds=(3, 5, 6, 7, 8))
        ctype = int(comp["type"])
        raw = [str(v.id) if isinstance(v, FakeUser) else str(v) for v in values]
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not lo <= len(raw) <= hi:
            raise HarnessError(f"select {custom_id!r} takes {lo}-{hi} values, got {len(raw)}")
        data: JSON = {"custom_id": custom_id, "component_type": ctype, "values": raw}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in raw if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} are not options of select {custom_id!r}: {allowed}")
        else:
            resolved: JSON = {}
            for v in raw:
                self._resolve_id(int(v), ctype, resolved, int(msg["channel_id"]))
            data["resolved"] = resolved
        return await self._component_interaction(
            user, msg, data, expect_error=expect_error, expect_ack=expect_ack
        )

    async def submit_modal(
        self,
        user: FakeUser,
        custom_id: str,
        fields: Mapping[str, str | Sequence[str]],
        *,
        expect_error: bool = False,
        expect_ack: bool = True,
    ) -> list[Sent]:
        """Submit the modal ``custom_id`` most recently shown to ``user``; ``fields`` maps
        text-input custom_ids to text (selects inside labels: lists of values)."""
        shown = [
            s
            for s in self.world.sent
            if s.type == MODAL
            and s.user_id == user.id
            and (s.modal or {}).get("custom_id") == custom_id
        ]
        if not shown:
            raise HarnessError(f"no modal {custom_id!r} was shown to {user.name}")
        modal = shown[-1]
        origin = self._itx.get(modal.interaction_id or 0)
        remaining = dict(fields)
        submitted = [self._submit_component(c, remaining) for c in modal.components]
        if remaining:
            raise HarnessError(f"modal {custom_id!r} has no inputs {sorted(remaining)}")
        data: JSON = {"custom_id": custom_id, "components": [c for c in submitted if c]}
        channel = modal.channel_id or self.world.channel_id
        itx = self._new_itx(MODAL_SUBMIT, user, channel, name=custom_id)
        message: JSON | None = None
        if origin is not None and origin.source_message_id is not None:
            itx.source_message_id = origin.source_message_id
            message = self.world.messages.get(origin.source_message_id)
        return await self._dispatch(
            itx,
            data,
            message=message,
            expect_error=expect_error,
            expect_ack=expect_ack,
            what=f"modal {custom_id}",
        )

    def _submit_component(self, comp: JSON, fields: dict[str, Any]) -> JSON | None:
        ctype = comp.get("type")
        if ctype == 1:
            kids = [self._submit_component(k, fields) for k in comp.get("components") or []]
            return {"type": 1, "components": [k for k in kids if k]}
        if ctype == 18:
            inner = self._submit_component(comp["component"], fields)
            return {"type": 18, "component": inner} if inner else None
        if ctype == 4:
            cid = comp["custom_id"]
            value = str(fields.pop(cid, comp.get("value") or ""))
            if comp.get("required", True) and not value:
                raise HarnessError(f"text input {cid!r} is required")
            lo, hi = comp.get("min_length"), comp.get("max_length")
            if value and (
                (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi)
            ):
                raise HarnessError(f"text input {cid!r} must be {lo}-{hi} characters")
            return {"type": 4, "custom_id": cid, "value": value}
        if ctype in (3, 5, 6, 7, 8):
            cid = comp["custom_id"]
            values = fields.pop(cid, [])
            values = [values] if isinstance(values, str) else list(values)
            return {"type": ctype, "custom_id": cid, "values": [str(v) for v in values]}
        return None

    # ------------------------------------------------------------------ dispatch core

    def _new_itx(self, itype: int, user: FakeUser, channel_id: int, *, name: str | None) -> _Itx:
        self._know_user(user)
        iid = self.world.snowflake()
        token = f"fake-{iid}"
        in_dm = self.world.is_dm_channel(channel_id)
        if not in_dm and self.world.guild_channel(channel_id) is None:
            raise HarnessError(f"unknown (or deleted) channel {channel_id}")
        itx = _Itx(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel_id=channel_id,
            guild_id=None if in_dm else self.world.guild_id,
            name=name,
        )
        self._itx[iid] = itx
        self._tokens.add(token)
        _TOKENS[token] = self
        return itx

    def _payload(self, itx: _Itx, data: JSON, message: JSON | None) -> JSON:
        world = self.world
        payload: JSON = {
            "id": str(itx.id),
            "application_id": str(world.application_id),
            "type": itx.type,
            "token": itx.token,
            "version": 1,
            "data": data,
            "locale": itx.user.locale,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "app_permissions": str(world.bot_permissions),
        }
        if itx.guild_id is not None:
            payload["guild_id"] = str(itx.guild_id)
            payload["guild_locale"] = world.guild_locale
            payload["guild"] = {
                "id": str(itx.guild_id),
                "locale": world.guild_locale,
                "features": [],
            }
            payload["channel"] = dict(world.guild_channel(itx.channel_id) or {})
            payload["channel"]["permissions"] = str(world.member_permissions(itx.user))
            payload["channel_id"] = str(itx.channel_id)
            payload["member"] = world.member_payload(itx.user)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(itx.guild_id)}
        else:
            payload["channel"] = {
                "id": str(itx.channel_id),
                "type": 1,
                "recipients": [itx.user.payload()],
                "last_message_id": None,
            }
            payload["channel_id"] = str(itx.channel_id)
            payload["user"] = itx.user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(world.owner_id)}
        if message is not None:
            payload["message"] = message
        return payload

    async def _component_interaction(
        self, user: FakeUser, msg: JSON, data: JSON, *, expect_error: bool, expect_ack: bool
    ) -> list[Sent]:
        itx = self._new_itx(MESSAGE_COMPONENT, user, int(msg["channel_id"]), name=data["custom_id"])
        itx.source_message_id = int(msg["id"])
        return await self._dispatch(
            itx,
            data,
            message=msg,
            expect_error=expect_error,
            expect_ack=expect_ack,
            what=f"component {data['custom_id']!r}",
        )

    def _component_on(
        self, user: FakeUser, message: Sent | int, custom_id: str, *, kinds: tuple[int, ...]
    ) -> tuple[JSON, JSON]:
        mid = self._message_id(message)
        if mid in self.world.deleted:
            raise HarnessError(f"message {mid} was deleted; its components cannot be used")
        msg = self.world.messages.get(mid)
        if msg is None:
            raise HarnessError(f"no message {mid}")
        owner = self.world.ephemeral_owner.get(mid)
        if owner is not None and owner != user.id:
            raise HarnessError(
                f"message {mid} is ephemeral for another user; {user.name} can't see it"
            )
        recipient = self.world.dm_recipient(int(msg["channel_id"]))
        if recipient is not None and recipient != user.id:
            raise HarnessError(f"message {mid} is in another user's DMs")
        for comp in _walk(msg.get("components") or []):
            if comp.get("custom_id") == custom_id and comp.get("type") in kinds:
                if comp.get("disabled"):
                    raise HarnessError(f"component {custom_id!r} on message {mid} is disabled")
                return msg, comp
        raise HarnessError(
            f"message {mid} has no component {custom_id!r} of type {kinds}; "
            f"it has {_custom_ids(msg.get('components') or [])}"
        )

    async def _dispatch(
        self,
        itx: _Itx,
        data: JSON,
        *,
        message: JSON | None = None,
        expect_error: bool,
        expect_ack: bool,
        what: str,
    ) -> list[Sent]:
        if self.closed:
            raise HarnessError("this FakeDiscord is closed")
        payload = self._payload(itx, data, message)
        task_mark, error_mark = len(self._created), len(self.errors)
        reset = _CURRENT_ITX.set(itx.id)
        try:
            # What the gateway reader does with an INTERACTION_CREATE event.
            self.bot._connection.parse_interaction_create(cast(Any, payload))
        finally:
            _CURRENT_ITX.reset(reset)
        await self._settle(task_mark, what)
        self._raise_new_errors(error_mark, expect_error=expect_error, what=what)
        if expect_ack and itx.response_type is None and len(self.errors) == error_mark:
            raise NotAcknowledged(
                f"{what} by {itx.user.name}: the bot never responded to the interaction "
                f"(Discord shows 'This interaction failed'). Nothing handled it, a check "
                f"returned False, or the callback forgot to respond."
            )
        return [s for s in self.world.sent if s.interaction_id == itx.id]

    def _raise_new_errors(self, mark: int, *, expect_error: bool, what: str = "") -> None:
        new = self.errors[mark:]
        if new and not expect_error:
            raise BotError(new)
        if expect_error and not new:
            raise HarnessError(f"{what}: expected the bot to hit an error, but none was logged")

    # ------------------------------------------------------------------ waiting

    def _install_task_factory(self) -> None:
        loop = asyncio.get_running_loop()
        self._previous_factory = loop.get_task_factory()
        previous = self._previous_factory

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
        ) -> asyncio.Future[Any]:
            task: asyncio.Future[Any]
            if previous is not None:
                task = cast("asyncio.Future[Any]", previous(loop, coro, **kwargs))
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            if self._factory_active and isinstance(task, asyncio.Task):
                self._created.append(task)
            return task

        self._factory = factory
        self._factory_active = True
        loop.set_task_factory(factory)

    def _remove_task_factory(self) -> None:
        self._factory_active = False
        loop = self._loop
        if loop is not None and loop.get_task_factory() is getattr(self, "_factory", None):
            loop.set_task_factory(self._previous_factory)

    def _is_background(self, task: asyncio.Task[Any]) -> bool:
        if self.ignore_tasks is not None and self.ignore_tasks(task):
            return True
        if task.get_name() in BOT_BACKGROUND_TASKS:
            return True
        coro = task.get_coro()
        qualname = getattr(coro, "__qualname__", "")
        code = getattr(coro, "cr_code", None)
        filename = getattr(code, "co_filename", "")
        in_discord = f"{discord.__name__}" in filename.replace("\\", "/").split("/")
        return in_discord and any(qualname.endswith(q) for q in _BACKGROUND_QUALNAMES)

    #: Upper bound on the bot's own start-up and shutdown (``setup_hook``,
    #: ``close``), which open and close the database and the render pool.
    LIFECYCLE_TIMEOUT: ClassVar[float] = 60.0

    async def _bounded(self, awaitable: Coroutine[Any, Any, _T], what: str) -> _T:
        """Await ``awaitable`` for at most LIFECYCLE_TIMEOUT s, so a hang fails the test
        with a message instead of stalling the run.  ``asyncio.wait``, not ``wait_for``:
        a task that ignores its cancellation cannot make the wait unbounded again."""
        task = asyncio.create_task(awaitable)
        done, _ = await asyncio.wait({task}, timeout=self.LIFECYCLE_TIMEOUT)
        if not done:
            task.cancel()
            raise HarnessTimeout(
                f"{what} did not finish in {self.LIFECYCLE_TIMEOUT}s:\n{_describe_task(task)}"
            )
        return task.result()

    async def settle(self) -> None:
        """Wait for every (non-background) task created since the fake started, e.g.
        after calling a bot method directly from a test."""
        await self._settle(0, "settle()")

    async def wait_until(
        self, predicate: Callable[[], bool], *, timeout: float | None = None, what: str = ""
    ) -> None:
        """Poll ``predicate`` until true.  For work the bot hands to tasks that existed
        before the interaction (queues, per-game actors), which :meth:`slash` and friends
        cannot attribute to the interaction and therefore do not wait for."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.task_timeout if timeout is None else timeout)
        while not predicate():
            if loop.time() > deadline:
                raise HarnessTimeout(f"condition not met in time {what}".strip())
            await asyncio.sleep(0.005)

    async def _settle(self, mark: int, what: str, *, only_events: bool = False) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.task_timeout
        current = asyncio.current_task()
        quiet_rounds = 0
        while True:
            await asyncio.sleep(0)
            pending = [
                t
                for t in self._created[mark:]
                if t is not current
                and not t.done()
                and not self._is_background(t)
                and (not only_events or t.get_name().startswith("discord.py: "))
            ]
            if not pending:
                quiet_rounds += 1
                if quiet_rounds >= 3:  # let call_soon callbacks spawn their tasks
                    break
                continue
            quiet_rounds = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise HarnessTimeout(
                    f"{what}: {len(pending)} task(s) still running after {self.task_timeout}s:\n"
                    + "\n".join(_describe_task(t) for t in pending)
                    + "\nIf these are meant to outlive the interaction, pass "
                    "FakeDiscord.start(..., ignore_tasks=lambda task: ...)."
                )
            await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        for task in self._created[mark:]:
            if task.done() and not task.cancelled() and getattr(task, "_log_traceback", False):
                exc = task.exception()  # marks it retrieved
                if exc is not None:
                    self.errors.append(
                        CapturedError(f"task {task.get_name()}", "exception never retrieved", exc)
                    )

    def _on_log_record(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.errors.append(CapturedError(record.name, record.getMessage(), exc))

    # ------------------------------------------------------------------ commands

    def _resolve_command(
        self, command: str, channel_id: int
    ) -> tuple[app_commands.Command[Any, ..., Any], Any, list[str], bool]:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise HarnessError("empty command name")
        tree = self.bot._connection._command_tree
        if tree is None:
            raise HarnessError("the bot has no CommandTree")
        root: Any = None
        scoped = False
        if not self.world.is_dm_channel(channel_id):
            root = tree.get_command(parts[0], guild=discord.Object(self.world.guild_id))
            scoped = root is not None
        if root is None:
            root = tree.get_command(parts[0])
        if root is None:
            names = [c.name for c in tree.get_commands()]
            raise HarnessError(f"no slash command {parts[0]!r}; registered: {names}")
        node: Any = root
        for part in parts[1:]:
            if not isinstance(node, app_commands.Group):
                raise HarnessError(f"{node.qualified_name!r} has no subcommands")
            child = node.get_command(part)
            if child is None:
                names = [c.name for c in node.commands]
                raise HarnessError(f"{node.qualified_name!r} has no {part!r}; it has {names}")
            node = child
        if isinstance(node, app_commands.Group):
            names = [c.name for c in node.commands]
            raise HarnessError(f"{command!r} is a group; name one of {names}")
        return node, root, parts, scoped

    def _check_default_permissions(
        self, root: Any, user: FakeUser, command: str, channel_id: int
    ) -> None:
        if self.world.is_dm_channel(channel_id):
            allowed = getattr(root, "allowed_contexts", None)
            if getattr(root, "guild_only", False) or (
                allowed is not None and not allowed.dm_channel
            ):
                raise CommandUnavailable(f"/{command} is not available in DMs")
            return
        required: discord.Permissions | None = getattr(root, "default_permissions", None)
        if required is None or required.value == 0:
            return
        have = self.world.member_permissions(user)
        if user.id == self.world.owner_id:
            return
        if have & required.value != required.value:
            raise CommandUnavailable(
                f"/{command} requires {sorted(n for n, v in required if v)}; {user.name} lacks "
                f"them, so Discord would not show the command"
            )

    @staticmethod
    def _find_param(
        command: app_commands.Command[Any, ..., Any], name: str
    ) -> app_commands.Parameter | None:
        for p in command.parameters:
            if name in (p.name, p.display_name):
                return p
        return None

    def _build_options(
        self,
        command: app_commands.Command[Any, ..., Any],
        options: Mapping[str, Any],
        channel_id: int,
        focused: app_commands.Parameter | None,
        validate: bool,
    ) -> tuple[list[JSON], JSON]:
        params = command.parameters
        known = {p.name for p in params} | {p.display_name for p in params}
        unknown = sorted(set(options) - known)
        if unknown:
            raise HarnessError(
                f"/{command.qualified_name} has no option(s) {unknown}; it has "
                f"{[p.display_name for p in params]}"
            )
        out: list[JSON] = []
        resolved: JSON = {}
        for p in params:
            key = p.display_name if p.display_name in options else p.name
            value = options.get(key)
            if value is None:
                if validate and p.required:
                    raise HarnessError(
                        f"/{command.qualified_name}: option {p.display_name!r} is required"
                    )
                continue
            opt: JSON = {"name": p.display_name, "type": p.type.value}
            if focused is not None and p.name == focused.name:
                opt["value"] = value if isinstance(value, str) else str(value)
                opt["focused"] = True
            else:
                opt["value"] = self._encode_option(
                    command, p, value, resolved, channel_id, validate
                )
            out.append(opt)
        return out, resolved

    def _encode_option(
        self,
        command: app_commands.Command[Any, ..., Any],
        p: app_commands.Parameter,
        value: Any,
        resolved: JSON,
        channel_id: int,
        validate: bool,
    ) -> Any:
        T = discord.AppCommandOptionType
        where = f"/{command.qualified_name} {p.display_name}"
        value = _enum_choice_value(p, value)
        if p.type in (T.string, T.integer, T.number, T.boolean):
            expected: tuple[type, ...] = {
                T.string: (str,),
                T.integer: (int,),
                T.number: (int, float),
                T.boolean: (bool,),
            }[p.type]
            if validate and (
                not isinstance(value, expected)
                or (p.type is not T.boolean and isinstance(value, bool))
            ):
                raise HarnessError(f"{where}: expected {p.type.name}, got {value!r}")
            if validate and p.choices and value not in [c.value for c in p.choices]:
                raise HarnessError(
                    f"{where}: {value!r} is not one of the choices {[c.value for c in p.choices]}"
                )
            if validate and p.type is T.string:
                if p.min_value is not None and len(value) < p.min_value:
                    raise HarnessError(f"{where}: shorter than {p.min_value}")
                if p.max_value is not None and len(value) > p.max_value:
                    raise HarnessError(f"{where}: longer than {p.max_value}")
                if len(value) > 6000:
                    raise HarnessError(f"{where}: Discord limits option text to 6000 characters")
            elif validate and p.type in (T.integer, T.number):
                if p.min_value is not None and value < p.min_value:
                    raise HarnessError(f"{where}: {value} < min {p.min_value}")
                if p.max_value is not None and value > p.max_value:
                    raise HarnessError(f"{where}: {value} > max {p.max_value}")
            return value
        if p.type is T.attachment:
            if not (isinstance(value, tuple) and len(value) == 2):
                raise HarnessError(f"{where}: pass an attachment as (filename, bytes)")
            filename, raw = value
            att = self._new_attachment(str(filename), bytes(raw), channel_id)
            resolved.setdefault("attachments", {})[att["id"]] = att
            return att["id"]
        ident = value.id if hasattr(value, "id") else int(value)
        kind = {T.user: 6, T.role: 8, T.channel: 7, T.mentionable: 9}[p.type]
        if kind == 9:
            kind = 8 if ident in self.world.roles else 6
        self._resolve_id(int(ident), {6: 5, 8: 6, 7: 8}[kind], resolved, channel_id)
        return str(ident)

    def _resolve_id(self, ident: int, select_type: int, resolved: JSON, channel_id: int) -> None:
        """Add ``ident`` to ``resolved``; select types: 5 user, 6 role, 7 mentionable, 8 channel."""
        world = self.world
        in_guild = not world.is_dm_channel(channel_id)
        if select_type == 7:
            select_type = 6 if ident in world.roles else 5
        if select_type == 5:
            user = world.users.get(ident)
            if user is None:
                raise HarnessError(f"unknown user {ident}; create it with fake.user()")
            resolved.setdefault("users", {})[str(ident)] = user.payload()
            if in_guild:
                member = world.member_payload(user, with_user=False)
                resolved.setdefault("members", {})[str(ident)] = member
        elif select_type == 6:
            if ident not in world.roles:
                raise HarnessError(f"unknown role {ident}")
            resolved.setdefault("roles", {})[str(ident)] = world.roles[ident]
        elif select_type == 8:
            if ident not in world.channels:
                raise HarnessError(f"unknown channel {ident}")
            ch = dict(world.channels[ident])
            ch["permissions"] = str(discord.Permissions.all().value)
            resolved.setdefault("channels", {})[str(ident)] = ch
        else:
            raise HarnessError(f"cannot resolve {ident} for component type {select_type}")

    def _command_data(
        self, root: Any, path: list[str], options: list[JSON], resolved: JSON, scoped: bool
    ) -> JSON:
        key = f"{self.world.guild_id if scoped else 0}:{root.name}"
        cmd_id = self.world.command_ids.setdefault(key, self.world.snowflake())
        nested: list[JSON] = options
        # innermost first: the leaf is a subcommand (1), anything between is a group (2)
        for depth in range(len(path) - 1, 0, -1):
            kind = 1 if depth == len(path) - 1 else 2
            nested = [{"type": kind, "name": path[depth], "options": nested}]
        data: JSON = {"id": str(cmd_id), "name": root.name, "type": 1, "options": nested}
        if resolved:
            data["resolved"] = resolved
        if scoped:
            data["guild_id"] = str(self.world.guild_id)
        return data

    # ------------------------------------------------------------------ messages

    def _new_attachment(
        self, filename: str, raw: bytes, channel_id: int, description: str | None = None
    ) -> JSON:
        aid = self.world.snowflake()
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{filename}"
        self.world.cdn[url] = raw
        content_type = {
            "png": "image/png",
            "gif": "image/gif",
            "jpg": "image/jpeg",
            "jpeg": "image/jpeg",
            "webp": "image/webp",
            "txt": "text/plain",
            "json": "application/json",
        }.get(filename.rsplit(".", 1)[-1].lower(), "application/octet-stream")
        return {
            "id": str(aid),
            "filename": filename,
            "size": len(raw),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": content_type,
            **({"description": description} if description is not None else {}),
        }

    def _attachments(
        self, body: JSON, files: Sequence[tuple[str, bytes]], channel_id: int, existing: list[JSON]
    ) -> list[JSON] | None:
        """The message's new attachment list, or None to keep the existing one.

        ``body["attachments"]`` lists kept attachments (full dicts with a ``url``, as
        ``Attachment.to_dict()`` makes them) and new uploads (``{"id": <file index>}``).
        """
        listed = body.get("attachments")
        if listed is None:
            if not files:
                return None
            listed = [{"id": i} for i in range(len(files))]
            result = list(existing)
        else:
            result = []
        used: set[int] = set()
        for entry in listed:
            if "url" in entry:
                match = next((a for a in existing if str(a["id"]) == str(entry["id"])), None)
                if match is None:
                    raise _invalid_form([f"attachment {entry['id']} is not on this message"])
                result.append(match)
                continue
            index = int(entry["id"])
            if not 0 <= index < len(files):
                raise _invalid_form([f"attachment id {index} refers to no uploaded file"])
            used.add(index)
            name = entry.get("filename") or files[index][0]
            result.append(
                self._new_attachment(name, files[index][1], channel_id, entry.get("description"))
            )
        for index, (name, raw) in enumerate(files):
            if index not in used:
                result.append(self._new_attachment(name, raw, channel_id))
        return result

    def _create_message(
        self,
        channel_id: int,
        body: JSON,
        files: Sequence[tuple[str, bytes]],
        *,
        itx: _Itx | None,
        flags: int,
        owner: int | None = None,
    ) -> JSON:
        world = self.world
        mid = world.snowflake()
        now = discord.utils.snowflake_time(mid).isoformat()
        msg: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": world.bot_user_payload(),
            "content": body.get("content") or "",
            "timestamp": now,
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(body, files, channel_id, []) or [],
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": flags,
        }
        if itx is not None:
            msg["webhook_id"] = str(world.application_id)
            msg["application_id"] = str(world.application_id)
            meta: JSON = {
                "id": str(itx.id),
                "type": itx.type,
                "user": itx.user.payload(),
                "authorizing_integration_owners": {"0": str(itx.guild_id or world.owner_id)},
            }
            if itx.source_message_id is not None:
                meta["interacted_message_id"] = str(itx.source_message_id)
            msg["interaction_metadata"] = meta
            if itx.type == APPLICATION_COMMAND:
                msg["type"] = 20  # CHAT_INPUT_COMMAND
                msg["interaction"] = {
                    "id": str(itx.id),
                    "type": itx.type,
                    "name": itx.name or "",
                    "user": itx.user.payload(),
                }
            world.message_interaction[mid] = itx.id
        world.messages[mid] = msg
        if flags & EPHEMERAL and owner is not None:
            world.ephemeral_owner[mid] = owner
        return msg

    def _apply_edit(self, msg: JSON, body: JSON, files: Sequence[tuple[str, bytes]]) -> None:
        for key in ("content", "embeds", "components", "poll"):
            if key in body:
                value = body[key]
                msg[key] = ("" if value is None else value) if key == "content" else (value or [])
        if "flags" in body and body["flags"] is not None:
            keep = int(msg.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2)
            msg["flags"] = keep | (int(body["flags"]) & ~LOADING)
        attachments = self._attachments(body, files, int(msg["channel_id"]), msg["attachments"])
        if attachments is not None:
            msg["attachments"] = attachments
        msg["edited_timestamp"] = discord.utils.utcnow().isoformat()

    def _record(
        self,
        route: str,
        *,
        channel_id: int | None,
        user_id: int | None,
        body: JSON,
        files: Sequence[tuple[str, bytes]] = (),
        message_id: int | None = None,
        type: int | None = None,
        ephemeral: bool = False,
        created: bool = False,
        interaction_id: int | None = None,
        choices: list[JSON] | None = None,
        modal: JSON | None = None,
    ) -> Sent:
        if interaction_id is None:
            interaction_id = _CURRENT_ITX.get()
        sent = Sent(
            route=route,
            channel_id=channel_id,
            user_id=user_id,
            content=body.get("content"),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            files=list(files),
            ephemeral=ephemeral,
            message_id=message_id,
            type=type,
            choices=choices,
            modal=modal,
            flags=int(body.get("flags") or 0),
            created=created,
            interaction_id=interaction_id,
            raw=body,
        )
        self.world.sent.append(sent)
        return sent

    def _live_message(self, mid: int) -> JSON:
        if mid in self.world.deleted or mid not in self.world.messages:
            raise _http_error(404, 10008, "Unknown Message")
        return self.world.messages[mid]

    # ------------------------------------------------------------------ webhook routes

    async def _webhook_request(
        self, route: Route, *, payload: JSON | None, multipart: list[JSON] | None
    ) -> Any:
        token = route.webhook_token or ""
        itx = next((i for i in self._itx.values() if i.token == token), None)
        if itx is None:
            raise HarnessError(f"unknown interaction token {token!r}")
        body, files = _read_body(payload, multipart)
        path, method = route.path, route.method
        if path.endswith("/callback"):
            return self._callback(itx, body, files)
        if itx.response_type is None:
            raise _http_error(404, 10015, "Unknown Webhook (interaction not acknowledged yet)")
        if path == "/webhooks/{webhook_id}/{webhook_token}" and method == "POST":
            return self._followup(itx, body, files)
        if "/messages/" in path:
            target = route.url.rsplit("/", 1)[1]
            original = target == "@original"
            if original:
                if itx.original_message_id is None:
                    raise _http_error(404, 10008, "Unknown Message (no original response)")
                mid = itx.original_message_id
            else:
                mid = int(target)
            msg = self._live_message(mid)
            if method == "GET":
                return msg
            if method == "PATCH":
                return self._webhook_edit(itx, mid, msg, body, files, original=original)
            if method == "DELETE":
                self.world.deleted.add(mid)
                self._record(
                    "delete_original" if original else "followup.delete",
                    channel_id=int(msg["channel_id"]),
                    user_id=itx.user.id,
                    body={},
                    message_id=mid,
                    ephemeral=bool(int(msg["flags"]) & EPHEMERAL),
                    interaction_id=itx.id,
                )
                return None
        raise HarnessError(f"unhandled interaction webhook route {method} {path}")

    def _callback(self, itx: _Itx, body: JSON, files: list[tuple[str, bytes]]) -> JSON:
        rtype = int(body["type"])
        data: JSON = body.get("data") or {}
        if itx.response_type is not None:
            raise _http_error(400, 40060, "Interaction has already been acknowledged.")
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
            | ({DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE} if itx.source_message_id else set()),
        }[itx.type]
        if rtype not in allowed:
            raise _http_error(
                400, 50035, f"callback type {rtype} is invalid for interaction type {itx.type}"
            )
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        common: JSON = {
            "channel_id": itx.channel_id,
            "user_id": itx.user.id,
            "interaction_id": itx.id,
        }
        info: JSON = {"id": str(itx.id), "type": itx.type}
        resource: JSON | None = None
        if rtype == CHANNEL_MESSAGE:
            problems = _problems_message(data, files)
            if problems:
                raise _invalid_form(problems)
            msg = self._create_message(
                itx.channel_id,
                data,
                files,
                itx=itx,
                flags=int(data.get("flags") or 0),
                owner=itx.user.id,
            )
            itx.original_message_id = int(msg["id"])
            self._record(
                "interaction.response",
                body=data,
                files=files,
                message_id=int(msg["id"]),
                type=rtype,
                ephemeral=ephemeral,
                created=True,
                **common,
            )
            resource = {"type": rtype, "message": msg}
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            msg = self._create_message(
                itx.channel_id, {}, [], itx=itx, flags=flags, owner=itx.user.id
            )
            itx.original_message_id = int(msg["id"])
            itx.loading = True
            itx.deferred_ephemeral = ephemeral
            self._record(
                "interaction.response",
                body=data,
                message_id=int(msg["id"]),
                type=rtype,
                ephemeral=ephemeral,
                **common,
            )
            resource = {"type": rtype, "message": msg}
        elif rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            assert itx.source_message_id is not None
            mid = itx.source_message_id
            msg = self._live_message(mid)
            ephemeral = bool(int(msg.get("flags") or 0) & EPHEMERAL)
            if rtype == UPDATE_MESSAGE:
                problems = _problems_message(data, files, existing=msg)
                if problems:
                    raise _invalid_form(problems)
                self._apply_edit(msg, data, files)
                resource = {"type": rtype, "message": msg}
            itx.original_message_id = mid
            self._record(
                "interaction.response",
                body=data,
                files=files,
                message_id=mid,
                type=rtype,
                ephemeral=ephemeral,
                **common,
            )
        elif rtype == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            problems = []
            if len(choices) > 25:
                problems.append(f"at most 25 autocomplete choices, got {len(choices)}")
            for c in choices:
                if not 1 <= len(str(c.get("name", ""))) <= 100:
                    problems.append(f"choice name must be 1-100 characters: {c.get('name')!r}")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    problems.append(f"choice value over 100 characters: {c['value']!r}")
            if problems:
                raise _invalid_form(problems)
            self._record("autocomplete", body=data, type=rtype, choices=choices, **common)
        elif rtype == MODAL:
            problems = []
            if not 1 <= len(data.get("title") or "") <= 45:
                problems.append(f"modal title must be 1-45 characters: {data.get('title')!r}")
            if not 1 <= len(data.get("custom_id") or "") <= 100:
                problems.append("modal custom_id must be 1-100 characters")
            comps = data.get("components") or []
            if not 1 <= len(comps) <= 5:
                problems.append(f"a modal needs 1-5 components, got {len(comps)}")
            if problems:
                raise _invalid_form(problems)
            self._record(
                "interaction.response",
                body=data,
                type=rtype,
                modal={"custom_id": data.get("custom_id"), "title": data.get("title")},
                **common,
            )
        itx.response_type = rtype
        if itx.original_message_id is not None:
            info["response_message_id"] = str(itx.original_message_id)
            info["response_message_loading"] = itx.loading
            info["response_message_ephemeral"] = ephemeral
        result: JSON = {"interaction": info}
        if resource is not None:
            result["resource"] = resource
        return result

    def _followup(self, itx: _Itx, body: JSON, files: list[tuple[str, bytes]]) -> JSON:
        problems = _problems_message(body, files)
        if problems:
            raise _invalid_form(problems)
        if itx.loading and itx.original_message_id is not None:
            # The first followup after a deferred (type 5) response fills the "thinking"
            # message and keeps the ephemerality chosen when deferring.
            mid = itx.original_message_id
            msg = self._live_message(mid)
            filled = dict(body)
            filled.setdefault("content", "")
            filled.pop("flags", None)
            self._apply_edit(msg, filled, files)
            msg["flags"] = int(msg["flags"]) & ~LOADING
            msg["edited_timestamp"] = None
            itx.loading = False
            self._record(
                "followup",
                channel_id=itx.channel_id,
                user_id=itx.user.id,
                body=body,
                files=files,
                message_id=mid,
                ephemeral=itx.deferred_ephemeral,
                created=True,
                interaction_id=itx.id,
            )
            return msg
        flags = int(body.get("flags") or 0)
        msg = self._create_message(
            itx.channel_id, body, files, itx=itx, flags=flags, owner=itx.user.id
        )
        self._record(
            "followup",
            channel_id=itx.channel_id,
            user_id=itx.user.id,
            body=body,
            files=files,
            message_id=int(msg["id"]),
            ephemeral=bool(flags & EPHEMERAL),
            created=True,
            interaction_id=itx.id,
        )
        return msg

    def _webhook_edit(
        self,
        itx: _Itx,
        mid: int,
        msg: JSON,
        body: JSON,
        files: list[tuple[str, bytes]],
        *,
        original: bool,
    ) -> JSON:
        problems = _problems_message(body, files, existing=msg)
        if problems:
            raise _invalid_form(problems)
        was_loading = bool(int(msg.get("flags") or 0) & LOADING)
        self._apply_edit(msg, body, files)
        if was_loading:
            msg["flags"] = int(msg["flags"]) & ~LOADING
            if mid == itx.original_message_id:
                itx.loading = False
        self._record(
            "edit_original" if original else "followup.edit",
            channel_id=int(msg["channel_id"]),
            user_id=itx.user.id,
            body=body,
            files=files,
            message_id=mid,
            ephemeral=bool(int(msg["flags"]) & EPHEMERAL),
            created=was_loading,
            interaction_id=itx.id,
        )
        return msg

    # ------------------------------------------------------------------ REST routes

    async def _get_from_cdn(self, url: str) -> bytes:
        try:
            return self.world.cdn[url]
        except KeyError:
            raise _http_error(404, 0, f"not on the fake CDN: {url}") from None

    async def _http_request(
        self,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[JSON] | None = None,
        **kwargs: Any,
    ) -> Any:
        method, path = route.method, route.path
        self.http_calls.append((method, path))
        args = _route_params(route)
        raw_json = kwargs.get("json")
        body, uploaded = _read_body(
            raw_json if isinstance(raw_json, dict) else None,
            None if form is None else list(form),
        )
        world = self.world

        if path == "/channels/{channel_id}/messages" and method == "POST":
            return self._channel_send(int(args["channel_id"]), body, uploaded)
        if path == "/channels/{channel_id}/messages/{message_id}/threads" and method == "POST":
            return self._start_thread(int(args["channel_id"]), int(args["message_id"]), body)
        if path == "/channels/{channel_id}/messages/{message_id}":
            cid, mid = int(args["channel_id"]), int(args["message_id"])
            msg = self._live_message(mid)
            if int(msg["channel_id"]) != cid:
                raise _http_error(404, 10008, "Unknown Message")
            if int(msg.get("flags") or 0) & EPHEMERAL:
                raise _http_error(
                    404, 10008, "Unknown Message (ephemeral messages have no REST access)"
                )
            dm = world.dm_recipient(cid)
            prefix = "dm" if dm is not None else "channel"
            if method == "GET":
                return msg
            if method == "PATCH":
                if msg["author"]["id"] != str(world.application_id):
                    raise _http_error(403, 50005, "Cannot edit a message authored by another user")
                problems = _problems_message(body, uploaded, existing=msg)
                if problems:
                    raise _invalid_form(problems)
                self._apply_edit(msg, body, uploaded)
                self._record(
                    f"{prefix}.edit",
                    channel_id=cid,
                    user_id=dm,
                    body=body,
                    files=uploaded,
                    message_id=mid,
                )
                return msg
            if method == "DELETE":
                world.deleted.add(mid)
                self._record(
                    f"{prefix}.delete", channel_id=cid, user_id=dm, body={}, message_id=mid
                )
                return None
        if path == "/users/@me/channels" and method == "POST":
            uid = int(body["recipient_id"])
            if uid not in world.users:
                raise _http_error(404, 10013, "Unknown User")
            cid = world.dm_channel_for(uid)
            return {
                "id": str(cid),
                "type": 1,
                "last_message_id": None,
                "recipients": [world.users[uid].payload()],
            }
        if path == "/channels/{channel_id}" and method == "GET":
            cid = int(args["channel_id"])
            found = world.guild_channel(cid)
            if found is not None:
                return dict(found)
            recipient = world.dm_recipient(cid)
            if recipient is not None:
                recipient_payload = world.users[recipient].payload()
                return {"id": str(cid), "type": 1, "recipients": [recipient_payload]}
            raise _http_error(404, 10003, "Unknown Channel")
        if path == "/users/{user_id}" and method == "GET":
            uid = int(args["user_id"])
            if uid == world.application_id:
                return world.bot_user_payload()
            if uid not in world.users:
                raise _http_error(404, 10013, "Unknown User")
            return world.users[uid].payload()
        if path == "/guilds/{guild_id}/members/{user_id}" and method == "GET":
            uid = int(args["user_id"])
            if int(args["guild_id"]) != world.guild_id or uid not in world.users:
                raise _http_error(404, 10007, "Unknown Member")
            return world.member_payload(world.users[uid])
        if path == "/channels/{channel_id}/typing":
            return None
        if path.startswith("/channels/{channel_id}/messages/{message_id}/reactions"):
            self._live_message(int(args["message_id"]))
            return None
        if path.endswith("/commands") and method == "PUT":  # tree.sync()
            commands: list[JSON] = kwargs.get("json") or []
            return [
                dict(
                    c,
                    id=str(world.snowflake()),
                    application_id=str(world.application_id),
                    version="1",
                )
                for c in commands
            ]
        if path.endswith("/commands") and method == "GET":
            return []
        raise HarnessError(
            f"FakeDiscord does not implement {method} {path}; add it to tests/discord_harness.py"
        )

    def _start_thread(self, channel_id: int, message_id: int, body: JSON) -> JSON:
        """``POST /channels/{c}/messages/{m}/threads``: a public thread from a message.
        Like Discord, the thread gets the message's id."""
        world = self.world
        if channel_id not in world.channels or channel_id in world.deleted_channels:
            raise _http_error(404, 10003, "Unknown Channel")
        msg = self._live_message(message_id)
        if int(msg["channel_id"]) != channel_id:
            raise _http_error(404, 10008, "Unknown Message")
        perms = discord.Permissions(world.bot_permissions)
        if not (perms.create_public_threads and perms.view_channel):
            raise _http_error(403, 50013, "Missing Permissions")
        if message_id in world.threads:
            raise _http_error(400, 160004, "A thread has already been created for this message")
        problems = []
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            problems.append(f"thread name must be 1-100 characters: {name!r}")
        duration = body.get("auto_archive_duration")
        if duration not in (None, 60, 1440, 4320, 10080):
            problems.append(f"auto_archive_duration must be 60, 1440, 4320 or 10080: {duration}")
        if problems:
            raise _invalid_form(problems)
        thread = world.add_thread(channel_id, message_id, name, int(duration or 1440))
        msg["thread"] = dict(thread)
        self._record(
            "thread.create", channel_id=channel_id, user_id=None, body=body, message_id=message_id
        )
        return dict(thread)

    def _channel_send(self, channel_id: int, body: JSON, files: list[tuple[str, bytes]]) -> JSON:
        world = self.world
        recipient = world.dm_recipient(channel_id)
        if recipient is None and world.guild_channel(channel_id) is None:
            raise _http_error(404, 10003, "Unknown Channel")
        if recipient is not None and recipient in world.blocked_dms:
            raise _http_error(403, 50007, "Cannot send messages to this user")
        thread = world.threads.get(channel_id)
        if thread is not None:
            perms = discord.Permissions(world.bot_permissions)
            if not perms.send_messages_in_threads:
                raise _http_error(403, 50013, "Missing Permissions")
            meta = thread["thread_metadata"]
            if meta.get("locked"):
                raise _http_error(403, 50083, "Thread is archived")
            meta["archived"] = False  # posting in an archived thread reopens it
        problems = _problems_message(body, files)
        if problems:
            raise _invalid_form(problems)
        msg = self._create_message(
            channel_id, body, files, itx=None, flags=int(body.get("flags") or 0)
        )
        self._record(
            "dm.send" if recipient is not None else "channel.send",
            channel_id=channel_id,
            user_id=recipient,
            body=body,
            files=files,
            message_id=int(msg["id"]),
            created=True,
        )
        return msg


def _describe_task(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    frames = task.get_stack(limit=3)  # newest frames of the suspended coroutine chain
    where = "".join(
        f"\n      at {f.f_code.co_filename}:{f.f_lineno} in {f.f_code.co_name}" for f in frames
    )
    return f"  - {task.get_name()} ({getattr(coro, '__qualname__', coro)!s}){where}"
