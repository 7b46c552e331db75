"""Text as greyscale masks, cached, and emoji as colour stickers.

Text is drawn from cached masks (:func:`_line_mask`): board renders repeat
the same short strings (numbers, names, labels) over and over, and pasting a
cached mask is several times cheaper than laying the text out again.  A line
not seen before is put together, pixel for pixel as Pillow would draw it,
from cached words and those from cached glyphs (:func:`_word_ink`), so only
glyphs never drawn before go through Pillow's rasterizer (:func:`_text_mask`).
Lines with fallback runs are drawn run by run (:func:`_mixed_mask`), also
cached; their emoji are pasted in colour (:func:`_stickers`).

Only :func:`_text_mask` and :func:`_emoji_ink` call Pillow's text drawing
(the tests hold every renderer to that).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from renderers.common import fonts
from renderers.common.fonts import (
    _emoji_font,
    _emoji_scale,
    _Face,
    _face_font,
    _face_stroke,
    _stroke,
    font,
)
from renderers.common.measure import _advances, _length, _run_length
from renderers.common.scripts import _plain, _runs, _visual


@lru_cache(maxsize=2048)
def _text_mask(
    text: str, size: int, bold: bool, face: _Face | None = None
) -> tuple[Image.Image, int, int]:
    """A greyscale mask of ``text`` and the offset of its top-left corner from
    the pen origin (left end of the baseline), in the built-in font or a
    fallback ``face`` (shaped).  Cached: never mutate it."""
    f = font(size) if face is None else _face_font(face, size, bold)
    sw = _face_stroke(face, size, bold)
    left, top, right, bottom = f.getbbox(text, anchor="ls", stroke_width=sw)
    x0, y0 = math.floor(left), math.floor(top)
    x1, y1 = math.ceil(right), math.ceil(bottom)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text(
        (-x0, -y0), text, font=f, fill=255, anchor="ls", stroke_width=sw, stroke_fill=255
    )
    return mask, x0, y0


def _composable(stroke: float) -> bool:
    """Whether no ink of a glyph drawn with this stroke can fall outside the
    box :func:`_text_mask` gives any text holding it, so a piece of a line
    drawn on its own holds all the ink it has in the line.  Plain glyphs are
    rasterized inside their pixel boxes; a stroke of more than half a pixel
    and at most one spreads them by less than the whole pixel the box adds on
    each side.  A stroke of exactly half a pixel or of more than one pixel may
    be cut at the box's edge, and where that edge falls depends on the line."""
    return stroke == 0 or 0.5 < stroke <= 1.0


_Ink = tuple[Image.Image | None, int, int, int, int, int, int]
"""A piece of text as :func:`_text_mask` would draw it, relative to its pen
origin: the inked part of the mask (``None`` for none) with the offset of its
top left corner, then the mask's box (left, top, right, bottom)."""


@lru_cache(maxsize=2048)
def _drawn_ink(text: str, size: int, bold: bool) -> _Ink | None:
    """:func:`_text_mask` of ``text`` as an :data:`_Ink`; ``None`` when the
    mask is a placeholder (text with no extent) whose box cannot be joined."""
    mask, x0, y0 = _text_mask(text, size, bold)
    if mask.width <= 1 or mask.height <= 1:
        return None
    box = (x0, y0, x0 + mask.width, y0 + mask.height)
    ink = mask.getbbox()
    if ink is None:
        return (None, 0, 0, *box)
    return (mask.crop(ink), x0 + ink[0], y0 + ink[1], *box)


_Placed = tuple[int, int, Image.Image]
"""Ink placed on a line: its left and top from the line's pen origin, and the ink."""


def _place(
    pieces: Sequence[tuple[int, _Ink]],
) -> tuple[tuple[int, int, int, int], list[_Placed]] | None:
    """The box and the placed ink of pieces of a line at whole-pixel pen
    positions, left to right; ``None`` when the ink of two pieces shares a
    column (where Pillow's blending order could matter) or none has ink.

    The box is the union of the pieces' boxes, as Pillow's box of a line is
    the union of its glyphs' (the pen line included)."""
    x0 = y0 = x1 = y1 = 0
    placed: list[_Placed] = []
    right = None
    for i, (pen, (ink, ix, iy, bx0, by0, bx1, by1)) in enumerate(pieces):
        if i == 0 or pen + bx0 < x0:
            x0 = pen + bx0
        if i == 0 or by0 < y0:
            y0 = by0
        if i == 0 or pen + bx1 > x1:
            x1 = pen + bx1
        if i == 0 or by1 > y1:
            y1 = by1
        if ink is not None:
            left = pen + ix
            if right is not None and left < right:
                return None
            right = left + ink.width
            placed.append((left, iy, ink))
    if not placed:
        return None
    return (x0, y0, x1, y1), placed


def _paint(box: tuple[int, int, int, int], placed: Sequence[_Placed]) -> Image.Image:
    """A mask covering ``box`` (from the pen origin) with the placed ink in it."""
    x0, y0, x1, y1 = box
    image = Image.new("L", (x1 - x0, y1 - y0), 0)
    core = image.im
    for left, top, ink in placed:
        x, y = left - x0, top - y0
        core.paste(ink.im, (x, y, x + ink.width, y + ink.height))
    return image


@lru_cache(maxsize=4096)
def _word_ink(word: str, size: int, bold: bool) -> _Ink | None:
    """A word (no spaces) as an :data:`_Ink`, put together from its glyphs:
    each glyph drawn once and cached, and runs of glyphs whose ink touches
    (``rn``, ``Te``, stroked letters) drawn together (also cached).  ``None``
    when it cannot be joined (see :func:`_line_mask`)."""
    if len(word) < 2:
        return _drawn_ink(word, size, bold)
    advances = _advances(size)
    if advances is None:
        return _drawn_ink(word, size, bold)
    # Runs of glyphs whose ink shares columns: (start, end, pen, ink left,
    # ink right, the glyph when the run is one).
    runs: list[tuple[int, int, int, int, int, _Ink | None]] = []
    pen = 0.0
    last = len(word) - 1
    for i, ch in enumerate(word):
        glyph = _drawn_ink(ch, size, bold)
        if glyph is None or pen != int(pen):
            return _drawn_ink(word, size, bold)
        at = int(pen)
        advance = advances.get(ch)
        pen += _length(ch, size) if advance is None else advance
        ink = glyph[0]
        if ink is None:
            if i == 0 or i == last:
                return _drawn_ink(word, size, bold)
            continue  # an inkless glyph inside the word: its box is inside the word's
        one: _Ink | None = glyph
        start, left, right = i, at + glyph[1], at + glyph[1] + ink.width
        while runs and runs[-1][4] > left:
            start, _, at, before, after, _ = runs.pop()
            left, right, one = min(before, left), max(after, right), None
        runs.append((start, i + 1, at, left, right, one))
    pieces: list[tuple[int, _Ink]] = []
    for start, end, at, _, _, alone in runs:
        piece = alone if alone is not None else _drawn_ink(word[start:end], size, bold)
        if piece is None:
            return _drawn_ink(word, size, bold)
        pieces.append((at, piece))
    layout = _place(pieces)
    if layout is None:
        return _drawn_ink(word, size, bold)
    box, placed = layout
    left = placed[0][0]
    top = min(t for _, t, _ in placed)
    right = placed[-1][0] + placed[-1][2].width
    bottom = max(t + ink.height for _, t, ink in placed)
    return (_paint((left, top, right, bottom), placed), left, top, *box)


@lru_cache(maxsize=2048)
def _line_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """:func:`_text_mask` of ``text``, put together from cached words (and
    those from cached glyphs) when it can be: the same pixels, for a fraction
    of the cost of laying out and rasterizing every glyph again (board text
    repeats names, card names and labels in ever new sentences).  Cached:
    never mutate it.

    Exact because Pillow rasterizes each glyph on its own and places it at a
    whole pixel: the built-in font's advances are whole pixels and it does
    not kern (:func:`_advances`), so a piece starting at a whole pixel puts
    its glyphs where the line does; with :func:`_composable` strokes nothing
    is cut at a piece's edge; and pieces whose ink shares a column (where the
    order Pillow blends glyphs in could matter) are drawn together.  Odd
    spacing, line breaks and other unprintable characters, fractional
    advances and other strokes draw the whole line."""
    words = text.split(" ")
    if (
        (len(words) == 1 and len(text) < 2)
        or "" in words
        or not text.isprintable()
        or not _composable(_stroke(size, bold))
        or _advances(size) is None
    ):
        return _text_mask(text, size, bold)
    space = _length(" ", size)
    pieces: list[tuple[int, _Ink]] = []
    pen = 0.0
    for word in words:
        piece = _word_ink(word, size, bold)
        if piece is None or pen != int(pen):
            return _text_mask(text, size, bold)
        pieces.append((int(pen), piece))
        pen += _length(word, size) + space
    layout = _place(pieces)
    if layout is None:
        return _text_mask(text, size, bold)
    box, placed = layout
    return _paint(box, placed), box[0], box[1]


@lru_cache(maxsize=2048)
def _mixed_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """:func:`_text_mask` for a line with fallback runs (:func:`_runs`):
    each run drawn on its own (built-in runs by :func:`_line_mask`) and laid
    left to right in visual order at the pen positions :func:`text_width`
    adds up, where ink of neighbouring runs meets keeping the darker.
    Cached: never mutate it."""
    placed: list[tuple[int, int, Image.Image]] = []
    pen = 0.0
    emoji = fonts._emoji_face()
    for face, piece in _visual(_runs(text)):
        if face is not None and face == emoji:
            # In colour, not in the mask: :func:`_stickers` draws it.
            pen += _run_length(face, piece, size, bold)
            continue
        mask, dx, dy = (
            _line_mask(piece, size, bold) if face is None else _text_mask(piece, size, bold, face)
        )
        ink = mask.getbbox()
        if ink is not None:
            placed.append((round(pen) + dx + ink[0], dy + ink[1], mask.crop(ink)))
        pen += _run_length(face, piece, size, bold)
    if not placed:
        return Image.new("L", (1, 1), 0), 0, 0
    x0 = min(x for x, _, _ in placed)
    y0 = min(y for _, y, _ in placed)
    x1 = max(x + m.width for x, _, m in placed)
    y1 = max(y + m.height for _, y, m in placed)
    line = Image.new("L", (x1 - x0, y1 - y0), 0)
    for x, y, m in placed:
        box = (x - x0, y - y0, x - x0 + m.width, y - y0 + m.height)
        line.paste(ImageChops.lighter(line.crop(box), m), box)
    return line, x0, y0


def _mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """The mask :meth:`Canvas.text` pastes (see :func:`_text_mask`)."""
    return _line_mask(text, size, bold) if _plain(text) else _mixed_mask(text, size, bold)


_Sticker = tuple[Image.Image, int, int]
"""A colour picture (RGBA) and its top left corner from the pen origin."""


@lru_cache(maxsize=256)
def _emoji_ink(piece: str, size: int) -> _Sticker | None:
    """A run of emoji in colour, drawn at :data:`EMOJI_STRIKE` and scaled for
    text of ``size`` (Lanczos: the bitmaps are drawn large, so they stay
    crisp), with its corner from the pen origin; ``None`` for no ink.
    Cached: never mutate it."""
    face = fonts._emoji_face()
    if face is None:
        return None
    f = _emoji_font(face)
    left, top, right, bottom = f.getbbox(piece, anchor="ls")
    x0, y0 = math.floor(left), math.floor(top)
    big = Image.new("RGBA", (max(1, math.ceil(right) - x0), max(1, math.ceil(bottom) - y0)))
    ImageDraw.Draw(big).text((-x0, -y0), piece, font=f, anchor="ls", embedded_color=True)
    ink = big.getbbox()
    if ink is None:
        return None
    big = big.crop(ink)
    k = _emoji_scale(size)
    small = big.resize(
        (max(1, round(big.width * k)), max(1, round(big.height * k))), Image.Resampling.LANCZOS
    )
    return small, round((x0 + ink[0]) * k), round((y0 + ink[1]) * k)


@lru_cache(maxsize=1024)
def _stickers(text: str, size: int, bold: bool) -> tuple[_Sticker, ...]:
    """The emoji of a line, in colour, placed where :func:`_mixed_mask`
    leaves their room (empty for a line with none)."""
    emoji = fonts._emoji_face()
    if emoji is None or _plain(text):
        return ()
    placed: list[_Sticker] = []
    pen = 0.0
    for face, piece in _visual(_runs(text)):
        if face is not None and face == emoji:
            ink = _emoji_ink(piece, size)
            if ink is not None:
                image, dx, dy = ink
                placed.append((image, round(pen) + dx, dy))
        pen += _run_length(face, piece, size, bold)
    return tuple(placed)
