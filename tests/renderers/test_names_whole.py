"""Names are cut only where there is truly no room (issue 31, item 1).

A name of ordinary length ("Bhima Sen", "हरि प्रसाद", an automatic player's
"🤖 Bot 3") is drawn whole on every board and private image of a seeded
game: where a panel has room it gets it (measured against the space it
really has), and where a spot is truly narrow (a pill under a die) the
seat's mark stands in, or the ``P2`` before the name goes, rather than a
stub like "P3 C…" or "Automatic pl…".  Every cut goes through
:func:`renderers.common.fit_text`, so a spy on it sees them all.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.engines import ENGINES, get_engine
from renderers import common, get_renderer
from renderers.common import safe_text
from tests.renderers.images import playout

ORDINARY_NAMES = ("Asha Rao", "Bhima Sen", "हरि प्रसाद", "🤖 Bot 4", "Иван")
"""Names as long as most players' (up to ten letters or so), in three
scripts and with an emoji."""
SOLO_NAMES = ("Asha", "🤖 Bot 1", "🤖 Bot 2", "🤖 Bot 3", "🤖 Bot 4")
"""A solo table: the automatic players' names (bot/service/common.py) differ only
in their number, so their numbers must be drawn."""
STATES_PER_GAME = 30


@contextmanager
def cut_names(monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]) -> Iterator[list[str]]:
    """Every text holding one of ``names`` that is drawn cut, as ``text ->
    shown``."""
    cuts: list[str] = []
    original = common.fit_text
    wanted = [safe_text(n) for n in names]

    def spy(text: str, size: int, max_width: int, bold: bool = False) -> str:
        shown = original(text, size, max_width, bold)
        if shown != text and any(name in text for name in wanted):
            cuts.append(f"{text!r} -> {shown!r}")
        return shown

    for name, module in list(sys.modules.items()):
        if (name == "renderers" or name.startswith("renderers.")) and hasattr(module, "fit_text"):
            monkeypatch.setattr(module, "fit_text", spy)
    yield cuts


def _states(game: str, players: int) -> list[Any]:
    engine = get_engine(game)
    states = playout(engine, players, 11, {k: o.default for k, o in engine.options.items()})
    stride = max(1, len(states) // STATES_PER_GAME)
    return [*states[::stride], states[-1]]


GAME_SIZES = [
    (game, n)
    for game in sorted(ENGINES)
    for n in range(get_engine(game).min_players, get_engine(game).max_players + 1)
]


@pytest.mark.parametrize(("game", "players"), GAME_SIZES)
@pytest.mark.parametrize("names", [ORDINARY_NAMES, SOLO_NAMES], ids=["ordinary", "solo"])
def test_ordinary_names_are_never_cut(
    game: str, players: int, names: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = get_engine(game)
    renderer = get_renderer(game)
    seated = names[:players]
    with cut_names(monkeypatch, seated) as cuts:
        for state in _states(game, players):
            renderer.board(engine.view(state, None), names=seated)
            for seat in range(players):
                renderer.private(engine.view(state, seat), names=seated)
    assert not cuts, sorted(set(cuts))[:8]


def test_the_spy_sees_a_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    with cut_names(monkeypatch, ("Bhima Sen",)) as cuts:
        canvas = common.Canvas(400, 100)
        canvas.text((0, 0), "Bhima Sen", size=30, fill=(255, 255, 255), max_width=60)
        canvas.text((0, 50), "Bhima Sen", size=30, fill=(255, 255, 255), max_width=300)
    assert len(cuts) == 1


def test_fit_choice_takes_the_longest_that_fits() -> None:
    size = 30
    full = common.text_width("P2 Bhima Sen", size, True)
    name = common.text_width("Bhima Sen", size, True)
    choices = ("P2 Bhima Sen", "Bhima Sen", "")
    assert common.fit_choice(choices, size, full, True) == "P2 Bhima Sen"
    assert common.fit_choice(choices, size, full - 1, True) == "Bhima Sen"
    assert common.fit_choice(choices, size, name - 1, True) == ""
    # Without an empty choice, the last is cut.
    cut = common.fit_choice(choices[:2], size, name - 1, True)
    assert cut.endswith("\u2026") and cut.startswith("Bhima")
