"""Sangram's Grow reveals: the hands shown on reaching army strength 7 (R12).

The latest such round's hands, a row each (the seat, its army strength as
crown and cards, the cards), as many as the board has room for; the rest are
named in a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import bot.i18n as i18n
from bot.engines.sangram_views import PHASE_OVER, GrowRevealView, SangramView
from renderers.common import Canvas, section_heading
from renderers.sangram_cards import MINI_CARD_H, draw_card, mini_width
from renderers.sangram_layout import (
    GROW_FIRST,
    HEADING_ADVANCE,
    MARGIN,
    SMALL,
    board_seat_pill,
    heading_text,
    player_name,
    seat_labels,
)
from renderers.sangram_table import TABLE_LEFT

GROW_ROW_H: Final = MINI_CARD_H + 12


def shows_grow(view: SangramView) -> bool:
    """Whether the board shows Grow reveals: those of this round or the last,
    until the game is over."""
    if not view.grow_reveals or view.phase == PHASE_OVER:
        return False
    return max(g.round for g in view.grow_reveals) >= view.round - 1


def grow_advance(shown: int, left_out: int) -> int:
    """How far :func:`draw_grow` moves down the board showing ``shown`` hands
    and a line for ``left_out`` more."""
    return HEADING_ADVANCE + GROW_ROW_H * shown + (SMALL + 16 if left_out else 0) + 4


def draw_grow(
    c: Canvas, view: SangramView, names: Sequence[str], y: int, shown: int, lang: str = "en"
) -> None:
    """R12: the hands shown when a player first reached 7 (latest such round);
    the first ``shown`` as cards, the rest named in a line (the message of
    that round listed their cards)."""
    t = c.theme
    reveals = view.grow_reveals
    rnd = max(g.round for g in reveals)
    heading = i18n.t(
        lang,
        "Grow · round {round} · hands shown on reaching army strength {n}",
        round=rnd,
        n=GROW_FIRST,
    )
    y = section_heading(c, MARGIN, y, heading_text(c, heading, lang))
    for g in reveals[:shown]:
        _grow_row(c, g, names, y, lang)
        y += GROW_ROW_H
    rest = reveals[shown:]
    if rest:
        who = ", ".join(player_name(names, g.seat, lang) for g in rest)
        c.text(
            (MARGIN, y + 4),
            i18n.t(
                lang, "Also shown: {names} (their cards are in that round's messages).", names=who
            ),
            size=SMALL,
            fill=t.muted,
            anchor="lt",
            max_width=c.width - 2 * MARGIN,
        )


def _grow_row(c: Canvas, g: GrowRevealView, names: Sequence[str], y: int, lang: str = "en") -> None:
    t = c.theme
    x0 = MARGIN
    left_w = TABLE_LEFT
    board_seat_pill(c, x0, y + 20, g.seat, seat_labels(names, g.seat, lang), max_width=left_w - 10)
    cards = sum(card.strength for card in g.cards)
    box = c.text((x0, y + 58), str(g.total_strength), size=30, fill=t.ink, anchor="lm", bold=True)
    c.text(
        (box[2] + 8, y + 58),
        i18n.t(lang, "army strength"),
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=x0 + left_w - 10 - (box[2] + 8),
    )
    c.text(
        (x0, y + 87),
        i18n.t(lang, "crown {level} + cards {cards}", level=g.level, cards=cards),
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=left_w - 10,
    )
    gap = 6
    x = x0 + left_w
    room = c.width - MARGIN - x
    # Sized as for a hand of six (the most a Grow can show) when it has six,
    # else as for five, so the rows line up.
    mw = mini_width(room, max(5, len(g.cards)), gap)
    for i, card in enumerate(g.cards):
        draw_card(
            c,
            (x + i * (mw + gap), y),
            card,
            width=mw,
            height=MINI_CARD_H,
            style="mini",
            lang=lang,
        )
    if not g.cards:
        c.text(
            (x, y + 38),
            i18n.t(lang, "no cards"),
            size=SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=room,
        )
