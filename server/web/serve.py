"""``longhall serve``: the production server for one table, in one process.

Gunicorn's threaded worker (``gthread``) is the production HTTP server Flask-SocketIO and
simple-websocket support without eventlet or gevent: its threads serve the pages and one WebSocket
per phone or screen. It runs in this process, without gunicorn's arbiter
(:func:`longhall.server.web.transport.worker.run_alone`).
"""

from __future__ import annotations

import ctypes
import gc
import logging
import os
import sqlite3
import sys
from typing import TYPE_CHECKING, Any

from gunicorn.app.base import BaseApplication

from ..appliance.firstboot import check_setup
from ..appliance.sdnotify import started
from ..appliance.storage import check_storage
from ..config import Settings
from ..qr import qr_terminal
from ..store.damaged import DamagedStore, check_store
from ..store.store import empty
from .logs import install_log_guard
from .transport.worker import run_alone

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger(__name__)


class LonghallServer(BaseApplication):  # type: ignore[misc]
    """Gunicorn, configured in code: ``longhall serve`` needs no config file."""

    def __init__(self, settings: Settings, store_was_empty: bool = False) -> None:
        self.settings = settings
        self.store_was_empty = store_was_empty
        self.longhall: Any = None
        super().__init__()

    def load_config(self) -> None:
        s = self.settings
        host = f"[{s.host}]" if ":" in s.host else s.host
        options = {
            "bind": f"{host}:{s.port}",
            "workers": 1,
            "worker_class": "gthread",
            "threads": s.threads,
            "timeout": 60,
            "graceful_timeout": 5,
            "keepalive": 5,
            "accesslog": None,
            "errorlog": "-",
            "loglevel": "warning",
            "proc_name": "longhall",
            "preload_app": False,
            "post_worker_init": _post_worker_init,
        }
        for key, value in options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from .app import create_app  # in the worker, once it is set up

        self.longhall = create_app(self.settings, store_was_empty=self.store_was_empty)
        print(banner(self.longhall.table), flush=True)
        # What the server holds for its whole life (its modules, the app, the table) is set
        # aside from the garbage collector: a full collection then scans only what changed since,
        # not tens of thousands of objects (a pause of tens of milliseconds in some command).
        gc.freeze()
        gc.enable()  # off since ``longhall serve`` began (cli.main)
        return self.longhall.app

    def run(self) -> None:
        """Serve in this process until SIGTERM or SIGINT (no gunicorn arbiter, see above)."""
        run_alone(self, _worker_exit, lambda: self.longhall.transport.close_all())


def _post_worker_init(worker: Any) -> None:
    install_log_guard()  # now that gunicorn, engineio and socketio have set up their logs
    worker.app.longhall.start_background()
    log.warning("Longhall is ready for players.")
    table = worker.app.longhall.table
    check_storage(table)  # a store lost at power-off is said loudly
    check_setup(table)  # so is a mistake in the SD card's longhall.txt
    # systemd: READY=1, the watchdog's heartbeat, and the service's status (a store that cannot
    # be written is said there too)
    started(table.lock, status=table.storage.sentence)


def _worker_exit(worker: Any) -> None:
    longhall = getattr(worker.app, "longhall", None)
    if longhall is not None:
        longhall.stop()


def banner(table: Table) -> str:
    """What ``longhall serve`` prints once the table is loaded: the two URLs and the join QR
    code, of the table the server serves."""
    join = table.join_url
    return (
        "\nLonghall\n"
        f"  table display:  {join.rpartition('/join/')[0]}/\n"
        f"  players join:   {join}\n"
        f"  game store:     {table.settings.db_path}\n\n"
        f"{join_qr(table)}\n"
    )


JOIN_QR = "join_qr"  # the store's meta key of the banner's QR code: the address, then the drawing


def join_qr(table: Table) -> str:
    """The join address's QR code for the terminal, drawn once per address and kept in the
    store: a restart at the same address prints it without drawing it again (loading qrcode and
    choosing the code's mask took 7 ms of a start's CPU here, about 50 ms on a Zero 2 W)."""
    join = table.join_url
    kept = table.store.get_meta(JOIN_QR)
    if kept is not None:
        address, _, drawn = kept.partition("\n")
        if address == join:
            return drawn
    drawn = qr_terminal(join)
    if not table.store.read_only:
        try:
            table.store.set_meta(JOIN_QR, f"{join}\n{drawn}")
        except sqlite3.Error:  # a full card: it is drawn again at the next start
            log.warning("could not keep the banner's QR code in the store", exc_info=True)
    return drawn


# glibc gives every thread that allocates an arena of its own, up to eight per core (two on a
# 32-bit system), and each arena keeps what is freed in it for its own thread. The server has a
# thread per phone and screen, but the table's work runs one command at a time, under its lock:
# two arenas serve it as well, without the memory the others would hold.
M_ARENA_MAX = -8  # mallopt's parameter, from glibc's malloc.h
ARENAS = 2


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Cap the C library's malloc arenas, before the server's threads start; return whether it
    took (not where the C library is not glibc, nor where the environment sets the cap itself,
    with ``$MALLOC_ARENA_MAX`` or ``glibc.malloc.arena_max`` in ``$GLIBC_TUNABLES``)."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False  # glibc has read the variable: whoever set it knows best
    if "glibc.malloc.arena_max" in os.environ.get("GLIBC_TUNABLES", ""):
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    return mallopt is not None and mallopt(M_ARENA_MAX, arenas) == 1


def serve(settings: Settings) -> int:
    limit_malloc_arenas()
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    install_log_guard()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:  # before anything opens the store: SQLite would start afresh over a damaged one
        check_store(settings.db_path, fresh=settings.fresh_store)
    except DamagedStore as damaged:
        gc.enable()  # no table to set aside (cli.main turned the collector off for the start)
        log.error("%s", damaged)
        from .damaged_page import serve_damaged_page  # the table display says it too

        return serve_damaged_page(damaged, settings.host, settings.port)
    was_empty = empty(settings.db_path)  # before the table begins it afresh
    LonghallServer(settings, store_was_empty=was_empty).run()
    return 0
