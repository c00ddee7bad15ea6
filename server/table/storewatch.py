"""Whether the game store can be written: said on every screen, in ``/healthz`` and in the log
for as long as it cannot.

A full card, or one that failed into read-only, refuses each command with ``storage_failed``;
only the phone that sent it heard of it. While writes fail the table shows a standing notice on
the table display and every phone (``store_full``, ``store_read_only`` or ``store_failing``),
``/healthz`` says ``"degraded"`` with the reason, and a write is tried every few seconds: once
one succeeds (room was made on the card), the notice goes by itself. A store found read-only at
start is served read-only: every command is refused with ``store_read_only``, and nothing is
tried until the server is restarted on a writable card.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import threading
from typing import Any, Literal, Protocol

from ..store.damaged import read_only as card_read_only
from ..store.store import Store

log = logging.getLogger(__name__)

Status = Literal["ok", "full", "read_only", "failing"]
NOTICES: dict[Status, str] = {
    "full": "store_full",
    "read_only": "store_read_only",
    "failing": "store_failing",
}
MESSAGES: dict[Status, str] = {
    "full": "The Pi's storage is full: no move can be saved, so each one is refused until there "
    "is room. Every move made before is kept.",
    "read_only": "The Pi's storage is read-only: nothing can be saved, so the table can be "
    "watched but not played. The Pi's microSD may be failing.",
    "failing": "The game store cannot be written ({error}): each move is refused until it can. "
    "Every move made before is kept.",
}
WAS_EMPTY = "store_was_empty"
PROBE_SECONDS = 5.0  # while writes fail, how often one is tried
SQLITE_FULL = 13
SQLITE_READONLY = 8


class Watched(Protocol):
    """What the watch shows its findings on: the table's standing notices, and its lock."""

    store: Store
    notices: dict[str, dict[str, Any]]
    lock: Any

    def refresh(self) -> None: ...


class StoreWatch:
    """Whether the store of ``table`` can be written (hold the table's lock to call it)."""

    def __init__(self, table: Watched, probe_every: float = PROBE_SECONDS) -> None:
        self.table = table
        self.probe_every = probe_every
        self.status: Status = "ok"
        self.error = ""
        self.read_only = table.store.read_only  # for good: found so at start
        self._probe: threading.Thread | None = None
        self._stop = threading.Event()
        if self.read_only:
            log.error(
                "!!! The game store's card (%s) is read-only: the table is served as it is, and "
                "every command is refused until the server starts on a writable card.",
                table.store.path.parent,
            )
            self._show("read_only", "", refresh=False)

    def begun_empty(self) -> None:
        """The store was an empty file, begun afresh: said in the log and on the table
        display's first screen (until the first game starts)."""
        path = self.table.store.path
        log.warning("!!! The game store %s was empty; a new table was started.", path)
        self.table.notices[WAS_EMPTY] = {
            "code": WAS_EMPTY,
            "message": "The game store was empty; a new table was started.",
            "params": {"path": str(path)},
        }

    @property
    def failing(self) -> bool:
        return self.status != "ok"

    def failed(self, err: BaseException | None) -> None:
        """A write failed: say why on every screen (once) and try again every few seconds."""
        status = self._why(err)
        detail = _detail(err)
        if status != self.status:
            log.error("!!! the game store cannot be written (%s): %s", status, detail)
            self._show(status, detail)
        if not self.read_only and (self._probe is None or not self._probe.is_alive()):
            self._probe = threading.Thread(target=self._probing, name="store-probe", daemon=True)
            self._probe.start()

    def wrote(self) -> None:
        """A write succeeded: the notice goes."""
        if self.status == "ok" or self.read_only:
            return
        log.warning("the game store can be written again")
        self.table.notices.pop(NOTICES[self.status], None)
        self.status, self.error = "ok", ""
        self.table.refresh()

    def health(self) -> dict[str, Any]:
        """What ``/healthz`` says of the store."""
        if self.status == "ok":
            return {"storage": "ok"}
        return {"status": "degraded", "storage": self.status, "storage_error": self.error}

    def sentence(self) -> str:
        """One line for systemd's status of the service."""
        if self.status == "ok":
            return "Serving the table"
        return "Serving the table; the game store cannot be written: " + (
            self.error or self.status.replace("_", "-")
        )

    def stop(self) -> None:
        self._stop.set()

    def _show(self, status: Status, detail: str, refresh: bool = True) -> None:
        notices = self.table.notices
        for code in NOTICES.values():
            notices.pop(code, None)
        self.status, self.error = status, detail or status.replace("_", "-")
        notices[NOTICES[status]] = {
            "code": NOTICES[status],
            "message": MESSAGES[status].format(error=self.error),
            "params": {"error": self.error},
        }
        if refresh:
            self.table.refresh()

    def _why(self, err: BaseException | None) -> Status:
        if card_read_only(self.table.store.path.parent) or _code(err) == SQLITE_READONLY:
            return "read_only"
        if _code(err) == SQLITE_FULL or getattr(err, "errno", None) == errno.ENOSPC:
            return "full"
        return "failing"

    def _probing(self) -> None:
        """Try a write every few seconds while writes fail; once one succeeds, say so."""
        table = self.table
        while not self._stop.wait(self.probe_every):
            with table.lock:
                if not self.failing:
                    return
                store = table.store
            try:
                store.probe()
            except Exception as err:
                with table.lock:
                    self._failed_again(err)
                continue
            with table.lock:
                self.wrote()
            return

    def _failed_again(self, err: BaseException) -> None:
        """A probe failed: the reason may have changed (a full card that became read-only)."""
        status = self._why(err)
        if status != self.status:
            self._show(status, _detail(err))


def _code(err: BaseException | None) -> int | None:
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _detail(err: BaseException | None) -> str:
    if err is None:
        return ""
    if isinstance(err, sqlite3.Error):
        return str(err)
    return str(err) or type(err).__name__
