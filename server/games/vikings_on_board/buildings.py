"""Carrying out a building's action (V3), one small step at a time.

A building whose action has several choices takes them one by one (a piece, then where it goes;
a barrel, then its zone), so that every list of legal actions stays short. Until something has
been revealed (a drawn chest), ``back`` takes the viking back to where it stood.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, IllegalAction, Seat
from . import rules as R
from .turn import (
    after_action,
    barrels_on_quay,
    exchangeable_pieces,
    free_zones,
    movable_pieces,
    open_drakkars,
    promotable_pieces,
)

if TYPE_CHECKING:
    from .state import VikingsState

PIECE_MOVES = ("change_drakkar", "move")
TAVERNS = ("tavern_1", "tavern_2")
WAREHOUSES = ("warehouse_1", "warehouse_2")


def actors_act(st: VikingsState) -> list[int]:
    return [] if st.step is None else [st.step["seat"]]


def _step(st: VikingsState) -> dict[str, Any]:
    assert st.step is not None
    return st.step


def legal_act(st: VikingsState, seat: int) -> list[Action]:
    step = _step(st)
    name = step["building"]
    colour = st.colours[seat]
    acts: list[Action] = []
    if name == "promotion":
        acts = [{"type": "promote", "piece": p} for p in promotable_pieces(st, colour)]
    elif name in PIECE_MOVES:
        if step["piece"] is None:
            pieces = movable_pieces(st, colour if name == "change_drakkar" else None)
            acts = [{"type": "pick_piece", "piece": p} for p in pieces]
        else:
            acts = [{"type": "to_drakkar", "drakkar": d} for d in _targets(st, step["piece"])]
    elif name == "exchange":
        if step["piece"] is None:
            acts = [{"type": "pick_piece", "piece": p} for p in exchangeable_pieces(st)]
        else:
            acts = [{"type": "swap_with", "piece": p} for p in _partners(st, step["piece"])]
    elif name in TAVERNS:
        if step["barrel"] is None:
            acts = [{"type": "pick_barrel", "barrel": b} for b in _pickable(st, seat, name)]
        else:
            acts = [
                {"type": "to_zone", "drakkar": d, "colour": R.COLOURS[c]} for d, c in free_zones(st)
            ]
    elif name in WAREHOUSES:
        acts = [
            {"type": "place_chest", "kind": kind, "drakkar": d}
            for kind in sorted(set(step["drawn"]))
            for d in st.in_port()
        ]
    elif name == "market":
        acts = [
            {"type": "raise", "goods": kind} for kind in R.GOODS if st.market[kind] < R.MARKET_MAX
        ]
    if not step["drawn"]:
        acts.append({"type": "back", "undo": True})
    return acts


def _targets(st: VikingsState, piece: int) -> list[int]:
    source = st.locate(piece)
    return [d for d in open_drakkars(st) if d != source]


def _partners(st: VikingsState, piece: int) -> list[int]:
    source = st.locate(piece)
    return [p for d in st.in_port() if d != source for p in st.hulls[d]]


def _pickable(st: VikingsState, seat: int, building: str) -> list[int]:
    if building == "tavern_1":
        return sorted(st.hands[seat])
    return sorted(st.hands[seat] + barrels_on_quay(st, seat))  # V3.8: either action


def _require(st: VikingsState, *buildings: str) -> dict[str, Any]:
    """Return the step if it is one of ``buildings``', else refuse the action."""
    step = _step(st)
    if step["building"] not in buildings:
        rule = R.RULE_OF[step["building"]]
        raise IllegalAction(
            "wrong_action",
            f"That is not part of the {step['building']} action ({rule}).",
            building=step["building"],
        )
    return step


def _port_drakkar(st: VikingsState, drakkar: int) -> None:
    if not 0 <= drakkar < R.DRAKKARS:
        raise IllegalAction("no_such_drakkar", "There is no such drakkar.", drakkar=drakkar)
    if drakkar in st.sailed:
        raise IllegalAction(
            "drakkar_sailed",
            "That drakkar has left the harbour: only drakkars in port can be chosen (V4.6).",
            drakkar=drakkar,
        )


def _piece_in_port(st: VikingsState, piece: int) -> int:
    if not 0 <= piece < R.HULL_PIECES * len(R.COLOURS):
        raise IllegalAction("no_such_piece", "There is no such hull piece.", piece=piece)
    where = st.locate(piece)
    if where is None:
        raise IllegalAction(
            "piece_sailed", "That hull piece has left the harbour on its drakkar.", piece=piece
        )
    return where


def _own_piece(st: VikingsState, seat: int, piece: int, rule: str) -> None:
    if st.piece_colour(piece) != st.colours[seat]:
        raise IllegalAction(
            "not_your_piece", f"Choose a hull piece of your own colour ({rule}).", piece=piece
        )


# -- the handlers ---------------------------------------------------------------------------------


def back(st: VikingsState, seat: Seat, action: Action) -> None:
    """Take your viking back to where it stood and choose another building."""
    step = _step(st)
    if step["drawn"]:
        raise IllegalAction(
            "cannot_go_back", "A chest has been drawn: the warehouse's action must be finished."
        )
    building = R.BUILDING_INDEX[step["building"]]
    st.spots[st.chief][building] = None
    st.spots[st.away][step["from"]] = step["seat"]
    # the viking stands on the building on the physical board: the table says to move it back
    st.record("back", seat=step["seat"], building=step["building"], to=R.BUILDINGS[step["from"]])
    st.step = None
    st.goto("turn")


def promote(st: VikingsState, seat: Seat, action: Action) -> None:
    """Move one of your hull pieces right behind the prow of its own drakkar (V3.2)."""
    assert seat is not None
    _require(st, "promotion")
    piece = action["piece"]
    d = _piece_in_port(st, piece)
    _own_piece(st, seat, piece, "V3.2")
    if st.hulls[d][0] == piece:
        raise IllegalAction(
            "already_at_prow",
            "That hull piece is already right behind the prow (V3.2).",
            piece=piece,
        )
    st.hulls[d].remove(piece)
    st.hulls[d].insert(0, piece)
    st.record("promote", seat=seat, piece=piece, drakkar=d)
    st.goto(after_action(st))


def pick_piece(st: VikingsState, seat: Seat, action: Action) -> None:
    """Choose the hull piece to move (V3.3, V3.7) or to exchange (V3.11)."""
    assert seat is not None
    step = _require(st, "change_drakkar", "move", "exchange")
    if step["piece"] is not None:
        raise IllegalAction("piece_chosen", "You have already chosen a hull piece.")
    piece = action["piece"]
    _piece_in_port(st, piece)
    name = step["building"]
    if name == "change_drakkar":
        _own_piece(st, seat, piece, "V3.3")
    if name == "exchange":
        if piece not in exchangeable_pieces(st):
            raise IllegalAction(
                "no_partner",
                "No other drakkar in port has a hull piece to exchange with (V3.11).",
                piece=piece,
            )
    elif not _targets(st, piece):
        raise IllegalAction(
            "no_room",
            "Every other drakkar in port already holds 5 hull pieces (V2.5, D4).",
            piece=piece,
        )
    step["piece"] = piece


def to_drakkar(st: VikingsState, seat: Seat, action: Action) -> None:
    """Move the chosen hull piece to the rear of another drakkar (V3.3, V3.7, V2.5)."""
    step = _require(st, *PIECE_MOVES)
    piece = step["piece"]
    if piece is None:
        raise IllegalAction("choose_piece", "Choose the hull piece to move first.")
    target = action["drakkar"]
    _port_drakkar(st, target)
    source = st.locate(piece)
    assert source is not None
    if target == source:
        raise IllegalAction(
            "same_drakkar",
            f"Move the hull piece to another drakkar ({R.RULE_OF[step['building']]}).",
            drakkar=target,
        )
    if len(st.hulls[target]) >= R.HULL_MAX:
        raise IllegalAction(
            "drakkar_full",
            "That drakkar already holds 5 hull pieces (V2.5, D4).",
            drakkar=target,
        )
    st.hulls[source].remove(piece)  # V2.5: the pieces behind close up toward the prow
    st.hulls[target].append(piece)
    # where it came from too: the table display's "move it from drakkar 3 to drakkar 5" must read
    # the same after a reload, when no earlier view is left to learn it from
    st.record(
        "move", seat=seat, building=step["building"], piece=piece, to=target, **{"from": source}
    )
    st.goto(after_action(st))


def swap_with(st: VikingsState, seat: Seat, action: Action) -> None:
    """Swap the chosen hull piece with one in another drakkar, position for position (V3.11)."""
    step = _require(st, "exchange")
    first = step["piece"]
    if first is None:
        raise IllegalAction("choose_piece", "Choose the first hull piece first.")
    other = action["piece"]
    d2 = _piece_in_port(st, other)
    d1 = st.locate(first)
    assert d1 is not None
    if d1 == d2:
        raise IllegalAction(
            "same_drakkar",
            "Exchange two hull pieces of two different drakkars (V3.11).",
            piece=other,
        )
    i1, i2 = st.hulls[d1].index(first), st.hulls[d2].index(other)
    st.hulls[d1][i1], st.hulls[d2][i2] = other, first
    st.record("exchange", seat=seat, pieces=[first, other])
    st.goto(after_action(st))


def pick_barrel(st: VikingsState, seat: Seat, action: Action) -> None:
    """Choose one of your barrels: in hand (V3.4), or on a quay for Tavern 2 (V3.8)."""
    assert seat is not None
    step = _require(st, *TAVERNS)
    if step["barrel"] is not None:
        raise IllegalAction("barrel_chosen", "You have already chosen a barrel.")
    barrel = action["barrel"]
    if not 0 <= barrel < R.BARRELS:
        raise IllegalAction("no_such_barrel", "You have 4 barrels, 0 to 3.", barrel=barrel)
    if barrel not in _pickable(st, seat, step["building"]):
        if step["building"] == "tavern_1":
            raise IllegalAction(
                "barrel_not_in_hand",
                "Tavern 1 places a barrel still in your hand (V3.4).",
                barrel=barrel,
            )
        raise IllegalAction(
            "barrel_not_available",
            "Tavern 2 places a barrel from your hand or moves one of yours on the quay (V3.8).",
            barrel=barrel,
        )
    step["barrel"] = barrel


def to_zone(st: VikingsState, seat: Seat, action: Action) -> None:
    """Put the chosen barrel face down on a free betting zone of a drakkar in port (V3.4)."""
    assert seat is not None
    step = _require(st, *TAVERNS)
    barrel = step["barrel"]
    if barrel is None:
        raise IllegalAction("choose_barrel", "Choose the barrel first.")
    d = action["drakkar"]
    _port_drakkar(st, d)
    name = action["colour"]
    if name not in R.COLOURS:
        raise IllegalAction("no_such_colour", f"There is no colour {name!r}.", colour=name)
    colour = R.COLOURS.index(name)
    if st.quay[d][colour] is not None:
        raise IllegalAction(
            "zone_taken",
            "A barrel already stands on that betting zone: one barrel per zone (V3.4, D4).",
            drakkar=d,
            colour=name,
        )
    origin = st.barrel_place(seat, barrel)
    if origin is None:
        st.hands[seat].remove(barrel)
    else:
        st.quay[origin[0]][origin[1]] = None
    st.quay[d][colour] = seat * R.BARRELS + barrel
    came = "hand" if origin is None else {"drakkar": origin[0], "colour": R.COLOURS[origin[1]]}
    st.record("bet", seat=seat, drakkar=d, colour=name, came=came)
    st.goto(after_action(st))


def place_chest(st: VikingsState, seat: Seat, action: Action) -> None:
    """Put the drawn (Warehouse 1) or chosen (Warehouse 2) chest on a prow (V3.5, V3.9)."""
    step = _require(st, *WAREHOUSES)
    kind = action["kind"]
    if kind not in step["drawn"]:
        raise IllegalAction(
            "chest_not_drawn",
            f"Place a chest you drew ({R.RULE_OF[step['building']]}).",
            kind=kind,
        )
    d = action["drakkar"]
    _port_drakkar(st, d)
    rest = list(step["drawn"])
    rest.remove(kind)
    st.prows[d].append(kind)
    if rest:  # V3.9: the others go under the pile, in the order they were drawn
        st.piles[1][0:0] = rest
    st.record("chest", seat=seat, kind=kind, drakkar=d, returned=len(rest))
    st.goto(after_action(st))


def raise_goods(st: VikingsState, seat: Seat, action: Action) -> None:
    """Raise one goods value by 1, to at most 4 (V3.6, D4)."""
    _require(st, "market")
    kind = action["goods"]
    if kind not in R.GOODS:
        raise IllegalAction("no_such_goods", f"There are no goods called {kind!r}.", goods=kind)
    if st.market[kind] >= R.MARKET_MAX:
        raise IllegalAction(
            "market_at_max",
            f"{kind} is already worth {R.MARKET_MAX}, the most a goods value can be (V3.6, D4).",
            goods=kind,
        )
    st.market[kind] += 1
    st.record("raise", seat=seat, goods=kind, value=st.market[kind])
    st.goto(after_action(st))


# -- the bonus viking of a 2-player game (V3.10) ------------------------------------------------


def bonus_options(st: VikingsState, seat: int) -> list[int]:
    """Return ``seat``'s hull pieces in port that carry no viking yet (V3.10)."""
    colour = st.colours[seat]
    return [
        p
        for d in st.in_port()
        for p in st.hulls[d]
        if st.piece_colour(p) == colour and p not in st.bonus
    ]


def actors_bonus(st: VikingsState) -> list[int]:
    return [] if st.stern_holder is None else [1 - st.stern_holder]


def enter_bonus(st: VikingsState) -> str | None:
    """Skip the bonus viking when the other player has no piece in port without one."""
    assert st.stern_holder is not None
    seat = 1 - st.stern_holder
    if len(st.bonus) >= R.BONUS_VIKINGS or not bonus_options(st, seat):
        st.record("no_bonus_viking", seat=seat)
        return after_action(st)
    return None


def legal_bonus(st: VikingsState, seat: int) -> list[Action]:
    return [{"type": "bonus_viking", "piece": p} for p in bonus_options(st, seat)]


def bonus_viking(st: VikingsState, seat: Seat, action: Action) -> None:
    """Put a viking of an unplayed colour on one of your hull pieces: +1 shield (V3.10)."""
    assert seat is not None
    piece = action["piece"]
    _piece_in_port(st, piece)
    _own_piece(st, seat, piece, "V3.10")
    if piece in st.bonus:
        raise IllegalAction(
            "viking_aboard",
            "That hull piece already carries a viking: at most one per piece (V3.10).",
            piece=piece,
        )
    st.bonus.append(piece)
    st.record("bonus_viking", seat=seat, piece=piece)
    st.goto(after_action(st))
