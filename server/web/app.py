"""The web application for one table: :func:`create_app` puts the pieces together.

Flask serves the pages and ``/healthz``, Flask-SocketIO the events, in threading mode with
simple-websocket (no eventlet: its maintainers deprecated it and it breaks gpiozero's threads).
The table is handed the transport's ``publish`` and never sends anything itself.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from flask_socketio import SocketIO

from ..appliance.addresses import base_url, is_loopback
from ..appliance.endnight import NightEnd
from ..appliance.hotspot import read_hotspot
from ..appliance.portal import CHECK_HOSTS, CHECK_PATHS
from ..appliance.portal import blueprint as appliance
from ..config import Settings
from ..store import Store
from ..store.store import empty
from ..table import BotRunner, Table
from .events import register_events, same_origin
from .hostcheck import HostCheck
from .limits import SPARE_THREADS, ConnectionLimit
from .nightpage import register_night_pages
from .pages import GAME_ROOTS, PAGES, DurableHealth, register_pages
from .ratelimit import Clock
from .transport import SERIALIZER, Transport

log = logging.getLogger(__name__)

# Engine.IO's heartbeat: the server pings every connection this often (seconds), and drops one
# that has not answered within the timeout after it (a phone that left the Wi-Fi without a word:
# its seat shows offline then, not once TCP gives up on it a quarter of an hour later).
PING_INTERVAL = 10.0
PING_TIMEOUT = 20.0
ADDRESS_CHECK_SECONDS = 15.0


@dataclass
class Longhall:
    """The running pieces of one server."""

    app: Flask
    socketio: SocketIO
    table: Table
    bots: BotRunner
    transport: Transport
    night: NightEnd
    hardware: Any = None
    _stopped: bool = field(default=False)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _laying_out: threading.Thread | None = field(default=None)

    def start_background(self) -> None:
        """Start the bot runner and the buttons and lights (once the table is served), and lay
        out the store's log."""
        # The log's 4 MB of zeros and their sync (``Store.lay_out_log``) while the table already
        # answers: on a Pi's SD card they took about 0.4 s of every start (bench/start.py --sd).
        # A command, a bot's move or a page that reads the store meanwhile waits for it, once.
        laying_out = threading.Thread(
            target=self.table.store.lay_out_log, name="log-layout", daemon=True
        )
        laying_out.start()
        self._laying_out = laying_out  # once started: a stop waits for it
        self.bots.start()
        if not self.table.settings.public_url:
            threading.Thread(target=self.watch_address, name="address", daemon=True).start()
        if self.table.settings.gpio != "off":
            # gpiozero is imported only where there are buttons and lights to drive
            from longhall.hardware.adapter import start_hardware

            self.hardware = start_hardware(self.table, self.table.settings, night=self.night)

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
        self.night.cancel()
        self.bots.stop()
        if self.hardware is not None:
            self.hardware.close()
        self.transport.stop()
        self.table.storage.stop()
        if self._laying_out is not None:
            self._laying_out.join()  # it writes through the store, closed below
        try:
            self.table.keep_snapshot()
        finally:
            self.table.store.close()


def create_app(
    settings: Settings,
    clock: Clock = time.monotonic,
    ping_interval: float | None = None,
    ping_timeout: float | None = None,
    store_was_empty: bool | None = None,
) -> Longhall:
    """Build the application for one table stored under ``settings.data_dir``.

    ``clock`` drives the rate limit (the tests pass their own); the heartbeat is
    ``PING_INTERVAL`` and ``PING_TIMEOUT`` unless given. ``store_was_empty``: the store was an
    empty file when the server started (found here unless told).
    """
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    if store_was_empty is None:
        store_was_empty = empty(settings.db_path)
    store = Store(settings.db_path)
    socketio = SocketIO(
        app,
        async_mode="threading",
        cors_allowed_origins=same_origin,
        max_http_buffer_size=max(settings.max_payload * 4, 65536),
        ping_interval=PING_INTERVAL if ping_interval is None else ping_interval,
        ping_timeout=PING_TIMEOUT if ping_timeout is None else ping_timeout,
        serializer=SERIALIZER,
        # each event is handled in its connection's own thread, not in a thread started for it:
        # a phone's commands are taken one at a time anyway (the table's lock)
        async_handlers=False,
        logger=False,
        engineio_logger=False,
    )
    lock = threading.RLock()  # the table's one lock; the transport attaches sockets under it
    transport = Transport(socketio.server, lock)
    table = Table(store, settings, transport.publish, lock)
    if store_was_empty:
        table.storage.begun_empty()
    table.join_url = join_url(settings, table.data.code)
    table.hotspot = read_hotspot(settings.hotspot_file)
    register_events(socketio, table, transport, settings, clock)

    register_pages(app, table, DurableHealth(table))
    register_night_pages(app, table, PAGES["static"] / "i18n", GAME_ROOTS)
    app.register_blueprint(appliance)  # the kiosk's sign of life, the phones' connectivity checks
    # around Flask-SocketIO's middleware: every Socket.IO transport passes through the cap
    app.wsgi_app = ConnectionLimit(  # type: ignore[method-assign]
        app.wsgi_app,
        total=max(settings.threads // 2, settings.threads - SPARE_THREADS),
        standing=transport.sessions,  # who is closed to make room when every one is taken
    )
    app.wsgi_app = HostCheck(  # type: ignore[method-assign]
        app.wsgi_app, settings.public_url, probes=(CHECK_HOSTS, CHECK_PATHS)
    )
    bots = BotRunner(table, settings.bot_delay, settings.auto_next)
    night = NightEnd(table, settings.poweroff_command)
    return Longhall(app, socketio, table, bots, transport, night)


def join_url(settings: Settings, code: str) -> str:
    return f"{base_url(settings.host, settings.port, settings.public_url)}/join/{code}"


def _on_loopback(url: str) -> bool:
    return is_loopback(urlsplit(url).hostname or "")
