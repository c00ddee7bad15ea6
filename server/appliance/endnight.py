"""End the night: the table display says so, the store is closed, then the Pi powers off.

A Pi 4 has no power button, and pulling the plug is how an SD card gets corrupted. The host
holds HOST (``[buttons] hold`` in the pin map): the button's worker hands the long press to
:meth:`NightEnd.request` as it hands a short press to ``Table.press_host``, under the table's
lock. Every screen then shows a standing ``shutting_down`` notice; after a short grace (so the
screens can draw it) the store is closed (SQLite folds its write-ahead log into the file), the
power-off command runs (``systemctl poweroff`` on the Pi, where polkit allows it to the service's
user), and the store is opened again: the server keeps serving, every move still durable, until
systemd stops it on the way down. If the command fails, the notice goes and every screen says why.
"""

from __future__ import annotations

import logging
import shlex
import subprocess
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..store.store import Store
from ..table.connections import Identity
from ..table.service import Table

log = logging.getLogger(__name__)

NOTICE = "shutting_down"
GRACE_SECONDS = 3.0  # the screens draw "shutting down" before the Pi goes dark
COMMAND_SECONDS = 60.0


def _refusal(code: str, message: str, **params: Any) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, "params": params}}


class NightEnd:
    """The end of the night for one table: at most once, unless powering off failed."""

    def __init__(
        self,
        table: Table,
        command: str | None,
        grace: float = GRACE_SECONDS,
        run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
    ) -> None:
        self.table = table
        self.command: Sequence[str] | None = shlex.split(command) if command else None
        self.grace = grace
        self.run = run
        self.ending = False
        self.done = threading.Event()  # set once the command ran (for tests and tools)
        self._stop = threading.Event()

    def request(self, who: Identity | None = None) -> dict[str, Any]:
        """The long press on HOST (or the host's phone): start ending the night."""
        who = who or Identity("button")
        table = self.table
        with table.lock:
            host = who.kind == "seat" and who.seat is not None and who.seat == table.data.host
            if who.kind != "button" and not host:
                return _refusal("host_only", "Only the host can do that.", command="end_night")
            if self.command is None:
                return _refusal(
                    "poweroff_unavailable",
                    "Powering off is not set up on this table (long press on HOST).",
                )
            if self.ending:
                return _refusal(NOTICE, "The night is over: the table is shutting down.")
            self.ending = True
            self.done.clear()
            night = table.data.night
            if night is not None and night["ended"] is None:  # the night is kept as ended
                cid = f"button-{table.data.version}-end-night"
                table.submit(
                    Identity("button"),
                    {"type": "end_night", "id": cid, "version": table.data.version},
                )
            log.warning("the night is over (%s): shutting down", who.key)
            table.notices[NOTICE] = {
                "code": NOTICE,
                "message": "The night is over: the table is shutting down. The games are saved.",
                "params": {},
            }
            table.refresh()
            table.notify(NOTICE, "The night is over: the table is shutting down.")
            table.flush()  # the notice waits for the disk as updates do: send it now
        threading.Thread(target=self._finish, name="end-the-night", daemon=True).start()
        return {"ok": True, "version": table.data.version}

    def cancel(self) -> None:
        """Stop waiting (the server is stopping anyway)."""
        self._stop.set()

    def _finish(self) -> None:
        if self._stop.wait(self.grace):
            return
        table = self.table
        assert self.command is not None
        with table.lock:  # no command in between: the store is whole when the Pi goes dark
            table.flush()  # the commands still being written go first
            path = table.store.path
            table.store.close(truncate=True)  # the write-ahead log folded into the file
            log.warning("the store is closed; powering off: %s", shlex.join(self.command))
            reason = self._power_off()
            table.store = Store(path)  # serve on until systemd stops the server
            if reason is not None:
                log.error("could not power off: %s", reason)
                self.ending = False
                table.notices.pop(NOTICE, None)
                table.refresh()
                table.notify(
                    "poweroff_failed",
                    f"The Pi could not power off ({reason}); the table goes on.",
                    reason=reason,
                )
        self.done.set()

    def _power_off(self) -> str | None:
        """Run the command; why it failed, or None."""
        assert self.command is not None
        try:
            result = self.run(
                list(self.command), capture_output=True, text=True, timeout=COMMAND_SECONDS
            )
        except (OSError, subprocess.SubprocessError) as err:
            return str(err) or type(err).__name__
        if result.returncode != 0:
            said = (result.stderr or result.stdout or "").strip().splitlines()
            return said[-1][:200] if said else f"exit status {result.returncode}"
        return None
