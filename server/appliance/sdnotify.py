"""systemd's notify protocol: READY=1 once the server serves, then a heartbeat for its watchdog.

Under ``Type=notify`` with ``WatchdogSec=`` systemd passes ``$NOTIFY_SOCKET`` and
``$WATCHDOG_USEC``; a server that stops sending ``WATCHDOG=1`` in time is killed and restarted.
Each heartbeat first takes the table's lock: a lock that does not come free for 25 s (a deadlock,
a command stuck in the store) stops the heartbeat, and systemd restarts the server instead of the
table hanging for the rest of the night. The heartbeat also keeps the service's status line
(``systemctl status longhall``) saying what is wrong, such as a game store that cannot be
written. Without those variables (tests, ``./run serve``) nothing is sent. No dependency: a
notification is one datagram on a Unix socket.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping
from typing import Protocol

log = logging.getLogger(__name__)


class Lock(Protocol):
    def acquire(self, blocking: bool = ..., timeout: float = ...) -> bool: ...
    def release(self) -> None: ...


def sd_notify(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send one notification to systemd; False when not run under systemd (or it failed)."""
    address = environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as err:
        log.warning("could not notify systemd (%s)", err)
        return False
    return True


def watchdog_seconds(environ: Mapping[str, str] = os.environ) -> float | None:
    """The watchdog's timeout in seconds, if systemd set one for this process."""
    usec = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None  # meant for another process (a parent that passed on its environment)
    return int(usec) / 1_000_000


class Heartbeat:
    """WATCHDOG=1 every sixth of the timeout, each one only once the table's lock could be taken.

    Each try waits half an interval for the lock; while it stays taken the next try starts at
    once, so a lock let go is taken at that moment and the heartbeat sent. The last heartbeat came
    at most one interval before the lock was taken, so systemd restarts the server only when the
    lock is held for more than the timeout less one interval: 25 s under ``WatchdogSec=30`` (a
    heartbeat every 5 s). A lock held longer than that is stuck.
    """

    def __init__(
        self,
        lock: Lock,
        timeout: float,
        send: Callable[[str], bool] = sd_notify,
        status: Callable[[], str] | None = None,
    ) -> None:
        self.lock = lock
        self.interval = timeout / 6
        self.send = send
        self.status = status  # the service's status line, read under the table's lock
        self.said = STATUS
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="sd-watchdog", daemon=True)

    def tolerated(self) -> float:
        """The longest a lock may be held before the server is restarted (at worst)."""
        return self.interval * 5

    def beat(self) -> bool:
        """One heartbeat, if the table's lock comes free within half an interval."""
        if not self.lock.acquire(timeout=self.interval / 2):
            log.error(
                "the table's lock was not free for %.1f s: no heartbeat (systemd restarts the "
                "server if it stays taken for %.0f s)",
                self.interval / 2,
                self.tolerated(),
            )
            return False
        try:
            said = self.status() if self.status is not None else self.said
            if said != self.said:
                self.said = said
                self.send(f"STATUS={said}")
            self.send("WATCHDOG=1")
        finally:
            self.lock.release()
        return True

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()

    def _run(self) -> None:
        wait = self.interval
        while not self.stopping.wait(wait):
            # a failed try has waited half an interval for the lock already: ask again at once
            wait = self.interval if self.beat() else 0.0


STATUS = "Serving the table"


def started(
    lock: Lock,
    environ: Mapping[str, str] = os.environ,
    status: Callable[[], str] | None = None,
) -> Heartbeat | None:
    """Tell systemd the server is ready and start the heartbeat if it keeps a watchdog (and
    with it, the status line ``status`` gives, kept up to date)."""
    if not sd_notify(f"READY=1\nSTATUS={STATUS}", environ):
        return None
    timeout = watchdog_seconds(environ)
    if timeout is None:
        return None
    heartbeat = Heartbeat(lock, timeout, lambda message: sd_notify(message, environ), status)
    heartbeat.start()
    log.info("systemd watchdog: a heartbeat every %.1f s", heartbeat.interval)
    return heartbeat
