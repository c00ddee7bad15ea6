"""``longhall history`` and ``longhall replay``: the nights and games this server has kept."""

from __future__ import annotations

import json
import time
from typing import Any, TextIO

from ..config import Settings
from ..games.api import GameState
from ..games.registry import GAMES
from ..store import Store
from ..table import night
from ..table.state import effective_moves


def _when(at: float | None) -> str:
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _name(seat: dict[str, Any]) -> str:
    """A player's name, or what a player the table forgot is called."""
    return str(seat["name"]) if seat["name"] is not None else "a former player"


def _points(value: float) -> str:
    whole = int(value)
    return f"{whole}½" if value - whole else str(whole)


def print_history(settings: Settings, as_json: bool, out: TextIO) -> int:
    if not settings.db_path.exists():
        print(f"No game store at {settings.db_path}.", file=out)
        return 1
    store = Store(settings.db_path)
    try:
        games, nights = store.games(), store.nights()
    finally:
        store.close()
    if as_json:
        shown = [night.shown(n, []) for n in nights]
        print(json.dumps({"nights": shown, "games": games}), file=out)
        return 0
    if not games:
        print("No games yet.", file=out)
    by_night: dict[int | None, list[dict[str, Any]]] = {}
    for g in games:
        by_night.setdefault(g.get("night"), []).append(g)
    for n in nights:
        standings = night.standings(n)
        ended = "going on" if n["ended"] is None else f"to {_when(n['ended'])}"
        table = ", ".join(
            f"{r['place']}. {_name(r)}{' (bot)' if r['bot'] else ''} {_points(r['points'])}"
            for r in standings
        )
        count = len(by_night.get(n["id"], []))
        print(f"Night {n['id']}  {_when(n['started'])} {ended}  {count} games  {table}", file=out)
        for g in by_night.pop(n["id"], []):
            _print_game(g, out, indent="  ")
    for rest in by_night.values():  # games played before the table kept nights
        for g in rest:
            _print_game(g, out)
    return 0


def _print_game(g: dict[str, Any], out: TextIO, indent: str = "") -> None:
    names = ", ".join(_name(s) for s in g["seats"])
    scores = ""
    if g["result"] and g["result"]["scores"]:
        scores = "  " + " ".join(str(s["total"]) for s in g["result"]["scores"])
    print(
        f"{indent}#{g['id']} {g['game']} {_when(g['started'])} {g['status']:9} "
        f"{g['actions']} actions  {names}{scores}",
        file=out,
    )


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
