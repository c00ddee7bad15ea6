"""The pages, their files, ``/healthz`` and the QR codes: what the server answers over plain HTTP.

The table display (``/``), the phone page (``/join/<code>``) and the files both share are served
from the package's own folders (``phone_ui/``, ``table_display/``, ``server/static/``), each
compressed once and kept, with a strict Content-Security-Policy. A game's own files (its two page
modules, their styles, the words they share, its catalogs) are found under its game's root
(:data:`GAME_ROOTS`), and each language's catalog is served as one: the shared words and every
game's (:mod:`.catalogs`).
"""

from __future__ import annotations

import gzip
import mimetypes
import re
import threading
from collections.abc import Hashable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, request

from ..games.registry import GAMES
from ..qr import qr_svg, wifi_qr_text
from ..table import Table
from ..table.envelope import LANGUAGES
from .catalogs import merged_catalog

# The package's folders: ``longhall.server`` sits beside ``longhall.phone_ui`` and
# ``longhall.table_display`` in a checkout (server/, phone_ui/, table_display/) as in a wheel.
SERVER = Path(__file__).resolve().parent.parent
ROOT = SERVER.parent
FOLDERS = {"table": "table_display", "phone": "phone_ui", "static": "server/static"}
PAGES = {kind: ROOT / folder for kind, folder in FOLDERS.items()}
# Where each game's files are laid out as Longhall's own: <root>/phone_ui/games/<game>.js,
# <root>/table_display/games/<game>.js, <root>/server/static/games/<game>.js and
# <root>/server/static/i18n/<game>/<lang>.json. Longhall's games live in its own folders; a game
# kept elsewhere is registered with its root.
GAME_ROOTS: dict[str, Path] = {name: ROOT for name in GAMES}
GAME_FILE = re.compile(r"games/(?P<game>[a-z0-9_]+)\.(?:js|css)")
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
    packed: dict[Hashable, bytes] = {}  # each body gzipped once, by what it was made from
    packed_lock = threading.Lock()

    def send(body: bytes, name: str, made_from: Hashable) -> Response:
        mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if mime.startswith("text/") or mime in ("application/javascript", "application/json"):
            mime += "; charset=utf-8"
        response = Response(body, mimetype=mime)
        gzipped = name.endswith(COMPRESSIBLE) and "gzip" in request.headers.get(
            "Accept-Encoding", ""
        )
        if gzipped:
            with packed_lock:
                data = packed.get(made_from)
                if data is None:
                    data = packed[made_from] = gzip.compress(body, 9)
            response.set_data(data)
            response.headers["Content-Encoding"] = "gzip"
        response.headers["Vary"] = "Accept-Encoding"
        response.headers["Cache-Control"] = "no-cache"
        response.add_etag()
        if gzipped:
            response.make_conditional(request)
        else:  # byte ranges: Safari plays a video (the phone's keep-awake one) only with them
            response.make_conditional(request, accept_ranges=True, complete_length=len(body))
        return response

    def serve_file(kind: str, name: str) -> Response:
        if "\x00" in name:  # no file has one, and the file system refuses it with an error
            abort(404)
        folder = PAGES[kind]
        own = GAME_FILE.fullmatch(name)
        if own is not None and own["game"] in GAME_ROOTS:
            folder = GAME_ROOTS[own["game"]] / FOLDERS[kind]
        path = (folder / name).resolve()
        if folder.resolve() not in path.parents or not path.is_file():
            abort(404)
        return send(path.read_bytes(), path.name, (path, path.stat().st_mtime))

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.get("/")
    def table_page() -> Response:
        return serve_file("table", "index.html")

    @app.get("/join/<code>")
    def phone_page(code: str) -> Response:
        return serve_file("phone", "index.html")

    @app.get("/table/<path:name>")
    def table_files(name: str) -> Response:
        return serve_file("table", name)

    @app.get("/phone/<path:name>")
    def phone_files(name: str) -> Response:
        return serve_file("phone", name)

    @app.get("/static/i18n/<lang>.json")
    def catalog(lang: str) -> Response:
        if lang not in LANGUAGES:
            abort(404)
        body, made_from = merged_catalog(lang, PAGES["static"] / "i18n", GAME_ROOTS)
        return send(body, f"{lang}.json", made_from)

    @app.get("/static/<path:name>")
    def static_files(name: str) -> Response:
        return serve_file("static", name)

    @app.get("/healthz")
    def healthz() -> Response:
        # "degraded" (and why) while the game store cannot be written
        storage = table.storage.health()
        return jsonify({"status": "ok", "version": longhall_version(), **health(), **storage})

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
