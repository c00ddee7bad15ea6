"""Engine.IO's heartbeat for every session from one thread, on the monotonic clock.

python-engineio starts a thread per session that sleeps a whole ping interval (10 s) before its
first ping, whether the session lives that long or not: a device that opened WebSocket
handshakes and closed them at once left thousands of sleeping threads behind (4,841 and 238 MB
from one address in 10 s), and a 32-bit Pi ran out of address space. It also times the answer on
the wall clock: set back an hour (NTP correcting a Pi that booted with a wrong time), a phone
gone silent stayed "online" for over a minute.

:class:`Pinger` takes over each session's ``schedule_ping`` and ``check_ping_timeout`` when it
is accepted (:meth:`adopt`): one thread pings every session when its interval is up, a closed
session costs an entry in a heap until then, and ``last_ping`` is read on
:func:`time.monotonic`. engine.io reads ``last_ping`` nowhere else; the sender's own check of a
room's sockets (:mod:`.sender`) uses the same clock.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from engineio import packet as engineio_packet
from engineio.exceptions import SocketIsClosedError

log = logging.getLogger(__name__)

Clock = Callable[[], float]
CLOCK: Clock = time.monotonic  # the clock of every ``last_ping`` (the sender reads it too)


class Pinger:
    """One thread that pings every Engine.IO session of ``eio`` when its interval is up."""

    def __init__(self, eio: Any, clock: Clock = CLOCK) -> None:
        self.eio = eio
        self.clock = clock
        self.cond = threading.Condition(threading.Lock())
        self.due: list[tuple[float, int, str]] = []  # (when, order, session id): a heap
        self.order = itertools.count()
        self.thread: threading.Thread | None = None
        self.stopping = False

    def adopt(self, eio_socket: Any) -> None:
        """Take over a new session's heartbeat (before engine.io schedules its first ping)."""
        eio_socket.last_ping = self.clock()  # truthy: the first ping may be scheduled
        eio_socket.schedule_ping = lambda: self.schedule(eio_socket)
        eio_socket.check_ping_timeout = lambda: self.check(eio_socket)

    def schedule(self, eio_socket: Any) -> None:
        """engine.io's ``Socket.schedule_ping``: at the start, and when a pong comes."""
        if not eio_socket.last_ping:  # a ping is on its way already (a second pong)
            return
        eio_socket.last_ping = None
        when = self.clock() + self.eio.ping_interval
        with self.cond:
            heapq.heappush(self.due, (when, next(self.order), eio_socket.sid))
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="pinger", daemon=True)
                self.thread.start()
            elif self.due[0][2] == eio_socket.sid:
                self.cond.notify()

    def check(self, eio_socket: Any) -> bool:
        """engine.io's ``Socket.check_ping_timeout``, on this pinger's clock: False (and the
        session closed) once the client has left a ping unanswered too long."""
        if eio_socket.closed:
            raise SocketIsClosedError()
        last_ping = eio_socket.last_ping
        if last_ping and self.clock() - last_ping > self.eio.ping_timeout:
            # a close packet is written: a half-open client is told, as engine.io does
            eio_socket.close(wait=False, abort=False, reason=self.eio.reason.PING_TIMEOUT)
            return False
        return True

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify()

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.stopping:
                    wait = self.due[0][0] - self.clock() if self.due else None
                    if wait is not None and wait <= 0:
                        break
                    self.cond.wait(wait)
                if self.stopping:
                    return
                _, _, sid = heapq.heappop(self.due)
            eio_socket = self.eio.sockets.get(sid)
            if eio_socket is None or eio_socket.closing or eio_socket.closed:
                continue  # gone meanwhile: it cost an entry in the heap, not a thread
            try:
                eio_socket.last_ping = self.clock()
                eio_socket.send(engineio_packet.Packet(engineio_packet.PING))
            except Exception:  # a socket closing under us: its own thread cleans up
                log.debug("could not ping %s", sid, exc_info=True)
