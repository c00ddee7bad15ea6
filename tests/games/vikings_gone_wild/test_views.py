"""What each reader sees: missions secret to their owner (W1.2, D14), the attack value secret until
the answer (D3), the phone's figures (W2.2, W2.3), the table display's track (W8.1, W9.1)."""

from __future__ import annotations

import json
import random

from longhall.server.games.vikings_gone_wild import SPEC

from ..conformance import assert_no_leak
from .helpers import BRAM, MARIE, VINCENT, attack, give, set_score, to_players


def test_missions_are_seen_by_their_owner_only() -> None:
    # W1.2, D14
    st = to_players(3)
    assert '"missions": [{' not in json.dumps(SPEC.view(st, None))
    st.apply(VINCENT, {"type": "complete_mission", "slot": 0})  # one made public (W7.1)...
    st.apply(VINCENT, {"type": "swap_mission", "slot": 0, "name": "", "points": 3})  # ...one not
    assert SPEC.view(st, MARIE)["public"]["seats"][VINCENT]["missions_held"] == 1
    assert SPEC.view(st, MARIE)["private"]["missions"] == [
        {"slot": 0, "name": "", "points": 1},
        {"slot": 1, "name": "", "points": 1},
    ]
    assert SPEC.view(st, None)["private"] is None
    assert SPEC.view(st, VINCENT)["public"]["seats"][MARIE]["missions_held"] == 2
    assert_no_leak(SPEC, st, random.Random(1))


def test_swapped_missions_stay_secret() -> None:
    # W7.3, D14
    st = to_players(3)
    st.apply(VINCENT, {"type": "swap_mission", "slot": 0, "name": "", "points": 3})
    assert SPEC.view(st, MARIE) == SPEC.view(
        SPEC.resample_hidden(st, MARIE, random.Random(2)), MARIE
    )
    assert "points" not in st.log[-1]
    assert SPEC.view(st, VINCENT)["private"]["mission_points"] == 4


def test_the_attack_value_leaves_the_engine_only_for_its_attacker_and_defender() -> None:
    # D3: the defender weighs the value; the table and the other players see none
    st = to_players(3)
    attack(st, MARIE, 0, 37, cards=4)
    for seat in (None, BRAM):
        assert "37" not in json.dumps(SPEC.view(st, seat)), seat
    for seat in (VINCENT, MARIE):
        assert "37" in json.dumps(SPEC.view(st, seat)), seat
    assert_no_leak(SPEC, st, random.Random(3))


def test_the_phone_and_table_figures() -> None:
    # W2.2, W2.3: "produce 2 gold, 1 beer; draw 7"
    st = to_players(3)
    give(st, VINCENT, "gold_factory", "gold_factory", "brewery", "tavern", "tavern")
    public = SPEC.view(st, VINCENT)["public"]
    assert public["seats"][VINCENT]["figures"] == {
        "gold": 2,
        "beer": 1,
        "taverns": 2,
        "draw": 7,
        "kept": 0,
    }
    assert public["favour_spaces"] == [5, 12, 20] and public["end_mark"] == 30
    assert public["phase"] == "players" and public["current"] == VINCENT
    assert public["order"] == [VINCENT, MARIE, BRAM]


def test_a_favour_earned_is_a_prompt_until_the_next_turn_w8_1() -> None:
    # W8.1-W8.3: the player takes the card from the table: the views say so, not only the log
    st = to_players(3)
    set_score(st, VINCENT, 4)
    st.apply(VINCENT, {"type": "complete_mission", "slot": 0})  # 1 VP: the space 5
    assert SPEC.view(st, None)["public"]["favours_now"] == [{"seat": VINCENT, "why": "space_5"}]
    st.apply(VINCENT, {"type": "end_turn"})
    assert SPEC.view(st, None)["public"]["favours_now"] == []
