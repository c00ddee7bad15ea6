"""The server's watchdog: READY=1 and heartbeats to systemd from a real server process, and no
heartbeat while the table's lock is held (systemd then restarts the server)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from longhall.server.appliance.sdnotify import Heartbeat, sd_notify, started, watchdog_seconds
from tests.support import ServerProcess

from .conftest import render, unit


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A socket where systemd would listen for notifications."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(60)  # a bound on a broken test, not a timing
        yield path, sock


def test_a_real_server_says_ready_then_beats(
    tmp_path: Path, notify_socket: tuple[str, socket.socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, sock = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # a heartbeat every 0.1 s
    server = ServerProcess(tmp_path / "data")
    (tmp_path / "data").mkdir()
    server.start()
    try:
        first = sock.recv(4096).decode()
        assert first.splitlines()[0] == "READY=1"
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert sock.recv(4096) == b"WATCHDOG=1"
    finally:
        server.stop()


def test_without_systemd_nothing_is_sent() -> None:
    assert not sd_notify("READY=1", {})
    assert started(threading.RLock(), {}) is None
    assert watchdog_seconds({}) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000"}) == 30.0


def test_a_held_table_lock_stops_the_heartbeat() -> None:
    lock = threading.RLock()
    sent: list[str] = []

    def send(message: str) -> bool:
        sent.append(message)
        return True

    heartbeat = Heartbeat(lock, timeout=0.1, send=send)
    assert heartbeat.beat() and sent == ["WATCHDOG=1"]

    taken, done = threading.Event(), threading.Event()

    def hold() -> None:  # a command stuck with the lock
        with lock:
            taken.set()
            done.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait(60)
    try:
        assert not heartbeat.beat()
        assert sent == ["WATCHDOG=1"]  # nothing more: systemd will restart the server
    finally:
        done.set()
        holder.join()
    assert heartbeat.beat() and sent == ["WATCHDOG=1", "WATCHDOG=1"]


def test_a_lock_held_up_to_25_of_30_seconds_never_costs_a_heartbeat_in_time() -> None:
    class Lock:  # asked how long it may be waited for
        def __init__(self) -> None:
            self.waits: list[float] = []

        def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
            self.waits.append(timeout)
            return False

        def release(self) -> None:
            raise AssertionError("never taken")

    lock = Lock()
    heartbeat = Heartbeat(lock, timeout=30.0, send=lambda message: True)
    assert heartbeat.interval == 5.0  # a heartbeat every 5 s under WatchdogSec=30
    assert not heartbeat.beat() and lock.waits == [2.5]  # each try waits half an interval
    # the last heartbeat came at most one interval before the lock was taken; a lock let go is
    # seen within half an interval: systemd restarts only a lock held for more than 25 s
    assert heartbeat.tolerated() == 25.0


def test_the_unit_keeps_a_watchdog(tmp_path: Path, prefix: Path) -> None:
    service = unit(render(tmp_path / "units", prefix) / "longhall.service")["Service"]
    assert service["Type"] == ["notify"] and service["NotifyAccess"] == ["main"]
    assert service["WatchdogSec"] == ["30"]


def test_the_hardware_watchdog_is_an_option_off_by_default_off_a_pi(tmp_path: Path) -> None:
    from .test_install import commands, dry_run, written

    conf = "/etc/systemd/system.conf.d/longhall-watchdog.conf"
    out = dry_run("--prefix", str(tmp_path / "p"), "--hardware-watchdog", "14").stdout
    assert written(out, conf).splitlines()[-3:] == [
        "[Manager]",
        "RuntimeWatchdogSec=14",
        "RebootWatchdogSec=2min",
    ]
    assert "systemctl daemon-reexec" in commands(out)
    assert "hardware_watchdog=14" in written(out, "/etc/longhall/install.conf")
    out = dry_run("--prefix", str(tmp_path / "p")).stdout  # this machine is no Pi
    assert f"+ write {conf}" not in out and f"rm -f {conf}" in commands(out)
    refused = dry_run("--hardware-watchdog", "60")
    assert refused.returncode == 2 and "1 to 15 seconds" in refused.stderr
