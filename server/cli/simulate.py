"""Whole games between bots, for ``longhall simulate`` and the benchmarks."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from ..games.registry import get
from ..games.spec import GameSpec
from ..table.gamedata import default_config


@dataclass
class GameRecord:
    seed: int
    players: int
    rounds: int
    actions: int
    scores: list[int]
    winners: list[int]
    bots: list[str]
    breakdown: list[dict[str, Any]]


def bot_kinds(mode: str, players: int) -> list[str]:
    """Return the bot kind of each seat for ``expert``, ``greedy``, ``random`` or ``mixed``."""
    if mode == "mixed":
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(players)]
    return [mode] * players


def play_game(
    spec: GameSpec,
    config: dict[str, Any],
    seed: int,
    kinds: list[str],
    make: Callable[[str, int], Any] | None = None,
) -> tuple[Any, int]:
    """Play one whole game between bots; return the final state and the number of actions.

    ``make(kind, seed)`` builds a bot (default: the game's own factory for that kind).
    """
    state = spec.new(config, seed)
    build = make or (lambda kind, bot_seed: spec.bots[kind](bot_seed))
    bots = [build(kind, seed * 131 + seat) for seat, kind in enumerate(kinds)]
    actions = 0
    while not state.is_over():
        active = state.active_seats()
        if active:
            seat = active[0]
            state.apply(seat, bots[seat].choose(state, seat))
        else:  # the table's step (reveal, next round): the NEXT button
            state.apply(None, state.legal_actions(None)[0])
        actions += 1
    return state, actions


def run(args: argparse.Namespace, out: TextIO) -> int:
    spec = get(args.game)
    if not spec.min_players <= args.players <= spec.max_players:
        print(f"{spec.title} is for {spec.min_players} to {spec.max_players} players.", file=out)
        return 2
    if args.games < 1:
        print("--games must be at least 1.", file=out)
        return 2
    config = default_config(args.game, args.players, data_file=args.data_file)
    kinds = bot_kinds(args.bots, args.players)
    if "expert" in kinds and "expert" not in spec.bots:
        print(f"{spec.title} has no expert bot yet.", file=out)
        return 2
    playouts = getattr(args, "playouts", None)
    if playouts is not None and playouts < 1:
        print("--playouts must be at least 1.", file=out)
        return 2

    def make(kind: str, bot_seed: int) -> Any:
        if kind == "expert" and playouts:
            return spec.bots[kind](bot_seed, playouts)  # type: ignore[call-arg]
        return spec.bots[kind](bot_seed)

    records: list[GameRecord] = []
    started = time.perf_counter()
    for k in range(args.games):
        seed = args.seed + k
        state, actions = play_game(spec, config, seed, kinds, make)
        scores = state.scores()
        record = GameRecord(
            seed=seed,
            players=args.players,
            rounds=getattr(state, "round", 0),
            actions=actions,
            scores=[s["total"] for s in scores],
            winners=state.winners(),
            bots=kinds,
            breakdown=[s["breakdown"] for s in scores],
        )
        records.append(record)
        if args.json:
            print(json.dumps(record.__dict__, separators=(",", ":")), file=out)
    seconds = time.perf_counter() - started
    totals = summarise(records, seconds)
    if args.json:
        print(json.dumps(totals, separators=(",", ":")), file=out)
    else:
        print_summary(spec, records, totals, out)
    return 0


def summarise(records: list[GameRecord], seconds: float) -> dict[str, Any]:
    players = records[0].players
    wins = [0.0] * players
    for r in records:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    by_kind: dict[str, float] = {}
    for seat, kind in enumerate(records[0].bots):
        by_kind[kind] = by_kind.get(kind, 0.0) + wins[seat]
    return {
        "totals": True,
        "games": len(records),
        "seconds": round(seconds, 4),
        "games_per_second": round(len(records) / seconds, 2) if seconds else None,
        "wins_by_seat": [round(w, 2) for w in wins],
        "wins_by_bot": {k: round(v, 2) for k, v in by_kind.items()},
        "mean_scores": [
            round(sum(r.scores[s] for r in records) / len(records), 2) for s in range(players)
        ],
        "mean_rounds": round(sum(r.rounds for r in records) / len(records), 2),
        "mean_actions": round(sum(r.actions for r in records) / len(records), 1),
    }


def print_summary(
    spec: GameSpec, records: list[GameRecord], totals: dict[str, Any], out: TextIO
) -> None:
    n = records[0].players
    print(
        f"{spec.title}: {len(records)} game(s), {n} players, bots {', '.join(records[0].bots)}",
        file=out,
    )
    if len(records) <= 10:
        for r in records:
            scores = "  ".join(f"seat {s}: {p:3d}" for s, p in enumerate(r.scores))
            winners = ", ".join(str(w) for w in r.winners)
            print(
                f"  seed {r.seed}: {r.rounds} rounds, {r.actions} actions  {scores}"
                f"  winner(s): {winners}",
                file=out,
            )
    print(
        "  wins per seat: "
        + "  ".join(f"{s}: {w:g}" for s, w in enumerate(totals["wins_by_seat"])),
        file=out,
    )
    if len(totals["wins_by_bot"]) > 1:
        print(
            "  wins per bot:  "
            + "  ".join(f"{k}: {v:g}" for k, v in totals["wins_by_bot"].items()),
            file=out,
        )
    print("  mean score per seat: " + "  ".join(f"{m:g}" for m in totals["mean_scores"]), file=out)
    print(
        f"  {totals['mean_rounds']:g} rounds and {totals['mean_actions']:g} actions per game; "
        f"{totals['games']} games in {totals['seconds']:.2f} s"
        f" ({totals['games_per_second']} games/s)",
        file=out,
    )
