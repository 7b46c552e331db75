"""Every text a player needs reads on a phone (issue 31, item 4).

A phone shows an image about 390 px wide; text a player needs (names,
counts, legends) must be at least 9 px there, so every font size is at least
:data:`MIN_SHARE` of the width of the image it ends up in.  These tests draw
every distinct image of a seeded game of each game at its largest table (the
public board after every step, each seat's private view, the result), a
replay's frames, the leaderboard and the standings, record every text through
the one primitive all text goes through (:meth:`renderers.common.Canvas.text`,
via :func:`renderers.common.record_text`) with the size it was drawn at, and
check it against the final image's width; and every image posted after a
move keeps the chat-fit rule (height at most 1.25 times the width).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from PIL import Image

from bot.engines import ENGINES, get_engine
from bot.engines.core import Step, apply_step, progress_seat, resolve_chance
from bot.replay import GameRecord
from bot.replay import frames as replay_frames
from renderers import get_renderer
from renderers.common import Canvas, TextRecord, record_text
from renderers.leaderboard import LeaderboardRow, render_leaderboard
from renderers.replay import frame_image
from renderers.standings import StandingRow, render_standings
from tests.renderers.images import MAX_ASPECT, playout

PHONE_PX = 390
"""The width a phone shows an image at (the narrowest common one)."""
MIN_SHARE = 9 / PHONE_PX
"""The smallest font size, as a share of the image's width: 9 px at 390 px
(2.3 %)."""
NAMES = ("Asha", "Bhima the Magnificent", "🤖 Bot 2", "हरि प्रसाद", "Иван")
SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "kauda_baji": {"pieces": 1},
    "sangram": {"round_limit": 8},
}
"""Options that keep a whole game short enough to draw every image of it."""
SEEDS: dict[str, int] = {"artaban": 33, "chaturaji": 33}
"""Seeds whose random games are short (the others: 31)."""
PRIVATE_STRIDE: dict[str, int] = {"kauda_baji": 5, "chaturaji": 3}
"""Where a seat's private image is the public board turned to it (nothing is
hidden in these games), every few states' private images are drawn, not
every one: the same panels, and the test stays under half a minute."""


def small_texts(image: Image.Image, records: Sequence[TextRecord]) -> list[str]:
    """Texts drawn under :data:`MIN_SHARE` of ``image``'s width."""
    need = MIN_SHARE * image.width
    return [f"{r.text!r} at {r.drawn} px in {image.width}" for r in records if r.drawn < need]


def drawn(draw: Callable[[], Image.Image]) -> tuple[Image.Image, list[TextRecord]]:
    with record_text() as records:
        image = draw()
    return image, records


def check(image: Image.Image, records: Sequence[TextRecord], what: str, *, fits: bool) -> None:
    assert records, f"{what}: no text recorded"
    small = small_texts(image, records)
    assert not small, f"{what}: " + "; ".join(small[:6])
    if fits:
        assert image.height <= MAX_ASPECT * image.width, f"{what}: {image.size}"


def _game(name: str) -> tuple[Any, list[Any]]:
    engine = get_engine(name)
    options = {k: o.default for k, o in engine.options.items()} | SHORT_OPTIONS.get(name, {})
    return engine, playout(engine, engine.max_players, SEEDS.get(name, 31), options)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_image_of_a_game_reads_on_a_phone(name: str) -> None:
    engine, states = _game(name)
    renderer = get_renderer(name)
    players = engine.max_players
    names = NAMES[:players]
    seen: set[Any] = set()
    checked = 0
    for k, state in enumerate(states):
        views = [(None, engine.view(state, None))]
        if k % PRIVATE_STRIDE.get(name, 1) == 0 or k == len(states) - 1:
            views += [(seat, engine.view(state, seat)) for seat in range(players)]
        for seat, view in views:
            key = (seat is None, view)
            if key in seen:
                continue  # the same view draws the same image
            seen.add(key)
            if seat is None:
                image, records = drawn(lambda v=view: renderer.board(v, names=names))
            else:
                image, records = drawn(lambda v=view: renderer.private(v, names=names))
            check(
                image, records, f"{name} state {k} {'board' if seat is None else seat}", fits=True
            )
            checked += 1
    assert engine.outcome(states[-1]) is not None, "the game ends: its result is drawn"
    assert checked > 20


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_replay_frames_read_on_a_phone(name: str) -> None:
    """A replay frame is the board under a headline band, on one canvas for
    the whole game (widened where a tall board would pass 1.25)."""
    engine = get_engine(name)
    players = engine.max_players
    options = {k: o.default for k, o in engine.options.items()} | SHORT_OPTIONS.get(name, {})
    steps = _steps(engine, players, options, SEEDS.get(name, 31))
    record = GameRecord.from_steps(engine, NAMES[:players], options, steps)
    frames = replay_frames(record)
    renderer = get_renderer(name)
    sizes = [renderer.board(f.view, names=NAMES[:players]).size for f in frames]
    board_size = (max(w for w, _ in sizes), max(h for _, h in sizes))
    picked = sorted({0, len(frames) // 3, len(frames) // 2, len(frames) - 1})
    for i in picked:
        image, records = drawn(
            lambda f=frames[i]: frame_image(
                renderer, f, NAMES[:players], frames[-1].move, board_size=board_size
            )
        )
        check(image, records, f"{name} replay frame {i}", fits=True)


def _steps(engine: Any, players: int, options: dict[str, Any], seed: int) -> list[Step]:
    """The log of a seeded random game."""
    rng = random.Random(seed)
    state = engine.setup(players, options)
    steps: list[Step] = []
    while engine.outcome(state) is None:
        state, chance = resolve_chance(engine, state, rng.random)
        steps += chance
        if engine.outcome(state) is not None:
            break
        seat = progress_seat(engine, state)
        state, step = apply_step(engine, state, seat, rng.choice(engine.legal_actions(state, seat)))
        steps.append(step)
    return steps


def test_leaderboard_and_standings_read_on_a_phone() -> None:
    leaders = [
        LeaderboardRow(rank=i + 1, name=NAMES[i % len(NAMES)], rating=30 - i, games=5, wins=2)
        for i in range(12)
    ]
    image, records = drawn(lambda: render_leaderboard(leaders, title="Kauda Baji"))
    check(image, records, "leaderboard", fits=False)
    standing = [
        StandingRow(
            rank=i + 1,
            name=NAMES[i % len(NAMES)],
            points=8 - i / 2,
            tiebreaks=(1.5, 2.0),
            games=4,
            byes=0,
        )
        for i in range(10)
    ]
    image, records = drawn(
        lambda: render_standings(
            standing,
            title="Sangram",
            subtitle="Swiss",
            tiebreak_names=("Buchholz", "Sonneborn-Berger"),
        )
    )
    check(image, records, "standings", fits=False)


def test_the_check_catches_small_text() -> None:
    """A text drawn for a narrower image than the one it ends up in (a piece
    pasted into a wider canvas) is caught."""
    piece = Canvas(400, 60)
    wide = Canvas(1400, 200)
    with record_text() as records:
        piece.text((0, 0), "3 cards", size=12, fill=(255, 255, 255))
    wide.image.paste(piece.image, (0, 0))
    assert small_texts(wide.image, records)
    assert not small_texts(piece.image, records)
