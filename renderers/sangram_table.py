"""Sangram's table: the volunteers face up, the deck, the Britisher supply and the
discard pile.

The volunteers players recruit from (R10) in a row of small cards; the deck,
the supply (of 40 Britishers) and the discard pile counted on the left, the
discard pile's newest cards (a Vaidik's choice, R8) on the right.
"""

from __future__ import annotations

from typing import Final

from bot.engines.sangram_views import PHASE_RECRUIT, SangramView
from renderers.common import RGB, Canvas, Theme, blend, card_back, section_heading
from renderers.sangram_cards import DISCARD_W, MINI_CARD_H, britisher_token, draw_card
from renderers.sangram_layout import GAP, HEADING_ADVANCE, MARGIN, SMALL, SUPPLY_TOTAL


def _back_colours(t: Theme, seat: int | None) -> tuple[RGB, RGB]:
    """Fill and pattern of a card back: in the seat's colour, or neutral."""
    if seat is None:
        return (104, 34, 44), (214, 170, 92)
    colour = t.seat_colour(seat)
    return blend(colour, t.background, 0.55), colour


def volunteers_advance(view: SangramView) -> int:
    """How far :func:`draw_volunteers` moves down the board."""
    return HEADING_ADVANCE + (MINI_CARD_H + GAP if view.volunteers else 48)


def draw_volunteers(c: Canvas, view: SangramView, y: int) -> None:
    """R10: the volunteers face up, a row of small cards."""
    t = c.theme
    n = len(view.volunteers)
    title = f"Volunteers · {n} face up" if n else "Volunteers"
    if view.phase == PHASE_RECRUIT:
        title += " · each player recruits one"
    y = section_heading(c, MARGIN, y, title)
    if not n:
        c.text((MARGIN, y + 4), "None face up.", size=SMALL, fill=t.muted, anchor="lt")
        return
    gap = 10
    avail = c.width - 2 * MARGIN
    w = min(DISCARD_W, (avail - gap * (max(n, 6) - 1)) // max(n, 6))
    for i, card in enumerate(view.volunteers):
        draw_card(c, (MARGIN + i * (w + gap), y), card, width=w, height=MINI_CARD_H, style="mini")


TABLE_LEFT: Final = 260
"""The deck, supply and discard counts, left of the discard pile's cards."""
TABLE_ADVANCE: Final = HEADING_ADVANCE + MINI_CARD_H + GAP


def draw_table(c: Canvas, view: SangramView, y: int) -> None:
    """Deck, Britisher supply and discard counts on the left, the discard
    pile's newest cards (a Vaidik's choice, R8) on the right."""
    t = c.theme
    y = section_heading(c, MARGIN, y, "Deck, supply and discard pile · newest first")
    x = MARGIN
    rows = (y + 15, y + 47, y + 79)

    def count(cy: int, label: str, value: int, after: str = "") -> None:
        box = c.text((x + 40, cy), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
        box = c.text((box[2] + 10, cy), str(value), size=30, fill=t.ink, anchor="lm", bold=True)
        if after:
            c.text((box[2] + 8, cy), after, size=SMALL, fill=t.muted, anchor="lm")

    fill, pattern = _back_colours(t, None)
    card_back(c, (x + 6, rows[0] - 15, x + 28, rows[0] + 15), fill=fill, pattern=pattern, radius=5)
    count(rows[0], "Deck", view.deck_size)
    britisher_token(c.draw, (x + 17, rows[1]), 13, t.background)
    count(rows[1], "Supply", view.supply, f"of {SUPPLY_TOTAL}")
    for k in range(3):
        top = rows[2] - 14 + 3 * k
        c.draw.rectangle((x + 6, top, x + 28, top + 2), fill=t.muted)
    count(rows[2], "Discard", view.discard_size)
    left = MARGIN + TABLE_LEFT
    if not view.discard_top:
        c.text((left, rows[1]), "The discard pile is empty.", size=SMALL, fill=t.muted, anchor="lm")
        return
    gap = 10
    mw = min(DISCARD_W, (c.width - MARGIN - left - gap * 4) // 5)
    for i, card in enumerate(view.discard_top[:5]):
        draw_card(c, (left + i * (mw + gap), y), card, width=mw, height=MINI_CARD_H, style="mini")
