"""The background checkpointer: the write-ahead log is folded into the file off the command path.

SQLite's own automatic checkpoint runs inside whichever commit crosses its threshold: that
command then also copies the log into the database file and waits for the disk twice more, a
latency spike for the player who sent it (worse on a Pi's SD card). The store turns it off on
its connection and tells this checkpointer how much it wrote after each commit; once the log
has grown past a threshold, this thread folds it in with a ``PASSIVE`` checkpoint on its own
connection, which never blocks a writer and never takes the write lock.

Nothing committed can be lost by a checkpoint: in WAL mode with ``synchronous=FULL`` SQLite only
overwrites a database page after the log frames holding it are on the disk, and syncs the
database before it lets the log be reused. A checkpoint that fails is logged and tried again
once as much again has been written; no command ever waits for it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("longhall.checkpoint")

PAGES = 1000  # as SQLite's own automatic checkpoint: about 4 MB of log


class Checkpointer:
    """One thread and one SQLite connection that fold the log of ``path`` into it."""

    def __init__(self, path: Path, pages: int = PAGES) -> None:
        self.path = path
        self.pages = pages  # the log's growth, in pages, that calls for a checkpoint
        self._cond = threading.Condition(threading.Lock())
        self._owed = 0  # pages written (an estimate) since the last checkpoint
        self._due = pages  # checkpoint once this many are owed (more after a failure)
        self._closing = False
        self._thread: threading.Thread | None = None
        self.checkpoints = 0  # checkpoints done by this thread
        self.failures = 0
        self.last: tuple[int, int, int] | None = None  # (busy, log frames, frames checkpointed)

    def wrote(self, pages: int) -> None:
        """Count a commit's pages; wake the thread (started the first time) if a checkpoint is due.

        Called on the command path: takes a lock for a moment and never waits for the disk.
        """
        with self._cond:
            self._owed += pages
            if self._closing or self._owed < self._due:
                return
            if self._thread is None:  # started lazily: a short-lived store never needs one
                self._thread = threading.Thread(
                    target=self._run, name="longhall-checkpoint", daemon=True
                )
                self._thread.start()
            self._cond.notify()

    def close(self) -> None:
        """Stop the thread once its checkpoint in progress (if any) is done."""
        with self._cond:
            self._closing = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        catch_up = False  # the next checkpoint folds in what came during the last one
        try:
            while True:
                with self._cond:
                    while not self._closing and self._owed < self._due:
                        self._cond.wait()
                    if self._closing:
                        return
                    owed = self._owed
                try:
                    if db is None:
                        db = self._connect()
                    self.last = self._fold(db)
                except Exception:
                    log.exception("could not checkpoint %s; trying again later", self.path)
                    with self._cond:
                        self.failures += 1
                        self._due = self._owed + self.pages  # once as much again is written
                    continue
                with self._cond:
                    self.checkpoints += 1
                    self._owed -= owed
                    # What was written meanwhile is folded in at once, once: the log can only
                    # start over from its beginning (rather than grow) if a commit finds it all
                    # in the file, as it will once the table is quiet for a moment.
                    catch_up = not catch_up and self._owed > 0
                    self._due = 1 if catch_up else self.pages
        finally:
            if db is not None:
                db.close()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        return db

    def _fold(self, db: sqlite3.Connection) -> tuple[int, int, int]:
        """Copy the log into the database without waiting for anyone; return SQLite's answer."""
        busy, frames, done = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(frames), int(done)
