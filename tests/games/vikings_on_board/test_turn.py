"""A turn: who moves, the obligation to act, the end of the turn (V2)."""

from __future__ import annotations

from longhall.server.games.vikings_on_board import SPEC, VikingsState
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
)


def _go(st: VikingsState, seat: int, building: str) -> None:
    st.apply(seat, {"type": "go", "building": building})


def test_vikings_move_in_building_order_to_the_chiefs_side() -> None:
    # V2.1: the viking nearest the First player building moves first, then the next one
    st = new_game(4, seed=3)
    waiting = [s for s in st.spots[0] if s is not None]
    moved = []
    while st.next_viking() is not None and st.round == 1:
        seat = st.active_seats()[0]
        viking = st.next_viking()
        assert viking is not None
        assert seat == st.spots[st.away][viking]
        moved.append(seat)
        st.apply(seat, st.legal_actions(seat)[-1])
        while st.phase == "act":
            st.apply(seat, st.legal_actions(seat)[0])
        ok(st)
    assert moved == waiting


def test_a_building_holds_one_viking_per_side() -> None:
    # V2.1: a free building on the chief's side
    st = new_game(4)
    first = st.active_seats()[0]
    _go(st, first, "first_player")
    second = st.active_seats()[0]
    assert {"type": "go", "building": "first_player"} not in st.legal_actions(second)
    refused(st, second, {"type": "go", "building": "first_player"}, "building_taken")
    refused(st, second, {"type": "go", "building": "castle"}, "no_such_building")
    refused(st, first, {"type": "go", "building": "market"}, "not_your_turn")


def test_only_buildings_whose_action_is_possible_may_be_chosen() -> None:
    # V2.2, D4: the market is full, so the Market cannot be chosen while other actions remain
    st = new_game(4)
    set_market(st, furs=4, grain=4, metal=4)
    seat = st.active_seats()[0]
    assert {"type": "go", "building": "market"} not in st.legal_actions(seat)
    err = refused(st, seat, {"type": "go", "building": "market"}, "building_impossible")
    assert "V2.2" in err.message


def test_with_no_possible_action_the_viking_goes_anywhere_without_acting() -> None:
    # V2.2: only if no free building offers a possible action
    st = new_game(2, seed=5)
    seat, other = 0, 1
    taken = ["first_player", "promotion", "change_drakkar", "move", "tavern_2", "departure"]
    taken.append("exchange")
    st.spots[st.away] = [seat] + [None] * 10
    st.spots[st.chief] = [None] * 11
    for k, name in enumerate(taken):
        st.spots[st.chief][R.BUILDING_INDEX[name]] = other if k < 4 else seat
    # left free: both warehouses (empty piles, D6), the Market (full, D4) and Tavern 1
    # (no barrel in hand, V3.4), and Tavern 2 is taken
    st.box = st.piles[0] + st.piles[1]
    st.piles = [[], []]
    set_market(st, furs=4, grain=4, metal=4)
    st.won[seat], st.hands[seat] = st.hands[seat], []
    ok(st)
    assert st.legal_actions(seat) == [
        {"type": "go", "building": "tavern_1"},
        {"type": "go", "building": "warehouse_1"},
        {"type": "go", "building": "market"},
        {"type": "go", "building": "warehouse_2"},
    ]
    _go(st, seat, "market")
    assert st.market == {"furs": 4, "grain": 4, "metal": 4}
    assert st.log[-2] == {"e": "go", "seat": seat, "building": "market", "acting": False, "turn": 1}
    assert st.log[-1]["e"] == "new_turn" and st.round == 2
    ok(st)


def test_after_the_last_viking_the_chief_changes_side_and_a_new_turn_starts() -> None:
    # V2.4 (no stern taken, V2.3: no drakkar sails)
    st = new_game(3, seed=2)
    while st.round == 1:
        seat = st.active_seats()[0]
        acts = [a for a in st.legal_actions(seat) if a.get("building") != "departure"]
        st.apply(seat, acts[0])
    assert st.round == 2 and st.chief == 0 and st.away == 1
    assert st.sailed == [] and st.phase == "turn"
    assert not any(st.spots[0]) and sum(s is not None for s in st.spots[1]) == 9
    # the viking on the First player building moves first (V3.1)
    assert st.next_viking() == 0


def test_a_stern_taken_makes_a_drakkar_sail_at_the_end_of_the_turn() -> None:
    # V2.3, D5: the stern's taker chooses the drakkar only at the end of the turn
    st = new_game(3, seed=4)
    go(st, 2, "departure")
    assert st.stern_holder == 2 and st.sterns == 6 and st.phase == "turn"
    while st.phase == "turn" or st.phase == "act":
        seat = st.active_seats()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.phase == "sail" and st.active_seats() == [2] and st.round == 1
    ok(st)


def test_never_more_than_five_hull_pieces_and_pieces_close_up() -> None:
    # V2.5, D4
    st = new_game(4)
    full = [piece(RED, 0), piece(GREEN, 0), piece(BLUE, 0), piece(YELLOW, 0), piece(RED, 1)]
    arrange(st, {0: full, 1: [piece(BLUE, 4), piece(GREEN, 1), piece(YELLOW, 1)], 2: []})
    ok(st)
    go(st, RED, "move")
    st.apply(RED, {"type": "pick_piece", "piece": piece(GREEN, 1)})
    assert {"type": "to_drakkar", "drakkar": 0} not in st.legal_actions(RED)
    refused(st, RED, {"type": "to_drakkar", "drakkar": 0}, "drakkar_full")
    st.apply(RED, {"type": "to_drakkar", "drakkar": 2})
    assert st.hulls[1] == [piece(BLUE, 4), piece(YELLOW, 1)]  # closed up toward the prow
    assert st.hulls[2] == [piece(GREEN, 1)]
    ok(st)


def test_players_see_their_own_barrels_and_chests_and_nobody_elses() -> None:
    # V2.6
    st = new_game(4)
    st.chests[GREEN] = [st.piles[0].pop()]
    for seat in range(4):
        private = SPEC.view(st, seat)["private"]
        assert [b["value"] for b in private["barrels"]] == [1, 2, 3, 4]
        assert sum(private["chests"].values()) == (seat == GREEN)
    assert SPEC.view(st, None)["private"] is None
    public = SPEC.view(st, None)["public"]
    assert public["seats"][GREEN]["chests"] == 1
    assert "value" not in str(public)
