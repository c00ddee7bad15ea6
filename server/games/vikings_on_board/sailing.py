"""A drakkar sails (V4): the stern, influence, bets, the chests, and the end of the game (V5.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..api import Action, IllegalAction, Seat
from . import rules as R
from .turn import new_turn

if TYPE_CHECKING:
    from .state import VikingsState


# -- choosing the drakkar (V4.1, D5) ------------------------------------------------------------


def sail_options(st: VikingsState) -> list[int]:
    """Drakkars in port with a chest and a hull piece; if there are none, any in port (V4.1)."""
    port = st.in_port()
    loaded = [d for d in port if st.prows[d] and st.hulls[d]]
    return loaded or port


def actors_sail(st: VikingsState) -> list[int]:
    return [] if st.stern_holder is None else [st.stern_holder]


def legal_sail(st: VikingsState, seat: int) -> list[Action]:
    return [{"type": "sail", "drakkar": d} for d in sail_options(st)]


def sail(st: VikingsState, seat: Seat, action: Action) -> None:
    """Put the stern on a drakkar in port: it sails now (V4.1, D5)."""
    d = action["drakkar"]
    if not 0 <= d < R.DRAKKARS:
        raise IllegalAction("no_such_drakkar", "There is no such drakkar.", drakkar=d)
    if d not in sail_options(st):
        if d in st.sailed:
            raise IllegalAction(
                "drakkar_sailed", "That drakkar has already left the harbour.", drakkar=d
            )
        raise IllegalAction(
            "drakkar_not_ready",
            "The stern goes on a drakkar holding at least one chest and one hull piece (V4.1).",
            drakkar=d,
        )
    st.stern_holder = None
    st.sailed.append(d)
    order = influence(st, st.hulls[d])
    st.record(
        "sail",
        seat=seat,
        drakkar=d,
        influence=[{"colour": R.COLOURS[c], "shields": s} for c, s in order],
    )
    st.sailing = {
        "drakkar": d,
        "influence": [[c, s] for c, s in order],
        "next": 0,
        "chooser": None,
        "mode": None,
        "shown": 0,
        "by": seat,  # who put the stern on: their phone says when the chests go round
    }
    _show_all(st, st.sailing)
    st.goto("reckon")


# -- the reckoning, then one NEXT (V4.2, V4.3) ----------------------------------------------------
# The printed game counts each colour's shields, ranks the colours and pays the winning bet before
# anyone touches a chest. The table display shows all of it at once, the moment the drakkar sails:
# each colour's shields from the prow, the ranking with its tie-break, the bet on the leader. One
# NEXT then hands out the chests, once the table has read it and given the barrel back. (A game
# saved when each of those was a NEXT of its own shows the rest at its next NEXT.) Nothing here
# draws from the RNG or asks a player, so the outcome is the one the single action gave.


def reckon_steps(sailing: dict[str, Any]) -> int:
    """How many parts the reckoning has: each colour aboard, the ranking, the bets (with no hull
    piece aboard, one: nobody leads, V4.1)."""
    colours = len(sailing["influence"])
    return colours + 2 if colours else 1


def _show_all(st: VikingsState, sailing: dict[str, Any]) -> None:
    """Show the whole reckoning; the bet on the leading colour is paid now (V4.3)."""
    sailing["shown"] = reckon_steps(sailing)
    order = sailing["influence"]
    _settle_bets(st, sailing["drakkar"], order[0][0] if order else None)


def next_step(st: VikingsState, seat: Seat, action: Action) -> None:
    """NEXT: the chests of the sailing drakkar are handed out (V4.4)."""
    sailing = _sailing(st)
    if sailing["shown"] < reckon_steps(sailing):
        _show_all(st, sailing)
        return
    st.goto("share")


def influence(st: VikingsState, hull: list[int]) -> list[tuple[int, int]]:
    """Return (colour, shields) of the colours aboard, most influential first (V4.2).

    More shields first (a bonus viking counts one more); a tie goes to the colour whose piece is
    nearer the prow. Colours with no piece aboard take no part; unplayed colours rank as others.
    """
    totals: dict[int, int] = {}
    first: dict[int, int] = {}
    for i, piece in enumerate(hull):
        colour = st.piece_colour(piece)
        totals[colour] = totals.get(colour, 0) + st.shields(piece)
        first.setdefault(colour, i)
    ranked = sorted(totals, key=lambda c: (-totals[c], first[c]))
    return [(c, totals[c]) for c in ranked]


def _settle_bets(st: VikingsState, d: int, leader: int | None) -> None:
    """The barrel on the leading colour's zone goes back onto its owner's shield (V4.3)."""
    if leader is None:
        return
    held = st.quay[d][leader]
    if held is None:
        return
    seat, barrel = divmod(held, R.BARRELS)
    st.quay[d][leader] = None
    st.won[seat].append(barrel)
    st.record("bet_won", seat=seat, drakkar=d, colour=R.COLOURS[leader])


# -- the chests (V4.4, V4.5) ---------------------------------------------------------------------


def _sailing(st: VikingsState) -> dict[str, Any]:
    assert st.sailing is not None
    return st.sailing


def enter_share(st: VikingsState) -> str | None:
    """Hand out every chest nobody has a choice about; stop at the first real choice."""
    sailing = _sailing(st)
    d = sailing["drakkar"]
    order = [c for c, _ in sailing["influence"]]
    while True:
        chests = st.prows[d]
        if not chests:
            break
        # Who takes the chests left, in influence order, going round again (V4.4).
        start = sailing["next"]
        recipients = [order[(start + k) % len(order)] for k in range(len(chests))] if order else []
        due = [st.owners[c] for c in recipients]
        if all(seat is None for seat in due):
            # V4.5: no player is due to take one: the chests left leave the game.
            st.box.extend(chests)
            st.record("chests_lost", drakkar=d, chests=list(chests))
            st.prows[d] = []
            break
        seat = due[0]
        single = len(set(chests)) == 1
        if seat is not None:
            if all(s == seat for s in due):  # V4.4: alone aboard (or last) takes them all
                st.chests[seat].extend(chests)
                st.record("take_chests", seat=seat, count=len(chests))
                st.prows[d] = []
                break
            if not single:
                sailing.update(chooser=seat, mode="take")
                return None
            _take(st, seat, chests[0])
        else:
            # V4.5: the player to the left of the next player due chooses the chest that leaves.
            following = next(s for s in due[1:] if s is not None)
            chooser = (following + 1) % st.n
            if not single:
                sailing.update(chooser=chooser, mode="discard")
                return None
            _discard(st, chooser, chests[0])
    st.sailing = None
    st.record("sailed", drakkar=d)
    if len(st.in_port()) <= 1:  # V4.6, V5.1: no stern is left
        return "over"
    new_turn(st)
    return "turn"


def actors_share(st: VikingsState) -> list[int]:
    sailing = st.sailing
    return [] if sailing is None or sailing["chooser"] is None else [sailing["chooser"]]


def legal_share(st: VikingsState, seat: int) -> list[Action]:
    sailing = _sailing(st)
    kind = "take_chest" if sailing["mode"] == "take" else "discard_chest"
    return [{"type": kind, "kind": k} for k in sorted(set(st.prows[sailing["drakkar"]]))]


def _check_chest(st: VikingsState, mode: str, kind: str) -> None:
    sailing = _sailing(st)
    if sailing["mode"] != mode:
        raise IllegalAction(
            "wrong_action",
            "Take a chest for yourself (V4.4)"
            if sailing["mode"] == "take"
            else "Choose the chest that leaves the game (V4.5).",
        )
    if kind not in st.prows[sailing["drakkar"]]:
        raise IllegalAction(
            "chest_not_aboard", f"There is no {kind} chest on this prow (V4.4).", kind=kind
        )


def take_chest(st: VikingsState, seat: Seat, action: Action) -> None:
    """Take one chest from the prow of the sailing drakkar, face down (V4.4)."""
    assert seat is not None
    _check_chest(st, "take", action["kind"])
    _take(st, seat, action["kind"])
    st.goto("share")


def discard_chest(st: VikingsState, seat: Seat, action: Action) -> None:
    """Choose the chest an unplayed colour takes: it leaves the game (V4.5)."""
    assert seat is not None
    _check_chest(st, "discard", action["kind"])
    _discard(st, seat, action["kind"])
    st.goto("share")


def _take(st: VikingsState, seat: int, kind: str) -> None:
    sailing = _sailing(st)
    st.prows[sailing["drakkar"]].remove(kind)
    st.chests[seat].append(kind)
    # Public: someone took a chest; which kind is behind their shield (V2.6).
    st.record("take_chest", seat=seat)
    _next(sailing)


def _discard(st: VikingsState, chooser: int, kind: str) -> None:
    sailing = _sailing(st)
    st.prows[sailing["drakkar"]].remove(kind)
    st.box.append(kind)
    colour = sailing["influence"][sailing["next"]][0]
    st.record("discard_chest", seat=chooser, colour=R.COLOURS[colour], kind=kind)
    _next(sailing)


def _next(sailing: dict[str, Any]) -> None:
    sailing["next"] = (sailing["next"] + 1) % len(sailing["influence"])
    sailing["chooser"] = None
    sailing["mode"] = None


# -- the end (V5.1) -------------------------------------------------------------------------------


def enter_over(st: VikingsState) -> str | None:
    """The game ends right after the 7th drakkar sails; the 8th's contents are lost (V5.1)."""
    st.step = None
    st.sailing = None
    winners = st.winners()
    st.result = {"reason": "seventh_drakkar", "winners": winners}
    st.record("end", winners=winners)
    return None
