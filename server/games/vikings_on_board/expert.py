"""Vikings on Board's expert bot: determinized play-outs from its seat's view, greedy policy.

For each decision with a choice the bot lists a few candidates (every building; for a building's
steps, the first steps of the greedy bot's best few plans), deals what it cannot see again many
times from what is still unseen (:func:`determinize`: other seats' barrel values, the chests
behind other shields and in the warehouse piles), plays every candidate on in each world with
the greedy bot in every seat (every building weighed, as the greedy bot does: a building drawn at
random instead made the play-outs too unlike real play to beat greedy bots with 3 or 4 players)
to the end of the turn (to the end of the game once few drakkars are left), and keeps the
candidate whose worlds end best: its score plus what the harbour promises it (the greedy bot's
reckoning of each drakkar in port), against the best other seat's. See ``games.search``.

Two states that differ only in other seats' secrets give it the same worlds and so the same
decision (``tests/games/test_expert.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, progress_actions
from ..playout import fast_apply, playout, thinking_copy
from ..rng import Rng
from ..search import budget, successive_halving
from . import rules as R
from .bots import FIRST_PLAYER, GreedyBot, Harbour, _rank, _share, _taken, _weight
from .turn import can_act, exchangeable_pieces, movable_pieces, open_drakkars

if TYPE_CHECKING:
    from .state import VikingsState

DEFAULT_PLAYOUTS = 48  # play-outs per decision (docs/performance.md: how long they take)
HORIZON = 1  # turns played on in each world
ENDGAME = 3  # drakkars left in port from which the worlds are played to the end
MAX_CANDIDATES = 6  # a building's steps weighed (the greedy bot's best few)
WIN = 10.0  # a won game, over and above the margin
MEAN_WEIGHT = 0.0  # the others' mean against their best, in the margin


def determinize(st: VikingsState, seat: int, rng: Rng) -> VikingsState:
    """Return a copy in which what ``seat`` cannot see is dealt again from what it has not seen.

    Hidden: other seats' barrel values (not which barrel stands where), the chests behind other
    shields, both warehouse piles' order and contents, Warehouse 2's draw while another seat
    chooses, and the RNG. Pools are sorted before they are dealt, so the deal depends on nothing
    hidden.
    """
    out = thinking_copy(st)
    if out.phase == "over":
        return out
    others = [s for s in range(out.n) if s != seat]
    pool = out.piles[0] + out.piles[1]
    for s in others:
        pool += out.chests[s]
    step = out.step
    hidden_draw = step is not None and step["building"] == "warehouse_2" and step["seat"] != seat
    if hidden_draw:
        assert step is not None
        pool += step["drawn"]
    pool.sort()
    rng.shuffle(pool)
    for pile in out.piles:
        pile[:], pool = pool[: len(pile)], pool[len(pile) :]
    for s in others:
        k = len(out.chests[s])
        out.chests[s], pool = pool[:k], pool[k:]
    if hidden_draw:
        assert step is not None
        step["drawn"] = pool
    for s in others:
        values = sorted(out.barrels[s])
        rng.shuffle(values)
        out.barrels[s] = values
    out.rng = Rng(rng.next64())
    return out


def potential(st: VikingsState, seat: int) -> float:
    """A seat's score so far plus what the drakkars in port promise it (the greedy reckoning)."""
    held = st.chests[seat]
    total = float(sum(st.market[k] * held.count(k) for k in R.GOODS))
    values = st.barrels[seat]
    total += sum(values[b] for b in st.won[seat])
    if st.phase == "over":
        return total
    harbour = Harbour(st, seat)
    for d in st.in_port():
        total += _weight(st.prows[d]) * harbour.worth(d)
    return total


def evaluate(st: VikingsState, seat: int) -> float:
    """How well ``seat`` stands against the best other seat (a won game counts extra)."""
    values = [potential(st, s) for s in range(st.n)]
    mine = values[seat]
    others = [v for s, v in enumerate(values) if s != seat]
    value = mine - (1 - MEAN_WEIGHT) * max(others) - MEAN_WEIGHT * sum(others) / len(others)
    if st.phase == "over" and seat in st.winners():
        value += WIN
    return value


class ExpertBot:
    """Weighs a few candidate moves by play-outs from its seat's view (see the module's doc)."""

    def __init__(self, seed: int, playouts: int | None = None) -> None:
        self.seed = seed
        self.playouts = max(1, playouts or budget(DEFAULT_PLAYOUTS))
        self.greedy = GreedyBot(seed)
        self._last: tuple[tuple[int, int, str, int], Action] | None = None

    def choose(self, st: VikingsState, seat: int) -> Action:
        """Return this seat's move. Asked again about the same position it answers at once: the
        table asks twice (whether a bot moves, then again just before it submits)."""
        key = (st.version, st.round, st.phase, seat)
        if self._last is not None and self._last[0] == key:
            return dict(self._last[1])
        action = self._decide(st, seat)
        self._last = (key, action)
        return dict(action)

    def _decide(self, st: VikingsState, seat: int) -> Action:
        options = _dedupe(progress_actions(st.legal_actions(seat)))
        if len(options) == 1:
            return options[0]
        options = self._candidates(st, seat, options)
        if len(options) == 1:
            return options[0]
        rng = Rng.from_seed(self.seed * 1_000_003 + seat, f"expert:{st.version}")
        worlds: list[VikingsState] = []
        until = _horizon(st)
        greedy = _PlayoutGreedy(self.seed, _Memo())
        policy = _policy(greedy)

        def simulate(i: int, k: int) -> float:
            while len(worlds) <= k:
                worlds.append(determinize(st, seat, rng))
            sim = thinking_copy(worlds[k])
            greedy.rng = Rng(k * 7919 + 1)  # each world the same for every candidate
            fast_apply(sim, seat, options[i])
            policies = [policy] * sim.n
            playout(sim, policies, [Rng(k * 7 + s) for s in range(sim.n)], until=until)
            return evaluate(sim, seat)

        return options[successive_halving(options, simulate, self.playouts)]

    def _candidates(self, st: VikingsState, seat: int, legal: list[Action]) -> list[Action]:
        """The moves worth weighing, the greedy bot's own choice first (ties go to it)."""
        first = self.greedy.choose(st, seat)
        kind = legal[0]["type"]
        ranked: list[Action] = list(legal)
        if len(legal) > MAX_CANDIDATES and st.step is not None and kind not in ("go",):
            harbour = Harbour(st, seat)
            done = _taken(st.step)
            best: dict[str, float] = {}
            for value, actions in harbour.plans(st.step["building"]):
                if actions[: len(done)] == done and len(actions) > len(done):
                    key = repr(actions[len(done)])
                    best[key] = max(best.get(key, -1e9), value)
            ranked = sorted(legal, key=lambda a: -best.get(repr(a), -1e9))[:MAX_CANDIDATES]
        elif len(legal) > MAX_CANDIDATES and kind == "bonus_viking":
            harbour = Harbour(st, seat)
            ranked = sorted(legal, key=lambda a: -harbour.gain({}, extra=a["piece"]))
            ranked = ranked[:MAX_CANDIDATES]
        if first in ranked:
            ranked.remove(first)
        return [first, *ranked]


class _Memo:
    """What one decision's play-outs work out again and again: the influence order of a hull.

    The order depends only on the hull, a bonus viking and the pieces' shields, so worlds and
    turns share it (one decision, one set of components)."""

    def __init__(self) -> None:
        self.ranks: dict[tuple[Any, ...], list[int]] = {}


class _MemoHarbour(Harbour):
    """The greedy reckoning of the harbour with the influence orders memoized (same values)."""

    def __init__(self, st: VikingsState, seat: int, memo: _Memo) -> None:
        super().__init__(st, seat)
        self.memo = memo
        low = seat * R.BARRELS
        self.betting = [any(h is not None and 0 <= h - low < R.BARRELS for h in z) for z in st.quay]
        self.worths: list[float | None] = [None] * len(st.quay)

    def value(self, d: int, hull: list[int], prow: list[str], extra: int | None = None) -> float:
        colour = self.colour
        if not self.betting[d] and all(p // R.HULL_PIECES != colour for p in hull):
            return 0.0  # neither aboard nor betting on this quay: nothing to gain here
        key = (d, tuple(hull), tuple(prow), extra)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        st = self.st
        rank_key = (key[1], extra, tuple(st.bonus)) if st.bonus else (key[1], extra)
        order = self.memo.ranks.get(rank_key)
        if order is None:
            order = self.memo.ranks[rank_key] = _rank(st, hull, extra)
        got = _share(st, self.colour, order, prow)
        if order:
            held = st.quay[d][order[0]]
            if held is not None and held // R.BARRELS == self.seat:
                got += st.barrels[self.seat][held % R.BARRELS]
        self.cache[key] = got
        return got

    def best(self, building: str) -> float:
        """The greedy bot's value of ``building``: its best plan's gain (0 without a plan).

        Moving and exchanging hull pieces, the dear part (every piece to every drakkar, every
        pair of pieces), are reckoned without listing the plans and with the same sums in the
        same order as :meth:`Harbour.gain` makes them, so the value is the very same number."""
        if building in ("change_drakkar", "move"):
            return self._best_move(self.colour if building == "change_drakkar" else None)
        if building == "exchange":
            return self._best_exchange()
        return max((v for v, _ in self.plans(building)), default=0.0)

    def _pair(self, d: int, hd: list[int], ad: bool, e: int, he: list[int], ae: bool) -> float:
        """``gain({d: hd, e: he})``, with drakkars in ascending order as a set of two yields
        them; ``ad``/``ae``: whether this seat is aboard the new hull (if not, and it has no
        barrel on that quay, the drakkar is worth nothing to it)."""
        st = self.st
        if e < d:
            d, hd, ad, e, he, ae = e, he, ae, d, hd, ad
        wd, we = _weight(st.prows[d]), _weight(st.prows[e])
        gain = 0.0
        gain += wd * self._raw(d, hd) if ad or self.betting[d] else 0.0
        gain -= wd * self._worth(d)
        gain += we * self._raw(e, he) if ae or self.betting[e] else 0.0
        gain -= we * self._worth(e)
        return gain

    def _worth(self, d: int) -> float:
        """:meth:`worth`, kept per drakkar for this decision."""
        got = self.worths[d]
        if got is None:
            got = self.worths[d] = self.worth(d)
        return got

    def _raw(self, d: int, hull: list[int]) -> float:
        """``value(d, hull, prows[d])`` for a hull seen once (not kept): the same reckoning."""
        st = self.st
        key = (tuple(hull), None, tuple(st.bonus)) if st.bonus else (tuple(hull), None)
        order = self.memo.ranks.get(key)
        if order is None:
            order = self.memo.ranks[key] = _rank(st, hull)
        got = _share(st, self.colour, order, st.prows[d])
        if order:
            held = st.quay[d][order[0]]
            if held is not None and held // R.BARRELS == self.seat:
                got += st.barrels[self.seat][held % R.BARRELS]
        return got

    def _aboard(self) -> tuple[list[int], range]:
        """How many of this seat's pieces each drakkar holds, and which pieces are its own."""
        mine = range(self.colour * R.HULL_PIECES, (self.colour + 1) * R.HULL_PIECES)
        return [sum(p in mine for p in hull) for hull in self.st.hulls], mine

    def _best_move(self, colour: int | None) -> float:
        st, where = self.st, self.where
        room = open_drakkars(st)
        own, mine = self._aboard()
        best: float | None = None
        for p in movable_pieces(st, colour):
            d = where[p]
            rest = [q for q in st.hulls[d] if q != p]
            moved = p in mine
            left = own[d] - moved > 0
            for t in room:
                if t != d:
                    gain = self._pair(d, rest, left, t, [*st.hulls[t], p], moved or own[t] > 0)
                    if best is None or gain > best:
                        best = gain
        return 0.0 if best is None else best

    def _best_exchange(self) -> float:
        st, where = self.st, self.where
        pieces = exchangeable_pieces(st)
        own, mine = self._aboard()
        best: float | None = None
        for i, p in enumerate(pieces):
            d = where[p]
            p_mine = p in mine
            for q in pieces[i + 1 :]:
                e = where[q]
                if e != d:
                    q_mine = q in mine
                    hd = [q if x == p else x for x in st.hulls[d]]
                    he = [p if x == q else x for x in st.hulls[e]]
                    ad = own[d] - p_mine + q_mine > 0
                    ae = own[e] - q_mine + p_mine > 0
                    gain = self._pair(d, hd, ad, e, he, ae)
                    if best is None or gain > best:
                        best = gain
        return 0.0 if best is None else best


class _PlayoutGreedy(GreedyBot):
    """The greedy bot as the play-outs' policy in every seat, with one decision's memo: the
    same choices, faster (``tests/games/test_expert.py`` plays whole games both ways)."""

    def __init__(self, seed: int, memo: _Memo) -> None:
        super().__init__(seed)
        self.memo = memo

    def harbour(self, st: VikingsState, seat: int) -> Harbour:
        return _MemoHarbour(st, seat, self.memo)

    def _building(self, harbour: Harbour, legal: list[Action]) -> Action:
        assert isinstance(harbour, _MemoHarbour)
        best, choice = -1e9, legal[0]
        for action in legal:
            name = action["building"]
            if not can_act(harbour.st, harbour.seat, R.BUILDING_INDEX[name]):
                value = 0.0
            elif name == "first_player":
                value = FIRST_PLAYER
            else:
                value = harbour.best(name)
            value += self.rng.below(100) / 1000  # as the greedy bot breaks ties
            if value > best:
                best, choice = value, action
        return choice


def _policy(bot: GreedyBot) -> Any:
    """The play-out policy: the greedy bot in every seat (a model of a sensible player, and of
    the bots it most often sits with)."""

    def policy(st: VikingsState, seat: int, rng: Rng) -> Action:
        return bot.choose(st, seat)

    return policy


def _horizon(st: VikingsState) -> Any:
    """Play a couple of turns on; near the end, to the end."""
    if len(st.in_port()) <= ENDGAME:
        return None
    stop = st.round + HORIZON

    def until(sim: VikingsState) -> bool:
        return sim.round >= stop and sim.phase == "turn"

    return until


def _dedupe(actions: list[Action]) -> list[Action]:
    out: list[Action] = []
    for a in actions:
        if a not in out:
            out.append(a)
    return out


__all__ = ["DEFAULT_PLAYOUTS", "ExpertBot", "determinize", "evaluate"]
