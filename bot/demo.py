"""``python -m bot demo``: seeded random games of every registered engine,
with the board after every move and each private view when it changes, so a
newcomer sees the bot's output without Discord."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engines import ENGINES, get_engine
from bot.engines.core import Engine, apply_step, progress_seat, resolve_chance
from renderers import GameRenderer, get_renderer
from renderers.common import to_png

DEMO_NAMES = ("Asha", "Bhima", "Chitra", "Dev", "Esha")
DEMO_ROUND_LIMIT = 40
"""Random players may take very long to end a game that has no round limit
(Sangram, R13), so the demo sets the lobby option ``round_limit`` where a
game has it."""


def demo_options(engine: Engine[Any, Any, Any]) -> dict[str, Any]:
    """The lobby defaults, with a round limit where the game offers one."""
    options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
    if "round_limit" in options:
        options["round_limit"] = DEMO_ROUND_LIMIT
    return options


class DemoGame:
    """One seeded game with random players, written out image by image."""

    def __init__(
        self, engine: Engine[Any, Any, Any], renderer: GameRenderer, folder: Path, players: int
    ) -> None:
        self.engine, self.renderer, self.folder = engine, renderer, folder
        self.names = list(DEMO_NAMES[:players])
        self.state: Any = engine.setup(players, demo_options(engine))
        self.last_private: list[Any] = [None] * players

    def write(self, tag: str) -> None:
        engine, names = self.engine, self.names
        board = to_png(self.renderer.board(engine.view(self.state, None), names=names))
        (self.folder / f"{tag}-board.png").write_bytes(board)
        for seat, name in enumerate(names):
            view = engine.view(self.state, seat)
            if view != self.last_private[seat]:
                self.last_private[seat] = view
                png = to_png(self.renderer.private(view, names=names))
                (self.folder / f"{tag}-private-{name.lower()}.png").write_bytes(png)

    def play(self, rng: random.Random, max_moves: int) -> list[str]:
        engine = self.engine
        fill = {f"p{i}": name for i, name in enumerate(self.names)}
        self.state, _ = resolve_chance(engine, self.state, rng.random)
        self.write("000")
        lines: list[str] = []
        for move in range(1, max_moves + 1):
            if engine.outcome(self.state) is not None:
                break
            seat = progress_seat(engine, self.state)
            action = rng.choice(engine.legal_actions(self.state, seat))
            self.state, step = apply_step(engine, self.state, seat, action)
            self.state, _ = resolve_chance(engine, self.state, rng.random)
            narration = step.narration.format_map(fill)
            lines.append(f"{move:03d} {self.names[seat]}: {step.text}. {narration}")
            self.write(f"{move:03d}")
        outcome = engine.outcome(self.state)
        if outcome is not None:
            scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, outcome.scores, strict=True))
            # Like narration, the reason names seats as {p0} ... (core.Outcome).
            reason = outcome.reason.format_map(fill)
            lines.append(f"Game over: {reason} Scores: {scores}")
        return lines


def run_demo(
    out: Path,
    *,
    seed: int = 1,
    games: Sequence[str] | None = None,
    players: int | None = None,
    max_moves: int = 3000,
) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    for name in games or sorted(ENGINES):
        engine = get_engine(name)
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.png"):
            old.unlink()
        # Three seats by default (within the game's range): enough to show the
        # table, short enough that every demo game finishes.
        n = max(engine.min_players, min(players or 3, engine.max_players))
        demo = DemoGame(engine, get_renderer(name), folder, n)
        lines = demo.play(random.Random(f"{seed}:{name}"), max_moves)
        (folder / "log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
