"""Settings kept as one JSON object per owner: a server's
(``guild_settings``, migration 0003) and a player's (``player_settings``,
migration 0007).  A missing key means its default, and an unreadable row
reads as no settings at all; what the keys mean is the bot's business
(:mod:`bot.server_settings`, :mod:`bot.notifications`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from storage.backend import for_update
from storage.database import Database

__all__ = ["JsonSettingsStore", "PlayerSettingsStore", "SettingsStore"]


def _object(raw: Any) -> dict[str, Any]:
    """The stored JSON object, or an empty one when the row is unreadable."""
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


class JsonSettingsStore:
    """A table of JSON objects, one per key (a server, a player)."""

    table: ClassVar[str]
    key: ClassVar[str]

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, owner_id: int) -> dict[str, Any]:
        """One owner's settings (empty: all defaults)."""
        return (await self.get_many([owner_id])).get(int(owner_id), {})

    async def get_many(self, owner_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The settings of the owners who have any, by id, in one query."""
        ids = sorted({int(u) for u in owner_ids})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {self.key} AS owner, settings FROM {self.table} "
                f"WHERE {self.key} IN ({marks})",
                ids,
            )
        return {int(r["owner"]): _object(r["settings"]) for r in rows}

    async def set(self, owner_id: int, name: str, value: Any, now: float) -> dict[str, Any]:
        """Set one setting (None: back to its default); returns them all."""
        return await self.update(owner_id, {name: value}, now)

    async def update(self, owner_id: int, changes: Mapping[str, Any], now: float) -> dict[str, Any]:
        """Set several settings at once, in one transaction (a None value:
        back to its default); returns them all."""
        owner = int(owner_id)
        async with self.db.transaction() as conn:
            # The row first, so that it can be read locked: two changes at
            # once (on PostgreSQL) then merge instead of one losing the other.
            await conn.execute(
                f"INSERT INTO {self.table} ({self.key}, settings, updated_at) "
                "VALUES (?, '{}', ?) ON CONFLICT DO NOTHING",
                (owner, now),
            )
            rows = await conn.execute_fetchall(
                f"SELECT settings FROM {self.table} WHERE {self.key} = ?{for_update(conn)}",
                (owner,),
            )
            current = _object(rows[0]["settings"]) if rows else {}
            for name, value in changes.items():
                if value is None:
                    current.pop(name, None)
                else:
                    current[name] = value
            await conn.execute(
                f"UPDATE {self.table} SET settings = ?, updated_at = ? WHERE {self.key} = ?",
                (json.dumps(current, sort_keys=True), now, owner),
            )
        return current


class SettingsStore(JsonSettingsStore):
    """Each server's settings (``/chaupal settings``)."""

    table = "guild_settings"
    key = "guild_id"


class PlayerSettingsStore(JsonSettingsStore):
    """Each player's own settings, across every server (``/chaupal me``)."""

    table = "player_settings"
    key = "user_id"
