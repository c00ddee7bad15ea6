"""The server under a full table, side by side with boardgame.io, in one run on loopback.

Both servers get the same load from one Node process, in the shape of the peer's own clients.js
(``../shared/peers/boardgameio``): 6 seated phones, 1 table display and 20 spectators, all
socket.io-client 4 over the ``ws`` package, which asks for permessage-deflate as every browser
does. After 20 warm-up commands, 300 commands are timed one at a time, from the moment one is
sent until every one of the 27 clients has the new state (``bench/serving_clients.js``).

- boardgame.io 0.50.2: its own server (``server.js``) and game (``game.js``): seat 0's ``bump``.
- Longhall: a real ``longhall serve`` and a real 6-player game of Eketorp; each command is chosen
  at random among the acting phone's legal moves, in its own view, and every command is on disk
  (fsync) before it is acknowledged.

Printed for each: p50 and p99, the server's CPU time per command over the timed commands, its
peak resident memory (VmHWM), and the bytes one phone received per command on the wire; then
the ratios Longhall / boardgame.io. The runs alternate (peer first, then Longhall first) so a
change in the machine's load falls on both. Node and npm install boardgame.io into /tmp, as the
peer's run.sh does.

Run: ``.venv/bin/python bench/serving.py [--runs 3]`` (figures go to docs/performance.md). To
measure the server as ``./run serve`` installs it (without the test packages):

    python3 -m venv /tmp/served && /tmp/served/bin/pip install .
    LONGHALL_SERVER_PYTHON=/tmp/served/bin/python .venv/bin/python bench/serving.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
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
PATCH_JS = ROOT / "server" / "static" / "patch.js"
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


def run_longhall(iters: int, spectators: int, seed: int) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="longhall-bench-"))
    server = ServerProcess(data, "--bot-delay", "0", "--rate-limit", "100000", "--seed", str(seed))
    startup = server.start()
    try:
        tokens = data / "tokens.json"
        tokens.write_text(json.dumps(seat_everyone(server)))
        assert server.proc is not None
        pid = server.proc.pid
        result = clients("longhall", server.port, iters, spectators, pid, str(tokens))
        result["peak_mb"] = peak_mb(pid)
        result["startup_s"] = round(startup, 2)
        return dict(result)
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def peak_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iters", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    prepare_peer()
    load_before = os.getloadavg()  # the machine's load says how far the figures can be trusted
    rows: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for run in range(args.runs):
        if run % 2 == 0:
            peer = run_peer(args.iters, args.spectators)
            ours = run_longhall(args.iters, args.spectators, args.seed + run)
        else:
            ours = run_longhall(args.iters, args.spectators, args.seed + run)
            peer = run_peer(args.iters, args.spectators)
        rows.append((peer, ours))
        if not args.json:
            print(f"run {run + 1} ({'peer first' if run % 2 == 0 else 'Longhall first'}):")
            print(table([(peer, ours)]), flush=True)
    if args.json:
        load = {"before": load_before, "after": os.getloadavg()}
        print(json.dumps({"machine": machine(), "load": load, "runs": rows}, indent=1))
        return
    print(f"machine: {machine()}")
    load_after = os.getloadavg()
    print(f"load average (1, 5, 15 min): {_load(load_before)} before, {_load(load_after)} after")
    print(
        f"{7 + args.spectators} clients (6 phones, 1 table display, {args.spectators} spectators),"
        f" {args.iters} timed commands per run; median of {args.runs} runs"
        " (each ratio is the median of the ratios within a run):"
    )
    print(table(rows))
    print(f"longhall serve -> healthy /healthz: {rows[-1][1]['startup_s']} s")


def _load(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{x:.1f}" for x in load)


def table(rows: list[tuple[dict[str, Any], dict[str, Any]]]) -> str:
    lines = ["| | boardgame.io | Longhall | ratio |", "| --- | --- | --- | --- |"]
    for key in FIGURES:
        peer = statistics.median(float(p[key]) for p, _ in rows)
        ours = statistics.median(float(o[key]) for _, o in rows)
        ratio = statistics.median(float(o[key]) / float(p[key]) for p, o in rows if p[key])
        lines.append(f"| {key} | {peer:.2f} | {ours:.2f} | {ratio:.2f} |")
    deflate = [(p.get("deflate"), o.get("deflate")) for p, o in rows]
    lines.append(f"| permessage-deflate negotiated | {deflate[0][0]} | {deflate[0][1]} | |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
