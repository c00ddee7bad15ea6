"""One sender writes every WebSocket message of the table (server/sender.py). A screen that stops
reading must hold up nobody, and must still get every message, in order, once it reads again."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from server.games.api import progress_actions

from ..support import Phone, RawWebSocket, ServerProcess, apply_patch


class RawScreen(RawWebSocket):
    """A table display with a tiny receive buffer that can stop reading (as a phone on a weak
    Wi-Fi does) while it keeps answering engine.io's pings."""

    def __init__(self, port: int) -> None:
        super().__init__(port, receive_buffer=2048)
        self.stop = threading.Event()

    def keep_alive(self) -> None:
        """Answer engine.io's pings without reading them: a pong any time will do."""
        while not self.stop.wait(1.0):
            self.send("3")

    def close(self) -> None:
        self.stop.set()
        super().close()


def test_a_screen_that_stops_reading_holds_up_nobody_and_loses_nothing(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--bot-delay", "0", "--rate-limit", "100000", "--seed", "4")
    server.start()
    screen: RawScreen | None = None
    try:
        lobby = Phone(server.url).connect()
        code = lobby.current["table"]["code"]
        lobby.disconnect()
        host = Phone(server.url, {"code": code}, name="host").connect()
        assert host.join("Astrid")["ok"]
        for _ in range(2):
            assert host.command("add_bot", bot="random")["ok"]
        screen = RawScreen(server.port)
        assert screen.receive().startswith("0")  # engine.io open
        screen.send("40")  # Socket.IO connect, as the table display
        pending: list[Any] = []  # the snapshot (before or after Socket.IO's connect answer)
        connected = False
        while not (connected and pending):
            text = screen.receive()
            connected = connected or text.startswith("40")
            if text.startswith("42"):
                pending.append(json.loads(text[2:]))
        threading.Thread(target=screen.keep_alive, daemon=True).start()
        # the screen reads no more; the host plays on with two bots until the server has
        # found the screen's buffer full (or the game ends)
        assert host.command("start")["ok"]
        for _ in range(2000):
            view = host.latest
            assert view is not None
            if view["table"]["status"] != "playing" or "reads slowly" in server.log.read_text():
                break
            legal = progress_actions(view["game"]["legal"])
            # a bot may have moved first: a refusal changes nothing, and the host looks again
            if legal:
                host.command("act", action=legal[0])
            elif view["game"]["public"]["table_actions"]:
                action = {"type": view["game"]["public"]["table_actions"][0]}
                host.command("table", action=action)
            else:  # the bots' turn: their moves arrive as updates
                version = view["version"]
                host.wait(lambda v, t=version: v["version"] > t)
                continue
        assert "reads slowly" in server.log.read_text(), "the screen's buffer never filled"
        final = host.current["version"]
        # now the screen reads: every message, in order, each patch on the one before it
        last: dict[str, Any] | None = None
        deadline = time.monotonic() + 120  # bounds a stuck server only
        while last is None or last["version"] < final:
            assert time.monotonic() < deadline, "the screen never caught up"
            if not pending:
                text = screen.receive()
                if not text.startswith("42"):
                    continue  # pings and the like
                pending.append(json.loads(text[2:]))
            event, body = pending.pop(0)
            if event == "patch":
                assert last is not None and body["base"] == last["seq"], "a patch out of order"
                last = {**apply_patch(last, body["ops"]), "seq": body["seq"]}
            elif event in ("snapshot", "update"):
                last = body
        assert last["version"] >= final
    finally:
        if screen is not None:
            screen.close()
        server.stop()
