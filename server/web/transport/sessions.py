"""Engine.IO sessions a stranger can open, and what their unreadable messages can cost.

Anyone on the Wi-Fi can open sessions without joining the table. :class:`SessionGuard` caps them
per address and in all (the Pi's own kiosk, 127.0.0.1 or ::1, is exempt from the per-address
cap), closes a session that does not join the table within a few seconds, and closes a
connection that keeps sending messages python-socketio cannot read, with one log line for the
lot. It also knows which sessions belong to the table's own people (a seated phone, the kiosk)
and how long the others have been idle: the connection cap (:mod:`..limits`) asks it which
transport to close when every one is taken. It wraps python-engineio's handlers
(``eio.handlers``) and closes its sockets, which is why it lives with the rest of the transport.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from ..limits import TRANSPORT, Transport, is_kiosk

log = logging.getLogger(__name__)

SESSIONS_PER_ADDRESS = 8  # a phone holds one, two or three for a moment while it reconnects
SESSIONS_IN_ALL = 128  # six players, the table display, spectators, and their reconnections
JOIN_GRACE = 10.0  # seconds a silent new session has to join the table (a client takes ms)
REFUSED_GRACE = 60.0  # seconds a session that asked to join, and was refused, may stay
MALFORMED_LIMIT = 5  # unreadable messages a connection may send before it is closed
JOINING = 2.0  # seconds a new session may take to join the table (a client takes milliseconds)
# The order in which transports are closed to make room when every one is taken (lowest first):
STRAY = 0  # a session that has not joined the table for JOINING seconds, the oldest first
IDLE = 1  # a spectator or a guest, the one idle longest first
JOINING_NOW = 2  # a session just opened, the oldest first


@dataclass
class _Session:
    address: str
    since: float
    malformed: int = 0
    spoke: bool = False  # sent a message: its join may be under way, or refused
    last: float = 0.0  # when it last sent a message (a pong is not one)
    joined: bool = False  # its Socket.IO connect was accepted
    people: bool = False  # ... as a seated phone or the kiosk


class SessionGuard:
    """Bound the Engine.IO sessions a stranger can open, and what their messages can cost.

    It wraps python-socketio's three Engine.IO handlers. A handshake beyond the cap per address
    is refused in the ``connect`` handler; one beyond the cap in all closes the session that has
    waited longest without joining the table (refused only if every session has joined); a
    session that has said nothing ``JOIN_GRACE`` seconds after its handshake is closed, and one
    that asked to join and was refused, ``REFUSED_GRACE`` seconds after (a phone may ask again);
    a message python-socketio cannot read is counted, and after ``MALFORMED_LIMIT`` of them the
    connection is closed, with one log line for the lot.
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
        oldest = None
        with self.lock:
            mine = self.by_address.get(address, 0)
            if len(self.sessions) >= self.in_all:
                # the session that has waited longest without joining the table makes room: a
                # phone's handshake is never turned away by a crowd of silent ones
                oldest = next(
                    (
                        sid
                        for sid, session in self.sessions.items()
                        if not session.joined and not is_kiosk(session.address)
                    ),
                    None,
                )
            if (mine >= self.per_address and not is_kiosk(address)) or (
                len(self.sessions) >= self.in_all and oldest is None
            ):
                self.refused += 1
                self._warn(address, mine)
                return False  # Engine.IO answers 401 and forgets the session
            now = self.clock()
            self.sessions[eio_sid] = _Session(address, now, last=now)
            self.by_address[address] = mine + 1
            self._start_reaper()
        if oldest is not None:
            self._close(oldest)
        transport = environ.get(TRANSPORT)
        if transport is not None:  # the connection cap's note of this request
            transport.session = eio_sid
        try:
            return self._connect(eio_sid, environ)
        except BaseException:
            self._forget(eio_sid)
            raise

    def on_message(self, eio_sid: str, data: Any) -> Any:
        session = self.sessions.get(eio_sid)
        if session is not None:
            session.spoke = True
            session.last = self.clock()
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

    # who is at the table ---------------------------------------------------------------------

    def joined(self, sid: str, people: bool) -> None:
        """A Socket.IO connection (``sid``) was let in: as one of the table's own people (a
        seated phone, the kiosk) or not (a spectator, a guest)."""
        eio_sid = self.sio.manager.eio_sid_from_sid(sid, "/")
        with self.lock:
            session = self.sessions.get(eio_sid) if eio_sid is not None else None
            if session is not None:
                session.joined, session.people = True, people

    def standing(self, transport: Transport) -> tuple[int, float] | None:
        """How a transport stands when every transport is taken (:class:`..limits.Standing`):
        a seated phone's or the kiosk's never goes (``None``); see :data:`STRAY`."""
        eio_sid = transport.session or _query_sid(transport.environ)
        with self.lock:
            session = self.sessions.get(eio_sid) if eio_sid else None
            since = transport.opened if session is None else session.since
            if session is not None and session.joined:
                return None if session.people else (IDLE, session.last)
        # a real client joins within moments of its handshake: one that has not for a while
        # goes first, one that has just come (a phone, maybe) last
        if self.clock() - since > JOINING:
            return STRAY, since
        return JOINING_NOW, since

    def evict(self, transport: Transport) -> None:
        """Close a transport to make room: its session, and its socket (a WebSocket's reading
        thread ends at once, without waiting for the client to answer a close)."""
        environ = transport.environ
        eio_sid = transport.session or _query_sid(environ)
        eio_socket = self.eio.sockets.get(eio_sid) if eio_sid else None
        if eio_socket is not None:
            with contextlib.suppress(Exception):
                eio_socket.close(wait=False, abort=True, reason=self.eio.reason.SERVER_DISCONNECT)
        raw = environ.get("gunicorn.socket")
        if raw is not None and environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            with contextlib.suppress(OSError):
                raw.shutdown(socket.SHUT_RDWR)

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


def _query_sid(environ: dict[str, Any]) -> str | None:
    """The Engine.IO session a request names (``?sid=``), if any."""
    query = environ.get("QUERY_STRING", "")
    if "sid=" not in query:
        return None
    found = parse_qs(query).get("sid")
    return str(found[0]) if found else None


def release_memory() -> None:
    """Give freed heap memory back to the system (glibc keeps it otherwise)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_libc() -> Any:
    """The C library, if it has ``malloc_trim`` (glibc), from the symbols this process already
    has: ``ctypes.util.find_library`` would run ``ldconfig`` in a child process at every start."""
    try:
        libc = ctypes.CDLL(None)
    except (OSError, TypeError):  # no dlopen(NULL): not a POSIX system
        return None
    return libc if hasattr(libc, "malloc_trim") else None


_LIBC = _load_libc()
