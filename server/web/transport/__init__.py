"""Where Longhall takes over from its web libraries' own behaviour: all of it, in this package.

Everywhere else the server uses Flask, Flask-SocketIO, python-socketio, python-engineio,
simple-websocket, wsproto and gunicorn through their public API. What puts one table's update on
every screen quickly, and what keeps a stranger on the Wi-Fi from taking the Pi's threads,
replaces parts of what those libraries do and leans on their internals:

- :mod:`.sender`: one sender thread and queue for every WebSocket, instead of engine.io's writer
  thread per connection; each WebSocket read in its connection's own thread;
- :mod:`.frames`: one whole frame at a time on a socket three threads write to;
- :mod:`.deflate`: permessage-deflate only for large messages, compressed once per room;
- :mod:`.packets`: Socket.IO packets without the binary scan, and hostile packets answered;
- :mod:`.sessions`: engine.io sessions capped, and silent or garbled ones closed;
- :mod:`.pinger`: every session's heartbeat from one thread, on the monotonic clock;
- :mod:`.worker`: gunicorn's threaded worker, reading request heads before a thread is spent,
  run without gunicorn's arbiter.

Each library this leans on is pinned with hashes in ``requirements.lock``, which ``./run`` and
``systemd/install.sh`` install from, and ``tests/test_transport_canaries.py`` fails with the
library's name and the internal that moved when an upgrade changes one of them.

The table sends through :meth:`Transport.publish`, the one way out it is handed.
"""

from __future__ import annotations

from typing import Any

from ...table.connections import Outgoing
from . import deflate
from .packets import UNREADABLE_EVENT, JsonPacket
from .pinger import Pinger
from .sender import Sender
from .sessions import SessionGuard

__all__ = ["SERIALIZER", "UNREADABLE_EVENT", "Transport"]

SERIALIZER = JsonPacket  # for Flask-SocketIO's ``serializer=``


class Transport:
    """The table's messages out to its sockets, through one sender, for one Socket.IO server."""

    def __init__(self, server: Any, lock: Any) -> None:
        """Take over ``server``'s writing, session keeping and compression; ``lock`` is the
        table's (no update is sent while a connection is being attached)."""
        deflate.install()  # compress only the large messages (snapshots), not the small patches
        self.server = server
        self.sender = Sender(lock)
        self.sender.install(server.eio)
        self.sessions = SessionGuard(server)
        # every session's heartbeat from one thread, not a sleeping thread per session
        self.pinger = Pinger(server.eio)
        guarded = server.eio.handlers["connect"]

        def on_connect(eio_sid: str, environ: dict[str, Any]) -> Any:
            eio_socket = server.eio.sockets.get(eio_sid)
            if eio_socket is not None:
                self.pinger.adopt(eio_socket)
            return guarded(eio_sid, environ)

        server.eio.on("connect", on_connect)
        # What handling one client's message sends (the update to every room, the answer to the
        # command) is written by that connection's thread itself while the sender is idle.
        handle_message = server.eio.handlers["message"]

        def on_message(eio_sid: str, data: Any) -> Any:
            with self.sender.held(write=True):
                return handle_message(eio_sid, data)

        server.eio.on("message", on_message)

    def publish(self, ops: list[Outgoing], stream: bool) -> None:
        """Carry out the table's socket operations, in order (called under the table's lock).

        With ``stream``, each room's update is written as soon as it is made; without (other
        commands are admitted but not yet on the disk, and need the lock next), the writes wait
        until the handler is done."""
        server = self.server
        with self.sender.held(stream=stream):
            for op in ops:
                if op.op == "emit":
                    assert op.event is not None  # every emit names its event
                    self.sender.emit(server, op.event, op.payload, op.target)
                elif op.op == "join":
                    server.enter_room(op.target, op.payload, namespace="/")
                elif op.op == "leave":
                    server.leave_room(op.target, op.payload, namespace="/")
                elif op.op == "disconnect":
                    server.disconnect(op.target, namespace="/")

    def joined(self, sid: str, people: bool) -> None:
        """A connection joined the table: as one of its own people (a seated phone, the kiosk),
        who are never closed to make room for others, or not (a spectator, a guest)."""
        self.sessions.joined(sid, people)

    def unreadable(self, sid: str) -> None:
        """Count an unreadable event of a connection (closed after a few)."""
        self.sessions.unreadable(sid)

    def close_all(self) -> None:
        """Close every connection (the server is stopping): each phone and screen is told, and
        reconnects by itself once a server answers again."""
        self.server.eio.disconnect()

    def stop(self) -> None:
        self.sessions.stop()
        self.pinger.stop()
