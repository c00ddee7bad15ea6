"""Commits back to back with no pause: what bounding the write-ahead log costs a command.

One thread writes commits into a real SQLite file (the store of ``longhall serve``, on this
machine's disk, ``synchronous=FULL``) as fast as it takes them: a record each, and every other
one a snapshot of a few pages, as a busy table writes them. Two configurations alternate, each on
a fresh file: the log bounded (``LIMIT`` of server/store/checkpoint.py, as the server runs) and
the log unbounded (the bound out of reach). Timed: each commit, from the call to the store until
it returns (the wait for the log to be folded in included). Printed:
the mean, median, p99 and largest commit, the commits that waited for the log to be folded in
(how many, and their mean), the largest log file, and the ratio bounded/unbounded.

    .venv/bin/python bench/walbound.py                  # 3 runs of 8000 commits each
    .venv/bin/python bench/walbound.py --commits 4000 --runs 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from longhall.server.store.checkpoint import LIMIT, PAGES, Checkpointer
from longhall.server.store.store import Entry, Store, dumps

UNBOUNDED = 10**12


def entry(seq: int) -> Entry:
    snapshot = dumps({"seq": seq, "fill": "x" * 6000}) if seq % 2 else None
    return Entry(seq, {"type": "act", "seq": seq, "action": {"type": "place"}}, snapshot=snapshot)


def run(limit: int, commits: int) -> dict[str, Any]:
    """One fresh file: the figures of ``commits`` commits back to back."""
    folder = Path(tempfile.mkdtemp(prefix="longhall-walbound-"))
    try:
        store = Store(folder / "longhall.sqlite3")
        store.checkpointer.close()  # never started: replaced by one with this bound
        checkpointer = store.checkpointer = Checkpointer(store.path, PAGES, limit)
        wal = Path(f"{store.path}-wal")
        times: list[float] = []
        waited: list[float] = []  # the commits that waited for the log to be folded in
        largest = 0
        try:
            for seq in range(1, commits + 1):
                waits = checkpointer.waits
                start = time.perf_counter()
                store.write([entry(seq)])
                times.append(time.perf_counter() - start)
                if checkpointer.waits > waits:
                    waited.append(times[-1])
                largest = max(largest, os.stat(wal).st_size)
        finally:
            store.close()
        times.sort()
        return {
            "mean": statistics.fmean(times) * 1000,
            "p50": times[len(times) // 2] * 1000,
            "p99": times[int(len(times) * 0.99)] * 1000,
            "max": times[-1] * 1000,
            "wal_mb": largest / 1e6,
            "waits": checkpointer.waits,
            "waited_ms": statistics.fmean(waited) * 1000 if waited else 0.0,
            "restarts": checkpointer.restarts,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=8000, help="per run")
    parser.add_argument("--runs", type=int, default=3, help="per configuration, alternating")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"{args.commits} commits back to back per run; log bound {LIMIT} pages")
    results: dict[str, list[dict[str, Any]]] = {"bounded": [], "unbounded": []}
    for i in range(args.runs):
        order = [("bounded", LIMIT), ("unbounded", UNBOUNDED)]
        for name, limit in order if i % 2 == 0 else order[::-1]:
            figures = run(limit, args.commits)
            results[name].append(figures)
            print(
                f"  run {i + 1} {name:9}: mean {figures['mean']:.3f} ms, p50 {figures['p50']:.3f},"
                f" p99 {figures['p99']:.3f}, max {figures['max']:.1f}; largest log"
                f" {figures['wal_mb']:.1f} MB; {figures['waits']} commits waited"
                f" ({figures['waited_ms']:.1f} ms each), {figures['restarts']} restarts"
            )
    print("median of the runs:")
    medians: dict[str, dict[str, float]] = {}
    for name, runs in results.items():
        medians[name] = {
            key: statistics.median(r[key] for r in runs)
            for key in ("mean", "p50", "p99", "max", "wal_mb")
        }
        m = medians[name]
        print(
            f"  {name:9}: mean {m['mean']:.3f} ms, p50 {m['p50']:.3f}, p99 {m['p99']:.3f},"
            f" max {m['max']:.1f}; largest log {m['wal_mb']:.1f} MB"
        )
    b, u = medians["bounded"], medians["unbounded"]
    keys = ("mean", "p50", "p99", "max", "wal_mb")
    print("ratio bounded/unbounded:" + "".join(f" {k} {b[k] / u[k]:.2f}" for k in keys))


if __name__ == "__main__":
    main()
