"""Sharing stones, building, the end of a round, the end of the game and scoring
(R5.1, R5.2, D4, R6, R7, R8, D9, D10)."""

from __future__ import annotations

from longhall.server.games.eketorp import SPEC
from longhall.server.games.eketorp import rules as R
from longhall.server.games.eketorp.scoring import score

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    clear_fields,
    new_game,
    ok,
    plan,
    set_castle,
    set_field,
)
from .test_planning import refused


def test_rulebook_fields_c_and_d_without_fights() -> None:
    # R5.2: on C there are enough stones for everyone; R5.1: on D only one player's vikings,
    # too few stones, no fight - the extra vikings go home empty-handed
    st = new_game(4)
    clear_fields(st)
    set_field(st, "C", wood=3)
    set_field(st, "D", grass=1)
    plan(st, {RED: {"C": 1, "D": 3}, BLUE: {"C": 1}, YELLOW: {"C": 1}})
    assert not any(e["e"] == "fight" for e in st.log)
    assert st.phase == "building"
    assert st.carry[RED] == ["wood", "grass"]
    assert st.carry[BLUE] == ["wood"] and st.carry[YELLOW] == ["wood"]
    assert st.fields["D"]["grass"] == 0
    ok(st)


def test_sharing_goes_clockwise_from_the_start_player_one_stone_each() -> None:
    # D4: several stone types: each player in turn takes one stone of their choice
    st = new_game(4, start_player=BLUE)
    clear_fields(st)
    set_field(st, "E", grass=2, clay=1, stone=1)
    plan(st, {RED: {"E": 2}, BLUE: {"E": 1}, GREEN: {"E": 1}})
    assert st.phase == "sharing" and st.active_seats() == [BLUE]
    assert [a["stone"] for a in st.legal_actions(BLUE)] == ["grass", "clay", "stone"]
    refused(st, RED, {"type": "take", "field": "E", "stone": "stone"}, "not_your_turn")
    st.apply(BLUE, {"type": "take", "field": "E", "stone": "stone"})
    assert st.active_seats() == [GREEN]
    refused(st, GREEN, {"type": "take", "field": "E", "stone": "stone"}, "stone_not_there")
    refused(st, GREEN, {"type": "take", "field": "A", "stone": "clay"}, "wrong_field")
    st.apply(GREEN, {"type": "take", "field": "E", "stone": "clay"})
    # only grass is left: red takes its two without being asked
    assert st.phase == "building"
    assert st.carry == [["grass", "grass"], ["stone"], [], ["clay"]]
    ok(st)


def test_a_lone_player_with_fewer_stones_than_vikings_takes_them_all_without_asking() -> None:
    # R5.1, D4
    st = new_game(4)
    clear_fields(st)
    set_field(st, "B", wood=1, clay=1)
    plan(st, {GREEN: {"B": 4}})
    assert st.phase == "building" and sorted(st.carry[GREEN]) == ["clay", "wood"]


def test_vikings_go_home_with_their_stones_and_build_at_most_three_high() -> None:
    # R6.1, R6.2, R0.7: 6 building sites, stacks of at most 3
    st = new_game(3)
    assert [len(c) for c in st.castles] == [6, 6, 6]
    clear_fields(st)
    set_field(st, "A", grass=4)
    set_castle(st, RED, [["wood", "wood", "wood"]])
    plan(st, {RED: {"A": 4}})
    assert st.home[RED] == 8 and sum(occ[RED] for occ in st.board.values()) == 0
    assert st.active_seats() == [RED]  # the others have nothing to build
    refused(st, RED, {"type": "build", "stone": "grass", "site": 1}, "stack_full")
    refused(st, RED, {"type": "build", "stone": "clay", "site": 2}, "stone_not_carried")
    refused(st, RED, {"type": "build", "stone": "grass", "site": 7}, "no_such_site")
    refused(st, RED, {"type": "done"}, "stones_left")
    for _ in range(3):
        st.apply(RED, {"type": "build", "stone": "grass", "site": 2})
    refused(st, RED, {"type": "build", "stone": "grass", "site": 2}, "stack_full")
    st.apply(RED, {"type": "build", "stone": "grass", "site": 3})
    st.apply(RED, {"type": "done"})
    assert st.castles[RED][:3] == [["wood"] * 3, ["grass"] * 3, ["grass"]]
    assert st.phase == "round_end"
    ok(st)


def test_a_stone_can_be_moved_before_confirming_but_never_after() -> None:
    # R6.3, D9
    st = new_game(3)
    clear_fields(st)
    set_field(st, "A", clay=1)
    set_castle(st, RED, [["wood"]])
    plan(st, {RED: {"A": 1}, BLUE: {"B": 1}})
    refused(st, RED, {"type": "unbuild", "site": 1}, "stone_is_built")  # built in an earlier round
    st.apply(RED, {"type": "build", "stone": "clay", "site": 1})
    st.apply(RED, {"type": "unbuild", "site": 1})
    st.apply(RED, {"type": "build", "stone": "clay", "site": 4})
    st.apply(RED, {"type": "done"})
    assert st.castles[RED][3] == ["clay"]
    refused(st, RED, {"type": "unbuild", "site": 4}, "wrong_phase")


def test_the_proposal_puts_the_best_stones_on_the_lowest_stacks() -> None:
    # D9: the phone proposes, the host may confirm it for a seat whose phone is gone
    st = new_game(3)
    clear_fields(st)
    set_field(st, "A", grass=1, stone=1, wood=1)
    set_castle(st, RED, [["wood"], ["wood"], [], ["grass", "grass"], ["wood"], ["wood"]])
    plan(st, {RED: {"A": 3}})
    view = SPEC.view(st, RED)
    assert view["private"]["proposal"] == [["stone", 3], ["wood", 1], ["grass", 2]]
    st.apply(RED, {"type": "auto_build"})
    assert st.castles[RED][2] == ["stone"] and st.castles[RED][0] == ["wood", "wood"]
    assert st.done[RED]


def test_building_is_simultaneous_and_ends_when_everyone_confirmed() -> None:
    # D9
    st = new_game(3)
    clear_fields(st)
    set_field(st, "A", grass=1)
    set_field(st, "B", wood=1)
    plan(st, {RED: {"A": 1}, BLUE: {"B": 1}})
    assert sorted(st.active_seats()) == [RED, BLUE]
    st.apply(BLUE, {"type": "auto_build"})
    refused(st, BLUE, {"type": "build", "stone": "wood", "site": 2}, "already_done")
    assert st.phase == "building"
    st.apply(RED, {"type": "auto_build"})
    assert st.phase == "round_end"


def full_castle() -> list[list[str]]:
    return [["grass", "wood", "wood"]] * 5 + [["grass", "wood"]]


def test_a_complete_castle_ends_the_game_after_building() -> None:
    # R6.4: skip phase 6; R6.5: a stone that no longer fits is kept beside the castle and scores
    st = new_game(3)
    clear_fields(st)
    set_field(st, "A", clay=2)
    set_castle(st, RED, full_castle())
    st.hospital[BLUE] = [1, 0, 0]
    st.home[BLUE] -= 1
    plan(st, {RED: {"A": 2}})
    st.apply(RED, {"type": "build", "stone": "clay", "site": 6})
    assert st.beside[RED] == ["clay"]  # the castle is full: the other one is kept beside
    st.apply(RED, {"type": "done"})
    assert st.is_over()
    # the public view says why: whose castle reached the target, with how many stones
    assert SPEC.view(st, None)["public"]["result"] == {
        "reason": "complete",
        "castles": [{"seat": RED, "stones": 18}],
        "round": 1,
        "winners": [RED],
    }
    # and the final board still shows the last build
    assert SPEC.view(st, None)["public"]["seats"][RED]["fresh"] == [0, 0, 0, 0, 0, 1]
    assert st.hospital[BLUE] == [1, 0, 0]  # phase 6 was skipped
    assert score(st, RED)["breakdown"]["clay"] == {"count": 2, "points": 6}
    assert score(st, RED)["breakdown"]["complete"]["points"] == 5
    ok(st)


def test_end_of_round_heals_clears_fields_and_passes_the_deck() -> None:
    # R7.1, R7.2, R7.3, R0.9
    st = new_game(4, start_player=GREEN)
    clear_fields(st)
    set_field(st, "A", grass=2, wood=1, clay=1, stone=1)
    st.home[BLUE] -= 3
    st.hospital[BLUE] = [1, 1, 1]
    plan(st, {})
    assert st.phase == "round_end"
    assert st.hospital[BLUE] == [0, 1, 1] and st.home[BLUE] == 6 - 2
    assert st.fields["A"] == {"grass": 0, "wood": 0, "clay": 1, "stone": 1}
    assert st.start == RED  # clockwise after green (seat 3) comes seat 0
    st.apply(None, {"type": "next_round"})
    assert st.round == 2 and st.phase == "planning"
    ok(st)


def test_the_game_ends_after_the_tenth_round() -> None:
    # R7.4
    st = new_game(3)
    for _ in range(9):
        plan(st, {})
        st.apply(None, {"type": "next_round"})
    assert st.round == 10
    plan(st, {})
    assert st.is_over() and st.result is not None and st.result["reason"] == "rounds"
    # the public view says why: the round that played the last material card
    public = SPEC.view(st, None)["public"]
    assert public["result"]["reason"] == "rounds" and public["result"]["round"] == 10
    assert public["material"]["deck_left"] == 0
    refused(st, None, {"type": "next_round"}, "game_over")


def test_rulebook_scoring_example_39_points() -> None:
    # R8.1-R8.4: 3 amulets + 9 grass + 6 wood + 2 clay + 1 stone + complete castle = 39
    st = new_game(4)
    stacks = (
        [["grass", "grass", "grass"]] * 3
        + [["wood", "wood", "wood"]] * 2
        + [["clay", "clay", "stone"]]
    )
    set_castle(st, RED, stacks)
    st.amulets[RED] = 3
    result = score(st, RED)
    assert result["total"] == 39
    assert result["breakdown"] == {
        "amulets": {"count": 3, "points": 3},
        "grass": {"count": 9, "points": 9},
        "wood": {"count": 6, "points": 12},
        "clay": {"count": 2, "points": 6},
        "stone": {"count": 1, "points": 4},
        "complete": {"count": 1, "points": 5},
    }
    ok(st)


def test_equal_scores_share_the_win() -> None:
    # D10, R8.4
    st = new_game(3)
    set_castle(st, RED, [["wood"]])
    set_castle(st, BLUE, [["grass", "grass"]])
    set_castle(st, 2, [["grass"]])
    assert st.winners() == [RED, BLUE]
    assert R.VALUE == {"grass": 1, "wood": 2, "clay": 3, "stone": 4}
