"""Choosing among candidate moves by determinized play-outs, within a budget of play-outs.

An expert bot sees only its seat's view. For one decision it draws ``samples`` worlds consistent
with that view (a *determinization*: the hidden cards, barrels and chests dealt again from what is
still unseen), plays each candidate on in each world with a good default policy and keeps the
candidate whose play-outs end best on average. The same worlds serve every candidate (common
random numbers: a lucky deal helps all candidates alike, so it does not decide between them).

The budget is counted in play-outs, not seconds, so a game with bots replays exactly from its
seed on any machine. It is spent by successive halving (Karnin, Koren and Somekh, 2013): every
candidate gets a few play-outs, the better half gets more, and so on, so most of the budget goes to
telling the good moves apart rather than confirming the bad ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

C = TypeVar("C")


def successive_halving(
    candidates: Sequence[C], simulate: Callable[[int, int], float], budget: int
) -> int:
    """Return the index of the best candidate; ``simulate(i, k)`` plays candidate ``i`` in world
    ``k`` and returns its value. At most ``budget`` calls (at least one per candidate)."""
    n = len(candidates)
    if n == 1:
        return 0
    alive = list(range(n))
    totals = [0.0] * n
    played = 0  # worlds each surviving candidate has been played in
    stages = max(1, math.ceil(math.log2(n)))
    per_stage = max(n, budget // stages)
    spent = 0
    while True:
        if len(alive) <= 2:  # the last stage: the rest of the budget to the final two
            more = max(1, (budget - spent) // len(alive))
        else:
            more = max(1, min(per_stage, budget - spent) // len(alive))
        for k in range(played, played + more):
            for i in alive:
                totals[i] += simulate(i, k)
        played += more
        spent += more * len(alive)
        if len(alive) <= 2 or spent >= budget:
            break
        # ties go to the earlier candidate (candidates come in the default policy's order)
        alive = sorted(alive, key=lambda i: (-totals[i], i))[: math.ceil(len(alive) / 2)]
    return min(alive, key=lambda i: (-totals[i], i))


_budget: list[int] = []  # the host's setting, if any (see ``set_budget``)
_scale: list[float] = [1.0]  # the board's share of each game's default (see ``set_scale``)


def set_budget(playouts: int | None) -> None:
    """Set the expert bots' play-outs per decision for this process (None: each game's default).

    ``longhall`` sets it from ``$LONGHALL_EXPERT_PLAYOUTS``. A number of play-outs, not seconds,
    so replays stay exact.
    """
    _budget[:] = [playouts] if playouts and playouts > 0 else []


def set_scale(share: float) -> None:
    """Give the expert bots ``share`` of each game's default play-outs (1: all of them): what a
    slower board affords within the time a player waits for a bot (``appliance.board``)."""
    _scale[0] = min(1.0, max(share, 0.0))


def budget(default: int) -> int:
    """The expert bots' play-outs per decision: the process's setting, else ``default`` scaled
    to the board."""
    return _budget[0] if _budget else max(1, round(default * _scale[0]))
