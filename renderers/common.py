"""Shared drawing kit for the game renderers: theme, fonts, primitives, PNG.

Nothing here knows about Discord, storage or any game's rules.  The game's
own typography is Pillow's built-in scalable font (``ImageFont.load_default(
size=N)``), which covers printable ASCII and a few typographic marks; symbols
(checks, crowns, elephants) are drawn as shapes, never as characters.  Text it
cannot draw (players' names in their own scripts: हरि प्रसाद, Łukasz, Иван,
محمد) falls back, word by word and then grapheme by grapheme, to the Noto Sans
families Debian's ``fonts-noto-core`` installs (the Makefile's ``fonts``
step), and to Noto Sans CJK where it is installed (:func:`_runs`); those runs
are shaped by raqm (HarfBuzz and FriBiDi: conjuncts, matras, joined Arabic,
right-to-left order).  A cluster no installed font has (an emoji, with no
emoji font) is left out, so nothing is drawn as a missing-glyph box; user text
goes through :func:`safe_text` first.

Text is drawn from cached masks (:func:`_line_mask`): board renders repeat
the same short strings (numbers, names, labels) over and over, and pasting a
cached mask is several times cheaper than laying the text out again.  A line
not seen before is put together, pixel for pixel as Pillow would draw it,
from cached words and those from cached glyphs (:func:`_word_ink`), so only
glyphs never drawn before go through Pillow's rasterizer (:func:`_text_mask`);
widths add up cached per-character advances (:func:`_advances`).  Lines
with fallback runs are drawn run by run (:func:`_mixed_mask`), also cached.

Every piece of text goes through :meth:`Canvas.text` (directly or through
:meth:`Canvas.pill`, :func:`die_face`, :func:`token_chip`, :func:`legend`),
which holds it to :data:`MIN_TEXT_PX`: Discord shrinks an image to roughly
:data:`PHONE_WIDTH` pixels on a phone, so the font size an image needs grows
with its width (:func:`min_text_size`).
"""

from __future__ import annotations

import math
import re
import struct
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any, Final, Literal

from PIL import Image, ImageChops, ImageDraw, ImageFont, features

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` in pixels, right/bottom exclusive-ish as in Pillow."""

# --------------------------------------------------------------------------- colours


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """Mix ``a`` towards ``b`` by ``t`` (0 gives ``a``, 1 gives ``b``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luminance(c: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


SeatShape = Literal["circle", "square", "triangle", "diamond"]
MarkShape = Literal["circle", "square", "triangle", "diamond", "hexagon"]
"""The seat shapes plus the ones games of five or more use (:meth:`Theme.seat_mark_shape`)."""


@dataclass(frozen=True)
class Theme:
    """Colours every renderer draws with.

    ``players`` are the Okabe-Ito orange, sky blue, bluish green and reddish
    purple, chosen to stay apart for the common kinds of colour blindness and
    to read on the dark background; each seat also has a shape
    (:attr:`seat_shapes`) drawn beside its colour so nobody has to rely on
    hue alone.
    """

    background: RGB = (24, 26, 32)
    ink: RGB = (242, 243, 247)
    muted: RGB = (156, 162, 176)
    panel: RGB = (40, 43, 53)
    grid: RGB = (72, 77, 92)
    highlight: RGB = (255, 214, 102)
    players: tuple[RGB, RGB, RGB, RGB] = (
        (230, 159, 0),
        (86, 180, 233),
        (0, 170, 125),
        (214, 128, 175),
    )
    seat_shapes: tuple[SeatShape, SeatShape, SeatShape, SeatShape] = (
        "circle",
        "square",
        "triangle",
        "diamond",
    )
    on_colour: RGB = (17, 18, 22)
    """Text drawn on a player colour, the highlight or a die face."""
    slot: RGB = (30, 32, 40)
    """Empty places (board spaces) inside a panel."""
    die: RGB = (238, 232, 216)
    die_taken: RGB = (78, 82, 95)
    raja: RGB = (233, 196, 106)
    good: RGB = (96, 204, 120)
    bad: RGB = (240, 110, 90)

    def player_colour(self, seat: int) -> RGB:
        """The colour of ``seat`` (0-based); wraps past the fourth seat."""
        return self.players[seat % len(self.players)]

    def seat_shape(self, seat: int) -> SeatShape:
        return self.seat_shapes[seat % len(self.seat_shapes)]

    def dim(self, colour: RGB, amount: float = 0.6) -> RGB:
        """``colour`` faded into the panel (for things already used or done)."""
        return blend(colour, self.panel, amount)

    # Games of five or more.  :meth:`player_colour` and :meth:`seat_shape` wrap
    # after four seats (and stay so); these give a fifth seat its own colour
    # and shape and wrap after it.
    extra_players: tuple[RGB, ...] = ((213, 94, 0),)
    """Colours of the seats after the fourth: Okabe-Ito vermillion (on it
    :attr:`on_colour` keeps 4.8:1; on the background it has 4.5:1)."""
    extra_shapes: tuple[MarkShape, ...] = ("hexagon",)
    """Shapes of the seats after the fourth."""

    def seat_colour(self, seat: int) -> RGB:
        """Like :meth:`player_colour`, with :attr:`extra_players` after the
        fourth seat (a five-seat game gets five colours)."""
        colours = self.players + self.extra_players
        return colours[seat % len(colours)]

    def seat_mark_shape(self, seat: int) -> MarkShape:
        """Like :meth:`seat_shape`, with :attr:`extra_shapes` after the fourth seat."""
        shapes: tuple[MarkShape, ...] = self.seat_shapes + self.extra_shapes
        return shapes[seat % len(shapes)]


DEFAULT_THEME = Theme()

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


# --------------------------------------------------------------------------- fonts & text


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
    """The code points ``path``'s face maps to a glyph, read from its
    ``cmap`` table (formats 12 and 4; empty for a file it cannot read).
    Pillow has no "is this glyph there" call, and drawing each character to
    compare it with the missing-glyph box would cost far more."""
    try:
        with open(path, "rb") as fh:
            # Only the table directory and the cmap table are read: a CJK
            # collection is tens of megabytes.
            head = fh.read(12 + 4 * (index + 1))
            at = struct.unpack_from(">I", head, 12 + 4 * index)[0] if head[:4] == b"ttcf" else 0
            fh.seek(at)
            tables = struct.unpack_from(">H", fh.read(12), 4)[0]
            directory = fh.read(16 * tables)
            start, length = next(
                (offset, size)
                for tag, _, offset, size in struct.iter_unpack(">4sIII", directory)
                if tag == b"cmap"
            )
            fh.seek(start)
            data = fh.read(length)
        cmap = 0
        subtables: dict[tuple[int, int, int], int] = {}
        for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            format_ = struct.unpack_from(">H", data, cmap + offset)[0]
            subtables[(platform, encoding, format_)] = cmap + offset
        points: set[int] = set()
        full = subtables.get((3, 10, 12)) or subtables.get((0, 4, 12))
        if full is not None:
            for i in range(struct.unpack_from(">I", data, full + 12)[0]):
                start, end, glyph = struct.unpack_from(">III", data, full + 16 + 12 * i)
                points.update(range(start if glyph else start + 1, end + 1))
            return frozenset(points)
        bmp = subtables.get((3, 1, 4)) or subtables.get((0, 3, 4))
        if bmp is None:
            return frozenset()
        n = struct.unpack_from(">H", data, bmp + 6)[0] // 2
        ends = struct.unpack_from(f">{n}H", data, bmp + 14)
        starts = struct.unpack_from(f">{n}H", data, bmp + 16 + 2 * n)
        deltas = struct.unpack_from(f">{n}h", data, bmp + 16 + 4 * n)
        ranges = bmp + 16 + 6 * n
        offsets = struct.unpack_from(f">{n}H", data, ranges)
        for i in range(n):
            for c in range(starts[i], min(ends[i], 0xFFFE) + 1):
                if offsets[i] == 0:
                    glyph = (c + deltas[i]) & 0xFFFF
                else:
                    at_glyph = ranges + 2 * i + offsets[i] + 2 * (c - starts[i])
                    glyph = struct.unpack_from(">H", data, at_glyph)[0]
                    glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
                if glyph:
                    points.add(c)
        return frozenset(points)
    except (OSError, struct.error, StopIteration):
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


def _extends(cluster: str, ch: str) -> bool:
    """Whether ``ch`` belongs to the grapheme cluster ``cluster`` ends (a
    practical reading of Unicode's extended grapheme clusters, UAX #29):
    combining marks, joiners, emoji modifiers and tags extend it; a letter
    after a virama (a conjunct: क्ष, ন্দ) or after a zero width joiner (an
    emoji sequence, a half form) stays with it; regional indicators pair."""
    prev = cluster[-1]
    if unicodedata.category(prev) == "Cc" or unicodedata.category(ch) == "Cc":
        return False
    cp = ord(ch)
    if unicodedata.category(ch) in ("Mn", "Mc", "Me") or ch in (ZWJ, ZWNJ):
        return True
    if 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:
        return True
    if prev == ZWJ:
        return True
    if unicodedata.combining(prev) == 9 and unicodedata.category(ch).startswith("L"):
        return True
    if 0x1F1E6 <= cp <= 0x1F1FF and 0x1F1E6 <= ord(prev) <= 0x1F1FF:
        return sum(0x1F1E6 <= ord(c) <= 0x1F1FF for c in cluster) % 2 == 1
    return False


def graphemes(text: str) -> list[str]:
    """``text`` split into grapheme clusters: what a reader sees as one
    character (a letter with its accents, a conjunct with its matras, an
    emoji sequence).  Text is cut only between them."""
    if text.isascii():
        return list(text)
    clusters: list[str] = []
    for ch in text:
        if clusters and _extends(clusters[-1], ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    return clusters


def _plain(text: str) -> bool:
    """Whether the built-in font draws all of ``text`` (the common case,
    drawn by the cached word-and-glyph path)."""
    return text.isascii() or all(ch == " " or has_glyph(ch) for ch in text)


_Run = tuple[_Face | None, str]
"""Text in one font: a fallback face, or ``None`` for the built-in font."""


@lru_cache(maxsize=4096)
def _runs(text: str) -> tuple[_Run, ...]:
    """``text`` as runs of one font each, in logical order.

    A word the built-in font draws whole stays in it (the game's own
    typography); any other word is set in fallback faces cluster by cluster,
    each cluster staying in the face of the one before when that face has it
    (digits and punctuation inside a Devanagari word are not split off, so
    the shaper sees the whole word).  Spaces are the built-in font's, each
    run of them a run of its own (so a right-to-left word never holds the
    space that separates it from the next; :func:`_visual` joins runs again
    where the order allows).  Clusters no installed face has are left out."""
    runs: list[list[Any]] = []
    for token in re.split(r"( +)", text):
        if not token:
            continue
        if token[0] == " ":
            runs.append([None, token])
            continue
        pieces: list[_Run] = []
        if _plain(token):
            pieces.append((None, token))
        else:
            current: _Face | None = None
            for cluster in graphemes(token):
                stay = (
                    current is not None
                    and _covers(current, cluster)
                    and (current == _emoji_face()) == _is_emoji(cluster)
                )
                face = current if stay else _first_face(cluster)
                if face is not None:
                    current = face
                    pieces.append((face, cluster))
        for face, piece in pieces:
            if runs and runs[-1][0] == face and runs[-1][1][0] != " ":
                runs[-1][1] += piece
            else:
                runs.append([face, piece])
    return tuple((face, piece) for face, piece in runs)


def _direction(text: str) -> int:
    """1 for right-to-left, 0 for left-to-right, -1 for neither: the
    direction of the first strongly directional character (Unicode's P2);
    a number reads left to right too (as Unicode's rule I2 sets it)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return 1
        if kind in ("L", "EN", "AN"):
            return 0
    return -1


_MIRRORED: Final = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")
"""Brackets as a right-to-left line shows them (Unicode's rule L4)."""


def _visual(runs: Sequence[_Run]) -> list[_Run]:
    """Runs in the order they are drawn, left to right: the shaper orders
    the text inside a run; across runs (an English sentence holding an
    Arabic name) Unicode's bidi levels are resolved run by run, a run with
    no strong direction taking its neighbours' when they agree.  The line
    reads left to right unless it has no left-to-right letter at all (the
    images' own words are English; a name alone keeps its own direction)."""
    dirs = [_direction(piece) for _, piece in runs]
    if all(d != 1 for d in dirs):
        joined: list[_Run] = []
        for face, piece in runs:
            if joined and joined[-1][0] == face:
                joined[-1] = (face, joined[-1][1] + piece)
            else:
                joined.append((face, piece))
        return joined
    base = 0 if any(unicodedata.bidirectional(ch) == "L" for _, p in runs for ch in p) else 1
    resolved: list[int] = []
    for i, d in enumerate(dirs):
        if d < 0:
            before = next((e for e in reversed(dirs[:i]) if e >= 0), base)
            after = next((e for e in dirs[i + 1 :] if e >= 0), base)
            d = before if before == after else base
        resolved.append(d)
    # Unicode's levels: left-to-right text is level 0 on a left-to-right line
    # and 2 on a right-to-left one; right-to-left text is level 1.
    levels = resolved if base == 0 else [1 if d else 2 for d in resolved]
    # Punctuation on its own inside right-to-left text: the shaper does not
    # see it, so it is reversed and its brackets mirrored here.
    order = [
        (face, piece[::-1].translate(_MIRRORED)) if d < 0 and level % 2 else (face, piece)
        for (face, piece), d, level in zip(runs, dirs, levels, strict=True)
    ]
    for level in range(max(levels), 0, -1):
        i = 0
        while i < len(order):
            if levels[i] >= level:
                j = i
                while j < len(order) and levels[j] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                levels[i:j] = levels[i:j][::-1]
                i = j
            else:
                i += 1
    return order


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


def _run_length(face: _Face | None, text: str, size: int, bold: bool) -> float:
    if face is None:
        return _length(text, size)
    if face == _emoji_face():
        return _emoji_font(face).getlength(text) * _emoji_scale(size)
    return _face_font(face, size, bold).getlength(text)


_STACKED_MARKS: Final = 2
"""At most this many generic diacritics (the Combining Diacritical Marks
blocks) on one letter once composed: a real name has one or two (Yoruba
``ọ̀``), "Zalgo" text dozens, which would spill over the lines around it."""


def _generic_mark(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x0300 <= cp <= 0x036F
        or 0x1AB0 <= cp <= 0x1AFF
        or 0x1DC0 <= cp <= 0x1DFF
        or 0x20D0 <= cp <= 0x20FF
        or 0xFE20 <= cp <= 0xFE2F
    )


def _unstacked(cluster: str) -> str:
    """``cluster`` with generic diacritics past :data:`_STACKED_MARKS` left out."""
    if len(cluster) <= 1 + _STACKED_MARKS:
        return cluster
    kept: list[str] = []
    marks = 0
    for ch in cluster:
        if _generic_mark(ch):
            marks += 1
            if marks > _STACKED_MARKS:
                continue
        kept.append(ch)
    return "".join(kept)


def _drawable(cluster: str) -> str:
    """``cluster`` as it can be drawn: itself when a font has it, else its
    letters without accents where the built-in font has those (a machine
    without the fallback fonts still shows ``Elodie`` for ``Élodie``), else
    nothing."""
    if not cluster[0].isprintable():
        return ""
    if _plain(cluster) or _first_face(cluster) is not None:
        return cluster
    if _is_emoji(cluster):
        return EMOJI_STAND_IN if _first_face(EMOJI_STAND_IN) is not None else ""
    base = unicodedata.normalize("NFKD", cluster)
    return "".join(ch for ch in base if not unicodedata.combining(ch) and has_glyph(ch))


@lru_cache(maxsize=1024)
def safe_text(text: str) -> str:
    """``text`` reduced to what the installed fonts can draw.

    Composed (NFC), other spaces made plain spaces, controls and formatting
    characters (bidi overrides, zero width spaces) dropped but the joiners
    shaping needs kept, diacritics stacked past :data:`_STACKED_MARKS` and
    clusters no font has left out (an emoji with no emoji font installed);
    runs of spaces collapsed; an emoji with no emoji font installed becomes
    :data:`EMOJI_STAND_IN`.  The result may be empty.
    """
    kept: list[str] = []
    for cluster in graphemes(unicodedata.normalize("NFC", text)):
        kept.append(" " if cluster.isspace() else _drawable(_unstacked(cluster)))
    return " ".join("".join(kept).split())


def display_name(names: Sequence[str], seat: int, fallback: str = "Player") -> str:
    """``names[seat]`` made drawable, or ``"Player N"`` when it is missing or
    nothing of it can be drawn (only controls, or only emoji with no emoji
    font: stand-ins alone would not tell two players apart)."""
    name = safe_text(names[seat]) if 0 <= seat < len(names) else ""
    return name if name.replace(EMOJI_STAND_IN, "").strip() else f"{fallback} {seat + 1}"


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
    emoji = _emoji_face()
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
    face = _emoji_face()
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
    emoji = _emoji_face()
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


HAnchor = Literal["l", "m", "r"]
VAnchor = Literal["a", "t", "m", "s", "d"]

# --------------------------------------------------------------------------- canvas


@dataclass
class Canvas:
    """An RGB image with the theme and the drawing helpers renderers share.

    ``display_width`` is the width of the image this canvas ends up in, when
    it is a piece pasted into a bigger one (a card face on the board): text
    sizes are held to that image's minimum (0: the canvas is the image)."""

    width: int
    height: int
    theme: Theme = DEFAULT_THEME
    display_width: int = 0
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


# --------------------------------------------------------------------------- legends


@dataclass(frozen=True)
class LegendItem:
    """A key entry: an optional icon (drawn by ``icon(canvas, left, centre_y)``
    in ``icon_width`` pixels) and then its label."""

    label: str
    icon: Callable[[Canvas, int, int], None] | None = None
    icon_width: int = 0


def legend(
    c: Canvas,
    items: Sequence[LegendItem],
    *,
    x0: int,
    x1: int,
    y: int,
    size: int,
    fill: RGB | None = None,
    gap: int = 28,
    row_height: int | None = None,
) -> int:
    """``items`` left to right from ``(x0, y)``, starting a new row whenever
    the next would pass ``x1`` (at phone sizes a key rarely fits on one line);
    returns the bottom of the last row."""
    size = c.text_size(size)
    rh = row_height if row_height is not None else size + 14
    ink = c.theme.muted if fill is None else fill
    x, cy = x0, y + rh // 2
    for item in items:
        label = fit_text(item.label, size, x1 - x0 - item.icon_width - 10)
        width = item.icon_width + (10 if item.icon_width else 0) + text_width(label, size)
        if x > x0 and x + width > x1:
            x, cy = x0, cy + rh
        if item.icon is not None:
            item.icon(c, x, cy)
        left = x + item.icon_width + (10 if item.icon_width else 0)
        c.text((left, cy), label, size=size, fill=ink, anchor="lm")
        x += width + gap
    return cy + rh // 2


# --------------------------------------------------------------------------- game pieces

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def pips(c: Canvas, box: Box, count: int, colour: RGB) -> None:
    """Die pips (1 to 6, in the usual layouts) inside the square ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = min(w, h) * 0.1
    for fx, fy in _PIPS.get(count, ()):
        cx, cy = x0 + fx * w, y0 + fy * h
        c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def die_face(
    c: Canvas,
    box: Box,
    *,
    fill: RGB,
    ink: RGB,
    label: str | None = None,
    pip_count: int = 0,
    outline: RGB | None = None,
    label_size: int = 40,
) -> None:
    """A die: rounded square with pips, a label, or a label above a pip row.

    With both a label and pips the label sits in the upper half and the pips
    run in one row beneath it (so "H" over three pips reads "cavalry 3").
    """
    x0, y0, x1, y1 = box
    size = x1 - x0
    c.draw.rounded_rectangle(
        box, radius=size // 6, fill=fill, outline=outline, width=3 if outline is not None else 0
    )
    if label and pip_count:
        rows = [pip_count] if pip_count <= 3 else [(pip_count + 1) // 2, pip_count // 2]
        r = size * 0.072
        gap = r * 0.8
        top = y0 + size * (0.3 if len(rows) == 1 else 0.25)
        c.text(((x0 + x1) / 2, top), label, size=label_size, fill=ink, anchor="mm", bold=True)
        first = y0 + size * (0.72 if len(rows) == 1 else 0.6)
        for k, count in enumerate(rows):
            cy = first + k * (2 * r + gap)
            start = (x0 + x1) / 2 - (count * 2 * r + (count - 1) * gap) / 2 + r
            for i in range(count):
                cx = start + i * (2 * r + gap)
                c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif label:
        c.text(
            ((x0 + x1) / 2, (y0 + y1) / 2), label, size=label_size, fill=ink, anchor="mm", bold=True
        )
    elif pip_count:
        pips(c, box, pip_count, ink)


def token_chip(
    c: Canvas,
    box: Box,
    label: str,
    *,
    colour: RGB,
    ink: RGB | None = None,
    size: int = 24,
    outline: RGB | None = None,
) -> None:
    """A player's token: a rounded tile in their colour with a short label."""
    x0, y0, x1, y1 = box
    c.draw.rounded_rectangle(
        box,
        radius=min(x1 - x0, y1 - y0) // 4,
        fill=colour,
        outline=outline,
        width=2 if outline is not None else 0,
    )
    c.text(
        ((x0 + x1) / 2, (y0 + y1) / 2),
        label,
        size=size,
        fill=c.theme.on_colour if ink is None else ink,
        anchor="mm",
        bold=True,
    )


def crown(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, jewel: RGB | None = None) -> None:
    """A three-pointed crown filling ``box`` (the Raja mark)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    base = y0 + 0.78 * h
    pts = [
        (x0, y0 + 0.25 * h),
        (x0 + 0.25 * w, y0 + 0.55 * h),
        (x0 + 0.5 * w, y0 + 0.1 * h),
        (x0 + 0.75 * w, y0 + 0.55 * h),
        (x1, y0 + 0.25 * h),
        (x1 - 0.06 * w, base),
        (x0 + 0.06 * w, base),
    ]
    draw.polygon(pts, fill=fill)
    draw.rectangle((x0 + 0.06 * w, base + 0.06 * h, x1 - 0.06 * w, y1), fill=fill)
    r = 0.08 * w
    for px, py in ((x0, y0 + 0.25 * h), (x0 + 0.5 * w, y0 + 0.1 * h), (x1, y0 + 0.25 * h)):
        draw.ellipse((px - r, py - r, px + r, py + r), fill=fill)
    if jewel is not None:
        jr = 0.07 * w
        jx, jy = x0 + 0.5 * w, y0 + 0.6 * h
        draw.ellipse((jx - jr, jy - jr, jx + jr, jy + jr), fill=jewel)


def elephant(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, detail: RGB) -> None:
    """A side-on elephant facing left filling ``box`` (the first-player marker)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def px(fx: float) -> float:
        return x0 + fx * w

    def py(fy: float) -> float:
        return y0 + fy * h

    # legs, then body, head, trunk, ear, eye, tail
    for fx in (0.36, 0.5, 0.72, 0.86):
        draw.rounded_rectangle(
            (px(fx - 0.06), py(0.55), px(fx + 0.06), py(1.0)),
            radius=max(1, int(w * 0.03)),
            fill=fill,
        )
    draw.ellipse((px(0.28), py(0.12), px(0.98), py(0.8)), fill=fill)
    draw.ellipse((px(0.1), py(0.05), px(0.46), py(0.6)), fill=fill)
    draw.polygon(
        [
            (px(0.12), py(0.3)),
            (px(0.0), py(0.72)),
            (px(0.02), py(0.95)),
            (px(0.1), py(0.95)),
            (px(0.1), py(0.75)),
            (px(0.24), py(0.45)),
        ],
        fill=fill,
    )
    draw.ellipse((px(0.26), py(0.12), px(0.5), py(0.58)), fill=detail)
    draw.ellipse((px(0.29), py(0.16), px(0.47), py(0.54)), fill=fill)
    er = max(1.5, w * 0.025)
    draw.ellipse((px(0.19) - er, py(0.26) - er, px(0.19) + er, py(0.26) + er), fill=detail)
    draw.line([(px(0.97), py(0.35)), (px(1.0), py(0.6))], fill=fill, width=max(2, int(w * 0.03)))


def card_back(
    c: Canvas,
    box: Box,
    *,
    fill: RGB,
    pattern: RGB,
    radius: int | None = None,
    outline: RGB | None = None,
) -> None:
    """A face-down playing card: a rounded card in ``fill`` with an inset
    frame and a diamond in ``pattern`` (small boxes get the frame only)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = max(2, min(w, h) // 8) if radius is None else radius
    c.draw.rounded_rectangle(
        box, radius=r, fill=fill, outline=outline, width=2 if outline is not None else 0
    )
    inset = max(3, min(w, h) // 10)
    if w < 4 * inset or h < 4 * inset:
        return
    line = max(1, min(w, h) // 40)
    c.draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=max(1, r - inset // 2),
        outline=pattern,
        width=line + 1,
    )
    if min(w, h) < 60:
        return
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = (w - 4 * inset) * 0.32, (h - 4 * inset) * 0.36
    c.draw.polygon(
        [(cx, cy - dy), (cx + dx, cy), (cx, cy + dy), (cx - dx, cy)],
        outline=pattern,
        width=line + 1,
    )
    dr = min(dx, dy) * 0.3
    c.draw.polygon([(cx, cy - dr), (cx + dr, cy), (cx, cy + dr), (cx - dr, cy)], fill=pattern)


def card_fan(
    c: Canvas,
    xy: tuple[int, int],
    count: int,
    *,
    fill: RGB,
    pattern: RGB,
    card: tuple[int, int] = (22, 30),
    step: int = 12,
) -> Box:
    """``count`` small card backs overlapping left to right from ``xy`` (top
    left), outlined in the background so each stays countable; returns the
    box they cover (an empty box at ``xy`` for none)."""
    x, y = xy
    w, h = card
    for i in range(count):
        left = x + i * step
        card_back(
            c,
            (left, y, left + w, y + h),
            fill=fill,
            pattern=pattern,
            radius=max(2, w // 6),
            outline=c.theme.background,
        )
    if count <= 0:
        return (x, y, x, y)
    return (x, y, x + (count - 1) * step + w, y + h)


# --------------------------------------------------------------------------- tables
#
# Ranked tables (the leaderboard, tournament standings): a title band, a row
# of column heads, striped rows with the first three places in medal badges,
# and a footnote.  The layout is for a 960-pixel image, so every size below
# is readable on a phone there.

TABLE_WIDTH: Final = 960
TABLE_MARGIN: Final = 24
TABLE_SMALL: Final = min_text_size(TABLE_WIDTH)
"""Column heads, kickers and footnotes: the smallest text readable on a phone."""
TABLE_BODY: Final = TABLE_SMALL + 4
"""The cells."""
TABLE_BIG: Final = 36
"""The title."""
TABLE_TITLE_H: Final = 112
TABLE_SUBTITLE_H: Final = 40
"""What a subtitle adds to the title band."""
TABLE_HEAD_H: Final = 48
TABLE_HEAD_LINE: Final = TABLE_SMALL + 6
"""The distance between the lines of a column head broken over two."""
TABLE_ROW_H: Final = 54
TABLE_FOOT_H: Final = 56
TABLE_NOTE_H: Final = 96
"""The height of the note that stands in for the rows of an empty table."""
_MEDAL_RADIUS: Final = 19


def medal_colour(theme: Theme, rank: int) -> RGB | None:
    """The badge colour of the first three places (gold, silver, bronze)."""
    if rank == 1:
        return theme.highlight
    if rank == 2:
        return (200, 205, 214)
    if rank == 3:
        return (214, 150, 96)
    return None


def table_title(
    c: Canvas,
    *,
    kicker: str,
    title: str,
    fallback: str,
    note: str,
    subtitle: str | None = None,
) -> int:
    """The title band: ``kicker`` (small capitals) over ``title`` (made
    drawable; ``fallback`` when nothing of it is), ``note`` at the top right,
    and ``subtitle`` under the title when given.  Returns its bottom."""
    t = c.theme
    height = TABLE_TITLE_H + (TABLE_SUBTITLE_H if subtitle is not None else 0)
    title_band(c, height)
    c.text((TABLE_MARGIN, 16), kicker, size=TABLE_SMALL, fill=t.muted, anchor="lt", bold=True)
    c.text(
        (TABLE_MARGIN, 52),
        safe_text(title) or fallback,
        size=TABLE_BIG,
        fill=t.ink,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * TABLE_MARGIN - 130,
    )
    if subtitle is not None:
        c.text(
            (TABLE_MARGIN, TABLE_TITLE_H - 8),
            safe_text(subtitle),
            size=TABLE_SMALL + 2,
            fill=t.muted,
            anchor="lt",
            max_width=c.width - 2 * TABLE_MARGIN,
        )
    c.text((c.width - TABLE_MARGIN, 18), note, size=TABLE_SMALL, fill=t.muted, anchor="rt")
    return height


@dataclass(frozen=True)
class ColumnHead:
    """A column head: its lines (most have one) at ``x``, left- or
    right-aligned like the column, each cut to ``max_width`` when given."""

    x: float
    lines: tuple[str, ...]
    align: Literal["l", "r"] = "r"
    max_width: int | None = None


def table_heads(
    c: Canvas, y: int, heads: Sequence[ColumnHead], *, height: int = TABLE_HEAD_H
) -> int:
    """The column heads from ``y``, centred in ``height`` pixels and ruled
    under; returns the bottom of the rule."""
    t = c.theme
    mid = y + height // 2
    for head in heads:
        first = mid - (len(head.lines) - 1) * TABLE_HEAD_LINE / 2
        for k, line in enumerate(head.lines):
            c.text(
                (head.x, first + k * TABLE_HEAD_LINE),
                line,
                size=TABLE_SMALL,
                fill=t.muted,
                anchor=f"{head.align}m",
                bold=True,
                max_width=head.max_width,
            )
    c.draw.rectangle(
        (TABLE_MARGIN, y + height - 2, c.width - TABLE_MARGIN, y + height), fill=t.grid
    )
    return y + height


def table_stripe(c: Canvas, y: int, *, height: int = TABLE_ROW_H) -> None:
    """The shading of every second row."""
    t = c.theme
    c.draw.rectangle(
        (TABLE_MARGIN, y, c.width - TABLE_MARGIN, y + height),
        fill=blend(t.background, t.panel, 0.6),
    )


def rank_badge(c: Canvas, right: int, mid: int, rank: int, *, dim: bool = False) -> None:
    """A row's place, right-aligned at ``right``: the first three in a medal
    badge, the others as a muted number.  ``dim`` fades the badge (a player
    who left)."""
    t = c.theme
    medal = medal_colour(t, rank)
    label = str(rank)
    if medal is not None:
        r = _MEDAL_RADIUS
        cx = right - r
        fill = t.dim(medal, 0.45) if dim else medal
        c.draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=fill)
        c.text((cx, mid), label, size=TABLE_BODY, fill=t.on_colour, anchor="mm", bold=True)
    else:
        c.text((right, mid), label, size=TABLE_BODY, fill=t.muted, anchor="rm", bold=True)


def table_note(c: Canvas, y: int, text: str) -> int:
    """The note an empty table shows instead of rows; returns its bottom."""
    c.text(
        (c.width / 2, y + TABLE_NOTE_H // 2),
        text,
        size=TABLE_BODY,
        fill=c.theme.muted,
        anchor="mm",
        max_width=c.width - 2 * TABLE_MARGIN,
    )
    return y + TABLE_NOTE_H


def table_footnote(c: Canvas, y: int, *choices: str) -> int:
    """One muted line under the table: the first of ``choices`` that fits the
    width (the last, cut, if none does).  Returns its bottom."""
    room = c.width - 2 * TABLE_MARGIN
    note = next((s for s in choices if text_width(s, TABLE_SMALL) <= room), choices[-1])
    c.text(
        (TABLE_MARGIN, y + TABLE_FOOT_H // 2),
        note,
        size=TABLE_SMALL,
        fill=c.theme.muted,
        anchor="lm",
        max_width=room,
    )
    return y + TABLE_FOOT_H


# --------------------------------------------------------------------------- output


def quantize(image: Image.Image, colours: int = 64, *, sample_step: int = 3) -> Image.Image:
    """``image`` reduced to at most ``colours`` palette entries, no dithering.

    The palette is chosen (fast octree) from every ``sample_step``-th pixel
    in each direction, then the whole image is mapped onto it: about three
    times faster than quantizing every pixel, and as faithful for flat board
    graphics (each colour covers far more than one sampled pixel; thin
    antialiasing shades go to their nearest neighbour).
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    step = max(1, sample_step)
    sample = rgb
    if step > 1 and rgb.width >= 4 * step and rgb.height >= 4 * step:
        sample = rgb.resize((rgb.width // step, rgb.height // step), Image.Resampling.NEAREST)
    palette = sample.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if sample is rgb:
        return palette
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def to_png(image: Image.Image, *, colours: int = 64, compress_level: int = 3) -> bytes:
    """Encode ``image`` as PNG, fast and small.

    An RGB(A) image is first reduced to ``colours`` palette entries without
    dithering (:func:`quantize`: flat board graphics barely change, and the
    file and the encode time roughly halve); a palette image is written as it
    is.  ``optimize`` stays off (it costs several times the encode);
    ``compress_level`` is zlib's (lower is faster and bigger).
    """
    if image.mode != "P":
        image = quantize(image, colours)
    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


__all__ = [
    "DEFAULT_THEME",
    "MIN_TEXT_PX",
    "PHONE_WIDTH",
    "RGB",
    "TABLE_BIG",
    "TABLE_BODY",
    "TABLE_FOOT_H",
    "TABLE_HEAD_H",
    "TABLE_HEAD_LINE",
    "TABLE_MARGIN",
    "TABLE_NOTE_H",
    "TABLE_ROW_H",
    "TABLE_SMALL",
    "TABLE_SUBTITLE_H",
    "TABLE_TITLE_H",
    "TABLE_WIDTH",
    "Box",
    "Canvas",
    "ColumnHead",
    "LegendItem",
    "MarkShape",
    "TextRecord",
    "Theme",
    "blend",
    "card_back",
    "card_fan",
    "contrast",
    "crown",
    "die_face",
    "display_name",
    "elephant",
    "fit_choice",
    "fit_text",
    "font",
    "graphemes",
    "has_glyph",
    "legend",
    "luminance",
    "mark",
    "medal_colour",
    "min_text_size",
    "pips",
    "quantize",
    "rank_badge",
    "record_text",
    "safe_text",
    "seat_marker",
    "seat_pill_width",
    "shape_marker",
    "table_footnote",
    "table_heads",
    "table_note",
    "table_stripe",
    "table_title",
    "text_width",
    "to_png",
    "token_chip",
    "wrap_text",
]


class ViewRenderer:
    """The registry entry for one game: its two drawing functions.

    A subclass names the game and gives the two (pure functions of a view,
    with ``names`` and ``theme`` keywords) as class keywords::

        class SangramRenderer(
            ViewRenderer, name="sangram", board=render_board, private=render_private
        ):
            ...
    """

    name: str
    draw_board: Callable[..., Image.Image]
    draw_private: Callable[..., Image.Image]
    draw_filled: Callable[..., Image.Image] | None
    """The board drawn to fill a given height (``height`` keyword), for a
    game whose board's height changes with the phase; ``None``: the board."""

    def __init_subclass__(
        cls,
        *,
        name: str,
        board: Callable[..., Image.Image],
        private: Callable[..., Image.Image],
        filled: Callable[..., Image.Image] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = name
        cls.draw_board = staticmethod(board)
        cls.draw_private = staticmethod(private)
        cls.draw_filled = None if filled is None else staticmethod(filled)

    def board(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
    ) -> Image.Image:
        return type(self).draw_board(view, names=names, theme=theme)

    def private(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
    ) -> Image.Image:
        return type(self).draw_private(view, names=names, theme=theme)

    def filled_board(
        self, view: Any, *, names: Sequence[str], height: int, theme: Theme = DEFAULT_THEME
    ) -> Image.Image:
        """The board for a canvas ``height`` tall (a replay's frame, sized
        for the game's tallest board): a game whose board grows and shrinks
        with the phase shows more where it has the room (Sangram); any
        other draws its board."""
        filled = type(self).draw_filled
        if filled is None:
            return self.board(view, names=names, theme=theme)
        return filled(view, names=names, theme=theme, height=height)


def private_heading(
    c: Canvas, *, name: str, where: str, prompt: str | None, margin: int, small: int
) -> None:
    """The top line of a private view, shared by every game: the seat's name
    on the left, where the game stands on the right, and under it the
    highlighted prompt when the seat must act."""
    t = c.theme
    right = c.width - margin
    box = c.text((right, 26), where, size=28, fill=t.ink, anchor="rt", bold=True)
    left_edge = box[0]
    if prompt is not None:
        pbox = c.pill(
            (right, 76),
            prompt,
            size=small,
            fill=t.highlight,
            ink=t.on_colour,
            anchor="r",
            height=38,
        )
        left_edge = min(left_edge, pbox[0])
    c.text(
        (margin + 46, 70),
        name,
        size=34,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=left_edge - margin - 70,
    )


def turned_square(size: int, file: int, rank: int, turns: int) -> tuple[int, int]:
    """(column, row from the top) on the image of a square (files from 0,
    ranks from 1) of a ``size`` by ``size`` board drawn turned ``turns``
    quarter turns anticlockwise."""
    c, r = file, rank - 1
    for _ in range(turns % 4):
        c, r = size - 1 - r, c
    return c, size - 1 - r


def edge_labels(
    size: int, files: str, display: Callable[[int, int], tuple[int, int]]
) -> tuple[list[str], list[str]]:
    """The coordinate along each display column and row of a square board
    drawn turned: ``display(file, rank)`` gives a square's (column, row) on
    the image (files from 0, ranks from 1).  A column shows its file, or
    its rank when the board is turned a quarter; rows likewise."""
    where = {display(f, r): (f, r) for r in range(1, size + 1) for f in range(size)}

    def label(a: tuple[int, int], b: tuple[int, int]) -> str:
        fa, ra = where[a]
        fb, _ = where[b]
        return files[fa] if fa == fb else str(ra)

    columns = [label((i, 0), (i, size - 1)) for i in range(size)]
    rows = [label((0, i), (size - 1, i)) for i in range(size)]
    return columns, rows


# --------------------------------------------------------------------------- game layout
#
# What every game's board or private image draws alike: the title band, the
# section headings, a seat's panel, pill and badges, the result headline and,
# on the square boards, the coordinates and the seats' edge bars.

_SEAT_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def fill_names(line: str, names: Sequence[str]) -> str:
    """A narrated line (an event, a result's reason) with its ``{pN}`` seat
    placeholders replaced by the seats' names, made drawable."""
    return safe_text(_SEAT_PLACEHOLDER.sub(lambda m: display_name(names, int(m.group(1))), line))


def ordinal(n: int) -> str:
    """A place: ``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def title_band(c: Canvas, height: int, *, stripe: RGB | None = None) -> None:
    """The band across the top of a board or private image: the panel colour
    ruled in the grid colour at its foot, with ``stripe`` (the seat's colour,
    on a private image) down its left edge."""
    t = c.theme
    c.draw.rectangle((0, 0, c.width, height), fill=t.panel)
    if stripe is not None:
        c.draw.rectangle((0, 0, 14, height), fill=stripe)
    c.draw.rectangle((0, height - 3, c.width, height), fill=t.grid)


def board_title(
    c: Canvas,
    *,
    kicker: str,
    status: str,
    y: int,
    size: int,
    margin: int,
    x: int | None = None,
    right: int | None = None,
    counter: str | None = None,
) -> None:
    """The text of a board's title band: ``kicker`` (the game, in small muted
    capitals) at the top left, and under it the ``status`` line (where the
    game stands), ``size`` pixels, its top at ``y``, from ``x`` (the margin)
    and cut at ``right`` (the right margin).  ``counter`` (the turn or the
    ply) stands in a pill at the right, and the status line stops short of it."""
    t = c.theme
    right = c.width - margin if right is None else right
    if counter is not None:
        box = c.pill(
            (right, 70), counter, size=c.min_text, fill=t.grid, ink=t.ink, anchor="r", height=40
        )
        right = box[0] - 16
    c.text(
        (margin, 16),
        kicker,
        size=c.min_text,
        fill=t.muted,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * margin,
    )
    x = margin if x is None else x
    c.text((x, y), status, size=size, fill=t.ink, anchor="lt", bold=True, max_width=right - x)


def private_band(c: Canvas, *, colour: RGB, kicker: str, margin: int, height: int = 108) -> int:
    """The title band of a private image: the band with the seat's ``colour``
    down its left edge and ``kicker`` ("SANGRAM · YOUR HAND (ONLY YOU SEE
    THIS)") at the top left; returns its bottom.  The seat's mark goes at
    ``(margin + 22, 70)``, its name and prompt through :func:`private_heading`."""
    title_band(c, height, stripe=colour)
    c.text((margin + 8, 16), kicker, size=c.min_text, fill=c.theme.muted, anchor="lt", bold=True)
    return height


def section_heading(c: Canvas, x: int, y: int, text: str) -> int:
    """A section's label in small muted capitals; returns the y where the
    section's content starts."""
    c.text((x, y), text.upper(), size=c.min_text, fill=c.theme.muted, anchor="lt", bold=True)
    return y + c.min_text + 14


def seat_panel(c: Canvas, box: Box, colour: RGB, *, acting: bool = False) -> None:
    """A seat's panel (or its row in the result): the panel colour with a tab
    of the seat's ``colour`` down its left edge.  ``acting`` (the seat the
    game waits for) rings it in the highlight."""
    t = c.theme
    x0, y0, x1, y1 = box
    c.panel(box, fill=colour, radius=14)
    c.panel((x0 + 10, y0, x1, y1), radius=14)
    c.draw.rectangle((x0 + 10, y0, x0 + 24, y1), fill=t.panel)
    if acting:
        c.panel(box, fill=None, outline=t.highlight, radius=14, width=4)
        c.draw.rectangle((x0 + 2, y0 + 12, x0 + 9, y1 - 12), fill=colour)


def seat_pill_width(c: Canvas, label: str, *, height: int, pad: int, gap: int) -> int:
    """How wide :func:`seat_pill` draws ``label`` whole (``""``: the mark alone)."""
    mark = 2 * pad + int(2 * height * 0.22)
    return mark + (gap + text_width(label, c.min_text, True) if label else 0)


def seat_pill(
    c: Canvas,
    x: int,
    cy: int,
    seat: int,
    label: str | Sequence[str],
    *,
    max_width: int,
    height: int,
    pad: int,
    gap: int,
    anchor: Literal["l", "m", "r"] = "l",
    dimmed: bool = False,
    outline: RGB | None = None,
) -> tuple[int, int]:
    """A pill in the seat's colour holding its mark and ``label`` (its name),
    at most ``max_width`` wide, ``pad`` inside its ends and ``gap`` between
    the mark and the label; ``dimmed`` fades it (a seat done or out).
    ``label`` may be choices, longest first (:func:`fit_choice`): ``""``
    among them leaves the mark alone, its shape and colour naming the seat.
    Returns its (left, right)."""
    t = c.theme
    size = c.min_text
    colour = t.seat_colour(seat)
    fill = t.dim(colour, 0.65) if dimmed else colour
    ink = t.muted if dimmed else t.on_colour
    mark_r = height * 0.22
    inner = max_width - 2 * pad - int(2 * mark_r) - gap
    choices = (label,) if isinstance(label, str) else tuple(label)
    text = fit_choice(choices, size, inner, bold=True)
    w = min(max_width, seat_pill_width(c, text, height=height, pad=pad, gap=gap))
    left = x if anchor == "l" else x - w // 2 if anchor == "m" else x - w
    top = cy - height // 2
    c.panel(
        (left, top, left + w, top + height), fill=fill, outline=outline, radius=height // 2, width=3
    )
    seat_marker(c, (left + pad + mark_r, cy), mark_r, seat, fill=ink)
    c.text((left + pad + 2 * mark_r + gap, cy), text, size=size, fill=ink, anchor="lm", bold=True)
    return left, left + w


def badge_row(
    c: Canvas,
    right: int,
    cy: int,
    badges: Iterable[tuple[str, RGB, RGB]],
    *,
    gap: int = 8,
) -> int:
    """A panel's status badges ("TO MOVE", "WINNER"), each ``(label, fill,
    ink)``, as pills leftwards from ``right`` on the line ``cy``, the first
    rightmost.  Returns where what stands before them must end."""
    for label, fill, ink in badges:
        box = c.pill((right, cy), label, size=c.min_text, fill=fill, ink=ink, anchor="r", height=36)
        right = box[0] - gap
    return right


def badges_width(c: Canvas, labels: Iterable[str], *, gap: int = 8) -> int:
    """How wide :func:`badge_row` draws badges with these labels, the gap
    before what stands to their left included (0 for none)."""
    return sum(text_width(label, c.min_text, True) + 20 + gap for label in labels)


def result_headline(
    c: Canvas,
    y: int,
    *,
    ranking: Sequence[Sequence[int]],
    names: Sequence[str],
    tie: str,
    reason: str,
    margin: int,
) -> int:
    """The head of a game's result, its top at ``y``: "Asha wins!" and a
    crown for a lone winner, ``tie`` and the names for several ("Draw: Asha,
    Bhima"), "Game over" for none; under it ``reason`` in muted lines.
    Returns the y under the reason."""
    t = c.theme
    top = ranking[0] if ranking else ()
    if len(top) == 1:
        headline = f"{display_name(names, top[0])} wins!"
    elif top:
        headline = tie + ", ".join(display_name(names, s) for s in top)
    else:
        headline = "Game over"
    box = c.text(
        (margin, y),
        headline,
        size=38,
        fill=t.ink,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * margin - 60,
    )
    if len(top) == 1:
        crown(c.draw, (box[2] + 14, y - 2, box[2] + 58, y + 30), t.highlight)
    y += 50
    small = c.min_text
    for line in wrap_text(reason, small, c.width - 2 * margin):
        c.text((margin, y), line, size=small, fill=t.muted, anchor="lt")
        y += small + 8
    return y


def capture_badge(c: Canvas, box: Box, *, inset: int, ring: int = 0) -> None:
    """A piece taken here: a red disc filling ``box`` with a cross ``inset``
    pixels in from its edges, ringed ``ring`` pixels in the background colour
    (on the board, where it overlaps a square)."""
    t = c.theme
    c.draw.ellipse(box, fill=t.bad, outline=t.background if ring else None, width=ring)
    x0, y0, x1, y1 = box
    c.cross((x0 + inset, y0 + inset, x1 - inset, y1 - inset), t.on_colour, width=4)


def board_coordinates(
    c: Canvas,
    left: int,
    top: int,
    square: int,
    columns: Sequence[str],
    rows: Sequence[str],
    *,
    above: int,
    beside: int,
    size: int,
) -> None:
    """The coordinates round a square board whose top left square is at
    ``(left, top)``: ``columns[i]`` over and under display column ``i``,
    ``above`` pixels out from the board's edge, and ``rows[i]`` either side
    of display row ``i``, ``beside`` pixels out (see :func:`edge_labels`)."""
    t = c.theme
    span = len(columns) * square
    for i, (column, row) in enumerate(zip(columns, rows, strict=True)):
        cx = left + i * square + square // 2
        for ty in (top - above, top + span + above):
            c.text((cx, ty), column, size=size, fill=t.muted, anchor="mm", bold=True)
        cy = top + i * square + square // 2
        for tx in (left - beside, left + span + beside):
            c.text((tx, cy), row, size=size, fill=t.muted, anchor="mm", bold=True)


BOARD_SIDES: Final = ("bottom", "right", "top", "left")
"""The sides of a square board, anticlockwise from the bottom."""


def side_bar(
    c: Canvas, left: int, top: int, span: int, side: str, colour: RGB, *, thickness: int
) -> None:
    """The bar in a seat's (or army's) ``colour`` along the ``side`` of the
    board it plays from (one of :data:`BOARD_SIDES`), 2 pixels out from a
    board ``span`` pixels square whose top left corner is ``(left, top)``."""
    right, bottom = left + span, top + span
    bars = {
        "bottom": (left, bottom + 2, right, bottom + 2 + thickness),
        "right": (right + 2, top, right + 2 + thickness, bottom),
        "top": (left, top - 2 - thickness, right, top - 2),
        "left": (left - 2 - thickness, top, left - 2, bottom),
    }
    c.draw.rectangle(bars[side], fill=colour)


# --------------------------------------------------------------------------- wide boards
#
# Boards that fit the chat (issue 17): a landscape image, the board on the left
# and a column of panels on its right.  Text there is held to the minimum of a
# wider image, so the headings scale with :attr:`Canvas.min_text`.


def private_title(
    c: Canvas,
    *,
    name: str,
    where: str,
    prompt: str | None,
    margin: int,
    band: int = 108,
    mark: int = 18,
) -> None:
    """:func:`private_heading` for an image of any width: the seat's name
    (after its mark, ``mark`` pixels in radius, centred at ``(margin + 22,
    band * 2 // 3)``) on the left, where the game
    stands on the right and, when the seat must act, the highlighted
    ``prompt`` before it, every size at least the image's minimum."""
    t = c.theme
    small = c.min_text
    right = c.width - margin
    cy = band * 2 // 3
    box = c.text((right, cy), where, size=small + 2, fill=t.ink, anchor="rm", bold=True)
    left_edge = box[0]
    if prompt is not None:
        pbox = c.pill(
            (left_edge - 16, cy),
            prompt,
            size=small,
            fill=t.highlight,
            ink=t.on_colour,
            anchor="r",
            height=small + 12,
        )
        left_edge = pbox[0]
    x = margin + 22 + mark + 12
    c.text(
        (x, cy),
        name,
        size=small + 6,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=left_edge - x - 24,
    )


def column_heading(c: Canvas, x: int, y: int, text: str, *, right: int) -> int:
    """A section's label in a side column, in small muted capitals cut to end
    at ``right``; returns the y where the section's content starts."""
    c.text(
        (x, y),
        text.upper(),
        size=c.min_text,
        fill=c.theme.muted,
        anchor="lt",
        bold=True,
        max_width=right - x,
    )
    return y + c.min_text + 14


def last_move_section(
    c: Canvas,
    x0: int,
    x1: int,
    y: int,
    *,
    seat: int,
    name: str,
    lines: Sequence[str],
    size: int,
    line_height: int,
) -> int:
    """A side column's "Last move": the mover's mark and name, then the move
    in words, one line each; returns the y under the last line."""
    y = column_heading(c, x0, y, "Last move", right=x1)
    cy = y + line_height // 2
    c.seat_mark((x0 + 14, cy), 14, seat)
    c.text(
        (x0 + 38, cy),
        name,
        size=size,
        fill=c.theme.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 38,
    )
    y += line_height
    for line in lines:
        c.text((x0, y + line_height // 2), line, size=size, fill=c.theme.ink, anchor="lm")
        y += line_height
    return y
