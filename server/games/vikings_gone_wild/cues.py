"""What the table's lights and buzzer show of Vikings Gone Wild, from its public view alone.

The start player's light blinks fast while they lay out the bonus cards (W1.3). In the players'
phase only the player whose turn it is is lit (W2.4); during an attack the
defender's light blinks fast beside it (W5.2); where several players answer (missions, storage,
the bonus cards) those the game waits for blink slowly; where only NEXT moves on, every seat is
on. Two beeps when a player reaches a favour space (W8.1), even defending, and a long one when
someone reaches the end mark (W9.3). docs/pi-setup.md tells it for the people at the table.
"""

from __future__ import annotations

from typing import Any

from ..cues import Cues, Indicator, Light

INDICATOR: dict[str, Indicator] = {
    "setup": "act",
    "table_bonus": "act",  # the start player lays out the bonus cards
    "missions": "act",  # each player enters their first missions
    "production": "next",  # press NEXT
    "draw": "next",  # a mission may be drawn, then NEXT
    "players": "act",  # one player's turn after another
    "defend": "contest",  # an attack waits for the defender
    "storage": "build",
    "end": "close",
    "bonus": "act",
    "tiebreak": "contest",
    "over": "over",
}


def lights(public: dict[str, Any]) -> tuple[list[Light], Indicator]:
    phase, active, current = public["phase"], set(public["active"]), public["current"]
    attack = public.get("attack")
    out = []
    for i in range(len(public["seats"])):
        if phase in ("players", "defend"):
            defender = attack is not None and attack["target"] == i
            out.append(Light.FAST if defender else Light.ON if i == current else Light.OFF)
        elif phase == "table_bonus":  # the game waits for the start player alone
            out.append(Light.FAST if i in active else Light.ON)
        else:
            out.append(Light.SLOW if i in active else Light.ON)
    return out, INDICATOR.get(phase, "act")


def beeps(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    out = []
    reached = {s["seat"]: set(s["reached"]) for s in before["seats"]} if before else {}
    for seat in after["seats"]:
        if set(seat["reached"]) - reached.get(seat["seat"], set()):
            out.append("favour")
    if after["last_turn"] and not (before and before["last_turn"]):
        out.append("end_mark")
    return out


CUES = Cues(
    lights,
    beeps,
    {
        "favour": ((0.0, 0.12), (0.24, 0.36)),  # two beeps: a divine favour to take
        "end_mark": ((0.0, 0.8),),  # one long beep: this turn is the last
    },
)
