"""Sangram's battlefield: the round's revealed warrior cards in their order of play.

From the reveal to the end of the round (and in a replay's frame the last
round's, between rounds), each card under its seat's pill, with what became
of it on its foot: waiting, resolving, used, declined, wasted, or retreated
to its owner's hand (R4).
"""

from __future__ import annotations

from collections.abc import Sequence

import bot.i18n as i18n
from bot.engines.sangram_views import (
    OUTCOME_DECLINED,
    OUTCOME_USED,
    OUTCOME_WASTED,
    PHASE_COMMIT,
    PHASE_SETUP,
    STATUS_DONE,
    STATUS_RESOLVING,
    STATUS_RETREATED,
    STATUS_WAITING,
    SangramView,
)
from renderers.common import RGB, Canvas, fit_text, safe_text, section_heading
from renderers.sangram_cards import FACE_CARD_H, STATUS_PILL_H, draw_card
from renderers.sangram_layout import (
    GAP,
    HEADING_ADVANCE,
    MARGIN,
    SMALL,
    board_seat_pill,
    heading_text,
    seat_labels,
)


def shows_battlefield(view: SangramView) -> bool:
    """Whether this round's revealed cards are on the board (from the reveal
    to the end of the round)."""
    return view.phase not in (PHASE_SETUP, PHASE_COMMIT) and view.revealed_round == view.round


def _slot_geometry(c: Canvas, count: int) -> tuple[int, int]:
    """(slot width, gap) for ``count`` cards across the board (at most 5 seats)."""
    gap = 14
    avail = c.width - 2 * MARGIN
    w = min(204, (avail - gap * (max(count, 5) - 1)) // max(count, 5))
    return w, gap


def battlefield_advance(view: SangramView) -> int:
    """How far :func:`draw_battlefield` moves down the board."""
    if not view.revealed:
        return HEADING_ADVANCE + 48
    return HEADING_ADVANCE + 44 + FACE_CARD_H + STATUS_PILL_H // 2 + GAP


def draw_battlefield(
    c: Canvas,
    view: SangramView,
    names: Sequence[str],
    y: int,
    *,
    earlier: bool = False,
    lang: str = "en",
) -> None:
    """This round's revealed cards in their order of play; ``earlier``: the
    last round's, between rounds (a replay's frame, where there is room)."""
    t = c.theme
    if earlier:
        heading = i18n.t(
            lang,
            "Battlefield · last round, round {round} · resolved highest motivation first",
            round=view.revealed_round,
        )
    else:
        heading = i18n.t(
            lang,
            "Battlefield · round {round} · resolved highest motivation first",
            round=view.revealed_round,
        )
    y = section_heading(c, MARGIN, y, heading_text(c, heading, lang))
    if not view.revealed:
        c.text(
            (MARGIN, y + 4),
            i18n.t(lang, "No card was committed."),
            size=SMALL,
            fill=t.muted,
            anchor="lt",
            max_width=c.width - 2 * MARGIN,
        )
        return
    sw, gap = _slot_geometry(c, len(view.revealed))
    # Left to right is the order of play (the heading says so): no numbers,
    # so the widest word fits a fifth of the board at phone size.
    labels = {
        STATUS_WAITING: (i18n.t(lang, "WAITING"), t.grid, t.ink),
        STATUS_RESOLVING: (i18n.t(lang, "RESOLVING"), t.highlight, t.on_colour),
        STATUS_DONE: (i18n.t(lang, "RESOLVED"), t.good, t.on_colour),
        STATUS_RETREATED: (i18n.t(lang, "RETREATED"), t.bad, t.on_colour),
    }
    # R4: what became of a resolved card; the word says it, not only the colour.
    outcomes: dict[str | None, tuple[str, RGB, RGB, RGB | None]] = {
        OUTCOME_USED: (i18n.t(lang, "USED"), t.good, t.on_colour, None),
        OUTCOME_DECLINED: (i18n.t(lang, "DECLINED"), t.panel, t.ink, t.muted),
        OUTCOME_WASTED: (i18n.t(lang, "WASTED"), t.slot, t.bad, t.bad),
    }
    # A pill is as wide as its card at most (its ends take 20 pixels).
    pill_room = sw - 20
    for i, reveal in enumerate(view.revealed):
        x = MARGIN + i * (sw + gap)
        retreated = reveal.status == STATUS_RETREATED
        board_seat_pill(
            c,
            x,
            y + 20,
            reveal.seat,
            seat_labels(names, reveal.seat, lang),
            max_width=sw,
            dimmed=retreated,
        )
        cy = y + 44
        resolving = reveal.status == STATUS_RESOLVING
        draw_card(
            c,
            (x, cy),
            reveal.card,
            width=sw,
            height=FACE_CARD_H,
            style="face",
            outline=t.highlight if resolving else None,
            dimmed=retreated,
            lang=lang,
        )
        if retreated:
            c.pill(
                # Over the values, so the name stays readable.
                (x + sw // 2, cy + FACE_CARD_H - 38),
                fit_text(i18n.t(lang, "TO HAND"), SMALL, pill_room, True),
                size=SMALL,
                fill=t.background,
                ink=t.ink,
                anchor="m",
                height=38,
                outline=t.bad,
            )
        outline: RGB | None = None
        if reveal.status == STATUS_DONE and reveal.outcome in outcomes:
            label, fill, ink, outline = outcomes[reveal.outcome]
        else:
            label, fill, ink = labels.get(
                reveal.status, (safe_text(reveal.status).upper(), t.grid, t.ink)
            )
        # On the card's foot, so the status costs no row of its own.
        c.pill(
            (x + sw // 2, cy + FACE_CARD_H),
            fit_text(label, SMALL, pill_room, True),
            size=SMALL,
            fill=fill,
            ink=ink,
            anchor="m",
            height=STATUS_PILL_H,
            outline=outline or t.background,
        )
