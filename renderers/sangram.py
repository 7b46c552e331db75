"""Sangram: the public table and a player's hand, drawn with Pillow.

Pure functions of a :class:`~bot.engines.sangram_views.SangramView`: the board
never reads ``view.me`` (it goes to the channel); the private image is the
seat's hand with its Total Army Strength (R12, R14).  See
``docs/rules/sangram.md``.

This module lays the parts out and holds the registry entry; each part is
drawn by a sibling module named for it: :mod:`renderers.sangram_banner`
(title and who the game waits for), :mod:`renderers.sangram_battlefield`,
:mod:`renderers.sangram_table` (volunteers, deck, supply, discards),
:mod:`renderers.sangram_kingdoms`, :mod:`renderers.sangram_grow`,
:mod:`renderers.sangram_result` and, for the private image,
:mod:`renderers.sangram_hand`; the warrior cards are
:mod:`renderers.sangram_cards`', the measures and words both images share
:mod:`renderers.sangram_layout`'s.  Each image is drawn on a canvas of its
final height, worked out before drawing (every part says how far it moves
down), rather than on a taller one copied out at the end; the key is cached.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image

import bot.i18n as i18n
from bot.engines.sangram_views import SangramView
from renderers.common import (
    DEFAULT_THEME,
    Canvas,
    LegendItem,
    Theme,
    ViewRenderer,
    legend,
    text_width,
)
from renderers.sangram_banner import TITLE_H, banner_advance, draw_banner, draw_title
from renderers.sangram_battlefield import battlefield_advance, draw_battlefield, shows_battlefield
from renderers.sangram_cards import britisher_token, shield
from renderers.sangram_grow import draw_grow, grow_advance, shows_grow
from renderers.sangram_hand import (
    P_GAP,
    PRIVATE_BAND_H,
    draw_hand,
    draw_private_choice,
    draw_private_header,
    draw_strength,
    hand_advance,
    private_choice_advance,
    strength_advance,
)
from renderers.sangram_kingdoms import draw_kingdoms, kingdoms_advance
from renderers.sangram_layout import (
    BOARD_MAX_H,
    BOARD_WIDTH,
    GAP,
    MARGIN,
    PRIVATE_WIDTH,
    SMALL,
    fit_shares,
)
from renderers.sangram_result import draw_result, result_advance
from renderers.sangram_table import TABLE_ADVANCE, draw_table, draw_volunteers, volunteers_advance

# ----------------------------------------------------------------- the key


def _legend(c: Canvas, y: int, *, final: bool = False, lang: str = "en") -> int:
    """The board's key at ``y``: the shield, the Britisher token and a
    card's number (and at the end the best card's ring); returns its bottom."""
    t = c.theme

    def strength(c: Canvas, x: int, cy: int) -> None:
        shield(c.draw, (x, cy - 13, x + 22, cy + 13), t.ink)

    def britishers(c: Canvas, x: int, cy: int) -> None:
        britisher_token(c.draw, (x + 13, cy), 13, t.background)

    def motivation(c: Canvas, x: int, cy: int) -> None:
        c.text((x, cy), "47", size=30, fill=t.ink, anchor="lm", bold=True)

    def best(c: Canvas, x: int, cy: int) -> None:
        c.draw.rounded_rectangle(
            (x, cy - 12, x + 32, cy + 12), radius=6, outline=t.highlight, width=3
        )

    keys: list[tuple[str, Callable[[Canvas, int, int], None], int]] = [
        (i18n.t(lang, "army strength"), strength, 22),
        (i18n.t(lang, "Britishers"), britishers, 26),
        (i18n.t(lang, "motivation: higher acts first"), motivation, text_width("47", 30, True)),
    ]
    if final:
        keys.append((i18n.t(lang, "best card"), best, 32))
    labels = [label for label, _, _ in keys]
    if lang != i18n.DEFAULT:
        # One row, as the English key: longer words are cut, so the board
        # keeps its height (BOARD_MAX_H).
        icons = sum(width + 10 + LEGEND_GAP for _, _, width in keys)
        labels = fit_shares(labels, SMALL, c.width - 2 * MARGIN - icons)
    items = [
        LegendItem(label, icon, width) for label, (_, icon, width) in zip(labels, keys, strict=True)
    ]
    return legend(c, items, x0=MARGIN, x1=c.width - MARGIN, y=y, size=SMALL, row_height=44)


LEGEND_GAP: Final = 28
"""Between two items of the key (:func:`~renderers.common.legend`'s gap)."""


@lru_cache(maxsize=16)
def _legend_image(theme: Theme, final: bool, parity: int, lang: str = "en") -> Image.Image:
    """The board's key (:func:`_legend`) in ``lang`` drawn once, the board's
    width across and its rows high, to paste at a ``y`` with ``y % 2 ==
    parity``.  Cached: never mutate it.

    Drawn at ``parity`` and cut from there: half-pixel positions (text
    centred on a line) round half to even, so the same pixels come out only
    an even number of rows apart."""
    c = Canvas(BOARD_WIDTH, 4 * LEGEND_ROW_H + 1, theme)
    bottom = _legend(c, parity, final=final, lang=lang)
    return c.image.crop((0, parity, BOARD_WIDTH, bottom))


LEGEND_ROW_H: Final = 44

Section = tuple[int, Callable[[Canvas, int], None]]
"""A part of the board: how far it moves down, and what draws it at a y."""


# ----------------------------------------------------------------- the board


def _board_sections(
    view: SangramView, names: Sequence[str], room: int, *, fill: bool = False, lang: str = "en"
) -> list[Section]:
    """The board's parts top to bottom, within ``room`` rows (the Grow
    reveals, drawn last among them, show as many hands as fit).  ``fill``
    (a replay's frame, ``room`` its height): between rounds the last
    round's battlefield stays where the room left after the Grow reveals
    has it, so the frames keep their layout and the canvas its use."""
    sections: list[Section] = [(TITLE_H + 12, lambda c, y: draw_title(c, view, names, y, lang))]
    final = view.final
    if final is not None:
        sections.append(
            (
                result_advance(final, lang),
                lambda c, y: draw_result(c, view, final, names, y, lang),
            )
        )
        return sections
    sections.append((banner_advance(view), lambda c, y: draw_banner(c, view, names, y, lang)))
    if shows_battlefield(view):
        sections.append(
            (battlefield_advance(view), lambda c, y: draw_battlefield(c, view, names, y, lang=lang))
        )
    battlefield_at = len(sections)
    sections.append((volunteers_advance(view), lambda c, y: draw_volunteers(c, view, y, lang)))
    sections.append((kingdoms_advance(view), lambda c, y: draw_kingdoms(c, view, names, y, lang)))
    sections.append((TABLE_ADVANCE, lambda c, y: draw_table(c, view, y, lang)))
    if shows_grow(view):
        left = room - sum(advance for advance, _ in sections)
        count = len(view.grow_reveals)
        shown = count
        while shown > 0 and grow_advance(shown, count - shown) > left:
            shown -= 1
        if grow_advance(shown, count - shown) <= left:
            sections.append(
                (
                    grow_advance(shown, count - shown),
                    lambda c, y: draw_grow(c, view, names, y, shown, lang),
                )
            )
    earlier = fill and not shows_battlefield(view) and view.revealed_round < view.round
    if earlier and view.revealed:
        advance = battlefield_advance(view)
        if sum(a for a, _ in sections) + advance <= room:
            sections.insert(
                battlefield_at,
                (
                    advance,
                    lambda c, y: draw_battlefield(c, view, names, y, earlier=True, lang=lang),
                ),
            )
    return sections


def render_board(
    view: SangramView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The public table: never shows a hand or a face-down card (ignores
    ``view.me``).  At most :data:`BOARD_MAX_H` high: what happened (the
    events) is in the message above the board, not on it."""
    return _render_board(view, names, theme, None, lang)


def render_filled_board(
    view: SangramView,
    *,
    names: Sequence[str],
    height: int,
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """:func:`render_board` for a replay's frame ``height`` tall (the
    game's tallest board): between rounds the last round's battlefield
    stays, more Grow reveals are shown, and what room is left goes between
    the parts (a little each) and under the key."""
    return _render_board(view, names, theme, max(height, 1), lang)


FILL_GAP: Final = 28
"""The most a filled board adds between two of its parts."""


def _render_board(
    view: SangramView, names: Sequence[str], theme: Theme, fill: int | None, lang: str = "en"
) -> Image.Image:
    final = view.final is not None
    legend_image = _legend_image(theme, final, 0, lang)
    target = BOARD_MAX_H if fill is None else fill
    room = target - legend_image.height - GAP
    sections = _board_sections(view, names, room, fill=fill is not None, lang=lang)
    y = sum(advance for advance, _ in sections)
    height = y + legend_image.height + GAP
    spread = 0
    parts = [advance for advance, _ in sections[:-1] if advance > 0]
    if fill is not None and fill > height:
        spread = min(FILL_GAP, (fill - height) // max(1, len(parts)))
        height = fill
    c = Canvas(BOARD_WIDTH, height, theme)
    at = 0
    for i, (advance, draw) in enumerate(sections):
        draw(c, at)
        at += advance + (spread if advance > 0 and i < len(sections) - 1 else 0)
    c.image.paste(_legend_image(theme, final, at % 2, lang), (0, at))
    return c.image


# ----------------------------------------------------------------- the private image


def render_private(
    view: SangramView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The viewer's hand, the committed card and their army strength.

    ``view.me`` must be set (the engine's view for that seat)."""
    me = view.me
    if me is None:
        raise ValueError("render_private needs a seat's view (view.me is None).")
    y = PRIVATE_BAND_H + P_GAP
    ask_y = y
    y += private_choice_advance(view, me, lang)
    strength_y = y
    y += strength_advance(me, lang)
    hand_y = y
    y += hand_advance(me, lang)
    c = Canvas(PRIVATE_WIDTH, y, theme)
    draw_private_header(c, view, me, names, lang)
    draw_private_choice(c, view, me, ask_y, lang)
    draw_strength(c, view, me, strength_y, lang)
    draw_hand(c, view, me, hand_y, lang)
    return c.image


class SangramRenderer(
    ViewRenderer,
    name="sangram",
    board=render_board,
    private=render_private,
    filled=render_filled_board,
):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_WIDTH",
    "PRIVATE_WIDTH",
    "SangramRenderer",
    "render_board",
    "render_filled_board",
    "render_private",
]
