"""The tests' servers forked from a zygote (tests/server_fork.py) are stopped as started ones are:
their exit status and signals as ``subprocess.Popen`` gives them, a zygote out of the terminal's
Ctrl-C that stops its servers when its tests end, and a server still stopped when its zygote has
died."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest
import requests

from ..server_fork import ForkedProcess, Zygote, ZygoteGone
from ..support import ROOT, free_port, wait_for_health


def fork(zygote: Zygote, data: Path) -> tuple[ForkedProcess, str]:
    """A server forked by ``zygote``, once it answers, and its address."""
    port = free_port()
    data.mkdir()
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)]
    args += ["--gpio", "off"]
    server = zygote.start(args, ROOT, dict(os.environ), data / "log", ignore_hangup=False)
    url = f"http://127.0.0.1:{port}"
    wait_for_health(url, server, data / "log", time.monotonic() + 30)
    return server, url


def stopped(url: str) -> bool:
    """Whether nothing answers at ``url`` any more."""
    try:
        requests.get(url + "/healthz", timeout=5)
    except requests.ConnectionError:
        return True
    return False


def kill(server: ForkedProcess) -> None:
    """Whatever became of the test, the server ends with it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)


def test_a_forked_server_ends_and_says_how_as_popen_does(tmp_path: Path) -> None:
    zygote = Zygote()
    try:
        # the zygote has a session of its own (a Ctrl-C at the terminal stops the tests, which
        # stop their servers), and so has each server (killpg stops it and all it started)
        assert os.getsid(zygote.process.pid) == zygote.process.pid != os.getsid(0)
        server, url = fork(zygote, tmp_path / "a")
        assert os.getsid(server.pid) == server.pid
        assert not stopped(url) and server.poll() is None
        server.send_signal(signal.SIGTERM)  # as systemd stops it: a clean end
        assert server.wait(timeout=15) == 0
        assert server.poll() == 0 and server.wait() == 0
        server.send_signal(signal.SIGTERM)  # to a server that has ended: nothing, as Popen

        killed, _ = fork(zygote, tmp_path / "b")
        os.killpg(killed.pid, signal.SIGKILL)
        assert killed.wait(timeout=15) == -signal.SIGKILL
    finally:
        zygote.end()


def test_a_zygote_whose_tests_ended_stops_the_servers_left(tmp_path: Path) -> None:
    zygote = Zygote()
    server, url = fork(zygote, tmp_path / "a")
    try:
        zygote.end()  # as when its pytest worker ends, or stops at a Ctrl-C
        with pytest.raises(ZygoteGone, match="its log"):
            server.wait(timeout=15)
        assert stopped(url)
    finally:
        kill(server)


def test_a_server_whose_zygote_died_is_still_stopped(tmp_path: Path) -> None:
    zygote = Zygote()
    server, url = fork(zygote, tmp_path / "a")
    try:
        zygote.process.kill()
        zygote.process.wait(timeout=10)
        assert server.poll() is None and not stopped(url)  # serving on, its status lost
        server.send_signal(signal.SIGTERM)
        with pytest.raises(ZygoteGone, match="its log"):
            server.wait(timeout=15)
        assert stopped(url)
        with pytest.raises(ZygoteGone):  # and again, as often as it is asked
            server.poll()
    finally:
        kill(server)
        zygote.end()
