"""A CPU cgroup holding the processes put in it to a share of one core: a Pi's, on this machine.

A Pi 4's core does about a quarter of the work of one of this machine's, a Zero 2 W's an eighth
(docs/performance.md): 25 and 12 % of a core stand for them. Needs a writable cgroup file system
(v1 ``/sys/fs/cgroup/cpu`` or v2 ``cpu.max``), as root has here.
"""

from __future__ import annotations

import os
from pathlib import Path


class CpuGroup:
    """A CPU cgroup holding a process to ``percent`` of one core (v1 or v2)."""

    def __init__(self, percent: int) -> None:
        v1 = Path("/sys/fs/cgroup/cpu")
        name = f"longhall-bench-{os.getpid()}-{percent}"
        quota = percent * 1000 if percent < 100 else -1
        if (v1 / "cpu.cfs_quota_us").exists():
            self.path = v1 / name
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.cfs_period_us").write_text("100000")
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            self.path = Path("/sys/fs/cgroup") / name
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.max").write_text(f"{quota if quota > 0 else 'max'} 100000")

    def enter(self) -> None:
        """Move the calling process in: run in the child before it executes the server."""
        self.add(os.getpid())

    def add(self, pid: int) -> None:
        """Move process ``pid``, every thread of it, in."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        self.path.rmdir()
