"""End to end: real ``longhall serve`` processes and real Socket.IO clients over loopback."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio

from longhall.server.games.api import progress_actions
from longhall.server.games.registry import GAMES

from ..support import (
    Phone,
    RawWebSocket,
    ServerProcess,
    received,
    replay_states,
    short_deck,
    socket_client,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    short_deck(tmp_path)  # whole games of Eketorp in three rounds
    proc = ServerProcess(tmp_path, "--bot-delay", "0", "--rate-limit", "1000", "--seed", "42")
    proc.start()
    yield proc
    proc.stop()


def seat_phones(server: ServerProcess, names: list[str], bots: list[str]) -> list[Phone]:
    lobby = Phone(server.url).connect()
    table_code = lobby.current["table"]["code"]
    lobby.disconnect()
    phones = []
    version = 0
    for name in names:
        phone = Phone(server.url, {"code": table_code}, name=name).connect()
        ack = phone.join(name)
        assert ack["ok"]
        version = ack["version"]
        phones.append(phone)
    for kind in bots:
        ack = phones[0].command("add_bot", bot=kind)
        assert ack["ok"]
        version = ack["version"]
    for phone in phones:  # everyone has seen the whole lobby before anyone decides anything
        phone.wait(lambda v: v["version"] >= version)
    return phones


def decide(phone: Phone, seed: int) -> dict[str, Any] | None:
    """A scripted player: a choice that depends only on what this phone sees."""
    view = phone.latest
    assert view is not None
    game = view["game"]
    if game is None or phone.seat not in game["public"]["active"]:
        return None
    legal = progress_actions(game["legal"])
    if not legal:
        return None
    rnd = random.Random(f"{seed}-{phone.seat}-{view['steps']}")
    return rnd.choice(legal)


def play_step(phones: list[Phone], seed: int) -> tuple[Phone, str, dict[str, Any]] | None:
    """The next command of the script, or None when the game is over."""
    first = phones[0].latest
    assert first is not None
    if first["table"]["status"] != "playing":
        return None
    for phone in phones:
        action = decide(phone, seed)
        if action is not None:
            return phone, "act", {"action": action}
    table_actions = first["game"]["public"]["table_actions"]
    if table_actions:
        return phones[0], "table", {"action": {"type": table_actions[0]}}
    return phones[0], "wait", {}


def settle(phones: list[Phone]) -> None:
    """Wait until every phone has seen the same, latest version."""
    target = max(p.current["version"] for p in phones)
    for p in phones:
        p.wait(lambda v, t=target: v["version"] >= t)


def test_a_whole_game_with_three_phones_and_three_bots_leaks_nothing(server: ServerProcess) -> None:
    phones = seat_phones(server, ["Anna", "Bob", "Cara"], ["greedy", "random", "greedy"])
    table_display = Phone(server.url, name="table").connect()
    spectators = [Phone(server.url, name=f"spectator{i}").connect() for i in range(2)]
    assert phones[0].command("start")["ok"]
    for phone in phones:
        phone.wait(lambda v: v["game"] is not None)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        settle(phones)
        step = play_step(phones, seed=7)
        if step is None:
            break
        phone, kind, fields = step
        if kind == "wait":  # a bot is about to move: its update is on the way
            phone.changed.wait(0.05)
            continue
        ack = phone.command(kind, **fields)
        assert ack["ok"] or ack["error"]["code"] == "stale_version", ack
    final = table_display.wait(lambda v: v["table"]["status"] == "over")
    scores = final["table"]["result"]["scores"]
    assert len(scores) == 6 and final["table"]["result"]["winners"]
    assert final["game"]["public"]["phase"] == "over"
    game_id = final["table"]["game_id"]
    for p in [*phones, table_display, *spectators]:
        p.disconnect()

    # every message every client received is exactly that reader's view of the state then
    states = replay_states(server.data_dir / "longhall.sqlite3", game_id)
    spec = GAMES["eketorp"]
    revealed_at: dict[str, int] = {}
    for client in [*phones, table_display, *spectators]:
        for body, _ in received(client.messages):
            for reveal in body["table"]["reveals"]:
                revealed_at[reveal["salt"]] = min(
                    revealed_at.get(reveal["salt"], 1 << 30), body["version"]
                )
    assert len(revealed_at) > 10
    checked = 0
    for client in [*phones, table_display, *spectators]:
        seat = client.seat
        # patches rebuilt into whole messages: exactly the view a snapshot would have shown
        for body, wire in received(client.messages):
            text = json.dumps(body) + wire
            if body["game"] is not None and body["table"]["game_id"] == game_id:
                expected = spec.view(states[body["steps"]], seat)
                assert body["game"] == json.loads(json.dumps(expected))
                checked += 1
            for salt, version in revealed_at.items():
                if body["version"] < version:
                    assert salt not in text
            for other in phones:
                assert other.token is not None
                assert other.token not in text
    assert checked > 1000


def run_script(
    server: ServerProcess, tmp: Path, kill_every: int | None, seed: int
) -> tuple[dict[str, Any], int]:
    """Play a scripted 3-player game; with ``kill_every``, kill -9 and restart that often."""
    phones = seat_phones(server, ["Anna", "Bob", "Cara"], [])
    tokens = [p.token for p in phones]
    assert phones[0].command("start")["ok"]
    for phone in phones:
        phone.wait(lambda v: v["game"] is not None)
    acked = 0
    kills = 0
    last_version = 0
    killed_at = -1
    while True:
        step = play_step(phones, seed)
        if step is None:
            break
        phone, kind, fields = step
        assert kind != "wait"
        cid = uuid.uuid4().hex
        version = phone.current["version"]
        due = kill_every is not None and acked and acked % kill_every == 0 and killed_at != acked
        in_flight = due and kill_every is not None and acked % (kill_every * 3) == kill_every * 2
        if in_flight:
            # power cut while a command is on its way: no answer; the phone sends it again
            threading.Thread(
                target=_quiet_call, args=(phone, kind, cid, version, fields), daemon=True
            ).start()
        if due:
            server.kill9()
            kills += 1
            killed_at = acked
            for p in phones:
                p.disconnect()
            server.start()
            health = server.health()
            assert health["table_version"] >= last_version  # nothing acknowledged is lost
            phones = [Phone(server.url, name=p.name) for p in phones]
            for p, token in zip(phones, tokens, strict=True):
                p.token = token
                p.seat = tokens.index(token)
                p.connect()
            if not in_flight:
                assert health["table_version"] == last_version
                continue  # the script decides again from the restored views
            assert phone.seat is not None
            phone = phones[phone.seat]
        ack = phone.command(kind, cid=cid, version=version, **fields)
        assert ack["ok"], ack
        last_version = ack["version"]
        acked += 1
        settle(phones)
    final = phones[0].wait(lambda v: v["table"]["status"] == "over")
    for p in phones:
        p.disconnect()
    return final, kills


def _quiet_call(phone: Phone, kind: str, cid: str, version: int, fields: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):  # the server dies before it answers
        phone.sio.call(
            "command", {"type": kind, "id": cid, "version": version, **fields}, timeout=2
        )


@pytest.mark.slow(seconds=25)
def test_kill_9_at_many_points_loses_nothing(tmp_path: Path) -> None:
    results = []
    for run, kill_every in enumerate((None, 13)):
        proc = ServerProcess(
            tmp_path / f"run{run}", "--bot-delay", "0", "--rate-limit", "1000", "--seed", "11"
        )
        short_deck(tmp_path / f"run{run}")
        proc.start()
        try:
            final, kills = run_script(proc, tmp_path, kill_every, seed=3)
        finally:
            proc.stop()
        states = replay_states(proc.data_dir / "longhall.sqlite3", final["table"]["game_id"])
        results.append((final, kills, states[-1].to_dict()))
    (plain, _, plain_state), (killed, kills, killed_state) = results
    assert kills >= 10
    assert killed_state == plain_state
    assert killed["table"]["result"]["scores"] == plain["table"]["result"]["scores"]


def test_a_phone_reconnects_in_every_phase_and_resumes_where_it_was(server: ServerProcess) -> None:
    phones = seat_phones(server, ["Anna", "Bob", "Cara"], [])
    assert phones[0].command("start")["ok"]
    for phone in phones:
        phone.wait(lambda v: v["game"] is not None)
    seen_phases: set[str] = set()
    rnd = random.Random(1)
    while True:
        step = play_step(phones, seed=9)
        if step is None:
            break
        view = phones[0].current
        phase = view["game"]["public"]["phase"]
        if phase not in seen_phases:
            seen_phases.add(phase)
            index = rnd.randrange(3)
            leaving = phones[index]
            before = leaving.latest
            leaving.disconnect()
            back = Phone(server.url, name=leaving.name)
            back.token, back.seat = leaving.token, leaving.seat
            back.connect()
            after = back.latest
            assert after is not None and before is not None
            assert after["you"] == before["you"]
            assert after["game"] == before["game"]  # the same hand, plan, chosen card, legal moves
            phones[index] = back
            settle(phones)
            continue
        phone, kind, fields = step
        assert phone.command(kind, **fields)["ok"]
        settle(phones)
    assert {
        "planning",
        "reveal",
        "pick",
        "choose",
        "building",
        "round_end",
        "over",
    } <= seen_phases | {"over"}
    assert {"swap", "sharing", "loot"} & seen_phases


def test_garbage_over_the_wire_never_hurts_the_server(server: ServerProcess) -> None:
    phones = seat_phones(server, ["Anna", "Bob", "Cara"], [])
    started = phones[0].command("start")
    assert started["ok"], started
    before = server.health()
    rnd = random.Random(4)
    junk: list[Any] = [
        None,
        1,
        "x",
        [],
        {},
        {"type": "act"},
        {"type": "act", "id": "a" * 9, "version": -1},
        {"type": "join", "id": "b" * 9, "version": 0, "name": "\x00", "colour": "red"},
        {
            "type": "act",
            "id": "c" * 9,
            "version": 0,
            "action": {"type": "place", "to": "siege:1:boat", "seat": 0},
        },
        {"type": "start", "id": "d" * 9, "version": 10**20},
        "🐉" * 1000,
        list(range(100)),
    ]
    for _ in range(300):
        payload = rnd.choice(junk)
        phone = rnd.choice(phones)
        event = rnd.choice(
            ["command", "command", "snapshot", "ping", "connect", "disconnect", "x" * 30]
        )
        ack = phone.sio.call(event, payload, timeout=5)  # every event gets an answer
        if event == "command":
            assert ack["ok"] is False and ack["error"]["code"], ack
        elif event == "snapshot":
            assert ack["you"]["seat"] == phones.index(phone)
        else:
            assert ack["error"]["code"] in ("unknown_event", "rate_limited"), ack
    # "connect" and "disconnect" sent as events did not re-run those handlers: still seated
    for phone in phones:
        assert phone.sio.call("snapshot", timeout=5)["you"]["seat"] == phones.index(phone)
    # browsers may connect only from pages this server served (same origin, never "*")
    handshake = server.url + "/socket.io/?EIO=4&transport=polling"
    foreign = requests.get(handshake, headers={"Origin": "http://evil.example"}, timeout=5)
    assert foreign.status_code == 400
    own = requests.get(handshake, headers={"Origin": server.url}, timeout=5)
    assert own.status_code == 200 and own.headers.get("Access-Control-Allow-Origin") != "*"
    # a client that talks nonsense at the Engine.IO level
    bad = requests.post(
        server.url + "/socket.io/?EIO=4&transport=polling", data=b"\xff" * 5000, timeout=5
    )
    assert bad.status_code in (400, 413)
    assert server.health()["table_version"] == before["table_version"]
    assert requests.get(server.url + "/healthz", timeout=5).json()["status"] == "ok"


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_serve_is_one_process_that_stops_cleanly_and_resumes(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    """One table, one process (no gunicorn arbiter beside it); systemd's SIGTERM and a host's
    Ctrl-C both stop it with exit code 0, and the seat is there after the restart. A phone still
    connected is told the server went away (it reconnects by itself): the server does not wait
    for its WebSocket to end on its own."""
    server = ServerProcess(tmp_path, "--bot-delay", "0")
    server.start()
    try:
        assert server.proc is not None
        assert server.pids() == [server.proc.pid]
        (phone,) = seat_phones(server, ["Astrid"], [])
        token = phone.token
        reasons: list[Any] = []
        gone = threading.Event()

        def disconnected(reason: Any = None) -> None:
            reasons.append(reason)
            gone.set()

        phone.sio.on("disconnect", disconnected)
        server.proc.send_signal(stop_signal)
        assert server.proc.wait(timeout=15) == 0
        assert gone.wait(10)
        if stop_signal == signal.SIGTERM:
            assert reasons == [phone.sio.reason.SERVER_DISCONNECT]
        phone.disconnect()
        server.start()
        again = Phone(server.url, {"token": token}).connect()
        snapshot = again.latest
        assert snapshot is not None and snapshot["you"]["seat"] == 0
        assert snapshot["table"]["seats"][0]["name"] == "Astrid"
        again.disconnect()
    finally:
        server.stop()


def test_a_refused_connection_tells_the_phone_why(server: ServerProcess) -> None:
    """A phone whose seat was taken away while it slept, or that scanned an old table code,
    gets the error's code as ``connect_error`` data: the page then forgets the token."""
    for auth, code in (({"token": "x" * 32}, "bad_token"), ({"code": "nope"}, "bad_code")):
        refused: list[Any] = []
        sio = socket_client()
        sio.on("connect_error", refused.append)
        with pytest.raises(socketio.exceptions.ConnectionError):
            sio.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=5)
        # as the browser's Socket.IO client reads it: err.message and err.data
        assert refused and refused[0]["data"]["code"] == code, refused
        assert refused[0]["message"] == refused[0]["data"]["message"]


def test_unreadable_json_is_answered_malformed_and_changes_nothing(server: ServerProcess) -> None:
    """JSON nested thousands deep or a number of thousands of digits cannot be read; the sender
    still gets an answer (over a raw WebSocket, as any program on the network could send it)."""
    before = server.health()
    ws = RawWebSocket(server.port)
    try:
        opened = ws.receive()
        assert opened.startswith("0"), opened  # Engine.IO open
        ws.send("40{}")  # Socket.IO connect as the table display
        answers: dict[str, Any] = {}
        ws.send('421["command",' + "[" * 5000 + "]" * 5000 + "]")
        ws.send('422["command",{"type":"start","id":"x","version":' + "9" * 5000 + "}]")
        ws.send('423["command",{"type":"start"}]')  # a readable one still works afterwards
        while len(answers) < 3:  # the socket's timeout bounds a stuck server
            message = ws.receive()
            if message == "2":
                ws.send("3")  # Engine.IO pong
            elif message.startswith("43"):
                ack_id, body = message[2], json.loads(message[3:])
                answers[ack_id] = body[0]
    finally:
        ws.close()
    assert answers["1"]["error"]["code"] == "malformed"
    assert answers["2"]["error"]["code"] == "malformed"
    assert answers["3"]["error"]["code"] == "bad_id"  # read, and refused for what it lacks
    assert server.health()["table_version"] == before["table_version"]
    assert "Traceback" not in server.log.read_text()


def test_a_server_that_cannot_start_says_why_and_fails(tmp_path: Path) -> None:
    """systemd restarts a server that exits with an error; the journal must say what went
    wrong (here the hotspot file is a folder)."""
    server = ServerProcess(tmp_path, "--hotspot-file", str(tmp_path))
    with pytest.raises(RuntimeError, match="the server exited"):
        server.start()
    assert server.proc is not None and server.proc.wait(timeout=10) != 0
    assert "Longhall stopped on an error" in server.log.read_text()


def test_a_closed_terminal_stops_the_server_cleanly_unless_started_with_nohup(
    tmp_path: Path,
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    server = ServerProcess(tmp_path / "a")
    server.start()
    assert server.proc is not None
    server.proc.send_signal(signal.SIGHUP)  # the terminal closed: stop as for SIGTERM
    try:
        assert server.proc.wait(timeout=15) == 0
    except subprocess.TimeoutExpired:
        threads = sorted(p.name for p in Path(f"/proc/{server.proc.pid}/task").iterdir())
        raise AssertionError(
            f"still running, threads {threads}: {server.log.read_text()[-3000:]}"
        ) from None
    nohup = ServerProcess(tmp_path / "b", ignore_hangup=True)
    nohup.start()
    try:
        assert nohup.proc is not None
        nohup.proc.send_signal(signal.SIGHUP)  # started with nohup: carry on
        time.sleep(0.5)
        assert nohup.proc.poll() is None and nohup.health()["status"] == "ok"
    finally:
        nohup.stop()


def test_a_binary_event_cannot_re_run_the_connect_handler(server: ServerProcess) -> None:
    """python-socketio hands a binary event's name to the handlers unchecked: a binary
    "connect" once turned a phone into the table display while it stayed in its seat's room,
    so it kept getting the seat's secrets after the host gave the seat to someone else."""
    anna, bram, _ = seat_phones(server, ["Anna", "Bram", "Cara"], [])
    assert anna.command("start")["ok"]
    bram.sio.eio.send('51-["connect",{"x":{"_placeholder":true,"num":0}}]')
    bram.sio.eio.send('51-["disconnect",{"x":{"_placeholder":true,"num":0}}]')
    time.sleep(0.3)
    assert bram.sio.call("snapshot", timeout=5)["you"]["seat"] == 1  # still Bram's seat
    handed = anna.command("handover", seat=1)
    assert handed["ok"]
    deadline = time.monotonic() + 10
    while bram.sio.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not bram.sio.connected  # sent away with the seat
    assert any(event == "revoked" for event, _ in bram.messages)
