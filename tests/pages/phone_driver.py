"""The Phone page driver for the flow tests: a real phone page in Chromium whose Socket.IO client
is replaced by a stand-in that passes every command to a real Eketorp engine in the test's process
and brings back the reader's real view, as the server would."""

from __future__ import annotations

import json
import time
from typing import Any

from longhall.server.games.api import IllegalAction
from longhall.server.games.eketorp import SPEC, EketorpState

from ..games.eketorp.helpers import RED
from ..support import ServerProcess
from .conftest import PHONE_SMALL, Watched, wait_until

# The stand-in for the vendored Socket.IO client: the same calls the page makes, answered by
# window.longhallCommand (the test's engine) instead of a server.
FAKE_IO = """
const handlers = {};
const fake = {
  connected: false, active: true, auth: null,
  on(event, fn) { (handlers[event] = handlers[event] || []).push(fn); return fake; },
  fire(event, data) { for (const fn of handlers[event] || []) fn(data); },
  connect() { fake.connected = true; fake.fire("connect"); },
  disconnect() { fake.connected = false; fake.fire("disconnect", "io client disconnect"); },
  timeout() { return fake; },
  emit(event, payload, callback) {
    if (event === "snapshot") { callback(null, window.__longhallLast); return; }
    window.longhallCommand(payload).then((reply) => {
      if (reply.update) { window.__longhallLast = reply.update; fake.fire("update", reply.update); }
      callback(null, reply.answer);
    });
  },
};
window.__longhallFake = fake;
// resolves once the frame that draws the message has run (the page draws once per frame)
window.__longhallPush = (message, kind) => {
  window.__longhallLast = message;
  fake.fire(kind, message);
  return new Promise((drawn) => requestAnimationFrame(() => drawn()));
};
export function io(options) {
  fake.auth = options.auth;
  setTimeout(() => fake.connect(), 0);
  return fake;
}
"""

NAMES = ["Anna", "Bram", "Carla", "Dirk", "Eva", "Finn"]
COUNT_C = "document.querySelector('[data-field=C] .entry-count').textContent.startsWith('{}')"
TIMES = "\u00d7"  # the multiplication sign the page writes ("3 times 2")
COLOURS = {"red": "▲", "blue": "●", "yellow": "■", "green": "◆", "white": "★", "black": "✚"}


def stand_in_table(
    st: EketorpState | None,
    seat: int | None,
    away: set[int],
    status: str,
    result: dict[str, Any] | None,
    stand_ins: set[int] | None = None,
) -> dict[str, Any]:
    """The table part of a message: ``seat`` and the ``away`` seats are players, the rest bots;
    a bot stands in for the players of ``stand_ins`` for now."""
    n = st.n if st is not None else 4
    seats = [
        {
            "seat": i,
            "name": NAMES[i] if human else f"Bot {symbol}",
            "colour": colour,
            "symbol": symbol,
            "kind": "human" if human else "bot",
            "bot": "greedy" if not human or i in (stand_ins or set()) else None,
            "vacant": False,
            "host": i == 0,
            "connected": i not in away,
        }
        for i, (colour, symbol) in zip(range(n), COLOURS.items(), strict=False)
        for human in [i == seat or i in away]
    ]
    return {
        "code": "stand-in",
        "join_url": "http://127.0.0.1/join/stand-in",
        "game": "eketorp",
        "games": ["eketorp"],
        "lobby_games": {
            "eketorp": {
                "min_players": 3,
                "max_players": 6,
                "minutes": [60, 60],
                "bots": ["greedy", "random"],
                "options": ["deck"],
                "table_facts": False,
            }
        },
        "status": status,
        "paused": False,
        "locked": False,
        "barred": [],
        "options": {"deck": "house"},
        "seats": seats,
        "host": 0,
        "start_player": 0,
        "min_players": 3,
        "max_players": 6,
        "colours": COLOURS,
        "game_id": 1,
        "fingerprints": {},
        "reveals": [],
        "result": result,
        "hardware": {"status": "off", "code": None, "message": None},
        "hotspot": None,
        "language": None,
    }


class StandInPage:
    """A page whose Socket.IO client is ``FAKE_IO``: each command it sends goes to the test's
    engine state ``st`` as the server would take it (a move of the page's seat, or of the table),
    and the answer brings the page's view after it (``message``, each driver's own)."""

    st: Any
    seat: int | None
    version: int
    commands: list[dict[str, Any]]
    refused: list[str]

    def open(self, context: Any, url: str, name: str) -> None:
        page = context.new_page()
        page.route(
            "**/static/vendor/socket.io-*.js",
            lambda route: route.fulfill(
                status=200, content_type="application/javascript", body=FAKE_IO
            ),
        )
        page.expose_function("longhallCommand", self._command)
        self.watched = Watched(page, name)
        self.page = page
        page.goto(url)
        wait_until(page, "window.__longhallFake !== undefined && window.__longhallFake.connected")

    def message(self) -> dict[str, Any]:
        raise NotImplementedError

    def advance(self) -> None:
        """One version on, as the server's counter moves with each change."""
        self.version += 1

    def _command(self, payload: dict[str, Any]) -> dict[str, Any]:
        self.commands.append(payload)
        if payload["type"] == "history":  # the table's earlier games: none here
            return {"answer": {"ok": True, "games": [], "players": [], "version": self.version}}
        try:
            if payload["type"] not in ("act", "table"):
                raise IllegalAction("unknown_command", "not in this stand-in")
            assert self.st is not None
            self.st.apply(self.seat if payload["type"] == "act" else None, payload["action"])
        except IllegalAction as err:
            self.refused.append(err.code)
            return {"answer": {"ok": False, "error": err.to_dict(), "version": self.version}}
        self.advance()
        return {"answer": {"ok": True, "version": self.version}, "update": self.message()}


class Phone(StandInPage):
    """One phone page, seated at ``seat``, playing the engine state ``st``."""

    def __init__(
        self,
        browser: Any,
        server: ServerProcess,
        st: EketorpState | None,
        seat: int = RED,
        lang: str = "en",
        status: str = "playing",
        init_script: str = "",
    ) -> None:
        self.st, self.seat, self.status = st, seat, status
        self.version = self.seq = 1
        self.result: dict[str, Any] | None = None
        self.away: set[int] = set()  # seats of players whose phone is gone (the others are bots)
        self.stand_ins: set[int] = set()  # players a bot plays for, for now
        self.commands: list[dict[str, Any]] = []
        self.refused: list[str] = []
        context = browser.new_context(**PHONE_SMALL, locale=lang)
        if init_script:
            context.add_init_script(init_script)
        self.open(context, server.url + "/join/stand-in", f"phone {seat}")
        self.push("snapshot")

    # -- the stand-in server ------------------------------------------------------------------

    def table(self) -> dict[str, Any]:
        return stand_in_table(
            self.st, self.seat, self.away, self.status, self.result, self.stand_ins
        )

    def message(self) -> dict[str, Any]:
        game = None  # the last game's board stays after it, as the server keeps it
        if self.st is not None and (self.status == "playing" or self.st.phase == "over"):
            game = json.loads(json.dumps(SPEC.view(self.st, self.seat)))
        return {
            "seq": self.seq,
            "version": self.version,
            "steps": None if game is None or self.st is None else self.st.version,
            "table": self.table(),
            "you": {"seat": self.seat, "host": self.seat == 0},
            "game": game,
        }

    def advance(self) -> None:
        self.version += 1
        self.seq += 1

    def push(self, kind: str = "update") -> None:
        """Send the page the table as it is now (after the test changed it)."""
        if kind == "update":
            self.advance()
        self.page.evaluate("([m, k]) => window.__longhallPush(m, k)", [self.message(), kind])

    def others(self, seat: int, action: dict[str, Any]) -> None:
        """Another player (a bot here) acts; the phone hears of it."""
        assert self.st is not None
        self.st.apply(seat, action)
        self.push()

    def settle(self, timeout: float = 10) -> None:
        """Wait until the page has drawn the last answer and nothing is on its way (a tap may
        send two commands, and an update waits for the finger to lift)."""
        deadline = time.monotonic() + timeout
        last, stable = None, 0
        while time.monotonic() < deadline:
            now = (
                self.version,
                self.page.evaluate(
                    "[document.body.dataset.version, document.body.dataset.pending]"
                ),
            )
            stable = stable + 1 if now == last and now[1] == [str(self.version), "false"] else 0
            if stable >= 3:
                return
            last = now
            self.page.wait_for_timeout(50)
        raise TimeoutError(f"the phone did not settle: {last}")

    def actions(self) -> list[dict[str, Any]]:
        return [c["action"] for c in self.commands if c["type"] == "act"]

    def text(self) -> str:
        return str(self.page.inner_text("#app"))

    def no_errors(self) -> None:
        assert self.watched.errors == [], self.watched.errors
        assert "⟦" not in self.text()


def no_wider_than_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_SMALL["viewport"]["width"], f"the page is {width} px wide"


class TableDisplay:
    """The table display page, showing the engine states a test pushes to it through the same
    stand-in for the Socket.IO client (it only ever sees the public view, as from the server)."""

    def __init__(
        self,
        browser: Any,
        server: ServerProcess,
        lang: str = "en",
        size: tuple[int, int] = (1920, 1080),
    ) -> None:
        self.version = 0
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, locale=lang
        )
        page = self.context.new_page()
        page.route(
            "**/static/vendor/socket.io-*.js",
            lambda route: route.fulfill(
                status=200, content_type="application/javascript", body=FAKE_IO
            ),
        )
        self.watched = Watched(page, f"table display ({lang})")
        self.page = page
        page.goto(f"{server.url}/?lang={lang}")
        wait_until(page, "window.__longhallFake !== undefined && window.__longhallFake.connected")

    def show(self, st: EketorpState) -> None:
        """Push the public view of ``st`` and wait until the page has drawn it."""
        self.version += 1
        message = {
            "seq": self.version,
            "version": self.version,
            "steps": st.version,
            "table": stand_in_table(st, RED, set(), "playing", None),
            "you": None,
            "game": json.loads(json.dumps(SPEC.view(st, None))),
        }
        self.page.evaluate("([m, k]) => window.__longhallPush(m, k)", [message, "snapshot"])
        wait_until(
            self.page,
            f"document.body.dataset.version === '{self.version}' && !!document.body.dataset.phase",
        )

    def close(self) -> None:
        self.context.close()
