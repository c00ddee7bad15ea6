"""Gunicorn's threaded worker, reading each request (its head and its body) before a thread is
spent on it, and run in the server's own process without gunicorn's arbiter.

Gunicorn's ``gthread`` worker hands a connection to one of its threads as soon as the first bytes
of a request arrive, and the thread then reads the rest, blocking, for as long as the client
takes. 64 half-sent requests, one header line every few seconds, took every thread, and the
pages, ``/healthz`` and every new phone waited for as long as they were held (a "slowloris");
56 ``POST`` bodies sent a byte at a time held every Socket.IO transport the same way.

Here the worker's own event loop reads the request, without blocking, up to the blank line that
ends its head and then its body (of a stated length, or chunked, up to :data:`MAX_BODY`); only
then does a thread take the connection, with the bytes read so far handed to gunicorn's parser.
A request must be complete within ``REQUEST_SECONDS`` (else ``408`` and the connection closes),
and one address may hold only so many connections, and so many unfinished requests, at once.
When the server holds as many unfinished requests (or connections) as it takes in all, the one
that has waited longest is closed to make room: a request that arrives whole in a moment (every
real one) is always read, however many addresses hold slow ones. The Pi's own kiosk browser is
exempt from every cap and is never the one closed.

A table lives in one process (Socket.IO keeps every connection of a table in memory), so gunicorn
would only ever run one worker, and its arbiter, a second Python process on a Pi's small memory,
would only supervise it: :func:`run_alone` runs the worker in the server's own process instead, and
systemd (``Restart=always``) or the shell supervises it. Without an arbiter, the worker's heartbeat
file (touched every second, on the SD card's /tmp on a Pi) has no reader: it is not touched.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import selectors
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, NoReturn

from gunicorn import sock
from gunicorn.workers.gthread import TConn, ThreadWorker

from ..limits import is_kiosk

log = logging.getLogger(__name__)

REQUEST_SECONDS = 10.0  # to send a request (a phone on a weak signal needs well under 1 s)
REQUESTS_PER_ADDRESS = 12  # unfinished requests from one address (a browser opens 6 connections)
REQUESTS_IN_ALL = 256  # unfinished requests in all: beyond, the one waiting longest is closed
CONNECTIONS_PER_ADDRESS = 32  # open connections from one address: pages, WebSocket, reconnects
CONNECTIONS_IN_ALL = 512  # open connections in all (gunicorn stops accepting at 1000)
MAX_HEAD = 64 * 1024  # beyond this gunicorn's parser takes over, and refuses it
MAX_BODY = 64 * 1024  # engine.io's largest message; a larger body is refused unread
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class HeadConn(TConn):  # type: ignore[misc]
    """A connection whose next request is read before a thread takes it."""

    def __init__(
        self, cfg: Any, sock: socket.socket, client: Any, server: Any, closed: Any
    ) -> None:
        super().__init__(cfg, sock, client, server)
        self.address = str(client[0]) if isinstance(client, tuple) else ""
        self.head = b""  # bytes of the next request (its head, then its body) read so far
        self.head_ready = False
        self.deadline = 0.0
        self._closed = closed
        self._was_closed = False

    def init(self) -> None:
        fresh = not self.initialized
        super().init()
        if fresh and self.head and self.parser is not None:
            self.parser.unreader.unread(self.head)
            self.head = b""

    def close(self, graceful: bool = False) -> None:
        if not self._was_closed:
            self._was_closed = True
            self._closed(self)
        super().close(graceful)


def request_complete(data: bytes) -> bool:
    """Whether ``data`` holds a whole request: its head and its body (or as much of them as
    gunicorn's parser should see to refuse them: a head or a body too large)."""
    end, blank = data.find(b"\r\n\r\n"), 4
    if end < 0:
        end, blank = data.find(b"\n\n"), 2
    if end < 0:
        return len(data) >= MAX_HEAD
    body = data[end + blank :]
    if len(body) > MAX_BODY:
        return True
    fields = _fields(data[:end])
    if "chunked" in fields.get(b"transfer-encoding", b"").lower().decode("latin-1"):
        return _chunks_complete(body)
    try:
        length = int(fields.get(b"content-length", b"0"))
    except ValueError:
        return True  # gunicorn's parser refuses it
    return length > MAX_BODY or len(body) >= length


def _fields(head: bytes) -> dict[bytes, bytes]:
    """The header fields of a request's head, by lower-case name (the last one of a name)."""
    fields = {}
    for line in head.split(b"\n")[1:]:
        name, colon, value = line.partition(b":")
        if colon:
            fields[name.strip().lower()] = value.strip()
    return fields


def _chunks_complete(body: bytes) -> bool:
    """Whether a chunked body has come to its last chunk and the blank line after it (or is
    malformed: gunicorn's parser refuses it)."""
    at = 0
    while True:
        eol = body.find(b"\r\n", at)
        if eol < 0:
            return False
        try:
            size = int(body[at:eol].split(b";")[0].strip(), 16)
        except ValueError:
            return True
        if size == 0:
            return body.find(b"\r\n\r\n", eol) >= 0  # and its trailer, if any
        at = eol + 2 + size + 2
        if at > len(body):
            return False


class HeadFirstWorker(ThreadWorker):  # type: ignore[misc]
    """``gthread``, with requests read in the event loop and connections capped per address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heads: dict[HeadConn, None] = {}  # unfinished requests, oldest first (no kiosk's)
        self.kiosk_heads: dict[HeadConn, None] = {}  # the kiosk's, oldest first
        self.heads_by_address: dict[str, int] = {}
        self.open_by_address: dict[str, int] = {}
        self.count_lock = threading.Lock()
        self.warned: dict[str, float] = {}

    # connections -----------------------------------------------------------------------------

    def accept(self, listener: socket.socket) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        address = str(client_addr[0]) if isinstance(client_addr, tuple) else ""
        if self.nr_conns >= CONNECTIONS_IN_ALL and not is_kiosk(address):
            self._make_room()
        with self.count_lock:
            mine = self.open_by_address.get(address, 0)
            if mine >= CONNECTIONS_PER_ADDRESS and not is_kiosk(address):
                refuse = True
            else:
                refuse = False
                self.open_by_address[address] = mine + 1
        if refuse:
            self._warn(address, "too many connections from %s: refusing more")
            client_sock.close()
            return
        self.nr_conns += 1
        conn = HeadConn(
            self.cfg, client_sock, client_addr, listener.getsockname(), self._conn_closed
        )
        self.enqueue_req(conn)

    def _conn_closed(self, conn: HeadConn) -> None:
        with self.count_lock:
            left = self.open_by_address.get(conn.address, 1) - 1
            if left > 0:
                self.open_by_address[conn.address] = left
            else:
                self.open_by_address.pop(conn.address, None)

    def _make_room(self) -> None:
        """Close the connection that has waited longest for its request, or else the oldest
        kept-alive one (neither the kiosk's): the connections in all stay bounded whatever the
        number of addresses, and a new one is always taken in."""
        for conn in self.heads:
            self._drop_head(conn)
            return
        for conn in self.keepalived_conns:
            if not is_kiosk(getattr(conn, "address", "")):
                self.keepalived_conns.remove(conn)
                with contextlib.suppress(OSError, KeyError, ValueError):
                    self.poller.unregister(conn.sock)
                self.nr_conns -= 1
                conn.close()
                return

    # requests --------------------------------------------------------------------------------

    def enqueue_req(self, conn: HeadConn) -> None:
        """Give ``conn`` to a thread once its next request is here; read it until then."""
        if conn.head_ready:
            conn.head_ready = False
            super().enqueue_req(conn)
            return
        if conn.parser is not None:  # a kept-alive connection: what the parser read ahead
            conn.head += conn.parser.unreader.take_buffered() or b""
        if request_complete(conn.head):
            self._hand_over(conn)
            return
        kiosk = is_kiosk(conn.address)
        mine = self.heads_by_address.get(conn.address, 0)
        if mine >= REQUESTS_PER_ADDRESS and not kiosk:
            self._warn(conn.address, "too many unfinished requests from %s: refusing more")
            self.nr_conns -= 1
            conn.close()
            return
        if len(self.heads) >= REQUESTS_IN_ALL and not kiosk:
            # the one that has waited longest goes: a real request arrives whole in a moment
            self._warn("every address", "too many unfinished requests from %s: closing the oldest")
            self._drop_head(next(iter(self.heads)))
        self.heads_by_address[conn.address] = mine + 1
        conn.deadline = time.monotonic() + REQUEST_SECONDS
        conn.sock.setblocking(False)
        if not kiosk:  # the kiosk's are never the ones closed to make room
            self.heads[conn] = None
        else:
            self.kiosk_heads[conn] = None
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read_head, conn))

    def _read_head(self, conn: HeadConn, _client: Any) -> None:
        try:
            data = conn.sock.recv(8192)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went away
            self._drop_head(conn)
            return
        conn.head += data
        if request_complete(conn.head):
            self._leave_heads(conn)
            self._hand_over(conn)

    def _hand_over(self, conn: HeadConn) -> None:
        if conn.parser is not None and conn.head:  # kept alive: the parser exists already
            conn.parser.unreader.unread(conn.head)
            conn.head = b""
        conn.data_ready = True  # gthread need not wait for the first bytes
        conn.head_ready = True
        self.enqueue_req(conn)

    def _leave_heads(self, conn: HeadConn) -> None:
        self.heads.pop(conn, None)
        self.kiosk_heads.pop(conn, None)
        left = self.heads_by_address.get(conn.address, 1) - 1
        if left > 0:
            self.heads_by_address[conn.address] = left
        else:
            self.heads_by_address.pop(conn.address, None)
        with contextlib.suppress(OSError, KeyError, ValueError):
            self.poller.unregister(conn.sock)

    def _drop_head(self, conn: HeadConn, answer: bytes = b"") -> None:
        self._leave_heads(conn)
        if answer:
            with contextlib.suppress(OSError):
                conn.sock.send(answer)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Also close the connections whose request did not arrive in time (gthread's main
        loop)."""
        super().murder_pending()
        now = time.monotonic()
        for heads in (self.heads, self.kiosk_heads):
            for conn in list(heads):
                if conn.deadline > now:
                    break  # the rest came later
                self._drop_head(conn, REQUEST_TIMEOUT)

    def _warn(self, address: str, message: str) -> None:
        now = time.monotonic()
        if now - self.warned.get(address, -60.0) >= 60.0:
            if len(self.warned) > 1000:
                self.warned.clear()
            self.warned[address] = now
            log.warning(message, address)


class LoneWorker(HeadFirstWorker):
    """Gunicorn's threaded worker, run without an arbiter (heads read first, see above)."""

    # Called once SIGTERM (or a closed terminal's SIGHUP) asks the worker to stop: it lets go of
    # the connections that would otherwise hold it for its whole grace time (the WebSockets)
    stopping: Callable[[], None] | None = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if self.stopping is not None:
            threading.Thread(target=self.stopping, name="stopping", daemon=True).start()

    def init_signals(self) -> None:
        hangup = signal.getsignal(signal.SIGHUP)
        super().init_signals()  # resets every signal it knows, SIGHUP and SIGUSR2 among them
        # SIGHUP told an arbiter to reload its workers; here it comes from a closed terminal.
        # Started with nohup, keep ignoring it; else stop cleanly, as for SIGTERM.
        ignore = hangup == signal.SIG_IGN
        signal.signal(signal.SIGHUP, signal.SIG_IGN if ignore else self.handle_exit)
        signal.signal(signal.SIGUSR2, signal.SIG_IGN)

    def is_parent_alive(self) -> bool:
        # Under an arbiter the worker stops when its parent changes. Here the parent is systemd or
        # a shell, and a server started with nohup must outlive the shell that started it.
        return True

    def notify(self) -> None:
        # gunicorn's heartbeat for its arbiter: a timestamp on a file in /tmp, once a second, for
        # the whole night. No arbiter reads it here (systemd's watchdog is sdnotify's), and each
        # one dirtied an inode the file system wrote out to the SD card: nothing to do.
        return None


def run_alone(
    application: Any, on_exit: Callable[[Any], None], stopping: Callable[[], None]
) -> NoReturn:
    """Run ``application`` (a gunicorn ``BaseApplication``) in one :class:`LoneWorker` in this
    process until SIGTERM or SIGINT (``stopping`` called as SIGTERM comes), call
    ``on_exit(worker)``, and leave the process."""
    cfg = application.cfg
    logger = cfg.logger_class(cfg)
    listeners = sock.create_sockets(cfg, logger)
    worker = LoneWorker(1, os.getpid(), listeners, application, cfg.timeout, cfg, logger)
    worker.pid = os.getpid()
    worker.stopping = stopping
    code = 0
    try:
        worker.init_process()  # loads the app, calls post_worker_init, serves until stopped
    except SystemExit as stop:  # SIGINT and SIGQUIT end the worker with sys.exit(0)
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # the table could not load, the hardware could not start, ...
        log.exception("Longhall stopped on an error")
        code = 1  # systemd restarts it, and the journal says why
    finally:
        try:
            on_exit(worker)
            worker.tmp.close()
            sock.close_sockets(listeners, unlink=True)
        finally:
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
            # The worker's thread pool may still hold open WebSockets; every acknowledged
            # command is already on disk, so leave without waiting for them.
            os._exit(code)
