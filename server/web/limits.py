"""A cap on open Socket.IO transports, so that idle connections cannot take every thread, and the
table's own people are served first when they are all taken.

In threading mode each WebSocket holds one of the server's threads for as long as it is open,
and each long poll for as long as it waits. Without a cap, anyone on the network could open a
few dozen idle WebSockets and leave no thread for the pages, ``/healthz`` or a new phone. This
WSGI middleware counts the transports in flight, in all and per client address, and answers
``503`` with ``Retry-After`` beyond the caps; the browser's Socket.IO client simply retries.

Who a transport belongs to is known only once its Socket.IO ``connect`` is accepted (a phone's
seat token comes inside the connection), so a new transport is let in whoever it is; when every
transport is taken, one that does not belong to the table's own people is closed to make room
(:class:`Standing`): first one that has not joined the table for a while, then the spectator or
guest idle longest, then the newest arrival. A seated phone and the Pi's own kiosk browser
(127.0.0.1 or ::1, also exempt from the per-address cap) are never the ones closed.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

log = logging.getLogger(__name__)

KIOSK_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

SPARE_THREADS = 8  # kept free of Socket.IO for the pages, /healthz and the QR codes
PER_ADDRESS = 10  # a phone needs one WebSocket (two for a moment while it reconnects)
LEAVING_MOST = 4  # transports being closed to make room at once (each still holds its thread)
LOG_EVERY = 60.0  # seconds between two warnings about the same address
TRANSPORT = "longhall.transport"  # a request's :class:`Transport`, in its WSGI environ


def is_kiosk(address: str) -> bool:
    """Whether a client address is the Pi's own browser (exempt from per-address caps)."""
    return address in KIOSK_ADDRESSES


class Transport:
    """One Socket.IO transport in flight: a WebSocket, or a polling request.

    It rides in the request's WSGI environ (:data:`TRANSPORT`; Flask-SocketIO hands engine.io a
    copy of the environ, which holds the same object), so that whoever opens an Engine.IO
    session for it notes the session here.
    """

    __slots__ = ("address", "environ", "leaving", "opened", "session")

    def __init__(self, address: str, environ: dict[str, Any], opened: float) -> None:
        self.address = address
        self.environ = environ
        self.opened = opened
        self.session: str | None = None  # the Engine.IO session it opened, if any
        self.leaving = False  # closed to make room, its thread not free yet


class Standing(Protocol):
    """Who a transport belongs to, and how to close it (the transport's sessions know)."""

    def standing(self, transport: Transport) -> tuple[int, float] | None:
        """``None`` for one of the table's own people (never closed to make room), else where
        it stands in the order in which transports are closed (the lowest first)."""
        ...

    def evict(self, transport: Transport) -> None:
        """Close the transport (its thread then comes free)."""
        ...


class ConnectionLimit:
    def __init__(
        self,
        app: WSGIApp,
        total: int,
        per_address: int = PER_ADDRESS,
        standing: Standing | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.total = total
        self.per_address = per_address
        self.standing = standing
        self.clock = clock
        self.lock = threading.Lock()
        self.open = 0
        self.leaving = 0  # closed to make room, their threads not free yet
        self.by_address: dict[str, int] = {}
        self.transports: dict[int, Transport] = {}  # in flight, by id
        self.evicted = 0  # transports closed to make room
        self.warned: dict[str, float] = {}

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not environ.get("PATH_INFO", "").startswith("/socket.io"):
            return self.app(environ, start_response)
        address = str(environ.get("REMOTE_ADDR", ""))
        kiosk = is_kiosk(address)
        victim = None
        with self.lock:
            mine = self.by_address.get(address, 0)
            refuse = mine >= self.per_address and not kiosk
            if not refuse and self.open - self.leaving >= self.total:
                victim = self._victim()
                refuse = victim is None
                if victim is not None:
                    victim.leaving = True
                    self.leaving += 1
                    self.evicted += 1
            if refuse:
                self._warn(address)
                return self._refuse(start_response)
            self.open += 1
            self.by_address[address] = mine + 1
            transport = environ[TRANSPORT] = Transport(address, environ, self.clock())
            self.transports[id(transport)] = transport
        if victim is not None:
            self._evict(victim)
        try:
            # A WebSocket is served inside this call, for as long as it is open; a poll is
            # answered inside it too: when it returns, the thread is free again.
            return self.app(environ, start_response)
        finally:
            with self.lock:
                del self.transports[id(transport)]
                self.open -= 1
                if transport.leaving:
                    self.leaving -= 1
                left = self.by_address[address] - 1
                if left:
                    self.by_address[address] = left
                else:
                    del self.by_address[address]

    def _victim(self) -> Transport | None:
        """The transport to close to make room (hold the lock), as :class:`Standing` ranks
        them; never a seated phone's or the kiosk's."""
        if self.standing is None or self.leaving >= LEAVING_MOST:
            return None
        best: tuple[int, float] | None = None
        victim = None
        for transport in self.transports.values():
            if transport.leaving or is_kiosk(transport.address):
                continue
            rank = self.standing.standing(transport)
            if rank is not None and (best is None or rank < best):
                best, victim = rank, transport
        return victim

    def _evict(self, transport: Transport) -> None:
        assert self.standing is not None
        log.warning("every connection is taken: closing one from %s", transport.address)
        try:
            self.standing.evict(transport)
        except Exception:
            log.exception("could not close a connection from %s", transport.address)

    def _warn(self, address: str) -> None:
        now = self.clock()
        if now - self.warned.get(address, -LOG_EVERY) >= LOG_EVERY:
            if len(self.warned) > 1000:
                self.warned.clear()
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
