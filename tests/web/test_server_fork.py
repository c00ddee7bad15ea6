"""The tests' servers forked from a zygote (tests/server_fork.py) are stopped as started ones are:
their exit status and signals as ``subprocess.Popen`` gives them, a zygote out of the terminal's
Ctrl-C, and a server still stopped when its zygote has died."""

from __future__ import annotations

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
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)]
    data.mkdir()
    server = zygote.start([*args, "--gpio", "off"], ROOT, dict(os.environ), data / "log", False)
    url = f"http://127.0.0.1:{port}"
    wait_for_health(url, server, data / "log", time.monotonic() + 30)
    return server, url


def test_a_forked_server_ends_and_says_how_as_popen_does(tmp_path: Path) -> None:
    zygote = Zygote()
    try:
        # the zygote has a session of its own (a Ctrl-C at the terminal stops the tests, which
        # stop their servers), and so has each server (killpg stops it and all it started)
        assert os.getsid(zygote.process.pid) == zygote.process.pid != os.getsid(0)
        server, url = fork(zygote, tmp_path / "a")
        assert os.getsid(server.pid) == server.pid
        assert requests.get(url + "/healthz", timeout=5).ok
        assert server.poll() is None
        server.send_signal(signal.SIGTERM)  # as systemd stops it: a clean end
        assert server.wait(timeout=15) == 0
        assert server.poll() == 0 and server.wait() == 0
        server.send_signal(signal.SIGTERM)  # to a server that has ended: nothing, as Popen

        killed, _ = fork(zygote, tmp_path / "b")
        os.killpg(killed.pid, signal.SIGKILL)
        assert killed.wait(timeout=15) == -signal.SIGKILL
    finally:
        zygote.end()


def test_a_server_whose_zygote_died_is_still_stopped(tmp_path: Path) -> None:
    zygote = Zygote()
    try:
        server, url = fork(zygote, tmp_path / "a")
        zygote.process.kill()
        zygote.process.wait(timeout=10)
        assert server.poll() is None  # still serving, its exit status now lost
        assert requests.get(url + "/healthz", timeout=5).ok
        server.send_signal(signal.SIGTERM)
        with pytest.raises(ZygoteGone, match="its log is"):
            server.wait(timeout=15)
        with pytest.raises(requests.ConnectionError):  # it has stopped
            requests.get(url + "/healthz", timeout=5)
    finally:
        zygote.control.close()
