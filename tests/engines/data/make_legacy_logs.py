"""Record ``legacy_logs.json``: games played by an OLD revision of the engines,
stored the way that revision's service stored them, for
``tests/engines/test_legacy_logs.py`` to replay with the current engines.

Run it with the old code on the import path, never the current code::

    git -C /work/main worktree add /tmp/old 5a61b45
    cd /tmp/old && /work/main/.venv/bin/python \\
        /work/main/tests/engines/data/make_legacy_logs.py \\
        /work/main/tests/engines/data/legacy_logs.json
    git -C /work/main worktree remove --force /tmp/old

5a61b45 is the last commit before Sangram's revision 2 (R4's Sarthi question,
R12's re-check, R13's lobby option).  Like that commit's service
(``bot/service.py`` then, the package ``bot/service/`` now), each game is
set up from options resolved by ``resolve_options``, chance is resolved
after set-up and after every move with a seeded
``random.Random(seed).random``, a snapshot is kept whenever the log's
length crosses a multiple of :data:`SNAPSHOT_EVERY` and when the game
ends.  Players are random: usually :func:`progress_seat` (the seat the game
waits for), sometimes any seat to move (a committed Sangram card changed).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

# The old code, from the working directory (before an installed copy).
sys.path.insert(0, str(Path.cwd()))

import bot.engines
from bot.engines import ENGINES
from bot.engines.core import (
    CHANCE,
    progress_seat,
    resolve_chance,
    resolve_options,
)

SNAPSHOT_EVERY = 25
"""The old service's ``snapshot_every``."""
KEEP_SNAPSHOTS = 3
"""Intermediate snapshots kept per game (spread over the game), for size."""

# (engine, players, options given in the lobby, seed, stop after this many
# log entries or None to play to the end).
GAMES: list[tuple[str, int, dict[str, Any], int, int | None]] = [
    ("mahabharata", 2, {}, 1, None),
    ("mahabharata", 3, {}, 2, None),
    ("mahabharata", 4, {}, 3, None),
    ("mahabharata", 2, {}, 4, 40),
    ("mahabharata", 3, {}, 5, 90),
    ("mahabharata", 4, {}, 6, 150),
    ("artaban", 2, {}, 11, None),
    ("artaban", 2, {"diagonal_captures": True}, 12, None),
    ("artaban", 2, {}, 13, None),
    ("artaban", 2, {"diagonal_captures": "yes"}, 14, 30),
    ("artaban", 2, {}, 15, 60),
    ("artaban", 2, {"diagonal_captures": True}, 16, 12),
    ("sangram", 2, {}, 21, None),
    ("sangram", 3, {}, 22, None),
    ("sangram", 4, {}, 23, 700),
    ("sangram", 5, {}, 24, 500),
    ("sangram", 2, {}, 25, 300),
    ("sangram", 3, {}, 26, 400),
    ("sangram", 2, {}, 101, None),  # ends at revision 1's 50-round limit
    # Cards drawn at 7 carry a seat past 13: revision 2 would draw again (R12).
    ("sangram", 2, {}, 225, None),
    ("sangram", 5, {}, 227, None),
]
MAX_ENTRIES = 1500
"""A finished game longer than this is cut here (left in progress)."""


def play(name: str, players: int, given: dict[str, Any], seed: int, stop: int | None) -> Any:
    engine = ENGINES[name]
    options = resolve_options(engine, given)
    draw = random.Random(seed).random
    pick = random.Random(seed + 1000)
    state = engine.setup(players, options)
    state, steps = resolve_chance(engine, state, draw)
    log: list[list[Any]] = [[s.seat, s.text] for s in steps]
    snapshots: list[list[Any]] = []
    sarthis = regrow = 0
    limit = min(stop or MAX_ENTRIES, MAX_ENTRIES)
    while engine.outcome(state) is None and len(log) < limit:
        movers = sorted(engine.to_move(state) - {CHANCE})
        seat = pick.choice(movers) if pick.random() < 0.1 else progress_seat(engine, state)
        action = pick.choice(engine.legal_actions(state, seat))
        text = engine.describe(state, seat, action)
        state = engine.apply(state, seat, engine.parse(state, seat, text))
        # A Sangram Sarthi about to draw (revision 2 would ask first).
        sarthis += name == "sangram" and state.task == "sarthi"
        phase = getattr(state, "phase", "")
        state, steps = resolve_chance(engine, state, draw)
        # Sangram: a Grow ended with a seat past 13 still at step 1, which
        # revision 2 would have given the 13-draw at once (R12).
        if name == "sangram" and phase != "commit" and state.phase == "commit":
            regrow += any(
                state.grown[s] == 1 and engine.total_strength(state, s) >= 13
                for s in range(players)
            )
        before = len(log)
        log.append([seat, text])
        log.extend([s.seat, s.text] for s in steps)
        if before // SNAPSHOT_EVERY != len(log) // SNAPSHOT_EVERY and engine.outcome(state) is None:
            snapshots.append([len(log), engine.to_json(state)])
    if len(snapshots) > KEEP_SNAPSHOTS:
        step = len(snapshots) / KEEP_SNAPSHOTS
        snapshots = [snapshots[int(i * step)] for i in range(KEEP_SNAPSHOTS)]
    outcome = engine.outcome(state)
    return {
        "engine": name,
        "revision": engine.revision,
        "players": players,
        "options": options,
        "seed": seed,
        "log": log,
        "snapshots": snapshots,
        "final": engine.to_json(state),
        "outcome": outcome.to_json() if outcome is not None else None,
        "sarthi_draws": sarthis,
        "deferred_13_draws": regrow,
    }


def main(out: Path) -> None:
    here = Path(bot.engines.__file__).resolve()
    if not here.is_relative_to(Path.cwd().resolve()) or ENGINES["sangram"].revision != 1:
        raise SystemExit(f"run this from the old code's directory, not with {here}")
    games = [play(*game) for game in GAMES]
    for game in games:
        print(
            game["engine"],
            game["players"],
            len(game["log"]),
            "finished" if game["outcome"] else "in progress",
            len(game["snapshots"]),
            game["sarthi_draws"],
            game["deferred_13_draws"],
        )
    out.write_text(json.dumps({"base_commit": "5a61b45", "games": games}, separators=(",", ":")))
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
