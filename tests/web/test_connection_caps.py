"""The cap on open Socket.IO transports: idle connections cannot take every server thread."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any

import requests

from longhall.server.web.limits import ConnectionLimit

from ..support import ServerProcess


class Held:
    """A WSGI app that holds each Socket.IO request until released, like an open WebSocket."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Semaphore(0)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.entered.release()
        self.release.wait(10)
        start_response("200 OK", [])
        return [b"done"]


def request(limit: ConnectionLimit, address: str, path: str = "/socket.io/") -> str:
    status: list[str] = []
    limit({"PATH_INFO": path, "REMOTE_ADDR": address}, lambda s, h: status.append(s))
    return status[0]


def test_caps_per_address_and_in_all_and_frees_when_done() -> None:
    inner = Held()
    limit = ConnectionLimit(inner, total=5, per_address=2)
    threads = [
        threading.Thread(target=request, args=(limit, address))
        for address in ("192.168.1.7", "192.168.1.7", "127.0.0.1", "127.0.0.1", "127.0.0.1")
    ]
    for thread in threads[:3]:
        thread.start()
        assert inner.entered.acquire(timeout=5)
    assert request(limit, "192.168.1.7").startswith("503")  # a third from the same phone
    for thread in threads[3:]:  # loopback (the kiosk) has no per-address cap ...
        thread.start()
        assert inner.entered.acquire(timeout=5)
    assert request(limit, "192.168.1.8").startswith("503")  # ... but the total holds for all
    inner.release.set()
    for thread in threads:
        thread.join(5)
    assert limit.open == 0 and limit.by_address == {}
    assert request(limit, "192.168.1.7").startswith("200")  # freed again
    assert request(limit, "192.168.1.7", path="/healthz").startswith("200")  # pages: no cap


def test_a_crowd_of_idle_websockets_leaves_the_pages_and_healthz_working(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    opened: list[socket.socket] = []
    try:
        statuses = []
        for _ in range(66):  # more than the server has threads
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(
                b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            statuses.append(sock.recv(4096).split(b"\r\n", 1)[0])
            opened.append(sock)
        assert statuses.count(b"HTTP/1.1 101 Switching Protocols") == 56
        assert statuses[-1].startswith(b"HTTP/1.1 503")
        assert requests.get(server.url + "/healthz", timeout=5).json()["status"] == "ok"
        assert requests.get(server.url + "/", timeout=5).ok
    finally:
        for sock in opened:
            sock.close()
        server.stop()
