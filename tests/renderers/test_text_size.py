"""Every renderer keeps its text readable on a phone (issue item 12).

Discord shows an image about 480 pixels wide on a phone; the minimum text
size (:data:`renderers.common.MIN_TEXT_PX` at that width) is enforced by
:meth:`renderers.common.Canvas.text`, which raises smaller text.  These tests
hold the renderers to *asking* for enough (raised text may no longer fit its
layout): every text drawn while rendering real and hand-built views is
recorded through that primitive, and no renderer may draw text around it.
"""

from __future__ import annotations

import ast
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import renderers
from bot.engines import ENGINES, get_engine
from bot.engines.core import progress_seat, resolve_chance
from renderers import get_renderer
from renderers.common import (
    MIN_TEXT_PX,
    PHONE_WIDTH,
    Canvas,
    TextRecord,
    min_text_size,
    record_text,
)
from tests.renderers import (
    test_artaban_render as artaban_cases,
)
from tests.renderers import (
    test_mahabharata_render as mahabharata_cases,
)
from tests.renderers import (
    test_sangram_render as sangram_cases,
)

GAMES = tuple(sorted(ENGINES))
"""Every registered game: a new renderer is held to the minimum at once."""
NAMES = ("Asha", "Bhima the Magnificent of Hastinapura", "Chitra", "Dev", "Esha")
RENDERER_DIR = Path(renderers.__file__).resolve().parent
STATES_PER_GAME = 8


def _clear_render_caches() -> None:
    """Forget cached pieces (card faces, tracks, glyph masks) so their text is
    drawn, and so recorded, during the render under test."""
    for name, module in list(sys.modules.items()):
        if name == "renderers" or name.startswith("renderers."):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def _render(draw: Callable[[], Image.Image]) -> tuple[Image.Image, list[TextRecord]]:
    _clear_render_caches()
    with record_text() as records:
        image = draw()
    return image, records


def _problems(image: Image.Image, records: list[TextRecord]) -> list[str]:
    need = min_text_size(image.width)
    out: list[str] = []
    for r in records:
        if r.display_width != image.width:
            out.append(f"{r.text!r} measured for a {r.display_width}-px image, not {image.width}")
        elif r.size < need:
            shown = r.size * PHONE_WIDTH / image.width
            out.append(f"{r.text!r} at {r.size} px ({shown:.1f} px on a phone, need {need})")
    return out


def _playout_states(name: str, players: int) -> list[Any]:
    """States along a seeded random game: the first state of every phase
    reached, some in between, and the end."""
    engine = get_engine(name)
    rng = random.Random(1000 + players)
    state = engine.setup(players, {k: o.default for k, o in engine.options.items()})
    picked: list[Any] = [state]
    last_phase = engine.view(state, None).phase
    step = 0
    while engine.outcome(state) is None:
        state, _ = resolve_chance(engine, state, rng.random)
        if engine.outcome(state) is not None:
            break
        seat = progress_seat(engine, state)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        step += 1
        phase = engine.view(state, None).phase
        if phase != last_phase or step % 40 == 0:
            picked.append(state)
        last_phase = phase
    stride = max(1, len(picked) // STATES_PER_GAME)
    return [*picked[::stride], state]


GAME_SIZES = [
    (name, n)
    for name in GAMES
    for n in range(get_engine(name).min_players, get_engine(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), GAME_SIZES)
def test_playout_text_is_readable_at_phone_width(name: str, players: int) -> None:
    engine = get_engine(name)
    renderer = get_renderer(name)
    names = list(NAMES[:players])
    for k, state in enumerate(_playout_states(name, players)):
        views: list[tuple[str, Any, bool]] = [("board", engine.view(state, None), True)]
        views += [(f"private {seat}", engine.view(state, seat), False) for seat in range(players)]
        for what, view, board in views:
            image, records = _render(_drawer(renderer, view, names, board=board))
            assert records, f"state {k} {what}: no text recorded"
            problems = _problems(image, records)
            assert not problems, f"state {k} {what}: " + "; ".join(problems[:8])


def _drawer(
    renderer: Any, view: Any, names: list[str], *, board: bool
) -> Callable[[], Image.Image]:
    def draw() -> Image.Image:
        if board:
            return renderer.board(view, names=names)  # type: ignore[no-any-return]
        return renderer.private(view, names=names)  # type: ignore[no-any-return]

    return draw


def _built_cases() -> list[Any]:
    """Views built by hand in the renderer tests: corners random games rarely
    reach (long names, recruit order, grow reveals, every Artaban set-up step)."""
    cases: list[Any] = []
    view: Any
    for phase in artaban_cases.PHASES:
        view = artaban_cases.build_view(phase, seed=3, me_seat=0)
        cases.append(pytest.param("artaban", view, 2, id=f"artaban-{phase}"))
    for values, leader in (((), None), ((6, 6, 6, 5, 3), None), ((4, 4, 4, 4, 3, 3, 3, 3), "c")):
        view = artaban_cases.build_view("setup", seed=4, me_seat=1, values=values, leader=leader)
        cases.append(pytest.param("artaban", view, 2, id=f"artaban-setup-{len(values)}"))
    for n in (2, 3, 4):
        for phase in mahabharata_cases.PHASES:
            view = mahabharata_cases.build_view(n, phase, seed=n + 5, me_seat=0, fill=1.0)
            cases.append(pytest.param("mahabharata", view, n, id=f"mahabharata-{n}p-{phase}"))
    for n in (2, 3, 5):
        for phase in sangram_cases.PHASES:
            view = sangram_cases.build_view(n, phase, seed=n + 5, me_seat=0)
            cases.append(pytest.param("sangram", view, n, id=f"sangram-{n}p-{phase}"))
    return cases


@pytest.mark.parametrize(("name", "view", "players"), _built_cases())
def test_built_view_text_is_readable_at_phone_width(name: str, view: Any, players: int) -> None:
    renderer = get_renderer(name)
    names = list(NAMES[:players])
    for what in ("board", "private"):
        image, records = _render(_drawer(renderer, view, names, board=what == "board"))
        assert records, f"{name} {what}: no text recorded"
        problems = _problems(image, records)
        assert not problems, f"{name} {what}: " + "; ".join(problems[:8])


# ----------------------------------------------------------------- the primitive


def test_minimum_scales_with_the_image_width() -> None:
    assert min_text_size(PHONE_WIDTH) == MIN_TEXT_PX
    assert min_text_size(1000) == 25
    assert min_text_size(1100) == 28
    assert 11 <= MIN_TEXT_PX <= 14


def test_canvas_text_raises_small_text_and_records_it() -> None:
    c = Canvas(960, 100)
    with record_text() as records:
        small = c.text((10, 50), "tiny", size=10, fill=(255, 255, 255), anchor="lm")
        big = c.text((10, 50), "tiny", size=24, fill=(255, 255, 255), anchor="lm")
    assert [(r.size, r.drawn, r.display_width) for r in records] == [(10, 24, 960), (24, 24, 960)]
    assert not records[0].readable and records[1].readable
    assert small == big  # drawn at the minimum, so the same box


def test_piece_canvases_use_the_width_of_the_image_they_end_up_in() -> None:
    piece = Canvas(200, 100, display_width=1100)
    assert piece.min_text == min_text_size(1100) > min_text_size(200)
    with record_text() as records:
        piece.text((0, 0), "7", size=30, fill=(0, 0, 0))
    assert records[0].display_width == 1100 and records[0].readable


# ----------------------------------------------------------------- no way around it

_TEXT_METHODS = {"text", "multiline_text", "textbbox", "multiline_textbbox", "textlength"}


def _direct_text_calls(path: Path) -> list[str]:
    """Calls that draw or measure text with Pillow rather than the shared
    primitives: ``<ImageDraw>.text(...)`` on a ``draw``/``.draw``/``Draw(...)``
    receiver, any other ImageDraw text method, or a font picked by hand."""
    tree = ast.parse(path.read_text(), filename=str(path))
    # The glyph caches: text in masks, emoji in colour.
    kit = path.parent.name == "common"
    allowed_owners = {"_text_mask", "_emoji_ink"} if path.name == "masks.py" and kit else set()
    found: list[str] = []

    def visit(node: ast.AST, owner: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            owner = node.name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, base = node.func.attr, node.func.value
            on_draw = (
                (isinstance(base, ast.Name) and base.id in ("draw", "d", "ImageDraw"))
                or (isinstance(base, ast.Attribute) and base.attr == "draw")
                or (isinstance(base, ast.Call) and getattr(base.func, "attr", "") == "Draw")
            )
            direct = attr in _TEXT_METHODS - {"text"} or (attr == "text" and on_draw)
            if direct and owner not in allowed_owners:
                found.append(f"{path.name}:{node.lineno} {attr}")
            if isinstance(base, ast.Name) and base.id == "ImageFont" and not kit:
                found.append(f"{path.name}:{node.lineno} ImageFont.{attr}")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("renderers.common"):
            for alias in node.names:
                if alias.name in ("font", "_text_mask") and not kit:
                    found.append(f"{path.name}:{node.lineno} imports {alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child, owner)

    visit(tree, None)
    return found


def test_renderers_draw_text_only_through_the_shared_primitive() -> None:
    modules = sorted(RENDERER_DIR.glob("*.py")) + sorted(RENDERER_DIR.glob("common/*.py"))
    assert {p.name for p in modules} >= {"masks.py", "artaban.py", "mahabharata.py", "sangram.py"}
    found = [call for path in modules for call in _direct_text_calls(path)]
    assert not found, found


def test_the_ast_check_catches_a_direct_call(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(c, draw):\n"
        "    c.draw.text((0, 0), 'x')\n"
        "    draw.multiline_text((0, 0), 'x')\n"
        "    c.text((0, 0), 'fine', size=30)\n"
    )
    assert [s.split(" ")[1] for s in _direct_text_calls(bad)] == ["text", "multiline_text"]


@pytest.mark.parametrize("name", GAMES)
def test_pillow_text_is_only_drawn_by_the_glyph_cache(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At run time too: every Pillow text call comes from the glyph caches
    (``_text_mask``, and ``_emoji_ink`` for emoji in colour)."""
    callers: list[str] = []

    def spy(method: str) -> Callable[..., Any]:
        original = getattr(ImageDraw.ImageDraw, method)

        def wrapper(self: ImageDraw.ImageDraw, *args: Any, **kwargs: Any) -> Any:
            frame = sys._getframe(1)
            while frame.f_globals.get("__name__", "").startswith("PIL"):
                frame = frame.f_back  # type: ignore[assignment]
            callers.append(f"{frame.f_globals.get('__name__')}.{frame.f_code.co_name}")
            return original(self, *args, **kwargs)

        return wrapper

    for method in ("text", "multiline_text"):
        monkeypatch.setattr(ImageDraw.ImageDraw, method, spy(method))
    engine = get_engine(name)
    renderer = get_renderer(name)
    n = get_engine(name).max_players
    states = _playout_states(name, n)
    _clear_render_caches()
    for state in (states[len(states) // 2], states[-1]):
        renderer.board(engine.view(state, None), names=NAMES[:n])
        renderer.private(engine.view(state, 0), names=NAMES[:n])
    assert callers
    assert "renderers.common.masks._text_mask" in callers
    assert set(callers) <= {
        "renderers.common.masks._text_mask",
        "renderers.common.masks._emoji_ink",
    }
