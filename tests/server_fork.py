"""``longhall serve`` for the tests, forked from a process that has already imported it.

A test server's start is mostly Python importing the server (all but 0.04 of its 0.26
CPU-seconds here), and the suite starts well over a hundred on two cores. So each pytest worker
keeps one *zygote*: a Python process that imports what ``longhall serve`` imports, then waits.
For each server it forks a child that is set up as a new process would be (its own session, its
log on stdout and stderr, its working directory, environment, arguments and hang-up signal) and
runs the command line's own ``main`` in it, which ends it as it ends ``longhall serve``.

The zygote is the child's parent: it reaps it and sends its exit status back over a socket of
that server's own, which :class:`ForkedProcess` reads to answer as ``subprocess.Popen`` does
where the tests use it (``pid``, ``poll``, ``wait``, ``send_signal``, ``returncode``). The
zygote has a session of its own, so a Ctrl-C stops the tests, which stop their servers; when its
pytest worker ends, it stops any server left (``SIGTERM``) and ends too.

What a fork leaves out, a start of its own still checks: the tests of the start itself, of the
installed wheel and of the systemd units start ``longhall serve`` as a new program
(``ServerProcess(program=...)``, ``LONGHALL_SERVER_PYTHON``), and ``tests/web/test_start.py``
what a start imports. What a forked server shares with the zygote, no test relies on: what the
interpreter read from the environment as it started (``PYTHON*``, the locale, glibc's tunables),
its hash seed, and its command line in ``/proc`` (``python -c ...``, where ``sys.argv`` is the
server's own).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# the zygote's end of its socket with the worker, as the worker hands it over
ZYGOTE_FD_ENV = "LONGHALL_TEST_ZYGOTE_FD"


def load() -> None:
    """Import what ``longhall serve`` imports before it reads its arguments."""
    from longhall.server.cli import load_serve

    load_serve()
    import longhall.server.web.app  # noqa: F401  # imported by serve once it is set up


def zygote() -> None:
    """The zygote's loop: a server for each request, its exit status once it ends."""
    control = socket.socket(fileno=int(os.environ.pop(ZYGOTE_FD_ENV)))
    load()
    children: dict[int, socket.socket] = {}  # pid -> that server's status socket
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # the wake-up fd says a child ended
    events = selectors.DefaultSelector()
    events.register(control, selectors.EVENT_READ)
    events.register(wake_r, selectors.EVENT_READ)
    while True:
        for key, _ in events.select():
            if key.fileobj is control:
                request, fds, flags, _ = socket.recv_fds(control, 1 << 16, 1)
                if not request:  # the worker is gone: so are its servers
                    for pid, status in children.items():
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(pid, signal.SIGTERM)
                        status.close()
                    return
                assert not flags & socket.MSG_TRUNC, "a request longer than its buffer"
                status = socket.socket(fileno=fds[0])
                assert threading.active_count() == 1, "a fork with threads running"
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    # the child: nothing of the zygote's but the modules it loaded
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    events.close()
                    os.close(wake_r)
                    os.close(wake_w)
                    for sock in (control, status, *children.values()):
                        sock.close()
                    raise SystemExit(serve(json.loads(request)))
                children[pid] = status
                status.sendall(f"{pid}\n".encode())
            else:
                os.read(wake_r, 512)
                while children:
                    pid, waited = os.waitpid(-1, os.WNOHANG)
                    if pid == 0:
                        break
                    status = children.pop(pid)
                    with contextlib.suppress(OSError):  # its ServerProcess may be gone
                        status.sendall(f"{os.waitstatus_to_exitcode(waited)}\n".encode())
                    status.close()


def serve(request: dict[str, Any]) -> int:
    """In the child: become a new ``longhall serve`` process and run it."""
    os.setsid()
    hangup = signal.SIG_IGN if request["ignore_hangup"] else signal.SIG_DFL
    signal.signal(signal.SIGHUP, hangup)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    from longhall.server import cli

    sys.argv = [str(Path(cli.__file__).with_name("__main__.py")), *request["args"]]  # as -m sets
    return cli.main(request["args"])


class ForkedProcess:
    """A server forked by the zygote, answering as ``subprocess.Popen`` does."""

    def __init__(self, status: socket.socket, zygote_log: Path) -> None:
        self._status = status
        self._said = b""
        self._zygote_log = zygote_log
        self._lost = False  # the zygote ended first: the exit status will not come
        self.pid = int(self._line(time.monotonic() + 30))
        self.returncode: int | None = None

    def _line(self, deadline: float | None) -> str:
        """The zygote's next line about this server, by ``deadline`` (``time.monotonic()``)."""
        while b"\n" not in self._said:
            if self._lost:
                raise ZygoteGone(self._zygote_log)
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            self._status.settimeout(left)
            try:
                more = self._status.recv(64)
            except (TimeoutError, BlockingIOError):  # BlockingIOError: with no time to wait
                raise subprocess.TimeoutExpired("longhall serve", left or 0) from None
            if not more:
                self._lost = True
                self._status.close()
            self._said += more
        line, self._said = self._said.split(b"\n", 1)
        return line.decode()

    def _status_by(self, deadline: float | None) -> int | None:
        """The exit status once the server has ended, by ``deadline``; None if it runs on."""
        if self.returncode is None:
            try:
                self.returncode = int(self._line(deadline))
                self._status.close()
            except subprocess.TimeoutExpired:
                return None
            except ZygoteGone:  # the server may run on: stopped, it ends without saying how
                while self._running():
                    if deadline is not None and time.monotonic() >= deadline:
                        return None
                    time.sleep(0.05)
                raise
        return self.returncode

    def poll(self) -> int | None:
        return self._status_by(time.monotonic())

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        code = self._status_by(deadline)
        if code is None:
            raise subprocess.TimeoutExpired("longhall serve", timeout or 0)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile, as Popen's
                os.kill(self.pid, sig)

    def _running(self) -> bool:
        """Whether the server still runs (a zombie that nobody has reaped yet does not)."""
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except FileNotFoundError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] != "Z"


class ZygoteGone(RuntimeError):
    """The zygote ended before a server it forked: that server's exit status is lost."""

    def __init__(self, log: Path) -> None:
        super().__init__(f"the tests' zygote ended before its server (its log: {log})")


class Zygote:
    """This process's zygote: started with its first server, ended when this process ends (its
    socket closes)."""

    def __init__(self) -> None:
        # a socket that keeps each request apart, with the server's status socket in it
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # what the zygote says (only a failure of its own): kept if it said anything
        fd, name = tempfile.mkstemp(prefix="longhall-test-zygote-", suffix=".log")
        self.log = Path(name)
        with open(fd, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from tests.server_fork import zygote; zygote()"],
                cwd=Path(__file__).resolve().parent.parent,
                env={**os.environ, "PYTHONUNBUFFERED": "1", ZYGOTE_FD_ENV: str(theirs.fileno())},
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # out of the terminal's Ctrl-C: the tests stop servers
            )
        theirs.close()
        atexit.register(self.end)

    def start(
        self, args: list[str], cwd: Path, env: dict[str, str], log: Path, ignore_hangup: bool
    ) -> ForkedProcess:
        """Fork ``longhall serve`` with ``args``, started in ``cwd`` with ``env``, its output
        appended to ``log``."""
        mine, its = socket.socketpair()
        request = {
            "args": args,
            "cwd": str(cwd),
            "env": env,
            "log": str(log),
            "ignore_hangup": ignore_hangup,
        }
        socket.send_fds(self.control, [json.dumps(request).encode()], [its.fileno()])
        its.close()
        return ForkedProcess(mine, self.log)

    def end(self) -> None:
        """Close the zygote's socket: it stops the servers left and ends."""
        atexit.unregister(self.end)
        self.control.close()
        self.process.wait(timeout=10)
        if self.log.stat().st_size == 0:
            self.log.unlink()


_zygote: Zygote | None = None


def fork_server(
    args: list[str], cwd: Path, env: dict[str, str], log: Path, ignore_hangup: bool
) -> ForkedProcess:
    """``longhall serve`` with ``args``, forked from this process's zygote (see the top)."""
    global _zygote
    if _zygote is None or _zygote.process.poll() is not None:
        _zygote = Zygote()
    return _zygote.start(args, cwd, env, log, ignore_hangup)
