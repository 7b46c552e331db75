"""Sangram: the public table and a player's hand, drawn with Pillow.

Pure functions of a :class:`~bot.engines.sangram_views.SangramView`: the board
never reads ``view.me`` (it goes to the channel); the private image is the
seat's hand with its Total Army Strength (R12, R14).  See
``docs/rules/sangram.md``.

Warrior cards are drawn like the printed ones: a band in the warrior type's
colour with the name and the motivation (which decides the order of play),
then the army strength (a shield) and the Britishers it brings (a red token).
Card faces are cached per card, size and theme, so a board with a dozen cards
costs a few pastes; so are the strength tracks, the hand fans and the key.
Each image is drawn on a canvas of its final height, worked out before
drawing (:func:`_board_bottom`, :func:`_private_bottom`), rather than on a
taller one copied out at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Final, Literal

from PIL import Image, ImageDraw

from bot.engines.core import plural
from bot.engines.sangram_views import (
    OUTCOME_DECLINED,
    OUTCOME_USED,
    OUTCOME_WASTED,
    PHASE_ACTIVATE,
    PHASE_COMMIT,
    PHASE_GROW,
    PHASE_OVER,
    PHASE_RECRUIT,
    PHASE_REFILL,
    PHASE_SETUP,
    STATUS_DONE,
    STATUS_RESOLVING,
    STATUS_RETREATED,
    STATUS_WAITING,
    CardView,
    ChoiceView,
    FinalView,
    GrowRevealView,
    HandView,
    PlayerView,
    SangramView,
)
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Box,
    Canvas,
    LegendItem,
    Theme,
    ViewRenderer,
    badge_row,
    blend,
    board_title,
    card_back,
    card_fan,
    crown,
    display_name,
    fill_names,
    fit_text,
    legend,
    min_text_size,
    ordinal,
    private_band,
    private_heading,
    result_headline,
    safe_text,
    seat_marker,
    seat_panel,
    seat_pill,
    section_heading,
    text_width,
    title_band,
    wrap_text,
)

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
EVENTS_SHOWN: Final = 6
EVENT_LINES: Final = 7
"""At most this many lines of events on the board (at phone size most events
take one line, so this still holds the last six)."""

BRITISHER_RED: Final[RGB] = (196, 52, 44)
"""The Britisher token (white on it: 5.8:1)."""
SHIELD_STEEL: Final[RGB] = (52, 60, 82)

KIND_COLOURS: Final[dict[str, RGB]] = {
    "acharya": (160, 78, 0),
    "maharaja": (104, 52, 140),
    "shoorveer": (150, 30, 46),
    "senapati": (30, 82, 140),
    "mantri": (0, 108, 106),
    "maharani": (148, 36, 100),
    "guptchar": (64, 66, 78),
    "yuvaraj": (36, 108, 48),
    "vyapari": (122, 80, 24),
    "sarthi": (66, 62, 150),
    "vaidik": (96, 96, 24),
}
"""The band colour of each warrior type: dark enough for white text (4.5:1 or
more), apart enough to tell the types at a glance (the name is always printed)."""
UNKNOWN_KIND: Final[RGB] = (80, 84, 98)

CardStyle = Literal["hand", "face", "mini"]

# ----------------------------------------------------------------- text helpers


def seat_label(names: Sequence[str], seat: int) -> str:
    """``P2 Bhima``: the number the action menus use, then the name."""
    return f"P{seat + 1} {display_name(names, seat)}"


def prompt_text(choice: ChoiceView) -> str:
    """The choice's prompt (it never names the deciding seat: that is drawn as
    a pill beside it), starting with a capital."""
    text = safe_text(choice.prompt).strip()
    if not text:
        return "Choose a volunteer" if choice.kind == "recruit" else "Make a choice"
    return text[0].upper() + text[1:]


def _kind_title(kind: str) -> str:
    return kind.capitalize() if kind else "card"


# ----------------------------------------------------------------- icons


def shield(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """The army-strength mark: a heater shield filling ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw.polygon(
        [
            (x0, y0 + 0.08 * h),
            (x0 + 0.5 * w, y0),
            (x1, y0 + 0.08 * h),
            (x1, y0 + 0.5 * h),
            (x0 + 0.5 * w, y1),
            (x0, y0 + 0.5 * h),
        ],
        fill=fill,
    )


def britisher_token(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, ring: RGB
) -> None:
    """A Britisher token: a red disc with a ring (``ring`` keeps it apart from
    whatever it is drawn on)."""
    cx, cy = centre
    r = radius
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BRITISHER_RED, outline=ring, width=2)
    ir = r * 0.45
    draw.ellipse((cx - ir, cy - ir, cx + ir, cy + ir), fill=blend(BRITISHER_RED, ring, 0.55))


def _stat(
    c: Canvas,
    x: float,
    cy: float,
    icon: Literal["strength", "britishers"],
    value: int,
    *,
    size: int,
    ink: RGB,
    icon_fill: RGB,
    ring: RGB,
    label: str = "",
    label_ink: RGB | None = None,
) -> int:
    """An icon and its number (and an optional small label); returns the right edge."""
    r = size * 0.46
    if icon == "strength":
        shield(
            c.draw, (round(x), round(cy - r * 1.05), round(x + 1.7 * r), round(cy + r)), icon_fill
        )
    else:
        britisher_token(c.draw, (x + 0.85 * r, cy), 0.85 * r, ring)
    x += 1.7 * r + 6
    box = c.text((x, cy), str(value), size=size, fill=ink, anchor="lm", bold=True)
    if label:
        box = c.text(
            (box[2] + 6, cy + 1), label, size=c.min_text, fill=label_ink or ink, anchor="lm"
        )
    return box[2]


# ----------------------------------------------------------------- cards

CARD_RADIUS: Final = 12
HAND_CARD_H: Final = 240
"""The tallest hand card (a three-line activity); a hand of shorter
activities gets shorter cards (:func:`_hand_card_height`)."""
HAND_PER_ROW: Final = 2
"""Two hand cards a row: at three, phone-sized activity text needs five lines."""
FACE_CARD_H: Final = 150
MINI_CARD_H: Final = 94
MINI_BAND: Final = 60


def kind_colour(kind: str) -> RGB:
    return KIND_COLOURS.get(kind, UNKNOWN_KIND)


def _draw_hand_card(c: Canvas, card: CardView) -> None:
    """The big card of the private hand: name, motivation, both values with
    labels and the activity."""
    t = c.theme
    w, h = c.width, c.height
    band = kind_colour(card.kind)
    white = t.ink
    body = t.die
    c.draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=CARD_RADIUS, fill=body)
    c.draw.rounded_rectangle((0, 0, w - 1, 76), radius=CARD_RADIUS, fill=band)
    c.draw.rectangle((0, 60, w - 1, 76), fill=band)
    pad = 14
    disc = 30
    cx = w - pad - disc
    c.draw.ellipse((cx - disc, 38 - disc, cx + disc, 38 + disc), fill=body)
    c.text((cx, 38), str(card.motivation), size=34, fill=t.on_colour, anchor="mm", bold=True)
    c.text(
        (pad, 38),
        safe_text(card.name),
        size=32,
        fill=white,
        anchor="lm",
        bold=True,
        max_width=cx - disc - 2 * pad,
    )
    sy = 76 + 28
    labels = ("strength", "Britishers")
    wide = (
        2 * (0.46 * 28 * 1.7 + 6 + text_width("2", 28, True) + 6)
        + text_width(labels[0], c.min_text)
        + text_width(labels[1], c.min_text)
        + 22
    )
    show = wide <= w - 2 * pad
    right = _stat(
        c,
        pad,
        sy,
        "strength",
        card.strength,
        size=28,
        ink=t.on_colour,
        icon_fill=SHIELD_STEEL,
        ring=body,
        label=labels[0] if show else "",
        label_ink=(70, 72, 84),
    )
    _stat(
        c,
        right + 22,
        sy,
        "britishers",
        card.britishers,
        size=28,
        ink=t.on_colour,
        icon_fill=SHIELD_STEEL,
        ring=body,
        label=labels[1] if show else "",
        label_ink=(70, 72, 84),
    )
    c.draw.line((pad, sy + 24, w - pad, sy + 24), fill=blend(body, t.on_colour, 0.2), width=1)
    top = sy + 34
    room = h - top - 8
    size, step = c.min_text + 1, c.min_text + 6
    lines = wrap_text(safe_text(card.activity), size, w - 2 * pad)
    fit = max(1, room // step)
    if len(lines) > fit:
        lines = [*lines[: fit - 1], fit_text(" ".join(lines[fit - 1 :]), size, w - 2 * pad)]
    for i, line in enumerate(lines):
        c.text((pad, top + i * step), line, size=size, fill=t.on_colour, anchor="lt")


def _draw_face_card(c: Canvas, card: CardView) -> None:
    """The table's card: motivation and name on the band, both values below."""
    t = c.theme
    w, h = c.width, c.height
    band = kind_colour(card.kind)
    body = t.die
    band_h = 88
    c.draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=CARD_RADIUS, fill=body)
    c.draw.rounded_rectangle((0, 0, w - 1, band_h), radius=CARD_RADIUS, fill=band)
    c.draw.rectangle((0, band_h - 14, w - 1, band_h), fill=band)
    pad = 12
    c.text((pad, 10), str(card.motivation), size=40, fill=t.ink, anchor="lt", bold=True)
    c.text(
        (pad, 68),
        safe_text(card.name),
        size=c.min_text,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=w - 2 * pad,
    )
    sy = band_h + (h - band_h) // 2
    half = (w - 2 * pad) // 2
    _stat(
        c,
        pad,
        sy,
        "strength",
        card.strength,
        size=30,
        ink=t.on_colour,
        icon_fill=SHIELD_STEEL,
        ring=body,
    )
    _stat(
        c,
        pad + max(half, 64),
        sy,
        "britishers",
        card.britishers,
        size=30,
        ink=t.on_colour,
        icon_fill=SHIELD_STEEL,
        ring=body,
    )


def _draw_mini_card(c: Canvas, card: CardView) -> None:
    """A small card (discards, shown hands): motivation and name on the band,
    both values on a strip below."""
    t = c.theme
    w, h = c.width, c.height
    band = kind_colour(card.kind)
    body = t.die
    c.draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=body)
    c.draw.rounded_rectangle((0, 0, w - 1, MINI_BAND), radius=10, fill=band)
    c.draw.rectangle((0, MINI_BAND - 10, w - 1, MINI_BAND), fill=band)
    pad = 8
    c.text((pad, 7), str(card.motivation), size=c.min_text, fill=t.ink, anchor="lt", bold=True)
    c.text(
        (pad, MINI_BAND - 7),
        safe_text(card.name),
        size=c.min_text,
        fill=t.ink,
        anchor="ls",
        bold=True,
        max_width=w - 2 * pad,
    )
    sy = MINI_BAND + (h - MINI_BAND) // 2
    _stat(
        c,
        pad,
        sy,
        "strength",
        card.strength,
        size=c.min_text,
        ink=t.on_colour,
        icon_fill=SHIELD_STEEL,
        ring=body,
    )
    _stat(
        c,
        pad + max(50, (w - 2 * pad) // 2),
        sy,
        "britishers",
        card.britishers,
        size=c.min_text,
        ink=t.on_colour,
        icon_fill=SHIELD_STEEL,
        ring=body,
    )


@lru_cache(maxsize=256)
def _card_image(
    card: CardView, width: int, height: int, style: CardStyle, theme: Theme, display_width: int
) -> tuple[Image.Image, Image.Image]:
    """A card face and its rounded mask, for an image ``display_width`` wide
    (which sets its smallest text).  Cached: never mutate the result."""
    c = Canvas(width, height, theme, display_width)
    if style == "hand":
        _draw_hand_card(c, card)
    elif style == "face":
        _draw_face_card(c, card)
    else:
        _draw_mini_card(c, card)
    return c.image, _card_mask(width, height, _card_radius(style))


def _card_radius(style: CardStyle) -> int:
    return 10 if style == "mini" else CARD_RADIUS


@lru_cache(maxsize=16)
def _card_mask(width: int, height: int, radius: int) -> Image.Image:
    """The rounded shape of every card this size (cached: never mutate it)."""
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    return mask


@lru_cache(maxsize=8)
def _card_shade(
    width: int, height: int, radius: int, background: RGB
) -> tuple[Image.Image, Image.Image]:
    """What fades a card this size into ``background`` (a retreated card):
    the colour and the card's shape at 55% (cached: never mutate them)."""
    mask = _card_mask(width, height, radius).point(lambda v: v * 55 // 100)
    return Image.new("RGB", (width, height), background), mask


def draw_card(
    c: Canvas,
    xy: tuple[int, int],
    card: CardView,
    *,
    width: int,
    height: int,
    style: CardStyle,
    outline: RGB | None = None,
    dimmed: bool = False,
) -> Box:
    """Paste a card face with its top left at ``xy``; returns its box.

    ``outline`` rings it (the card resolving, the committed card); ``dimmed``
    fades it into the background (a retreated card)."""
    image, mask = _card_image(card, width, height, style, c.theme, c.display_width)
    x, y = xy
    box = (x, y, x + width, y + height)
    c.image.paste(image, (x, y), mask)
    radius = _card_radius(style)
    if dimmed:
        shade, faded = _card_shade(width, height, radius, c.theme.background)
        c.image.paste(shade, (x, y), faded)
    if outline is not None:
        c.draw.rounded_rectangle(
            (x - 5, y - 5, x + width + 4, y + height + 4),
            radius=radius + 5,
            outline=outline,
            width=4,
        )
    return box


# ----------------------------------------------------------------- small pieces


_seat_pill = partial(seat_pill, height=40, pad=9, gap=7)
"""The board's :func:`~renderers.common.seat_pill` (a seat's shape and label)."""


def _back_colours(t: Theme, seat: int | None) -> tuple[RGB, RGB]:
    """Fill and pattern of a card back: in the seat's colour, or neutral."""
    if seat is None:
        return (104, 34, 44), (214, 170, 92)
    colour = t.seat_colour(seat)
    return blend(colour, t.background, 0.55), colour


# ----------------------------------------------------------------- board: title & banner


def _phase_title(view: SangramView, names: Sequence[str]) -> str:
    rnd = f"Round {view.round}"
    phase = view.phase
    if phase == PHASE_SETUP:
        return "Setting up: dealing the cards"
    if phase == PHASE_COMMIT:
        return f"{rnd} · Activate: commit a card"
    if phase == PHASE_ACTIVATE:
        return f"{rnd} · Activate: cards resolve"
    if phase == PHASE_RECRUIT:
        return f"{rnd} · Recruit"
    if phase == PHASE_REFILL:
        return f"{rnd} · Recruit: new volunteers"
    if phase == PHASE_GROW:
        return f"{rnd} · Train and Grow"
    if phase == PHASE_OVER:
        final = view.final
        if final is not None and final.ranking:
            top = final.ranking[0]
            if len(top) == 1:
                return f"Game over · {display_name(names, top[0])} wins"
            return "Game over · a shared win"
        return "Game over"
    return f"{rnd} · {safe_text(phase)}"


def _title(c: Canvas, view: SangramView, names: Sequence[str]) -> int:
    height = 112
    title_band(c, height)
    players = plural(view.num_players, "player")
    limit = f" · AT MOST {view.round_limit} ROUNDS" if view.round_limit > 0 else ""
    board_title(
        c,
        kicker=f"SANGRAM · {players.upper()} · FIRST TO ARMY STRENGTH {GAME_END}{limit}",
        status=_phase_title(view, names),
        y=56,
        size=36,
        margin=MARGIN,
    )
    return height + 20


def _origin_note(choice: ChoiceView) -> str:
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


def _choice_panel(
    view: SangramView, choice: ChoiceView
) -> tuple[CardView | None, tuple[int, ...], int]:
    """The banner's deciding card (if any), recruit order and panel height."""
    card = view.drawn if choice.origin == "draw" and view.drawn is not None else choice.card
    order = view.recruit_order if choice.kind == "recruit" else ()
    h = MINI_CARD_H + 20 if card is not None else 100
    if order:
        h += RECRUIT_ROW_H
    return card, order, h


COMMIT_BANNER_H: Final = 66
PHASE_NOTES: Final[dict[str, str]] = {
    PHASE_SETUP: "The cards are being dealt.",
    PHASE_REFILL: "New volunteers are being drawn.",
    PHASE_GROW: "Train done; Grow cards are being drawn.",
    PHASE_ACTIVATE: "Resolving the revealed cards.",
}
"""The banner's line in a phase nobody decides in."""


def _banner_advance(view: SangramView) -> int:
    """How far :func:`_banner` moves down the board."""
    if view.choice is not None:
        return _choice_panel(view, view.choice)[2] + 20
    if view.phase == PHASE_COMMIT:
        return COMMIT_BANNER_H + 20
    return 52 if view.phase in PHASE_NOTES else 0


def _banner(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> int:
    """Who the game is waiting for, and about what."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    choice = view.choice
    if choice is not None:
        card, order, h = _choice_panel(view, choice)
        c.panel((x0, y, x1, y + h), fill=blend(t.highlight, t.panel, 0.86), outline=t.highlight)
        right = x1 - 18
        if card is not None:
            mw = BANNER_CARD_W
            draw_card(c, (right - mw, y + 10), card, width=mw, height=MINI_CARD_H, style="mini")
            right -= mw + 18
        cy = y + 30
        _, pr = _seat_pill(
            c, x0 + 18, cy, choice.seat, seat_label(names, choice.seat), max_width=300
        )
        c.text(
            (pr + 14, cy),
            prompt_text(choice),
            size=30,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=right - pr - 14,
        )
        c.text(
            (x0 + 20, y + 76),
            _origin_note(choice),
            size=SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=right - x0 - 20,
        )
        if order:
            # Below the card, so the order has the banner's whole width.
            oy = y + h - RECRUIT_ROW_H // 2 - 6
            _recruit_progress(c, view, names, order, choice.seat, x0 + 18, oy, x1 - 18)
        return y + h + 20
    if view.phase == PHASE_COMMIT:
        h = COMMIT_BANNER_H
        c.panel((x0, y, x1, y + h), fill=blend(t.highlight, t.panel, 0.86), outline=t.highlight)
        cy = y + h // 2
        if not view.waiting_on:
            c.text(
                (x0 + 18, cy),
                "Everybody has committed: revealing.",
                size=SMALL,
                fill=t.ink,
                anchor="lm",
                bold=True,
            )
            return y + h + 20
        box = c.text((x0 + 18, cy), "Waiting for", size=SMALL, fill=t.ink, anchor="lm", bold=True)
        x = box[2] + 14
        for seat in view.waiting_on:
            room = x1 - 14 - x
            if room < 90:
                c.text((x, cy), "...", size=SMALL, fill=t.ink, anchor="lm", bold=True)
                break
            _, right = _seat_pill(c, x, cy, seat, seat_label(names, seat), max_width=min(230, room))
            x = right + 10
        return y + h + 20
    note = PHASE_NOTES.get(view.phase)
    if note is None:
        return y
    c.text((x0, y + 8), note, size=SMALL, fill=t.muted, anchor="lt")
    return y + 52


BANNER_CARD_W: Final = 150
"""The deciding card in the banner: wide enough for any warrior's name."""
RECRUIT_ROW_H: Final = 54
"""Extra banner height for the recruit order (R10)."""


def _recruit_progress(
    c: Canvas,
    view: SangramView,
    names: Sequence[str],
    order: tuple[int, ...],
    current: int,
    x: int,
    cy: int,
    right: int,
) -> None:
    """R10: the recruit order, each seat marked as done (a tick: recruited; a
    cross: took none), choosing (outlined, with the word) or to come."""
    t = c.theme
    players = {p.seat: p for p in view.players}
    box = c.text((x, cy), "ORDER", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    x = box[2] + 14
    word = "choosing"
    word_w = text_width(word, SMALL, True)
    # Phone-sized words for every seat do not fit one row: marks for the
    # seats done, the word only for the seat choosing.
    mark_w = 34
    step = (right - x - word_w - 6) // max(1, len(order))
    now = order.index(current) if current in order else len(order)
    for i, seat in enumerate(order):
        p = players.get(seat)
        _, pr = _seat_pill(
            c,
            x,
            cy,
            seat,
            seat_label(names, seat),
            max_width=max(70, step - mark_w - 12),
            dimmed=i < now,
            outline=t.highlight if i == now else None,
        )
        if i < now:
            mark = (pr + 8, cy - 11, pr + 30, cy + 11)
            if p is not None and p.recruited:
                c.check(mark, t.good, width=4)
            else:
                c.cross(mark, t.muted, width=4)
            x = pr + mark_w + 12
        elif i == now:
            c.text((pr + 8, cy), word, size=SMALL, fill=t.highlight, anchor="lm", bold=True)
            x = pr + 8 + word_w + 18
        else:
            x = pr + 16


# ----------------------------------------------------------------- board: battlefield


def _slot_geometry(c: Canvas, count: int) -> tuple[int, int]:
    """(slot width, gap) for ``count`` cards across the board (at most 5 seats)."""
    gap = 14
    avail = c.width - 2 * MARGIN
    w = min(204, (avail - gap * (max(count, 5) - 1)) // max(count, 5))
    return w, gap


def _reveal_row(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> int:
    t = c.theme
    y = section_heading(
        c,
        MARGIN,
        y,
        f"Battlefield · round {view.revealed_round} · resolved highest motivation first",
    )
    if not view.revealed:
        c.text((MARGIN, y + 6), "No card was committed.", size=SMALL, fill=t.muted, anchor="lt")
        return y + 56
    sw, gap = _slot_geometry(c, len(view.revealed))
    # Left to right is the order of play (the heading says so): no numbers,
    # so the widest word fits a fifth of the board at phone size.
    labels = {
        STATUS_WAITING: ("WAITING", t.grid, t.ink),
        STATUS_RESOLVING: ("RESOLVING", t.highlight, t.on_colour),
        STATUS_DONE: ("RESOLVED", t.good, t.on_colour),
        STATUS_RETREATED: ("RETREATED", t.bad, t.on_colour),
    }
    # R4: what became of a resolved card; the word says it, not only the colour.
    outcomes: dict[str | None, tuple[str, RGB, RGB, RGB | None]] = {
        OUTCOME_USED: ("USED", t.good, t.on_colour, None),
        OUTCOME_DECLINED: ("DECLINED", t.panel, t.ink, t.muted),
        OUTCOME_WASTED: ("WASTED", t.slot, t.bad, t.bad),
    }
    for i, reveal in enumerate(view.revealed):
        x = MARGIN + i * (sw + gap)
        retreated = reveal.status == STATUS_RETREATED
        _seat_pill(
            c,
            x,
            y + 20,
            reveal.seat,
            seat_label(names, reveal.seat),
            max_width=sw,
            dimmed=retreated,
        )
        cy = y + 48
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
        )
        if retreated:
            c.pill(
                (x + sw // 2, cy + FACE_CARD_H - 31),
                "TO HAND",
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
        c.pill(
            (x + sw // 2, cy + FACE_CARD_H + 28),
            label,
            size=SMALL,
            fill=fill,
            ink=ink,
            anchor="m",
            height=38,
            outline=outline,
        )
    return y + 48 + FACE_CARD_H + 28 + 19 + 20


COMMIT_CARD_H: Final = 112


def _commit_row(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> int:
    """The commit phase: a face-down card for who committed, an empty place
    for who is still choosing.  Never the card itself."""
    t = c.theme
    done = sum(1 for p in view.players if p.committed)
    y = section_heading(
        c, MARGIN, y, f"Battlefield · {done} of {len(view.players)} cards face down"
    )
    sw, gap = _slot_geometry(c, len(view.players))
    ch = COMMIT_CARD_H
    for i, p in enumerate(view.players):
        x = MARGIN + i * (sw + gap)
        _seat_pill(c, x, y + 20, p.seat, seat_label(names, p.seat), max_width=sw)
        cy = y + 48
        box = (x, cy, x + sw, cy + ch)
        choosing = p.seat in view.waiting_on
        if p.committed:
            fill, pattern = _back_colours(t, p.seat)
            card_back(c, box, fill=fill, pattern=pattern, radius=CARD_RADIUS)
            label, pfill, ink = "COMMITTED", t.good, t.on_colour
        else:
            c.panel(
                box, fill=t.slot, outline=t.highlight if choosing else t.grid, radius=CARD_RADIUS
            )
            text = "choosing" if choosing else "no card"
            c.text(
                (x + sw // 2, cy + ch // 2), text, size=SMALL, fill=t.muted, anchor="mm", bold=True
            )
            if choosing:
                label, pfill, ink = "CHOOSING", t.highlight, t.on_colour
            else:
                label, pfill, ink = "SITS OUT", t.grid, t.ink
        c.pill(
            (x + sw // 2, cy + ch + 28),
            label,
            size=SMALL,
            fill=pfill,
            ink=ink,
            anchor="m",
            height=38,
        )
    return y + 48 + ch + 28 + 19 + 20


# ----------------------------------------------------------------- board: volunteers & table


def _volunteers(c: Canvas, view: SangramView, y: int) -> int:
    t = c.theme
    n = len(view.volunteers)
    title = f"Volunteers · {n} face up" if n else "Volunteers"
    if view.phase == PHASE_RECRUIT:
        title += " · each player recruits one"
    y = section_heading(c, MARGIN, y, title)
    if not n:
        c.text((MARGIN, y + 6), "None face up.", size=SMALL, fill=t.muted, anchor="lt")
        return y + 56
    gap = 14
    avail = c.width - 2 * MARGIN
    w = min(204, (avail - gap * (max(n, 6) - 1)) // max(n, 6))
    for i, card in enumerate(view.volunteers):
        draw_card(c, (MARGIN + i * (w + gap), y), card, width=w, height=FACE_CARD_H, style="face")
    return y + FACE_CARD_H + 24


MINI_W: Final = 150
"""A small card wide enough for any warrior's name at phone size."""


def _mini_width(room: int, count: int, gap: int) -> int:
    """The width of ``count`` small cards in a row ``room`` wide: as wide as
    the room allows for them (a hand of four keeps whole names), up to
    :data:`MINI_W`; sized as for four when fewer, so hands look alike."""
    n = max(4, count)
    return min(MINI_W, (room - gap * (n - 1)) // n)


DISCARD_W: Final = 190
"""The discard pile's newest cards get a row of their own, wide enough for
any warrior's name at phone size."""


def _table(c: Canvas, view: SangramView, y: int) -> int:
    """Deck, Britisher supply and the discard pile's newest cards (the counts
    name themselves, so no heading)."""
    t = c.theme
    cy = y + 22
    x = MARGIN
    fill, pattern = _back_colours(t, None)
    card_back(c, (x, cy - 22, x + 32, cy + 22), fill=fill, pattern=pattern, radius=6)
    x += 44
    box = c.text((x, cy), "Deck", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    box = c.text(
        (box[2] + 10, cy), str(view.deck_size), size=30, fill=t.ink, anchor="lm", bold=True
    )
    x = box[2] + 40
    britisher_token(c.draw, (x + 18, cy), 18, t.background)
    x += 46
    box = c.text((x, cy), "Britisher supply", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    box = c.text((box[2] + 10, cy), str(view.supply), size=30, fill=t.ink, anchor="lm", bold=True)
    box = c.text((box[2] + 8, cy), f"of {SUPPLY_TOTAL}", size=SMALL, fill=t.muted, anchor="lm")
    x = box[2] + 40
    box = c.text((x, cy), "Discard", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    box = c.text(
        (box[2] + 10, cy), str(view.discard_size), size=30, fill=t.ink, anchor="lm", bold=True
    )
    if not view.discard_top:
        c.text((box[2] + 14, cy), "empty", size=SMALL, fill=t.muted, anchor="lm")
        return y + 64
    note = "· newest first"
    if box[2] + 14 + text_width(note, SMALL) <= c.width - MARGIN:
        c.text((box[2] + 14, cy), note, size=SMALL, fill=t.muted, anchor="lm")
    y += 52
    gap = 10
    mw = min(DISCARD_W, (c.width - 2 * MARGIN - gap * 4) // 5)
    for i, card in enumerate(view.discard_top[:5]):
        draw_card(c, (MARGIN + i * (mw + gap), y), card, width=mw, height=MINI_CARD_H, style="mini")
    return y + MINI_CARD_H + 24


# ----------------------------------------------------------------- board: players

TRACK_CELL: Final = 44
TRACK_H: Final = 48
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
            crown(c.draw, (x + 11, 3, x + TRACK_CELL - 11, 19), t.on_colour)
            c.text(
                (x + half, 34), str(k), size=c.min_text, fill=t.on_colour, anchor="mm", bold=True
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


@lru_cache(maxsize=64)
def _fan_image(seat: int, count: int, theme: Theme) -> Image.Image:
    """``count`` small backs in the seat's colours on the panel colour (cached)."""
    step, size = 13, (24, 32)
    c = Canvas(size[0] + step * max(0, count - 1), size[1], theme)
    c.draw.rectangle((0, 0, c.width, c.height), fill=theme.panel)
    fill, pattern = _back_colours(theme, seat)
    card_fan(c, (0, 0), count, fill=fill, pattern=pattern, card=size, step=step)
    return c.image


def _acting(view: SangramView, seat: int) -> bool:
    """Whether the seat's row is highlighted: the one seat deciding during
    Activate and Recruit (the commit phase shows its waiting in the banner and
    on the battlefield)."""
    return seat in view.waiting_on and view.phase in (PHASE_ACTIVATE, PHASE_RECRUIT)


def _badges(view: SangramView, p: PlayerView) -> list[tuple[str, RGB, bool]]:
    """(label, colour, dark ink) of the seat's round badges, most important first."""
    out: list[tuple[str, RGB, bool]] = []
    active = view.phase in (PHASE_COMMIT, PHASE_ACTIVATE, PHASE_RECRUIT)
    if _acting(view, p.seat):
        out.append(("TO ACT", (255, 214, 102), True))
    if active and p.retreated:
        out.append(("RETREATED", (240, 110, 90), True))
    elif active and p.skips_recruit:
        out.append(("NO RECRUIT", (72, 77, 92), False))
    if active and p.no_britishers:
        out.append(("NO BRITISHERS AT RECRUIT", (72, 77, 92), False))
    if view.phase == PHASE_RECRUIT and p.recruited:
        out.append(("RECRUITED", (96, 204, 120), True))
    return out


def _players(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> int:
    t = c.theme
    y = _players_header(c, y)
    x0, x1 = MARGIN, c.width - MARGIN
    track_x, brit_x, hand_x, grow_x = _columns()
    rh = KINGDOM_ROW_H
    for p in view.players:
        seat_panel(c, (x0, y, x1, y + rh), t.seat_colour(p.seat), acting=_acting(view, p.seat))
        ly = y + 26
        seat_marker(c, (x0 + 40, ly), 11, p.seat)
        badges = [
            (label, fill, t.on_colour if dark else t.ink) for label, fill, dark in _badges(view, p)
        ]
        right = badge_row(c, x1 - 14, ly, reversed(badges))
        box = c.text(
            (x0 + 60, ly), f"P{p.seat + 1}", size=SMALL, fill=t.muted, anchor="lm", bold=True
        )
        c.text(
            (box[2] + 10, ly),
            display_name(names, p.seat),
            size=30,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=right - box[2] - 24,
        )
        cy = y + 72
        _track(c, track_x, cy, p.seat, max(0, min(TRACK_TOP, p.level)))
        heavy = p.britishers >= NO_TRAIN_AT
        _stat(
            c,
            brit_x,
            cy - (11 if heavy else 0),
            "britishers",
            p.britishers,
            size=30,
            ink=t.bad if heavy else t.ink,
            icon_fill=t.ink,
            ring=t.panel,
        )
        if heavy:
            c.text((brit_x, cy + 19), "no Train", size=SMALL, fill=t.bad, anchor="lm", bold=True)
        hx = hand_x
        if p.hand_size > 0:
            fan = _fan_image(p.seat, min(p.hand_size, 6), t)
            c.image.paste(fan, (hand_x, cy - fan.height // 2))
            hx += fan.width + 10
        c.text(
            (hx, cy),
            plural(p.hand_size, "card"),
            size=SMALL,
            fill=t.ink,
            anchor="lm",
            bold=True,
        )
        gx = grow_x
        for k, threshold in enumerate((GROW_FIRST, GROW_SECOND)):
            reached = p.grown > k
            box = c.pill(
                (gx, cy),
                str(threshold),
                size=SMALL,
                fill=t.good if reached else t.slot,
                ink=t.on_colour if reached else t.muted,
                height=38,
                pad=10,
                outline=None if reached else t.grid,
            )
            gx = box[2] + 8
        y += rh + 8
    return y + 14


KINGDOM_ROW_H: Final = 104


def _columns() -> tuple[int, int, int, int]:
    """x of the kingdom rows' columns: track, Britishers, hand, grow marks."""
    track_x = MARGIN + 30
    brit_x = track_x + TRACK_WIDTH + 22
    hand_x = brit_x + 180
    grow_x = hand_x + 200
    return track_x, brit_x, hand_x, grow_x


def _players_header(c: Canvas, y: int) -> int:
    """The section's heading and column labels in one line above the kingdom rows."""
    t = c.theme
    _, brit_x, hand_x, grow_x = _columns()
    heading = "KINGDOMS · STRENGTH 0-9"
    c.text((MARGIN, y), heading, size=SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text((brit_x, y), "BRITISHERS", size=SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text((hand_x, y), "HAND", size=SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text((grow_x, y), "GREW AT", size=SMALL, fill=t.muted, anchor="lt", bold=True)
    return y + SMALL + 14


# ----------------------------------------------------------------- board: grow, events, end


def _grow(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> int:
    """R12: the hands shown when a player first reached 7 (latest such round)."""
    shown = view.grow_reveals
    rnd = max(g.round for g in shown)
    y = section_heading(
        c, MARGIN, y, f"Grow · round {rnd} · hands shown on reaching army strength {GROW_FIRST}"
    )
    for g in shown:
        y = _grow_row(c, g, names, y)
    return y + 6


def _grow_row(c: Canvas, g: GrowRevealView, names: Sequence[str], y: int) -> int:
    t = c.theme
    x0 = MARGIN
    left_w = 300
    _seat_pill(c, x0, y + 20, g.seat, seat_label(names, g.seat), max_width=left_w - 10)
    cards = sum(card.strength for card in g.cards)
    box = c.text((x0, y + 66), str(g.total_strength), size=34, fill=t.ink, anchor="lm", bold=True)
    c.text(
        (box[2] + 8, y + 66),
        f"= level {g.level} + cards {cards}",
        size=SMALL,
        fill=t.muted,
        anchor="lm",
    )
    gap = 6
    x = x0 + left_w
    room = c.width - MARGIN - x
    # Sized as for a hand of six (the most a Grow can show), so a second
    # Grow row lines up with the first.
    mw = _mini_width(room, 6, gap)
    for i, card in enumerate(g.cards):
        draw_card(c, (x + i * (mw + gap), y), card, width=mw, height=MINI_CARD_H, style="mini")
    if not g.cards:
        c.text((x, y + 38), "no cards", size=SMALL, fill=t.muted, anchor="lm")
    return y + MINI_CARD_H + 14


def _event_lines(
    view: SangramView, names: Sequence[str], width: int
) -> list[tuple[list[str], bool]]:
    """The newest events, wrapped, oldest first, within :data:`EVENT_LINES`
    lines (an event gets at most 3, cut with an ellipsis; the oldest go first)."""
    picked: list[tuple[list[str], bool]] = []
    budget = EVENT_LINES
    recent = view.events[-EVENTS_SHOWN:]
    for k, raw in enumerate(reversed(recent)):
        wrapped = wrap_text(fill_names(raw, names), SMALL, width) or [""]
        keep = min(3, budget)
        if len(wrapped) > keep:
            tail = " ".join(wrapped[keep - 1 :])
            wrapped = [*wrapped[: keep - 1], fit_text(tail, SMALL, width)]
        picked.append((wrapped, k == 0))
        budget -= len(wrapped)
        if budget <= 0:
            break
    picked.reverse()
    return picked


EVENT_STEP: Final = SMALL + 8


EVENTS_WIDTH: Final = BOARD_WIDTH - 2 * MARGIN - 24
"""The width the event lines are wrapped to (right of their dots)."""


def _events(c: Canvas, events: list[tuple[list[str], bool]], y: int) -> int:
    """The recent events (:func:`_event_lines`)."""
    t = c.theme
    if not events:
        return y
    y = section_heading(c, MARGIN, y, "Recent events · newest last")
    for wrapped, newest in events:
        c.draw.ellipse(
            (MARGIN + 2, y + 10, MARGIN + 14, y + 22), fill=t.highlight if newest else t.grid
        )
        for line in wrapped:
            c.text((MARGIN + 24, y), line, size=SMALL, fill=t.ink, anchor="lt", bold=newest)
            y += EVENT_STEP
        y += 3
    return y + 14


def _final(c: Canvas, view: SangramView, final: FinalView, names: Sequence[str], y: int) -> int:
    y = section_heading(
        c, MARGIN, y, "Result · Total Army Strength, then fewer Britishers, then best card"
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
            y = _final_row(c, view, final, names, seat, place, y)
        place += len(group)
    return y + 6


def _final_row(
    c: Canvas,
    view: SangramView,
    final: FinalView,
    names: Sequence[str],
    seat: int,
    place: int,
    y: int,
) -> int:
    t = c.theme
    colour = t.seat_colour(seat)
    x0, x1 = MARGIN, c.width - MARGIN
    rh = FINAL_ROW_H
    seat_panel(c, (x0, y, x1, y + rh), colour)
    ly = y + 28
    c.text((x0 + 30, ly), ordinal(place), size=28, fill=t.ink, anchor="lm", bold=True)
    seat_marker(c, (x0 + 100, ly), 11, seat)
    c.text(
        (x0 + 118, ly),
        display_name(names, seat),
        size=30,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=200,
    )
    total = final.total_strength[seat] if seat < len(final.total_strength) else 0
    brit = final.britishers[seat] if seat < len(final.britishers) else 0
    sy = y + 80
    box = c.text((x0 + 30, sy), str(total), size=44, fill=t.ink, anchor="lm", bold=True)
    player = next((p for p in view.players if p.seat == seat), None)
    c.text((box[2] + 8, sy - 13), "strength", size=SMALL, fill=t.muted, anchor="lm")
    detail = f"lv {player.level} + {total - player.level}" if player is not None else ""
    sub = c.text((box[2] + 8, sy + 15), detail, size=SMALL, fill=t.muted, anchor="lm")
    _stat(
        c,
        max(sub[2], box[2] + 8 + text_width("strength", SMALL)) + 14,
        sy,
        "britishers",
        brit,
        size=28,
        ink=t.ink,
        icon_fill=t.ink,
        ring=t.panel,
    )
    hand = final.hands[seat] if seat < len(final.hands) else ()
    best = final.best_card[seat] if seat < len(final.best_card) else None
    x = x0 + 330
    gap = 6
    room = x1 - 12 - x
    mw = _mini_width(room, min(6, len(hand)), gap)
    cy = y + (rh - MINI_CARD_H) // 2
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
        c.text((x, y + rh // 2), "empty hand", size=SMALL, fill=t.muted, anchor="lm")
    return y + rh + 10


FINAL_ROW_H: Final = 112


def _legend(c: Canvas, y: int, *, final: bool = False) -> int:
    t = c.theme

    def strength(c: Canvas, x: int, cy: int) -> None:
        shield(c.draw, (x, cy - 13, x + 22, cy + 13), t.ink)

    def britishers(c: Canvas, x: int, cy: int) -> None:
        britisher_token(c.draw, (x + 13, cy), 13, t.background)

    def motivation(c: Canvas, x: int, cy: int) -> None:
        c.text((x, cy), "47", size=30, fill=t.ink, anchor="lm", bold=True)

    def best(c: Canvas, x: int, cy: int) -> None:
        c.draw.rounded_rectangle(
            (x, cy - 12, x + 32, cy + 12), radius=6, outline=t.highlight, width=3
        )

    items = [
        LegendItem("army strength", strength, 22),
        LegendItem("Britishers", britishers, 26),
        LegendItem("motivation: higher acts first", motivation, text_width("47", 30, True)),
    ]
    if final:
        items.append(LegendItem("best card", best, 32))
    return legend(c, items, x0=MARGIN, x1=c.width - MARGIN, y=y, size=SMALL, row_height=44)


def _show_grow(view: SangramView) -> bool:
    if not view.grow_reveals or view.phase == PHASE_OVER:
        return False
    return max(g.round for g in view.grow_reveals) >= view.round - 1


def _board_height(view: SangramView) -> int:
    h = 132 + 140 + 300 + 220 + 190 + 100
    h += 50 + (KINGDOM_ROW_H + 8) * len(view.players)
    if view.recruit_order:
        h += RECRUIT_ROW_H
    if _show_grow(view):
        h += 50 + (MINI_CARD_H + 14) * len(view.grow_reveals)
    h += 50 + (EVENT_STEP + 3) * EVENT_LINES
    if view.final is not None:
        h += 260 + (FINAL_ROW_H + 10) * sum(len(g) for g in view.final.ranking)
    return h


@lru_cache(maxsize=8)
def _legend_image(theme: Theme, final: bool, parity: int) -> Image.Image:
    """The board's key (:func:`_legend`) drawn once, the board's width across
    and its rows high, to paste at a ``y`` with ``y % 2 == parity``.  Cached:
    never mutate it.

    Drawn at ``parity`` and cut from there: half-pixel positions (text
    centred on a line) round half to even, so the same pixels come out only
    an even number of rows apart."""
    c = Canvas(BOARD_WIDTH, 4 * LEGEND_ROW_H + 1, theme)
    bottom = _legend(c, parity, final=final)
    return c.image.crop((0, parity, BOARD_WIDTH, bottom))


LEGEND_ROW_H: Final = 44
TITLE_ADVANCE: Final = 132
"""How far :func:`_title` moves down the board."""
HEADING_ADVANCE: Final = SMALL + 14
"""How far :func:`~renderers.common.section_heading` moves down the board."""


def _board_bottom(view: SangramView, events: list[tuple[list[str], bool]], legend_h: int) -> int:
    """Where :func:`render_board` cuts the board, worked out before drawing
    it, so the board is drawn on an image of its final size (rather than on
    a taller one copied out at the end).  Mirrors the sections' advances."""
    y = TITLE_ADVANCE
    final = view.final
    if final is not None:
        reason = wrap_text(safe_text(final.reason), SMALL, BOARD_WIDTH - 2 * MARGIN)
        rows = sum(len(group) for group in final.ranking)
        y += HEADING_ADVANCE + 50 + (SMALL + 8) * len(reason) + 10
        y += (FINAL_ROW_H + 10) * rows + 6
    else:
        y += _banner_advance(view)
        if view.phase == PHASE_COMMIT:
            y += HEADING_ADVANCE + 48 + COMMIT_CARD_H + 28 + 19 + 20
        elif view.phase != PHASE_SETUP and view.revealed_round == view.round:
            y += HEADING_ADVANCE
            y += 48 + FACE_CARD_H + 28 + 19 + 20 if view.revealed else 56
        y += HEADING_ADVANCE + (FACE_CARD_H + 24 if view.volunteers else 56)
        y += SMALL + 14 + (KINGDOM_ROW_H + 8) * len(view.players) + 14
        if _show_grow(view):
            y += HEADING_ADVANCE + (MINI_CARD_H + 14) * len(view.grow_reveals) + 6
        y += 52 + MINI_CARD_H + 24 if view.discard_top else 64
    if events:
        y += HEADING_ADVANCE + sum(EVENT_STEP * len(lines) + 3 for lines, _ in events) + 14
    return y + legend_h + 14


def render_board(
    view: SangramView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The public table: never shows a hand or a face-down card (ignores ``view.me``)."""
    events = _event_lines(view, names, EVENTS_WIDTH)
    final = view.final is not None
    legend_h = _legend_image(theme, final, 0).height
    most = _board_height(view)
    height = min(most, _board_bottom(view, events, legend_h))
    image, end = _draw_board(view, names, theme, events, height)
    if min(most, end) != height:  # pragma: no cover - _board_bottom out of step
        image, _ = _draw_board(view, names, theme, events, min(most, end))
    return image


def _draw_board(
    view: SangramView,
    names: Sequence[str],
    theme: Theme,
    events: list[tuple[list[str], bool]],
    height: int,
) -> tuple[Image.Image, int]:
    """The board drawn on an image ``height`` rows high (cut there when
    taller), and the row the drawing ends at."""
    c = Canvas(BOARD_WIDTH, height, theme)
    y = _title(c, view, names)
    if view.final is not None:
        y = _final(c, view, view.final, names, y)
    else:
        y = _banner(c, view, names, y)
        if view.phase == PHASE_COMMIT:
            y = _commit_row(c, view, names, y)
        elif view.phase != PHASE_SETUP and view.revealed_round == view.round:
            y = _reveal_row(c, view, names, y)
        y = _volunteers(c, view, y)
        y = _players(c, view, names, y)
        if _show_grow(view):
            y = _grow(c, view, names, y)
        y = _table(c, view, y)
    y = _events(c, events, y)
    legend_image = _legend_image(theme, view.final is not None, y % 2)
    c.image.paste(legend_image, (0, y))
    end = max(1, y + legend_image.height + 14)
    return (c.image if end >= height else c.crop(end)), end


# ----------------------------------------------------------------- private: the hand


PRIVATE_BAND_H: Final = 108


def _private_header(c: Canvas, view: SangramView, me: HandView, names: Sequence[str]) -> int:
    h = private_band(
        c,
        colour=c.theme.seat_colour(me.seat),
        kicker="SANGRAM · YOUR HAND (ONLY YOU SEE THIS)",
        margin=MARGIN,
        height=PRIVATE_BAND_H,
    )
    seat_marker(c, (MARGIN + 22, 70), 14, me.seat)
    if view.phase == PHASE_SETUP:
        where = "Setting up"
    elif view.phase == PHASE_OVER:
        where = "Game over"
    else:
        where = f"Round {view.round}"
    prompt = None
    if me.seat in view.waiting_on and view.phase != PHASE_OVER:
        prompt = "COMMIT A CARD" if view.phase == PHASE_COMMIT else "YOUR TURN"
    private_heading(
        c,
        name=seat_label(names, me.seat),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        small=P_SMALL,
    )
    return h + 20


def _private_choice(c: Canvas, view: SangramView, me: HandView, y: int) -> int:
    """The decision this seat is asked for now, if any."""
    t = c.theme
    choice = view.choice
    x0, x1 = MARGIN, c.width - MARGIN
    note = ""
    if choice is not None and choice.seat == me.seat:
        text = prompt_text(choice)
        note = _origin_note(choice)
    elif view.phase == PHASE_COMMIT and me.seat in view.waiting_on:
        text = (
            "Change your face-down card if you like"
            if me.committed is not None
            else "Choose a card to commit face down"
        )
    else:
        return y
    h = 96 if note else 60
    c.panel((x0, y, x1, y + h), fill=blend(t.highlight, t.panel, 0.86), outline=t.highlight)
    c.text(
        (x0 + 18, y + 30),
        text,
        size=26,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 36,
    )
    if note:
        c.text(
            (x0 + 18, y + 66), note, size=P_SMALL, fill=t.muted, anchor="lm", max_width=x1 - x0 - 36
        )
    return y + h + 20


COMMITTED_NOTE: Final = "Your committed card is not in your hand: it does not count."


def _committed_note_lines(me: HandView) -> list[str]:
    """The strength panel's note on a committed card, wrapped (none without one)."""
    if me.committed is None:
        return []
    return wrap_text(COMMITTED_NOTE, P_SMALL, PRIVATE_WIDTH - 2 * MARGIN - 40)


def _strength_panel(c: Canvas, view: SangramView, me: HandView, y: int) -> int:
    """Total Army Strength (hand + level) against the thresholds 7, 13 and 18."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    note_lines = _committed_note_lines(me)
    h = 214 + (P_SMALL + 8) * len(note_lines)
    c.panel((x0, y, x1, y + h))
    player = next((p for p in view.players if p.seat == me.seat), None)
    level = player.level if player is not None else me.total_strength - me.hand_strength
    grown = player.grown if player is not None else 0
    total = me.total_strength
    c.text(
        (x0 + 20, y + 16), "TOTAL ARMY STRENGTH", size=P_SMALL, fill=t.muted, anchor="lt", bold=True
    )
    box = c.text((x0 + 20, y + 88), str(total), size=72, fill=t.ink, anchor="lm", bold=True)
    c.text((box[2] + 16, y + 72), f"hand {me.hand_strength}", size=26, fill=t.ink, anchor="lm")
    c.text((box[2] + 16, y + 104), f"+ level {level}", size=26, fill=t.ink, anchor="lm")
    if player is not None:
        heavy = player.britishers >= NO_TRAIN_AT
        note_y = y + 164
        right = _stat(
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
        # Beside the Britisher token, so the word "Britishers" is implied.
        msg = (
            f"no Train ({NO_TRAIN_AT} or more)"
            if heavy
            else f"you Train ({NO_TRAIN_AT - 1} or fewer)"
        )
        # Two short lines beside the count: one line would run into the scale.
        lines = wrap_text(msg, P_SMALL, 352 - (right - x0))[:2]
        for k, line in enumerate(lines):
            ly = note_y + (k - (len(lines) - 1) / 2) * (P_SMALL + 4)
            c.text(
                (right + 10, ly), line, size=P_SMALL, fill=t.bad if heavy else t.muted, anchor="lm"
            )
    # The scale 0..18 with the three thresholds, then one line per threshold.
    bx0, bx1 = x0 + 380, x1 - 24
    by = y + 34
    span = GAME_END

    def px(v: int) -> float:
        return bx0 + (bx1 - bx0) * max(0, min(v, span)) / span

    colour = t.seat_colour(me.seat)
    c.draw.rounded_rectangle((bx0, by - 9, bx1, by + 9), radius=9, fill=t.slot, outline=t.grid)
    if total > 0:
        c.draw.rounded_rectangle(
            (bx0, by - 9, max(bx0 + 18, px(total)), by + 9), radius=9, fill=colour
        )
    marks = (
        (GROW_FIRST, "Grow: draw 2 cards (hand of 5)", grown >= 1),
        (GROW_SECOND, "Grow: draw 1 card (hand of 6)", grown >= 2),
        (GAME_END, "The game ends after the round", False),
    )
    for value, _, _ in marks:
        mx = px(value)
        c.draw.line((mx, by - 14, mx, by + 14), fill=t.ink, width=3)
    ly = by + 46
    for value, what, done in marks:
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
            status = "done"
        elif reached:
            status = "reached"
        else:
            status = f"{value - total} to go"
        sbox = c.text(
            (bx1, ly),
            status,
            size=P_SMALL,
            fill=t.good if reached else t.ink,
            anchor="rm",
            bold=True,
        )
        c.text(
            (bx0 + 40, ly),
            what,
            size=P_SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=sbox[0] - bx0 - 50,
        )
        ly += 40
    ny = y + 214
    for line in note_lines:
        c.text((x0 + 20, ny), line, size=P_SMALL, fill=t.muted, anchor="lt")
        ny += P_SMALL + 8
    return y + h + 20


def _hand(c: Canvas, view: SangramView, me: HandView, y: int) -> int:
    t = c.theme
    cards: list[tuple[CardView, bool]] = []
    if me.committed is not None:
        cards.append((me.committed, True))
    cards.extend((card, False) for card in me.hand)
    title = f"Your hand · {plural(len(me.hand), 'card')}"
    if me.committed is not None:
        title += " + 1 committed face down"
    y = section_heading(c, MARGIN, y, title)
    if not cards:
        c.text((MARGIN, y + 6), "No cards in hand.", size=P_SMALL, fill=t.muted, anchor="lt")
        return y + 50
    per_row = HAND_PER_ROW
    gap = HAND_GAP
    y += 6
    w = _hand_card_width()
    card_h = _hand_card_height(c.min_text, [card for card, _ in cards], w)
    for i, (card, committed) in enumerate(cards):
        row, col = divmod(i, per_row)
        x = MARGIN + col * (w + gap)
        top = y + row * (card_h + gap + 8)
        draw_card(
            c,
            (x, top),
            card,
            width=w,
            height=card_h,
            style="hand",
            outline=t.highlight if committed else None,
        )
        if committed:
            c.pill(
                (x + w // 2, top + card_h - 2),
                "COMMITTED",
                size=P_SMALL,
                fill=t.highlight,
                ink=t.on_colour,
                anchor="m",
                height=36,
            )
    rows = -(-len(cards) // per_row)
    return y + rows * (card_h + gap + 8) + 8


HAND_GAP: Final = 16


def _hand_card_width() -> int:
    """The width of a hand card (:data:`HAND_PER_ROW` across the private image)."""
    return (PRIVATE_WIDTH - 2 * MARGIN - HAND_GAP * (HAND_PER_ROW - 1)) // HAND_PER_ROW


def _hand_card_height(min_text: int, cards: Sequence[CardView], width: int) -> int:
    """Tall enough for the longest activity among ``cards`` (as laid out by
    :func:`_draw_hand_card` on an image whose smallest text is ``min_text``),
    at least two lines, at most :data:`HAND_CARD_H`."""
    size, step = min_text + 1, min_text + 6
    lines = max((len(wrap_text(safe_text(k.activity), size, width - 28)) for k in cards), default=2)
    return min(HAND_CARD_H, 146 + step * max(2, lines))


def render_private(
    view: SangramView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The viewer's hand, the committed card and their Total Army Strength.

    ``view.me`` must be set (the engine's view for that seat)."""
    me = view.me
    if me is None:
        raise ValueError("render_private needs a seat's view (view.me is None).")
    count = len(me.hand) + (me.committed is not None)
    rows = -(-count // HAND_PER_ROW)
    most = 700 + rows * (HAND_CARD_H + 30)
    height = min(most, _private_bottom(view, me))
    image, end = _draw_private(view, me, names, theme, height)
    if min(most, end) != height:  # pragma: no cover - _private_bottom out of step
        image, _ = _draw_private(view, me, names, theme, min(most, end))
    return image


def _private_bottom(view: SangramView, me: HandView) -> int:
    """Where :func:`render_private` cuts the image, worked out before drawing
    (see :func:`_board_bottom`).  Mirrors the sections' advances."""
    y = PRIVATE_BAND_H + 20
    choice = view.choice
    if choice is not None and choice.seat == me.seat:
        y += (96 if _origin_note(choice) else 60) + 20
    elif view.phase == PHASE_COMMIT and me.seat in view.waiting_on:
        y += 60 + 20
    y += 214 + (P_SMALL + 8) * len(_committed_note_lines(me)) + 20
    y += P_SMALL + 14
    cards = ([me.committed] if me.committed is not None else []) + list(me.hand)
    if not cards:
        return y + 50
    width = _hand_card_width()
    card_h = _hand_card_height(P_SMALL, cards, width)
    rows = -(-len(cards) // HAND_PER_ROW)
    return y + 6 + rows * (card_h + HAND_GAP + 8) + 8


def _draw_private(
    view: SangramView, me: HandView, names: Sequence[str], theme: Theme, height: int
) -> tuple[Image.Image, int]:
    """The private image drawn on an image ``height`` rows high (cut there
    when taller), and the row the drawing ends at."""
    c = Canvas(PRIVATE_WIDTH, height, theme)
    y = _private_header(c, view, me, names)
    y = _private_choice(c, view, me, y)
    y = _strength_panel(c, view, me, y)
    y = _hand(c, view, me, y)
    end = max(1, y)
    return (c.image if end >= height else c.crop(end)), end


class SangramRenderer(ViewRenderer, name="sangram", board=render_board, private=render_private):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_WIDTH",
    "KIND_COLOURS",
    "PRIVATE_WIDTH",
    "SangramRenderer",
    "draw_card",
    "fill_names",
    "prompt_text",
    "render_board",
    "render_private",
    "seat_label",
]
