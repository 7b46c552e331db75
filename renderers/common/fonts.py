"""The fonts: Pillow's built-in face, the Noto fallback faces and the emoji face.

The game's own typography is Pillow's built-in scalable font
(``ImageFont.load_default(size=N)``), which covers printable ASCII and a few
typographic marks; symbols (checks, crowns, elephants) are drawn as shapes,
never as characters.  Text it cannot draw (players' names in their own
scripts: हरि प्रसाद, Łukasz, Иван, محمد) falls back to the Noto Sans families
Debian's ``fonts-noto-core`` installs (the Makefile's ``fonts`` step), and to
Noto Sans CJK where it is installed: :func:`_first_face` picks the first face
whose character map (:func:`_coverage`) has a whole grapheme cluster.  Those
faces are shaped by raqm (HarfBuzz and FriBiDi: conjuncts, matras, joined
Arabic, right-to-left order).  Emoji are drawn in colour from Noto Color
Emoji where it is installed.

What a face covers is read from its ``cmap`` table by fontTools
(:func:`_cmap`), in place of the hand-written parser of formats 4 and 12
before issue 32: for each of the 152 faces installed here (the fallback
chain and the emoji face) the two give the same set of characters, so every
font choice, and every drawing of the 16 names of
``tests/renderers/test_scripts.py``, is unchanged; fontTools also reads the
subtable formats, where the old parser knew two.

:func:`_emoji_face` and :func:`_chain` are what tests replace to play a
machine without those fonts: the other modules call them through this module
(``fonts._emoji_face()``), so one replacement reaches every caller.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

from fontTools.ttLib import TTFont, TTLibError
from PIL import ImageFont, features

# --------------------------------------------------------------------------- the built-in font


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font at ``size`` pixels.

    The built-in face has a single weight: ``bold`` returns the same face and
    :meth:`Canvas.text` thickens bold text with a thin stroke instead.
    """
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - no FreeType
        raise RuntimeError("Pillow was built without FreeType; renderers need it.")
    return loaded


def _stroke(size: int, bold: bool) -> float:
    return min(1.2, max(0.5, size / 48)) if bold else 0.0


@lru_cache(maxsize=1)
def _notdef_signature() -> tuple[tuple[float, float, float, float], bytes]:
    f = font(24)
    return f.getbbox("\uffff"), bytes(f.getmask("\uffff"))


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the built-in font draws ``ch`` (rather than a missing-glyph box)."""
    if ch == " ":
        return True
    if not ch.isprintable() or ch.isspace():
        return False
    f = font(24)
    return (f.getbbox(ch), bytes(f.getmask(ch))) != _notdef_signature()


# --------------------------------------------------------------------------- fallback fonts

NOTO_DIR: Final = Path("/usr/share/fonts/truetype/noto")
"""Where Debian's ``fonts-noto-core`` puts the Noto Sans families (the
Makefile's ``fonts`` step installs it when they are missing)."""
CJK_FONTS: Final = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc"),
)
"""Noto Sans CJK (``fonts-noto-cjk``), used where it is installed: it is too
large (over 100 MB) to install for the few names that need it."""
EMOJI_FONT: Final = NOTO_DIR / "NotoColorEmoji.ttf"
"""Noto Color Emoji (Debian's ``fonts-noto-color-emoji``, the Makefile's
``fonts`` step): emoji in names (``🤖 Bot 1``, ``Asha 🎲``) are drawn in colour
from it.  Optional: without it each emoji is :data:`EMOJI_STAND_IN`."""
EMOJI_STRIKE: Final = 109
"""The one pixel size the font's colour bitmaps (CBDT) come in: drawn at it
and scaled to the text's size (:func:`_emoji_ink`)."""
EMOJI_EM: Final = 0.9
"""An emoji's em as a share of the text's: Noto's emoji are drawn 1.25 em
wide, so at 0.9 one is about as wide as the text is high and as tall as a
capital with its descender, and a line with one keeps its height."""
EMOJI_STAND_IN: Final = "\u25c6"
"""What an emoji is drawn as where no emoji font is installed: a plain
diamond (Noto Sans Symbols 2) in the text's colour, so a name keeps a mark
where its emoji was rather than losing it without a trace."""
FALLBACK_SCRIPTS: Final = (
    "", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu",
    "Kannada", "Malayalam", "Sinhala", "Arabic", "Hebrew", "Thai",
)  # fmt: skip
"""The families tried first, in this order (``""`` is Noto Sans itself:
Latin with every diacritic, Vietnamese, Cyrillic, Greek); every other Noto Sans
family installed comes after them, then CJK."""
_REDUNDANT: Final = re.compile(r"Noto(Sans|Serif)(Mono|Display)|UI-|Unjoined|Looped")
"""Installed variants whose characters an earlier family has already."""


@dataclass(frozen=True)
class _Face:
    """A fallback font file (``index``: the face in a collection)."""

    path: str
    index: int = 0
    bold: str | None = None
    """The bold weight's file, when installed (else bold is a stroke)."""


@lru_cache(maxsize=1)
def _chain() -> tuple[_Face, ...]:
    """The installed fallback faces, in the order they are tried; missing
    files are skipped (text in their scripts is then left out)."""
    faces: list[_Face] = []
    seen: set[Path] = set()

    def add(path: Path) -> None:
        if path in seen or not path.is_file():
            return
        seen.add(path)
        bold = path.with_name(path.name.replace("-Regular", "-Bold"))
        faces.append(_Face(str(path), 0, str(bold) if bold.is_file() else None))

    for script in FALLBACK_SCRIPTS:
        add(NOTO_DIR / f"NotoSans{script}-Regular.ttf")
    for path in sorted(NOTO_DIR.glob("NotoSans*-Regular.ttf")):
        if not _REDUNDANT.search(path.name):
            add(path)
    for path in CJK_FONTS:
        add(path)
    return tuple(faces)


def _cmap(path: str, index: int) -> frozenset[int]:
    """The code points ``path``'s face (``index``: in a collection) maps to
    a glyph, from its best Unicode ``cmap`` subtable as fontTools reads it
    (every format; empty for a file it cannot read).  Pillow has no "is
    this glyph there" call, and drawing each character to compare it with
    the missing-glyph box would cost far more."""
    try:
        # Lazy: only the tables asked for are read (a CJK collection is tens
        # of megabytes).
        with TTFont(path, fontNumber=index, lazy=True) as face:
            cmap: dict[int, str] | None = face.getBestCmap()
            if cmap is None:
                return frozenset()
            # Glyph 0 is the missing-glyph box: a code mapped to it is not there.
            missing: str = face.getGlyphOrder()[0]
            return frozenset(code for code, glyph in cmap.items() if glyph != missing)
    except (OSError, TTLibError, struct.error, AssertionError, IndexError, KeyError, ValueError):
        # A missing or damaged file (fontTools raises any of these on bad
        # tables): the face covers nothing, so its scripts are left out.
        return frozenset()


@lru_cache(maxsize=512)
def _coverage(face: _Face) -> frozenset[int]:
    return _cmap(face.path, face.index)


@lru_cache(maxsize=1)
def _emoji_face() -> _Face | None:
    """Noto Color Emoji, when installed and Pillow can draw it (FreeType
    with PNG support for its colour bitmaps); else ``None``."""
    if not EMOJI_FONT.is_file():
        return None
    face = _Face(str(EMOJI_FONT))
    try:
        _emoji_font(face).getbbox("\U0001f916")
    except OSError:  # pragma: no cover - a FreeType built without PNG
        return None
    return face


@lru_cache(maxsize=1)
def _emoji_font(face: _Face) -> ImageFont.FreeTypeFont:
    """The emoji face at :data:`EMOJI_STRIKE`, shaped by raqm (skin tones,
    flags and family sequences are ligatures)."""
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    return ImageFont.truetype(face.path, EMOJI_STRIKE, layout_engine=engine)


def _is_emoji(cluster: str) -> bool:
    """Whether ``cluster`` is meant as an emoji (a practical reading of
    Unicode's Emoji_Presentation): it asks for emoji presentation (U+FE0F, a
    keycap), or holds a pictograph from the Miscellaneous Symbols and
    Dingbats blocks or the planes' emoji blocks (U+1F000 on: faces, flags,
    the die).  Digits, ``#`` and ``©`` alone stay text."""
    for ch in cluster:
        cp = ord(ch)
        if cp in (0xFE0F, 0x20E3) or 0x2600 <= cp <= 0x27BF or 0x1F000 <= cp <= 0x1FAFF:
            return True
    return False


ZWJ: Final = "\u200d"
ZWNJ: Final = "\u200c"


def _ignorable(ch: str) -> bool:
    """Shaping controls a font need not have (the shaper hides them):
    joiners, variation selectors, the combining grapheme joiner."""
    cp = ord(ch)
    return ch in (ZWJ, ZWNJ, "\u034f") or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def _covers(face: _Face, cluster: str) -> bool:
    points = _coverage(face)
    return all(ord(ch) in points or _ignorable(ch) for ch in cluster)


@lru_cache(maxsize=4096)
def _first_face(cluster: str) -> _Face | None:
    """The first fallback face with every character of ``cluster`` (an
    emoji: the emoji face, when installed); ``None`` when none has (the
    cluster is left out, an emoji drawn as its stand-in) or it starts with a
    control."""
    if not cluster[0].isprintable() or cluster[0].isspace():
        return None
    emoji = _emoji_face()
    if _is_emoji(cluster):
        return emoji if emoji is not None and _covers(emoji, cluster) else None
    for face in _chain():
        if _covers(face, cluster):
            return face
    return None


@lru_cache(maxsize=256)
def _face_font(face: _Face, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    """A fallback face at ``size``, laid out by raqm (shaping and bidi)."""
    path = face.bold if bold and face.bold else face.path
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    return ImageFont.truetype(path, size, index=face.index, layout_engine=engine)


def _face_stroke(face: _Face | None, size: int, bold: bool) -> float:
    """The stroke bold text gets: none where a bold file is drawn."""
    return 0.0 if face is not None and face.bold else _stroke(size, bold)


def _emoji_scale(size: int) -> float:
    """How much an emoji drawn at :data:`EMOJI_STRIKE` is scaled for text of ``size``."""
    return EMOJI_EM * size / EMOJI_STRIKE
