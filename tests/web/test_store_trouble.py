"""A full card, a card that failed into read-only, an empty store: against a real server.

The full and read-only cards are small RAM file systems (tmpfs) mounted for the test, which
needs root (a Pi owner's card is the real thing; the CI container runs as root). Where a mount
cannot be made the test is skipped and says why. Nothing is timed: each step waits for what the
server says (a notice, an answer).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support import Phone, ServerProcess

pytestmark = pytest.mark.slow

DB = "longhall.sqlite3"
WAIT = 30.0  # seconds before the test gives up on a stuck server


@contextlib.contextmanager
def small_card(where: Path, size: str) -> Iterator[Path]:
    """A file system of ``size`` mounted at ``where`` for the test (tmpfs), then unmounted."""
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {made.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def server_on(data: Path, log: Path, *extra: str) -> ServerProcess:
    """A server whose store is in ``data`` and whose log is kept elsewhere (off the card)."""
    server = ServerProcess(data, "--rate-limit", "1000", *extra)
    server.log = log
    return server


def notices(message: dict[str, Any]) -> set[str]:
    return {notice["code"] for notice in message["table"]["notices"]}


def ballast(folder: Path, name: str, size: int) -> Path:
    """A file taking ``size`` bytes of the card, to delete when room is to be made."""
    path = folder / name
    path.write_bytes(b"\x01" * size)
    return path


def until_refused(phone: Phone, names: Iterator[str]) -> tuple[str, dict[str, Any]]:
    """Rename the phone's player until a rename is refused (at most 400 times); return the
    last name acknowledged and the refusal."""
    last = ""
    for _, name in zip(range(400), names, strict=False):
        answer = phone.command("profile", name=name, colour="")
        if not answer["ok"]:
            return last, answer
        last = name
    raise AssertionError("the card never filled up")


def seated_names(server: ServerProcess) -> list[str]:
    display = Phone(server.url, name="display").connect()
    try:
        return [seat["name"] for seat in display.current["table"]["seats"]]
    finally:
        display.disconnect()


def test_a_full_card_is_said_everywhere_and_the_table_comes_back_by_itself(
    tmp_path: Path,
) -> None:
    """Commands on a full card are refused with ``storage_failed``; the table display and every
    phone show a standing notice and /healthz says so, until writes succeed again: then the
    notice goes by itself. A write that never finished leaves part of a frame at the end of the
    -wal: after a stop, the store comes back whole, with every acknowledged command."""
    with small_card(tmp_path / "card", "600k") as card:
        data = card / "data"
        data.mkdir()
        spare = ballast(card, "spare", 150_000), ballast(card, "spare-2", 100_000)
        server = server_on(data, tmp_path / "server.log")
        server.start()  # its log, laid out in zeros once it serves, takes the rest of the card
        phones: list[Phone] = []
        names = (f"Anna {n}" for n in itertools.count())
        try:
            display = Phone(server.url, name="display").connect()
            phones.append(display)
            code = display.current["table"]["code"]
            anna = Phone(server.url, {"code": code}, "anna").connect()
            phones.append(anna)
            assert anna.join("Anna")["ok"]
            _, refused = until_refused(anna, names)
            assert refused["error"]["code"] == "storage_failed", refused
            for phone in (display, anna):  # said on the table display and on the phone
                phone.wait(lambda m: "store_full" in notices(m), WAIT)
            health = server.health()
            assert health["status"] == "degraded" and health["storage"] == "full", health
            spare[0].unlink()  # room again: the notice goes by itself, and moves are saved
            display.wait(lambda m: "store_full" not in notices(m), WAIT)
            assert server.health()["status"] == "ok"
            last, refused = until_refused(anna, names)  # and full again
            assert last and refused["error"]["code"] == "storage_failed"
        finally:
            for phone in phones:
                phone.disconnect()
            server.stop()
        spare[1].unlink()
        with (data / f"{DB}-wal").open("ab") as f:  # the part of a frame a cut write leaves
            f.write(b"\x37" * 1000)
        again = server_on(data, tmp_path / "server.log")
        again.start()
        try:
            assert again.health()["status"] == "ok"
            assert seated_names(again) == [last]  # every acknowledged command
        finally:
            again.stop()
        assert not list(data.glob(f"{DB}.damaged-*"))  # nothing set aside
        log = (tmp_path / "server.log").read_text()
        assert "ends in part of a frame" in log
        # the journal (and the watchdog's status line, tests/systemd/test_watchdog.py) says it too
        assert "the game store cannot be written (full)" in log
        assert "the game store can be written again" in log


@pytest.mark.parametrize("stop", ["clean stop", "power cut"])
def test_a_read_only_card_is_served_read_only_and_nothing_is_moved(
    tmp_path: Path, stop: str
) -> None:
    """An SD card that failed into read-only: the server said "cannot be read", tried to set the
    sound store aside and crashed. Now the table is served as it is, every command refused with
    a sentence, the table display and /healthz say the card is read-only, nothing is moved."""
    with small_card(tmp_path / "card", "20m") as card:
        data = card / "data"
        data.mkdir()
        log = tmp_path / "server.log"
        server = server_on(data, log)
        server.start()
        try:
            code = Phone(server.url).connect().current["table"]["code"]
            anna = Phone(server.url, {"code": code}, "anna").connect()
            assert anna.join("Anna")["ok"]
            token = anna.token
            anna.disconnect()
        finally:
            if stop == "power cut":
                server.kill9()
            else:
                server.stop()
        files = {path.name: path.read_bytes() for path in data.iterdir()}
        subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
        read_only = server_on(data, log)
        read_only.start()
        try:
            health = read_only.health()
            assert health["status"] == "degraded" and health["storage"] == "read_only", health
            phone = Phone(read_only.url, {"token": token}, "anna").connect()
            try:
                assert phone.current["you"]["seat"] == 0
                assert "store_read_only" in notices(phone.current)
                version = phone.current["version"]
                answer = phone.command("profile", name="Anna B", colour="")
                assert answer["error"]["code"] == "store_read_only"
                assert "read-only" in answer["error"]["message"]
                assert answer["version"] == version
            finally:
                phone.disconnect()
        finally:
            read_only.stop()
        assert read_only.proc is not None and read_only.proc.returncode == 0
        assert {path.name: path.read_bytes() for path in data.iterdir()} == files
        said = log.read_text()
        assert "is read-only" in said and "Traceback" not in said


def test_an_empty_store_is_begun_afresh_and_says_so(tmp_path: Path) -> None:
    """A 0-byte store after a clean stop became a new table without a word."""
    (tmp_path / DB).write_bytes(b"")
    server = ServerProcess(tmp_path)
    server.start()
    try:
        display = Phone(server.url, name="display").connect()
        try:
            assert "store_was_empty" in notices(display.current)
        finally:
            display.disconnect()
    finally:
        server.stop()
    assert "was empty; a new table was started" in server.log.read_text()
    with contextlib.closing(sqlite3.connect(tmp_path / DB)) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'table_code'").fetchone()
