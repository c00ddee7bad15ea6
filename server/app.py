"""The web application: pages, ``/healthz`` and the Socket.IO events, around one :class:`Table`.

The socket layer is thin: it checks who connects, hands every command to the table and sends
exactly the messages the table returns. Flask-SocketIO runs in threading mode with
simple-websocket (no eventlet: its maintainers deprecated it and it breaks gpiozero's threads).
"""

from __future__ import annotations

import gzip
import json
import logging
import mimetypes
import sys
import threading
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, jsonify, request
from flask_socketio import SocketIO
from socketio.exceptions import ConnectionRefusedError
from socketio.packet import BINARY_ACK, BINARY_EVENT, EVENT, Packet

from . import deflate
from .appliance import CHECK_HOSTS, CHECK_PATHS
from .appliance import blueprint as appliance
from .botrunner import BotRunner
from .config import Settings
from .connlimit import SPARE_THREADS, ConnectionLimit
from .frozen import dumper
from .games.api import IllegalAction
from .guard import HostCheck, SessionGuard, is_kiosk
from .netinfo import base_url, is_loopback, qr_svg, wifi_qr_text
from .ratelimit import Clock, RateLimits
from .sender import Sender
from .store import Store
from .table import Outgoing, Table

log = logging.getLogger("longhall.app")

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "table": ROOT / "table_display",
    "phone": ROOT / "phone_ui",
    "static": Path(__file__).resolve().parent / "static",
}
COMPRESSIBLE = (".html", ".js", ".css", ".json", ".svg", ".txt")
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


# The event a message that is not valid JSON is delivered as, so that it still gets an answer.
UNREADABLE_EVENT = "longhall:unreadable"


class PacketJson:
    """The JSON python-socketio encodes packets with: ``json.dumps(data, separators=(",",
    ":"))``, its encoder made once (:func:`longhall.server.frozen.dumper`)."""

    compact = staticmethod(dumper())
    loads = staticmethod(json.loads)

    @staticmethod
    def dumps(data: Any, separators: tuple[str, str] | None = None, **kwargs: Any) -> str:
        if separators == (",", ":") and not kwargs:  # what every packet asks for
            return PacketJson.compact(data)
        return json.dumps(data, separators=separators, **kwargs)


class JsonPacket(Packet):  # type: ignore[misc]
    """Socket.IO packets as plain JSON.

    Longhall never sends binary data: skip python-socketio's scan of every outgoing payload for
    bytes, which walks each element of a whole game view (most of an update's cost). And an event
    whose JSON cannot be read (nested thousands deep, a number of thousands of digits) becomes
    ``UNREADABLE_EVENT``, answered ``malformed``, instead of an error with no answer at all.
    """

    uses_binary_events = False
    json = PacketJson  # one encoder for every packet, not one made per packet

    def decode(self, encoded_packet: Any) -> int:
        try:
            attachments = int(super().decode(encoded_packet))
        except (ValueError, RecursionError) as err:
            if getattr(self, "packet_type", None) != EVENT:
                raise
            log.warning("an unreadable event (%s)", type(err).__name__)
            self.data = [UNREADABLE_EVENT]
            return 0
        kind: int = self.packet_type  # type: ignore[has-type]
        if kind in (BINARY_EVENT, BINARY_ACK):
            # Longhall never uses binary data, and python-socketio hands a binary event's name
            # to its handlers unchecked (a binary "connect" re-ran the connect handler)
            log.warning("a binary event, which Longhall does not take")
            self.packet_type, self.data = EVENT, [UNREADABLE_EVENT]
            return 0
        if kind == EVENT:
            data = self.data
            if not isinstance(data, list) or not data or not isinstance(data[0], str):
                self.data = [UNREADABLE_EVENT]
            elif data[0] in ("connect", "disconnect", "*"):
                # python-socketio would run the connect or disconnect handler for an event of
                # that name: a client could re-register its own connection; and "*" would reach
                # the catch-all handler with the client's first argument as the connection id.
                # Answer it as unknown.
                self.data = [f"reserved:{data[0]}"]
        return attachments


def longhall_version() -> str:
    try:
        return version("longhall")
    except PackageNotFoundError:
        return "0+unknown"


@dataclass
class Longhall:
    """The running pieces of one server."""

    app: Flask
    socketio: SocketIO
    table: Table
    bots: BotRunner
    hardware: Any = None
    _stopped: bool = field(default=False)
    _stopping: threading.Event = field(default_factory=threading.Event)

    def start_background(self) -> None:
        """Start the bot runner and the buttons and lights (once the table is served)."""
        self.bots.start()
        if not self.table.settings.public_url:
            threading.Thread(target=self.watch_address, name="address", daemon=True).start()
        if self.table.settings.gpio != "off":
            from longhall.hardware.adapter import start_hardware

            self.hardware = start_hardware(self.table, self.table.settings)

    def watch_address(self) -> None:
        """Follow this machine's address: a Pi whose network came up late, or moved, shows the
        right join address and QR code without a restart."""
        table = self.table
        settings = table.settings
        while not self._stopping.wait(ADDRESS_CHECK_SECONDS):
            try:
                url = join_url(settings, table.data.code)
            except Exception:
                log.exception("could not work out this machine's address")
                continue
            if _on_loopback(url) and not _on_loopback(table.join_url):
                continue  # the network is down for a moment: phones keep the last address
            if url != table.join_url:
                log.warning("the join address is now %s", url)
                with table.lock:
                    table.join_url = url
                table.refresh()

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._stopping.set()
        self.bots.stop()
        if self.hardware is not None:
            self.hardware.close()
        self.table.store.close()


# Engine.IO's heartbeat: the server pings every connection this often (seconds), and drops one
# that has not answered within the timeout after it (a phone that left the Wi-Fi without a word:
# its seat shows offline then, not once TCP gives up on it a quarter of an hour later).
PING_INTERVAL = 10.0
PING_TIMEOUT = 20.0


def create_app(
    settings: Settings,
    clock: Clock = time.monotonic,
    ping_interval: float | None = None,
    ping_timeout: float | None = None,
) -> Longhall:
    """Build the application for one table stored under ``settings.data_dir``.

    ``clock`` drives the rate limit (the tests pass their own); the heartbeat is
    ``PING_INTERVAL`` and ``PING_TIMEOUT`` unless given.
    """
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    store = Store(settings.db_path)
    store.lay_out_log()  # each commit then writes over the log, not past its end
    deflate.install()  # compress only the large messages (snapshots), not the small patches

    def send(ops: list[Outgoing]) -> None:
        # Called with the table's lock held. A command's updates are written room by room as
        # they are made (server/sender.py), unless other commands are admitted but not yet on
        # the disk: they take the lock again once stored, so the writes wait until it is let go.
        with sender.held(stream=table.stored == table.data.version):
            publish(ops)

    def publish(ops: list[Outgoing]) -> None:
        server = socketio.server
        for op in ops:
            if op.op == "emit":
                assert op.event is not None  # every emit names its event
                sender.emit(server, op.event, op.payload, op.target)
            elif op.op == "join":
                server.enter_room(op.target, op.payload, namespace="/")
            elif op.op == "leave":
                server.leave_room(op.target, op.payload, namespace="/")
            elif op.op == "disconnect":
                server.disconnect(op.target, namespace="/")

    table = Table(store, settings, send)
    sender = Sender(table.lock)
    table.join_url = join_url(settings, table.data.code)
    table.hotspot = read_hotspot(settings.hotspot_file)

    socketio = SocketIO(
        app,
        async_mode="threading",
        cors_allowed_origins=same_origin,
        max_http_buffer_size=max(settings.max_payload * 4, 65536),
        ping_interval=PING_INTERVAL if ping_interval is None else ping_interval,
        ping_timeout=PING_TIMEOUT if ping_timeout is None else ping_timeout,
        serializer=JsonPacket,
        # each event is handled in its connection's own thread, not in a thread started for it:
        # a phone's commands are taken one at a time anyway (the table's lock)
        async_handlers=False,
        logger=False,
        engineio_logger=False,
    )
    # one thread writes every WebSocket message of the table (server/sender.py)
    sender.install(socketio.server.eio)
    # The rate limit follows a seat (whichever phone or connection it is opened on) and, for a
    # phone not seated yet or a table display, its address: reconnecting refills nothing. The
    # Pi's own kiosk browser, exempt from the per-address caps, keeps one bucket per connection.
    limits = RateLimits(settings.rate, settings.burst, clock)
    addresses: dict[str, str] = {}  # connection id -> the address it came from
    limits_lock = threading.Lock()

    register_pages(app, table, DurableHealth(table))
    app.register_blueprint(appliance)  # the kiosk's sign of life, the phones' connectivity checks
    # around Flask-SocketIO's middleware: every Socket.IO transport passes through the cap
    app.wsgi_app = ConnectionLimit(  # type: ignore[method-assign]
        app.wsgi_app, total=max(settings.threads // 2, settings.threads - SPARE_THREADS)
    )
    app.wsgi_app = HostCheck(  # type: ignore[method-assign]
        app.wsgi_app, settings.public_url, probes=(CHECK_HOSTS, CHECK_PATHS)
    )
    sessions = SessionGuard(socketio.server)
    # What the handling of one client's message sends (the update to every room, the answer to
    # the command) is written by this connection's thread itself while the sender is idle (else
    # the sender writes it): each room's update as soon as it is made (unless other commands are
    # on their way to the disk: ``send``), the rest once the handler is done.
    handle_message = socketio.server.eio.handlers["message"]

    def on_message(eio_sid: str, data: Any) -> Any:
        with sender.held(write=True):
            return handle_message(eio_sid, data)

    socketio.server.eio.on("message", on_message)

    @socketio.on("connect")
    def on_connect(auth: object = None) -> None:
        sid = request.sid  # type: ignore[attr-defined]
        # One lock from the token check to the snapshot: a seat handed over or kicked in between
        # cannot be taken, and no update can fall between the snapshot and joining the room.
        with table.lock:
            if sid in table.connections:  # only ever by a forged packet: connected already
                raise ConnectionRefusedError("Connected already.", {"code": "malformed"})
            try:
                who = table.connect(sid, auth)
            except IllegalAction as err:
                # the message, and the error itself as the client's ``err.data``
                raise ConnectionRefusedError(err.message, err.to_dict()) from None
            with limits_lock:
                addresses[sid] = str(request.remote_addr)
            send(table.welcome(who))

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
            return table.submit(table.identity(sid), payload)
        except Exception:
            log.exception("error while handling a command")
            return refusal(
                "server_error",
                "Something went wrong on the server; nothing changed.",
                table.stored,
            )

    # Commands, the one event of every move, go straight to python-socketio's handler: it is
    # given the connection id, and needs none of the Flask request context Flask-SocketIO
    # builds around each event.
    socketio.server.on("command", on_command, namespace="/")

    @socketio.on(UNREADABLE_EVENT)
    def on_unreadable(*_: object) -> dict[str, Any]:
        allowed(request.sid)  # type: ignore[attr-defined]
        sessions.unreadable(request.sid)  # type: ignore[attr-defined]
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
        return refusal(
            "server_error",
            "Something went wrong on the server; nothing changed.",
            table.stored,
        )

    bots = BotRunner(table, settings.bot_delay, settings.auto_next)
    return Longhall(app=app, socketio=socketio, table=table, bots=bots)


ADDRESS_CHECK_SECONDS = 15.0


def join_url(settings: Settings, code: str) -> str:
    return f"{base_url(settings.host, settings.port, settings.public_url)}/join/{code}"


def _on_loopback(url: str) -> bool:
    return is_loopback(urlsplit(url).hostname or "")


_size_dumps = dumper(ensure_ascii=False)  # json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def json_size(payload: object) -> int:
    """The size in bytes of a payload as JSON (what the phone sent)."""
    try:
        text = _size_dumps(payload)
        return len(text.encode("utf-8", "surrogatepass"))
    except (ValueError, TypeError, RecursionError):
        return sys.maxsize


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


def read_hotspot(path: Path | None) -> dict[str, str] | None:
    """The offline Wi-Fi's name and password, written by the install script when it is on."""
    if path is None or not path.exists():
        return None
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep:  # the value as written: a Wi-Fi name or password may begin or end with a space
            values[key.strip()] = value.removesuffix("\r")
    if not values.get("ssid"):
        return None
    return {"ssid": values["ssid"], "password": values.get("password", "")}


class DurableHealth:
    """What ``/healthz`` tells of the table: only what is on the disk.

    A command is applied before its record is written (group commit), and the table's own
    :meth:`Table.health` shows it applied: a health check during that write would name a version
    the disk may never hold. Here it is the table as last wholly stored (kept when the table
    tells its listeners, as the lights follow it), or as it is now once nothing is pending. The
    listeners are told only when nothing applied is left unwritten, so while commands keep
    coming back to back it may name an earlier stored version than the last one answered: it
    errs towards less, never towards what the disk may not hold.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.last = table.health()  # restored from the disk: stored
        table.listeners.append(self.stored)

    def stored(self, table: Table) -> None:
        """A listener of the table: called (under its lock) once it is all on the disk."""
        self.last = table.health()

    def __call__(self) -> dict[str, Any]:
        table = self.table
        with table.lock:
            if table.data.version <= table.stored:  # nothing applied that is not stored
                self.last = table.health()
            return self.last


def register_pages(app: Flask, table: Table, health: DurableHealth) -> None:
    cache: dict[tuple[Path, float], bytes] = {}
    cache_lock = threading.Lock()

    def serve_file(folder: Path, name: str) -> Response:
        if "\x00" in name:  # no file has one, and the file system refuses it with an error
            abort(404)
        path = (folder / name).resolve()
        if folder.resolve() not in path.parents or not path.is_file():
            abort(404)
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if mime.startswith("text/") or mime in ("application/javascript", "application/json"):
            mime += "; charset=utf-8"
        body = path.read_bytes()
        response = Response(body, mimetype=mime)
        packed_body = path.suffix in COMPRESSIBLE and "gzip" in request.headers.get(
            "Accept-Encoding", ""
        )
        if packed_body:
            key = (path, path.stat().st_mtime)
            with cache_lock:
                packed = cache.get(key)
                if packed is None:
                    packed = cache[key] = gzip.compress(body, 9)
            response.set_data(packed)
            response.headers["Content-Encoding"] = "gzip"
        response.headers["Vary"] = "Accept-Encoding"
        response.headers["Cache-Control"] = "no-cache"
        response.add_etag()
        if packed_body:
            response.make_conditional(request)
        else:  # byte ranges: Safari plays a video (the phone's keep-awake one) only with them
            response.make_conditional(request, accept_ranges=True, complete_length=len(body))
        return response

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.get("/")
    def table_page() -> Response:
        return serve_file(PAGES["table"], "index.html")

    @app.get("/join/<code>")
    def phone_page(code: str) -> Response:
        return serve_file(PAGES["phone"], "index.html")

    @app.get("/table/<path:name>")
    def table_files(name: str) -> Response:
        return serve_file(PAGES["table"], name)

    @app.get("/phone/<path:name>")
    def phone_files(name: str) -> Response:
        return serve_file(PAGES["phone"], name)

    @app.get("/static/<path:name>")
    def static_files(name: str) -> Response:
        return serve_file(PAGES["static"], name)

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify({"status": "ok", "version": longhall_version(), **health()})

    @app.get("/qr/join.svg")
    def join_qr() -> Response:
        return svg(qr_svg(table.join_url))

    @app.get("/qr/wifi.svg")
    def wifi_qr() -> Response:
        if table.hotspot is None:
            abort(404)
        return svg(qr_svg(wifi_qr_text(table.hotspot["ssid"], table.hotspot["password"])))

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)


def svg(body: str) -> Response:
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
