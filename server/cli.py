"""The ``longhall`` command: ``longhall simulate`` plays whole games between bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .games.registry import GAMES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="longhall",
        description="Longhall: a game-night hub for board games with phones as secret boards.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play whole games between bots")
    sim.add_argument("--game", choices=sorted(GAMES), default="eketorp")
    sim.add_argument("--players", type=int, default=4, help="players per game")
    sim.add_argument("--games", type=int, default=1, help="number of games")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 each)")
    sim.add_argument(
        "--bots",
        choices=("random", "greedy", "mixed"),
        default="greedy",
        help="mixed: greedy bots on even seats, random bots on odd seats",
    )
    sim.add_argument("--deck", help="Eketorp: a material deck file instead of the house deck")
    sim.add_argument("--json", action="store_true", help="one JSON object per game, then totals")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        from .simulate import run

        return run(args, sys.stdout)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
