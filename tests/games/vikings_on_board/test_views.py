"""Secrets: barrel values, collected chests, the piles and Warehouse 2's draw (V2.6, V3.4, V3.9)."""

from __future__ import annotations

import json
import random

from longhall.server.games.vikings_on_board import SPEC

from .helpers import BLUE, GREEN, RED, YELLOW, arrange, go, new_game, ok, piece, sail, set_prow


def test_the_table_sees_a_barrels_zone_and_owner_never_its_value() -> None:
    # V3.4, V2.6
    st = new_game(4)
    go(st, GREEN, "tavern_1")
    st.apply(GREEN, {"type": "pick_barrel", "barrel": 3})
    # which barrel is being placed is secret too: only that it comes from the hand
    assert SPEC.view(st, None)["public"]["step"]["barrel_from"] == "hand"
    assert SPEC.view(st, GREEN)["private"]["barrel"] == 3
    assert SPEC.view(st, RED)["private"]["barrel"] is None
    st.apply(GREEN, {"type": "to_zone", "drakkar": 0, "colour": "blue"})
    public = SPEC.view(st, None)["public"]
    assert public["drakkars"][0]["quay"]["blue"] == GREEN
    assert public["seats"][GREEN]["barrels_in_hand"] == 3
    mine = SPEC.view(st, GREEN)["private"]["barrels"]
    assert mine[3] == {"barrel": 3, "value": 4, "where": {"drakkar": 0, "colour": "blue"}}
    # another value in the same place gives every other reader the same view
    other = st.clone()
    other.barrels[GREEN] = [4, 3, 2, 1]
    for seat in (None, RED, BLUE, YELLOW):
        assert SPEC.view(other, seat) == SPEC.view(st, seat)
    assert SPEC.view(other, GREEN) != SPEC.view(st, GREEN)


def test_collected_chests_are_counted_in_public_and_known_to_their_owner_only() -> None:
    # V4.4 (face down), V2.6
    st = new_game(4)
    set_prow(st, 0, ["metal", "grain"])
    arrange(st, {0: [piece(RED, 0)]})
    sail(st, BLUE, 0)
    public = SPEC.view(st, None)["public"]
    assert public["seats"][RED]["chests"] == 2
    assert "metal" not in json.dumps(public["seats"]) and "metal" not in json.dumps(public["log"])
    assert SPEC.view(st, RED)["private"]["chests"] == {"furs": 0, "grain": 1, "metal": 1}
    assert SPEC.view(st, BLUE)["private"]["chests"] == {"furs": 0, "grain": 0, "metal": 0}
    ok(st)


def test_pile_order_is_secret_from_everyone() -> None:
    st = new_game(3)
    public = json.dumps(SPEC.view(st, None)["public"])
    assert SPEC.view(st, None)["public"]["piles"] == [7, 8]
    other = st.clone()
    other.piles[0].reverse()
    other.piles[1] = other.piles[1][1:] + other.piles[1][:1]
    for seat in (None, 0, 1, 2):
        assert SPEC.view(other, seat) == SPEC.view(st, seat)
    assert "setup" in public


def test_warehouse_2s_draw_is_seen_only_by_its_chooser() -> None:
    # V3.9
    st = new_game(4)
    go(st, YELLOW, "warehouse_2")
    rnd = random.Random(3)
    for seat in (None, RED, GREEN, BLUE):
        again = SPEC.resample_hidden(st, seat, rnd)
        assert SPEC.view(again, seat) == SPEC.view(st, seat)
    assert SPEC.view(st, None)["public"]["step"]["drawn_count"] == 3
    assert len(SPEC.view(st, YELLOW)["private"]["drawn"]) == 3
    ok(SPEC.resample_hidden(st, RED, rnd))


def test_resampling_redraws_what_is_hidden_and_keeps_the_rest() -> None:
    st = new_game(2, seed=4)
    st.chests[1] = [st.piles[0].pop(), st.piles[1].pop()]
    rnd = random.Random(1)
    seen = set()
    for _ in range(20):
        other = SPEC.resample_hidden(st, 0, rnd)
        ok(other)
        assert other.barrels[0] == st.barrels[0] and other.chests[0] == st.chests[0]
        seen.add((tuple(other.barrels[1]), tuple(other.chests[1]), tuple(other.piles[0])))
        assert SPEC.view(other, 0) == SPEC.view(st, 0)
    assert len(seen) > 5


def test_commitments_are_the_values_of_barrels_placed_face_down() -> None:
    st = new_game(3)
    assert SPEC.commitments(st) == {}
    go(st, BLUE, "tavern_1")
    st.apply(BLUE, {"type": "pick_barrel", "barrel": 1})
    st.apply(BLUE, {"type": "to_zone", "drakkar": 5, "colour": "red"})
    assert SPEC.commitments(st) == {BLUE: {"barrels": {"1": 2}}}
