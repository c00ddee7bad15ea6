"""Scoring (V5.2) and the winners (V5.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import rules as R

if TYPE_CHECKING:
    from .state import VikingsState


def score(st: VikingsState, seat: int) -> dict[str, Any]:
    """Return one seat's score: each chest at its kind's market value, each won barrel's value."""
    breakdown: dict[str, dict[str, int]] = {}
    held = st.chests[seat]
    for kind in R.GOODS:
        count = held.count(kind)
        breakdown[kind] = {"count": count, "points": count * st.market[kind]}
    values = st.barrels[seat]
    won = st.won[seat]
    breakdown["barrels"] = {"count": len(won), "points": sum(values[b] for b in won)}
    total = sum(part["points"] for part in breakdown.values())
    return {"seat": seat, "total": total, "breakdown": breakdown}


def scores(st: VikingsState) -> list[dict[str, Any]]:
    return [score(st, seat) for seat in range(st.n)]


def winners(st: VikingsState) -> list[int]:
    """The best total wins; equal totals go to more chests; still equal, a shared win (V5.3)."""
    ranks = [(s["total"], len(st.chests[s["seat"]])) for s in scores(st)]
    best = max(ranks)
    return [seat for seat, rank in enumerate(ranks) if rank == best]
