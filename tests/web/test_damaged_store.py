"""A damaged game store is kept aside and named, never replaced or discarded."""

from __future__ import annotations

import html
import json
import shutil
import sqlite3
import struct
from pathlib import Path

import pytest
import requests

from ..support import ROOT, Phone, ServerProcess

DB = "longhall.sqlite3"


@pytest.fixture(scope="module")
def killed_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store after a ``kill -9``: players joined, the game still in its ``-wal``."""
    data = tmp_path_factory.mktemp("played")
    server = ServerProcess(data)
    server.start()
    code = _code(data / DB)
    phones = []
    try:
        for name in ("anna", "bjorn", "cecilia", "dag"):
            phone = Phone(server.url, {"code": code}, name).connect()
            assert phone.join(name)["ok"]
            phones.append(phone)
    finally:
        for phone in phones:
            phone.disconnect()
        server.kill9()
    assert (data / f"{DB}-wal").stat().st_size > 0
    return data


def _code(db: Path) -> str:
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return str(con.execute("SELECT value FROM meta WHERE key = 'table_code'").fetchone()[0])
    finally:
        con.close()


def logged_frames(wal: bytes) -> int:
    """How many frames at the start of a ``-wal`` belong to its log (their salts are the
    header's): the server lays its log out in zeros past them (``Store.lay_out_log``)."""
    page_size = struct.unpack(">I", wal[8:12])[0]
    salts, frame, count = wal[16:24], 24 + page_size, 0
    while 32 + (count + 1) * frame <= len(wal):
        start = 32 + count * frame
        if wal[start + 8 : start + 16] != salts:
            break
        count += 1
    return count


def copy_of(store: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    for name in (DB, f"{DB}-wal"):
        shutil.copyfile(store / name, data / name)
    return data


SENTENCES = {
    lang: json.loads((ROOT / "server/static/i18n" / f"{lang}.json").read_text(encoding="utf-8"))[
        "notices"
    ]["store_damaged"]
    for lang in ("en", "nl", "fr", "de")
}


def refused(data: Path) -> str:
    """Start a server on ``data``: it must not serve the table but say, on the table display and
    in each language, which file and what to do; stopped, it exits with 3. Return its log."""
    server = ServerProcess(data)
    server.start()
    try:
        assert server.health()["phase"] == "damaged_store"
        kept_as = kept(data)
        for lang, sentence in SENTENCES.items():
            page = requests.get(server.url + "/", headers={"Accept-Language": lang}, timeout=5)
            assert page.status_code == 503
            said = sentence.replace("{file}", str(data / DB)).replace("{kept}", str(kept_as))
            assert f'<p id="store-damaged" lang="{lang}">{html.escape(said)}</p>' in page.text
        # no table is served: no Socket.IO, no phone page
        assert not requests.get(server.url + "/socket.io/?EIO=4&transport=polling", timeout=5).ok
        assert "store-damaged" in requests.get(server.url + "/join/x", timeout=5).text
    finally:
        server.stop()
    assert server.proc is not None and server.proc.wait(10) == 3
    return server.log.read_text()


def kept(data: Path) -> Path:
    [aside] = [p for p in data.glob(f"{DB}.damaged-*") if not p.name.endswith(("-wal", "-shm"))]
    return aside


def check_refusal(data: Path, log: str, wal: bytes) -> None:
    aside = kept(data)
    assert not (data / DB).exists() and not (data / f"{DB}-wal").exists()
    assert (aside.parent / f"{aside.name}-wal").read_bytes() == wal  # the game, untouched
    [line] = [line for line in log.splitlines() if "ERROR" in line]
    assert str(data / DB) in line and str(aside) in line and "--fresh-store" in line
    assert "Traceback" not in log
    # started again without a word from anyone (systemd restarts it): still refused, no new table
    log = refused(data)
    assert not (data / DB).exists()
    assert f"a damaged one was kept as {aside}" in log


def test_an_empty_database_with_its_wal_is_kept_aside(killed_store: Path, tmp_path: Path) -> None:
    """A 0-byte database whose -wal holds the game used to start a new table, the -wal gone."""
    data = copy_of(killed_store, tmp_path)
    wal = (data / f"{DB}-wal").read_bytes()
    (data / DB).write_bytes(b"")
    check_refusal(data, refused(data), wal)
    # told to, it begins a new table, and the damaged store is still there
    server = ServerProcess(data, "--fresh-store")
    server.start()
    try:
        assert server.health()["status"] == "ok"
    finally:
        server.stop()
    assert (kept(data).parent / f"{kept(data).name}-wal").read_bytes() == wal


def test_a_wal_that_ends_in_part_of_a_frame_is_recovered_by_sqlite(
    killed_store: Path, tmp_path: Path
) -> None:
    """A -wal whose last frame was cut (a write that never finished: a full card, a power cut)
    was called damaged and set aside, and the table needed a shell. SQLite recovers from it by
    design: every acknowledged command is in the whole frames before it."""
    data = copy_of(killed_store, tmp_path)
    wal_path = data / f"{DB}-wal"
    frames = logged_frames(wal_path.read_bytes())
    page_size = struct.unpack(">I", wal_path.read_bytes()[8:12])[0]
    assert frames >= 4
    with wal_path.open("r+b") as f:  # the frames written, and part of one more
        f.truncate(32 + (24 + page_size) * frames + 100)
    server = ServerProcess(data)
    server.start()
    try:
        assert server.health()["status"] == "ok"
        phone = Phone(server.url, {"code": _code(data / DB)}, "watcher").connect()
        names = [s["name"] for s in phone.current["table"]["seats"]]
        phone.disconnect()
    finally:
        server.stop()
    assert names == ["anna", "bjorn", "cecilia", "dag"]
    assert not list(data.glob(f"{DB}.damaged-*"))
    assert "ends in part of a frame" in server.log.read_text()


def test_other_damage_is_named_without_a_traceback(killed_store: Path, tmp_path: Path) -> None:
    data = copy_of(killed_store, tmp_path)
    # let SQLite fold the -wal into the database, then damage the database's pages
    con = sqlite3.connect(data / DB)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    db = data / DB
    body = bytearray(db.read_bytes())
    assert len(body) >= 3 * 4096
    body[4096 + 8 : 3 * 4096] = b"\xa5" * (2 * 4096 - 8)
    db.write_bytes(bytes(body))
    wal = (data / f"{DB}-wal").read_bytes() if (data / f"{DB}-wal").exists() else b""
    log = refused(data)
    aside = kept(data)
    assert not db.exists() and aside.read_bytes() == bytes(body)
    assert not wal or (aside.parent / f"{aside.name}-wal").read_bytes() == wal
    [line] = [line for line in log.splitlines() if "ERROR" in line]
    assert str(db) in line and str(aside) in line
    assert "Traceback" not in log


def test_a_sound_store_after_a_kill_starts_where_it_was(killed_store: Path, tmp_path: Path) -> None:
    data = copy_of(killed_store, tmp_path)
    server = ServerProcess(data)
    server.start()
    try:
        assert server.health()["status"] == "ok"
        code = _code(data / DB)
        phone = Phone(server.url, {"code": code}, "watcher").connect()
        assert phone.latest is not None
        assert [s["name"] for s in phone.latest["table"]["seats"]][:4] == [
            "anna",
            "bjorn",
            "cecilia",
            "dag",
        ]
        phone.disconnect()
    finally:
        server.stop()
    assert not list(data.glob(f"{DB}.damaged-*"))


def test_history_does_not_open_a_damaged_store(
    killed_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``longhall history`` opens the store for writing: on a 0-byte database that would have
    SQLite drop the -wal that holds the game."""
    from longhall.server.cli import main

    data = copy_of(killed_store, tmp_path)
    (data / DB).write_bytes(b"")
    wal = (data / f"{DB}-wal").read_bytes()
    assert main(["history", "--data-dir", str(data)]) == 3
    assert str(data / DB) in capsys.readouterr().err
    assert (data / DB).read_bytes() == b"" and (data / f"{DB}-wal").read_bytes() == wal


def test_the_damaged_store_page_takes_no_more_than_its_share_of_threads(
    killed_store: Path, tmp_path: Path
) -> None:
    """Connections held open (a slow or hostile client) take at most MOST_AT_ONCE threads; more
    are closed at once; once they go, the page is served again."""
    import socket
    import time

    from longhall.server.web.damaged_page import MOST_AT_ONCE

    data = copy_of(killed_store, tmp_path)
    (data / DB).write_bytes(b"")
    server = ServerProcess(data)
    server.start()
    held: list[socket.socket] = []
    try:
        for _ in range(MOST_AT_ONCE):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\n")  # and never the rest
            held.append(sock)
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        try:  # closed without an answer (a reset, if the request was still unread)
            answer = extra.recv(100)
        except ConnectionResetError:
            answer = b""
        assert answer == b""  # no thread was spent on it
        extra.close()
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the held threads see their clients go
            try:
                if requests.get(server.url + "/", timeout=5).status_code == 503:
                    break
            except requests.RequestException:
                pass
        else:
            raise AssertionError("the page was not served again")
    finally:
        for sock in held:
            sock.close()
        server.stop()
