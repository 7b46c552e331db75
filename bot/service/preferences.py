"""What players and servers chose, as the service reads it: vacations,
notifications and reminders, a server's defaults for new games and its
``takeback`` setting (kept in memory for ``SERVER_SETTING_TTL``)."""

from __future__ import annotations

import time
from collections.abc import Iterable

from bot.engines.core import Seat
from bot.live import LiveGame
from bot.notifications import Notifications
from bot.server_settings import server_settings, table_defaults
from bot.service.common import SERVER_SETTING_TTL
from bot.service.core import Core
from bot.timekeeping import ReminderOption, TableOptions


class Preferences:
    """Players' and servers' settings, as the game service reads them."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def away_until(self, game: LiveGame) -> dict[Seat, float]:
        """Seats whose players are away now, and when they come back."""
        now = self.core.clock()
        users = [s.user_id for s in game.seats]
        out: dict[Seat, float] = {}
        for v in await self.core.timers.vacations(users, since=now):
            if v.starts <= now:
                for s in game.seats:
                    if s.user_id == v.user_id:
                        out[s.seat] = max(out.get(s.seat, 0.0), v.ends)
        return out

    async def notifications(self, user_ids: Iterable[int]) -> dict[int, Notifications]:
        """Each user's own notifications (``/chaupal me``), in one query;
        every id is present, with the defaults for anyone who set none."""
        ids = {int(u) for u in user_ids}
        stored = await self.core.player_settings.get_many(ids)
        return {u: Notifications.from_json(stored.get(u, {})) for u in ids}

    async def reminder_options(
        self, game: LiveGame, seats: Iterable[Seat]
    ) -> dict[Seat, ReminderOption]:
        """How each seat is reminded: the player's own choice
        (``/chaupal me reminders``) before the game's ``reminder`` option."""
        wanted = [s for s in seats if 0 <= s < len(game.seats)]
        if not wanted:
            return {}
        own = await self.notifications(game.user_of(s) for s in wanted)
        out: dict[Seat, ReminderOption] = {}
        for seat in wanted:
            mine = own[game.user_of(seat)].reminders
            out[seat] = game.table.reminder if mine == "game" else mine
        return out

    async def server_defaults(self, guild_id: int | None) -> TableOptions:
        """A server's defaults for new games (``/chaupal settings``)."""
        return await table_defaults(self.core.settings, guild_id)

    async def takebacks_allowed(self, game: LiveGame) -> bool:
        """Whether the game takes moves back: its ``takeback`` table option
        (a lobby's ``takeback=no``, a tournament's default) and its server's
        setting, which turns them off everywhere at once."""
        if not game.table.takeback:
            return False
        guild = game.record.guild_id
        if guild is None:
            return True
        now = time.monotonic()
        known = self.core.takeback_servers.get(guild)
        if known is None or now - known[0] > SERVER_SETTING_TTL:
            allowed = (await server_settings(self.core.settings, guild)).takeback
            known = self.core.takeback_servers[guild] = (now, allowed)
        return known[1]

    def settings_changed(self, guild_id: int | None) -> None:
        """A server's settings changed here: read them afresh."""
        if guild_id is not None:
            self.core.takeback_servers.pop(guild_id, None)
