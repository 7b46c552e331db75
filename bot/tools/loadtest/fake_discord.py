"""The fake Discord HTTP layer in a worker: each route answered as Discord
would, and journalled.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from bot.tools.loadtest.journal import Journal, reply_record

APPLICATION_ID = 900_000_000_000_000_001


def user_payload(user_id: int) -> dict[str, Any]:
    bot = user_id == APPLICATION_ID
    return {
        "id": str(user_id),
        "username": "chaupal" if bot else f"u{user_id}",
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": bot,
    }


def _request_body(kwargs: Mapping[str, Any], form: Iterable[Mapping[str, Any]] | None) -> Any:
    body = kwargs.get("json")
    if form is not None:
        for part in form:
            if part.get("name") == "payload_json":
                value = part.get("value")
                body = json.loads(value) if isinstance(value, str | bytes) else body
    return body if isinstance(body, dict) else {}


def _route_params(route: Any) -> dict[str, str]:
    """Values of a route's ``{placeholders}``, read back from its URL."""
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(route.path))
    match = re.fullmatch(pattern, route.url[len(route.BASE) :])
    return dict(match.groupdict()) if match else {}


class FakeHttp:
    """Stands in for ``bot.http.request``: answers each route as Discord would
    (a created message, an edit, a DM channel) and journals it."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.interaction_channels: dict[str, int] = {}
        """Interaction token -> the channel it came from (its responses' channel)."""
        self.clicks: dict[str, asyncio.Future[Any]] = {}
        """Interaction token -> the click waiting for what it led to."""
        self.interaction_ids: dict[str, int] = {}
        """Interaction token -> the interaction's id (its replies' key in the journal)."""

    async def request(self, route: Any, *, form: Any = None, **kwargs: Any) -> Any:
        method, path = route.method, route.path
        params = _route_params(route)
        body = _request_body(kwargs, None if form is None else list(form))
        nonce = body.get("nonce")
        files = len(kwargs.get("files") or ())
        self.journal.write(m=method, p=path, ch=params.get("channel_id"), nonce=nonce, files=files)
        if path == "/channels/{channel_id}/messages" and method == "POST":
            return self._message(int(params["channel_id"]), body)
        if path == "/channels/{channel_id}/messages/{message_id}":
            if method == "DELETE":
                return None
            message = self._message(int(params["channel_id"]), body)
            message["id"] = str(params["message_id"])
            return message
        if path == "/users/@me/channels" and method == "POST":
            user = int(body["recipient_id"])
            return {
                "id": str(user + 1),  # a DM channel of its own per user
                "type": 1,
                "last_message_id": None,
                "recipients": [user_payload(user)],
            }
        if path == "/users/{user_id}":
            return user_payload(int(params["user_id"]))
        if path == "/channels/{channel_id}/messages/{message_id}/threads":
            thread = self.journal.snowflake()
            return {
                "id": str(thread),
                "type": 11,
                "guild_id": str(params.get("guild_id") or 0),
                "parent_id": str(params["channel_id"]),
                "name": body.get("name", "game"),
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440},
            }
        if path == "/channels/{channel_id}" and method == "GET":
            return {"id": str(params["channel_id"]), "type": 0, "name": "games"}
        return None

    async def webhook(
        self,
        route: Any,
        *,
        payload: Mapping[str, Any] | None = None,
        multipart: Any = None,
        **_: Any,
    ) -> Any:
        """Stands in for discord.py's webhook adapter, which sends the
        interactions' responses (the callback, follow-ups, edits of the
        original response): answers as Discord would and journals them."""
        method, path = route.method, route.path
        body = _request_body({"json": payload}, multipart)
        channel = self.interaction_channels.get(str(route.webhook_token), 0)
        if path.endswith("/callback"):
            kind = int(body.get("type") or 0)
            self.journal.write(m="ITX", t=kind, i=str(route.webhook_id))
            data = body.get("data") or {}
            self._journal_reply(str(route.webhook_token), data)
            click = self.clicks.pop(str(route.webhook_token), None)
            if click is not None and not click.done():
                # Answered before any move was tried (a refusal the edge
                # gives itself): what the player read.
                click.set_result(str(data.get("content") or "")[:80])
            return {
                "interaction": {"id": str(route.webhook_id), "type": 3},
                "resource": {"type": kind, "message": self._message(channel, data)},
            }
        self.journal.write(m="WEBHOOK", p=path, x=method)
        if method == "DELETE":
            return None
        self._journal_reply(str(route.webhook_token), body)
        return self._message(channel, body)

    def _journal_reply(self, token: str, body: Mapping[str, Any]) -> None:
        """A reply's text, under the click it answers (a follow-up or an
        edit of the response too): what the player was told."""
        content = body.get("content")
        interaction = self.interaction_ids.get(token)
        if interaction is not None and isinstance(content, str):
            self.journal.write(**reply_record(interaction, content))

    def _message(self, channel_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
        mid = self.journal.snowflake()
        return {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": user_payload(APPLICATION_ID),
            "content": body.get("content") or "",
            "timestamp": "2025-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": list(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": 0,
        }
