"""Vikings Gone Wild at a table: the end mark the lobby chooses (W9.1, W9.2, D19) and the card
numbers a group entered, kept in the game store for the table's next games and edited by the
host (D1), on a real SQLite file through a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from longhall.server.config import Settings
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, seated

from .test_next_waits import vgw_players_phase

HALL = {"defence": 4, "points": 1, "resource": "none", "favour": False}
BREWERY = {"defence": 2, "points": 0, "resource": "beer", "favour": True}


def app(path: Path) -> Longhall:
    # a small snapshot interval: snapshots at many points of a game, and one at each stop
    return create_app(Settings(data_dir=path, gpio="off", bot_delay=0, snapshot_every=5))


def public(phone: Client) -> dict[str, Any]:
    view: dict[str, Any] = phone.last()["game"]["public"]
    return view


def keep(phone: Client, card: str, numbers: dict[str, Any]) -> dict[str, Any]:
    """The host keeps a card's numbers for the table's next games (D1), or clears them ({})."""
    return phone.send("set_option", option="numbers", value={"key": card, "value": numbers})


def to_players_phase(anna: Client, bob: Client) -> None:
    """NEXT twice: production, draw (the first missions held, W1.2)."""
    for _ in range(2):
        assert anna.send("table", action={"type": "next"})["ok"]
    assert public(anna)["phase"] == "players"


def test_the_end_mark_is_chosen_in_the_lobby_and_played_w9_2_d19(tmp_path: Path) -> None:
    lh = app(tmp_path)
    try:
        anna, bob, cara = seated(lh, ["Anna", "Bob", "Cara"])
        assert anna.send("set_game", game="vikings_gone_wild")["ok"]
        before = lh.table.snapshot()
        for bad in (30, 45, -1, 60):  # 30 is the default's own number: the default is 0
            error = anna.send("set_option", option="end_mark", value=bad)["error"]
            assert error["code"] == "bad_option"
        assert bob.send("set_option", option="end_mark", value=50)["error"]["code"] == "host_only"
        assert lh.table.snapshot()["options"] == before["options"]  # nothing changed
        assert anna.send("set_option", option="end_mark", value=40)["ok"]
        assert anna.last()["table"]["options"]["end_mark"] == 40
        # another game's option is refused: each game has its own
        deck = anna.send("set_option", option="deck", value="physical")["error"]
        assert deck["code"] == "bad_option"
        assert anna.last()["table"]["options"] == {"end_mark": 40, "numbers": {}, "bonus_names": {}}
        assert anna.send("start")["ok"]
        assert anna.act(type="first_game_bonus")["ok"]  # W1.3
        assert public(cara)["end_mark"] == 40  # W9.2: the variant, with 3 players
        assert anna.send("end_game")["ok"]
        assert anna.send("set_option", option="end_mark", value=0)[
            "ok"
        ]  # back to the print's default
        assert anna.last()["table"]["options"]["end_mark"] == 0
        assert anna.send("start")["ok"]
        assert anna.act(type="first_game_bonus")["ok"]  # W1.3
        assert public(cara)["end_mark"] == 30  # W9.1
        assert (
            anna.send("set_option", option="end_mark", value=50)["error"]["code"] == "game_running"
        )
    finally:
        lh.stop()


def test_card_numbers_are_kept_across_games_and_a_restart_d1(tmp_path: Path) -> None:
    lh = app(tmp_path)
    anna, bob = seated(lh, ["Anna", "Bob"])
    assert anna.send("set_game", game="vikings_gone_wild")["ok"]
    assert anna.send("start")["ok"]
    assert anna.act(type="first_game_bonus")["ok"]  # W1.3
    to_players_phase(anna, bob)
    assert public(anna)["numbers"] == {}  # nothing entered: nothing offered, nothing guessed
    assert anna.act(type="card_numbers", card="town_hall_1", **HALL)["ok"]
    assert anna.last()["table"]["options"]["numbers"] == {"town_hall_1": HALL}
    assert anna.act(type="attack", target=1, building=0, attack=6, cards=2)["ok"]
    assert bob.act(type="defend", cards=0, value=0)["ok"]
    # an entry taken back (D15) is not kept either
    assert anna.act(type="card_numbers", card="brewery", **BREWERY)["ok"]
    assert set(anna.last()["table"]["options"]["numbers"]) == {"town_hall_1", "brewery"}
    assert anna.act(type="undo")["ok"]
    assert anna.last()["table"]["options"]["numbers"] == {"town_hall_1": HALL}
    lh.stop()

    lh = app(tmp_path)  # a restart: the store file gives the numbers back
    try:
        anna = Client(lh, {"token": anna.token})
        bob = Client(lh, {"token": bob.token})
        assert anna.last()["table"]["options"]["numbers"] == {"town_hall_1": HALL}
        assert public(anna)["numbers"] == {"town_hall_1": HALL}  # the game goes on with them
        assert anna.send("end_game")["ok"]
        assert anna.send("start")["ok"]
        assert anna.act(type="first_game_bonus")["ok"]  # W1.3
        to_players_phase(anna, bob)
        # the next game offers them: the attack on a town hall needs no entry first
        assert public(bob)["numbers"] == {"town_hall_1": HALL}
        legal = anna.last()["game"]["legal"]
        assert any(a["type"] == "attack" and a["building"] == 0 for a in legal)
        assert not any(a["type"] == "card_numbers" and a["card"] == "town_hall_1" for a in legal)
    finally:
        lh.stop()


def test_the_host_edits_and_clears_the_kept_numbers_d1(tmp_path: Path) -> None:
    lh = app(tmp_path)
    try:
        anna, bob = seated(lh, ["Anna", "Bob"])
        assert keep(anna, "brewery", BREWERY)["error"]["code"] == (
            "bad_option"  # Eketorp is chosen: it has no option "numbers"
        )
        assert anna.send("set_game", game="vikings_gone_wild")["ok"]
        before = lh.table.snapshot()
        refused: dict[str, dict[str, Any]] = {
            "castle": BREWERY,  # no such card
            "brewery": {**BREWERY, "defence": 31},  # D1: 0-30
            "tavern": {**BREWERY, "points": 10},  # D1: 0-9
            "drakkar": {**BREWERY, "resource": "wood"},
            "gold_reserve": {**BREWERY, "favour": 1},
            "beer_reserve": {"defence": 3},  # every number, or none
        }
        for card, numbers in refused.items():
            error = keep(anna, card, numbers)["error"]
            assert error["code"] == "bad_config", (card, error)
        assert keep(anna, "tavern", {})["error"]["code"] == "no_numbers"
        assert keep(bob, "brewery", BREWERY)["error"]["code"] == "host_only"
        assert lh.table.snapshot()["options"] == before["options"]  # nothing changed

        assert keep(anna, "brewery", BREWERY)["ok"]
        assert keep(anna, "town_hall_1", HALL)["ok"]
        edited = {**HALL, "defence": 5}
        assert keep(anna, "town_hall_1", edited)["ok"]
        assert keep(anna, "brewery", {})["ok"]  # cleared
        assert anna.last()["table"]["options"]["numbers"] == {"town_hall_1": edited}
        assert anna.send("start")["ok"]
        assert anna.act(type="first_game_bonus")["ok"]  # W1.3
        to_players_phase(anna, bob)
        assert public(anna)["numbers"] == {"town_hall_1": edited}
        # the host may correct a number during a game: it is kept for the next games
        assert keep(anna, "town_hall_1", HALL)["ok"]
        assert anna.last()["table"]["options"]["numbers"] == {"town_hall_1": HALL}
    finally:
        lh.stop()


def test_only_the_host_corrects_and_only_with_the_game_s_own_host_actions(
    longhall: Longhall,
) -> None:
    anna, bob = vgw_players_phase(longhall)
    fix = {"type": "correct", "seat": 1, "what": "score", "building": 0, "value": 3}
    fix["reason"] = "a mission was forgotten"
    assert bob.send("host_act", action=fix)["error"]["code"] == "host_only"
    refused = anna.send("host_act", action={"type": "next"})["error"]  # NEXT is not one of them
    assert refused["code"] == "not_allowed"
    assert anna.send("host_act", action=fix)["ok"]  # during Anna's own turn, any phase
    view = public(bob)
    assert view["seats"][1]["score"] == 3 and view["current"] == 0
    assert view["log"][-1]["e"] == "corrected"


def test_the_host_lays_the_bonus_cards_for_a_bot_start_player_w1_3(longhall: Longhall) -> None:
    (anna,) = seated(longhall, ["Anna"])
    assert anna.send("set_game", game="vikings_gone_wild")["ok"]
    assert anna.send("add_bot", bot="greedy")["ok"]
    assert anna.send("set_start_player", seat=1)["ok"]
    assert anna.send("start")["ok"]
    view = public(anna)
    assert (view["phase"], view["active"]) == ("table_bonus", [1])
    # which cards lie on the table is for the people there: the bot waits for the host
    lay = {"type": "lay_bonus", "card": "explorer"}
    assert anna.act(**lay)["error"]["code"] == "not_your_turn"
    assert anna.send("proxy", seat=1, action=lay)["ok"]
    name = {"type": "name_bonus", "card": "bonus_7", "name": "Trader"}
    assert anna.send("proxy", seat=1, action=name)["ok"]
    for card in ("bonus_7", "miner", "builder"):
        assert anna.send("proxy", seat=1, action={"type": "lay_bonus", "card": card})["ok"]
    assert anna.send("proxy", seat=1, action={"type": "bonus_laid"})["ok"]
    view = public(anna)
    assert view["phase"] == "production" and view["bonus_names"] == {"bonus_7": "Trader"}
    assert view["bonus"] == ["explorer", "bonus_7", "miner", "builder"]
    # the name is kept at the table for its next games (D20)
    assert anna.last()["table"]["options"]["bonus_names"] == {"bonus_7": {"name": "Trader"}}
