"""What both Sangram images share: their measures, the rules' numbers, a seat's and a
choice's words.

The widths, margin, smallest text and height cap of the board and the private
image; the numbers of the rules they show (the track 0-9, the Grow thresholds,
the game's end, Train's limit, R2 and R11-R13); a seat's label and the board's
seat pill; a choice's prompt and where it comes from (a Yuvaraj's copy, a
Sarthi's draw).  See ``docs/rules/sangram.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Final

from bot.engines.sangram_views import ChoiceView
from renderers.common import (
    Canvas,
    display_name,
    min_text_size,
    safe_text,
    seat_pill,
    seat_pill_width,
)

# ----------------------------------------------------------------- measures and numbers

BOARD_WIDTH: Final = 1100
PRIVATE_WIDTH: Final = 1000
MARGIN: Final = 24
SMALL: Final = min_text_size(BOARD_WIDTH)
"""The board's smallest text (labels, track numbers, events, badges)."""
P_SMALL: Final = min_text_size(PRIVATE_WIDTH)
"""The private image's smallest text."""

GROW_FIRST: Final = 7
"""R12: the first Grow threshold (draw 2 cards, hand of 5)."""
GROW_SECOND: Final = 13
"""R12: the second Grow threshold (draw 1 card, hand of 6)."""
GAME_END: Final = 18
"""R13: a Total Army Strength that ends the game after the round."""
TRACK_TOP: Final = 9
"""R2: the strength track runs 0..9."""
SUPPLY_TOTAL: Final = 40
"""R2: Britisher tokens in the game."""
NO_TRAIN_AT: Final = 5
"""R11: a player with this many Britishers or more does not Train."""

MAX_HEIGHT_RATIO: Final = 1.25
"""Every image is at most this many times as tall as it is wide: Discord
shows an attachment in a box of capped height, so a taller image is shrunk
(and its text with it) until someone taps it."""
BOARD_MAX_H: Final = int(BOARD_WIDTH * MAX_HEIGHT_RATIO)
PRIVATE_MAX_H: Final = int(PRIVATE_WIDTH * MAX_HEIGHT_RATIO)
GAP: Final = 14
"""The space under a section."""
HEADING_ADVANCE: Final = SMALL + 14
"""How far :func:`~renderers.common.section_heading` moves down the board."""

# ----------------------------------------------------------------- words

CROWN_STUCK: Final = "crown stuck"
"""Beside a Britisher count of :data:`NO_TRAIN_AT` or more: that crown does
not move up at Train (R11)."""

# ----------------------------------------------------------------- a seat, a choice


def seat_label(names: Sequence[str], seat: int) -> str:
    """``P2 Bhima``: the number the action menus use, then the name."""
    return f"P{seat + 1} {display_name(names, seat)}"


def seat_labels(names: Sequence[str], seat: int) -> tuple[str, str]:
    """A seat pill's label, longest first (:func:`seat_label`, then the name
    alone): where ``P2 Bhima`` has no room the number goes, the name stays."""
    return seat_label(names, seat), display_name(names, seat)


def prompt_text(choice: ChoiceView) -> str:
    """The choice's prompt (it never names the deciding seat: that is drawn as
    a pill beside it), starting with a capital."""
    text = safe_text(choice.prompt).strip()
    if not text:
        return "Choose a volunteer" if choice.kind == "recruit" else "Make a choice"
    return text[0].upper() + text[1:]


def _kind_title(kind: str) -> str:
    return kind.capitalize() if kind else "card"


def origin_note(choice: ChoiceView) -> str:
    """Where a choice comes from, in a line under its prompt: the recruit
    order, a Vyapari's give, a Yuvaraj's copy, a Sarthi's draw, the card
    resolving."""
    if choice.kind == "recruit":
        return "Volunteers are taken in activation order (highest motivation first)."
    effect = _kind_title(choice.effect)
    card = choice.card
    if choice.kind == "give":
        return "Vyapari: a card of your choice goes to the player you took from."
    if choice.origin == "copy":
        return f"A Yuvaraj copying the {effect} activity (may decline)."
    if choice.origin == "draw":
        return f"{effect} drawn by a Sarthi and activated at once (may decline)."
    if card is not None:
        return f"{safe_text(card.name)} {card.motivation} resolving (may decline)."
    return f"{effect} activity (may decline)."


# ----------------------------------------------------------------- the board's seat pill

SEAT_PILL_H: Final = 40
SEAT_PILL_PAD: Final = 9
SEAT_PILL_GAP: Final = 7
board_seat_pill = partial(seat_pill, height=SEAT_PILL_H, pad=SEAT_PILL_PAD, gap=SEAT_PILL_GAP)
"""The board's :func:`~renderers.common.seat_pill` (a seat's shape and label)."""


def board_pill_width(c: Canvas, label: str) -> int:
    """How wide :data:`board_seat_pill` draws ``label`` whole."""
    return seat_pill_width(c, label, height=SEAT_PILL_H, pad=SEAT_PILL_PAD, gap=SEAT_PILL_GAP)
