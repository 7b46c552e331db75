"""Members who follow a game they do not play (``/game follow``, issue 21;
migration 0010).

A follow is a preference, nothing more: what a follower was sent lives in
the outbox (target ``follow:<user_id>``), written by delivery like a seat's
DMs, so each DM goes out once across restarts.  Following is checked and
written in one transaction that locks the game's row, so a game cannot end
between the check that it runs and the follow: a follower recorded is a
follower the end-of-game delivery reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from storage.backend import Row, for_update
from storage.database import Database
from storage.games.records import storable_id

__all__ = ["FollowOutcome", "Follower", "FollowerStore"]

FollowOutcome = Literal["followed", "updated", "unchanged", "no-game", "lobby", "over", "player"]
"""What :meth:`FollowerStore.follow` did: a new follow, a changed
preference, the same preference again; or nothing, because there is no such
game, it has not started, it is over, or the member plays in it."""


@dataclass(frozen=True)
class Follower:
    game_id: int
    user_id: int
    #: A DM with every new public board, not only when the game ends.
    every_move: bool
    #: Discord refused a DM to them (code 50007): nothing more is tried.
    dms_closed: bool
    since: float


_COLUMNS = "game_id, user_id, every_move, dms_closed, since"


def _follower(row: Row) -> Follower:
    return Follower(
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        every_move=bool(row["every_move"]),
        dms_closed=bool(row["dms_closed"]),
        since=float(row["since"]),
    )


class FollowerStore:
    """Async access to followers; one per :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def follow(
        self, game_id: int, user_id: int, *, every_move: bool, now: float
    ) -> FollowOutcome:
        """Follow a running game (or change how): refused for a game that is
        not running or one the member holds a seat in.  A player who left
        their seat to the automatic player holds it no more and may follow
        like anyone (``bot/tenure.py``: a seat's secrets are its holder's).
        Following again clears a DM refusal: the member says they can be
        reached now."""
        if not storable_id(game_id) or not storable_id(user_id):
            return "no-game"
        async with self.db.transaction() as conn:
            # Locked: the game cannot end (or its seats change) until this
            # follow is written, so the end-of-game delivery sees it.
            games = list(
                await conn.execute_fetchall(
                    f"SELECT status FROM games WHERE id = ?{for_update(conn)}", (game_id,)
                )
            )
            if not games:
                return "no-game"
            status = str(games[0]["status"])
            if status == "lobby":
                return "lobby"
            if status != "active":
                return "over"
            # Held: as bot.tenure reads the seats, a seat whose player left
            # it is the automatic player's (``controller`` ``auto``).
            seated = await conn.execute_fetchall(
                "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ? AND controller = 'human'",
                (game_id, user_id),
            )
            if list(seated):
                return "player"
            old = list(
                await conn.execute_fetchall(
                    f"SELECT {_COLUMNS} FROM followers WHERE game_id = ? AND user_id = ?",
                    (game_id, user_id),
                )
            )
            before = _follower(old[0]) if old else None
            await conn.execute(
                f"INSERT INTO followers ({_COLUMNS}) VALUES (?, ?, ?, 0, ?) "
                "ON CONFLICT (game_id, user_id) DO UPDATE SET "
                "every_move = excluded.every_move, dms_closed = 0, since = excluded.since",
                (game_id, user_id, int(every_move), now),
            )
        if before is None:
            return "followed"
        if before.every_move != every_move or before.dms_closed:
            return "updated"
        return "unchanged"

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """Stop following; False when the member did not follow the game."""
        if not storable_id(game_id) or not storable_id(user_id):
            return False
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM followers WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return cursor.rowcount == 1

    async def of_game(self, game_id: int) -> list[Follower]:
        """A game's followers, by user id."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM followers WHERE game_id = ? ORDER BY user_id",
                (game_id,),
            )
        return [_follower(r) for r in rows]

    async def get(self, game_id: int, user_id: int) -> Follower | None:
        if not storable_id(game_id) or not storable_id(user_id):
            return None
        async with self.db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {_COLUMNS} FROM followers WHERE game_id = ? AND user_id = ?",
                    (game_id, user_id),
                )
            )
        return _follower(rows[0]) if rows else None

    async def of_user(self, user_id: int) -> list[Follower]:
        """The games a member follows, newest first."""
        if not storable_id(user_id):
            return []
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM followers WHERE user_id = ? ORDER BY game_id DESC",
                (user_id,),
            )
        return [_follower(r) for r in rows]

    async def close_dms(self, game_id: int, user_id: int) -> None:
        """Discord refused a DM to this follower: try no more for this game
        (a member's DM setting is per server, so other games may still
        reach them)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE followers SET dms_closed = 1 WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
