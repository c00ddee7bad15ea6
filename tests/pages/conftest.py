"""Playwright for Python driving Debian's Chromium against a real ``longhall serve``."""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support import ROOT, ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]
ARTIFACTS = ROOT / "test-artifacts"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
PHONE_SMALL = {
    "viewport": {"width": 360, "height": 640},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is missing: ./run tests installs it (apt install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path, "--bot-delay", "0.05", "--rate-limit", "1000", "--seed", "7")
    proc.start()
    yield proc
    proc.stop()


class Watched:
    """A page whose console errors and every Socket.IO message it received are recorded."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.name = name
        self.errors: list[str] = []
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self.checked_ok = self.checked_bad = 0  # fingerprint checks seen on the table display
        page.on("console", self._console)
        page.on("pageerror", lambda err: self.errors.append(f"pageerror: {err}"))
        page.on("websocket", self._websocket)
        page.on("response", self._response)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)
        if message.type == "warning" and "missing translation" in message.text:
            self.errors.append(message.text)

    def _websocket(self, ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: self._packets(payload if isinstance(payload, str) else ""),
        )

    def _response(self, response: Any) -> None:
        if "/socket.io/" in response.url and response.request.method == "GET":
            # a long-poll cut short by the upgrade to WebSocket has no body
            with contextlib.suppress(Exception):
                self._packets(response.text())

    def _packets(self, text: str) -> None:
        for packet in text.split("\x1e"):
            if packet.startswith("42"):
                body = json.loads(packet[2:])
                if isinstance(body, list) and body and body[0] in ("snapshot", "update"):
                    self.messages.append((body[0], body[1]))

    def text(self) -> str:
        return str(self.page.inner_text("body"))


def wait_until(page: Any, expression: str, timeout: float = 10.0) -> None:
    """Poll a JavaScript expression until it is true. (Playwright's wait_for_function evaluates
    strings inside the page, which the pages' strict Content-Security-Policy forbids.)"""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(expression):
            return
        page.wait_for_timeout(30)
    raise TimeoutError(f"still false after {timeout} s: {expression}")


def tap_until(page: Any, selector: str, expression: str, tries: int = 3) -> None:
    """Tap and wait for the effect; tap again if an update redrew the page under the finger
    (the pages redraw from each update, and a tap on a replaced button is lost)."""
    for attempt in range(tries):
        page.tap(selector)
        try:
            wait_until(page, expression, timeout=5)
            return
        except TimeoutError:
            if attempt == tries - 1:
                raise


def screenshot(page: Any, name: str) -> None:
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{name}.png"))
