"""Setup (W0, W1), the house card data and the game's settings (D1, D10, D16, D19, D20)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.vikings_gone_wild import SPEC, WildState
from longhall.server.games.vikings_gone_wild import rules as R
from longhall.server.table.gamedata import default_config, load_data

from .helpers import NUMBERS, new_game, ok, refused, to_players


@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(players: int) -> None:
    # W0.1
    with pytest.raises(IllegalAction) as err:
        new_game(players)
    assert err.value.code == "bad_players"
    for n in (2, 3, 4):
        assert ok(new_game(n)).n == n


def test_every_marker_starts_at_zero_with_a_level_one_town_hall() -> None:
    # W1.1, W0.3
    st = new_game(4)
    assert st.score == [0, 0, 0, 0]
    assert all(
        v == [{"kind": "town_hall", "level": 1, "new": False, "damaged": False, "stock": 0}]
        for v in st.villages
    )
    assert SPEC.view(st, None)["public"]["seats"][0]["town_hall"]["level"] == 1


def test_the_six_kinds_of_buildings_and_their_cards() -> None:
    # W0.2, D10, D16: the house data's counts; the town hall is not a building kind
    data = load_data(SPEC)["cards"]
    counts = {b["kind"]: b["count"] for b in data["buildings"]}
    assert counts == {
        "gold_factory": 12,
        "brewery": 12,
        "gold_reserve": 8,
        "beer_reserve": 8,
        "drakkar": 6,
        "tavern": 6,
    }
    assert sum(counts.values()) == 52
    assert [t["count"] for t in data["town_halls"]] == [4, 4, 4]
    assert "town_hall" not in R.BUILDING_KINDS
    assert sum(u["count"] for u in data["units"]) == 18
    assert sum(d["count"] for d in data["defences"]) == 14
    assert data["missions"]["count"] == 20  # W0.7
    assert data["favours"]["count"] == 12  # W0.4
    assert data["odin_river"]["count"] == 40


def test_numbers_only_on_the_cards_are_left_to_fill_in() -> None:
    # W0.6, D1: the house file fills in only what the rulebook's examples print
    data = load_data(SPEC)["cards"]
    tavern = next(b for b in data["buildings"] if b["kind"] == "tavern")
    assert tavern["defence"] is None and tavern["reward"] is None
    assert next(b for b in data["buildings"] if b["kind"] == "gold_factory")["defence"] == 1
    assert data["town_halls"][0]["defence"] == 4
    st = new_game(2)
    assert st.numbers == {}  # no card has every number filled in
    st = new_game(2, numbers={"tavern": NUMBERS["tavern"]})
    assert st.numbers == {"tavern": NUMBERS["tavern"]}


def test_bonus_cards_five_named_by_the_print_three_to_fill_in() -> None:
    # D20, W0.5
    data = load_data(SPEC)["cards"]
    names = [b["name"] for b in data["bonuses"]]
    assert len(names) == 8
    assert names[:5] == ["Missionary", "Builder", "Defender", "Miner", "Explorer"]
    assert names[5:] == [None, None, None]


def test_four_bonus_cards_drawn_and_shown_from_the_start() -> None:
    # W1.3, W0.5
    seen = set()
    for seed in range(12):
        st = new_game(3, seed)
        public = SPEC.view(st, None)["public"]
        assert len(public["bonus"]) == 4 and len(set(public["bonus"])) == 4
        assert public["box"] == 4
        seen.add(tuple(public["bonus"]))
    assert len(seen) > 1
    st = new_game(3, bonus="first_game")
    assert st.bonus == ["missionary", "builder", "defender", "miner"]


def lay(st: Any, *cards: str) -> None:
    for card in cards:
        st.apply(st.first, {"type": "lay_bonus", "card": card})


def test_the_start_player_says_which_four_bonus_cards_lie_on_the_table_w1_3() -> None:
    st = new_game(3, first_player=1, bonus="table")
    assert (st.phase, st.active_seats()) == ("table_bonus", [1])
    assert SPEC.view(st, None)["public"]["bonus"] == []
    refused(st, 0, {"type": "lay_bonus", "card": "miner"}, "not_your_turn")
    lay(st, "explorer", "bonus_6", "miner")
    refused(st, 1, {"type": "lay_bonus", "card": "miner"}, "bonus_already_laid")
    refused(st, 1, {"type": "lay_bonus", "card": "joker"}, "not_a_bonus_card")
    refused(st, 1, {"type": "bonus_laid"}, "bonus_not_four")
    st.apply(1, {"type": "unlay_bonus", "card": "miner", "undo": True})  # a mis-tap taken back
    lay(st, "builder", "defender")
    refused(st, 1, {"type": "lay_bonus", "card": "missionary"}, "bonus_full")
    assert {"type": "bonus_laid"} in st.legal_actions(1)
    st.apply(1, {"type": "bonus_laid"})
    ok(st)
    assert st.phase == "production" and st.bonus == ["explorer", "bonus_6", "builder", "defender"]
    assert sorted(st.box) == ["bonus_7", "bonus_8", "miner", "missionary"]  # the tie-break's (D17)


def test_the_first_game_s_cards_in_one_tap_w1_3() -> None:
    st = new_game(2, bonus="table")
    assert {"type": "first_game_bonus"} in st.legal_actions(st.first)
    st.apply(st.first, {"type": "first_game_bonus"})
    ok(st)
    assert st.phase == "production"  # the first missions held (W1.2)
    assert st.bonus == ["missionary", "builder", "defender", "miner"]


def test_a_card_the_print_does_not_name_is_named_once_and_kept_d20() -> None:
    st = new_game(2, bonus="table")
    first = st.first
    refused(
        st, first, {"type": "name_bonus", "card": "miner", "name": "Dwarf"}, "bonus_named_in_print"
    )
    refused(st, first, {"type": "name_bonus", "card": "bonus_6", "name": "  "}, "bad_bonus_name")
    st.apply(first, {"type": "name_bonus", "card": "bonus_6", "name": "  Master   of Ale "})
    assert SPEC.view(st, None)["public"]["bonus_names"] == {"bonus_6": "Master of Ale"}
    kept = SPEC.kept(st)["bonus_names"]
    assert kept == {"bonus_6": {"name": "Master of Ale"}}
    # the table's next game starts with the name kept
    again = new_game(2, bonus="table", bonus_names={"bonus_6": "Master of Ale"})
    assert again.bonus_names == {"bonus_6": "Master of Ale"}
    with pytest.raises(IllegalAction) as err:
        new_game(2, bonus_names={"miner": "Dwarf"})
    assert err.value.code == "bad_config"


def test_a_game_stored_before_bonus_cards_were_named_still_loads() -> None:
    st = new_game(2)
    data = st.to_dict()
    del data["bonus_names"]
    assert WildState.from_dict(data).bonus_names == {}


def test_two_one_point_missions_each_held_without_a_tap_and_kept_secret() -> None:
    # W1.2, D2, D14: a 1-point mission with no name tells nothing: nobody is asked
    st = new_game(2)
    assert st.phase == "production"
    assert st.missions_left == 20 - 4
    public = SPEC.view(st, None)["public"]
    assert [s["missions_held"] for s in public["seats"]] == [2, 2]
    assert SPEC.view(st, 1)["private"]["missions"] == [
        {"slot": 0, "name": "", "points": 1},
        {"slot": 1, "name": "", "points": 1},
    ]
    assert SPEC.view(st, 1)["private"]["mission_points"] == 2


def test_named_missions_from_a_groups_card_data() -> None:
    # D14, D2: a name from the list, its points checked when the data gives them
    cards = copy.deepcopy(load_data(SPEC)["cards"])
    cards["missions"]["cards"] = [
        {"name": "Brewmaster", "points": 1},
        {"name": "Raider", "points": None},
    ]
    st = to_players(2, cards=cards)  # the holder names a first mission when they like
    refused(st, 0, {"type": "name_mission", "slot": 0, "name": "Nope"}, "no_such_mission")
    others_before = SPEC.view(st, 1)
    st.apply(0, {"type": "name_mission", "slot": 0, "name": "Brewmaster"})
    assert SPEC.view(st, 0)["private"]["missions"][0]["name"] == "Brewmaster"
    # the list of names is the group's public card data; which one a player holds is
    # secret until completed (D14): the other seat's view does not move at all
    assert SPEC.view(st, 1) == others_before
    st.apply(0, {"type": "complete_mission", "slot": 0})
    assert st.log[-2]["e"] == "mission_done" and st.log[-2]["name"] == "Brewmaster"


def test_divine_favours_start_at_twelve() -> None:
    # W1.4, W0.4
    assert new_game(4).favours_left == 12


def test_the_first_player_is_chosen_by_the_table() -> None:
    # W1.5
    st = new_game(3, first_player=2)
    assert st.first == 2 and st.order() == [2, 0, 1]
    with pytest.raises(IllegalAction):
        new_game(3, first_player=3)


@pytest.mark.parametrize(
    ("players", "allowed", "default"),
    [(2, (40, 50), 40), (3, (30, 40, 50), 30), (4, (30, 40, 50), 30)],
)
def test_end_marks(players: int, allowed: tuple[int, ...], default: int) -> None:
    # W9.1, W9.2, D19
    assert new_game(players).config["end_mark"] == default
    for mark in (20, 30, 40, 45, 50, 60):
        if mark in allowed:
            assert new_game(players, end_mark=mark).config["end_mark"] == mark
        else:
            with pytest.raises(IllegalAction) as err:
                new_game(players, end_mark=mark)
            assert err.value.code == "bad_config"


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.pop("buildings"),
        lambda c: c["buildings"][0].update(count=0),
        lambda c: c["buildings"][0].update(kind="castle"),
        lambda c: c.update(bonuses=c["bonuses"][:3]),
        lambda c: c["bonuses"][1].update(id="missionary"),
        lambda c: c["missions"].update(count="20"),
        lambda c: c["missions"].update(count=5),
        lambda c: c["buildings"][5].update(
            defence=99, reward={"points": 0, "resource": "none", "favour": False}
        ),
        lambda c: c["buildings"][5].update(
            defence=2, reward={"points": 0, "resource": "wood", "favour": False}
        ),
    ],
)
def test_card_data_is_checked(change: Callable[[dict[str, Any]], object]) -> None:
    # D1, D10: a group's copy of the card data is checked before a game starts
    cards = copy.deepcopy(load_data(SPEC)["cards"])
    change(cards)
    cfg = default_config("vikings_gone_wild", 3)
    cfg["cards"] = cards
    with pytest.raises(IllegalAction) as err:
        SPEC.new(cfg, 1)
    assert err.value.code == "bad_config"


def test_entered_numbers_in_the_settings_are_checked() -> None:
    # D1
    for bad in (
        {"tavern": {"defence": -1, "points": 0, "resource": "none", "favour": False}},
        {"tavern": {"defence": 2, "points": 0, "resource": "none"}},
        {"castle": NUMBERS["tavern"]},
        {"tavern": {"defence": 2, "points": 0, "resource": "none", "favour": 1}},
    ):
        with pytest.raises(IllegalAction) as err:
            new_game(2, numbers=bad)
        assert err.value.code == "bad_config"
