"""Every name in its own script (issue 17, item 1).

Players' display names are drawn in their own script on every image: the
built-in font for the Latin it has, then the Noto Sans families Debian's
``fonts-noto-core`` installs (the Makefile's ``fonts`` step), shaped by raqm.
These tests render real names in each script on every game's board, private
image and result, the leaderboard and the standings, and check that each
name is drawn whole, in a font that has a real glyph for every character (no
missing-glyph box), with ink where it was drawn, never as "Player N".
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.engines import ENGINES, get_engine
from renderers import get_renderer
from renderers.common import (
    FALLBACK_SCRIPTS,
    NOTO_DIR,
    Canvas,
    display_name,
    fit_text,
    fonts,
    graphemes,
    has_glyph,
    masks,
    measure,
    safe_text,
    scripts,
    text_width,
)
from renderers.leaderboard import LeaderboardRow, render_leaderboard
from renderers.standings import StandingRow, render_standings
from tests.renderers.images import playout

# (script, name, the font family its letters must come from: "" is Noto Sans)
SCRIPT_NAMES: tuple[tuple[str, str, str | None], ...] = (
    ("Devanagari", "हरि प्रसाद", "Devanagari"),
    ("Bengali", "ক্ষিতীশ", "Bengali"),
    ("Gurmukhi", "ਗੁਰਪ੍ਰੀਤ", "Gurmukhi"),
    ("Gujarati", "ઋષિ", "Gujarati"),
    ("Tamil", "தமிழ்செல்வி", "Tamil"),
    ("Telugu", "శ్రీనివాస్", "Telugu"),
    ("Kannada", "ಕನ್ನಡಿಗ", "Kannada"),
    ("Malayalam", "മലയാളി", "Malayalam"),
    ("Cyrillic", "Иван", ""),
    ("Greek", "Ελένη", ""),
    ("Polish", "Łukasz", ""),
    ("Norwegian", "Ørjan", ""),
    ("Vietnamese", "Nguyễn Thị Ánh", ""),
    ("Arabic", "محمد", "Arabic"),
    ("Hebrew", "דוד", "Hebrew"),
    # In colour from Noto Color Emoji; without it, a plain stand-in.
    ("emoji", "Asha 🎲", None),
)
NAMES = tuple(name for _, name, _ in SCRIPT_NAMES)
EMOJI_INSTALLED = fonts.EMOJI_FONT.is_file()
EXPECTED = {
    name: name if script != "emoji" or EMOJI_INSTALLED else f"Asha {fonts.EMOJI_STAND_IN}"
    for script, name, _ in SCRIPT_NAMES
}
"""What each name must be drawn as."""
ELLIPSIS = "\u2026"


def _clear_caches() -> None:
    """Forget cached text (so it is drawn, and seen, again) and the font
    choices (a test may change the fonts); the fonts' tables stay read."""
    for module in (fonts, scripts, measure, masks):
        for name, value in vars(module).items():
            if name == "_coverage":
                continue
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


# ------------------------------------------------------------- independent glyph check


@lru_cache(maxsize=64)
def _plain_font(path: str) -> ImageFont.FreeTypeFont:
    """``path`` with Pillow's basic layout: one character, one glyph."""
    return ImageFont.truetype(path, 40, layout_engine=ImageFont.Layout.BASIC)


def _glyph(f: ImageFont.FreeTypeFont, ch: str) -> tuple[Any, bytes]:
    mask = f.getmask(ch)
    return mask.size, bytes(mask)


def has_real_glyph(path: str, ch: str) -> bool:
    """Whether the font file draws ``ch`` as something other than its
    missing-glyph box (drawn, not read from the font's tables)."""
    if path == str(fonts.EMOJI_FONT):
        # Colour bitmaps come at one size only.
        f = ImageFont.truetype(path, fonts.EMOJI_STRIKE)
        return f.getbbox(ch) != f.getbbox("\U0010fffd") or _emoji_ink(f, ch) != _emoji_ink(
            f, "\U0010fffd"
        )
    f = _plain_font(path)
    return _glyph(f, ch) != _glyph(f, "\U0010fffd")


def _emoji_ink(f: ImageFont.FreeTypeFont, ch: str) -> bytes:
    image = Image.new("RGBA", (160, 160))
    ImageDraw.Draw(image).text((10, 140), ch, font=f, anchor="ls", embedded_color=True)
    return image.tobytes()


def _ignorable(ch: str) -> bool:
    """Joiners and the emoji variation selector: the shaper hides them."""
    return ch in "\u200c\u200d\ufe0f"


def assert_real_glyphs(text: str) -> None:
    """Every character of ``text`` is drawn by a font that has it."""
    drawn = "".join(piece for _, piece in scripts._runs(text))
    for face, piece in scripts._runs(text):
        for ch in piece:
            if ch == " " or _ignorable(ch):
                continue
            if face is None:
                assert has_glyph(ch), (text, ch)
            else:
                assert has_real_glyph(face.path, ch), (text, ch, face.path)
    assert drawn.replace(" ", "") == "".join(
        c for c in text.replace(" ", "") if fonts._first_face(c) or has_glyph(c)
    ), text


# ------------------------------------------------------------- what the renderers draw


@dataclass
class Drawn:
    text: str
    """What :meth:`Canvas.text` was given."""
    shown: str
    """What it drew (cut to its width)."""
    inked: bool
    """Whether any pixel in the returned box changed."""


@contextmanager
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every text drawn inside the block; for those holding a test name,
    whether pixels in its box changed (the image is compared before/after)."""
    found: list[Drawn] = []
    original = Canvas.text

    def spy(self: Canvas, xy: tuple[float, float], text: str, **kw: Any) -> Any:
        size = self.text_size(kw["size"])
        # The band of rows the text can reach, kept to compare after drawing.
        band = (0, max(0, round(xy[1]) - 3 * size), self.width, round(xy[1]) + 3 * size)
        interesting = any(name in text for name in EXPECTED.values())
        before = self.image.crop(band) if interesting else None
        box = original(self, xy, text, **kw)
        width = kw.get("max_width")
        shown = text if width is None else fit_text(text, size, width, kw.get("bold", False))
        inked = False
        if before is not None and box[2] > box[0]:
            after = self.image.crop(band)
            clip = (box[0], box[1] - band[1], box[2], box[3] - band[1])
            change = ImageChops.difference(before.crop(clip), after.crop(clip))
            inked = change.getbbox() is not None
        found.append(Drawn(text, shown, inked))
        return box

    monkeypatch.setattr(Canvas, "text", spy)
    _clear_caches()
    yield found


def name_drawn(name: str, drawn: list[Drawn]) -> bool:
    """``name`` drawn whole, or its first letters then an ellipsis where
    its box is narrow, in real glyphs and with ink."""
    clusters = graphemes(name)
    for d in drawn:
        if not d.inked or name not in d.text:
            continue
        whole = name in d.shown
        cut = any(
            d.shown.endswith("".join(clusters[:k]).rstrip() + ELLIPSIS)
            for k in range(1, len(clusters))
        )
        if whole or cut:
            assert_real_glyphs(d.shown)
            return True
    return False


def _chunks(n: int) -> list[tuple[str, ...]]:
    return [NAMES[i : i + n] for i in range(0, len(NAMES), n)]


def _states(name: str, players: int) -> tuple[Any, ...]:
    engine = get_engine(name)
    states = playout(engine, players, 17, {k: o.default for k, o in engine.options.items()})
    return states[0], states[len(states) // 2], states[-1]


@pytest.fixture(autouse=True)
def _fonts_installed() -> None:
    missing = [s for s in FALLBACK_SCRIPTS if not (NOTO_DIR / f"NotoSans{s}-Regular.ttf").is_file()]
    missing = [s for s in missing if s not in ("Oriya", "Sinhala", "Thai")]
    assert not missing, f"`make setup` installs fonts-noto-core; missing: {missing}"


# ------------------------------------------------------------- every image


def test_the_names_are_kept_whole() -> None:
    for script, name, family in SCRIPT_NAMES:
        assert safe_text(name) == EXPECTED[name], script
        assert display_name([name], 0) == EXPECTED[name], script
        assert_real_glyphs(name)
        if family is not None:
            faces = {face for face, piece in scripts._runs(name) if piece.strip()}
            assert faces and all(
                f is not None and Path(f.path).name == f"NotoSans{family}-Regular.ttf"
                for f in faces
            ), (script, faces)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_board_private_image_and_result(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = get_engine(game)
    renderer = get_renderer(game)
    players = engine.max_players
    first, middle, last = _states(game, players)
    assert engine.outcome(last) is not None
    for names in _chunks(players):
        seats = len(names)
        chunk = names + tuple(f"Asha {k}" for k in range(players - seats))
        for label, state in (("board", first), ("board", middle), ("result", last)):
            with drawn_texts(monkeypatch) as drawn:
                renderer.board(engine.view(state, None), names=chunk)
            for name in names:
                assert name_drawn(EXPECTED[name], drawn), (game, label, name)
                assert not any(d.text == f"Player {chunk.index(name) + 1}" for d in drawn)
        for seat, name in enumerate(names):
            with drawn_texts(monkeypatch) as drawn:
                renderer.private(engine.view(middle, seat), names=chunk)
            assert name_drawn(EXPECTED[name], drawn), (game, "private", name)


def test_leaderboard_and_standings(monkeypatch: pytest.MonkeyPatch) -> None:
    leaders = [
        LeaderboardRow(rank=i + 1, name=name, rating=30 - i, games=5, wins=2)
        for i, name in enumerate(NAMES)
    ]
    with drawn_texts(monkeypatch) as drawn:
        render_leaderboard(leaders, title="Kauda Baji")
    for name in NAMES:
        assert name_drawn(EXPECTED[name], drawn), ("leaderboard", name)
    assert [d.text for d in drawn].count("Player") == 1  # the column head only

    standing = [
        StandingRow(rank=i + 1, name=name, points=8 - i / 2, tiebreaks=(1.5,), games=4, byes=0)
        for i, name in enumerate(NAMES)
    ]
    with drawn_texts(monkeypatch) as drawn:
        render_standings(standing, title="Sangram", subtitle="Swiss", tiebreak_names=("Buchholz",))
    for name in NAMES:
        assert name_drawn(EXPECTED[name], drawn), ("standings", name)


def test_cjk_where_a_font_is_installed() -> None:
    name = "王小明"
    if not any(p.is_file() for p in fonts.CJK_FONTS):
        # Not installed (fonts-noto-cjk is too large to install for this):
        # nothing drawable, so the fallback name, never boxes.
        assert display_name([name], 0) == "Player 1"
        assert scripts._runs(name) == ()
        return
    assert display_name([name], 0) == name
    assert_real_glyphs(name)


# ------------------------------------------------------------- nothing drawable


@pytest.mark.parametrize("name", ["", "   ", "\x00\x07\x1b", "\u200b\u202e"])
def test_player_n_only_when_nothing_is_drawable(name: str) -> None:
    assert display_name([name], 0) == "Player 1"


# ------------------------------------------------------------- emoji


def test_emoji_are_drawn_in_colour() -> None:
    """Issue 31: an emoji in a name is drawn (in colour), measured as drawn
    and cut as one cluster."""
    if not EMOJI_INSTALLED:
        pytest.skip("fonts-noto-color-emoji is not installed (see the stand-in test)")
    for name in ("🤖 Bot 1", "Asha 🎲", "👍🏽 हरि", "🇮🇳 Иван", "1️⃣ Dev", "👨\u200d👩\u200d👧"):
        assert safe_text(name) == name
        assert display_name([name], 0) == name
        c = Canvas(500, 100)
        box = c.text((10, 20), name, size=40, fill=(255, 255, 255), bold=True)
        assert box[2] - box[0] == text_width(name, 40, True)
        ink = ImageChops.difference(c.image, Canvas(500, 100).image)
        drawn = ink.getbbox()
        assert drawn is not None and drawn[2] <= box[2] + 3, name
        # In colour: the text is white on grey, an emoji (but the family,
        # drawn grey) has strongly coloured pixels.
        colours = c.image.getcolors(100_000) or []
        strong = sum(n for n, (r, g, b) in colours if max(r, g, b) - min(r, g, b) > 60)
        assert strong > 30 or "\u200d" in name, name
    # An emoji alone is a name (no "Player 1"), and the robot is not left out.
    assert display_name(["🎲🎲🎲"], 0) == "🎲🎲🎲"
    assert text_width("🤖 Bot 1", 30) > text_width("Bot 1", 30) + 20
    # Cut between clusters: a skin tone stays with its hand.
    cut = fit_text("👍🏽👍🏽👍🏽 Asha", 30, text_width("👍🏽👍🏽", 30) + 12)
    assert cut.endswith(ELLIPSIS) and cut.removesuffix(ELLIPSIS) in ("👍🏽", "👍🏽👍🏽")


def test_without_an_emoji_font_emoji_keep_a_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without fonts-noto-color-emoji draws a plain diamond where an
    emoji was, and "Player N" for a name of emoji alone."""
    monkeypatch.setattr(fonts, "_emoji_face", lambda: None)
    _clear_caches()
    try:
        stand_in = fonts.EMOJI_STAND_IN
        assert safe_text("🤖 Bot 1") == f"{stand_in} Bot 1"
        assert safe_text("Asha 👍🏽") == f"Asha {stand_in}"
        assert display_name(["🎲🎲🎲"], 0) == "Player 1"
        c = Canvas(400, 80)
        c.text((10, 10), safe_text("🤖"), size=40, fill=(255, 255, 255))
        assert c.image.getbbox() is not None
        assert ImageChops.difference(c.image, Canvas(400, 80).image).getbbox() is not None
    finally:
        monkeypatch.undo()
        _clear_caches()


def test_accents_and_formatting() -> None:
    assert safe_text("Ásha  Dévi") == "Ásha Dévi"
    # Decomposed accents are composed; bidi overrides and zero-width spaces go.
    assert safe_text("E\u0301lodie") == "Élodie"
    assert safe_text("Ali\u202e\u200bce") == "Alice"
    # Joiners that shaping needs stay (a Devanagari half form).
    assert safe_text("क्\u200dष") == "क्\u200dष"
    # Zalgo keeps two marks per letter, so it stays within its line.
    zalgo = safe_text("Z\u0337\u0322\u031b\u0324a")
    assert zalgo == "Z\u0337\u0322a"


def test_without_the_fallback_fonts_accents_are_stripped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without fonts-noto-core still shows what it can (the old
    behaviour), never boxes."""
    monkeypatch.setattr(fonts, "_chain", lambda: ())
    _clear_caches()
    try:
        assert safe_text("Élodie Ñuñez") == "Elodie Nunez"
        assert display_name(["हरि"], 0) == "Player 1"
        assert scripts._runs("हरि") == ()
    finally:
        monkeypatch.undo()
        _clear_caches()


# ------------------------------------------------------------- shaping


def _face(family: str) -> fonts._Face:
    return next(f for f in fonts._chain() if Path(f.path).name == f"NotoSans{family}-Regular.ttf")


def test_devanagari_is_shaped_not_set_letter_by_letter() -> None:
    word = "प्रसाद"
    f = fonts._face_font(_face("Devanagari"), 48, False)
    naive = sum(f.getlength(ch) for ch in word)
    # The conjunct प्र is one glyph, the matra joins: narrower than the sum.
    assert text_width(word, 48) < naive - 10
    assert f.getlength("क्ष") < f.getlength("क्") + f.getlength("ष") - 5
    # And the drawn pixels are the shaped ones, not the letters side by side.
    shaped = masks._mixed_mask(word, 48, False)[0]
    assert abs(shaped.width - text_width(word, 48)) < 10


def test_arabic_is_joined_and_right_to_left() -> None:
    word = "محمد"
    f = fonts._face_font(_face("Arabic"), 48, False)
    # Joined forms, not the isolated letters side by side.
    assert abs(f.getlength(word) - sum(f.getlength(ch) for ch in word)) > 2
    # The first letter (م) is at the right: what is drawn is raqm's
    # right-to-left layout, not the letters in logical order.

    def laid(font: ImageFont.FreeTypeFont) -> Image.Image:
        image = Image.new("L", (300, 100))
        ImageDraw.Draw(image).text((10, 70), word, font=font, fill=255, anchor="ls")
        return image

    mask, dx, dy = masks._mixed_mask(word, 48, False)
    drawn = Image.new("L", (300, 100))
    drawn.paste(mask, (10 + dx, 70 + dy))
    assert drawn.getbbox() is not None
    assert ImageChops.difference(drawn, laid(f)).getbbox() is None
    # Pillow's basic layout sets the isolated letters left to right.
    naive = ImageFont.truetype(f.path, 48, layout_engine=ImageFont.Layout.BASIC)
    assert ImageChops.difference(drawn, laid(naive)).getbbox() is not None


def test_mixed_lines_read_in_order() -> None:
    def order(text: str) -> list[str]:
        return [piece for _, piece in scripts._visual(scripts._runs(text)) if piece.strip()]

    # An English sentence keeps its order around an Arabic name.
    assert order("محمد took d3") == ["محمد", "took", "d3"]
    # A right-to-left name with a number: the number on the left.
    assert order("דוד 12") == ["12", "דוד"]
    # Two right-to-left words: the first on the right.
    assert order("محمد علي") == ["علي", "محمد"]
    # Brackets around right-to-left text are mirrored.
    assert order("(محمد)") == ["(", "محمد", ")"]
    # As Unicode's algorithm (and so Discord's client) reads them: a comma
    # between a right-to-left name and English follows the name, and a
    # number after a right-to-left name is read with it.
    assert order("Draw: محمد, Asha") == ["Draw:", "محمد", ",", "Asha"]
    assert order("Asha דוד 3") == ["Asha", "3", "דוד"]
    # A zero width joiner stays in its word (a half form).
    assert order("क्\u200dष محمد") == ["क्\u200dष", "محمد"]
    if EMOJI_INSTALLED:
        # An emoji in right-to-left text is reversed whole: its skin tone
        # stays after the hand.
        assert order("محمد 👍🏽👍🏽") == ["👍🏽👍🏽", "محمد"]


def test_the_built_in_font_stays_for_latin_it_has() -> None:
    assert scripts._runs("Asha") == ((None, "Asha"),)
    runs = scripts._runs("Asha Łukasz")
    assert runs[0] == (None, "Asha") and runs[-1][0] is not None
    assert masks._mixed_mask("Łukasz", 40, False)[0].getbbox() is not None
    # Ł is drawn: the word is wider than "ukasz" in the same font.
    assert text_width("Łukasz", 40) > text_width("ukasz", 40) + 10


def test_measuring_matches_drawing() -> None:
    for name in NAMES:
        for bold in (False, True):
            width = text_width(name, 40, bold)
            c = Canvas(600, 120)
            box = c.text((10, 10), name, size=40, fill=(255, 255, 255), bold=bold)
            assert box[2] - box[0] == width
            ink = ImageChops.difference(c.image, Canvas(600, 120).image).getbbox()
            assert ink is not None, name
            # The ink lies within the measured advance (a pixel or two of overhang).
            assert ink[0] >= 10 - 3 and ink[2] <= 10 + width + 3, (name, ink, width)


# ------------------------------------------------------------- cutting by width


def test_graphemes() -> None:
    assert graphemes("प्रसाद") == ["प्र", "सा", "द"]
    assert graphemes("ক্ষিতীশ") == ["ক্ষি", "তী", "শ"]
    assert graphemes("ਗੁਰਪ੍ਰੀਤ") == ["ਗੁ", "ਰ", "ਪ੍ਰੀ", "ਤ"]
    assert graphemes("Nguye\u0302\u0303n") == ["N", "g", "u", "y", "e\u0302\u0303", "n"]
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert graphemes(f"{family}\U0001f1ee\U0001f1f3\U0001f1f3\U0001f1f5") == [
        family,
        "\U0001f1ee\U0001f1f3",
        "\U0001f1f3\U0001f1f5",
    ]
    assert graphemes("\U0001f44d\U0001f3fd!") == ["\U0001f44d\U0001f3fd", "!"]
    assert graphemes("Asha") == ["A", "s", "h", "a"]


@pytest.mark.parametrize("name", [*NAMES, "श्रीनिवासन् रामानुजन्", "Ṣẹ́gun Ọ̀kẹ́"])
def test_fit_text_cuts_by_width_between_graphemes(name: str) -> None:
    text = safe_text(name)
    clusters = graphemes(text)
    prefixes = {"".join(clusters[:k]).rstrip() for k in range(len(clusters) + 1)}
    full = text_width(text, 30)
    for room in range(0, full + 2, 3):
        cut = fit_text(text, 30, room)
        assert text_width(cut, 30) <= room or cut == ""
        if cut == text:
            assert full <= room
            continue
        assert cut == "" or cut.endswith(ELLIPSIS), (room, cut)
        assert cut.removesuffix(ELLIPSIS) in prefixes, (room, cut)


def test_fit_text_keeps_as_much_as_fits() -> None:
    """The cut is by width: a narrow script keeps more letters than a wide one."""
    room = text_width("हरि प्रसाद", 30) - 1
    cut = fit_text("हरि प्रसाद", 30, room)
    assert cut.endswith(ELLIPSIS) and len(cut) > 3
    assert fit_text("iiiiiiiiii", 30, text_width("WWW", 30)) != fit_text(
        "WWWWWWWWWW", 30, text_width("WWW", 30)
    )
