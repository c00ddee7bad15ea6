"""Conservation and bounds that hold after every action (checked by the property tests)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import rules as R

if TYPE_CHECKING:
    from .state import EketorpState


def check_invariants(st: EketorpState) -> list[str]:
    """Return a sentence for every broken invariant (an empty list when all hold)."""
    problems: list[str] = []
    # R0.5: the 112 stones are in the supply, on the fields, carried, built or kept beside.
    for stone, total in R.SUPPLY.items():
        where = st.supply[stone] + sum(st.fields[f][stone] for f in R.FIELDS)
        for s in range(st.n):
            where += sum(stack.count(stone) for stack in st.castles[s])
            where += st.beside[s].count(stone) + st.carry[s].count(stone)
        if where != total:
            problems.append(f"{stone}: {where} accounted for, {total} exist")
    if min(st.supply.values()) < 0 or any(min(f.values()) < 0 for f in st.fields.values()):
        problems.append("a negative stone count")
    # R0.4: the 54 combat cards, 9 of each value.
    cards = Counter(st.draw) + Counter(st.general)
    for s in range(st.n):
        cards += Counter(st.hands[s]) + Counter(st.discards[s])
    in_flight = [0] * st.n
    if st.phase == "choose" and st.fight is not None:
        for seat, card in zip((st.fight["a"], st.fight["b"]), st.fight["played"], strict=True):
            if card is not None:
                cards[card] += 1
                in_flight[seat] += 1
    if cards != Counter({v: R.CARDS_PER_VALUE for v in R.CARD_VALUES}):
        problems.append(f"combat cards: {dict(cards)}")
    for s in range(st.n):
        # R5.12, R5.13, D11: a hand and its discard pile always hold 4 cards together.
        held = len(st.hands[s]) + len(st.discards[s]) + in_flight[s]
        if held != R.HAND_SIZE:
            problems.append(f"seat {s} holds {held} cards")
        if not st.hands[s] and st.phase != "choose":
            problems.append(f"seat {s} has an empty hand")
        # R0.2: every viking is at home, on the board or in the hospital.
        where = st.home[s] + sum(occ[s] for occ in st.board.values()) + sum(st.hospital[s])
        if where != st.vikings:
            problems.append(f"seat {s}: {where} vikings accounted for, {st.vikings} exist")
        if min(st.hospital[s]) < 0 or st.home[s] < 0 or min(o[s] for o in st.board.values()) < 0:
            problems.append(f"seat {s}: a negative viking count")
        for key in R.siege_fields(st.n):  # R3.1
            if st.board[key][s] > 1:
                problems.append(f"seat {s}: {st.board[key][s]} vikings on {key}")
        # R0.3: amulets are never regained.
        if not 0 <= st.amulets[s] <= R.AMULETS:
            problems.append(f"seat {s} has {st.amulets[s]} amulets")
        # R0.7, R6.2: no stack above 3.
        if any(len(stack) > R.STACK_MAX for stack in st.castles[s]):
            problems.append(f"seat {s} has a stack above {R.STACK_MAX}")
        if st.beside[s] and st.castle_stones(s) < R.CASTLE_FULL:
            problems.append(f"seat {s} keeps stones beside a castle that is not full")
    if not 1 <= st.round <= st.max_rounds <= R.MAX_ROUNDS:  # R7.4
        problems.append(f"round {st.round} of {st.max_rounds}")
    return problems
