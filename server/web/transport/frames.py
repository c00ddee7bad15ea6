"""One writer at a time on a WebSocket's socket: no frame is ever cut by another.

The table's sender, a slow phone's own engine.io writer and the connection's reading thread (a
pong, a close) may all write to one socket. Each write is one whole frame under the socket's lock,
so no frame lands inside another; the sender never waits for the lock (a busy socket counts as a
full one), and a frame it could only half write keeps the lock until the phone's writer has
written the rest.
"""

from __future__ import annotations

import socket
import threading

# How long the reading thread waits to answer a ping (or a close) while a frame is being written
# to a client that does not read it. A client that takes no byte for that long is given up on.
CONTROL_WAIT = 30.0
# a plain int: ``socket.MSG_DONTWAIT`` is an enum flag, and ``&`` on it runs Python code of the
# enum module's for every frame the sender writes
DONTWAIT = int(socket.MSG_DONTWAIT)


class FrameSocket:
    """A WebSocket's socket whose writes go one whole frame at a time (reads and the rest as is)."""

    def __init__(self, sock: socket.socket, wait: float = CONTROL_WAIT) -> None:
        self.sock = sock
        self.wait = wait
        self.lock = threading.Lock()  # held while a frame is being written, or is half written
        self.cut = False  # a frame is half written: only its rest may come next
        # the rest of what the server does with the socket, as it is (named, not looked up
        # through ``__getattr__``, which would slow every attribute of this class, in the
        # sender's path, several times over)
        self.recv = sock.recv
        self.close = sock.close
        self.shutdown = sock.shutdown
        self.setsockopt = sock.setsockopt
        self.fileno = sock.fileno

    def send(self, data: bytes, flags: int = 0) -> int:
        """Write one frame; without waiting with ``MSG_DONTWAIT`` (the sender's), whole
        otherwise. Return how much was written: less than all only without waiting, and then
        the rest must follow through :meth:`finish`."""
        if not flags & DONTWAIT:
            self.sendall(data)
            return len(data)
        lock = self.lock
        if not lock.acquire(False):
            return 0  # another frame is on its way: as a full buffer, nothing was written
        try:
            sent: int = self.sock.send(data, flags)
        except BaseException:
            lock.release()
            raise
        if sent == len(data) or not sent:
            lock.release()
        else:
            self.cut = True  # the lock stays taken until the rest is written
        return sent

    def sendall(self, data: bytes, flags: int = 0) -> None:
        """Write one whole frame, waiting for any frame on its way to be written first."""
        if not self.lock.acquire(timeout=self.wait):
            raise TimeoutError("a frame to this client has been on its way for too long")
        try:
            self.sock.sendall(data, flags)
        finally:
            self.lock.release()

    def finish(self, rest: bytes) -> None:
        """Write the rest of the frame :meth:`send` half wrote, and let the next frames go."""
        if not self.cut:
            raise RuntimeError("no frame is half written")
        try:
            self.sock.sendall(rest)
        finally:
            self.cut = False
            self.lock.release()
