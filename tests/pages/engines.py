"""The phone page in the two other browser engines of the phones at a table: WebKit (every iPhone)
and Gecko (Firefox on Android), beside the Chromium the other page tests drive with Playwright.

Both speak W3C standards, each with a few lines over packages the tests' lock already pins with
their hashes (requests, websocket-client):

- WebKit: Debian's WebKitGTK, through its WebDriver (``WebKitWebDriver``, package
  webkit2gtk-driver) over classic WebDriver (HTTP). WebKitGTK draws in a window, so the session
  gets its own virtual screen (Xvfb, package xvfb).
- Firefox: Debian's Firefox ESR, headless, over WebDriver BiDi (a WebSocket), which Firefox
  serves itself: no geckodriver, which Debian does not package.

(Selenium drives WebKitGTK the same way, but reaches Firefox only through geckodriver, which its
manager would download; Playwright's own WebKit and Firefox are downloads too.)

Each driver offers what the tests need: open an address, evaluate an expression, tap an element
as a finger would, type into a field, and the errors the page logged.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

import requests
import websocket

from ..support import free_port

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/{arch}-linux-gnu/webkit2gtk-4.1/MiniBrowser"
FIREFOX = "/usr/bin/firefox-esr"
XVFB = "/usr/bin/Xvfb"
PHONE = (390, 844)  # CSS pixels, as the other page tests' phone
STARTUP = 60.0  # seconds: only a broken install takes this long

# The page's errors, for WebKit's classic WebDriver, which has no console log: recorded from the
# first script on (an error before it would leave the page undrawn, which the tests see).
RECORD_ERRORS = """
if (!window.__engineErrors) {
  const errors = (window.__engineErrors = []);
  window.addEventListener("error", (e) => errors.push(`error: ${e.message}`));
  window.addEventListener("unhandledrejection", (e) => errors.push(`rejection: ${e.reason}`));
  const original = console.error.bind(console);
  console.error = (...args) => { errors.push(args.map(String).join(" ")); original(...args); };
}
"""

# The language menu's look, as the engine draws it: its own (appearance none: a native menu is white
# in WebKit, nearly unreadable on the dark page), dark, and the contrast of its words (WCAG's
# formula), in any engine.
LANGUAGE_MENU = """(() => {
  const style = getComputedStyle(document.querySelector("select.lang-switch"));
  const light = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [ink, ground] = [light(style.color), light(style.backgroundColor)];
  const look = (name) => style.getPropertyValue(name);
  return {
    appearance: look("-webkit-appearance") || look("appearance"),
    background: ground,
    contrast: (Math.max(ink, ground) + 0.05) / (Math.min(ink, ground) + 0.05),
  };
})()"""


def readable_menu(look: dict[str, Any]) -> bool:
    """The language menu has its own dark look with words one reads (WCAG AA: 4.5)."""
    own, dark, readable = look["appearance"] == "none", look["background"] < 0.1, look["contrast"]
    return bool(own and dark and readable >= 4.5)


# Firefox's preferences for a test profile: nothing fetched from outside (the machine has no
# network but the package registries), no first-run pages, the phone's language.
FIREFOX_PREFS = {
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.safebrowsing.update.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "extensions.update.enabled": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "services.settings.server": "data:,",
    "toolkit.telemetry.enabled": False,
    "intl.accept_languages": "en",
}


class Engine(Protocol):
    name: str

    def goto(self, url: str) -> None: ...
    def evaluate(self, expression: str) -> Any: ...
    def tap(self, selector: str) -> None: ...
    def type(self, selector: str, text: str) -> None: ...
    def errors(self) -> list[str]: ...
    def close(self) -> None: ...


def wait_for(engine: Engine, expression: str, timeout: float = 30.0) -> None:
    """Poll a JavaScript expression until it is true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if engine.evaluate(expression):
            return
        time.sleep(0.05)
    shown = engine.evaluate("document.body.innerText.slice(0, 600)")
    raise TimeoutError(f"{engine.name}: still false after {timeout} s: {expression}\n{shown}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End a process this module started, with the processes it started (its own group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue


def missing() -> list[str]:
    """What this machine lacks to run both engines (``./run tests`` installs it)."""
    arch = os.uname().machine
    needs = {
        WEBKIT_DRIVER: "webkit2gtk-driver",
        MINIBROWSER.format(arch=arch): "webkit2gtk-driver",
        FIREFOX: "firefox-esr",
        XVFB: "xvfb",
    }
    return sorted({package for path, package in needs.items() if not Path(path).exists()})


class WebKit:
    """WebKitGTK's MiniBrowser on its own virtual screen, through WebKitWebDriver."""

    name = "webkit"

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="longhall-webkit-"))
        self.procs: list[subprocess.Popen[bytes]] = []
        self.session = ""
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        display = self._screen()
        port = free_port()
        env = {**os.environ, "DISPLAY": display, "LANG": "en_US.UTF-8", "HOME": str(self.folder)}
        self._start([WEBKIT_DRIVER, f"--port={port}"], env)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + STARTUP
        while True:
            with contextlib.suppress(requests.RequestException):
                if requests.get(f"{self.base}/status", timeout=1).ok:
                    break
            if time.monotonic() > deadline:
                raise TimeoutError("WebKitWebDriver did not answer")
            time.sleep(0.05)
        browser = MINIBROWSER.format(arch=os.uname().machine)
        options = {"binary": browser, "args": ["--automation"]}
        capabilities = {"browserName": "MiniBrowser", "webkitgtk:browserOptions": options}
        answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = f"/session/{answer['sessionId']}"
        self.version = answer["capabilities"]["browserVersion"]
        self._call("POST", f"{self.session}/window/rect", {"width": PHONE[0], "height": PHONE[1]})

    def _screen(self) -> str:
        """A virtual screen of its own: Xvfb picks a free display and writes its number."""
        read, write = os.pipe()
        self._start(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1024x1024x24", "-nolisten", "tcp"],
            None,
            pass_fds=(write,),
        )
        os.close(write)
        # the number, then a newline: read both (Xvfb stops if it cannot write the newline)
        number = b""
        deadline = time.monotonic() + STARTUP
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(read, 32) if ready else b""
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip():
            raise TimeoutError("Xvfb gave no display")
        number = number.strip()
        return f":{number.decode()}"

    def _start(self, args: list[str], env: dict[str, str] | None, **more: Any) -> None:
        log = (self.folder / f"{Path(args[0]).name}.log").open("ab")
        self.procs.append(
            subprocess.Popen(
                args, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **more
            )
        )
        log.close()

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        reply = requests.request(method, self.base + path, json=body, timeout=STARTUP)
        value = reply.json()["value"]
        if not reply.ok:
            raise RuntimeError(f"webkit: {method} {path}: {value}")
        return value

    def goto(self, url: str) -> None:
        self._call("POST", f"{self.session}/url", {"url": url})
        self.evaluate("true")

    def evaluate(self, expression: str) -> Any:
        script = f"{RECORD_ERRORS}\nreturn ({expression});"
        return self._call("POST", f"{self.session}/execute/sync", {"script": script, "args": []})

    def _element(self, selector: str) -> str:
        found = self._call(
            "POST", f"{self.session}/element", {"using": "css selector", "value": selector}
        )
        return str(next(iter(found.values())))

    def tap(self, selector: str) -> None:
        for attempt in range(3):  # an update may redraw the page between finding and tapping
            try:
                self._call("POST", f"{self.session}/element/{self._element(selector)}/click", {})
                return
            except RuntimeError as err:
                if "stale element" not in str(err) or attempt == 2:
                    raise

    def type(self, selector: str, text: str) -> None:
        self._call(
            "POST", f"{self.session}/element/{self._element(selector)}/value", {"text": text}
        )

    def errors(self) -> list[str]:
        return list(self.evaluate("window.__engineErrors"))

    def close(self) -> None:
        if self.session:
            with contextlib.suppress(Exception):
                requests.delete(self.base + self.session, timeout=10)
        for proc in reversed(self.procs):
            stop(proc)
        shutil.rmtree(self.folder, ignore_errors=True)


class Firefox:
    """Firefox ESR, headless, over the WebDriver BiDi it serves itself."""

    name = "firefox"

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="longhall-firefox-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.socket: websocket.WebSocket | None = None
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        profile = self.folder / "profile"
        profile.mkdir()
        (profile / "user.js").write_text(
            "".join(
                f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()
            )
        )
        self.log = self.folder / "firefox.log"
        out = self.log.open("ab")
        args = [FIREFOX, "--headless", "--no-remote", "--profile", str(profile)]
        self.proc = subprocess.Popen(
            [*args, "--remote-debugging-port", "0", "about:blank"],
            env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its content processes with it, ended together
        )
        out.close()
        address = self._address()
        # Firefox refuses a WebSocket handshake with an Origin header: a page may not drive it
        self.socket = websocket.create_connection(
            f"{address}/session", timeout=STARTUP, suppress_origin=True
        )
        self.next_id = 0
        self.logged: list[str] = []
        self.version = self._call("session.new", {"capabilities": {}})["capabilities"][
            "browserVersion"
        ]
        self._call("session.subscribe", {"events": ["log.entryAdded"]})
        self.context = self._call("browsingContext.getTree", {})["contexts"][0]["context"]
        viewport = {"width": PHONE[0], "height": PHONE[1]}
        self._call(
            "browsingContext.setViewport",
            {"context": self.context, "viewport": viewport, "devicePixelRatio": 2},
        )

    def _address(self) -> str:
        """Firefox says where it listens on its standard error: "WebDriver BiDi listening on"."""
        assert self.proc is not None
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            for line in self.log.read_text(errors="replace").splitlines():
                if "WebDriver BiDi listening on " in line:
                    return line.split("listening on ", 1)[1].strip()
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise TimeoutError(f"Firefox did not listen: {self.log.read_text()[-2000:]}")

    def _call(self, method: str, params: dict[str, Any]) -> Any:
        assert self.socket is not None
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("type") == "event":
                entry = message["params"]
                if message["method"] == "log.entryAdded" and entry.get("level") == "error":
                    self.logged.append(f"{entry.get('type')}: {entry.get('text')}")
                continue
            if message.get("id") != self.next_id:
                continue
            if message.get("type") == "error":
                raise RuntimeError(f"firefox: {method}: {message.get('message')}")
            return message["result"]

    def goto(self, url: str) -> None:
        self._call(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def _run(self, expression: str, ownership: str = "none") -> Any:
        result = self._call(
            "script.evaluate",
            {
                "expression": expression,
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": ownership,
            },
        )
        if result.get("type") == "exception":
            raise RuntimeError(f"firefox: {expression}: {result['exceptionDetails']['text']}")
        return result["result"]

    def evaluate(self, expression: str) -> Any:
        return json.loads(self._run(f"JSON.stringify(({expression}) ?? null)")["value"])

    def tap(self, selector: str) -> None:
        element = self._run(f"document.querySelector({json.dumps(selector)})", "root")
        if element.get("type") != "node":
            raise RuntimeError(f"firefox: no {selector}")
        self._run(
            f"document.querySelector({json.dumps(selector)}).scrollIntoView({{block: 'center'}})"
        )
        origin = {"type": "element", "element": {"sharedId": element["sharedId"]}}
        finger = {
            "type": "pointer",
            "id": "finger",
            "parameters": {"pointerType": "touch"},
            "actions": [
                {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0},
            ],
        }
        self._call("input.performActions", {"context": self.context, "actions": [finger]})

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)
        keys = []
        for char in text:
            keys += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
        actions = [{"type": "key", "id": "keyboard", "actions": keys}]
        self._call("input.performActions", {"context": self.context, "actions": actions})

    def errors(self) -> list[str]:
        self.evaluate("true")  # what was logged before now has come in
        return list(self.logged)

    def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                self._call("session.end", {})
            with contextlib.suppress(Exception):
                self.socket.close()
        if self.proc is not None:
            stop(self.proc)
        shutil.rmtree(self.folder, ignore_errors=True)
