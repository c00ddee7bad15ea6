"""No client ever receives another seat's hidden information: a whole game with three phones and
three bots, every message each client received checked against what that seat may see."""

from __future__ import annotations

import json
import random
from typing import Any

from longhall.server.games.api import progress_actions
from longhall.server.table.connections import Identity
from longhall.server.table.service import Table
from longhall.server.web.app import Longhall
from tests.inprocess import Client, game, seated
from tests.support import received

from ..support import bot_move


def record_versions(table: Table) -> tuple[dict[int, Any], dict[str, list[int]]]:
    """Keep the game state at every table version, and when each fingerprint salt was public."""
    states: dict[int, Any] = {}
    salts: dict[str, list[int]] = {}  # salt -> [first version held, version revealed]

    def listener(t: Table) -> None:
        if t.game is not None:
            states[t.data.version] = t.game.to_dict()
        for entry in t.data.commitments.values():
            salts.setdefault(entry["salt"], [t.data.version, 1 << 30])
        for reveal in t.data.reveals:
            span = salts.setdefault(reveal["salt"], [t.data.version, t.data.version])
            span[1] = min(span[1], t.data.version)

    table.listeners.append(listener)
    return states, salts


def play_whole_game(longhall: Longhall, phones: list[Client], seed: int) -> None:
    table = longhall.table
    rnd = random.Random(seed)
    for _ in range(20000):
        if table.data.status != "playing":
            return
        moved = False
        for phone in phones:
            view = phone.last()
            legal = progress_actions(view["game"]["legal"]) if view["game"] else []
            if legal and phone.seat in game(table).active_seats():
                ack = phone.send("act", version=view["version"], action=rnd.choice(legal))
                assert ack["ok"] or ack["error"]["code"] == "stale_version", ack
                moved = True
        move = bot_move(table)
        if move is not None:
            seat, action = move
            assert table.submit(
                Identity("bot", seat),
                {
                    "type": "act",
                    "id": f"bot-{seat}-{table.data.version}x",
                    "version": table.data.version,
                    "action": action,
                },
            )["ok"]
            moved = True
        if not moved:
            phone = rnd.choice(phones)
            view = phone.last()
            table_actions = view["game"]["public"]["table_actions"]
            if table_actions:
                assert phone.send(
                    "table", version=view["version"], action={"type": table_actions[0]}
                )["ok"]
    raise AssertionError("the game did not end")


def test_no_message_holds_another_seats_secret(scripted: Longhall) -> None:
    longhall = scripted
    table = longhall.table
    states, salts = record_versions(table)
    phones = seated(longhall, ["Anna", "Bob", "Cara"])
    spectator = Client(longhall)
    for kind in ("greedy", "random", "greedy"):
        assert phones[0].send("add_bot", bot=kind)["ok"]
    assert phones[0].send("start")["ok"]
    play_whole_game(longhall, phones, seed=5)
    assert table.data.status == "over"
    spectator.pump()
    tokens = {p.seat: p.token for p in phones}
    hashes = [s.token_hash for s in table.data.seats if s.token_hash]
    spec = table.spec
    checked = 0
    for client, seat in [*((p, p.seat) for p in phones), (spectator, None)]:
        client.pump()
        pairs = [(m["name"], m["args"][0] if m["args"] else None) for m in client.messages]
        for body, wire in received(pairs):  # patches applied, and searched as sent
            text = json.dumps(body) + wire
            # 1. the game part is exactly this reader's view of the state at that version
            if body["game"] is not None:
                state = spec.from_dict(states[body["version"]])
                assert body["game"] == json.loads(json.dumps(spec.view(state, seat)))
                checked += 1
            # 2. no token and no token hash, ever; no salt before its reveal
            for token in tokens.values():
                assert token is not None
                assert token not in text, "a seat token in an update"
            assert not any(h in text for h in hashes)
            for salt, (_, revealed) in salts.items():
                if body["version"] < revealed:
                    assert salt not in text, "a fingerprint salt before its reveal"
    assert checked > 300
    assert len(salts) > 10
