"""What each reader may see: the one place Vikings on Board's state leaves the engine.

``public`` is the same for every reader: the village, the harbour (hull pieces, chests on the
prows, which seat's barrel stands on which betting zone), the market, pile sizes, and per seat how
many barrels and chests it has. ``private`` holds the reader's own barrel values, wherever they
stand, the chests behind their shield and, while they choose at Warehouse 2, the chests they drew
(V2.6). Nothing else ever leaves: no other seat's barrel values or chests, no pile order, no RNG.
At the end of the game every shield is lifted and the scores are public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..api import Seat
from . import rules as R
from .scoring import score, scores

if TYPE_CHECKING:
    from .state import VikingsState

LOG_TAIL = 40


def _zone_owner(held: int | None) -> int | None:
    return None if held is None else held // R.BARRELS


def public_view(st: VikingsState) -> dict[str, Any]:
    over = st.phase == "over"
    drakkars = []
    for d in range(R.DRAKKARS):
        drakkars.append(
            {
                "drakkar": d,
                "in_port": d not in st.sailed,
                "hull": [
                    {
                        "piece": p,
                        "colour": R.COLOURS[st.piece_colour(p)],
                        "shields": st.shields(p),
                        "viking": p in st.bonus,
                    }
                    for p in st.hulls[d]
                ],
                "chests": list(st.prows[d]),
                "stern": d in st.sailed,
                # V3.4: the table sees whose barrel stands on a zone, never its value.
                "quay": {R.COLOURS[c]: _zone_owner(held) for c, held in enumerate(st.quay[d])},
            }
        )
    seats = []
    for s in range(st.n):
        seats.append(
            {
                "seat": s,
                "colour": R.COLOURS[st.colours[s]],
                "barrels_in_hand": len(st.hands[s]),
                "barrels_won": len(st.won[s]),
                "chests": len(st.chests[s]),
            }
        )
    step = st.step
    public_step = None
    if step is not None:
        barrel = step["barrel"]
        came: Any = None
        if barrel is not None:
            origin = st.barrel_place(step["seat"], barrel)
            came = (
                "hand" if origin is None else {"drakkar": origin[0], "colour": R.COLOURS[origin[1]]}
            )
        public_step = {
            "seat": step["seat"],
            "building": step["building"],
            "from": step["from"],
            "piece": step["piece"],
            "barrel_from": came,
            # V3.5: Warehouse 1's chest is face up; V3.9: Warehouse 2's only its chooser sees.
            "drawn": list(step["drawn"]) if step["building"] == "warehouse_1" else None,
            "drawn_count": len(step["drawn"]),
        }
    sailing = st.sailing
    public_sailing = None
    if sailing is not None:
        order = sailing["influence"]
        public_sailing = {
            "drakkar": sailing["drakkar"],
            "influence": [{"colour": R.COLOURS[c], "shields": s} for c, s in order],
            "due": R.COLOURS[order[sailing["next"]][0]] if order else None,
            "chooser": sailing["chooser"],
            "mode": sailing["mode"],
            "by": sailing.get("by"),  # who sailed it (None in a game saved before this was kept)
            **_reckoning(st, sailing),
        }
    return {
        "turn": st.round,
        "phase": st.phase,
        "players": st.n,
        "active": st.active_seats(),
        "table_actions": [a["type"] for a in st.legal_actions(None)],  # NEXT (V4.2, V4.3)
        "colours": [R.COLOURS[c] for c in st.colours],
        "order": [R.COLOURS[c] for c in st.order],
        "buildings": list(R.BUILDINGS),
        "chief": st.chief,
        "spots": [list(side) for side in st.spots],
        "next_building": st.next_viking(),
        "market": dict(st.market),
        "piles": [len(st.piles[0]), len(st.piles[1])],
        "drakkars": drakkars,
        "sailed": list(st.sailed),
        "sterns": st.sterns,
        "stern_holder": st.stern_holder,
        "bonus_vikings": len(st.bonus),
        "seats": seats,
        "step": public_step,
        "sailing": public_sailing,
        "box": sorted(st.box),
        "scores": scores(st) if over else None,
        "result": st.result,
        "log": st.log[-LOG_TAIL:],
    }


def _reckoning(st: VikingsState, sailing: dict[str, Any]) -> dict[str, Any]:
    """How far the table has shown the sailing (V4.2, V4.3): the colours counted so far, in the
    order their first piece stands from the prow, each with its pieces' shields; whether the
    ranking and the bet on the leader are shown yet."""
    from .sailing import reckon_steps

    steps = reckon_steps(sailing)
    shown = sailing.get("shown", steps)  # a game saved before the steps were paced: all shown
    aboard: dict[int, list[int]] = {}
    for p in st.hulls[sailing["drakkar"]]:
        aboard.setdefault(st.piece_colour(p), []).append(st.shields(p))
    counted = list(aboard.items())[: min(shown, len(aboard))]
    return {
        "shown": shown,
        "steps": steps,
        "counted": [
            {"colour": R.COLOURS[c], "pieces": pieces, "shields": sum(pieces)}
            for c, pieces in counted
        ],
        "ranked": shown > len(aboard),
        "paid": shown >= steps,
    }


def private_view(st: VikingsState, seat: int) -> dict[str, Any]:
    barrels = []
    for b, value in enumerate(st.barrels[seat]):
        where: Any = "hand" if b in st.hands[seat] else "won" if b in st.won[seat] else None
        if where is None:
            zone = st.barrel_place(seat, b)
            assert zone is not None
            where = {"drakkar": zone[0], "colour": R.COLOURS[zone[1]]}
        barrels.append({"barrel": b, "value": value, "where": where})
    step = st.step
    drawn = None
    chosen = None
    if step is not None and step["seat"] == seat:
        drawn = list(step["drawn"])
        chosen = step["barrel"]
    return {
        "colour": R.COLOURS[st.colours[seat]],
        "barrels": barrels,
        "chests": {kind: st.chests[seat].count(kind) for kind in R.GOODS},
        "score": score(st, seat),
        "drawn": drawn,
        "barrel": chosen,
    }


def resample_hidden(st: VikingsState, seat: Seat, rnd: random.Random) -> VikingsState:
    """Return a copy in which everything ``seat`` cannot see is drawn again (for the tests)."""
    out = st.clone()
    if out.phase == "over":  # every shield is lifted: only the piles' order is still unknown
        for pile in out.piles:
            rnd.shuffle(pile)
        out.rng.state = rnd.getrandbits(64)
        return out
    others = [s for s in range(out.n) if s != seat]
    # Chests: both piles, other players' collected chests, Warehouse 2's draw if another seat's.
    pool = out.piles[0] + out.piles[1]
    for s in others:
        pool.extend(out.chests[s])
    step = out.step
    hidden_draw = step is not None and step["building"] == "warehouse_2" and step["seat"] != seat
    if hidden_draw:
        assert step is not None
        pool.extend(step["drawn"])
    rnd.shuffle(pool)
    for pile in out.piles:
        pile[:], pool = pool[: len(pile)], pool[len(pile) :]
    for s in others:
        k = len(out.chests[s])
        out.chests[s], pool = pool[:k], pool[k:]
    if hidden_draw:
        assert step is not None
        step["drawn"] = pool
    # Barrels: which of another seat's barrels is worth what.
    for s in others:
        rnd.shuffle(out.barrels[s])
    out.rng.state = rnd.getrandbits(64)
    return out


def commitments(st: VikingsState) -> dict[int, Any]:
    """The secret values of the barrels each seat has put face down, until the end (V3.4)."""
    if st.phase == "over":
        return {}
    out: dict[int, Any] = {}
    for s in range(st.n):
        placed = {str(b): v for b, v in enumerate(st.barrels[s]) if b not in st.hands[s]}
        if placed:
            out[s] = {"barrels": placed}
    return out
