"""How well the bots play.

- The expert bot against greedy bots and against random bots: one expert, the others all of the
  other kind, its seat moving round the table (fair share 1/n), with the Wilson 95% interval of
  its win rate and its mean and slowest decision time.
- One greedy bot against random bots, and greedy bots among themselves (wins per seat).

Run: ``.venv/bin/python bench/bots.py`` (figures go to docs/performance.md). Games are seeded, so
the win counts are the same on every machine; the decision times are this machine's.
``--expert-games`` bounds the slow part: a line of a few hundred expert games takes minutes per
game count on a busy machine. ``--out`` appends one JSON line per finished line (so a long run in
the background leaves its figures as it goes).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from longhall.server.cli.simulate import play_game
from longhall.server.games.registry import GAMES
from longhall.server.table.gamedata import default_config


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (a shared win counts as a fraction)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    low = (centre - spread) / (1 + z * z / games)
    high = (centre + spread) / (1 + z * z / games)
    return (max(0.0, low), min(1.0, high))


class Timed:
    """Wraps a bot and records how long each of its decisions took."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.cpu: list[float] = []  # this thread's CPU time: what a busy machine inflates least

    def choose(self, state: Any, seat: int) -> Any:
        started, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(state, seat)
        self.times.append(time.perf_counter() - started)
        self.cpu.append(time.thread_time() - cpu)
        return action


def engine_pace(seconds: float = 3.0) -> tuple[float, float]:
    """Random 6-player Eketorp games per second and per CPU-second right now: the peers the
    decision times are read against (docs/performance.md has the figure of a quiet machine)."""
    spec = GAMES["eketorp"]
    config = default_config("eketorp", 6)
    games = 0
    started, cpu = time.perf_counter(), time.thread_time()
    while time.perf_counter() - started < seconds:
        play_game(spec, config, 1000 + games, ["random"] * 6)
        games += 1
    return games / (time.perf_counter() - started), games / (time.thread_time() - cpu)


def expert_against(
    game: str,
    players: int,
    others: str,
    games: int,
    playouts: int | None,
    seed: int = 20000,
    progress: Path | None = None,
    start: int = 0,
) -> dict[str, Any]:
    """One expert, the other seats ``others``; the expert's seat moves round the table.

    With ``progress``, the line's figures so far are written there after every game (a run
    stopped at a deadline still says what it measured, and over how many games). ``start``
    skips the line's first games: a stopped run goes on where it stopped, and the two parts'
    wins add up to what one run would have counted (the games are seeded)."""
    spec = GAMES[game]
    config = default_config(game, players)
    wins = 0.0
    by_seat = [0.0] * players
    pace = engine_pace()
    timed: list[Timed] = []

    def make(kind: str, s: int) -> Any:
        if kind != "expert":
            return spec.bots[kind](s)
        bot = Timed(spec.bots["expert"](s, playouts))  # type: ignore[call-arg]
        timed.append(bot)
        return bot

    started = time.perf_counter()
    for k in range(start, start + games):
        seat = k % players
        kinds = [others] * players
        kinds[seat] = "expert"
        state, _ = play_game(spec, config, seed + k, kinds, make=make)
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
            by_seat[seat] += 1 / len(winners)
        if progress is not None:
            line = figures(game, players, others, k + 1 - start, playouts, wins, by_seat, timed)
            line["first_game"] = start
            line["seconds"] = round(time.perf_counter() - started, 1)
            line["engine_games_per_second"] = round(pace[0], 1)
            line["engine_games_per_cpu_second"] = round(pace[1], 1)
            progress.write_text(json.dumps(line) + "\n")
    return {
        **figures(game, players, others, games, playouts, wins, by_seat, timed),
        "first_game": start,
        "seconds": round(time.perf_counter() - started, 1),
        **pace_figures(pace, engine_pace()),
    }


def pace_figures(before: tuple[float, float], after: tuple[float, float]) -> dict[str, float]:
    """The engine's pace measured before and after a line, averaged."""
    return {
        "engine_games_per_second": round((before[0] + after[0]) / 2, 1),
        "engine_games_per_cpu_second": round((before[1] + after[1]) / 2, 1),
    }


def figures(
    game: str,
    players: int,
    others: str,
    games: int,
    playouts: int | None,
    wins: float,
    by_seat: list[float],
    timed: list[Timed],
) -> dict[str, Any]:
    """An expert line's figures after ``games`` games."""
    times = [t for bot in timed for t in bot.times]
    cpu = [t for bot in timed for t in bot.cpu]
    low, high = wilson(wins, games)
    thinking = [t for t in times if t > 1e-3] or times  # the steps of a cached plan cost nothing
    thinking_cpu = [c for t, c in zip(times, cpu, strict=True) if t > 1e-3] or cpu
    return {
        "game": game,
        "players": players,
        "against": others,
        "games": games,
        "playouts": playouts,
        "expert_wins": round(wins, 2),
        "win_rate": round(wins / games, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "fair_share": round(1 / players, 3),
        "wins_by_seat": [round(w, 2) for w in by_seat],
        "decisions": len(times),
        "searched": len(thinking),
        "mean_decision_s": round(sum(thinking) / len(thinking), 4),
        "max_decision_s": round(max(times), 4),
        "mean_decision_cpu_s": round(sum(thinking_cpu) / len(thinking_cpu), 4),
        "max_decision_cpu_s": round(max(cpu), 4),
        # what a Pi's share of a core stretches: wall time there is about CPU time / share
        "p95_decision_cpu_s": round(sorted(thinking_cpu)[int(0.95 * (len(thinking_cpu) - 1))], 4),
    }


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One line from the parts of a line run one after another (``--start``): wins add up, the
    decision times are weighted by the decisions searched, the engine's pace is averaged."""
    first = parts[0]
    games = sum(p["games"] for p in parts)
    wins = sum(p["expert_wins"] for p in parts)
    searched = sum(p["searched"] for p in parts)
    low, high = wilson(wins, games)

    def weighted(key: str) -> float:
        total: float = sum(p[key] * p["searched"] for p in parts)
        return round(total / float(searched), 4)

    return {
        **first,
        "games": games,
        "expert_wins": round(wins, 2),
        "win_rate": round(wins / games, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "wins_by_seat": [
            round(sum(w), 2) for w in zip(*(p["wins_by_seat"] for p in parts), strict=True)
        ],
        "decisions": sum(p["decisions"] for p in parts),
        "searched": searched,
        "mean_decision_s": weighted("mean_decision_s"),
        "max_decision_s": max(p["max_decision_s"] for p in parts),
        "mean_decision_cpu_s": weighted("mean_decision_cpu_s"),
        "max_decision_cpu_s": max(p["max_decision_cpu_s"] for p in parts),
        "p95_decision_cpu_s": max(p.get("p95_decision_cpu_s", 0.0) for p in parts),  # at most
        "seconds": round(sum(p["seconds"] for p in parts), 1),
        "engine_games_per_second": round(
            sum(p["engine_games_per_second"] for p in parts) / len(parts), 1
        ),
        "engine_games_per_cpu_second": round(
            sum(p["engine_games_per_cpu_second"] for p in parts) / len(parts), 1
        ),
        "first_game": min(p.get("first_game", 0) for p in parts),
    }


def one_greedy_against_random(game: str, players: int, games: int) -> dict[str, Any]:
    """The greedy bot's seat moves round the table; a shared win counts as a fraction."""
    spec = GAMES[game]
    config = default_config(game, players)
    wins = 0.0
    for k in range(games):
        kinds = ["random"] * players
        greedy = k % players
        kinds[greedy] = "greedy"
        state, _ = play_game(spec, config, 9000 + k, kinds)
        winners = state.winners()
        if greedy in winners:
            wins += 1 / len(winners)
    return {"game": game, "players": players, "games": games, "greedy_wins": round(wins, 1)}


def greedy_among_themselves(game: str, players: int, games: int) -> dict[str, Any]:
    """Wins per seat when every seat is greedy: no seat should be favoured."""
    spec = GAMES[game]
    config = default_config(game, players)
    wins = [0.0] * players
    for k in range(games):
        state, _ = play_game(spec, config, 9500 + k, ["greedy"] * players)
        for seat in state.winners():
            wins[seat] += 1 / len(state.winners())
    return {"game": game, "players": players, "games": games, "wins_per_seat": wins}


def print_expert(r: dict[str, Any]) -> None:
    low, high = r["ci95"]
    print(
        f"{GAMES[r['game']].title}, {r['players']} players, expert ({r['playouts'] or 'default'}"
        f" play-outs) against {r['against']}: won {r['expert_wins']:g} of {r['games']}"
        f" ({r['win_rate']:.0%}, 95% CI {low:.0%}-{high:.0%}; fair share {r['fair_share']:.0%});"
        f" by seat {r['wins_by_seat']}; mean decision {r['mean_decision_s'] * 1000:.0f} ms,"
        f" slowest {r['max_decision_s'] * 1000:.0f} ms (CPU: {r['mean_decision_cpu_s'] * 1000:.0f}"
        f" / {r['max_decision_cpu_s'] * 1000:.0f} ms); {r['seconds']:g} s; random 6-player"
        f" Eketorp games/s alongside: {r['engine_games_per_second']}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="games per greedy line")
    parser.add_argument("--expert-games", type=int, default=300, help="games per expert line")
    parser.add_argument("--playouts", type=int, help="the expert's budget (default: its own)")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only these")
    parser.add_argument("--players", type=int, action="append", help="only these counts")
    parser.add_argument(
        "--against", choices=("greedy", "random"), action="append", help="only these opponents"
    )
    parser.add_argument("--skip-greedy", action="store_true", help="only the expert's lines")
    parser.add_argument("--out", type=Path, help="append each line's JSON to this file")
    parser.add_argument(
        "--progress", type=Path, help="rewrite this file with the current line after each game"
    )
    parser.add_argument(
        "--start", type=int, default=0, help="skip each expert line's first games (go on)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="print one line from these parts' JSON, then stop"
    )
    args = parser.parse_args()
    if args.merge:
        line = merge([json.loads(path.read_text()) for path in args.merge])
        if args.json:
            print(json.dumps(line))
        else:
            print_expert(line)
        return
    results: list[dict[str, Any]] = []
    for name, spec in GAMES.items():
        if args.game and name not in args.game:
            continue
        for players in range(spec.min_players, spec.max_players + 1):
            if args.players and players not in args.players:
                continue
            for others in args.against or ("greedy", "random"):
                if args.expert_games <= 0 or "expert" not in spec.bots:
                    continue
                r = expert_against(
                    name,
                    players,
                    others,
                    args.expert_games,
                    args.playouts,
                    progress=args.progress,
                    start=args.start,
                )
                results.append(r)
                if args.out:
                    with args.out.open("a") as f:
                        f.write(json.dumps(r) + "\n")
                if not args.json:
                    print_expert(r)
            if args.skip_greedy:
                continue
            r = {
                **one_greedy_against_random(name, players, args.games),
                "wins_per_seat_all_greedy": [
                    round(w, 1)
                    for w in greedy_among_themselves(name, players, args.games)["wins_per_seat"]
                ],
            }
            results.append(r)
            if not args.json:
                share = r["greedy_wins"] / r["games"]
                print(
                    f"{spec.title}, {players} players: one greedy bot won {r['greedy_wins']} of"
                    f" {r['games']} games against random bots ({share:.0%}); all greedy, wins"
                    f" per seat: {r['wins_per_seat_all_greedy']}",
                    flush=True,
                )
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
