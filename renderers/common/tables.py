"""Keys and ranked tables: the legends under boards, and the leaderboard's
and standings' title band, column heads, striped rows, medals and footnote."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from renderers.common.canvas import Canvas, min_text_size
from renderers.common.layout import title_band
from renderers.common.measure import fit_text, text_width
from renderers.common.scripts import safe_text
from renderers.common.theme import RGB, Theme, blend

# --------------------------------------------------------------------------- legends


@dataclass(frozen=True)
class LegendItem:
    """A key entry: an optional icon (drawn by ``icon(canvas, left, centre_y)``
    in ``icon_width`` pixels) and then its label."""

    label: str
    icon: Callable[[Canvas, int, int], None] | None = None
    icon_width: int = 0


def legend(
    c: Canvas,
    items: Sequence[LegendItem],
    *,
    x0: int,
    x1: int,
    y: int,
    size: int,
    fill: RGB | None = None,
    gap: int = 28,
    row_height: int | None = None,
) -> int:
    """``items`` left to right from ``(x0, y)``, starting a new row whenever
    the next would pass ``x1`` (at phone sizes a key rarely fits on one line);
    returns the bottom of the last row."""
    size = c.text_size(size)
    rh = row_height if row_height is not None else size + 14
    ink = c.theme.muted if fill is None else fill
    x, cy = x0, y + rh // 2
    for item in items:
        label = fit_text(item.label, size, x1 - x0 - item.icon_width - 10)
        width = item.icon_width + (10 if item.icon_width else 0) + text_width(label, size)
        if x > x0 and x + width > x1:
            x, cy = x0, cy + rh
        if item.icon is not None:
            item.icon(c, x, cy)
        left = x + item.icon_width + (10 if item.icon_width else 0)
        c.text((left, cy), label, size=size, fill=ink, anchor="lm")
        x += width + gap
    return cy + rh // 2


# --------------------------------------------------------------------------- tables
#
# Ranked tables (the leaderboard, tournament standings): a title band, a row
# of column heads, striped rows with the first three places in medal badges,
# and a footnote.  The layout is for a 960-pixel image, so every size below
# is readable on a phone there.

TABLE_WIDTH: Final = 960
TABLE_MARGIN: Final = 24
TABLE_SMALL: Final = min_text_size(TABLE_WIDTH)
"""Column heads, kickers and footnotes: the smallest text readable on a phone."""
TABLE_BODY: Final = TABLE_SMALL + 4
"""The cells."""
TABLE_BIG: Final = 36
"""The title."""
TABLE_TITLE_H: Final = 112
TABLE_SUBTITLE_H: Final = 40
"""What a subtitle adds to the title band."""
TABLE_HEAD_H: Final = 48
TABLE_HEAD_LINE: Final = TABLE_SMALL + 6
"""The distance between the lines of a column head broken over two."""
TABLE_ROW_H: Final = 54
TABLE_FOOT_H: Final = 56
TABLE_NOTE_H: Final = 96
"""The height of the note that stands in for the rows of an empty table."""
_MEDAL_RADIUS: Final = 19


def medal_colour(theme: Theme, rank: int) -> RGB | None:
    """The badge colour of the first three places (gold, silver, bronze)."""
    if rank == 1:
        return theme.highlight
    if rank == 2:
        return (200, 205, 214)
    if rank == 3:
        return (214, 150, 96)
    return None


def table_title(
    c: Canvas,
    *,
    kicker: str,
    title: str,
    fallback: str,
    note: str,
    subtitle: str | None = None,
) -> int:
    """The title band: ``kicker`` (small capitals) over ``title`` (made
    drawable; ``fallback`` when nothing of it is), ``note`` at the top right,
    and ``subtitle`` under the title when given.  Returns its bottom."""
    t = c.theme
    height = TABLE_TITLE_H + (TABLE_SUBTITLE_H if subtitle is not None else 0)
    title_band(c, height)
    c.text((TABLE_MARGIN, 16), kicker, size=TABLE_SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text(
        (TABLE_MARGIN, 52),
        safe_text(title) or fallback,
        size=TABLE_BIG,
        fill=t.ink,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * TABLE_MARGIN - 130,
    )
    if subtitle is not None:
        c.text(
            (TABLE_MARGIN, TABLE_TITLE_H - 8),
            safe_text(subtitle),
            size=TABLE_SMALL + 2,
            fill=t.muted,
            anchor="lt",
            max_width=c.width - 2 * TABLE_MARGIN,
        )
    c.text((c.width - TABLE_MARGIN, 18), note, size=TABLE_SMALL, fill=t.muted, anchor="rt")
    return height


@dataclass(frozen=True)
class ColumnHead:
    """A column head: its lines (most have one) at ``x``, left- or
    right-aligned like the column, each cut to ``max_width`` when given."""

    x: float
    lines: tuple[str, ...]
    align: Literal["l", "r"] = "r"
    max_width: int | None = None


def table_heads(
    c: Canvas, y: int, heads: Sequence[ColumnHead], *, height: int = TABLE_HEAD_H
) -> int:
    """The column heads from ``y``, centred in ``height`` pixels and ruled
    under; returns the bottom of the rule."""
    t = c.theme
    mid = y + height // 2
    for head in heads:
        first = mid - (len(head.lines) - 1) * TABLE_HEAD_LINE / 2
        for k, line in enumerate(head.lines):
            c.text(
                (head.x, first + k * TABLE_HEAD_LINE),
                line,
                size=TABLE_SMALL,
                fill=t.muted,
                anchor=f"{head.align}m",
                bold=True,
                max_width=head.max_width,
            )
    c.draw.rectangle(
        (TABLE_MARGIN, y + height - 2, c.width - TABLE_MARGIN, y + height), fill=t.grid
    )
    return y + height


def table_stripe(c: Canvas, y: int, *, height: int = TABLE_ROW_H) -> None:
    """The shading of every second row."""
    t = c.theme
    c.draw.rectangle(
        (TABLE_MARGIN, y, c.width - TABLE_MARGIN, y + height),
        fill=blend(t.background, t.panel, 0.6),
    )


def rank_badge(c: Canvas, right: int, mid: int, rank: int, *, dim: bool = False) -> None:
    """A row's place, right-aligned at ``right``: the first three in a medal
    badge, the others as a muted number.  ``dim`` fades the badge (a player
    who left)."""
    t = c.theme
    medal = medal_colour(t, rank)
    label = str(rank)
    if medal is not None:
        r = _MEDAL_RADIUS
        cx = right - r
        fill = t.dim(medal, 0.45) if dim else medal
        c.draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=fill)
        c.text((cx, mid), label, size=TABLE_BODY, fill=t.on_colour, anchor="mm", bold=True)
    else:
        c.text((right, mid), label, size=TABLE_BODY, fill=t.muted, anchor="rm", bold=True)


def table_note(c: Canvas, y: int, text: str) -> int:
    """The note an empty table shows instead of rows; returns its bottom."""
    c.text(
        (c.width / 2, y + TABLE_NOTE_H // 2),
        text,
        size=TABLE_BODY,
        fill=c.theme.muted,
        anchor="mm",
        max_width=c.width - 2 * TABLE_MARGIN,
    )
    return y + TABLE_NOTE_H


def table_footnote(c: Canvas, y: int, *choices: str) -> int:
    """One muted line under the table: the first of ``choices`` that fits the
    width (the last, cut, if none does).  Returns its bottom."""
    room = c.width - 2 * TABLE_MARGIN
    note = next((s for s in choices if text_width(s, TABLE_SMALL) <= room), choices[-1])
    c.text(
        (TABLE_MARGIN, y + TABLE_FOOT_H // 2),
        note,
        size=TABLE_SMALL,
        fill=c.theme.muted,
        anchor="lm",
        max_width=room,
    )
    return y + TABLE_FOOT_H
