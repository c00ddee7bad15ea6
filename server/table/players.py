"""The players the table remembers: a phone that joined before is offered its name and colour
again at the next night, and the lobby shows its record at this table (nights, and games played
and won per game).

A phone is remembered by an identity its browser keeps (random, never a password, never sent to
anyone else): the table keeps only its hash, beside the player's key in the night's standings.
A player may ask their phone to be forgotten, and the host may make the table forget a player:
the record goes, and the player's name in the nights kept becomes "a former player" (``None``).
"""

from __future__ import annotations

from typing import Any

from .envelope import CommandError
from .seats import hash_token

Players = dict[str, dict[str, Any]]  # by player key


def phone_hash(phone: str) -> str:
    """What the table keeps of a phone's identity (16 to 64 URL-safe characters): its hash."""
    if not 16 <= len(phone) <= 64 or not all(c.isalnum() or c in "-_" for c in phone):
        raise CommandError("bad_phone", "That is not a phone's identity.")
    return hash_token(phone)


def by_phone(players: Players, hashed: str) -> str | None:
    """The key of the player this phone is, if the table remembers it."""
    return next((key for key, p in players.items() if p["phone"] == hashed), None)


def record(player: dict[str, Any]) -> dict[str, Any]:
    """What everyone may see of a remembered player: nights, and games played and won per game."""
    return {
        "nights": len(player["nights"]),
        "games": {game: {"played": n[0], "won": n[1]} for game, n in player["games"].items()},
    }


def count_game(players: Players, summary: dict[str, Any], night_id: int | None) -> None:
    """A game ended: each remembered player in it played it (a game ended early counts for the
    night, not as played), and perhaps won it."""
    for i, entry in enumerate(summary["players"]):
        player = players.get(entry["player"])
        if player is None:
            continue
        if night_id is not None and night_id not in player["nights"]:
            player["nights"] = [*player["nights"], night_id]
        if summary["status"] == "finished":
            played, won = player["games"].get(summary["game"], (0, 0))
            player["games"] = {
                **player["games"],
                summary["game"]: [played + 1, won + (i in summary["winners"])],
            }


def forget_in_night(night: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    """A night with a forgotten player's name taken out of every game ("a former player")."""
    if night is None:
        return None
    games = [
        {
            **game,
            "players": [{**p, "name": None} if p["player"] == key else p for p in game["players"]],
        }
        for game in night["games"]
    ]
    return {**night, "games": games}


def places_of(night: dict[str, Any] | None, key: str) -> dict[int, int]:
    """Where a player sat in each game of a night: game id -> seat index."""
    out: dict[int, int] = {}
    for game in (night or {}).get("games", []):
        for i, p in enumerate(game["players"]):
            if p["player"] == key:
                out[game["id"]] = i
    return out
