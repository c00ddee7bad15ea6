"""What the table's lights show and when the buzzer beeps, from the public view alone.

Pure functions of the message the table display receives (``Table.message_for(None)``): nothing
secret can reach a light. The behaviour is documented, table by table, in docs/pi-setup.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .pinmap import MAX_SEATS


class Light(Enum):
    """How one LED shows a seat (or the phase)."""

    OFF = "off"  # an empty seat
    ON = "on"  # steady: committed, done, or simply at the table
    SLOW = "slow"  # slow blink: still planning (or building); a winner at the end
    FAST = "fast"  # fast blink: the game waits for this seat now (a fight, a turn)


# Phases of Eketorp grouped into what the phase indicator shows.
PHASE_GROUPS = {
    "setup": "planning",
    "materials": "planning",  # the round opens: a material card, then planning
    "planning": "planning",
    "reveal": "reveal",  # everyone committed: press NEXT
    "pick": "fights",
    "swap": "fights",
    "choose": "fights",
    "loot": "fights",
    "sharing": "building",  # stones are shared out, then built with
    "building": "building",
    "round_end": "round_end",  # press NEXT for the next round
    "over": "over",
    # Vikings on Board: one viking at a time (green), a drakkar sailing (red)
    "turn": "planning",
    "act": "planning",
    "bonus": "planning",
    "sail": "fights",
    "reckon": "reveal",  # a sailing shown step by step: press NEXT (white)
    "share": "fights",
}

# The phase indicator's colours (red, green, blue), each channel fully on or off so that they
# read the same on an RGB LED and on three separate LEDs. Paused: the colour blinks slowly.
COLOURS: dict[str, tuple[int, int, int]] = {
    "lobby": (0, 0, 1),  # blue
    "planning": (0, 1, 0),  # green
    "reveal": (1, 1, 1),  # white
    "fights": (1, 0, 0),  # red
    "building": (1, 1, 0),  # yellow
    "round_end": (0, 1, 1),  # cyan
    "over": (1, 0, 1),  # magenta
}

# Vikings Gone Wild's phases on the indicator: the turn's own colours, white where NEXT moves on.
WILD_GROUPS = {
    "setup": "planning",
    "missions": "planning",  # each player enters their first missions
    "production": "reveal",  # press NEXT
    "draw": "reveal",  # a mission may be drawn, then NEXT
    "players": "planning",  # one player's turn after another
    "defend": "fights",  # an attack waits for the defender
    "storage": "building",
    "end": "round_end",
    "bonus": "planning",
    "tiebreak": "fights",
    "over": "over",
}

# Steps in which the game waits for one seat at a time (or for the two fighters).
TURNS = frozenset({"materials", "pick", "swap", "choose", "loot", "sharing"}) | {
    "turn",  # Vikings on Board: V2.1, one viking at a time; then its action, a sailing
    "act",
    "bonus",
    "sail",
    "share",
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

    public = game["public"]
    phase = public["phase"]
    active = set(public["active"])
    paused = bool(table["paused"])
    seats = public["seats"]
    if table.get("game") == "vikings_gone_wild":
        return _wild(public, taken, lights, paused)
    for i in taken:
        if i >= len(seats) or paused:
            lights[i] = Light.ON
        elif phase == "planning":
            lights[i] = Light.ON if seats[i]["committed"] else Light.SLOW
        elif phase == "building":
            lights[i] = Light.SLOW if i in active else Light.ON
        elif phase in TURNS:
            lights[i] = Light.FAST if i in active else Light.ON
        else:  # reveal, round end: everyone waits for NEXT
            lights[i] = Light.ON
    return Signals(tuple(lights), PHASE_GROUPS.get(phase, "planning"), paused)


def _wild(public: dict[str, Any], taken: list[int], lights: list[Light], paused: bool) -> Signals:
    """Vikings Gone Wild: in the players' phase only the player whose turn it is is lit (W2.4);
    during an attack the defender's light blinks fast beside it (W5.2); where several players
    answer (missions, storage, the bonus cards) those the game waits for blink slowly; where
    only NEXT moves on, every seat is on. (The game over is the table's, as in every game.)"""
    phase, active, current = public["phase"], set(public["active"]), public["current"]
    attack = public.get("attack")
    for i in taken:
        if i >= len(public["seats"]) or paused:
            lights[i] = Light.ON
        elif phase in ("players", "defend"):
            defender = attack is not None and attack["target"] == i
            lights[i] = Light.FAST if defender else Light.ON if i == current else Light.OFF
        else:
            lights[i] = Light.SLOW if i in active else Light.ON
    return Signals(tuple(lights), WILD_GROUPS.get(phase, "planning"), paused)


def cues(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """The beeps a change from one public view to the next calls for: "reveal", "fight"; in
    Vikings Gone Wild "favour" (a favour space reached, W8.1) and "end_mark" (W9.3)."""
    if before is None or before["table"]["game_id"] != after["table"]["game_id"]:
        return []  # a first look, or a new game: nothing happened in front of the table
    old, new = _public(before), _public(after)
    if new is None:
        return []
    if after["table"].get("game") == "vikings_gone_wild":
        return _wild_cues(old, new)
    out = []
    if new.get("revealed") is not None and (old is None or old.get("revealed") is None):
        out.append("reveal")
    fight = _fight_key(new)
    if fight is not None and fight != (None if old is None else _fight_key(old)):
        out.append("fight")
    return out


def _public(message: dict[str, Any]) -> dict[str, Any] | None:
    game = message.get("game")
    return None if game is None else game["public"]


def _fight_key(public: dict[str, Any]) -> tuple[Any, ...] | None:
    """Which fight ended last (its loot, added later, does not make it a new one)."""
    last = public.get("last_fight")
    if last is None:
        return None
    return (public["round"], last["kind"], last["field"], last["a"], last["b"])


def _wild_cues(old: dict[str, Any] | None, new: dict[str, Any]) -> list[str]:
    """A beep for each player who reached a favour space (5, 12, 20; W8.1), even defending, and
    a longer one when someone reaches the end mark (W9.3)."""
    out = []
    before = {s["seat"]: set(s["reached"]) for s in old["seats"]} if old else {}
    for seat in new["seats"]:
        if set(seat["reached"]) - before.get(seat["seat"], set()):
            out.append("favour")
    if new["last_turn"] and not (old and old["last_turn"]):
        out.append("end_mark")
    return out
