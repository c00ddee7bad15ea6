"""Vikings on Board keeps its secrets (V2.6): a whole game with two phones and two bots, every
message each phone and a spectator received checked against what that seat may see; a barrel's
value reaches only its owner, until the final score lifts every shield."""

from __future__ import annotations

import json
from typing import Any

from longhall.server.web.app import Longhall
from tests.inprocess import Client, seated
from tests.support import received

from .test_secrets import play_whole_game, record_versions


def values_outside_own_barrels(body: dict[str, Any]) -> list[str]:
    """The places in a message where a "value" is, other than the reader's own barrels and the
    market's raises in the log."""
    found: list[str] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                here = (*path, key)
                own = path[:3] == ("game", "private", "barrels")
                market = path[:3] == ("game", "public", "log") and node.get("e") == "raise"
                if key == "value" and not own and not market:
                    found.append("/".join(map(str, here)))
                walk(child, here)
        elif isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, (*path, i))

    walk(body, ())
    return found


def test_no_message_holds_another_seats_barrels(scripted: Longhall) -> None:
    longhall = scripted
    table = longhall.table
    states, _ = record_versions(table)
    phones = seated(longhall, ["Anna", "Bob"])
    spectator = Client(longhall)
    assert phones[0].send("set_game", game="vikings_on_board")["ok"]
    for kind in ("greedy", "random"):
        assert phones[0].send("add_bot", bot=kind)["ok"]
    assert phones[0].send("start")["ok"]
    play_whole_game(longhall, phones, seed=3)
    assert table.data.status == "over"
    spec = table.spec
    checked = 0
    for client, seat in [*((p, p.seat) for p in phones), (spectator, None)]:
        client.pump()
        pairs = [(m["name"], m["args"][0] if m["args"] else None) for m in client.messages]
        for body, _ in received(pairs):  # patches applied to the message before them
            game = body["game"]
            if game is None or game.get("game") != "vikings_on_board":
                continue
            # the game part is exactly this reader's view of the state at that version
            state = spec.from_dict(states[body["version"]])
            assert game == json.loads(json.dumps(spec.view(state, seat)))
            if game["public"]["phase"] != "over":
                assert values_outside_own_barrels(body) == []
                private = game["private"]
                if seat is None:
                    assert private is None
                else:  # only the reader's own 4 barrels, in their own colour
                    assert len(private["barrels"]) == 4
                    assert private["colour"] == table.data.seats[seat].colour
                # the public part holds no seat's barrel values and no chests' kinds
                for s in game["public"]["seats"]:
                    assert set(s) == {"seat", "colour", "barrels_in_hand", "barrels_won", "chests"}
            checked += 1
    assert checked > 150
    # after the final score every shield is lifted: the scores are public
    final = phones[1].last()
    assert final["table"]["result"]["game"] == "vikings_on_board"
    assert len(final["table"]["result"]["scores"]) == 4
