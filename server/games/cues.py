"""What the table's lights and buzzer show of a game being played, from its public view alone.

Each game declares its :class:`Cues`: a light for each seat and the phase indicator's colour, the
beeps a change calls for, and how each beep sounds. They read only the public view, so nothing
secret can reach a light. The hardware adapter (``hardware/``) does the rest for every game: the
lobby, the end of a game, a paused game, empty seats.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from .api import JSON


class Light(Enum):
    """How one LED shows a seat (or the phase)."""

    OFF = "off"  # an empty seat
    ON = "on"  # steady: committed, done, or simply at the table
    SLOW = "slow"  # slow blink: still planning (or building); a winner at the end
    FAST = "fast"  # fast blink: the game waits for this seat now (a fight, a turn)


# The phase indicator's colours, named by what the table is doing (docs/pi-setup.md): the players
# act (plan, take their turns), the table waits for NEXT, a contest (a fight, an attack) waits
# for its players, they build (or share, or store), a round or a turn closes, the game is over.
Indicator = Literal["act", "next", "contest", "build", "close", "over"]

# A beep programme: (start, end) seconds from the moment of the cue.
Rhythm = tuple[tuple[float, float], ...]


def _no_beeps(before: JSON | None, after: JSON) -> list[str]:
    return []


@dataclass(frozen=True)
class Cues:
    """A game's lights and beeps, as pure functions of its public view."""

    # the public view -> each of the game's seats' light, and the phase indicator's colour
    lights: Callable[[JSON], tuple[list[Light], Indicator]]
    # the public views before and after a change (before: None at a game's first look) -> the
    # names of the beeps it calls for, each one of ``rhythms``
    beeps: Callable[[JSON | None, JSON], list[str]] = _no_beeps
    rhythms: Mapping[str, Rhythm] = field(default_factory=dict)
