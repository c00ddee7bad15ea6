"""Rules-engine speed: whole games between bots per second, and the cost of one ``apply``.

Run: ``.venv/bin/python bench/engine.py`` (one core; figures go to docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from typing import Any

from longhall.server.cli.simulate import play_game
from longhall.server.games.registry import GAMES
from longhall.server.table.gamedata import default_config


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def games_per_second(game: str, players: int, bot: str, seconds: float) -> dict[str, Any]:
    spec = GAMES[game]
    config = default_config(game, players)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        _, n = play_game(spec, config, 1000 + games, [bot] * players)
        games += 1
        actions += n
    elapsed = time.perf_counter() - started
    return {
        "game": game,
        "players": players,
        "bots": bot,
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "actions_per_game": round(actions / games, 1),
        "microseconds_per_action": round(elapsed / actions * 1e6, 2),
    }


def apply_cost(game: str, players: int, games: int) -> dict[str, Any]:
    """Time every apply of random games: median and 99th percentile."""
    spec = GAMES[game]
    config = default_config(game, players)
    samples: list[float] = []
    for k in range(games):
        state = spec.new(config, 5000 + k)
        bots = [spec.bots["random"](k * 10 + s) for s in range(players)]
        while not state.is_over():
            active = state.active_seats()
            if active:
                seat = active[0]
                action = bots[seat].choose(state, seat)
            else:
                seat, action = None, state.legal_actions(None)[0]
            t0 = time.perf_counter_ns()
            state.apply(seat, action)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    samples.sort()
    return {
        "game": game,
        "players": players,
        "applies": len(samples),
        "median_us": round(statistics.median(samples), 2),
        "p99_us": round(samples[int(len(samples) * 0.99)], 2),
    }


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; Python {platform.python_version()}; {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pin_to_one_core()
    results: dict[str, Any] = {"machine": machine(), "runs": [], "apply": []}
    cases = [
        ("eketorp", 6, "random"),
        ("eketorp", 6, "greedy"),
        ("eketorp", 4, "random"),
        ("vikings_on_board", 4, "random"),
        ("vikings_on_board", 4, "greedy"),
        ("vikings_gone_wild", 4, "random"),
        ("vikings_gone_wild", 4, "greedy"),
    ]
    for game, players, bot in cases:
        if game in GAMES:
            results["runs"].append(games_per_second(game, players, bot, args.seconds))
    for game, players in (("eketorp", 6), ("vikings_on_board", 4), ("vikings_gone_wild", 4)):
        if game in GAMES:
            results["apply"].append(apply_cost(game, players, 20))
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"machine: {results['machine']} (one core)")
    for r in results["runs"]:
        print(
            f"{r['game']:17} {r['players']}p {r['bots']:6}  {r['games_per_second']:7.1f} games/s"
            f"  {r['actions_per_game']:6.1f} actions/game"
            f"  {r['microseconds_per_action']:5.1f} us/action"
        )
    for r in results["apply"]:
        print(
            f"apply {r['game']:17} {r['players']}p: median {r['median_us']} us,"
            f" p99 {r['p99_us']} us ({r['applies']} applies)"
        )


if __name__ == "__main__":
    main()
