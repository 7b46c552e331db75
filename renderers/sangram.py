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

from collections.abc import Callable, Sequence
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
    seat_pill_width,
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


ELLIPSIS: Final = "\u2026"


def card_title(name: str, size: int, width: int) -> str:
    """A warrior's name (bold, ``size`` pixels) within ``width``: whole when
    it fits (the layouts give every name room), else cut in the middle
    keeping its last two letters, so names that begin alike stay apart
    ("Maha…ja" and "Maha…ni", never both "Maha…")."""
    text = safe_text(name)
    if text_width(text, size, True) <= width:
        return text
    tail = text[-2:]
    for keep in range(len(text) - 3, 1, -1):
        cut = text[:keep].rstrip() + ELLIPSIS + tail
        if text_width(cut, size, True) <= width:
            return cut
    return fit_text(text, size, width, bold=True)


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
HAND_CARD_H: Final = 222
HAND_BAND: Final = 64
"""The coloured band of a hand card (name and motivation)."""
HAND_CARD_BASE: Final = HAND_BAND + 26 + 30 + 8
"""A hand card's height without its activity lines (band, values, rule, foot)."""
"""The tallest hand card (a three-line activity); a hand of shorter
activities gets shorter cards (:func:`_hand_card_height`)."""
HAND_PER_ROW: Final = 2
"""Two hand cards a row: at three, phone-sized activity text needs five lines."""
FACE_CARD_H: Final = 140
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
    c.draw.rounded_rectangle((0, 0, w - 1, HAND_BAND), radius=CARD_RADIUS, fill=band)
    c.draw.rectangle((0, HAND_BAND - 16, w - 1, HAND_BAND), fill=band)
    pad = 14
    disc = 26
    mid = HAND_BAND // 2
    cx = w - pad - disc
    c.draw.ellipse((cx - disc, mid - disc, cx + disc, mid + disc), fill=body)
    c.text((cx, mid), str(card.motivation), size=30, fill=t.on_colour, anchor="mm", bold=True)
    c.text(
        (pad, mid),
        card_title(card.name, 30, cx - disc - 2 * pad),
        size=30,
        fill=white,
        anchor="lm",
        bold=True,
        max_width=cx - disc - 2 * pad,
    )
    sy = HAND_BAND + 26
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
    c.draw.line((pad, sy + 22, w - pad, sy + 22), fill=blend(body, t.on_colour, 0.2), width=1)
    top = sy + 30
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
    band_h = 84
    c.draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=CARD_RADIUS, fill=body)
    c.draw.rounded_rectangle((0, 0, w - 1, band_h), radius=CARD_RADIUS, fill=band)
    c.draw.rectangle((0, band_h - 14, w - 1, band_h), fill=band)
    pad = 12
    c.text((pad, 8), str(card.motivation), size=38, fill=t.ink, anchor="lt", bold=True)
    c.text(
        (pad, 64),
        card_title(card.name, c.min_text, w - 2 * pad),
        size=c.min_text,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=w - 2 * pad,
    )
    # Above the middle of the strip: a status pill may sit on the card's foot.
    sy = band_h + (h - band_h - STATUS_PILL_H // 2) // 2
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
        card_title(card.name, c.min_text, w - 2 * pad),
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


SEAT_PILL_H: Final = 40
SEAT_PILL_PAD: Final = 9
SEAT_PILL_GAP: Final = 7
_seat_pill = partial(seat_pill, height=SEAT_PILL_H, pad=SEAT_PILL_PAD, gap=SEAT_PILL_GAP)
"""The board's :func:`~renderers.common.seat_pill` (a seat's shape and label)."""


def _back_colours(t: Theme, seat: int | None) -> tuple[RGB, RGB]:
    """Fill and pattern of a card back: in the seat's colour, or neutral."""
    if seat is None:
        return (104, 34, 44), (214, 170, 92)
    colour = t.seat_colour(seat)
    return blend(colour, t.background, 0.55), colour


# ----------------------------------------------------------------- board: title & banner

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


def goal_text(num_players: int) -> str:
    """The title's kicker: the goal, and what army strength is made of (the
    kingdoms' track is only the crown's part of it, 0-9)."""
    players = plural(num_players, "player").upper()
    return f"SANGRAM · {players} · GOAL: ARMY STRENGTH {GAME_END} (CROWN LEVEL + CARDS)"


TRACK_LABEL: Final = f"KINGDOMS · CROWN LEVEL 0-{TRACK_TOP}"
"""The strength track's heading: the crown's level, part of army strength."""
CROWN_STUCK: Final = "crown stuck"
"""Beside a Britisher count of :data:`NO_TRAIN_AT` or more: that crown does
not move up at Train (R11)."""
GROW_LABEL: Final = "GROW DRAWS"
GROW_MARKS: Final = ((GROW_FIRST, "+2"), (GROW_SECOND, "+1"))
"""R12: the Grow thresholds and the cards each draws, as the kingdoms'
column shows them ("7: +2", green once drawn)."""


def _phase_title(view: SangramView, names: Sequence[str]) -> str:
    rnd = f"Round {view.round}"
    if view.round_limit > 0:
        rnd += f" of {view.round_limit}"
    phase = view.phase
    if phase == PHASE_SETUP:
        return "Setting up: dealing the cards"
    if phase == PHASE_COMMIT:
        done = sum(1 for p in view.players if p.committed)
        return f"{rnd} · Commit: {done} of {len(view.players)} cards face down"
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


TITLE_H: Final = 100


def _title(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> None:
    title_band(c, TITLE_H)
    board_title(
        c,
        kicker=goal_text(view.num_players),
        status=_phase_title(view, names),
        y=52,
        size=34,
        margin=MARGIN,
    )


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


def _banner_card(view: SangramView, choice: ChoiceView) -> CardView | None:
    """The card deciding, when the battlefield does not show it already (a
    card a Sarthi drew, or one a Yuvaraj copies)."""
    if choice.origin == "draw" and view.drawn is not None:
        return view.drawn
    card = choice.card
    if card is None:
        return None
    if _shows_battlefield(view) and any(r.card == card for r in view.revealed):
        return None
    return card


def _choice_panel(
    view: SangramView, choice: ChoiceView
) -> tuple[CardView | None, tuple[int, ...], int]:
    """The banner's deciding card (if any), recruit order and panel height.

    While recruiting the banner is the order alone: the message above names
    who chooses, the order shows whose turn comes next."""
    order = view.recruit_order if choice.kind == "recruit" else ()
    if order:
        return None, order, RECRUIT_BANNER_H
    card = _banner_card(view, choice)
    return card, (), MINI_CARD_H + 20 if card is not None else CHOICE_BANNER_H


CHOICE_BANNER_H: Final = 96
RECRUIT_BANNER_H: Final = 60
PHASE_NOTES: Final[dict[str, str]] = {
    PHASE_SETUP: "The cards are being dealt.",
    PHASE_REFILL: "New volunteers are being drawn.",
    PHASE_GROW: "Train done; Grow cards are being drawn.",
    PHASE_ACTIVATE: "Resolving the revealed cards.",
}
"""The banner's line in a phase nobody decides in."""


def _banner_advance(view: SangramView) -> int:
    """How far :func:`_banner` moves down the board (the commit phase has no
    banner: the kingdoms say who has committed and who is choosing)."""
    if view.choice is not None:
        return _choice_panel(view, view.choice)[2] + GAP
    return 48 if view.phase in PHASE_NOTES else 0


def _banner(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> None:
    """Who the game is waiting for, and about what."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    choice = view.choice
    if choice is None:
        note = PHASE_NOTES.get(view.phase)
        if note is not None:
            c.text((x0, y + 4), note, size=SMALL, fill=t.muted, anchor="lt")
        return
    card, order, h = _choice_panel(view, choice)
    c.panel((x0, y, x1, y + h), fill=blend(t.highlight, t.panel, 0.86), outline=t.highlight)
    if order:
        _recruit_progress(c, view, names, order, choice.seat, x0 + 18, y + h // 2, x1 - 18)
        return
    right = x1 - 18
    if card is not None:
        mw = BANNER_CARD_W
        draw_card(c, (right - mw, y + 10), card, width=mw, height=MINI_CARD_H, style="mini")
        right -= mw + 18
    cy = y + 30
    prompt = prompt_text(choice)
    # The prompt keeps what it needs; the name has the rest, and 300 at least.
    room = max(300, right - x0 - 18 - 14 - text_width(prompt, 30, True))
    _, pr = _seat_pill(c, x0 + 18, cy, choice.seat, seat_labels(names, choice.seat), max_width=room)
    c.text(
        (pr + 14, cy),
        prompt,
        size=30,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=right - pr - 14,
    )
    c.text(
        (x0 + 20, y + 72),
        _origin_note(choice),
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=right - x0 - 20,
    )


BANNER_CARD_W: Final = 150
"""The deciding card in the banner: wide enough for any warrior's name."""


def _pill_width(c: Canvas, label: str) -> int:
    """How wide :data:`_seat_pill` draws ``label`` whole."""
    return seat_pill_width(c, label, height=SEAT_PILL_H, pad=SEAT_PILL_PAD, gap=SEAT_PILL_GAP)


def _shared_widths(wanted: Sequence[int], room: int, *, least: int) -> list[int]:
    """Widths for things in a row that want ``wanted`` and share ``room``:
    each its own when all fit; else every one up to the same cap, the
    largest that fits (so a short name stays whole beside a long one), and
    never under ``least``."""
    if sum(wanted) <= room:
        return list(wanted)
    cap = max(wanted)
    while cap > least and sum(min(w, cap) for w in wanted) > room:
        cap -= 2
    return [max(least, min(w, cap)) for w in wanted]


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
    box = c.text((x, cy), "RECRUIT ORDER", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    x = box[2] + 14
    word = "choosing"
    word_w = text_width(word, SMALL, True)
    # Phone-sized words for every seat do not fit one row: marks for the
    # seats done, the word only for the seat choosing.
    mark_w = 34
    now = order.index(current) if current in order else len(order)
    after = [
        mark_w + 12 if i < now else 8 + word_w + 18 if i == now else 16 for i in range(len(order))
    ]
    # Each pill as wide as its whole label where the row has room; where it
    # has not, the widest share that fits (a short name stays whole).
    widths = _shared_widths(
        [_pill_width(c, seat_label(names, seat)) for seat in order],
        right - x - sum(after[:-1]) - (0 if now < len(order) - 1 else after[-1]),
        least=_pill_width(c, ""),
    )
    for i, seat in enumerate(order):
        p = players.get(seat)
        _, pr = _seat_pill(
            c,
            x,
            cy,
            seat,
            (*seat_labels(names, seat), ""),
            max_width=widths[i],
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


def _shows_battlefield(view: SangramView) -> bool:
    """Whether this round's revealed cards are on the board (from the reveal
    to the end of the round)."""
    return view.phase not in (PHASE_SETUP, PHASE_COMMIT) and view.revealed_round == view.round


def _slot_geometry(c: Canvas, count: int) -> tuple[int, int]:
    """(slot width, gap) for ``count`` cards across the board (at most 5 seats)."""
    gap = 14
    avail = c.width - 2 * MARGIN
    w = min(204, (avail - gap * (max(count, 5) - 1)) // max(count, 5))
    return w, gap


STATUS_PILL_H: Final = 36


def _reveal_advance(view: SangramView) -> int:
    if not view.revealed:
        return HEADING_ADVANCE + 48
    return HEADING_ADVANCE + 44 + FACE_CARD_H + STATUS_PILL_H // 2 + GAP


def _reveal_row(
    c: Canvas, view: SangramView, names: Sequence[str], y: int, *, earlier: bool = False
) -> None:
    """This round's revealed cards in their order of play; ``earlier``: the
    last round's, between rounds (a replay's frame, where there is room)."""
    t = c.theme
    when = "last round, " if earlier else ""
    y = section_heading(
        c,
        MARGIN,
        y,
        f"Battlefield · {when}round {view.revealed_round} · resolved highest motivation first",
    )
    if not view.revealed:
        c.text((MARGIN, y + 4), "No card was committed.", size=SMALL, fill=t.muted, anchor="lt")
        return
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
            seat_labels(names, reveal.seat),
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
        )
        if retreated:
            c.pill(
                # Over the values, so the name stays readable.
                (x + sw // 2, cy + FACE_CARD_H - 38),
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
        # On the card's foot, so the status costs no row of its own.
        c.pill(
            (x + sw // 2, cy + FACE_CARD_H),
            label,
            size=SMALL,
            fill=fill,
            ink=ink,
            anchor="m",
            height=STATUS_PILL_H,
            outline=outline or t.background,
        )


# ----------------------------------------------------------------- board: volunteers & table


def _volunteers_advance(view: SangramView) -> int:
    return HEADING_ADVANCE + (MINI_CARD_H + GAP if view.volunteers else 48)


def _volunteers(c: Canvas, view: SangramView, y: int) -> None:
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


MINI_W: Final = 150
"""A small card wide enough for any warrior's name at phone size."""


def _mini_width(room: int, count: int, gap: int) -> int:
    """The width of ``count`` small cards in a row ``room`` wide: as wide as
    the room allows for them, up to :data:`MINI_W`; sized as for four when
    fewer, so hands look alike."""
    n = max(4, count)
    return min(MINI_W, (room - gap * (n - 1)) // n)


DISCARD_W: Final = 190
"""The widest small card in a row (volunteers, discards)."""
TABLE_LEFT: Final = 260
"""The deck, supply and discard counts, left of the discard pile's cards."""
TABLE_ADVANCE: Final = HEADING_ADVANCE + MINI_CARD_H + GAP


def _table(c: Canvas, view: SangramView, y: int) -> None:
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


# ----------------------------------------------------------------- board: players

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


def _badges(view: SangramView, p: PlayerView) -> list[tuple[str, RGB, bool]]:
    """(label, colour, dark ink) of the seat's round badges, most important first."""
    out: list[tuple[str, RGB, bool]] = []
    active = view.phase in (PHASE_COMMIT, PHASE_ACTIVATE, PHASE_RECRUIT)
    if view.phase == PHASE_COMMIT:
        # R4: who has committed (never which card) and who is still choosing.
        if p.committed:
            out.append(("CARD FACE DOWN", (96, 204, 120), True))
        elif p.seat in view.waiting_on:
            out.append(("CHOOSING", (255, 214, 102), True))
        else:
            out.append(("NO CARD TO COMMIT", (72, 77, 92), False))
    elif _acting(view, p.seat):
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


KINGDOM_ROW_H: Final = 86
KINGDOM_GAP: Final = 6


def _players_advance(view: SangramView) -> int:
    return HEADING_ADVANCE + (KINGDOM_ROW_H + KINGDOM_GAP) * len(view.players) + 8


def _players(c: Canvas, view: SangramView, names: Sequence[str], y: int) -> None:
    t = c.theme
    y = _players_header(c, y)
    x0, x1 = MARGIN, c.width - MARGIN
    track_x, brit_x, hand_x, grow_x = _columns()
    rh = KINGDOM_ROW_H
    for p in view.players:
        seat_panel(c, (x0, y, x1, y + rh), t.seat_colour(p.seat), acting=_acting(view, p.seat))
        ly = y + 23
        seat_marker(c, (x0 + 40, ly), 11, p.seat)
        badges = [
            (label, fill, t.on_colour if dark else t.ink) for label, fill, dark in _badges(view, p)
        ]
        right = badge_row(c, x1 - 12, ly, reversed(badges))
        box = c.text(
            (x0 + 60, ly), f"P{p.seat + 1}", size=SMALL, fill=t.muted, anchor="lm", bold=True
        )
        c.text(
            (box[2] + 10, ly),
            display_name(names, p.seat),
            size=SMALL,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=right - box[2] - 24,
        )
        cy = y + 61
        _track(c, track_x, cy, p.seat, max(0, min(TRACK_TOP, p.level)))
        heavy = p.britishers >= NO_TRAIN_AT
        end = _stat(
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
                CROWN_STUCK,
                size=SMALL,
                fill=t.bad,
                anchor="lm",
                max_width=hand_x - end - 16,
            )
        c.text(
            (hand_x, cy),
            plural(p.hand_size, "card"),
            size=SMALL,
            fill=t.ink,
            anchor="lm",
            bold=True,
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


def _players_header(c: Canvas, y: int) -> int:
    """The section's heading and column labels in one line above the kingdom rows."""
    t = c.theme
    _, brit_x, hand_x, grow_x = _columns()
    c.text((MARGIN, y), TRACK_LABEL, size=SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text((brit_x, y), "BRITISHERS", size=SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text((hand_x, y), "HAND", size=SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text((grow_x, y), GROW_LABEL, size=SMALL, fill=t.muted, anchor="lt", bold=True)
    return y + HEADING_ADVANCE


# ----------------------------------------------------------------- board: grow, end


GROW_ROW_H: Final = MINI_CARD_H + 12


def _show_grow(view: SangramView) -> bool:
    if not view.grow_reveals or view.phase == PHASE_OVER:
        return False
    return max(g.round for g in view.grow_reveals) >= view.round - 1


def _grow_advance(shown: int, left_out: int) -> int:
    """How far :func:`_grow` moves down the board showing ``shown`` hands
    and a line for ``left_out`` more."""
    return HEADING_ADVANCE + GROW_ROW_H * shown + (SMALL + 16 if left_out else 0) + 4


def _grow(c: Canvas, view: SangramView, names: Sequence[str], y: int, shown: int) -> None:
    """R12: the hands shown when a player first reached 7 (latest such round);
    the first ``shown`` as cards, the rest named in a line (the message of
    that round listed their cards)."""
    t = c.theme
    reveals = view.grow_reveals
    rnd = max(g.round for g in reveals)
    y = section_heading(
        c, MARGIN, y, f"Grow · round {rnd} · hands shown on reaching army strength {GROW_FIRST}"
    )
    for g in reveals[:shown]:
        _grow_row(c, g, names, y)
        y += GROW_ROW_H
    rest = reveals[shown:]
    if rest:
        who = ", ".join(display_name(names, g.seat) for g in rest)
        c.text(
            (MARGIN, y + 4),
            f"Also shown: {who} (their cards are in that round's messages).",
            size=SMALL,
            fill=t.muted,
            anchor="lt",
            max_width=c.width - 2 * MARGIN,
        )


def _grow_row(c: Canvas, g: GrowRevealView, names: Sequence[str], y: int) -> None:
    t = c.theme
    x0 = MARGIN
    left_w = TABLE_LEFT
    _seat_pill(c, x0, y + 20, g.seat, seat_labels(names, g.seat), max_width=left_w - 10)
    cards = sum(card.strength for card in g.cards)
    box = c.text((x0, y + 58), str(g.total_strength), size=30, fill=t.ink, anchor="lm", bold=True)
    c.text((box[2] + 8, y + 58), "army strength", size=SMALL, fill=t.muted, anchor="lm")
    c.text(
        (x0, y + 87),
        f"crown {g.level} + cards {cards}",
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
    mw = _mini_width(room, max(5, len(g.cards)), gap)
    for i, card in enumerate(g.cards):
        draw_card(c, (x + i * (mw + gap), y), card, width=mw, height=MINI_CARD_H, style="mini")
    if not g.cards:
        c.text((x, y + 38), "no cards", size=SMALL, fill=t.muted, anchor="lm")


def _final_advance(final: FinalView) -> int:
    reason = wrap_text(safe_text(final.reason), SMALL, BOARD_WIDTH - 2 * MARGIN)
    rows = sum(len(group) for group in final.ranking)
    return HEADING_ADVANCE + 50 + (SMALL + 8) * len(reason) + 10 + (FINAL_ROW_H + 8) * rows


def _final(c: Canvas, view: SangramView, final: FinalView, names: Sequence[str], y: int) -> None:
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
    _stat(
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

Section = tuple[int, Callable[[Canvas, int], None]]
"""A part of the board: how far it moves down, and what draws it at a y."""


def _board_sections(
    view: SangramView, names: Sequence[str], room: int, *, fill: bool = False
) -> list[Section]:
    """The board's parts top to bottom, within ``room`` rows (the Grow
    reveals, drawn last among them, show as many hands as fit).  ``fill``
    (a replay's frame, ``room`` its height): between rounds the last
    round's battlefield stays where the room left after the Grow reveals
    has it, so the frames keep their layout and the canvas its use."""
    sections: list[Section] = [(TITLE_H + 12, lambda c, y: _title(c, view, names, y))]
    final = view.final
    if final is not None:
        sections.append((_final_advance(final), lambda c, y: _final(c, view, final, names, y)))
        return sections
    sections.append((_banner_advance(view), lambda c, y: _banner(c, view, names, y)))
    if _shows_battlefield(view):
        sections.append((_reveal_advance(view), lambda c, y: _reveal_row(c, view, names, y)))
    battlefield_at = len(sections)
    sections.append((_volunteers_advance(view), lambda c, y: _volunteers(c, view, y)))
    sections.append((_players_advance(view), lambda c, y: _players(c, view, names, y)))
    sections.append((TABLE_ADVANCE, lambda c, y: _table(c, view, y)))
    if _show_grow(view):
        left = room - sum(advance for advance, _ in sections)
        count = len(view.grow_reveals)
        shown = count
        while shown > 0 and _grow_advance(shown, count - shown) > left:
            shown -= 1
        if _grow_advance(shown, count - shown) <= left:
            sections.append(
                (
                    _grow_advance(shown, count - shown),
                    lambda c, y: _grow(c, view, names, y, shown),
                )
            )
    earlier = fill and not _shows_battlefield(view) and view.revealed_round < view.round
    if earlier and view.revealed:
        advance = _reveal_advance(view)
        if sum(a for a, _ in sections) + advance <= room:
            sections.insert(
                battlefield_at,
                (advance, lambda c, y: _reveal_row(c, view, names, y, earlier=True)),
            )
    return sections


def render_board(
    view: SangramView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The public table: never shows a hand or a face-down card (ignores
    ``view.me``).  At most :data:`BOARD_MAX_H` high: what happened (the
    events) is in the message above the board, not on it."""
    return _render_board(view, names, theme, None)


def render_filled_board(
    view: SangramView, *, names: Sequence[str], height: int, theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """:func:`render_board` for a replay's frame ``height`` tall (the
    game's tallest board): between rounds the last round's battlefield
    stays, more Grow reveals are shown, and what room is left goes between
    the parts (a little each) and under the key."""
    return _render_board(view, names, theme, max(height, 1))


FILL_GAP: Final = 28
"""The most a filled board adds between two of its parts."""


def _render_board(
    view: SangramView, names: Sequence[str], theme: Theme, fill: int | None
) -> Image.Image:
    final = view.final is not None
    legend_image = _legend_image(theme, final, 0)
    target = BOARD_MAX_H if fill is None else fill
    room = target - legend_image.height - GAP
    sections = _board_sections(view, names, room, fill=fill is not None)
    y = sum(advance for advance, _ in sections)
    height = y + legend_image.height + GAP
    spread = 0
    parts = [advance for advance, _ in sections[:-1] if advance > 0]
    if fill is not None and fill > height:
        spread = min(FILL_GAP, (fill - height) // max(1, len(parts)))
        height = fill
    c = Canvas(BOARD_WIDTH, height, theme)
    at = 0
    for i, (advance, draw) in enumerate(sections):
        draw(c, at)
        at += advance + (spread if advance > 0 and i < len(sections) - 1 else 0)
    c.image.paste(_legend_image(theme, final, at % 2), (0, at))
    return c.image


# ----------------------------------------------------------------- private: the hand


PRIVATE_BAND_H: Final = 108
P_GAP: Final = 16
"""The space under a part of the private image."""


def _private_header(c: Canvas, view: SangramView, me: HandView, names: Sequence[str]) -> None:
    private_band(
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


def _private_ask(view: SangramView, me: HandView) -> tuple[str, str] | None:
    """(what, note) of the decision this seat is asked for now, if any."""
    choice = view.choice
    if choice is not None and choice.seat == me.seat:
        return prompt_text(choice), _origin_note(choice)
    if view.phase == PHASE_COMMIT and me.seat in view.waiting_on:
        if me.committed is not None:
            return "Change your face-down card if you like", ""
        return "Choose a card to commit face down", ""
    return None


def _private_choice_advance(view: SangramView, me: HandView) -> int:
    ask = _private_ask(view, me)
    if ask is None:
        return 0
    return (90 if ask[1] else 58) + P_GAP


def _private_choice(c: Canvas, view: SangramView, me: HandView, y: int) -> None:
    """The decision this seat is asked for now, if any."""
    t = c.theme
    ask = _private_ask(view, me)
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


COMMITTED_NOTE: Final = "Your committed card is not in your hand: it does not count."
STRENGTH_H: Final = 176
"""The strength panel without the committed card's note."""


def _committed_note_lines(me: HandView) -> list[str]:
    """The strength panel's note on a committed card, wrapped (none without one)."""
    if me.committed is None:
        return []
    return wrap_text(COMMITTED_NOTE, P_SMALL, PRIVATE_WIDTH - 2 * MARGIN - 40)


def _strength_advance(me: HandView) -> int:
    return STRENGTH_H + (P_SMALL + 8) * len(_committed_note_lines(me)) + P_GAP


def train_note(britishers: int) -> str:
    """R11 in player words, beside a seat's Britisher count."""
    if britishers >= NO_TRAIN_AT:
        return f"{CROWN_STUCK}: {NO_TRAIN_AT} or more Britishers"
    return f"crown +1 each round: {NO_TRAIN_AT - 1} or fewer Britishers"


STRENGTH_MARKS: Final = (
    (GROW_FIRST, "Grow: show your hand, draw 2 cards"),
    (GROW_SECOND, "Grow: draw 1 more card"),
    (GAME_END, "The game ends after that round"),
)
"""The private scale's thresholds (R12, R13) and what each does."""


def _strength_panel(c: Canvas, view: SangramView, me: HandView, y: int) -> None:
    """Army strength (cards in hand + crown level) against the thresholds 7,
    13 and 18."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    note_lines = _committed_note_lines(me)
    h = STRENGTH_H + (P_SMALL + 8) * len(note_lines)
    c.panel((x0, y, x1, y + h))
    player = next((p for p in view.players if p.seat == me.seat), None)
    level = player.level if player is not None else me.total_strength - me.hand_strength
    grown = player.grown if player is not None else 0
    total = me.total_strength
    c.text((x0 + 20, y + 14), "ARMY STRENGTH", size=P_SMALL, fill=t.muted, anchor="lt", bold=True)
    box = c.text((x0 + 20, y + 72), str(total), size=64, fill=t.ink, anchor="lm", bold=True)
    c.text((box[2] + 16, y + 58), f"cards {me.hand_strength}", size=26, fill=t.ink, anchor="lm")
    c.text((box[2] + 16, y + 87), f"+ crown {level}", size=26, fill=t.ink, anchor="lm")
    if player is not None:
        heavy = player.britishers >= NO_TRAIN_AT
        note_y = y + 134
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
        # Two short lines beside the count: one line would run into the scale.
        lines = wrap_text(train_note(player.britishers), P_SMALL, 352 - (right - x0))[:2]
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
        ly += 36
    ny = y + STRENGTH_H
    for line in note_lines:
        c.text((x0 + 20, ny - 6), line, size=P_SMALL, fill=t.muted, anchor="lt")
        ny += P_SMALL + 8


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


def _hand_advance(me: HandView) -> int:
    cards = [card for card, _ in _hand_cards(me)]
    if not cards:
        return HAND_HEADING + 44
    card_h = _hand_card_height(P_SMALL, cards, _hand_card_width())
    rows = -(-len(cards) // HAND_PER_ROW)
    return HAND_HEADING + 4 + rows * (card_h + HAND_ROW_GAP)


HAND_HEADING: Final = P_SMALL + 14


def _hand(c: Canvas, view: SangramView, me: HandView, y: int) -> None:
    t = c.theme
    cards = _hand_cards(me)
    title = f"Your hand · {plural(len(me.hand), 'card')}"
    if me.committed is not None:
        if _committed_drawn(me):
            title += " + 1 committed"
        else:
            out = me.committed
            title += f" + committed {safe_text(out.name)} {out.motivation}"
    y = section_heading(c, MARGIN, y, title)
    if not cards:
        c.text((MARGIN, y + 4), "No cards in hand.", size=P_SMALL, fill=t.muted, anchor="lt")
        return
    per_row = HAND_PER_ROW
    y += 4
    w = _hand_card_width()
    card_h = _hand_card_height(c.min_text, [card for card, _ in cards], w)
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
        )
        if committed:
            c.pill(
                (x + w // 2, top + card_h - 2),
                "COMMITTED",
                size=P_SMALL,
                fill=t.highlight,
                ink=t.on_colour,
                anchor="m",
                height=34,
            )


def _hand_card_width() -> int:
    """The width of a hand card (:data:`HAND_PER_ROW` across the private image)."""
    return (PRIVATE_WIDTH - 2 * MARGIN - HAND_GAP * (HAND_PER_ROW - 1)) // HAND_PER_ROW


def _hand_card_height(min_text: int, cards: Sequence[CardView], width: int) -> int:
    """Tall enough for the longest activity among ``cards`` (as laid out by
    :func:`_draw_hand_card` on an image whose smallest text is ``min_text``),
    at least two lines, at most :data:`HAND_CARD_H`."""
    size, step = min_text + 1, min_text + 6
    lines = max((len(wrap_text(safe_text(k.activity), size, width - 28)) for k in cards), default=2)
    return min(HAND_CARD_H, HAND_CARD_BASE + step * max(2, lines))


def render_private(
    view: SangramView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The viewer's hand, the committed card and their army strength.

    ``view.me`` must be set (the engine's view for that seat)."""
    me = view.me
    if me is None:
        raise ValueError("render_private needs a seat's view (view.me is None).")
    y = PRIVATE_BAND_H + P_GAP
    ask_y = y
    y += _private_choice_advance(view, me)
    strength_y = y
    y += _strength_advance(me)
    hand_y = y
    y += _hand_advance(me)
    c = Canvas(PRIVATE_WIDTH, y, theme)
    _private_header(c, view, me, names)
    _private_choice(c, view, me, ask_y)
    _strength_panel(c, view, me, strength_y)
    _hand(c, view, me, hand_y)
    return c.image


class SangramRenderer(
    ViewRenderer,
    name="sangram",
    board=render_board,
    private=render_private,
    filled=render_filled_board,
):
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
