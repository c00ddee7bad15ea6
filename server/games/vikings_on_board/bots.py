"""Vikings on Board bots: a random legal bot and a greedy bot that plays sensibly.

The greedy bot reads only what its seat's view shows: the harbour, the market, whose barrel stands
where, and its own barrels' values; never another seat's barrels or chests, nor the piles.
It values the harbour as "what I would get if each drakkar sailed now", weighted by how likely
the drakkar is to sail (it needs chests), and plays the building action that gains most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
KEEP_IN_HAND = 0.8  # a barrel still in hand keeps the option of a safer bet later


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
        harbour = self.harbour(st, seat)
        if kind == "go":
            return self._building(harbour, legal)
        if kind == "sail":
            return max(legal, key=lambda a: (harbour.worth(a["drakkar"]), -a["drakkar"]))
        if kind in ("take_chest", "discard_chest"):
            # take the dearest chest; give away the dearest too, so no one else gets it
            return max(legal, key=lambda a: (st.market[a["kind"]], a["kind"]))
        if kind == "bonus_viking":
            return max(legal, key=lambda a: harbour.gain({}, extra=a["piece"]))
        step = st.step
        assert step is not None
        done = _taken(step)
        for _value, actions in sorted(harbour.plans(step["building"]), key=lambda p: -p[0]):
            if actions[: len(done)] == done and actions[len(done)] in legal:
                return actions[len(done)]
        return legal[0]

    def harbour(self, st: VikingsState, seat: int) -> Harbour:
        """This decision's reckoning of the harbour (the expert's play-outs share a memo)."""
        return Harbour(st, seat)

    def _building(self, harbour: Harbour, legal: list[Action]) -> Action:
        best, choice = -1e9, legal[0]
        for action in legal:
            name = action["building"]
            if not can_act(harbour.st, harbour.seat, R.BUILDING_INDEX[name]):
                value = 0.0
            elif name == "first_player":
                value = FIRST_PLAYER
            else:
                value = max((v for v, _ in harbour.plans(name)), default=0.0)
            value += self.rng.below(100) / 1000  # break ties, vary the games
            if value > best:
                best, choice = value, action
        return choice


class Harbour:
    """One seat's reckoning of the harbour for one decision (values cached per drakkar)."""

    def __init__(self, st: VikingsState, seat: int) -> None:
        self.st = st
        self.seat = seat
        self.colour = st.colours[seat]
        self.where = {p: d for d in st.in_port() for p in st.hulls[d]}
        self.cache: dict[Any, float] = {}

    def plans(self, building: str) -> list[Plan]:
        """Every way to carry out ``building`` now, with what each would gain this seat."""
        st, where = self.st, self.where
        plans: list[Plan] = []
        if building == "promotion":
            for p in promotable_pieces(st, self.colour):
                d = where[p]
                hull = [p] + [q for q in st.hulls[d] if q != p]
                plans.append((self.gain({d: hull}), [{"type": "promote", "piece": p}]))
        elif building in ("change_drakkar", "move"):
            room = open_drakkars(st)
            for p in movable_pieces(st, self.colour if building == "change_drakkar" else None):
                d = where[p]
                rest = [q for q in st.hulls[d] if q != p]
                for t in room:
                    if t != d:
                        gain = self.gain({d: rest, t: [*st.hulls[t], p]})
                        move = [
                            {"type": "pick_piece", "piece": p},
                            {"type": "to_drakkar", "drakkar": t},
                        ]
                        plans.append((gain, move))
        elif building == "exchange":
            pieces = exchangeable_pieces(st)
            for i, p in enumerate(pieces):
                d = where[p]
                for q in pieces[i + 1 :]:
                    e = where[q]
                    if e != d:
                        hd = [q if x == p else x for x in st.hulls[d]]
                        he = [p if x == q else x for x in st.hulls[e]]
                        swap = [
                            {"type": "pick_piece", "piece": p},
                            {"type": "swap_with", "piece": q},
                        ]
                        plans.append((self.gain({d: hd, e: he}), swap))
        elif building in ("tavern_1", "tavern_2"):
            plans = self.bets(building)
        elif building in ("warehouse_1", "warehouse_2"):
            plans = self.chests(building)
        elif building == "market":
            for kind in R.GOODS:
                if st.market[kind] < R.MARKET_MAX:
                    held = st.chests[self.seat].count(kind) + self.expected(kind)
                    plans.append((held, [{"type": "raise", "goods": kind}]))
        elif building == "departure":
            best = max(
                ((1 - _weight(st.prows[d])) * self.worth(d) for d in sail_options(st)),
                default=0.0,
            )
            penalty = 0.5 if st.n == 2 and bonus_options(st, 1 - self.seat) else 0.0
            plans.append((STERN_BASE + best - penalty, []))
        return plans

    def value(self, d: int, hull: list[int], prow: list[str], extra: int | None = None) -> float:
        """What this seat gets if drakkar ``d`` sails as given: its chests and a won bet."""
        key = (d, tuple(hull), tuple(prow), extra)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        order = _rank(self.st, hull, extra)
        got = _share(self.st, self.colour, order, prow)
        if order:
            held = self.st.quay[d][order[0]]
            if held is not None and held // R.BARRELS == self.seat:
                got += self.st.barrels[self.seat][held % R.BARRELS]
        self.cache[key] = got
        return got

    def worth(self, d: int) -> float:
        return self.value(d, self.st.hulls[d], self.st.prows[d])

    def gain(
        self,
        hulls: dict[int, list[int]],
        prows: dict[int, list[str]] | None = None,
        extra: int | None = None,
    ) -> float:
        """The weighted gain of changing some drakkars' hulls or prows (or a bonus viking)."""
        st = self.st
        prows = prows or {}
        touched = set(hulls) | set(prows)
        if extra is not None:
            touched.add(self.where[extra])
        gain = 0.0
        for d in touched:
            hull = hulls.get(d, st.hulls[d])
            prow = prows.get(d, st.prows[d])
            gain += _weight(prow) * self.value(d, hull, prow, extra)
            gain -= _weight(st.prows[d]) * self.worth(d)
        return gain

    def expected(self, kind: str) -> float:
        """How many chests of ``kind`` this seat may expect from the drakkars in port."""
        out = 0.0
        for d in self.st.in_port():
            prow = self.st.prows[d]
            if kind in prow:
                order = _rank(self.st, self.st.hulls[d])
                if self.colour in order:
                    out += _weight(prow) * prow.count(kind) / len(order)
        return out

    def bets(self, building: str) -> list[Plan]:
        """Put (or move) a barrel on the colour now leading a drakkar likely to sail."""
        st, seat = self.st, self.seat
        leaders = {}
        for d in st.in_port():
            order = _rank(st, st.hulls[d])
            leaders[d] = order[0] if order else None
        pickable = list(st.hands[seat])
        if building == "tavern_2":
            pickable += barrels_on_quay(st, seat)
        zones = [(d, c) for d, c in free_zones(st) if leaders[d] == c]
        plans: list[Plan] = []
        for b in pickable:
            value = st.barrels[seat][b]
            now = 0.0
            origin = st.barrel_place(seat, b)
            if (
                origin is not None
                and origin[0] not in st.sailed
                and leaders[origin[0]] == origin[1]
            ):
                now = _weight(st.prows[origin[0]]) * value
            for d, c in zones:
                gain = _weight(st.prows[d]) * value - now
                if origin is None:
                    gain *= KEEP_IN_HAND
                bet = [
                    {"type": "pick_barrel", "barrel": b},
                    {"type": "to_zone", "drakkar": d, "colour": R.COLOURS[c]},
                ]
                plans.append((gain, bet))
        return plans

    def chests(self, building: str) -> list[Plan]:
        """Put the chest on the prow of the drakkar this seat would profit from most."""
        st = self.st
        step = st.step
        if step is not None and step["building"] == building:
            kinds = sorted(set(step["drawn"]))
        else:  # not drawn yet: Warehouse 2 offers a choice of three, Warehouse 1 an average
            mean = sum(st.market.values()) / len(R.GOODS)
            best = max(R.GOODS, key=lambda k: st.market[k])
            average = min(R.GOODS, key=lambda k: abs(st.market[k] - mean))
            kinds = [best if building == "warehouse_2" else average]
        plans: list[Plan] = []
        for kind in kinds:
            for d in st.in_port():
                gain = self.gain({}, {d: [*st.prows[d], kind]})
                plans.append((gain, [{"type": "place_chest", "kind": kind, "drakkar": d}]))
        return plans


def _taken(step: dict[str, Any]) -> list[Action]:
    """The steps of the building action already taken (a piece or a barrel chosen)."""
    if step["piece"] is not None:
        return [{"type": "pick_piece", "piece": step["piece"]}]
    if step["barrel"] is not None:
        return [{"type": "pick_barrel", "barrel": step["barrel"]}]
    return []


def _weight(prow: list[str]) -> float:
    return LOADED if prow else EMPTY


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
    if colour not in order:
        return 0.0
    values = sorted((st.market[k] for k in prow), reverse=True)
    return float(sum(v for i, v in enumerate(values) if order[i % len(order)] == colour))


__all__ = ["GreedyBot", "Harbour", "RandomBot"]
