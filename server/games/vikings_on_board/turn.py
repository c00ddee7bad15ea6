"""A turn (V2): whose viking moves, which buildings they may choose, and the turn's end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import VikingsState


def actors_turn(st: VikingsState) -> list[int]:
    """The owner of the viking nearest the First player building on the away side (V2.1)."""
    building = st.next_viking()
    if building is None:
        return []
    owner = st.spots[st.away][building]
    return [] if owner is None else [owner]


def free_buildings(st: VikingsState) -> list[int]:
    """Return the buildings with a free spot on the chief's side (V2.1)."""
    return [b for b, owner in enumerate(st.spots[st.chief]) if owner is None]


def open_drakkars(st: VikingsState) -> list[int]:
    """Return the drakkars in port with room for one more hull piece (V2.5, D4)."""
    return [d for d in st.in_port() if len(st.hulls[d]) < R.HULL_MAX]


def free_zones(st: VikingsState) -> list[tuple[int, int]]:
    """Return the free betting zones in front of the drakkars in port (V3.4)."""
    return [
        (d, colour) for d in st.in_port() for colour, held in enumerate(st.quay[d]) if held is None
    ]


def barrels_on_quay(st: VikingsState, seat: int) -> list[int]:
    """Return ``seat``'s barrels on any quay, in port or in front of a drakkar that sailed."""
    first = seat * R.BARRELS
    return sorted(
        held - first
        for zones in st.quay
        for held in zones
        if held is not None and first <= held < first + R.BARRELS
    )


def movable_pieces(st: VikingsState, colour: int | None) -> list[int]:
    """Return the pieces (of ``colour``, or any) that another drakkar in port has room for."""
    room = open_drakkars(st)
    if not room:
        return []
    out: list[int] = []
    for d in st.in_port():
        if len(room) > 1 or room[0] != d:
            out.extend(p for p in st.hulls[d] if colour is None or st.piece_colour(p) == colour)
    return out


def promotable_pieces(st: VikingsState, colour: int) -> list[int]:
    """Return ``colour``'s pieces not already right behind their prow (V3.2)."""
    return [
        p
        for d in st.in_port()
        for i, p in enumerate(st.hulls[d])
        if i > 0 and st.piece_colour(p) == colour
    ]


def exchangeable_pieces(st: VikingsState) -> list[int]:
    """Return the pieces that another drakkar in port could swap with (V3.11)."""
    manned = [d for d in st.in_port() if st.hulls[d]]
    if len(manned) < 2:
        return []
    return [p for d in manned for p in st.hulls[d]]


def can_act(st: VikingsState, seat: int, building: int) -> bool:
    """Whether ``seat`` can carry out ``building``'s action now (V2.2, D4, D6)."""
    name = R.BUILDINGS[building]
    colour = st.colours[seat]
    if name == "first_player":
        return True  # V3.1: there is nothing to carry out
    if name == "promotion":
        return bool(promotable_pieces(st, colour))
    if name == "change_drakkar":
        return bool(movable_pieces(st, colour))
    if name == "move":
        return bool(movable_pieces(st, None))
    if name == "tavern_1":
        return bool(st.hands[seat]) and bool(free_zones(st))
    if name == "tavern_2":
        return bool(st.hands[seat] or barrels_on_quay(st, seat)) and bool(free_zones(st))
    if name == "warehouse_1":
        return bool(st.piles[0])  # D6
    if name == "warehouse_2":
        return bool(st.piles[1])  # D6
    if name == "market":
        return any(v < R.MARKET_MAX for v in st.market.values())  # D4
    if name == "departure":
        return st.sterns > 0 and st.stern_holder is None
    return bool(exchangeable_pieces(st))  # exchange


def legal_turn(st: VikingsState, seat: int) -> list[Action]:
    free = free_buildings(st)
    possible = [b for b in free if can_act(st, seat, b)]
    # V2.2: a building whose action is impossible only when no free building offers one.
    return [{"type": "go", "building": R.BUILDINGS[b]} for b in (possible or free)]


def go(st: VikingsState, seat: Seat, action: Action) -> None:
    """Move your viking to a free building on the chief's side and start its action (V2.1)."""
    assert seat is not None
    name = action["building"]
    building = R.BUILDING_INDEX.get(name)
    if building is None:
        raise IllegalAction("no_such_building", f"There is no building {name!r}.", building=name)
    if st.spots[st.chief][building] is not None:
        raise IllegalAction(
            "building_taken",
            "A viking already stands on that building's side: choose a free building (V2.1).",
            building=name,
        )
    acting = can_act(st, seat, building)
    if not acting and any(can_act(st, seat, b) for b in free_buildings(st)):
        raise IllegalAction(
            "building_impossible",
            f"You cannot carry out the {name} action now, and another free building offers an "
            "action you can: you must choose one of those (V2.2).",
            building=name,
        )
    origin = st.next_viking()
    assert origin is not None
    st.spots[st.away][origin] = None
    st.spots[st.chief][building] = seat
    st.record("go", seat=seat, building=name, acting=acting)
    if not acting or name == "first_player":
        st.goto(after_action(st))
        return
    if name == "departure":
        # V3.10: take a stern; the drakkar is chosen at the end of the turn (D5).
        st.sterns -= 1
        st.stern_holder = seat
        st.record("stern", seat=seat)
        st.goto("bonus" if st.n == 2 else after_action(st))
        return
    drawn: list[str] = []
    if name == "warehouse_1":
        drawn = [st.piles[0].pop()]  # V3.5: the top chest, face up
        st.record("draw", seat=seat, warehouse=1, chest=drawn[0])
    elif name == "warehouse_2":
        for _ in range(min(R.W2_DRAW, len(st.piles[1]))):  # V3.9: seen only by the chooser
            drawn.append(st.piles[1].pop())
        st.record("draw", seat=seat, warehouse=2, chests=len(drawn))
    st.step = {
        "seat": seat,
        "building": name,
        "from": origin,
        "piece": None,
        "barrel": None,
        "drawn": drawn,
    }
    st.goto("act")


def after_action(st: VikingsState) -> str:
    """Return what follows a finished action: the next viking, a sailing, or a new turn."""
    st.step = None
    if st.next_viking() is not None:
        return "turn"
    if st.stern_holder is not None:
        return "sail"  # V2.3
    new_turn(st)
    return "turn"


def new_turn(st: VikingsState) -> None:
    """The chief moves to the other side and a new turn starts (V2.4)."""
    st.chief = 1 - st.chief
    st.round += 1
    st.record("new_turn")
