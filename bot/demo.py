"""``python -m bot demo`` (and ``python -m bot.demo``): the demo's command line.

Only the options and the call: the demo itself (seeded games drawn
offline, a gallery with ``index.html``) is a tool, :mod:`bot.tools.demo`,
imported when the command runs, so ``python -m bot``, which builds this
parser, never imports it.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The demo's options, for ``python -m bot demo`` and ``python -m bot.demo``."""
    parser.add_argument("--out", type=Path, default=Path("demo-output"), help="output folder")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="*", help="engine names (default: all)")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats per game (default: 2 and the largest table; with --all, 3)",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        dest="full",
        help="every board after every move and every private view (thousands of images)",
    )
    parser.add_argument(
        "--showcase",
        type=Path,
        metavar="FILE",
        help="write only the README's mid-game board to FILE (docs/images/board.png)",
    )


def run(args: argparse.Namespace) -> int:
    """Do what the parsed options ask and say where the images are."""
    from bot.tools.demo import run_demo, showcase

    if args.showcase is not None:
        args.showcase.parent.mkdir(parents=True, exist_ok=True)
        args.showcase.write_bytes(showcase(args.seed))
        print(f"Showcase board written to {args.showcase}")
        return 0
    out = run_demo(args.out, seed=args.seed, games=args.games, players=args.players, full=args.full)
    if args.full:
        print(f"Demo images written to {out.resolve()}")
    else:
        print(f"Demo gallery written: open {(out / 'index.html').resolve()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.demo", description="Chaupal's games, played and drawn offline."
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
