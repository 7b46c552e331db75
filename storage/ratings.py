"""Ratings and their history (migration 0004).

One OpenSkill rating per player per game per server: the key is
``(guild_id, engine, user_id)``.  The numbers themselves are computed by
:mod:`bot.tournament.ratings`; this module only keeps them.

A finished game is written with :meth:`RatingStore.apply`, one transaction:
a row per rated player in ``rating_history`` (primary key ``game_id,
user_id``) and the new ``ratings``.  A game that already has history rows is
refused (``apply`` returns False and writes nothing), so rating a game is
idempotent across restarts and retries.

Each :class:`RatingChange` also says which rating it was computed from
(``mu_before``, ``sigma_before``, ``games_before``).  If the stored rating is
no longer that one (another game of the same player was rated meanwhile),
``apply`` raises :class:`StaleRating` and writes nothing; the caller reads the
ratings again and recomputes, as with a game's version guard.

Leaderboards order by the conservative estimate :func:`ordinal`
(``mu - 3 * sigma``, OpenSkill's ``ordinal()``), then by games played, then by
user id, so the order is total and stable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from storage.backend import Connection, Row, for_update
from storage.database import Database
from storage.errors import StorageError

__all__ = [
    "ORDINAL_Z",
    "HistoryEntry",
    "RatingChange",
    "RatingRecord",
    "RatingStore",
    "StaleRating",
    "ordinal",
    "trend",
]

#: Standard deviations below the mean in the conservative estimate.
ORDINAL_Z = 3.0

_RATING_COLUMNS = "guild_id, engine, user_id, mu, sigma, games, wins, updated_at"
_HISTORY_COLUMNS = (
    "game_id, guild_id, engine, user_id, mu_before, sigma_before, mu_after, sigma_after, "
    "place, won, created_at"
)
# The same formula as ordinal(), for ORDER BY.
_ORDINAL_SQL = f"(mu - {ORDINAL_Z!r} * sigma)"


def _ordinal_sql(table: str) -> str:
    """:data:`_ORDINAL_SQL` for the columns of ``table`` (an alias)."""
    return f"({table}.mu - {ORDINAL_Z!r} * {table}.sigma)"


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate ``mu - 3 sigma`` (OpenSkill's ``ordinal()``)."""
    return mu - ORDINAL_Z * sigma


# --------------------------------------------------------------------- records


@dataclass(frozen=True)
class RatingRecord:
    """A player's current rating in one game on one server."""

    guild_id: int
    engine: str
    user_id: int
    mu: float
    sigma: float
    #: Rated games played.
    games: int
    #: Of those, games the player's side finished first (not a draw between all).
    wins: int
    updated_at: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class RatingChange:
    """What one rated game does to one player's rating (the input of ``apply``)."""

    user_id: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    #: 1 = first; players sharing a place share the number.
    place: int
    #: The player's side finished first, and not every rated side did.
    won: bool
    #: Rated games before this one: 0 for a player without a stored rating.
    games_before: int = 0

    @property
    def delta(self) -> float:
        """How much the conservative estimate moved."""
        return ordinal(self.mu_after, self.sigma_after) - ordinal(self.mu_before, self.sigma_before)


@dataclass(frozen=True)
class HistoryEntry:
    """One rated game of one player."""

    game_id: int
    guild_id: int
    engine: str
    user_id: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    place: int
    won: bool
    created_at: float

    @property
    def delta(self) -> float:
        return ordinal(self.mu_after, self.sigma_after) - ordinal(self.mu_before, self.sigma_before)


class StaleRating(StorageError):
    """A change was computed from a rating that is no longer the stored one."""

    def __init__(self, guild_id: int, engine: str, user_id: int) -> None:
        super().__init__(
            f"The {engine} rating of user {user_id} on server {guild_id} changed while "
            "this game was being rated; read the ratings again and recompute."
        )
        self.guild_id = guild_id
        self.engine = engine
        self.user_id = user_id


def trend(entries: Sequence[HistoryEntry], last: int = 5) -> float:
    """How much the conservative estimate moved over the ``last`` rated games.

    ``entries`` are one player's history in one game, newest first (as
    :meth:`RatingStore.history` returns them with ``engine``); 0.0 without any.
    """
    if last < 1:
        raise ValueError(f"last must be at least 1, got {last}")
    window = entries[:last]
    if not window:
        return 0.0
    newest, oldest = window[0], window[-1]
    return ordinal(newest.mu_after, newest.sigma_after) - ordinal(
        oldest.mu_before, oldest.sigma_before
    )


# --------------------------------------------------------------------- helpers


def _rating(row: Row) -> RatingRecord:
    return RatingRecord(
        guild_id=int(row["guild_id"]),
        engine=str(row["engine"]),
        user_id=int(row["user_id"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        updated_at=float(row["updated_at"]),
    )


def _entry(row: Row) -> HistoryEntry:
    return HistoryEntry(
        game_id=int(row["game_id"]),
        guild_id=int(row["guild_id"]),
        engine=str(row["engine"]),
        user_id=int(row["user_id"]),
        mu_before=float(row["mu_before"]),
        sigma_before=float(row["sigma_before"]),
        mu_after=float(row["mu_after"]),
        sigma_after=float(row["sigma_after"]),
        place=int(row["place"]),
        won=bool(row["won"]),
        created_at=float(row["created_at"]),
    )


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


class _RatedMeanwhile(Exception):
    """Another transaction recorded the game's ratings first (rolls back this one)."""


# --------------------------------------------------------------------- the store


class RatingStore:
    """Async access to ratings; one per :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def apply(
        self,
        game_id: int,
        guild_id: int,
        engine: str,
        updates: Iterable[RatingChange],
        now: float,
    ) -> bool:
        """Record a rated game: its history rows and the new ratings, in one transaction.

        Returns True if this call rated the game; False if the game was
        rated before (nothing is written) or there is nothing to rate.
        Raises :class:`StaleRating` (nothing written) if a change was
        computed from a rating that is no longer the stored one, and
        :class:`ValueError` for a player listed twice or a place below 1.
        """
        changes = sorted(updates, key=lambda c: c.user_id)
        users = [c.user_id for c in changes]
        if len(set(users)) != len(users):
            raise ValueError(f"each player may be rated once per game, got {users}")
        for change in changes:
            if change.place < 1 or change.games_before < 0:
                raise ValueError(f"not a rating change: {change}")
        if not changes:
            return False
        try:
            return await self._apply(game_id, guild_id, engine, changes, now)
        except _RatedMeanwhile:
            return False

    async def _apply(
        self,
        game_id: int,
        guild_id: int,
        engine: str,
        changes: Sequence[RatingChange],
        now: float,
    ) -> bool:
        # Every write below is guarded, so two games rated at once (on
        # PostgreSQL, in two transactions side by side) never lose an update:
        # the stored ratings are read locked, a new player's row is inserted
        # only if absent, and a game's history rows only once.
        users = [c.user_id for c in changes]
        async with self.db.transaction() as conn:
            done = await conn.execute_fetchall(
                "SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (game_id,)
            )
            if done:
                return False
            rows = await conn.execute_fetchall(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND engine = ? "
                f"AND user_id IN ({_placeholders(users)}) ORDER BY user_id{for_update(conn)}",
                (guild_id, engine, *users),
            )
            stored = {int(r["user_id"]): _rating(r) for r in rows}
            for change in changes:
                current = stored.get(change.user_id)
                if current is None:
                    fresh = change.games_before == 0
                else:
                    fresh = (current.games, current.mu, current.sigma) == (
                        change.games_before,
                        change.mu_before,
                        change.sigma_before,
                    )
                if not fresh:
                    await _stale_unless_rated(conn, game_id, guild_id, engine, change.user_id)
            for c in changes:
                recorded = await conn.execute(
                    f"INSERT INTO rating_history ({_HISTORY_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (
                        game_id,
                        guild_id,
                        engine,
                        c.user_id,
                        c.mu_before,
                        c.sigma_before,
                        c.mu_after,
                        c.sigma_after,
                        c.place,
                        int(c.won),
                        now,
                    ),
                )
                if recorded.rowcount != 1:
                    raise _RatedMeanwhile  # another transaction rated this game first
                if c.user_id in stored:
                    await conn.execute(
                        "UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, "
                        "wins = wins + ?, updated_at = ? "
                        "WHERE guild_id = ? AND engine = ? AND user_id = ?",
                        (c.mu_after, c.sigma_after, int(c.won), now, guild_id, engine, c.user_id),
                    )
                    continue
                created = await conn.execute(
                    f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, 1, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (guild_id, engine, c.user_id, c.mu_after, c.sigma_after, int(c.won), now),
                )
                if created.rowcount != 1:
                    # Another game gave this player a first rating meanwhile
                    # (this very game would have stopped at its history row).
                    raise StaleRating(guild_id, engine, c.user_id)
        return True

    async def is_rated(self, game_id: int) -> bool:
        """Whether the game's ratings were already recorded."""
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (game_id,)
                )
            )
        return bool(rows)

    async def get(self, guild_id: int, engine: str, user_id: int) -> RatingRecord | None:
        """The player's rating in that game on that server (None: never rated)."""
        found = await self.ratings(guild_id, engine, [user_id])
        return found.get(user_id)

    async def ratings(
        self, guild_id: int, engine: str, user_ids: Iterable[int]
    ) -> dict[int, RatingRecord]:
        """The stored ratings of these players, by user id (unrated players are absent)."""
        users = sorted(set(user_ids))
        if not users:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND engine = ? "
                f"AND user_id IN ({_placeholders(users)})",
                (guild_id, engine, *users),
            )
        return {int(r["user_id"]): _rating(r) for r in rows}

    async def of_user(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        """The player's rating in every game they were rated in on that server, by engine."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? "
                "ORDER BY engine",
                (guild_id, user_id),
            )
        return [_rating(r) for r in rows]

    async def top(self, guild_id: int, engine: str, limit: int = 20) -> list[RatingRecord]:
        """The leaderboard: best conservative estimate first (then most games, then user id)."""
        if limit < 1:
            return []
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND engine = ? "
                f"ORDER BY {_ORDINAL_SQL} DESC, games DESC, user_id LIMIT ?",
                (guild_id, engine, limit),
            )
        return [_rating(r) for r in rows]

    async def rank(self, guild_id: int, engine: str, user_id: int) -> tuple[int, int] | None:
        """``(place, players)``: the player's place on that game's leaderboard
        (1 = first, in :meth:`top`'s order) and how many players it holds;
        None when the player has no rating in that game on that server."""
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id "
                    f"AND o.engine = r.engine AND ({_ordinal_sql('o')} > {_ordinal_sql('r')} "
                    f"OR ({_ordinal_sql('o')} = {_ordinal_sql('r')} AND "
                    "(o.games > r.games OR (o.games = r.games AND o.user_id < r.user_id))))"
                    ") + 1 AS place, (SELECT COUNT(*) FROM ratings o WHERE "
                    "o.guild_id = r.guild_id AND o.engine = r.engine) AS players "
                    "FROM ratings r WHERE r.guild_id = ? AND r.engine = ? AND r.user_id = ?",
                    (guild_id, engine, user_id),
                )
            )
        if not rows:
            return None
        return int(rows[0]["place"]), int(rows[0]["players"])

    async def seat_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The display name each player had in their newest game on that server
        (from the game's seats), by user id; players never seated there are absent.

        For leaderboards and profiles when Discord's member cache does not know
        the player.  The names are as players wrote them: escape before use.
        """
        users = sorted(set(user_ids))
        if not users:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT user_id, display_name FROM (SELECT s.user_id, s.display_name, "
                "ROW_NUMBER() OVER (PARTITION BY s.user_id ORDER BY s.game_id DESC) AS n "
                "FROM seats s JOIN games g ON g.id = s.game_id WHERE g.guild_id = ? "
                f"AND s.user_id IN ({_placeholders(users)})) AS newest WHERE n = 1",
                (guild_id, *users),
            )
        return {int(r["user_id"]): str(r["display_name"]) for r in rows}

    async def history(
        self, guild_id: int, user_id: int, limit: int = 10, *, engine: str | None = None
    ) -> list[HistoryEntry]:
        """The player's rated games on that server (in one game if ``engine``), newest first."""
        if limit < 1:
            return []
        clause = "guild_id = ? AND user_id = ?"
        params: list[Any] = [guild_id, user_id]
        if engine is not None:
            clause += " AND engine = ?"
            params.append(engine)
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_HISTORY_COLUMNS} FROM rating_history WHERE {clause} "
                "ORDER BY created_at DESC, game_id DESC LIMIT ?",
                (*params, limit),
            )
        return [_entry(r) for r in rows]

    async def changes(self, game_ids: Iterable[int]) -> dict[int, dict[int, float]]:
        """Each rated game's rating changes (the conservative estimate's),
        by game and player, in one query; unrated games are absent."""
        ids = sorted({int(g) for g in game_ids})
        if not ids:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_HISTORY_COLUMNS} FROM rating_history "
                f"WHERE game_id IN ({_placeholders(ids)})",
                ids,
            )
        found: dict[int, dict[int, float]] = {}
        for row in rows:
            entry = _entry(row)
            found.setdefault(entry.game_id, {})[entry.user_id] = entry.delta
        return found

    async def trends(
        self, guild_id: int, engine: str, user_ids: Iterable[int], last: int = 5
    ) -> dict[int, float]:
        """:func:`trend` of each player (0.0 without rated games), in one query."""
        if last < 1:
            raise ValueError(f"last must be at least 1, got {last}")
        users = sorted(set(user_ids))
        if not users:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_HISTORY_COLUMNS} FROM (SELECT *, ROW_NUMBER() OVER ("
                "PARTITION BY user_id ORDER BY created_at DESC, game_id DESC) AS n "
                "FROM rating_history WHERE guild_id = ? AND engine = ? "
                f"AND user_id IN ({_placeholders(users)})) AS recent WHERE n <= ? "
                "ORDER BY user_id, n",
                (guild_id, engine, *users, last),
            )
        by_user: dict[int, list[HistoryEntry]] = {u: [] for u in users}
        for row in rows:
            entry = _entry(row)
            by_user[entry.user_id].append(entry)
        return {u: trend(entries, last) for u, entries in by_user.items()}


async def _stale_unless_rated(
    conn: Connection, game_id: int, guild_id: int, engine: str, user_id: int
) -> NoReturn:
    """A stored rating moved on since the change was worked out: StaleRating,
    unless what moved it was this very game, rated by another transaction
    that committed after this one looked (on PostgreSQL each statement reads
    what has committed since, so the game looked unrated, then its players
    looked rated): then the game counts once already."""
    rated = await conn.execute_fetchall(
        "SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (game_id,)
    )
    if list(rated):
        raise _RatedMeanwhile
    raise StaleRating(guild_id, engine, user_id)
