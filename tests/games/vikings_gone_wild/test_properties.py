"""Property tests over whole random games for 2 to 4 players (hypothesis).

At every step ``check_invariants`` holds: each score is the sum of where its points came from, the
favour spaces reached are those at or below the score (W8.1), favours taken and left make 12
(W0.4), at most 3 buildings of a kind (W3.2) and the town hall's limit (W3.3), the box's building
cards (D10), the 20 missions (W0.7), at most 2 held (W7.4), the last turn exactly when someone
reached the end mark (W9.3), the 8 bonus cards (W0.5). Scores only rise (no rule takes points
away) except through an undo (D15); the first player token passes left each turn (W2.8). At the
end: replaying the seed and the actions gives the same state, and no view leaks a secret.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from longhall.server.games.api import IllegalAction
from longhall.server.games.vikings_gone_wild import SPEC

from ..conformance import assert_no_leak, new_state, step


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**63 - 1))
def test_whole_random_games_keep_every_invariant(players: int, seed: int) -> None:
    state = new_state(SPEC, players, seed)
    rnd = random.Random(seed)
    log = []
    scores = list(state.score)
    first, turn = state.first, state.round
    while not state.is_over():
        problems = SPEC.check_invariants(state)
        assert not problems, problems
        if state.round != turn:  # W2.8
            assert state.first == (first + 1) % players and state.round == turn + 1
            first, turn = state.first, state.round
        if rnd.random() < 0.03:
            assert_no_leak(SPEC, state, rnd)
        seat, action = step(state, rnd)
        state.apply(seat, action)
        log.append((seat, action))
        if action["type"] != "undo":
            assert all(a >= b for a, b in zip(state.score, scores, strict=True))
        scores = list(state.score)
    assert not SPEC.check_invariants(state)
    assert state.last_turn and max(state.score) >= state.config["end_mark"]  # W9.3
    assert state.winners() == state.result["winners"]
    assert_no_leak(SPEC, state, rnd)
    again = new_state(SPEC, players, seed)
    for seat, action in log:
        again.apply(seat, json.loads(json.dumps(action)))
    assert again.to_dict() == state.to_dict()


KEYS = [
    "type",
    "target",
    "building",
    "attack",
    "cards",
    "value",
    "kind",
    "slot",
    "name",
    "points",
    "resource",
    "card",
    "defence",
    "favour",
    "count",
    "meets",
    "undo",
]
TYPES = [
    "attack",
    "defend",
    "build",
    "upgrade",
    "card_numbers",
    "take_mission",
    "store",
    "keep",
    "bonus",
    "tiebreak",
    "spend",
    "swap_mission",
    "complete_mission",
    "undead_board",
    "next",
]
VALUES = st.one_of(
    st.integers(-3, 120),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from(["gold", "beer", "none", "tavern", "town_hall_1", ""]),
    st.lists(st.booleans(), max_size=5),
)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 1000),
    steps=st.integers(0, 120),
    seat=st.one_of(st.none(), st.integers(-1, 4)),
    action=st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={k: VALUES for k in KEYS[1:]},
    ),
)
def test_any_action_is_applied_whole_or_refused_changing_nothing(
    seed: int, steps: int, seat: int | None, action: dict[str, object]
) -> None:
    state = new_state(SPEC, 3, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        s, a = step(state, rnd)
        state.apply(s, a)
    before = state.to_dict()
    try:
        state.apply(seat, action)
    except IllegalAction as err:
        assert err.code and err.message
        assert state.to_dict() == before
    else:
        assert not SPEC.check_invariants(state)
