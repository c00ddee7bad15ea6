"""The server under a full table, over loopback: a real ``longhall serve`` and 27 real clients.

6 phones, 1 table display and 20 spectators play a whole scripted game of Eketorp (6 players, no
bots): each command is chosen from the acting phone's own view, and the next one is sent once
every client has the update. Measured: the time from a command to the moment the last of the 27
clients has the update (median and 99th percentile), the commands per second the server sustains
that way, the resident memory of the server after the game, and the time from starting
``longhall serve`` to the first healthy ``/healthz``.

The clients are lean on purpose: raw WebSockets speaking Engine.IO/Socket.IO on one thread with
select(), parsing a view only when a phone has to decide. On this 2-core machine the clients share
the CPU with the server; real phones bring their own.

Run: ``.venv/bin/python bench/serving.py`` (figures go to docs/performance.md). The test
environment holds packages the server does not need (``requests``, which python-socketio imports
when it is there); to measure the server as ``./run serve`` installs it, give it a venv of its own:

    python3 -m venv /tmp/served && /tmp/served/bin/pip install .
    LONGHALL_SERVER_PYTHON=/tmp/served/bin/python .venv/bin/python bench/serving.py
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import re
import selectors
import socket
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from server.games.api import progress_actions
from tests.support import Phone, ServerProcess

VERSION = re.compile(rb'"version":\s*(\d+)')


def _frame(text: str) -> bytes:
    """A masked client text frame."""
    data = text.encode()
    mask = os.urandom(4)
    if len(data) < 126:
        head = bytes([0x81, 0x80 | len(data)])
    else:
        head = bytes([0x81, 0x80 | 126]) + len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


class Screen:
    """One raw Socket.IO connection: notes when each version arrived, keeps the newest update."""

    def __init__(self, host: str, port: int, auth: dict[str, Any]) -> None:
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            buffer += self.sock.recv(4096)
        self.buffer = buffer.split(b"\r\n\r\n", 1)[1]
        self.sock.sendall(_frame("40" + json.dumps(auth)))
        self.sock.setblocking(False)
        self.arrived: dict[int, int] = {}
        self.latest = b""
        self.acks: dict[int, Any] = {}

    def read(self) -> None:
        try:
            chunk = self.sock.recv(1 << 17)
        except BlockingIOError:
            return
        now = time.monotonic_ns()
        self.buffer += chunk
        while True:
            buf = self.buffer
            if len(buf) < 2:
                return
            size, start = buf[1] & 0x7F, 2
            if size == 126:
                size, start = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                size, start = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < start + size:
                return
            payload, self.buffer = buf[start : start + size], buf[start + size :]
            if payload == b"2":
                self.sock.sendall(_frame("3"))  # Engine.IO pong
            elif payload.startswith(b"42"):
                match = VERSION.search(payload[:200])
                if match:
                    self.arrived.setdefault(int(match.group(1)), now)
                    self.latest = payload
            elif payload.startswith(b"43"):  # an acknowledgement: 43<id>[answer]
                head = payload[2:].split(b"[", 1)[0]
                self.acks[int(head)] = json.loads(payload[2 + len(head) :])[0]

    def view(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.latest[2:])[1]
        return body


def seat_everyone(server: ServerProcess) -> list[str]:
    """Six players join through the normal lobby (full clients); return their tokens."""
    lobby = Phone(server.url).connect()
    code = lobby.latest["table"]["code"]  # type: ignore[index]
    lobby.disconnect()
    tokens, phones = [], []
    for i in range(6):
        phone = Phone(server.url, {"code": code}, name=f"P{i}").connect()
        assert phone.join(f"P{i}")["ok"]
        tokens.append(phone.token)
        phones.append(phone)
    for phone in phones:
        phone.disconnect()
    return tokens  # type: ignore[return-value]


def run(spectators: int, seed: int) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="longhall-bench-"))
    server = ServerProcess(data, "--bot-delay", "0", "--rate-limit", "100000", "--seed", str(seed))
    startup = server.start()
    try:
        tokens = seat_everyone(server)
        port = server.port
        phones = [Screen("127.0.0.1", port, {"token": token}) for token in tokens]
        screens = phones + [Screen("127.0.0.1", port, {}) for _ in range(1 + spectators)]
        selector = selectors.DefaultSelector()
        for screen in screens:
            selector.register(screen.sock, selectors.EVENT_READ, screen)

        def pump(until: Any, timeout: float = 10.0) -> None:
            deadline = time.monotonic() + timeout
            while not until():
                if time.monotonic() > deadline:
                    raise TimeoutError("the server did not answer")
                for key, _ in selector.select(timeout=0.05):
                    key.data.read()

        pump(lambda: all(s.arrived for s in screens))
        rnd = random.Random(seed)
        counter = iter(range(1, 1 << 30))

        def send(phone: Screen, kind: str, fields: dict[str, Any], version: int) -> int:
            ack_id = next(counter)
            body = {"type": kind, "id": uuid.uuid4().hex, "version": version, **fields}
            phone.sock.sendall(_frame(f"42{ack_id}" + json.dumps(["command", body])))
            return ack_id

        host = phones[0]
        pump(lambda: bool(host.latest))
        ack_id = send(host, "start", {}, host.view()["version"])
        pump(lambda: ack_id in host.acks)
        version = host.acks[ack_id]["version"]
        sent: dict[int, int] = {}
        started = time.perf_counter()
        while True:
            pump(lambda v=version: all(v in s.arrived for s in screens))
            views = [p.view() for p in phones]
            if views[0]["table"]["status"] != "playing":
                break
            chosen = None
            for seat, view in enumerate(views):
                if seat in view["game"]["public"]["active"]:
                    legal = progress_actions(view["game"]["legal"])
                    if legal:
                        chosen = (seat, "act", {"action": rnd.choice(legal)})
                        break
            if chosen is None:
                table_action = views[0]["game"]["public"]["table_actions"][0]
                chosen = (0, "table", {"action": {"type": table_action}})
            seat, kind, fields = chosen
            t0 = time.monotonic_ns()
            ack_id = send(phones[seat], kind, fields, views[seat]["version"])
            pump(lambda s=seat, a=ack_id: a in phones[s].acks)
            answer = phones[seat].acks[ack_id]
            assert answer["ok"], answer
            version = answer["version"]
            sent[version] = t0
        elapsed = time.perf_counter() - started
        pids = server.pids()
        memory = {pid: rss_kb(pid) for pid in pids}
        for screen in screens:
            screen.sock.close()
        latencies = sorted(
            (max(s.arrived[v] for s in screens) - t0) / 1e9 for v, t0 in sent.items()
        )
        return {
            "clients": len(screens),
            "commands": len(sent),
            "latency_ms_median": round(statistics.median(latencies) * 1000, 2),
            "latency_ms_p99": round(latencies[int(len(latencies) * 0.99)] * 1000, 2),
            "commands_per_second": round(len(sent) / elapsed, 1),
            "rss_mb": {str(pid): round(kb / 1024, 1) for pid, kb in memory.items()},
            "startup_seconds": round(startup, 2),
        }
    finally:
        server.stop()


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {"machine": machine(), **run(args.spectators, args.seed)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"machine: {result['machine']}")
    print(
        f"{result['clients']} clients (6 phones, 1 table display, {args.spectators} spectators),"
        f" {result['commands']} commands in a whole 6-player game"
    )
    print(
        f"command -> last client's update: median {result['latency_ms_median']} ms,"
        f" p99 {result['latency_ms_p99']} ms"
    )
    print(f"sustained: {result['commands_per_second']} commands/s (each sent to all 27 clients)")
    rss = result["rss_mb"]
    print(f"resident memory after the game: {sum(rss.values()):.1f} MB in {len(rss)} process(es)")
    print(f"longhall serve -> healthy /healthz: {result['startup_seconds']} s")


if __name__ == "__main__":
    main()
