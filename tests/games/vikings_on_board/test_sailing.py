"""A drakkar sails: the stern, influence, bets, chests, leaving the harbour (V4, D5)."""

from __future__ import annotations

from longhall.server.games.vikings_on_board import SPEC
from longhall.server.games.vikings_on_board.sailing import influence

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    arrange,
    end_turn_with_stern,
    new_game,
    ok,
    piece,
    reckon,
    refused,
    sail,
    set_market,
    set_prow,
    vikings,
)


def test_the_stern_goes_on_a_drakkar_with_a_chest_and_a_hull_piece() -> None:
    # V4.1, D5: chosen by the stern's taker at the end of the turn
    st = new_game(4)
    arrange(st, {2: []})
    set_prow(st, 2, ["furs"])  # a chest but no hull piece
    set_prow(st, 5, ["grain"])
    end_turn_with_stern(st, GREEN)
    assert st.active_seats() == [GREEN]
    assert st.legal_actions(GREEN) == [{"type": "sail", "drakkar": 5}]
    refused(st, GREEN, {"type": "sail", "drakkar": 2}, "drakkar_not_ready")
    refused(st, GREEN, {"type": "sail", "drakkar": 9}, "no_such_drakkar")
    refused(st, RED, {"type": "sail", "drakkar": 5}, "not_your_turn")
    st.apply(GREEN, {"type": "sail", "drakkar": 5})
    assert st.sailed == [5] and st.stern_holder is None
    ok(st)


def test_with_no_drakkar_ready_the_stern_goes_on_any_drakkar_in_port() -> None:
    # V4.1
    st = new_game(4)
    st.sailed, st.sterns = [0], 6
    end_turn_with_stern(st, RED)
    assert [a["drakkar"] for a in st.legal_actions(RED)] == [1, 2, 3, 4, 5, 6, 7]
    refused(st, RED, {"type": "sail", "drakkar": 0}, "drakkar_sailed")
    st.apply(RED, {"type": "sail", "drakkar": 3})
    reckon(st)
    assert st.sailed == [0, 3] and st.phase == "turn" and st.round == 2
    ok(st)


def test_rulebook_example_b_influence() -> None:
    # V4.2: red 3 shields, green 2, blue 3 with blue nearer the prow: blue, red, green;
    # yellow has no piece aboard and takes no part
    st = new_game(4)
    hull = [piece(BLUE, 4), piece(RED, 0), piece(GREEN, 2), piece(RED, 2)]
    assert [st.shields(p) for p in hull] == [3, 1, 2, 2]
    assert influence(st, hull) == [(BLUE, 3), (RED, 3), (GREEN, 2)]
    # the tie goes to the colour whose piece is nearer the prow
    hull = [piece(RED, 0), piece(BLUE, 4), piece(GREEN, 2), piece(RED, 2)]
    assert influence(st, hull) == [(RED, 3), (BLUE, 3), (GREEN, 2)]


def test_unplayed_colours_rank_like_the_others_and_bonus_vikings_add_a_shield() -> None:
    # V4.2: with 2 players blue and yellow are nobody's but count; a bonus viking is a shield
    st = new_game(2)
    hull = [piece(RED, 2), piece(GREEN, 3), piece(YELLOW, 4)]
    assert influence(st, hull) == [(YELLOW, 3), (RED, 2), (GREEN, 2)]
    st.bonus = [piece(GREEN, 3)]
    assert influence(st, hull) == [(GREEN, 3), (YELLOW, 3), (RED, 2)]
    assert influence(st, []) == []


def test_rulebook_example_c_bets() -> None:
    # V4.3: yellow bet on blue and wins its barrel back face down; green bet on red and loses
    st = new_game(4)
    arrange(st, {4: [piece(BLUE, 4), piece(RED, 0), piece(GREEN, 2), piece(RED, 2)]})
    set_prow(st, 4, ["grain"])
    st.hands[YELLOW].remove(2)
    st.quay[4][BLUE] = YELLOW * 4 + 2
    st.hands[GREEN].remove(1)
    st.quay[4][RED] = GREEN * 4 + 1
    sail(st, RED, 4)
    assert st.won[YELLOW] == [2] and st.quay[4][BLUE] is None
    assert st.won[GREEN] == [] and st.quay[4][RED] == GREEN * 4 + 1  # stays on this quay
    event = next(e for e in st.log if e["e"] == "bet_won")
    assert event == {"e": "bet_won", "seat": YELLOW, "drakkar": 4, "colour": "blue", "turn": 1}
    public = SPEC.view(st, None)["public"]
    assert public["seats"][YELLOW]["barrels_won"] == 1
    assert SPEC.view(st, YELLOW)["private"]["score"]["breakdown"]["barrels"] == {
        "count": 1,
        "points": 3,
    }
    ok(st)


def test_the_sailing_is_reckoned_at_once_and_one_next_hands_out_the_chests() -> None:
    # V4.2, V4.3: each colour's shields counted from the prow, the ranking and the bet paid are
    # shown the moment the drakkar sails; nobody may act, and one NEXT (the table's) hands out
    # the chests: the outcome of example C
    st = new_game(4)
    arrange(st, {4: [piece(BLUE, 4), piece(RED, 0), piece(GREEN, 2), piece(RED, 2)]})
    set_prow(st, 4, ["grain"])
    st.hands[YELLOW].remove(2)
    st.quay[4][BLUE] = YELLOW * 4 + 2
    end_turn_with_stern(st, RED)
    st.apply(RED, {"type": "sail", "drakkar": 4})
    assert st.phase == "reckon" and st.active_seats() == []
    assert st.legal_actions(None) == [{"type": "next"}]
    refused(st, BLUE, {"type": "take_chest", "kind": "grain"}, "wrong_phase")
    refused(st, BLUE, {"type": "next"}, "table_action")  # NEXT is the table's
    shown = SPEC.view(st, None)["public"]["sailing"]
    blue, red, green = ("blue", [3], 3), ("red", [1, 2], 3), ("green", [2], 2)
    assert [(c["colour"], c["pieces"], c["shields"]) for c in shown["counted"]] == [
        blue,
        red,
        green,
    ]
    assert shown["ranked"] and shown["paid"] and shown["by"] == RED
    assert st.won[YELLOW] == [2] and st.quay[4][BLUE] is None  # the barrel on blue goes back
    st.apply(None, {"type": "next"})
    ok(st)
    # blue alone is due and takes the one chest: the next turn begins
    assert st.chests[BLUE] == ["grain"] and st.phase == "turn"
    refused(st, None, {"type": "next"}, "not_table_action")


def test_a_sailing_saved_while_shown_step_by_step_shows_the_rest_at_its_next_next() -> None:
    # a game saved when each colour, the ranking and the bet were a NEXT of their own
    st = new_game(4)
    arrange(st, {4: [piece(BLUE, 4), piece(RED, 0)]})
    set_prow(st, 4, ["grain"])
    st.hands[YELLOW].remove(2)
    st.quay[4][BLUE] = YELLOW * 4 + 2
    end_turn_with_stern(st, RED)
    st.apply(RED, {"type": "sail", "drakkar": 4})
    saved = st.to_dict()
    assert saved["sailing"]["shown"] == 4
    saved["sailing"]["shown"] = 1
    del saved["sailing"]["by"]
    st = vikings(SPEC.from_dict(saved))
    st.won[YELLOW], st.quay[4][BLUE] = [], YELLOW * 4 + 2  # not paid yet then
    assert SPEC.view(st, None)["public"]["sailing"]["by"] is None
    st.apply(None, {"type": "next"})
    assert st.phase == "reckon" and st.won[YELLOW] == [2]
    st.apply(None, {"type": "next"})
    assert st.chests[BLUE] == ["grain"]
    ok(st)


def test_a_drakkar_with_no_hull_piece_is_reckoned_at_once() -> None:
    # V4.1, V4.2: sailing with no hull piece aboard (no drakkar was ready): nobody leads
    st = new_game(4)
    arrange(st, {3: []})
    set_prow(st, 3, ["furs"])
    sail_ready = [d for d in range(8) if d != 3 and (st.hulls[d] or st.prows[d])]
    st.sailed, st.sterns = sail_ready[:6], 1
    end_turn_with_stern(st, RED)
    st.apply(RED, {"type": "sail", "drakkar": 3})
    shown = SPEC.view(st, None)["public"]["sailing"]
    assert (shown["steps"], shown["counted"], shown["ranked"], shown["paid"]) == (1, [], True, True)
    st.apply(None, {"type": "next"})
    assert st.box[-1:] == ["furs"]  # V4.5: nobody is due to take it
    ok(st)


def test_rulebook_example_d_goods() -> None:
    # V4.4: blue takes grain, red furs, green furs; a metal chest is left: blue takes it
    st = new_game(4)
    arrange(st, {4: [piece(BLUE, 4), piece(RED, 0), piece(GREEN, 2), piece(RED, 2)]})
    set_prow(st, 4, ["grain", "furs", "furs", "metal"])
    sail(st, RED, 4)
    assert st.phase == "share" and st.active_seats() == [BLUE]
    assert st.legal_actions(BLUE) == [
        {"type": "take_chest", "kind": "furs"},
        {"type": "take_chest", "kind": "grain"},
        {"type": "take_chest", "kind": "metal"},
    ]
    refused(st, RED, {"type": "take_chest", "kind": "furs"}, "not_your_turn")
    st.apply(BLUE, {"type": "take_chest", "kind": "grain"})
    refused(st, RED, {"type": "take_chest", "kind": "grain"}, "chest_not_aboard")
    refused(st, RED, {"type": "discard_chest", "kind": "furs"}, "wrong_action")
    st.apply(RED, {"type": "take_chest", "kind": "furs"})
    st.apply(GREEN, {"type": "take_chest", "kind": "furs"})
    # only metal is left: blue takes it without being asked; yellow is not aboard
    assert st.phase == "turn" and st.round == 2
    assert st.chests == [["furs"], ["furs"], ["grain", "metal"], []]
    assert st.prows[4] == [] and 4 in st.sailed
    ok(st)


def test_a_player_alone_aboard_takes_every_chest() -> None:
    # V4.4
    st = new_game(3)
    arrange(st, {1: [piece(GREEN, 0), piece(GREEN, 5)]})
    set_prow(st, 1, ["grain", "metal", "furs"])
    sail(st, BLUE, 1)
    assert sorted(st.chests[GREEN]) == ["furs", "grain", "metal"] and st.phase == "turn"


def test_three_players_the_unplayed_colours_chest_leaves_the_game() -> None:
    # V4.5: yellow is nobody's; the player to the left of the next player due chooses
    st = new_game(3)
    arrange(st, {0: [piece(YELLOW, 4), piece(RED, 0)]})
    set_prow(st, 0, ["metal", "grain", "furs"])
    sail(st, BLUE, 0)
    # yellow first: red (seat 0) is the next player due, so green (seat 1) chooses
    assert st.active_seats() == [GREEN]
    assert st.legal_actions(GREEN)[0] == {"type": "discard_chest", "kind": "furs"}
    refused(st, GREEN, {"type": "take_chest", "kind": "furs"}, "wrong_action")
    st.apply(GREEN, {"type": "discard_chest", "kind": "metal"})
    assert st.box == ["metal"]
    assert st.active_seats() == [RED]
    st.apply(RED, {"type": "take_chest", "kind": "grain"})
    # yellow's turn again and no player is due to take more: the last chest leaves the game
    assert st.chests[RED] == ["grain"] and st.box == ["metal", "furs"]
    assert st.phase == "turn"
    ok(st)


def test_two_players_discards_go_round_the_influence_order() -> None:
    # V4.5 with 2 players: blue and yellow are unplayed
    st = new_game(2)
    arrange(st, {3: [piece(BLUE, 4), piece(GREEN, 2), piece(YELLOW, 0)]})
    set_prow(st, 3, ["metal", "metal", "grain", "furs", "furs"])
    sail(st, GREEN, 3)
    # blue: green is next due, red (to green's left) chooses what blue takes
    assert st.active_seats() == [RED] and st.sailing is not None
    assert st.sailing["mode"] == "discard"
    st.apply(RED, {"type": "discard_chest", "kind": "metal"})
    st.apply(GREEN, {"type": "take_chest", "kind": "metal"})
    # yellow: blue then green follow, green is next due: red chooses again
    assert st.active_seats() == [RED]
    st.apply(RED, {"type": "discard_chest", "kind": "grain"})
    # blue takes one of two furs (no choice), green the other
    assert st.chests[GREEN] == ["metal", "furs"] and st.chests[RED] == []
    assert sorted(st.box) == ["furs", "grain", "metal"]
    ok(st)


def test_chests_of_a_drakkar_with_only_unplayed_colours_leave_the_game() -> None:
    # V4.5: no player is due to take one
    st = new_game(2)
    arrange(st, {6: [piece(BLUE, 0), piece(YELLOW, 1)]})
    set_prow(st, 6, ["grain", "metal"])
    sail(st, RED, 6)
    assert st.box == ["grain", "metal"] and st.chests == [[], []] and st.phase == "turn"
    assert st.log[-3]["e"] == "chests_lost"


def test_the_drakkar_leaves_the_harbour_with_its_hull_pieces() -> None:
    # V4.6
    st = new_game(4)
    set_prow(st, 2, ["furs"])
    aboard = list(st.hulls[2])
    sail(st, RED, 2)
    while st.phase == "share":
        seat = st.active_seats()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert 2 not in st.in_port() and st.hulls[2] == aboard
    public = SPEC.view(st, None)["public"]
    assert public["drakkars"][2]["in_port"] is False and public["drakkars"][2]["stern"]
    assert all(st.locate(p) is None for p in aboard)
    ok(st)


def test_the_game_ends_when_no_stern_is_left() -> None:
    # V4.6, V5.1: right after the 7th drakkar sails; the 8th's contents are lost
    st = new_game(4)
    st.sailed, st.sterns = [0, 1, 2, 3, 4, 5], 1
    set_prow(st, 7, ["metal"])
    set_prow(st, 6, ["grain"])
    arrange(st, {6: [piece(RED, 0)], 7: [piece(BLUE, 0)]})
    sail(st, RED, 6)
    assert st.is_over() and st.phase == "over" and st.sterns == 0
    assert st.chests[RED] == ["grain"] and st.prows[7] == ["metal"]  # lost for everyone
    assert st.result == {"reason": "seventh_drakkar", "winners": [RED]}
    assert st.active_seats() == [] and st.legal_actions(RED) == []
    refused(st, RED, {"type": "go", "building": "market"}, "game_over")
    ok(st)


def test_market_values_are_kept_while_a_drakkar_sails() -> None:
    # V4.4 with V5.2: chests are scored at the end, at the market's final values
    st = new_game(4)
    set_market(st, metal=3)
    arrange(st, {0: [piece(RED, 5)]})
    set_prow(st, 0, ["metal", "metal"])
    sail(st, GREEN, 0)
    assert st.scores()[RED]["breakdown"]["metal"] == {"count": 2, "points": 6}
    st.market["metal"] = 4
    assert st.scores()[RED]["total"] == 8
