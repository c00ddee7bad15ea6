"""``/healthz`` tells only what is on the disk, as every answer and update does.

A command's write is held at the store's gate (tests/table/test_group_commit.py): while it is
held the table has applied the command, and /healthz must still name the stored version and
phase; once the write is through, it names the new ones.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from .test_group_commit import WAIT, commit_held, gated_planning_table


def on_disk(path: Path) -> int:
    """The last version the SQLite file holds, read through a connection of its own."""
    db = sqlite3.connect(str(path))
    try:
        row = db.execute(
            "SELECT max(seq) FROM (SELECT seq FROM records UNION ALL SELECT seq FROM snapshots)"
        ).fetchone()
    finally:
        db.close()
    return int(row[0] or 0)


def test_healthz_names_the_stored_version_while_a_command_is_being_written(
    tmp_path: Path,
) -> None:
    lh, phones, store = gated_planning_table(tmp_path, 3)
    try:
        for phone in phones[:-1]:
            view = phone.last()
            plan = next(a for a in view["game"]["legal"] if a["type"] == "commit")
            assert phone.send("act", version=view["version"], action=plan)["ok"]
        http = lh.app.test_client()

        def health() -> dict[str, Any]:
            body: dict[str, Any] = http.get("/healthz").get_json()
            assert body["status"] == "ok"
            return body

        before = health()
        assert before["table_version"] == on_disk(store.path) == lh.table.data.version
        # the last plan: applied (the table moves on to the next phase) but held at the disk
        committing, answer = commit_held(phones[-1], store)
        try:
            assert lh.table.data.version == before["table_version"] + 1
            during = health()
            assert on_disk(store.path) == before["table_version"]
        finally:
            store.gate.set()
            committing.join(WAIT)
        assert during == before  # the version and the phase the disk holds, nothing newer
        assert answer[0]["ok"], answer
        after = health()
        assert after["table_version"] == on_disk(store.path) == before["table_version"] + 1
        assert after["phase"] == lh.table.phase() != before["phase"]
    finally:
        lh.stop()
