"""Components, setup and the component data file (V0, V1, D1-D3)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.vikings_on_board import SPEC
from longhall.server.games.vikings_on_board import rules as R
from longhall.server.table.gamedata import default_config, load_data

from .helpers import BLUE, GREEN, RED, YELLOW, new_game, ok, piece, vikings


@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(players: int) -> None:
    # V0.1
    with pytest.raises(IllegalAction) as err:
        new_game(players)
    assert err.value.code == "bad_players" and "V0.1" in err.value.message


def test_unplayed_colours_still_have_their_ship_pieces_in_play() -> None:
    # V0.1, V1.6: all 24 hull pieces are dealt whatever the number of players
    st = ok(new_game(2))
    assert st.owners == [0, 1, None, None]
    colours = Counter(st.piece_colour(p) for hull in st.hulls for p in hull)
    assert colours == {RED: 6, GREEN: 6, BLUE: 6, YELLOW: 6}


def test_each_colour_has_a_shield_four_barrels_and_six_hull_pieces() -> None:
    # V0.2 with D1 and D2's values
    st = ok(new_game(4))
    assert st.barrels == [[1, 2, 3, 4]] * 4
    assert st.hands == [[0, 1, 2, 3]] * 4
    assert [st.shields(piece(RED, k)) for k in range(6)] == [1, 1, 2, 2, 3, 3]
    assert [len(SPEC.view(st, s)["private"]["barrels"]) for s in range(4)] == [4] * 4


def test_prows_sterns_market_markers_and_chests() -> None:
    # V0.3: 8 prows, 7 sterns, 3 goods markers, 15 chests of 3 kinds
    st = ok(new_game(3))
    assert len(st.hulls) == R.DRAKKARS == 8
    assert st.sterns == 7 and st.stern_holder is None and st.sailed == []
    assert sorted(st.market) == ["furs", "grain", "metal"]
    assert len(st.piles[0]) + len(st.piles[1]) == 15


def test_the_village_has_eleven_buildings_with_a_spot_on_each_side() -> None:
    # V0.4
    st = new_game(4)
    assert R.BUILDINGS == (
        "first_player",
        "promotion",
        "change_drakkar",
        "tavern_1",
        "warehouse_1",
        "market",
        "move",
        "tavern_2",
        "warehouse_2",
        "departure",
        "exchange",
    )
    assert [len(side) for side in st.spots] == [11, 11]


def test_the_harbour_has_eight_drakkars_with_four_betting_zones_each() -> None:
    # V0.5
    st = new_game(2)
    public = SPEC.view(st, None)["public"]
    assert len(public["drakkars"]) == 8
    for drakkar in public["drakkars"]:
        assert drakkar["in_port"] and not drakkar["stern"] and drakkar["chests"] == []
        assert drakkar["quay"] == {"red": None, "green": None, "blue": None, "yellow": None}


@pytest.mark.parametrize(("players", "vikings"), [(2, 4), (3, 3), (4, 2)])
def test_vikings_and_barrels_per_player(players: int, vikings: int) -> None:
    # V1.1
    st = ok(new_game(players))
    for seat in range(players):
        assert sum(s == seat for s in st.spots[0]) == vikings
        assert len(st.hands[seat]) == 4
    assert not any(st.spots[1])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_vikings_stand_in_the_drawn_colour_order_pattern(players: int) -> None:
    # V1.2: AB BA AB BA / ABC BCA CAB / ABCD DCBA from the First player building rightwards
    patterns = {2: "ABBAABBA", 3: "ABCBCACAB", 4: "ABCDDCBA"}
    orders = set()
    for seed in range(12):
        st = new_game(players, seed)
        assert sorted(st.order) == list(range(players))
        orders.add(tuple(st.order))
        letters = "".join(
            "ABCD"[st.order.index(st.colours[s])] for s in st.spots[0] if s is not None
        )
        assert letters == patterns[players]
        assert st.spots[0][len(letters) :] == [None] * (11 - len(letters))
    assert len(orders) > 1  # drawn at random


def test_the_chief_stands_on_the_other_side() -> None:
    # V1.3
    st = new_game(3)
    assert st.chief == 1 and st.away == 0
    assert SPEC.view(st, None)["public"]["chief"] == 1


def test_goods_markers_start_at_one() -> None:
    # V1.4
    assert new_game(4).market == {"furs": 1, "grain": 1, "metal": 1}


def test_chests_are_shuffled_into_piles_of_seven_and_eight() -> None:
    # V1.5, D3: 5 furs, 5 grain, 5 metal
    tops = set()
    for seed in range(10):
        st = new_game(2, seed)
        assert [len(p) for p in st.piles] == [7, 8]
        assert Counter(st.piles[0] + st.piles[1]) == {"furs": 5, "grain": 5, "metal": 5}
        tops.add(tuple(st.piles[0]))
    assert len(tops) > 1


def test_three_hull_pieces_per_prow_never_two_of_one_colour() -> None:
    # V1.6
    layouts = set()
    for seed in range(40):
        st = ok(new_game(2 + seed % 3, seed))
        for hull in st.hulls:
            assert len(hull) == 3
            assert len({st.piece_colour(p) for p in hull}) == 3
        layouts.add(tuple(map(tuple, st.hulls)))
    assert len(layouts) == 40


def test_the_same_seed_gives_the_same_setup() -> None:
    assert new_game(3, 77).to_dict() == new_game(3, 77).to_dict()
    assert new_game(3, 77).to_dict() != new_game(3, 78).to_dict()


def test_colours_can_be_chosen_per_seat() -> None:
    st = ok(new_game(2, colours=["yellow", "blue"]))
    assert st.colours == [YELLOW, BLUE] and st.owners == [None, None, 1, 0]
    for bad in (["red", "red"], ["red"], ["red", "purple"], "rg"):
        with pytest.raises(IllegalAction) as err:
            new_game(2, colours=bad)
        assert err.value.code == "bad_config"


def test_the_shipped_data_file_holds_rulings_d1_d2_d3() -> None:
    # D1 barrels 1-4, D2 hull pieces 1,1,2,2,3,3, D3 5 chests of each kind
    data = {k: v for k, v in load_data(SPEC)["components"].items() if k != "about"}
    assert data == {
        "barrels": [1, 2, 3, 4],
        "hull_pieces": [1, 1, 2, 2, 3, 3],
        "chests": {"furs": 5, "grain": 5, "metal": 5},
    }
    assert default_config("vikings_on_board", 3) == {"players": 3, "components": data}


def test_a_user_edited_data_file_changes_the_game(tmp_path: Path) -> None:
    # D1, D2, D3: kept in a data file a user can change to match their copy
    (tmp_path / "vikings-on-board-components.json").write_text(
        json.dumps(
            {
                "barrels": [2, 2, 3, 5],
                "hull_pieces": [1, 2, 2, 2, 3, 4],
                "chests": {"furs": 4, "grain": 5, "metal": 6},
            }
        )
    )
    cfg = default_config("vikings_on_board", 2, data_dir=tmp_path)
    st = ok(vikings(SPEC.new(cfg, 1)))
    assert st.barrels[0] == [2, 2, 3, 5]
    assert st.shields(piece(GREEN, 5)) == 4
    assert Counter(st.piles[0] + st.piles[1]) == {"furs": 4, "grain": 5, "metal": 6}
    # a named file wins over the data directory
    other = tmp_path / "mine.json"
    other.write_text(json.dumps({**load_data(SPEC)["components"], "barrels": [4, 4, 4, 4]}))
    cfg = default_config("vikings_on_board", 2, data_file=other, data_dir=tmp_path)
    assert cfg["components"]["barrels"] == [4, 4, 4, 4]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"barrels": [1, 2, 3]}, "barrels must list 4"),
        ({"barrels": [1, 2, 3, 0]}, "barrels must be whole numbers"),
        ({"hull_pieces": [1, 1, 2, 2, 3, "3"]}, "hull_pieces must be whole numbers"),
        ({"hull_pieces": [1, 1, 2, 2, 3, 3, 3]}, "hull_pieces must list 6"),
        ({"chests": {"furs": 5, "grain": 5}}, "chests must give a count"),
        ({"chests": {"furs": 5, "grain": 5, "metal": 6}}, "15 chests"),
        ({"chests": {"furs": -1, "grain": 8, "metal": 8}}, "whole numbers of 0 or more"),
        ({"extra": 1}, "unknown entry"),
    ],
)
def test_bad_component_data_is_refused_with_a_clear_message(
    change: dict[str, Any], why: str
) -> None:
    # D1-D3: the engine validates the data it receives
    cfg = default_config("vikings_on_board", 2)
    cfg["components"] = {**cfg["components"], **change}
    with pytest.raises(IllegalAction) as err:
        SPEC.new(cfg, 1)
    assert err.value.code == "bad_config" and why in err.value.message


def test_an_unreadable_data_file_is_a_bad_config(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(IllegalAction) as err:
        default_config("vikings_on_board", 2, data_file=broken)
    assert err.value.code == "bad_config"


@pytest.mark.parametrize(
    "config", [None, {"players": 2}, {"players": 2, "components": {}, "oops": 1}]
)
def test_bad_settings_are_refused(config: Any) -> None:  # anything a client could send
    with pytest.raises(IllegalAction) as err:
        SPEC.new(config, 1)
    assert err.value.code == "bad_config"


def test_a_saved_state_of_another_game_is_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        SPEC.from_dict({"game": "eketorp"})
    assert err.value.code == "bad_state"
    data = new_game(2).to_dict()
    del data["hulls"]
    with pytest.raises(IllegalAction):
        SPEC.from_dict(data)


def test_the_config_builder_takes_the_options_every_game_takes() -> None:
    # V1.2: the turn order is drawn, so a start player changes nothing
    cfg = default_config("vikings_on_board", 3, start_player=2, colours=["blue", "red", "green"])
    assert cfg["colours"] == ["blue", "red", "green"] and "start_player" not in cfg
    st = ok(vikings(SPEC.new(cfg, 4)))
    assert st.colours == [BLUE, RED, GREEN] and st.owners[YELLOW] is None
