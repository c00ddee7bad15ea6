"""The server's watchdog: READY=1 and heartbeats to systemd from a real server process, and no
heartbeat while the table's lock is held (systemd then restarts the server)."""

from __future__ import annotations

import itertools
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


class VirtualTime(threading.Event):
    """The heartbeat's clock: its waits for the next beat and for the table's lock (held from
    ``held_from`` for ``held_for`` seconds) move a virtual clock instead of taking time."""

    def __init__(self, held_from: float, held_for: float, until: float) -> None:
        super().__init__()
        self.now = 0.0
        self.held = (held_from, held_from + held_for)
        self.until = until
        self.beats = [0.0]  # READY=1 counts as the first sign of life
        self.waits: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:  # the heartbeat's pause: stopping?
        self.now += timeout or 0.0
        return self.now >= self.until

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        self.waits.append(timeout)
        start, end = self.held
        if not start <= self.now < end:
            return True
        if self.now + timeout >= end:  # let go while waited for: taken at that moment
            self.now = end
            return True
        self.now += timeout
        return False

    def release(self) -> None:
        pass

    def send(self, message: str) -> bool:
        self.beats.append(self.now)
        return True

    def longest_silence(self) -> float:
        return max(later - earlier for earlier, later in itertools.pairwise(self.beats))


def silences(held_for: float) -> list[float]:
    """The longest time without a heartbeat under WatchdogSec=30, for a lock held ``held_for``
    seconds from each moment of a heartbeat's cycle (every 0.1 s of the first 10 s)."""
    found = []
    for tenth in range(100):
        clock = VirtualTime(held_from=tenth / 10, held_for=held_for, until=60.0)
        heartbeat = Heartbeat(clock, timeout=30.0, send=clock.send)
        heartbeat.stopping = clock
        heartbeat._run()
        found.append(clock.longest_silence())
    return found


def test_a_lock_held_up_to_25_of_30_seconds_never_costs_a_heartbeat_in_time() -> None:
    clock = VirtualTime(held_from=0.0, held_for=60.0, until=60.0)
    heartbeat = Heartbeat(clock, timeout=30.0, send=clock.send)
    assert heartbeat.interval == 5.0  # a heartbeat every 5 s under WatchdogSec=30
    assert not heartbeat.beat() and clock.waits == [2.5]  # each try waits half an interval
    assert heartbeat.tolerated() == 25.0
    # whenever the lock is taken, one held for less than 25 s is let go, taken and a heartbeat
    # sent before systemd's 30 s are up; held for longer, the server is restarted (at worst)
    assert max(silences(24.9)) < 30.0
    assert max(silences(25.1)) > 30.0
    assert min(silences(29.9)) < 30.0 < max(silences(29.9))  # held from right after a beat


def test_the_heartbeat_keeps_the_service_status_saying_what_is_wrong() -> None:
    """``systemctl status longhall`` says when the game store cannot be written, and when it
    can again: the table's sentence, sent when it changes."""
    sent: list[str] = []
    said = ["Serving the table"]

    def send(message: str) -> bool:
        sent.append(message)
        return True

    heartbeat = Heartbeat(threading.RLock(), timeout=0.1, send=send, status=lambda: said[0])
    assert heartbeat.beat() and sent == ["WATCHDOG=1"]
    said[0] = "Serving the table; the game store cannot be written: database or disk is full"
    assert heartbeat.beat() and heartbeat.beat()
    assert sent[1:] == [f"STATUS={said[0]}", "WATCHDOG=1", "WATCHDOG=1"]
    said[0] = "Serving the table"
    assert heartbeat.beat() and sent[-2:] == ["STATUS=Serving the table", "WATCHDOG=1"]


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
