"""The buttons' lights and sounds follow only what is on the disk: with group commit a
command is applied, and the table's lock let go, before its record is written; the hardware
worker, reading the table then, must not show what a power cut or a failed write could undo."""

from __future__ import annotations

import threading
from typing import Any

from tests.inprocess import seated
from tests.table.test_group_commit import WAIT, GatedStore

from .conftest import Rig


def test_the_lights_never_show_a_version_still_being_written(rig: Rig) -> None:
    table = rig.table
    phones = seated(rig.lh, ["Astrid", "Bjorn", "Cnut"])
    rig.settle()
    stored = table.data.version
    plain = table.store
    store = GatedStore(plain.path)
    table.store = store
    plain.close()
    store.gate.clear()
    answer: list[Any] = []
    starting = threading.Thread(target=lambda: answer.append(phones[0].send("start")))
    starting.start()
    try:
        assert store.entered.wait(WAIT)  # applied, the lock let go, the record at the gate
        assert table.data.version == stored + 1
        # news of an earlier change reaches the worker only now (it was busy with a press)
        rig.hw._queue.put("changed")
        rig.settle()
        assert rig.hw._seen is not None
        assert rig.hw._seen["version"] == stored
    finally:
        store.gate.set()
        starting.join(WAIT)
    assert answer[0]["ok"], answer
    rig.settle()  # once on the disk, the lights follow
    assert rig.hw._seen is not None
    assert rig.hw._seen["version"] == stored + 1
