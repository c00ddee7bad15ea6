"""Phase 1, the materials (R2, D1, D2), and phase 6, the end of a round (R7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import EketorpState


def _place_stones(st: EketorpState, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Put a card's stones on the fields, on what lies there (R2.2), as the supply allows (D2)."""
    placed: dict[str, dict[str, int]] = {}
    short: dict[str, dict[str, int]] = {}
    for entry in entries:
        fld, stone, want = entry["field"], entry["stone"], entry["count"]
        got = min(want, st.supply[stone])
        st.supply[stone] -= got
        st.fields[fld][stone] += got
        if got:
            placed.setdefault(fld, {})[stone] = got
        if got < want:
            short.setdefault(fld, {})[stone] = want - got
    return {"placed": placed, "short": short}


def enter_materials(st: EketorpState) -> str | None:
    """Turn the next material card (house deck) or wait for the start player to enter it."""
    st.record("round", start=st.start)
    if st.config["deck"] == "physical":
        st.card = None
        st.card_draft = {}
        return None
    card = st.config["material_cards"][st.deck.pop()]
    five_six = st.n >= 5  # R2.1: marked stones only with 5 or 6 players
    entries = [
        {
            "field": e["field"],
            "stone": e["stone"],
            "count": e["count"] + (e["extra"] if five_six else 0),
        }
        for e in card["stones"]
    ]
    outcome = _place_stones(st, entries)
    st.card = {"id": card["id"], "stones": entries, **outcome}
    st.record("card", card=card["id"], placed=outcome["placed"], short=outcome["short"])
    return "planning"


def legal_materials(st: EketorpState, seat: int) -> list[Action]:
    """List the physical-deck entry steps for the start player."""
    acts: list[Action] = []
    drafted = sum(count for _, count in st.card_draft.values())
    if drafted < R.MAX_CARD_STONES:
        for fld in R.FIELDS:
            entry = st.card_draft.get(fld)
            for stone in R.STONES:
                if entry is not None and entry[0] != stone:
                    continue
                if _drafted_of(st, stone) < st.supply[stone]:
                    acts.append({"type": "card_add", "field": fld, "stone": stone})
    for fld in R.FIELDS:
        if fld in st.card_draft:
            acts.append({"type": "card_remove", "field": fld, "undo": True})
    acts.append({"type": "card_done"})
    return acts


def _drafted_of(st: EketorpState, stone: str) -> int:
    return sum(count for kind, count in st.card_draft.values() if kind == stone)


def card_add(st: EketorpState, seat: Seat, action: Action) -> None:
    """Add one stone of the drawn printed card to a field (physical-deck mode)."""
    fld, stone = action["field"], action["stone"]
    if fld not in R.FIELDS:
        raise IllegalAction("unknown_field", f"There is no field {fld!r}.", field=fld)
    if stone not in R.STONES:
        raise IllegalAction("unknown_stone", f"There is no stone {stone!r}.", stone=stone)
    entry = st.card_draft.get(fld)
    if entry is not None and entry[0] != stone:
        raise IllegalAction(
            "card_one_type",
            f"A material card shows one kind of stone per field; field {fld} has {entry[0]}.",
            field=fld,
            stone=entry[0],
        )
    if sum(count for _, count in st.card_draft.values()) >= R.MAX_CARD_STONES:
        raise IllegalAction(
            "card_too_many",
            f"A material card has at most {R.MAX_CARD_STONES} stones.",
            max=R.MAX_CARD_STONES,
        )
    if _drafted_of(st, stone) >= st.supply[stone]:
        raise IllegalAction(
            "supply_empty", f"There is no {stone} left in the supply (D2).", stone=stone
        )
    if entry is None:
        st.card_draft[fld] = [stone, 1]
    else:
        entry[1] += 1


def card_remove(st: EketorpState, seat: Seat, action: Action) -> None:
    """Take back one stone entered on a field."""
    fld = action["field"]
    entry = st.card_draft.get(fld)
    if entry is None:
        raise IllegalAction(
            "card_field_empty", f"No stone was entered on field {fld!r}.", field=fld
        )
    entry[1] -= 1
    if entry[1] == 0:
        del st.card_draft[fld]


def card_done(st: EketorpState, seat: Seat, action: Action) -> None:
    """Confirm the entered card: its stones go on the fields and planning starts."""
    entries = [
        {"field": fld, "stone": st.card_draft[fld][0], "count": st.card_draft[fld][1]}
        for fld in R.FIELDS
        if fld in st.card_draft
    ]
    outcome = _place_stones(st, entries)
    st.card = {"id": None, "stones": entries, **outcome}
    st.card_draft = {}
    st.record("card", card=None, placed=outcome["placed"], short=outcome["short"])
    st.goto("planning")


def enter_round_end(st: EketorpState) -> str | None:
    """Heal, clear the fields and pass the material deck (R7.1-R7.3); wait for the table."""
    healed = [0] * st.n
    for seat in range(st.n):
        big, small, tie = st.hospital[seat]
        healed[seat] = tie  # R7.1: from "0" on to "healthy": back to the castle
        st.home[seat] += tie
        st.hospital[seat] = [0, big, small]
    returned = {"grass": 0, "wood": 0}
    for fld in R.FIELDS:
        for stone in ("grass", "wood"):  # R7.2
            count = st.fields[fld][stone]
            returned[stone] += count
            st.supply[stone] += count
            st.fields[fld][stone] = 0
    st.start = (st.start + 1) % st.n  # R7.3: the deck passes to the left (clockwise)
    st.record("round_end", healed=healed, returned=returned, start=st.start)
    return None


def next_round(st: EketorpState, seat: Seat, action: Action) -> None:
    """Start the next round (the table's NEXT)."""
    st.round += 1
    st.card = None
    st.goto("materials")
