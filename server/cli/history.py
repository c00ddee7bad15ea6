"""``longhall history`` and ``longhall replay``: the games this server has kept."""

from __future__ import annotations

import json
import time
from typing import TextIO

from ..config import Settings
from ..games.api import GameState
from ..games.registry import GAMES
from ..store import Store
from ..table.state import effective_moves


def _when(at: float | None) -> str:
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def print_history(settings: Settings, as_json: bool, out: TextIO) -> int:
    if not settings.db_path.exists():
        print(f"No game store at {settings.db_path}.", file=out)
        return 1
    store = Store(settings.db_path)
    try:
        games = store.games()
    finally:
        store.close()
    if as_json:
        print(json.dumps(games), file=out)
        return 0
    if not games:
        print("No games yet.", file=out)
    for g in games:
        names = ", ".join(s["name"] for s in g["seats"])
        scores = ""
        if g["result"]:
            scores = "  " + " ".join(str(s["total"]) for s in g["result"]["scores"])
        print(
            f"#{g['id']} {g['game']} {_when(g['started'])} {g['status']:9} "
            f"{g['actions']} actions  {names}{scores}",
            file=out,
        )
    return 0


def print_replay(settings: Settings, game_id: int, out: TextIO) -> int:
    """Replay a game from its seed and log; check it against the stored result."""
    store = Store(settings.db_path)
    try:
        game = store.game(game_id)
        if game is None:
            print(f"There is no game #{game_id}.", file=out)
            return 1
        state = replay_game(store, game_id)
    finally:
        store.close()
    totals = [s["total"] for s in state.scores()]
    print(
        f"#{game_id} {game['game']}: {len(game['log'])} actions replayed, "
        f"{'over' if state.is_over() else 'not finished'}; scores {totals}",
        file=out,
    )
    stored = game["result"]
    if stored is not None and [s["total"] for s in stored["scores"]] != totals:
        print("The replay does not match the stored result!", file=out)
        return 1
    return 0


def replay_game(store: Store, game_id: int) -> GameState:
    """Replay a stored game from its seed and action log; return the resulting state."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(f"no game {game_id}")
    spec = GAMES[game["game"]]
    state = spec.new(game["config"], game["seed"])
    for seat, action in effective_moves(game["log"]):  # the host's take-backs obeyed
        state.apply(seat, action)
    return state
