"""A cap on open Socket.IO transports, so that idle connections cannot take every thread.

In threading mode each WebSocket holds one of the server's threads for as long as it is open,
and each long poll for as long as it waits. Without a cap, anyone on the network could open a
few dozen idle WebSockets and leave no thread for the pages, ``/healthz`` or a new phone. This
WSGI middleware counts the transports in flight, in all and per client address, and answers
``503`` with ``Retry-After`` beyond the caps; the browser's Socket.IO client simply retries.

The per-address cap leaves 127.0.0.1 and ::1 alone: that is the Pi's own kiosk browser.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger(__name__)

KIOSK_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

SPARE_THREADS = 8  # kept free of Socket.IO for the pages, /healthz and the QR codes
PER_ADDRESS = 10  # a phone needs one WebSocket (two for a moment while it reconnects)
LOG_EVERY = 60.0  # seconds between two warnings about the same address


def is_kiosk(address: str) -> bool:
    """Whether a client address is the Pi's own browser (exempt from per-address caps)."""
    return address in KIOSK_ADDRESSES


class ConnectionLimit:
    def __init__(self, app: WSGIApp, total: int, per_address: int = PER_ADDRESS) -> None:
        self.app = app
        self.total = total
        self.per_address = per_address
        self.lock = threading.Lock()
        self.open = 0
        self.by_address: dict[str, int] = {}
        self.warned: dict[str, float] = {}

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not environ.get("PATH_INFO", "").startswith("/socket.io"):
            return self.app(environ, start_response)
        address = str(environ.get("REMOTE_ADDR", ""))
        with self.lock:
            mine = self.by_address.get(address, 0)
            if self.open >= self.total or (mine >= self.per_address and not is_kiosk(address)):
                self._warn(address)
                return self._refuse(start_response)
            self.open += 1
            self.by_address[address] = mine + 1
        try:
            # A WebSocket is served inside this call, for as long as it is open; a poll is
            # answered inside it too: when it returns, the thread is free again.
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.open -= 1
                left = self.by_address[address] - 1
                if left:
                    self.by_address[address] = left
                else:
                    del self.by_address[address]

    def _warn(self, address: str) -> None:
        now = time.monotonic()
        if now - self.warned.get(address, -LOG_EVERY) >= LOG_EVERY:
            self.warned[address] = now
            log.warning(
                "too many open connections (%d in all, %d from %s): refusing more",
                self.open,
                self.by_address.get(address, 0),
                address,
            )

    @staticmethod
    def _refuse(start_response: Callable[..., Any]) -> list[bytes]:
        body = json.dumps(
            {
                "code": "too_many_connections",
                "message": "The table has too many open connections; trying again shortly.",
            }
        ).encode()
        start_response(
            "503 Service Unavailable",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(body))),
                ("Retry-After", "5"),
            ],
        )
        return [body]
