"""Issue 33: every word drawn in Mahabharata's and Sangram's images (boards,
private views, results) comes from the catalog in the renderer's language.

In Hindi the images read in Hindi (Devanagari, shaped by the Devanagari
face); in the pseudo-locale every word drawn is marked (⟦…⟧), so a word
that skipped the catalog shows up here; English is drawn as before.  In
every language each image still fits the chat (at most 1.25 times as tall
as wide), every text keeps the phone minimum, and no text runs off its
canvas: what no longer fits is cut, never drawn over the edge.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.engines.mahabharata import MahabharataEngine
from bot.engines.messages import Msg
from bot.engines.sangram_views import (
    PHASE_ACTIVATE,
    PHASE_COMMIT,
    PHASE_OVER,
    PHASE_RECRUIT,
    ChoiceView,
)
from bot.i18n import t
from renderers import mahabharata, sangram, sangram_cards
from renderers.common import NOTO_DIR, Canvas, TextRecord, min_text_size, record_text
from renderers.common.scripts import _runs
from tests.renderers import images
from tests.renderers import test_mahabharata_render as mtests
from tests.renderers import test_sangram_render as stests

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
"""Two Latin letters in a row: a word (the games' notation is a letter and
digits: ``d3``, ``H2``, ``I3 x2``, ``P2``)."""

M_NAMES = mtests.NAMES
S_NAMES = stests.NAMES

Box = tuple[int, int, int, int]


@pytest.fixture
def boxes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Box, int]]]:
    """Every text drawn meanwhile: (text, its box, its canvas's width)."""
    drawn: list[tuple[str, Box, int]] = []
    original = Canvas.text

    def text(self: Canvas, xy: tuple[float, float], text: str, **kwargs: Any) -> Box:
        box = original(self, xy, text, **kwargs)
        drawn.append((text, box, self.width))
        return box

    monkeypatch.setattr(Canvas, "text", text)
    yield drawn


def _drawn(draw: Callable[[], Image.Image]) -> tuple[Image.Image, list[TextRecord]]:
    with record_text() as records:
        image = draw()
    return image, records


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    """Sangram's card faces and key are cached: drawn afresh here, so every
    word on them is recorded."""
    sangram_cards._card_image.cache_clear()
    sangram._legend_image.cache_clear()


def _unmarked(text: str, names: Sequence[str], engine: Sequence[str]) -> str:
    """What of ``text`` is neither a player's name (whole or cut) nor an
    engine's text given as plain English (those are the engines' to
    translate; a line of one wrapped)."""
    bare = text.strip().removesuffix("\u2026").strip()
    if any(bare and bare in part for part in [*names, *engine]):
        return ""
    for part in sorted([*names, *engine], key=len, reverse=True):
        if part:
            text = text.replace(part, " ")
    for name in names:
        for end in range(len(name) - 1, 2, -1):
            text = text.replace(name[:end].rstrip() + "\u2026", " ")
    return text


def _m_engine_texts(view: Any) -> list[str]:
    texts: list[str] = []
    if view.me is not None:
        texts += [s for s in view.me.pati_missing if not isinstance(s, Msg)]
    if view.final is not None and not isinstance(view.final.reason, Msg):
        texts.append(view.final.reason)
    return texts


def _s_engine_texts(view: Any) -> list[str]:
    texts: list[str] = []
    if view.choice is not None and not isinstance(view.choice.prompt, Msg):
        prompt = view.choice.prompt.strip()
        texts += [prompt, prompt[:1].upper() + prompt[1:]]
    if view.final is not None and not isinstance(view.final.reason, Msg):
        texts.append(view.final.reason)
    return texts


def _assert_translated(
    records: Sequence[TextRecord], lang: str, names: Sequence[str], engine: Sequence[str], what: str
) -> None:
    """Every text drawn is in ``lang``: in Hindi no English word is left but
    names and the engines' plain texts; in the pseudo-locale every text with
    words is marked."""
    assert records, what
    for record in records:
        text = record.text
        if lang == "qps" and "⟦" in text:
            continue
        rest = _unmarked(text, names, engine)
        assert not ENGLISH_WORD.search(rest), f"{what}: {text!r} is not in {lang}"
    if lang == "hi":
        assert any(DEVANAGARI.search(r.text) for r in records), what


def _m_views() -> list[tuple[str, Any]]:
    views = []
    for phase in mtests.PHASES:
        views.append((phase, mtests.build_view(4, phase, seed=7, me_seat=1)))
        views.append((f"{phase} seat 0", mtests.build_view(3, phase, seed=3, me_seat=0)))
    return views


def _s_views() -> list[tuple[str, Any]]:
    views = []
    for phase in stests.PHASES:
        views.append(
            (
                phase,
                stests.build_view(
                    5,
                    phase,
                    seed=5,
                    me_seat=0,
                    hand=stests.SIX[:5],
                    committed=stests.card(3),
                ),
            )
        )
    return views


# ----------------------------------------------------------------- the words


@pytest.mark.parametrize("lang", ["hi", "qps"])
def test_mahabharata_images_are_in_the_language(lang: str) -> None:
    for what, view in _m_views():
        engine = _m_engine_texts(view)
        for draw, kind in (
            (mahabharata.render_board, "board"),
            (mahabharata.render_private, "private"),
        ):
            _, records = _drawn(lambda v=view, d=draw: d(v, names=M_NAMES, lang=lang))
            _assert_translated(records, lang, M_NAMES, engine, f"{what} {kind}")


@pytest.mark.parametrize("lang", ["hi", "qps"])
def test_sangram_images_are_in_the_language(lang: str) -> None:
    for what, view in _s_views():
        engine = _s_engine_texts(view)
        for draw, kind in ((sangram.render_board, "board"), (sangram.render_private, "private")):
            _, records = _drawn(lambda v=view, d=draw: d(v, names=S_NAMES, lang=lang))
            _assert_translated(records, lang, S_NAMES, engine, f"{what} {kind}")
        # A replay's frame, the last round's battlefield kept.
        _, records = _drawn(
            lambda v=view: sangram.render_filled_board(v, names=S_NAMES, height=1375, lang=lang)
        )
        _assert_translated(records, lang, S_NAMES, engine, f"{what} frame")


def test_the_hindi_reads_as_a_player_would_say_it() -> None:
    """Spot checks of the Hindi drawn: the leaders' and warriors' names, a
    status line, the counts."""
    view = mtests.build_view(4, "draft", seed=7, me_seat=1)
    _, records = _drawn(lambda: mahabharata.render_board(view, names=M_NAMES, lang="hi"))
    texts = [r.text for r in records]
    assert "भीष्म" in texts or "विराट" in texts
    assert any(text.startswith("दौर 4 · ") for text in texts)
    assert "पासे" in texts and "पर्दा" in texts
    sview = stests.build_view(5, PHASE_COMMIT, seed=5, me_seat=0, hand=stests.SIX[:5])
    _, records = _drawn(lambda: sangram.render_private(sview, names=S_NAMES, lang="hi"))
    texts = [r.text for r in records]
    assert "सेना शक्ति" in texts
    assert any(text.startswith("आपका हाथ · ") for text in [t.upper() for t in texts])
    assert "आचार्य" in texts and "महाराजा" in texts


def test_engine_messages_in_views_are_localized() -> None:
    """The texts engines give in views (a Pati's missing parts, the result's
    reason, a choice's prompt) are drawn in the language when they are
    messages."""
    view = mtests.build_view(4, "over", seed=7, me_seat=0)
    assert view.final is not None and view.me is not None
    reason = Msg("Most victory points.")
    missing = Msg("{n} more cavalry icons", n=2)
    view = replace(
        view,
        final=replace(view.final, reason=reason),
        me=replace(view.me, pati_complete=False, pati_missing=(missing,)),
    )
    _, records = _drawn(lambda: mahabharata.render_board(view, names=M_NAMES, lang="qps"))
    assert any(r.text.startswith("⟦Ṁöšţ") for r in records)
    _, records = _drawn(lambda: mahabharata.render_private(view, names=M_NAMES, lang="qps"))
    assert any(r.text.startswith("⟦2 ɱöŕé") for r in records)
    _, records = _drawn(lambda: mahabharata.render_private(view, names=M_NAMES))
    assert "2 more cavalry icons" in [r.text for r in records]

    sview = stests.build_view(5, PHASE_ACTIVATE, seed=5)
    choice = ChoiceView(
        seat=1,
        kind="activity",
        effect="mantri",
        card=None,
        origin="card",
        prompt=Msg("Choose an opponent."),
    )
    sview = replace(sview, choice=choice)
    _, records = _drawn(lambda: sangram.render_board(sview, names=S_NAMES, lang="qps"))
    assert any(r.text.startswith("⟦Çĥööšé") for r in records)


# ----------------------------------------------------------------- English, caches, fonts


def test_english_is_drawn_as_before() -> None:
    """``lang="en"`` is the default: the same pixels, the same words."""
    view = mtests.build_view(4, "over", seed=7, me_seat=1)
    for draw in (mahabharata.render_board, mahabharata.render_private):
        assert images.same(draw(view, names=M_NAMES), draw(view, names=M_NAMES, lang="en"))
    _, records = _drawn(lambda: mahabharata.render_board(view, names=M_NAMES, lang="en"))
    assert "Influence" in [r.text for r in records]
    sview = stests.build_view(5, PHASE_RECRUIT, seed=5, me_seat=0, hand=stests.SIX[:5])
    for draw in (sangram.render_board, sangram.render_private):
        assert images.same(draw(sview, names=S_NAMES), draw(sview, names=S_NAMES, lang="en"))


def test_card_faces_and_the_key_are_cached_per_language() -> None:
    """Sangram caches its card faces and its key: a Hindi board drawn in
    between leaves the English one as it was, and differs from it."""
    view = stests.build_view(5, PHASE_OVER, seed=4)
    before = sangram.render_board(view, names=S_NAMES)
    hindi = sangram.render_board(view, names=S_NAMES, lang="hi")
    after = sangram.render_board(view, names=S_NAMES)
    assert images.same(before, after)
    assert not images.same(before, hindi)
    card = stests.card(55)
    en, _ = sangram_cards._card_image(card, 150, 94, "mini", stests.DEFAULT_THEME, 1100)
    hi, _ = sangram_cards._card_image(card, 150, 94, "mini", stests.DEFAULT_THEME, 1100, "hi")
    assert not images.same(en, hi)


@pytest.mark.skipif(
    not (NOTO_DIR / "NotoSansDevanagari-Regular.ttf").is_file(),
    reason="Noto Sans Devanagari is not installed (the Makefile's fonts step)",
)
def test_hindi_words_are_shaped_by_the_devanagari_face() -> None:
    """Translated words take the path players' names in other scripts take:
    whole clusters, set in Noto Sans Devanagari (shaped by raqm)."""
    for word in (t("hi", "Shoorveer"), t("hi", "Dhrishtaketu"), t("hi", "Influence")):
        assert DEVANAGARI.search(word)
        faces = {face.path for face, piece in _runs(word) if piece.strip()}
        assert faces and all("Devanagari" in path for path in faces), (word, faces)


# ----------------------------------------------------------------- fitting the chat


def _check_image(
    image: Image.Image,
    records: Sequence[TextRecord],
    drawn: list[tuple[str, Box, int]],
    width: int,
    what: str,
) -> None:
    assert image.width == width, what
    assert image.height <= images.MAX_ASPECT * image.width, f"{what}: {image.size}"
    need = min_text_size(image.width)
    small = [r for r in records if r.display_width != image.width or r.size < need]
    assert not small, f"{what}: {[(r.text, r.size) for r in small[:5]]}"
    over = [(text, box) for text, box, w in drawn if box[0] < 0 or box[2] > w]
    assert not over, f"{what}: runs off its canvas: {over[:3]}"
    drawn.clear()


def _states(states: list[Any], every: int) -> list[Any]:
    return [*states[::every], states[-1]]


@pytest.mark.parametrize("lang", ["hi", "qps"])
@pytest.mark.parametrize("players", [2, 4])
def test_mahabharata_playout_fits_the_chat(
    lang: str, players: int, boxes: list[tuple[str, Box, int]]
) -> None:
    """Issue 17's rule in every language: a seeded game's boards and private
    images at most 1.25 times as tall as wide, readable, nothing off the edge."""
    engine = MahabharataEngine()
    states = images.playout(engine, players, {2: 420, 4: 444}[players], {})
    names = list(M_NAMES[:players])
    for k, state in enumerate(_states(states, 5)):
        view = engine.view(state, None)
        image, records = _drawn(lambda v=view: mahabharata.render_board(v, names=names, lang=lang))
        _check_image(image, records, boxes, mahabharata.BOARD_WIDTH, f"state {k} board")
        for seat in range(players):
            view = engine.view(state, seat)
            image, records = _drawn(
                lambda v=view: mahabharata.render_private(v, names=names, lang=lang)
            )
            _check_image(image, records, boxes, mahabharata.PRIVATE_WIDTH, f"state {k} {seat}")


@pytest.mark.parametrize("lang", ["hi", "qps"])
@pytest.mark.parametrize("players", [2, 5])
def test_sangram_playout_fits_the_chat(
    lang: str, players: int, boxes: list[tuple[str, Box, int]]
) -> None:
    engine = stests._engine()
    options = {k: o.default for k, o in engine.options.items()}
    options["round_limit"] = 25
    states = images.playout(engine, players, 17 + players, options)
    names = list(S_NAMES[:players])
    for k, state in enumerate(_states(states, 4)):
        view = engine.view(state, None)
        image, records = _drawn(lambda v=view: sangram.render_board(v, names=names, lang=lang))
        _check_image(image, records, boxes, sangram.BOARD_WIDTH, f"state {k} board")
        for seat in range(players):
            view = engine.view(state, seat)
            image, records = _drawn(
                lambda v=view: sangram.render_private(v, names=names, lang=lang)
            )
            _check_image(image, records, boxes, sangram.PRIVATE_WIDTH, f"state {k} {seat}")


@pytest.mark.parametrize("lang", ["hi", "qps"])
def test_the_busiest_views_fit_the_chat(lang: str, boxes: list[tuple[str, Box, int]]) -> None:
    """The tallest built views (every badge, long names, full hands) fit in
    the longer languages too."""
    for what, view in _m_views():
        image, records = _drawn(
            lambda v=view: mahabharata.render_board(v, names=M_NAMES, lang=lang)
        )
        _check_image(image, records, boxes, mahabharata.BOARD_WIDTH, f"{what} board")
        image, records = _drawn(
            lambda v=view: mahabharata.render_private(v, names=M_NAMES, lang=lang)
        )
        _check_image(image, records, boxes, mahabharata.PRIVATE_WIDTH, f"{what} private")
    for what, view in _s_views():
        image, records = _drawn(lambda v=view: sangram.render_board(v, names=S_NAMES, lang=lang))
        _check_image(image, records, boxes, sangram.BOARD_WIDTH, f"{what} board")
        image, records = _drawn(lambda v=view: sangram.render_private(v, names=S_NAMES, lang=lang))
        _check_image(image, records, boxes, sangram.PRIVATE_WIDTH, f"{what} private")
