"""The phases of a turn (W2) up to the players' own and what players do in them: missions (W7),
buildings and the town hall (W3), attacks and defence (W4, W5), the undead (W6). Storage and the
end of the turn are in turn_end.py.

Every handler checks everything before it changes anything, so an illegal action changes nothing.
Numbers only the cards know are entered by players (D1, D2): the legal actions list a small menu
of plausible entries (what a bot samples from); the handlers accept any value in range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import WildState

# What the legal actions offer where a player would type a number (a bot's samples).
NUMBER_MENU = (
    (1, 0, "none", False),
    (2, 0, "none", False),
    (3, 1, "none", False),
    (4, 0, "gold", False),
    (5, 0, "beer", True),
)
DEFENCE_MENU = ((0, 0), (1, 1), (1, 2), (1, 3), (2, 4))


# -- setup: the first missions (W1.2) and the draw phase's mission (W7.2) -----------------------


def first_missions(st: WildState) -> str:
    """Every player holds their two first missions, 1 point each (W1.2): nobody is asked, for
    a 1-point mission with no name tells nothing. Its holder may name it when it is completed.
    Returns the phase that follows (production)."""
    for seat in range(st.n):
        st.missions[seat] = [
            {"name": "", "points": R.FIRST_MISSION_POINTS} for _ in range(R.MISSIONS_HELD)
        ]
        st.missions_left -= R.MISSIONS_HELD
    st.record("first_missions", held=R.MISSIONS_HELD)
    return "production"


def actors_missions(st: WildState) -> list[int]:
    """A game stored before the first missions were dealt at once: who still enters them."""
    return [s for s in range(st.n) if len(st.missions[s]) < R.MISSIONS_HELD]


def mission_menu(st: WildState, first: bool) -> list[Action]:
    names = st.config["cards"]["missions"]["names"]
    out: list[Action] = []
    for points in (R.FIRST_MISSION_POINTS,) if first else R.MISSION_POINTS:
        out.append({"type": "take_mission", "name": "", "points": points})
        for name, known in sorted(names.items()):
            if known in (None, points):
                out.append({"type": "take_mission", "name": name, "points": points})
    return out


def legal_missions(st: WildState, seat: int) -> list[Action]:
    return mission_menu(st, first=True) if seat in actors_missions(st) else []


def check_mission(st: WildState, name: str, points: int, first: bool) -> None:
    """Check an entered mission (D2, D14) or raise."""
    names = st.config["cards"]["missions"]["names"]
    if name and name not in names:
        raise IllegalAction("no_such_mission", "There is no mission of that name in the base game.")
    allowed = (R.FIRST_MISSION_POINTS,) if first else R.MISSION_POINTS
    known = names.get(name)
    if points not in allowed or (known is not None and points != known):
        raise IllegalAction(
            "bad_mission_points",
            "A mission is worth 1, 2 or 3 points; the first two are 1-point missions (W1.2).",
        )
    if st.missions_left <= 0:
        raise IllegalAction("no_mission_left", "The mission pile is empty (D13).")


def take_mission(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    # only a seat holding fewer than 2 is asked, in both phases (W7.4)
    first = st.phase == "missions"
    check_mission(st, action["name"], action["points"], first)
    st.missions[seat].append({"name": action["name"], "points": action["points"]})
    st.missions_left -= 1
    st.record("mission_taken", seat=seat, held=len(st.missions[seat]))
    if first:
        if not actors_missions(st):
            st.goto("production")
    else:
        st.decided[seat] = True


# -- production (W2.2) and draw (W2.3, W7.2) ----------------------------------------------------


def enter_production(st: WildState) -> str | None:
    for s in range(st.n):
        fig = st.figures(s)
        st.loot[s] = {"gold": fig["gold"], "beer": fig["beer"]}
    st.record("production", figures=[st.figures(s) for s in range(st.n)])
    return None


def next_to_draw(st: WildState, seat: Seat, action: Action) -> None:
    st.goto("draw")


def enter_draw(st: WildState) -> str | None:
    st.decided = [False] * st.n
    return None


def actors_draw(st: WildState) -> list[int]:
    """The first player still to answer, in order from the first player (W7.2, D13)."""
    if st.missions_left <= 0:
        return []
    for s in st.order():
        if not st.decided[s] and len(st.missions[s]) < R.MISSIONS_HELD:
            return [s]
    return []


def legal_draw(st: WildState, seat: int) -> list[Action]:
    if seat not in actors_draw(st):
        return []
    return [*mission_menu(st, first=False), {"type": "pass_mission"}]


def pass_mission(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    st.decided[seat] = True


def next_to_players(st: WildState, seat: Seat, action: Action) -> None:
    st.goto("players")


# -- the players' phase (W2.4) ------------------------------------------------------------------


def enter_players(st: WildState) -> str | None:
    if st.current is None:  # back from a defence, the same player's turn goes on
        start_turn(st, st.first)
    return None


def start_turn(st: WildState, seat: int) -> None:
    st.current = seat
    st.target = None
    st.successes = 0
    st.undo_stack = []
    st.record("turn_of", seat=seat)


def actors_players(st: WildState) -> list[int]:
    return [] if st.current is None else [st.current]


def buildable(st: WildState, seat: int, kind: str) -> IllegalAction | None:
    """Return why ``seat`` cannot build ``kind`` now, or None (W3.2, W3.3, D8, D10)."""
    if kind not in R.BUILDING_KINDS:
        return IllegalAction("no_such_kind", "There is no such building.")
    if st.count(seat, kind) >= R.SAME_KIND:
        return IllegalAction(
            "kind_limit", "You already have 3 buildings of this kind (W3.2).", max=3
        )
    cap = R.limit(st.active_level(seat))
    if cap is not None and len(st.buildings(seat)) >= cap:
        return IllegalAction(
            "village_full",
            f"Your town hall allows {cap} buildings: upgrade it first (W3.3).",
            max=cap,
        )
    built = sum(st.count(s, kind) for s in range(st.n))
    if built >= st.config["cards"]["buildings"][kind]:
        return IllegalAction("no_building_card", "Every card of this building is built (D10).")
    return None


def can_upgrade(st: WildState, seat: int) -> IllegalAction | None:
    hall = st.town_hall(seat)
    if hall["level"] >= R.TOP_LEVEL:
        return IllegalAction("town_hall_top", "Your town hall is at level 3 (W3.3).")
    if hall["new"]:
        return IllegalAction(
            "town_hall_building", "Your town hall is under construction this turn (D8)."
        )
    return None


def targets(st: WildState, seat: int) -> list[tuple[int, int]]:
    """Return the buildings ``seat`` may attack now, as (player, building) (W4.2-W4.5, D4, D21).

    Under W4.4's exception (every other player attacked this turn, so the attacker turns on one
    already attacked) no building attacked this turn is offered, whoever attacked it and whether
    it fell or held; otherwise only those that repelled this attacker are left out (D21)."""
    if st.target is not None:
        players = [st.target]
        # the target was attacked before this player's turn: damage markers not theirs (W4.2)
        exception = sum(b["damaged"] for b in st.villages[st.target]) > st.successes
    else:
        others = [s for s in range(st.n) if s != seat]
        fresh = [s for s in others if not st.attacked(s)]
        players = fresh or others  # W4.4
        exception = not fresh
    held = {(p, b) for p, b, attacker in _repelled(st) if exception or attacker == seat}
    return [
        (p, b)
        for p in players
        for b, building in enumerate(st.villages[p])
        if not building["damaged"] and not building["new"] and (p, b) not in held
    ]


def _repelled(st: WildState) -> list[tuple[int, int, int]]:
    """The buildings that repelled an attack this turn: (player, building, attacker). A game
    stored before the attacker was kept has only the current player's (D21)."""
    current = st.current if st.current is not None else -1
    return [(r[0], r[1], r[2] if len(r) > 2 else current) for r in st.repelled]


def legal_players(st: WildState, seat: int) -> list[Action]:
    if seat != st.current:
        return []
    out: list[Action] = [{"type": "end_turn"}]
    if st.undo_stack:
        out.append({"type": "undo", "undo": True})
    for kind in R.BUILDING_KINDS:
        if buildable(st, seat, kind) is None:
            out.append({"type": "build", "kind": kind})
    if can_upgrade(st, seat) is None:
        out.append({"type": "upgrade"})
    unknown: list[str] = []
    for p, b in targets(st, seat):
        card = st.card_of(st.villages[p][b])
        numbers = st.numbers.get(card)
        if numbers is None:
            if card not in unknown:
                unknown.append(card)
            continue
        d = numbers["defence"]
        for value, cards in sorted({(max(1, d - 1), 1), (max(1, d), 1), (d + 2, 2), (d + 4, 1)}):
            out.append(
                {"type": "attack", "target": p, "building": b, "attack": value, "cards": cards}
            )
    for card in unknown:
        for defence, points, resource, favour in NUMBER_MENU:
            out.append(
                {
                    "type": "card_numbers",
                    "card": card,
                    "defence": defence,
                    "points": points,
                    "resource": resource,
                    "favour": favour,
                }
            )
    for resource in R.RESOURCES:
        out.append({"type": "undead_river", "resource": resource})
    if not st.undead_used[seat]:
        for resource in R.RESOURCES:
            out.append({"type": "undead_board", "resource": resource})
    for slot in range(len(st.missions[seat])):
        out.append({"type": "complete_mission", "slot": slot})
    if not st.swapped[seat] and st.missions_left > 0:
        for slot in range(len(st.missions[seat])):
            for points in R.MISSION_POINTS:
                out.append({"type": "swap_mission", "slot": slot, "name": "", "points": points})
    for b, building in enumerate(st.villages[seat]):
        if building["stock"] > 0:
            out.append({"type": "spend", "building": b, "count": 1})
    return out


def build(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    why = buildable(st, seat, action["kind"])
    if why is not None:
        raise why
    st.push_undo()
    # W3.4: under construction until the end of the turn.
    building = {"kind": action["kind"], "level": 0, "new": True, "damaged": False, "stock": 0}
    st.villages[seat].append(building)
    st.record("built", seat=seat, kind=action["kind"], building=len(st.villages[seat]) - 1)


def upgrade(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    why = can_upgrade(st, seat)
    if why is not None:
        raise why
    st.push_undo()
    hall = st.town_hall(seat)
    hall["level"] += 1
    hall["new"] = True  # W3.5
    st.record("upgraded", seat=seat, level=hall["level"])
    if hall["level"] == R.TOP_LEVEL:
        st.gain(seat, R.TOP_LEVEL_POINTS, "town_hall")  # W3.6


def card_numbers(st: WildState, seat: Seat, action: Action) -> None:
    R.check_numbers(action["card"], action["defence"], action["points"], action["resource"])
    st.push_undo()
    entry = {k: action[k] for k in ("defence", "points", "resource", "favour")}
    before = st.numbers.get(action["card"])
    st.numbers[action["card"]] = entry
    st.record("card_numbers", seat=seat, card=action["card"], numbers=entry, before=before)


def attack(st: WildState, seat: Seat, action: Action) -> None:
    """Declare an attack on one building and commit its value (W4, D3)."""
    assert seat is not None
    p, b = action["target"], action["building"]
    if not 0 <= p < st.n:
        raise IllegalAction("no_such_seat", "There is no such seat.")
    if p == seat:
        raise IllegalAction("own_village", "You cannot attack your own village.")
    if st.target is not None and p != st.target:
        raise IllegalAction("one_player_per_turn", "You attack one player per turn (W4.2).")
    if st.target is None:
        fresh = [s for s in range(st.n) if s != seat and not st.attacked(s)]
        if fresh and p not in fresh:
            raise IllegalAction(
                "already_attacked", "That player has been attacked this turn (W4.3)."
            )
    if not 0 <= b < len(st.villages[p]):
        raise IllegalAction("no_such_building", "There is no such building.")
    if (p, b) not in targets(st, seat):
        building = st.villages[p][b]
        if building["new"]:
            raise IllegalAction(
                "under_construction", "That building is under construction this turn (W3.4)."
            )
        if building["damaged"]:
            raise IllegalAction(
                "building_damaged", "That building has a damage marker this turn (W4.5)."
            )
        if any((q, c, a) == (p, b, seat) for q, c, a in _repelled(st)):
            raise IllegalAction(
                "building_repelled", "That building repelled your attack this turn (D21)."
            )
        if any((q, c) == (p, b) for q, c, _ in _repelled(st)):
            raise IllegalAction(
                "building_attacked",
                "That building has been attacked this turn: with every other player attacked,"
                " only a building not attacked yet may be (W4.4).",
            )
        raise IllegalAction("already_attacked", "That player has been attacked this turn (W4.3).")
    card = st.card_of(st.villages[p][b])
    if card not in st.numbers:
        raise IllegalAction(
            "numbers_unknown", "Enter the numbers printed on that card first (D1).", card=card
        )
    if not 1 <= action["attack"] <= R.MAX_ATTACK or not 1 <= action["cards"] <= R.MAX_ATTACK_CARDS:
        raise IllegalAction(
            "bad_attack",
            f"An attack is 1 to {R.MAX_ATTACK} with 1 to {R.MAX_ATTACK_CARDS} cards (D2).",
            max=R.MAX_ATTACK,
            cards=R.MAX_ATTACK_CARDS,
        )
    st.undo_stack = []  # D15: an attack stands
    st.target = p
    st.attack = {
        "attacker": seat,
        "target": p,
        "building": b,
        "card": card,
        "value": action["attack"],
        "cards": action["cards"],
    }
    st.record("attack", seat=seat, target=p, building=b, card=card, cards=action["cards"])
    st.goto("defend")


def actors_defend(st: WildState) -> list[int]:
    return [] if st.attack is None else [st.attack["target"]]


def legal_defend(st: WildState, seat: int) -> list[Action]:
    if seat not in actors_defend(st):
        return []
    return [{"type": "defend", "cards": c, "value": v} for c, v in DEFENCE_MENU]


def defend(st: WildState, seat: Seat, action: Action) -> None:
    """Answer the attack with defence cards (W5.2) and resolve it (W4.6-W4.12, W5.4)."""
    cards, value = action["cards"], action["value"]
    if (
        not 0 <= cards <= R.MAX_DEFENCE_CARDS
        or not 0 <= value <= R.MAX_DEFENCE_VALUE
        or (cards == 0 and value != 0)
    ):
        raise IllegalAction(
            "bad_defence",
            f"Play 0 to {R.MAX_DEFENCE_CARDS} defence cards worth 0 to {R.MAX_DEFENCE_VALUE} "
            "together; no cards add nothing (D2).",
            max=R.MAX_DEFENCE_CARDS,
        )
    att = st.attack
    assert att is not None
    attacker, p, b = att["attacker"], att["target"], att["building"]
    numbers = st.numbers[att["card"]]
    building = st.villages[p][b]
    total = numbers["defence"] + value
    success = att["value"] >= total  # W4.6
    st.attack = None
    report: dict[str, Any] = {
        "attacker": attacker,
        "target": p,
        "building": b,
        "card": att["card"],
        "attack": att["value"],
        "attack_cards": att["cards"],
        "defence": numbers["defence"],
        "defence_cards": cards,
        "defence_value": value,
        "total_defence": total,
        "success": success,
    }
    st.record("attack_answered", **report)
    if success:
        building["damaged"] = True  # W4.7
        st.successes += 1
        gained = R.attack_points(st.successes) - R.attack_points(st.successes - 1)
        report["points"] = gained
        st.gain(attacker, gained, "attacks")  # W4.8
        st.gain(attacker, numbers["points"], "rewards")  # W4.9
        report["plunder"] = None
        if numbers["resource"] != "none":
            report["plunder"] = plunder(st, attacker, p, b, numbers["resource"])
        if numbers["favour"]:
            st.earn_favour(attacker, "reward")
        if building["kind"] == R.TOWN_HALL and building["level"] >= 2:  # W4.10, D5
            st.earn_favour(attacker, "town_hall")
    else:
        report["points"] = att["cards"]
        st.repelled.append([p, b, attacker])
        st.gain(p, att["cards"], "defence")  # W5.4
    st.last_attack = report
    st.goto("players")


def plunder(st: WildState, attacker: int, owner: int, b: int, resource: str) -> int | None:
    """Take one ``resource`` from the owner's Reserves (W4.9, W4.11, D7); return the Reserve."""
    village = st.villages[owner]
    kind = f"{resource}_reserve"
    choices = [i for i, x in enumerate(village) if x["kind"] == kind and x["stock"] > 0]
    if not choices:
        st.record("nothing_to_plunder", seat=attacker, owner=owner, resource=resource)
        return None
    pick = b if b in choices else max(choices, key=lambda i: (village[i]["stock"], -i))
    village[pick]["stock"] -= 1
    st.loot[attacker][resource] += 1  # W4.12: it may be stored this turn
    st.record("plundered", seat=attacker, owner=owner, building=pick, resource=resource)
    return pick


def _resource(action: Action) -> str:
    if action["resource"] not in R.RESOURCES:
        raise IllegalAction("no_such_resource", "A resource is gold or beer.")
    resource: str = action["resource"]
    return resource


def undead_river(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    resource = _resource(action)
    st.push_undo()
    st.record("undead_river", seat=seat, resource=resource)
    st.gain(seat, 1, "undead")  # W6.1; D11: not stored


def undead_board(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    resource = _resource(action)
    if st.undead_used[seat]:
        raise IllegalAction("undead_used", "You have attacked the board's undead this turn (W6.2).")
    st.push_undo()
    st.undead_used[seat] = True
    st.loot[seat][resource] += 1
    st.record("undead_board", seat=seat, resource=resource)


def _slot(st: WildState, seat: int, slot: int) -> dict[str, Any]:
    if not 0 <= slot < len(st.missions[seat]):
        raise IllegalAction("no_such_mission_slot", "You hold no such mission.")
    mission: dict[str, Any] = st.missions[seat][slot]
    return mission


def complete_mission(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    mission = _slot(st, seat, action["slot"])
    st.push_undo()
    st.missions[seat].pop(action["slot"])
    st.done[seat].append(mission)
    st.record("mission_done", seat=seat, name=mission["name"], mission_points=mission["points"])
    st.gain(seat, mission["points"], "missions")  # W7.1


def name_mission(st: WildState, seat: Seat, action: Action) -> None:
    """The holder names a held mission when they like (its points stay; D2, D14): secret until
    it is completed, like the mission itself."""
    assert seat is not None
    mission = _slot(st, seat, action["slot"])
    names = st.config["cards"]["missions"]["names"]
    if action["name"] not in names or names[action["name"]] not in (None, mission["points"]):
        raise IllegalAction(
            "no_such_mission", "There is no mission of that name and points in the base game."
        )
    mission["name"] = action["name"]


def swap_mission(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    _slot(st, seat, action["slot"])
    if st.swapped[seat]:
        raise IllegalAction("mission_swapped", "You have swapped a mission this turn (W7.3).")
    check_mission(st, action["name"], action["points"], first=False)
    st.push_undo()
    st.swapped[seat] = True
    # D13: the old mission goes under the pile, so the pile keeps its size.
    st.missions[seat][action["slot"]] = {"name": action["name"], "points": action["points"]}
    st.record("mission_swapped", seat=seat)


def reserve_at(st: WildState, seat: int, b: int) -> dict[str, Any]:
    """The Reserve at building ``b`` of ``seat``'s village, or IllegalAction."""
    village = st.villages[seat]
    if not 0 <= b < len(village):
        raise IllegalAction("no_such_building", "There is no such building.")
    if village[b]["kind"] not in R.RESERVE_OF:
        raise IllegalAction("not_a_reserve", "That building is not a Reserve.")
    building: dict[str, Any] = village[b]
    return building


def spend(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    reserve = reserve_at(st, seat, action["building"])
    if not 1 <= action["count"] <= reserve["stock"]:
        raise IllegalAction(
            "bad_count", "That Reserve does not hold that many.", have=reserve["stock"]
        )
    st.push_undo()
    reserve["stock"] -= action["count"]
    st.record(
        "spent",
        seat=seat,
        building=action["building"],
        count=action["count"],
        resource=R.RESERVE_OF[reserve["kind"]],
    )


def undo(st: WildState, seat: Seat, action: Action) -> None:
    if not st.undo_stack:
        raise IllegalAction("nothing_to_undo", "There is nothing to take back this turn (D15).")
    st.pop_undo()
    st.record("undone", seat=seat)


def end_turn(st: WildState, seat: Seat, action: Action) -> None:
    """End the current player's turn (the player or the NEXT button): complete defence (W5.5)."""
    assert st.current is not None
    if st.target is not None and st.successes == 0:
        hall = st.town_hall(st.target)
        hall["damaged"] = True
        st.record("complete_defence", seat=st.target, attacker=st.current)
        st.gain(st.target, 1, "defence")
    order = st.order()
    k = order.index(st.current)
    st.record("turn_ended", seat=st.current)
    if k + 1 < st.n:
        start_turn(st, order[k + 1])
    else:
        st.current = None
        st.target = None
        st.repelled = []
        st.undo_stack = []
        st.goto("storage")
