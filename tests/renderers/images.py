"""Helpers shared by the renderer tests: image comparisons, seeded random
playouts and the readability checks every rendered image must pass."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageChops

from bot.engines.core import progress_seat, resolve_chance
from renderers.common import TextRecord, min_text_size, record_text, to_png

Check = Callable[[Image.Image, list[TextRecord], str], None]
"""Checks a rendered image and the text recorded while drawing it (``what``
names it in a failure)."""


def same(a: Image.Image, b: Image.Image) -> bool:
    """Pixel-identical (in RGB) and the same size."""
    return (
        a.size == b.size
        and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None
    )


def playout(engine: Any, players: int, seed: int, options: Mapping[str, Any]) -> list[Any]:
    """Every state of a seeded random game, chance included."""
    rng = random.Random(seed)
    state = engine.setup(players, options)
    states = [state]
    while engine.outcome(state) is None:
        state, _ = resolve_chance(engine, state, rng.random)
        states.append(state)
        if engine.outcome(state) is not None:
            break
        seat = progress_seat(engine, state)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        states.append(state)
    return states


def render(draw: Callable[[], Image.Image]) -> tuple[Image.Image, list[TextRecord]]:
    """The image ``draw`` returns, and every text drawn meanwhile."""
    with record_text() as records:
        image = draw()
    return image, records


def check_readable(
    image: Image.Image, records: list[TextRecord], what: str, *, width: int, max_png: int
) -> None:
    """``width`` wide and of a phone-sized height, every text readable on a
    phone at that width, and a small enough PNG."""
    assert image.width == width, what
    assert 1200 < image.height < 2600, what
    assert records, f"{what}: no text recorded"
    need = min_text_size(image.width)
    small = [r for r in records if r.display_width != image.width or r.size < need]
    assert not small, f"{what}: {[(r.text, r.size) for r in small[:5]]}"
    assert len(to_png(image)) < max_png, what


def check_every_view(
    engine: Any,
    states: Iterable[Any],
    names: Sequence[str],
    draw_board: Callable[..., Image.Image],
    draw_private: Callable[..., Image.Image],
    check: Check,
) -> set[str]:
    """``check`` each state's public board and every seat's private image
    (one seat per name); returns the phases the states were in."""
    phases: set[str] = set()
    for k, state in enumerate(states):
        public = engine.view(state, None)
        phases.add(public.phase)
        image, records = render(lambda v=public: draw_board(v, names=names))
        check(image, records, f"state {k} board")
        for seat in range(len(names)):
            view = engine.view(state, seat)
            image, records = render(lambda v=view: draw_private(v, names=names))
            check(image, records, f"state {k} private {seat}")
    return phases


MAX_ASPECT = 1.25
"""The tallest an image posted after a move may be, as a multiple of its
width, so Discord shows it without a tap (issue 17)."""


def check_fits_chat(
    image: Image.Image, records: list[TextRecord], what: str, *, width: int, max_png: int
) -> None:
    """``width`` wide and at most :data:`MAX_ASPECT` times as tall, every text
    readable on a phone at that width, and a small enough PNG."""
    assert image.width == width, what
    assert image.height <= MAX_ASPECT * image.width, f"{what}: {image.size}"
    assert records, f"{what}: no text recorded"
    need = min_text_size(image.width)
    small = [r for r in records if r.display_width != image.width or r.size < need]
    assert not small, f"{what}: {[(r.text, r.size) for r in small[:5]]}"
    assert len(to_png(image)) < max_png, what


def check_playout_fits_chat(
    engine: Any,
    states: Sequence[Any],
    names: Sequence[str],
    draw_board: Callable[..., Image.Image],
    draw_private: Callable[..., Image.Image],
) -> int:
    """Every state's public board and every seat's private image are at most
    :data:`MAX_ASPECT` times as tall as wide; returns how many were checked."""
    checked = 0
    for k, state in enumerate(states):
        images = [draw_board(engine.view(state, None), names=names)]
        images += [draw_private(engine.view(state, s), names=names) for s in range(len(names))]
        for image in images:
            assert image.height <= MAX_ASPECT * image.width, f"state {k}: {image.size}"
            checked += 1
    return checked
