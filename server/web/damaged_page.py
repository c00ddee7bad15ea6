"""What the table display shows when the server cannot serve the table: a damaged game store.

The server does not start the table over a store that was found damaged
(:mod:`longhall.server.store.damaged` keeps it aside). Instead of exiting, which leaves the kiosk's
screen blank (and systemd starting the server again and again), it serves one page in the place of
the table display: which file, where it was kept and what to do, in the catalogs' words (the
browser's language first, then the three others: the host's choice of language is in the store that
could not be read). ``/healthz`` answers, so that the kiosk opens the page, and says what is wrong.
The page looks again every few seconds: once a backup is restored and the service restarted, the
table display comes back. The server stops on SIGTERM or SIGINT like the real one, with exit status
3.
"""

from __future__ import annotations

import html
import json
import logging
import signal
import threading
from collections.abc import Iterable
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from ..store.damaged import DamagedStore
from ..table.envelope import LANGUAGES

log = logging.getLogger(__name__)

CATALOGS = Path(__file__).resolve().parent.parent / "static" / "i18n"
EXIT_DAMAGED = 3
REQUEST_SECONDS = 10.0  # a client that sends its request slower than this is hung up on
MOST_AT_ONCE = 16  # requests served at once


def sentences(damaged: DamagedStore) -> dict[str, str]:
    """The damaged store's sentence in every language of the catalogs."""
    out = {}
    for lang in LANGUAGES:
        catalog = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        text = catalog["notices"]["store_damaged"]
        out[lang] = text.replace("{file}", str(damaged.store)).replace("{kept}", str(damaged.kept))
    return out


def preferred(accept: str, asked: str = "") -> list[str]:
    """The catalogs' languages, the one the browser asks for first."""
    wanted = [asked] if asked else []
    for part in accept.split(","):
        wanted.append(part.split(";")[0].strip().lower()[:2])
    first = next((lang for lang in wanted if lang in LANGUAGES), "en")
    return [first, *(lang for lang in LANGUAGES if lang != first)]


def page(texts: dict[str, str], order: list[str]) -> bytes:
    first, *others = order
    rest = "".join(f'<p lang="{lang}">{html.escape(texts[lang])}</p>' for lang in others)
    return f"""<!doctype html>
<html lang="{first}">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="10">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Longhall</title>
<style>
body {{ background: #1d1a16; color: #f3ead8; font: 1.6rem/1.4 sans-serif; margin: 6vh 8vw; }}
h1 {{ color: #e0a040; font-size: 2.4rem; }}
.others {{ font-size: 1.1rem; opacity: 0.75; margin-top: 4vh; }}
</style>
</head>
<body>
<h1>Longhall</h1>
<p id="store-damaged" lang="{first}">{html.escape(texts[first])}</p>
<div class="others">{rest}</div>
</body>
</html>
""".encode()


def application(damaged: DamagedStore) -> Any:
    texts = sentences(damaged)

    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/")
        headers = [
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
        ]
        if path == "/healthz":
            # "ok": the server answers and the kiosk may show its page; what is wrong is named
            body = json.dumps(
                {"status": "ok", "phase": "damaged_store", "damaged_store": str(damaged)}
            ).encode()
            start_response("200 OK", [("Content-Type", "application/json"), *headers])
            return [body]
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", headers)
            return [b""]
        query = dict(
            part.partition("=")[::2] for part in environ.get("QUERY_STRING", "").split("&")
        )
        order = preferred(environ.get("HTTP_ACCEPT_LANGUAGE", ""), query.get("lang", ""))
        start_response(
            "503 Service Unavailable", [("Content-Type", "text/html; charset=utf-8"), *headers]
        )
        return [page(texts, order)]

    return app


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    busy = threading.BoundedSemaphore(MOST_AT_ONCE)

    def process_request(self, request: Any, client_address: Any) -> None:
        # a flood of connections cannot spend the Pi's memory on threads: beyond the cap, the
        # connection is closed at once (the kiosk asks again within seconds)
        if not self.busy.acquire(blocking=False):
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.busy.release()


class _Quiet(WSGIRequestHandler):
    timeout = REQUEST_SECONDS  # a half-sent request does not hold a thread for long

    def log_message(self, format: str, *args: Any) -> None:
        return None  # the log says what is wrong once, not once per request


def serve_damaged_page(damaged: DamagedStore, host: str, port: int) -> int:
    """Serve the damaged store's page until told to stop; return :data:`EXIT_DAMAGED`."""
    from ..appliance.sdnotify import started

    server = make_server(
        host, port, application(damaged), server_class=_Server, handler_class=_Quiet
    )
    stopping = threading.Event()

    def stop(*_: object) -> None:
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.warning("the table display shows what to do about the game store on port %d", port)
    started(threading.Lock())  # systemd: served (the page), and the watchdog's heartbeat
    try:
        server.serve_forever(poll_interval=0.5)
    finally:
        server.server_close()
    return EXIT_DAMAGED
