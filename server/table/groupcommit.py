"""Group commit: the records of commands that arrive together go to the disk in one write.

The table applies a command under its lock and hands its record here as *pending*; the lock is
let go, and the command's thread waits until its record is on the disk. The first waiter to find
no write in progress becomes the *leader*: it takes every pending record and writes them in one
transaction, with one wait for the disk, while the others (*followers*) wait on a condition; a
record that came in during that write goes with the next one. A command alone is written by its
own thread at once, as before: nothing is handed to another thread.

A failed write loses every record that was pending then, written or not: each of their
commands is refused, and the table goes back to what is on the disk (:meth:`Table._mend`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..store.store import Entry

log = logging.getLogger(__name__)


class GroupCommit:
    """The records applied but not yet on the disk, and who writes them."""

    def __init__(self, write: Callable[[list[Entry]], None], durable: int) -> None:
        self.write = write
        self.cond = threading.Condition(threading.Lock())
        self.pending: list[Entry] = []
        self.writing = False  # a leader is writing a group
        self.durable = durable  # the last version on the disk
        # Bumped by a failed write: whatever was applied in an earlier generation is lost.
        self.generation = 0
        self.broken = False  # a write failed and the table has not gone back to the disk yet
        self.error: BaseException | None = None  # why the last write failed

    def add(self, entry: Entry, generation: int) -> None:
        """Queue a record applied in ``generation`` (dropped if a write failed since)."""
        with self.cond:
            # While broken, a record stands on what was lost even if its generation was read
            # after the failure (the write fails outside the table's lock): never write it.
            if generation == self.generation and not self.broken:
                self.pending.append(entry)

    def wait(self, version: int, generation: int) -> bool:
        """Wait until ``version`` is on the disk (True) or lost to a failed write (False),
        writing what is pending if no one else is."""
        while True:
            with self.cond:
                while True:
                    if generation != self.generation:
                        return False
                    if self.durable >= version:
                        return True
                    if self.broken:  # applied on what was lost, or nothing left to write
                        return False
                    if not self.writing:
                        break
                    self.cond.wait()
                if not self.pending:  # a version no record was queued for (a bug)
                    raise RuntimeError(f"version {version} was never queued to be written")
                group, self.pending = self.pending, []
                self.writing = True  # this thread leads: it writes for everyone pending
            try:
                self.write(group)
            except Exception as err:
                log.exception(
                    "could not store records %d to %d; the table goes back to the disk",
                    group[0].seq,
                    group[-1].seq,
                )
                with self.cond:
                    self.error = err
                    self.generation += 1
                    self.broken = True
                    self.pending = []  # applied on top of what was lost: lost too
                    self.writing = False
                    self.cond.notify_all()
                return False
            with self.cond:
                self.durable = group[-1].seq
                self.writing = False
                self.cond.notify_all()

    def recovered(self, durable: int) -> None:
        """The table went back to the disk, at version ``durable``."""
        with self.cond:
            self.durable = durable
            self.broken = False
            # A generation read between the failure and now belongs to what was lost.
            self.generation += 1
