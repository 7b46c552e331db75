"""Reading the run back: the database at the end, the journals, and the
findings (the games the notes name) written beside them.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.tools.loadtest.checks import (
    LEFT_EVENT,
    GameLog,
    LogEntry,
    Notes,
    SeatAtEnd,
    TableAtEnd,
    TimerAtEnd,
)


@dataclass(frozen=True)
class GameFacts:
    """A game's row and seats at the end."""

    status: str
    version: int
    clocked: bool
    paused: bool
    seats: tuple[SeatAtEnd, ...]


@dataclass
class EndState:
    """The database at the end of a run."""

    log: list[LogEntry]
    games: list[GameLog]
    facts: dict[int, GameFacts]
    timers: list[TimerAtEnd]

    @property
    def active(self) -> set[int]:
        return {g for g, f in self.facts.items() if f.status == "active"}

    def tables(self, states: Mapping[int, Any]) -> list[TableAtEnd]:
        """Each game as it waits, from the states its log replays to."""
        from bot.engines import get_engine
        from bot.engines.core import CHANCE, owed_decisions

        of_game: dict[int, list[TimerAtEnd]] = defaultdict(list)
        for t in self.timers:
            of_game[t.game].append(t)
        tables = []
        for game in self.games:
            facts, state = self.facts[game.game], states.get(game.game)
            engine = get_engine(game.engine)
            # A log that does not replay is counted there, not here too.
            active = facts.status == "active" and state is not None
            awaited: frozenset[int] = frozenset()
            chance = False
            if active:
                public, private = owed_decisions(engine, state)
                awaited = frozenset(public | private) - {CHANCE}
                chance = engine.to_move(state) == frozenset({CHANCE})
            tables.append(
                TableAtEnd(
                    game=game.game,
                    active=active,
                    clocked=facts.clocked,
                    paused=facts.paused,
                    chance_to_move=chance,
                    awaited=awaited,
                    seats=facts.seats,
                    clock_timers=frozenset(
                        t.seat
                        for t in of_game[game.game]
                        if t.kind == "clock" and t.version == facts.version
                    ),
                    void_timers=any(t.version != facts.version for t in of_game[game.game]),
                    left_logged=frozenset(
                        actor for _, actor, action in game.entries if action.startswith(LEFT_EVENT)
                    ),
                )
            )
        return tables


async def read_back(target: str) -> EndState:
    from bot.timekeeping import TableOptions
    from storage.opening import open_database

    db = await open_database(target)
    try:
        async with db.read() as conn:
            game_rows = await conn.execute_fetchall(
                "SELECT id, engine, options, table_options, status, version, paused_at "
                "FROM games WHERE status <> 'lobby' ORDER BY id",
                (),
            )
            seat_rows = await conn.execute_fetchall(
                "SELECT game_id, seat, user_id, controller FROM seats ORDER BY game_id, seat", ()
            )
            action_rows = await conn.execute_fetchall(
                "SELECT game_id, seq, actor, action, created_at FROM actions ORDER BY game_id, seq",
                (),
            )
            snapshot_rows = await conn.execute_fetchall(
                "SELECT game_id, seq, state FROM snapshots", ()
            )
            timer_rows = await conn.execute_fetchall(
                "SELECT game_id, kind, seat, due, version, lease_until FROM timers", ()
            )
    finally:
        await db.close()
    log = [LogEntry(int(r[0]), int(r[1]), int(r[2]), str(r[3]), float(r[4])) for r in action_rows]
    entries: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for e in log:
        entries[e.game].append((e.seq, e.actor, e.action))
    snapshots: dict[int, dict[int, Any]] = defaultdict(dict)
    for r in snapshot_rows:
        snapshots[int(r[0])][int(r[1])] = json.loads(r[2])
    seats: dict[int, list[SeatAtEnd]] = defaultdict(list)
    for r in seat_rows:
        seats[int(r[0])].append(SeatAtEnd(int(r[1]), int(r[2]), str(r[3]) == "auto"))
    timers = [
        TimerAtEnd(
            int(r[0]),
            str(r[1]),
            int(r[2]),
            float(r[3]),
            int(r[4]),
            None if r[5] is None else float(r[5]),
        )
        for r in timer_rows
    ]
    games: list[GameLog] = []
    facts: dict[int, GameFacts] = {}
    for r in game_rows:
        game_id = int(r[0])
        games.append(
            GameLog(
                game=game_id,
                engine=str(r[1]),
                seats=len(seats[game_id]),
                options=json.loads(r[2]),
                entries=entries[game_id],
                snapshots=snapshots[game_id],
            )
        )
        facts[game_id] = GameFacts(
            status=str(r[4]),
            version=int(r[5]),
            clocked=TableOptions.from_json(json.loads(r[3])).clock is not None,
            paused=r[6] is not None,
            seats=tuple(seats[game_id]),
        )
    return EndState(log, games, facts, timers)


def write_findings(path: Path, notes: Notes, end: EndState) -> None:
    """The games the notes name, as the database left them (their log,
    seats and timers): a throwaway server's data is gone after the run."""
    named = {
        int(m[1]) for lines in notes.values() for line in lines if (m := GAME_NOTE.match(line))
    }
    games = {
        game: {
            "facts": repr(end.facts.get(game)),
            "log": [[e.seq, e.actor, e.action, e.at] for e in end.log if e.game == game],
            "timers": [repr(t) for t in end.timers if t.game == game],
        }
        for game in sorted(named)
    }
    path.write_text(json.dumps({"notes": notes, "games": games}, indent=1), encoding="utf-8")


GAME_NOTE = re.compile(r"game (\d+)")


def read_journals(folder: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for path in sorted(folder.glob("journal-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(json.JSONDecodeError):  # a line cut by SIGKILL
                records.append(json.loads(line))
    return records
