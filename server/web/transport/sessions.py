"""Engine.IO sessions a stranger can open, and what their unreadable messages can cost.

Anyone on the Wi-Fi can open sessions without joining the table: each costs a thread for its
first ping interval. :class:`SessionGuard` caps them per address and in all (the Pi's own kiosk,
127.0.0.1 or ::1, is exempt from the per-address cap), closes a session that does not join the
table within a few seconds, and closes a connection that keeps sending messages python-socketio
cannot read, with one log line for the lot. It wraps python-engineio's handlers
(``eio.handlers``) and closes its sockets, which is why it lives with the rest of the transport.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..limits import is_kiosk

log = logging.getLogger(__name__)

SESSIONS_PER_ADDRESS = 8  # a phone holds one, two or three for a moment while it reconnects
SESSIONS_IN_ALL = 128  # six players, the table display, spectators, and their reconnections
JOIN_GRACE = 10.0  # seconds a silent new session has to join the table (a client takes ms)
REFUSED_GRACE = 60.0  # seconds a session that asked to join, and was refused, may stay
MALFORMED_LIMIT = 5  # unreadable messages a connection may send before it is closed


@dataclass
class _Session:
    address: str
    since: float
    malformed: int = 0
    spoke: bool = False  # sent a message: its join may be under way, or refused


class SessionGuard:
    """Bound the Engine.IO sessions a stranger can open, and what their messages can cost.

    It wraps python-socketio's three Engine.IO handlers. A handshake beyond the caps is refused
    in the ``connect`` handler, before Engine.IO starts the session's ping thread; a session that
    has said nothing ``JOIN_GRACE`` seconds after its handshake is closed, and one that asked to
    join and was refused, ``REFUSED_GRACE`` seconds after (a phone may ask again); a message
    python-socketio cannot read is counted, and after ``MALFORMED_LIMIT`` of them the connection
    is closed, with one log line for the lot.
    """

    def __init__(
        self,
        sio: Any,
        per_address: int = SESSIONS_PER_ADDRESS,
        in_all: int = SESSIONS_IN_ALL,
        grace: float = JOIN_GRACE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sio = sio
        self.eio = sio.eio
        self.per_address = per_address
        self.in_all = in_all
        self.grace = grace
        self.clock = clock
        self.lock = threading.Lock()
        self.sessions: dict[str, _Session] = {}
        self.by_address: dict[str, int] = {}
        self.refused = 0
        self.warned: dict[str, float] = {}
        self._reaper: threading.Thread | None = None
        self._stop = threading.Event()
        handlers = self.eio.handlers
        self._connect = handlers["connect"]
        self._message = handlers["message"]
        self._disconnect = handlers["disconnect"]
        self.eio.on("connect", self.on_connect)
        self.eio.on("message", self.on_message)
        self.eio.on("disconnect", self.on_disconnect)

    def stop(self) -> None:
        self._stop.set()

    # Engine.IO's handlers ----------------------------------------------------------------------

    def on_connect(self, eio_sid: str, environ: dict[str, Any]) -> Any:
        address = str(environ.get("REMOTE_ADDR", ""))
        with self.lock:
            mine = self.by_address.get(address, 0)
            if len(self.sessions) >= self.in_all or (
                mine >= self.per_address and not is_kiosk(address)
            ):
                self.refused += 1
                self._warn(address, mine)
                return False  # Engine.IO answers 401 and forgets the session
            self.sessions[eio_sid] = _Session(address, self.clock())
            self.by_address[address] = mine + 1
            self._start_reaper()
        try:
            return self._connect(eio_sid, environ)
        except BaseException:
            self._forget(eio_sid)
            raise

    def on_message(self, eio_sid: str, data: Any) -> Any:
        session = self.sessions.get(eio_sid)
        if session is not None:
            session.spoke = True
        try:
            return self._message(eio_sid, data)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as err:
            # python-socketio could not read it: a broken or hostile client, not a server bug
            self.malformed(eio_sid, type(err).__name__)
            return None

    def on_disconnect(self, eio_sid: str, *args: Any) -> Any:
        session = self._forget(eio_sid)
        if session is not None and session.malformed > MALFORMED_LIMIT:
            log.warning(
                "closed a connection from %s after %d unreadable messages",
                session.address,
                session.malformed,
            )
        return self._disconnect(eio_sid, *args)

    # unreadable messages -----------------------------------------------------------------------

    def unreadable(self, sid: str) -> None:
        """Count an unreadable event of a Socket.IO connection (``sid``: its Socket.IO id)."""
        eio_sid = self.sio.manager.eio_sid_from_sid(sid, "/")
        if eio_sid is not None:
            self.malformed(eio_sid, "unreadable event")

    def malformed(self, eio_sid: str, what: str) -> None:
        with self.lock:
            session = self.sessions.get(eio_sid)
            if session is None:
                return
            session.malformed += 1
            count, address = session.malformed, session.address
        if count == 1:
            log.warning("an unreadable message (%s) from %s", what, address)
        if count == MALFORMED_LIMIT + 1:
            self._close(eio_sid)

    # sessions ----------------------------------------------------------------------------------

    def _forget(self, eio_sid: str) -> _Session | None:
        with self.lock:
            session = self.sessions.pop(eio_sid, None)
            if session is not None:
                left = self.by_address.get(session.address, 1) - 1
                if left > 0:
                    self.by_address[session.address] = left
                else:
                    self.by_address.pop(session.address, None)
            return session

    def _close(self, eio_sid: str) -> None:
        socket = self.eio.sockets.get(eio_sid)
        if socket is None:
            self._forget(eio_sid)
            return
        try:  # without waiting for a poll that may never come
            socket.close(wait=False, reason=self.eio.reason.SERVER_DISCONNECT)
        except Exception:
            log.debug("closing session %s failed", eio_sid, exc_info=True)
        self.eio.sockets.pop(eio_sid, None)
        self._forget(eio_sid)

    def _start_reaper(self) -> None:
        if self._reaper is None or not self._reaper.is_alive():
            self._reaper = threading.Thread(target=self._reap, name="session-reaper", daemon=True)
            self._reaper.start()

    def _reap(self) -> None:
        """Close sessions that did not join the table in time, while there are any to watch."""
        idle = 0
        while not self._stop.wait(1.0):
            now = self.clock()
            with self.lock:
                late = [
                    sid
                    for sid, session in self.sessions.items()
                    if now - session.since > (REFUSED_GRACE if session.spoke else self.grace)
                    and self.sio.manager.sid_from_eio_sid(sid, "/") is None
                ]
                idle = 0 if self.sessions else idle + 1
            for sid in late:
                self._close(sid)
            if late:
                release_memory()
            if idle >= 10:  # nothing to watch for 10 s: a new session starts the reaper again
                with self.lock:
                    if not self.sessions:
                        self._reaper = None
                        return

    def _warn(self, address: str, mine: int) -> None:
        now = self.clock()
        if now - self.warned.get(address, -60.0) >= 60.0:
            self.warned[address] = now
            log.warning(
                "too many sessions (%d in all, %d from %s): refusing more",
                len(self.sessions),
                mine,
                address,
            )


def release_memory() -> None:
    """Give freed heap memory back to the system (glibc keeps it otherwise)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_libc() -> Any:
    try:
        name = ctypes.util.find_library("c")
        libc = ctypes.CDLL(name) if name else None
        return libc if libc is not None and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


_LIBC = _load_libc()
