"""Bots play through the same door as phones: one thread submits their moves to the table.

A bot waits ``bot_delay`` seconds before a move the table can see, so the people at the table can
follow what it does; its secret planning steps go at once. With ``auto_next`` set, the runner also
presses NEXT after that many seconds when only the table can go on (handy for a table of bots).
"""

from __future__ import annotations

import logging
import threading
import time

from .table import Identity, Table

log = logging.getLogger("longhall.bots")

QUIET = frozenset({"place", "unplace", "commit", "uncommit"})  # secret: no need to watch


class BotRunner:
    """Runs bot seats (and stand-ins for absent players) in a daemon thread."""

    def __init__(self, table: Table, delay: float, auto_next: float | None = None) -> None:
        self.table = table
        self.delay = delay
        self.auto_next = auto_next
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="longhall-bots", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self.table.changed:
            self.table.changed.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        table = self.table
        waiting_since: float | None = None
        while not self._stop.is_set():
            try:
                with table.changed:
                    move = table.bot_move()
                    if move is None:
                        waiting_since = self._maybe_next(waiting_since)
                        table.changed.wait(timeout=0.5 if waiting_since else 2.0)
                        continue
                    waiting_since = None
                seat, action = move
                if action["type"] not in QUIET and self.delay > 0:
                    self._stop.wait(self.delay)
                with table.lock:
                    move = table.bot_move()
                    if move is None or move[0] != seat:
                        continue
                    version = table.data.version
                    ack = table.submit(
                        Identity("bot", seat),
                        {
                            "type": "act",
                            "id": f"bot-seat{seat}-v{version}",
                            "version": version,
                            "action": move[1],
                        },
                    )
                    if not ack["ok"]:
                        log.error("bot at seat %d was refused: %s", seat, ack["error"])
                        self._stop.wait(1.0)
            except Exception:
                log.exception("the bot runner hit an error; carrying on")
                self._stop.wait(1.0)

    def _maybe_next(self, since: float | None) -> float | None:
        """Press NEXT by itself once the table alone has waited ``auto_next`` seconds."""
        table = self.table
        if self.auto_next is None or table.data.status != "playing" or table.data.paused:
            return None
        if not table.records.game().legal_actions(None):
            return None
        now = time.monotonic()
        if since is None:
            return now
        if now - since >= self.auto_next:
            table.press_next(Identity("auto"))
            return None
        return since
