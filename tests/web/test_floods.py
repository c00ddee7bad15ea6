"""Floods from devices on the table's Wi-Fi, against a real ``longhall serve``: none of them
locks the table's own people out, what they cost is bounded, and the memory comes back.

A "device on the Wi-Fi" is a client address of 127.0.0.0/8 other than 127.0.0.1, which is the
Pi's own kiosk browser. Each flood lasts a few seconds; nothing is timed: the figures are the
server's threads and memory (read from /proc), and whether a seated phone and the kiosk get in.
"""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from ..support import Phone, RawWebSocket, Refused, ServerProcess

pytestmark = pytest.mark.slow

FLOOD_SECONDS = 3.0
# The most threads a flood may leave the server with: gunicorn's 64, engine.io's writer of each
# open WebSocket (at most the 56 transports), and the server's own few (sender, pinger, reaper,
# checkpointer, engine.io's round of every session...). Before, each handshake left a thread
# sleeping for a ping interval: thousands.
MOST_THREADS = 64 + 56 + 12
MOST_MORE_MEMORY = 40  # MB over the server's own before the flood, at its peak
MEMORY_BACK = 10  # MB over the server's own before the flood, a minute after it at the latest
PHONE_ADDRESS = "127.0.0.60"  # the seated phone's
AddressOf = Callable[[int, int], str]  # a flood's worker and its count so far -> its address


def threads_and_memory(pid: int) -> tuple[int, int]:
    """The process's threads and its resident memory in MB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["Threads"]), int(fields["VmRSS"].split()[0]) // 1024


class Peaks:
    """The most threads and memory a process had while this samples it (every 50 ms)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.threads = self.memory = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Peaks:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        self.thread.join()

    def _run(self) -> None:
        while not self.done.wait(0.05):
            threads, memory = threads_and_memory(self.pid)
            self.threads, self.memory = max(self.threads, threads), max(self.memory, memory)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path)
    srv.start()
    yield srv
    srv.stop()


def pid_of(server: ServerProcess) -> int:
    assert server.proc is not None
    return server.proc.pid


def seated_token(server: ServerProcess) -> tuple[str, str]:
    """The table's code, and the token of a player who joined (from the kiosk's address)."""
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    phone = Phone(server.url, {"code": code}, "anna").connect()
    assert phone.join("Anna")["ok"]
    assert phone.token is not None
    phone.disconnect()
    return code, phone.token


def the_table_is_reachable(server: ServerProcess, token: str) -> None:
    """A seated phone (from its own address) and the kiosk (127.0.0.1) connect, and the pages
    and /healthz answer: each on its first try."""
    phone = RawWebSocket(server.port, timeout=20, source=PHONE_ADDRESS).join({"token": token})
    try:
        Phone(server.url, {}, "kiosk").connect().disconnect()
    finally:
        phone.close()
    assert requests.get(server.url + "/healthz", timeout=20).json()["status"] == "ok"
    assert requests.get(server.url + "/", timeout=20).ok


def memory_comes_back(pid: int, before: int, within: float = 60.0) -> int:
    """Wait (at most ``within`` seconds) until the process's memory is back to within
    MEMORY_BACK MB of ``before``; return it."""
    deadline = time.monotonic() + within
    while True:
        memory = threads_and_memory(pid)[1]
        if memory <= before + MEMORY_BACK or time.monotonic() > deadline:
            return memory
        time.sleep(0.5)


def warmed_up(server: ServerProcess) -> int:
    """Every thread of the server's pool started once (as a night's phones and pages do), the
    server's memory then: what a flood is measured against."""
    held = [RawWebSocket(server.port, timeout=20) for _ in range(56)]
    for ws in held:
        ws.close()
    for _ in range(20):
        requests.get(server.url + "/healthz", timeout=20)
    return threads_and_memory(pid_of(server))[1]


def flood(
    work: Callable[[str], None],
    address_of: AddressOf,
    during: Callable[[], None],
    workers: int = 16,
) -> int:
    """Run ``work(address)`` again and again from ``workers`` threads (worker ``i``'s ``n``-th
    time from ``address_of(i, n)``) for FLOOD_SECONDS, and run ``during()`` once the flood has
    begun: the flood goes on until it is done. Return how many times ``work`` ran."""
    stop = time.monotonic() + FLOOD_SECONDS
    done = [0] * workers
    begun, over = threading.Event(), threading.Event()

    def run(index: int) -> None:
        while not over.is_set() or time.monotonic() < stop:
            with contextlib.suppress(OSError, Refused):
                work(address_of(index, done[index]))
                done[index] += 1
                begun.set()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    try:
        assert begun.wait(30), "no handshake got through"
        during()
    finally:
        over.set()
        for thread in threads:
            thread.join()
    return sum(done)


def handshake_and_close(port: int) -> Callable[[str], None]:
    def work(address: str) -> None:
        key = base64.b64encode(os.urandom(16)).decode()
        with socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=(address, 0)
        ) as sock:
            sock.sendall(
                f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            sock.recv(4096)  # the 101 (and engine.io's open), then closed at once

    return work


def from_one_and_from_many(worker: int, count: int) -> str:
    """Half the workers from one address (as the first attack), the other half each time from
    another of 500 addresses (as many devices would)."""
    if worker < 8:
        return "127.0.0.10"
    n = (worker - 8) + 8 * count
    return f"127.0.{4 + n // 250 % 2}.{1 + n % 250}"


def test_handshakes_closed_at_once_cost_bounded_threads_and_the_memory_comes_back(
    server: ServerProcess,
) -> None:
    """WebSocket handshakes closed as soon as they open, from one address and from hundreds:
    each left a thread sleeping for a ping interval (4,841 threads and 238 MB from one address in
    10 s, the memory never given back). The threads stay bounded, a seated phone and the kiosk
    get in during the flood and after it, and the memory comes back within a minute."""
    _, token = seated_token(server)
    pid = pid_of(server)
    before = warmed_up(server)
    with Peaks(pid) as peaks:
        handshakes = flood(
            handshake_and_close(server.port),
            from_one_and_from_many,
            lambda: the_table_is_reachable(server, token),
        )
    the_table_is_reachable(server, token)
    assert handshakes > 100  # a flood, however busy this machine
    assert peaks.threads <= MOST_THREADS, (handshakes, peaks.threads)
    assert peaks.memory <= before + MOST_MORE_MEMORY, (handshakes, before, peaks.memory)
    after = memory_comes_back(pid, before)
    assert after <= before + MEMORY_BACK, (handshakes, before, peaks.memory, after)


def test_connecting_and_leaving_again_and_again_gives_its_memory_back(
    server: ServerProcess,
) -> None:
    """Spectators that connect, get their snapshot and leave, 2,000 times: the memory comes
    back (2,000 such left 50 MB more for good)."""
    pid = pid_of(server)
    before = warmed_up(server)

    def cycles(count: int) -> None:
        for _ in range(count):
            RawWebSocket(server.port, timeout=20).join({}).close()

    with Peaks(pid) as peaks:
        threads = [threading.Thread(target=cycles, args=(500,)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert peaks.threads <= MOST_THREADS
    after = memory_comes_back(pid, before)
    assert after <= before + MEMORY_BACK, (before, peaks.memory, after)


def test_spectators_holding_every_transport_make_room_for_a_seated_phone_and_the_kiosk(
    server: ServerProcess,
) -> None:
    """Seven addresses, eight idle spectators each, hold all 56 transports: a reconnecting
    phone and the kiosk got 503 for as long as they were held. They are served first now, and
    the spectators idle longest are the ones turned away."""
    _, token = seated_token(server)
    spectators: list[RawWebSocket] = []
    try:
        for address in [f"127.0.1.{n}" for n in range(1, 8)]:
            for _ in range(8):
                spectators.append(RawWebSocket(server.port, source=address).join({}))
        # every transport is taken: one more spectator turns the one idle longest away ...
        active = spectators[0]
        active.send('421["snapshot"]')  # ... not this one: it just asked for something
        while not active.receive().startswith("431"):
            pass
        late = RawWebSocket(server.port, source="127.0.1.9").join({})
        assert spectators[1].closed_by_server()
        # the seated phone and the kiosk get in, each at the cost of the next idle spectators
        the_table_is_reachable(server, token)
        assert spectators[2].closed_by_server() and spectators[3].closed_by_server()
        late.close()
        assert "Traceback" not in server.log.read_text()
    finally:
        for ws in spectators:
            ws.close()


def slow_body(port: int, address: str) -> socket.socket:
    """An Engine.IO session whose next POST's body comes a few bytes at a time, and stops."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=10, source_address=(address, 0)
    ) as sock:
        sock.sendall(
            b"GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Connection: close\r\n\r\n"
        )
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    sid = answer.split(b'"sid":"', 1)[1].split(b'"', 1)[0].decode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    sock.sendall(
        f"POST /socket.io/?EIO=4&transport=polling&sid={sid} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: text/plain\r\nContent-Length: 1000\r\n\r\n40".encode()
    )
    return sock


def test_slow_bodies_take_no_transport_and_no_thread(server: ServerProcess) -> None:
    """Seven addresses, eight slow POST bodies each, held every transport as slow heads once
    did: bodies are read before a thread is spent, like heads."""
    _, token = seated_token(server)
    held: list[socket.socket] = []
    try:
        for address in [f"127.0.2.{n}" for n in range(1, 8)]:
            held += [slow_body(server.port, address) for _ in range(8)]
        the_table_is_reachable(server, token)
    finally:
        for sock in held:
            sock.close()


def test_unfinished_heads_from_many_addresses_leave_room_for_everyone(
    server: ServerProcess,
) -> None:
    """24 addresses, 12 unfinished request heads each (more than the server takes in all):
    /healthz, the pages, phones and the kiosk got connection resets most of the time. The heads
    that waited longest are the ones closed: every real request is read."""
    _, token = seated_token(server)
    held: list[socket.socket] = []
    try:
        for address in [f"127.0.3.{n}" for n in range(1, 25)]:
            for _ in range(12):
                sock = socket.create_connection(
                    ("127.0.0.1", server.port), timeout=10, source_address=(address, 0)
                )
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
                held.append(sock)
        for _ in range(3):
            the_table_is_reachable(server, token)
    finally:
        for sock in held:
            sock.close()
