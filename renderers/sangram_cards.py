"""Sangram's warrior cards, drawn like the printed ones, and their marks.

A band in the warrior type's colour with the name and the motivation (which
decides the order of play), then the army strength (a shield) and the
Britishers it brings (a red token): the big card of a hand (with its
activity), the table's card (the battlefield) and the small card (volunteers,
discards, shown hands).  Card faces are cached per card, size, theme and
language, so a board with a dozen cards costs a few pastes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal

from PIL import Image, ImageDraw

import bot.i18n as i18n
from bot.engines.sangram_views import CardView
from renderers.common import (
    RGB,
    Box,
    Canvas,
    Theme,
    blend,
    fit_text,
    graphemes,
    safe_text,
    text_width,
    wrap_text,
)

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


ELLIPSIS: Final = "\u2026"


def card_title(name: str, size: int, width: int) -> str:
    """A warrior's name (bold, ``size`` pixels) within ``width``: whole when
    it fits (the layouts give every name room), else cut in the middle
    keeping its last two letters, so names that begin alike stay apart
    ("Maha…ja" and "Maha…ni", never both "Maha…")."""
    text = safe_text(name)
    if text_width(text, size, True) <= width:
        return text
    # Cut between grapheme clusters only (a Devanagari vowel sign stays on
    # its letter): for Latin names each letter is one.
    clusters = graphemes(text)
    tail = "".join(clusters[-2:])
    for keep in range(len(clusters) - 3, 1, -1):
        cut = "".join(clusters[:keep]).rstrip() + ELLIPSIS + tail
        if text_width(cut, size, True) <= width:
            return cut
    return fit_text(text, size, width, bold=True)


def card_texts(card: CardView, lang: str) -> tuple[str, str]:
    """A card's name and activity in ``lang`` (as the data print them where
    the catalog lacks them)."""
    return i18n.t(lang, card.name), i18n.t(lang, card.activity)


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


def draw_stat(
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
"""The tallest hand card (a three-line activity); a hand of shorter
activities gets shorter cards (:func:`hand_card_height`)."""
HAND_BAND: Final = 64
"""The coloured band of a hand card (name and motivation)."""
HAND_CARD_BASE: Final = HAND_BAND + 26 + 30 + 8
"""A hand card's height without its activity lines (band, values, rule, foot)."""
FACE_CARD_H: Final = 140
MINI_CARD_H: Final = 94
MINI_BAND: Final = 60
STATUS_PILL_H: Final = 36
"""The battlefield's status pill, drawn on a table card's foot: the card's
values sit above the middle of their strip to leave it room."""


def kind_colour(kind: str) -> RGB:
    """The band colour of a warrior type (:data:`KIND_COLOURS`)."""
    return KIND_COLOURS.get(kind, UNKNOWN_KIND)


MINI_W: Final = 150
"""A small card wide enough for any warrior's name at phone size."""


def mini_width(room: int, count: int, gap: int) -> int:
    """The width of ``count`` small cards in a row ``room`` wide: as wide as
    the room allows for them, up to :data:`MINI_W`; sized as for four when
    fewer, so hands look alike."""
    n = max(4, count)
    return min(MINI_W, (room - gap * (n - 1)) // n)


DISCARD_W: Final = 190
"""The widest small card in a row (volunteers, discards)."""


def _draw_hand_card(c: Canvas, card: CardView, lang: str = "en") -> None:
    """The big card of the private hand: name, motivation, both values with
    labels and the activity."""
    t = c.theme
    name, activity = card_texts(card, lang)
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
        card_title(name, 30, cx - disc - 2 * pad),
        size=30,
        fill=white,
        anchor="lm",
        bold=True,
        max_width=cx - disc - 2 * pad,
    )
    sy = HAND_BAND + 26
    labels = (i18n.t(lang, "strength"), i18n.t(lang, "Britishers"))
    wide = (
        2 * (0.46 * 28 * 1.7 + 6 + text_width("2", 28, True) + 6)
        + text_width(labels[0], c.min_text)
        + text_width(labels[1], c.min_text)
        + 22
    )
    show = wide <= w - 2 * pad
    right = draw_stat(
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
    draw_stat(
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
    lines = wrap_text(safe_text(activity), size, w - 2 * pad)
    fit = max(1, room // step)
    if len(lines) > fit:
        lines = [*lines[: fit - 1], fit_text(" ".join(lines[fit - 1 :]), size, w - 2 * pad)]
    for i, line in enumerate(lines):
        c.text((pad, top + i * step), line, size=size, fill=t.on_colour, anchor="lt")


def _draw_face_card(c: Canvas, card: CardView, lang: str = "en") -> None:
    """The table's card: motivation and name on the band, both values below."""
    t = c.theme
    name = i18n.t(lang, card.name)
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
        card_title(name, c.min_text, w - 2 * pad),
        size=c.min_text,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=w - 2 * pad,
    )
    # Above the middle of the strip: a status pill may sit on the card's foot.
    sy = band_h + (h - band_h - STATUS_PILL_H // 2) // 2
    half = (w - 2 * pad) // 2
    draw_stat(
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
    draw_stat(
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


def _draw_mini_card(c: Canvas, card: CardView, lang: str = "en") -> None:
    """A small card (discards, shown hands): motivation and name on the band,
    both values on a strip below."""
    t = c.theme
    name = i18n.t(lang, card.name)
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
        card_title(name, c.min_text, w - 2 * pad),
        size=c.min_text,
        fill=t.ink,
        anchor="ls",
        bold=True,
        max_width=w - 2 * pad,
    )
    sy = MINI_BAND + (h - MINI_BAND) // 2
    draw_stat(
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
    draw_stat(
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
    card: CardView,
    width: int,
    height: int,
    style: CardStyle,
    theme: Theme,
    display_width: int,
    lang: str = "en",
) -> tuple[Image.Image, Image.Image]:
    """A card face in ``lang`` and its rounded mask, for an image
    ``display_width`` wide (which sets its smallest text).  Cached: never
    mutate the result."""
    c = Canvas(width, height, theme, display_width)
    if style == "hand":
        _draw_hand_card(c, card, lang)
    elif style == "face":
        _draw_face_card(c, card, lang)
    else:
        _draw_mini_card(c, card, lang)
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
    lang: str = "en",
) -> Box:
    """Paste a card face (its words in ``lang``) with its top left at ``xy``;
    returns its box.

    ``outline`` rings it (the card resolving, the committed card); ``dimmed``
    fades it into the background (a retreated card)."""
    image, mask = _card_image(card, width, height, style, c.theme, c.display_width, lang)
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


def hand_card_height(min_text: int, cards: Sequence[CardView], width: int, lang: str = "en") -> int:
    """Tall enough for the longest activity among ``cards`` in ``lang`` (as
    laid out by :func:`_draw_hand_card` on an image whose smallest text is
    ``min_text``), at least two lines, at most :data:`HAND_CARD_H`."""
    size, step = min_text + 1, min_text + 6
    lines = max(
        (len(wrap_text(safe_text(card_texts(k, lang)[1]), size, width - 28)) for k in cards),
        default=2,
    )
    return min(HAND_CARD_H, HAND_CARD_BASE + step * max(2, lines))
