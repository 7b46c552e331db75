"""The parts of a Sangram player's private image: their hand and army strength.

The seat's band (only they see it), the decision they are asked for now, their
army strength (cards in hand and crown level) against the thresholds 7, 13
and 18 with their Britishers and whether Train moves their crown (R11-R13),
then the hand itself in big cards, the committed card first and marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import bot.i18n as i18n
from bot.engines.sangram_views import (
    PHASE_COMMIT,
    PHASE_OVER,
    PHASE_SETUP,
    CardView,
    HandView,
    SangramView,
)
from bot.i18n import N_
from renderers.common import (
    Canvas,
    blend,
    fit_text,
    private_band,
    private_heading,
    seat_marker,
    section_heading,
    wrap_text,
)
from renderers.sangram_cards import draw_card, draw_stat, hand_card_height
from renderers.sangram_layout import (
    GAME_END,
    GROW_FIRST,
    GROW_SECOND,
    MARGIN,
    NO_TRAIN_AT,
    P_SMALL,
    PRIVATE_WIDTH,
    heading_text,
    origin_note,
    prompt_text,
    seat_label,
    warrior_name,
)

# ----------------------------------------------------------------- the band and the decision asked

PRIVATE_BAND_H: Final = 108
P_GAP: Final = 16
"""The space under a part of the private image."""


def draw_private_header(
    c: Canvas, view: SangramView, me: HandView, names: Sequence[str], lang: str = "en"
) -> None:
    """The seat's band: whose hand, where the game stands, and the prompt when
    the seat must act."""
    kicker = i18n.t(lang, "SANGRAM · YOUR HAND (ONLY YOU SEE THIS)")
    private_band(
        c,
        colour=c.theme.seat_colour(me.seat),
        kicker=fit_text(kicker, c.min_text, c.width - 2 * MARGIN - 8, True),
        margin=MARGIN,
        height=PRIVATE_BAND_H,
    )
    seat_marker(c, (MARGIN + 22, 70), 14, me.seat)
    if view.phase == PHASE_SETUP:
        where = i18n.t(lang, "Setting up")
    elif view.phase == PHASE_OVER:
        where = i18n.t(lang, "Game over")
    else:
        where = i18n.t(lang, "Round {round}", round=view.round)
    # The name keeps 300 pixels at least beside where the game stands.
    where = fit_text(where, 28, c.width - 2 * MARGIN - 46 - 300, True)
    prompt = None
    if me.seat in view.waiting_on and view.phase != PHASE_OVER:
        prompt = (
            i18n.t(lang, "COMMIT A CARD")
            if view.phase == PHASE_COMMIT
            else i18n.t(lang, "YOUR TURN")
        )
        prompt = fit_text(prompt, P_SMALL, c.width - 2 * MARGIN - 46 - 300, True)
    private_heading(
        c,
        name=seat_label(names, me.seat, lang),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        small=P_SMALL,
    )


def _private_ask(view: SangramView, me: HandView, lang: str = "en") -> tuple[str, str] | None:
    """(what, note) of the decision this seat is asked for now, if any."""
    choice = view.choice
    if choice is not None and choice.seat == me.seat:
        return prompt_text(choice, lang), origin_note(choice, lang)
    if view.phase == PHASE_COMMIT and me.seat in view.waiting_on:
        if me.committed is not None:
            return i18n.t(lang, "Change your face-down card if you like"), ""
        return i18n.t(lang, "Choose a card to commit face down"), ""
    return None


def private_choice_advance(view: SangramView, me: HandView, lang: str = "en") -> int:
    """How far :func:`draw_private_choice` moves down the private image (nothing
    when the seat is asked nothing)."""
    ask = _private_ask(view, me, lang)
    if ask is None:
        return 0
    return (90 if ask[1] else 58) + P_GAP


def draw_private_choice(
    c: Canvas, view: SangramView, me: HandView, y: int, lang: str = "en"
) -> None:
    """The decision this seat is asked for now, if any."""
    t = c.theme
    ask = _private_ask(view, me, lang)
    if ask is None:
        return
    text, note = ask
    x0, x1 = MARGIN, c.width - MARGIN
    h = 90 if note else 58
    c.panel((x0, y, x1, y + h), fill=blend(t.highlight, t.panel, 0.86), outline=t.highlight)
    c.text(
        (x0 + 18, y + 29),
        text,
        size=26,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 36,
    )
    if note:
        c.text(
            (x0 + 18, y + 63), note, size=P_SMALL, fill=t.muted, anchor="lm", max_width=x1 - x0 - 36
        )


# ----------------------------------------------------------------- army strength

COMMITTED_NOTE: Final = N_("Your committed card is not in your hand: it does not count.")
STRENGTH_H: Final = 176
"""The strength panel without the committed card's note."""


def _committed_note_lines(me: HandView, lang: str = "en") -> list[str]:
    """The strength panel's note on a committed card, wrapped (none without one)."""
    if me.committed is None:
        return []
    return wrap_text(i18n.t(lang, COMMITTED_NOTE), P_SMALL, PRIVATE_WIDTH - 2 * MARGIN - 40)


def strength_advance(me: HandView, lang: str = "en") -> int:
    """How far :func:`draw_strength` moves down the private image."""
    return STRENGTH_H + (P_SMALL + 8) * len(_committed_note_lines(me, lang)) + P_GAP


def train_note(britishers: int, lang: str = "en") -> str:
    """R11 in player words, beside a seat's Britisher count."""
    if britishers >= NO_TRAIN_AT:
        # CROWN_STUCK's words, then R11's reason.
        return i18n.t(lang, "crown stuck: {n} or more Britishers", n=NO_TRAIN_AT)
    return i18n.t(lang, "crown +1 each round: {n} or fewer Britishers", n=NO_TRAIN_AT - 1)


STRENGTH_MARKS: Final = (
    (GROW_FIRST, N_("Grow: show your hand, draw 2 cards")),
    (GROW_SECOND, N_("Grow: draw 1 more card")),
    (GAME_END, N_("The game ends after that round")),
)
"""The private scale's thresholds (R12, R13) and what each does."""


def draw_strength(c: Canvas, view: SangramView, me: HandView, y: int, lang: str = "en") -> None:
    """Army strength (cards in hand + crown level) against the thresholds 7,
    13 and 18."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    note_lines = _committed_note_lines(me, lang)
    h = STRENGTH_H + (P_SMALL + 8) * len(note_lines)
    c.panel((x0, y, x1, y + h))
    player = next((p for p in view.players if p.seat == me.seat), None)
    level = player.level if player is not None else me.total_strength - me.hand_strength
    grown = player.grown if player is not None else 0
    total = me.total_strength
    # The left part of the panel ends where the scale begins (x0 + 380).
    c.text(
        (x0 + 20, y + 14),
        i18n.t(lang, "ARMY STRENGTH"),
        size=P_SMALL,
        fill=t.muted,
        anchor="lt",
        bold=True,
        max_width=350,
    )
    box = c.text((x0 + 20, y + 72), str(total), size=64, fill=t.ink, anchor="lm", bold=True)
    split_room = x0 + 370 - (box[2] + 16)
    c.text(
        (box[2] + 16, y + 58),
        i18n.t(lang, "cards {n}", n=me.hand_strength),
        size=26,
        fill=t.ink,
        anchor="lm",
        max_width=split_room,
    )
    c.text(
        (box[2] + 16, y + 87),
        i18n.t(lang, "+ crown {n}", n=level),
        size=26,
        fill=t.ink,
        anchor="lm",
        max_width=split_room,
    )
    if player is not None:
        heavy = player.britishers >= NO_TRAIN_AT
        note_y = y + 134
        right = draw_stat(
            c,
            x0 + 20,
            note_y,
            "britishers",
            player.britishers,
            size=30,
            ink=t.bad if heavy else t.ink,
            icon_fill=t.ink,
            ring=t.panel,
        )
        # Two short lines beside the count: one line would run into the scale.
        lines = wrap_text(train_note(player.britishers, lang), P_SMALL, 352 - (right - x0))
        if len(lines) > 2:
            rest = " ".join(lines[1:])
            lines = [lines[0], fit_text(rest, P_SMALL, 352 - (right - x0))]
        for k, line in enumerate(lines):
            ly = note_y + (k - (len(lines) - 1) / 2) * (P_SMALL + 4)
            c.text(
                (right + 10, ly), line, size=P_SMALL, fill=t.bad if heavy else t.muted, anchor="lm"
            )
    # The scale 0..18 with the three thresholds, then one line per threshold.
    bx0, bx1 = x0 + 380, x1 - 24
    by = y + 30
    span = GAME_END

    def px(v: int) -> float:
        return bx0 + (bx1 - bx0) * max(0, min(v, span)) / span

    colour = t.seat_colour(me.seat)
    c.draw.rounded_rectangle((bx0, by - 9, bx1, by + 9), radius=9, fill=t.slot, outline=t.grid)
    if total > 0:
        c.draw.rounded_rectangle(
            (bx0, by - 9, max(bx0 + 18, px(total)), by + 9), radius=9, fill=colour
        )
    for value, _ in STRENGTH_MARKS:
        mx = px(value)
        c.draw.line((mx, by - 14, mx, by + 14), fill=t.ink, width=3)
    ly = by + 40
    for k, (value, what) in enumerate(STRENGTH_MARKS):
        done = grown > k and value != GAME_END
        reached = done or total >= value
        c.text(
            (bx0, ly),
            str(value),
            size=26,
            fill=t.good if reached else t.ink,
            anchor="lm",
            bold=True,
        )
        if done:
            status = i18n.t(lang, "done")
        elif reached:
            status = i18n.t(lang, "reached")
        else:
            status = i18n.t(lang, "{n} to go", n=value - total)
        sbox = c.text(
            (bx1, ly),
            status,
            size=P_SMALL,
            fill=t.good if reached else t.ink,
            anchor="rm",
            bold=True,
            max_width=(bx1 - bx0 - 40) // 3,
        )
        c.text(
            (bx0 + 40, ly),
            i18n.t(lang, what),
            size=P_SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=sbox[0] - bx0 - 50,
        )
        ly += 36
    ny = y + STRENGTH_H
    for line in note_lines:
        c.text((x0 + 20, ny - 6), line, size=P_SMALL, fill=t.muted, anchor="lt")
        ny += P_SMALL + 8


# ----------------------------------------------------------------- the hand

HAND_PER_ROW: Final = 2
"""Two hand cards a row: at three, phone-sized activity text needs five lines."""
HAND_GAP: Final = 16
HAND_ROW_GAP: Final = 20
"""Between rows of hand cards (room for the committed card's pill)."""


HAND_SHOWN: Final = 6
"""At most this many hand cards (three rows): a hand of six and a committed
card (a Vaidik's take after the reveal) name the committed card in the
heading instead, so the image keeps its height."""


def _committed_drawn(me: HandView) -> bool:
    return me.committed is not None and len(me.hand) < HAND_SHOWN


def _hand_cards(me: HandView) -> list[tuple[CardView, bool]]:
    """The cards the hand shows: the committed one first (marked) when there
    is room, then the hand."""
    cards: list[tuple[CardView, bool]] = []
    if me.committed is not None and _committed_drawn(me):
        cards.append((me.committed, True))
    cards.extend((card, False) for card in me.hand)
    return cards


def hand_advance(me: HandView, lang: str = "en") -> int:
    """How far :func:`draw_hand` moves down the private image."""
    cards = [card for card, _ in _hand_cards(me)]
    if not cards:
        return HAND_HEADING + 44
    card_h = hand_card_height(P_SMALL, cards, _hand_card_width(), lang)
    rows = -(-len(cards) // HAND_PER_ROW)
    return HAND_HEADING + 4 + rows * (card_h + HAND_ROW_GAP)


HAND_HEADING: Final = P_SMALL + 14


def draw_hand(c: Canvas, view: SangramView, me: HandView, y: int, lang: str = "en") -> None:
    """The hand in big cards, :data:`HAND_PER_ROW` a row, the committed card
    first (ringed and marked) when there is room."""
    t = c.theme
    cards = _hand_cards(me)
    title = i18n.tn(lang, "Your hand · {n} card", "Your hand · {n} cards", len(me.hand))
    if me.committed is not None:
        if _committed_drawn(me):
            title = i18n.t(lang, "{hand} + 1 committed", hand=title)
        else:
            out = me.committed
            title = i18n.t(
                lang,
                "{hand} + committed {card} {motivation}",
                hand=title,
                card=warrior_name(out.name, lang),
                motivation=out.motivation,
            )
    room = c.width - 2 * MARGIN
    y = section_heading(c, MARGIN, y, heading_text(c, title, lang))
    if not cards:
        c.text(
            (MARGIN, y + 4),
            i18n.t(lang, "No cards in hand."),
            size=P_SMALL,
            fill=t.muted,
            anchor="lt",
            max_width=room,
        )
        return
    per_row = HAND_PER_ROW
    y += 4
    w = _hand_card_width()
    card_h = hand_card_height(c.min_text, [card for card, _ in cards], w, lang)
    for i, (card, committed) in enumerate(cards):
        row, col = divmod(i, per_row)
        x = MARGIN + col * (w + HAND_GAP)
        top = y + row * (card_h + HAND_ROW_GAP)
        draw_card(
            c,
            (x, top),
            card,
            width=w,
            height=card_h,
            style="hand",
            outline=t.highlight if committed else None,
            lang=lang,
        )
        if committed:
            c.pill(
                (x + w // 2, top + card_h - 2),
                fit_text(i18n.t(lang, "COMMITTED"), P_SMALL, w - 40, True),
                size=P_SMALL,
                fill=t.highlight,
                ink=t.on_colour,
                anchor="m",
                height=34,
            )


def _hand_card_width() -> int:
    """The width of a hand card (:data:`HAND_PER_ROW` across the private image)."""
    return (PRIVATE_WIDTH - 2 * MARGIN - HAND_GAP * (HAND_PER_ROW - 1)) // HAND_PER_ROW
