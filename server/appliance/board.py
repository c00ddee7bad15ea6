"""The board Longhall runs on, as its device tree names it, and how much of an expert bot's
default thinking it affords.

An expert bot's budget is a number of play-outs, not seconds, so that a game replays exactly from
its seed. A Raspberry Pi's core does a fraction of the benchmark machine's work, so a decision
takes longer there: at each game's default, 19 decisions in 20 take at most ``P95_HERE`` of that
machine's CPU (docs/performance.md, "On a Pi's budget"). A board whose core cannot play that
within ``WAIT`` gets the share of the default play-outs it can; a Pi 4 and faster play them all.
``$LONGHALL_EXPERT_PLAYOUTS`` still overrides it.
"""

from __future__ import annotations

from pathlib import Path

MODEL = Path("/proc/device-tree/model")

# The part of the benchmark machine's core that each board's core does: estimates from the cores'
# clocks and published single-core benchmarks, not yet measured on the boards themselves
# (docs/pi-setup.md says how to, and how to set the budget by hand); the longest name that
# starts the model's wins.
CORE_SHARE = (
    ("Raspberry Pi 5", 0.5),
    ("Raspberry Pi 4", 0.25),
    ("Raspberry Pi 400", 0.25),
    ("Raspberry Pi Compute Module 4", 0.25),
    ("Raspberry Pi Compute Module 5", 0.5),
    ("Raspberry Pi 3", 0.15),
    ("Raspberry Pi Zero 2", 0.12),
)
# a board the table does not know, if it is a Raspberry Pi at all: the slowest that runs Longhall
UNKNOWN_PI = 0.12
WAIT = 2.0  # seconds a player waits for an expert bot, at most, in 19 decisions of 20
P95_HERE = 0.33  # CPU seconds of that decision at the default, the slowest game (Vikings on Board)


def board_model(path: Path = MODEL) -> str | None:
    """The board's model as its device tree names it ("Raspberry Pi 4 Model B Rev 1.4"), or None
    off a board with a device tree (a laptop, this project's CI)."""
    try:
        return path.read_bytes().rstrip(b"\0").decode("ascii", "replace").strip() or None
    except OSError:
        return None


def core_share(model: str | None) -> float:
    """The share of the benchmark machine's core that ``model``'s core is (1 off a Raspberry
    Pi: a machine Longhall knows nothing of is taken as fast)."""
    if model is None or not model.startswith("Raspberry Pi"):
        return 1.0
    for name, share in sorted(CORE_SHARE, key=lambda entry: -len(entry[0])):
        if model.startswith(name):
            return share
    return UNKNOWN_PI


def expert_share(model: str | None) -> float:
    """The share of their default play-outs the expert bots play on ``model``."""
    return min(1.0, round(core_share(model) * WAIT / P95_HERE, 2))
