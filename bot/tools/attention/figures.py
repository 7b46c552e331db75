"""The figures: per person and per game, counted from what the fake Discord
recorded; :func:`measure` plays a scenario and counts it.
"""

from __future__ import annotations

import contextlib
import math
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bot.config import Settings
from bot.edge.client import ChaupalBot
from bot.engines.core import CHANCE, Seat, owed_decisions
from bot.replay import load_record, states
from bot.service import TABLE_EVENT, THINK_PAD
from bot.tools.attention.fake_discord import FakeClock, RecordingDiscord
from bot.tools.attention.play import SCENARIOS, Scenario, Table
from bot.tools.attention.recorded import JSON, SEAT_NONCE, Outgoing, source_of

NAMES: Final = ("Asha", "Bhima", "Chitra", "Dev", "Esha")


@dataclass
class SeatFigures:
    seat: Seat
    name: str
    owed: int = 0
    """Decisions owed: made, plus timed out."""
    timed_out: int = 0
    notifications: int = 0
    by_source: Counter[str] = field(default_factory=Counter)
    dms: int = 0
    dms_without_decision: int = 0

    @property
    def notifications_per_decision(self) -> float:
        return self.notifications / max(1, self.owed)

    @property
    def dms_without_decision_per_decision(self) -> float:
        return self.dms_without_decision / max(1, self.owed)

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "name": self.name,
            "owed_decisions": self.owed,
            "timed_out": self.timed_out,
            "notifications": self.notifications,
            "notifications_per_decision": round(self.notifications_per_decision, 3),
            "notifications_by_source": dict(self.by_source.most_common()),
            "dms": self.dms,
            "dms_without_decision": self.dms_without_decision,
            "dms_without_decision_per_decision": round(self.dms_without_decision_per_decision, 3),
        }


def percentile(samples: Sequence[float], q: float) -> float:
    """Nearest rank (``q`` in 0-1); 0 for no samples."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class GameFigures:
    scenario: str
    engine: str
    people: int
    bots: int
    seats: list[SeatFigures]
    """The people's seats (automatic seats owe nobody anything)."""
    finished: bool
    decisions: int
    versions: int
    lobby_chars: int
    rematch_chars: int | None
    lobby_edits: int
    lobby_edits_before_start: int
    boards_posted: int
    boards_edited_in_place: int
    """Edits that drew a new image on the board (the awaited seats only
    shrank or stayed)."""
    boards_stripped: int
    """Older boards edited to lose their buttons when a new one is posted."""
    auto_boards_with_choices: int
    """Boards posted or edited with choices (pick buttons, "Choose…",
    selects of moves) while only automatic seats were awaited."""
    auto_boards_with_components: int
    """The same with any component ("Show mine", "My turn" included)."""
    messages: Counter[str]
    """New messages by place (channel, dm, ephemeral)."""
    edits: Counter[str]
    waits: list[float]
    """A solo person's waits (seconds), from each decision until the bot
    awaited them again; 0 when their next decision came at once (the
    second die of their turn)."""
    waits_for_others: list[float]
    """The waits in which automatic seats moved."""
    wait_pad: float
    """The ``THINK_PAD`` added to waits per automatic move."""
    reopens: int
    refusals: int
    seconds: float
    """Wall-clock time of the measure."""

    def worst(self, attribute: str) -> float:
        values = [float(getattr(s, attribute)) for s in self.seats]
        return max(values, default=0.0)

    def mean(self, attribute: str) -> float:
        values = [float(getattr(s, attribute)) for s in self.seats]
        return sum(values) / max(1, len(values))

    @property
    def wait_p50(self) -> float:
        return percentile(self.waits, 0.5)

    @property
    def wait_p95(self) -> float:
        return percentile(self.waits, 0.95)

    @property
    def wait_max(self) -> float:
        return max(self.waits, default=0.0)

    def to_json(self) -> JSON:
        out: JSON = {
            "people": self.people,
            "bots": self.bots,
            "finished": self.finished,
            "decisions": self.decisions,
            "versions": self.versions,
            "notifications_per_decision": {
                "mean": round(self.mean("notifications_per_decision"), 3),
                "max": round(self.worst("notifications_per_decision"), 3),
            },
            "dms_without_decision_per_decision": {
                "mean": round(self.mean("dms_without_decision_per_decision"), 3),
                "max": round(self.worst("dms_without_decision_per_decision"), 3),
            },
            "lobby_edits": self.lobby_edits,
            "lobby_edits_before_start": self.lobby_edits_before_start,
            "lobby_chars": self.lobby_chars,
            "rematch_lobby_chars": self.rematch_chars,
            "boards_posted": self.boards_posted,
            "boards_edited_in_place": self.boards_edited_in_place,
            "boards_stripped_of_buttons": self.boards_stripped,
            "auto_boards_with_choices": self.auto_boards_with_choices,
            "auto_boards_with_components": self.auto_boards_with_components,
            "new_messages": sum(self.messages.values()),
            "new_messages_by_place": dict(self.messages),
            "edits": sum(self.edits.values()),
            "edits_by_place": dict(self.edits),
            "reopened_menus": self.reopens,
            "refused_menus": self.refusals,
            "seconds": round(self.seconds, 1),
            "players": [s.to_json() for s in self.seats],
        }
        if self.waits:
            others = self.waits_for_others
            out["solo_wait_s"] = {
                "waits": len(self.waits),
                "p50": round(self.wait_p50, 2),
                "p95": round(self.wait_p95, 2),
                "max": round(self.wait_max, 2),
                "waits_for_automatic_seats": len(others),
                "p50_for_automatic_seats": round(percentile(others, 0.5), 2),
                "p95_for_automatic_seats": round(percentile(others, 0.95), 2),
                "think_pad_per_automatic_move": self.wait_pad,
            }
        return out


def count(
    sent: Sequence[Outgoing],
    *,
    seats: Mapping[int, tuple[Seat, str]],
    owed: Mapping[Seat, int],
    owing_at: Callable[[int, Seat], bool],
) -> list[SeatFigures]:
    """Per person (``seats``: user id -> (seat, name)): notifications and
    DMs from what Discord received (``sent``), against the decisions they
    owed.  ``owing_at(version, seat)``: whether the seat owed a decision at
    that version, for a DM without a menu (a view of their own decision
    is part of it)."""
    figures = {
        uid: SeatFigures(seat, name, owed=owed.get(seat, 0)) for uid, (seat, name) in seats.items()
    }
    for out in sent:
        for uid in out.notified():
            if uid in figures:
                figures[uid].notifications += 1
                figures[uid].by_source[source_of(out)] += 1
        if out.new and out.place == "dm" and out.user_id in figures:
            mine = figures[out.user_id]
            mine.dms += 1
            if not out.has_select and not _about_a_decision(out, owing_at):
                mine.dms_without_decision += 1
    return sorted(figures.values(), key=lambda f: f.seat)


def _about_a_decision(out: Outgoing, owing_at: Callable[[int, Seat], bool]) -> bool:
    """A DM without a menu that still belongs to a decision: the seat's own
    view, or its "your turn", sent while that seat owed one."""
    found = SEAT_NONCE.match(out.nonce or "")
    return found is not None and owing_at(int(found[3]), int(found[2]))


async def measure(scenario: Scenario, folder: Path | None = None) -> GameFigures:
    """Play ``scenario`` to its end and count what it cost its people."""
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="attention-")))
        clock = FakeClock()
        bot = ChaupalBot(
            Settings(
                token=None,
                dev_guild_id=None,
                database=folder / f"{scenario.name}-{scenario.seed}.sqlite3",
                log_level="WARNING",
                snapshot_every=25,
                render_workers=0,
                # Automatic players search a twentieth of their budget, in a
                # thread, without the real pad (accounted for in the waits).
                think_workers=0,
                search_scale=0.05,
                think_pad=False,
            ),
            draw=random.Random(scenario.seed).random,
            sync_commands=False,
            clock=clock,
        )
        fake = await RecordingDiscord.start(bot, clock)
        try:
            people = [fake.member(NAMES[i]) for i in range(scenario.people)]
            table = Table(scenario, fake, people)
            await table.open()
            await table.play()
            await fake.settle()
            played = len(fake.sent)
            rematch = await table.rematch()
            return await _figures(table, fake.sent[:played], rematch, time.monotonic() - started)
        finally:
            await fake.close()


async def _figures(
    table: Table, sent: Sequence[Outgoing], rematch: Outgoing | None, seconds: float
) -> GameFigures:
    fake, game = table.fake, await table.game()
    record = await load_record(fake.bot.store, table.game_id)
    at_version: list[Any] = []
    for number, (_, _, before, after) in enumerate(states(record)):
        if number == 0:
            at_version.append(before)
        at_version.append(after)
    engine = game.engine

    def owing(version: int, seat: Seat) -> bool:
        if not 0 <= version < len(at_version):
            return False
        state = at_version[version]
        if engine.outcome(state) is not None:
            return False
        public, private = owed_decisions(engine, state)
        return seat in public | private

    people = {s.user_id: (s.seat, s.display_name) for s in game.seats if not s.automatic_player}
    owed: Counter[Seat] = Counter(d.seat for d in table.decisions)
    timeouts = [
        a.actor
        for a in record.actions
        if a.text.startswith((f"{TABLE_EVENT}timeout", f"{TABLE_EVENT}forfeit"))
    ]
    for seat in timeouts:
        owed[seat] += 1
    seats = count(sent, seats=people, owed=owed, owing_at=owing)
    for figures in seats:
        figures.timed_out = sum(1 for s in timeouts if s == figures.seat)

    automatic = {s.seat for s in game.seats if s.automatic_player}
    boards = [s for s in sent if s.board_version is not None]
    auto_choices = auto_components = 0
    for board in boards:
        _, version = board.board_version or (0, 0)
        if not 0 <= version < len(at_version):
            continue
        state = at_version[version]
        if engine.outcome(state) is not None:
            continue
        awaited = engine.waiting_on(state) - {CHANCE}
        if awaited and awaited <= automatic:
            auto_choices += board.shows_choices
            auto_components += bool(board.custom_ids)

    # The service pads only games that hide something (issue 30).
    pad = THINK_PAD[game.table.level] if game.hides_information else 0.0
    for wait in table.waits:
        moves = record.actions[wait.from_version : wait.to_version]
        wait.automatic_moves = sum(1 for a in moves if a.actor in automatic and not a.table_event)
        wait.pad = pad * wait.automatic_moves

    lobby_posts = [s for s in sent if s.message_id == table.lobby_id]
    first_start = next((s.seq for s in sent if s.board_version is not None), len(fake.sent))
    lobby_edits = [s for s in lobby_posts if not s.new]
    return GameFigures(
        scenario=table.scenario.name,
        engine=table.scenario.engine,
        people=table.scenario.people,
        bots=table.scenario.bots,
        seats=seats,
        finished=game.is_over and game.record.status == "finished",
        decisions=len(table.decisions),
        versions=game.version,
        lobby_chars=len(lobby_posts[0].content) if lobby_posts else 0,
        rematch_chars=len(rematch.content) if rematch is not None else None,
        lobby_edits=len(lobby_edits),
        lobby_edits_before_start=sum(1 for s in lobby_edits if s.seq < first_start),
        boards_posted=sum(1 for b in boards if b.new),
        boards_edited_in_place=sum(1 for b in boards if not b.new and b.uploaded),
        boards_stripped=sum(1 for b in boards if not b.new and not b.uploaded),
        auto_boards_with_choices=auto_choices,
        auto_boards_with_components=auto_components,
        messages=Counter(s.place for s in sent if s.new),
        edits=Counter(s.place for s in sent if not s.new),
        waits=[w.seconds for w in table.waits] if table.scenario.solo else [],
        waits_for_others=[w.seconds for w in table.waits if w.automatic_moves]
        if table.scenario.solo
        else [],
        wait_pad=pad,
        reopens=table.reopens,
        refusals=len(table.refusals),
        seconds=seconds,
    )


async def measure_all(
    scenarios: Sequence[Scenario] = SCENARIOS, progress: Callable[[str], None] | None = None
) -> dict[str, JSON]:
    """Every scenario's figures as JSON (the bench's ``attention`` section)."""
    report: dict[str, JSON] = {}
    for scenario in scenarios:
        if progress is not None:
            progress(f"attention: {scenario.name} through dispatch")
        report[scenario.name] = (await measure(scenario)).to_json()
    return report
