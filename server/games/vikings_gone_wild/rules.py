"""Vikings Gone Wild's fixed numbers (W0-W9) and the checks of entered card numbers (D1, D2).

Rule IDs refer to ``docs/rules/vikings-gone-wild.md`` (the rules digest with rulings D1-D20).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..api import IllegalAction

MIN_PLAYERS = 2  # W0.1
MAX_PLAYERS = 4

# W0.2: the six kinds of buildings; the resource a Reserve holds or a producer makes.
BUILDING_KINDS = ("gold_factory", "brewery", "gold_reserve", "beer_reserve", "drakkar", "tavern")
RESERVE_OF = {"gold_reserve": "gold", "beer_reserve": "beer"}
PRODUCES = {"gold_factory": "gold", "brewery": "beer"}
RESOURCES = ("gold", "beer")
TOWN_HALL = "town_hall"
TOWN_HALL_CARDS = ("town_hall_1", "town_hall_2", "town_hall_3")  # W0.3
CARDS = BUILDING_KINDS + TOWN_HALL_CARDS  # the cards whose numbers players enter (D1)

SAME_KIND = 3  # W3.2
LIMITS = {1: 5, 2: 8, 3: None}  # W3.3: buildings per town hall level (None: no limit)
TOP_LEVEL = 3
TOP_LEVEL_POINTS = 5  # W3.6
DRAW = 5  # W2.3
STORE_POINT_AT = 4  # W2.6
FAVOUR_SPACES = (5, 12, 20)  # W8.1
BONUS_IN_PLAY = 4  # W0.5, W1.3
SPLIT = {1: 6, 2: 3, 3: 2, 4: 1}  # W9.4
END_MARK = {2: 40, 3: 30, 4: 30}  # W9.1
END_MARKS = {2: (40, 50), 3: (30, 40, 50), 4: (30, 40, 50)}  # W9.2, D19
MISSIONS_HELD = 2  # W7.4
FIRST_MISSION_POINTS = 1  # W1.2

# D1, D2: the ranges of what players enter.
MAX_DEFENCE = 30
MAX_REWARD_POINTS = 9
MAX_ATTACK = 99
MAX_ATTACK_CARDS = 20
MAX_DEFENCE_CARDS = 20
MAX_DEFENCE_VALUE = 99
MISSION_POINTS = (1, 2, 3)  # W0.7
REWARD_RESOURCES = ("none", *RESOURCES)


def attack_points(successes: int) -> int:
    """Return the points of ``successes`` damaged buildings in one turn: 1, 3, 5... (W4.8, D6)."""
    return 0 if successes <= 0 else 2 * successes - 1


def limit(level: int) -> int | None:
    """Return how many buildings a town hall of ``level`` allows (W3.3)."""
    return LIMITS[level]


def town_hall_card(level: int) -> str:
    return f"town_hall_{level}"


def check_numbers(card: object, defence: object, points: object, resource: object) -> None:
    """Check one card's entered numbers (D1) or raise ``bad_numbers``."""
    if card not in CARDS:
        raise IllegalAction("no_such_card", "There is no such card.", card=str(card))
    if type(defence) is not int or not 0 <= defence <= MAX_DEFENCE:
        raise IllegalAction(
            "bad_numbers", f"A defence is 0 to {MAX_DEFENCE} (D1).", what="defence", max=MAX_DEFENCE
        )
    if type(points) is not int or not 0 <= points <= MAX_REWARD_POINTS:
        raise IllegalAction(
            "bad_numbers",
            f"Reward points are 0 to {MAX_REWARD_POINTS} (D1).",
            what="points",
            max=MAX_REWARD_POINTS,
        )
    if resource not in REWARD_RESOURCES:
        raise IllegalAction(
            "bad_numbers", "A reward resource is gold, beer or none (D1).", what="resource", max=0
        )


def validate_cards(data: object) -> dict[str, Any]:
    """Check the card data (the house file or a group's copy) and return what the engine uses.

    ``{"buildings": {kind: count}, "bonuses": [ids], "first_game": [4 ids], "missions":
    {"count", "names": {name: points or None}}, "favours": count, "numbers": {card: numbers}}``.
    """

    def bad(why: str) -> IllegalAction:
        return IllegalAction("bad_config", f"The card data is not valid: {why}", reason=why)

    if not isinstance(data, Mapping):
        raise bad("it must be an object.")
    buildings = data.get("buildings")
    if not isinstance(buildings, Sequence) or isinstance(buildings, str):
        raise bad("buildings must be a list.")
    counts: dict[str, int] = {}
    numbers: dict[str, dict[str, Any]] = {}
    printed: dict[str, int] = {}  # a card's defence the print gives, its reward unknown
    for entry in buildings:
        if not isinstance(entry, Mapping) or entry.get("kind") not in BUILDING_KINDS:
            raise bad(f"each building needs a kind among {', '.join(BUILDING_KINDS)}.")
        count = entry.get("count")
        if type(count) is not int or not 0 < count <= 99:
            raise bad(f"the count of {entry['kind']} must be a whole number from 1 to 99.")
        counts[entry["kind"]] = count
        known = _known_numbers(entry, entry["kind"], bad)
        if known is not None:
            numbers[entry["kind"]] = known
        elif type(entry.get("defence")) is int:
            printed[entry["kind"]] = entry["defence"]
    if set(counts) != set(BUILDING_KINDS):
        raise bad(f"give a count for each of {', '.join(BUILDING_KINDS)}.")
    for entry in data.get("town_halls") or []:
        if not isinstance(entry, Mapping) or entry.get("level") not in (1, 2, 3):
            raise bad("each town hall needs a level of 1, 2 or 3.")
        card = town_hall_card(entry["level"])
        known = _known_numbers(entry, card, bad)
        if known is not None:
            numbers[card] = known
        elif type(entry.get("defence")) is int:
            printed[card] = entry["defence"]
    bonuses = data.get("bonuses")
    if not isinstance(bonuses, Sequence) or isinstance(bonuses, str):
        raise bad("bonuses must be a list.")
    ids = [b.get("id") if isinstance(b, Mapping) else None for b in bonuses]
    if len(ids) < BONUS_IN_PLAY or any(type(i) is not str or not i for i in ids):
        raise bad(f"list at least {BONUS_IN_PLAY} bonus cards, each with an id.")
    if len(set(ids)) != len(ids):
        raise bad("bonus card ids must differ.")
    first = [b["id"] for b in bonuses if b.get("first_game")]
    if first and len(first) != BONUS_IN_PLAY:
        raise bad(f"mark exactly {BONUS_IN_PLAY} bonus cards for a first game.")
    missions = data.get("missions")
    if not isinstance(missions, Mapping):
        raise bad("missions must be an object with a count.")
    total = missions.get("count")
    if type(total) is not int or not 0 < total <= 99:
        raise bad("the mission count must be a whole number from 1 to 99.")
    names: dict[str, int | None] = {}
    for card in missions.get("cards") or []:
        name = card.get("name") if isinstance(card, Mapping) else None
        if type(name) is not str or not name:
            raise bad("each mission listed needs a name.")
        pts = card.get("points")
        if pts is not None and pts not in MISSION_POINTS:
            raise bad("a mission's points are 1, 2 or 3 (W0.7).")
        names[name] = pts
    favours = data.get("favours")
    count = favours.get("count") if isinstance(favours, Mapping) else None
    if type(count) is not int or not 0 <= count <= 99:
        raise bad("favours must give a count.")
    return {
        "buildings": counts,
        "bonuses": ids,
        "first_game": first,
        # the cards whose name the print does not give: the group names them (D20)
        "unnamed": [b["id"] for b in bonuses if not b.get("name")],
        "missions": {"count": total, "names": names},
        "favours": count,
        "numbers": numbers,
        "printed": printed,
    }


def _known_numbers(entry: Mapping[str, Any], card: str, bad: Any) -> dict[str, Any] | None:
    """Return a card's numbers when all of them are filled in, else None (D1)."""
    defence, reward = entry.get("defence"), entry.get("reward")
    if defence is None or reward is None:
        return None
    if not isinstance(reward, Mapping):
        raise bad(f"the reward of {card} must be an object.")
    numbers = {
        "defence": defence,
        "points": reward.get("points"),
        "resource": reward.get("resource"),
        "favour": reward.get("favour"),
    }
    try:
        check_numbers(card, numbers["defence"], numbers["points"], numbers["resource"])
    except IllegalAction as exc:
        raise bad(f"{card}: {exc.message}") from None
    if type(numbers["favour"]) is not bool:
        raise bad(f"the reward of {card} says whether it gives a favour (true or false).")
    return numbers
