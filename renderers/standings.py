"""A tournament's standings table, drawn with Pillow.

Pure: rows in, a PIL image out, no I/O.  Like the leaderboard it is not a
game renderer (not in :data:`renderers.RENDERERS`); the bot calls
:func:`render_standings` directly, off the event loop.

The table is the leaderboard's (the ``table_*`` helpers of
:mod:`renderers.common`): a title band, column heads, striped rows with the
first three places in medal badges, and a footnote when rows are left out.
Its columns are the place, the name, the points, one column per tie-break
(0 to 3), games and byes.  The numeric columns are as wide as their heads
and values need and the name takes the rest; a long tie-break name is
broken over two lines when the names need the room.

The built-in font has neither ``½`` nor an en dash, so half points are drawn
as a small stacked fraction and a missing tie-break (``math.inf``) as a bar,
both from shapes and digits; every text goes through :meth:`Canvas.text` at
sizes readable on a phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from bot.engines.core import format_points
from bot.i18n import N_, t, tn
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    TABLE_BODY,
    TABLE_FOOT_H,
    TABLE_HEAD_H,
    TABLE_HEAD_LINE,
    TABLE_MARGIN,
    TABLE_NOTE_H,
    TABLE_ROW_H,
    TABLE_SMALL,
    TABLE_SUBTITLE_H,
    TABLE_TITLE_H,
    TABLE_WIDTH,
    Canvas,
    ColumnHead,
    Theme,
    cap_height,
    rank_badge,
    safe_text,
    table_footnote,
    table_heads,
    table_note,
    table_stripe,
    table_title,
    text_width,
)

__all__ = [
    "MAX_ROWS",
    "WIDTH",
    "StandingRow",
    "format_points",
    "render_standings",
]

WIDTH: Final = TABLE_WIDTH
MAX_ROWS: Final = 32
"""Rows drawn at most; the rest are counted in the footnote."""
MAX_TIEBREAKS: Final = 3
"""Tie-break columns at most (more do not fit beside a readable name)."""

_MARGIN: Final = TABLE_MARGIN
_BODY: Final = TABLE_BODY
_SMALL: Final = TABLE_SMALL
_POINTS: Final = TABLE_BODY + 2
"""The points: the biggest number of a row, like the leaderboard's rating."""
_FRACTION: Final = TABLE_SMALL
"""The digits of a drawn ``½`` (the smallest readable size)."""
_SLASH_W: Final = 9
"""The run of the slash of a drawn ``½``."""
_ROW_H: Final = TABLE_ROW_H
_HEAD_2_H: Final = TABLE_HEAD_H + TABLE_HEAD_LINE - 2
"""The head band when a column head is broken over two lines."""
_PAD: Final = 16
"""Space under the last row when there is no footnote."""
_GAP: Final = 22
"""Between two columns."""
_RANK_RIGHT: Final = _MARGIN + 58
_NAME_LEFT: Final = _RANK_RIGHT + 22
_NAME_WANTED: Final = 250
"""Tie-break heads are broken over two lines while the names have less."""
_NAME_FLOOR: Final = 180
"""Tie-break heads are cut while the names would have less than this."""
_HEAD_FLOOR: Final = 56
"""A cut tie-break head keeps at least this much of itself."""
_DASH_W: Final = 16
"""The bar drawn for a missing tie-break (half an em, like an en dash)."""
_DROPPED: Final = N_("(dropped)")
_NAME_KEPT: Final = 48
"""A dropped player's name keeps at least this much beside its tag."""
_DASHES: Final = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"))
"""Dashes the built-in font lacks, drawn as hyphens (``"Artaban — #3"``)."""


@dataclass(frozen=True)
class StandingRow:
    """One player in a tournament's standings."""

    #: 1 = first.
    rank: int
    #: The display name, as the player wrote it (made drawable here).
    name: str
    #: Tournament points (halves are common).
    points: float
    #: One value per tie-break column; ``math.inf`` when there is none yet
    #: (an average place before any game), drawn as a dash.
    tiebreaks: tuple[float, ...]
    games: int
    byes: int
    #: Left the tournament: the row is drawn dimmed, marked "(dropped)".
    dropped: bool = False


def _format_tiebreak(value: float) -> str | None:
    """A tie-break as the points are written (:func:`bot.engines.core.format_points`,
    issue 31: ``7½``, ``7¼``, ``12.33``, ``3``, never ``7.5`` beside ``3½``);
    None for none (``math.inf``), drawn as a dash."""
    if not math.isfinite(value):
        return None
    return format_points(value)


def _drawable(text: str) -> str:
    """User text made drawable (in its own script: see
    :func:`~renderers.common.safe_text`), dashes as the table's hyphens."""
    return safe_text(text.translate(_DASHES))


# --------------------------------------------------------------------------- cells


def _points_width(value: float) -> int:
    """The width :func:`_draw_points` takes for ``value``."""
    text = format_points(value)
    if not text.endswith("\u00bd"):
        return text_width(text, _POINTS, True)
    whole = text[:-1]
    return _half_width() + (text_width(whole, _POINTS, True) if whole else 0)


def _half_width() -> int:
    one, two = text_width("1", _FRACTION, True), text_width("2", _FRACTION, True)
    return one + two + _SLASH_W - 4


def _draw_points(c: Canvas, right: int, mid: int, value: float, fill: RGB) -> None:
    """The points right-aligned at ``right``; a half as a ``½`` of two digits
    (the numerator raised, the denominator lowered) about a slash."""
    text = format_points(value)
    if not text.endswith("\u00bd"):
        c.text((right, mid), text, size=_POINTS, fill=fill, anchor="rm", bold=True)
        return
    whole = text[:-1]
    cap = cap_height(_POINTS)
    top, base = mid - cap // 2 - 4, mid + (cap - cap // 2) + 3
    c.text((right, base), "2", size=_FRACTION, fill=fill, anchor="rs", bold=True)
    slash_right = right - text_width("2", _FRACTION, True) + 2
    slash_left = slash_right - _SLASH_W
    c.draw.line([(slash_left, base), (slash_right, top)], fill=fill, width=2)
    c.text((slash_left + 2, top), "1", size=_FRACTION, fill=fill, anchor="rt", bold=True)
    if whole:
        left = right - _half_width()
        c.text((left, mid), whole, size=_POINTS, fill=fill, anchor="rm", bold=True)


def _draw_dash(c: Canvas, right: int, mid: int, fill: RGB) -> None:
    """The en dash standing for a missing tie-break (drawn: the font has none)."""
    c.draw.rounded_rectangle((right - _DASH_W, mid - 2, right, mid + 2), radius=2, fill=fill)


# --------------------------------------------------------------------------- layout


def _two_lines(label: str) -> tuple[str, ...]:
    """``label`` broken at the space or hyphen that makes its wider line
    narrowest (``Sonneborn-`` / ``Berger``); unbroken when it has none."""
    best: tuple[str, ...] = (label,)
    widest = text_width(label, _SMALL, True)
    for i, ch in enumerate(label):
        if ch not in " -" or i in (0, len(label) - 1):
            continue
        cut = i + 1 if ch == "-" else i
        lines = (label[:cut].rstrip(), label[i + 1 :].lstrip())
        if not all(lines):
            continue
        wide = max(text_width(line, _SMALL, True) for line in lines)
        if wide < widest:
            best, widest = lines, wide
    return best


@dataclass
class _Column:
    """A numeric column: its head, how wide its values are, what to cut to."""

    lines: tuple[str, ...]
    values: int
    wrappable: bool = False
    cap: int | None = None

    def head_width(self) -> int:
        widest = max(text_width(line, _SMALL, True) for line in self.lines)
        return widest if self.cap is None else min(widest, self.cap)

    @property
    def width(self) -> int:
        return max(self.head_width(), self.values)


@dataclass(frozen=True)
class _Layout:
    points_right: int
    tiebreak_rights: tuple[int, ...]
    games_right: int
    byes_right: int
    name_right: int
    heads: tuple[ColumnHead, ...]
    head_h: int


def _name_room(columns: Sequence[_Column]) -> int:
    used = sum(col.width for col in columns) + _GAP * len(columns)
    return WIDTH - _MARGIN - used - _NAME_LEFT


def _layout(
    rows: Sequence[StandingRow], tiebreak_names: Sequence[str], lang: str = "en"
) -> _Layout:
    """Numeric columns as wide as they need (heads broken over two lines,
    then cut, while the names are short of room); the name takes the rest.
    Heads in ``lang`` (``tiebreak_names`` come in it already)."""
    points_w = max((_points_width(r.points) for r in rows), default=0)
    points = _Column((t(lang, "Points"),), points_w)
    tiebreaks: list[_Column] = []
    for k, name in enumerate(tiebreak_names):
        widths = [
            _DASH_W if text is None else text_width(text, _BODY)
            for text in (_format_tiebreak(r.tiebreaks[k]) for r in rows)
        ]
        head = _drawable(name) or t(lang, "Tie-break")
        tiebreaks.append(_Column((head,), max(widths, default=0), True))
    games_w = max((text_width(str(r.games), _BODY) for r in rows), default=0)
    games = _Column((t(lang, "Games"),), games_w)
    byes_w = max((text_width(str(r.byes), _BODY) for r in rows), default=0)
    byes = _Column((t(lang, "Byes"),), byes_w)
    columns = [points, *tiebreaks, games, byes]

    # Break the widest tie-break heads first, while the names want room.
    for col in sorted(tiebreaks, key=lambda col: -col.head_width()):
        if _name_room(columns) >= _NAME_WANTED:
            break
        if col.head_width() > col.values:
            col.lines = _two_lines(col.lines[0])
    # Still too narrow: cut the heads (with an ellipsis) down to their values.
    short = _NAME_FLOOR - _name_room(columns)
    for col in sorted(tiebreaks, key=lambda col: -col.width):
        if short <= 0:
            break
        give = max(0, col.width - max(col.values, _HEAD_FLOOR))
        cut = min(give, short)
        if cut:
            col.cap = col.width - cut
            short -= cut

    rights: list[int] = []
    right = WIDTH - _MARGIN
    for col in reversed(columns):
        rights.append(right)
        right -= col.width + _GAP
    rights.reverse()
    heads = [
        ColumnHead(_RANK_RIGHT, ("#",)),
        ColumnHead(_NAME_LEFT, (t(lang, "Player"),), align="l"),
    ]
    heads += [
        ColumnHead(x, col.lines, max_width=col.cap) for x, col in zip(rights, columns, strict=True)
    ]
    two = any(len(col.lines) > 1 for col in columns)
    return _Layout(
        points_right=rights[0],
        tiebreak_rights=tuple(rights[1:-2]),
        games_right=rights[-2],
        byes_right=rights[-1],
        name_right=right,
        heads=tuple(heads),
        head_h=_HEAD_2_H if two else TABLE_HEAD_H,
    )


# --------------------------------------------------------------------------- drawing


def _row(c: Canvas, row: StandingRow, layout: _Layout, y: int, stripe: bool) -> int:
    th = c.theme
    if stripe:
        table_stripe(c, y)
    mid = y + _ROW_H // 2
    ink = th.muted if row.dropped else th.ink
    rank_badge(c, _RANK_RIGHT, mid, row.rank, dim=row.dropped)

    room = layout.name_right - _NAME_LEFT
    # Only a name with nothing drawable at all (emoji with no emoji font,
    # controls) reads "Player"; any script a font has is drawn.
    name = _drawable(row.name) or t(c.lang, "Player")
    bold = row.rank <= 3 and not row.dropped
    if row.dropped:
        dropped = t(c.lang, _DROPPED)
        tag = text_width(dropped, _SMALL)
        # The name keeps a little of itself where a longer tag (another
        # language) would leave it none; the tag is cut instead.
        keep = min(text_width(name, _BODY), _NAME_KEPT)
        box = c.text(
            (_NAME_LEFT, mid),
            name,
            size=_BODY,
            fill=ink,
            anchor="lm",
            max_width=max(keep, room - tag - 10),
        )
        left = box[2] + 10 if box[2] > _NAME_LEFT else _NAME_LEFT
        c.text(
            (left, mid),
            dropped,
            size=_SMALL,
            fill=th.muted,
            anchor="lm",
            max_width=layout.name_right - left,
        )
    else:
        c.text(
            (_NAME_LEFT, mid), name, size=_BODY, fill=ink, anchor="lm", bold=bold, max_width=room
        )

    _draw_points(c, layout.points_right, mid, row.points, ink)
    for right, value in zip(layout.tiebreak_rights, row.tiebreaks, strict=True):
        text = _format_tiebreak(value)
        if text is None:
            _draw_dash(c, right, mid, th.muted)
        else:
            c.text((right, mid), text, size=_BODY, fill=ink, anchor="rm")
    c.text((layout.games_right, mid), str(row.games), size=_BODY, fill=ink, anchor="rm")
    c.text((layout.byes_right, mid), str(row.byes), size=_BODY, fill=ink, anchor="rm")
    return y + _ROW_H


def render_standings(
    rows: Sequence[StandingRow],
    *,
    title: str,
    subtitle: str,
    tiebreak_names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The standings ``title`` (e.g. ``"Artaban — tournament #3"``) under
    ``subtitle`` (``"Swiss, after round 2 of 3"``), ``rows`` in order; the
    table's own words in ``lang`` (the title, subtitle and tie-break names
    come in it already).

    At most :data:`MAX_ROWS` rows are drawn, the rest counted in a footnote;
    no rows: a short note.  Every row has one tie-break per name in
    ``tiebreak_names`` (at most :data:`MAX_TIEBREAKS`), else ValueError.
    """
    if len(tiebreak_names) > MAX_TIEBREAKS:
        raise ValueError(f"at most {MAX_TIEBREAKS} tie-break columns, not {len(tiebreak_names)}")
    for row in rows:
        if len(row.tiebreaks) != len(tiebreak_names):
            raise ValueError(
                f"rank {row.rank} has {len(row.tiebreaks)} tie-breaks "
                f"for {len(tiebreak_names)} columns"
            )
    shown = list(rows[:MAX_ROWS])
    hidden = len(rows) - len(shown)
    layout = _layout(shown, tiebreak_names, lang)

    title_h = TABLE_TITLE_H + TABLE_SUBTITLE_H
    body = len(shown) * _ROW_H if shown else TABLE_NOTE_H
    foot = TABLE_FOOT_H if hidden else _PAD
    c = Canvas(WIDTH, title_h + 8 + layout.head_h + body + 8 + foot, theme, lang=lang)

    count = len(rows)
    players = tn(lang, "{n} player", "{n} players", count)
    y = table_title(
        c,
        kicker=t(lang, "STANDINGS"),
        title=title.translate(_DASHES),
        fallback=t(lang, "Tournament"),
        note=players,
        subtitle=subtitle.translate(_DASHES),
    )
    y = table_heads(c, y + 8, layout.heads, height=layout.head_h)
    if shown:
        for i, row in enumerate(shown):
            y = _row(c, row, layout, y, i % 2 == 1)
    else:
        y = table_note(c, y, t(lang, "No results yet"))
    if hidden:
        more = t(lang, "\u2026and {n} more (see the text table)", n=hidden)
        y = table_footnote(c, y + 8, more)
    else:
        y += 8 + _PAD
    return c.crop(y)
