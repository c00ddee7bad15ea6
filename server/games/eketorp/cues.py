"""What the table's lights and buzzer show of Eketorp, from its public view alone.

Seat lights: while planning, a seat still planning blinks slowly and one that committed is steady
(R3); while building, the seats still building blink slowly; in a fight, a siege or the sharing,
the seat the game waits for blinks fast. The phase indicator: green while planning, white when
NEXT reveals or moves on, red in the fights, yellow while building, cyan at the round's end.
Three short beeps when the plans are revealed (R4), one longer one when a fight or a siege has its
result (R5). docs/pi-setup.md tells it for the people at the table.
"""

from __future__ import annotations

from typing import Any

from ..cues import Cues, Indicator, Light

INDICATOR: dict[str, Indicator] = {
    "setup": "act",
    "materials": "act",  # the round opens: a material card, then planning
    "planning": "act",
    "reveal": "next",  # everyone committed: press NEXT
    "pick": "contest",
    "swap": "contest",
    "choose": "contest",
    "loot": "contest",
    "sharing": "build",  # stones are shared out, then built with
    "building": "build",
    "round_end": "close",  # press NEXT for the next round
    "over": "over",
}
# steps in which the game waits for one seat at a time (or for the two fighters)
TURNS = frozenset({"materials", "pick", "swap", "choose", "loot", "sharing"})


def lights(public: dict[str, Any]) -> tuple[list[Light], Indicator]:
    phase, active = public["phase"], set(public["active"])
    out = []
    for i, seat in enumerate(public["seats"]):
        if phase == "planning":
            out.append(Light.ON if seat["committed"] else Light.SLOW)
        elif phase == "building":
            out.append(Light.SLOW if i in active else Light.ON)
        elif phase in TURNS:
            out.append(Light.FAST if i in active else Light.ON)
        else:  # reveal, round end: everyone waits for NEXT
            out.append(Light.ON)
    return out, INDICATOR.get(phase, "act")


def beeps(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    out = []
    if after.get("revealed") is not None and (before is None or before.get("revealed") is None):
        out.append("reveal")
    fight = _fight_key(after)
    if fight is not None and fight != (None if before is None else _fight_key(before)):
        out.append("fight")
    return out


def _fight_key(public: dict[str, Any]) -> tuple[Any, ...] | None:
    """Which fight ended last (its loot, added later, does not make it a new one)."""
    last = public.get("last_fight")
    if last is None:
        return None
    return (public["round"], last["kind"], last["field"], last["a"], last["b"])


CUES = Cues(
    lights,
    beeps,
    {
        "reveal": ((0.0, 0.08), (0.16, 0.24), (0.32, 0.40)),  # three short beeps
        "fight": ((0.0, 0.3),),  # one longer beep
    },
)
