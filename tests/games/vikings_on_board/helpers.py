"""Building blocks for Vikings on Board scenarios: set up a harbour as a rule's example shows it.

Every helper keeps the game's invariants (hull pieces move between drakkars, chests come from and
go back to the piles), so that ``check_invariants`` still holds after a scenario is set up.
"""

from __future__ import annotations

from typing import Any

import pytest

from longhall.server.games.api import GameState, IllegalAction
from longhall.server.games.vikings_on_board import SPEC, VikingsState
from longhall.server.games.vikings_on_board import rules as R
from longhall.server.table.gamedata import default_config

RED, GREEN, BLUE, YELLOW = range(4)


def new_game(players: int = 4, seed: int = 1, **config: Any) -> VikingsState:
    """A new game waiting for the first viking (the shipped component data)."""
    cfg = default_config("vikings_on_board", players)
    cfg.update(config)
    return vikings(SPEC.new(cfg, seed))


def vikings(st: GameState) -> VikingsState:
    """The state the spec made, as the game's own type."""
    assert isinstance(st, VikingsState)
    return st


def ok(st: VikingsState) -> VikingsState:
    problems = SPEC.check_invariants(st)
    assert not problems, problems
    return st


def piece(colour: int, k: int) -> int:
    """Colour's hull piece k: with the shipped data, k 0-1 carry 1 shield, 2-3 two, 4-5 three."""
    return colour * R.HULL_PIECES + k


def refused(st: VikingsState, seat: Any, action: Any, code: str) -> IllegalAction:
    """The action raises ``code`` with a sentence and leaves the state untouched."""
    before = st.to_dict()
    with pytest.raises(IllegalAction) as err:
        st.apply(seat, action)
    assert err.value.code == code, err.value.message
    assert err.value.message
    assert st.to_dict() == before
    return err.value


def arrange(st: VikingsState, hulls: dict[int, list[int]]) -> None:
    """Give these drakkars exactly these hull pieces (prow first); deal the rest elsewhere."""
    listed = {p for hull in hulls.values() for p in hull}
    pushed: list[int] = []
    for d in range(R.DRAKKARS):
        if d in hulls:
            pushed += [p for p in st.hulls[d] if p not in listed]
        else:
            st.hulls[d] = [p for p in st.hulls[d] if p not in listed]
    for d, hull in hulls.items():
        st.hulls[d] = list(hull)
    # pieces pushed out of the listed drakkars go to others with room, in port if possible
    others = [d for d in st.in_port() + st.sailed if d not in hulls]
    for p in pushed:
        d = next(d for d in others if len(st.hulls[d]) < R.HULL_MAX)
        st.hulls[d].append(p)


def set_prow(st: VikingsState, d: int, kinds: list[str]) -> None:
    """Put exactly these chests on drakkar ``d``'s prow, taken from (and given back to) piles."""
    st.piles[1].extend(st.prows[d])
    st.prows[d] = []
    for kind in kinds:
        pile = next(p for p in st.piles if kind in p)
        pile.remove(kind)
        st.prows[d].append(kind)


def stack_pile(st: VikingsState, pile: int, top: list[str]) -> None:
    """Put these chests on top of a warehouse pile (the last is the top), from either pile."""
    pool = st.piles[0] + st.piles[1]
    for kind in top:
        pool.remove(kind)
    sizes = [len(p) for p in st.piles]
    first = pool[: sizes[0] - (len(top) if pile == 0 else 0)]
    second = pool[len(first) :]
    st.piles = [first + top, second] if pile == 0 else [first, second + top]


def set_market(st: VikingsState, **values: int) -> None:
    st.market.update(values)


def make_active(st: VikingsState, seat: int) -> None:
    """Let ``seat``'s viking move next, by swapping it with the first waiting viking."""
    side = st.spots[st.away]
    first = st.next_viking()
    assert first is not None
    mine = next(b for b, s in enumerate(side) if s == seat)
    side[first], side[mine] = side[mine], side[first]


def go(st: VikingsState, seat: int, building: str) -> None:
    make_active(st, seat)
    st.apply(seat, {"type": "go", "building": building})


def end_turn_with_stern(st: VikingsState, seat: int) -> None:
    """Move every waiting viking across (as if its action were done), ``seat`` having a stern."""
    side = st.spots[st.away]
    free = [b for b, s in enumerate(st.spots[st.chief]) if s is None]
    for b, s in enumerate(side):
        if s is not None:
            st.spots[st.chief][free.pop()] = s
            side[b] = None
    st.sterns -= 1
    st.stern_holder = seat
    st.step = None
    st.phase = "sail"


def sail(st: VikingsState, seat: int, d: int) -> None:
    end_turn_with_stern(st, seat)
    st.apply(seat, {"type": "sail", "drakkar": d})
    reckon(st)


def reckon(st: VikingsState) -> None:
    """Press NEXT through the sailing's shown steps (V4.2, V4.3), up to the chests."""
    while st.phase == "reckon":
        st.apply(None, {"type": "next"})


def play_out(st: VikingsState, seed: int = 0, kind: str = "random") -> VikingsState:
    """Finish a game with bots."""
    bots = [SPEC.bots[kind](seed + s) for s in range(st.n)]
    while not st.is_over():
        if st.phase == "reckon":
            reckon(st)
            continue
        seat = st.active_seats()[0]
        st.apply(seat, bots[seat].choose(st, seat))
    return st
