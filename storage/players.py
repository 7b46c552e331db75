"""Each player's own settings, kept per user across every server
(``/chaupal me``, migration 0007): one JSON object per user, like a server's
settings (:class:`storage.timekeeping.SettingsStore`); a missing key means
its default.  What the keys mean is :mod:`bot.notifications`' business."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from storage.database import Database

__all__ = ["PlayerSettingsStore"]


def _object(raw: Any) -> dict[str, Any]:
    """The stored JSON object, or an empty one when the row is unreadable."""
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


class PlayerSettingsStore:
    """The ``player_settings`` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, user_id: int) -> dict[str, Any]:
        """One user's settings (empty: all defaults)."""
        return (await self.get_many([user_id])).get(int(user_id), {})

    async def get_many(self, user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The settings of the users who have any, by user id, in one query."""
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT user_id, settings FROM player_settings WHERE user_id IN ({marks})",
                ids,
            )
        return {int(r["user_id"]): _object(r["settings"]) for r in rows}

    async def set(self, user_id: int, key: str, value: Any, now: float) -> dict[str, Any]:
        """Set one setting (None: back to its default); returns them all."""
        return await self.update(user_id, {key: value}, now)

    async def update(self, user_id: int, changes: Mapping[str, Any], now: float) -> dict[str, Any]:
        """Set several settings at once, in one transaction (a None value:
        back to its default); returns them all."""
        async with self.db.transaction() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT settings FROM player_settings WHERE user_id = ?", (int(user_id),)
                )
            )
            current = _object(rows[0]["settings"]) if rows else {}
            for key, value in changes.items():
                if value is None:
                    current.pop(key, None)
                else:
                    current[key] = value
            await conn.execute(
                "INSERT INTO player_settings (user_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (int(user_id), json.dumps(current, sort_keys=True), now),
            )
        return current
