"""The command registry: who may send what, derived from each kind's one declaration."""

from __future__ import annotations

from typing import Any

import pytest

from longhall.server.table.commands import KINDS
from longhall.server.web.app import Longhall
from tests.inprocess import seated

HOST_ONLY = frozenset(name for name, kind in KINDS.items() if kind.host_only)

# The kinds a player who is not the host may send. Opening a command to every player is a
# decision about the table's safety: it is made here, on purpose, not by editing a set of names.
# (claim_host: any player, with the number only the Pi's own screen shows.) ``leave`` and
# ``remember`` touch only the sender's own seat: leaving it between games, and asking the table
# to remember the phone that holds it.
OPEN_TO_PLAYERS = {"profile", "act", "table", "claim_host", "leave", "remember"}
# The kinds only the table itself may send (its buttons, the Pi's own screen), never a phone.
TABLE_ONLY = {"reset_host"}
SAMPLES: dict[type, Any] = {
    int: 1,
    bool: True,
    str: "greedy",
    dict: {"type": "place", "to": "A"},
    object: 0,  # any JSON value
}


def sample(kind: str) -> dict[str, Any]:
    """A command of this kind with every field of the right type."""
    return {name: SAMPLES[want] for name, want in KINDS[kind].fields.items()}


def test_every_kind_is_host_only_unless_opened_to_players_on_purpose() -> None:
    seated_kinds = {name for name, kind in KINDS.items() if "guest" not in kind.by}
    assert seated_kinds - HOST_ONLY - TABLE_ONLY == OPEN_TO_PLAYERS
    assert {name for name, kind in KINDS.items() if "kiosk" in kind.by} == TABLE_ONLY
    assert {"kick", "remove_seat", "handover", "proxy", "history"} <= HOST_ONLY
    # the lobby's choices (the game and its options) are the host's alone
    assert {"set_game", "set_option", "set_language", "set_start_player", "botify"} <= HOST_ONLY
    # the one way round it: a player takes their own seat back from a bot standing in for them
    assert {name for name, kind in KINDS.items() if kind.own_seat is not None} == {"botify"}


def test_a_player_takes_only_their_own_seat_back_from_a_stand_in(longhall: Longhall) -> None:
    host, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert host.send("botify", seat=1, bot="greedy")["ok"]
    assert host.send("botify", seat=2, bot="greedy")["ok"]
    assert bob.send("botify", seat=2, bot="")["error"]["code"] == "host_only"
    assert bob.send("botify", seat=1, bot="random")["error"]["code"] == "host_only"
    assert longhall.table.data.seats[1].bot == "greedy"
    assert bob.send("botify", seat=1, bot="")["ok"]
    assert longhall.table.data.seats[1].bot is None
    assert longhall.table.data.seats[2].bot == "greedy"


@pytest.mark.parametrize("during", ["lobby", "game"])
def test_every_host_only_command_is_refused_to_a_player_who_is_not_the_host(
    longhall: Longhall, during: str
) -> None:
    host, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    if during == "game":
        assert host.send("start")["ok"]
    before = longhall.table.snapshot()
    assert HOST_ONLY  # derived from the registry: a new host-only kind is tested here at once
    for kind in sorted(HOST_ONLY):
        ack = bob.send(kind, **sample(kind))
        assert ack["ok"] is False, kind
        assert ack["error"]["code"] == "host_only", (kind, ack)
        assert ack["error"]["params"] == {"command": kind}
    assert longhall.table.snapshot() == before


def test_the_commands_open_to_players_are_not_refused_as_host_only(longhall: Longhall) -> None:
    host, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    for kind in sorted(OPEN_TO_PLAYERS - {"leave"}):
        ack = bob.send(kind, **sample(kind))
        assert ack.get("error", {}).get("code") != "host_only", kind
    assert bob.send("profile", name="Bram", colour="")["ok"]
    assert longhall.table.data.seats[1].name == "Bram"
    assert cara.send("leave")["ok"]  # last: her phone's seat is gone with it
