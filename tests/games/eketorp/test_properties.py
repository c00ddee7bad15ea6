"""Property tests over whole random games for 3 to 6 players (hypothesis).

At every step: the 112 stones, the 54 combat cards, every viking and every amulet are conserved
or accounted for (``check_invariants``: R0.2-R0.5, R5.12, R5.13); no stack is above 3 (R6.2);
amulets are never regained (R0.3); the game ends by round 10 (R7.4). At the end: replaying the
seed and the actions gives the same state, and no view leaks another seat's secrets.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from longhall.server.games.eketorp import SPEC
from longhall.server.games.eketorp import rules as R

from ..conformance import assert_no_leak, new_state, step
from .helpers import eketorp


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5, 6]),
    seed=st.integers(0, 2**63 - 1),
    deck=st.sampled_from(["house", "house", "physical"]),
)
def test_whole_random_games_conserve_everything(players: int, seed: int, deck: str) -> None:
    from longhall.server.table.gamedata import default_config

    state = eketorp(SPEC.new({**default_config("eketorp", players), "deck": deck}, seed))
    rnd = random.Random(seed)
    log = []
    amulets = list(state.amulets)
    while not state.is_over():
        problems = SPEC.check_invariants(state)
        assert not problems, problems
        assert all(len(stack) <= R.STACK_MAX for castle in state.castles for stack in castle)
        assert all(a <= b for a, b in zip(state.amulets, amulets, strict=True))  # R0.3
        amulets = list(state.amulets)
        assert state.round <= R.MAX_ROUNDS
        if rnd.random() < 0.02:
            assert_no_leak(SPEC, state, rnd)
        seat, action = step(state, rnd)
        state.apply(seat, action)
        log.append((seat, action))
    assert state.round <= R.MAX_ROUNDS and not SPEC.check_invariants(state)
    assert_no_leak(SPEC, state, rnd)
    again = SPEC.new({**default_config("eketorp", players), "deck": deck}, seed)
    for seat, action in log:
        again.apply(seat, json.loads(json.dumps(action)))
    assert again.to_dict() == state.to_dict()


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 400),
    junk=st.dictionaries(
        st.sampled_from(
            ["type", "to", "from", "field", "stone", "site", "card", "opponent", "take", "keep"]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 30),
            st.text(max_size=12),
            st.sampled_from(
                [
                    "place",
                    "commit",
                    "fight",
                    "siege",
                    "play",
                    "loot",
                    "take",
                    "build",
                    "A",
                    "castle",
                    "siege:1:boat",
                    "grass",
                    "clay",
                ]
            ),
            st.lists(st.lists(st.integers(-1, 7), max_size=3), max_size=3),
        ),
        max_size=4,
    ),
)
def test_any_input_is_applied_fully_or_refused_without_a_trace(
    seed: int, steps: int, junk: dict[str, Any]
) -> None:
    """Whatever a client sends: either it is a legal action and applies, or it raises
    IllegalAction and the state is untouched."""
    from longhall.server.games.api import IllegalAction

    state = new_state(SPEC, 4, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat, action = step(state, rnd)
        state.apply(seat, action)
    for seat in [None, *range(4)]:
        before = state.to_dict()
        legal = [{k: v for k, v in a.items() if k != "undo"} for a in state.legal_actions(seat)]
        try:
            state.apply(seat, dict(junk))
        except IllegalAction:
            assert state.to_dict() == before
        else:
            assert junk in legal or _same_loot(junk, legal), (seat, junk)
            return


def _same_loot(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Loot may list its stones in another order than legal_actions does."""
    if action.get("type") != "loot":
        return False
    key = sorted(map(tuple, action["take"]))
    return any(
        a["type"] == "loot" and sorted(map(tuple, a["take"])) == key and a["keep"] == action["keep"]
        for a in legal
    )
