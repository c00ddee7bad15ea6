"""The pages on the wire and on the screen, in Debian's Chromium (Playwright), as a Pi and an old
phone run them.

Measured: the bytes each page transfers on its first load (compressed, as sent over the network:
HTML, CSS, JavaScript, the language catalog, QR codes, and the first snapshot over the WebSocket)
and the bytes each game's page modules add when that game is played (loaded with import() only
then); then, with Chromium's CPU slowed down by DevTools' throttling (``--table-throttle``, 4 as a
Pi 4 runs the kiosk; ``--phone-throttle``, 6 as an old phone):

- the table display at 1920x1080 while bots play a whole game of each game: from the arrival of
  each WebSocket message to the frame that shows it painted (the first task after the next
  animation frame), its median, 95th and 99th percentiles, and the long tasks (over 50 ms).
  The wait for the next frame is part of it (up to a frame; an idle page starts one at once):
  the part from the start of the frame that shows it (``in_frame_…``) says whether an update's
  work fits in one frame;
- a phone at 390x844 over a Wi-Fi-like link (20 Mbit/s, 5 ms each way): its first load, from the
  navigation to the first screen drawn (the join form), and each update of a seated phone during
  a bot game, measured the same way.

``--floor`` also measures the floor under these figures: a page that takes the same messages
through the pages' own Socket.IO client and draws nothing, throttled alike (what a page measures
above it is its own work).

``--taps N`` measures only a phone's taps: the host's old phone (throttled and on the Wi-Fi-like
link as above) taps a game to play N times in the lobby, and each time the probe (``TAP_PROBE``)
takes the time from the finger's lift to the frame that shows the table's answer painted.

``--replay`` measures only this, to compare one change to the pages with another: a whole bot
game of each game is recorded (every state the table display is sent, and the host's phone, its
seat played by a bot; the server's seed fixed), then handed to the table display and to a phone,
each throttled as above, one state at a time with the page idle ``--gap`` ms between them, as in
a game; from handing it a state to the first task after the frame that shows it. With no
server, bots or socket at work meanwhile, it moves a few percent from run to run where the bot
games move 10 to 20. ``--replay --bound`` then also shows the same screens alone: each state
drawn beforehand at full speed and its screen kept, then the kept screens shown in turn,
throttled (only what differs changed, as the pages do): what the browser itself takes to change
these screens, close to the least any way of drawing them could take.

The measuring is the benchmark's own script, added to each page before it loads
(``FRAME_PROBE``): the pages carry no code for it.

Run: ``.venv/bin/python bench/pages.py`` (figures go to docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from tests.pages.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, wait_until
from tests.support import Phone, ServerProcess, received


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
GAMES = {"eketorp": 6, "vikings_on_board": 4, "vikings_gone_wild": 4}  # players, all bots
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


# Added to a page before its own scripts: for every WebSocket message, the time from its arrival
# to the first task after the next animation frame (the frame that shows it is painted by then),
# and from that frame's start (or the arrival, if later); and every long task (over 50 ms) the
# browser reports.
FRAME_PROBE = """
window.__benchFrames = [];
window.__benchInFrame = [];
window.__benchLongTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__benchLongTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", () => {
      const arrived = performance.now();
      requestAnimationFrame((frame) => setTimeout(() => {
        const now = performance.now();
        window.__benchFrames.push(now - arrived);
        window.__benchInFrame.push(now - Math.max(frame, arrived));
      }, 0));
    });
  }
};
"""
# Added to a phone before its own scripts: from the finger's lift to the first task after the
# next animation frame once the table's answer is drawn (the page's version changed). For an
# answer drawn in a frame's callback, as updates are, that is the frame after the one that paints
# it: a frame long, at most.
TAP_PROBE = """
window.__benchTaps = [];
let lifted = null;
document.addEventListener("pointerup", () => { lifted = performance.now(); }, true);
new MutationObserver((records) => {
  const changed = records.some((r) => r.oldValue !== r.target.dataset.version);
  if (lifted === null || !changed) return;
  const from = lifted;
  lifted = null;
  const drawn = () => window.__benchTaps.push(performance.now() - from);
  requestAnimationFrame(() => setTimeout(drawn, 0));
}).observe(document, { subtree: true, attributeFilter: ["data-version"], attributeOldValue: true });
"""
# what the probe kept so far, forgotten from the moment the game starts
FORGET = "for (const k of ['Frames', 'InFrame', 'LongTasks']) window[`__bench${k}`].length = 0"
# DevTools' network conditions for a phone on a table's Wi-Fi: 20 Mbit/s, 5 ms each way
WIFI = {
    "offline": False,
    "latency": 5,
    "downloadThroughput": 20e6 / 8,
    "uploadThroughput": 20e6 / 8,
}


def throttled(context: Any, rate: float) -> tuple[Any, Any]:
    """A page of ``context`` with the probe in and its CPU slowed ``rate`` times, and its
    DevTools session."""
    page = context.new_page()
    page.add_init_script(FRAME_PROBE)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return page, cdp


def percentiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    if not times:
        return {"updates": 0}

    def at(q: float) -> float:
        return round(times[min(len(times) - 1, int(len(times) * q))], 1)

    return {
        "updates": len(times),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": at(0.95),
        "p99_ms": at(0.99),
        "max_ms": round(times[-1], 1),
    }


def frame_figures(page: Any) -> dict[str, Any]:
    """The probe's figures: from each message's arrival to the frame showing it painted, and
    the part of it from the frame's start (the wait for a frame set aside: whether the update's
    work fits in the frame it is shown in)."""
    result: dict[str, Any] = percentiles(page.evaluate("Array.from(window.__benchFrames)"))
    in_frame = percentiles(page.evaluate("Array.from(window.__benchInFrame)"))
    for key in ("median_ms", "p95_ms", "p99_ms"):
        result[f"in_frame_{key}"] = in_frame.get(key)
    return result


def table_code(server: ServerProcess) -> str:
    """The code of the table ``server`` keeps, as a phone that scans its QR code learns it."""
    lobby = Phone(server.url).connect()
    code = str(lobby.current["table"]["code"])
    lobby.disconnect()
    return code


def seat_host(server: ServerProcess, code: str) -> Phone:
    """The host: the first to join the table."""
    host = Phone(server.url, {"code": code}, name="host").connect()
    assert host.join("Host")["ok"]
    return host


def start_bot_game(host: Phone, game: str, players: int) -> None:
    """The host seats bots up to ``players`` seats, starts ``game`` and lets a bot stand in for
    every human seat, its own included."""
    assert host.command("set_game", game=game)["ok"]
    assert host.command("add_bot", bot="greedy")["ok"]  # seat 1: the start player
    while len(host.current["table"]["seats"]) < players:
        assert host.command("add_bot", bot="greedy")["ok"]
    assert host.command("set_start_player", seat=1)["ok"]
    assert host.command("start")["ok"]
    if game == "vikings_gone_wild":  # the bonus cards on the table, entered for the bot (W1.3)
        assert host.command("proxy", seat=1, action={"type": "first_game_bonus"})["ok"]
    for seat, who in enumerate(host.current["table"]["seats"]):
        if who["kind"] == "human":
            assert host.command("botify", seat=seat, bot="greedy")["ok"]


def wait_over(page: Any) -> None:
    deadline = time.monotonic() + 900
    while page.evaluate("document.body.dataset.status") != "over":
        assert time.monotonic() < deadline, "the bot game did not end"
        page.wait_for_timeout(500)


def table_frames(
    browser: Any, server: ServerProcess, game: str, players: int, rate: float
) -> dict[str, Any]:
    """A whole game of bots, the table display drawing it with its CPU slowed ``rate`` times."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page, _ = throttled(context, rate)
    page.goto(server.url + "/")
    page.wait_for_selector("#join-url")
    code = page.inner_text("#join-url").rsplit("/", 1)[1]
    host = seat_host(server, code)
    start_bot_game(host, game, players)
    host.disconnect()  # a stand-in bot plays the host's seat
    page.evaluate(FORGET)
    wait_over(page)
    result = frame_figures(page)
    long_tasks = page.evaluate("Array.from(window.__benchLongTasks)")
    result["long_tasks"] = len(long_tasks)
    result["longest_task_ms"] = round(max(long_tasks, default=0), 1)
    context.close()
    return result


# the floor's page: the vendored Socket.IO client, connected as a spectator, and nothing drawn
SOCKET_IO = next((ROOT / "server/static/vendor").glob("socket.io-*.esm.min.js")).name
FLOOR = f"""async (code) => {{
  const {{ io }} = await import("/static/vendor/{SOCKET_IO}");
  window.__floor = io({{ auth: {{ code }}, transports: ["websocket"] }});
}}"""


def floor_frames(
    browser: Any, server: ServerProcess, game: str, players: int, rate: float, **context: Any
) -> dict[str, Any]:
    """The floor of the figures: a whole game of bots heard by a page that draws nothing."""
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    page, _ = throttled(browser.new_context(**context), rate)
    page.goto(server.url + "/healthz")
    page.evaluate(FLOOR, code)
    host = seat_host(server, code)
    page.evaluate(FORGET)
    start_bot_game(host, game, players)
    host.disconnect()
    lobby.wait(lambda m: m["table"]["status"] == "over", timeout=900)
    lobby.disconnect()
    page.wait_for_timeout(500)  # the last messages drawn (that is, not drawn)
    result = frame_figures(page)
    result["long_tasks"] = len(page.evaluate("Array.from(window.__benchLongTasks)"))
    page.context.close()
    return result


def phone_figures(browser: Any, server: ServerProcess, rate: float) -> dict[str, Any]:
    """An old phone on the table's Wi-Fi: its first load, then its updates in a game of Eketorp
    that a bot plays for it."""
    code = table_code(server)
    host = seat_host(server, code)
    context = browser.new_context(**PHONE)
    page, cdp = throttled(context, rate)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", WIFI)
    page.goto(f"{server.url}/join/{code}")
    page.wait_for_selector("#name")
    drawn = page.evaluate("performance.now()")  # from the navigation: the join form is shown
    first = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
    )
    page.fill("#name", "Phone")
    page.tap("#join")
    page.wait_for_selector(".seat-row")
    page.evaluate(FORGET)
    start_bot_game(host, "eketorp", 4)  # the phone's seat too
    host.disconnect()
    wait_over(page)
    result = frame_figures(page)
    result["first_paint_ms"] = round(first)
    result["join_form_ms"] = round(drawn)
    result["long_tasks"] = len(page.evaluate("Array.from(window.__benchLongTasks)"))
    context.close()
    return result


def tap_figures(browser: Any, server: ServerProcess, rate: float, taps: int) -> dict[str, Any]:
    """The host's old phone on the table's Wi-Fi, in the lobby: ``taps`` taps on a game to
    play, one game then the other, each answered by the table; from the finger's lift to the
    answer drawn. A tap comes 300 to 317 ms after the last answer, as a player's next one
    would: anywhere in a frame (with a fixed gap, every tap of a run fell at the same point of
    the frame, and whole runs came out a frame apart)."""
    rnd = random.Random(taps)
    code = table_code(server)
    context = browser.new_context(**PHONE)
    page, cdp = throttled(context, rate)
    page.add_init_script(TAP_PROBE)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", WIFI)
    page.goto(f"{server.url}/join/{code}")
    page.fill("#name", "Host")
    page.tap("#join")
    page.wait_for_selector("[data-game]")
    page.wait_for_timeout(300)
    page.evaluate("window.__benchTaps.length = 0")  # the join's own tap
    for i in range(taps):
        page.wait_for_timeout(300 + 17 * rnd.random())
        page.tap(f"[data-game={('eketorp', 'vikings_on_board')[i % 2]}]")
        wait_until(page, f"window.__benchTaps.length > {i}")
    result = percentiles(page.evaluate("Array.from(window.__benchTaps)"))
    context.close()
    return result


def recorded_game(
    server: ServerProcess, game: str, players: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every state of a whole bot game as the table display is sent it, and as the host's phone
    is (a bot stands in for its seat), patches applied, from the game's start to its end."""
    spectator = Phone(server.url).connect()
    host = seat_host(server, spectator.latest["table"]["code"])  # type: ignore[index]
    start_bot_game(host, game, players)
    spectator.wait(lambda m: m["table"]["status"] == "over", timeout=900)
    host.wait(lambda m: m["table"]["status"] == "over")
    spectator.disconnect()
    host.disconnect()
    return game_states(spectator), game_states(host)


def game_states(client: Phone) -> list[dict[str, Any]]:
    """The states ``client`` was shown while the game was played, one per message."""
    return [
        message
        for message, _ in received(client.messages)
        if message["game"] is not None and message["table"]["status"] in ("playing", "over")
    ]


# A page's own modules (the table display's or a phone's), handed one recorded state after
# another (``--replay``)
REPLAY = """async ([modules, states, gap]) => {
  const page = await import(modules);
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const idle = () => new Promise((done) => setTimeout(done, gap));
  page.setMsg(states[0]);
  page.render();
  while (!document.body.dataset.phase) await idle(); // the game's module is loaded and drawn
  const times = [];
  for (const state of states) {
    await idle();
    const start = performance.now();
    page.setMsg(state);
    page.render();
    await frame();
    times.push(performance.now() - start);
  }
  return times;
}"""


# ``--replay --bound``: the screens alone. First, at full speed, each state is drawn by the page's
# own code and what ``#app`` then shows is kept (a copy of its elements, with the body's data and
# the screen's class); then, throttled, each kept screen is shown in turn by ``show`` (only what
# differs from the screen before is changed), timed as above. No state is read and no element
# built: what is left is the browser's work to change what these screens change, which any way
# of drawing them pays, and ``show``'s comparing, which a finer way might not.
KEEP_SCREENS = """async ([modules, states]) => {
  const page = await import(modules);
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const app = document.getElementById("app");
  page.setMsg(states[0]);
  page.render();
  while (!document.body.dataset.phase) await frame();
  window.__benchScreens = [];
  for (const state of states) {
    page.setMsg(state);
    page.render();
    await frame(); // drawn, and the boxes' rooms measured (before that frame's paint)
    const body = { ...document.body.dataset };
    const screen = app.cloneNode(true);
    // a box's open state is the page's own (``__open``, see common.js), which a copy lacks
    const boxes = screen.querySelectorAll("details");
    app.querySelectorAll("details").forEach((box, i) => { boxes[i].__open = box.__open; });
    window.__benchScreens.push({ body, name: app.className, screen });
  }
}"""
SHOW_SCREENS = """async ([gap]) => {
  const { show } = await import("/static/common.js");
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const idle = () => new Promise((done) => setTimeout(done, gap));
  const app = document.getElementById("app");
  const put = ({ body, name, screen }) => {
    Object.assign(document.body.dataset, body);
    app.className = name;
    show(app, [...screen.childNodes]);
  };
  const [first, ...screens] = window.__benchScreens; // each screen's nodes move to the page
  put(first);
  await frame();
  const times = [];
  for (const screen of screens) {
    await idle();
    const start = performance.now();
    put(screen);
    await frame();
    times.push(performance.now() - start);
  }
  return times;
}"""


def replay(
    browser: Any,
    server: ServerProcess,
    states: list[dict[str, Any]],
    rate: float,
    gap: int,
    phone: bool = False,
    bound: bool = False,
) -> dict[str, Any]:
    """Recorded states handed to the table display (or a phone, not seated) of a table in its
    lobby, which sends the page nothing meanwhile, throttled ``rate`` times; with ``bound``,
    their screens alone (``KEEP_SCREENS``)."""
    if phone:
        page, cdp = throttled(browser.new_context(**PHONE), 1 if bound else rate)
        page.goto(f"{server.url}/join/{table_code(server)}")
        page.wait_for_selector("#name")
    else:
        viewport = {"width": 1920, "height": 1080}
        page, cdp = throttled(browser.new_context(viewport=viewport), 1 if bound else rate)
        page.goto(server.url + "/")
        page.wait_for_selector("#join-url")
    modules = "/phone/page.js" if phone else "/table/page.js"
    if bound:
        page.evaluate(KEEP_SCREENS, [modules, states])
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        times = page.evaluate(SHOW_SCREENS, [gap])
    else:
        times = page.evaluate(REPLAY, [modules, states, gap])
    page.context.close()
    result: dict[str, Any] = percentiles(times)
    result["over_50_ms"] = sum(t > 50 for t in times)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--table-throttle", type=float, default=4.0, help="CPU slowdown, kiosk")
    parser.add_argument("--phone-throttle", type=float, default=6.0, help="CPU slowdown, phone")
    parser.add_argument(
        "--games", nargs="*", default=list(GAMES), choices=list(GAMES), help="table display's"
    )
    parser.add_argument("--floor", action="store_true", help="also a page that draws nothing")
    parser.add_argument("--replay", action="store_true", help="only a recorded game, replayed")
    parser.add_argument("--gap", type=int, default=60, help="ms between replayed states")
    parser.add_argument(
        "--bound", action="store_true", help="with --replay, also the screens alone"
    )
    parser.add_argument("--taps", type=int, default=0, help="only a phone's N taps, timed")
    args = parser.parse_args()
    if args.bound and not args.replay:
        parser.error("--bound measures the replayed screens: give --replay too")
    from playwright.sync_api import sync_playwright

    def serve(*extra: str) -> ServerProcess:
        data = Path(tempfile.mkdtemp(prefix="longhall-pages-"))
        server = ServerProcess(
            data, "--bot-delay", "0.15", "--auto-next", "0.15", "--rate-limit", "1000", *extra
        )
        server.start()
        return server

    if args.taps:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            server = serve()
            try:
                d = tap_figures(browser, server, args.phone_throttle, args.taps)
            finally:
                server.stop()
            browser.close()
        print(
            f"phone 390x844, CPU /{args.phone_throttle:g}, 20 Mbit/s and 5 ms: a tap to the"
            f" table's answer drawn, median {d['median_ms']} ms, p95 {d['p95_ms']}, p99"
            f" {d['p99_ms']}, worst {d['max_ms']} ({d['updates']} taps)"
        )
        return

    if args.replay:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for game in args.games:
                server = serve("--seed", "1", "--bot-delay", "0.02", "--auto-next", "0.02")
                try:
                    table_states, phone_states = recorded_game(server, game, GAMES[game])
                finally:
                    server.stop()
                for who, states, rate in (
                    ("table display", table_states, args.table_throttle),
                    ("phone", phone_states, args.phone_throttle),
                ):
                    for bound in (False, True) if args.bound else (False,):
                        server = serve()
                        try:
                            phone = who == "phone"
                            d = replay(browser, server, states, rate, args.gap, phone, bound)
                        finally:
                            server.stop()
                        what = "its screens alone, shown" if bound else "a recorded game replayed"
                        print(
                            f"{who}, CPU /{rate:g}, {game}, {what} {args.gap} ms apart: median"
                            f" {d['median_ms']} ms, p95 {d['p95_ms']}, p99 {d['p99_ms']}, worst"
                            f" {d['max_ms']}; {d['over_50_ms']} of {d['updates']} states over"
                            " 50 ms",
                            flush=True,
                        )
            browser.close()
        return

    result: dict[str, Any] = {"machine": machine(), "throttle": vars(args)}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        server = serve()
        try:
            phone_url = f"{server.url}/join/{table_code(server)}"
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
        for game in args.games:
            server = serve()  # each game on a fresh table
            try:
                result[f"table_frames_{game}"] = table_frames(
                    browser, server, game, GAMES[game], args.table_throttle
                )
                print(game, result[f"table_frames_{game}"], file=sys.stderr, flush=True)
            finally:
                server.stop()
        server = serve()
        try:
            result["phone_frames"] = phone_figures(browser, server, args.phone_throttle)
        finally:
            server.stop()
        if args.floor:  # the table display's games, then the phone's (as phone_figures)
            runs: list[tuple[str, str, int, float, dict[str, Any]]] = [
                (f"floor_{game}", game, GAMES[game], args.table_throttle, {"viewport": full_hd})
                for game in args.games
            ]
            runs.append(("floor_phone", "eketorp", 4, args.phone_throttle, PHONE))
            for name, game, players, rate, context in runs:
                server = serve()
                try:
                    result[name] = floor_frames(browser, server, game, players, rate, **context)
                finally:
                    server.stop()
        browser.close()
    every = sum(result[f"modules_{game}"]["phone"]["bytes"] for game in GAMES)
    result["phone_with_every_game_bytes"] = result["phone_first_load"]["total_bytes"] + every
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
    total = result["phone_with_every_game_bytes"] / 1024
    print(f"phone first load plus every game's modules: {total:.1f} KB (budget 150 KB)")
    for game in args.games:
        d = result[f"table_frames_{game}"]
        print(
            f"table display, CPU /{args.table_throttle:g}, {game}: message to painted frame"
            f" median {d['median_ms']} ms, p95 {d['p95_ms']}, p99 {d['p99_ms']}, worst"
            f" {d['max_ms']} ({d['updates']} messages); long tasks {d['long_tasks']}, longest"
            f" {d['longest_task_ms']} ms; from the frame's start median {d['in_frame_median_ms']},"
            f" p95 {d['in_frame_p95_ms']}"
        )
    d = result["phone_frames"]
    print(
        f"phone 390x844, CPU /{args.phone_throttle:g}, 20 Mbit/s and 5 ms: first paint"
        f" {d['first_paint_ms']} ms, join form drawn by {d['join_form_ms']} ms; in an Eketorp"
        f" game, message to painted frame median {d['median_ms']} ms, p95 {d['p95_ms']}, p99"
        f" {d['p99_ms']} ({d['updates']} messages); long tasks {d['long_tasks']}; from the"
        f" frame's start median {d['in_frame_median_ms']}, p95 {d['in_frame_p95_ms']}"
    )
    for name in [key for key in result if key.startswith("floor_")]:
        d = result[name]
        print(
            f"{name}, a page that draws nothing: median {d['median_ms']} ms, p95 {d['p95_ms']},"
            f" p99 {d['p99_ms']} ({d['updates']} messages); long tasks {d['long_tasks']}"
        )


if __name__ == "__main__":
    main()
