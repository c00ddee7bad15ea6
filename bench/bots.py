"""How well the bots play: one greedy bot against random bots, and greedy bots among themselves.

Run: ``.venv/bin/python bench/bots.py`` (figures go to docs/performance.md). Not a speed test:
every game is seeded, so the figures are the same on every machine.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from server.gamedata import default_config
from server.games.registry import GAMES
from server.simulate import play_game


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for name, spec in GAMES.items():
        for players in range(spec.min_players, spec.max_players + 1):
            results.append(
                {
                    **one_greedy_against_random(name, players, args.games),
                    "wins_per_seat_all_greedy": [
                        round(w, 1)
                        for w in greedy_among_themselves(name, players, args.games)["wins_per_seat"]
                    ],
                }
            )
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        share = r["greedy_wins"] / r["games"]
        print(
            f"{GAMES[r['game']].title}, {r['players']} players: one greedy bot won"
            f" {r['greedy_wins']} of {r['games']} games against random bots ({share:.0%});"
            f" all greedy, wins per seat: {r['wins_per_seat_all_greedy']}"
        )


if __name__ == "__main__":
    main()
