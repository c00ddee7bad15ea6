"""Eketorp's expert bot: determinized play-outs from its seat's view, greedy bots as the policy.

For each decision that matters (the round's plan, which fight to pick, whether to swap, which card
to play, which loot to keep, which stone to take) the bot lists a few candidates, deals the hidden
cards again many times from what its seat has not seen (:func:`determinize`), plays every
candidate to the end of the round in each deal with greedy bots in every seat, and keeps the
candidate that ends the round best: its own score against the best other score, a viking in the
field hospital counting against its owner (it misses rounds). See ``games.search``.

It reads the state only through :func:`determinize`, which keeps what the seat's view shows and
deals everything else again from a sorted pool: two states that differ only in other seats'
secrets give the same worlds and so the same decision (``tests/games/test_expert.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, progress_actions
from ..playout import fast_apply, playout, thinking_copy
from ..rng import Rng
from ..search import budget, successive_halving
from . import rules as R
from .bots import (
    GreedyBot,
    _castle_at_risk,
    _castle_value,
    _side_loot,
    _turn,
    field_values,
    fill_fields,
    plan_step,
)

if TYPE_CHECKING:
    from .state import EketorpState

DEFAULT_PLAYOUTS = 96  # play-outs per decision (docs/performance.md: how long they take)
HOSPITAL = {0: 2.5, 1: 1.2}  # what a viking at a station costs its owner: rounds it will miss
MAX_LOOT = 6  # loot options weighed (the greedy bot's best few)


def determinize(st: EketorpState, seat: int, rng: Rng) -> EketorpState:
    """Return a copy in which what ``seat`` cannot see is dealt again from what it has not seen.

    Hidden: the other hands, a card the opponent chose and has not revealed, the draw pile and the
    general discard, the material deck's order, other seats' plans while planning, and the RNG.
    Known: the number of cards in each, and (by elimination) which cards they are all together.
    The pool is sorted before it is dealt, so the deal depends on nothing hidden.
    """
    out = thinking_copy(st)
    others = [s for s in range(out.n) if s != seat]
    pool = out.draw + out.general
    for s in others:
        pool += out.hands[s]
    fight = out.fight
    hidden = []
    if fight is not None and out.phase == "choose":
        for idx, s in enumerate((fight["a"], fight["b"])):
            if s != seat and fight["played"][idx] is not None:
                hidden.append(idx)
                pool.append(fight["played"][idx])
    pool.sort()
    rng.shuffle(pool)
    k = len(out.draw)
    out.draw, pool = pool[:k], pool[k:]
    k = len(out.general)
    out.general, pool = pool[:k], pool[k:]
    for s in others:
        k = len(out.hands[s])
        out.hands[s], pool = sorted(pool[:k]), pool[k:]
    for idx in hidden:
        assert fight is not None
        fight["played"][idx] = pool.pop()
    cards = sorted(out.deck + out.removed)
    rng.shuffle(cards)
    out.removed, out.deck = cards[: len(out.removed)], cards[len(out.removed) :]
    if out.phase == "planning":  # other plans are secret: the play-out plans them afresh
        for s in others:
            out.plans[s] = {}
            out.committed[s] = out.home[s] == 0
    out.rng = Rng(rng.next64())
    return out


def _total(st: EketorpState, seat: int) -> float:
    """A seat's score (R8) less what its vikings in the field hospital will cost it."""
    stones = sum(R.VALUE[s] for stack in st.castles[seat] for s in stack)
    stones += sum(R.VALUE[s] for s in st.beside[seat])
    total = float(stones + st.amulets[seat])
    if st.castle_stones(seat) >= R.CASTLE_FULL:
        total += R.COMPLETE_BONUS
    if st.phase != "over":
        hospital = st.hospital[seat]
        total -= sum(HOSPITAL.get(i, 0.0) * hospital[i] for i in range(len(hospital)))
    return total


def evaluate(st: EketorpState, seat: int) -> float:
    """How well ``seat`` stands: its total against the best other total (a win counts extra)."""
    totals = [_total(st, s) for s in range(st.n)]
    mine = totals[seat]
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    value = mine - best_other
    if st.phase == "over":
        value += 20.0 if mine >= best_other else 0.0
    return value


class RolloutPolicy:
    """The greedy bot for every seat, planning a whole plan at once (the same places, fewer
    plan computations: the greedy bot would work its plan out again at every step)."""

    def __init__(self, greedy: GreedyBot) -> None:
        self.greedy = greedy
        self.plans: dict[tuple[int, int], dict[str, int]] = {}

    def __call__(self, st: EketorpState, seat: int, rng: Rng) -> Action:
        if st.phase == "planning":
            key = (st.round, seat)
            want = self.plans.get(key)
            if want is None:
                want = self.plans[key] = self.greedy._plan(st, seat)
            return plan_step(st, seat, want)
        if st.phase == "building":
            return {"type": "auto_build"}
        return self.greedy.choose(st, seat)


def _round_over(st: EketorpState) -> bool:
    return st.phase == "round_end"


def candidate_plans(st: EketorpState, seat: int) -> list[dict[str, int]]:
    """Plans worth weighing: the greedy plan first, then other numbers of defenders and sieges
    and a plan that leaves the most sought field to the others."""
    free = st.home[seat]
    if free == 0:
        return [{}]
    hand = st.hands[seat]
    strong = sum(1 for c in hand if c >= 5)
    sieges = []
    for owner in range(st.n):
        if owner == seat:
            continue
        lead = _castle_value(st, owner)
        for side in R.SIDES:
            gain = _side_loot(st, owner, side, damage=4 if strong else 2)
            if gain >= 1:
                sieges.append((gain, lead, _turn(st, seat, owner), owner, side))
    sieges.sort(reverse=True)
    siege_fields = [R.siege_field(owner, side) for *_, owner, side in sieges]
    out = [GreedyBot(0)._plan(st, seat)]
    risk = _castle_at_risk(st, seat) >= 2 or st.castle_stones(seat) >= 4
    for defenders in (0, 1, 2):
        for n_sieges in (0, 1, 2):
            for skip_top in (False, True):
                if defenders + n_sieges >= free or (defenders and not st.castle_stones(seat)):
                    continue
                if not risk and defenders == 2:
                    continue
                plan = _fields_plan(st, free, defenders, siege_fields[:n_sieges], skip_top=skip_top)
                if plan not in out:
                    out.append(plan)
    return out


def _fields_plan(
    st: EketorpState, free: int, defenders: int, sieges: list[str], skip_top: bool
) -> dict[str, int]:
    plan: dict[str, int] = {}
    if defenders:
        plan["castle"] = defenders
        free -= defenders
    for fld in sieges:
        plan[fld] = 1
        free -= 1
    values = field_values(st)
    top = max(R.FIELDS, key=lambda f: (values[f][0] if values[f] else 0, sum(values[f])))
    return fill_fields(st, plan, free, values, skip=top if skip_top else None)


class ExpertBot:
    """Weighs a few candidate moves by play-outs from its seat's view (see the module's doc)."""

    def __init__(self, seed: int, playouts: int | None = None) -> None:
        self.seed = seed
        self.playouts = max(1, playouts or budget(DEFAULT_PLAYOUTS))
        self.greedy = GreedyBot(seed)
        self._last: tuple[tuple[int, int, str, int], Action] | None = None
        self.plans: dict[tuple[int, int], dict[str, int]] = {}

    def _rng(self, st: EketorpState, seat: int, what: str) -> Rng:
        """A generator for one decision, from public facts only: the same decision in a replay."""
        return Rng.from_seed(self.seed * 1_000_003 + st.round * 4099 + seat, f"{what}:{st.version}")

    def choose(self, st: EketorpState, seat: int) -> Action:
        """Return this seat's move. Asked again about the same position it answers at once: the
        table asks twice (whether a bot moves, then again just before it submits)."""
        key = (st.version, st.round, st.phase, seat)
        if self._last is not None and self._last[0] == key:
            return dict(self._last[1])
        action = self._decide(st, seat)
        self._last = (key, action)
        return dict(action)

    def _decide(self, st: EketorpState, seat: int) -> Action:
        legal = st.legal_actions(seat)
        kinds = {a["type"] for a in legal}
        if "place" in kinds or "commit" in kinds:
            key = (st.round, seat)
            want = self.plans.get(key)
            if want is None:
                want = self.plans[key] = self._choose_plan(st, seat)
            return plan_step(st, seat, want)
        if "auto_build" in kinds or "done" in kinds or "card_done" in kinds:
            return self.greedy.choose(st, seat)
        options = _dedupe(progress_actions(legal))
        if "loot" in kinds:
            fight = st.fight
            castle = st.castles[fight["b"]] if fight else []
            looted = [a for a in options if a["type"] == "loot"]
            looted.sort(
                key=lambda a: (
                    -R.VALUE[a["keep"]],
                    -sum(R.VALUE[castle[s - 1][lvl]] for s, lvl in a["take"]),
                )
            )
            options = [*looted[:MAX_LOOT], {"type": "skip_loot"}]
        if len(options) == 1:
            return options[0]
        # the greedy bot's own choice first: ties go to it
        first = self.greedy.choose(st, seat)
        if first in options:
            options.remove(first)
            options.insert(0, first)
        return options[self._search(st, seat, options, "act")]

    def _choose_plan(self, st: EketorpState, seat: int) -> dict[str, int]:
        plans = candidate_plans(st, seat)
        if len(plans) == 1:
            return plans[0]
        # a generator for the round, not the step: the same plan whatever the others did so far
        rng = Rng.from_seed(self.seed * 1_000_003 + st.round * 4099 + seat, "plan")
        worlds: list[EketorpState] = []

        def simulate(i: int, k: int) -> float:
            while len(worlds) <= k:
                world = determinize(st, seat, rng)
                world.plans[seat] = {}
                world.committed[seat] = False
                worlds.append(world)
            sim = thinking_copy(worlds[k])
            policy = RolloutPolicy(self.greedy)  # others' plans depend on this world's hands
            policy.plans[(sim.round, seat)] = plans[i]
            return self._finish(sim, seat, policy, k)

        return plans[successive_halving(plans, simulate, self.playouts)]

    def _search(self, st: EketorpState, seat: int, options: list[Action], what: str) -> int:
        rng = self._rng(st, seat, what)
        worlds: list[EketorpState] = []

        def simulate(i: int, k: int) -> float:
            while len(worlds) <= k:
                worlds.append(determinize(st, seat, rng))
            sim = thinking_copy(worlds[k])
            fast_apply(sim, seat, options[i])
            return self._finish(sim, seat, RolloutPolicy(self.greedy), k)

        return successive_halving(options, simulate, self.playouts)

    def _finish(self, sim: EketorpState, seat: int, policy: RolloutPolicy, k: int) -> float:
        rngs = [Rng(k * 31 + s) for s in range(sim.n)]
        playout(sim, [policy] * sim.n, rngs, until=_round_over)
        return evaluate(sim, seat)


def _dedupe(actions: list[Action]) -> list[Action]:
    out: list[Action] = []
    for a in actions:
        if a not in out:
            out.append(a)
    return out


__all__ = ["DEFAULT_PLAYOUTS", "ExpertBot", "determinize", "evaluate"]
