"""Vikings on Board's components and fixed numbers (V0), and the component data's format (D1-D3).

Rule IDs refer to ``docs/rules/vikings-on-board.md`` (the rules digest with rulings D1-D6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..api import IllegalAction

MIN_PLAYERS = 2  # V0.1
MAX_PLAYERS = 4
COLOURS = ("red", "green", "blue", "yellow")  # V0.1
BARRELS = 4  # V0.2: per colour
HULL_PIECES = 6  # V0.2: per colour
DRAKKARS = 8  # V0.3: 8 prows
STERNS = 7  # V0.3
GOODS = ("furs", "grain", "metal")  # V0.3
CHESTS = 15  # V0.3
PILE_1 = 7  # V1.5: the rest (8) is the pile of Warehouse 2
HULL_MAX = 5  # V2.5
MARKET_START = 1  # V1.4
MARKET_MAX = 4  # V3.6
W2_DRAW = 3  # V3.9
BONUS_VIKINGS = 8  # V3.10: the 4 vikings of each of the 2 unplayed colours (2 players)
VIKINGS = {2: 4, 3: 3, 4: 2}  # V1.1
PATTERNS = {2: "AB BA AB BA", 3: "ABC BCA CAB", 4: "ABCD DCBA"}  # V1.2

# V0.4: the village, left to right; a building's index is its place in the row.
BUILDINGS = (
    "first_player",
    "promotion",
    "change_drakkar",
    "tavern_1",
    "warehouse_1",
    "market",
    "move",
    "tavern_2",
    "warehouse_2",
    "departure",
    "exchange",
)
BUILDING_INDEX = {name: i for i, name in enumerate(BUILDINGS)}
RULE_OF = {
    "first_player": "V3.1",
    "promotion": "V3.2",
    "change_drakkar": "V3.3",
    "tavern_1": "V3.4",
    "warehouse_1": "V3.5",
    "market": "V3.6",
    "move": "V3.7",
    "tavern_2": "V3.8",
    "warehouse_2": "V3.9",
    "departure": "V3.10",
    "exchange": "V3.11",
}

# What a user may put in the component data file, with sane bounds.
MAX_BARREL_VALUE = 99
MAX_SHIELDS = 9


def pattern(players: int) -> list[int]:
    """Return the setup pattern as indices into the drawn colour order (V1.2)."""
    return [ord(ch) - ord("A") for ch in PATTERNS[players] if ch != " "]


def validate_components(data: object) -> dict[str, Any]:
    """Check the component data (D1-D3) and return it in canonical form, or raise ``bad_config``.

    ``{"barrels": [4 values], "hull_pieces": [6 shield counts], "chests": {kind: count}}``: every
    colour has the same 4 barrels and 6 hull pieces; the chests are 15 of furs, grain and metal.
    """

    def bad(why: str) -> IllegalAction:
        return IllegalAction("bad_config", f"The component data is not valid: {why}", reason=why)

    if not isinstance(data, Mapping):
        raise bad("it must be an object with barrels, hull_pieces and chests.")
    unknown = sorted(set(data) - {"barrels", "hull_pieces", "chests", "about"})
    if unknown:
        raise bad(f"unknown entry {unknown[0]!r}.")
    barrels = _numbers(data.get("barrels"), BARRELS, MAX_BARREL_VALUE, "barrels", bad)
    shields = _numbers(data.get("hull_pieces"), HULL_PIECES, MAX_SHIELDS, "hull_pieces", bad)
    chests = data.get("chests")
    if not isinstance(chests, Mapping) or set(chests) != set(GOODS):
        raise bad(f"chests must give a count for each of {', '.join(GOODS)}.")
    counts = {kind: chests[kind] for kind in GOODS}
    if any(type(c) is not int or c < 0 for c in counts.values()):
        raise bad("chest counts must be whole numbers of 0 or more.")
    if sum(counts.values()) != CHESTS:
        raise bad(f"there must be {CHESTS} chests in all (V0.3), not {sum(counts.values())}.")
    return {"barrels": barrels, "hull_pieces": shields, "chests": counts}


def _numbers(values: object, count: int, top: int, name: str, bad: Any) -> list[int]:
    if not isinstance(values, Sequence) or isinstance(values, (str, bytes)):
        raise bad(f"{name} must be a list of {count} whole numbers.")
    if len(values) != count:
        raise bad(f"{name} must list {count} values (V0.2), not {len(values)}.")
    if any(type(v) is not int or not 1 <= v <= top for v in values):
        raise bad(f"{name} must be whole numbers from 1 to {top}.")
    return list(values)
