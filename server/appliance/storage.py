"""Whether the game store will survive a power-off: found out at start, said loudly.

raspi-config's "overlay file system" puts a RAM overlay over the SD card: everything written,
the game store too, vanishes at the next boot. The server still works, so nobody would notice
until the games are gone. At start the server looks up the file system the store lives on; on
one that is lost at power-off it logs an error and the table display shows a standing notice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MOUNTINFO = Path("/proc/self/mountinfo")
# file systems whose contents are gone after a power-off (overlay: raspi-config's overlay file
# system, whose upper layer is in RAM; the others live in RAM themselves)
VOLATILE = frozenset({"overlay", "tmpfs", "ramfs"})
NOTICE = "store_volatile"


@dataclass(frozen=True)
class Mount:
    """One line of /proc/self/mountinfo: where a file system is mounted, and its type."""

    point: str
    fstype: str
    source: str


def _unescape(field: str) -> str:
    """Mount points escape space, tab, newline and backslash as octal (\\040...)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[Mount]:
    """Every mount of a mountinfo text, in order (a later mount hides an earlier one)."""
    mounts = []
    for line in text.splitlines():
        before, sep, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if not sep or len(fields) < 5 or len(tail) < 2:
            continue
        mounts.append(Mount(point=_unescape(fields[4]), fstype=tail[0], source=tail[1]))
    return mounts


def mount_of(path: Path, mounts: list[Mount]) -> Mount | None:
    """The mount a path lives on: the longest mount point above it, the last one mounted."""
    target = path.resolve()
    best: Mount | None = None
    for mount in mounts:
        point = Path(mount.point)
        if (target == point or point in target.parents) and (
            best is None or len(point.parts) >= len(Path(best.point).parts)
        ):
            best = mount
    return best


def volatile_store(data_dir: Path, mountinfo: Path = MOUNTINFO) -> Mount | None:
    """The mount holding the store if it is lost at power-off, else None (also when unknown)."""
    try:
        mounts = parse_mountinfo(mountinfo.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None  # not Linux: nothing to say
    mount = mount_of(data_dir, mounts)
    return mount if mount is not None and mount.fstype in VOLATILE else None


def notice(data_dir: Path, mount: Mount) -> dict[str, Any]:
    """The standing notice for a store on a volatile file system."""
    message = (
        f"The game store {data_dir} is on a file system that is lost at power-off "
        f"({mount.fstype}, such as raspi-config's overlay file system): every game will be lost. "
        "Keep the store on a writable partition (docs/pi-setup.md)."
    )
    return {
        "code": NOTICE,
        "message": message,
        "params": {"fstype": mount.fstype, "path": str(data_dir)},
    }


def check_storage(table: Any, mountinfo: Path = MOUNTINFO) -> bool:
    """Warn in the log and on the table display if the store will not survive; True if so."""
    data_dir = table.settings.data_dir
    mount = volatile_store(data_dir, mountinfo)
    if mount is None:
        return False
    found = notice(data_dir, mount)
    log.error("!!! %s", found["message"])
    with table.lock:
        table.notices[NOTICE] = found
        table.refresh()
    return True
