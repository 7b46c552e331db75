"""How strong the automatic players are.

``python -m bot.players.strength --levels [--games N] [--players N] [engines]``
plays the levels' round robin (issue 19): per game and player count (the
fewest and the most, unless ``--players`` names one), one seat at a
strong level against weaker seats (hard/easy, medium/easy, hard/medium,
hard/random, or the ``--pairs`` named), seats rotated, with 95% Wilson
intervals; at tables of three or more, the strong seat's wins against a
weak seat's.

Without ``--levels`` it measures how often each engine's baseline beats
uniform random players.

``python -m bot.players.strength`` plays seeded games, one baseline against
random players, and prints JSON: per engine, the games, wins, draws and
losses and the win rate.  The baseline takes each seat in turn (game ``i``:
seat ``i mod n``).  It **wins** a game when it finishes strictly ahead of
every random player (in a two-player game: it wins outright); a draw or a
shared place is not a win.  Chaturaji is a partnership game (R12): with 3
or 4 players the baseline may share its partnership, and so its place, with
a random partner, so there it wins when its partnership wins.  Options are
the lobby defaults, with Sangram's ``round_limit`` set as in the benchmarks
(``bot.tools.bench.playout_options``) so every game ends.

This module is the measuring harness, not a player, so it is a tool
(``bot/players/strength.py`` is its command): it makes random generators
(seeded, for chance and for the players), and the bot never imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engines import ENGINES, get_engine
from bot.engines.core import CHANCE, Engine, Outcome, progress_seat, sample_chance
from bot.players import AutomaticPlayer, RandomPlayer, parse_level, player_for

#: Games per engine in the full measurement.
GAMES = 200
#: Steps after which a game is called off (none comes near it).
STEP_LIMIT = 200_000
#: Lobby options so that games end (Sangram has no round limit by default).
ROUND_LIMIT = 50


def playout_options(engine: Engine[Any, Any, Any]) -> dict[str, Any]:
    """The lobby defaults, with a round limit where the engine has one (as
    ``bot.tools.bench.playout_options``, without importing the benchmarks)."""
    options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
    if "round_limit" in engine.options:
        options["round_limit"] = ROUND_LIMIT
    return options


def play(
    engine: Engine[Any, Any, Any],
    players: Sequence[AutomaticPlayer],
    seed: int,
    options: dict[str, Any] | None = None,
) -> Outcome:
    """One whole game, seat ``s`` played by ``players[s]``; chance and the
    players' tie-breaks come from generators seeded with ``seed``."""
    chance = random.Random(seed)
    choices = random.Random(seed ^ 0x5EED)
    state = engine.setup(len(players), playout_options(engine) if options is None else options)
    for _ in range(STEP_LIMIT):
        outcome = engine.outcome(state)
        if outcome is not None:
            return outcome
        if engine.to_move(state) == {CHANCE}:
            action = sample_chance(engine.chance_outcomes(state), chance.random())
            state = engine.apply(state, CHANCE, action)
            continue
        seat = progress_seat(engine, state)
        state = engine.apply(state, seat, players[seat].choose(engine, state, seat, choices))
    raise RuntimeError(f"{engine.name}: no outcome after {STEP_LIMIT} steps (seed {seed})")


#: Games played in partnerships, where partners share their place.
PARTNERSHIP_GAMES = frozenset({"chaturaji"})


def won(name: str, outcome: Outcome, seat: int) -> bool:
    """Whether ``seat`` won: alone in first place; in a partnership game,
    its partnership first (and the game not drawn)."""
    first = outcome.ranking[0] if outcome.ranking else frozenset()
    if seat not in first:
        return False
    if name in PARTNERSHIP_GAMES:
        return len(outcome.ranking) > 1
    return len(first) == 1


@dataclass(frozen=True)
class Tally:
    games: int
    wins: int
    draws: int
    """Games where the baseline shared first place (a draw)."""
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 3),
        }


def measure(
    name: str,
    games: int = GAMES,
    seed: int = 0,
    num_players: int | None = None,
    baseline: AutomaticPlayer | None = None,
) -> Tally:
    """``games`` seeded games of one baseline (default: the engine's) against
    random players, at ``num_players`` (default: the engine's minimum)."""
    engine = get_engine(name)
    n = engine.min_players if num_players is None else num_players
    best = player_for(name) if baseline is None else baseline
    wins = draws = 0
    for i in range(games):
        seat = i % n
        players: list[AutomaticPlayer] = [RandomPlayer() for _ in range(n)]
        players[seat] = best
        outcome = play(engine, players, seed * 1_000_003 + i)
        if won(name, outcome, seat):
            wins += 1
        elif seat in outcome.ranking[0]:
            draws += 1
    return Tally(games=games, wins=wins, draws=draws, losses=games - wins - draws)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games), (centre + spread) / (1 + z * z / games)


def duel(
    name: str,
    strong: str,
    weak: str,
    games: int,
    *,
    num_players: int | None = None,
    seed: int = 0,
    scale: float = 1.0,
) -> dict[str, Any]:
    """One seat at level ``strong`` against ``weak`` seats (``random`` is
    uniform play), seats rotated: the strong seat's wins, and for a table of
    three or more its win share against a weak seat's (the weak seats'
    wins, averaged over them: every game tells of each).  In Chaturaji with
    four players, the strong player's partner plays at the strong level too
    (a partnership against a partnership)."""
    engine = get_engine(name)
    n = engine.min_players if num_players is None else num_players

    def at(level: str) -> AutomaticPlayer:
        if level == "random":
            return RandomPlayer()
        return player_for(name, parse_level(level) or "easy", scale=scale)

    wins = draws = 0
    weak_wins = 0.0
    for i in range(games):
        seat = i % n
        players = [at(weak) for _ in range(n)]
        players[seat] = at(strong)
        strong_seats = {seat}
        if name in PARTNERSHIP_GAMES and n == 4:
            players[(seat + 2) % 4] = at(strong)
            strong_seats.add((seat + 2) % 4)
        outcome = play(engine, players, seed * 1_000_003 + i)
        if won(name, outcome, seat):
            wins += 1
        elif seat in outcome.ranking[0]:
            draws += 1
        weak_seats = [s for s in range(n) if s not in strong_seats]
        weak_wins += sum(won(name, outcome, s) for s in weak_seats) / len(weak_seats)
    low, high = wilson(wins, games)
    report: dict[str, Any] = {
        "players": n,
        "strong": strong,
        "weak": weak,
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": round(wins / games, 3) if games else 0.0,
        "interval_95": [round(low, 3), round(high, 3)],
    }
    if n >= 3:
        report["weak_seat_wins"] = round(weak_wins, 2)
        report["share_ratio"] = round(wins / weak_wins, 2) if weak_wins else None
    return report


ROUND_ROBIN = (("hard", "easy"), ("medium", "easy"), ("hard", "medium"), ("hard", "random"))
"""The pairings measured, strong level first."""


def _pairing(text: str) -> tuple[str, str]:
    """``hard/easy`` -> ("hard", "easy"): two levels, or ``random`` as the weak one."""
    strong, _, weak = text.strip().lower().partition("/")
    if parse_level(strong) is None or (parse_level(weak) is None and weak != "random"):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a pairing: write STRONG/WEAK with easy, medium, hard "
            "(or random as the weak one), e.g. hard/easy"
        )
    return strong, weak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.players.strength",
        description="Win rates of each engine's baseline against random players, as JSON.",
    )
    parser.add_argument("engines", nargs="*", help="engines (default: all)")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--players", type=int, default=None, help="players per game (default: each minimum)"
    )
    parser.add_argument(
        "--levels",
        action="store_true",
        help="the levels' round robin (hard/medium/easy/random), 95%% intervals",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="shrink the search budgets (quick looks)"
    )
    parser.add_argument(
        "--pairs",
        nargs="+",
        type=_pairing,
        default=list(ROUND_ROBIN),
        metavar="STRONG/WEAK",
        help="with --levels, only these pairings (e.g. hard/easy medium/easy)",
    )
    args = parser.parse_args(argv)
    names = args.engines or list(ENGINES)
    if args.levels:
        table: dict[str, Any] = {}
        for name in names:
            engine = get_engine(name)
            counts = (
                sorted({engine.min_players, engine.max_players})
                if args.players is None
                else [args.players]
            )
            rows = []
            for n in counts:
                for strong, weak in args.pairs:
                    row = duel(
                        name,
                        strong,
                        weak,
                        args.games,
                        num_players=n,
                        seed=args.seed,
                        scale=args.scale,
                    )
                    rows.append(row)
                    print(
                        f"{name} {n}p {strong} vs {weak}: {row['wins']}/{row['games']} "
                        f"{row['interval_95']}",
                        file=sys.stderr,
                        flush=True,
                    )
            table[name] = rows
        json.dump({"games": args.games, "seed": args.seed, "levels": table}, sys.stdout, indent=2)
        print()
        return 0
    report: dict[str, Any] = {
        "criterion": "baseline finishes strictly ahead of every random player (Chaturaji: "
        "its partnership wins); draws and shared places are not wins; seats alternate",
        "games": args.games,
        "seed": args.seed,
        "engines": {},
    }
    for name in names:
        n = get_engine(name).min_players if args.players is None else args.players
        tally = measure(name, args.games, args.seed, n)
        report["engines"][name] = {"players": n, **tally.to_json()}
        print(f"{name}: {tally.wins}/{tally.games}", file=sys.stderr, flush=True)
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
