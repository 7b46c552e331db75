"""The canvas every renderer draws on, the readable-size rule, and the seats' marks.

Every piece of text goes through :meth:`Canvas.text` (directly or through
:meth:`Canvas.pill`, :func:`~renderers.common.pieces.die_face`,
:func:`~renderers.common.pieces.token_chip`,
:func:`~renderers.common.tables.legend`), which holds it to
:data:`MIN_TEXT_PX`: Discord shrinks an image to roughly :data:`PHONE_WIDTH`
pixels on a phone, so the font size an image needs grows with its width
(:func:`min_text_size`).  The text itself is measured by
:mod:`~renderers.common.measure` and pasted from the cached masks of
:mod:`~renderers.common.masks`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Final, Literal

from PIL import Image, ImageDraw

from renderers.common.masks import _mask, _stickers
from renderers.common.measure import _metrics, cap_height, fit_text, text_width
from renderers.common.theme import DEFAULT_THEME, RGB, Box, MarkShape, SeatShape, Theme

# --------------------------------------------------------------------------- text size

PHONE_WIDTH: Final = 480
"""The width, in screen pixels, at which the minimum below is measured: Discord
shows an image about 400 to 550 pixels wide on a phone."""
MIN_TEXT_PX: Final = 12
"""The smallest font size (em height, as CSS ``font-size``) any text may have
when the image is shown :data:`PHONE_WIDTH` pixels wide.

12 px is Discord's own small text on a phone (timestamps, captions, embed
footers are 0.75rem); Apple's and Material's floors are 11.  We don't go below
the client's own small text because text in an image is resampled when it is
shrunk, which makes it softer than the same size drawn natively."""


def min_text_size(display_width: int) -> int:
    """The smallest font size, in image pixels, for an image ``display_width``
    pixels wide (so it is at least :data:`MIN_TEXT_PX` shown at :data:`PHONE_WIDTH`)."""
    return max(1, math.ceil(MIN_TEXT_PX * display_width / PHONE_WIDTH))


@dataclass(frozen=True)
class TextRecord:
    """One call of :meth:`Canvas.text`, as :func:`record_text` sees it."""

    text: str
    size: int
    """The size the caller asked for."""
    drawn: int
    """The size drawn: ``size`` raised to the minimum when it was below it."""
    display_width: int
    """The width of the image the text ends up in."""

    @property
    def readable(self) -> bool:
        return self.size >= min_text_size(self.display_width)


_RECORDING: ContextVar[list[TextRecord] | None] = ContextVar("_RECORDING", default=None)


@contextmanager
def record_text() -> Iterator[list[TextRecord]]:
    """Collect every text drawn inside the block (for tests: the minimum is
    enforced by raising small text, and this shows who asked for less)."""
    records: list[TextRecord] = []
    token = _RECORDING.set(records)
    try:
        yield records
    finally:
        _RECORDING.reset(token)


HAnchor = Literal["l", "m", "r"]
VAnchor = Literal["a", "t", "m", "s", "d"]

# --------------------------------------------------------------------------- canvas


@dataclass
class Canvas:
    """An RGB image with the theme and the drawing helpers renderers share.

    ``display_width`` is the width of the image this canvas ends up in, when
    it is a piece pasted into a bigger one (a card face on the board): text
    sizes are held to that image's minimum (0: the canvas is the image).
    ``lang``: the language of its words (the shared layout's own words,
    "Last move", "wins!", follow it)."""

    width: int
    height: int
    theme: Theme = DEFAULT_THEME
    display_width: int = 0
    lang: str = "en"
    """The language its words are drawn in (issue 33): renderers translate
    with ``t(c.lang, ...)``, and the shared layout's own words follow it."""
    image: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)

    def __post_init__(self) -> None:
        self.image = Image.new("RGB", (self.width, self.height), self.theme.background)
        self.draw = ImageDraw.Draw(self.image)
        if self.display_width <= 0:
            self.display_width = self.width

    @property
    def min_text(self) -> int:
        """The smallest font size text on this canvas may have (:func:`min_text_size`)."""
        return min_text_size(self.display_width)

    def text_size(self, size: int) -> int:
        """``size`` raised to :attr:`min_text` if below it: what :meth:`text` draws."""
        return max(size, self.min_text)

    def crop(self, height: int) -> Image.Image:
        """The image cut to ``height`` rows (the used part)."""
        return self.image.crop((0, 0, self.width, min(self.height, max(1, height))))

    # ---- text

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        *,
        size: int,
        fill: RGB,
        anchor: str = "la",
        bold: bool = False,
        max_width: int | None = None,
    ) -> Box:
        """Draw ``text`` and return its box (advance width, ascender to descender).

        ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r``,
        then vertical ``a`` (ascender), ``t`` (top of capitals), ``m`` (middle
        of capitals: centres digits and capitals visually), ``s`` (baseline)
        or ``d`` (descender).  ``max_width`` cuts the text with an ellipsis.

        ``size`` below :attr:`min_text` is raised to it, so nobody gets text
        too small to read on a phone; a layout that relies on that may
        overflow, so the tests hold every renderer to asking for enough.
        """
        wanted = size
        size = self.text_size(size)
        records = _RECORDING.get()
        if records is not None:
            records.append(TextRecord(text, wanted, size, self.display_width))
        if max_width is not None:
            text = fit_text(text, size, max_width, bold)
        x, y = xy
        if not text:
            return (round(x), round(y), round(x), round(y))
        width = text_width(text, size, bold)
        h, v = anchor[0], anchor[1]
        ox = x if h == "l" else x - width / 2 if h == "m" else x - width
        ascent, descent = _metrics(size)
        if v == "a":
            base = y + ascent
        elif v == "t":
            base = y + cap_height(size)
        elif v == "m":
            base = y + cap_height(size) / 2
        elif v == "d":
            base = y - descent
        else:
            base = y
        mask, dx, dy = _mask(text, size, bold)
        left, top = round(ox) + dx, round(base) + dy
        if isinstance(fill, tuple):
            # Image.paste(fill, (left, top), mask) without its argument checks.
            self.image.im.paste(fill, (left, top, left + mask.width, top + mask.height), mask.im)
        else:
            self.image.paste(fill, (left, top), mask)
        if not text.isascii():
            for sticker, sx, sy in _stickers(text, size, bold):
                self.image.paste(sticker, (round(ox) + sx, round(base) + sy), sticker)
        return (round(ox), round(base) - ascent, round(ox) + width, round(base) + descent)

    # ---- shapes

    def panel(
        self,
        box: Box,
        *,
        fill: RGB | None = None,
        outline: RGB | None = None,
        radius: int = 14,
        width: int = 2,
    ) -> None:
        """A rounded rectangle (defaults to the theme's panel colour)."""
        self.draw.rounded_rectangle(
            box,
            radius=radius,
            fill=self.theme.panel if fill is None else fill,
            outline=outline,
            width=width if outline is not None else 0,
        )

    def pill(
        self,
        xy: tuple[int, int],
        text: str,
        *,
        size: int,
        fill: RGB,
        ink: RGB,
        anchor: Literal["l", "m", "r"] = "l",
        height: int | None = None,
        pad: int = 10,
        bold: bool = True,
        outline: RGB | None = None,
    ) -> Box:
        """A rounded label whose vertical centre is ``xy[1]``; returns its box."""
        h = height if height is not None else self.text_size(size) + 12
        w = text_width(text, self.text_size(size), bold) + 2 * pad
        x = xy[0] if anchor == "l" else xy[0] - w // 2 if anchor == "m" else xy[0] - w
        top = xy[1] - h // 2
        box = (x, top, x + w, top + h)
        self.panel(box, fill=fill, outline=outline, radius=h // 2, width=2)
        self.text((x + w / 2, xy[1]), text, size=size, fill=ink, anchor="mm", bold=bold)
        return box

    def seat_mark(
        self, centre: tuple[float, float], radius: float, seat: int, *, fill: RGB | None = None
    ) -> None:
        """The seat's shape (circle, square, triangle, diamond) in its colour,
        outlined in the background colour so it stays visible on any panel."""
        colour = self.theme.player_colour(seat) if fill is None else fill
        shape_marker(
            self.draw, centre, radius, self.theme.seat_shape(seat), colour, self.theme.background
        )

    def check(self, box: Box, colour: RGB, width: int = 4) -> None:
        """A tick mark filling ``box``."""
        x0, y0, x1, y1 = box
        w, h = x1 - x0, y1 - y0
        self.draw.line(
            [
                (x0 + 0.08 * w, y0 + 0.55 * h),
                (x0 + 0.4 * w, y0 + 0.85 * h),
                (x0 + 0.95 * w, y0 + 0.15 * h),
            ],
            fill=colour,
            width=width,
            joint="curve",
        )

    def cross(self, box: Box, colour: RGB, width: int = 4) -> None:
        """An X filling ``box``."""
        x0, y0, x1, y1 = box
        self.draw.line([(x0, y0), (x1, y1)], fill=colour, width=width)
        self.draw.line([(x0, y1), (x1, y0)], fill=colour, width=width)


def shape_marker(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    shape: SeatShape,
    fill: RGB,
    outline: RGB | None = None,
) -> None:
    """A filled circle, square, triangle or diamond of the given radius."""
    cx, cy = centre
    r = radius
    ow = 2 if outline is not None else 0
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=ow)
    elif shape == "square":
        s = r * 0.88
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=fill, outline=outline, width=ow)
    elif shape == "triangle":
        pts = [(cx, cy - r * 1.05), (cx + r * 1.05, cy + r * 0.85), (cx - r * 1.05, cy + r * 0.85)]
        draw.polygon(pts, fill=fill, outline=outline, width=ow)
    else:
        pts = [(cx, cy - r * 1.15), (cx + r * 1.15, cy), (cx, cy + r * 1.15), (cx - r * 1.15, cy)]
        draw.polygon(pts, fill=fill, outline=outline, width=ow)


def mark(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    shape: MarkShape,
    fill: RGB,
    outline: RGB | None = None,
) -> None:
    """:func:`shape_marker` that also draws a ``hexagon`` (the fifth seat)."""
    if shape != "hexagon":
        shape_marker(draw, centre, radius, shape, fill, outline)
        return
    draw.regular_polygon(
        (centre[0], centre[1], radius * 1.08),
        6,
        rotation=0,
        fill=fill,
        outline=outline,
        width=2 if outline is not None else 0,
    )


def seat_marker(
    c: Canvas,
    centre: tuple[float, float],
    radius: float,
    seat: int,
    *,
    fill: RGB | None = None,
    outline: RGB | None = None,
) -> None:
    """:meth:`Canvas.seat_mark` for games of up to five seats: the seat's
    :meth:`Theme.seat_mark_shape` in its :meth:`Theme.seat_colour`."""
    t = c.theme
    mark(
        c.draw,
        centre,
        radius,
        t.seat_mark_shape(seat),
        t.seat_colour(seat) if fill is None else fill,
        outline,
    )
