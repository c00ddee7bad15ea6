"""Building blocks for Vikings Gone Wild scenarios: a game brought to a phase, villages built as a
rule's example shows them, scores set on the track, every invariant kept."""

from __future__ import annotations

from typing import Any

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.vikings_gone_wild import SPEC, WildState
from longhall.server.games.vikings_gone_wild import rules as R
from longhall.server.table.gamedata import default_config

VINCENT, MARIE, BRAM, LOTTE = range(4)

# the numbers of the rulebook's examples where it prints them; others a group would enter
NUMBERS: dict[str, dict[str, Any]] = {
    "town_hall_1": {"defence": 4, "points": 0, "resource": "none", "favour": False},
    "town_hall_2": {"defence": 6, "points": 0, "resource": "none", "favour": False},
    "town_hall_3": {"defence": 8, "points": 1, "resource": "none", "favour": False},
    "gold_factory": {"defence": 1, "points": 0, "resource": "none", "favour": False},
    "brewery": {"defence": 1, "points": 0, "resource": "none", "favour": False},
    "gold_reserve": {"defence": 3, "points": 0, "resource": "gold", "favour": False},
    "beer_reserve": {"defence": 3, "points": 0, "resource": "beer", "favour": False},
    "drakkar": {"defence": 5, "points": 2, "resource": "none", "favour": True},
    "tavern": {"defence": 2, "points": 1, "resource": "none", "favour": False},
}


def new_game(players: int = 3, seed: int = 1, **config: Any) -> WildState:
    """A new game waiting for the players' first missions (the house card data; the bonus cards
    drawn by Longhall unless ``bonus`` says otherwise: ``table``, the start player lays them)."""
    cfg = {**default_config("vikings_gone_wild", players), "bonus": "random", **config}
    st = SPEC.new(cfg, seed)
    assert isinstance(st, WildState)
    return st


def ok(st: WildState) -> WildState:
    problems = SPEC.check_invariants(st)
    assert not problems, problems
    return st


def refused(st: WildState, seat: Any, action: Any, code: str) -> IllegalAction:
    """The action raises ``code`` with a sentence and leaves the state untouched."""
    before = st.to_dict()
    with pytest.raises(IllegalAction) as err:
        st.apply(seat, action)
    assert err.value.code == code, err.value.message
    assert err.value.message
    assert st.to_dict() == before
    return err.value


def to_players(players: int = 3, seed: int = 1, numbers: bool = True, **config: Any) -> WildState:
    """A game in the players' phase of turn 1, the first player's turn (known card numbers)."""
    if numbers:
        config.setdefault("numbers", NUMBERS)
    st = new_game(players, seed, **config)  # the first missions held (W1.2)
    st.apply(None, {"type": "next"})  # production -> draw
    st.apply(None, {"type": "next"})  # draw -> players
    assert st.phase == "players"
    return ok(st)


def give(st: WildState, seat: int, *kinds: str, new: bool = False) -> list[int]:
    """Put buildings in a village as if built in earlier turns; return their indices."""
    out = []
    for kind in kinds:
        st.villages[seat].append(
            {"kind": kind, "level": 0, "new": new, "damaged": False, "stock": 0}
        )
        out.append(len(st.villages[seat]) - 1)
    return out


def set_level(st: WildState, seat: int, level: int) -> None:
    st.villages[seat][0]["level"] = level


def set_score(st: WildState, seat: int, score: int) -> None:
    """Put a marker on ``score`` as if reached earlier, favours for the spaces passed taken."""
    st.score[seat] = score
    st.points[seat] = {"missions": score} if score else {}
    st.reached[seat] = [t for t in R.FAVOUR_SPACES if t <= score]
    st.favours_left += st.favours[seat] - len(st.reached[seat])
    st.favours[seat] = len(st.reached[seat])


def turn_of(st: WildState, seat: int) -> None:
    """End turns with the NEXT button until it is ``seat``'s turn."""
    while st.current != seat:
        st.apply(None, {"type": "next"})
        assert st.phase == "players"


def attack(st: WildState, target: int, building: int, value: int, cards: int = 1) -> None:
    seat = st.current
    st.apply(
        seat,
        {"type": "attack", "target": target, "building": building, "attack": value, "cards": cards},
    )


def answer(st: WildState, cards: int = 0, value: int = 0) -> None:
    assert st.attack is not None
    st.apply(st.attack["target"], {"type": "defend", "cards": cards, "value": value})


def finish_turn(st: WildState) -> None:
    """Press NEXT through the rest of the turn (storage and end of turn included)."""
    start = st.round
    while st.round == start and st.phase not in ("bonus", "tiebreak", "over"):
        if st.phase == "defend":
            answer(st)
        else:
            st.apply(None, {"type": "next"})


def play_out(st: WildState, seed: int = 0, kind: str = "random") -> WildState:
    """Finish a game with bots (the NEXT button when no seat is due)."""
    bots = [SPEC.bots[kind](seed + s) for s in range(st.n)]
    steps = 0
    while not st.is_over():
        active = st.active_seats()
        if active:
            st.apply(active[0], bots[active[0]].choose(st, active[0]))
        else:
            st.apply(None, st.legal_actions(None)[0])
        steps += 1
        assert steps < 20000
    return st
