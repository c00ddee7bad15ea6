"""One sender for the table: one queue, and one writer at a time, for every WebSocket message.

python-engineio gives each WebSocket a writer thread fed by a queue, so an update to 27 screens
woke 27 threads, each framing the same message again. A connection opened as a WebSocket sends
through the :class:`Sender` instead, which frames each message once for its room and writes it to
each socket without blocking, in each connection's order; a phone that stops reading goes back to
its own engine.io writer until it has caught up. docs/design.md ("Serving") tells the whole path.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import simple_websocket
from engineio import packet as engineio_packet
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from socketio import packet as socketio_packet
from wsproto.events import CloseConnection
from wsproto.frame_protocol import CloseReason
from wsproto.utilities import LocalProtocolError

from . import deflate
from .frames import DONTWAIT, FrameSocket
from .pinger import CLOCK as PING_CLOCK

log = logging.getLogger(__name__)

# The kernel's send buffer of each WebSocket (Linux doubles it). Left to itself it grows to 4 MB for
# a phone that stopped reading; bounded, such a phone costs little memory and soon gets its own
# writer, while 128 KB still holds many snapshots.
SEND_BUFFER = 64 * 1024

# How long a client has to answer the server's WebSocket close before its socket is shut.
CLOSE_WAIT = 5.0

Item = tuple[Any, "DirectWebSocket", Any]  # (engine.io socket, its WebSocket, packet or None)


class Sender:
    """The table's one writer thread, with the queue every direct WebSocket sends through."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock  # the table's: no update is sent while a connection is being attached
        self.ready = threading.Condition()
        self.items: collections.deque[Item] = collections.deque()
        self.slow: set[int] = set()  # engine.io sockets (by id) that went back to their own writer
        self.routes: dict[str, DirectWebSocket] = {}  # engine.io session id -> its WebSocket
        self.thread: threading.Thread | None = None
        # how deep this thread is in :meth:`held` (``depth``), and whether it writes (``writes``)
        self._held = threading.local()
        self.writing = False  # a thread (the sender or a connection's) is writing a batch

    def install(self, eio: Any) -> None:
        """Make the engine.io server's WebSockets send through this sender."""

        def websocket(handler: Any, server: Any, **kwargs: Any) -> DirectWebSocket:
            return DirectWebSocket(handler, server, self, **kwargs)

        eio._async = {**eio._async, "websocket": websocket}

    def attach(self, eio_socket: Any, ws: DirectWebSocket) -> None:
        """Route a new WebSocket connection's packets through this sender."""
        with self.lock, self.ready:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="sender", daemon=True)
                self.thread.start()
            real = eio_socket.queue
            while not real.empty():  # the engine.io handshake, queued before the WebSocket opened
                self.items.append((eio_socket, ws, real.get_nowait()))
                real.task_done()
            eio_socket.queue = RoutedQueue(real, lambda item: self.put(eio_socket, ws, item))
            eio_socket.send = lambda pkt: self.send(eio_socket, ws, pkt)
            self.routes[eio_socket.sid] = ws
            self.ready.notify()

    def detach(self, eio_socket: Any) -> None:
        with self.ready:
            self.slow.discard(id(eio_socket))
            self.routes.pop(eio_socket.sid, None)

    def emit(self, sio: Any, event: str, payload: Any, to: str) -> None:
        """Send one Socket.IO event to a room or a connection: encoded once, and queued for all
        its routed sockets at once (python-socketio's emit takes each socket through four layers
        and a lock of its own), or written to them at once by a thread that writes its own batch
        (:meth:`held`) while the queue is empty. Any other socket gets it the usual way."""
        pkt = sio.packet_class(socketio_packet.EVENT, namespace="/", data=[event, payload])
        message = engineio_packet.Packet(engineio_packet.MESSAGE, pkt.encode())
        sockets = sio.eio.sockets
        routes = self.routes
        # engine.io's own check of every socket it sends to (closed, or silent past the ping
        # timeout), with the clock read once for the room: the full check only where it fails
        now, timeout = PING_CLOCK(), sio.eio.ping_timeout
        routed: list[Item] = []
        for _, eio_sid in sio.manager.get_participants("/", to):
            ws = routes.get(eio_sid)
            eio_socket = None if ws is None else sockets.get(eio_sid)
            if ws is None or eio_socket is None:
                sio._send_eio_packet(eio_sid, message)
                continue
            last_ping = eio_socket.last_ping
            late = eio_socket.closed or (last_ping and now - last_ping > timeout)
            if not late or eio_socket.check_ping_timeout():
                routed.append((eio_socket, ws, message))
        if routed:
            with self.ready:
                # a thread that writes its own batch writes each room's message as soon as it is
                # made, if nothing waits before it: the first screens start reading it while the
                # next rooms' messages are made
                if self.items or self.writing or not getattr(self._held, "writes", False):
                    self.items.extend(routed)
                    self._wake()
                    return
                self.writing = True
            self._write_now(routed)

    def send(self, eio_socket: Any, ws: DirectWebSocket, pkt: Any) -> None:
        """engine.io's ``Socket.send`` for a routed socket."""
        if eio_socket.check_ping_timeout():
            self.put(eio_socket, ws, pkt)

    def put(self, eio_socket: Any, ws: DirectWebSocket, pkt: Any) -> None:
        with self.ready:
            self.items.append((eio_socket, ws, pkt))
            self._wake()

    @contextlib.contextmanager
    def held(self, write: bool = False, stream: bool = True) -> Iterator[None]:
        """Queue what this thread sends meanwhile and wake the sender once, when it is done,
        instead of once per room.

        With ``write`` (a client's message, in its connection's thread), this thread writes what
        it sends itself if the sender is idle: each room's message as soon as it is made, the
        rest (the answer) when it is done; a message to compress is left to the sender thread.
        Without ``stream`` (inside such a context: the table's publisher, while other commands
        wait for the disk and then for the table's lock), the room's messages wait for the end
        too.
        """
        depth = getattr(self._held, "depth", 0)
        writes = getattr(self._held, "writes", False)
        self._held.depth = depth + 1
        self._held.writes = write if depth == 0 else writes and stream
        try:
            yield
        finally:
            self._held.depth = depth
            self._held.writes = writes if depth else False
            if depth == 0:
                if write:
                    self._write_here()
                else:
                    with self.ready:
                        if self.items:
                            self.ready.notify()

    def _wake(self) -> None:
        """Wake the sender (holding ``self.ready``), unless this thread holds its messages."""
        if not getattr(self._held, "depth", 0):
            self.ready.notify()

    def _write_here(self) -> None:
        """Write what is queued in this thread, unless the sender is writing (then wake it).

        One writer at a time, whoever it is, takes everything queued: order per connection is
        the queue's. What comes in meanwhile is left to the sender thread, so that a connection's
        thread is never kept writing for others; so is a message to compress, from the first
        one on (zlib's state is large: compressed in one thread, it is allocated in one place,
        not kept once in every connection thread's share of the heap).
        """
        with self.ready:
            if not self.items:
                return
            if self.writing:
                self.ready.notify()  # it looks at the queue again when it is done
                return
            batch = list(self.items)
            self.items.clear()
            self.writing = True
        self._write_now(batch)

    def _write_now(self, batch: list[Item]) -> None:
        """Write ``batch`` in this thread, which set ``self.writing``; what is left to the sender
        (from the first message to compress on) goes back before anything queued since."""
        rest: list[Item] = []
        try:
            rest = self._write_batch(batch, here=True)
        finally:
            with self.ready:
                self.writing = False
                self.items.extendleft(reversed(rest))  # before anything queued since
                if self.items:
                    self.ready.notify()

    def _run(self) -> None:
        while True:
            with self.ready:
                while not self.items or self.writing:
                    self.ready.wait()
                batch = list(self.items)
                self.items.clear()
                self.writing = True
            try:
                self._write_batch(batch)
            finally:
                with self.ready:
                    self.writing = False

    def _write_batch(self, batch: list[Item], here: bool = False) -> list[Item]:
        """Write a batch in order; in a connection's thread (``here``), stop before the first
        message to compress and return it with the rest."""
        # the same packet to a whole room: framed (and compressed) once
        frames: dict[tuple[int, int | None], bytes | None] = {}
        slow = self.slow
        for index, (eio_socket, ws, pkt) in enumerate(batch):
            if slow and id(eio_socket) in slow and ws.written == ws.handed:
                # its writer has written all it was handed: nothing of it can come after what
                # is written here now (only a batch's writer hands packets over)
                slow.discard(id(eio_socket))
            try:
                # the rest of a room: its frame made already, only the socket to write to
                if pkt is not None and id(eio_socket) not in slow:
                    frame = frames.get((id(pkt), ws.deflate))
                    if frame is not None:
                        self._send(eio_socket, ws, pkt, frame)
                        continue
            except Exception:  # a socket closing under us: its reader sees it and cleans up
                log.debug("could not write to %s", eio_socket.sid, exc_info=True)
                continue
            if here and self._compresses(eio_socket, ws, pkt, frames):
                return batch[index:]
            try:
                self._write(eio_socket, ws, pkt, frames)
            except Exception:  # a socket closing under us: its reader sees it and cleans up
                log.debug("could not write to %s", eio_socket.sid, exc_info=True)
        return []

    def _compresses(
        self,
        eio_socket: Any,
        ws: DirectWebSocket,
        pkt: Any,
        frames: dict[tuple[int, int | None], bytes | None],
    ) -> bool:
        """Whether writing ``pkt`` to ``ws`` means compressing it now (a small message's frame,
        found meanwhile, is kept in ``frames``)."""
        key = (id(pkt), ws.deflate)
        if pkt is None or ws.deflate is None or key in frames or id(eio_socket) in self.slow:
            return False
        data = pkt.encode()
        if not isinstance(data, str):
            return False
        payload = data.encode()
        if deflate.worth_compressing(payload):
            return True
        frames[key] = deflate.frame(payload, ws.deflate)  # small: not compressed
        return False

    def _write(
        self,
        eio_socket: Any,
        ws: DirectWebSocket,
        pkt: Any,
        frames: dict[tuple[int, int | None], bytes | None],
    ) -> None:
        real = eio_socket.queue.real
        if pkt is None or id(eio_socket) in self.slow:
            if pkt is not None:
                ws.handed += 1
            real.put(pkt)  # the close, or a slow phone: its own writer thread, in order
            return
        server = ws.ws
        if not server.connected:
            return
        key = (id(pkt), ws.deflate)
        if key in frames:
            frame = frames[key]
        else:
            frame = frames[key] = _frame(pkt.encode(), ws.deflate)
        if frame is None:  # binary: the WebSocket's own framing
            server.send(pkt.encode())
            return
        self._send(eio_socket, ws, pkt, frame)

    def _send(self, eio_socket: Any, ws: DirectWebSocket, pkt: Any, frame: bytes) -> None:
        """Write a whole frame to a socket that is not slow, without waiting: what does not fit
        goes to the phone's own writer, which it makes slow."""
        server = ws.ws
        if not server.connected:
            return
        sock: socket.socket = server.sock
        try:
            sent = sock.send(frame, DONTWAIT)
        except BlockingIOError:
            sent = 0
        if sent < len(frame):
            # from here on this phone's own writer thread sends to it, starting with the rest of
            # this frame (a frame is never left cut), and may block on it alone
            self.slow.add(id(eio_socket))
            if not ws.slowed:  # once per connection: a phone on a weak Wi-Fi may come and go
                ws.slowed = True
                log.warning("%s reads slowly: it gets a writer of its own", eio_socket.sid)
            ws.handed += 1
            eio_socket.queue.real.put(_Rest(frame[sent:]) if sent else pkt)


class RoutedQueue:
    """An engine.io socket's queue whose ``put`` goes through the sender (so that its close
    comes after everything sent before it); its writer thread still reads the real queue."""

    def __init__(self, real: Any, route: Callable[[Any], None]) -> None:
        self.real = real
        self.route = route

    def put(self, item: Any, *args: Any, **kwargs: Any) -> None:
        self.route(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        # engine.io's writer gives up after a quiet ping period; here its queue is quiet by
        # design (the sender writes): it waits for the close or a slow phone's packets
        return self.real.get(block) if block else self.real.get(False)

    def __getattr__(self, name: str) -> Any:  # task_done, join, empty, qsize
        return getattr(self.real, name)


class DirectWebSocket(SimpleWebSocketWSGI):  # type: ignore[misc]
    """engine.io's simple-websocket wrapper, attaching a connection opened as a WebSocket to the
    sender (one that upgrades from long-polling keeps engine.io's own path). Every write to its
    socket, whichever thread makes it, goes one whole frame at a time
    (:class:`.frames.FrameSocket`)."""

    def __init__(self, handler: Any, server: Any, sender: Sender, **kwargs: Any) -> None:
        super().__init__(handler, server, **kwargs)
        self.eio = server
        self.sender = sender
        # engine.io refuses a message over this size only once it is whole: stop it as it comes
        self.server_args.setdefault("max_message_size", server.max_http_buffer_size)
        self.deflate: int | None = None  # the window to compress large messages with, if any
        self.ended = threading.Event()  # the reading thread has seen the connection end
        self.reading = False  # the reading thread is in :meth:`wait`, reading the client
        # Packets the sender handed to engine.io's writer thread (a slow phone's), and those the
        # writer has written whole: when they are equal, the sender may write to it again.
        self.handed = 0
        self.written = 0
        self.slowed = False  # it has been slow once (said once in the log)
        # how long a client has to answer the server's close (not longer than a ping)
        self.close_wait = min(CLOSE_WAIT, float(server.ping_timeout))

    def send(self, message: Any) -> Any:
        """engine.io's writer thread (a slow phone's): one packet the sender handed it, written
        whole (the rest of a half-written frame as it is) before it is counted as written."""
        if isinstance(message, Unframed):
            try:
                self.ws.sock.finish(message)  # and the frames held back behind it may go
            except OSError:
                raise OSError() from None  # as engine.io's writer expects of a closed socket
            self.written += 1
            return None
        sent = super().send(message)
        self.written += 1
        return sent

    def close(self) -> None:
        """engine.io's writer, once the connection is over (closed by either side, or dropped
        for not answering pings): the close frame, if the socket takes it at once, and a moment
        for the client to answer it, if the reading thread is reading; then, if that thread has
        not seen the end, the socket is shut, which ends it. A client gone silent (a phone that
        left the Wi-Fi) would otherwise hold that thread, and one of the server's connection
        slots, until TCP gave up on it (a quarter of an hour), and engine.io waits for both. A
        reading thread that is not reading (engine.io's loop left on an error, and waiting for
        this writer) reads no answer: the socket is shut at once."""
        ws = self.ws
        if ws.connected:
            ws.connected = False
            with contextlib.suppress(OSError, LocalProtocolError):
                frame = ws.ws.send(CloseConnection(CloseReason.NORMAL_CLOSURE))
                ws.sock.send(frame, DONTWAIT)
        if not self.reading or not self.ended.wait(self.close_wait):
            with contextlib.suppress(OSError):
                ws.sock.shutdown(socket.SHUT_RDWR)

    def wait(self) -> Any:
        """The next message from the client, read in the connection's own thread (engine.io's
        loop), or None once the connection is closed. simple-websocket reads in a thread of its
        own and wakes this one for every message: a hand-off (two thread switches) per command,
        and a thread per connection, for nothing."""
        ws = self.ws
        self.reading = True
        try:
            while ws.connected and not ws.input_buffer:
                try:
                    data = ws.sock.recv(ws.receive_bytes)
                    if not data:
                        raise OSError("closed by the client")
                    ws.ws.receive_data(data)
                    ws.connected = ws._handle_events()  # answers pings and closes, as before
                except (OSError, LocalProtocolError):
                    ws.connected = False
                except Exception:
                    # anything else ends the connection too (engine.io closes it): the writer's
                    # close() must not wait for this thread to see the end
                    ws.connected = False
                    self.ended.set()
                    raise
        finally:
            self.reading = False
        if ws.input_buffer:
            return ws.input_buffer.pop(0)
        self.ended.set()
        return None

    def __call__(self, environ: Any, start_response: Any) -> Any:
        self.ws = simple_websocket.Server(environ, thread_class=Unstarted, **self.server_args)
        # the sender, this connection's engine.io writer and its reader (a pong) write to it
        self.ws.sock = FrameSocket(self.ws.sock)
        self.deflate = deflate.window_bits(self.ws)
        eio_socket = getattr(self.app, "__self__", None)
        direct = eio_socket is not None and not eio_socket.connected
        if direct:
            with contextlib.suppress(OSError):
                self.ws.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            self.sender.attach(eio_socket, self)
        try:
            ret = self.app(self)
        finally:
            self.ended.set()
            if direct:
                self.sender.detach(eio_socket)
            with contextlib.suppress(OSError):  # as simple-websocket's thread did when it ended
                self.ws.sock.close()
            if eio_socket is not None and eio_socket.closed:
                # engine.io forgets a closed session only once this call returns, which in
                # gunicorn it never does (StopIteration, below), or when its round of every
                # session comes by, up to a ping timeout later: a flood of handshakes held
                # thousands of them meanwhile
                sockets = self.eio.sockets
                if sockets.get(eio_socket.sid) is eio_socket:
                    sockets.pop(eio_socket.sid, None)
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return ret


class Unstarted:
    """simple-websocket's reader thread, never started: :meth:`DirectWebSocket.wait` reads."""

    name = "(_thread)"

    def __init__(self, target: Callable[[], None]) -> None:
        self.target = target

    def start(self) -> None:
        pass


def _frame(data: str | bytes, bits: int | None) -> bytes | None:
    """A whole WebSocket frame of a text message, compressed if it is large and the connection
    lets this server compress each message on its own (``bits``, see
    :mod:`.deflate`); None for a binary message, which the WebSocket frames
    itself."""
    if not isinstance(data, str):
        return None
    return deflate.frame(data.encode(), bits)


class Unframed(bytes):
    """Bytes of a WebSocket frame already begun: written as they are, not framed again."""


class _Rest:
    """The rest of a frame the sender could only half write, for the phone's own writer."""

    def __init__(self, rest: bytes) -> None:
        self.rest = Unframed(rest)

    def encode(self) -> Unframed:
        return self.rest
