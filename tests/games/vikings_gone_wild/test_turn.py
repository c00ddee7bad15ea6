"""A turn's five phases (W2), missions (W7), storage and the end of the turn (D9, D11-D15)."""

from __future__ import annotations

from longhall.server.games.vikings_gone_wild import SPEC
from longhall.server.games.vikings_gone_wild.turn import enter_production

from .helpers import (
    BRAM,
    MARIE,
    VINCENT,
    finish_turn,
    give,
    new_game,
    ok,
    refused,
    to_players,
)


def test_five_phases_in_order_then_the_token_passes_left() -> None:
    # W2.1, W2.4, W2.8
    st = new_game(3)
    seen = [st.phase]
    while st.round == 1:
        st.apply(None, {"type": "next"})
        if st.phase != seen[-1]:
            seen.append(st.phase)
    assert seen == ["production", "draw", "players", "storage", "end", "production"]
    assert st.first == 1 and st.order() == [1, 2, 0]  # W2.8: to the first player's left


def test_players_play_one_after_another_from_the_first_player() -> None:
    # W2.4
    st = to_players(4, first_player=2)
    turns = [st.current]
    for _ in range(3):
        st.apply(st.current, {"type": "end_turn"})
        turns.append(st.current)
    assert turns == [2, 3, 0, 1]
    assert st.active_seats() == [1]
    refused(st, 2, {"type": "upgrade"}, "not_your_turn")
    st.apply(None, {"type": "next"})  # W2.4: the NEXT button ends a player's turn too
    assert st.phase == "storage"


def test_production_one_resource_per_built_producer() -> None:
    # W2.2: "Vincent has two Gold Factories and a Brewery: he produces 2 gold and 1 beer"
    st = new_game(3)
    give(st, VINCENT, "gold_factory", "gold_factory", "brewery", "tavern", "tavern")
    enter_production(st)  # the phase opens with these buildings built
    assert st.phase == "production"
    fig = SPEC.view(st, None)["public"]["seats"][VINCENT]["figures"]
    assert (fig["gold"], fig["beer"]) == (2, 1)
    assert st.loot[VINCENT] == {"gold": 2, "beer": 1}
    assert st.loot[MARIE] == {"gold": 0, "beer": 0}


def test_draw_five_plus_one_per_tavern_plus_the_kept_card() -> None:
    # W2.3: "2 Taverns and a card kept by his Drakkar: 8 cards in hand (5 + 2 + 1)"
    st = new_game(3)
    give(st, VINCENT, "tavern", "tavern", "drakkar")
    fig = st.figures(VINCENT)
    assert fig["draw"] == 7 and fig["kept"] == 0
    st.kept[VINCENT] = 1
    fig = SPEC.view(st, None)["public"]["seats"][VINCENT]["figures"]
    assert fig["draw"] + fig["kept"] == 8


def test_a_drakkar_keeps_a_card_at_the_end_of_the_turn() -> None:
    # W2.7, D12, D9
    st = to_players(3)
    give(st, VINCENT, "drakkar")
    give(st, MARIE, "drakkar", new=True)  # D9: built this turn, it keeps nothing
    for _ in range(3):
        st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})  # storage -> end
    assert st.phase == "end"
    assert st.active_seats() == [VINCENT]
    assert st.legal_actions(VINCENT) == [{"type": "keep", "cards": 0}, {"type": "keep", "cards": 1}]
    refused(st, VINCENT, {"type": "keep", "cards": 2}, "bad_keep")
    st.apply(VINCENT, {"type": "keep", "cards": 1})
    st.apply(None, {"type": "next"})
    assert st.kept == [1, 0, 0]
    assert st.figures(VINCENT)["kept"] == 1


def test_markers_are_removed_at_the_end_of_the_turn() -> None:
    # W2.7, W3.4: construction and damage markers go; the building becomes active
    st = to_players(3)
    st.apply(VINCENT, {"type": "build", "kind": "brewery"})
    st.villages[MARIE][0]["damaged"] = True
    finish_turn(st)
    assert st.phase == "production" and st.round == 2
    assert st.villages[VINCENT][1]["new"] is False
    assert st.villages[MARIE][0]["damaged"] is False
    assert st.loot[VINCENT] == {"gold": 0, "beer": 1}  # W2.2: it produces now


def test_storage_keeps_produced_and_plundered_resources_in_reserves() -> None:
    # W2.5, D11: only this turn's production, plunder and board undead are stored
    st = new_game(3)
    give(st, VINCENT, "gold_factory", "gold_factory", "gold_reserve", "brewery")
    enter_production(st)
    st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})
    st.apply(VINCENT, {"type": "undead_board", "resource": "gold"})  # W6.2: it may be stored
    st.apply(VINCENT, {"type": "end_turn"})
    st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})
    assert st.phase == "storage"
    assert st.active_seats() == [VINCENT]  # no one else has a Reserve and something to store
    reserve = 3
    refused(st, VINCENT, {"type": "store", "building": reserve, "count": 4}, "bad_count")
    refused(st, VINCENT, {"type": "store", "building": 1, "count": 1}, "not_a_reserve")
    st.apply(VINCENT, {"type": "store", "building": reserve, "count": 3})
    assert st.villages[VINCENT][reserve]["stock"] == 3
    assert st.active_seats() == []  # the beer has no Reserve to go to
    st.apply(None, {"type": "next"})
    assert st.loot[VINCENT] == {"gold": 0, "beer": 0}  # W2.5: the beer is lost
    assert st.score[VINCENT] == 0  # 3 gold: no point yet (W2.6)


def test_a_point_for_each_reserve_holding_four() -> None:
    # W2.6
    st = to_players(3)
    a, b, c = give(st, VINCENT, "gold_reserve", "beer_reserve", "gold_reserve")
    st.villages[VINCENT][a]["stock"] = 4
    st.villages[VINCENT][b]["stock"] = 4
    st.villages[VINCENT][c]["stock"] = 3
    for _ in range(3):
        st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})
    assert st.score[VINCENT] == 2 and st.points[VINCENT] == {"storage": 2}
    ok(st)


def test_a_reserve_under_construction_stores_nothing() -> None:
    # D9, W3.4
    st = new_game(2)
    give(st, VINCENT, "gold_factory")
    give(st, MARIE, "gold_factory")
    enter_production(st)
    st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})
    st.apply(VINCENT, {"type": "build", "kind": "gold_reserve"})
    st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})
    assert st.phase == "storage" and st.active_seats() == []
    refused(st, VINCENT, {"type": "store", "building": 2, "count": 1}, "not_your_turn")
    give(st, VINCENT, "gold_reserve")  # an older Reserve: Vincent may store, but not in the new
    assert st.active_seats() == [VINCENT]
    assert st.legal_actions(VINCENT) == [
        {"type": "store", "building": 3, "count": 1},
        {"type": "store_done"},
    ]
    refused(st, VINCENT, {"type": "store", "building": 2, "count": 1}, "under_construction")


def test_spending_from_a_reserve_on_ones_own_turn() -> None:
    # D11
    st = to_players(3)
    (r,) = give(st, VINCENT, "beer_reserve")
    st.villages[VINCENT][r]["stock"] = 2
    assert {"type": "spend", "building": r, "count": 1} in st.legal_actions(VINCENT)
    refused(st, VINCENT, {"type": "spend", "building": r, "count": 3}, "bad_count")
    st.apply(VINCENT, {"type": "spend", "building": r, "count": 2})
    assert st.villages[VINCENT][r]["stock"] == 0


def test_completing_a_mission_scores_its_points_and_is_announced() -> None:
    # W7.1, W7.5, D14
    st = to_players(3)
    st.apply(VINCENT, {"type": "complete_mission", "slot": 0})
    assert st.score[VINCENT] == 1 and st.points[VINCENT] == {"missions": 1}
    assert SPEC.view(st, None)["public"]["seats"][VINCENT]["missions_done"] == [
        {"name": "", "points": 1}
    ]
    assert len(st.missions[VINCENT]) == 1
    refused(st, VINCENT, {"type": "complete_mission", "slot": 1}, "no_such_mission_slot")
    refused(st, MARIE, {"type": "complete_mission", "slot": 0}, "not_your_turn")  # W7.5


def test_a_player_holding_one_mission_may_draw_another() -> None:
    # W7.2, W7.4, D13: the first player draws first
    st = to_players(3, first_player=1)
    st.missions[VINCENT].pop()
    st.missions[BRAM].pop()
    st.missions_left += 2
    finish_turn(st)
    st.apply(None, {"type": "next"})  # production -> draw
    assert st.phase == "draw"
    assert st.active_seats() == [BRAM]  # the first player is now Bram (seat 2)
    assert {"type": "take_mission", "name": "", "points": 3} in st.legal_actions(BRAM)
    st.apply(BRAM, {"type": "take_mission", "name": "", "points": 3})
    assert st.active_seats() == [VINCENT]
    st.apply(VINCENT, {"type": "pass_mission"})
    assert st.active_seats() == []
    assert [len(m) for m in st.missions] == [1, 2, 2]
    # W7.4: never a third: a player holding 2 is never asked and cannot draw
    assert st.legal_actions(BRAM) == []
    refused(st, BRAM, {"type": "take_mission", "name": "", "points": 1}, "not_your_turn")


def test_a_player_holding_none_may_draw_one_and_the_pile_can_run_out() -> None:
    # D13
    st = to_players(2)
    st.done[VINCENT] = st.missions[VINCENT]  # both completed
    st.missions[VINCENT] = []
    finish_turn(st)
    st.apply(None, {"type": "next"})
    assert st.active_seats() == [VINCENT]
    st.apply(VINCENT, {"type": "take_mission", "name": "", "points": 2})
    assert st.active_seats() == []  # one per draw phase
    st.apply(None, {"type": "next"})
    st.missions_left = 0
    st.missions[MARIE].pop()
    st.done[MARIE].append({"name": "", "points": 1})
    assert {"type": "swap_mission", "slot": 0, "name": "", "points": 1} not in st.legal_actions(
        MARIE
    )


def test_one_mission_swap_per_turn() -> None:
    # W7.3, D13: the old one goes under the pile
    st = to_players(3)
    left = st.missions_left
    st.apply(VINCENT, {"type": "swap_mission", "slot": 1, "name": "", "points": 3})
    assert st.missions[VINCENT][1] == {"name": "", "points": 3}
    assert st.missions_left == left
    refused(
        st,
        VINCENT,
        {"type": "swap_mission", "slot": 0, "name": "", "points": 2},
        "mission_swapped",
    )
    refused(st, VINCENT, {"type": "undead_board", "resource": "wood"}, "no_such_resource")
    finish_turn(st)
    assert st.swapped == [False, False, False]


def test_an_undone_mission_leaves_no_word_of_its_points_in_the_log_d15_d14() -> None:
    # a held mission's points are secret (D14); once its completion is taken back, nothing in
    # the public log may still tell them
    st = to_players(3)
    log = list(st.log)
    st.apply(VINCENT, {"type": "complete_mission", "slot": 0})
    assert any(e["e"] == "mission_done" for e in st.log)
    st.apply(VINCENT, {"type": "undo"})
    assert st.log[:-1] == log and st.log[-1]["e"] == "undone"
    public = SPEC.view(st, MARIE)["public"]
    assert not any(e["e"] in ("mission_done", "points") for e in public["log"])


def test_undo_takes_back_the_last_actions_of_the_turn() -> None:
    # D15
    st = to_players(3)
    refused(st, VINCENT, {"type": "undo"}, "nothing_to_undo")
    before = st.to_dict()
    st.apply(VINCENT, {"type": "build", "kind": "tavern"})
    st.apply(VINCENT, {"type": "complete_mission", "slot": 0})
    assert {"type": "undo", "undo": True} in st.legal_actions(VINCENT)
    st.apply(VINCENT, {"type": "undo"})
    st.apply(VINCENT, {"type": "undo"})
    after = st.to_dict()
    for key in ("score", "points", "villages", "missions", "done", "missions_left"):
        assert after[key] == before[key], key
    assert st.log[-1]["e"] == "undone"
    st.apply(VINCENT, {"type": "build", "kind": "tavern"})
    st.apply(VINCENT, {"type": "end_turn"})
    refused(st, MARIE, {"type": "undo"}, "nothing_to_undo")  # the next player's turn
    assert len(st.villages[VINCENT]) == 2
