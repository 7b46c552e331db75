"""Players' names in their own scripts: clusters, font runs, reading order, safe text.

A line is cut only between grapheme clusters (:func:`graphemes`: what a
reader sees as one character), set in runs of one font each (:func:`_runs`:
the built-in font for the words it draws whole, fallback faces cluster by
cluster for the rest), and drawn run by run in visual order (:func:`_visual`).
User text goes through :func:`safe_text` first: what no installed font has
is left out, so nothing is drawn as a missing-glyph box.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from renderers.common import fonts
from renderers.common.fonts import (
    EMOJI_STAND_IN,
    ZWJ,
    ZWNJ,
    _covers,
    _Face,
    _first_face,
    _is_emoji,
    has_glyph,
)


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
                    and (current == fonts._emoji_face()) == _is_emoji(cluster)
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
