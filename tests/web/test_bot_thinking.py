"""A bot thinks outside the table's lock: on a real server whose expert bot is held in the middle
of its thinking (``gated_expert.py``), the phones are answered meanwhile, and the decision made on
a table that moved on is dropped and thought again."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from longhall.server.config import DB_NAME

from ..support import Phone, ServerProcess

BOUND = 120.0  # seconds: a stuck server fails the test instead of hanging it (not a timing)


def bounded(work: Callable[[], Any]) -> Any:
    """Run ``work`` (a blocking FIFO open) in a thread; fail if it never returns."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    thread.join(BOUND)
    assert out, "the server never reached the gate"
    return out[0]


class Gate:
    """The test's side of ``tests/web/gated_expert.py``'s gate."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        os.mkfifo(folder / "entered")
        os.mkfifo(folder / "release")

    def entered(self) -> tuple[int, int]:
        """Wait until the expert starts a decision; return its seat and the game version it saw."""
        line = bounded(lambda: (self.folder / "entered").read_text())
        seat, version = line.split()
        return int(seat), int(version)

    def release(self) -> None:
        bounded(lambda: (self.folder / "release").write_text("go\n"))


@pytest.fixture
def gated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ServerProcess, Gate]]:
    gate = Gate(tmp_path)
    monkeypatch.setenv("LONGHALL_TEST_GATE", str(tmp_path))
    monkeypatch.setenv("LONGHALL_TEST_GATES", "2")
    monkeypatch.setenv("LONGHALL_EXPERT_PLAYOUTS", "4")  # a lean test: strength is bench/bots.py's
    data = tmp_path / "data"
    data.mkdir()
    args = ("--bot-delay", "0", "--rate-limit", "1000", "--seed", "7")
    proc = ServerProcess(data, *args, module="tests.web.gated_expert")
    proc.start()
    yield proc, gate
    proc.stop()


def bot_actions(proc: ServerProcess, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat`` in the stored game (the real SQLite file, as the server wrote it)."""
    con = sqlite3.connect(proc.data_dir / DB_NAME)
    try:
        rows = con.execute("SELECT seat, action FROM game_actions ORDER BY game_id, n").fetchall()
    finally:
        con.close()
    return [json.loads(action) for s, action in rows if s == seat]


def test_phones_are_answered_while_an_expert_thinks(
    gated: tuple[ServerProcess, Gate],
) -> None:
    proc, gate = gated
    lobby = Phone(proc.url).connect()
    code = lobby.current["table"]["code"]
    lobby.disconnect()
    anna = Phone(proc.url, {"code": code}, name="Anna").connect()
    bob = Phone(proc.url, {"code": code}, name="Bob")
    try:
        assert anna.join("Anna")["ok"]
        assert bob.connect().join("Bob")["ok"]
        assert anna.command("add_bot", bot="expert")["ok"]
        assert anna.command("start")["ok"]
        seat, thought_at = gate.entered()  # R3: the expert starts planning; it is held there
        assert seat == 2
        # while it thinks, the phones are answered: their plans (R3), then a pause
        for phone in (anna, bob):
            # the start reaches each phone in its own time: Bob's may not have arrived yet
            view = phone.wait(lambda v: v["game"] is not None)
            place = next(a for a in view["game"]["legal"] if a["type"] == "place")
            ack = phone.command("act", action=place)
            assert ack["ok"], ack
        paused = anna.command("pause")
        assert paused["ok"], paused
        gate.release()  # the decision it made is for a table that has moved on: dropped
        assert anna.command("resume")["ok"]
        seat, again_at = gate.entered()  # it thinks again, on the table as it is now
        assert seat == 2 and again_at > thought_at  # the game's version: the phones' places
        assert bot_actions(proc, 2) == []  # nothing of the first decision was played
        gate.release()
        # from then on it plans on (R3): every viking placed and the plan committed
        anna.wait(lambda v: v["game"]["public"]["seats"][2]["committed"], timeout=BOUND)
        assert [a["type"] for a in bot_actions(proc, 2)][-1] == "commit"
        assert "was refused" not in proc.log.read_text()
    finally:
        anna.disconnect()
        bob.disconnect()
