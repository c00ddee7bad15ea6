"""Gunicorn's threaded worker, reading each request's head before a thread is spent on it, and
run in the server's own process without gunicorn's arbiter.

Gunicorn's ``gthread`` worker hands a connection to one of its threads as soon as the first bytes
of a request arrive, and the thread then reads the rest of the head, blocking, for as long as the
client takes. 64 half-sent requests, one header line every few seconds, took every thread, and
the pages, ``/healthz`` and every new phone waited for as long as they were held (a "slowloris").

Here the worker's own event loop reads the head, without blocking, up to the blank line that ends
it; only then does a thread take the connection, with the bytes read so far handed to gunicorn's
parser. A head must be complete within ``HEAD_SECONDS`` (else ``408`` and the connection closes),
and one address may hold only so many connections, and so many unfinished heads, at once (the
Pi's own kiosk browser excepted).

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

HEAD_SECONDS = 10.0  # to send a request's head (a phone on a weak signal needs well under 1 s)
HEADS_PER_ADDRESS = 12  # unfinished heads from one address (a browser opens 6 connections)
HEADS_IN_ALL = 256
CONNECTIONS_PER_ADDRESS = 32  # open connections from one address: pages, WebSocket, reconnects
MAX_HEAD = 64 * 1024  # beyond this gunicorn's parser takes over, and refuses it
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class HeadConn(TConn):  # type: ignore[misc]
    """A connection whose next request's head is read before a thread takes it."""

    def __init__(
        self, cfg: Any, sock: socket.socket, client: Any, server: Any, closed: Any
    ) -> None:
        super().__init__(cfg, sock, client, server)
        self.address = str(client[0]) if isinstance(client, tuple) else ""
        self.head = b""  # bytes of the next request read so far
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


def head_complete(data: bytes) -> bool:
    return b"\r\n\r\n" in data or b"\n\n" in data or len(data) >= MAX_HEAD


class HeadFirstWorker(ThreadWorker):  # type: ignore[misc]
    """``gthread``, with request heads read in the event loop and connections capped per address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heads: dict[HeadConn, None] = {}  # waiting for their heads, oldest first
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

    # heads -----------------------------------------------------------------------------------

    def enqueue_req(self, conn: HeadConn) -> None:
        """Give ``conn`` to a thread once its next request's head is here; read it until then."""
        if conn.head_ready:
            conn.head_ready = False
            super().enqueue_req(conn)
            return
        if conn.parser is not None:  # a kept-alive connection: what the parser read ahead
            conn.head += conn.parser.unreader.take_buffered() or b""
        if head_complete(conn.head):
            self._hand_over(conn)
            return
        mine = self.heads_by_address.get(conn.address, 0)
        if len(self.heads) >= HEADS_IN_ALL or (
            mine >= HEADS_PER_ADDRESS and not is_kiosk(conn.address)
        ):
            self._warn(conn.address, "too many unfinished requests from %s: refusing more")
            self.nr_conns -= 1
            conn.close()
            return
        self.heads_by_address[conn.address] = mine + 1
        conn.deadline = time.monotonic() + HEAD_SECONDS
        conn.sock.setblocking(False)
        self.heads[conn] = None
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
        if head_complete(conn.head):
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
        """Also close the connections whose head did not arrive in time (gthread's main loop)."""
        super().murder_pending()
        now = time.monotonic()
        for conn in list(self.heads):
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
