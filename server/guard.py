"""What one device on the table's Wi-Fi may cost the server: sessions, log lines, names.

Anyone on the Wi-Fi can reach the server without logging in, so every resource a stranger can
make it spend is bounded here, before Longhall's own rate limit (which needs a connection):

- Engine.IO sessions, per address and in all, and a session that does not join the table within a
  few seconds is closed (each session costs a thread for its first ping interval);
- what one connection can make the server log: unreadable messages are counted, not traced, and
  a connection that sends a few is closed;
- log lines: control characters are escaped (no forged lines), and a message repeated in a flood
  is summed up instead of written again and again;
- the ``Host`` header: only the names and addresses the server really serves (DNS rebinding).

The Pi's own kiosk browser (127.0.0.1 or ::1) is exempt from the per-address caps.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("longhall.guard")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

KIOSK_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})

SESSIONS_PER_ADDRESS = 8  # a phone holds one, two or three for a moment while it reconnects
SESSIONS_IN_ALL = 128  # six players, the table display, spectators, and their reconnections
JOIN_GRACE = 10.0  # seconds a silent new session has to join the table (a client takes ms)
REFUSED_GRACE = 60.0  # seconds a session that asked to join, and was refused, may stay
MALFORMED_LIMIT = 5  # unreadable messages a connection may send before it is closed


def is_kiosk(address: str) -> bool:
    """Whether a client address is the Pi's own browser (exempt from per-address caps)."""
    return address in KIOSK_ADDRESSES


# -- log lines ----------------------------------------------------------------------------------


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, 0x85)} | {
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def escape(text: str) -> str:
    """Text for one log line: control characters (a newline among them) written as escapes."""
    return text.translate(_CONTROL)


class OneLineFormatter(logging.Formatter):
    """Format a record's message on one line, whatever a client put into its arguments."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = escape(record.message)
        return super().formatMessage(record)


@dataclass
class _Repeats:
    tokens: float
    at: float
    dropped: int = 0


class FloodFilter(logging.Filter):
    """Let through a burst of one message, then one a minute at most, with a count of the rest.

    A message is its logger and its format string: ``unknown event %r from %s`` is one message,
    whatever the event and the sender. Without this, a client sending garbage as fast as it can
    fills the journal (and the SD card) with the same line.
    """

    def __init__(
        self,
        burst: int = 20,
        per_minute: float = 6.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self.lock = threading.Lock()
        self.seen: dict[tuple[str, str], _Repeats] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        with self.lock:
            repeats = self.seen.get(key)
            if repeats is None:
                if len(self.seen) > 1000:  # format strings are few; keep the table small anyway
                    self.seen.clear()
                repeats = self.seen[key] = _Repeats(float(self.burst), now)
            repeats.tokens = min(self.burst, repeats.tokens + (now - repeats.at) * self.rate)
            repeats.at = now
            if repeats.tokens < 1:
                repeats.dropped += 1
                return False
            repeats.tokens -= 1
            dropped, repeats.dropped = repeats.dropped, 0
        if dropped:
            record.msg = f"{record.msg} (and {dropped} more like it, not logged)"
        return True


def install_log_guard() -> None:
    """Put every handler of the server's logs behind the escaping and the flood filter."""
    flood = FloodFilter()
    for name in (None, "gunicorn.error"):
        for handler in logging.getLogger(name).handlers:
            if any(isinstance(f, FloodFilter) for f in handler.filters):
                continue  # guarded already
            old = handler.formatter
            handler.setFormatter(
                OneLineFormatter(old._fmt if old else None, old.datefmt if old else None)
            )
            handler.addFilter(flood)
    # engineio and socketio add a bare handler of their own: send their records through ours
    for name in ("engineio.server", "socketio.server"):
        logging.getLogger(name).handlers.clear()
    threading.excepthook = _thread_exception


_QUIET_ERRNOS = (errno.EBADF, errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN)


def _thread_exception(args: threading.ExceptHookArgs) -> None:
    """Log a thread's uncaught exception; a WebSocket writer's on a vanished socket quietly.

    Engine.IO's writer thread closes its WebSocket when the connection ends; when the phone is
    gone already, the reader thread may have closed the socket in between, and the close frame
    meets a closed file (EBADF). Nothing is lost: the connection was over.
    """
    exc = args.exc_value
    name = args.thread.name if args.thread is not None else "?"
    gone = isinstance(exc, OSError) and (exc.errno in _QUIET_ERRNOS or exc.errno is None)
    if gone or type(exc).__name__ == "ConnectionClosed":
        log.debug("thread %s: the connection was gone already (%r)", name, exc)
        return
    if args.exc_type is SystemExit:
        return
    log.error(
        "uncaught error in thread %s",
        name,
        exc_info=(args.exc_type, exc, args.exc_traceback),  # type: ignore[arg-type]
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


# -- the Host header ----------------------------------------------------------------------------


class HostCheck:
    """Answer ``421`` to a request for a name this server does not serve.

    A page from elsewhere whose name is made to point at the Pi (DNS rebinding) is same-origin
    with itself, so the Origin check passes; its Host header still carries the foreign name.
    An IP address as the host is always fine: a browser sends it only to that very address. The
    Pi's name on its own hotspot (``NAME.lan``, from the hotspot's DNS) is served too, and the
    phones' connectivity-check names get their fixed answers and nothing else (``probes``).
    """

    def __init__(
        self,
        app: WSGIApp,
        public_url: str | None = None,
        probes: tuple[Iterable[str], Iterable[str]] = ((), ()),
    ) -> None:
        self.app = app
        # a phone's connectivity check asks a name of its maker's (the hotspot's DNS sends it
        # here): those names get those fixed answers, and nothing else of the server
        self.probe_names = frozenset(probes[0])
        self.probe_paths = frozenset(probes[1])
        names = {"localhost"}
        hostname = socket.gethostname().lower().rstrip(".")
        if hostname:
            short = hostname.split(".")[0]
            names |= {hostname, f"{hostname}.local", f"{short}.local", f"{short}.lan"}
        if public_url:
            names.add((urlsplit(public_url).hostname or "").lower().rstrip("."))
        names.discard("")
        self.names = frozenset(names)

    def allowed(self, host: str) -> bool:
        if not host:
            return True  # HTTP/1.0 without a Host: not a browser
        try:
            name = urlsplit(f"//{host}").hostname or ""
        except ValueError:
            return False
        name = name.lower().rstrip(".")
        if name in self.names:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def probe(self, host: str, environ: dict[str, Any]) -> bool:
        """Whether a request is a connectivity check, for one of the names those ask."""
        name = host.rpartition(":")[0] if host.rpartition(":")[2].isdigit() else host
        return (
            name.lower().rstrip(".") in self.probe_names
            and environ.get("REQUEST_METHOD") in ("GET", "HEAD")
            and environ.get("PATH_INFO") in self.probe_paths
        )

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        host = str(environ.get("HTTP_HOST", ""))
        if self.allowed(host) or self.probe(host, environ):
            return self.app(environ, start_response)
        log.warning("refused a request for the name %s", escape(host[:80]))
        body = b"This server does not serve that name.\n"
        start_response(
            "421 Misdirected Request",
            [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))),
                ("Connection", "close"),
            ],
        )
        return [body]


# -- Engine.IO sessions and unreadable messages -------------------------------------------------


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
