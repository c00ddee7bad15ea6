"""A CPU cgroup holding the processes put in it to a share of one core: a Pi's, on this machine;
and, if asked, their writes to one disk to an SD card's pace.

A Pi 4's core does about a quarter of the work of one of this machine's, a Zero 2 W's an eighth
(docs/performance.md): 25 and 12 % of a core stand for them. A Pi keeps its store on its SD card,
which writes some 10 to 40 MB/s where this machine's disk writes hundreds: ``write_mbps`` holds
the writes a process makes itself (a ``write`` then an ``fsync``, as SQLite and the store do) to
that pace; the kernel's own writeback of a file left unsynced is not held (cgroup v1). Needs a
writable cgroup file system (v1 ``/sys/fs/cgroup/cpu`` and ``blkio``, or v2 ``cpu.max`` and
``io.max``), as root has here.
"""

from __future__ import annotations

import os
from pathlib import Path

PERIOD_US = 100_000  # the quota's period: each 0.1 s, the group may run its share of it


class CpuGroup:
    """A CPU cgroup holding a process to ``percent`` of one core (v1 or v2), and with
    ``write_mbps`` its writes to the disk holding ``disk`` to that many MB a second."""

    def __init__(self, percent: int, write_mbps: float | None = None, disk: Path = Path("/tmp")):
        v1 = Path("/sys/fs/cgroup/cpu")
        name = f"longhall-bench-{os.getpid()}-{percent}"
        quota = percent * PERIOD_US // 100 if percent < 100 else -1
        disk_id = whole_disk(disk) if write_mbps else ""  # before any group is made
        self.paths: list[Path] = []
        if (v1 / "cpu.cfs_quota_us").exists():
            self.path = v1 / name
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
            self.paths.append(self.path)
            if write_mbps:
                blkio = Path("/sys/fs/cgroup/blkio") / name
                blkio.mkdir(exist_ok=True)
                limit = f"{disk_id} {int(write_mbps * 1e6)}"
                (blkio / "blkio.throttle.write_bps_device").write_text(limit)
                if blkio.resolve() != self.path.resolve():  # not one hierarchy with cpu
                    self.paths.append(blkio)
        else:
            self.path = Path("/sys/fs/cgroup") / name
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.max").write_text(f"{quota if quota > 0 else 'max'} {PERIOD_US}")
            if write_mbps:
                limit = f"{disk_id} wbps={int(write_mbps * 1e6)}"
                (self.path / "io.max").write_text(limit)
            self.paths.append(self.path)

    def enter(self) -> None:
        """Move the calling process in: run in the child before it executes the server."""
        self.add(os.getpid())

    def add(self, pid: int) -> None:
        """Move process ``pid``, every thread of it, in."""
        for path in self.paths:
            (path / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        for path in self.paths:
            path.rmdir()


def whole_disk(path: Path) -> str:
    """The ``major:minor`` of the disk holding ``path`` (a partition's disk: the limits are set
    on whole disks)."""
    dev = os.stat(path).st_dev
    block = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    if not block.exists():  # tmpfs, overlayfs, btrfs: no disk of its own to hold to a pace
        raise SystemExit(f"--sd: {path} is on no block device of its own (tmpfs?); set TMPDIR")
    if (block / "partition").exists():
        block = block.resolve().parent
    return (block / "dev").read_text().strip()
