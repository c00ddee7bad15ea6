"""The last two phases of a turn: storage, where what was produced or plundered goes into the
Reserves and the rest is lost (W2.5, W2.6, D11), and the end of the turn, where each Drakkar may
keep a card, the markers come off and the first-player token passes (W2.7, W2.8, D12).

Every handler checks everything before it changes anything, so an illegal action changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, IllegalAction, Seat
from . import rules as R
from .turn import reserve_at

if TYPE_CHECKING:
    from .state import WildState


# -- storage (W2.5, W2.6, D11) ------------------------------------------------------------------


def enter_storage(st: WildState) -> str | None:
    st.decided = [False] * st.n
    return None


def store_options(st: WildState, seat: int) -> list[tuple[int, str]]:
    return [
        (b, R.RESERVE_OF[x["kind"]])
        for b, x in enumerate(st.villages[seat])
        if x["kind"] in R.RESERVE_OF and not x["new"] and st.loot[seat][R.RESERVE_OF[x["kind"]]]
    ]


def actors_storage(st: WildState) -> list[int]:
    return [s for s in range(st.n) if not st.decided[s] and store_options(st, s)]


def legal_storage(st: WildState, seat: int) -> list[Action]:
    if seat not in actors_storage(st):
        return []
    out: list[Action] = []
    for b, resource in store_options(st, seat):
        for count in sorted({1, st.loot[seat][resource]}):
            out.append({"type": "store", "building": b, "count": count})
    out.append({"type": "store_done"})
    return out


def store(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    reserve = reserve_at(st, seat, action["building"])
    if reserve["new"]:
        raise IllegalAction(
            "under_construction", "That Reserve is under construction this turn (D9)."
        )
    resource = R.RESERVE_OF[reserve["kind"]]
    have = st.loot[seat][resource]
    if not 1 <= action["count"] <= have:
        raise IllegalAction(
            "bad_count",
            "You produced or plundered less than that this turn (W2.5, D11).",
            have=have,
        )
    reserve["stock"] += action["count"]
    st.loot[seat][resource] -= action["count"]
    st.record(
        "stored", seat=seat, building=action["building"], count=action["count"], resource=resource
    )


def store_done(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    st.decided[seat] = True


def next_after_storage(st: WildState, seat: Seat, action: Action) -> None:
    """Close the storage phase: a point per Reserve holding 4 (W2.6); the rest is lost (W2.5)."""
    for s in st.order():
        full = [
            b
            for b, x in enumerate(st.villages[s])
            if x["kind"] in R.RESERVE_OF and x["stock"] >= R.STORE_POINT_AT
        ]
        if full:
            st.record("full_reserves", seat=s, buildings=full)
            st.gain(s, len(full), "storage")
        st.loot[s] = {"gold": 0, "beer": 0}
    st.goto("end")


# -- end of turn (W2.7, W2.8, D12) ---------------------------------------------------------------


def enter_end(st: WildState) -> str | None:
    st.decided = [False] * st.n
    return None


def actors_end(st: WildState) -> list[int]:
    if st.last_turn:  # W9.3: no next turn, so a Drakkar has nothing to keep a card for
        return []
    return [s for s in range(st.n) if not st.decided[s] and st.count(s, "drakkar", active=True) > 0]


def legal_end(st: WildState, seat: int) -> list[Action]:
    if seat not in actors_end(st):
        return []
    return [{"type": "keep", "cards": k} for k in range(st.count(seat, "drakkar", active=True) + 1)]


def keep(st: WildState, seat: Seat, action: Action) -> None:
    assert seat is not None
    top = st.count(seat, "drakkar", active=True)
    if not 0 <= action["cards"] <= top:
        raise IllegalAction("bad_keep", "Each Drakkar built keeps one card (D12).", max=top)
    st.kept[seat] = action["cards"]
    st.decided[seat] = True
    st.record("kept", seat=seat, cards=action["cards"])


def next_after_end(st: WildState, seat: Seat, action: Action) -> None:
    """Remove every marker, pass the first-player token left, start the next turn (W2.7, W2.8)."""
    for s in range(st.n):
        if not st.decided[s]:
            st.kept[s] = 0
        for building in st.villages[s]:
            building["new"] = False
            building["damaged"] = False
    st.swapped = [False] * st.n
    st.undead_used = [False] * st.n
    st.last_attack = None
    st.record("turn_over", last=st.last_turn)
    if st.last_turn:  # W9.3
        st.goto("bonus")
        return
    st.first = (st.first + 1) % st.n
    st.round += 1
    st.goto("production")
