"""Players' names in their own scripts: clusters, font runs, reading order, safe text.

A line is cut only between grapheme clusters (:func:`graphemes`: what a
reader sees as one character), set in runs of one font each (:func:`_runs`:
the built-in font for the words it draws whole, fallback faces cluster by
cluster for the rest), and drawn run by run in visual order (:func:`_visual`).
User text goes through :func:`safe_text` first: what no installed font has
is left out, so nothing is drawn as a missing-glyph box.

Two libraries do what hand-written approximations did until issue 32:

- Clusters are the ``regex`` module's ``\\X`` (UAX #29 as of the Unicode
  version it carries), with one tailoring kept from the old code
  (:func:`_conjunct`): a virama joins the next letter in every script, not
  only in the six that Unicode 15.1's rule GB9c names, so Gurmukhi ਪ੍ਰੀ and
  Kannada ನ್ನ stay whole (the library alone cuts them inside the conjunct,
  and ``test_graphemes`` holds Gurmukhi to it).  Of the 16 names of
  ``tests/renderers/test_scripts.py`` (and the other names the tests use)
  every cluster is the same as before; the library differs only where the
  old rules were wrong: a prepended mark (U+0600 ARABIC NUMBER SIGN) goes
  with what follows it, a zero width joiner joins only emoji (and, by the
  tailoring, a half form), and Hangul jamo make one syllable.
- Reading order is python-bidi's Unicode Bidirectional Algorithm
  (:func:`_bidi`).  Each of the 16 names draws pixel for pixel as before on
  every game's board, private image and result, the leaderboard and the
  standings, alone and cut at every width.  Lines mixing a right-to-left
  name with other text differ where the old approximation departed from
  UAX #9, and the library is right, as Discord's own client (a browser's
  bidi) shows the same line in the message above the image: in ``Draw:
  محمد, Asha`` the comma now follows the name instead of standing before
  it (rule N2: a neutral between right-to-left and left-to-right text takes
  the line's direction); in ``Asha محمد 3`` the number now stands with the
  name, left of it (rules W2, N1, I1: a number after a right-to-left word
  is read with it); Arabic-Indic digits (class AN) order right to left.
  And an emoji sequence standing in right-to-left text (``محمد 👍🏽``),
  which the old code reversed code point by code point (the skin tone
  before the hand), is now reversed cluster by cluster.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import Any, Final

import regex
from bidi import algorithm as uba

from bot.i18n import t
from renderers.common import fonts
from renderers.common.fonts import (
    EMOJI_STAND_IN,
    ZWJ,
    _covers,
    _Face,
    _first_face,
    _is_emoji,
    has_glyph,
)

_CLUSTER: Final = regex.compile(r"\X")
"""Unicode's extended grapheme clusters (UAX #29), as the ``regex`` module
keeps them for each Unicode version: combining marks, spacing marks,
Hangul syllables, emoji modifiers, ZWJ sequences and flags, and (Unicode
15.1's rule GB9c) conjuncts in Devanagari, Bengali, Gujarati, Oriya,
Telugu and Malayalam."""


def _conjunct(cluster: str, after: str) -> bool:
    """Whether ``after`` goes on a conjunct ``cluster`` ends: ``cluster``
    ends with a virama (optionally then a zero width joiner, which asks for
    a half form; a non-joiner asks for no conjunct) and ``after`` starts
    with a letter.

    GB9c covers only the six scripts above; this tailoring (UAX #29 allows
    tailorings) keeps the others' conjuncts whole too, as the hand-written
    rules did: Gurmukhi ਪ੍ਰੀ (a subjoined ra) and Kannada ನ್ನ (a subjoined
    na), which the library alone would cut inside the conjunct.  It also
    keeps Tamil's ழ்செ together, where the library alone would cut after
    the visible pulli (Tamil forms no conjuncts, so that cut would be fine
    too): kept as it was, so no cut name changes."""
    end = cluster[:-1] if cluster[-1] == ZWJ and len(cluster) > 1 else cluster
    return unicodedata.combining(end[-1]) == 9 and unicodedata.category(after[0]).startswith("L")


def graphemes(text: str) -> list[str]:
    """``text`` split into grapheme clusters: what a reader sees as one
    character (a letter with its accents, a conjunct with its matras, an
    emoji sequence).  Text is cut only between them."""
    if text.isascii():
        # One character a cluster (but CR LF, which safe_text drops anyway).
        return list(text)
    clusters: list[str] = []
    for cluster in _CLUSTER.findall(text):
        if clusters and _conjunct(clusters[-1], cluster):
            clusters[-1] += cluster
        else:
            clusters.append(cluster)
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


_RIGHT_TO_LEFT: Final = frozenset(("R", "AL", "AN"))
"""Bidi classes that can make a line anything but left to right: Hebrew
and Arabic letters, and Arabic-Indic digits (which UAX #9 sets right to
left among themselves)."""


def _bidi(text: str, base: int) -> list[tuple[int, str, int]]:
    """Each character of ``text`` in the order it is shown, left to right,
    as ``(logical index, character as shown, level)``: the Unicode
    Bidirectional Algorithm (UAX #9, rules X1 to L2, and L4's mirrored
    brackets) on a line of base level ``base``, by python-bidi.

    python-bidi's ``get_display`` gives only the reordered string, and a
    line is drawn in runs of one font that the shaper must see in logical
    order (joining forms are chosen along the logical text), so the steps of
    its ``bidi.algorithm`` (the pure-Python implementation it keeps beside
    the Rust one, whose ``get_display`` neither tags nor mirrors) are run
    here with each character tagged by its index.  That implementation
    predates Unicode 6.3's isolates (which :func:`safe_text` drops with the
    other formatting characters) and bracket pairs (rule N0: brackets then
    take their direction from their neighbours alone, the same for a name
    in brackets among English words).  Zero width joiners and other
    boundary neutrals, which rule X9 sets aside, are left out
    (:func:`_visual` puts them back)."""
    storage: dict[str, Any] = uba.get_empty_storage()
    storage["base_level"] = base
    storage["base_dir"] = "LR"[base]
    uba.get_embedding_levels(text, storage)
    for at, char in enumerate(storage["chars"]):
        char["at"] = at
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    uba.reorder_resolved_levels(storage, False)
    uba.apply_mirroring(storage, False)
    return [(char["at"], char["ch"], char["level"]) for char in storage["chars"]]


def _visual(runs: Sequence[_Run]) -> list[_Run]:
    """Runs in the order they are drawn, left to right.

    The line's characters are ordered by the Unicode Bidirectional
    Algorithm (:func:`_bidi`), and each run is cut where its characters'
    levels differ: each piece keeps its text in logical order, for the
    shaper (raqm) lays a right-to-left piece out itself, joined; a piece of
    punctuation (or emoji) alone at a right-to-left level, which the shaper
    would set left to right, is reversed here, cluster by cluster, its
    brackets mirrored as the algorithm shows them.  The line's base
    direction is left to right unless it has no left-to-right letter at all
    (a higher-level protocol in place of rules P2 and P3: the images' own
    words are English; a name alone keeps its own direction)."""
    text = "".join(piece for _, piece in runs)
    if not any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        # Every level is 0: the runs as they are, joined where a font continues.
        joined: list[_Run] = []
        for face, piece in runs:
            if joined and joined[-1][0] == face:
                joined[-1] = (face, joined[-1][1] + piece)
            else:
                joined.append((face, piece))
        return joined
    base = 0 if any(unicodedata.bidirectional(ch) == "L" for ch in text) else 1
    owner = [k for k, (_, piece) in enumerate(runs) for _ in piece]
    shown = _bidi(text, base)
    kept = {at for at, _, _ in shown}
    # Pieces: characters shown side by side, of one run, at one level, and
    # side by side in the logical text too (set-aside joiners apart).
    groups: list[list[tuple[int, str, int]]] = []
    for char in shown:
        at, _, level = char
        if groups:
            last, _, last_level = groups[-1][-1]
            low, high = min(last, at), max(last, at)
            if (
                owner[last] == owner[at]
                and last_level == level
                and not any(i in kept for i in range(low + 1, high))
            ):
                groups[-1].append(char)
                continue
        groups.append([char])
    group_of = {at: k for k, group in enumerate(groups) for at, _, _ in group}
    # A set-aside joiner goes with the piece of the character before it in
    # its run (else the one after): a half form keeps its joiner.
    members: list[list[int]] = [[at for at, _, _ in group] for group in groups]
    for at in range(len(text)):
        if at in kept:
            continue
        run = owner[at]
        near = chain(range(at - 1, -1, -1), range(at + 1, len(text)))
        home = next((i for i in near if owner[i] == run and i in kept), None)
        if home is not None:
            members[group_of[home]].append(at)
    order: list[_Run] = []
    for group, at_all in zip(groups, members, strict=True):
        face = runs[owner[group[0][0]]][0]
        at_all.sort()
        logical = "".join(text[i] for i in at_all)
        level = group[0][2]
        if level % 2 and not any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in logical):
            # Reversed cluster by cluster (a skin tone stays after its hand,
            # a joiner in its sequence), each character as the algorithm
            # shows it (a bracket mirrored).
            shown_as = {at: ch for at, ch, _ in group}
            parts: list[str] = []
            start = 0
            for cluster in graphemes(logical):
                span = at_all[start : start + len(cluster)]
                start += len(cluster)
                parts.append("".join(shown_as.get(i, text[i]) for i in span))
            order.append((face, "".join(reversed(parts))))
        else:
            order.append((face, logical))
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


def display_name(
    names: Sequence[str], seat: int, fallback: str = "Player", lang: str = "en"
) -> str:
    """``names[seat]`` made drawable, or ``"Player N"`` (in ``lang``) when it
    is missing or nothing of it can be drawn (only controls, or only emoji
    with no emoji font: stand-ins alone would not tell two players apart)."""
    name = safe_text(names[seat]) if 0 <= seat < len(names) else ""
    if name.replace(EMOJI_STAND_IN, "").strip():
        return name
    if fallback == "Player" and lang != "en":
        return safe_text(t(lang, "Player {n}", n=seat + 1))
    return f"{fallback} {seat + 1}"
