"""Phase 2, secret planning (R3), and phase 3, the reveal (R4).

Every player plans at once. A plan is built one viking at a time (``place`` / ``unplace``) in the
seat's private slot, so that the phone can refuse an illegal placement as it happens and a phone
that reconnects finds its plan where it left it. ``commit`` locks the plan; ``uncommit`` opens it
again until everyone has committed. Then the table reveals all plans at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import EketorpState


def planned(st: EketorpState, seat: int) -> int:
    return sum(st.plans[seat].values())


def destinations(st: EketorpState, seat: int) -> tuple[str, ...]:
    """Return where ``seat`` may send vikings, in the planning board's order (R3.1)."""
    return R.destinations(st.n, seat)


def enter_planning(st: EketorpState) -> str | None:
    """Open every player's planning board; a player with every viking in the hospital is done."""
    st.plans = [{} for _ in range(st.n)]
    st.committed = [st.home[seat] == 0 for seat in range(st.n)]  # R3.2
    st.revealed = None
    st.fight = None
    st.last_fight = None
    st.sieges_done = []
    return "reveal" if all(st.committed) else None


def actors_planning(st: EketorpState) -> list[int]:
    return [seat for seat, committed in enumerate(st.committed) if not committed]


def legal_planning(st: EketorpState, seat: int) -> list[Action]:
    if st.committed[seat]:
        return [{"type": "uncommit", "undo": True}]
    plan = st.plans[seat]
    acts: list[Action] = []
    free = st.home[seat] - planned(st, seat)
    dests = destinations(st, seat)
    if free > 0:  # R3.1: at most one viking of a player per siege field
        acts = [{"type": "place", "to": d} for d in dests if not (d in plan and d[0] == "s")]
    if plan:
        acts += [{"type": "unplace", "from": d, "undo": True} for d in dests if d in plan]
    if free == 0:
        acts.append({"type": "commit"})
    return acts


def _check_destination(st: EketorpState, seat: int, dest: str) -> None:
    if dest in R.FIELDS or dest == "castle":
        return
    siege = R.parse_siege(dest)
    if siege is None:
        raise IllegalAction("unknown_field", f"There is no field {dest!r}.", field=dest)
    owner, _side = siege
    if owner == seat:
        raise IllegalAction("own_castle", "You cannot besiege your own castle (R3.3).", field=dest)
    if owner >= st.n:
        raise IllegalAction(
            "castle_not_in_play",
            "That castle is not in play: only castles of players can be besieged (R3.3).",
            field=dest,
        )
    if st.plans[seat].get(dest):
        raise IllegalAction(
            "siege_field_taken",
            "You already have a viking on that siege field: one per siege field (R3.1).",
            field=dest,
        )


def place(st: EketorpState, seat: Seat, action: Action) -> None:
    """Put one more of your vikings on a field of your planning board."""
    assert seat is not None
    if st.committed[seat]:
        raise IllegalAction("already_committed", "Your plan is committed; un-commit to change it.")
    dest = action["to"]
    _check_destination(st, seat, dest)
    if planned(st, seat) >= st.home[seat]:
        if sum(st.hospital[seat]):
            raise IllegalAction(
                "viking_in_hospital",
                "Your other vikings are in the field hospital and cannot be planned (R3.2).",
                hospital=sum(st.hospital[seat]),
            )
        raise IllegalAction("no_viking_left", "All your vikings are already planned.")
    st.plans[seat][dest] = st.plans[seat].get(dest, 0) + 1


def unplace(st: EketorpState, seat: Seat, action: Action) -> None:
    """Take one of your vikings back from a field of your planning board."""
    assert seat is not None
    if st.committed[seat]:
        raise IllegalAction("already_committed", "Your plan is committed; un-commit to change it.")
    dest = action["from"]
    count = st.plans[seat].get(dest, 0)
    if not count:
        raise IllegalAction("no_viking_there", "You have no viking planned there.", field=dest)
    if count == 1:
        del st.plans[seat][dest]
    else:
        st.plans[seat][dest] = count - 1


def commit(st: EketorpState, seat: Seat, action: Action) -> None:
    """Lock your plan; when everyone has committed the table can reveal (R4.1)."""
    assert seat is not None
    if st.committed[seat]:
        raise IllegalAction("already_committed", "Your plan is already committed.")
    free = st.home[seat] - planned(st, seat)
    if free:
        raise IllegalAction(
            "plan_incomplete",
            f"Place every viking before committing: {free} left (R3.1).",
            left=free,
        )
    st.committed[seat] = True
    if all(st.committed):
        st.goto("reveal")


def uncommit(st: EketorpState, seat: Seat, action: Action) -> None:
    """Open your committed plan again (only while someone has not committed yet)."""
    assert seat is not None
    if not st.committed[seat]:
        raise IllegalAction("not_committed", "Your plan is not committed.")
    if st.home[seat] == 0:
        raise IllegalAction(
            "viking_in_hospital", "All your vikings are in the field hospital (R3.2)."
        )
    st.committed[seat] = False


def reveal(st: EketorpState, seat: Seat, action: Action) -> None:
    """Reveal every plan at once and move the vikings onto the board (R4.1)."""
    revealed: dict[str, dict[str, int]] = {}
    for s in range(st.n):
        drafted = st.plans[s]
        plan = {d: drafted[d] for d in destinations(st, s) if drafted.get(d)}
        revealed[str(s)] = plan
        for dest, count in plan.items():
            key = R.castle_field(s) if dest == "castle" else dest
            st.board[key][s] += count
            st.home[s] -= count
    st.revealed = revealed
    st.record("reveal", plans=revealed)
    st.turn = st.start
    st.goto("pick")
