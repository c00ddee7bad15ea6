"""What each reader may see: the one place Vikings Gone Wild's state leaves the engine.

``public`` is the same for every reader: the score track, the phase and whose turn it is, every
village (town hall level, buildings with their construction and damage markers, Reserves), each
player's production and draw, the card numbers entered, the bonus cards in play, the attack in
progress without its value (D3: its fingerprint is published by the server from
:func:`commitments`), the last attack's arithmetic, how many missions each player holds and the
missions they completed. ``private`` holds the reader's own missions (W1.2, D14), the value of
an attack waiting for an answer when the reader made it or is the one it attacks (D3: the defender
weighs it before playing defence cards), and their bonus and tie-break answers until everyone has
answered. Nothing else leaves: no other player's missions, no order of the bonus cards in the box.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..api import Seat
from . import rules as R
from .turn import targets

if TYPE_CHECKING:
    from .state import WildState

LOG_TAIL = 40


# where "now" begins for the favours earned
_NOW = frozenset({"turn_of", "production", "turn_ended", "turn_over", "bonus_check"})


def _favours_now(st: WildState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for event in reversed(st.log):
        if event["e"] in _NOW:
            break
        if event["e"] == "favour":
            out.append({"seat": event["seat"], "why": event["why"]})
    return out[::-1]


def _attackable(st: WildState) -> dict[str, list[int]]:
    if st.phase != "players" or st.current is None:
        return {}
    out: dict[str, list[int]] = {}
    for p, b in targets(st, st.current):
        out.setdefault(str(p), []).append(b)
    return out


def _village(st: WildState, seat: int) -> dict[str, Any]:
    hall = st.town_hall(seat)
    level = st.active_level(seat)
    return {
        "town_hall": {
            "level": hall["level"],
            "active_level": level,
            "new": hall["new"],
            "damaged": hall["damaged"],
        },
        "buildings": [
            {
                "building": b,
                "kind": x["kind"],
                "new": x["new"],
                "damaged": x["damaged"],
                "stock": x["stock"] if x["kind"] in R.RESERVE_OF else None,
                "resource": R.RESERVE_OF.get(x["kind"]) or R.PRODUCES.get(x["kind"]),
            }
            for b, x in enumerate(st.villages[seat])
            if b > 0
        ],
        "limit": R.limit(level),
    }


def public_view(st: WildState) -> dict[str, Any]:
    seats = []
    for s in range(st.n):
        seats.append(
            {
                "seat": s,
                "score": st.score[s],
                "breakdown": dict(st.points[s]),
                "favours": st.favours[s],
                "reached": sorted(st.reached[s]),
                **_village(st, s),
                "figures": st.figures(s),
                "loot": dict(st.loot[s]),
                "missions_held": len(st.missions[s]),
                "missions_done": [dict(m) for m in st.done[s]],
                "attacked": st.attacked(s),
                "undead_used": st.undead_used[s],
                "swapped": st.swapped[s],
                "answered": st.claims[s] is not None,
            }
        )
    attack = st.attack
    pending = None
    if attack is not None:
        pending = {k: attack[k] for k in ("attacker", "target", "building", "card", "cards")}
    tb = st.tiebreak
    tiebreak = None
    if tb is not None:
        waiting = st.phase == "tiebreak"
        tiebreak = {
            "card": tb["card"],
            "tied": list(tb["tied"]),
            "drawn": list(tb["drawn"]),
            "answered": sorted(int(s) for s in tb["answers"]),
            "answers": None if waiting else dict(tb["answers"]),
            # every card answered so far: who was tied and who met it (W9.6, D17)
            "rounds": [dict(r) for r in tb.get("rounds", [])],
        }
    done = st.phase in ("tiebreak", "over")
    return {
        "turn": st.round,
        "phase": st.phase,
        "players": st.n,
        "active": st.active_seats(),
        "first": st.first,
        "current": st.current,
        "order": st.order(),
        "end_mark": st.config["end_mark"],
        "favour_spaces": list(R.FAVOUR_SPACES),
        "last_turn": st.last_turn,
        "favours_left": st.favours_left,
        "missions_left": st.missions_left,
        "numbers": {card: dict(v) for card, v in sorted(st.numbers.items())},
        "bonus": list(st.bonus),
        "box": len(st.box),
        "bonus_cards": list(st.config["cards"]["bonuses"]),  # the box's 8 (W0.5)
        "first_game": list(st.config["cards"]["first_game"]),
        "unnamed": list(st.config["cards"]["unnamed"]),  # the print gives no name (D20)
        # the missions a group's card data names, with their points if known (D2)
        "mission_names": dict(st.config["cards"]["missions"]["names"]),
        # a defence the print gives for a card whose other numbers players enter (W0.6)
        "printed": dict(st.config["cards"]["printed"]),
        "bonus_names": dict(st.bonus_names),  # the group's names (D20)
        "claims": [list(c) if c is not None else None for c in st.claims] if done else None,
        "seats": seats,
        "target": st.target,
        # what the player whose turn it is may attack now, by player (W4.2-W4.5, D4, D21)
        "attackable": _attackable(st),
        # the divine favours earned in this player's turn or this phase: each player takes its
        # card from the table (W8.1-W8.3)
        "favours_now": _favours_now(st),
        "successes": st.successes,
        "attack": pending,
        "last_attack": None if st.last_attack is None else dict(st.last_attack),
        "tiebreak": tiebreak,
        "result": st.result,
        "log": st.log[-LOG_TAIL:],
    }


def private_view(st: WildState, seat: int) -> dict[str, Any]:
    held = [
        {"slot": k, "name": m["name"], "points": m["points"]}
        for k, m in enumerate(st.missions[seat])
    ]
    attack = st.attack
    own = None
    if attack is not None and seat in (attack["attacker"], attack["target"]):
        own = {"attack": attack["value"], "cards": attack["cards"]}
    tb = st.tiebreak
    return {
        "missions": held,
        "mission_points": sum(m["points"] for m in held),
        "attack": own,
        "claims": st.claims[seat],
        "tiebreak": None if tb is None else tb["answers"].get(str(seat)),
    }


def resample_hidden(st: WildState, seat: Seat, rnd: random.Random) -> WildState:
    """Return a copy in which everything ``seat`` cannot see is drawn again (for the tests)."""
    out = st.clone()
    others = [s for s in range(out.n) if s != seat]
    for s in others:
        out.missions[s] = [
            {"name": "", "points": rnd.choice(R.MISSION_POINTS)} for _ in out.missions[s]
        ]
        if out.claims[s] is not None and out.phase not in ("tiebreak", "over"):
            out.claims[s] = [rnd.random() < 0.5 for _ in out.bonus]
    rnd.shuffle(out.box)
    if out.attack is not None and seat not in (out.attack["attacker"], out.attack["target"]):
        out.attack["value"] = rnd.randint(1, R.MAX_ATTACK)
    tb = out.tiebreak
    if tb is not None and out.phase == "tiebreak":
        for s in list(tb["answers"]):
            if s != str(seat):
                tb["answers"][s] = rnd.random() < 0.5
    out.rng.state = rnd.getrandbits(64)
    return out


def commitments(st: WildState) -> dict[int, Any]:
    """The attack committed and waiting for the defender's answer, by its attacker (D3)."""
    attack = st.attack
    if attack is None:
        return {}
    return {
        attack["attacker"]: {
            "target": attack["target"],
            "building": attack["building"],
            "attack": attack["value"],
            "cards": attack["cards"],
        }
    }
