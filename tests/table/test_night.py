"""The night: every game between the first and the host's end of it, kept in the store with its
standings; the same people stay seated from one game to the next."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from longhall.server.config import Settings
from longhall.server.store.store import Store
from longhall.server.table.connections import Identity
from longhall.server.table.night import facts, points, standings
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, finish, seated

# -- the standings, by hand ------------------------------------------------------------------


def test_one_point_per_player_finished_ahead_of_and_ties_shared() -> None:
    # 4 players: 50 beats three (3), 40 and 40 beat one and share one (1.5 each), 10 beats none
    assert points([40, 50, 10, 40], [1]) == [1.5, 3.0, 0.0, 1.5]
    # the game's own tie-break: of two on 30, the winner finished ahead
    assert points([30, 30, 20], [1]) == [1.0, 2.0, 0.0]
    # a win shared by equal totals (Eketorp's D10) is a tie: half a point each
    assert points([30, 30], [0, 1]) == [0.5, 0.5]


def _game(gid: int, players: list[str], totals: list[int], winners: list[int], **kw: Any) -> Any:
    bots = kw.get("bots", set())
    return {
        "id": gid,
        "game": kw.get("game", "eketorp"),
        "status": kw.get("status", "finished"),
        "started": 1000.0 * gid,
        "finished": 1000.0 * gid + kw.get("minutes", 30) * 60,
        "players": [
            {"player": p, "name": p.title(), "colour": "red", "symbol": "▲", "bot": None}
            | ({"bot": "greedy"} if p in bots else {})
            for p in players
        ],
        "totals": totals,
        "winners": winners if kw.get("status", "finished") == "finished" else [],
        "points": points(totals, winners) if kw.get("status", "finished") == "finished" else None,
    }


def test_the_standings_of_a_night_by_hand() -> None:
    night = {
        "id": 1,
        "started": 0.0,
        "ended": None,
        "games": [
            # anna 0, bob 1.5, cara 1.5
            _game(1, ["anna", "bob", "cara"], [30, 42, 42], [1, 2], minutes=70),
            # cara left, dave (a bot) joined: anna 0, bob 2, dave 1
            _game(
                2, ["anna", "bob", "dave"], [5, 9, 7], [1], game="vikings_on_board", bots={"dave"}
            ),
            # ended early: listed, nobody earns a point
            _game(
                3,
                ["anna", "bob", "dave"],
                [3, 1, 2],
                [],
                status="abandoned",
                minutes=5,
                bots={"dave"},
            ),
        ],
    }
    table = standings(night)
    assert [(r["player"], r["points"], r["place"]) for r in table] == [
        ("bob", 3.5, 1),
        ("cara", 1.5, 2),
        ("dave", 1.0, 3),
        ("anna", 0.0, 4),
    ]
    bob, cara, dave, anna = table
    assert (bob["games"], bob["wins"]) == (3, 2)
    assert dave["bot"] == "greedy" and anna["bot"] is None  # a bot is marked as one
    assert bob["after"] == [1.5, 3.5, 3.5] and cara["after"] == [1.5, 1.5, 1.5]
    assert dave["after"] == [None, 1.0, 1.0]  # not at the table for the first game
    said = facts(night, table)
    assert said["winners"] == ["bob"]
    assert said["longest"] == {"game": 1, "seconds": 70 * 60}
    assert said["closest"] == {"game": 1, "gap": 0}  # 42 and 42
    assert said["best"] == {"game": 2, "player": "bob", "lead": 2}


# -- a night at a real table -------------------------------------------------------------------


def secrets_of(lh: Longhall) -> list[str]:
    return [s.token_hash for s in lh.table.data.seats if s.token_hash]


def test_a_night_of_three_games_kept_across_a_restart(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=60)
    lh = create_app(settings)
    try:
        anna, bob, cara = seated(lh, ["Anna", "Bob", "Cara"])
        assert bob.send("profile", name="Bob", colour="white")["ok"]
        assert lh.table.data.night is None  # a night begins with its first game
        assert anna.send("start")["ok"]
        night = anna.last()["table"]["night"]
        assert night["id"] == 1 and night["games"] == [] and night["ended"] is None
        finish(lh.table, [30, 42, 42], [1, 2])
        # between games, every screen has the night so far
        shown = cara.last()["table"]["night"]
        assert [(r["name"], r["points"]) for r in shown["standings"]] == [
            ("Bob", 1.5),
            ("Cara", 1.5),
            ("Anna", 0.0),
        ]
        assert shown["games"][0]["winners"] == [1, 2]
        # Cara leaves; Vikings on Board has no white: Bob's phone is told his new colour
        assert anna.send("leave")["error"]["code"] == "cannot_remove_host"
        assert cara.send("leave")["ok"]  # Cara goes home: her phone's seat is no longer valid
        assert cara.messages[-1]["name"] == "revoked" or any(
            m["name"] == "revoked" for m in cara.messages
        )
        assert anna.send("set_game", game="vikings_on_board")["ok"]
        table = bob.last()["table"]
        assert table["seats"][1]["colour"] == "blue"
        assert table["seats"][1]["colour_was"] == "white"  # kept to be said and given back
        assert [s["name"] for s in table["seats"]] == ["Anna", "Bob"]
        token = anna.token
    finally:
        lh.stop()

    # a restart in the middle of the night: nothing of it is lost
    lh = create_app(settings)
    try:
        anna = Client(lh, {"token": token})
        night = anna.last()["table"]["night"]
        assert [g["id"] for g in night["games"]] == [1] and night["ended"] is None
        (dave,) = seated(lh, ["Dave"])  # joins between games
        assert anna.send("add_bot", bot="greedy")["ok"]
        assert anna.send("start")["ok"]
        finish(lh.table, [5, 9, 7, 1], [1])  # Anna 1, Bob 3, Dave 2, the bot 0
        assert anna.send("set_game", game="vikings_gone_wild")["ok"]
        assert anna.send("start")["ok"]
        assert anna.send("end_game")["ok"]  # ended early: counted as played, no points
        assert anna.send("end_night")["ok"]
        assert anna.send("end_night")["error"]["code"] == "no_night"
        night = dave.last()["table"]["night"]
        assert night["ended"] is not None
        assert [(g["game"], g["status"]) for g in night["games"]] == [
            ("eketorp", "finished"),
            ("vikings_on_board", "finished"),
            ("vikings_gone_wild", "abandoned"),
        ]
        table = {r["name"]: (r["points"], r["place"], r["bot"]) for r in night["standings"]}
        assert table == {
            "Bob": (4.5, 1, None),
            "Dave": (2.0, 2, None),
            "Cara": (1.5, 3, None),
            "Anna": (1.0, 4, None),
            "Bot ◆": (0.0, 5, "greedy"),
        }
        assert night["facts"]["winners"] == [night["standings"][0]["player"]]
        # the night's data is public; no seat's token (nor its hash) is in any message
        hashes = secrets_of(lh)
        for phone in (anna, dave):
            text = json.dumps(phone.messages)
            assert hashes and not any(h in text for h in hashes)
        assert token and dave.token
        assert token not in json.dumps(dave.messages)
        assert dave.token not in json.dumps(anna.messages)
    finally:
        lh.stop()

    store = Store(tmp_path / "longhall.sqlite3")
    try:
        (kept,) = store.nights()
        assert kept["ended"] is not None and len(kept["games"]) == 3
        assert [g["night"] for g in store.games()] == [1, 1, 1]
    finally:
        store.close()
    # the next game begins a new night
    lh = create_app(settings)
    try:
        anna = Client(lh, {"token": token})
        assert anna.send("start")["ok"]
        assert anna.last()["table"]["night"]["id"] == 2
    finally:
        lh.stop()


def test_only_the_host_or_the_button_ends_the_night(tmp_path: Path) -> None:
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", bot_delay=60))
    try:
        anna, bob, cara = seated(lh, ["Anna", "Bob", "Cara"])
        assert anna.send("end_night")["error"]["code"] == "no_night"
        assert anna.send("start")["ok"]
        assert bob.send("end_night")["error"]["code"] == "host_only"
        started = time.time()
        ack = lh.table.submit(
            Identity("button"), {"type": "end_night", "id": "button-night-1", "version": 0}
        )
        assert ack["ok"]  # the game being played ends early with the night
        night = cara.last()["table"]["night"]
        assert night["ended"] >= started and night["games"][0]["status"] == "abandoned"
        assert cara.last()["table"]["status"] == "over"
    finally:
        lh.stop()


# -- the table remembers its players -----------------------------------------------------------

ANNA_PHONE = "anna-phone-0123456789abcdef"
BOB_PHONE = "bob-phone-0123456789abcdefgh"


def test_a_returning_phone_is_recognised_and_a_forgotten_player_is_gone(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=60)
    lh = create_app(settings)
    try:
        anna, bob, cara = seated(lh, ["Anna", "Bob", "Cara"])
        assert anna.send("remember", phone=ANNA_PHONE)["ok"]
        assert bob.send("remember", phone=BOB_PHONE)["ok"]
        assert bob.send("profile", name="Bobby", colour="green")["ok"]
        assert anna.send("start")["ok"]
        finish(lh.table, [10, 20, 5], [1])
        assert anna.send("end_night")["ok"]
        seats = cara.last()["table"]["seats"]
        assert seats[1]["record"] == {"nights": 1, "games": {"eketorp": {"played": 1, "won": 1}}}
        assert seats[2]["record"] is None  # Cara's phone did not ask to be remembered
        bob_key = lh.table.data.seats[1].player
        assert anna.send("remove_seat", seat=1)["ok"]  # Bobby goes home
        anna_token = anna.token
    finally:
        lh.stop()

    lh = create_app(settings)  # the next evening
    try:
        guest = Client(lh, {"code": lh.table.data.code})
        back = guest.send("recall", phone=BOB_PHONE)
        assert back["player"] == {
            "name": "Bobby",
            "colour": "green",
            "nights": 1,
            "games": {"eketorp": {"played": 1, "won": 1}},
        }
        assert guest.send("recall", phone="someone-else-0123456789")["player"] is None
        assert guest.send("recall", phone="short")["error"]["code"] == "bad_phone"
        assert guest.join("Bobby", "green")["ok"]
        assert guest.send("remember", phone=BOB_PHONE)["ok"]
        # the same player as before: one row in the standings across the nights' games
        assert lh.table.data.seats[-1].player == bob_key
        anna = Client(lh, {"token": anna_token})
        assert anna.last()["table"]["seats"][-1]["record"]["nights"] == 1

        # the host cannot forget a player who sits at the table; Bobby forgets his own phone
        assert anna.send("forget_player", player=bob_key)["error"]["code"] == "player_seated"
        assert guest.send("forget_me", phone=BOB_PHONE)["ok"]
        assert guest.send("forget_me", phone=BOB_PHONE)["error"]["code"] == "no_such_player"
        stranger = Client(lh, {"code": lh.table.data.code})
        assert stranger.send("recall", phone=BOB_PHONE)["player"] is None  # no longer offered
        assert anna.send("remove_seat", seat=len(lh.table.data.seats) - 1)["ok"]
        history = anna.send("history")
        assert "Bobby" not in json.dumps(history) and len(history["players"]) == 1
        for message in (anna.last(), Client(lh).last()):
            text = json.dumps(message)
            assert "Bobby" not in text, text[text.index("Bobby") - 300 : text.index("Bobby") + 50]
        web = lh.app.test_client()
        assert web.get("/night/9").status_code == 404  # a night the table never had
        assert web.get("/night/1/chart.svg").mimetype == "image/svg+xml"
        night_page = web.get("/night/1").get_data(as_text=True)
        assert "Bobby" not in night_page and "a former player" in night_page
        # what a phone sent to be remembered is never in anything another client received
        assert ANNA_PHONE not in json.dumps(guest.messages)
        assert BOB_PHONE not in json.dumps(anna.messages)
        assert lh.table.data.players and all(
            p["phone"] not in json.dumps(anna.messages) for p in lh.table.data.players.values()
        )
    finally:
        lh.stop()
    store = Store(tmp_path / "longhall.sqlite3")
    try:
        kept = json.dumps([store.nights(), store.games()])
        assert "Bobby" not in kept and '"name":null' in kept.replace(" ", "")
    finally:
        store.close()


def test_a_store_made_before_the_table_kept_nights_is_read_with_its_games(tmp_path: Path) -> None:
    path = tmp_path / "longhall.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,"
        " seed INTEGER NOT NULL, seats TEXT NOT NULL, started REAL NOT NULL, finished REAL,"
        " status TEXT NOT NULL, result TEXT);"
        "INSERT INTO games VALUES (1, 'eketorp', '{}', 7, '[]', 1.0, 2.0, 'abandoned', NULL);"
    )
    old.commit()
    old.close()
    store = Store(path)
    try:
        (game,) = store.games()
        assert game["id"] == 1 and game["night"] is None  # played before nights were kept
        assert store.nights() == []
    finally:
        store.close()
