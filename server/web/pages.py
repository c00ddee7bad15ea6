"""The pages, their files, ``/healthz`` and the QR codes: what the server answers over plain HTTP.

The table display (``/``), the phone page (``/join/<code>``) and the files both share are served
from the package's own folders (``phone_ui/``, ``table_display/``, ``server/static/``), each
compressed once and kept, with a strict Content-Security-Policy.
"""

from __future__ import annotations

import gzip
import mimetypes
import threading
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, request

from ..qr import qr_svg, wifi_qr_text
from ..table.service import Table

# The package's folders: ``longhall.server`` sits beside ``longhall.phone_ui`` and
# ``longhall.table_display`` in a checkout (server/, phone_ui/, table_display/) as in a wheel.
SERVER = Path(__file__).resolve().parent.parent
PAGES = {
    "table": SERVER.parent / "table_display",
    "phone": SERVER.parent / "phone_ui",
    "static": SERVER / "static",
}
COMPRESSIBLE = (".html", ".js", ".css", ".json", ".svg", ".txt")
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def longhall_version() -> str:
    try:
        return version("longhall")
    except PackageNotFoundError:
        return "0+unknown"


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
