"""The pages on the wire and on the screen, in Debian's Chromium (Playwright).

Measured: the bytes each page transfers on its first load (compressed, as sent over the network:
HTML, CSS, JavaScript, the language catalog, QR codes, and the first snapshot over the WebSocket),
the bytes each game's page modules add when that game is played (loaded with import() only then),
and the time the table display takes to draw a state update (median, 99th percentile, worst) while
bots play a whole game at 1920x1080: six of Eketorp, four of Vikings on Board.

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


ROOT = Path(__file__).resolve().parent.parent
GAMES = {"eketorp": 6, "vikings_on_board": 4}  # each game's bots for the draw times
# Each game's page modules, as the phone and the table display load them when it is played.
GAME_FILES = {
    "phone": [
        "phone_ui/games/{game}.js",
        "phone_ui/games/{game}.css",
        "server/static/games/{game}.js",
    ],
    "table": [
        "table_display/games/{game}.js",
        "table_display/games/{game}.css",
        "server/static/games/{game}.js",
    ],
}


def game_modules(server: ServerProcess, page: str, game: str) -> dict[str, int]:
    """Compressed bytes of one game's modules for one page, as the server sends them."""
    import requests

    total = 0
    files = 0
    for pattern in GAME_FILES[page]:
        path = pattern.format(game=game)
        if not (ROOT / path).exists():
            continue
        url = "/" + path.replace("phone_ui/", "phone/").replace("table_display/", "table/")
        url = url.replace("/server/static/", "/static/")
        answer = requests.get(
            server.url + url, headers={"Accept-Encoding": "gzip"}, timeout=10, stream=True
        )
        answer.raise_for_status()
        total += len(answer.raw.read(decode_content=False))  # as sent: compressed
        files += 1
    return {"bytes": total, "files": files}


def draw_times(browser: Any, server: ServerProcess, game: str, players: int) -> dict[str, float]:
    """Play a whole game of bots while the table display draws every update."""
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#join-url")
    code = page.inner_text("#join-url").rsplit("/", 1)[1]
    host = Phone(server.url, {"code": code}, name="host").connect()
    assert host.join("Host")["ok"]
    assert host.command("set_game", game=game)["ok"]
    for _ in range(players - 1):
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

    def serve() -> ServerProcess:
        data = Path(tempfile.mkdtemp(prefix="longhall-pages-"))
        server = ServerProcess(
            data, "--bot-delay", "0", "--auto-next", "0.05", "--rate-limit", "1000"
        )
        server.start()
        return server

    result: dict[str, Any] = {"machine": machine()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        server = serve()
        try:
            lobby = Phone(server.url).connect()
            code = lobby.latest["table"]["code"]  # type: ignore[index]
            lobby.disconnect()
            phone_url = f"{server.url}/join/{code}"
            full_hd = {"width": 1920, "height": 1080}
            result["phone_first_load"] = first_load(browser, phone_url, "#name", **PHONE)
            result["table_first_load"] = first_load(
                browser, server.url + "/", "#join-url", viewport=full_hd
            )
            for game in GAMES:
                result[f"modules_{game}"] = {
                    page: game_modules(server, page, game) for page in ("phone", "table")
                }
        finally:
            server.stop()
        for game, players in GAMES.items():
            server = serve()  # each game on a fresh table
            try:
                result[f"table_draw_{game}"] = draw_times(browser, server, game, players)
            finally:
                server.stop()
        browser.close()
    both = sum(result[f"modules_{game}"]["phone"]["bytes"] for game in GAMES)
    result["phone_with_both_games_bytes"] = result["phone_first_load"]["total_bytes"] + both
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
    for game in GAMES:
        m = result[f"modules_{game}"]
        print(
            f"{game} modules, loaded when played: phone {m['phone']['bytes'] / 1024:.1f} KB,"
            f" table display {m['table']['bytes'] / 1024:.1f} KB (compressed)"
        )
    total = result["phone_with_both_games_bytes"] / 1024
    print(f"phone first load plus both games' modules: {total:.1f} KB (budget 150 KB)")
    for game in GAMES:
        d = result[f"table_draw_{game}"]
        print(
            f"table display draw per update, {game}: median {d['median_ms']} ms,"
            f" p99 {d['p99_ms']} ms, worst {d['max_ms']} ms ({d['updates']} updates, 1920x1080;"
            f" one frame is 16.7 ms)"
        )


if __name__ == "__main__":
    main()
