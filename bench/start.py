"""How soon the server answers after it starts, with its CPU held to a Pi's share, side by side
with boardgame.io in the same run.

Longhall: ``longhall serve --gpio auto`` (as its systemd unit runs it) on a copy of a store of 20
finished games (Eketorp, Vikings on Board and Vikings Gone Wild in turn, bots at every seat) and a
game in progress, timed from the start of the process until ``/healthz`` answers 200. Each start is
a restart at the same address, on a copy of the store a first, untimed start left there, so the
banner's QR code is already kept in it (``serve.join_qr``), as on a Pi. The peer:
boardgame.io 0.50.2's own server (``../shared/peers/boardgameio/server.js``, its store in memory, so
it reads nothing), timed until it answers an HTTP request. Each start runs in a CPU cgroup of its
own with a quota: 100 % of a core, 25 % (about a Pi 4's core, as this machine's core is about four
of a Pi 4's) and 12 % (about a Pi Zero 2 W's). The servers take turns at going first; the
figures are medians of the runs, with the ratio Longhall / boardgame.io, and the CPU seconds each
process had used when it answered (what a start costs, whatever the quota).

``--sd MBPS`` also holds every write a server makes itself, with its sync, to that many MB a
second, as a Pi's SD card writes (10 for a slow card): a start that waits for the disk shows.

``--floor`` also times, in the same turns, the least a server on the design's stack does before it
answers (``bench/start_floor.py``: Flask and Flask-SocketIO with one route, nothing of Longhall's):
what any server built on that stack would take, beside the peer's start. Each run takes the
servers in another order: with three, ``--runs 6`` takes every order once.

Needs a writable CPU cgroup (v1 ``/sys/fs/cgroup/cpu`` or v2 ``cpu.max``; with ``--sd``, v1's
``blkio`` or v2's ``io.max``), as root here does.

Longhall runs from a virtual environment of its own, made once in /tmp as a Pi's is: the server's
lock file (``requirements.lock``, without the test tools), Longhall's wheel built from this
checkout, and the Python packages a Pi's venv sees from Raspberry Pi OS Lite (it is made with
``--system-site-packages``, for lgpio): Debian's requests, which ssh-import-id brings, with what
requests needs, at Debian 12's versions (but charset-normalizer's, see PI_OS_PACKAGES). Every
module is compiled by pip as it installs (``--python`` names another environment).

Run: ``.venv/bin/python bench/start.py [--runs 5] [--quotas 100 25 12] [--sd 10] [--floor]``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cpugroup import PERIOD_US, CpuGroup
from bench.serving import WORK, prepare_peer
from longhall.server.config import Settings
from longhall.server.web.app import create_app
from tests.support import free_port, play_out

GAMES = ("eketorp", "vikings_on_board", "vikings_gone_wild")
STORE = Path(tempfile.gettempdir()) / "longhall-start-store"  # built once, copied for each start
SERVED = Path(tempfile.gettempdir()) / "longhall-start-venv"  # the server as a Pi installs it
ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
# as on a Pi, where pip compiled every module when it installed them: the bytecode is cached
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


# Raspberry Pi OS Lite's Python packages a server could import: python3-requests and what it
# depends on, at Debian 12's versions (Debian's requests takes its charset-normalizer 3.0.1; PyPI's
# requests 2.28.1 asks for one below 3, which pip chooses)
PI_OS_PACKAGES = (
    "requests==2.28.1",
    "urllib3==1.26.12",
    "idna==3.3",
    "chardet==5.1.0",
    "certifi==2022.9.24",
)


def served_python() -> str:
    """A virtual environment with the server's locked dependencies, what a Pi's venv sees of
    Raspberry Pi OS's packages, and Longhall's wheel."""
    python = SERVED / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(SERVED)], check=True)
        subprocess.run(
            [*pip, "--require-hashes", "-r", str(ROOT / "requirements.lock")], check=True
        )
    subprocess.run([*pip, *PI_OS_PACKAGES], check=True)  # at once when they are there
    # this checkout's code, every time
    subprocess.run(
        [*pip, "--no-deps", "--no-build-isolation", "--force-reinstall", str(ROOT)], check=True
    )
    return str(python)


def build_store(where: Path, finished: int = 20) -> None:
    """A store as a table has it after a few game nights: ``finished`` games and one playing."""
    lh = create_app(Settings(data_dir=where, gpio="off", bot_delay=0, seed=3))
    table = lh.table
    try:
        phone = lh.socketio.test_client(lh.app, auth={"code": table.data.code})

        def send(kind: str, **fields: object) -> Any:
            payload = {"type": kind, "id": uuid.uuid4().hex, "version": table.data.version}
            return phone.emit("command", {**payload, **fields}, callback=True)

        assert send("join", name="Host", colour="")["ok"]
        assert send("add_bot", bot="greedy")["ok"] and send("add_bot", bot="greedy")["ok"]
        assert send("botify", seat=0, bot="greedy")["ok"]
        for k in range(finished + 1):
            assert send("set_game", game=GAMES[k % len(GAMES)])["ok"]
            assert send("set_start_player", seat=1)["ok"]  # a bot: the host lays for it
            assert send("start")["ok"]
            if GAMES[k % len(GAMES)] == "vikings_gone_wild":  # the bonus cards (W1.3)
                assert send("proxy", seat=1, action={"type": "first_game_bonus"})["ok"]
            play_out(table, None if k < finished else 40)
        assert table.data.status == "playing"
        phone.disconnect()
    finally:
        lh.stop()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def answered(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=0.5) as response:
            return bool(response.status == 200)
    except urllib.error.HTTPError:  # an answer all the same (boardgame.io's / is a 404)
        return not url.endswith("/healthz")
    except OSError:
        return False


def timed_start(argv: list[str], cwd: Path, url: str, group: CpuGroup) -> tuple[float, float]:
    """Seconds from starting ``argv`` until ``url`` answers, and the CPU seconds used by then."""
    with tempfile.TemporaryFile() as log:
        start = time.monotonic()
        proc = subprocess.Popen(
            argv, cwd=cwd, env=ENV, stdout=log, stderr=subprocess.STDOUT, preexec_fn=group.enter
        )
        try:
            while not answered(url):
                if proc.poll() is not None:
                    log.seek(0)
                    said = log.read().decode(errors="replace")[-2000:]
                    raise RuntimeError(f"{argv[0]} ended with {proc.returncode}: {said}")
                if time.monotonic() - start > 120:
                    raise RuntimeError(f"{argv[0]} did not answer in 120 s")
                time.sleep(0.005)
            return time.monotonic() - start, cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def serve_argv(python: str, data: Path, port: int) -> list[str]:
    # --gpio auto, as longhall.service starts it: gpiozero is imported and looks for the pins
    # (here it finds none; on a Pi it sets them up)
    argv = [python, "-m", "longhall.server.cli", "serve", "--port", str(port), "--gpio", "auto"]
    return [*argv, "--data-dir", str(data), "--host", "127.0.0.1"]


def longhall(python: str, group: CpuGroup, store: Path, port: int) -> tuple[float, float]:
    """A start on a copy of ``store`` at ``port``."""
    with tempfile.TemporaryDirectory(prefix="longhall-start-") as data:
        for f in store.iterdir():
            shutil.copy(f, Path(data) / f.name)
        argv = serve_argv(python, Path(data), port)
        return timed_start(argv, Path(data), f"http://127.0.0.1:{port}/healthz", group)


def first(python: str, group: CpuGroup, store: Path, port: int) -> None:
    """The first start at ``port`` on ``store`` itself, which keeps what it leaves there."""
    timed_start(serve_argv(python, store, port), store, f"http://127.0.0.1:{port}/healthz", group)


def floor(python: str, group: CpuGroup) -> tuple[float, float]:
    """A start of the design's stack alone (``bench/start_floor.py``)."""
    port = free_port()
    argv = [python, str(ROOT / "bench" / "start_floor.py"), str(port)]
    return timed_start(argv, ROOT, f"http://127.0.0.1:{port}/healthz", group)


def peer(group: CpuGroup) -> tuple[float, float]:
    for attempt in range(3):  # it listens on every address: a port free on 127.0.0.1 may not be
        port = free_port()
        argv = ["node", "server.js", str(port), str(free_port())]
        try:
            return timed_start(argv, WORK, f"http://127.0.0.1:{port}/", group)
        except RuntimeError as err:
            if attempt == 2 or "EADDRINUSE" not in str(err):
                raise
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quotas", type=int, nargs="+", default=[100, 25, 12])
    parser.add_argument("--python", help="the Python that runs Longhall (default: its own venv)")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    parser.add_argument(
        "--sd", type=float, metavar="MBPS", help="the store's disk writes held to an SD card's pace"
    )
    parser.add_argument(
        "--floor", action="store_true", help="also the design's stack alone (start_floor.py)"
    )
    args = parser.parse_args()
    prepare_peer()
    python = args.python or served_python()
    if args.rebuild and STORE.exists():
        shutil.rmtree(STORE)
    if not STORE.exists():
        building = STORE.with_name(STORE.name + ".new")
        shutil.rmtree(building, ignore_errors=True)
        build_store(building)
        building.rename(STORE)
    size = sum(f.stat().st_size for f in STORE.iterdir()) / 1e6
    print(f"store: {size:.1f} MB, 20 finished games and one in progress ({STORE})")
    # Every start at one address, as a Pi's restarts are, on a copy of the store a first start
    # there left (untimed): it holds the banner's QR code for that address, as a Pi's does
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="longhall-start-restarted-") as name:
        restarted = Path(name)
        for f in STORE.iterdir():
            shutil.copy(f, restarted / f.name)
        full = CpuGroup(100)
        try:  # that first start, and the peer's: each server's modules are in the page cache
            first(python, full, restarted, port)
            peer(full)
            if args.floor:
                floor(python, full)
        finally:
            full.remove()
        compare(args.quotas, args.runs, python, restarted, port, args.sd, args.floor)


def compare(
    quotas: list[int],
    runs: int,
    python: str,
    store: Path,
    port: int,
    sd: float | None,
    with_floor: bool,
) -> None:
    """Each quota's starts, Longhall's on copies of ``store`` at ``port``, the peer's (and with
    ``with_floor`` the stack's alone) in turns; with ``sd``, every disk write the servers make
    themselves at that many MB a second."""
    starts: dict[str, Callable[[CpuGroup], tuple[float, float]]] = {
        "peer": peer,
        "Longhall": lambda group: longhall(python, group, store, port),
    }
    if with_floor:
        starts["stack"] = lambda group: floor(python, group)
    head = "quota   boardgame.io     Longhall         Longhall / peer"
    print(head + ("   stack alone      stack / peer" if with_floor else ""), end="")
    print("   CPU s: " + ", ".join(("peer", "Longhall", "stack")[: len(starts)]))
    for percent in quotas:
        group = CpuGroup(percent, write_mbps=sd, disk=Path(tempfile.gettempdir()))
        timed: dict[str, list[tuple[float, float]]] = {who: [] for who in starts}
        # each run in another order (every order once in as many runs: 2 for two, 6 for three),
        # and a pause between starts, so that none starts in a period whose quota another used
        orders = list(itertools.permutations(starts))
        try:
            for run in range(runs):
                for who in orders[run % len(orders)]:
                    timed[who].append(starts[who](group))
                    time.sleep(2 * PERIOD_US / 1e6)
        finally:
            group.remove()
        seconds = {who: statistics.median(t for t, _ in timed[who]) for who in starts}
        cpu = [f"{statistics.median(c for _, c in timed[who]):.2f}" for who in starts]
        p, o = seconds["peer"], seconds["Longhall"]
        line = f"{percent:>4} %  {p:6.2f} s         {o:6.2f} s         {o / p:5.2f}            "
        if with_floor:
            f = seconds["stack"]
            line += f"   {f:6.2f} s         {f / p:5.2f}            "
        print(f"{line} {', '.join(cpu)}", flush=True)


if __name__ == "__main__":
    main()
