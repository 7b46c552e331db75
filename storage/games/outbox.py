"""What the game store keeps of Discord: the messages a game tracks (its
lobby, its board), what was delivered to each target (the outbox), and
which process delivers a game (issue 20: several processes, migration 0009).
"""

from __future__ import annotations

import json

from storage.backend import INTEGRITY_ERRORS, for_update, is_foreign_key_violation
from storage.games.errors import GameNotFound
from storage.games.records import OutboxRow, storable_id
from storage.games.rows import StorePart, dumps, fetch_one

__all__ = ["GameOutbox"]


class GameOutbox(StorePart):
    """Tracked messages, the outbox, and the claims on a game's delivery."""

    # ---- tracked Discord messages

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        """Remember (or replace) the message of *kind* ('lobby', 'board', ...) for a game."""
        try:
            async with self.db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO messages (game_id, kind, channel_id, message_id) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                    "channel_id = excluded.channel_id, message_id = excluded.message_id",
                    (game_id, kind, channel_id, message_id),
                )
        except INTEGRITY_ERRORS as exc:
            if is_foreign_key_violation(exc):
                raise GameNotFound(game_id) from exc
            raise

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """``(channel_id, message_id)`` of the message of *kind*, or None."""
        if not storable_id(game_id):
            return None
        async with self.db.read() as conn:
            row = await fetch_one(
                conn,
                "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?",
                (game_id, kind),
            )
        return None if row is None else (int(row["channel_id"]), int(row["message_id"]))

    # ---- the outbox (what was delivered to Discord)

    async def outbox(self, game_id: int) -> dict[str, OutboxRow]:
        """The delivery rows of a game, by target."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT target, version, awaited, over, simultaneous, digest, notice FROM outbox "
                "WHERE game_id = ?",
                (game_id,),
            )
        return {
            str(r["target"]): OutboxRow(
                target=str(r["target"]),
                version=int(r["version"]),
                awaited=frozenset(int(s) for s in json.loads(r["awaited"])),
                over=bool(r["over"]),
                simultaneous=bool(r["simultaneous"]),
                digest=str(r["digest"]),
                notice=bool(r["notice"]),
            )
            for r in rows
        }

    async def set_outbox(
        self, game_id: int, row: OutboxRow, *, claimed_by: str | None = None
    ) -> bool:
        """Record a delivery (insert or replace the row of its target).
        With ``claimed_by``, only while that process holds the game's
        delivery (:meth:`claim_delivery`): False, and nothing written, once
        another process took it over (issue 20)."""
        values = (
            game_id,
            row.target,
            row.version,
            dumps(sorted(row.awaited)),
            int(row.over),
            int(row.simultaneous),
            row.digest,
            int(row.notice),
        )
        try:
            async with self.db.transaction() as conn:
                if claimed_by is not None:
                    # The claim's row stays locked until this commits (on
                    # PostgreSQL), so no takeover slips in between.
                    held = await conn.execute_fetchall(
                        "SELECT 1 FROM outbox_claims WHERE game_id = ? AND claimed_by = ?"
                        f"{for_update(conn)}",
                        (game_id, claimed_by),
                    )
                    if not list(held):
                        return False
                await conn.execute(
                    "INSERT INTO outbox "
                    "(game_id, target, version, awaited, over, simultaneous, digest, notice) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, target) DO UPDATE "
                    "SET version = excluded.version, awaited = excluded.awaited, "
                    "over = excluded.over, simultaneous = excluded.simultaneous, "
                    "digest = excluded.digest, notice = excluded.notice",
                    values,
                )
                return True
        except INTEGRITY_ERRORS as exc:
            if is_foreign_key_violation(exc):
                raise GameNotFound(game_id) from exc
            raise

    # ---- who delivers a game (issue 20: several processes, migration 0009)

    async def claim_delivery(self, game_id: int, owner: str, now: float, until: float) -> bool:
        """Make delivering the game ``owner``'s until ``until``: unless
        another process holds it (its lease not run out).  True if ``owner``
        holds it now (a claim it held already is extended)."""
        try:
            async with self.db.transaction() as conn:
                rows = await conn.execute_fetchall(
                    "INSERT INTO outbox_claims (game_id, claimed_by, lease_until) "
                    "VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                    "claimed_by = excluded.claimed_by, lease_until = excluded.lease_until "
                    "WHERE outbox_claims.claimed_by IS NULL OR outbox_claims.claimed_by = ? "
                    "OR outbox_claims.lease_until <= ? RETURNING game_id",
                    (game_id, owner, until, owner, now),
                )
                return bool(list(rows))
        except INTEGRITY_ERRORS as exc:
            if is_foreign_key_violation(exc):
                return False  # the game is gone: nothing to deliver
            raise

    async def release_delivery(
        self, game_id: int, owner: str, *, until: float | None = None
    ) -> bool:
        """``owner`` is done with the game's delivery: nobody holds it now;
        with ``until``, it keeps it that long instead (a retry is due then,
        and another process takes it over if this one is gone by then)."""
        async with self.db.transaction() as conn:
            if until is None:
                cursor = await conn.execute(
                    "UPDATE outbox_claims SET claimed_by = NULL, lease_until = NULL "
                    "WHERE game_id = ? AND claimed_by = ?",
                    (game_id, owner),
                )
            else:
                cursor = await conn.execute(
                    "UPDATE outbox_claims SET lease_until = ? WHERE game_id = ? AND claimed_by = ?",
                    (until, game_id, owner),
                )
            return cursor.rowcount == 1

    async def delivery_holder(self, game_id: int) -> tuple[str, float] | None:
        """Who holds the game's delivery and until when (None: nobody)."""
        async with self.db.read() as conn:
            row = await fetch_one(
                conn,
                "SELECT claimed_by, lease_until FROM outbox_claims WHERE game_id = ? "
                "AND claimed_by IS NOT NULL",
                (game_id,),
            )
        return None if row is None else (str(row["claimed_by"]), float(row["lease_until"]))

    async def claim_deliveries(
        self,
        owner: str,
        *,
        now: float,
        until: float,
        quiet_since: float,
        horizon: float,
        limit: int = 100,
    ) -> list[int]:
        """The delivery sweep's batch (issue 20), claimed for ``owner`` until
        ``until`` in one statement: games whose delivery a process claimed
        and lost with its lease (it died, or its retry never came), and
        games left behind (their board behind their version, or a turn DM
        or a follower's DM owed, as :meth:`games_behind`) that nobody holds and nobody changed
        since ``quiet_since`` (the process that made the change delivers
        it, a moment later), changed since ``horizon`` unless still active.
        On PostgreSQL the games being changed right now are passed over
        (``SKIP LOCKED``): they are their writers' to deliver."""
        async with self.db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "INSERT INTO outbox_claims (game_id, claimed_by, lease_until) "
                # Typed: PostgreSQL cannot tell a bare parameter's type here.
                "SELECT w.id, CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) "
                "FROM (SELECT g.id FROM games AS g "
                "WHERE g.status <> 'lobby' AND NOT EXISTS (SELECT 1 FROM outbox_claims AS c "
                "WHERE c.game_id = g.id AND c.claimed_by IS NOT NULL AND c.lease_until > ?) "
                "AND (EXISTS (SELECT 1 FROM outbox_claims AS c WHERE c.game_id = g.id "
                "AND c.claimed_by IS NOT NULL) OR (g.updated_at <= ? "
                "AND (g.status = 'active' OR g.updated_at >= ?) "
                "AND EXISTS (SELECT 1 FROM seats AS s WHERE s.game_id = g.id) AND ("
                "NOT EXISTS (SELECT 1 FROM outbox AS o WHERE o.game_id = g.id "
                "AND o.target = 'board' AND o.version >= g.version "
                "AND (o.over = 1 OR g.status NOT IN ('finished', 'abandoned'))) "
                "OR EXISTS (SELECT 1 FROM outbox AS t WHERE t.game_id = g.id "
                "AND (t.target LIKE 'turn:%' OR t.target LIKE 'follow:%') "
                "AND t.digest LIKE 'owed%')))) "
                f"ORDER BY g.id LIMIT ?{for_update(conn, skip_locked=True, of='g')}) AS w "
                "WHERE 1 = 1 ON CONFLICT (game_id) DO UPDATE SET "
                "claimed_by = excluded.claimed_by, lease_until = excluded.lease_until "
                "WHERE outbox_claims.claimed_by IS NULL OR outbox_claims.lease_until <= ? "
                "RETURNING game_id",
                (owner, until, now, quiet_since, horizon, limit, now),
            )
        return sorted(int(r["game_id"]) for r in rows)

    async def games_behind(self) -> list[int]:
        """Started games whose board is behind their version (or whose final
        board was never posted, or whose follower is owed a DM), by id: what
        delivery must catch up."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT g.id FROM games AS g LEFT JOIN outbox AS o "
                "ON o.game_id = g.id AND o.target = 'board' "
                "WHERE g.status <> 'lobby' AND (o.version IS NULL OR o.version < g.version "
                "OR (g.status IN ('finished', 'abandoned') AND o.over = 0) "
                # A follower's DM recorded as owed but not yet sent (issue 21).
                "OR EXISTS (SELECT 1 FROM outbox AS f WHERE f.game_id = g.id "
                "AND f.target LIKE 'follow:%' AND f.digest LIKE 'owed%')) "
                # A lobby everyone left is abandoned without seats or a board.
                "AND EXISTS (SELECT 1 FROM seats AS s WHERE s.game_id = g.id) ORDER BY g.id"
            )
        return [int(r["id"]) for r in rows]

    async def reset_outbox(self, game_id: int, target: str) -> None:
        """Forget what was delivered to *target* (``seat:<n>``): the next
        catch-up delivers it afresh, as to a new player.  No error if absent."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "DELETE FROM outbox WHERE game_id = ? AND target = ?", (game_id, target)
            )
