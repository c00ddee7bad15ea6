"""The play-out path a search spends its time on is the same game as the full engine.

The expert bots play their worlds on in thinking copies (:mod:`longhall.server.games.playout`:
no log, no shape or routing checks) with the greedy policy. Here the full engine and the fast
path play the same seeds with the same policy: after every action the two states must be equal
(all but the log, which a thinking copy does not keep).
"""

from __future__ import annotations

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.eketorp import SPEC as EKETORP
from longhall.server.games.eketorp.bots import GreedyBot
from longhall.server.games.eketorp.expert import RolloutPolicy
from longhall.server.games.phased import PhasedState
from longhall.server.games.playout import (
    NullLog,
    fast_apply,
    playout,
    table_step,
    thinking_copy,
)
from longhall.server.games.registry import get
from longhall.server.games.rng import Rng
from longhall.server.games.vikings_on_board import SPEC as VIKINGS
from longhall.server.table.gamedata import default_config

from .eketorp.helpers import eketorp, full_step
from .states import comparable
from .vikings_on_board.helpers import vikings


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (5, 13), (6, 14)])
def test_eketorp_expert_play_outs_play_the_same_game_as_the_full_engine(
    players: int, seed: int
) -> None:
    """The expert's roll-out policy (greedy plans made whole, greedy fights, the building
    proposal) on the fast path and on the full engine, action by action, a whole game."""
    full = eketorp(EKETORP.new(default_config("eketorp", players), seed))
    fast = thinking_copy(full)
    policy, rng = RolloutPolicy(GreedyBot(seed)), Rng(seed)
    steps = 0
    while not full.is_over():
        active = full.active_seats()
        assert fast.PHASES[fast.phase].actors(fast) == active
        if active:
            seat = active[0]
            action = policy(fast, seat, rng)
            assert action in full.legal_actions(seat), (steps, full.phase, action)
            full.apply(seat, action)
            fast_apply(fast, seat, action)
        else:
            full.apply(None, full.legal_actions(None)[0])
            fast_apply(fast, None, table_step(fast))
        steps += 1
        assert comparable(fast) == comparable(full), (steps, full.phase)
    assert fast.is_over() and fast.winners() == full.winners()
    assert steps > 300  # a whole game, fights and all
    assert full.log and isinstance(fast.log, NullLog) and not fast.log


def test_an_expert_play_out_stops_at_the_end_of_a_round() -> None:
    st = thinking_copy(eketorp(EKETORP.new(default_config("eketorp", 6), 9)))
    policy = RolloutPolicy(GreedyBot(9))
    playout(st, [policy] * 6, [Rng(s) for s in range(6)], until=lambda s: s.phase == "round_end")
    assert st.phase == "round_end" and st.round == 1
    playout(st, [policy] * 6, [Rng(s) for s in range(6)])
    assert st.is_over() and st.round > 1
    assert not EKETORP.check_invariants(st)


def test_a_thinking_copy_is_independent_and_shares_only_the_settings() -> None:
    st = eketorp(EKETORP.new(default_config("eketorp", 4), 3))
    copy = thinking_copy(st)
    assert comparable(copy) == comparable(st)
    assert copy.config is st.config  # read-only for the rules: shared, not copied
    copy.hands[0].append(6)
    copy.board["A"][1] += 1
    copy.rng.next64()
    assert comparable(copy) != comparable(st)
    assert st.hands[0] != copy.hands[0] and st.board["A"][1] == 0
    assert st.rng.state != copy.rng.state


def test_the_fast_path_still_refuses_what_the_rules_forbid() -> None:
    st = thinking_copy(eketorp(EKETORP.new(default_config("eketorp", 4), 5)))
    before = comparable(st)
    with pytest.raises(IllegalAction) as err:
        fast_apply(st, 0, {"type": "place", "to": "siege:0:boat"})  # own castle (R3.3)
    assert err.value.code == "own_castle"
    assert comparable(st) == before


def test_vikings_on_board_plays_out_on_the_fast_path() -> None:
    """The generic path (listing the legal actions) serves every game."""
    st = thinking_copy(vikings(VIKINGS.new(default_config("vikings_on_board", 3), 8)))
    bots = [VIKINGS.bots["random"](s) for s in range(3)]
    steps = playout(st, [lambda s, seat, rng: bots[seat].choose(s, seat)] * 3, [Rng(0)] * 3)
    assert st.is_over() and steps > 20
    assert not VIKINGS.check_invariants(st)


@pytest.mark.parametrize("game", ["eketorp", "vikings_on_board", "vikings_gone_wild"])
def test_a_clone_is_the_state_restored_from_its_json_and_independent(game: str) -> None:
    spec = get(game)
    st = spec.new(default_config(game, 3), 4)
    assert isinstance(st, PhasedState)  # every game's state is a phased state
    bots = [spec.bots["random"](s) for s in range(3)]
    for _ in range(40):  # some way into the game: a log, hands, a board
        full_step(st, bots)
    before = st.to_dict()
    copy = st.clone()
    assert isinstance(copy, PhasedState)
    assert copy.to_dict() == before == type(st).from_dict(before).to_dict()
    assert copy.rng is not st.rng and copy.log is not st.log
    for _ in range(40):  # the copy plays on; the original does not move
        full_step(copy, bots)
    assert st.to_dict() == before != copy.to_dict()
