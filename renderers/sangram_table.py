"""Sangram's table: the volunteers face up, the deck, the Britisher supply and the
discard pile.

The volunteers players recruit from (R10) in a row of small cards; the deck,
the supply (of 40 Britishers) and the discard pile counted on the left, the
discard pile's newest cards (a Vaidik's choice, R8) on the right.
"""

from __future__ import annotations

from typing import Final

import bot.i18n as i18n
from bot.engines.sangram_views import PHASE_RECRUIT, SangramView
from renderers.common import (
    RGB,
    Canvas,
    Theme,
    blend,
    card_back,
    fit_text,
    section_heading,
    text_width,
)
from renderers.sangram_cards import DISCARD_W, MINI_CARD_H, britisher_token, draw_card
from renderers.sangram_layout import GAP, HEADING_ADVANCE, MARGIN, SMALL, SUPPLY_TOTAL, heading_text


def _back_colours(t: Theme, seat: int | None) -> tuple[RGB, RGB]:
    """Fill and pattern of a card back: in the seat's colour, or neutral."""
    if seat is None:
        return (104, 34, 44), (214, 170, 92)
    colour = t.seat_colour(seat)
    return blend(colour, t.background, 0.55), colour


def volunteers_advance(view: SangramView) -> int:
    """How far :func:`draw_volunteers` moves down the board."""
    return HEADING_ADVANCE + (MINI_CARD_H + GAP if view.volunteers else 48)


def draw_volunteers(c: Canvas, view: SangramView, y: int, lang: str = "en") -> None:
    """R10: the volunteers face up, a row of small cards."""
    t = c.theme
    n = len(view.volunteers)
    recruit = view.phase == PHASE_RECRUIT
    if n and recruit:
        title = i18n.t(lang, "Volunteers · {n} face up · each player recruits one", n=n)
    elif n:
        title = i18n.t(lang, "Volunteers · {n} face up", n=n)
    elif recruit:
        title = i18n.t(lang, "Volunteers · each player recruits one")
    else:
        title = i18n.t(lang, "Volunteers")
    room = c.width - 2 * MARGIN
    y = section_heading(c, MARGIN, y, heading_text(c, title, lang))
    if not n:
        c.text(
            (MARGIN, y + 4),
            i18n.t(lang, "None face up."),
            size=SMALL,
            fill=t.muted,
            anchor="lt",
            max_width=room,
        )
        return
    gap = 10
    avail = c.width - 2 * MARGIN
    w = min(DISCARD_W, (avail - gap * (max(n, 6) - 1)) // max(n, 6))
    for i, card in enumerate(view.volunteers):
        draw_card(
            c,
            (MARGIN + i * (w + gap), y),
            card,
            width=w,
            height=MINI_CARD_H,
            style="mini",
            lang=lang,
        )


TABLE_LEFT: Final = 260
"""The deck, supply and discard counts, left of the discard pile's cards."""
TABLE_ADVANCE: Final = HEADING_ADVANCE + MINI_CARD_H + GAP


def draw_table(c: Canvas, view: SangramView, y: int, lang: str = "en") -> None:
    """Deck, Britisher supply and discard counts on the left, the discard
    pile's newest cards (a Vaidik's choice, R8) on the right."""
    t = c.theme
    heading = i18n.t(lang, "Deck, supply and discard pile · newest first")
    y = section_heading(c, MARGIN, y, heading_text(c, heading, lang))
    x = MARGIN
    rows = (y + 15, y + 47, y + 79)
    left = MARGIN + TABLE_LEFT
    # The counts' words share what the numbers leave left of the discards.
    room = left - 8 - (x + 40)
    number = 10 + text_width("40", 30, True)
    of_total = i18n.t(lang, "of {n}", n=SUPPLY_TOTAL)
    deck, supply, discard = (
        fit_text(label, SMALL, room - number, True)
        for label in (i18n.t(lang, "Deck"), i18n.t(lang, "Supply"), i18n.t(lang, "Discard"))
    )

    def count(cy: int, label: str, value: int, after: str = "") -> None:
        box = c.text((x + 40, cy), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
        box = c.text((box[2] + 10, cy), str(value), size=30, fill=t.ink, anchor="lm", bold=True)
        if after:
            c.text(
                (box[2] + 8, cy),
                after,
                size=SMALL,
                fill=t.muted,
                anchor="lm",
                max_width=left - 8 - (box[2] + 8),
            )

    fill, pattern = _back_colours(t, None)
    card_back(c, (x + 6, rows[0] - 15, x + 28, rows[0] + 15), fill=fill, pattern=pattern, radius=5)
    count(rows[0], deck, view.deck_size)
    britisher_token(c.draw, (x + 17, rows[1]), 13, t.background)
    count(rows[1], supply, view.supply, of_total)
    for k in range(3):
        top = rows[2] - 14 + 3 * k
        c.draw.rectangle((x + 6, top, x + 28, top + 2), fill=t.muted)
    count(rows[2], discard, view.discard_size)
    if not view.discard_top:
        c.text(
            (left, rows[1]),
            i18n.t(lang, "The discard pile is empty."),
            size=SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=c.width - MARGIN - left,
        )
        return
    gap = 10
    mw = min(DISCARD_W, (c.width - MARGIN - left - gap * 4) // 5)
    for i, card in enumerate(view.discard_top[:5]):
        draw_card(
            c,
            (left + i * (mw + gap), y),
            card,
            width=mw,
            height=MINI_CARD_H,
            style="mini",
            lang=lang,
        )
