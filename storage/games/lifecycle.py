"""A game's life outside its moves, in the game store: created in a lobby,
seated, reordered, moved to a thread, started, ended, deleted.

Status only moves forward (:func:`storage.games.rows.sources_for`); a
change the status does not allow raises
:class:`storage.games.errors.WrongStatus`.  The writes a running game's
actions make go through :class:`storage.games.writer.GameWriter` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.backend import Connection, Row
from storage.games.errors import TARGET_TEXT, GameNotFound, NotSeated, SeatTaken, WrongStatus
from storage.games.records import Controller, GameRecord, GameStatus, SeatRecord
from storage.games.rows import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    StorePart,
    as_game,
    as_seat,
    check_status,
    dumps,
    explain_refusal,
    fetch_one,
    locked_status,
    placeholders,
    sources_for,
)

__all__ = ["GameLifecycle"]


class GameLifecycle(StorePart):
    """Creating, seating, starting, ending and deleting games."""

    # ---- games

    async def create_game(
        self,
        *,
        engine: str,
        engine_revision: int,
        options: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator_id: int,
        now: float,
        table_options: dict[str, Any] | None = None,
    ) -> GameRecord:
        """A new game in status ``lobby``, version 0, with no seats."""
        options_json = dumps(options)
        table_json = dumps(table_options or {})
        async with self.db.transaction() as conn:
            row = await fetch_one(
                conn,
                "INSERT INTO games (engine, engine_revision, options, status, version, "
                "guild_id, channel_id, thread_id, creator_id, created_at, updated_at, "
                "table_options) "
                f"VALUES (?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
                (
                    engine,
                    engine_revision,
                    options_json,
                    guild_id,
                    channel_id,
                    thread_id,
                    creator_id,
                    now,
                    now,
                    table_json,
                ),
            )
        assert row is not None
        return as_game(row)
    async def delete_game(self, game_id: int) -> None:
        """Delete a game with its seats, log, snapshots and messages. No error if absent."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # ---- seats

    async def add_seat(
        self,
        game_id: int,
        user_id: int,
        display_name: str,
        now: float,
        controller: Controller = "human",
    ) -> SeatRecord:
        """Seat *user_id* at the next free seat of a lobby (``controller``
        ``auto``: an automatic player asked for in the lobby, with an id from
        :func:`automatic_player_id`).

        Raises :class:`GameNotFound`, :class:`WrongStatus` (not a lobby) or
        :class:`SeatTaken` (already seated).
        """
        async with self.db.transaction() as conn:
            status = await locked_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "take new players")
            taken = await fetch_one(
                conn,
                "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            if taken is not None:
                raise SeatTaken(game_id, user_id, int(taken["seat"]))
            row = await fetch_one(
                conn,
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, controller) "
                "SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ?, ?, ? FROM seats WHERE game_id = ? "
                f"RETURNING {SEAT_COLUMNS}",
                (game_id, user_id, display_name, now, controller, game_id),
            )
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
        assert row is not None
        return as_seat(row)

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Unseat *user_id* from a lobby; the others are renumbered 0..n-1 in order.

        Raises :class:`GameNotFound`, :class:`WrongStatus` (not a lobby) or
        :class:`NotSeated`.
        """
        async with self.db.transaction() as conn:
            status = await locked_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "have its seats changed")
            seated = await self._seat_rows(conn, game_id)
            if all(int(r["user_id"]) != user_id for r in seated):
                raise NotSeated(game_id, user_id)
            await self._rewrite_seats(
                conn, game_id, [r for r in seated if int(r["user_id"]) != user_id]
            )

    async def set_seat_order(self, game_id: int, user_ids: Sequence[int]) -> None:
        """Reorder a lobby's seats: *user_ids* lists every seated player once, new seat 0 first.

        Raises :class:`GameNotFound`, :class:`WrongStatus` (not a lobby),
        :class:`NotSeated` (an id without a seat) or :class:`ValueError` (a
        seated player missing, or an id given twice).
        """
        async with self.db.transaction() as conn:
            status = await locked_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "have its seats changed")
            seated = {int(r["user_id"]): r for r in await self._seat_rows(conn, game_id)}
            for uid in user_ids:
                if uid not in seated:
                    raise NotSeated(game_id, uid)
            if len(user_ids) != len(seated) or len(set(user_ids)) != len(user_ids):
                raise ValueError(
                    f"set_seat_order must list each of the {len(seated)} seated players "
                    f"of game #{game_id} exactly once, got {list(user_ids)}"
                )
            await self._rewrite_seats(conn, game_id, [seated[uid] for uid in user_ids])

    @staticmethod
    async def _seat_rows(conn: Connection, game_id: int) -> list[Row]:
        return list(
            await conn.execute_fetchall(
                "SELECT seat, user_id, display_name, joined_at, controller FROM seats "
                "WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        )

    @staticmethod
    async def _rewrite_seats(conn: Connection, game_id: int, ordered: Sequence[Row]) -> None:
        # Delete and re-insert: shifting seat numbers in place can collide on the
        # primary key half-way through, depending on the order rows are visited.
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, controller) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    n,
                    int(r["user_id"]),
                    str(r["display_name"]),
                    float(r["joined_at"]),
                    str(r["controller"]),
                )
                for n, r in enumerate(ordered)
            ],
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> GameRecord:
        """Set the Discord thread a game is played in (None: its channel).
        Raises :class:`GameNotFound`."""
        async with self.db.transaction() as conn:
            row = await fetch_one(
                conn,
                f"UPDATE games SET thread_id = ? WHERE id = ? RETURNING {GAME_COLUMNS}",
                (thread_id, game_id),
            )
        if row is None:
            raise GameNotFound(game_id)
        return as_game(row)

    # ---- status

    async def start(self, game_id: int, now: float) -> GameRecord:
        """``lobby -> active``. Raises :class:`WrongStatus` if it is not a lobby."""
        return await self._transition(game_id, "active", now, None, sources=["lobby"])

    async def set_status(
        self,
        game_id: int,
        status: GameStatus,
        now: float,
        outcome: dict[str, Any] | None = None,
    ) -> GameRecord:
        """Move a game forward to *status*; *outcome* (if given) replaces the stored one.

        Raises :class:`GameNotFound`, or :class:`WrongStatus` if the move is not
        forward (same status, back to lobby, or out of a final status).
        """
        target = check_status(status)
        return await self._transition(
            game_id, target, now, outcome, sources=sources_for(target, allow_same=False)
        )

    async def _transition(
        self,
        game_id: int,
        target: GameStatus,
        now: float,
        outcome: dict[str, Any] | None,
        *,
        sources: Sequence[GameStatus],
    ) -> GameRecord:
        outcome_json = None if outcome is None else dumps(outcome)
        async with self.db.transaction() as conn:
            row = None
            if sources:
                row = await fetch_one(
                    conn,
                    "UPDATE games SET status = ?, updated_at = ?, outcome = COALESCE(?, outcome) "
                    f"WHERE id = ? AND status IN ({placeholders(sources)}) "
                    f"RETURNING {GAME_COLUMNS}",
                    (target, now, outcome_json, game_id, *sources),
                )
            if row is None:
                await explain_refusal(
                    conn, game_id, expected_version=None, what=TARGET_TEXT[target]
                )
        return as_game(row)
