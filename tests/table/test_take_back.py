"""The host takes back the game's last moves, one at a time, in every game: the game is as it was
before the move, the take-back is itself a record (history and replay obey it), every screen is
told what was taken back and whose revealed choices had been seen, and no message ever holds
another seat's secret, take-backs included. A restart keeps all of it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from longhall.server.cli.history import replay_game
from longhall.server.config import DB_NAME, Settings
from longhall.server.games.api import progress_actions
from longhall.server.store import Store
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, game, power_cut, seated
from tests.support import received

from .test_secrets import record_versions

PLAYERS = {"eketorp": 3, "vikings_on_board": 2, "vikings_gone_wild": 2}
NAMES = ["Anna", "Bob", "Cara"]


def app(path: Path) -> Longhall:
    return create_app(
        Settings(data_dir=path, gpio="off", bot_delay=0, rate=1e9, burst=10**9, snapshot_every=7)
    )


def move(phones: list[Client], table: Any, rnd: random.Random) -> tuple[int | None, dict[str, Any]]:
    """One move of the game as a player (or NEXT) would make it: (seat, action)."""
    active = game(table).active_seats()
    if active:
        phone = phones[active[0]]
        view = phone.last()
        action = rnd.choice(progress_actions(view["game"]["legal"]))
        ack = phone.send("act", version=view["version"], action=action)
        assert ack["ok"], ack
        return phone.seat, action
    steps = phones[0].last()["game"]["table_steps"]
    assert phones[0].send("table", action=steps[0])["ok"]
    return None, steps[0]


def check_secrecy(
    clients: list[tuple[Client, int | None]], states: Any, salts: Any, spec: Any
) -> int:
    """Every message each client received is exactly its reader's view of the state at that
    version, and holds no salt before its reveal (test_secrets's own check)."""
    checked = 0
    for client, seat in clients:
        client.pump()
        pairs = [(m["name"], m["args"][0] if m["args"] else None) for m in client.messages]
        for body, wire in received(pairs):
            text = json.dumps(body) + wire
            if body["game"] is not None and body["version"] in states:
                state = spec.from_dict(states[body["version"]])
                assert body["game"] == json.loads(json.dumps(spec.view(state, seat)))
                checked += 1
            for salt, (_, revealed) in salts.items():
                if body["version"] < revealed:
                    assert salt not in text, "a fingerprint salt before its reveal"
    return checked


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_kind_of_move_taken_back_with_secrets_kept(name: str, tmp_path: Path) -> None:
    lh = app(tmp_path)
    try:
        table = lh.table
        states, salts = record_versions(table)
        phones = seated(lh, NAMES[: PLAYERS[name]])
        spectator = Client(lh, {"code": table.data.code})
        host = phones[0]
        assert host.send("set_game", game=name)["ok"] and host.send("start")["ok"]
        assert host.send("take_back")["error"]["code"] == "nothing_to_take_back"
        rnd = random.Random(11)
        kinds: set[str] = set()
        seen_revealed = False
        for _ in range(3000):
            if table.data.status != "playing":
                break
            before = game(table).to_dict()
            log_before = len(game(table).log)
            seat, action = move(phones, table, rnd)
            if action["type"] in kinds or len(kinds) >= 25:
                continue
            kinds.add(action["type"])  # the first of each kind of move is taken back
            done = game(table).log[log_before:]
            if table.data.status != "playing":
                break  # the move ended the game: it stays
            assert phones[-1].send("take_back")["error"]["code"] == "host_only"
            assert host.send("take_back")["ok"]
            assert game(table).to_dict() == before  # as it was before the move
            taken = spectator.last()["table"]["taken_back"]
            assert taken["seat"] == seat and taken["events"] == done
            seen_revealed = seen_revealed or bool(taken["revealed"])
            move(phones, table, rnd)  # the next move clears it
            assert spectator.last()["table"]["taken_back"] is None
        assert len(kinds) >= 4, kinds
        checked = check_secrecy(
            [*((p, p.seat) for p in phones), (spectator, None)], states, salts, table.spec
        )
        assert checked > 50
        # history and replay obey the take-backs: the stored game replays to the live one
        replayed = replay_game(lh.table.store, table.data.game_id or 0)
        assert replayed.to_dict() == game(table).to_dict()
        if name == "eketorp":
            assert seen_revealed  # a reveal taken back: the table says the plans were seen
    finally:
        lh.stop()


def twelve_moves(lh: Longhall) -> tuple[Client, Client, list[dict[str, Any]]]:
    """Anna and Bob twelve moves into a game of Vikings Gone Wild, and the game before each."""
    anna, bob = seated(lh, ["Anna", "Bob"])
    assert anna.send("set_game", game="vikings_gone_wild")["ok"] and anna.send("start")["ok"]
    rnd = random.Random(3)
    history = []
    for _ in range(12):
        history.append(game(lh.table).to_dict())
        move([anna, bob], lh.table, rnd)
    return anna, bob, history


def test_a_take_back_after_a_restart_is_replayed_after_a_power_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restart's snapshot is taken in the game, so the next start replays the take-back
    before it has read the game's moves from the store."""
    lh = app(tmp_path)
    anna, _, history = twelve_moves(lh)
    token = anna.token
    lh.stop()  # a clean stop: its snapshot, in the game

    lh = app(tmp_path)
    assert Client(lh, {"token": token}).send("take_back")["ok"]  # the one record after it
    before = lh.table.snapshot()
    power_cut(lh, monkeypatch)

    again = app(tmp_path)
    try:
        assert again.table.snapshot() == before
        assert game(again.table).to_dict() == history[-1]
        assert Client(again, {"token": token}).send("take_back")["ok"]  # the moves are known
        assert game(again.table).to_dict() == history[-2]
    finally:
        again.stop()


def test_take_backs_across_a_restart(tmp_path: Path) -> None:
    lh = app(tmp_path)
    anna, bob, history = twelve_moves(lh)
    assert anna.send("take_back")["ok"]
    assert game(lh.table).to_dict() == history[-1]
    tokens = (anna.token, bob.token)
    lh.stop()

    lh = app(tmp_path)  # the store holds the take-back; the moves before it are known again
    try:
        anna = Client(lh, {"token": tokens[0]})
        assert game(lh.table).to_dict() == history[-1]
        assert anna.last()["table"]["taken_back"] is not None  # still shown after the restart
        assert anna.send("take_back")["ok"]
        assert game(lh.table).to_dict() == history[-2]
        store = Store(tmp_path / DB_NAME)
        stored = store.game(lh.table.data.game_id or 0)
        assert stored is not None
        marks = [a for s, a in stored["log"] if s is None and a == {"type": "taken_back"}]
        assert len(marks) == 2  # nothing deleted: the journal and history show both
        store.close()
    finally:
        lh.stop()
