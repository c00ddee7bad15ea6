"""Playwright for Python driving Debian's Chromium against a real ``longhall serve``."""

from __future__ import annotations

import contextlib
import json
import shutil
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support import ROOT, ServerProcess, apply_patch, short_deck

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
PHONE_SMALL: dict[str, Any] = {
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


def browser_contexts(request: pytest.FixtureRequest) -> list[Any]:
    """The browser's contexts now, if the test uses the browser."""
    if "browser" not in request.fixturenames:
        return []
    return list(request.getfixturevalue("browser").contexts)


def close_pages(request: pytest.FixtureRequest, kept: list[Any]) -> None:
    """Close every browser context (its pages) but ``kept``, such as a module's shared page. A
    page left open goes on running for the rest of the session (reconnecting to a server long
    stopped, looping its wake video), and its kept-alive connection holds its server's stop for
    gunicorn's linger, 2 s."""
    for context in browser_contexts(request):
        if context not in kept:
            context.close()


@pytest.fixture(autouse=True)
def pages_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    kept = browser_contexts(request)
    yield
    close_pages(request, kept)


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    short_deck(tmp_path)  # Eketorp's whole games in three rounds
    kept = browser_contexts(request)
    proc = ServerProcess(tmp_path, "--bot-delay", "0.05", "--rate-limit", "1000", "--seed", "7")
    proc.start()
    yield proc
    close_pages(request, kept)  # first: the server then stops at once
    proc.stop()


@pytest.fixture(scope="session")
def files_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server a worker for the pages whose Socket.IO client is a stand-in
    (``phone_driver.FAKE_IO``): they only fetch the pages' files from it, so the tests that use
    nothing else share it rather than each starting a server of its own."""
    proc = ServerProcess(tmp_path_factory.mktemp("files-server"), "--rate-limit", "1000")
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
        self.latest: dict[str, Any] | None = None  # the last whole message, for the next patch
        self.checked_ok = self.checked_bad = 0  # fingerprint checks seen on the table display
        # the last WebSocket frames both ways, as sent: what a failed wait says it saw
        self.frames: deque[str] = deque(maxlen=40)
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
        self.frames.append(f"opened {ws.url}")
        ws.on("framereceived", self._received)
        ws.on("framesent", lambda payload: self.frames.append(f"> {str(payload)[:300]}"))
        ws.on("close", lambda _ws: self.frames.append("closed"))

    def _received(self, payload: Any) -> None:
        self.frames.append(f"< {str(payload)[:300]}")
        self._packets(payload if isinstance(payload, str) else "")

    def _response(self, response: Any) -> None:
        if "/socket.io/" in response.url and response.request.method == "GET":
            # a long-poll cut short by the upgrade to WebSocket has no body
            with contextlib.suppress(Exception):
                self._packets(response.text())

    def _packets(self, text: str) -> None:
        """Record every whole message the page had: snapshots and updates as sent, a patch
        applied to the message before it (as server/static/patch.js does; after a gap the page
        asks for a snapshot, which comes back as the answer to its ``snapshot`` event)."""
        for packet in text.split("\x1e"):
            if not packet.startswith(("42", "43")):
                continue
            start = packet.find("[")
            body = json.loads(packet[start:]) if start >= 0 else None
            if not isinstance(body, list) or not body:
                continue
            if packet.startswith("43"):  # an answer: the one holding a message is a snapshot
                if isinstance(body[0], dict) and "seq" in body[0] and "table" in body[0]:
                    self._take("snapshot", body[0])
            elif body[0] in ("snapshot", "update"):
                self._take(body[0], body[1])
            elif body[0] == "patch":
                patch, latest = body[1], self.latest
                if latest is not None and patch["base"] == latest["seq"]:
                    self._take("update", apply_patch(latest, patch["ops"]))
                else:
                    self.latest = None  # a gap: the page asks for a snapshot

    def _take(self, event: str, message: dict[str, Any]) -> None:
        self.latest = message
        self.messages.append((event, message))

    def text(self) -> str:
        return str(self.page.inner_text("body"))

    def wait_for_text(self, text: str, timeout: float = 30.0) -> None:
        """Wait until the page shows ``text``; if it never does, say what it showed instead,
        what it kept and what went over its WebSocket (a wait that fails once in a while in CI
        is found from its message alone)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_selector(f"text={text}", timeout=timeout * 1000)
        except PlaywrightTimeout:
            seen = self.page.evaluate(
                "JSON.stringify({data: document.body.dataset, visible: document.visibilityState,"
                " kept: Object.keys(localStorage)})"
            )
            frames = "\n  ".join(self.frames)
            raise AssertionError(
                f"{self.name} never showed {text!r} in {timeout} s. It showed:\n"
                f"{self.text()[:600]}\n{seen}\nerrors: {self.errors}\nframes:\n  {frames}"
            ) from None


def wait_until(page: Any, expression: str, timeout: float = 10.0) -> None:
    """Wait until a JavaScript expression (or the promise it gives) is true, looking again
    every 10 ms inside the page: one round trip to the browser instead of one per look, and
    the wait ends within 10 ms of the change. (Playwright's wait_for_function evaluates its
    string with the page's own eval, which the pages' strict Content-Security-Policy forbids;
    a function Playwright sends is compiled by the browser itself, as ``evaluate`` always is.)
    A navigation during the wait (a reload, a new page) starts the wait again on the new page,
    with what is left of the timeout. The looking runs on the page's own timers: a page whose
    clock a test has paused (``page.clock``) is to be waited for another way."""
    import time

    from playwright.sync_api import Error

    # its names are unlikely to hide a page's own; a function given by mistake would be true
    look = (
        "async (__waitMs) => { const __waitEnd = performance.now() + __waitMs; for (;;) {"
        f" const __waitValue = await ({expression}\n);"
        " if (typeof __waitValue === 'function') throw new Error('wait_until: not an expression');"
        " if (__waitValue) return true;"
        " if (performance.now() > __waitEnd) return false;"
        " await new Promise((__waitWake) => setTimeout(__waitWake, 10)); } }"
    )
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            if page.evaluate(look, left * 1000):
                return
        except Error as error:
            if "Execution context was destroyed" not in error.message:
                raise
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


def open_phone(browser: Any, url: str, name: str, lang: str, small: bool = False) -> Watched:
    """A phone of its own (a browser context) that joins the table as ``name``."""
    context = browser.new_context(**(PHONE_SMALL if small else PHONE), locale=lang)
    page = context.new_page()
    watched = Watched(page, name)
    page.goto(url)
    page.wait_for_selector("#name")
    page.fill("#name", name)
    page.tap("#join")
    # seated: its token kept and its own lobby drawn. Not merely a seat list, which the join form
    # shows too once someone sits: a phone closed before its token came would wake a stranger.
    wait_until(
        page,
        "Object.keys(localStorage).some((key) => key.startsWith('longhall.token.'))"
        " && !document.querySelector('#join') && !!document.querySelector('.seat-row')",
        timeout=30,  # as Playwright's own wait before: a bound for a stuck page, not a timing
    )
    return watched


def version(phone: Watched) -> int:
    """The version of the table a page has drawn."""
    return int(phone.page.evaluate("document.body.dataset.version"))


class TwoPlayerVikingsGoneWild:
    """A game of Vikings Gone Wild on the pages: the table display (1920x1080) and the phones of
    Anna, the host and start player, and Bob, in the languages given; Anna has laid the first
    game's bonus cards (W1.3), so the game is in its first production."""

    def __init__(self, browser: Any, server: ServerProcess, table_lang: str, phone_lang: str):
        self.context = browser.new_context(
            viewport={"width": 1920, "height": 1080}, locale=table_lang
        )
        self.table = Watched(self.context.new_page(), "table")
        self.table.page.goto(server.url + "/")
        self.table.page.wait_for_selector("#join-url")
        join_url = self.table.page.inner_text("#join-url")
        self.anna, self.bob = (
            open_phone(browser, join_url, name, phone_lang) for name in ("Anna", "Bob")
        )
        self.host = self.anna.page
        game = "[data-game=vikings_gone_wild]"
        tap_until(self.host, game, "document.querySelector('[data-end-mark]')")
        tap_until(self.host, "#start", "document.body.dataset.status === 'playing'")
        tap_until(
            self.host,
            "[data-action*=first_game_bonus]",
            "document.body.dataset.phase === 'production'",
        )

    def to_annas_turn(self) -> None:
        """Production, then the draw: nobody has a choice there, and Bob's NEXT moves on."""
        for _ in range(2):
            next_version = f"document.body.dataset.version > {version(self.bob)}"
            tap_until(self.bob.page, "#vgw-next", next_version)

    def close(self) -> None:
        """Every page drew without an error; then they close."""
        for watched in (self.table, self.anna, self.bob):
            assert watched.errors == [], f"{watched.name}: {watched.errors}"
        self.context.close()
        for phone in (self.anna, self.bob):
            phone.page.context.close()
