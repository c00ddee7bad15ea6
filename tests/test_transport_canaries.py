"""Canaries for what ``server/web/transport/`` (and ``longhall serve``'s imports) rely on beyond
their libraries' public API.

The transport takes over parts of python-engineio, python-socketio, simple-websocket, wsproto
and gunicorn (its module docstring lists them). Those libraries are pinned in requirements.lock;
an upgrade that moves an internal the transport uses fails here first, with a sentence naming
the library, the internal and the code that leans on it, before any test of the behaviour.
"""

from __future__ import annotations

import importlib
import inspect
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import engineio
import pytest
import simple_websocket
import socketio
from engineio import socket as engineio_socket
from gunicorn.http import unreader
from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers import base, gthread
from socketio import packet
from wsproto import WSConnection
from wsproto.extensions import PerMessageDeflate

from longhall.server.web.transport.sender import Unstarted

ROOT = Path(__file__).resolve().parent.parent
LEANED_ON = ("python-engineio", "python-socketio", "simple-websocket", "wsproto", "gunicorn")


def pinned(lock: Path) -> dict[str, str]:
    """Each package a lock file pins, and its version."""
    found = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s\\]+)", lock.read_text(), re.M)
    return {name.lower(): pin for name, pin in found}


@pytest.mark.parametrize("library", LEANED_ON)
def test_each_library_the_transport_leans_on_is_the_version_it_was_checked_with(
    library: str,
) -> None:
    want = pinned(ROOT / "requirements.lock")[library]
    assert version(library) == want, (
        f"{library} is {version(library)} here, but requirements.lock pins {want}, the version "
        "server/web/transport/ was checked against: read the library's changes for the "
        "internals listed in tests/test_transport_canaries.py, run every test, then update "
        "the lock."
    )


def _socket() -> object:
    return engineio_socket.Socket(engineio.Server(async_mode="threading"), "sid")


def _params(function: Callable[..., object]) -> list[str]:
    return list(inspect.signature(function).parameters)


def _websocket() -> Any:
    """A real simple-websocket server connection, handshaken over a socket pair, its reader
    thread never started (as the sender makes them): its attributes are set per instance."""
    ours, theirs = socket.socketpair()
    environ = {
        "gunicorn.socket": ours,
        "HTTP_HOST": "table",
        "HTTP_UPGRADE": "websocket",
        "HTTP_CONNECTION": "Upgrade",
        "HTTP_SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ==",
        "HTTP_SEC_WEBSOCKET_VERSION": "13",
    }
    try:
        return simple_websocket.Server(environ, thread_class=Unstarted)
    finally:
        ours.close()
        theirs.close()


def _websocket_wsgi() -> type:
    wrapper: type = importlib.import_module(
        "engineio.async_drivers._websocket_wsgi"
    ).SimpleWebSocketWSGI
    return wrapper


def _last_ping_readers() -> set[str]:
    """The methods of engine.io's sockets that use ``last_ping``."""
    found = set()
    for cls in (engineio_socket.Socket, importlib.import_module("engineio.base_socket").BaseSocket):
        for name, member in vars(cls).items():
            if callable(member) and name != "__init__" and "last_ping" in inspect.getsource(member):
                found.add(name)
    return found


# (library, the internal, a check that it is as the transport expects, who relies on it)
INTERNALS: list[tuple[str, str, Callable[[], bool], str]] = [
    (
        "python-engineio",
        "engineio.async_drivers._websocket_wsgi.SimpleWebSocketWSGI(handler, server, **kwargs)",
        lambda: (
            list(
                inspect.signature(
                    __import__(
                        "engineio.async_drivers._websocket_wsgi", fromlist=["x"]
                    ).SimpleWebSocketWSGI.__init__
                ).parameters
            )
            == ["self", "handler", "server", "kwargs"]
        ),
        "sender.DirectWebSocket subclasses it",
    ),
    (
        "python-engineio",
        'Server._async["websocket"]',
        lambda: "websocket" in engineio.Server(async_mode="threading")._async,
        "sender.Sender.install hands each WebSocket to the sender through it",
    ),
    (
        "python-engineio",
        "Server.handlers (a dict of connect, message, disconnect)",
        lambda: isinstance(engineio.Server(async_mode="threading").handlers, dict),
        "transport.Transport and sessions.SessionGuard wrap the handlers found there",
    ),
    (
        "python-engineio",
        "Socket.queue, .last_ping, .closed, .connected, .sid, .check_ping_timeout()",
        lambda: all(
            hasattr(_socket(), a)
            for a in ("queue", "last_ping", "closed", "connected", "sid", "check_ping_timeout")
        ),
        "sender.Sender routes each socket's queue and send, and checks its pings itself",
    ),
    (
        "python-engineio",
        "Socket.close(wait, abort, reason)",
        lambda: (
            {"wait", "abort", "reason"}
            <= set(inspect.signature(engineio_socket.Socket.close).parameters)
        ),
        "sessions.SessionGuard closes a silent session without waiting",
    ),
    (
        "python-engineio",
        "Server._handle_connect calls the connect handler, then the socket's schedule_ping(); "
        "Socket.receive calls self.schedule_ping() on a pong, Socket.send and Server's round of "
        "every session self.check_ping_timeout(); last_ping is read nowhere else",
        lambda: (
            (connect := inspect.getsource(engineio.Server._handle_connect).replace('"', "'")).index(
                "_trigger_event('connect'"
            )
            < connect.index("s.schedule_ping()")
            and "self.schedule_ping()" in inspect.getsource(engineio_socket.Socket.receive)
            and "self.check_ping_timeout()" in inspect.getsource(engineio_socket.Socket.send)
            and "s.check_ping_timeout()" in inspect.getsource(engineio.Server._service_task)
            and _last_ping_readers() == {"schedule_ping", "check_ping_timeout", "_send_ping"}
        ),
        "pinger.Pinger replaces each session's schedule_ping and check_ping_timeout",
    ),
    (
        "python-engineio",
        "Server.sockets (a dict by session id) and Server.reason.PING_TIMEOUT, SERVER_DISCONNECT",
        lambda: (
            isinstance(engineio.Server(async_mode="threading").sockets, dict)
            and hasattr(engineio.Server.reason, "PING_TIMEOUT")
            and hasattr(engineio.Server.reason, "SERVER_DISCONNECT")
        ),
        "sender.DirectWebSocket forgets a closed session; sessions.SessionGuard closes them",
    ),
    (
        "python-socketio",
        "Server._send_eio_packet and Server.manager's get_participants, eio_sid_from_sid, "
        "sid_from_eio_sid",
        lambda: (
            hasattr(socketio.Server, "_send_eio_packet")
            and all(
                hasattr(socketio.Server(async_mode="threading").manager, a)
                for a in ("get_participants", "eio_sid_from_sid", "sid_from_eio_sid")
            )
        ),
        "sender.Sender.emit sends to a room's sockets itself; sessions.SessionGuard maps ids",
    ),
    (
        "python-socketio",
        "packet.Packet: uses_binary_events, json, decode() returning the attachments' count",
        lambda: (
            hasattr(packet.Packet, "uses_binary_events")
            and hasattr(packet.Packet, "json")
            and packet.Packet().decode('2["x",1]') == 0
        ),
        "packets.JsonPacket overrides them",
    ),
    (
        "simple-websocket",
        "Server(environ, ..., thread_class=...) and ws.PerMessageDeflate",
        lambda: (
            "thread_class" in inspect.signature(simple_websocket.Server.__init__).parameters
            and hasattr(simple_websocket.ws, "PerMessageDeflate")
        ),
        "sender.DirectWebSocket reads in its own thread; deflate.install replaces the class",
    ),
    (
        "simple-websocket",
        "a Server's _handle_events(), .input_buffer (a list), .receive_bytes, .connected, "
        ".sock, .ws (a wsproto connection), .mode",
        lambda: (
            (ws := _websocket()).mode == "gunicorn"
            and ws.connected is True
            and callable(ws._handle_events)
            and ws.input_buffer == []
            and isinstance(ws.receive_bytes, int)
            and isinstance(ws.sock, socket.socket)
            and isinstance(ws.ws, WSConnection)
        ),
        "sender.DirectWebSocket.wait reads each message itself",
    ),
    (
        "wsproto",
        "extensions.PerMessageDeflate.frame_outbound(proto, opcode, rsv, data, fin), enabled()",
        lambda: (
            list(inspect.signature(PerMessageDeflate.frame_outbound).parameters)
            == ["self", "proto", "opcode", "rsv", "data", "fin"]
            and hasattr(PerMessageDeflate, "enabled")
        ),
        "deflate.LargeOnlyDeflate leaves small messages uncompressed",
    ),
    (
        "gunicorn",
        "workers.gthread.TConn(cfg, sock, client, server) and ThreadWorker's accept, "
        "enqueue_req, murder_pending, handle_exit, init_signals, is_parent_alive, init_process",
        lambda: (
            list(inspect.signature(gthread.TConn.__init__).parameters)
            == ["self", "cfg", "sock", "client", "server"]
            and all(
                hasattr(gthread.ThreadWorker, a)
                for a in (
                    "accept",
                    "enqueue_req",
                    "murder_pending",
                    "handle_exit",
                    "init_signals",
                    "is_parent_alive",
                    "init_process",
                )
            )
        ),
        "worker.HeadFirstWorker reads request heads first; worker.run_alone runs it alone",
    ),
    (
        "gunicorn",
        "workers.base.Worker.notify() as the arbiter's heartbeat, the only user of self.tmp's "
        "notify(), and gthread's main loop calling self.notify()",
        lambda: (
            "self.tmp.notify()" in inspect.getsource(base.Worker.notify)
            and "self.notify()" in inspect.getsource(gthread.ThreadWorker.run)
        ),
        "worker.LoneWorker.notify touches no heartbeat file (no arbiter reads it)",
    ),
    (
        "gunicorn",
        "ThreadWorker's nr_conns, keepalived_conns (a deque), poller; the WSGI environ's "
        '"gunicorn.socket"',
        lambda: (
            all(
                name in inspect.getsource(gthread.ThreadWorker.__init__)
                for name in ("self.nr_conns", "self.keepalived_conns = deque()", "self.poller")
            )
            and "'gunicorn.socket'" in inspect.getsource(gunicorn_wsgi).replace('"', "'")
        ),
        "worker.HeadFirstWorker closes the oldest connection to make room; "
        "sessions.SessionGuard.evict shuts a WebSocket's socket",
    ),
    (
        "gunicorn",
        "http.unreader.Unreader.unread() and .take_buffered()",
        lambda: (
            hasattr(unreader.Unreader, "unread") and hasattr(unreader.Unreader, "take_buffered")
        ),
        "worker.HeadFirstWorker hands the head it read to gunicorn's parser",
    ),
]


@pytest.mark.parametrize(
    ("library", "internal", "check", "who"), INTERNALS, ids=[i[1][:40] for i in INTERNALS]
)
def test_each_internal_the_transport_relies_on_is_there(
    library: str, internal: str, check: Callable[[], bool], who: str
) -> None:
    try:
        present = check()
    except Exception as err:  # a module or a name that moved
        present, why = False, f" ({type(err).__name__}: {err})"
    else:
        why = ""
    assert present, (
        f"{library} {version(library)} no longer has {internal}{why}, which "
        f"server/web/transport/{who}: adapt the transport to the new version, or keep the "
        "version requirements.lock pins."
    )


# what ``longhall serve`` runs: the server libraries imported with the clients' libraries kept out
WITHOUT_CLIENTS = """
from longhall.server.cli import load_serve
load_serve()
import engineio.client, requests, websocket
print(engineio.client.requests is None, engineio.client.websocket is None, requests.__name__)
"""


def test_the_socketio_servers_load_without_their_clients_libraries() -> None:
    """``longhall serve`` keeps requests and websocket-client out while it imports the server
    (``server/cli``, ``load_serve``), leaning on the engine.io client's import of them being
    optional; they may be imported afterwards."""
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_CLIENTS], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.split() == ["True", "True", "requests"], (
        f"python-engineio {version('python-engineio')} no longer loads without requests and "
        "websocket-client, which longhall serve keeps out of its imports (server/cli, "
        f"load_serve): drop them from SOCKETIO_CLIENT_ONLY, or keep the version "
        f"requirements.lock pins.\n{done.stdout}{done.stderr[-2000:]}"
    )
