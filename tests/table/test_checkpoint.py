"""The write-ahead log is folded into the file by the checkpointer's thread, never in a command."""

from __future__ import annotations

import logging
import shutil
import sqlite3
import struct
import threading
from pathlib import Path
from typing import Any

import pytest

from longhall.server.config import Settings
from longhall.server.store import store as store_module
from longhall.server.store.checkpoint import Checkpointer
from longhall.server.store.damaged import diagnose
from longhall.server.store.store import Entry, Store, dumps
from longhall.server.web.app import create_app
from tests.inprocess import seated

WAIT = 30.0  # seconds before a test gives up on an event that should come at once


class Folds:
    """Watches every checkpoint the checkpointer runs: who runs it, held at a gate, or failing."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # a checkpoint reached the gate
        self.held_too_long = False  # the gate was never opened: something waited on it
        self.fail = 0  # how many of the next checkpoints raise
        self.threads: list[str] = []
        self.results: list[tuple[int, int, int]] = []
        self.cond = threading.Condition()
        real = Checkpointer._fold

        def fold(checkpointer: Checkpointer, db: sqlite3.Connection) -> tuple[int, int, int]:
            self.entered.set()
            if not self.gate.wait(WAIT):
                self.held_too_long = True
            with self.cond:
                self.threads.append(threading.current_thread().name)
                if self.fail:
                    self.fail -= 1
                    self.cond.notify_all()
                    raise sqlite3.OperationalError("disk I/O error")
            result = real(checkpointer, db)
            with self.cond:
                self.results.append(result)
                self.cond.notify_all()
            return result

        monkeypatch.setattr(Checkpointer, "_fold", fold)

    def wait_for(self, done: int) -> None:
        """Wait until ``done`` checkpoints have succeeded."""
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.results) >= done, WAIT), self.results


def wal_frames(path: Path) -> tuple[int, int]:
    """The log's checkpoint sequence number (bumped each time it starts over) and its frames."""
    wal = Path(f"{path}-wal").read_bytes()
    page_size, restarts = struct.unpack(">II", wal[8:16])
    return restarts, (len(wal) - 32) // (24 + page_size)


def entry(seq: int, size: int = 0) -> Entry:
    snapshot = dumps({"seq": seq, "fill": "x" * size}) if size else None
    return Entry(seq, {"type": "join", "seq": seq}, snapshot=snapshot)


def assert_holds_up_to(path: Path, seq: int) -> None:
    """The store at ``path``, opened afresh, holds every commit up to ``seq``: the snapshot of the
    one before it and the record of the last one (each test's last commit has no snapshot)."""
    store = Store(path)
    try:
        snapshot, records = store.load()
        assert snapshot is not None and snapshot[0] == seq - 1
        assert records == [(seq, {"type": "join", "seq": seq})]
    finally:
        store.close()


def power_cut(path: Path, folder: Path) -> Path:
    """A copy of the store at ``path`` as the disk holds it now, as a power cut would leave it
    (no ``-shm``: SQLite reads the log again from its start)."""
    folder.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{path}{suffix}", folder / f"{path.name}{suffix}")
    return folder / path.name


def test_the_log_is_laid_out_at_once_and_commits_write_over_it(tmp_path: Path) -> None:
    """The server's store gives its log the size it grows to before a checkpoint, in zeros: a
    commit then changes no file size (one sync instead of a sync and the file system's
    journal). Cut off at any point, before or after the log starts over, the store passes the
    start-up check and reads back every commit."""
    store = Store(tmp_path / "longhall.sqlite3", checkpoint_pages=50)
    store.lay_out_log()
    wal = Path(f"{store.path}-wal")
    laid_out = 32 + 50 * (store.page_size + 24)  # the log's header and 50 frames
    assert wal.stat().st_size == laid_out
    try:
        for seq in range(1, 11):
            store.write([entry(seq, size=100 if seq < 10 else 0)])
            assert wal.stat().st_size == laid_out  # written over the zeros
        first = power_cut(store.path, tmp_path / "cut1")
        restarts, _ = wal_frames(store.path)
        other = sqlite3.connect(store.path)
        busy, frames, folded = other.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
        assert busy == 0 and folded == frames  # all of it in the file: the next commit restarts it
        other.close()
        for seq in range(11, 16):  # the log starts over, over its own old frames and zeros
            store.write([entry(seq, size=100 if seq < 15 else 0)])
        assert wal_frames(store.path)[0] == restarts + 1
        assert wal.stat().st_size == laid_out
        second = power_cut(store.path, tmp_path / "cut2")
    finally:
        store.close()
    for cut, last in ((first, 10), (second, 15)):
        assert diagnose(cut) is None
        assert_holds_up_to(cut, last)


class HeldLayOut:
    """``Store.lay_out_log`` held at a gate until the test opens it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gate = threading.Event()
        self.entered = threading.Event()
        real = Store.lay_out_log

        def held(store: Store) -> None:
            self.entered.set()
            assert self.gate.wait(WAIT)
            real(store)

        monkeypatch.setattr(Store, "lay_out_log", held)


def test_the_server_lays_out_its_log_while_it_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table is served before its log is laid out (on a Pi's SD card the 4 MB and their
    sync took about 0.4 s of every start): made, the server has not begun it; once it serves
    (``start_background``), a thread of its own lays the log out while commands are taken and
    stored."""
    held = HeldLayOut(monkeypatch)
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", bot_delay=0))
    store = lh.table.store
    wal = Path(f"{store.path}-wal")
    laid_out = 32 + store.checkpointer.pages * (store.page_size + 24)
    try:
        assert not held.entered.is_set()
        lh.start_background()
        assert held.entered.wait(WAIT)
        seated(lh, ["Anna", "Bo"])  # commands answered while the lay-out waits
        assert lh.table.stored == lh.table.data.version
        assert wal.stat().st_size < laid_out
        held.gate.set()
        assert lh._laying_out is not None
        lh._laying_out.join(WAIT)
        assert wal.stat().st_size == laid_out
        assert seated(lh, ["Cai"])  # and commits write over the zeros
        assert wal.stat().st_size == laid_out
    finally:
        held.gate.set()
        lh.stop()


def test_a_stop_waits_for_the_lay_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop that comes while the log is being laid out closes the store only after it."""
    held = HeldLayOut(monkeypatch)
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", bot_delay=0))
    lh.start_background()
    stopping = threading.Thread(target=lh.stop)
    try:
        assert held.entered.wait(WAIT)
        stopping.start()
        stopping.join(0.2)
        assert stopping.is_alive()  # it cannot end before the lay-out does
    finally:
        held.gate.set()
        if not stopping.is_alive():
            lh.stop()  # the test failed before the stop began
        stopping.join(WAIT)
    assert not stopping.is_alive()
    assert lh._laying_out is not None and not lh._laying_out.is_alive()


def test_a_lay_out_that_cannot_write_is_only_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The lay-out runs beside the table: a store it cannot write (full, or closed as the night
    ends) is said in the log, never raised in its thread; the log then grows as commits come."""
    store = Store(tmp_path / "longhall.sqlite3")
    store.close()
    with caplog.at_level(logging.WARNING):
        store.lay_out_log()
    assert "could not lay out the log" in caplog.text


class _TornLog:
    """The log file as the lay-out writes it, with the power going half-way through a write."""

    def __init__(self, file: Any) -> None:
        self.file = file

    def __enter__(self) -> _TornLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def __getattr__(self, name: str) -> Any:  # fileno, seek, flush
        return getattr(self.file, name)

    def write(self, data: bytes) -> int:
        self.file.write(data[: len(data) // 2 + 100])  # not even whole frames
        self.file.flush()
        raise OSError("the power went")


def test_a_lay_out_cut_off_leaves_a_whole_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The power goes while the log is being laid out: the store is whole all the same (the
    start-up check finds no log cut in the middle of a frame) and the server may start."""

    class TornPath(type(Path())):  # type: ignore[misc]
        def open(self, *args: Any, **kwargs: Any) -> Any:
            file = super().open(*args, **kwargs)
            return _TornLog(file) if self.name.endswith("-wal") else file

    store = Store(tmp_path / "longhall.sqlite3", checkpoint_pages=50)
    try:
        store.write([entry(1, size=100)])
        store.write([entry(2)])
        monkeypatch.setattr(store_module, "Path", TornPath)
        store.lay_out_log()  # the cut is logged, not raised: the server serves on
        monkeypatch.undo()
        cut = power_cut(store.path, tmp_path / "cut")
    finally:
        store.close()
    assert diagnose(cut) is None
    assert_holds_up_to(cut, 2)


def test_the_log_is_folded_by_the_checkpointer_while_commands_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folds = Folds(monkeypatch)
    folds.gate.clear()
    store = Store(tmp_path / "longhall.sqlite3", checkpoint_pages=50)
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    seq = 0
    while not folds.entered.is_set():  # until the log calls for a checkpoint
        seq += 1
        store.write([entry(seq)])
    restarts, _ = wal_frames(store.path)
    # the checkpoint is held at its gate: writes go on, past SQLite's own threshold of 1000
    # pages, and the log is never folded in by any of them (it would start over after that)
    frames = 0
    while frames <= 1100:
        seq += 1
        store.write([entry(seq, size=20_000)])
        now, frames = wal_frames(store.path)
        assert now == restarts
    folds.gate.set()
    folds.wait_for(1)
    busy, logged, copied = folds.results[0]
    assert (busy, copied) == (0, logged) and logged > 1100  # all of it, in one go
    assert set(folds.threads) == {"longhall-checkpoint"}
    assert not folds.held_too_long
    seq += 1
    store.write([entry(seq)])  # the log, all in the file, starts over from its beginning
    assert wal_frames(store.path)[0] == restarts + 1
    store.close()
    assert_holds_up_to(store.path, seq)  # nothing committed was lost on the way


def test_a_failed_checkpoint_fails_no_command_and_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folds = Folds(monkeypatch)
    folds.fail = 1  # an SD card that hiccups once
    store = Store(tmp_path / "longhall.sqlite3", checkpoint_pages=20)
    try:
        seq = 0
        with caplog.at_level(logging.ERROR, logger="longhall.server.store.checkpoint"):
            while not folds.results:  # every write succeeds; the second checkpoint too
                seq += 1
                store.write([entry(seq)])
        assert folds.threads[:2] == ["longhall-checkpoint"] * 2
        assert store.checkpointer.failures == 1 and store.checkpointer.checkpoints >= 1
        assert "could not checkpoint" in caplog.text
        # tried again only once as much again was written, not at once in a loop
        assert seq >= 2 * 20  # a page a command: 20 pages, and 20 more
        assert store.load()[1] == [(n, {"type": "join", "seq": n}) for n in range(1, seq + 1)]
    finally:
        store.close()


def test_players_are_answered_while_a_checkpoint_is_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folds = Folds(monkeypatch)
    folds.gate.clear()
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0.0)
    lh = create_app(settings)
    try:
        checkpointer = lh.table.store.checkpointer
        with checkpointer._cond:  # a checkpoint after every command, for the test
            checkpointer.pages = checkpointer._due = 1
        anna, bob = seated(lh, ["Anna", "Bob"])
        assert folds.entered.wait(WAIT)  # a checkpoint is at the gate ...
        for kind in ("greedy", "random"):  # ... and the host is answered all the same
            assert anna.send("add_bot", bot=kind)["ok"]
        assert anna.send("set_start_player", seat=bob.seat)["ok"]
        folds.gate.set()
        folds.wait_for(1)
        assert not folds.held_too_long
        table = lh.table.snapshot()
    finally:
        lh.stop()
    lh = create_app(settings)  # the restart replays to the same table
    try:
        assert lh.table.snapshot() == table
    finally:
        lh.stop()
