"""Sangram's result: the places at the end of the game (R13).

The headline (who won, or a shared win, and why), then a row per place: the
seat, its army strength (crown and cards) and Britishers, and its whole hand
with the best card ringed (the last tie-break).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engines.sangram_views import FinalView, SangramView
from renderers.common import (
    Canvas,
    display_name,
    ordinal,
    result_headline,
    safe_text,
    seat_marker,
    seat_panel,
    section_heading,
    text_width,
    wrap_text,
)
from renderers.sangram_cards import DISCARD_W, MINI_CARD_H, draw_card, draw_stat
from renderers.sangram_layout import BOARD_WIDTH, HEADING_ADVANCE, MARGIN, SMALL


def result_advance(final: FinalView) -> int:
    """How far :func:`draw_result` moves down the board."""
    reason = wrap_text(safe_text(final.reason), SMALL, BOARD_WIDTH - 2 * MARGIN)
    rows = sum(len(group) for group in final.ranking)
    return HEADING_ADVANCE + 50 + (SMALL + 8) * len(reason) + 10 + (FINAL_ROW_H + 8) * rows


def draw_result(
    c: Canvas, view: SangramView, final: FinalView, names: Sequence[str], y: int
) -> None:
    """R13: the result's heading and headline, then a row per place (a shared
    place's seats one after another)."""
    y = section_heading(
        c, MARGIN, y, "Result · army strength, then fewer Britishers, then best card"
    )
    y = result_headline(
        c,
        y,
        ranking=final.ranking,
        names=names,
        tie="Shared win: ",
        reason=safe_text(final.reason),
        margin=MARGIN,
    )
    y += 10
    place = 1
    for group in final.ranking:
        for seat in group:
            _final_row(c, view, final, names, seat, place, y)
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
) -> None:
    """A place: who, army strength (crown + cards) and Britishers on a line,
    the whole hand below it, wide enough for every name."""
    t = c.theme
    colour = t.seat_colour(seat)
    x0, x1 = MARGIN, c.width - MARGIN
    rh = FINAL_ROW_H
    seat_panel(c, (x0, y, x1, y + rh), colour)
    ly = y + 26
    box = c.text((x0 + 34, ly), ordinal(place), size=SMALL, fill=t.ink, anchor="lm", bold=True)
    seat_marker(c, (max(x0 + 100, box[2] + 22), ly), 11, seat)
    total = final.total_strength[seat] if seat < len(final.total_strength) else 0
    brit = final.britishers[seat] if seat < len(final.britishers) else 0
    player = next((p for p in view.players if p.seat == seat), None)
    split = "" if player is None else f"(crown {player.level} + cards {total - player.level})"
    name_x = max(x0 + 118, box[2] + 40)
    who = display_name(names, seat)
    fixed = 28 + text_width(str(total), 30, True) + 8 + 24 + 30 + text_width(str(brit), 30, True)
    # The name is drawn whole where the line has room for it: the words
    # after the number go first ("army strength", then the split), the
    # legend and the heading saying what the number is.
    details = [f"army strength {split}".strip(), split, ""]
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
        )
    if not hand:
        c.text((x, cy + MINI_CARD_H // 2), "empty hand", size=SMALL, fill=t.muted, anchor="lm")
