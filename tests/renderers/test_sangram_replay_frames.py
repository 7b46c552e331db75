"""Sangram's replay frames use their canvas (issue 31, item 5).

A replay draws every frame on one canvas, sized for the game's tallest
board; Sangram's board grows and shrinks with the phase (the battlefield,
Grow reveals), so its short boards left a third of the frame empty.  A
filled board (:func:`renderers.sangram.render_filled_board`) keeps the last
round's battlefield between rounds and spreads what room is left.
"""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from bot.engines import get_engine
from bot.engines.sangram_views import PHASE_COMMIT
from bot.replay import GameRecord, frames
from renderers import get_renderer
from renderers.common import DEFAULT_THEME, record_text
from renderers.replay import frame_image
from renderers.sangram import render_board, render_filled_board
from tests.renderers.test_phone_text import MIN_SHARE, _steps

NAMES = ("Asha", "Bhima", "Chitra", "Dev", "Esha")


def _frames(players: int) -> tuple[list[Any], tuple[int, int]]:
    engine = get_engine("sangram")
    options = {"round_limit": 12}
    record = GameRecord.from_steps(
        engine, NAMES[:players], options, _steps(engine, players, options, 5)
    )
    shown = frames(record)
    renderer = get_renderer("sangram")
    sizes = [renderer.board(f.view, names=NAMES[:players]).size for f in shown]
    return shown, (max(w for w, _ in sizes), max(h for _, h in sizes))


def _empty_bottom(image: Image.Image) -> float:
    """The share of the image's height under its last drawn row."""
    background = DEFAULT_THEME.background
    rgb = image.convert("RGB")
    px = rgb.load()
    assert px is not None
    y = rgb.height - 1
    while y > 0 and all(px[x, y] == background for x in range(0, rgb.width, 5)):
        y -= 1
    return (rgb.height - 1 - y) / rgb.height


@pytest.mark.parametrize("players", [2, 5])
def test_frames_between_rounds_fill_the_canvas(players: int) -> None:
    shown, board_size = _frames(players)
    renderer = get_renderer("sangram")
    last = shown[-1].move
    empty: list[float] = []
    between: list[float] = []
    for frame in shown[1:-1]:  # the start and the result stand alone
        image = frame_image(renderer, frame, NAMES[:players], last, board_size=board_size)
        share = _empty_bottom(image)
        empty.append(share)
        if frame.view.phase == PHASE_COMMIT and frame.view.revealed:
            between.append(share)
    assert between, "the game has rounds after the first"
    assert max(between) <= 0.12, max(between)
    assert sum(empty) / len(empty) <= 0.05, sum(empty) / len(empty)


def test_a_filled_board_is_the_board_and_more() -> None:
    """Filled: as tall as asked, the same width, the last round's cards in
    it; its text still reads on a phone.  Unfilled, the board is as before."""
    shown, (_, height) = _frames(2)
    frame = next(f for f in shown if f.view.phase == PHASE_COMMIT and f.view.revealed)
    plain = render_board(frame.view, names=NAMES[:2])
    with record_text() as records:
        filled = render_filled_board(frame.view, names=NAMES[:2], height=height)
    assert filled.size == (plain.width, height) and height > plain.height
    assert any(r.text.startswith("BATTLEFIELD · LAST ROUND") for r in records)
    assert all(r.drawn >= MIN_SHARE * filled.width for r in records)
    assert get_renderer("artaban").filled_board is not None  # every renderer answers
