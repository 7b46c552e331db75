"""Sangram's result: the places at the end of the game (R13).

The headline (who won, or a shared win, and why), then a row per place: the
seat, its army strength (crown and cards) and Britishers, and its whole hand
with the best card ringed (the last tie-break).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import bot.i18n as i18n
from bot.engines.sangram_views import FinalView, SangramView
from bot.i18n import localize
from renderers.common import (
    Canvas,
    crown,
    safe_text,
    seat_marker,
    seat_panel,
    section_heading,
    text_width,
    wrap_text,
)
from renderers.sangram_cards import DISCARD_W, MINI_CARD_H, draw_card, draw_stat
from renderers.sangram_layout import (
    BOARD_WIDTH,
    HEADING_ADVANCE,
    MARGIN,
    SMALL,
    heading_text,
    place_name,
    player_name,
)


def _reason(final: FinalView, lang: str) -> str:
    return safe_text(localize(final.reason, lang))


def result_advance(final: FinalView, lang: str = "en") -> int:
    """How far :func:`draw_result` moves down the board."""
    reason = wrap_text(_reason(final, lang), SMALL, BOARD_WIDTH - 2 * MARGIN)
    rows = sum(len(group) for group in final.ranking)
    return HEADING_ADVANCE + 50 + (SMALL + 8) * len(reason) + 10 + (FINAL_ROW_H + 8) * rows


def _headline(c: Canvas, y: int, final: FinalView, names: Sequence[str], lang: str) -> int:
    """The head of the result, its top at ``y``: "Asha wins!" and a crown
    for a lone winner, "Shared win: Asha, Bhima" for several, "Game over"
    for none; under it the reason in muted lines.  Returns the y under the
    reason.  (:func:`~renderers.common.result_headline`'s layout, its words
    in ``lang``.)"""
    t = c.theme
    top = final.ranking[0] if final.ranking else ()
    if len(top) == 1:
        headline = i18n.t(lang, "{name} wins!", name=player_name(names, top[0], lang))
    elif top:
        who = ", ".join(player_name(names, s, lang) for s in top)
        headline = i18n.t(lang, "Shared win: {names}", names=who)
    else:
        headline = i18n.t(lang, "Game over")
    box = c.text(
        (MARGIN, y),
        headline,
        size=38,
        fill=t.ink,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * MARGIN - 60,
    )
    if len(top) == 1:
        crown(c.draw, (box[2] + 14, y - 2, box[2] + 58, y + 30), t.highlight)
    y += 50
    small = c.min_text
    for line in wrap_text(_reason(final, lang), small, c.width - 2 * MARGIN):
        c.text((MARGIN, y), line, size=small, fill=t.muted, anchor="lt")
        y += small + 8
    return y


def draw_result(
    c: Canvas, view: SangramView, final: FinalView, names: Sequence[str], y: int, lang: str = "en"
) -> None:
    """R13: the result's heading and headline, then a row per place (a shared
    place's seats one after another)."""
    heading = i18n.t(lang, "Result · army strength, then fewer Britishers, then best card")
    y = section_heading(c, MARGIN, y, heading_text(c, heading, lang))
    y = _headline(c, y, final, names, lang)
    y += 10
    place = 1
    for group in final.ranking:
        for seat in group:
            _final_row(c, view, final, names, seat, place, y, lang)
            y += FINAL_ROW_H + 8
        place += len(group)


FINAL_ROW_H: Final = 148


def _final_row(
    c: Canvas,
    view: SangramView,
    final: FinalView,
    names: Sequence[str],
    seat: int,
    place: int,
    y: int,
    lang: str = "en",
) -> None:
    """A place: who, army strength (crown + cards) and Britishers on a line,
    the whole hand below it, wide enough for every name."""
    t = c.theme
    colour = t.seat_colour(seat)
    x0, x1 = MARGIN, c.width - MARGIN
    rh = FINAL_ROW_H
    seat_panel(c, (x0, y, x1, y + rh), colour)
    ly = y + 26
    box = c.text(
        (x0 + 34, ly),
        place_name(place, lang),
        size=SMALL,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=120,
    )
    seat_marker(c, (max(x0 + 100, box[2] + 22), ly), 11, seat)
    total = final.total_strength[seat] if seat < len(final.total_strength) else 0
    brit = final.britishers[seat] if seat < len(final.britishers) else 0
    player = next((p for p in view.players if p.seat == seat), None)
    split = (
        ""
        if player is None
        else i18n.t(
            lang,
            "(crown {level} + cards {cards})",
            level=player.level,
            cards=total - player.level,
        )
    )
    name_x = max(x0 + 118, box[2] + 40)
    who = player_name(names, seat, lang)
    fixed = 28 + text_width(str(total), 30, True) + 8 + 24 + 30 + text_width(str(brit), 30, True)
    # The name is drawn whole where the line has room for it: the words
    # after the number go first ("army strength", then the split), the
    # legend and the heading saying what the number is.
    details = [i18n.t(lang, "army strength {split}", split=split).strip(), split, ""]
    detail = next(
        (
            d
            for d in details
            if text_width(who, SMALL, True) + fixed + text_width(d, SMALL) <= x1 - 12 - name_x
        ),
        "",
    )
    name = c.text(
        (name_x, ly),
        who,
        size=SMALL,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - 12 - name_x - fixed - text_width(detail, SMALL),
    )
    box = c.text((name[2] + 28, ly), str(total), size=30, fill=t.ink, anchor="lm", bold=True)
    box = c.text((box[2] + 8, ly), detail, size=SMALL, fill=t.muted, anchor="lm")
    draw_stat(
        c,
        box[2] + 24,
        ly,
        "britishers",
        brit,
        size=30,
        ink=t.ink,
        icon_fill=t.ink,
        ring=t.panel,
    )
    hand = final.hands[seat] if seat < len(final.hands) else ()
    best = final.best_card[seat] if seat < len(final.best_card) else None
    x = x0 + 34
    gap = 8
    room = x1 - 12 - x
    mw = min(DISCARD_W, (room - gap * 5) // 6)
    cy = y + 46
    for i, card in enumerate(hand[:6]):
        draw_card(
            c,
            (x + i * (mw + gap), cy),
            card,
            width=mw,
            height=MINI_CARD_H,
            style="mini",
            outline=t.highlight if best is not None and card == best else None,
            lang=lang,
        )
    if not hand:
        c.text(
            (x, cy + MINI_CARD_H // 2),
            i18n.t(lang, "empty hand"),
            size=SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=room,
        )
