"""What the workers journal, and how the checks read it back: the records of
a click, a write about to be made and its outcome, a reply; the journal file.

The worker writes these records and the checks read them back; the tests
build journals with the same functions, so the two cannot drift apart.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

DISCORD_EPOCH_MS = 1_420_070_400_000


def click_record(interaction: int, game: int, seat: int, version: int) -> dict[str, Any]:
    """A click handed to discord.py: whose move, at which version."""
    return {"click": interaction, "g": game, "seat": seat, "v": version}


def commit_record(
    key: str,
    game: int,
    start: int,
    entries: Sequence[tuple[int, str]],
    interaction: int | None = None,
    timer: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """A write to a game's log about to be made: its entries (actor, action
    text), applied at version ``start`` (they become seqs ``start + 1 …``),
    for a click (``interaction``) or a timer (its identity)."""
    return {
        "commit": key,
        "g": game,
        "at": start,
        "e": [[actor, action] for actor, action in entries],
        "i": interaction,
        "t": None if timer is None else list(timer),
    }


def outcome_record(
    key: str, version: int | None = None, error: str | None = None
) -> dict[str, Any]:
    """How the write ``key`` ended: returned (the game's new version), or
    raised ``error`` (an exception's class name)."""
    if version is not None:
        return {"stored": key, "v": version}
    return {"failed": key, "err": error}


def reply_record(interaction: int, text: str) -> dict[str, Any]:
    """A reply sent to a click (what the player read)."""
    return {"reply": interaction, "text": text[:100]}


REFUSED_WRITES = frozenset(
    {"StaleVersion", "WrongStatus", "GameNotFound", "NotSeated", "SeatTaken"}
)
"""A write that raised one of these wrote nothing (the store's contract);
any other exception (a cancelled task, a lost connection) may have come
after the commit."""


@dataclass(frozen=True)
class Click:
    interaction: int
    game: int
    seat: int
    version: int


@dataclass(frozen=True)
class Commit:
    """A write to a game's log, as its worker journalled it."""

    game: int
    start: int
    entries: tuple[tuple[int, str], ...]
    interaction: int | None = None
    timer: tuple[Any, ...] | None = None
    outcome: Literal["stored", "refused", "unknown"] = "unknown"
    """``stored``: the write returned; ``refused``: the version guard (or
    the game's status) refused it, nothing was written; ``unknown``: the
    process died or the write failed otherwise."""


@dataclass
class Journalled:
    """What the workers' journals say happened, besides Discord requests."""

    clicks: dict[int, Click] = field(default_factory=dict)
    commits: list[Commit] = field(default_factory=list)
    replies: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))


def parse_journal(records: Iterable[Mapping[str, Any]]) -> Journalled:
    found = Journalled()
    pending: dict[str, dict[str, Any]] = {}
    outcomes: dict[str, Literal["stored", "refused", "unknown"]] = {}
    for record in records:
        if "click" in record:
            click = Click(
                int(record["click"]), int(record["g"]), int(record["seat"]), int(record["v"])
            )
            found.clicks[click.interaction] = click
        elif "commit" in record:
            pending[str(record["commit"])] = dict(record)
        elif "stored" in record:
            outcomes[str(record["stored"])] = "stored"
        elif "failed" in record:
            error = str(record.get("err"))
            outcomes[str(record["failed"])] = "refused" if error in REFUSED_WRITES else "unknown"
        elif "reply" in record:
            found.replies[int(record["reply"])].append(str(record.get("text") or ""))
    for key, record in pending.items():
        found.commits.append(
            Commit(
                game=int(record["g"]),
                start=int(record["at"]),
                entries=tuple((int(a), str(t)) for a, t in record["e"]),
                interaction=None if record.get("i") is None else int(record["i"]),
                timer=None if record.get("t") is None else tuple(record["t"]),
                outcome=outcomes.get(key, "unknown"),
            )
        )
    return found


class Journal:
    """Every request a worker made to Discord, one JSON line each, written
    (and flushed) before the answer: a line is a request Discord accepted.
    Also the worker's writes and replies (see :func:`commit_record`)."""

    def __init__(self, path: Path, worker: int) -> None:
        self.worker = worker
        self._out: TextIO = path.open("a", buffering=1, encoding="utf-8")
        self._count = 0

    def write(self, **record: Any) -> None:
        record["w"] = self.worker
        record["ts"] = round(time.time(), 4)
        self._out.write(json.dumps(record, separators=(",", ":")) + "\n")

    def snowflake(self) -> int:
        self._count += 1
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | ((self.worker & 0x1F) << 17) | (self._count & 0x1FFFF)
