"""The eleven building actions (V3.1-V3.11) and the limits they respect (D4, D6)."""

from __future__ import annotations

from longhall.server.games.api import progress_actions
from longhall.server.games.vikings_on_board import SPEC
from longhall.server.games.vikings_on_board import rules as R

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    arrange,
    go,
    new_game,
    ok,
    piece,
    refused,
    set_market,
    stack_pile,
)


def test_first_player_has_no_action_but_moves_first_next_turn() -> None:
    # V3.1
    st = new_game(4, seed=8)
    go(st, GREEN, "first_player")
    assert st.phase == "turn" and st.spots[st.chief][0] == GREEN
    while st.round == 1:
        who = st.active_seats()[0]
        st.apply(who, progress_actions(st.legal_actions(who))[0])
    assert st.active_seats() == [GREEN]


def test_promotion_moves_your_piece_right_behind_the_prow() -> None:
    # V3.2
    st = new_game(4)
    arrange(st, {0: [piece(BLUE, 0), piece(GREEN, 0), piece(RED, 5)]})
    go(st, RED, "promotion")
    assert {"type": "promote", "piece": piece(RED, 5)} in st.legal_actions(RED)
    refused(st, RED, {"type": "promote", "piece": piece(GREEN, 0)}, "not_your_piece")
    refused(st, RED, {"type": "promote", "piece": 99}, "no_such_piece")
    refused(st, RED, {"type": "raise", "goods": "furs"}, "wrong_action")
    st.apply(RED, {"type": "promote", "piece": piece(RED, 5)})
    assert st.hulls[0] == [piece(RED, 5), piece(BLUE, 0), piece(GREEN, 0)]
    ok(st)


def test_a_piece_already_behind_the_prow_cannot_be_promoted() -> None:
    # V3.2: the piece would not move, so that is no promotion
    st = new_game(4)
    arrange(st, {0: [piece(RED, 5), piece(BLUE, 0)]})
    go(st, RED, "promotion")
    assert {"type": "promote", "piece": piece(RED, 5)} not in st.legal_actions(RED)
    refused(st, RED, {"type": "promote", "piece": piece(RED, 5)}, "already_at_prow")


def test_change_drakkar_moves_your_piece_to_the_rear_of_another_drakkar() -> None:
    # V3.3
    st = new_game(4)
    arrange(st, {0: [piece(RED, 2), piece(BLUE, 0)], 1: [piece(GREEN, 1), piece(YELLOW, 0)]})
    go(st, RED, "change_drakkar")
    picks = [a["piece"] for a in st.legal_actions(RED) if a["type"] == "pick_piece"]
    assert picks and all(st.piece_colour(p) == RED for p in picks)
    refused(st, RED, {"type": "pick_piece", "piece": piece(BLUE, 0)}, "not_your_piece")
    refused(st, RED, {"type": "to_drakkar", "drakkar": 1}, "choose_piece")
    st.apply(RED, {"type": "pick_piece", "piece": piece(RED, 2)})
    refused(st, RED, {"type": "pick_piece", "piece": piece(RED, 2)}, "piece_chosen")
    refused(st, RED, {"type": "to_drakkar", "drakkar": 0}, "same_drakkar")
    refused(st, RED, {"type": "to_drakkar", "drakkar": 8}, "no_such_drakkar")
    st.apply(RED, {"type": "to_drakkar", "drakkar": 1})
    assert st.hulls[0] == [piece(BLUE, 0)]
    assert st.hulls[1] == [piece(GREEN, 1), piece(YELLOW, 0), piece(RED, 2)]
    ok(st)


def test_tavern_1_puts_a_barrel_from_hand_face_down_on_a_free_zone() -> None:
    # V3.4
    st = new_game(3)
    go(st, BLUE, "tavern_1")
    assert [a["barrel"] for a in st.legal_actions(BLUE) if a["type"] == "pick_barrel"] == [
        0,
        1,
        2,
        3,
    ]
    refused(st, BLUE, {"type": "pick_barrel", "barrel": 4}, "no_such_barrel")
    st.apply(BLUE, {"type": "pick_barrel", "barrel": 3})
    zones = [a for a in st.legal_actions(BLUE) if a["type"] == "to_zone"]
    assert len(zones) == 8 * 4  # any colour's zone, unplayed yellow included
    refused(st, BLUE, {"type": "to_zone", "drakkar": 2, "colour": "pink"}, "no_such_colour")
    st.apply(BLUE, {"type": "to_zone", "drakkar": 2, "colour": "yellow"})
    assert st.hands[BLUE] == [0, 1, 2] and st.quay[2][YELLOW] == BLUE * 4 + 3
    public = SPEC.view(st, None)["public"]
    assert public["drakkars"][2]["quay"]["yellow"] == BLUE  # the owner, never the value
    ok(st)
    # V3.4, D4: a zone holds one barrel
    go(st, RED, "tavern_2")
    st.apply(RED, {"type": "pick_barrel", "barrel": 0})
    assert {"type": "to_zone", "drakkar": 2, "colour": "yellow"} not in st.legal_actions(RED)
    refused(st, RED, {"type": "to_zone", "drakkar": 2, "colour": "yellow"}, "zone_taken")


def test_tavern_1_uses_only_barrels_still_in_hand() -> None:
    # V3.4
    st = new_game(4)
    st.hands[RED].remove(1)
    st.quay[0][GREEN] = RED * 4 + 1
    go(st, RED, "tavern_1")
    refused(st, RED, {"type": "pick_barrel", "barrel": 1}, "barrel_not_in_hand")


def test_warehouse_1_puts_the_top_chest_face_up_on_a_prow() -> None:
    # V3.5
    st = new_game(4)
    top = st.piles[0][-1]
    go(st, YELLOW, "warehouse_1")
    assert st.step is not None and st.step["drawn"] == [top] and len(st.piles[0]) == 6
    assert SPEC.view(st, None)["public"]["step"]["drawn"] == [top]  # face up for everyone
    legal = st.legal_actions(YELLOW)
    assert legal == [{"type": "place_chest", "kind": top, "drakkar": d} for d in range(8)]
    other = next(k for k in ("furs", "grain", "metal") if k != top)
    refused(st, YELLOW, {"type": "place_chest", "kind": other, "drakkar": 0}, "chest_not_drawn")
    refused(st, YELLOW, {"type": "back"}, "cannot_go_back")
    st.apply(YELLOW, {"type": "place_chest", "kind": top, "drakkar": 5})
    assert st.prows[5] == [top]
    ok(st)


def test_market_raises_one_goods_value_by_one_up_to_four() -> None:
    # V3.6, D4
    st = new_game(4)
    set_market(st, furs=4, grain=3)
    go(st, RED, "market")
    assert st.legal_actions(RED)[:2] == [
        {"type": "raise", "goods": "grain"},
        {"type": "raise", "goods": "metal"},
    ]
    refused(st, RED, {"type": "raise", "goods": "furs"}, "market_at_max")
    refused(st, RED, {"type": "raise", "goods": "gold"}, "no_such_goods")
    st.apply(RED, {"type": "raise", "goods": "grain"})
    assert st.market == {"furs": 4, "grain": 4, "metal": 1}


def test_move_moves_any_piece_to_the_rear_of_another_drakkar() -> None:
    # V3.7
    st = new_game(4)
    arrange(st, {3: [piece(YELLOW, 3), piece(GREEN, 4)], 4: [piece(BLUE, 1)]})
    go(st, RED, "move")
    st.apply(RED, {"type": "pick_piece", "piece": piece(YELLOW, 3)})
    st.apply(RED, {"type": "to_drakkar", "drakkar": 4})
    assert st.hulls[3] == [piece(GREEN, 4)]
    assert st.hulls[4] == [piece(BLUE, 1), piece(YELLOW, 3)]
    ok(st)


def test_move_is_impossible_when_no_other_drakkar_has_room() -> None:
    # V3.7, V2.5, D4, V2.2: the two drakkars left in port are full
    st = new_game(4)
    st.sailed = [0, 1, 2, 3, 4, 5]
    st.sterns -= 6
    p = list(range(24))
    st.hulls = [p[0:3], p[3:6], p[6:9], p[9:12], p[12:14], [], p[14:19], p[19:24]]
    ok(st)
    seat = st.active_seats()[0]
    for building in ("move", "change_drakkar"):
        assert {"type": "go", "building": building} not in st.legal_actions(seat)
        refused(st, seat, {"type": "go", "building": building}, "building_impossible")
    go(st, seat, "exchange")  # still possible: a swap keeps the counts
    refused(st, seat, {"type": "pick_piece", "piece": 0}, "piece_sailed")


def test_tavern_2_places_a_barrel_or_moves_one_from_the_quay() -> None:
    # V3.8: a barrel left on the quay of a drakkar that sailed can still be moved
    st = new_game(4)
    st.hands[GREEN].remove(2)
    st.quay[6][RED] = GREEN * 4 + 2
    st.sailed.append(6)
    st.sterns -= 1
    ok(st)
    go(st, GREEN, "tavern_2")
    assert [a["barrel"] for a in st.legal_actions(GREEN) if a["type"] == "pick_barrel"] == [
        0,
        1,
        2,
        3,
    ]
    st.apply(GREEN, {"type": "pick_barrel", "barrel": 2})
    assert SPEC.view(st, None)["public"]["step"]["barrel_from"] == {"drakkar": 6, "colour": "red"}
    refused(st, GREEN, {"type": "to_zone", "drakkar": 6, "colour": "blue"}, "drakkar_sailed")
    st.apply(GREEN, {"type": "to_zone", "drakkar": 1, "colour": "blue"})
    assert st.quay[6][RED] is None and st.quay[1][BLUE] == GREEN * 4 + 2
    assert st.hands[GREEN] == [0, 1, 3]
    ok(st)
    st = new_game(4)
    go(st, RED, "tavern_2")  # or the Tavern 1 action
    st.apply(RED, {"type": "pick_barrel", "barrel": 0})
    st.apply(RED, {"type": "to_zone", "drakkar": 1, "colour": "red"})
    assert st.hands[RED] == [1, 2, 3]
    ok(st)


def test_warehouse_2_draws_three_chooses_one_and_puts_the_others_under_the_pile() -> None:
    # V3.9
    st = new_game(4)
    stack_pile(st, 1, ["metal", "furs", "metal"])
    rest = st.piles[1][:-3]
    go(st, BLUE, "warehouse_2")
    assert st.step is not None and sorted(st.step["drawn"]) == ["furs", "metal", "metal"]
    assert SPEC.view(st, None)["public"]["step"]["drawn"] is None  # only the chooser sees them
    assert SPEC.view(st, RED)["private"]["drawn"] is None
    assert sorted(SPEC.view(st, BLUE)["private"]["drawn"]) == ["furs", "metal", "metal"]
    kinds = {a["kind"] for a in st.legal_actions(BLUE) if a["type"] == "place_chest"}
    assert kinds == {"furs", "metal"}
    st.apply(BLUE, {"type": "place_chest", "kind": "furs", "drakkar": 7})
    assert st.prows[7] == ["furs"]
    assert st.piles[1] == ["metal", "metal", *rest]  # under the pile
    ok(st)


def test_warehouse_2_with_fewer_than_three_chests_draws_what_is_left() -> None:
    # V3.9
    st = new_game(4)
    st.box = st.piles[1][:-2]
    st.piles[1] = st.piles[1][-2:]
    go(st, BLUE, "warehouse_2")
    assert st.step is not None and len(st.step["drawn"]) == 2 and st.piles[1] == []


def test_an_empty_warehouse_cannot_be_chosen() -> None:
    # D6
    st = new_game(4)
    st.box = st.piles[0]
    st.piles[0] = []
    seat = st.active_seats()[0]
    assert {"type": "go", "building": "warehouse_1"} not in st.legal_actions(seat)
    refused(st, seat, {"type": "go", "building": "warehouse_1"}, "building_impossible")


def test_departure_takes_a_stern() -> None:
    # V3.10, D5: the drakkar is chosen at the end of the turn, not now
    st = new_game(3)
    go(st, RED, "departure")
    assert st.sterns == 6 and st.stern_holder == RED and st.phase == "turn"
    assert st.sailed == []
    assert SPEC.view(st, None)["public"]["stern_holder"] == RED
    ok(st)


def test_with_two_players_the_other_places_a_bonus_viking_on_their_own_piece() -> None:
    # V3.10, 2 players
    st = new_game(2)
    arrange(st, {0: [piece(BLUE, 0), piece(GREEN, 0)]})
    go(st, RED, "departure")
    assert st.phase == "bonus" and st.active_seats() == [GREEN]
    options = [a["piece"] for a in st.legal_actions(GREEN)]
    assert sorted(options) == [piece(GREEN, k) for k in range(6)]
    refused(st, GREEN, {"type": "bonus_viking", "piece": piece(RED, 0)}, "not_your_piece")
    refused(st, RED, {"type": "bonus_viking", "piece": piece(GREEN, 0)}, "not_your_turn")
    st.apply(GREEN, {"type": "bonus_viking", "piece": piece(GREEN, 0)})
    assert st.bonus == [piece(GREEN, 0)] and st.shields(piece(GREEN, 0)) == 2
    assert st.phase == "turn"
    ok(st)
    # at most one viking per piece
    st = new_game(2)
    st.bonus = [piece(GREEN, k) for k in range(5)]
    go(st, RED, "departure")
    assert st.legal_actions(GREEN) == [{"type": "bonus_viking", "piece": piece(GREEN, 5)}]
    refused(st, GREEN, {"type": "bonus_viking", "piece": piece(GREEN, 0)}, "viking_aboard")


def test_no_bonus_viking_when_no_own_piece_is_free() -> None:
    # V3.10: every one of the other player's pieces in port already carries a viking
    st = new_game(2)
    st.bonus = [piece(GREEN, k) for k in range(6)]
    go(st, RED, "departure")
    assert st.phase == "turn" and st.log[-1]["e"] == "no_bonus_viking"
    assert st.stern_holder == RED


def test_exchange_swaps_two_pieces_of_different_drakkars_position_for_position() -> None:
    # V3.11
    st = new_game(4)
    a = [piece(RED, 0), piece(BLUE, 1), piece(GREEN, 2)]
    b = [piece(YELLOW, 0), piece(RED, 4)]
    arrange(st, {0: a, 1: b})
    go(st, GREEN, "exchange")
    st.apply(GREEN, {"type": "pick_piece", "piece": piece(GREEN, 2)})
    refused(st, GREEN, {"type": "swap_with", "piece": piece(RED, 0)}, "same_drakkar")
    assert {"type": "swap_with", "piece": piece(BLUE, 1)} not in st.legal_actions(GREEN)
    st.apply(GREEN, {"type": "swap_with", "piece": piece(YELLOW, 0)})
    assert st.hulls[0] == [piece(RED, 0), piece(BLUE, 1), piece(YELLOW, 0)]
    assert st.hulls[1] == [piece(GREEN, 2), piece(RED, 4)]
    ok(st)


def test_back_takes_the_viking_back_before_anything_is_revealed() -> None:
    st = new_game(4)
    before = st.to_dict()
    seat = st.active_seats()[0]
    st.apply(seat, {"type": "go", "building": "move"})
    st.apply(seat, st.legal_actions(seat)[0])  # a piece chosen
    assert {"type": "back", "undo": True} in st.legal_actions(seat)
    st.apply(seat, {"type": "back"})
    after = st.to_dict()
    assert after.pop("version") == before.pop("version") + 3
    # the viking went to Move on the physical board: the log says to take it back
    went, back = after["log"][-2:]
    assert (went["e"], went["building"]) == ("go", "move")
    origin = R.BUILDINGS[before["spots"][1 - before["chief"]].index(seat)]
    assert back == {**back, "e": "back", "seat": seat, "building": "move", "to": origin}
    after["log"] = after["log"][:-2]
    assert after == before
