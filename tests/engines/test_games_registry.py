"""One line registers a game (bot/engines/games.py): every registry finds
each game's modules by name, and a new game's modules are compiled."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engines import ENGINES
from bot.engines.compiled import COMPILED_GROUPS, SOURCE_DIR, game_modules
from bot.engines.games import GAMES, class_name, owner
from bot.players import BASELINES
from renderers import RENDERERS

ROOT = Path(__file__).resolve().parents[2]
SHARED = {"__init__", "core", "compiled", "games", "messages", "playouts"}
"""The engines' modules that belong to no one game."""


def test_every_registry_holds_every_game_in_order() -> None:
    assert list(ENGINES) == list(GAMES)
    assert list(RENDERERS) == list(GAMES)
    assert list(BASELINES) == list(GAMES)
    for game, engine in ENGINES.items():
        assert engine.name == game
        assert type(engine).__name__ == class_name(game, "Engine")
        assert type(RENDERERS[game]).__name__ == class_name(game, "Renderer")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_has_its_rules_and_summary(game: str) -> None:
    assert (ROOT / "docs" / "rules" / f"{game}.md").is_file()
    assert (SOURCE_DIR / "data" / "rules" / f"{game}.md").is_file()
    assert (SOURCE_DIR / "data" / f"{game}.rules.md").is_file()


def test_every_engine_module_is_shared_or_one_games() -> None:
    compiled = {m for group in COMPILED_GROUPS.values() for m in group}
    for path in SOURCE_DIR.glob("*.py"):
        module = path.stem
        if module in SHARED:
            continue
        game = owner(module)
        assert game is not None, f"{path.name} belongs to no game in GAMES"
        if module == f"{game}_views":
            assert module not in compiled  # the views stay Python
        else:
            assert module in COMPILED_GROUPS[game], f"{path.name} is not compiled with {game}"


def test_the_longest_game_name_owns_a_module(tmp_path: Path) -> None:
    assert owner("kauda_baji_rules", ("kauda", "kauda_baji")) == "kauda_baji"
    assert owner("kauda_rules", ("kauda", "kauda_baji")) == "kauda"
    assert owner("kaudab", ("kauda",)) is None
    for name in ("kauda_baji.py", "kauda_baji_rules.py", "kauda_baji_views.py", "core.py"):
        (tmp_path / name).write_text("")
    assert game_modules("kauda_baji", tmp_path) == ("kauda_baji_rules", "kauda_baji")


def test_class_names_follow_the_game_name() -> None:
    assert class_name("kauda_baji", "Renderer") == "KaudaBajiRenderer"
    assert class_name("sangram", "Baseline") == "SangramBaseline"
