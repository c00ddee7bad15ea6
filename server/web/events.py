"""The Socket.IO events: who connects, every command to the table, and an answer to anything else.

The socket layer is thin: it checks who connects and how fast they send, hands every command to
the table and answers with what the table says. What the table sends goes out through the
transport it was handed (:mod:`longhall.server.web.transport`).
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from typing import Any

from flask import request
from flask_socketio import SocketIO
from socketio.exceptions import ConnectionRefusedError

from ..config import Settings
from ..games.api import IllegalAction
from ..table.service import Table
from .limits import is_kiosk
from .ratelimit import Clock, RateLimits
from .transport import UNREADABLE_EVENT, Transport

log = logging.getLogger(__name__)

SERVER_ERROR = "Something went wrong on the server; nothing changed."
AUTH_SLOW_DOWN = "Too many failed attempts to connect: wait a moment."
AUTH_FAILURES_RATE = 1.0  # refused connections (a wrong token or code) an address may make a
AUTH_FAILURES_BURST = 10  # second, in bursts of this many, before it must wait


def register_events(
    socketio: SocketIO, table: Table, transport: Transport, settings: Settings, clock: Clock
) -> None:
    """Answer every Socket.IO event of ``socketio`` for ``table``."""
    # The rate limit follows a seat (whichever phone or connection it is opened on) and, for a
    # phone not seated yet or a table display, its address: reconnecting refills nothing. The
    # Pi's own kiosk browser, exempt from the per-address caps, keeps one bucket per connection.
    limits = RateLimits(settings.rate, settings.burst, clock)
    # Connections refused for a wrong token or code cost their address a token of its own
    # bucket: guesses are answered at the pace of AUTH_FAILURES, not as fast as they come.
    failures = RateLimits(AUTH_FAILURES_RATE, AUTH_FAILURES_BURST, clock)
    addresses: dict[str, str] = {}  # connection id -> the address it came from
    limits_lock = threading.Lock()

    @socketio.on("connect")
    def on_connect(auth: object = None) -> None:
        sid = request.sid  # type: ignore[attr-defined]
        address = str(request.remote_addr)
        kiosk = is_kiosk(address)
        with limits_lock:
            if not kiosk and not failures.left(f"address:{address}"):
                log.warning("refused a connection from %s: too many failed attempts", address)
                raise ConnectionRefusedError(AUTH_SLOW_DOWN, error("rate_limited", AUTH_SLOW_DOWN))
        # One lock from the token check to the snapshot: a seat handed over or kicked in between
        # cannot be taken, and no update can fall between the snapshot and joining the room.
        with table.lock:
            if sid in table.connections:  # only ever by a forged packet: connected already
                raise ConnectionRefusedError("Connected already.", {"code": "malformed"})
            try:
                who = table.connect(sid, auth, kiosk=kiosk)
            except IllegalAction as err:
                with limits_lock:
                    failures.allow(f"address:{address}")
                # the message, and the error itself as the client's ``err.data``
                raise ConnectionRefusedError(err.message, err.to_dict()) from None
            except Exception:  # a bug: refused, never let in half-way
                log.exception("error while checking a connection")
                raise ConnectionRefusedError(
                    SERVER_ERROR, error("server_error", SERVER_ERROR)
                ) from None
            with limits_lock:
                addresses[sid] = address
            # before the snapshot: from the moment a seated phone is in, it is never the one
            # closed to make room for another
            transport.joined(sid, people=who.kind == "seat" or kiosk)
            table.welcome(who)

    @socketio.on("disconnect")
    def on_disconnect(*_: object) -> None:
        sid = request.sid  # type: ignore[attr-defined]
        with limits_lock:
            addresses.pop(sid, None)
            limits.forget(f"connection:{sid}")
        table.disconnect(sid)

    def allowed(sid: str) -> bool:
        who = table.connections.get(sid)  # a plain read: the seat this connection has now
        with limits_lock:
            address = addresses.get(sid)
            if address is None:
                return False
            if who is not None and who.kind == "seat":
                return limits.allow(f"seat:{who.seat}")
            if is_kiosk(address):
                return limits.allow(f"connection:{sid}")
            return limits.allow(f"address:{address}")

    def on_command(sid: str, payload: object = None, *extra: object) -> dict[str, Any]:
        if not allowed(sid):
            log.warning("rate limit: dropped a command from %s", sid)
            return refusal("rate_limited", "Too many commands: slow down.", table.stored)
        if extra:
            return refusal("malformed", "A command is one JSON object.", table.stored)
        if json_size(payload) > settings.max_payload:
            log.warning("dropped an oversized command from %s", sid)
            return refusal("too_large", "That command is too large.", table.stored)
        try:
            answer = table.submit(table.identity(sid), payload)
            if answer["ok"] and isinstance(payload, dict) and payload.get("type") == "join":
                transport.joined(sid, people=True)  # a seated phone from now on
            return answer
        except Exception:
            log.exception("error while handling a command")
            return refusal("server_error", SERVER_ERROR, table.stored)

    # Commands, the one event of every move, go straight to python-socketio's handler: it is
    # given the connection id, and needs none of the Flask request context Flask-SocketIO
    # builds around each event.
    socketio.server.on("command", on_command, namespace="/")

    @socketio.on(UNREADABLE_EVENT)
    def on_unreadable(*_: object) -> dict[str, Any]:
        allowed(request.sid)  # type: ignore[attr-defined]
        transport.unreadable(request.sid)  # type: ignore[attr-defined]
        return refusal("malformed", "That message is not readable JSON.", table.stored)

    @socketio.on("snapshot")
    def on_snapshot(*_: object) -> dict[str, Any]:
        sid = request.sid  # type: ignore[attr-defined]
        if not allowed(sid):
            return refusal("rate_limited", "Too many requests: slow down.", table.stored)
        return table.snapshot_for(sid)

    @socketio.on("*")
    def on_unknown(event: str, *_: object) -> dict[str, Any]:
        sid = request.sid  # type: ignore[attr-defined]
        allowed(sid)
        log.warning("unknown event %r from %s", str(event)[:40], sid)
        return refusal("unknown_event", "There is no such event.", table.stored)

    @socketio.on_error_default
    def on_error(err: Exception) -> dict[str, Any]:
        log.exception("error while handling an event", exc_info=err)
        return refusal("server_error", SERVER_ERROR, table.stored)


_size_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def json_size(payload: object) -> int:
    """The size in bytes of a payload as JSON (what the phone sent)."""
    try:
        text = _size_text.encode(payload)
        return len(text.encode("utf-8", "surrogatepass"))
    except (ValueError, TypeError, RecursionError):
        return sys.maxsize


def error(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "message": message, "params": {}}


def refusal(code: str, message: str, version: int | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "ok": False,
        "error": {"code": code, "message": message, "params": {}},
    }
    if version is not None:
        answer["version"] = version
    return answer


def same_origin(origin: str | None, environ: dict[str, Any]) -> bool:
    """Browsers may connect only from pages this server served (never ``*``)."""
    if origin is None:
        return True  # not a browser: phones and pages always send an Origin
    host = environ.get("HTTP_HOST", "")
    allowed = origin in (f"http://{host}", f"https://{host}")
    if not allowed:
        log.warning("refused a connection from origin %r", origin[:80])
    return allowed
