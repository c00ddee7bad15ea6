"""The background checkpointer: the write-ahead log is folded into the file off the command path.

SQLite's automatic checkpoint runs inside whichever commit crosses its threshold, and that player
waits for it. The store turns it off and tells this checkpointer how much it wrote after each
commit; past a threshold, this thread folds the log in with a ``PASSIVE`` checkpoint on its own
connection, which never blocks a writer. Commits that come back to back never let the log start
over, so it has a bound (``limit``): past it, one commit waits (at most ``stall`` seconds) for a
``RESTART`` checkpoint. A checkpoint that fails is logged and tried again later; nothing committed
can be lost by one (WAL with ``synchronous=FULL``).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

PAGES = 1000  # as SQLite's own automatic checkpoint: about 4 MB of log
LIMIT = 4 * PAGES  # the log's bound, in pages (frames): about 16 MB
STALL = 2.0  # seconds a commit waits at most for the log to be folded in


class Checkpointer:
    """One thread and one SQLite connection that fold the log of ``path`` into it."""

    def __init__(
        self, path: Path, pages: int = PAGES, limit: int = LIMIT, stall: float = STALL
    ) -> None:
        self.path = path
        self.pages = pages  # the log's growth, in pages, that calls for a checkpoint
        self.limit = max(limit, pages)  # the log's bound, in pages: past it, it starts over
        self.stall = stall  # the longest a commit waits for that
        self._cond = threading.Condition(threading.Lock())
        self._owed = 0  # pages written (an estimate) since the last checkpoint
        self._due = pages  # checkpoint once this many are owed (more after a failure)
        self._closing = False
        self._thread: threading.Thread | None = None
        self._restarting = False  # a RESTART checkpoint is on: commits wait for it
        self._failing = False  # the last checkpoint failed: no commit waits for the next
        self._waited_out = False  # a commit waited ``stall`` in vain: none waits until one is done
        self.checkpoints = 0  # checkpoints done by this thread
        self.restarts = 0  # of which RESTART checkpoints (the log past its bound)
        self.waits = 0  # commits that waited for the log to be folded in
        self.failures = 0
        self.last: tuple[int, int, int] | None = None  # (busy, log frames, frames checkpointed)

    def wrote(self, pages: int) -> None:
        """Count a commit's pages; wake the thread (started the first time) if a checkpoint is due.

        Called on the command path, after a commit: takes a lock for a moment and never waits
        for the disk, unless the log is past its bound (see the module's docstring).
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
            self._cond.notify_all()
            if not self._over():
                return
            self.waits += 1
            if not self._cond.wait_for(lambda: not self._over(), self.stall):
                self._waited_out = True
                log.warning("the log of %s is past its bound and could not be folded in", self.path)

    def _over(self) -> bool:
        """Whether the next commit must wait for the log to be folded in (hold the lock)."""
        if self._closing or self._failing or self._waited_out:
            return False
        return self._restarting or self._owed >= self.limit

    def close(self) -> None:
        """Stop the thread once its checkpoint in progress (if any) is done."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
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
                restarted = False
                try:
                    if db is None:
                        db = self._connect()
                    self.last = self._fold(db)
                    if self.last[1] > self.limit:  # the log's frames: past its bound
                        self.last = self._restart(db)
                        restarted = self.last[0] == 0
                except Exception:
                    log.exception("could not checkpoint %s; trying again later", self.path)
                    with self._cond:
                        self.failures += 1
                        self._failing = True
                        self._due = self._owed + self.pages  # once as much again is written
                        self._cond.notify_all()
                    continue
                with self._cond:
                    self.checkpoints += 1
                    self._failing = self._waited_out = False
                    # all of the log is in the file (the commit that came as the checkpoint
                    # began too): the next commit starts it over
                    self._owed = 0 if restarted else self._owed - owed
                    self._cond.notify_all()
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
        # a RESTART checkpoint waits this long for the writer's commit in progress, if any
        db.execute(f"PRAGMA busy_timeout={int(self.stall * 1000)}")
        return db

    def _fold(self, db: sqlite3.Connection) -> tuple[int, int, int]:
        """Copy the log into the database without waiting for anyone; return SQLite's answer."""
        busy, frames, done = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(frames), int(done)

    def _restart(self, db: sqlite3.Connection) -> tuple[int, int, int]:
        """Fold in the whole log, the commits waiting meanwhile, so that the next one starts it
        over; return SQLite's answer (busy if the writer's commit outlasted ``stall``)."""
        with self._cond:
            self._restarting = True
        try:
            busy, frames, done = db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
        finally:
            with self._cond:
                self._restarting = False
                self._cond.notify_all()
        with self._cond:
            self.restarts += 1
        return int(busy), int(frames), int(done)
