"""Play-out speed: the search's fast path against the full engine, in the same run.

- Random 6-player Eketorp games from a fresh deal: the full engine (random bots listing every
  legal action, the shape check, the routing checks, the public log) against the fast path
  action by action (a thinking copy, the sampler that draws the same actions without listing
  them, a lean apply, no log) and in whole steps (``eketorp.playout.random_playout``: a seat's
  whole plan, a round's fights, a seat's building at once) in Python and compiled
  (``eketorp.native``, what ``random_playout`` plays when a C compiler is at hand). All four play
  the same seeds, so they play the same games (tests/games/test_playout.py,
  tests/games/test_native_playout.py).
- The cost of a copy: ``clone()`` (a JSON round trip) against ``thinking_copy()``.
- What one expert decision spends: greedy play-outs to the end of the round (Eketorp) or a turn
  on (Vikings on Board), per second.

Run: ``.venv/bin/python bench/engine_playout.py`` (pinned to one core; figures go to
docs/performance.md as ratios against the full engine measured alongside). Rates are per second
of this process's CPU time, and the three kinds of random games take turns in short rounds (the
best round of each counts), so that other work on a shared machine skews them less.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from longhall.server import compiled
from longhall.server.gamedata import default_config
from longhall.server.games.eketorp import SPEC as EKETORP
from longhall.server.games.eketorp import expert as ek_expert
from longhall.server.games.eketorp import native
from longhall.server.games.eketorp.playout import random_playout, sample, step
from longhall.server.games.eketorp.state import EketorpState
from longhall.server.games.playout import playout, thinking_copy
from longhall.server.games.rng import Rng
from longhall.server.games.vikings_on_board import SPEC as VIKINGS
from longhall.server.games.vikings_on_board import expert as vob_expert
from longhall.server.games.vikings_on_board.state import VikingsState


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _timed(run: Any, seconds: float) -> tuple[int, float]:
    """Run ``run(0), run(1), ...`` for ``seconds`` of CPU time; return the count and the time."""
    count = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        run(count)
        count += 1
    return count, time.process_time() - started


def random_games(players: int, seconds: float, rounds: int = 5) -> dict[str, dict[str, Any]]:
    """Random games per CPU second on the full engine, the fast path, in whole steps in Python
    and compiled (left out when there is no C compiler)."""
    config = default_config("eketorp", players)
    deals = [cast(EketorpState, EKETORP.new(config, 1000 + k)) for k in range(50)]
    actions = {"full_engine": 0, "fast_path": 0, "whole_steps": 0}
    if native.available():
        actions["compiled"] = 0

    def bots(k: int) -> list[Any]:
        return [EKETORP.bots["random"](k * 131 + s) for s in range(players)]

    def full(k: int) -> None:
        st = deals[k % len(deals)].clone()
        seats = bots(k)
        while not st.is_over():
            active = st.active_seats()
            if active:
                seat = active[0]
                st.apply(seat, seats[seat].choose(st, seat))
            else:
                st.apply(None, st.legal_actions(None)[0])
        actions["full_engine"] += st.version - deals[k % len(deals)].version

    def fast(k: int) -> None:
        st = thinking_copy(deals[k % len(deals)])
        rngs = [Rng(bot.rng.state) for bot in bots(k)]
        actions["fast_path"] += playout(st, [sample] * players, rngs)

    def whole(k: int) -> None:
        st = thinking_copy(deals[k % len(deals)])
        rngs = [Rng(bot.rng.state) for bot in bots(k)]
        while st.phase != "over":  # the Python whole steps, as without a compiler
            step(st, rngs)
        actions["whole_steps"] += st.version - deals[k % len(deals)].version

    def compiled(k: int) -> None:
        st = thinking_copy(deals[k % len(deals)])
        random_playout(st, [Rng(bot.rng.state) for bot in bots(k)])
        actions["compiled"] += st.version - deals[k % len(deals)].version

    best = dict.fromkeys(actions, 0.0)
    games = dict.fromkeys(actions, 0)
    runs = {"full_engine": full, "fast_path": fast, "whole_steps": whole, "compiled": compiled}
    for _ in range(rounds):
        for name in actions:
            run = runs[name]
            done, elapsed = _timed(lambda k, run=run, name=name: run(games[name] + k), seconds)
            games[name] += done
            best[name] = max(best[name], done / elapsed)
    return {
        name: {
            "games": games[name],
            "per_second": best[name],
            "actions": actions[name] / games[name],
        }
        for name in actions
    }


def copy_cost(seconds: float) -> dict[str, float]:
    """Microseconds per copy of a 6-player Eketorp state in round 5 (a full log behind it)."""
    st = cast(EketorpState, EKETORP.new(default_config("eketorp", 6), 77))
    bots = [EKETORP.bots["greedy"](s) for s in range(6)]
    while st.round < 5:
        active = st.active_seats()
        if active:
            st.apply(active[0], bots[active[0]].choose(st, active[0]))
        else:
            st.apply(None, st.legal_actions(None)[0])
    n_full, t_full = _timed(lambda k: st.clone(), seconds / 2)
    n_fast, t_fast = _timed(lambda k: thinking_copy(st), seconds / 2)
    return {"clone_us": t_full / n_full * 1e6, "thinking_copy_us": t_fast / n_fast * 1e6}


def expert_playouts(seconds: float) -> list[dict[str, Any]]:
    """The expert's own play-outs per second, as it spends them in a decision."""
    out = []
    st = cast(EketorpState, EKETORP.new(default_config("eketorp", 6), 88))
    bot = ek_expert.ExpertBot(1)

    def eketorp_run(k: int) -> None:
        world = ek_expert.determinize(st, 0, Rng(k))
        bot._finish(world, 0, ek_expert.RolloutPolicy(bot.greedy), k)

    n, t = _timed(eketorp_run, seconds)
    out.append({"game": "eketorp", "players": 6, "per_second": n / t, "to": "end of round"})
    vst = cast(VikingsState, VIKINGS.new(default_config("vikings_on_board", 4), 88))
    until = vob_expert._horizon(vst)
    policy = vob_expert._policy(vob_expert._PlayoutGreedy(1, vob_expert._Memo()))

    def vikings_run(k: int) -> None:
        world = vob_expert.determinize(vst, 0, Rng(k))
        playout(world, [policy] * 4, [Rng(k + s) for s in range(4)], until)

    n, t = _timed(vikings_run, seconds)
    out.append({"game": "vikings_on_board", "players": 4, "per_second": n / t, "to": "a turn on"})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pin_to_one_core()
    compiled.install()  # as ``longhall serve`` does
    games = random_games(6, args.seconds / 5)
    full, fast, whole = games["full_engine"], games["fast_path"], games["whole_steps"]
    copies = copy_cost(args.seconds)
    experts = expert_playouts(args.seconds)
    results = {
        "machine": machine(),
        **games,
        "speedup": fast["per_second"] / full["per_second"],
        "whole_steps_speedup": whole["per_second"] / full["per_second"],
        "compiled_speedup": (
            games["compiled"]["per_second"] / full["per_second"] if "compiled" in games else None
        ),
        "copies": copies,
        "copy_speedup": copies["clone_us"] / copies["thinking_copy_us"],
        "expert_playouts": experts,
    }
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"machine: {results['machine']} (one core; per CPU second)")
    print(
        f"random 6-player Eketorp games ({full['actions']:.0f} actions each):"
        f" full engine {full['per_second']:.1f}/s,"
        f" fast path {fast['per_second']:.1f}/s ({results['speedup']:.2f}x),"
        f" whole steps {whole['per_second']:.1f}/s ({results['whole_steps_speedup']:.2f}x)"
    )
    if "compiled" in games:
        print(
            f"  compiled whole steps (random_playout) {games['compiled']['per_second']:.1f}/s"
            f" ({results['compiled_speedup']:.2f}x the full engine,"
            f" {games['compiled']['per_second'] / whole['per_second']:.2f}x the Python steps)"
        )
    else:
        print("  compiled whole steps: no C compiler here, random_playout plays in Python")
    print(
        f"copy of a 6-player state in round 5: clone() {copies['clone_us']:.0f} us,"
        f" thinking_copy() {copies['thinking_copy_us']:.0f} us"
        f" ({results['copy_speedup']:.1f}x)"
    )
    for r in experts:
        print(
            f"expert play-outs, {r['game']} {r['players']}p, greedy policy to {r['to']}:"
            f" {r['per_second']:.0f}/s"
        )


if __name__ == "__main__":
    main()
