"""Eketorp's play-out sampler: one uniformly random legal action, without listing them all.

:func:`sample` draws exactly what :class:`~.bots.RandomBot` draws from the same generator (the
same choices in the same order, counted instead of listed), so a play-out on the fast path and a
game of random bots on the full engine are the same game; ``tests/games/test_playout.py`` checks
that state by state.

:func:`random_playout` plays random bots in whole steps instead (a seat's whole plan, a round's
fights, the sharing, a seat's building), each seat drawing from its own generator exactly what
the random bot draws action by action, and adding one to ``version`` per action a step stands
for: the same game again, without the per-action loop (the same test compares every state after
every whole step). Where a C compiler is at hand, the same whole steps run compiled
(:mod:`.native`, some ten times faster, the same draws and the same states); without one, the
Python steps below play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..api import Action, progress_actions
from ..playout import NullLog, fast_apply, table_step
from ..rng import Rng
from . import native, planning
from . import rules as R
from .building import auto_build, build, done, take
from .fights import (
    can_swap,
    exchange_hand,
    fight_choices,
    keep,
    loot,
    loot_options,
    play,
    settle,
    skip_loot,
    swap,
)

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
        choices = fight_choices(st, seat)
        fld, other = choices[rng.below(len(choices))]
        if other < 0:
            return {"type": "siege", "field": fld}
        return {"type": "fight", "field": fld, "opponent": other}
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


# -- whole steps: a random play-out without the per-action loop ------------------------------------

_M64 = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15


def _below(rng: Rng, n: int) -> int:
    """``rng.below(n)`` written out (SplitMix64, the same draws): the play-out's hottest call."""
    limit = _TWO64 - _TWO64 % n
    while True:
        rng.state = z = (rng.state + _GOLDEN) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        z ^= z >> 31
        if z < limit:
            return z % n


def _skip(rng: Rng) -> None:
    """``rng.next64()`` for a draw whose value does not matter (one choice only)."""
    rng.state = (rng.state + _GOLDEN) & _M64


def _plan(st: EketorpState, rngs: list[Rng]) -> None:
    """The first seat still planning places all its free vikings at random, then commits."""
    seat = st.committed.index(False)
    rng = rngs[seat]
    plan = st.plans[seat]
    free = st.home[seat] - sum(plan.values())
    if free > 0:
        # R3.1: one viking per siege field; the rest may stack
        dests = [d for d in R.destinations(st.n, seat) if not (d in plan and d[0] == "s")]
        for _ in range(free):
            dest = dests[_below(rng, len(dests))]
            plan[dest] = plan.get(dest, 0) + 1
            if dest[0] == "s":
                dests.remove(dest)
        st.version += free
    _skip(rng)  # the random bot draws even from one choice
    planning.commit(st, seat, _COMMIT)
    st.version += 1


def _fights(st: EketorpState, rngs: list[Rng]) -> None:
    """Every fight and siege of the round at random, each whole: the pick, the swaps, both
    cards, the result, the loot (the same draws as ``sample`` action by action)."""
    if st.phase != "pick":  # a play-out from the middle of a fight: finish it action by action
        _finish_fight(st, rngs)
        return
    n = st.n
    options = fight_choices(st, st.turn)
    while True:
        if _fight(st, rngs, st.turn, options):  # looted: the handlers went on to the next pick
            if st.phase != "pick":
                return
            options = fight_choices(st, st.turn)
            continue
        # as ``enter_pick``: the next seat clockwise with a fight, its fights listed at once
        turn = st.turn
        for k in range(n):
            seat = (turn + k) % n
            options = fight_choices(st, seat)
            if options:
                st.turn = seat
                break
        else:
            st.goto("sharing")
            return


def _fight(st: EketorpState, rngs: list[Rng], a: int, options: list[tuple[str, int]]) -> bool:
    """One whole fight or siege that ``a`` picks from ``options``; whether it was looted (then the
    game is in its next phase already, else the next pick is still to be found)."""
    fld, b = options[_below(rngs[a], len(options))]
    siege = b < 0
    if siege:
        castle_side = R.parse_siege(fld)
        assert castle_side is not None
        b, side = castle_side
        defended = st.board[R.CASTLE_FIELDS[b]][b] > 0  # R5.15, R5.16
    else:
        defended = True
    actions = 3  # the pick and both cards
    # R5.8: the initiator, then the opponent, may swap as long as they can pay; the owner of a
    # castle without defender is not asked (see ``enter_swap``)
    swaps = [0, 0]
    for idx, seat in ((0, a), (1, b)):
        if idx and not defended:
            break
        rng = rngs[seat]
        while can_swap(st, seat):
            actions += 1
            if _below(rng, 2):
                break  # keep
            exchange_hand(st, seat)
            swaps[idx] += 1
    hands = st.hands
    cards = sorted(set(hands[a]))
    card_a = cards[_below(rngs[a], len(cards))]
    hands[a].remove(card_a)
    cards = sorted(set(hands[b]))
    card_b = cards[_below(rngs[b], len(cards))]
    hands[b].remove(card_b)
    winner = settle(st, siege, fld, a, b, defended, card_a, card_b, public=False)
    st.version += actions
    if siege and winner == a:  # R5.17: the loot
        castle = st.castles[b]
        damage = abs(card_a - (card_b if defended else 0))
        if any(
            castle[site - 1] and R.VALUE[castle[site - 1][-1]] <= damage
            for site in R.SIDE_SITES[side]
        ):  # as ``can_loot``: a stone within the damage, so the besieger chooses
            st.fight = {  # as ``fights.loot`` finds the fight
                "kind": "siege",
                "field": fld,
                "a": a,
                "b": b,
                "defended": defended,
                "swapper": 2,
                "swaps": swaps,
                "played": [card_a, card_b],
            }
            options_loot = loot_options(st)
            k = _below(rngs[a], len(options_loot) + 1)
            st.version += 1
            if k < len(options_loot):
                loot(st, a, options_loot[k])  # on to the next pick
                return True
            st.fight = None
        # nothing taken (``_after_loot``; the public record aside: a thinking copy keeps none)
        assert st.last_fight is not None
        st.last_fight["loot"] = {"removed": [], "kept": None}
    st.turn = (a + 1) % st.n
    return False


def _finish_fight(st: EketorpState, rngs: list[Rng]) -> None:
    """The rest of a fight already under way, action by action through the handlers."""
    while st.phase == "swap":
        fight = st.fight
        assert fight is not None
        seat = fight["a"] if fight["swapper"] == 0 else fight["b"]
        if _below(rngs[seat], 2) == 0:
            swap(st, seat, _SWAP)
        else:
            keep(st, seat, _KEEP)
        st.version += 1
    while st.phase == "choose":
        fight = st.fight
        assert fight is not None
        seat = fight["a"] if fight["played"][0] is None else fight["b"]
        cards = sorted(set(st.hands[seat]))
        play(st, seat, {"type": "play", "card": cards[_below(rngs[seat], len(cards))]})
        st.version += 1
    if st.phase == "loot":
        assert st.fight is not None
        seat = st.fight["a"]
        options = loot_options(st)
        k = _below(rngs[seat], len(options) + 1)
        if k < len(options):
            loot(st, seat, options[k])
        else:
            skip_loot(st, seat, _SKIP_LOOT)
        st.version += 1


def _share(st: EketorpState, rngs: list[Rng]) -> None:
    """Every choice of stone while sharing, at random."""
    while st.phase == "sharing":
        share = st.share
        assert share is not None
        seat = share["turn"]
        fld = share["field"]
        stones = st.fields[fld]
        kinds = [s for s in R.STONES if stones[s]]
        take(
            st, seat, {"type": "take", "field": fld, "stone": kinds[_below(rngs[seat], len(kinds))]}
        )
        st.version += 1


def _build(st: EketorpState, rngs: list[Rng]) -> None:
    """The first seat still building builds at random until it confirms."""
    seat = st.done.index(False)
    rng = rngs[seat]
    castle = st.castles[seat]
    while not st.done[seat]:
        st.version += 1
        carry = st.carry[seat]  # a full castle puts the stones beside it: a new list
        if not carry:
            _skip(rng)
            done(st, seat, _DONE)
            return
        carried = [s for s in R.STONES if s in carry]
        sites = [i for i, stack in enumerate(castle, 1) if len(stack) < R.STACK_MAX]
        choices = len(carried) * len(sites)
        k = _below(rng, choices + 1)
        if k == choices:
            auto_build(st, seat, _AUTO_BUILD)
            return
        build(
            st,
            seat,
            {"type": "build", "stone": carried[k // len(sites)], "site": sites[k % len(sites)]},
        )


_MID_FIGHT = ("swap", "choose", "loot")

_STEPS = {
    "planning": _plan,
    "pick": _fights,
    "swap": _fights,
    "choose": _fights,
    "loot": _fights,
    "sharing": _share,
    "building": _build,
}


def step(st: EketorpState, rngs: list[Rng]) -> None:
    """Play one whole step at random: a seat's plan, the round's fights, the sharing, a seat's
    building, or the table's step. Each seat draws from its own generator exactly what the
    random bot draws action by action, so the game is the same as ``sample`` action by action."""
    whole = _STEPS.get(st.phase)
    if whole is not None:
        whole(st, rngs)
        return
    active = st.PHASES[st.phase].actors(st)
    if active:  # the physical deck's entry: action by action
        seat = active[0]
        fast_apply(st, seat, sample(st, seat, rngs[seat]))
    else:  # reveal, next round
        fast_apply(st, None, table_step(st))


def random_playout(
    st: EketorpState, rngs: list[Rng], until: Callable[[EketorpState], bool] | None = None
) -> None:
    """Play ``st`` on with random bots (one generator per seat) until it is over (or ``until``,
    checked between whole steps: a round's end, say). Only in a thinking copy: a whole fight
    keeps no public record of its start. The compiled steps play when they can (all at once
    without ``until``)."""
    if not isinstance(st.log, NullLog):
        raise ValueError("a random play-out runs in a thinking copy (playout.thinking_copy)")
    while st.phase != "over":
        if until is not None and until(st):
            return
        # the compiled steps start between fights; a fight under way is finished here first
        compiled = st.phase not in _MID_FIGHT and native.playout(st, rngs, 1 if until else -1)
        if not compiled:
            step(st, rngs)
