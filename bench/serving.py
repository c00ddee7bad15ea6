"""The server under a full table, side by side with boardgame.io, in one run on loopback.

Both servers get the same load from one Node process, in the shape of the peer's own clients.js
(``../shared/peers/boardgameio``): 6 seated phones, 1 table display and 20 spectators, all
socket.io-client 4 over the ``ws`` package, which asks for permessage-deflate as every browser
does. After 20 warm-up commands, 300 commands are timed one at a time, from the moment one is
sent until every one of the 27 clients has the new state (``bench/serving_clients.js``). Each
run deals Longhall's game with a seed of its own (``--seed``, then the next ones); at the default
seeds the games end after 923 to 978 timed commands: asked for more (``--iters``), a run times
the end of its game and stops there, and the figures say how many were timed.

- boardgame.io 0.50.2: its own server (``server.js``) and game (``game.js``): seat 0's ``bump``.
- Longhall: a real ``longhall serve`` and a real 6-player game of Eketorp; each command is chosen
  at random among the acting phone's legal moves, in its own view, and every command is on disk
  (fsync) before it is acknowledged.

Printed for each: p50 and p99, the server's CPU time per command over the timed commands, its
peak resident memory (VmHWM), and the bytes one phone received per command on the wire; then
the ratios Longhall / boardgame.io. The runs alternate (peer first, then Longhall first) so a
change in the machine's load falls on both. Node and npm install boardgame.io into /tmp, as the
peer's run.sh does. Last, Longhall's five slowest commands of each run, by kind: what its 99th
percentile is made of (of 300 commands, the fourth slowest is the p99).

Before each Longhall run, the store's commit of one record (``Store.write``: WAL,
``synchronous=FULL``, the log laid out) is timed in the same directory the server's store is made
in, back to back and 2 ms apart: what this disk's sync costs at that moment, the floor under the
latency of a server that writes every command before showing it (the peer writes nothing). The
second is the one a command meets: its commit comes a couple of milliseconds after the last.

``--compare DIR`` also runs the Longhall server of another checkout (e.g. ``git worktree add
--detach /tmp/before <commit>``) with the same load in every run, the three servers taking turns
at going first, and prints its figures and ratios beside this code's.

Run: ``.venv/bin/python bench/serving.py [--runs 3]`` (figures go to docs/performance.md). To
measure the server as ``./run serve`` installs it (without the test packages):

    python3 -m venv /tmp/served && /tmp/served/bin/pip install .
    LONGHALL_SERVER_PYTHON=/tmp/served/bin/python .venv/bin/python bench/serving.py
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cpugroup import CpuGroup
from bench.engine import machine
from longhall.server.store.store import Entry, Store
from tests.support import Phone, ServerProcess, free_port

ROOT = Path(__file__).resolve().parent.parent
# ../shared next to the repository (a worktree sits one level deeper); LONGHALL_PEER overrides it
PEER = Path(
    os.environ.get("LONGHALL_PEER")
    or next(
        (p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
        ROOT.parent / "shared",
    )
    / "peers"
    / "boardgameio"
)
WORK = Path("/tmp/peer-bgio")  # where run.sh installs the peer
CLIENTS = ROOT / "bench" / "serving_clients.js"
COMMAND_GAP = 0.002  # seconds between one command's commit and the next's, about, in a run
PATCH_JS = ROOT / "server" / "static" / "patch.js"
QUOTA: list[CpuGroup] = []  # the servers' share of a core, when --quota asks for one
FIGURES = (
    "p50_ms",
    "p99_ms",
    "cpu_ms_per_command",
    "peak_mb",
    "phone_bytes_per_command",  # on the wire: after compression, frames included
    "phone_payload_bytes_per_command",  # the messages themselves, as the page reads them
)


def prepare_peer() -> None:
    """Copy the peer and the clients to /tmp and install boardgame.io there (once)."""
    WORK.mkdir(parents=True, exist_ok=True)
    for path in [PEER / "package.json", *PEER.glob("*.js"), CLIENTS]:
        shutil.copy(path, WORK / path.name)
    if not (WORK / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund"], cwd=WORK, check=True, capture_output=True
        )


def clients(mode: str, port: int, iters: int, spectators: int, pid: int, *extra: str) -> Any:
    out = subprocess.run(
        ["node", "serving_clients.js", mode, *map(str, (port, iters, spectators, pid)), *extra],
        cwd=WORK,
        env={"PATH": "/usr/bin:/bin", "PATCH_JS": PATCH_JS.as_uri()},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{mode} clients failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_peer(iters: int, spectators: int) -> dict[str, Any]:
    """One run of boardgame.io (tried again on other ports if its API's port, the one after
    its own, was taken meanwhile)."""
    for attempt in range(3):
        try:
            return _run_peer(iters, spectators)
        except RuntimeError as err:
            if attempt == 2 or "ECONNREFUSED" not in str(err):
                raise
            print("boardgame.io's API port was refused; trying again", file=sys.stderr)
    raise AssertionError("unreachable")


def _run_peer(iters: int, spectators: int) -> dict[str, Any]:
    port = free_port()
    log = (WORK / "server.log").open("w")
    server = subprocess.Popen(
        ["node", "server.js", str(port), str(port + 1)], cwd=WORK, stdout=log, stderr=log
    )
    try:
        deadline = time.monotonic() + 20
        while "ready" not in (WORK / "server.log").read_text():
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("the boardgame.io server did not start")
            time.sleep(0.05)
        for group in QUOTA:  # the server only: the clients keep the whole machine
            group.add(server.pid)
        result = clients("bgio", port, iters, spectators, server.pid)
        result["peak_mb"] = peak_mb(server.pid)
        return dict(result)
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


def seat_everyone(server: ServerProcess) -> list[str]:
    """Six players join through the normal lobby; return their tokens."""
    lobby = Phone(server.url).connect()
    code = lobby.latest["table"]["code"]  # type: ignore[index]
    lobby.disconnect()
    tokens, phones = [], []
    for i in range(6):
        phone = Phone(server.url, {"code": code}, name=f"P{i}").connect()
        assert phone.join(f"P{i}")["ok"]
        tokens.append(phone.token)
        phones.append(phone)
    for phone in phones:
        phone.disconnect()
    return tokens  # type: ignore[return-value]


def store_commits(directory: Path, count: int = 100, pause: float = 0.0) -> float:
    """The median milliseconds of the store's commit of one record (``Store.write``: WAL,
    ``synchronous=FULL``, the log laid out as the server lays it out), in a new file there:
    back to back, or each ``pause`` seconds after the last one ended, as a command's commit
    comes some time after the one before. On this VM the second took 1.2 to 2.6 times the
    first (35 runs): a disk (or a CPU) left idle for a moment takes longer to sync."""
    record = {"kind": "act", "what": "x" * 400}  # about a command's record
    times = []
    with tempfile.TemporaryDirectory(dir=directory) as where:  # gone afterwards, whatever happens
        store = Store(Path(where) / "commits.sqlite3")
        try:
            store.lay_out_log()
            for seq in range(1, count + 1):
                if pause:
                    time.sleep(pause)
                start = time.perf_counter()
                store.write([Entry(seq, record)])
                times.append((time.perf_counter() - start) * 1000)
        finally:
            store.close()
    return round(statistics.median(times), 3)


# The folders setup.py installs as ``longhall.*`` (``server/`` is ``longhall.server``).
FOLDERS = ("server", "hardware", "phone_ui", "table_display")
COMPARED = "compared"  # the folder of the links, in the run's data folder


def checkout_python(code: Path, where: Path, python: str) -> Path:
    """A program in ``where`` that runs ``python`` with the ``longhall`` of the checkout in
    ``code``. This checkout's venv installs its own folders as ``longhall.*`` (``./run`` makes it
    an editable install), wherever a server starts; so the other checkout's folders are linked
    as a ``longhall`` package first on the server's path. Checked here: the program imports the
    server from ``code`` (a comparison of this code with itself would measure nothing)."""
    links = where / COMPARED / "longhall"
    links.mkdir(parents=True)
    for folder in FOLDERS:
        (links / folder).symlink_to(code.resolve() / folder)
    shim = where / "python"
    path, program = shlex.quote(str(links.parent)), shlex.quote(python)
    shim.write_text(f'#!/bin/sh\nPYTHONPATH={path} exec {program} "$@"\n')
    shim.chmod(0o755)
    where_from = "import longhall.server.web.app as m; print(m.__file__)"
    found = subprocess.run([shim, "-c", where_from], capture_output=True, text=True)
    said = found.stdout.strip() or found.stderr.strip()[-500:]
    if found.returncode or not Path(said).resolve().is_relative_to(code.resolve()):
        raise SystemExit(f"--compare {code}: its server would not run its code ({said})")
    return shim


def run_longhall(
    iters: int, spectators: int, seed: int, code: Path | None = None
) -> dict[str, Any]:
    """One run of Longhall's server: this checkout's, or the one in ``code``."""
    data = Path(tempfile.mkdtemp(prefix="longhall-bench-"))
    try:
        commit_ms = store_commits(data)
        paused_ms = store_commits(data, pause=COMMAND_GAP)
        program = None
        if code is not None:
            python = os.environ.get("LONGHALL_SERVER_PYTHON") or sys.executable
            program = [str(checkout_python(code, data, python)), "-m", "longhall.server.cli"]
        options = ("--bot-delay", "0", "--rate-limit", "100000", "--seed", str(seed))
        server = ServerProcess(data, *options, program=program)
        startup = server.start()
    except BaseException:
        shutil.rmtree(data, ignore_errors=True)
        raise
    if code is not None:  # the server runs with the links first on its path, as checked
        assert server.proc is not None
        environ = Path(f"/proc/{server.proc.pid}/environ").read_bytes().split(b"\0")
        if f"PYTHONPATH={data / COMPARED}".encode() not in environ:
            server.stop()
            shutil.rmtree(data, ignore_errors=True)
            raise SystemExit(f"--compare {code}: the server started without its code")
    try:
        tokens = data / "tokens.json"
        tokens.write_text(json.dumps(seat_everyone(server)))
        assert server.proc is not None
        pid = server.proc.pid
        for group in QUOTA:
            group.add(pid)
        switches = context_switches(pid)
        result = clients("longhall", server.port, iters, spectators, pid, str(tokens))
        # over the whole run of the clients (connecting and warming up included)
        # the warm-up's 20 and the timed ones (fewer than asked if the game ended first)
        commands = result["iters"] + 20
        result["switches_per_command"] = (context_switches(pid) - switches) / commands
        result["peak_mb"] = peak_mb(pid)
        result["startup_s"] = round(startup, 2)
        result["store_commit_ms"] = commit_ms
        result["store_commit_paused_ms"] = paused_ms
        return dict(result)
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def context_switches(pid: int) -> int:
    """The context switches of all the server's threads so far (each a thread put to sleep or
    woken: what waking a thread per message costs, besides its CPU time)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:  # a thread that ended meanwhile
            continue
        for line in text.splitlines():
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                total += int(line.split()[1])
    return total


def peak_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iters", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--compare", type=Path, help="another checkout of Longhall to run in the same runs"
    )
    parser.add_argument(
        "--quota", type=int, help="each server held to this percent of one core (12: a Zero 2 W)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quota:
        QUOTA.append(CpuGroup(args.quota))
    try:
        run_all(args)
    finally:
        for group in QUOTA:
            group.remove()


def run_all(args: argparse.Namespace) -> None:
    prepare_peer()
    load_before = os.getloadavg()  # the machine's load says how far the figures can be trusted
    rows: list[tuple[dict[str, Any], dict[str, Any]]] = []
    others: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for run in range(args.runs):
        seed = args.seed + run
        jobs: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("peer", partial(run_peer, args.iters, args.spectators)),
            ("Longhall", partial(run_longhall, args.iters, args.spectators, seed)),
        ]
        if args.compare is not None:
            compared = partial(run_longhall, args.iters, args.spectators, seed, args.compare)
            jobs.append(("compared", compared))
        shift = run % len(jobs)  # each server goes first in turn
        results = {name: job() for name, job in jobs[shift:] + jobs[:shift]}
        peer, ours = results["peer"], results["Longhall"]
        rows.append((peer, ours))
        if "compared" in results:
            others.append((peer, results["compared"]))
        if not args.json:
            order = ", ".join(name for name, _ in jobs[shift:] + jobs[:shift])
            print(f"run {run + 1} ({order}):")
            print(table([(peer, ours)], others[-1:]), flush=True)
    if args.json:
        load = {"before": load_before, "after": os.getloadavg()}
        runs = {"runs": rows, "compared": others} if others else {"runs": rows}
        print(json.dumps({"machine": machine(), "load": load, **runs}, indent=1))
        return
    print(f"machine: {machine()}")
    load_after = os.getloadavg()
    print(f"load average (1, 5, 15 min): {_load(load_before)} before, {_load(load_after)} after")
    timed = sorted({int(ours["iters"]) for _, ours in rows + others})
    counted = f"{args.iters} timed commands per run"
    if timed != [args.iters]:  # Longhall's game ended first: its runs timed the end too
        longhall = " or ".join(map(str, timed))
        counted = f"{args.iters} timed commands per run (Longhall: {longhall}, its game's end)"
    print(
        f"{7 + args.spectators} clients (6 phones, 1 table display, {args.spectators} spectators),"
        f" {counted}; median of {args.runs} runs"
        " (each ratio is the median of the ratios within a run):"
    )
    if args.compare is not None:
        print(f"compared: the Longhall of {args.compare}")
    print(table(rows, others))
    print(f"longhall serve -> healthy /healthz: {rows[-1][1]['startup_s']} s")
    print("Longhall's five slowest commands, per run (ms):")
    for _, ours in rows:
        print("  " + ", ".join(f"{what} {ms:.1f}" for ms, what in ours.get("slowest", [])))


def _load(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{x:.1f}" for x in load)


def table(
    rows: list[tuple[dict[str, Any], dict[str, Any]]],
    others: list[tuple[dict[str, Any], dict[str, Any]]] | None = None,
) -> str:
    """The figures of the peer and Longhall, the median of the runs, with their ratios (and
    those of the compared checkout, if any)."""
    others = others or []
    head = "| | boardgame.io | Longhall | ratio |"
    if others:
        head += " compared | its ratio | Longhall / compared |"
    lines = [head, _rule(head)]
    for key in FIGURES:
        line = f"| {key} | {_median(rows, 0, key):.2f} | {_median(rows, 1, key):.2f} |"
        line += f" {_ratio(rows, key):.2f} |"
        if others:
            mine = [(o, ours) for (_, o), (_, ours) in zip(others, rows, strict=False)]
            line += f" {_median(others, 1, key):.2f} | {_ratio(others, key):.2f} |"
            line += f" {_ratio(mine, key):.2f} |"
        lines.append(line)
    for key, label in (
        ("switches_per_command", "server context switches per command"),
        ("store_commit_ms", "the store's commit, back to back, median ms"),
        (
            "store_commit_paused_ms",
            f"the store's commit {COMMAND_GAP * 1000:g} ms after the last, median ms",
        ),
    ):
        line = f"| {label} | | {_median(rows, 1, key):.2f} | |"
        if others:
            mine = [(o, ours) for (_, o), (_, ours) in zip(others, rows, strict=False)]
            line += f" {_median(others, 1, key):.2f} | | {_ratio(mine, key):.2f} |"
        lines.append(line)
    deflate = f"| permessage-deflate negotiated | {rows[0][0].get('deflate')} |"
    deflate += f" {rows[0][1].get('deflate')} | |"
    if others:
        deflate += f" {others[0][1].get('deflate')} | | |"
    lines.append(deflate)
    return "\n".join(lines)


def _rule(head: str) -> str:
    return "|" + " --- |" * (head.count("|") - 1)


def _median(rows: list[tuple[dict[str, Any], dict[str, Any]]], side: int, key: str) -> float:
    return statistics.median(float(row[side].get(key, 0.0)) for row in rows)


def _ratio(rows: list[tuple[dict[str, Any], dict[str, Any]]], key: str) -> float:
    """The median of the per-run ratios (second / first)."""
    ratios = [float(b[key]) / float(a[key]) for a, b in rows if float(a.get(key, 0.0))]
    return statistics.median(ratios) if ratios else float("nan")


if __name__ == "__main__":
    main()
