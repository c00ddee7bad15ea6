"""Eketorp's components and fixed numbers (R0), the board's geometry and the material deck's format.

Rule IDs refer to ``docs/rules/eketorp.md`` (a copy of the shared rules digest with rulings D1-D14).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from ..api import IllegalAction

MIN_PLAYERS = 3  # R0.1
MAX_PLAYERS = 6
VIKINGS = {3: 8, 4: 6, 5: 6, 6: 5}  # R0.2
AMULETS = 5  # R0.3
CARD_VALUES = (1, 2, 3, 4, 5, 6)  # R0.4
CARDS_PER_VALUE = 9
HAND_SIZE = 4  # R1.1
REDEAL_HIGH = 4  # R1.2: a starting hand needs at least one card of 4 or more

STONES = ("grass", "wood", "clay", "stone")  # R0.5
VALUE = {"grass": 1, "wood": 2, "clay": 3, "stone": 4}
SUPPLY = {"grass": 52, "wood": 42, "clay": 12, "stone": 6}

FIELDS = ("A", "B", "C", "D", "E", "F", "G")  # material fields
SITES = 6  # R0.7
STACK_MAX = 3
CASTLE_FULL = SITES * STACK_MAX  # 18 (R6.4)
COMPLETE_BONUS = 5  # R8.2
LOOT_MAX = 2  # D13: a won siege removes one or two stones, never more
SIDES = ("catapult", "boat", "ram")  # R0.8
SIDE_SITES = {"catapult": (1, 2), "boat": (3, 4), "ram": (5, 6)}  # D3

# R0.9: the field hospital's stations along the arrow; "healthy" is where a viking leaves it.
STATIONS = ("3-4-5", "1-2", "0")
STATION_BIG, STATION_SMALL, STATION_TIE = 0, 1, 2

MATERIAL_CARDS = 12  # R0.6
REMOVED_CARDS = 2  # R1.3
MAX_ROUNDS = 10  # R7.4
MAX_CARD_STONES = 20  # physical-deck entry: a printed card holds about 10 stones


def hospital_station(damage: int) -> int:
    """Return the station a viking losing by ``damage`` goes to (R5.10, R5.11)."""
    if damage >= 3:
        return STATION_BIG
    if damage >= 1:
        return STATION_SMALL
    return STATION_TIE


OWNERS = {str(seat): seat for seat in range(MAX_PLAYERS)}  # castle owners by their id


def siege_field(owner: int, side: str) -> str:
    """Return the id of a siege field of ``owner``'s castle."""
    return f"siege:{owner}:{side}"


def castle_field(owner: int) -> str:
    """Return the board id of ``owner``'s castle, where its defenders stand."""
    return CASTLE_FIELDS[owner]


CASTLE_FIELDS = tuple(f"castle:{owner}" for owner in range(MAX_PLAYERS))


@lru_cache(maxsize=256)  # the same few ids again and again; bounded against junk input
def parse_siege(dest: str) -> tuple[int, str] | None:
    """Return (owner, side) for a siege field id, or None."""
    parts = dest.split(":")
    if len(parts) != 3 or parts[0] != "siege" or parts[2] not in SIDES:
        return None
    # only the canonical spelling: "01", "²" or a full-width digit would name a field that is
    # not on the board (and, while planning, slip past the one-viking-per-siege-field check)
    owner = OWNERS.get(parts[1])
    return None if owner is None else (owner, parts[2])


@cache
def siege_fields(players: int) -> tuple[str, ...]:
    """Return every siege field of the castles in play, in board order."""
    return tuple(siege_field(owner, side) for owner in range(players) for side in SIDES)


@cache
def castle_siege_fields(players: int, owner: int) -> tuple[str, str, str]:
    """Return the three siege fields of ``owner``'s castle (catapult, boat, ram)."""
    return siege_fields(players)[3 * owner : 3 * owner + 3]  # type: ignore[return-value]


@cache
def enemy_siege_fields(players: int, seat: int) -> tuple[str, ...]:
    """Return the siege fields of every castle but ``seat``'s own, in board order."""
    return tuple(
        f for owner in range(players) if owner != seat for f in castle_siege_fields(players, owner)
    )


@cache
def destinations(players: int, seat: int) -> tuple[str, ...]:
    """Return where ``seat`` may send vikings, in the planning board's order (R3.1)."""
    return (*FIELDS, *enemy_siege_fields(players, seat), "castle")


def board_keys(players: int) -> list[str]:
    """Return every place a viking can stand on the board after the reveal."""
    return [*FIELDS, *siege_fields(players), *(castle_field(s) for s in range(players))]


def validate_material_cards(cards: object) -> list[dict[str, Any]]:
    """Check a material deck (D1) and return it in canonical form, or raise ``bad_config``.

    A deck is a list of cards; a card is ``{"id": int, "stones": [{"field", "stone", "count",
    "extra"}]}`` where ``extra`` counts the stones marked "only with 5 or 6 players" (R2.1).
    """

    def bad(why: str) -> IllegalAction:
        return IllegalAction("bad_config", f"The material deck is not valid: {why}", reason=why)

    if not isinstance(cards, Sequence) or isinstance(cards, (str, bytes)):
        raise bad("it must be a list of cards.")
    if len(cards) < REMOVED_CARDS + 1:
        raise bad(f"it needs at least {REMOVED_CARDS + 1} cards.")
    out: list[dict[str, Any]] = []
    ids: set[int] = set()
    for n, card in enumerate(cards, 1):
        if not isinstance(card, Mapping):
            raise bad(f"card {n} is not an object.")
        cid = card.get("id", n)
        if type(cid) is not int or cid in ids:
            raise bad(f"card {n} needs a unique whole-number id.")
        ids.add(cid)
        entries = card.get("stones")
        if not isinstance(entries, Sequence) or isinstance(entries, (str, bytes)):
            raise bad(f"card {cid} needs a list of stones.")
        seen: set[str] = set()
        canon = []
        for entry in entries:
            if not isinstance(entry, Mapping):
                raise bad(f"card {cid} has an entry that is not an object.")
            fld, stone = entry.get("field"), entry.get("stone")
            count, extra = entry.get("count", 0), entry.get("extra", 0)
            if fld not in FIELDS:
                raise bad(f"card {cid} names an unknown field {fld!r}.")
            if fld in seen:
                raise bad(f"card {cid} lists field {fld} twice (one stone type per field).")
            seen.add(fld)
            if stone not in STONES:
                raise bad(f"card {cid} names an unknown stone {stone!r}.")
            if type(count) is not int or type(extra) is not int or count < 0 or extra < 0:
                raise bad(f"card {cid} field {fld}: counts must be whole numbers of 0 or more.")
            if count + extra > MAX_CARD_STONES:
                raise bad(f"card {cid} field {fld}: more than {MAX_CARD_STONES} stones.")
            canon.append({"field": fld, "stone": stone, "count": count, "extra": extra})
        canon.sort(key=lambda e: FIELDS.index(e["field"]))
        out.append({"id": cid, "stones": canon})
    return out
