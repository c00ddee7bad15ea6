"""NEXT never skips a player who still has something to decide: a phone's NEXT, the table
display's and the GPIO button's are refused with the names of those still deciding, ``--auto-next``
waits for them, and only the host moves on anyway (``move_on``), which the game's log says.

Vikings Gone Wild is where it mattered: its storage, draw and end phases offer NEXT while players
still have a choice (W2.5, W7.2, D12), and its players' phase while one player plays (W2.4)."""

from __future__ import annotations

from typing import Any

from longhall.server.table import BotRunner
from longhall.server.web.app import Longhall
from tests.inprocess import Client, seated


def public(phone: Client) -> dict[str, Any]:
    view: dict[str, Any] = phone.last()["game"]["public"]
    return view


def next_from(phone: Client) -> dict[str, Any]:
    return phone.send("table", action={"type": "next"})


def vgw_players_phase(lh: Longhall) -> tuple[Client, Client]:
    """Two players of Vikings Gone Wild at Anna's first turn."""
    anna, bob = seated(lh, ["Anna", "Bob"])
    assert anna.send("set_game", game="vikings_gone_wild")["ok"]
    assert anna.send("start")["ok"]
    assert anna.act(type="first_game_bonus")["ok"]  # the start player lays the bonus cards (W1.3)
    for _ in range(2):  # production, then the draw: nobody has a choice there yet
        assert next_from(bob)["ok"]
    assert (public(anna)["phase"], public(anna)["current"]) == ("players", 0)
    return anna, bob


def test_next_never_ends_a_player_s_turn_w2_4(longhall: Longhall) -> None:
    anna, bob = vgw_players_phase(longhall)
    before = longhall.table.snapshot()
    error = next_from(bob)["error"]  # Bob's NEXT during Anna's turn
    assert error["code"] == "still_deciding" and error["params"]["waiting"] == ["Anna"]
    assert "Anna" in error["message"] and "host" in error["message"]
    assert longhall.table.press_next()["error"]["code"] == "next_too_early"  # the button
    assert longhall.table.snapshot() == before  # nothing changed
    assert anna.act(type="end_turn")["ok"]  # her own phone ends it
    assert public(bob)["current"] == 1


def test_storage_waits_for_the_player_with_beer_to_store_w2_5(longhall: Longhall) -> None:
    anna, bob = vgw_players_phase(longhall)
    assert anna.act(type="build", kind="brewery")["ok"]
    assert anna.act(type="build", kind="beer_reserve")["ok"]
    assert anna.act(type="end_turn")["ok"]
    assert bob.act(type="end_turn")["ok"]
    for _ in range(4):  # storage and the end of turn 1 (nobody has anything), production, draw
        assert next_from(bob)["ok"]
    assert (public(anna)["phase"], public(anna)["current"]) == ("players", 1)  # Bob first (W2.8)
    assert bob.act(type="end_turn")["ok"]
    assert anna.act(type="end_turn")["ok"]
    assert public(anna)["phase"] == "storage" and public(anna)["active"] == [0]
    assert public(anna)["seats"][0]["loot"]["beer"] > 0  # her brewery's beer (W2.2)
    assert bob.last()["game"]["table_steps"] == [{"type": "next"}]
    assert next_from(bob)["error"]["code"] == "still_deciding"  # her beer is not lost
    assert public(anna)["phase"] == "storage"
    beer = public(anna)["seats"][0]["loot"]["beer"]
    assert anna.act(type="store", building=2, count=beer)["ok"]  # all of it: she is done
    assert public(anna)["active"] == []
    assert next_from(bob)["ok"]  # now nobody is deciding
    assert public(anna)["phase"] == "end"
    (reserve,) = [b for b in public(anna)["seats"][0]["buildings"] if b["building"] == 2]
    assert reserve["kind"] == "beer_reserve" and reserve["stock"] == beer


def test_the_host_moves_on_after_confirming_and_the_log_says_so(longhall: Longhall) -> None:
    anna, bob = vgw_players_phase(longhall)
    assert anna.send("end_game")["ok"] and anna.send("start")["ok"]  # a fresh game
    assert public(anna)["phase"] == "table_bonus" and public(anna)["active"] == [0]
    assert bob.send("move_on")["error"]["code"] == "host_only"
    nothing = anna.send("move_on")["error"]  # laying the bonus cards has no table step
    assert nothing["code"] == "nothing_to_move_on"
    assert anna.act(type="first_game_bonus")["ok"]
    for _ in range(2):
        assert next_from(anna)["ok"]
    assert public(anna)["current"] == 0
    assert anna.send("move_on")["ok"]  # the host's own turn, moved on: Bob's begins
    view = public(bob)
    assert view["current"] == 1
    moved = [e for e in view["log"] if e["e"] == "moved_on"]
    assert moved and moved[-1]["seats"] == [0]


def test_auto_next_moves_on_only_when_nobody_is_deciding(longhall: Longhall) -> None:
    anna, bob = vgw_players_phase(longhall)
    clock = [0.0]
    runner = BotRunner(longhall.table, delay=0, auto_next=8.0, clock=lambda: clock[0])
    since = None
    for _ in range(3):  # the runner looks again and again: Anna is still playing
        since = runner.maybe_next(since)
        assert since is None  # not even counting
        clock[0] += 100.0
    assert public(bob)["current"] == 0
    assert anna.act(type="end_turn")["ok"]
    assert bob.act(type="end_turn")["ok"]
    assert public(bob)["phase"] == "storage" and public(bob)["active"] == []
    since = runner.maybe_next(None)  # only the table can go on: the runner starts counting
    clock[0] += 7.9
    assert runner.maybe_next(since) == since and public(bob)["phase"] == "storage"
    clock[0] += 0.2
    assert runner.maybe_next(since) is None  # 8 s: it pressed NEXT
    assert public(bob)["phase"] == "end"
