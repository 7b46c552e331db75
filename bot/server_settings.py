"""Each server's Chaupal settings (``/chaupal settings``), read with their
defaults (who counts as a moderator, read from an interaction:
:mod:`bot.edge.moderators`).

The settings are stored by :class:`storage.timekeeping.SettingsStore` as one
JSON object per server; a missing key, or a value this version cannot read,
means the default.  So every setting always has a value that works:

=================  ==================  =========================================
key                default             meaning
=================  ==================  =========================================
``threads``        ``true``            each game is played in its own thread
``clock``          ``"3d"``            new games' clock (``1d``, ``3d+12h``, ``none``)
``timeout``        ``"substitute"``    new games' timeout policy
``reminder``       ``"auto"``          new games' reminders (``auto``: follow the
                                       clock; ``12h``; ``off``: none)
``substitute``     ``"medium"``        the automatic player's level for timeouts
                                       and seats a person left
``takeback``       ``true``            players may take a move back (issue 31),
                                       in every game here, running ones included
                                       (a game's ``takeback=no`` turns it off
                                       there; tournaments are off by default)
``announcements``  none                a channel id for announcements
``moderator_role`` none                a role id whose members are moderators
=================  ==================  =========================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engines.core import InvalidOptions
from bot.timekeeping import TableOptions
from storage.timekeeping import SettingsStore

__all__ = [
    "ServerSettings",
    "server_settings",
    "table_defaults",
]


def _snowflake(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) <= 20:
        return int(value)
    return None


TABLE_SETTINGS = ("clock", "timeout", "reminder", "substitute")
"""The settings that are new games' table options."""


@dataclass(frozen=True)
class ServerSettings:
    threads: bool = True
    # A correspondence clock by default, so a game whose player vanished
    # moves on by itself instead of waiting for a moderator to notice.
    clock: str = "3d"
    timeout: str = "substitute"
    reminder: str = "auto"
    substitute: str = "medium"
    takeback: bool = True
    """Whether players may take a move back in this server's games: a
    ceiling, read when they ask, not a default copied into new games."""
    announcements: int | None = None
    """A channel id."""
    moderator_role: int | None = None
    """A role id."""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ServerSettings:
        """Stored settings; a value that cannot be read is its default."""
        base = cls()
        threads = obj.get("threads", base.threads)
        takeback = obj.get("takeback", base.takeback)
        given = {k: str(obj[k]) for k in TABLE_SETTINGS if k in obj}
        # Each table option is kept as stored only when it reads on its own.
        words: dict[str, str] = {}
        for key, value in given.items():
            try:
                TableOptions.parse({key: value})
            except InvalidOptions:
                continue
            words[key] = value
        return cls(
            threads=threads if isinstance(threads, bool) else base.threads,
            clock=words.get("clock", base.clock),
            timeout=words.get("timeout", base.timeout),
            reminder=words.get("reminder", base.reminder),
            substitute=words.get("substitute", base.substitute),
            takeback=takeback if isinstance(takeback, bool) else base.takeback,
            announcements=_snowflake(obj.get("announcements")),
            moderator_role=_snowflake(obj.get("moderator_role")),
        )

    def table(self) -> TableOptions:
        """The clock, timeout policy and reminder delay new games get."""
        words = {
            "clock": self.clock,
            "timeout": self.timeout,
            "reminder": self.reminder,
            "substitute": self.substitute,
        }
        return _table_from(words)


def _table_from(obj: Mapping[str, Any]) -> TableOptions:
    given = {k: obj[k] for k in TABLE_SETTINGS if k in obj}
    defaults = TableOptions()
    out = defaults
    # One bad value must not cost the others: parse them one at a time.
    for key, value in given.items():
        try:
            out = TableOptions.parse({key: value}, defaults=out)
        except InvalidOptions:
            continue
    return out


async def server_settings(store: SettingsStore, guild_id: int | None) -> ServerSettings:
    """A server's settings (the defaults outside servers)."""
    if guild_id is None:
        return ServerSettings()
    return ServerSettings.from_json(await store.get(guild_id))


async def table_defaults(store: SettingsStore, guild_id: int | None) -> TableOptions:
    """The clock, timeout policy and reminder delay a new game in this
    server starts with, before its own lobby options."""
    return (await server_settings(store, guild_id)).table()
