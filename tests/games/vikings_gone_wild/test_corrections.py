"""The host corrects what Longhall keeps for a group playing with the cards on the table: a score,
the divine favours, a damage or construction marker, a town hall's level, each with a reason the
log shows; the print's consequences follow (W8.1, W9.3), and nothing else changes."""

from __future__ import annotations

from typing import Any

from .helpers import give, ok, refused, set_score, to_players


def fix(seat: int, what: str, value: int, building: int = 0, reason: str = "misread") -> Any:
    return {
        "type": "correct",
        "seat": seat,
        "what": what,
        "building": building,
        "value": value,
        "reason": reason,
    }


def test_a_score_set_right_is_logged_with_its_reason() -> None:
    st = to_players(3)
    set_score(st, 1, 3)
    st.apply(None, fix(1, "score", 4, reason="a mission was forgotten"))
    ok(st)
    assert st.score[1] == 4 and st.points[1]["correction"] == 1
    event = st.log[-1]
    assert event["e"] == "corrected" and event["before"] == 3 and event["after"] == 4
    assert event["reason"] == "a mission was forgotten"


def test_a_score_moved_past_a_favour_space_earns_the_favour_w8_1() -> None:
    st = to_players(3)
    left = st.favours_left
    st.apply(None, fix(2, "score", 6))  # past the space at 5
    ok(st)
    assert 5 in st.reached[2] and st.favours[2] == 1 and st.favours_left == left - 1
    st.apply(None, fix(2, "score", 4))  # back below it: the favour card stays with the player
    ok(st)
    assert st.reached[2] == [] and st.favours[2] == 1


def test_a_score_at_the_end_mark_makes_the_turn_the_last_and_back_w9_3() -> None:
    st = to_players(3)
    mark = st.config["end_mark"]
    st.apply(None, fix(0, "score", mark))
    ok(st)
    assert st.last_turn
    st.apply(None, fix(0, "score", mark - 1, reason="counted twice"))
    ok(st)
    assert not st.last_turn


def test_favours_markers_and_the_town_hall() -> None:
    st = to_players(3)
    tavern = give(st, 1, "tavern")[0]
    st.apply(None, fix(1, "favours", 2))
    st.apply(None, fix(1, "damage", 1, building=tavern))
    st.apply(None, fix(1, "construction", 1, building=0))
    st.apply(None, fix(1, "town_hall", 2))
    ok(st)
    assert st.favours[1] == 2
    assert st.villages[1][tavern]["damaged"] and st.villages[1][0]["new"]
    assert st.villages[1][0]["level"] == 2


def test_a_correction_ends_the_current_player_s_undo_d15() -> None:
    st = to_players(3)
    st.apply(0, {"type": "build", "kind": "tavern"})
    assert st.undo_stack
    st.apply(None, fix(1, "score", 2))
    assert st.undo_stack == []
    assert {"type": "undo", "undo": True} not in st.legal_actions(0)


def test_what_cannot_be_corrected_is_refused_and_changes_nothing() -> None:
    st = to_players(3)
    give(st, 1, *["tavern"] * 3, "brewery", "drakkar")  # five buildings: a level-1 town hall's
    refused(st, None, fix(5, "score", 1), "no_such_seat")
    refused(st, None, fix(1, "gold", 1), "bad_correction")
    refused(st, None, fix(1, "score", -1), "bad_correction")
    refused(st, None, fix(1, "score", 0), "no_change")
    refused(st, None, fix(1, "score", 3, reason="  "), "no_reason")
    refused(st, None, fix(1, "score", 3, reason="a\nforged line"), "no_reason")
    refused(st, None, fix(1, "favours", st.favours_left + 1), "bad_correction")  # W0.4
    refused(st, None, fix(1, "damage", 1, building=9), "not_their_building")
    refused(st, None, fix(1, "damage", 2, building=1), "bad_correction")
    refused(st, None, fix(1, "town_hall", 4), "bad_correction")
    st.villages[1][0]["level"] = 2
    give(st, 1, "beer_reserve")  # six buildings: level 1 has room for five (W3.3)
    refused(st, None, fix(1, "town_hall", 1), "bad_correction")
    # a seat cannot send it: only the host, as the table
    refused(st, 0, fix(1, "score", 3), "wrong_phase")
    assert {"type": "correct"} not in [{"type": a["type"]} for a in st.legal_actions(None)]
