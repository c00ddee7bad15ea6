"""The game store's check at start: a damaged store is kept aside, never replaced or discarded.

SQLite itself would start a new empty table over a 0-byte database whose ``-wal`` still holds the
game (and drop the ``-wal``), drop a ``-wal`` whose header it cannot use, and stop with a raw
``DatabaseError`` on other damage. Before the server opens the store for writing, this module
looks at the files without changing them (a read-only connection never checkpoints or deletes a
``-wal``) and runs ``PRAGMA quick_check``. A store that is damaged, or may be, is renamed to
``longhall.sqlite3.damaged-<time>`` (its ``-wal`` and ``-shm`` alongside, so SQLite still finds
them) and the server starts only from a restored backup, or as a new table when told to
(``longhall serve --fresh-store``).

A ``-wal`` that ends in part of a frame is not damage: it is a write that never finished (the
card was full, or the power went), and SQLite recovers from it by design, reading the whole
frames before it, every acknowledged command among them. Such a store is checked like any other
and served. On a card that has become read-only nothing is moved: the store is read where it is.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import struct
import time
from pathlib import Path

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums little-endian, big-endian
WAL_HEADER = 32
FRAME_HEADER = 24


class DamagedStore(Exception):
    """The store is damaged or may be: one sentence saying which file and what to do, with the
    store's path and where the damaged one was kept (for the table display's own words)."""

    def __init__(self, message: str, store: Path, kept: Path) -> None:
        super().__init__(message)
        self.store = store
        self.kept = kept


def kept_aside(db: Path) -> list[Path]:
    """Damaged stores kept aside earlier, oldest first."""
    return sorted(
        p for p in db.parent.glob(f"{db.name}.damaged-*") if not p.name.endswith(("-wal", "-shm"))
    )


def read_only(folder: Path) -> bool:
    """Whether the file system holding ``folder`` is mounted read-only (an SD card that failed
    into read-only, or one mounted so)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def check_store(db: Path, fresh: bool = False) -> None:
    """Raise :class:`DamagedStore`, having kept the files aside, unless the store is sound.

    A missing store is sound (a first start), unless a damaged one was kept aside and no backup
    was restored in its place: then only ``fresh`` starts a new table. On a read-only card a
    damaged store is named where it is: it cannot be moved.
    """
    wal = _side(db, "-wal")
    if db.exists() or (wal.exists() and wal.stat().st_size > 0):
        problem = diagnose(db)
        if problem is None:
            return
        if read_only(db.parent):
            raise DamagedStore(
                f"The game store {db} {problem}, and its card is read-only: nothing was moved. "
                f"Copy {db.parent} to another computer and restore it or a backup to a sound card "
                "(see docs/pi-setup.md, Backups).",
                db,
                db,
            )
        kept = keep_aside(db)
        if fresh:
            return
        raise DamagedStore(
            f"The game store {db} {problem}; it was kept as {kept} and nothing was deleted: "
            f"restore a backup to {db} (see docs/pi-setup.md, Backups), or start with "
            "--fresh-store to begin a new table.",
            db,
            kept,
        )
    earlier = kept_aside(db)
    if earlier and not fresh:
        raise DamagedStore(
            f"The game store {db} is missing and a damaged one was kept as {earlier[-1]}: "
            f"restore a backup to {db} (see docs/pi-setup.md, Backups), or start with "
            "--fresh-store to begin a new table.",
            db,
            earlier[-1],
        )


def diagnose(db: Path) -> str | None:
    """What is wrong with the store at ``db`` (its ``-wal`` included), or ``None``."""
    wal = _side(db, "-wal")
    size = db.stat().st_size if db.exists() else 0
    wal_size = wal.stat().st_size if wal.exists() else 0
    if size == 0:
        if wal_size:
            return "is empty but its -wal file holds data"
        return None  # created and never written: nothing to lose
    with db.open("rb") as f:
        header = f.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        return "is not an SQLite database"
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    if wal_size:
        problem = _wal_problem(wal, wal_size, page_size)
        if problem:
            return problem
    try:
        con = sqlite3.connect(read_only_uri(db), uri=True)
        try:
            rows = con.execute("PRAGMA quick_check").fetchall()
        finally:
            con.close()
    except sqlite3.DatabaseError as err:
        return f"cannot be read ({err})"
    if rows != [("ok",)]:
        return f"fails its check ({' '.join(str(rows[0][0]).split())[:120]})"
    return None


def _wal_problem(wal: Path, size: int, page_size: int) -> str | None:
    with wal.open("rb") as f:
        header = f.read(WAL_HEADER)
    if len(header) < WAL_HEADER:
        return "has a -wal file cut short"
    magic, _version, wal_page_size = struct.unpack(">III", header[:12])
    if magic not in WAL_MAGIC or _checksum(header[:24], magic & 1) != header[24:32]:
        return "has a -wal file SQLite would not read"
    if wal_page_size != page_size:
        return "has a -wal file of another page size"
    if (size - WAL_HEADER) % (FRAME_HEADER + page_size):
        # A -wal grows by whole frames: part of one is a write that never finished (a full card,
        # a power cut), never acknowledged. SQLite reads the whole frames before it and leaves
        # the rest, as it is made to; the check that follows says whether the store is sound.
        log.warning(
            "the game store's -wal %s ends in part of a frame (a write that never finished: a "
            "full card or a power cut); SQLite recovers the store from the frames before it",
            wal,
        )
    return None


def _checksum(data: bytes, big_endian: int) -> bytes:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0 = s1 = 0
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return struct.pack(">II", s0, s1)


def read_only_uri(db: Path) -> str:
    """The URI that opens the store at ``db`` for reading only, changing nothing. On a read-only
    card SQLite cannot make the ``-shm`` it reads a ``-wal`` with; with no ``-wal`` to read,
    the file is all there is (``immutable``)."""
    uri = f"{db.resolve().as_uri()}?mode=ro"
    if read_only(db.parent) and not _side(db, "-wal").exists():
        uri += "&immutable=1"
    return uri


def keep_aside(db: Path) -> Path:
    """Rename the store and its ``-wal`` and ``-shm`` out of the way; return the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = db.with_name(f"{db.name}.damaged-{stamp}")
    n = 1
    while target.exists() or _side(target, "-wal").exists():
        n += 1
        target = db.with_name(f"{db.name}.damaged-{stamp}-{n}")
    # the database first: a crash in between leaves a -wal without it, which the next start
    # keeps aside too, never a database without its -wal, which SQLite would open as whole
    for suffix in ("", "-wal", "-shm"):
        source = _side(db, suffix)
        if source.exists():
            source.rename(_side(target, suffix))
    return target


def _side(db: Path, suffix: str) -> Path:
    return db.with_name(db.name + suffix)
