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
from bot.i18n import DEFAULT, N_, t, tn
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
RATING_SCALE = N_(
    "A rating is 1000 + 40 × (mu − 3 × sigma): OpenSkill's cautious estimate of your "
    "skill (mu, less three times its uncertainty sigma), so a newcomer starts at 1000 "
    "and it climbs as your results make the model surer."
)
SERVER_ONLY = N_("Ratings belong to a server; use this command in one.")


def title_of(engine: str, lang: str = DEFAULT) -> str:
    found = ENGINES.get(engine)
    return t(lang, found.title) if found is not None else engine


def ordinal_word(n: int, lang: str = DEFAULT) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``…"""
    if lang != DEFAULT:
        return t(lang, "{n}th", n=n)
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def games_word(n: int, lang: str = DEFAULT) -> str:
    return tn(lang, "{n} game", "{n} games", n)


def wins_word(n: int, lang: str = DEFAULT) -> str:
    return tn(lang, "{n} win", "{n} wins", n)


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


def provisional_note(lang: str = DEFAULT) -> str:
    """:data:`PROVISIONAL_NOTE` in ``lang``."""
    return t(
        lang,
        "`?`: provisional, until {n} rated games (a first guess that each game still moves a lot).",
        n=PROVISIONAL_GAMES,
    )


def rating_line(
    record: RatingRecord,
    place: tuple[int, int] | None,
    *,
    model: bool = False,
    lang: str = DEFAULT,
) -> str:
    """``1184 · #2 of 7 players · 12 games, 5 wins``; ``1184?`` while
    provisional; with ``model`` (``/rating``) the model's own numbers after
    it: ``(OpenSkill: mu 31.2, sigma 1.4)``."""
    rating = f"**{rating_words(record.mu, record.sigma, record.games)}**"
    if model:
        rating += " " + t(
            lang,
            "(OpenSkill: mu {mu}, sigma {sigma})",
            mu=format(record.mu, ".1f"),
            sigma=format(record.sigma, ".1f"),
        )
    parts = [rating]
    if place is not None:
        rank, players = place
        parts.append(
            tn(lang, "#{rank} of {n} player", "#{rank} of {n} players", players, rank=rank)
        )
    parts.append(f"{games_word(record.games, lang)}, {wins_word(record.wins, lang)}")
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
            await reply(itx, t(await self.bot.languages.for_reader(itx), SERVER_ONLY))
            return
        # Posted in the channel: the server's language.
        lang = await self.bot.languages.for_channel(guild_id, itx)
        title = title_of(game.value, lang)
        top = await self.ratings.top(guild_id, game.value, MAX_ROWS)
        if not top:
            await reply(
                itx,
                t(
                    lang,
                    "Nobody has a {game} rating on this server yet: finish a rated game "
                    "(`/game new`) to be the first on the leaderboard.",
                    game=title,
                ),
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
        content = leaderboard_text(title, rows, lang)
        try:
            png = await asyncio.to_thread(
                _leaderboard_png, rows, t(lang, "{game} on this server", game=title), lang
            )
        except Exception:
            log.exception("could not draw the %s leaderboard", game.value)
            await reply(
                itx,
                content + "\n" + t(lang, "(The image could not be drawn this time.)"),
                ephemeral=False,
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
            await reply(itx, t(await self.bot.languages.for_reader(itx), SERVER_ONLY))
            return
        target: discord.abc.User = user or itx.user
        mine = target.id == itx.user.id
        # One's own ratings only to oneself; another's in the channel.
        lang = (
            await self.bot.languages.for_reader(itx)
            if mine
            else await self.bot.languages.for_channel(guild_id, itx)
        )
        name = safe_name(await self.name_of(itx, guild_id, target))
        records = await self.ratings.of_user(guild_id, target.id)
        if game is not None:
            records = [r for r in records if r.engine == game.value]
        places = [await self.ratings.rank(guild_id, r.engine, target.id) for r in records]
        which = title_of(game.value, lang) if game is not None else ""
        if not records:
            await reply(itx, _no_rating(lang, mine, name, which), ephemeral=mine)
            return
        lines = [_ratings_head(lang, mine, name, which)]
        lines += [
            f"- **{title_of(r.engine, lang)}**: {rating_line(r, place, model=True, lang=lang)}"
            for r, place in zip(records, places, strict=True)
        ]
        lines.append(t(lang, RATING_SCALE))
        if any(provisional(r.games) for r in records):
            lines.append(provisional_note(lang))
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
            await reply(itx, t(await self.bot.languages.for_reader(itx), SERVER_ONLY))
            return
        # Posted in the channel: the server's language.
        lang = await self.bot.languages.for_channel(guild_id, itx)
        name = safe_name(await self.name_of(itx, guild_id, user))
        records = await self.ratings.of_user(guild_id, user.id)
        places = [await self.ratings.rank(guild_id, r.engine, user.id) for r in records]
        recent = await self.ratings.history(guild_id, user.id, RECENT)
        results = [await self.result_line(guild_id, entry, lang) for entry in recent]
        # Every finished game of theirs, rated or not, page by page (issue 21).
        history = player_history_view(user.id, lang)
        if not records:
            await reply(
                itx,
                t(lang, "**{name}** has no rated games on this server yet.", name=name),
                ephemeral=False,
                view=history,
            )
            return
        games = sum(r.games for r in records)
        wins = sum(r.wins for r in records)
        lines = [
            t(
                lang,
                "**{name}** on this server: {games} rated, {wins}.",
                name=name,
                games=games_word(games, lang),
                wins=wins_word(wins, lang),
            ),
            t(lang, "**Ratings** (`/rating` for the model's numbers):"),
        ]
        lines += [
            f"- **{title_of(r.engine, lang)}**: {rating_line(r, place, lang=lang)}"
            for r, place in zip(records, places, strict=True)
        ]
        if any(provisional(r.games) for r in records):
            lines.append(provisional_note(lang))
        # The newest results that fit in one message (each has a link and a time).
        room = MAX_CONTENT - len("\n".join(lines)) - 40
        while results and sum(len(r) + 1 for r in results) > room:
            results.pop()
        lines.append(t(lang, "**Recent results** (last {n}):", n=len(results)))
        lines += results
        await reply(itx, "\n".join(lines), ephemeral=False, suppress_embeds=True, view=history)

    async def result_line(self, guild_id: int, entry: HistoryEntry, lang: str = DEFAULT) -> str:
        """``- Kauda Baji #12: 1st of 3, won, ▲ +84, <t:…:R> — [board](<link>)``
        (when it was rated, in the reader's own time zone; a tidy link, as
        ``/game history`` writes them)."""
        store = self.bot.store
        record = await store.get_game(entry.game_id)
        seats = len(await store.seats(entry.game_id)) if record is not None else 0
        place = (
            t(lang, "{place} of {n}", place=ordinal_word(entry.place, lang), n=seats)
            if seats
            else ordinal_word(entry.place, lang)
        )
        won = t(lang, ", won") if entry.won else ""
        line = (
            f"- {title_of(entry.engine, lang)} #{entry.game_id}: {place}{won}, "
            f"{arrow(entry.delta)}, {discord_time(entry.created_at)}"
        )
        if record is None:
            return line
        board = await store.get_message(entry.game_id, "board")
        if board is not None:
            link = jump_url(record.guild_id or guild_id, board[0], board[1])
        else:
            link = jump_url(record.guild_id or guild_id, record.thread_id or record.channel_id)
        return f"{line} — " + t(lang, "[board](<{link}>)", link=link)


def _no_rating(lang: str, mine: bool, name: str, game: str) -> str:
    """``/rating`` with nothing to show, by whose (``mine``) and which game."""
    if mine and game:
        return t(
            lang,
            "You have no rating in {game} on this server yet: ratings come from finished "
            "rated games.",
            game=game,
        )
    if mine:
        return t(
            lang,
            "You have no rating on this server yet: ratings come from finished rated games.",
        )
    if game:
        return t(
            lang,
            "**{name}** has no rating in {game} on this server yet: ratings come from "
            "finished rated games.",
            name=name,
            game=game,
        )
    return t(
        lang,
        "**{name}** has no rating on this server yet: ratings come from finished rated games.",
        name=name,
    )


def _ratings_head(lang: str, mine: bool, name: str, game: str) -> str:
    """``/rating``'s first line, by whose (``mine``) and which game."""
    if mine and game:
        return t(lang, "**Your ratings** in {game} on this server:", game=game)
    if mine:
        return t(lang, "**Your ratings** on this server:")
    if game:
        return t(lang, "**{name}**'s ratings in {game} on this server:", name=name, game=game)
    return t(lang, "**{name}**'s ratings on this server:", name=name)


def leaderboard_text(title: str, rows: Sequence[LeaderboardRow], lang: str = DEFAULT) -> str:
    """The message beside the image: the top five in words, names escaped."""
    lines = [t(lang, "**{game} leaderboard** on this server:", game=title)]
    for row in rows[:TEXT_ROWS]:
        mark = "?" if row.provisional else ""
        lines.append(
            f"{row.rank}. **{safe_name(row.name)}** {round(row.rating)}{mark} · "
            f"{games_word(row.games, lang)}, {wins_word(row.wins, lang)} · "
            f"{trend_words(row.trend)}"
        )
    if len(rows) > TEXT_ROWS:
        lines.append(t(lang, "…and {n} more in the image.", n=len(rows) - TEXT_ROWS))
    if any(row.provisional for row in rows):
        lines.append(provisional_note(lang))
    return "\n".join(lines)


def _leaderboard_png(rows: Sequence[LeaderboardRow], title: str, lang: str = DEFAULT) -> bytes:
    return to_png(
        render_leaderboard(rows, title=title, provisional_games=PROVISIONAL_GAMES, lang=lang)
    )


__all__ = ["RatingsCog", "leaderboard_text", "ordinal_word"]
