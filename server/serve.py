"""``longhall serve``: the production server (gunicorn, one worker, threads) for one table.

Gunicorn's threaded worker is the production server Flask-SocketIO and simple-websocket support
without eventlet or gevent. One worker process holds the table (Socket.IO needs every connection of
a table in one process); its threads serve the pages and one WebSocket per phone or screen.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

from .config import Settings
from .netinfo import base_url, qr_terminal
from .store import Store

log = logging.getLogger("longhall")


class LonghallServer(BaseApplication):  # type: ignore[misc]
    """Gunicorn, configured in code: ``longhall serve`` needs no config file."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
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
            "worker_exit": _worker_exit,
        }
        for key, value in options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from .app import create_app

        self.longhall = create_app(self.settings)
        return self.longhall.app


def _post_worker_init(worker: Any) -> None:
    worker.app.longhall.start_background()
    log.warning("Longhall is ready for players.")


def _worker_exit(server: Any, worker: Any) -> None:
    longhall = getattr(worker.app, "longhall", None)
    if longhall is not None:
        longhall.stop()


def banner(settings: Settings) -> str:
    """What ``longhall serve`` prints: the two URLs and the join QR code."""
    store = Store(settings.db_path)
    try:
        code = store.get_meta("table_code")
        if code is None:  # first start: create the table now so the QR code is right
            import secrets

            code = secrets.token_urlsafe(6)
            store.set_meta("table_code", code)
    finally:
        store.close()
    url = base_url(settings.host, settings.port, settings.public_url)
    join = f"{url}/join/{code}"
    return (
        "\nLonghall\n"
        f"  table display:  {url}/\n"
        f"  players join:   {join}\n"
        f"  game store:     {settings.db_path}\n\n"
        f"{qr_terminal(join)}\n"
    )


def serve(settings: Settings) -> int:
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    print(banner(settings), flush=True)
    LonghallServer(settings).run()
    return 0


if __name__ == "__main__":
    sys.exit(serve(Settings()))
