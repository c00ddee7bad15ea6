"""Scoring (R8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import rules as R

if TYPE_CHECKING:
    from .state import EketorpState


def score(st: EketorpState, seat: int) -> dict[str, Any]:
    """Return one seat's score with its breakdown by category, as in the rulebook's example."""
    stones = [stone for stack in st.castles[seat] for stone in stack] + st.beside[seat]
    breakdown: dict[str, dict[str, int]] = {
        "amulets": {"count": st.amulets[seat], "points": st.amulets[seat]},  # R8.3
    }
    for kind in R.STONES:  # R8.1, stones beyond 18 count too
        count = stones.count(kind)
        breakdown[kind] = {"count": count, "points": count * R.VALUE[kind]}
    complete = st.castle_stones(seat) >= R.CASTLE_FULL  # R8.2
    breakdown["complete"] = {"count": int(complete), "points": R.COMPLETE_BONUS if complete else 0}
    total = sum(part["points"] for part in breakdown.values())
    return {"seat": seat, "total": total, "breakdown": breakdown}


def scores(st: EketorpState) -> list[dict[str, Any]]:
    return [score(st, seat) for seat in range(st.n)]
