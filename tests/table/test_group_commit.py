"""Group commit: commands that arrive together share one durable write, and nothing
is answered or shown to anyone before it is on the disk.

The overlap is made certain, not timed: the store's write waits at a gate the test opens once the
other commands are queued behind it. Every message and answer the server sends is checked
against what the SQLite file holds at that moment, read through a connection of its own.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from longhall.server.config import Settings
from longhall.server.games.api import progress_actions
from longhall.server.store.store import Entry, Store
from longhall.server.table.commands import restore
from longhall.server.table.service import Table
from longhall.server.web.app import Longhall, create_app
from longhall.server.web.transport.sender import Sender
from tests.inprocess import Client, seated

WAIT = 30.0  # seconds before a test gives up on an event that should come at once


class GatedStore(Store):
    """A real store whose writes can be held at a gate, and made to fail as a full SD card."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # a write reached the gate
        self.fail_at: int | None = None  # the write (1 = the next) that raises
        self.groups: list[list[int]] = []  # the versions each write stored

    def write(self, entries: list[Entry]) -> None:
        self.entered.set()
        assert self.gate.wait(WAIT)
        if self.fail_at is not None:
            self.fail_at -= 1
            if self.fail_at == 0:
                self.fail_at = None
                raise OSError("No space left on device")
        super().write(entries)
        self.groups.append([e.seq for e in entries])


class DiskWatch:
    """Checks each answer and message the server sends against the versions on the disk."""

    def __init__(self, lh: Longhall, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lh = lh
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.lock = threading.Lock()
        self.sent: list[tuple[str, int, int]] = []  # (what, version shown, version on disk)
        real_emit = Sender.emit

        def emit(sender: Sender, sio: Any, event: str, payload: Any, to: str) -> None:
            if isinstance(payload, dict) and "version" in payload:
                self.check(event, payload["version"])
            real_emit(sender, sio, event, payload, to)

        monkeypatch.setattr(Sender, "emit", emit)
        self.watch_answers()
        # the buttons' lights, and anything else that follows the table
        lh.table.listeners.append(lambda table: self.check("listener", table.data.version))

    def watch_answers(self) -> None:
        """Watch the answers too (call again after a test client is made: it replaces this)."""
        server = self.lh.socketio.server
        real = server._send_packet

        def send_packet(eio_sid: str, pkt: Any) -> None:
            data = pkt.data
            if isinstance(data, list) and data and isinstance(data[-1], dict):
                version = data[-1].get("version")
                if isinstance(version, int):
                    self.check("answer", version)
            real(eio_sid, pkt)

        server._send_packet = send_packet

    def on_disk(self) -> int:
        with self.lock:
            row = self.db.execute(
                "SELECT max(seq) FROM (SELECT seq FROM records UNION ALL SELECT seq FROM snapshots)"
            ).fetchone()
        return int(row[0] or 0)

    def check(self, what: str, version: int) -> None:
        self.sent.append((what, version, self.on_disk()))

    def ahead(self) -> list[tuple[str, int, int]]:
        """What was sent showing a version the disk did not hold yet."""
        return [s for s in self.sent if s[1] > s[2]]


def gated_planning_table(tmp_path: Path, players: int) -> tuple[Longhall, list[Client], GatedStore]:
    """Phones planning the first round of Eketorp, each one tap from committing its plan, on a
    store whose writes can be held at a gate (the caller stops the app)."""
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0.0, rate=1e9, burst=10**9, seed=7)
    lh = create_app(settings)
    phones = seated(lh, [f"P{i}" for i in range(players)])
    assert phones[0].send("start")["ok"]
    for phone in phones:
        plan_all_but_commit(phone)
    plain = lh.table.store
    store = GatedStore(plain.path)
    lh.table.store = store
    plain.close()
    return lh, phones, store


@pytest.fixture
def table_of_six(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Six phones planning the first round of Eketorp, each one tap from committing its plan,
    on a gated store that every sent message is checked against."""
    lh, phones, store = gated_planning_table(tmp_path, 6)
    try:
        watch = DiskWatch(lh, store.path, monkeypatch)
        yield lh, phones, store, watch
    finally:
        lh.stop()


def plan_all_but_commit(phone: Client) -> None:
    """Place this player's vikings (E2: the planning phase), stopping before the commit."""
    while True:
        view = phone.last()
        legal = progress_actions(view["game"]["legal"])
        if not legal or any(a["type"] == "commit" for a in legal):
            return
        assert phone.act(**legal[0])["ok"]


def commit_all_at_once(lh: Longhall, phones: list[Client], store: GatedStore) -> list[Any]:
    """Each phone commits its plan from its own thread: the first write is held at the gate
    until the five others are queued behind it; return the answers in seat order."""
    group_commit = lh.table.group_commit
    queued = threading.Semaphore(0)
    real_add = group_commit.add

    def add(entry: Entry, generation: int) -> None:
        real_add(entry, generation)
        queued.release()

    group_commit.add = add  # type: ignore[method-assign]
    answers: list[Any] = [None] * len(phones)

    def commit(i: int) -> None:
        view = phones[i].last()
        plan = next(a for a in view["game"]["legal"] if a["type"] == "commit")
        answers[i] = phones[i].send(
            "act", version=view["version"], cid=f"plan-of-seat-{i}", action=plan
        )

    store.gate.clear()
    store.entered.clear()
    threads = [threading.Thread(target=commit, args=(i,)) for i in range(len(phones))]
    threads[0].start()
    assert store.entered.wait(WAIT)  # the first leads a write of its own, held at the gate
    for thread in threads[1:]:
        thread.start()
    for _ in range(len(phones)):  # every plan is applied and queued while the disk is busy
        assert queued.acquire(timeout=WAIT)
    assert answers == [None] * len(phones)  # nobody is answered before the disk has it
    store.gate.set()
    for thread in threads:
        thread.join(WAIT)
    group_commit.add = real_add  # type: ignore[method-assign]
    return answers


def stored_table(path: Path) -> dict[str, Any]:
    """The table as a restart would rebuild it from the file."""
    store = Store(path)
    try:
        return restore(store, lambda: "unused").snapshot()
    finally:
        store.close()


def test_six_plans_committed_together_share_one_write(table_of_six: Any) -> None:
    lh, phones, store, watch = table_of_six
    before = lh.table.data.version
    commits = store.commits
    answers = commit_all_at_once(lh, phones, store)
    assert all(a["ok"] for a in answers), answers
    # versions are handed out one by one, as always
    assert sorted(a["version"] for a in answers) == list(range(before + 1, before + 7))
    # the first write held one plan; the five that came meanwhile went to the disk together
    assert store.groups == [[before + 1], list(range(before + 2, before + 7))]
    assert store.commits - commits == 2
    assert {"answer", "patch", "listener"} <= {what for what, _, _ in watch.sent}
    assert watch.ahead() == []
    assert stored_table(store.path) == lh.table.snapshot()
    for phone in phones:  # every phone followed, patch after patch, to the last version
        assert phone.last()["version"] == before + 6
    # a plan sent again (its answer lost on the way) is answered again, not applied again
    again = phones[3].send("act", version=before, cid="plan-of-seat-3", action={"type": "commit"})
    assert again == {**answers[3], "repeat": True}
    assert lh.table.data.version == before + 6


@pytest.mark.parametrize("failing", [1, 2])
def test_a_failed_group_write_refuses_every_command_in_it_and_sends_none_of_it(
    table_of_six: Any, failing: int
) -> None:
    """The first write (one plan, the five others applied on top of it) or the second (the
    group of five) fails: each command it held is refused, none of them is shown to anyone,
    and the table goes back to what the file holds."""
    lh, phones, store, watch = table_of_six
    before = lh.table.data.version
    store.fail_at = failing
    answers = commit_all_at_once(lh, phones, store)
    kept = 1 if failing == 2 else 0
    assert [a["ok"] for a in answers] == [True] * kept + [False] * (6 - kept)
    for answer in answers[kept:]:
        assert answer["error"]["code"] == "storage_failed"
        assert answer["version"] == before + kept
    assert lh.table.data.version == before + kept
    assert stored_table(store.path) == lh.table.snapshot()
    assert watch.ahead() == []
    assert max(version for _, version, _ in watch.sent) == before + kept
    # the phones are where the table is, and the next commands go on from there
    for phone in phones:
        assert phone.last() == lh.table.messages.current(phone.seat)
    for phone in phones[kept:]:
        view = phone.last()
        plan = next(a for a in view["game"]["legal"] if a["type"] == "commit")
        assert phone.send("act", version=view["version"], action=plan)["ok"]
    assert lh.table.data.version == before + 6
    for phone in phones:
        assert phone.last()["version"] == before + 6
    assert watch.ahead() == []


def commit_held(phone: Any, store: Any) -> tuple[threading.Thread, list[Any]]:
    """Start ``phone`` committing its plan and return once its write is held at the store's
    gate: the thread, and the list its answer will be put in."""
    store.gate.clear()
    store.entered.clear()
    answer: list[Any] = []
    view = phone.last()
    plan = next(a for a in view["game"]["legal"] if a["type"] == "commit")
    committing = threading.Thread(
        target=lambda: answer.append(phone.send("act", version=view["version"], action=plan))
    )
    committing.start()
    assert store.entered.wait(WAIT)
    return committing, answer


def test_a_phone_connecting_during_a_write_is_shown_only_what_is_stored(
    table_of_six: Any,
) -> None:
    lh, phones, store, watch = table_of_six
    before = lh.table.data.version
    committing, answer = commit_held(phones[0], store)
    came: list[Client] = []
    connecting = threading.Thread(target=lambda: came.append(Client(lh)))
    connecting.start()  # the table display, opened while the plan is being written
    store.gate.set()
    committing.join(WAIT)
    connecting.join(WAIT)
    assert answer[0]["ok"] and answer[0]["version"] == before + 1
    assert came[0].last()["version"] == before + 1
    assert watch.ahead() == []
    watch.watch_answers()
    assert came[0].sio.emit("snapshot", callback=True)["version"] == before + 1
    assert watch.ahead() == []


def test_without_group_commit_each_command_is_its_own_write(table_of_six: Any) -> None:
    """The peer bench/burst.py measures against: the record written under the table's lock."""
    lh, phones, store, watch = table_of_six
    lh.table.grouped = False
    commits = store.commits
    for phone in phones:
        view = phone.last()
        plan = next(a for a in view["game"]["legal"] if a["type"] == "commit")
        assert phone.send("act", version=view["version"], action=plan)["ok"]
    assert store.commits - commits == 6
    assert watch.ahead() == []


def test_group_commit_setting_reads_its_environment_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``LONGHALL_GROUP_COMMIT=0`` (bench/burst.py's switch) reaches the table through Settings."""
    monkeypatch.delenv("LONGHALL_GROUP_COMMIT", raising=False)
    assert Settings(data_dir=tmp_path).group_commit
    monkeypatch.setenv("LONGHALL_GROUP_COMMIT", "0")
    settings = Settings(data_dir=tmp_path, gpio="off")
    assert not settings.group_commit
    store = Store(settings.db_path)
    try:
        assert not Table(store, settings, lambda ops, stream: None).grouped
    finally:
        store.close()
    monkeypatch.setenv("LONGHALL_GROUP_COMMIT", "1")
    assert Settings(data_dir=tmp_path).group_commit


def test_a_command_applied_as_a_write_fails_is_refused_and_never_stored(
    table_of_six: Any,
) -> None:
    """A write fails (on another thread, outside the table's lock) just after a command has
    looked for a failure to mend and before it is applied: that command stands on what was
    lost, so it must be refused and never reach the disk, where it would leave a hole in the
    journal that no restart could replay."""
    lh, phones, store, watch = table_of_six
    table: Table = lh.table
    before = table.data.version
    store.fail_at = 1
    store.gate.clear()
    store.entered.clear()
    answers: list[Any] = [None, None]

    def commit(i: int) -> None:
        view = phones[i].last()
        plan = next(a for a in view["game"]["legal"] if a["type"] == "commit")
        answers[i] = phones[i].send("act", version=view["version"], action=plan)

    first = threading.Thread(target=commit, args=(0,))
    first.start()
    assert store.entered.wait(WAIT)  # the first plan is being written (and will fail)
    real_sids = table.connections.sids
    armed = [True]

    def sids() -> dict[str, Any]:
        # the second command has mended nothing (no failure yet): now the write fails
        if armed[0] and threading.current_thread() is second:
            armed[0] = False
            store.gate.set()
            with table.group_commit.cond:
                assert table.group_commit.cond.wait_for(lambda: table.group_commit.broken, WAIT)
        return real_sids()

    table.connections.sids = sids  # type: ignore[method-assign]
    second = threading.Thread(target=commit, args=(1,))
    second.start()
    first.join(WAIT)
    second.join(WAIT)
    table.connections.sids = real_sids  # type: ignore[method-assign]
    assert answers[0]["error"]["code"] == "storage_failed"
    assert not answers[1]["ok"], answers[1]
    assert answers[1]["error"]["code"] == "storage_failed"
    assert table.data.version == before
    assert stored_table(store.path) == table.snapshot()
    assert watch.ahead() == []


def test_a_snapshot_asked_for_right_after_a_failed_write_shows_the_disk(
    table_of_six: Any,
) -> None:
    """A write fails; before the failed command's thread gets the table's lock back, a phone
    asks for a snapshot (or connects): it is shown the table as stored, without an error."""
    lh, phones, store, watch = table_of_six
    table = lh.table
    before = table.data.version
    store.fail_at = 1
    committing, answer = commit_held(phones[0], store)
    with table.lock:  # as a phone's snapshot request that has the lock when the write fails
        store.gate.set()
        with table.group_commit.cond:
            assert table.group_commit.cond.wait_for(lambda: table.group_commit.broken, WAIT)
        shown = table.snapshot_for("a-table-display")
    committing.join(WAIT)
    assert shown["version"] == before
    assert answer[0]["error"]["code"] == "storage_failed"
    assert stored_table(store.path) == table.snapshot()


def test_a_phone_is_let_in_or_sent_away_by_what_is_stored(tmp_path: Path) -> None:
    """The host kicks a seat whose phone is away; that phone comes back while the kick is being
    written, and the write fails. The kick never happened: the phone is let back in (its token
    was checked against what is stored, not against a kick still in flight)."""
    settings = Settings(data_dir=tmp_path, gpio="off", bot_delay=0.0, rate=1e9, burst=10**9, seed=7)
    lh = create_app(settings)
    try:
        table: Table = lh.table
        phones = seated(lh, ["Astrid", "Bjorn", "Cnut"])
        away = phones[2]
        away.sio.disconnect()
        plain = table.store
        store = GatedStore(plain.path)
        table.store = store
        plain.close()
        store.fail_at = 1
        store.gate.clear()
        kicked: list[Any] = []
        kicking = threading.Thread(target=lambda: kicked.append(phones[0].send("kick", seat=2)))
        kicking.start()
        assert store.entered.wait(WAIT)  # the kick is applied, its record at the gate
        came: list[Client] = []
        waits = threading.Event()  # the phone's connection waits for the disk, or is done
        real_wait = table.group_commit.wait

        def wait(version: int, generation: int) -> bool:
            waits.set()
            return real_wait(version, generation)

        table.group_commit.wait = wait  # type: ignore[method-assign]

        def come_back() -> None:
            try:
                came.append(Client(lh, {"token": away.token}))
            finally:
                waits.set()

        coming = threading.Thread(target=come_back)
        coming.start()
        assert waits.wait(WAIT)
        store.gate.set()
        kicking.join(WAIT)
        coming.join(WAIT)
        table.group_commit.wait = real_wait  # type: ignore[method-assign]
        assert kicked[0]["error"]["code"] == "storage_failed"
        assert len(table.data.seats) == 3
        assert came[0].connected, "the phone was sent away by a kick that was never stored"
        assert came[0].last()["version"] == table.data.version
    finally:
        lh.stop()
