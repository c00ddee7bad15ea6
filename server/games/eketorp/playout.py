"""Eketorp's play-out sampler: one uniformly random legal action, without listing them all.

:func:`sample` draws exactly what :class:`~.bots.RandomBot` draws from the same generator (the
same choices in the same order, counted instead of listed), so a play-out on the fast path and a
game of random bots on the full engine are the same game; ``tests/games/test_playout.py`` checks
that state by state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, progress_actions
from ..rng import Rng
from . import rules as R
from .fights import fight_options, loot_options

if TYPE_CHECKING:
    from .state import EketorpState

_COMMIT: Action = {"type": "commit"}
_SWAP: Action = {"type": "swap"}
_KEEP: Action = {"type": "keep"}
_AUTO_BUILD: Action = {"type": "auto_build"}
_DONE: Action = {"type": "done"}
_SKIP_LOOT: Action = {"type": "skip_loot"}


def sample(st: EketorpState, seat: int, rng: Rng) -> Action:
    """Return one legal action for ``seat``, drawn as the random bot draws it."""
    phase = st.phase
    if phase == "planning":
        plan = st.plans[seat]
        free = st.home[seat] - sum(plan.values())
        if free <= 0:
            rng.next64()  # the random bot draws even from one choice
            return dict(_COMMIT)
        dests = [d for d in R.destinations(st.n, seat) if not (d in plan and d[0] == "s")]
        return {"type": "place", "to": dests[rng.below(len(dests))]}
    if phase == "building":
        carry = st.carry[seat]
        if not carry:
            rng.next64()
            return dict(_DONE)
        carried = [s for s in R.STONES if s in carry]
        sites = [i for i, stack in enumerate(st.castles[seat], 1) if len(stack) < R.STACK_MAX]
        k = rng.below(len(carried) * len(sites) + 1)
        if k == len(carried) * len(sites):
            return dict(_AUTO_BUILD)
        return {"type": "build", "stone": carried[k // len(sites)], "site": sites[k % len(sites)]}
    if phase == "pick":
        return rng.choice(fight_options(st, seat))
    if phase == "swap":
        return dict(_SWAP) if rng.below(2) == 0 else dict(_KEEP)
    if phase == "choose":
        cards = sorted(set(st.hands[seat]))
        return {"type": "play", "card": cards[rng.below(len(cards))]}
    if phase == "sharing":
        assert st.share is not None
        fld = st.share["field"]
        stones = st.fields[fld]
        kinds = [s for s in R.STONES if stones[s]]
        return {"type": "take", "field": fld, "stone": kinds[rng.below(len(kinds))]}
    if phase == "loot":
        options = loot_options(st)
        k = rng.below(len(options) + 1)
        return options[k] if k < len(options) else dict(_SKIP_LOOT)
    return rng.choice(progress_actions(st.legal_actions(seat)))  # the physical deck's entry
