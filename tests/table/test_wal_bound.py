"""The write-ahead log stays bounded when commits come back to back with no pause
(server/checkpoint.py), and nothing committed is lost on the way.

One thread commits as fast as a real SQLite file on this machine's disk takes it, for a number
of commits (not a time); the log file's size is read after every commit."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from longhall.server.store.checkpoint import Checkpointer
from longhall.server.store.store import Entry, Store

from .test_checkpoint import assert_holds_up_to
from .test_checkpoint import entry as checkpoint_entry

PAGES = 20  # a checkpoint once the log has grown by this many pages
LIMIT = 100  # the log's bound, in pages
COMMITS = 2000


def entry(seq: int) -> Entry:
    """A record and, every other one, a snapshot of a few pages: a command that ends a round."""
    return checkpoint_entry(seq, 6000 if seq % 2 else 0)


def test_the_log_stays_bounded_under_back_to_back_commits(tmp_path: Path) -> None:
    store = Store(tmp_path / "longhall.sqlite3")
    store.checkpointer.close()  # never started: the store's, with the bound made small
    checkpointer = store.checkpointer = Checkpointer(store.path, pages=PAGES, limit=LIMIT)
    page = store.page_size + 24  # a frame of the log: a page and its header
    wal = Path(f"{store.path}-wal")
    largest = 0
    try:
        for seq in range(1, COMMITS + 1):  # one thread, no pause between commits
            store.write([entry(seq)])
            largest = max(largest, os.stat(wal).st_size)
        assert checkpointer.restarts > 0 and checkpointer.failures == 0
    finally:
        store.close()
    frames = (largest - 32) // page
    # Past the bound the log starts over at the next checkpoint; what comes meanwhile is
    # bounded too (a commit waits once ``LIMIT`` pages were written since a checkpoint began).
    # Without the bound it grew to about 8,000 pages in this test.
    assert frames <= 3 * LIMIT, f"the log grew to {frames} pages"
    assert_holds_up_to(store.path, COMMITS)  # every commit is there, in order


def test_a_stuck_checkpoint_holds_up_one_commit_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An SD card that stalls a checkpoint: one commit past the bound waits for it (``stall``),
    the commits after it do not, and nothing is lost; once a checkpoint gets through, the bound
    holds again."""
    gate = threading.Event()
    entered = threading.Event()
    real_fold = Checkpointer._fold

    def fold(checkpointer: Checkpointer, db: sqlite3.Connection) -> tuple[int, int, int]:
        entered.set()
        assert gate.wait(60)
        return real_fold(checkpointer, db)

    monkeypatch.setattr(Checkpointer, "_fold", fold)
    store = Store(tmp_path / "longhall.sqlite3")
    store.checkpointer.close()
    checkpointer = store.checkpointer = Checkpointer(store.path, PAGES, LIMIT, stall=0.01)
    try:
        seq = 0
        while not entered.is_set():  # until a checkpoint is due, and stuck
            seq += 1
            store.write([entry(seq)])
        for _ in range(3 * LIMIT):  # far past the bound: one commit waited, then none
            seq += 1
            store.write([entry(seq)])
        assert checkpointer.waits == 1
        gate.set()
        with checkpointer._cond:  # the stuck checkpoint gets through at last
            assert checkpointer._cond.wait_for(lambda: checkpointer.checkpoints > 0, 60)
        assert not checkpointer._waited_out  # commits past the bound wait for it again
    finally:
        gate.set()
        store.close()
    store = Store(store.path)
    try:  # every commit is there: the last snapshot, then each record after it, in order (the
        # last commit has one if the checkpoint got stuck after an odd number of commits)
        snapshot, records = store.load()
        assert snapshot is not None
        assert [at for at, _ in records] == list(range(snapshot[0] + 1, seq + 1))
    finally:
        store.close()
