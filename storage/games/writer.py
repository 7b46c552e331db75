"""The game store's one writer with versions: everything one action
changes in a running game, written in one transaction guarded by the
version the action was computed against (issue 29).

A move is written with :meth:`GameWriter.commit` (or :meth:`GameWriter.append`,
the log alone), so a click on an old board gets
:class:`storage.games.errors.StaleVersion` and writes nothing; an action
that loses the race to another writer leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.backend import Connection
from storage.games.changes import (
    SEAT_PLAY,
    GameChange,
    NewEntry,
    SeatHandover,
    TakebackAskChange,
    UndoChange,
    Written,
)
from storage.games.errors import TARGET_TEXT, NotSeated, SeatTaken, StaleAsk
from storage.games.records import FINAL_STATUSES, LIVE_STATUSES, GameRecord, GameStatus
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
    placeholders,
    sources_for,
    stored_ask,
)
from storage.timekeeping import rewrite_timers

__all__ = ["GameWriter"]


def _check_entry(entry: NewEntry) -> None:
    if entry.actor < -1:
        raise ValueError(f"actor must be a seat or -1 (chance), got {entry.actor}")
    if entry.private_to is not None and entry.private_to < -1:
        raise ValueError(f"private_to must be None, a seat or -1, got {entry.private_to}")


async def _write_undo(conn: Connection, game_id: int, undo: UndoChange) -> None:
    """An :class:`UndoChange`, inside :meth:`GameStore.commit`'s transaction:
    the new point first, so that the chance written with its move forgets it."""
    point = undo.add
    if point is not None:
        clocks = {str(seat): list(pair) for seat, pair in sorted(point.clocks.items())}
        await conn.execute(
            "INSERT INTO undo_points (game_id, version, seat, user_id, clocks) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version) DO UPDATE SET "
            "seat = excluded.seat, user_id = excluded.user_id, clocks = excluded.clocks",
            (game_id, point.version, point.seat, point.user_id, dumps(clocks)),
        )
    if undo.forget_before is not None:
        await conn.execute(
            "DELETE FROM undo_points WHERE game_id = ? AND version < ?",
            (game_id, undo.forget_before),
        )
    if undo.forget_from is not None:
        await conn.execute(
            "DELETE FROM undo_points WHERE game_id = ? AND version >= ?",
            (game_id, undo.forget_from),
        )


async def _write_ask(conn: Connection, game_id: int, ask: TakebackAskChange) -> None:
    """A :class:`TakebackAskChange`, inside :meth:`GameStore.commit`'s
    transaction, which holds the game's row: the request stored must be the
    one the writer read, or nothing is written (:class:`StaleAsk`)."""
    if await stored_ask(conn, game_id) != ask.expected:
        raise StaleAsk(game_id)
    new = ask.new
    if new is None:
        await conn.execute("DELETE FROM takeback_asks WHERE game_id = ?", (game_id,))
        return
    await conn.execute(
        "INSERT INTO takeback_asks (game_id, seat, target, version, agreed, asked_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET seat = excluded.seat, "
        "target = excluded.target, version = excluded.version, agreed = excluded.agreed, "
        "asked_at = excluded.asked_at",
        (game_id, new.seat, new.target, new.version, dumps(sorted(new.agreed)), new.asked_at),
    )


class GameWriter(StorePart):
    """Appending to a running game's log, with all the action changes."""

    async def append(
        self,
        game_id: int,
        *,
        expected_version: int,
        entries: Sequence[NewEntry],
        now: float,
        snapshot: Any | None = None,
        status: GameStatus | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> GameRecord:
        """Append *entries* to the log of a live game, in one transaction: a
        :meth:`commit` of the log alone (see there)."""
        change = GameChange(entries=entries, snapshot=snapshot, status=status, outcome=outcome)
        written = await self.commit(
            game_id, expected_version=expected_version, change=change, now=now
        )
        return written.record

    async def commit(
        self, game_id: int, *, expected_version: int, change: GameChange, now: float
    ) -> Written:
        """Write one action's :class:`GameChange` to a live game, in one
        transaction guarded by the version (issue 29).

        The entries get seq ``expected_version + 1 .. expected_version + n`` and
        the game's version becomes ``expected_version + n``.  The snapshot (any
        JSON value) is stored at that new version; the status (a forward move,
        or the current live status), outcome, seats, hand-over, pause and
        timers are written in the same transaction.  A change without entries
        (clocks and timers set again) keeps the version, and is guarded by it
        all the same.

        Raises :class:`StaleVersion` if the game's version is not
        *expected_version*, :class:`GameNotFound`, :class:`WrongStatus` (the
        game is over, the status would go backwards, a hand-over outside an
        active game), :class:`NotSeated` or :class:`SeatTaken` (a hand-over
        whose seat changed hands, or whose new player already plays): nothing
        is written then.
        """
        entries = change.entries
        for entry in entries:
            _check_entry(entry)
        for columns in change.seats.values():
            unknown = set(columns) - SEAT_PLAY
            if unknown:
                raise ValueError(f"a game change cannot set the seats' {sorted(unknown)}")
        target = None if change.status is None else check_status(change.status)
        # A start is ``lobby -> active`` only: two starts racing at version
        # 0 (a game with no opening chance keeps it) must not both succeed.
        sources = (
            list(LIVE_STATUSES)
            if target is None
            else sources_for(target, allow_same=target != "active")
        )
        sources = [s for s in sources if s in LIVE_STATUSES]  # moves only in live games
        if change.handover is not None:
            sources = [s for s in sources if s == "active"]
        snapshot_json = None if change.snapshot is None else dumps(change.snapshot)
        outcome_json = None if change.outcome is None else dumps(change.outcome)
        n = len(entries)
        new_version = expected_version + n
        if change.handover is not None:
            what = "have a seat handed over"
        else:
            what = "record moves" if target is None else TARGET_TEXT[target]
        sets = [
            "version = version + ?",
            "updated_at = ?",
            "status = COALESCE(?, status)",
            "outcome = COALESCE(?, outcome)",
        ]
        values: list[Any] = [n, now, target, outcome_json]
        if change.pause is not None:
            sets.append("paused_at = ?")
            values.append(change.pause[0])

        async with self.db.transaction() as conn:
            row = None
            if sources:
                row = await fetch_one(
                    conn,
                    f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? "
                    f"AND status IN ({placeholders(sources)}) "
                    f"RETURNING {GAME_COLUMNS}",
                    (*values, game_id, expected_version, *sources),
                )
            if row is None:
                await explain_refusal(
                    conn, game_id, expected_version=expected_version, what=what
                )
            if change.handover is not None:
                await self._hand_over(conn, game_id, change.handover)
            for seat, columns in sorted(change.seats.items()):
                if not columns:
                    continue
                names = sorted(columns)
                await conn.execute(
                    f"UPDATE seats SET {', '.join(f'{c} = ?' for c in names)} "
                    "WHERE game_id = ? AND seat = ?",
                    (*(columns[c] for c in names), game_id, seat),
                )
            if entries:
                await conn.executemany(
                    "INSERT INTO actions (game_id, seq, actor, action, narration, private_to, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_id,
                            expected_version + i,
                            e.actor,
                            e.action,
                            e.narration,
                            e.private_to,
                            now,
                        )
                        for i, e in enumerate(entries, start=1)
                    ],
                )
            if snapshot_json is not None:
                await conn.execute(
                    "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state, "
                    "created_at = excluded.created_at",
                    (game_id, new_version, snapshot_json, now),
                )
            if change.undo is not None:
                await _write_undo(conn, game_id, change.undo)
            if change.ask is not None:
                await _write_ask(conn, game_id, change.ask)
            if target in FINAL_STATUSES:
                # A game that is over takes nothing back.
                await conn.execute("DELETE FROM undo_points WHERE game_id = ?", (game_id,))
                await conn.execute("DELETE FROM takeback_asks WHERE game_id = ?", (game_id,))
            timers_changed = (
                change.timers is not None
                and await rewrite_timers(conn, game_id, change.timers)
            )
            seat_rows = await conn.execute_fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return Written(as_game(row), [as_seat(r) for r in seat_rows], timers_changed)

    @staticmethod
    async def _hand_over(conn: Connection, game_id: int, handover: SeatHandover) -> None:
        """The seat passes to its new player (see :class:`SeatHandover`),
        inside :meth:`commit`'s transaction, which holds the game's row."""
        taken = await fetch_one(
            conn,
            "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
            (game_id, handover.new_user_id),
        )
        if taken is not None:
            raise SeatTaken(game_id, handover.new_user_id, int(taken["seat"]))
        cursor = await conn.execute(
            "UPDATE seats SET user_id = ?, display_name = ?, controller = 'human', "
            "left_order = NULL, timeouts = 0 WHERE game_id = ? AND seat = ? AND user_id = ?",
            (
                handover.new_user_id,
                handover.display_name,
                game_id,
                handover.seat,
                handover.old_user_id,
            ),
        )
        if cursor.rowcount != 1:
            raise NotSeated(game_id, handover.old_user_id)
        await conn.execute(
            "DELETE FROM outbox WHERE game_id = ? AND target = ?",
            (game_id, f"seat:{handover.seat}"),
        )
