"""Renderer tests for Martian Chaturaji: states from seeded random playouts
(2, 3 and 4 players) and views built by hand for the corners random play
rarely reaches (an unkindness of ravens, a throne takeover, re-entry)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.chaturaji_views import ChaturajiView, DieView, FinalView, MoveView
from renderers import RENDERERS, get_renderer
from renderers.chaturaji import (
    BOARD_LEFT,
    BOARD_PX,
    EDGE,
    SQUARE,
    WIDTH,
    army_colour,
    render_board,
    render_private,
)
from renderers.common import DEFAULT_THEME, TextRecord, display_name
from tests.renderers import images
from tests.renderers.images import (
    MAX_ASPECT,
    check_every_view,
    check_fits_chat,
    check_playout_fits_chat,
    render,
    same,
)

ENGINE = ChaturajiEngine()
NAMES = ("Asha", "Bhima the Magnificent of Hastinapura", "Chitra", "Dev")
MAX_PNG = 150 * 1024


def playout(players: int, seed: int) -> list[Any]:
    """Every state of a seeded random game, chance included."""
    return images.playout(ENGINE, players, seed, {k: o.default for k, o in ENGINE.options.items()})


def sample(players: int, seed: int, count: int = 8) -> list[Any]:
    states = playout(players, seed)
    stride = max(1, len(states) // count)
    return [*states[::stride], states[-1]]


def _check(image: Image.Image, records: list[TextRecord], what: str) -> None:
    check_fits_chat(image, records, what, width=WIDTH, max_png=MAX_PNG)


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def _bars(image: Image.Image) -> list[tuple[int, str]]:
    """The horizontal army bars above and below the board: (y, army)."""
    rgb = image.convert("RGB")
    xs = (BOARD_LEFT + 10, BOARD_LEFT + BOARD_PX // 2, BOARD_LEFT + BOARD_PX - 10)
    found: list[tuple[int, str]] = []
    last = -2
    for y in range(image.height):
        for army in ("blue", "red", "green", "yellow"):
            colour = army_colour(DEFAULT_THEME, army)
            if all(rgb.getpixel((x, y)) == colour for x in xs):
                if last < y - 1:
                    found.append((y, army))
                last = y
                break
    return found


# ----------------------------------------------------------------- playouts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_states_render_readably(players: int) -> None:
    states = sample(players, 100 + players)
    names = list(NAMES[:players])
    phases = check_every_view(ENGINE, states, names, render_board, render_private, _check)
    assert {"start", "move", "over"} <= phases


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_image_of_a_game_fits_the_chat(players: int) -> None:
    """Issue 17: Discord shows an attachment in a box of capped height, so
    every board and private image of a whole seeded game (every fifth state,
    chance included) is at most 1.25 times as tall as it is wide."""
    states = playout(players, 300 + players)[::5]
    checked = check_playout_fits_chat(
        ENGINE, states, list(NAMES[:players]), render_board, render_private
    )
    assert checked >= 20 * (players + 1)


def test_the_tallest_built_views_fit_the_chat() -> None:
    """Four dice, a throne taken, a long last turn and a result: the column
    beside the board is at its longest, and the image still fits."""
    view = replace(
        _throne_view(),
        last_moves=_unkindness_view().turn_moves * 2,
        skipped=("green",),
        final=FinalView(
            ranking=((1, 3), (0, 2)),
            scores=(0, 1, 0, 1),
            reason="{p1} and {p3} win: both enemy monarchs are captured at last.",
            winners="red-yellow",
        ),
    )
    for draw in (render_board, render_private):
        image, records = render(lambda d=draw: d(view, names=NAMES))
        _check(image, records, "tallest")
        assert image.height <= MAX_ASPECT * image.width


def test_views_are_not_changed() -> None:
    state = playout(4, 7)[40]
    view = ENGINE.view(state, 2)
    snapshot = replace(view)
    render_board(view, names=NAMES)
    render_private(view, names=NAMES)
    assert view == snapshot


# ----------------------------------------------------------------- orientation


@pytest.mark.parametrize(
    ("players", "seat", "bottom", "top"),
    [
        (4, 0, "blue", "green"),
        (4, 1, "red", "yellow"),
        (4, 2, "green", "blue"),
        (4, 3, "yellow", "red"),
        (2, 1, "red", "yellow"),
        (3, 2, "yellow", "red"),
    ],
)
def test_private_board_is_turned_to_the_viewers_first_army(
    players: int, seat: int, bottom: str, top: str
) -> None:
    state = ENGINE.setup(players, {})
    image = render_private(ENGINE.view(state, seat), names=NAMES[:players])
    bars = _bars(image)
    assert [a for _, a in bars] == [top, bottom]
    # R2: every army starts in its right-hand corner, so the viewer's monarch
    # stands third from the right on the bottom row.
    bar_y = bars[-1][0]  # the bottom bar's top row
    cy = bar_y - 2 - SQUARE // 2
    cx = BOARD_LEFT + 5 * SQUARE + SQUARE // 2
    pixel = image.convert("RGB").getpixel((cx - 31, cy))
    assert isinstance(pixel, tuple)
    assert _close(pixel, army_colour(DEFAULT_THEME, bottom))


def test_public_board_is_drawn_from_blues_side() -> None:
    state = ENGINE.setup(4, {})
    view = ENGINE.view(state, None)
    image = render_board(view, names=NAMES)
    assert [a for _, a in _bars(image)] == ["green", "blue"]
    # The same view with a viewer turns the board (the public image never does).
    assert not same(image, render_private(ENGINE.view(state, 1), names=NAMES))
    assert same(image, render_private(view, names=NAMES))


# ----------------------------------------------------------------- built corners


def _mid_view(seat: int | None = 0) -> ChaturajiView:
    return ENGINE.view(playout(4, 3)[60], seat)


def _die(army: str, rolled: int, kind: str | None, **flags: bool) -> DieView:
    return DieView(
        army=army,
        rolled=rolled,
        kind=kind,
        counted_up=flags.get("counted_up", False),
        used=flags.get("used", False),
        void=flags.get("void", False),
    )


def _throne_view() -> ChaturajiView:
    """R8: Red's monarch on Green's throne, Green's monarch captured."""
    view = _mid_view(1)
    armies = tuple(
        replace(a, monarch=None, controlled_by="red")
        if a.army == "green"
        else replace(a, monarch="c8")
        if a.army == "red"
        else a
        for a in view.armies
    )
    pieces = tuple(p for p in view.pieces if not (p.army == "green" and p.kind == "monarch"))
    return replace(
        view,
        phase="move",
        armies=armies,
        pieces=pieces,
        turn="red",
        controlled="green",
        to_play=1,
        commanding=("red", "green"),
        dice=(
            _die("red", 4, "squire", used=True),
            _die("red", 2, "squire", counted_up=True),
            _die("green", 1, "raven", counted_up=True),
            _die("green", 4, None, counted_up=True, void=True),
        ),
    )


def _unkindness_view() -> ChaturajiView:
    """R9: Yellow's raven lands on e5 and takes the three others."""
    view = _mid_view(3)
    move = MoveView(
        army="yellow", kind="raven", frm="e8", to="e5", captured=("d4", "e4", "d5"), promoted=None
    )
    promo = MoveView(
        army="yellow", kind="squire", frm="b7", to="a7", captured=(), promoted="paladin"
    )
    return replace(view, turn_moves=(move, promo), turn="yellow", commanding=("yellow",))


def _placing_view() -> ChaturajiView:
    view = _mid_view(2)
    armies = tuple(
        replace(a, monarch=None) if a.army in ("green", "red") else a for a in view.armies
    )
    placed = MoveView(army="red", kind="monarch", frm=None, to="a5", captured=(), promoted=None)
    return replace(
        view, phase="place", placing="green", to_play=2, armies=armies, last_moves=(placed,)
    )


def _over_view(winners: str | None) -> ChaturajiView:
    view = _mid_view(None)
    reason = "{p0} and {p2} win." if winners else "Drawn: 25 quiet rounds."
    final = FinalView(
        ranking=((0, 2), (1, 3)) if winners else ((0, 1, 2, 3),),
        scores=(1, 0, 1, 0) if winners else (0, 0, 0, 0),
        reason=reason,
        winners=winners,
    )
    return replace(view, phase="over", final=final, turn=None, to_play=None, dice=(), commanding=())


BUILT: dict[str, Callable[[], ChaturajiView]] = {
    "throne": _throne_view,
    "unkindness": _unkindness_view,
    "placing": _placing_view,
    "won": lambda: _over_view("blue-green"),
    "drawn": lambda: _over_view(None),
    "reenter": lambda: replace(_mid_view(0), phase="reenter", to_play=0),
    "choose": lambda: replace(
        ENGINE.view(ENGINE.setup(2, {}), 0), phase="choose", start_rolls=(4, 1, 3, 2), to_play=0
    ),
}


@pytest.mark.parametrize("case", sorted(BUILT))
def test_built_views_render_readably(case: str) -> None:
    view = BUILT[case]()
    for what, draw in (("board", render_board), ("private", render_private)):
        image, records = render(lambda d=draw: d(view, names=NAMES))
        _check(image, records, f"{case} {what}")


def test_dice_states_are_labelled() -> None:
    _, records = render(lambda: render_board(_throne_view(), names=NAMES))
    texts = {r.text for r in records}
    assert {"used", "counted up", "void", "TO MOVE", "BY RED", "captured"} <= texts
    # a line the column wraps is read back joined
    assert "Red moves via the Green throne" in " ".join(r.text for r in records)


def test_unkindness_marks_every_captured_square() -> None:
    view = _unkindness_view()
    image = render_board(view, names=NAMES).convert("RGB")
    bars = _bars(image)
    top = bars[0][0] + EDGE + 2
    bad = DEFAULT_THEME.bad
    for file, rank in ((3, 4), (4, 4), (3, 5)):
        x1, y0 = BOARD_LEFT + (file + 1) * SQUARE, top + (8 - rank) * SQUARE
        # the red capture badge in the square's upper-right corner
        pixel = image.getpixel((x1 - 30, y0 + 19))
        assert isinstance(pixel, tuple) and _close(pixel, bad, 20), (file, rank, pixel)
    _, records = render(lambda: render_board(view, names=NAMES))
    said = " ".join(r.text for r in records)
    assert "Raven e8-e5 takes d4, e4, d5" in said
    assert "Squire b7-a7 = Paladin" in said


def test_final_reason_names_the_players() -> None:
    _, records = render(lambda: render_board(_over_view("blue-green"), names=NAMES))
    texts = {r.text for r in records}
    assert "Asha and Chitra win." in texts
    assert "WINNERS" in texts
    _, records = render(lambda: render_board(_over_view(None), names=NAMES))
    assert any("a draw" in r.text for r in records)


def test_odd_names_are_made_drawable() -> None:
    view = _mid_view(0)
    odd = ("\U0001f418\U0001f418", "Ñandú " + "x" * 80, "", "Dev")
    image, records = render(lambda: render_private(view, names=odd))
    assert image.width == WIDTH
    texts = {r.text for r in records}
    # The elephants where an emoji font is installed, else "Player 1".
    assert display_name(odd, 0) in texts


def test_registry() -> None:
    renderer = get_renderer("chaturaji")
    assert RENDERERS["chaturaji"] is renderer
    view = _mid_view(1)
    assert same(renderer.board(view, names=NAMES), render_board(view, names=NAMES))
    assert same(renderer.private(view, names=NAMES), render_private(view, names=NAMES))
