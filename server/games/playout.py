"""The fast path a search spends its play-outs on: thinking copies and a lean ``apply``.

The full ``apply`` checks an action's JSON shape, who sent it and whether its phase takes it, then
writes the public log: all needed for what a phone sends, none for an action the engine produced
itself in a copy made for thinking. Here:

- :func:`thinking_copy` is a cheap clone: the settings (never changed by the rules, and large: the
  material deck, the components) are shared, the log is not copied and records nothing, every
  other field is copied in one pickle round trip.
- :func:`fast_apply` hands an action straight to its phase's handler. The handlers still check the
  rules (they raise :class:`IllegalAction` before changing anything), so a wrong action is still
  refused; only the shape check and the routing checks are skipped.
- :func:`playout` plays a copy to the end (or to a stop condition) with a policy.

``tests/games/test_playout.py`` plays the same seeds on the full engine and on this path with the
expert bots' roll-out policy and compares every state.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any, TypeVar

from .api import Action, Seat
from .phased import PhasedState
from .rng import Rng

S = TypeVar("S", bound=PhasedState)

# A play-out policy: (state, seat, rng) -> an action that seat may take now.
Policy = Callable[[Any, int, Rng], Action]


class NullLog(list):  # type: ignore[type-arg]
    """A log that keeps nothing: a thinking copy needs no public record of its moves."""

    __slots__ = ()

    def append(self, item: Any) -> None:
        """Drop the event."""

    def pop(self, index: Any = -1) -> Any:
        """Take back nothing (an undo takes back its own event)."""
        return None


def thinking_copy(st: S) -> S:
    """Return an independent copy for thinking: shared settings, no log, one pickle round trip."""
    cls = type(st)
    names = [name for name in cls.FIELDS_ORDER if name not in ("config", "rng", "log")]
    values = pickle.loads(
        pickle.dumps([getattr(st, name) for name in names], pickle.HIGHEST_PROTOCOL)
    )
    out = cls.__new__(cls)
    for name, value in zip(names, values, strict=True):
        setattr(out, name, value)
    out.config = st.config  # type: ignore[attr-defined]  # read-only for the rules
    out.rng = Rng(st.rng.state)
    out.log = NullLog()
    return out


def fast_apply(st: PhasedState, seat: Seat, action: Action) -> None:
    """Apply an action the engine produced itself: straight to its phase's handler."""
    phase = st.PHASES[st.phase]
    kind = action["type"]
    handler = phase.handlers[kind] if seat is not None else phase.table_handlers[kind]
    handler(st, seat, action)
    st.version += 1  # type: ignore[misc]  # a slot of every subclass


def table_step(st: PhasedState) -> Action:
    """The table's step when no seat is asked (reveal, next round): its first table action."""
    return {"type": st.PHASES[st.phase].table_actions[0]}


def playout(
    st: PhasedState,
    policies: list[Policy],
    rngs: list[Rng],
    until: Callable[[Any], bool] | None = None,
    limit: int = 100_000,
) -> int:
    """Play ``st`` on with one policy and one rng per seat until it is over (or ``until``).

    Returns the number of actions applied. ``limit`` guards against a policy that undoes forever.
    """
    phases = st.PHASES
    steps = 0
    while st.phase != "over" and steps < limit:
        if until is not None and until(st):
            break
        active = phases[st.phase].actors(st)
        if active:
            seat = active[0]
            fast_apply(st, seat, policies[seat](st, seat, rngs[seat]))
        else:
            fast_apply(st, None, table_step(st))
        steps += 1
    return steps
