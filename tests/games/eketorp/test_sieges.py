"""Sieges and loot (R5.4, R5.5, R5.7, R5.14-R5.18, D3, D5, D6, D7)."""

from __future__ import annotations

from longhall.server.games.eketorp import EketorpState
from longhall.server.games.eketorp import rules as R

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    clear_fields,
    fight,
    new_game,
    ok,
    plan,
    set_castle,
    set_hand,
    siege,
)
from .test_planning import refused

# Red's castle for the rulebook's siege example: from the boat, sites 3 and 4 can be looted (D3).
# Site 3 has two grass on top, site 4 a wood on top: damage 2 allows two grass or one wood.
RED_CASTLE = [["wood"], ["grass"], ["stone", "grass", "grass"], ["clay", "wood"], [], ["grass"]]


def besieged(defenders: int = 1, players: int = 4) -> EketorpState:
    st = new_game(players)
    clear_fields(st)
    set_castle(st, RED, RED_CASTLE)
    plan(
        st,
        {RED: {"castle": defenders, "A": st.home[RED] - defenders}, BLUE: {siege(RED, "boat"): 1}},
    )
    return st


def test_siege_geometry_each_side_touches_two_sites() -> None:
    # R0.8, D3
    assert R.SIDE_SITES == {"catapult": (1, 2), "boat": (3, 4), "ram": (5, 6)}
    assert len(R.siege_fields(6)) == 18


def test_rulebook_siege_blue_five_beats_red_three_and_takes_the_wood() -> None:
    # R5.14, R5.15, R5.17 and the rulebook's siege example
    st = besieged()
    assert st.legal_actions(BLUE) == [{"type": "siege", "field": siege(RED, "boat")}]
    set_hand(st, BLUE, [5, 2, 1, 1])
    set_hand(st, RED, [3, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 5, RED: 3})
    assert st.last_fight is not None and st.last_fight["damage"] == 2
    # red's defender goes to "1-2" and moves on to "0" at once (R5.15)
    assert st.last_fight["hospital"] == [{"seat": RED, "station": "0"}]
    assert st.hospital[RED] == [0, 0, 1]
    assert st.phase == "loot" and st.active_seats() == [BLUE]
    options = [a for a in st.legal_actions(BLUE) if a["type"] == "loot"]
    taken = sorted((tuple(map(tuple, a["take"])), a["keep"]) for a in options)
    assert taken == sorted(
        [
            (((3, 2),), "grass"),  # one grass
            (((3, 2), (3, 1)), "grass"),  # two grass, keep one
            (((4, 1),), "wood"),  # the wood
        ]
    )
    assert {"type": "skip_loot"} in st.legal_actions(BLUE)
    st.apply(BLUE, {"type": "loot", "take": [[4, 1]], "keep": "wood"})
    assert st.castles[RED][3] == ["clay"]
    assert st.carry[BLUE] == ["wood"]
    ok(st)


def test_two_grass_removed_one_kept_one_back_to_the_supply() -> None:
    # R5.17: the others go back to the supply
    st = besieged()
    set_hand(st, BLUE, [5, 2, 1, 1])
    set_hand(st, RED, [3, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 5, RED: 3})
    grass = st.supply["grass"]
    st.apply(BLUE, {"type": "loot", "take": [[3, 2], [3, 1]], "keep": "grass"})
    assert st.castles[RED][2] == ["stone"]
    assert st.carry[BLUE] == ["grass"] and st.supply["grass"] == grass + 1
    ok(st)


def test_loot_is_taken_from_the_top_within_the_damage_from_the_two_touching_sites() -> None:
    # R5.17
    st = besieged()
    set_hand(st, BLUE, [5, 2, 1, 1])
    set_hand(st, RED, [3, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 5, RED: 3})
    refused(st, BLUE, {"type": "loot", "take": [[3, 1]], "keep": "grass"}, "loot_not_on_top")
    refused(st, BLUE, {"type": "loot", "take": [[1, 0]], "keep": "wood"}, "loot_wrong_site")
    refused(st, BLUE, {"type": "loot", "take": [[3, 2], [4, 1]], "keep": "wood"}, "loot_too_much")
    refused(st, BLUE, {"type": "loot", "take": [[3, 2]], "keep": "wood"}, "loot_keep_missing")
    refused(st, BLUE, {"type": "loot", "take": [[3]], "keep": "grass"}, "malformed")
    refused(st, BLUE, {"type": "loot", "take": [], "keep": "grass"}, "loot_empty")


def test_the_besieger_may_take_nothing() -> None:
    # D6
    st = besieged()
    set_hand(st, BLUE, [5, 2, 1, 1])
    set_hand(st, RED, [3, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 5, RED: 3})
    st.apply(BLUE, {"type": "skip_loot"})
    assert st.castles[RED] == RED_CASTLE and st.carry[BLUE] == []
    ok(st)


def test_a_lost_siege_takes_nothing_and_the_besieger_goes_to_the_hospital() -> None:
    # D6, R5.10
    st = besieged()
    set_hand(st, BLUE, [2, 2, 1, 1])
    set_hand(st, RED, [6, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 2, RED: 6})
    assert st.castles[RED] == RED_CASTLE
    assert st.last_fight is not None and st.last_fight["hospital"] == [
        {"seat": BLUE, "station": "3-4-5"}
    ]
    ok(st)


def test_a_siege_tie_sends_both_to_zero_and_the_defender_does_not_move_on() -> None:
    # D7, R5.11
    st = besieged()
    set_hand(st, BLUE, [4, 2, 1, 1])
    set_hand(st, RED, [4, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 4, RED: 4})
    assert st.last_fight is not None
    assert st.last_fight["hospital"] == [
        {"seat": BLUE, "station": "0"},
        {"seat": RED, "station": "0"},
    ]
    assert st.castles[RED] == RED_CASTLE


def test_a_castle_without_defender_plays_a_card_worth_zero() -> None:
    # R5.16: the card counts 0, cards are exchanged, nobody goes to the hospital
    st = besieged(defenders=0)
    set_hand(st, BLUE, [2, 2, 1, 1])
    set_hand(st, RED, [6, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    assert st.fight is not None and st.fight["defended"] is False
    fight(st, {BLUE: 1, RED: 6})
    last = st.last_fight
    assert (
        last is not None
        and last["values"] == [1, 0]
        and last["damage"] == 1
        and last["winner"] == BLUE
    )
    assert last["hospital"] == []
    assert st.discards[BLUE][-1] == 6 and st.discards[RED][-1] == 1
    assert st.phase == "loot"  # one grass is within a damage of 1
    ok(st)


def test_a_siege_with_several_defenders_is_fought_once_by_any_one_of_them() -> None:
    # R5.14, D5
    st = besieged(defenders=3)
    set_hand(st, BLUE, [6, 2, 1, 1])
    set_hand(st, RED, [1, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 6, RED: 1})
    assert st.board["castle:0"][RED] == 2  # one defender fought and went to the hospital
    st.apply(BLUE, {"type": "skip_loot"})
    # the besieger still stands on the siege field, but it cannot besiege again
    assert siege(RED, "boat") in st.sieges_done
    assert all(a["type"] != "siege" for a in st.legal_actions(BLUE))
    ok(st)


def test_the_defender_never_starts_a_siege() -> None:
    # R5.7
    st = new_game(4)
    clear_fields(st)
    set_castle(st, RED, RED_CASTLE)
    set_castle(st, BLUE, RED_CASTLE)
    plan(st, {RED: {siege(BLUE, "ram"): 1}, BLUE: {siege(RED, "boat"): 1}})
    assert st.turn == RED
    refused(st, RED, {"type": "siege", "field": siege(RED, "boat")}, "defender_cannot_start")
    assert st.legal_actions(RED) == [{"type": "siege", "field": siege(BLUE, "ram")}]


def test_several_players_on_a_siege_field_fight_first_then_the_winner_besieges() -> None:
    # R5.4, R5.5
    st = new_game(4)
    clear_fields(st)
    set_castle(st, RED, RED_CASTLE)
    plan(st, {BLUE: {siege(RED, "boat"): 1}, YELLOW: {siege(RED, "boat"): 1}})
    assert st.turn == BLUE
    assert st.legal_actions(BLUE) == [
        {"type": "fight", "field": siege(RED, "boat"), "opponent": YELLOW}
    ]
    refused(st, BLUE, {"type": "siege", "field": siege(RED, "boat")}, "siege_contested")
    set_hand(st, BLUE, [6, 2, 1, 1])
    set_hand(st, YELLOW, [1, 2, 2, 1])
    st.apply(BLUE, {"type": "fight", "field": siege(RED, "boat"), "opponent": YELLOW})
    fight(st, {BLUE: 6, YELLOW: 1})
    # yellow has nothing left to pick, green neither; red only defends: blue besieges next
    assert st.turn == BLUE
    assert st.legal_actions(BLUE) == [{"type": "siege", "field": siege(RED, "boat")}]


def test_a_tie_can_leave_a_siege_field_empty_and_that_siege_does_not_happen() -> None:
    # R5.18
    st = new_game(4)
    clear_fields(st)
    set_castle(st, RED, RED_CASTLE)
    plan(st, {BLUE: {siege(RED, "boat"): 1}, GREEN: {siege(RED, "boat"): 1}})
    set_hand(st, BLUE, [3, 2, 1, 1])
    set_hand(st, GREEN, [3, 2, 2, 1])
    st.apply(BLUE, {"type": "fight", "field": siege(RED, "boat"), "opponent": GREEN})
    fight(st, {BLUE: 3, GREEN: 3})
    assert st.board[siege(RED, "boat")] == [0, 0, 0, 0]
    assert st.castles[RED] == RED_CASTLE
    assert st.phase == "round_end"
    assert not any(e["e"] == "result" and e["kind"] == "siege" for e in st.log)


def test_a_won_siege_removes_one_or_two_stones_never_more() -> None:
    # D13: a damage of 5 against stacks of 1-point stones still removes at most two stones;
    # the other limits of R5.17 stay (tops only, the two touching sites, value, one kept)
    st = new_game(4)
    clear_fields(st)
    grass_castle = [[], [], ["grass"] * 3, ["grass"] * 3, [], []]
    set_castle(st, RED, grass_castle)
    plan(st, {RED: {"castle": 0, "A": st.home[RED]}, BLUE: {siege(RED, "boat"): 1}})
    set_hand(st, BLUE, [6, 2, 1, 1])
    set_hand(st, RED, [1, 2, 2, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    fight(st, {BLUE: 6, RED: 1})
    assert st.last_fight is not None and st.last_fight["damage"] >= 5
    options = [a for a in st.legal_actions(BLUE) if a["type"] == "loot"]
    assert options and max(len(a["take"]) for a in options) == 2
    assert sorted(tuple(map(tuple, a["take"])) for a in options) == sorted(
        [((3, 2),), ((3, 2), (3, 1)), ((4, 2),), ((4, 2), (4, 1)), ((3, 2), (4, 2))]
    )
    three = [[3, 2], [3, 1], [4, 2]]
    refused(st, BLUE, {"type": "loot", "take": three, "keep": "grass"}, "loot_too_many")
    five = [[3, 2], [3, 1], [3, 0], [4, 2], [4, 1]]
    refused(st, BLUE, {"type": "loot", "take": five, "keep": "grass"}, "loot_too_many")
    assert st.castles[RED] == grass_castle  # a refused loot changes nothing
    grass = st.supply["grass"]
    st.apply(BLUE, {"type": "loot", "take": [[3, 2], [4, 2]], "keep": "grass"})
    assert st.castles[RED][2:4] == [["grass"] * 2, ["grass"] * 2]
    assert st.carry[BLUE] == ["grass"] and st.supply["grass"] == grass + 1
    ok(st)


def test_the_owner_of_a_castle_without_defender_is_not_asked_to_swap() -> None:
    # R5.16, R5.8: their card counts 0 whatever it is, so a paid swap could only cost amulets
    st = besieged(defenders=0)
    set_hand(st, BLUE, [2, 2, 1, 1])
    st.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    assert st.phase == "swap" and st.active_seats() == [BLUE]  # the besieger may swap
    st.apply(BLUE, {"type": "keep"})
    assert st.phase == "choose" and st.amulets[RED] == 5  # the owner was not asked
    defended = besieged(defenders=1)
    set_hand(defended, BLUE, [2, 2, 1, 1])
    defended.apply(BLUE, {"type": "siege", "field": siege(RED, "boat")})
    defended.apply(BLUE, {"type": "keep"})
    assert defended.phase == "swap" and defended.active_seats() == [RED]  # a defender: asked
