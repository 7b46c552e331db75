"""Measuring text as it is drawn: widths, metrics, cutting to fit, wrapping.

Widths add up cached per-character advances (:func:`_advances`: the built-in
face does not kern), so measuring a string costs a few dictionary look-ups;
lines with fallback runs add up their runs (:func:`_run_length`).  Text is
cut only between grapheme clusters (:func:`fit_text`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import ImageFont

from renderers.common import fonts
from renderers.common.fonts import _emoji_font, _emoji_scale, _Face, _face_font, _stroke, font
from renderers.common.scripts import _plain, _runs, graphemes


def _run_length(face: _Face | None, text: str, size: int, bold: bool) -> float:
    if face is None:
        return _length(text, size)
    if face == fonts._emoji_face():
        return _emoji_font(face).getlength(text) * _emoji_scale(size)
    return _face_font(face, size, bold).getlength(text)


_KERNING_PROBES: Final = (
    "AV", "AT", "Av", "Ta", "Te", "To", "Tr", "Ty", "Va", "Wa", "Yo", "LT", "LV", "LY",
    "P.", "F,", "r.", "y.", "ff", "fi", "f.", "1/", "'A",
)  # fmt: skip
"""Pairs a font with kerning would tighten (see :func:`_advances`)."""
_ADVANCES_KEPT: Final = 1024
"""At most this many characters' advances are kept per size."""


@lru_cache(maxsize=64)
def _advances(size: int) -> dict[str, float] | None:
    """Per-character advance widths at ``size`` (filled as characters are
    met), or ``None`` when the font kerns.

    Pillow's basic layout sets text by adding each glyph's advance, plus a
    kerning adjustment only when the face has a kerning table; the built-in
    face has none, so the advance of a string is the sum of its characters'
    (exactly: each advance is a whole number of 1/64 pixels).  Measuring a
    string then costs a few dictionary look-ups instead of laying it out."""
    f = font(size)
    if f.layout_engine != ImageFont.Layout.BASIC:
        return None
    for pair in _KERNING_PROBES:
        if f.getlength(pair) != f.getlength(pair[0]) + f.getlength(pair[1]):
            return None
    return {}


def _length(text: str, size: int) -> float:
    """``font(size).getlength(text)``, from the cached per-character advances
    (:func:`_advances`) when the font does not kern."""
    table = _advances(size)
    if table is None:
        return font(size).getlength(text)
    total = 0.0
    for ch in text:
        advance = table.get(ch)
        if advance is None:
            advance = font(size).getlength(ch)
            if len(table) < _ADVANCES_KEPT:
                table[ch] = advance
        total += advance
    return total


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """The advance width of ``text`` in pixels, as :meth:`Canvas.text` draws it."""
    if _plain(text):
        length = _length(text, size)
    else:
        length = sum(_run_length(face, piece, size, bold) for face, piece in _runs(text))
    return math.ceil(length + 2 * _stroke(size, bold))


@lru_cache(maxsize=64)
def _metrics(size: int) -> tuple[int, int]:
    """``font(size).getmetrics()``: (ascent, descent)."""
    return font(size).getmetrics()


@lru_cache(maxsize=64)
def cap_height(size: int) -> int:
    return -math.floor(font(size).getbbox("H", anchor="ls")[1])


def _cluster_ends(text: str) -> list[int]:
    """Where each grapheme cluster of ``text`` ends: the only places it is cut."""
    ends: list[int] = []
    at = 0
    for cluster in graphemes(text):
        at += len(cluster)
        ends.append(at)
    return ends


def fit_text(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits ``max_width`` pixels, as
    drawn (shaped runs included), between grapheme clusters only."""
    if text_width(text, size, bold) <= max_width:
        return text
    ellipsis = "\u2026"
    ends = _cluster_ends(text)
    lo, hi = 0, len(ends)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[: ends[mid - 1]].rstrip() + ellipsis, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[: ends[lo - 1]].rstrip() + ellipsis if lo else ""


def fit_choice(choices: Sequence[str], size: int, max_width: int, bold: bool = False) -> str:
    """The first of ``choices`` (the most telling first, each shorter than
    the one before: ``P2 Bhima``, then ``Bhima``) that fits ``max_width``
    whole; else the last, cut (:func:`fit_text`).  A name is cut only where
    even its shortest form has no room."""
    for choice in choices:
        if text_width(choice, size, bold) <= max_width:
            return choice
    return fit_text(choices[-1], size, max_width, bold) if choices else ""


def wrap_text(text: str, size: int, max_width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap; a word wider than the line is cut with an ellipsis."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= max_width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = fit_text(word, size, max_width, bold)
    if current:
        lines.append(current)
    return lines
