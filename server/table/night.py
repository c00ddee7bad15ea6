"""The night: every game played at the table between its first game and the host's end of it,
and the night's standings.

The standings are fair across games of different lengths, scores and player counts: in each game
a player earns one point per player they finished ahead of, and half a point per player they
finished level with (a game's own tie-break first: of two players with the same score, the one
the game names a winner finished ahead). A game ended early (``abandoned``) is listed, marked so,
and earns nobody a point.

Everything here is pure: it reads the night as the table keeps it (``TableData.night``, each game
summed up when it ends) and is used by the messages, the night's page and ``longhall history``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .seats import COLOURS, Occupant

Night = dict[str, Any]


def new_night(night_id: int, at: float) -> Night:
    return {"id": night_id, "started": at, "ended": None, "games": []}


def player_entry(seat: Occupant) -> dict[str, Any]:
    """What the night keeps of one seat in one game (never its token)."""
    return {
        "player": seat.player,
        "name": seat.name,
        "colour": seat.colour,
        "symbol": COLOURS.get(seat.colour, "?"),
        "bot": seat.bot if seat.kind == "bot" else None,
    }


def points(totals: Sequence[float], winners: Sequence[int]) -> list[float]:
    """One point per player finished ahead of, half a point per player finished level with; of
    equal totals, a winner finished ahead (the game's own tie-break)."""
    keys = [(total, i in winners) for i, total in enumerate(totals)]
    return [
        sum(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for theirs in keys)
        - 0.5  # oneself: always level
        for mine in keys
    ]


def game_summary(
    game: dict[str, Any], seats: list[Occupant], result: dict[str, Any]
) -> dict[str, Any]:
    """One game of the night as it ended: who played, their totals, the winners and each
    player's points (none for a game ended early)."""
    scores = result.get("scores")
    totals: list[float | None] = [None] * len(seats)
    if isinstance(scores, list):
        for i, score in enumerate(scores[: len(seats)]):
            if isinstance(score, dict) and isinstance(score.get("total"), int | float):
                totals[i] = score["total"]
    finished = result["status"] == "finished"
    earned: list[float] | None = None
    if finished and all(t is not None for t in totals):
        earned = points([float(t or 0) for t in totals], list(result["winners"]))
    return {
        "id": game["id"],
        "game": game["game"],
        "status": result["status"],
        "started": game["started"],
        "finished": game["finished"],
        "players": [player_entry(s) for s in seats],
        "totals": totals,
        "winners": list(result["winners"]) if finished else [],
        "points": earned,
    }


def standings(night: Night, seated: list[Occupant] | None = None) -> list[dict[str, Any]]:
    """The night's standings, best first: each player's points, games played and won, and their
    points after each game of the night (``after``, for the chart; ``None`` before they joined).
    ``seated``: the table's seats now, whose names and colours are the latest."""
    games = night["games"]
    rows: dict[str, dict[str, Any]] = {}
    for g, game in enumerate(games):
        for i, player in enumerate(game["players"]):
            row = rows.get(player["player"])
            if row is None:
                row = rows[player["player"]] = {
                    **player,
                    "seat": None,
                    "points": 0.0,
                    "games": 0,
                    "wins": 0,
                    "after": [None] * len(games),
                }
            row.update({k: player[k] for k in ("name", "colour", "symbol", "bot")})
            row["games"] += 1
            if i in game["winners"]:
                row["wins"] += 1
            if game["points"] is not None:
                row["points"] += game["points"][i]
        for row in rows.values():
            row["after"][g] = row["points"]
    for index, seat in enumerate(seated or []):
        row = rows.get(seat.player)
        if row is not None:
            row.update(player_entry(seat), seat=index)
    ordered = sorted(
        rows.values(), key=lambda r: (-r["points"], -r["wins"], (r["name"] or "").lower())
    )
    place = 0
    for n, row in enumerate(ordered):
        if n == 0 or row["points"] != ordered[n - 1]["points"]:
            place = n + 1
        row["place"] = place
    return ordered


def facts(night: Night, table: list[dict[str, Any]]) -> dict[str, Any]:
    """A few facts of the night: its winners, the longest game, the closest finish and the best
    game a player had (the widest lead a winner finished with)."""
    counted = [g for g in night["games"] if g["points"] is not None]
    out: dict[str, Any] = {"winners": [], "longest": None, "closest": None, "best": None}
    if table and counted:
        top = table[0]["points"]
        out["winners"] = [r["player"] for r in table if r["points"] == top]
    timed = [g for g in night["games"] if g["finished"] is not None]
    if timed:
        longest = max(timed, key=lambda g: g["finished"] - g["started"])
        out["longest"] = {
            "game": longest["id"],
            "seconds": longest["finished"] - longest["started"],
        }
    closest: tuple[float, dict[str, Any]] | None = None
    best: tuple[float, dict[str, Any]] | None = None
    for game in counted:
        totals = sorted((t for t in game["totals"] if t is not None), reverse=True)
        if len(totals) < 2:
            continue
        gap = totals[0] - totals[1]
        if closest is None or gap < closest[0]:
            closest = (gap, {"game": game["id"], "gap": gap})
        if game["winners"] and (best is None or gap > best[0]):
            winner = game["players"][game["winners"][0]]["player"]
            best = (gap, {"game": game["id"], "player": winner, "lead": gap})
    out["closest"] = None if closest is None else closest[1]
    out["best"] = None if best is None else best[1]
    return out


def shown(night: Night | None, seated: list[Occupant]) -> dict[str, Any] | None:
    """The night as every screen may see it: its games, its standings and its facts (all of it
    public; the seats' tokens are never part of a night)."""
    if night is None:
        return None
    table = standings(night, seated if night["ended"] is None else None)
    return {**night, "standings": table, "facts": facts(night, table)}
