"""Sangram's kingdoms: a row per seat on the board.

Each row: the seat's crown on the strength track 0-9 (the crown's part of
army strength), its Britishers (the crown stuck at five or more, R11), the
cards in its hand and the Grow draws it has made (R12), with badges for the
round: committed, choosing, to act, retreated, recruited.  The tracks are
cached per seat, level and theme.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import Image

import bot.i18n as i18n
from bot.engines.sangram_views import (
    PHASE_ACTIVATE,
    PHASE_COMMIT,
    PHASE_RECRUIT,
    PlayerView,
    SangramView,
)
from bot.i18n import N_
from renderers.common import (
    RGB,
    Canvas,
    Theme,
    badge_row,
    crown,
    seat_marker,
    seat_panel,
)
from renderers.sangram_cards import draw_stat
from renderers.sangram_layout import (
    CROWN_STUCK,
    GROW_FIRST,
    GROW_SECOND,
    HEADING_ADVANCE,
    MARGIN,
    NO_TRAIN_AT,
    SMALL,
    TRACK_TOP,
    fit_shares,
    player_name,
)

TRACK_LABEL: Final = N_("KINGDOMS · CROWN LEVEL 0-9")
"""The strength track's heading: the crown's level, part of army strength
(0 to :data:`TRACK_TOP`)."""
GROW_LABEL: Final = N_("GROW DRAWS")
GROW_MARKS: Final = ((GROW_FIRST, "+2"), (GROW_SECOND, "+1"))
"""R12: the Grow thresholds and the cards each draws, as the kingdoms'
column shows them ("7: +2", green once drawn)."""


TRACK_CELL: Final = 40
TRACK_H: Final = 44
"""Taller than wide: the crown and a phone-sized number share the crowned cell."""
TRACK_GAP: Final = 4


TRACK_WIDTH: Final = (TRACK_TOP + 1) * (TRACK_CELL + TRACK_GAP) - TRACK_GAP


@lru_cache(maxsize=128)
def _track_image(seat: int, level: int, theme: Theme, display_width: int) -> Image.Image:
    """The strength track 0..9 of one seat with its crown at ``level``, on the
    panel colour, for an image ``display_width`` wide.  Cached: never mutate
    the result."""
    c = Canvas(TRACK_WIDTH, TRACK_H, theme, display_width)
    t = theme
    c.draw.rectangle((0, 0, c.width, c.height), fill=t.panel)
    colour = t.seat_colour(seat)
    half = TRACK_CELL // 2
    for k in range(TRACK_TOP + 1):
        x = k * (TRACK_CELL + TRACK_GAP)
        box = (x, 0, x + TRACK_CELL - 1, TRACK_H - 1)
        if k == level:
            c.panel(box, fill=colour, radius=8, outline=t.ink, width=2)
            crown(c.draw, (x + 10, 3, x + TRACK_CELL - 10, 17), t.on_colour)
            c.text(
                (x + half, 31), str(k), size=c.min_text, fill=t.on_colour, anchor="mm", bold=True
            )
        else:
            fill = t.dim(colour, 0.72) if k < level else t.slot
            c.panel(box, fill=fill, radius=8, outline=t.grid, width=1)
            c.text((x + half, TRACK_H // 2), str(k), size=c.min_text, fill=t.muted, anchor="mm")
    return c.image


def _track(c: Canvas, x: int, cy: int, seat: int, level: int) -> int:
    """A row of the strength track 0..9 with the seat's crown (on a panel);
    returns its right edge."""
    c.image.paste(_track_image(seat, level, c.theme, c.display_width), (x, cy - TRACK_H // 2))
    return x + TRACK_WIDTH


def _acting(view: SangramView, seat: int) -> bool:
    """Whether the seat's row is highlighted: a seat the game waits for
    (committing, deciding during Activate, recruiting)."""
    return seat in view.waiting_on and view.phase in (PHASE_COMMIT, PHASE_ACTIVATE, PHASE_RECRUIT)


def _badges(view: SangramView, p: PlayerView, lang: str = "en") -> list[tuple[str, RGB, bool]]:
    """(label, colour, dark ink) of the seat's round badges, most important first."""
    out: list[tuple[str, RGB, bool]] = []
    active = view.phase in (PHASE_COMMIT, PHASE_ACTIVATE, PHASE_RECRUIT)
    if view.phase == PHASE_COMMIT:
        # R4: who has committed (never which card) and who is still choosing.
        if p.committed:
            out.append((i18n.t(lang, "CARD FACE DOWN"), (96, 204, 120), True))
        elif p.seat in view.waiting_on:
            out.append((i18n.t(lang, "CHOOSING"), (255, 214, 102), True))
        else:
            out.append((i18n.t(lang, "NO CARD TO COMMIT"), (72, 77, 92), False))
    elif _acting(view, p.seat):
        out.append((i18n.t(lang, "TO ACT"), (255, 214, 102), True))
    if active and p.retreated:
        out.append((i18n.t(lang, "RETREATED"), (240, 110, 90), True))
    elif active and p.skips_recruit:
        out.append((i18n.t(lang, "NO RECRUIT"), (72, 77, 92), False))
    if active and p.no_britishers:
        out.append((i18n.t(lang, "NO BRITISHERS AT RECRUIT"), (72, 77, 92), False))
    if view.phase == PHASE_RECRUIT and p.recruited:
        out.append((i18n.t(lang, "RECRUITED"), (96, 204, 120), True))
    return out


KINGDOM_ROW_H: Final = 86
KINGDOM_GAP: Final = 6


def kingdoms_advance(view: SangramView) -> int:
    """How far :func:`draw_kingdoms` moves down the board."""
    return HEADING_ADVANCE + (KINGDOM_ROW_H + KINGDOM_GAP) * len(view.players) + 8


def draw_kingdoms(
    c: Canvas, view: SangramView, names: Sequence[str], y: int, lang: str = "en"
) -> None:
    """The kingdoms: the column labels, then a row per seat."""
    t = c.theme
    y = _kingdoms_header(c, y, lang)
    x0, x1 = MARGIN, c.width - MARGIN
    track_x, brit_x, hand_x, grow_x = _columns()
    rh = KINGDOM_ROW_H
    for p in view.players:
        seat_panel(c, (x0, y, x1, y + rh), t.seat_colour(p.seat), acting=_acting(view, p.seat))
        ly = y + 23
        seat_marker(c, (x0 + 40, ly), 11, p.seat)
        found = _badges(view, p, lang)
        # The badges leave the seat's number and 200 pixels of its name.
        labels = fit_shares(
            [label for label, _, _ in found], c.min_text, x1 - 12 - (x0 + 60) - 260, extra=28
        )
        badges = [
            (label, fill, t.on_colour if dark else t.ink)
            for label, (_, fill, dark) in zip(labels, found, strict=True)
        ]
        right = badge_row(c, x1 - 12, ly, reversed(badges))
        box = c.text(
            (x0 + 60, ly), f"P{p.seat + 1}", size=SMALL, fill=t.muted, anchor="lm", bold=True
        )
        c.text(
            (box[2] + 10, ly),
            player_name(names, p.seat, lang),
            size=SMALL,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=right - box[2] - 24,
        )
        cy = y + 61
        _track(c, track_x, cy, p.seat, max(0, min(TRACK_TOP, p.level)))
        heavy = p.britishers >= NO_TRAIN_AT
        end = draw_stat(
            c,
            brit_x,
            cy,
            "britishers",
            p.britishers,
            size=30,
            ink=t.bad if heavy else t.ink,
            icon_fill=t.ink,
            ring=t.panel,
        )
        if heavy:
            c.text(
                (end + 8, cy),
                i18n.t(lang, CROWN_STUCK),
                size=SMALL,
                fill=t.bad,
                anchor="lm",
                max_width=hand_x - end - 16,
            )
        c.text(
            (hand_x, cy),
            i18n.tn(lang, "{n} card", "{n} cards", p.hand_size),
            size=SMALL,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=grow_x - hand_x - 4,
        )
        gx = grow_x
        for k, (threshold, draws) in enumerate(GROW_MARKS):
            reached = p.grown > k
            box = c.pill(
                (gx, cy),
                f"{threshold}: {draws}",
                size=SMALL,
                fill=t.good if reached else t.slot,
                ink=t.on_colour if reached else t.muted,
                height=36,
                pad=9,
                outline=None if reached else t.grid,
            )
            gx = box[2] + 8
        y += rh + KINGDOM_GAP


def _columns() -> tuple[int, int, int, int]:
    """x of the kingdom rows' columns: track, Britishers, hand, grow marks."""
    track_x = MARGIN + 30
    brit_x = track_x + TRACK_WIDTH + 18
    hand_x = brit_x + 226
    grow_x = hand_x + 116
    return track_x, brit_x, hand_x, grow_x


def _kingdoms_header(c: Canvas, y: int, lang: str = "en") -> int:
    """The section's heading and column labels in one line above the kingdom rows."""
    t = c.theme
    _, brit_x, hand_x, grow_x = _columns()
    # Each label stops short of the next column's.
    labels = (
        (MARGIN, i18n.t(lang, TRACK_LABEL), brit_x),
        (brit_x, i18n.t(lang, "BRITISHERS"), hand_x),
        (hand_x, i18n.t(lang, "HAND"), grow_x),
        (grow_x, i18n.t(lang, GROW_LABEL), c.width - MARGIN + 8),
    )
    for x, label, end in labels:
        c.text(
            (x, y),
            label,
            size=SMALL,
            fill=t.muted,
            anchor="lt",
            bold=True,
            max_width=end - 8 - x,
        )
    return y + HEADING_ADVANCE
