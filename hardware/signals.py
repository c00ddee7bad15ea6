"""What the table's lights show and when the buzzer beeps, from the public view alone.

Pure functions of the message the table display receives (``Table.message_for(None)``): nothing
secret can reach a light. What the table itself is doing looks the same in every game (the lobby,
a game's end, a pause, an empty seat); while a game is played, each seat's light, the phase
indicator's colour and the beeps are the game's own (its ``cues``,
:mod:`longhall.server.games.cues`). docs/pi-setup.md tells it, game by game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from longhall.server.games.cues import Light, Rhythm
from longhall.server.games.registry import GAMES

from .pinmap import MAX_SEATS

# The phase indicator's colours (red, green, blue), each channel fully on or off so that they
# read the same on an RGB LED and on three separate LEDs. Paused: the colour blinks slowly.
COLOURS: dict[str, tuple[int, int, int]] = {
    "lobby": (0, 0, 1),  # blue
    "act": (0, 1, 0),  # green: the players act
    "next": (1, 1, 1),  # white: NEXT reveals or moves on
    "contest": (1, 0, 0),  # red: a fight or an attack waits for its players
    "build": (1, 1, 0),  # yellow
    "close": (0, 1, 1),  # cyan: the round (or the turn) is over; NEXT for the next
    "over": (1, 0, 1),  # magenta
}


@dataclass(frozen=True)
class Signals:
    """Everything the lights show at one moment."""

    seats: tuple[Light, ...]  # one per seat LED, seat 1 first
    phase: str  # a key of COLOURS
    paused: bool = False

    @property
    def indicator(self) -> Light:
        return Light.SLOW if self.paused else Light.ON


def signals(message: dict[str, Any]) -> Signals:
    """What the seat LEDs and the phase indicator show for this public view."""
    table = message["table"]
    game = message.get("game")
    status = table["status"]
    lights = [Light.OFF] * MAX_SEATS
    taken = [i for i, s in enumerate(table["seats"][:MAX_SEATS]) if not s["vacant"]]
    if status != "playing" or game is None:
        winners = set((table.get("result") or {}).get("winners") or ())
        for i in taken:
            lights[i] = Light.SLOW if status == "over" and i in winners else Light.ON
        return Signals(tuple(lights), "over" if status == "over" else "lobby")
    paused = bool(table["paused"])
    own, indicator = GAMES[table["game"]].cues.lights(game["public"])
    for i in taken:
        lights[i] = Light.ON if paused or i >= len(own) else own[i]
    return Signals(tuple(lights), indicator, paused)


def cues(before: dict[str, Any] | None, after: dict[str, Any]) -> list[Rhythm]:
    """The beeps a change from one public view to the next calls for, each as it sounds."""
    if before is None or before["table"]["game_id"] != after["table"]["game_id"]:
        return []  # a first look, or a new game: nothing happened in front of the table
    new = _public(after)
    if new is None:
        return []
    game = GAMES[after["table"]["game"]].cues
    return [game.rhythms[name] for name in game.beeps(_public(before), new)]


def _public(message: dict[str, Any]) -> dict[str, Any] | None:
    game = message.get("game")
    return None if game is None else game["public"]
