"""``/leaderboard``, ``/rating`` and ``/profile``: the ratings the service keeps
(issue 11, item 3).  Read-only: ratings are written by the service when a
rated game ends (:mod:`bot.tournament.ratings`, :mod:`storage.ratings`).

Ratings belong to a server, so these commands work in servers only.  Names
come from Discord's member cache when it knows the player, else from the
seat the player took in their newest game on the server; in text they are
escaped (:func:`bot.outgoing.safe_name`) and nobody is ever pinged.  The
leaderboard image is drawn in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.alt import describe_leaderboard
from bot.edge.archive.history import player_history_view
from bot.edge.delivery.texts import jump_url
from bot.edge.refusals import refusing
from bot.edge.replies import reply
from bot.engines import ENGINES
from bot.i18n import N_
from bot.outgoing import MAX_CONTENT, discord_time, safe_name
from bot.tournament.ratings import (
    PROVISIONAL_GAMES,
    provisional,
    rating_words,
    shown_points,
    shown_rating,
)
from renderers.common import to_png
from renderers.leaderboard import (
    MAX_ROWS,
    LeaderboardRow,
    format_trend,
    render_leaderboard,
)
from storage.ratings import HistoryEntry, RatingRecord

if TYPE_CHECKING:
    from bot.edge.ports import Edge
    from storage.ratings import RatingStore

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.name) for e in ENGINES.values()]
TEXT_ROWS = 5
"""Players the leaderboard's message names in text, beside the image."""
RECENT = 10
"""Rated games a profile lists."""
UNKNOWN = "Unknown player"
RATING_SCALE = (
    "A rating is 1000 + 40 × (mu − 3 × sigma): OpenSkill's cautious estimate of your "
    "skill (mu, less three times its uncertainty sigma), so a newcomer starts at 1000 "
    "and it climbs as your results make the model surer."
)
SERVER_ONLY = "Ratings belong to a server; use this command in one."


def title_of(engine: str) -> str:
    found = ENGINES.get(engine)
    return found.title if found is not None else engine


def ordinal_word(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``…"""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def games_word(n: int) -> str:
    return "1 game" if n == 1 else f"{n} games"


def wins_word(n: int) -> str:
    return "1 win" if n == 1 else f"{n} wins"


def arrow(change: float) -> str:
    """A change of the ordinal (a rated game's) in shown rating points:
    ``▲ +48``, ``▼ -32`` or ``= 0``."""
    return trend_words(shown_points(change))


def trend_words(points: float) -> str:
    """A change already in shown points: ``▲ +48``, ``▼ -32`` or ``= 0``."""
    shown = format_trend(points)
    return "= 0" if shown == "0" else ("▲ " if points > 0 else "▼ ") + shown


PROVISIONAL_NOTE = (
    f"`?`: provisional, until {PROVISIONAL_GAMES} rated games (a first guess that each "
    "game still moves a lot)."
)


def rating_line(record: RatingRecord, place: tuple[int, int] | None, *, model: bool = False) -> str:
    """``1184 · #2 of 7 players · 12 games, 5 wins``; ``1184?`` while
    provisional; with ``model`` (``/rating``) the model's own numbers after
    it: ``(OpenSkill: mu 31.2, sigma 1.4)``."""
    rating = f"**{rating_words(record.mu, record.sigma, record.games)}**"
    if model:
        rating += f" (OpenSkill: mu {record.mu:.1f}, sigma {record.sigma:.1f})"
    parts = [rating]
    if place is not None:
        rank, players = place
        parts.append(f"#{rank} of {players} player{'s' if players != 1 else ''}")
    parts.append(f"{games_word(record.games)}, {wins_word(record.wins)}")
    return " · ".join(parts)


class RatingsCog(commands.Cog):
    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    @property
    def ratings(self) -> RatingStore:
        return self.bot.service.ratings

    # -- names -----------------------------------------------------------

    async def names(
        self, itx: discord.Interaction[Any], guild_id: int, user_ids: Iterable[int]
    ) -> dict[int, str]:
        """Each player's display name as players wrote it (unescaped): the
        member cache first, then their newest seat on this server."""
        users = list(dict.fromkeys(user_ids))
        found: dict[int, str] = {}
        guild = itx.guild
        for user_id in users:
            member = guild.get_member(user_id) if guild is not None else None
            if member is not None:
                found[user_id] = member.display_name
        missing = [u for u in users if u not in found]
        if missing:
            found.update(await self.ratings.seat_names(guild_id, missing))
        return {u: found.get(u) or UNKNOWN for u in users}

    async def name_of(
        self, itx: discord.Interaction[Any], guild_id: int, user: discord.abc.User
    ) -> str:
        """The name of a user Discord resolved for us (the caller, or an option)."""
        if isinstance(user, discord.Member):
            return user.display_name
        stored = await self.names(itx, guild_id, [user.id])
        return stored[user.id] if stored[user.id] != UNKNOWN else user.display_name

    # -- /leaderboard ----------------------------------------------------

    @app_commands.command(name="leaderboard", description=N_("The best players of a game here"))
    @app_commands.describe(game=N_("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, itx: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        await self._leaderboard(itx, game)

    @refusing
    async def _leaderboard(
        self, itx: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        guild_id = itx.guild_id
        if guild_id is None:
            await reply(itx, SERVER_ONLY)
            return
        title = title_of(game.value)
        top = await self.ratings.top(guild_id, game.value, MAX_ROWS)
        if not top:
            await reply(
                itx,
                f"Nobody has a {title} rating on this server yet: finish a rated game "
                "(`/game new`) to be the first on the leaderboard.",
                ephemeral=False,
            )
            return
        await itx.response.defer(thinking=True)
        users = [r.user_id for r in top]
        names = await self.names(itx, guild_id, users)
        trends = await self.ratings.trends(guild_id, game.value, users, last=5)
        rows = [
            LeaderboardRow(
                rank=i + 1,
                name=names[r.user_id],
                rating=shown_rating(r.mu, r.sigma),
                games=r.games,
                wins=r.wins,
                trend=shown_points(trends.get(r.user_id, 0.0)),
                provisional=provisional(r.games),
            )
            for i, r in enumerate(top)
        ]
        content = leaderboard_text(title, rows)
        try:
            png = await asyncio.to_thread(_leaderboard_png, rows, f"{title} on this server")
        except Exception:
            log.exception("could not draw the %s leaderboard", game.value)
            await reply(
                itx, content + "\n(The image could not be drawn this time.)", ephemeral=False
            )
            return
        await reply(
            itx,
            content,
            ephemeral=False,
            file=discord.File(
                io.BytesIO(png),
                filename=f"leaderboard-{game.value}.png",
                description=describe_leaderboard(
                    title, rows, lang=await self.bot.languages.for_channel(guild_id, itx)
                ),
            ),
        )

    # -- /rating ---------------------------------------------------------

    @app_commands.command(name="rating", description=N_("Your ratings here (or another player's)"))
    @app_commands.describe(
        user=N_("Whose ratings (you, if left out)"),
        game=N_("One game only (all games if left out)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rating(
        self,
        itx: discord.Interaction[Any],
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await self._rating(itx, user, game)

    @refusing
    async def _rating(
        self,
        itx: discord.Interaction[Any],
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = itx.guild_id
        if guild_id is None:
            await reply(itx, SERVER_ONLY)
            return
        target: discord.abc.User = user or itx.user
        mine = target.id == itx.user.id
        name = safe_name(await self.name_of(itx, guild_id, target))
        records = await self.ratings.of_user(guild_id, target.id)
        if game is not None:
            records = [r for r in records if r.engine == game.value]
        places = [await self.ratings.rank(guild_id, r.engine, target.id) for r in records]
        who = "You have" if mine else f"**{name}** has"
        where = f" in {title_of(game.value)}" if game is not None else ""
        if not records:
            await reply(
                itx,
                f"{who} no rating{where} on this server yet: ratings come from finished "
                "rated games.",
                ephemeral=mine,
            )
            return
        head = "**Your ratings**" if mine else f"**{name}**'s ratings"
        lines = [f"{head}{where} on this server:"]
        lines += [
            f"- **{title_of(r.engine)}**: {rating_line(r, place, model=True)}"
            for r, place in zip(records, places, strict=True)
        ]
        lines.append(RATING_SCALE)
        if any(provisional(r.games) for r in records):
            lines.append(PROVISIONAL_NOTE)
        await reply(itx, "\n".join(lines), ephemeral=mine)

    # -- /profile --------------------------------------------------------

    @app_commands.command(
        name="profile", description=N_("A player's games, ratings and results here")
    )
    @app_commands.describe(user=N_("Whose profile"))
    @app_commands.guild_only()
    async def profile(self, itx: discord.Interaction[Any], user: discord.User) -> None:
        await self._profile(itx, user)

    @refusing
    async def _profile(self, itx: discord.Interaction[Any], user: discord.User) -> None:
        guild_id = itx.guild_id
        if guild_id is None:
            await reply(itx, SERVER_ONLY)
            return
        name = safe_name(await self.name_of(itx, guild_id, user))
        records = await self.ratings.of_user(guild_id, user.id)
        places = [await self.ratings.rank(guild_id, r.engine, user.id) for r in records]
        recent = await self.ratings.history(guild_id, user.id, RECENT)
        results = [await self.result_line(guild_id, entry) for entry in recent]
        # Every finished game of theirs, rated or not, page by page (issue 21).
        history = player_history_view(user.id)
        if not records:
            await reply(
                itx,
                f"**{name}** has no rated games on this server yet.",
                ephemeral=False,
                view=history,
            )
            return
        games = sum(r.games for r in records)
        wins = sum(r.wins for r in records)
        lines = [
            f"**{name}** on this server: {games_word(games)} rated, {wins_word(wins)}.",
            "**Ratings** (`/rating` for the model's numbers):",
        ]
        lines += [
            f"- **{title_of(r.engine)}**: {rating_line(r, place)}"
            for r, place in zip(records, places, strict=True)
        ]
        if any(provisional(r.games) for r in records):
            lines.append(PROVISIONAL_NOTE)
        # The newest results that fit in one message (each has a link and a time).
        room = MAX_CONTENT - len("\n".join(lines)) - 40
        while results and sum(len(r) + 1 for r in results) > room:
            results.pop()
        lines.append(f"**Recent results** (last {len(results)}):")
        lines += results
        await reply(itx, "\n".join(lines), ephemeral=False, suppress_embeds=True, view=history)

    async def result_line(self, guild_id: int, entry: HistoryEntry) -> str:
        """``- Kauda Baji #12: 1st of 3, won, ▲ +84, <t:…:R> — [board](<link>)``
        (when it was rated, in the reader's own time zone; a tidy link, as
        ``/game history`` writes them)."""
        store = self.bot.store
        record = await store.get_game(entry.game_id)
        seats = len(await store.seats(entry.game_id)) if record is not None else 0
        place = ordinal_word(entry.place) + (f" of {seats}" if seats else "")
        won = ", won" if entry.won else ""
        line = (
            f"- {title_of(entry.engine)} #{entry.game_id}: {place}{won}, {arrow(entry.delta)}, "
            f"{discord_time(entry.created_at)}"
        )
        if record is None:
            return line
        board = await store.get_message(entry.game_id, "board")
        if board is not None:
            link = jump_url(record.guild_id or guild_id, board[0], board[1])
        else:
            link = jump_url(record.guild_id or guild_id, record.thread_id or record.channel_id)
        return f"{line} — [board](<{link}>)"


def leaderboard_text(title: str, rows: Sequence[LeaderboardRow]) -> str:
    """The message beside the image: the top five in words, names escaped."""
    lines = [f"**{title} leaderboard** on this server:"]
    for row in rows[:TEXT_ROWS]:
        mark = "?" if row.provisional else ""
        lines.append(
            f"{row.rank}. **{safe_name(row.name)}** {round(row.rating)}{mark} · "
            f"{games_word(row.games)}, {wins_word(row.wins)} · {trend_words(row.trend)}"
        )
    if len(rows) > TEXT_ROWS:
        lines.append(f"…and {len(rows) - TEXT_ROWS} more in the image.")
    if any(row.provisional for row in rows):
        lines.append(PROVISIONAL_NOTE)
    return "\n".join(lines)


def _leaderboard_png(rows: Sequence[LeaderboardRow], title: str) -> bytes:
    return to_png(render_leaderboard(rows, title=title, provisional_games=PROVISIONAL_GAMES))


__all__ = ["RatingsCog", "leaderboard_text", "ordinal_word"]
