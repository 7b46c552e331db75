"""A game's leaderboard on one server, drawn with Pillow (issue 11, item 3).

Pure: rows in, a PIL image out, no I/O.  It is not a game renderer, so it is
not in :data:`renderers.RENDERERS` (that registry is keyed by engine); the
bot calls :func:`render_leaderboard` directly, off the event loop.

Each row is one player: the place, the name, the conservative rating
(OpenSkill's ordinal, ``mu - 3 sigma``, rounded), rated games, wins, and the
trend over the player's last five games as an arrow (up in the theme's
``good`` colour, down in ``bad``, a bar when flat) with the change beside it.
Arrows are drawn as shapes, because the built-in font has no arrow glyphs,
and every text goes through :meth:`Canvas.text` at sizes readable on a phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Canvas,
    Theme,
    blend,
    min_text_size,
    safe_text,
    text_width,
)

__all__ = [
    "MAX_ROWS",
    "WIDTH",
    "LeaderboardRow",
    "format_trend",
    "render_leaderboard",
]

WIDTH: Final = 960
MARGIN: Final = 24
SMALL: Final = min_text_size(WIDTH)
"""Column heads and the footnote: the smallest text readable on a phone."""
BODY: Final = SMALL + 4
BIG: Final = 36
TITLE_H: Final = 112
HEAD_H: Final = 48
ROW_H: Final = 54
FOOT_H: Final = 56
MAX_ROWS: Final = 20
"""Rows drawn at most (a leaderboard is the top 20)."""
FLAT: Final = 0.05
"""A trend smaller than this (in rating points) is drawn as flat."""

# Column right edges (numbers are right-aligned), from the right margin in.
_TREND_RIGHT: Final = WIDTH - MARGIN
_TREND_LEFT: Final = _TREND_RIGHT - 150
_WINS_RIGHT: Final = _TREND_LEFT - 24
_GAMES_RIGHT: Final = _WINS_RIGHT - 100
_RATING_RIGHT: Final = _GAMES_RIGHT - 118
_RANK_RIGHT: Final = MARGIN + 58
_NAME_LEFT: Final = _RANK_RIGHT + 22
_NAME_RIGHT: Final = _RATING_RIGHT - 104


@dataclass(frozen=True)
class LeaderboardRow:
    """One player on a leaderboard."""

    #: 1 = first.
    rank: int
    #: The display name, as the player wrote it (made drawable here).
    name: str
    #: The conservative estimate (``mu - 3 sigma``).
    rating: float
    games: int
    wins: int
    #: How much the rating moved over the player's last five rated games.
    trend: float = 0.0


def format_trend(change: float) -> str:
    """``+1.2``, ``-0.8`` or ``0.0``: a trend as a number with its sign."""
    if abs(change) < FLAT:
        return "0.0"
    return f"{change:+.1f}"


def _medal(theme: Theme, rank: int) -> RGB | None:
    """The badge colour of the first three places (gold, silver, bronze)."""
    if rank == 1:
        return theme.highlight
    if rank == 2:
        return (200, 205, 214)
    if rank == 3:
        return (214, 150, 96)
    return None


def _arrow(c: Canvas, cx: float, cy: float, change: float) -> None:
    """An up or down triangle, or a flat bar, centred on ``(cx, cy)``."""
    t = c.theme
    r = 11
    if abs(change) < FLAT:
        c.draw.rounded_rectangle((cx - r, cy - 3, cx + r, cy + 3), radius=3, fill=t.muted)
    elif change > 0:
        c.draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=t.good)
    else:
        c.draw.polygon([(cx, cy + r), (cx + r, cy - r * 0.8), (cx - r, cy - r * 0.8)], fill=t.bad)


def _title(c: Canvas, title: str, count: int) -> int:
    t = c.theme
    c.draw.rectangle((0, 0, c.width, TITLE_H), fill=t.panel)
    c.draw.rectangle((0, TITLE_H - 3, c.width, TITLE_H), fill=t.grid)
    c.text((MARGIN, 16), "LEADERBOARD", size=SMALL, fill=t.muted, anchor="lt", bold=True)
    shown = safe_text(title) or "Leaderboard"
    c.text(
        (MARGIN, 52),
        shown,
        size=BIG,
        fill=t.ink,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * MARGIN - 130,
    )
    players = (
        f"Top {count}" if count >= MAX_ROWS else "1 player" if count == 1 else f"{count} players"
    )
    c.text((c.width - MARGIN, 18), players, size=SMALL, fill=t.muted, anchor="rt")
    return TITLE_H


def _heads(c: Canvas, y: int) -> int:
    t = c.theme
    mid = y + HEAD_H // 2
    heads: tuple[tuple[float, str, str], ...] = (
        (_RANK_RIGHT, "#", "rm"),
        (_NAME_LEFT, "Player", "lm"),
        (_RATING_RIGHT, "Rating", "rm"),
        (_GAMES_RIGHT, "Games", "rm"),
        (_WINS_RIGHT, "Wins", "rm"),
        (_TREND_RIGHT, "Last 5", "rm"),
    )
    for x, label, anchor in heads:
        c.text((x, mid), label, size=SMALL, fill=t.muted, anchor=anchor, bold=True)
    c.draw.rectangle((MARGIN, y + HEAD_H - 2, c.width - MARGIN, y + HEAD_H), fill=t.grid)
    return y + HEAD_H


def _row(c: Canvas, row: LeaderboardRow, y: int, stripe: bool) -> int:
    t = c.theme
    if stripe:
        c.draw.rectangle(
            (MARGIN, y, c.width - MARGIN, y + ROW_H), fill=blend(t.background, t.panel, 0.6)
        )
    mid = y + ROW_H // 2
    medal = _medal(t, row.rank)
    rank = str(row.rank)
    if medal is not None:
        r = 19
        cx = _RANK_RIGHT - r
        c.draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=medal)
        c.text((cx, mid), rank, size=BODY, fill=t.on_colour, anchor="mm", bold=True)
    else:
        c.text((_RANK_RIGHT, mid), rank, size=BODY, fill=t.muted, anchor="rm", bold=True)
    name = safe_text(row.name) or "Player"
    c.text(
        (_NAME_LEFT, mid),
        name,
        size=BODY,
        fill=t.ink,
        anchor="lm",
        bold=row.rank <= 3,
        max_width=_NAME_RIGHT - _NAME_LEFT,
    )
    c.text(
        (_RATING_RIGHT, mid),
        str(round(row.rating)),
        size=BODY + 2,
        fill=t.ink,
        anchor="rm",
        bold=True,
    )
    c.text((_GAMES_RIGHT, mid), str(row.games), size=BODY, fill=t.ink, anchor="rm")
    c.text((_WINS_RIGHT, mid), str(row.wins), size=BODY, fill=t.ink, anchor="rm")
    change = format_trend(row.trend)
    colour = t.muted if change == "0.0" else t.good if row.trend > 0 else t.bad
    box = c.text((_TREND_RIGHT, mid), change, size=BODY, fill=colour, anchor="rm")
    _arrow(c, box[0] - 20, mid, row.trend)
    return y + ROW_H


def _empty(c: Canvas, y: int) -> int:
    t = c.theme
    c.text(
        (c.width / 2, y + 48),
        "No rated games yet",
        size=BODY,
        fill=t.muted,
        anchor="mm",
        max_width=c.width - 2 * MARGIN,
    )
    return y + 96


def _footnote(c: Canvas, y: int) -> int:
    t = c.theme
    note = "Rating: mu - 3 sigma (OpenSkill), rounded. Last 5: change over the last 5 games."
    if text_width(note, SMALL) > c.width - 2 * MARGIN:
        note = "Rating: mu - 3 sigma. Last 5: change over the last 5 games."
    c.text(
        (MARGIN, y + FOOT_H // 2),
        note,
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=c.width - 2 * MARGIN,
    )
    return y + FOOT_H


def render_leaderboard(
    rows: Sequence[LeaderboardRow], *, title: str, theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The leaderboard ``title`` (e.g. ``"Kauda Baji"``) with ``rows`` best
    first; at most :data:`MAX_ROWS` are drawn.  No rows: a short note."""
    shown = list(rows[:MAX_ROWS])
    body = len(shown) * ROW_H if shown else 96
    height = TITLE_H + 8 + HEAD_H + body + 8 + FOOT_H
    c = Canvas(WIDTH, height, theme)
    y = _title(c, title, len(shown)) + 8
    y = _heads(c, y)
    if shown:
        for i, row in enumerate(shown):
            y = _row(c, row, y, i % 2 == 1)
    else:
        y = _empty(c, y)
    y = _footnote(c, y + 8)
    return c.crop(y)
