"""Vikings on Board bots: a random legal bot and a greedy bot that plays sensibly.

The greedy bot reads only what its seat's view shows: the harbour, the market, whose barrel stands
where, and its own barrels' values; never another seat's barrels or chests, nor the piles.
It values the harbour as "what I would get if each drakkar sailed now", weighted by how likely
the drakkar is to sail (it needs chests), and plays the building action that gains most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, progress_actions
from ..rng import Rng
from . import rules as R
from .buildings import bonus_options
from .sailing import sail_options
from .turn import (
    barrels_on_quay,
    can_act,
    exchangeable_pieces,
    free_zones,
    movable_pieces,
    open_drakkars,
    promotable_pieces,
)

if TYPE_CHECKING:
    from .state import VikingsState

Plan = tuple[float, list[Action]]

LOADED = 0.6  # how likely a drakkar with chests is to sail as it is now
EMPTY = 0.15  # ... and one without chests (a chest may still come)
FIRST_PLAYER = 0.4  # moving first next turn
STERN_BASE = 1.0  # a departure ends the game sooner; someone must take it


class RandomBot:
    """Plays uniformly at random among the legal actions that move the game forward."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "random-bot")

    def choose(self, st: VikingsState, seat: int) -> Action:
        return self.rng.choice(progress_actions(st.legal_actions(seat)))


class GreedyBot:
    """Bets on the colour leading a drakkar likely to sail, pushes its own pieces onto ships
    with good chests, raises the market for the goods it holds and sails the ships it leads."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "greedy-bot")

    def choose(self, st: VikingsState, seat: int) -> Action:
        legal = progress_actions(st.legal_actions(seat))
        kind = legal[0]["type"]
        if kind == "go":
            return self._building(st, seat, legal)
        if kind == "sail":
            return max(legal, key=lambda a: (_worth(st, seat, a["drakkar"]), -a["drakkar"]))
        if kind in ("take_chest", "discard_chest"):
            # take the dearest chest; give away the dearest too, so no one else gets it
            return max(legal, key=lambda a: (st.market[a["kind"]], a["kind"]))
        if kind == "bonus_viking":
            return max(legal, key=lambda a: _gain(st, seat, {}, extra=a["piece"]))
        step = st.step
        assert step is not None
        plans = self._plans(st, seat, step["building"])
        done = 0 if step["piece"] is None and step["barrel"] is None else 1
        for _value, actions in sorted(plans, key=lambda p: -p[0]):
            if actions[:done] == _taken(step) and actions[done] in legal:
                return actions[done]
        return legal[0]

    def _building(self, st: VikingsState, seat: int, legal: list[Action]) -> Action:
        best, choice = -1e9, legal[0]
        for action in legal:
            b = R.BUILDING_INDEX[action["building"]]
            if not can_act(st, seat, b):
                value = 0.0
            elif action["building"] == "first_player":
                value = FIRST_PLAYER
            else:
                plans = self._plans(st, seat, action["building"])
                value = max((v for v, _ in plans), default=0.0)
            value += self.rng.below(100) / 1000  # break ties, vary the games
            if value > best:
                best, choice = value, action
        return choice

    def _plans(self, st: VikingsState, seat: int, building: str) -> list[Plan]:
        """Every way to carry out ``building`` now, with what each would gain this seat."""
        colour = st.colours[seat]
        plans: list[Plan] = []
        if building == "promotion":
            for p in promotable_pieces(st, colour):
                d = _where(st, p)
                hull = [p] + [q for q in st.hulls[d] if q != p]
                plans.append((_gain(st, seat, {d: hull}), [{"type": "promote", "piece": p}]))
        elif building in ("change_drakkar", "move"):
            room = open_drakkars(st)
            for p in movable_pieces(st, colour if building == "change_drakkar" else None):
                d = _where(st, p)
                rest = [q for q in st.hulls[d] if q != p]
                for t in room:
                    if t != d:
                        gain = _gain(st, seat, {d: rest, t: [*st.hulls[t], p]})
                        plans.append((gain, _two("pick_piece", p, "to_drakkar", "drakkar", t)))
        elif building == "exchange":
            pieces = exchangeable_pieces(st)
            for i, p in enumerate(pieces):
                d = _where(st, p)
                for q in pieces[i + 1 :]:
                    e = _where(st, q)
                    if e == d:
                        continue
                    hd = [q if x == p else x for x in st.hulls[d]]
                    he = [p if x == q else x for x in st.hulls[e]]
                    gain = _gain(st, seat, {d: hd, e: he})
                    plans.append((gain, _two("pick_piece", p, "swap_with", "piece", q)))
        elif building in ("tavern_1", "tavern_2"):
            plans = _bets(st, seat, building)
        elif building in ("warehouse_1", "warehouse_2"):
            plans = _chests(st, seat, building)
        elif building == "market":
            for kind in R.GOODS:
                if st.market[kind] < R.MARKET_MAX:
                    held = st.chests[seat].count(kind) + _expected(st, seat, kind)
                    plans.append((held, [{"type": "raise", "goods": kind}]))
        elif building == "departure":
            best = max(
                ((1 - _weight(st, d)) * _worth(st, seat, d) for d in sail_options(st)),
                default=0.0,
            )
            penalty = 0.5 if st.n == 2 and bonus_options(st, 1 - seat) else 0.0
            plans.append((STERN_BASE + best - penalty, []))
        return plans


def _taken(step: dict[str, object]) -> list[Action]:
    if step["piece"] is not None:
        return [{"type": "pick_piece", "piece": step["piece"]}]
    if step["barrel"] is not None:
        return [{"type": "pick_barrel", "barrel": step["barrel"]}]
    return []


def _two(first: str, value: int, second: str, key: str, target: int) -> list[Action]:
    key1 = "piece" if first == "pick_piece" else "barrel"
    return [{"type": first, key1: value}, {"type": second, key: target}]


def _where(st: VikingsState, piece: int) -> int:
    d = st.locate(piece)
    assert d is not None
    return d


def _rank(st: VikingsState, hull: list[int], extra: int | None = None) -> list[int]:
    """The colours aboard ``hull`` by influence (V4.2); ``extra`` gets one more shield."""
    totals: dict[int, int] = {}
    first: dict[int, int] = {}
    for i, piece in enumerate(hull):
        colour = piece // R.HULL_PIECES
        totals[colour] = totals.get(colour, 0) + st.shields(piece) + (piece == extra)
        first.setdefault(colour, i)
    return sorted(totals, key=lambda c: (-totals[c], first[c]))


def _share(st: VikingsState, colour: int, order: list[int], prow: list[str]) -> float:
    """What ``colour`` would take from ``prow`` if everyone took the dearest chest (V4.4)."""
    if not order or colour not in order:
        return 0.0
    values = sorted((st.market[k] for k in prow), reverse=True)
    mine = 0.0
    for i, value in enumerate(values):
        if order[i % len(order)] == colour:
            mine += value
    return mine


def _bet_value(st: VikingsState, seat: int, d: int, leader: int | None) -> float:
    if leader is None:
        return 0.0
    held = st.quay[d][leader]
    if held is None or held // R.BARRELS != seat:
        return 0.0
    return float(st.barrels[seat][held % R.BARRELS])


def _weight(st: VikingsState, d: int, prow: list[str] | None = None) -> float:
    return LOADED if (st.prows[d] if prow is None else prow) else EMPTY


def _drakkar_value(
    st: VikingsState,
    seat: int,
    d: int,
    hull: list[int],
    prow: list[str],
    extra: int | None = None,
) -> float:
    order = _rank(st, hull, extra)
    value = _share(st, st.colours[seat], order, prow)
    value += _bet_value(st, seat, d, order[0] if order else None)
    return value


def _worth(st: VikingsState, seat: int, d: int) -> float:
    """What ``seat`` gets if drakkar ``d`` sails now: chests and a won bet."""
    return _drakkar_value(st, seat, d, st.hulls[d], st.prows[d])


def _gain(
    st: VikingsState,
    seat: int,
    hulls: dict[int, list[int]],
    prows: dict[int, list[str]] | None = None,
    extra: int | None = None,
) -> float:
    """The weighted gain of changing some drakkars' hulls or prows (or adding a bonus viking)."""
    prows = prows or {}
    touched = set(hulls) | set(prows)
    if extra is not None:
        touched.add(_where(st, extra))
    gain = 0.0
    for d in touched:
        hull = hulls.get(d, st.hulls[d])
        prow = prows.get(d, st.prows[d])
        after = _weight(st, d, prow) * _drakkar_value(st, seat, d, hull, prow, extra)
        before = _weight(st, d) * _worth(st, seat, d)
        gain += after - before
    return gain


def _expected(st: VikingsState, seat: int, kind: str) -> float:
    """How many chests of ``kind`` this seat may expect from the drakkars in port."""
    colour = st.colours[seat]
    out = 0.0
    for d in st.in_port():
        prow = st.prows[d]
        if kind in prow:
            order = _rank(st, st.hulls[d])
            if colour in order:
                out += _weight(st, d) * prow.count(kind) / len(order)
    return out


def _bets(st: VikingsState, seat: int, building: str) -> list[Plan]:
    """Put (or move) a barrel on the colour now leading a drakkar likely to sail."""
    zones = free_zones(st)
    leaders = {}
    for d in st.in_port():
        order = _rank(st, st.hulls[d])
        leaders[d] = order[0] if order else None
    pickable = list(st.hands[seat])
    if building == "tavern_2":
        pickable += barrels_on_quay(st, seat)
    plans: list[Plan] = []
    for b in pickable:
        value = st.barrels[seat][b]
        now = 0.0
        origin = st.barrel_place(seat, b)
        if origin is not None:
            d0, c0 = origin
            if d0 not in st.sailed and leaders.get(d0) == c0:
                now = _weight(st, d0) * value
        for d, c in zones:
            if leaders[d] != c:
                continue
            gain = _weight(st, d) * value - now
            # a barrel still in hand is worth keeping for a safer bet later
            if origin is None:
                gain *= 0.8
            actions: list[Action] = [
                {"type": "pick_barrel", "barrel": b},
                {"type": "to_zone", "drakkar": d, "colour": R.COLOURS[c]},
            ]
            plans.append((gain, actions))
    return plans


def _chests(st: VikingsState, seat: int, building: str) -> list[Plan]:
    """Put the chest on the prow of the drakkar this seat would profit from most."""
    step = st.step
    if step is not None and step["building"] == building:
        kinds = sorted(set(step["drawn"]))
    else:  # not drawn yet: reckon with the dearest goods for Warehouse 2's choice of three
        best = max(R.GOODS, key=lambda k: st.market[k])
        mean = min(R.GOODS, key=lambda k: abs(st.market[k] - _mean_market(st)))
        kinds = [best if building == "warehouse_2" else mean]
    plans: list[Plan] = []
    for kind in kinds:
        for d in st.in_port():
            gain = _gain(st, seat, {}, {d: [*st.prows[d], kind]})
            plans.append((gain, [{"type": "place_chest", "kind": kind, "drakkar": d}]))
    return plans


def _mean_market(st: VikingsState) -> float:
    return sum(st.market.values()) / len(R.GOODS)


__all__ = ["GreedyBot", "RandomBot"]
