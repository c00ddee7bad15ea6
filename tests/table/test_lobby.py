"""The lobby: joining, seats, colours, the host's powers, tokens."""

from __future__ import annotations

import time

import pytest

from longhall.server.config import Settings
from longhall.server.qr import qr_svg
from longhall.server.table.seats import hash_token
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, Guest, seated


def test_the_first_phone_to_join_is_the_host_and_gets_a_strong_token(
    longhall: Longhall, guest: Guest
) -> None:
    anna = guest()
    assert anna.connected
    assert anna.last()["you"] is None  # a guest sees the public table
    ack = anna.join("Anna")
    assert ack["ok"] and ack["seat"] == 0
    assert len(ack["token"]) >= 22  # 128 bits or more, URL-safe
    view = anna.last()
    assert view["you"] == {"seat": 0, "host": True}
    assert view["table"]["seats"][0]["name"] == "Anna" and view["table"]["host"] == 0
    # the store keeps only a hash of the token
    assert longhall.table.data.seats[0].token_hash == hash_token(ack["token"])
    raw = longhall.table.store.path.read_bytes()
    assert ack["token"].encode() not in raw


def test_joining_needs_the_table_code(longhall: Longhall) -> None:
    wrong = Client(longhall, {"code": "not-the-code"})
    assert not wrong.connected
    spectator = Client(longhall)
    assert spectator.connected
    ack = spectator.send("join", name="Eve", colour="")
    assert not ack["ok"] and ack["error"]["code"] == "bad_code"
    assert longhall.table.data.seats == []


def test_colours_names_and_bots(longhall: Longhall, guest: Guest) -> None:
    anna, bob = seated(longhall, ["Anna", "Bob"])
    assert [s["colour"] for s in anna.last()["table"]["seats"]] == ["red", "blue"]
    assert (
        anna.send("profile", name="  Anna  the  Red ", colour="blue")["error"]["code"]
        == "colour_taken"
    )
    assert anna.send("profile", name="Anna the Red", colour="yellow")["ok"]
    assert bob.send("profile", name="", colour="blue")["error"]["code"] == "bad_name"
    assert bob.send("add_bot", bot="greedy")["error"]["code"] == "host_only"
    assert anna.send("add_bot", bot="smart")["error"]["code"] == "unknown_bot"
    assert anna.send("add_bot", bot="greedy")["ok"]
    seats = anna.last()["table"]["seats"]
    assert [(s["name"], s["colour"], s["kind"]) for s in seats] == [
        ("Anna the Red", "yellow", "human"),
        ("Bob", "blue", "human"),
        ("Bot ▲", "red", "bot"),
    ]
    assert bob.send("profile", name="Bob the Blue", colour="")["ok"]  # "": keep the colour
    assert anna.last()["table"]["seats"][1]["colour"] == "blue"
    assert all(s["symbol"] for s in seats)  # colour is never the only cue


def test_the_host_orders_seats_and_sets_the_start_player(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("move_seat", seat=2, to=0)["ok"]
    seats = anna.last()["table"]["seats"]
    assert [s["name"] for s in seats] == ["Cara", "Anna", "Bob"]
    assert anna.last()["you"]["seat"] == 1 and anna.last()["you"]["host"]
    assert cara.last()["you"]["seat"] == 0
    # R1.4: the oldest player starts
    assert anna.send("set_start_player", seat=2)["ok"]
    assert anna.last()["table"]["start_player"] == 2


def test_kick_revokes_the_token(longhall: Longhall) -> None:
    anna, bob = seated(longhall, ["Anna", "Bob"])
    token = bob.token
    assert anna.send("kick", seat=1)["ok"]
    bob.pump()
    assert any(m["name"] == "revoked" for m in bob.messages)
    assert not bob.connected
    again = Client(longhall, {"token": token})
    assert not again.connected
    assert [s["name"] for s in anna.last()["table"]["seats"]] == ["Anna"]
    assert anna.send("kick", seat=0)["error"]["code"] == "cannot_remove_host"


def test_a_second_connection_with_the_same_token_replaces_the_first(longhall: Longhall) -> None:
    (anna,) = seated(longhall, ["Anna"])
    tab = Client(longhall, {"token": anna.token})
    assert tab.connected and tab.last()["you"]["seat"] == 0
    anna.pump()
    assert any(m["name"] == "replaced" for m in anna.messages)
    assert not anna.connected


def test_hand_a_seat_to_a_new_phone(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    ack = anna.send("handover", seat=1)
    assert ack["ok"] and ack["token"] != bob.token
    bob.pump()
    assert not bob.connected
    assert not Client(longhall, {"token": bob.token}).connected
    new = Client(longhall, {"token": ack["token"]})
    assert new.connected and new.last()["you"]["seat"] == 1
    assert new.last()["game"]["private"]["hand"]  # the seat's hand comes along


def test_the_host_cannot_hand_over_their_own_seat(longhall: Longhall) -> None:
    """The host's phone would be sent away before it could show the QR code, leaving a table
    with nobody who can pause, end or hand on seats."""
    anna, _, _ = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    version = longhall.table.data.version
    ack = anna.send("handover", seat=0)
    assert ack["error"]["code"] == "cannot_remove_host" and ack["version"] == version
    assert anna.connected and Client(longhall, {"token": anna.token}).connected


def test_start_needs_three_to_six_players_and_only_the_host_starts(longhall: Longhall) -> None:
    anna, bob = seated(longhall, ["Anna", "Bob"])
    ack = anna.send("start")
    assert ack["error"]["code"] == "bad_players" and ack["error"]["params"]["seated"] == 2
    assert anna.send("add_bot", bot="random")["ok"]
    assert bob.send("start")["error"]["code"] == "host_only"
    assert anna.send("start")["ok"]
    view = bob.last()
    assert view["table"]["status"] == "playing"
    assert view["game"]["public"]["phase"] == "planning"
    assert len(view["game"]["private"]["hand"]) == 4
    assert anna.send("add_bot", bot="random")["error"]["code"] == "game_running"
    for _ in range(4):
        assert anna.send("join", name="X", colour="")["error"]["code"] == "already_seated"


def test_table_full(longhall: Longhall, guest: Guest) -> None:
    (anna,) = seated(longhall, ["Anna"])
    for _ in range(5):
        assert anna.send("add_bot", bot="random")["ok"]
    late = guest()
    ack = late.join("Late")
    assert ack["error"]["code"] == "table_full"


def test_pause_resume_and_end_then_rematch_keeps_the_seats(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    assert anna.send("pause")["ok"]
    assert bob.last()["table"]["paused"]
    refused = bob.act(type="place", to="A")
    assert refused["error"]["code"] == "paused"
    assert anna.send("resume")["ok"]
    assert bob.act(type="place", to="A")["ok"]
    assert anna.send("end_game")["ok"]
    view = cara.last()
    assert view["table"]["status"] == "over"
    assert view["table"]["result"]["status"] == "abandoned"
    games = anna.send("history")["games"]
    assert games[0]["status"] == "abandoned" and games[0]["actions"] == 1
    assert anna.send("start")["ok"]  # the rematch: same seats, a new game
    assert [s["name"] for s in cara.last()["table"]["seats"]] == ["Anna", "Bob", "Cara"]
    assert cara.last()["table"]["game_id"] == 2


def test_a_rematch_does_not_wait_for_a_seat_without_a_phone(longhall: Longhall) -> None:
    anna, _, _, dan = seated(longhall, ["Anna", "Bob", "Cara", "Dan"])
    assert anna.send("start")["ok"]
    assert anna.send("kick", seat=3)["ok"]  # during a game the seat stays, vacant
    assert anna.send("end_game")["ok"]
    version = longhall.table.data.version
    refused = anna.send("start")
    assert refused["error"]["code"] == "seat_vacant" and refused["version"] == version
    assert refused["error"]["params"] == {"name": "Dan"}
    assert anna.send("botify", seat=3, bot="greedy")["ok"]  # a bot may play it ...
    assert anna.send("botify", seat=3, bot="")["ok"]
    assert anna.send("kick", seat=3)["ok"]  # ... or it goes
    assert anna.send("start")["ok"]
    assert [s["name"] for s in anna.last()["table"]["seats"]] == ["Anna", "Bob", "Cara"]


def test_the_host_picks_the_game_among_those_with_pages(longhall: Longhall) -> None:
    (anna,) = seated(longhall, ["Anna"])
    table = anna.last()["table"]
    assert table["games"] == ["eketorp", "vikings_on_board", "vikings_gone_wild"]
    assert table["lobby_games"]["eketorp"]["min_players"] == 3
    assert table["lobby_games"]["vikings_on_board"] == {
        "min_players": 2,
        "max_players": 4,  # V0.1
        "minutes": [30, 60],
        "bots": ["greedy", "random", "expert"],
        "options": [],
        "table_facts": False,
        "start_player": False,  # V1.2: the first player is drawn, nobody is asked
    }
    assert table["lobby_games"]["vikings_gone_wild"] == {
        "min_players": 2,
        "max_players": 4,  # W0.1
        "minutes": [45, 45],
        "bots": ["greedy", "random"],
        "options": ["end_mark", "numbers", "bonus_names"],  # W9.2; kept at the table (D1, D20)
        "table_facts": True,  # the table display shows them
        "start_player": True,
    }
    assert anna.send("set_game", game="carcassonne")["error"]["code"] == "unknown_game"
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    table = anna.last()["table"]
    assert table["game"] == "vikings_on_board"
    assert (table["min_players"], table["max_players"]) == (2, 4)
    assert list(table["colours"]) == ["red", "blue", "yellow", "green"]  # V0.1
    assert anna.send("set_game", game="eketorp")["ok"]
    assert anna.last()["table"]["game"] == "eketorp"
    assert len(anna.last()["table"]["colours"]) == 6


def test_five_seats_cannot_choose_vikings_on_board_and_are_told_why(longhall: Longhall) -> None:
    phones = seated(longhall, ["Anna", "Bob", "Cara", "Dan", "Eve"])
    anna = phones[0]
    version = longhall.table.data.version
    refused = anna.send("set_game", game="vikings_on_board")
    assert refused["error"]["code"] == "too_many_for_game" and refused["version"] == version
    assert refused["error"]["params"] == {
        "game": "vikings_on_board",
        "min": 2,
        "max": 4,
        "seated": 5,
    }
    assert "remove a seat" in refused["error"]["message"]
    assert anna.last()["table"]["game"] == "eketorp"
    assert anna.send("kick", seat=4)["ok"]
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    # four seats of Vikings on Board: a fifth can neither join nor be a bot
    assert anna.send("add_bot", bot="greedy")["error"]["code"] == "table_full"


def test_vikings_on_board_seats_take_its_colours_and_play_them(longhall: Longhall) -> None:
    anna, bob = seated(longhall, ["Anna", "Bob"])
    assert anna.send("profile", name="Anna", colour="white")["ok"]
    assert bob.send("profile", name="Bob", colour="black")["ok"]
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    colours = [s["colour"] for s in anna.last()["table"]["seats"]]
    assert colours == ["red", "blue"]  # the first free colours of the game, seat by seat
    assert bob.send("profile", name="Bob", colour="white")["error"]["code"] == "bad_colour"
    assert bob.send("profile", name="Bob", colour="green")["ok"]
    assert anna.send("start")["ok"]
    view = anna.last()
    assert view["game"]["public"]["colours"] == ["red", "green"]  # each plays their own colour
    assert view["game"]["private"]["colour"] == "red"


def test_a_rematch_keeps_the_seats_and_may_switch_the_game(longhall: Longhall) -> None:
    anna, *_ = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    assert anna.send("end_game")["ok"]
    over = anna.last()["table"]
    assert over["status"] == "over" and over["result"]["game"] == "eketorp"
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    after = anna.last()["table"]
    assert after["status"] == "over" and after["result"]["game"] == "eketorp"  # still shown
    assert anna.send("start")["ok"]
    view = anna.last()
    assert view["table"]["game"] == "vikings_on_board" and view["game"]["public"]["players"] == 3
    assert [s["name"] for s in view["table"]["seats"]] == ["Anna", "Bob", "Cara"]
    assert anna.send("end_game")["ok"]
    assert anna.last()["table"]["result"]["game"] == "vikings_on_board"
    assert anna.send("set_game", game="eketorp")["ok"]  # and back, the same seats
    assert anna.send("start")["ok"]
    assert anna.last()["table"]["game"] == "eketorp"


def test_a_lobby_change_makes_seat_commands_stale_but_not_adding_a_bot(
    longhall: Longhall, guest: Guest
) -> None:
    anna, bob = seated(longhall, ["Anna", "Bob"])
    seen = longhall.table.data.version
    late = guest()
    assert late.join("Cara")["ok"]
    # the host decided before Cara sat down: removing "seat 1" might hit someone else now...
    assert anna.send("kick", version=seen, seat=1)["error"]["code"] == "stale_version"
    # ... but a bot can be added whatever changed
    assert anna.send("add_bot", version=seen, bot="random")["ok"]
    assert [s["name"] for s in anna.last()["table"]["seats"]][:3] == ["Anna", "Bob", "Cara"]


def test_the_history_never_gives_away_the_seed_of_a_game_being_played(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    games = anna.send("history")["games"]
    assert games[0]["status"] == "playing" and "seed" not in games[0]
    assert anna.send("end_game")["ok"]
    assert "seed" in anna.send("history")["games"][0]  # a game that is over may be replayed


def test_a_join_answer_is_repeated_only_to_the_phone_that_asked(
    longhall: Longhall, guest: Guest
) -> None:
    first, second = guest(), guest()
    ack = first.send("join", cid="same-id-12345", name="Anna", colour="")
    again = first.send("join", cid="same-id-12345", name="Anna", colour="")
    assert again == ack  # a retry after a lost answer
    other = second.send("join", cid="same-id-12345", name="Eve", colour="")
    assert other["ok"] and other["token"] != ack["token"] and other["seat"] == 1


def test_healthz_tells_the_longhall_version(longhall: Longhall) -> None:
    from longhall.server.web.pages import longhall_version

    body = longhall.app.test_client().get("/healthz").get_json()
    assert body["status"] == "ok" and body["version"] == longhall_version()
    assert body["phase"] == "lobby" and body["game"] == "eketorp" and body["table_version"] == 0


def test_the_join_address_follows_the_machine_s_address(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pi whose network comes up after the server (or that moves) shows the right join
    address and QR code without a restart."""
    import longhall.server.web.app as app_module

    address = ["127.0.0.1"]
    monkeypatch.setattr(app_module, "ADDRESS_CHECK_SECONDS", 0.02)
    monkeypatch.setattr(app_module, "base_url", lambda *args: f"http://{address[0]}:8000")
    lh = create_app(settings)
    try:
        display = Client(lh)
        code = lh.table.data.code
        assert display.last()["table"]["join_url"] == f"http://127.0.0.1:8000/join/{code}"
        lh.start_background()
        address[0] = "192.168.1.20"  # the Wi-Fi is up
        # the address is taken under the table's lock, then sent: wait for what the display got
        deadline = time.monotonic() + 10
        while display.last()["table"]["join_url"].startswith("http://127."):
            assert time.monotonic() < deadline, "the table display never had the new address"
            time.sleep(0.02)
        assert display.last()["table"]["join_url"] == f"http://192.168.1.20:8000/join/{code}"
        qr = lh.app.test_client().get("/qr/join.svg").get_data(as_text=True)
        assert qr == qr_svg(f"http://192.168.1.20:8000/join/{code}")
        address[0] = "127.0.0.1"  # the Wi-Fi drops for a moment: phones keep the last address
        time.sleep(0.3)
        assert lh.table.join_url == f"http://192.168.1.20:8000/join/{code}"
    finally:
        lh.stop()


def test_the_host_picks_the_table_display_s_language(settings: Settings) -> None:
    """The table display has no keyboard or mouse: its language comes from the host's phone."""
    lh = create_app(settings)
    try:
        anna, bob = seated(lh, ["Anna", "Bob"])
        display = Client(lh)
        assert display.last()["table"]["language"] is None  # its browser's, until chosen
        assert anna.send("set_language", lang="nl")["ok"]
        assert display.last()["table"]["language"] == "nl"
        assert bob.send("set_language", lang="fr")["error"]["code"] == "host_only"
        refused = anna.send("set_language", lang="xx")
        assert refused["error"]["code"] == "bad_language"
        assert display.last()["table"]["language"] == "nl"
    finally:
        lh.stop()
    again = create_app(settings)  # it is kept with the table
    try:
        assert again.table.public_table()["language"] == "nl"
        host = Client(again, {"token": anna.token})
        assert host.send("set_language", lang="")["ok"]
        assert again.table.public_table()["language"] is None
    finally:
        again.stop()


def test_a_colour_the_game_has_not_is_kept_told_and_given_back(longhall: Longhall) -> None:
    anna, bob = seated(longhall, ["Anna", "Bob"])
    assert anna.send("profile", name="Anna", colour="white")["ok"]
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    seats = anna.last()["table"]["seats"]
    assert (
        seats[0]["colour"] in ("red", "blue", "yellow", "green")
        and seats[0]["colour_was"] == "white"
    )
    assert seats[1]["colour_was"] is None
    assert anna.send("set_game", game="eketorp")["ok"]  # a game with white: hers again
    seats = anna.last()["table"]["seats"]
    assert (seats[0]["colour"], seats[0]["colour_was"]) == ("white", None)
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    assert anna.send("profile", name="Anna", colour="green")["ok"]  # her own choice now
    assert anna.send("set_game", game="eketorp")["ok"]
    seats = anna.last()["table"]["seats"]
    assert (seats[0]["colour"], seats[0]["colour_was"]) == ("green", None)
