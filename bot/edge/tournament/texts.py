"""What a tournament says, as text (pure): its settings, format and round
time, an announcement, a round's tables, the standings and their
tiebreaks, and a moderator's verdict read from what they typed."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.director import (
    FORMAT_TITLES,
    TIME_LOSSES_TO_DROP,
    planned_rounds,
)
from bot.engines import get_engine
from bot.engines.core import GameError, whole_number
from bot.outgoing import (
    clip,
    discord_time,
    format_points,
    plural,
    points_text,
    safe_name,
)
from bot.timekeeping import format_duration, parse_duration
from bot.tournament import standings
from renderers.standings import StandingRow
from storage.tournaments import (
    TournamentPlayer,
    TournamentRecord,
    TournamentTable,
)

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
TIEBREAK_TITLES: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: "Buchholz",
    standings.Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger",
    standings.Tiebreak.OPPONENTS_POINTS: "Opp. points",
    standings.Tiebreak.AVERAGE_PLACE: "Avg. place",
}
TIEBREAK_WORDS: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: "Buchholz",
    standings.Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger",
    standings.Tiebreak.OPPONENTS_POINTS: "opponents' points",
    standings.Tiebreak.AVERAGE_PLACE: "average place",
}
"""A tie-break in a standings line: its name, spelled out ("Bh 0 · SB 0"
told a newcomer nothing, issue 31)."""
TIEBREAK_MEANINGS: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: "the points of everyone you met, added up",
    standings.Tiebreak.SONNEBORN_BERGER: "the points of each player you beat, and half "
    "of each you drew",
    standings.Tiebreak.OPPONENTS_POINTS: "the others' mean points at each of your tables, added up",
    standings.Tiebreak.AVERAGE_PLACE: "your mean place at a table, lower first",
}
"""What each tie-break counts, for the line under the standings."""
MEDALS = ("🥇", "🥈", "🥉")
NAMES_SHOWN = 40
"""Names listed in an announcement before "…and N more"."""
NAMES_CHARS = 1200
"""…or fewer, so the announcement's other lines always fit."""
HEADINGS_KEPT = 4096
"""Games whose tournament heading is remembered (a bounded cache)."""
MENU_OPTIONS = 25
"""Discord's limit of options in one select menu."""
NO_ROUND_TIME = ("off", "none", "no")
"""What a moderator writes for no round deadline."""


def parse_round_time(text: str) -> float | None:
    """``7d``, ``36h`` (seconds), or ``off``/``none``: no deadline."""
    word = text.strip().lower()
    if word in NO_ROUND_TIME:
        return None
    return parse_duration(word, "A round time")


def describe_round_time(record: TournamentRecord) -> str:
    if record.round_time is None:
        return "none (a round lasts until its last game ends)"
    return (
        f"{format_duration(record.round_time)} (then the games still running are settled "
        "by the timeout policy and the next round starts)"
    )


def round_deadline(record: TournamentRecord) -> str | None:
    """When the round being played is settled, in each reader's own time
    zone (``<t:…:R> (<t:…:f>)``); None without a deadline."""
    if record.round_deadline is None or record.status != "running":
        return None
    return f"{discord_time(record.round_deadline)} ({discord_time(record.round_deadline, 'f')})"


def settings_text(record: TournamentRecord, entrants: int, policy: str) -> str:
    """What ``/tournament settings`` shows."""
    shown = {k: v for k, v in sorted(record.options.items()) if k != "rated"}
    options = ", ".join(f"{k}={v}" for k, v in shown.items()) or "none"
    size = "2" if record.table_size == 2 else f"{record.table_size} (pods)"
    lines = [
        f"🏆 **{safe_name(record.title)}** ({get_engine(record.engine).title}) — settings",
        f"Format: {describe_format(record, entrants)}.",
        f"Rounds: {record.rounds or 'as many as the format needs'}. Table size: {size}.",
        f"Game options: {options} (on timeout: {policy}; every game is rated).",
        f"Round time: {describe_round_time(record)}.",
    ]
    if (deadline := round_deadline(record)) is not None:
        lines.append(f"Round {record.round} is settled {deadline}.")
    lines.append(
        "Auto-drop: "
        + (
            f"on (a player who loses {TIME_LOSSES_TO_DROP} games in a row on time is dropped)."
            if record.auto_drop
            else "off."
        )
    )
    return clip("\n".join(lines))


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def name_list(names: Sequence[str], limit: int = NAMES_SHOWN, chars: int = NAMES_CHARS) -> str:
    """Names, escaped and bold, at most ``limit`` of them and about
    ``chars`` characters, then "…and N more"."""
    shown: list[str] = []
    used = 0
    for name in names[:limit]:
        entry = f"**{safe_name(name)}**"
        if shown and used + len(entry) + 2 > chars:
            break
        shown.append(entry)
        used += len(entry) + 2
    text = ", ".join(shown)
    if len(names) > len(shown):
        text += f" …and {len(names) - len(shown)} more"
    return text or "nobody yet"


def describe_format(record: TournamentRecord, entrants: int) -> str:
    """``Swiss, 3 rounds, tables of 2`` (the rounds as they stand now)."""
    fmt = FORMAT_TITLES[record.format]
    rounds = planned_rounds(record, entrants)
    if record.format in ("round_robin", "elimination") or not record.rounds:
        count = (
            f"{plural(rounds, 'round')} with {plural(entrants, 'player')}"
            if entrants >= 2
            else "rounds as needed"
        )
    else:
        count = plural(rounds, "round")
    tables = "two players a game" if record.table_size == 2 else f"tables of {record.table_size}"
    return f"{fmt}, {count}, {tables}"


def heading_of(record: TournamentRecord, table: TournamentTable) -> str:
    return f"🏆 {safe_name(record.title)} — round {table.round}, table {table.number}"


def announcement_text(
    record: TournamentRecord, players: Sequence[TournamentPlayer], *, status: str = ""
) -> str:
    engine = get_engine(record.engine)
    named = f"**{safe_name(record.name)}**, " if record.name else ""
    lines = [
        f"🏆 {named}tournament #{record.id} of **{engine.title}**",
        f"Format: {describe_format(record, len(players))}.",
    ]
    shown = {k: v for k, v in sorted(record.options.items()) if k != "rated"}
    if shown:
        lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in shown.items()) + ".")
    if record.round_time is not None:
        lines.append(
            f"Each round lasts at most {format_duration(record.round_time)}: then the games "
            "still running are settled by the timeout policy."
        )
    active = [p.display_name for p in players if p.active]
    lines.append(f"Players ({len(active)}): {name_list(active)}")
    if record.status == "open":
        lines.append(
            "Press **Join** to enter (or `/tournament join`). A moderator starts it with "
            "`/moderate tournament start`; every game is rated."
        )
    elif status:
        lines.append(status)
    return clip("\n".join(lines))


def table_line(
    table: TournamentTable, names: Mapping[int, str], where: str = "", *, ended: bool = False
) -> str:
    """``Table 2: **A** vs **B** — in <#thread>`` or the result."""
    if table.is_bye:
        return f"Bye: **{safe_name(names[table.seats[0]])}** (a win's points)"
    if table.places is None:
        seated = (" vs " if len(table.seats) == 2 else ", ").join(
            f"**{safe_name(names[u])}**" for u in table.seats
        )
        state = "ended without a result" if ended else f"playing {where}".rstrip()
        return f"Table {table.number}: {seated} — {state}"
    order = sorted(range(len(table.seats)), key=lambda seat: table.places[seat])  # type: ignore[index]
    places = table.places
    judged = " (adjudicated)" if table.adjudicated else ""
    if len(table.seats) == 2:
        a, b = (f"**{safe_name(names[u])}**" for u in table.seats)
        if places[0] == places[1]:
            said = f"{a} and {b} drew"
        else:
            winner, loser = (a, b) if places[0] < places[1] else (b, a)
            said = f"{winner} beat {loser}"
    else:
        said = ", ".join(
            f"{ordinal(1 + sum(p < places[seat] for p in places))} "
            f"**{safe_name(names[table.seats[seat]])}**"
            for seat in order
        )
    return f"Table {table.number}: {said}{judged}"


def standing_rows(
    table: Sequence[standings.Standing], players: Mapping[int, TournamentPlayer]
) -> list[StandingRow]:
    return [
        StandingRow(
            rank=s.rank,
            name=players[s.player].display_name if s.player in players else f"Player {s.player}",
            points=s.points,
            tiebreaks=tuple(value for _, value in s.tiebreaks),
            games=s.games,
            byes=s.byes,
            dropped=s.player in players and not players[s.player].active,
        )
        for s in table
    ]


def tiebreak_legend(kinds: Sequence[standings.Tiebreak]) -> str:
    """The line under the standings saying what breaks a tie, in order."""
    if not kinds:
        return ""
    said = [f"{TIEBREAK_WORDS[kind]} ({TIEBREAK_MEANINGS[kind]})" for kind in kinds]
    return "Equal points are split by " + ", then by ".join(said) + "."


def standings_text(
    title: str, table: Sequence[standings.Standing], players: Mapping[int, TournamentPlayer]
) -> str:
    """The standings as lines, cut to fit one message (the image has all),
    with each tie-break named and, under them, what it counts."""
    lines = [title]
    legend = tiebreak_legend([kind for kind, _ in table[0].tiebreaks]) if table else ""
    budget = 1900 - len(title) - len(legend)
    for shown, row in enumerate(table):
        name = players[row.player].display_name if row.player in players else "?"
        dropped = " (dropped)" if row.player in players and not players[row.player].active else ""
        breaks = " · ".join(
            f"{TIEBREAK_WORDS[kind]} {'–' if value == float('inf') else format_points(value)}"
            for kind, value in row.tiebreaks
        )
        line = f"{row.rank}. **{safe_name(name)}**{dropped} — {points_text(row.points)}" + (
            f" · {breaks}" if breaks else ""
        )
        if len(line) + 1 > budget:
            lines.append(f"…and {len(table) - shown} more in the image.")
            break
        budget -= len(line) + 1
        lines.append(line)
    if legend:
        lines.append(legend)
    return clip("\n".join(lines))


def _round_done(tables: Sequence[TournamentTable]) -> int:
    """1 when every table of the round has its result."""
    return int(all(t.places is not None for t in tables))


_PLACE = re.compile(r"[0-9]+")
_PLACES = re.compile(r"[0-9]+(?:(?:\s*,\s*|\s+-\s+|-|\s+)[0-9]+)*")
"""Places in seat order: ``2 1 3``, ``2,1``, ``2-1`` or ``2 - 1``."""


def parse_places(text: str, table: TournamentTable, names: Mapping[int, str]) -> tuple[int, ...]:
    """A moderator's verdict for a table: ``draw``, a winner's name (at two
    seats), or one place per seat in seat order (``2 1 3``)."""
    said = text.strip()
    seats = table.seats
    order = ", ".join(f"{i + 1}. {safe_name(names.get(u, '?'))}" for i, u in enumerate(seats))
    if said.lower() in ("draw", "tie", "½-½", "1/2-1/2"):
        return (1,) * len(seats)
    if _PLACES.fullmatch(said):
        # ASCII digits only (``²``, ``①`` and ``٣`` are not places), and a
        # hyphen only between two places: ``-2 -1`` and ``1 -2`` are signs.
        found = [whole_number(part) for part in _PLACE.findall(said)]
        places = tuple(p for p in found if p is not None)
        if (
            len(places) == len(found) == len(seats)
            and all(1 <= p <= len(seats) for p in places)
            and min(places) == 1
        ):
            return places
    if len(seats) == 2:
        wanted = said.lstrip("@").casefold()
        for seat, user in enumerate(seats):
            if wanted and (
                wanted == names.get(user, "").casefold() or said.strip("<@!>") == str(user)
            ):
                return (1, 2) if seat == 0 else (2, 1)
    raise GameError(
        "Give the result as `draw`, "
        + ("the winner's name, " if len(seats) == 2 else "")
        + f"or one place per seat in seat order ({order}), e.g. "
        + f"`{' '.join(str(i + 1) for i in range(len(seats)))}`."
    )


__all__ = [
    "announcement_text",
    "parse_places",
    "standings_text",
    "table_line",
]
