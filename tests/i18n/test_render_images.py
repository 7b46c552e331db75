"""Issue 33: every word drawn in Martian Chaturaji's, Artaban's and Kauda
Baji's images, the leaderboard, the standings and the replays comes from the
catalog in the language given to the renderer.

In Hindi the words are Devanagari (shaped by the Noto faces), in the
pseudo-locale ``qps`` every one is marked (accented, between ⟦ and ⟧), so a
word that skipped the catalog shows as a run of plain English letters; and
every image still fits the chat (at most 1.25 times as tall as wide) with
every text readable on a phone.  English stays as it was (the renderer tests
hold its pixels).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

import pytest
from PIL import Image

from bot.engines import get_engine
from bot.i18n import localize
from bot.rendering import RenderPool, render_png
from bot.tools.demo import demo_record, playthrough
from renderers import get_renderer
from renderers.common import TextRecord, fill_names, min_text_size
from renderers.leaderboard import LeaderboardRow, render_leaderboard
from renderers.replay import MAX_ASPECT, counter, frame_image, headline_lines
from renderers.standings import StandingRow, render_standings
from tests.renderers.images import playout, render

NAMES = ("Jo", "Al", "Bo", "Cy")
"""Two letters each: a name is never mistaken for a word that skipped the catalog."""
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
"""Three plain letters in a row: English.  Notation (``c3xc7``, ``B``, ``a4``)
and the pseudo-locale's accented words never have them."""
DEVANAGARI = re.compile(r"[\u0900-\u097f]")
GAMES = (("chaturaji", 4, 11), ("artaban", 2, 12), ("kauda_baji", 4, 13))


def _engine_words(view: Any, names: Sequence[str]) -> str:
    """What the engine says in the view (the result's reason), as drawn:
    its own words, translated by the engines' messages, not the renderer's."""
    final = getattr(view, "final", None)
    reason = getattr(final, "reason", None) if final is not None else None
    return " ".join(fill_names(reason, names).split()) if reason else ""


PROPER_NAMES: Final = ("OpenSkill",)
"""Names kept as they are in every language."""


def _bypassed(records: Sequence[TextRecord], allowed: str = "") -> list[str]:
    """Texts drawn with English words in them that are not in ``allowed``."""
    found = []
    for r in records:
        text = r.text
        for name in PROPER_NAMES:
            text = text.replace(name, "")
        if ENGLISH_WORD.search(text) and not (allowed and r.text.strip() in allowed):
            found.append(r.text)
    return found


def _check_fits(
    image: Image.Image, records: Sequence[TextRecord], what: str, english: Image.Image | None = None
) -> None:
    """At most 1.25 times as tall as wide (a table of many rows, taller in
    English too: no taller than in English), every text readable."""
    if english is not None and english.height > MAX_ASPECT * english.width:
        assert image.size == english.size, what
    else:
        assert image.height <= MAX_ASPECT * image.width, f"{what}: {image.size}"
    need = min_text_size(image.width)
    small = [(r.text, r.size) for r in records if r.display_width != image.width or r.size < need]
    assert not small, f"{what}: {small[:5]}"


def _states(name: str, players: int, seed: int, count: int) -> list[Any]:
    """``count`` states of a seeded playout, evenly spaced, and the last."""
    engine = get_engine(name)
    states = playout(engine, players, seed, {k: o.default for k, o in engine.options.items()})
    step = max(1, len(states) // count)
    return [*states[::step][:count], states[-1]]


@pytest.mark.parametrize("lang", ["hi", "qps"])
@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_every_word_of_a_games_images_is_in_the_readers_language_and_fits_the_chat(
    name: str, players: int, seed: int, lang: str
) -> None:
    """Seeded playouts: each sampled state's board and every seat's private
    image, in Hindi and in the pseudo-locale, fit the chat with readable text,
    and no English word is drawn but the players' names and the engine's own
    reason (translated by the engine's messages)."""
    engine = get_engine(name)
    renderer = get_renderer(name)
    names = list(NAMES[:players])
    devanagari = marked = 0
    for k, state in enumerate(_states(name, players, seed, 14)):
        views = [(None, engine.view(state, None))]
        views += [(s, engine.view(state, s)) for s in range(players)]
        for seat, view in views:
            draw: Callable[[], Image.Image]
            if seat is None:
                draw = lambda v=view: renderer.board(v, names=names, lang=lang)  # noqa: E731
            else:
                draw = lambda v=view: renderer.private(v, names=names, lang=lang)  # noqa: E731
            image, records = render(draw)
            what = f"{name} state {k} {'board' if seat is None else f'private {seat}'} {lang}"
            _check_fits(image, records, what)
            bypassed = _bypassed(records, _engine_words(view, names))
            assert not bypassed, f"{what}: {bypassed[:5]}"
            devanagari += sum(1 for r in records if DEVANAGARI.search(r.text))
            marked += sum(1 for r in records if "⟦" in r.text)
    if lang == "hi":
        assert devanagari > 0
    else:
        assert marked > 0


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_english_is_the_default_and_draws_no_catalog_marks(
    name: str, players: int, seed: int
) -> None:
    """The same state drawn with no language and in English is one image,
    with no Devanagari and no pseudo-locale marks; in Hindi it differs."""
    engine = get_engine(name)
    renderer = get_renderer(name)
    names = list(NAMES[:players])
    state = _states(name, players, seed, 4)[2]
    view = engine.view(state, None)
    plain, records = render(lambda: renderer.board(view, names=names))
    english = renderer.board(view, names=names, lang="en")
    assert plain.tobytes() == english.tobytes()
    assert not any(DEVANAGARI.search(r.text) or "⟦" in r.text for r in records)
    assert renderer.board(view, names=names, lang="hi").tobytes() != plain.tobytes()


def test_chaturaji_piece_and_army_names_are_translated() -> None:
    """Data names (the kinds, the armies) are catalog texts too."""
    from renderers.chaturaji import army_title, kind_title

    assert army_title("blue", "hi") == "नीला"
    assert kind_title("raven", "hi") == "कौआ"
    assert kind_title("raven", "qps").startswith("⟦")
    assert (army_title("blue"), kind_title("raven")) == ("Blue", "Raven")


def test_kauda_baji_tuples_and_moves_are_translated() -> None:
    from bot.engines.kauda_baji_views import MoveView
    from renderers.kauda_baji import move_text, size_name

    assert size_name(2, "hi") == "जोड़ा"
    assert size_name(9, "hi") == "9 का जत्था"
    move = MoveView(
        player=0, frm="c7", to="f6", size=2, values=(3, 3), path=("f6",), killed=("f6",)
    )
    assert move_text(move) == "Twin c7 to f6 with 3+3, killed on f6"
    hindi = move_text(move, "hi")
    assert DEVANAGARI.search(hindi) and "c7" in hindi and "3+3" in hindi
    assert not ENGLISH_WORD.search(move_text(move, "qps"))


# ----------------------------------------------------------------- the tables

_LEADERS = [
    LeaderboardRow(
        k + 1, name, 1100 - 30 * k, 10 + k, 5 - k, trend=(-1) ** k * 12.0, provisional=k == 3
    )
    for k, name in enumerate(NAMES)
]
_STANDINGS = [
    StandingRow(k + 1, name, 3.5 - k, (7.5 - k, float("inf")), 4, k % 2, dropped=k == 3)
    for k, name in enumerate(NAMES)
]


@pytest.mark.parametrize("lang", ["hi", "qps"])
@pytest.mark.parametrize("rows", [0, 4, 25])
def test_leaderboard_words_are_in_the_readers_language(lang: str, rows: int) -> None:
    shown = (_LEADERS * 7)[:rows]
    image, records = render(lambda: render_leaderboard(shown, title="Zo", lang=lang))
    english = render_leaderboard(shown, title="Zo")
    _check_fits(image, records, f"leaderboard {rows} {lang}", english)
    assert not _bypassed(records), _bypassed(records)
    if lang == "hi":
        assert any(DEVANAGARI.search(r.text) for r in records)
    assert english.tobytes() != image.tobytes()


@pytest.mark.parametrize("lang", ["hi", "qps"])
@pytest.mark.parametrize("rows", [0, 4, 40])
def test_standings_words_are_in_the_readers_language(lang: str, rows: int) -> None:
    shown = (_STANDINGS * 10)[:rows]
    image, records = render(
        lambda: render_standings(
            shown, title="Zo", subtitle="Sw", tiebreak_names=["Bh", "SB"], lang=lang
        )
    )
    english = render_standings(shown, title="Zo", subtitle="Sw", tiebreak_names=["Bh", "SB"])
    _check_fits(image, records, f"standings {rows} {lang}", english)
    assert not _bypassed(records), _bypassed(records)
    if lang == "hi":
        assert any(DEVANAGARI.search(r.text) for r in records)


# ----------------------------------------------------------------- replays


def _record(name: str, players: int, moves: int) -> Any:
    engine = get_engine(name)
    played = list(playthrough(engine, players, random.Random(f"i18n:{name}"), moves))
    return demo_record(engine, players, played)


@pytest.mark.parametrize("lang", ["hi", "qps"])
@pytest.mark.parametrize(("name", "players"), [("chaturaji", 4), ("kauda_baji", 4), ("artaban", 2)])
def test_replay_frames_are_in_the_readers_language_and_fit_the_chat(
    name: str, players: int, lang: str
) -> None:
    """The counter, the opening headline and the board of a replay frame
    are in the language; the headline is the engine's narration through the
    catalog (:func:`~bot.i18n.localize`); every frame fits the chat."""
    from bot.replay import frames

    record = _record(name, players, 40)
    shown = frames(record)
    last = shown[-1].move
    renderer = get_renderer(name)
    for frame in (shown[0], shown[len(shown) // 2], shown[-1]):
        image, records = render(
            lambda f=frame: frame_image(renderer, f, record.names, last, lang=lang)
        )
        _check_fits(image, records, f"{name} frame {frame.move} {lang}")
        pill = counter(frame, last, lang)
        assert pill != counter(frame, last)
        assert any(r.text == pill for r in records)
        said = [localize(line, lang) for line in frame.lines if line]
        lines = headline_lines(frame, record.names, 28, 900, lang)
        if frame.move == 0 and not said:
            assert lines and lines[0] != "The game begins."
    if lang == "qps":
        assert counter(shown[0], last, lang).startswith("⟦")


async def test_the_render_pool_draws_replays_and_review_frames_in_the_language() -> None:
    """``RenderPool.replay`` keeps a replay per language (the language is in
    the cache's key) and ``RenderPool.shot`` draws the frame and the menu in it."""
    record = _record("artaban", 2, 12)
    pool = RenderPool(0)
    try:
        english = await pool.replay(record, key=("artaban", 1))
        hindi = await pool.replay(record, key=("artaban", 1), lang="hi")
        assert hindi.data != english.data
        assert len(pool.replays) == 2
        assert await pool.replay(record, key=("artaban", 1), lang="hi") is hindi
        shot = await pool.shot(record, 3, lang="hi")
        plain = await pool.shot(record, 3)
        assert shot.board != plain.board
        from bot.replay import frames

        view = frames(record)[shot.index].view
        assert shot.board == render_png("artaban", "board", view, record.names, "hi")
    finally:
        pool.close()
