"""The pages on the wire and on the screen, in Debian's Chromium (Playwright).

Measured: the bytes each page transfers on its first load (compressed, as sent over the network:
HTML, CSS, JavaScript, the language catalog, QR codes, and the first snapshot over the WebSocket),
and the time the table display takes to draw a state update (median, 99th percentile, worst) while
six bots play a whole game at 1920x1080.

Run: ``.venv/bin/python bench/pages.py`` (figures go to docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from tests.pages.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.support import Phone, ServerProcess


def first_load(browser: Any, url: str, ready: str, **context: Any) -> dict[str, int]:
    """Bytes on the wire for one first visit with an empty cache."""
    page = browser.new_context(**context).new_page()
    client = page.context.new_cdp_session(page)
    client.send("Network.enable")
    sizes: dict[str, int] = {}
    kinds: dict[str, str] = {}
    websocket_bytes = 0

    def finished(event: dict[str, Any]) -> None:
        sizes[event["requestId"]] = int(event["encodedDataLength"])

    def sent(event: dict[str, Any]) -> None:
        kinds[event["requestId"]] = event.get("type", "")

    def frame(event: dict[str, Any]) -> None:
        nonlocal websocket_bytes
        websocket_bytes += len(event["response"]["payloadData"].encode())

    client.on("Network.loadingFinished", finished)
    client.on("Network.requestWillBeSent", sent)
    client.on("Network.webSocketFrameReceived", frame)
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_timeout(500)
    page.context.close()
    assets = sum(sizes.values())
    return {
        "http_bytes": assets,
        "websocket_bytes": websocket_bytes,
        "requests": len(sizes),
        "total_bytes": assets + websocket_bytes,
    }


def draw_times(browser: Any, server: ServerProcess) -> dict[str, float]:
    """Play a whole 6-bot game while the table display draws every update."""
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#join-url")
    code = page.inner_text("#join-url").rsplit("/", 1)[1]
    host = Phone(server.url, {"code": code}, name="host").connect()
    assert host.join("Host")["ok"]
    for _ in range(5):
        assert host.command("add_bot", bot="greedy")["ok"]
    assert host.command("botify", seat=0, bot="greedy")["ok"]
    assert host.command("start")["ok"]
    host.disconnect()  # the stand-in bot plays the host's seat
    page.evaluate("window.__longhallDrawTimes.length = 0")
    deadline = time.monotonic() + 900
    while page.evaluate("document.body.dataset.status") != "over" and time.monotonic() < deadline:
        page.wait_for_timeout(500)
    times = sorted(page.evaluate("Array.from(window.__longhallDrawTimes)"))
    page.context.close()
    return {
        "updates": len(times),
        "median_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[int(len(times) * 0.99)], 2),
        "max_ms": round(times[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="longhall-pages-"))
    server = ServerProcess(data, "--bot-delay", "0", "--auto-next", "0.05", "--rate-limit", "1000")
    server.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            lobby = Phone(server.url).connect()
            code = lobby.latest["table"]["code"]  # type: ignore[index]
            lobby.disconnect()
            phone_url = f"{server.url}/join/{code}"
            full_hd = {"width": 1920, "height": 1080}
            result = {
                "machine": machine(),
                "phone_first_load": first_load(browser, phone_url, "#name", **PHONE),
                "table_first_load": first_load(
                    browser, server.url + "/", "#join-url", viewport=full_hd
                ),
                "table_draw": draw_times(browser, server),
            }
            browser.close()
    finally:
        server.stop()
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"machine: {result['machine']}; Chromium headless")
    for name in ("phone_first_load", "table_first_load"):
        r = result[name]
        print(
            f"{name}: {r['total_bytes'] / 1024:.1f} KB ({r['http_bytes'] / 1024:.1f} KB in "
            f"{r['requests']} HTTP responses, compressed; {r['websocket_bytes'] / 1024:.1f} KB "
            f"over the WebSocket)"
        )
    d = result["table_draw"]
    print(
        f"table display draw per update: median {d['median_ms']} ms, p99 {d['p99_ms']} ms,"
        f" worst {d['max_ms']} ms ({d['updates']} updates, 1920x1080)"
    )


if __name__ == "__main__":
    main()
