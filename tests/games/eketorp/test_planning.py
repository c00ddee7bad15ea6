"""Secret planning and the reveal (R3, R4)."""

from __future__ import annotations

import pytest

from longhall.server.games.api import Action, IllegalAction, Seat
from longhall.server.games.eketorp import SPEC, EketorpState

from .helpers import BLUE, GREEN, RED, YELLOW, clear_fields, new_game, ok, plan, set_field, siege


def refused(st: EketorpState, seat: Seat, action: Action, code: str) -> IllegalAction:
    before = st.to_dict()
    with pytest.raises(IllegalAction) as err:
        st.apply(seat, action)
    assert err.value.code == code, err.value.message
    assert err.value.message  # a human sentence
    assert st.to_dict() == before  # nothing changed
    return err.value


def test_any_number_on_fields_and_own_castle_one_per_siege_field() -> None:
    # R3.1
    st = new_game(3)
    for _ in range(3):
        st.apply(RED, {"type": "place", "to": "A"})
    st.apply(RED, {"type": "place", "to": "castle"})
    st.apply(RED, {"type": "place", "to": "castle"})
    st.apply(RED, {"type": "place", "to": siege(BLUE, "boat")})
    refused(st, RED, {"type": "place", "to": siege(BLUE, "boat")}, "siege_field_taken")
    st.apply(RED, {"type": "place", "to": siege(BLUE, "ram")})
    st.apply(RED, {"type": "place", "to": siege(YELLOW, "boat")})
    assert st.plans[RED] == {
        "A": 3,
        "castle": 2,
        siege(BLUE, "boat"): 1,
        siege(BLUE, "ram"): 1,
        siege(YELLOW, "boat"): 1,
    }
    # 8 vikings with 3 players: all placed, none left
    refused(st, RED, {"type": "place", "to": "B"}, "no_viking_left")
    legal = st.legal_actions(RED)
    assert {"type": "commit"} in legal
    assert not any(a["type"] == "place" for a in legal)


def test_vikings_in_the_hospital_cannot_be_planned() -> None:
    # R3.2
    st = new_game(4)
    st.home[RED] -= 2
    st.hospital[RED] = [1, 1, 0]
    for _ in range(4):
        st.apply(RED, {"type": "place", "to": "B"})
    err = refused(st, RED, {"type": "place", "to": "B"}, "viking_in_hospital")
    assert "hospital" in err.message
    ok(st)


def test_a_player_with_every_viking_in_the_hospital_has_nothing_to_plan() -> None:
    # R3.2
    st = new_game(3)
    st.committed = [False] * 3
    st.home[GREEN % 3] = st.home[GREEN % 3]
    st.hospital[BLUE] = [st.home[BLUE], 0, 0]
    st.home[BLUE] = 0
    st.phase = "round_end"
    st.goto("materials")
    assert st.phase == "planning"
    assert st.committed[BLUE] and BLUE not in st.active_seats()
    ok(st)


def test_cannot_besiege_own_castle_or_a_castle_not_in_play() -> None:
    # R3.3, R0.1: with 4 players only 4 castles are in play
    st = new_game(4)
    refused(st, RED, {"type": "place", "to": siege(RED, "boat")}, "own_castle")
    refused(st, RED, {"type": "place", "to": siege(5, "boat")}, "castle_not_in_play")
    refused(st, RED, {"type": "place", "to": "H"}, "unknown_field")
    refused(st, RED, {"type": "place", "to": "siege:1:bridge"}, "unknown_field")
    # R3.1: a siege field spelled another way is not another siege field (it would have
    # slipped past the one-viking check and dropped out of the plan at the reveal)
    for twisted in ("siege:01:boat", "siege:¹:boat", "siege:\uff11:boat"):
        refused(st, RED, {"type": "place", "to": twisted}, "unknown_field")
    dests = {a["to"] for a in st.legal_actions(RED) if a["type"] == "place"}
    assert siege(RED, "boat") not in dests and siege(5, "boat") not in dests
    assert len(dests) == 7 + 3 * 3 + 1


def test_commit_needs_every_viking_and_uncommit_until_everyone_committed() -> None:
    # R3.1, R4.1
    st = new_game(3)
    refused(st, RED, {"type": "commit"}, "plan_incomplete")
    plan(st, {RED: {"A": 8}, BLUE: {"B": 8}}, reveal=False)
    # all three committed: the plan cannot change any more, and only the table reveals
    assert st.phase == "reveal"
    refused(st, RED, {"type": "uncommit"}, "all_committed")
    refused(st, RED, {"type": "reveal"}, "table_action")
    st.apply(None, {"type": "reveal"})
    assert st.revealed is not None
    assert st.revealed[str(RED)] == {"A": 8}


def test_uncommit_reopens_the_plan_before_everyone_has_committed() -> None:
    # R4.1
    st = new_game(3)
    for _ in range(8):
        st.apply(RED, {"type": "place", "to": "C"})
    st.apply(RED, {"type": "commit"})
    refused(st, RED, {"type": "place", "to": "C"}, "already_committed")
    refused(st, None, {"type": "reveal"}, "not_table_action")
    st.apply(RED, {"type": "uncommit"})
    st.apply(RED, {"type": "unplace", "from": "C"})
    st.apply(RED, {"type": "place", "to": "D"})
    assert st.plans[RED] == {"C": 7, "D": 1}


def test_plans_stay_secret_until_the_reveal() -> None:
    # R3 (the screen), R4.1
    st = new_game(4)
    st.apply(RED, {"type": "place", "to": siege(BLUE, "ram")})
    for seat in (None, BLUE, YELLOW, GREEN):
        seen = SPEC.view(st, seat)
        assert "siege:1:ram" not in repr([seen["public"], seen["private"]])
    assert SPEC.view(st, RED)["private"]["plan"] == {siege(BLUE, "ram"): 1}
    plan(st, {})
    assert "siege:1:ram" in repr(SPEC.view(st, BLUE)["public"]["revealed"])


def test_the_reveal_moves_every_viking_at_once() -> None:
    # R4.1
    st = new_game(4)
    clear_fields(st)
    set_field(st, "A", grass=1)  # a fight on A keeps everyone on the board
    plan(st, {RED: {"A": 2, siege(BLUE, "boat"): 1}, BLUE: {"A": 1}, YELLOW: {"B": 6}})
    assert st.phase == "pick"
    assert st.board["A"][RED] == 2 and st.board["A"][BLUE] == 1
    assert st.board[siege(BLUE, "boat")][RED] == 1
    assert st.board["castle:0"][RED] == 3
    assert st.board["castle:1"][BLUE] == 5
    reveal = [e for e in st.log if e["e"] == "reveal"][-1]
    assert reveal["plans"][str(YELLOW)] == {"B": 6}
