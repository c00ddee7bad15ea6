"""Conservation and bounds that hold after every action (checked by the property tests)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import rules as R

if TYPE_CHECKING:
    from .state import VikingsState


def check_invariants(st: VikingsState) -> list[str]:
    """Return a sentence for every broken invariant (an empty list when all hold)."""
    problems: list[str] = []
    colours = len(R.COLOURS)
    # V0.2, V1.6: the 24 hull pieces are each in exactly one drakkar, in port or sailed.
    pieces = Counter(p for hull in st.hulls for p in hull)
    if sorted(pieces) != list(range(R.HULL_PIECES * colours)) or max(pieces.values()) != 1:
        problems.append(f"hull pieces: {sum(pieces.values())} accounted for, 24 exist")
    if any(len(hull) > R.HULL_MAX for hull in st.hulls):  # V2.5
        problems.append("a drakkar holds more than 5 hull pieces")
    # V0.3, V1.5: the 15 chests are in the piles, drawn, on prows, behind shields or in the box.
    chests = Counter(st.piles[0]) + Counter(st.piles[1]) + Counter(st.box)
    chests += Counter(c for prow in st.prows for c in prow)
    chests += Counter(c for held in st.chests for c in held)
    if st.step is not None:
        chests += Counter(st.step["drawn"])
    want = Counter(st.config["components"]["chests"])
    if chests != want or sum(chests.values()) != R.CHESTS:
        problems.append(f"chests: {dict(chests)} accounted for, {dict(want)} exist")
    # V0.2: 16 barrels: each seat's 4 in hand, on one betting zone or won; unplayed in the box.
    placed = Counter(held for zones in st.quay for held in zones if held is not None)
    located = 0
    for s in range(st.n):
        for b in range(R.BARRELS):
            places = (b in st.hands[s]) + (b in st.won[s]) + placed[s * R.BARRELS + b]
            if places != 1:
                problems.append(f"seat {s}'s barrel {b} is in {places} places")
            located += places
    if set(placed) - set(range(R.BARRELS * st.n)):
        problems.append("a betting zone holds a barrel of an unplayed colour")
    if located + R.BARRELS * (colours - st.n) != R.BARRELS * colours:
        problems.append(f"barrels: {located} of the players' accounted for")
    # V0.3: 7 sterns: beside the board, held this turn, or on a drakkar that sailed.
    held = 0 if st.stern_holder is None else 1
    if st.sterns + held + len(st.sailed) != R.STERNS or st.sterns < 0:
        problems.append(f"sterns: {st.sterns} + {held} + {len(st.sailed)} sailed != 7")
    if len(set(st.sailed)) != len(st.sailed):
        problems.append("a drakkar sailed twice")
    sailing = None if st.sailing is None else st.sailing["drakkar"]
    for d in st.sailed:
        if st.prows[d] and d != sailing:
            problems.append(f"drakkar {d} sailed with chests on its prow")
    # V1.1: each player's vikings stand on the buildings; V2.1: a spot holds one.
    vikings = Counter(s for side in st.spots for s in side if s is not None)
    if any(vikings[s] != R.VIKINGS[st.n] for s in range(st.n)):
        problems.append(f"vikings on the buildings: {dict(vikings)}")
    if any(not R.MARKET_START <= v <= R.MARKET_MAX for v in st.market.values()):  # V3.6
        problems.append(f"market out of bounds: {st.market}")
    # V3.10: bonus vikings only with 2 players, on a player's own pieces, one per piece.
    if st.bonus and st.n != 2:
        problems.append("bonus vikings with more than 2 players")
    if len(set(st.bonus)) != len(st.bonus) or len(st.bonus) > R.BONUS_VIKINGS:
        problems.append("bonus vikings: more than one on a piece or more than 8")
    if any(st.owners[st.piece_colour(p)] is None for p in st.bonus):
        problems.append("a bonus viking on an unplayed colour's piece")
    return problems
