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

import bot.i18n as i18n
from bot.engines.sangram_views import ChoiceView
from bot.i18n import N_, localize
from renderers.common import (
    Canvas,
    display_name,
    fit_text,
    min_text_size,
    safe_text,
    seat_pill,
    seat_pill_width,
    text_width,
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

CROWN_STUCK: Final = N_("crown stuck")
"""Beside a Britisher count of :data:`NO_TRAIN_AT` or more: that crown does
not move up at Train (R11)."""

# The warriors' names and activities are drawn as ``i18n.t(lang, text)``:
# the engine lists them for the catalog (``bot.engines.sangram_cards.DATA_NAMES``).
PLACES: Final = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"))
"""A result's places (at most five players)."""

# ----------------------------------------------------------------- a seat, a choice


def player_name(names: Sequence[str], seat: int, lang: str = "en") -> str:
    """:func:`~renderers.common.display_name` with its stand-in (``Player 2``)
    in ``lang``."""
    return display_name(names, seat, i18n.t(lang, "Player"))


def place_name(place: int, lang: str = "en") -> str:
    """``1st`` .. ``5th`` in ``lang``."""
    if 1 <= place <= len(PLACES):
        return i18n.t(lang, PLACES[place - 1])
    return f"{place}."


def seat_label(names: Sequence[str], seat: int, lang: str = "en") -> str:
    """``P2 Bhima``: the number the action menus use, then the name."""
    return f"P{seat + 1} {player_name(names, seat, lang)}"


def seat_labels(names: Sequence[str], seat: int, lang: str = "en") -> tuple[str, str]:
    """A seat pill's label, longest first (:func:`seat_label`, then the name
    alone): where ``P2 Bhima`` has no room the number goes, the name stays."""
    return seat_label(names, seat, lang), player_name(names, seat, lang)


def warrior_name(name: str, lang: str = "en") -> str:
    """A card's name in ``lang``, made drawable."""
    return safe_text(i18n.t(lang, name))


def prompt_text(choice: ChoiceView, lang: str = "en") -> str:
    """The choice's prompt (it never names the deciding seat: that is drawn as
    a pill beside it), starting with a capital."""
    text = safe_text(localize(choice.prompt, lang)).strip()
    if not text:
        if choice.kind == "recruit":
            return i18n.t(lang, "Choose a volunteer")
        return i18n.t(lang, "Make a choice")
    return text[0].upper() + text[1:]


def _kind_title(kind: str, lang: str) -> str:
    return i18n.t(lang, kind.capitalize()) if kind else i18n.t(lang, "card")


def origin_note(choice: ChoiceView, lang: str = "en") -> str:
    """Where a choice comes from, in a line under its prompt: the recruit
    order, a Vyapari's give, a Yuvaraj's copy, a Sarthi's draw, the card
    resolving."""
    if choice.kind == "recruit":
        return i18n.t(lang, "Volunteers are taken in activation order (highest motivation first).")
    effect = _kind_title(choice.effect, lang)
    card = choice.card
    if choice.kind == "give":
        return i18n.t(lang, "Vyapari: a card of your choice goes to the player you took from.")
    if choice.origin == "copy":
        return i18n.t(lang, "A Yuvaraj copying the {effect} activity (may decline).", effect=effect)
    if choice.origin == "draw":
        return i18n.t(
            lang, "{effect} drawn by a Sarthi and activated at once (may decline).", effect=effect
        )
    if card is not None:
        return i18n.t(
            lang,
            "{card} {motivation} resolving (may decline).",
            card=warrior_name(card.name, lang),
            motivation=card.motivation,
        )
    return i18n.t(lang, "{effect} activity (may decline).", effect=effect)


def heading_text(c: Canvas, text: str, lang: str) -> str:
    """A section heading for :func:`~renderers.common.section_heading` (which
    sets it in capitals), cut to the image's width.  English headings are
    drawn as they were before issue 33, pixel for pixel: a replay frame's
    "Battlefield · last round, ..." runs to the edge there (a fix of its own)."""
    if lang == i18n.DEFAULT:
        return text
    return fit_text(text.upper(), c.min_text, c.width - 2 * MARGIN, True)


def fit_shares(texts: Sequence[str], size: int, room: int, *, extra: int = 0) -> list[str]:
    """``texts`` (bold, ``size`` pixels) for a line ``room`` wide where each
    also takes ``extra`` pixels (a pill's ends, a gap): as they are when all
    fit, else each cut to the widest share that lets them fit (a short one
    stays whole beside a long one)."""
    widths = [text_width(text, size, True) for text in texts]
    if sum(widths) + extra * len(texts) <= room:
        return list(texts)
    cap = max(widths, default=0)
    while cap > 0 and sum(min(w, cap) for w in widths) + extra * len(texts) > room:
        cap -= 4
    return [fit_text(text, size, max(cap, 0), True) for text in texts]


# ----------------------------------------------------------------- the board's seat pill

SEAT_PILL_H: Final = 40
SEAT_PILL_PAD: Final = 9
SEAT_PILL_GAP: Final = 7
board_seat_pill = partial(seat_pill, height=SEAT_PILL_H, pad=SEAT_PILL_PAD, gap=SEAT_PILL_GAP)
"""The board's :func:`~renderers.common.seat_pill` (a seat's shape and label)."""


def board_pill_width(c: Canvas, label: str) -> int:
    """How wide :data:`board_seat_pill` draws ``label`` whole."""
    return seat_pill_width(c, label, height=SEAT_PILL_H, pad=SEAT_PILL_PAD, gap=SEAT_PILL_GAP)
