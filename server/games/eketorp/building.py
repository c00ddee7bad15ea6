"""Sharing stones on fields without a fight (R5.1, R5.2, D4) and phase 5, building (R6, D9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import EketorpState

# -- sharing (D4) --------------------------------------------------------------------------------


def enter_sharing(st: EketorpState) -> str | None:
    """Share the stones of every field A-G among the vikings on it, field by field."""
    st.share = None
    return _share_on(st)


def _share_on(st: EketorpState) -> str | None:
    """Take every stone nobody has a choice about; stop at the first real choice."""
    while True:
        share = st.share
        if share is None:
            share = _next_field(st, -1)
            if share is None:
                return "building"
            st.share = share
        fld = share["field"]
        stones = st.fields[fld]
        wants = share["wants"]
        left = sum(stones.values())
        wanting = sum(wants)
        if left == 0 or wanting == 0:  # R5.1: vikings beyond the stones go home empty-handed
            st.share = _next_field(st, R.FIELDS.index(fld))
            if st.share is None:
                return "building"
            continue
        seat = next(s for s in st.clockwise(share["turn"]) if wants[s])
        kinds = [s for s in R.STONES if stones[s]]
        if len(kinds) == 1:
            _take(st, seat, fld, kinds[0])
        elif wants[seat] == wanting and wanting >= left:  # one player takes all that is left
            for stone in kinds:
                while stones[stone]:
                    _take(st, seat, fld, stone)
        else:
            share["turn"] = seat
            return None


def _next_field(st: EketorpState, after: int) -> dict[str, Any] | None:
    for fld in R.FIELDS[after + 1 :]:
        occ = st.board[fld]
        if any(occ) and st.field_stones(fld):
            return {"field": fld, "turn": st.start, "wants": list(occ)}
    return None


def _take(st: EketorpState, seat: int, fld: str, stone: str) -> None:
    share = st.share
    assert share is not None
    st.fields[fld][stone] -= 1
    st.carry[seat].append(stone)
    share["wants"][seat] -= 1
    share["turn"] = (seat + 1) % st.n
    st.record("take", seat=seat, field=fld, stone=stone)


def actors_sharing(st: EketorpState) -> list[int]:
    assert st.share is not None
    return [st.share["turn"]]


def legal_sharing(st: EketorpState, seat: int) -> list[Action]:
    assert st.share is not None
    fld = st.share["field"]
    return [
        {"type": "take", "field": fld, "stone": stone}
        for stone in R.STONES
        if st.fields[fld][stone]
    ]


def take(st: EketorpState, seat: Seat, action: Action) -> None:
    """Take one stone of your choice from the field being shared (D4)."""
    assert seat is not None and st.share is not None
    fld, stone = action["field"], action["stone"]
    if fld != st.share["field"]:
        raise IllegalAction(
            "wrong_field",
            f"Stones are being shared on field {st.share['field']} now.",
            field=st.share["field"],
        )
    if stone not in R.STONES or not st.fields[fld][stone]:
        raise IllegalAction(
            "stone_not_there", f"There is no {stone} left on field {fld}.", field=fld, stone=stone
        )
    _take(st, seat, fld, stone)
    st.goto(_share_on(st))


# -- building (R6, D9) ---------------------------------------------------------------------------


def enter_building(st: EketorpState) -> str | None:
    """Every viking not in the hospital goes home with its stones (R6.1); everyone builds."""
    st.share = None
    for occ in st.board.values():
        for seat, count in enumerate(occ):
            if count:
                st.home[seat] += count
                occ[seat] = 0
    st.fresh = [[0] * R.SITES for _ in range(st.n)]
    for seat in range(st.n):
        _keep_beside_if_full(st, seat)
        st.done[seat] = not st.carry[seat]
    return finish_building(st) if all(st.done) else None


def _keep_beside_if_full(st: EketorpState, seat: int) -> None:
    """Stones that no longer fit are kept beside the castle (R6.5)."""
    if st.carry[seat] and st.castle_stones(seat) >= R.CASTLE_FULL:
        st.beside[seat].extend(st.carry[seat])
        st.carry[seat] = []


def actors_building(st: EketorpState) -> list[int]:
    return [seat for seat, confirmed in enumerate(st.done) if not confirmed]


def legal_building(st: EketorpState, seat: int) -> list[Action]:
    if st.done[seat]:
        return []
    carried = [s for s in R.STONES if s in st.carry[seat]]
    castle = st.castles[seat]
    open_sites = [site for site, stack in enumerate(castle, 1) if len(stack) < R.STACK_MAX]
    acts: list[Action] = [
        {"type": "build", "stone": stone, "site": site} for stone in carried for site in open_sites
    ]
    acts += [
        {"type": "unbuild", "site": site, "undo": True}
        for site, fresh in enumerate(st.fresh[seat], 1)
        if fresh
    ]
    if st.carry[seat]:
        acts.append({"type": "auto_build"})
    else:
        acts.append({"type": "done"})
    return acts


def proposal(st: EketorpState, seat: int) -> list[tuple[str, int]]:
    """The placement the phone proposes (D9): best stones first, each on the lowest stack."""
    heights = [len(stack) for stack in st.castles[seat]]
    out: list[tuple[str, int]] = []
    for stone in sorted(st.carry[seat], key=lambda s: -R.VALUE[s]):
        site = min(range(R.SITES), key=lambda i: (heights[i], i))
        if heights[site] >= R.STACK_MAX:
            break
        heights[site] += 1
        out.append((stone, site + 1))
    return out


def _check_open(st: EketorpState, seat: int) -> None:
    if st.done[seat]:
        raise IllegalAction("already_done", "You have confirmed your building.")


def build(st: EketorpState, seat: Seat, action: Action) -> None:
    """Put one carried stone on a site: on an empty site or a stack below 3 (R6.2)."""
    assert seat is not None
    _check_open(st, seat)
    stone, site = action["stone"], action["site"]
    if stone not in st.carry[seat]:
        raise IllegalAction("stone_not_carried", f"You have no {stone} to build.", stone=stone)
    if not 1 <= site <= R.SITES:
        raise IllegalAction("no_such_site", f"Building sites are 1 to {R.SITES}.", site=site)
    stack = st.castles[seat][site - 1]
    if len(stack) >= R.STACK_MAX:
        raise IllegalAction(
            "stack_full", f"Site {site} already holds {R.STACK_MAX} stones (R6.2).", site=site
        )
    st.carry[seat].remove(stone)
    stack.append(stone)
    st.fresh[seat][site - 1] += 1
    _keep_beside_if_full(st, seat)


def unbuild(st: EketorpState, seat: Seat, action: Action) -> None:
    """Take back a stone placed this round, before confirming."""
    assert seat is not None
    _check_open(st, seat)
    site = action["site"]
    if not 1 <= site <= R.SITES or not st.fresh[seat][site - 1]:
        raise IllegalAction(
            "stone_is_built",
            "Only a stone placed this round and not yet confirmed can be taken back (R6.3).",
            site=site,
        )
    if st.beside[seat] and st.castle_stones(seat) >= R.CASTLE_FULL:
        st.carry[seat].extend(st.beside[seat])  # they were put aside only because it was full
        st.beside[seat] = []
    st.carry[seat].append(st.castles[seat][site - 1].pop())
    st.fresh[seat][site - 1] -= 1


def auto_build(st: EketorpState, seat: Seat, action: Action) -> None:
    """Build the carried stones as proposed (D9) and confirm."""
    assert seat is not None
    _check_open(st, seat)
    for stone, site in proposal(st, seat):
        st.carry[seat].remove(stone)
        st.castles[seat][site - 1].append(stone)
        st.fresh[seat][site - 1] += 1
    _keep_beside_if_full(st, seat)
    _confirm(st, seat)


def done(st: EketorpState, seat: Seat, action: Action) -> None:
    """Confirm your building; the phase ends when everyone has confirmed (D9)."""
    assert seat is not None
    _check_open(st, seat)
    if st.carry[seat]:
        raise IllegalAction(
            "stones_left",
            f"Build your {len(st.carry[seat])} stones first.",
            left=len(st.carry[seat]),
        )
    _confirm(st, seat)


def _confirm(st: EketorpState, seat: int) -> None:
    st.done[seat] = True
    built = [
        [st.castles[seat][i][-k], i + 1]
        for i in range(R.SITES)
        for k in range(st.fresh[seat][i], 0, -1)
    ]
    st.record("built", seat=seat, stones=built)
    if all(st.done):
        st.goto(finish_building(st))


def finish_building(st: EketorpState) -> str:
    """End the game after a complete castle (R6.4) or the last round (R7.4); else end the round.

    The result says why, so that the pages can: which castles reached the target and how many
    stones each holds, or which round played the last material card. At the end the stones built
    in the last round stay marked (``fresh``), so the final board still shows the last build.
    """
    full = [
        {"seat": s, "stones": st.castle_stones(s)}
        for s in range(st.n)
        if st.castle_stones(s) >= R.CASTLE_FULL
    ]
    if full:
        st.result = {"reason": "complete", "castles": full, "round": st.round}
        return "over"
    if st.round >= st.max_rounds:
        st.result = {"reason": "rounds", "round": st.round}
        return "over"
    st.fresh = [[0] * R.SITES for _ in range(st.n)]
    return "round_end"
