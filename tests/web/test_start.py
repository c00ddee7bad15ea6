"""``longhall serve`` starts with the garbage collector off (what it builds at the start lives as
long as the server, and collecting it costs a small board's CPU) and turns it back on once the
table is loaded and set aside: a server left without its collector would keep every cycle."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from longhall.server.config import Settings
from longhall.server.qr import qr_terminal
from longhall.server.web.app import create_app
from longhall.server.web.serve import LonghallServer, join_qr

from ..support import ServerProcess


def test_the_collector_is_back_on_once_the_table_is_loaded(tmp_path: Path) -> None:
    server = LonghallServer(Settings(data_dir=tmp_path, gpio="off"))
    gc.disable()  # as cli.main does for ``serve``
    try:
        server.load()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0  # the start's objects are set aside first
    finally:
        gc.enable()
        gc.unfreeze()
        if server.longhall is not None:
            server.longhall.stop()


# What a start leaves for later, and why (each was measured: docs/performance.md, "Start"). A
# module-level import added on the serving path brings one back without a word; this says so.
DEFERRED = {
    "longhall.server.cli.simulate": "the simulate command: serve never plays simulated games",
    "qrcode": "the banner's QR code is kept in the store once drawn (serve.join_qr), and the "
    "table display's are drawn when a screen first asks for one (qr.qr_svg)",
    "xml.etree.ElementTree": "qrcode's SVG writer, imported by qr.qr_svg when first asked",
    # installed here, for the tests' own clients; on a Pi, Debian's python3-requests is there
    "requests": "the engine.io client's HTTP library: a server is no client (cli.load_serve)",
    "urllib3": "requests' own: not loaded, as requests is not",
    "websocket": "the engine.io client's WebSocket library (cli.load_serve)",
}
# the serving path as `longhall serve` runs it, up to the table loaded and the banner printed
START = """
import json, sys
from pathlib import Path
from longhall.server.cli import load_serve
load_serve()  # as `longhall serve` imports it
from longhall.server.config import Settings
from longhall.server.web.serve import LonghallServer
settings = Settings(data_dir=Path(sys.argv[1]), gpio="off", public_url="http://10.42.0.1:8000")
server = LonghallServer(settings)
server.load()
server.longhall.stop()
print(json.dumps(sorted(sys.modules)))
"""


def start_modules(data_dir: Path) -> tuple[str, set[str]]:
    """A start's banner and the modules it imported, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-c", START, str(data_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    *banner, modules = done.stdout.strip().splitlines()
    return "\n".join(banner), set(json.loads(modules))


def test_a_restart_imports_only_what_serving_needs(tmp_path: Path) -> None:
    first, _ = start_modules(tmp_path)  # the first start draws the banner's QR code
    again, modules = start_modules(tmp_path)
    assert again == first  # the same banner, QR code and all, from the store
    for module, why in DEFERRED.items():
        assert module not in modules, f"{module} is imported at start, but need not be: {why}"


def test_longhall_serve_loads_no_socketio_client_library(tmp_path: Path) -> None:
    """``longhall serve`` itself, in a process of its own, the interpreter listing every import it
    makes (``-X importtime``): the engine.io client looks for requests and websocket-client
    (installed here, for the tests' own clients) and is told they are absent."""
    server = ServerProcess(
        tmp_path, program=[sys.executable, "-X", "importtime", "-m", "longhall.server.cli"]
    )
    server.start()
    server.stop()
    imported = {
        line.rpartition("|")[2].strip()
        for line in server.log.read_text().splitlines()
        if line.startswith("import time:")
    }
    assert "engineio.client" in imported and "requests" in imported  # looked for, as before
    # one looked for and absent is listed alone; one that loaded, with modules of its own
    loaded = sorted(
        {
            name.partition(".")[0]
            for name in imported
            if name.startswith(("requests.", "websocket.", "urllib3"))
        }
    )
    assert loaded == [], f"longhall serve loaded a Socket.IO client's libraries: {loaded}"


def test_the_banner_draws_the_qr_code_again_for_a_new_address(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="off", public_url="http://10.42.0.1:8000")
    lh = create_app(settings)
    try:
        kept = join_qr(lh.table)
        assert join_qr(lh.table) == kept == qr_terminal(lh.table.join_url)
        lh.table.join_url = lh.table.join_url.replace("10.42.0.1", "10.42.0.2")  # moved
        moved = join_qr(lh.table)
        assert moved == qr_terminal(lh.table.join_url) != kept
        assert lh.table.store.get_meta("join_qr") == f"{lh.table.join_url}\n{moved}"
    finally:
        lh.stop()
