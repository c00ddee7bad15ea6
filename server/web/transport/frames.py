"""One writer at a time on a WebSocket's socket: no frame is ever cut by another.

Three threads may write to one WebSocket: the table's sender (:mod:`longhall.server.sender`),
the connection's own engine.io writer (a slow phone's, or a connection that upgraded from
long-polling), and the connection's reading thread, which answers a ping with a pong and a close
with a close. Each write is a whole frame. Were two to run at once (a blocking write to a full
socket is done in pieces, and the kernel lets another thread's bytes in between), or were a pong
written between the two halves of a frame the sender could only half write, the pong would land
inside the frame and the client would read garbage from there on.

So every write to the socket goes through one lock. The sender never waits for it: a socket
busy writing counts as one whose buffer is full (its packets go to the phone's own writer, as
for a slow phone). A frame the sender could only half write keeps the lock until the phone's
writer has written its rest (:meth:`FrameSocket.finish`): the lock is let go by another thread
than the one that took it, which a plain :class:`threading.Lock` allows.
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
