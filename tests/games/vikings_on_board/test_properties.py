"""Property tests over whole random games for 2 to 4 players (hypothesis).

At every step: the 24 hull pieces, 15 chests, 16 barrels and 7 sterns are all accounted for, no
drakkar holds more than 5 hull pieces, the market stays within 1-4 (``check_invariants``: V0.2,
V0.3, V1.5, V1.6, V2.5, V3.6); goods values only rise and drakkars only leave (V3.6, V4.6); the
game ends right after the 7th drakkar sails (V5.1). At the end: replaying the seed and the actions
gives the same state, and no view leaks another seat's secrets.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from longhall.server.games.api import IllegalAction
from longhall.server.games.vikings_on_board import SPEC

from ..conformance import assert_no_leak, new_state, step


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**63 - 1))
def test_whole_random_games_conserve_everything(players: int, seed: int) -> None:
    state = new_state(SPEC, players, seed)
    rnd = random.Random(seed)
    log = []
    market = dict(state.market)
    sailed = list(state.sailed)
    while not state.is_over():
        problems = SPEC.check_invariants(state)
        assert not problems, problems
        assert all(state.market[k] >= v for k, v in market.items())  # V3.6: only raised
        assert state.sailed[: len(sailed)] == sailed  # V4.6: a drakkar never comes back
        market, sailed = dict(state.market), list(state.sailed)
        if rnd.random() < 0.03:
            assert_no_leak(SPEC, state, rnd)
        seat, action = step(state, rnd)
        state.apply(seat, action)
        log.append((seat, action))
    assert not SPEC.check_invariants(state)
    assert len(state.sailed) == 7 and len(state.in_port()) == 1  # V5.1
    assert state.winners() == state.result["winners"]
    assert_no_leak(SPEC, state, rnd)
    again = new_state(SPEC, players, seed)
    for seat, action in log:
        again.apply(seat, json.loads(json.dumps(action)))
    assert again.to_dict() == state.to_dict()


KEYS = ["type", "building", "piece", "drakkar", "barrel", "colour", "kind", "goods", "undo"]
TYPES = [
    "go",
    "back",
    "promote",
    "pick_piece",
    "to_drakkar",
    "swap_with",
    "pick_barrel",
    "to_zone",
    "place_chest",
    "raise",
    "bonus_viking",
    "sail",
    "take_chest",
    "discard_chest",
]
WORDS = ["market", "move", "exchange", "tavern_1", "red", "blue", "furs", "metal", "grain"]


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 200),
    junk=st.dictionaries(
        st.sampled_from(KEYS),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-2, 30),
            st.text(max_size=8),
            st.sampled_from(TYPES + WORDS),
        ),
        max_size=4,
    ),
)
def test_any_input_is_applied_fully_or_refused_without_a_trace(
    players: int, seed: int, steps: int, junk: dict[str, Any]
) -> None:
    """Whatever a client sends: either it is a legal action and applies, or it raises
    IllegalAction and the state is untouched."""
    state = new_state(SPEC, players, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat, action = step(state, rnd)
        state.apply(seat, action)
    for seat in [None, *range(players)]:
        before = state.to_dict()
        legal = [{k: v for k, v in a.items() if k != "undo"} for a in state.legal_actions(seat)]
        sent = {k: v for k, v in junk.items() if k != "undo"}
        try:
            state.apply(seat, dict(junk))
        except IllegalAction as err:
            assert err.code and err.message
            assert state.to_dict() == before
        else:
            assert sent in legal, (seat, junk)
            return
