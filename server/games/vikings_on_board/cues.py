"""What the table's lights show of Vikings on Board, from its public view alone.

One viking at a time (V2.1): the seat whose turn it is, and a seat the game asks during a sailing,
blinks fast; the others are steady. The phase indicator is green during a turn, red while a
drakkar sails and its chests are shared, white while the sailing's reckoning is shown and NEXT
hands out the chests. No beeps. docs/pi-setup.md tells it for the people at the table.
"""

from __future__ import annotations

from typing import Any

from ..cues import Cues, Indicator, Light

INDICATOR: dict[str, Indicator] = {
    "turn": "act",
    "act": "act",
    "bonus": "act",
    "sail": "contest",
    "reckon": "next",  # a sailing's reckoning is shown: NEXT hands out the chests
    "share": "contest",
    "over": "over",
}
TURNS = frozenset({"turn", "act", "bonus", "sail", "share"})


def lights(public: dict[str, Any]) -> tuple[list[Light], Indicator]:
    phase, active = public["phase"], set(public["active"])
    turn = phase in TURNS
    seats = [Light.FAST if turn and i in active else Light.ON for i in range(len(public["seats"]))]
    return seats, INDICATOR.get(phase, "act")


CUES = Cues(lights)
