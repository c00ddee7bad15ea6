"""The kiosk's start condition: wait-for-healthz waits while no server answers, then lets go."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.support import ServerProcess, free_port

from .conftest import WAIT

# the unit runs it with the system's Python (no venv): so do the tests, where there is one
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def waiter(url: str, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [PYTHON, str(WAIT), "--interval", "0.05", *options, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_it_keeps_waiting_until_a_real_server_answers(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/healthz"
    server = ServerProcess(tmp_path, port=port)
    with waiter(url) as wait:
        try:
            assert wait.stdout is not None
            assert wait.stdout.readline().startswith(f"waiting for {url}")
            with pytest.raises(subprocess.TimeoutExpired):
                wait.wait(timeout=1)  # nobody answers: it is still waiting
            server.start()
            assert wait.wait(timeout=60) == 0
            assert "answers: ready" in wait.stdout.read()
        finally:
            wait.kill()
            server.stop()


def answering(status: str) -> Iterator[str]:
    """A server whose /healthz answers ``status``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"status": status}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/healthz"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def not_ready() -> Iterator[str]:
    """A server that answers /healthz, but not with "ok" (say, another program on the port)."""
    yield from answering("starting")


@pytest.fixture
def degraded() -> Iterator[str]:
    """Longhall serving a table whose game store cannot be written."""
    yield from answering("degraded")


def test_a_degraded_server_counts_the_kiosk_shows_what_is_wrong(degraded: str) -> None:
    with waiter(degraded, "--timeout", "30") as wait:
        out, _ = wait.communicate(timeout=60)
    assert wait.returncode == 0, out


def test_only_an_ok_counts_and_a_timeout_gives_up(not_ready: str) -> None:
    with waiter(not_ready, "--timeout", "0.5") as wait:
        out, _ = wait.communicate(timeout=30)
    assert wait.returncode == 1
    assert "did not answer" in out
