"""A game's leaderboard on one server, drawn with Pillow (issue 11, item 3).

Pure: rows in, a PIL image out, no I/O.  It is not a game renderer, so it is
not in :data:`renderers.RENDERERS` (that registry is keyed by engine); the
bot calls :func:`render_leaderboard` directly, off the event loop.

Each row is one player: the place, the name, the rating as players see it
(``bot.tournament.ratings.shown_rating``: an Elo-like scale drawn from
OpenSkill's conservative estimate, ``?`` while provisional), rated games,
wins, and the trend over the player's last five games as an arrow (up in
the theme's ``good`` colour, down in ``bad``, a bar when flat) with the
change beside it, in the same points.
Arrows are drawn as shapes, because the built-in font has no arrow glyphs,
and every text goes through :meth:`Canvas.text` at sizes readable on a phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from bot.i18n import t, tn
from renderers.common import (
    DEFAULT_THEME,
    TABLE_BODY,
    TABLE_FOOT_H,
    TABLE_HEAD_H,
    TABLE_MARGIN,
    TABLE_NOTE_H,
    TABLE_ROW_H,
    TABLE_TITLE_H,
    TABLE_WIDTH,
    Canvas,
    ColumnHead,
    Theme,
    rank_badge,
    safe_text,
    table_footnote,
    table_heads,
    table_note,
    table_stripe,
    table_title,
)

__all__ = [
    "MAX_ROWS",
    "WIDTH",
    "LeaderboardRow",
    "format_trend",
    "render_leaderboard",
]

# The title band, heads, rows and footnote are the shared table's
# (``table_*`` in :mod:`renderers.common`, also drawn by the standings).
WIDTH: Final = TABLE_WIDTH
MARGIN: Final = TABLE_MARGIN
BODY: Final = TABLE_BODY
ROW_H: Final = TABLE_ROW_H
MAX_ROWS: Final = 20
"""Rows drawn at most (a leaderboard is the top 20)."""
FLAT: Final = 0.5
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
    #: The rating as players see it (``bot.tournament.ratings.shown_rating``).
    rating: float
    games: int
    wins: int
    #: How much the rating moved over the player's last five rated games.
    trend: float = 0.0
    #: Too few rated games yet: the rating is drawn with a ``?``.
    provisional: bool = False


def format_trend(change: float) -> str:
    """``+38``, ``-12`` or ``0``: a trend in rating points, with its sign."""
    if abs(change) < FLAT:
        return "0"
    return f"{round(change):+d}"


def _arrow(c: Canvas, cx: float, cy: float, change: float) -> None:
    """An up or down triangle, or a flat bar, centred on ``(cx, cy)``."""
    th = c.theme
    r = 11
    if abs(change) < FLAT:
        c.draw.rounded_rectangle((cx - r, cy - 3, cx + r, cy + 3), radius=3, fill=th.muted)
    elif change > 0:
        c.draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=th.good)
    else:
        c.draw.polygon([(cx, cy + r), (cx + r, cy - r * 0.8), (cx - r, cy - r * 0.8)], fill=th.bad)


def _title(c: Canvas, title: str, count: int) -> int:
    lang = c.lang
    if count >= MAX_ROWS:
        players = t(lang, "Top {n}", n=count)
    else:
        players = tn(lang, "{n} player", "{n} players", count)
    return table_title(
        c,
        kicker=t(lang, "LEADERBOARD"),
        title=title,
        fallback=t(lang, "Leaderboard"),
        note=players,
    )


def _heads(c: Canvas, y: int) -> int:
    lang = c.lang
    heads = (
        ColumnHead(_RANK_RIGHT, ("#",)),
        ColumnHead(_NAME_LEFT, (t(lang, "Player"),), align="l"),
        # Each head is cut to its column's room (a longer word in another
        # language; the English ones fit whole).
        ColumnHead(_RATING_RIGHT, (t(lang, "Rating"),), max_width=_RATING_RIGHT - _NAME_RIGHT - 12),
        ColumnHead(_GAMES_RIGHT, (t(lang, "Games"),), max_width=_GAMES_RIGHT - _RATING_RIGHT - 12),
        ColumnHead(_WINS_RIGHT, (t(lang, "Wins"),), max_width=_WINS_RIGHT - _GAMES_RIGHT - 12),
        ColumnHead(_TREND_RIGHT, (t(lang, "Last 5"),), max_width=_TREND_RIGHT - _WINS_RIGHT - 12),
    )
    return table_heads(c, y, heads)


def _row(c: Canvas, row: LeaderboardRow, y: int, stripe: bool) -> int:
    th = c.theme
    if stripe:
        table_stripe(c, y)
    mid = y + ROW_H // 2
    rank_badge(c, _RANK_RIGHT, mid, row.rank)
    # Names keep their own script (fallback fonts); only a name with nothing
    # drawable at all (emoji with no emoji font, controls) reads "Player".
    name = safe_text(row.name) or t(c.lang, "Player")
    c.text(
        (_NAME_LEFT, mid),
        name,
        size=BODY,
        fill=th.ink,
        anchor="lm",
        bold=row.rank <= 3,
        max_width=_NAME_RIGHT - _NAME_LEFT,
    )
    c.text(
        (_RATING_RIGHT, mid),
        f"{round(row.rating)}{'?' if row.provisional else ''}",
        size=BODY + 2,
        fill=th.ink,
        anchor="rm",
        bold=True,
    )
    c.text((_GAMES_RIGHT, mid), str(row.games), size=BODY, fill=th.ink, anchor="rm")
    c.text((_WINS_RIGHT, mid), str(row.wins), size=BODY, fill=th.ink, anchor="rm")
    change = format_trend(row.trend)
    colour = th.muted if change == "0" else th.good if row.trend > 0 else th.bad
    box = c.text((_TREND_RIGHT, mid), change, size=BODY, fill=colour, anchor="rm")
    _arrow(c, box[0] - 20, mid, row.trend)
    return y + ROW_H


def _footnote(c: Canvas, y: int, provisional_games: int) -> int:
    lang, n = c.lang, provisional_games
    return table_footnote(
        c,
        y,
        t(
            lang,
            "Rating: 1000 to start, from OpenSkill. ?: provisional, under {n} rated "
            "games. Last 5: change over the last 5 games.",
            n=n,
        ),
        t(
            lang,
            "?: provisional, under {n} rated games. Last 5: change over the last 5 games.",
            n=n,
        ),
        t(lang, "?: provisional. Last 5: change over the last 5 games."),
    )


def render_leaderboard(
    rows: Sequence[LeaderboardRow],
    *,
    title: str,
    provisional_games: int = 5,
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The leaderboard ``title`` (e.g. ``"Kauda Baji"``, in ``lang`` already)
    with ``rows`` best first; at most :data:`MAX_ROWS` are drawn.  No rows: a
    short note.  The footnote says a ``?`` rating has had fewer than
    ``provisional_games`` rated games (``bot.tournament.ratings.PROVISIONAL_GAMES``).
    The table's own words are in ``lang``."""
    shown = list(rows[:MAX_ROWS])
    body = len(shown) * ROW_H if shown else TABLE_NOTE_H
    height = TABLE_TITLE_H + 8 + TABLE_HEAD_H + body + 8 + TABLE_FOOT_H
    c = Canvas(WIDTH, height, theme, lang=lang)
    y = _title(c, title, len(shown)) + 8
    y = _heads(c, y)
    if shown:
        for i, row in enumerate(shown):
            y = _row(c, row, y, i % 2 == 1)
    else:
        y = table_note(c, y, t(lang, "No rated games yet"))
    y = _footnote(c, y + 8, provisional_games)
    return c.crop(y)
