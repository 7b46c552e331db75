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
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, N_, t, tn
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
    standings.Tiebreak.BUCHHOLZ: N_("Buchholz"),
    standings.Tiebreak.SONNEBORN_BERGER: N_("Sonneborn-Berger"),
    standings.Tiebreak.OPPONENTS_POINTS: N_("Opp. points"),
    standings.Tiebreak.AVERAGE_PLACE: N_("Avg. place"),
}
TIEBREAK_WORDS: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: N_("Buchholz"),
    standings.Tiebreak.SONNEBORN_BERGER: N_("Sonneborn-Berger"),
    standings.Tiebreak.OPPONENTS_POINTS: N_("opponents' points"),
    standings.Tiebreak.AVERAGE_PLACE: N_("average place"),
}
"""A tie-break in a standings line: its name, spelled out ("Bh 0 · SB 0"
told a newcomer nothing, issue 31)."""
TIEBREAK_MEANINGS: dict[standings.Tiebreak, str] = {
    standings.Tiebreak.BUCHHOLZ: N_("the points of everyone you met, added up"),
    standings.Tiebreak.SONNEBORN_BERGER: N_(
        "the points of each player you beat, and half of each you drew"
    ),
    standings.Tiebreak.OPPONENTS_POINTS: N_(
        "the others' mean points at each of your tables, added up"
    ),
    standings.Tiebreak.AVERAGE_PLACE: N_("your mean place at a table, lower first"),
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


def describe_round_time(record: TournamentRecord, lang: str = DEFAULT) -> str:
    if record.round_time is None:
        return t(lang, "none (a round lasts until its last game ends)")
    return t(
        lang,
        "{duration} (then the games still running are settled by the timeout policy and "
        "the next round starts)",
        duration=format_duration(record.round_time),
    )


def round_deadline(record: TournamentRecord) -> str | None:
    """When the round being played is settled, in each reader's own time
    zone (``<t:…:R> (<t:…:f>)``); None without a deadline."""
    if record.round_deadline is None or record.status != "running":
        return None
    return f"{discord_time(record.round_deadline)} ({discord_time(record.round_deadline, 'f')})"


def title_in(record: TournamentRecord, lang: str = DEFAULT) -> str:
    """:attr:`TournamentRecord.title` in ``lang``: the moderator's name for
    it, or ``tournament #N``."""
    if record.name or lang == DEFAULT:
        return record.title
    return t(lang, "tournament #{id}", id=record.id)


def heading_in(record: TournamentRecord, lang: str = DEFAULT) -> str:
    """:attr:`TournamentRecord.heading` (the title to begin a sentence) in ``lang``."""
    if record.name or lang == DEFAULT:
        return record.heading
    return t(lang, "Tournament #{id}", id=record.id)


def format_title(format: str, lang: str = DEFAULT) -> str:
    """A format's name (``Swiss``) in ``lang``."""
    return t(lang, FORMAT_TITLES[format])


def points_in(value: float, lang: str = DEFAULT) -> str:
    """:func:`bot.outgoing.points_text` in ``lang``: ``1 point``, ``3½ points``."""
    if lang == DEFAULT:
        return points_text(value)
    if 0 < abs(value) <= 1:
        return t(lang, "{points} point", points=format_points(value))
    return t(lang, "{points} points", points=format_points(value))


def settings_text(record: TournamentRecord, entrants: int, policy: str, lang: str = DEFAULT) -> str:
    """What ``/tournament settings`` shows."""
    shown = {k: v for k, v in sorted(record.options.items()) if k != "rated"}
    options = ", ".join(f"{k}={v}" for k, v in shown.items()) or t(lang, "none")
    size = "2" if record.table_size == 2 else t(lang, "{n} (pods)", n=record.table_size)
    rounds = record.rounds or t(lang, "as many as the format needs")
    lines = [
        t(
            lang,
            "🏆 **{title}** ({game}) — settings",
            title=safe_name(title_in(record, lang)),
            game=t(lang, get_engine(record.engine).title),
        ),
        t(lang, "Format: {format}.", format=describe_format(record, entrants, lang)),
        t(lang, "Rounds: {rounds}. Table size: {size}.", rounds=rounds, size=size),
        t(
            lang,
            "Game options: {options} (on timeout: {policy}; every game is rated).",
            options=options,
            policy=policy,
        ),
        t(lang, "Round time: {time}.", time=describe_round_time(record, lang)),
    ]
    if (deadline := round_deadline(record)) is not None:
        lines.append(
            t(lang, "Round {round} is settled {deadline}.", round=record.round, deadline=deadline)
        )
    lines.append(
        t(
            lang,
            "Auto-drop: on (a player who loses {n} games in a row on time is dropped).",
            n=TIME_LOSSES_TO_DROP,
        )
        if record.auto_drop
        else t(lang, "Auto-drop: off.")
    )
    return clip("\n".join(lines))


def ordinal(n: int, lang: str = DEFAULT) -> str:
    if lang != DEFAULT:
        return t(lang, "{n}th", n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def name_list(
    names: Sequence[str],
    limit: int = NAMES_SHOWN,
    chars: int = NAMES_CHARS,
    lang: str = DEFAULT,
) -> str:
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
        text += " " + t(lang, "…and {n} more", n=len(names) - len(shown))
    return text or t(lang, "nobody yet")


def describe_format(record: TournamentRecord, entrants: int, lang: str = DEFAULT) -> str:
    """``Swiss, 3 rounds, tables of 2`` (the rounds as they stand now)."""
    fmt = format_title(record.format, lang)
    rounds = planned_rounds(record, entrants)
    if lang == DEFAULT:
        if record.format in ("round_robin", "elimination") or not record.rounds:
            count = (
                f"{plural(rounds, 'round')} with {plural(entrants, 'player')}"
                if entrants >= 2
                else "rounds as needed"
            )
        else:
            count = plural(rounds, "round")
    elif (record.format in ("round_robin", "elimination") or not record.rounds) and entrants < 2:
        count = t(lang, "rounds as needed")
    else:
        count = tn(lang, "{n} round", "{n} rounds", rounds)
        if record.format in ("round_robin", "elimination") or not record.rounds:
            count = tn(
                lang,
                "{rounds} with {n} player",
                "{rounds} with {n} players",
                entrants,
                rounds=count,
            )
    tables = (
        t(lang, "two players a game")
        if record.table_size == 2
        else t(lang, "tables of {n}", n=record.table_size)
    )
    return t(lang, "{format}, {rounds}, {tables}", format=fmt, rounds=count, tables=tables)


def heading_of(record: TournamentRecord, table: TournamentTable, lang: str = DEFAULT) -> str:
    return t(
        lang,
        "🏆 {title} — round {round}, table {table}",
        title=safe_name(title_in(record, lang)),
        round=table.round,
        table=table.number,
    )


def announcement_text(
    record: TournamentRecord,
    players: Sequence[TournamentPlayer],
    *,
    status: str = "",
    lang: str = DEFAULT,
) -> str:
    engine = get_engine(record.engine)
    if record.name:
        head = t(
            lang,
            "🏆 **{name}**, tournament #{id} of **{game}**",
            name=safe_name(record.name),
            id=record.id,
            game=t(lang, engine.title),
        )
    else:
        head = t(
            lang, "🏆 tournament #{id} of **{game}**", id=record.id, game=t(lang, engine.title)
        )
    lines = [
        head,
        t(lang, "Format: {format}.", format=describe_format(record, len(players), lang)),
    ]
    shown = {k: v for k, v in sorted(record.options.items()) if k != "rated"}
    if shown:
        lines.append(
            t(lang, "Options: {options}.", options=", ".join(f"{k}={v}" for k, v in shown.items()))
        )
    if record.round_time is not None:
        lines.append(
            t(
                lang,
                "Each round lasts at most {duration}: then the games still running are "
                "settled by the timeout policy.",
                duration=format_duration(record.round_time),
            )
        )
    active = [p.display_name for p in players if p.active]
    lines.append(
        t(
            lang,
            "Players ({n}): {names}",
            n=len(active),
            names=name_list(active, lang=lang),
        )
    )
    if record.status == "open":
        lines.append(
            t(
                lang,
                "Press **Join** to enter (or `/tournament join`). A moderator starts it with "
                "`/moderate tournament start`; every game is rated.",
            )
        )
    elif status:
        lines.append(status)
    return clip("\n".join(lines))


def table_line(
    table: TournamentTable,
    names: Mapping[int, str],
    where: str = "",
    *,
    ended: bool = False,
    lang: str = DEFAULT,
) -> str:
    """``Table 2: **A** vs **B** — in <#thread>`` or the result."""
    if table.is_bye:
        return t(lang, "Bye: **{name}** (a win's points)", name=safe_name(names[table.seats[0]]))
    if table.places is None:
        bold = [f"**{safe_name(names[u])}**" for u in table.seats]
        if len(table.seats) == 2:
            seated = t(lang, "{a} vs {b}", a=bold[0], b=bold[1])
        else:
            seated = ", ".join(bold)
        if ended:
            return t(
                lang,
                "Table {number}: {seated} — ended without a result",
                number=table.number,
                seated=seated,
            )
        if where:
            return t(
                lang,
                "Table {number}: {seated} — playing {where}",
                number=table.number,
                seated=seated,
                where=where,
            )
        return t(lang, "Table {number}: {seated} — playing", number=table.number, seated=seated)
    order = sorted(range(len(table.seats)), key=lambda seat: table.places[seat])  # type: ignore[index]
    places = table.places
    if len(table.seats) == 2:
        a, b = (f"**{safe_name(names[u])}**" for u in table.seats)
        if places[0] == places[1]:
            said = t(lang, "{a} and {b} drew", a=a, b=b)
        else:
            winner, loser = (a, b) if places[0] < places[1] else (b, a)
            said = t(lang, "{winner} beat {loser}", winner=winner, loser=loser)
    else:
        said = ", ".join(
            f"{ordinal(1 + sum(p < places[seat] for p in places), lang)} "
            f"**{safe_name(names[table.seats[seat]])}**"
            for seat in order
        )
    if table.adjudicated:
        return t(lang, "Table {number}: {said} (adjudicated)", number=table.number, said=said)
    return t(lang, "Table {number}: {said}", number=table.number, said=said)


def standing_rows(
    table: Sequence[standings.Standing],
    players: Mapping[int, TournamentPlayer],
    lang: str = DEFAULT,
) -> list[StandingRow]:
    return [
        StandingRow(
            rank=s.rank,
            name=players[s.player].display_name
            if s.player in players
            else t(lang, "Player {id}", id=s.player),
            points=s.points,
            tiebreaks=tuple(value for _, value in s.tiebreaks),
            games=s.games,
            byes=s.byes,
            dropped=s.player in players and not players[s.player].active,
        )
        for s in table
    ]


def tiebreak_legend(kinds: Sequence[standings.Tiebreak], lang: str = DEFAULT) -> str:
    """The line under the standings saying what breaks a tie, in order."""
    if not kinds:
        return ""
    said = [
        t(
            lang,
            "{tiebreak} ({meaning})",
            tiebreak=t(lang, TIEBREAK_WORDS[kind]),
            meaning=t(lang, TIEBREAK_MEANINGS[kind]),
        )
        for kind in kinds
    ]
    if lang == DEFAULT:
        return "Equal points are split by " + ", then by ".join(said) + "."
    if len(said) == 1:
        return t(lang, "Equal points are split by {first}.", first=said[0])
    rest = said[1]
    for more in said[2:]:
        rest = t(lang, "{earlier}, then by {later}", earlier=rest, later=more)
    return t(lang, "Equal points are split by {first}, then by {rest}.", first=said[0], rest=rest)


def standings_text(
    title: str,
    table: Sequence[standings.Standing],
    players: Mapping[int, TournamentPlayer],
    lang: str = DEFAULT,
) -> str:
    """The standings as lines, cut to fit one message (the image has all),
    with each tie-break named and, under them, what it counts."""
    lines = [title]
    legend = tiebreak_legend([kind for kind, _ in table[0].tiebreaks], lang) if table else ""
    budget = 1900 - len(title) - len(legend)
    for shown, row in enumerate(table):
        name = players[row.player].display_name if row.player in players else "?"
        dropped = (
            t(lang, " (dropped)")
            if row.player in players and not players[row.player].active
            else ""
        )
        breaks = " · ".join(
            f"{t(lang, TIEBREAK_WORDS[kind])} "
            f"{'–' if value == float('inf') else format_points(value)}"
            for kind, value in row.tiebreaks
        )
        line = f"{row.rank}. **{safe_name(name)}**{dropped} — {points_in(row.points, lang)}" + (
            f" · {breaks}" if breaks else ""
        )
        if len(line) + 1 > budget:
            lines.append(t(lang, "…and {n} more in the image.", n=len(table) - shown))
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
    example = " ".join(str(i + 1) for i in range(len(seats)))
    if len(seats) == 2:
        raise GameError(
            Msg(
                "Give the result as `draw`, the winner's name, or one place per seat in seat "
                "order ({order}), e.g. `{example}`.",
                order=order,
                example=example,
            )
        )
    raise GameError(
        Msg(
            "Give the result as `draw`, or one place per seat in seat order ({order}), "
            "e.g. `{example}`.",
            order=order,
            example=example,
        )
    )


__all__ = [
    "announcement_text",
    "parse_places",
    "standings_text",
    "table_line",
]
