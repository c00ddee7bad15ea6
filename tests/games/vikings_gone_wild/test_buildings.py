"""Buildings and the town hall (W3, D8, D10)."""

from __future__ import annotations

from longhall.server.games.vikings_gone_wild import SPEC, WildState

from .helpers import MARIE, VINCENT, finish_turn, give, ok, refused, set_level, to_players, turn_of


def test_a_building_bought_is_under_construction_until_the_next_turn() -> None:
    # W3.4, W3.1
    st = to_players(3)
    st.apply(VINCENT, {"type": "build", "kind": "tavern"})
    seat = SPEC.view(st, None)["public"]["seats"][VINCENT]
    assert seat["buildings"] == [
        {
            "building": 1,
            "kind": "tavern",
            "new": True,
            "damaged": False,
            "stock": None,
            "resource": None,
        }
    ]
    assert st.figures(VINCENT)["draw"] == 5  # not used this turn
    st.apply(VINCENT, {"type": "end_turn"})
    # nor attacked this turn
    assert all(not (p == VINCENT and b == 1) for p, b in _targets(st, MARIE))
    finish_turn(st)
    assert st.villages[VINCENT][1]["new"] is False
    assert st.figures(VINCENT)["draw"] == 6  # W2.3: active from the next turn
    assert len(st.villages[VINCENT]) == 2  # W3.1: buildings stay


def _targets(st: WildState, seat: int) -> list[tuple[int, int]]:
    from longhall.server.games.vikings_gone_wild.turn import targets

    return targets(st, seat)


def test_never_more_than_three_of_a_kind() -> None:
    # W3.2
    st = to_players(3)
    set_level(st, VINCENT, 3)
    give(st, VINCENT, "brewery", "brewery", "brewery")
    assert {"type": "build", "kind": "brewery"} not in st.legal_actions(VINCENT)
    err = refused(st, VINCENT, {"type": "build", "kind": "brewery"}, "kind_limit")
    assert err.params == {"max": 3}
    refused(st, VINCENT, {"type": "build", "kind": "castle"}, "no_such_kind")
    st.apply(VINCENT, {"type": "build", "kind": "tavern"})


def test_five_buildings_at_level_one_eight_at_two_any_at_three() -> None:
    # W3.3: the town hall does not count
    st = to_players(3)
    give(st, VINCENT, "brewery", "brewery", "gold_factory", "gold_factory")
    st.apply(VINCENT, {"type": "build", "kind": "tavern"})
    err = refused(st, VINCENT, {"type": "build", "kind": "drakkar"}, "village_full")
    assert err.params == {"max": 5}
    set_level(st, MARIE, 2)
    give(st, MARIE, "brewery", "brewery", "gold_factory", "gold_factory", "tavern", "tavern")
    give(st, MARIE, "drakkar", "drakkar")
    st.apply(VINCENT, {"type": "end_turn"})
    assert refused(st, MARIE, {"type": "build", "kind": "beer_reserve"}, "village_full").params == {
        "max": 8
    }
    set_level(st, MARIE, 3)
    for kind in ("beer_reserve", "beer_reserve", "gold_reserve", "gold_reserve", "drakkar"):
        st.apply(MARIE, {"type": "build", "kind": kind})
    assert len(st.buildings(MARIE)) == 13
    assert SPEC.view(st, None)["public"]["seats"][MARIE]["limit"] is None
    ok(st)


def test_upgrading_the_town_hall_puts_it_under_construction() -> None:
    # W3.5, D8: one level per turn; the new level is active next turn
    st = to_players(3)
    give(st, VINCENT, "brewery", "brewery", "gold_factory", "gold_factory", "tavern")
    st.apply(VINCENT, {"type": "upgrade"})
    hall = st.town_hall(VINCENT)
    assert (hall["level"], hall["new"]) == (2, True)
    assert st.active_level(VINCENT) == 1
    refused(st, VINCENT, {"type": "build", "kind": "drakkar"}, "village_full")  # D8
    refused(st, VINCENT, {"type": "upgrade"}, "town_hall_building")  # D8
    st.apply(VINCENT, {"type": "end_turn"})
    assert (VINCENT, 0) not in _targets(st, MARIE)  # W3.5: nobody attacks it this turn
    finish_turn(st)
    assert st.active_level(VINCENT) == 2
    assert st.score[VINCENT] == 0


def test_level_three_gives_five_points_at_once() -> None:
    # W3.6
    st = to_players(3)
    set_level(st, VINCENT, 2)
    st.apply(VINCENT, {"type": "upgrade"})
    assert st.score[VINCENT] == 5 and st.points[VINCENT] == {"town_hall": 5}
    assert st.favours[VINCENT] == 1  # W8.1: space 5 reached
    finish_turn(st)
    while st.phase != "players":
        st.apply(None, {"type": "next"})
    turn_of(st, VINCENT)
    refused(st, VINCENT, {"type": "upgrade"}, "town_hall_top")
    ok(st)


def test_a_damaged_building_still_works_for_its_owner() -> None:
    # W3.7
    st = to_players(3)
    (r,) = give(st, VINCENT, "beer_reserve")
    st.villages[VINCENT][r]["stock"] = 2
    st.villages[VINCENT][r]["damaged"] = True
    st.apply(VINCENT, {"type": "spend", "building": r, "count": 1})
    give(st, MARIE, "tavern")
    st.villages[MARIE][1]["damaged"] = True
    assert st.figures(MARIE)["draw"] == 6


def test_building_cards_run_out() -> None:
    # D10: 6 Taverns in the box
    st = to_players(4)
    for seat in (1, 2, 3):
        give(st, seat, "tavern", "tavern")
    assert sum(st.count(s, "tavern") for s in range(4)) == 6
    refused(st, VINCENT, {"type": "build", "kind": "tavern"}, "no_building_card")
    st.apply(VINCENT, {"type": "build", "kind": "drakkar"})
