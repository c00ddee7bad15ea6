"""A bot standing in for a player: it plays at once, phone open or not;
the player can take their seat back; everyone sees whose phone is gone and since when."""

from __future__ import annotations

import time
from collections.abc import Callable

from longhall.server.table.service import Table
from longhall.server.web.app import Longhall
from tests.inprocess import eketorp, seated

STUCK = 300.0  # seconds without the awaited change: something is broken, not slow


def wait_for(table: Table, done: Callable[[], bool]) -> None:
    """Wait on the table's own change signal until ``done`` holds."""
    with table.changed:
        assert table.changed.wait_for(done, timeout=STUCK), "the table never got there"


def test_a_stand_in_plays_at_once_while_the_phone_is_open(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    table = longhall.table
    longhall.bots.start()
    assert bob.connected and bob.last()["game"]["legal"]  # Bob's phone is open, his turn to plan
    assert anna.send("botify", seat=1, bot="greedy")["ok"]
    # the bot plans and commits for Bob though his phone is still connected
    wait_for(table, lambda: eketorp(table).committed[1])
    for phone in (anna, bob, cara):  # everyone, the host and Bob too, sees who plays the seat
        seat = phone.last()["table"]["seats"][1]
        assert seat["bot"] == "greedy" and seat["connected"] and seat["away_since"] is None
    # while the bot plays, Bob's phone cannot act beside it
    refused = bob.act(type="uncommit")
    assert refused["error"]["code"] == "bot_standing_in" and refused["error"]["message"]
    # Bob takes his seat back himself; he may not end anybody else's stand-in
    assert anna.send("botify", seat=2, bot="random")["ok"]
    assert bob.send("botify", seat=2, bot="")["error"]["code"] == "host_only"
    assert bob.send("botify", seat=1, bot="random")["error"]["code"] == "host_only"
    assert bob.send("botify", seat=1, bot="")["ok"]
    assert bob.last()["table"]["seats"][1]["bot"] is None
    assert bob.act(type="uncommit")["ok"]  # Anna has not committed: still planning


def test_everyone_sees_whose_phone_is_gone_and_since_when(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    before = time.time()
    cara.sio.disconnect()
    seats = anna.last()["table"]["seats"]
    now = anna.last()["table"]["now"]
    assert not seats[2]["connected"] and before <= seats[2]["away_since"] <= now
    assert seats[0]["away_since"] is None and seats[1]["away_since"] is None
