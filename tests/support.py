"""Real ``longhall serve`` processes and real Socket.IO clients, for end-to-end tests."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import requests
import socketio

from longhall.server.table import BotRunner, Table
from longhall.server.table.bots import bot_may_play
from longhall.server.table.connections import Identity
from longhall.server.table.state import TAKEN_BACK

from .server_fork import ForkedProcess, fork_server

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ignore_hangup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def _default_hangup() -> None:
    # a server started from a terminal, even when the tests run under nohup (whose ignored
    # SIGHUP every child would inherit, and take for its own nohup)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def wait_for_health(
    url: str, proc: subprocess.Popen[bytes] | ForkedProcess, log: Path, deadline: float
) -> float:
    """Wait until the server at ``url`` answers ``/healthz`` (``time.monotonic()`` then)."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        with contextlib.suppress(requests.RequestException):
            if requests.get(url + "/healthz", timeout=0.5).ok:
                return time.monotonic()
        time.sleep(0.02)
    raise TimeoutError(f"no /healthz at {url} in time: {log.read_text()[-2000:]}")


class ServerProcess:
    """``longhall serve`` on a free port of 127.0.0.1 with its own data directory."""

    fork = False  # from a zygote (tests/server_fork.py): tests/conftest.py turns it on

    def __init__(
        self,
        data_dir: Path,
        *extra: str,
        port: int | None = None,
        ignore_hangup: bool = False,
        module: str = "longhall.server.cli",
        program: list[str] | None = None,
        cwd: Path = ROOT,
    ) -> None:
        # what runs ``serve``: this Python's ``-m module`` (a test may wrap the server's own CLI),
        # or another program (an installed ``longhall``), started in ``cwd``
        # the server may run in another environment, e.g. one without the test packages, as
        # ``./run serve`` installs it (bench/serving.py measures its memory that way)
        other_python = os.environ.get("LONGHALL_SERVER_PYTHON")
        self.program = program or [other_python or sys.executable, "-m", module]
        # the command line's own, in this environment: forked from this process's zygote when
        # the tests say so (the benchmarks start their servers as a table does)
        default = program is None and other_python is None and module == "longhall.server.cli"
        self.forked = default and ServerProcess.fork

        self.cwd = cwd
        self.ignore_hangup = ignore_hangup  # as nohup starts it
        self.data_dir = data_dir
        self.port = port or free_port()
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.log = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> float:
        """Start and wait for /healthz; return the seconds it took."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        args = [
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--gpio",
            "off",
            "--public-url",
            self.url,
            *self.extra,
        ]
        started = time.monotonic()
        if self.forked:
            self.proc = fork_server(args, self.cwd, env, self.log, self.ignore_hangup)
        else:
            out = self.log.open("ab")
            self.proc = subprocess.Popen(
                [*self.program, *args],
                cwd=self.cwd,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_ignore_hangup if self.ignore_hangup else _default_hangup,
            )
            out.close()
        return wait_for_health(self.url, self.proc, self.log, started + timeout) - started

    def kill9(self) -> None:
        """Kill the whole process group at once, like a power cut."""
        assert self.proc is not None
        if self.proc.poll() is None:  # once it is reaped, its number may be another's
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._wait_port_free()

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill9()

    def _wait_port_free(self) -> None:
        for _ in range(200):
            with socket.socket() as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                try:
                    sock.bind(("127.0.0.1", self.port))
                    return
                except OSError:
                    time.sleep(0.05)

    def health(self) -> dict[str, Any]:
        health: dict[str, Any] = requests.get(self.url + "/healthz", timeout=5).json()
        return health

    def pids(self) -> list[int]:
        """Every process of the server's process group (``longhall serve`` is one)."""
        assert self.proc is not None
        out = subprocess.run(["pgrep", "-g", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]


class Predicate(Protocol):
    """What a phone waits for: a test on its latest message (``lambda v, t=version: ...``)."""

    def __call__(self, message: dict[str, Any], /) -> object: ...


# What the test clients say goes to pytest's log capture, shown with a failing test. With its
# default logger python-engineio adds a handler writing to the stderr of that moment, which pytest
# has closed by the time a late client thread writes to it (a "Logging error" after the run).
CLIENT_LOG = logging.getLogger("tests.client")
CLIENT_LOG.setLevel(logging.ERROR)  # as python-engineio's default: its errors, not its chatter
CLIENT_LOG.addHandler(logging.NullHandler())  # after pytest's capture: nowhere, not stderr


def socket_client() -> socketio.Client:
    """A real Socket.IO client as a phone's, without a reconnection of its own."""
    return socketio.Client(reconnection=False, logger=CLIENT_LOG, engineio_logger=CLIENT_LOG)


class Phone:
    """A real python-socketio client that records every message it receives."""

    def __init__(self, url: str, auth: dict[str, Any] | None = None, name: str = "") -> None:
        self.url = url
        self.auth = auth or {}
        self.name = name
        self.messages: list[tuple[str, Any]] = []
        self.latest: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.changed = threading.Event()
        self.sio = socket_client()
        # python-socketio's client hands each message to a thread of its own, so two updates can
        # be handled out of order; a browser handles them in order, and so does this phone
        trigger = self.sio.eio._trigger_event

        def in_order(event: str, *args: Any, **kwargs: Any) -> Any:
            kwargs.pop("run_async", None)
            return trigger(event, *args, **kwargs)

        self.sio.eio._trigger_event = in_order
        for event in ("snapshot", "update", "patch", "notice", "replaced", "revoked"):
            self.sio.on(event, self._handler(event))
        self.resyncs = 0  # snapshots asked for after a gap in the patches

    @property
    def current(self) -> dict[str, Any]:
        """The latest message, for a test that has waited for one."""
        assert self.latest is not None, f"{self.name}: no message yet"
        return self.latest

    def _handler(self, event: str) -> Callable[[Any], None]:
        def handle(data: Any) -> None:
            self.messages.append((event, data))
            if event == "patch":
                self._patch(data)
            elif event in ("snapshot", "update") and (
                self.latest is None or data["seq"] >= self.latest["seq"] or event == "snapshot"
            ):
                self.latest = data
            self.changed.set()

        return handle

    def _patch(self, patch: dict[str, Any]) -> None:
        """Rebuild the message from the last one, or ask for a snapshot after a gap (as the
        pages do, server/static/patch.js)."""
        latest = self.latest
        if latest is not None and patch["seq"] <= latest["seq"]:
            return
        if latest is None or patch["base"] != latest["seq"]:
            self.resyncs += 1
            self.sio.emit("snapshot", callback=self._handler("snapshot"))
            return
        self.latest = apply_patch(latest, patch["ops"])

    def connect(self) -> Phone:
        auth = {"token": self.token} if self.token else self.auth
        self.latest = None
        self.sio.connect(self.url, auth=auth, transports=["websocket"], wait_timeout=10)
        self.wait(lambda v: True)
        return self

    def disconnect(self) -> None:
        with contextlib.suppress(Exception):
            self.sio.disconnect()
        # after a power cut the client never hears the close: shut its socket ourselves
        eio = self.sio.eio
        ws = getattr(eio, "ws", None)
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
        http = getattr(eio, "http", None)
        if http is not None:
            with contextlib.suppress(Exception):
                http.close()

    def wait(self, predicate: Predicate, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.changed.clear()
            if self.latest is not None and predicate(self.latest):
                return self.latest
            self.changed.wait(0.05)
        heard = [
            (e, b.get("seq"), b.get("base"), b.get("version"))
            for e, b in self.messages[-12:]
            if isinstance(b, dict)
        ]
        raise TimeoutError(
            f"{self.name}: waited in vain; latest {str(self.latest)[:300]}; last heard {heard}"
        )

    def command(
        self, kind: str, cid: str | None = None, version: int | None = None, **fields: Any
    ) -> dict[str, Any]:
        if version is None:
            version = self.latest["version"] if self.latest else 0
        payload = {"type": kind, "id": cid or uuid.uuid4().hex, "version": version, **fields}
        ack: dict[str, Any] = self.sio.call("command", payload, timeout=10)
        if ack and ack.get("ok"):
            # the update for this version is on its way; wait so the next decision sees it
            self.wait(lambda v: v["version"] >= ack["version"])
        return ack

    def join(self, name: str, colour: str = "") -> dict[str, Any]:
        ack = self.command("join", name=name, colour=colour)
        if ack["ok"]:
            self.token, self.seat = ack["token"], ack["seat"]
            self.wait(lambda v: v["you"] is not None)
        return ack


class Refused(Exception):
    """The server refused a connection: its status line, or its ``connect_error``."""


class RawWebSocket:
    """An Engine.IO WebSocket over a bare TCP socket, as any program on the network could open one
    (simple-websocket's client leaves a message that comes with the handshake unread until the
    next one arrives). ``receive_buffer`` shrinks the socket's receive buffer: a screen that stops
    reading then fills the server's side quickly."""

    def __init__(
        self,
        port: int,
        receive_buffer: int | None = None,
        timeout: float = 60,
        source: str | None = None,
    ) -> None:
        self.sock = socket.socket()
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)  # bounds a stuck server only
        if source is not None:  # another device on the Wi-Fi, as far as the server can tell
            self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            self.sock.close()
            raise Refused(head.split(b"\r\n", 1)[0].decode())
        self.write_lock = threading.Lock()

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        return data

    def _exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += self._recv()
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self) -> str:
        """The next text message (the server never fragments or compresses here: no deflate)."""
        first, second = self._exact(2)
        if first == 0x88:
            raise ConnectionError("the server closed the WebSocket")
        assert first == 0x81, f"not a whole text frame: {first:#x}"
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._exact(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._exact(8))
        return self._exact(size).decode()

    def send(self, text: str) -> None:
        """One masked text frame, as a client sends it."""
        payload = text.encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        size = len(payload)
        if size < 126:
            head = bytes((0x81, 0x80 | size))
        elif size < 65536:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
        with self.write_lock:
            self.sock.sendall(head + mask + masked)

    def join(self, auth: dict[str, Any]) -> RawWebSocket:
        """Join the table with ``auth`` (Socket.IO's connect) and wait for the snapshot; raise
        :class:`Refused` with the server's answer if it refuses."""
        assert self.receive().startswith("0")  # engine.io's open
        self.send("40" + json.dumps(auth))
        while True:
            message = self.receive()
            if message.startswith("44"):
                raise Refused(message)
            if message.startswith('42["snapshot"'):
                return self

    def closed_by_server(self, timeout: float = 30) -> bool:
        """Whether the server ends the connection within ``timeout`` (what it sends meanwhile
        is read and dropped)."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(65536):
                pass
        except TimeoutError:
            return False
        except OSError:
            pass
        return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def refusal_code(port: int, auth_json: str, source: str) -> str:
    """Connect with ``auth_json`` (the JSON text, as any program may send it) and return the
    code the server refuses it with ("" if it lets it in)."""
    ws = RawWebSocket(port, timeout=20, source=source)
    try:
        assert ws.receive().startswith("0")
        ws.send("40" + auth_json)
        while True:
            message = ws.receive()
            if message.startswith("44"):
                return str(json.loads(message[2:])["data"]["code"])
            if message.startswith('42["snapshot"'):
                return ""
    finally:
        ws.close()


def received(messages: list[tuple[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """Every whole message a client had, in order: snapshots and updates as sent, patches
    applied to the message before them; each with the text that came over the wire (the patch
    itself for a patch), to search for secrets. A patch that does not follow fails."""
    out: list[tuple[dict[str, Any], str]] = []
    latest: dict[str, Any] | None = None
    for event, body in messages:
        if event in ("snapshot", "update"):
            latest = body
        elif event == "patch":
            if latest is not None and body["seq"] <= latest["seq"]:
                continue
            assert latest is not None and body["base"] == latest["seq"], (
                "a gap in the patches",
                [
                    (e, b.get("seq"), b.get("base"))
                    for e, b in messages[max(0, len(out) - 4) : len(out) + 4]
                    if isinstance(b, dict)
                ],
                len(out),
            )
            latest = apply_patch(latest, body["ops"])
        else:
            continue
        out.append((latest, json.dumps(body)))
    return out


def apply_patch(doc: Any, ops: list[Any]) -> Any:
    """The message a patch's ops make of ``doc`` (server/static/patch.js in Python)."""
    for op in ops:
        path = op[0]
        doc = op[1] if not path else _set_in(doc, path, op)
    return doc


def _set_in(node: Any, path: list[Any], op: list[Any]) -> Any:
    copy = list(node) if isinstance(node, list) else dict(node)
    key = path[0]
    if len(path) > 1:
        copy[key] = _set_in(node[key], path[1:], op)
    elif len(op) == 1:
        del copy[key]
    elif isinstance(copy, list) and key == len(copy):
        copy.append(op[1])  # as in JavaScript, setting the index after the last one appends
    else:
        copy[key] = op[1]
    return copy


def replay_states(db: Path, game_id: int) -> list[Any]:
    """A stored game's state after each of its actions, rebuilt from its seed and log."""
    from longhall.server.games.registry import GAMES

    con = sqlite3.connect(db)
    try:
        game, config, seed = con.execute(
            "SELECT game, config, seed FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        actions = con.execute(
            "SELECT seat, action FROM game_actions WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
    finally:
        con.close()
    state = GAMES[game].new(json.loads(config), seed)
    states = [state.clone()]
    moves = [state.clone()]  # the states as the moves stand: a take-back returns to the one before
    for seat, action in actions:
        if seat is None and json.loads(action) == TAKEN_BACK:
            moves.pop()
            state = moves[-1].clone()
        else:
            state.apply(seat, json.loads(action))
            moves.append(state.clone())
        states.append(state.clone())
    return states


_runners: weakref.WeakKeyDictionary[Table, BotRunner] = weakref.WeakKeyDictionary()


def bot_move(table: Table) -> tuple[int, dict[str, Any]] | None:
    """The next move a bot of ``table`` wants to make now, thought under the table's lock (the
    bot runner thinks outside it): for a test that plays the bots' moves itself. Each table keeps
    its bots, as the runner does, so a bot's choices follow its own generator."""
    runner = _runners.get(table)
    if runner is None:
        runner = _runners[table] = BotRunner(table, 0)
    with table.lock:
        for turn in runner.turns(copy=False):
            action = turn.bot.choose(turn.state, turn.seat)
            if bot_may_play(table.spec, action):
                return turn.seat, action
        return None


def play_out(table: Table, moves: int | None = None) -> None:
    """Let the bots and the NEXT button play the running game: to its end, or ``moves`` moves."""
    while table.data.status == "playing" and (moves is None or moves > 0):
        move = bot_move(table)
        if move is None:
            ack = table.press_next(Identity("auto"))
        else:
            seat, action = move
            cid = f"drive-v{table.data.version:06d}"
            ack = table.submit(
                Identity("bot", seat),
                {"type": "act", "id": cid, "version": table.data.version, "action": action},
            )
        assert ack["ok"], ack
        moves = None if moves is None else moves - 1


def short_deck(data_dir: Path, rounds: int = 3) -> None:
    """Give the table in ``data_dir`` a material deck of its own (the data file a group may keep
    there, D1) so short that a whole game of Eketorp is ``rounds`` rounds (R7.4): a whole game,
    its end included, in a fraction of the time."""
    from longhall.server.games.eketorp import SPEC
    from longhall.server.games.eketorp.rules import REMOVED_CARDS
    from longhall.server.table.gamedata import load_data

    cards = load_data(SPEC)["material_cards"]["cards"][: REMOVED_CARDS + rounds]
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / SPEC.data[0].own).write_text(json.dumps({"cards": cards}))
