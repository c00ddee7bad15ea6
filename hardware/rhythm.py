"""Blinks and beeps as functions of the clock, so one thread can drive every light in step.

gpiozero's own ``blink()`` starts a thread per LED; a Pi Zero 2 W has better things to do. Here
every blinking LED follows one clock, so the whole table blinks in step, and the worker sleeps
until the next edge (or until something happens).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from longhall.server.games.cues import Light, Rhythm

# Blink periods in seconds: half on, half off.
PERIODS = {Light.SLOW: 1.0, Light.FAST: 0.25}


def lit(light: Light, now: float) -> bool:
    """Whether an LED showing ``light`` is on at ``now`` (seconds on the shared clock)."""
    if light is Light.OFF:
        return False
    if light is Light.ON:
        return True
    period = PERIODS[light]
    return (now % period) < period / 2


def next_edge(lights: Iterable[Light], now: float) -> float | None:
    """The next moment any of these lights turns on or off (None: none of them blinks)."""
    edges = []
    for light in set(lights):
        if light in PERIODS:
            half = PERIODS[light] / 2
            edges.append((math.floor(now / half) + 1) * half)
    return min(edges) if edges else None


class Beeper:
    """The buzzer's programme: beeps queued up by cues, played one after another."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []

    def cue(self, rhythm: Rhythm, now: float) -> None:
        """Queue a cue's beeps, after any still playing."""
        start = max([now, *(end + 0.2 for _, end in self.spans)])
        self.spans.extend((start + a, start + b) for a, b in rhythm)

    def sounding(self, now: float) -> bool:
        self.spans = [(a, b) for a, b in self.spans if b > now]
        return any(a <= now < b for a, b in self.spans)

    def next_edge(self, now: float) -> float | None:
        edges = [t for span in self.spans for t in span if t > now]
        return min(edges) if edges else None
