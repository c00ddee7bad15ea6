"""The host's powers, on a real ``longhall serve`` with real Socket.IO clients:
the host closes the lobby; a phone sent away stays out until the host lets it back in; a seat
that committed a secret choice changes hands only after the reveal; and the host's ``proxy``
refusals say the same thing whatever another seat's versions."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import socketio

from ..support import Phone, ServerProcess, socket_client


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path, "--rate-limit", "1000")
    srv.start()
    yield srv
    srv.stop()


def _code(server: ServerProcess) -> str:
    con = sqlite3.connect(f"{(server.data_dir / 'longhall.sqlite3').as_uri()}?mode=ro", uri=True)
    try:
        return str(con.execute("SELECT value FROM meta WHERE key = 'table_code'").fetchone()[0])
    finally:
        con.close()


def seated(server: ServerProcess, names: list[str]) -> list[Phone]:
    phones = []
    for name in names:
        phone = Phone(server.url, {"code": _code(server)}, name).connect()
        assert phone.join(name)["ok"]
        phones.append(phone)
    # every phone has seen the last seat taken: a host's lobby command is decided on the lobby it
    # saw, and one sent from an older view is refused as stale (on a busy machine, it was)
    last = phones[-1].current["version"]
    for phone in phones:
        phone.wait(lambda v: v["version"] >= last)
    return phones


def refusal(server: ServerProcess, auth: dict[str, Any]) -> dict[str, Any]:
    """The ``connect_error`` data a phone gets for ``auth``, as the browser's client reads it."""
    refused: list[Any] = []
    sio = socket_client()
    sio.on("connect_error", refused.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        sio.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=5)
    assert refused, auth
    data: dict[str, Any] = refused[0]["data"]
    return data


def heard(phone: Phone, event: str, timeout: float = 10.0) -> bool:
    """Whether ``phone`` receives ``event`` (waiting on its messages, not on the clock)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        phone.changed.clear()
        if any(name == event for name, _ in phone.messages):
            return True
        phone.changed.wait(0.05)
    return False


def test_the_host_closes_the_lobby_and_a_phone_sent_away_stays_out(
    server: ServerProcess,
) -> None:
    anna, bram = seated(server, ["Anna", "Bram"])
    display = Phone(server.url, name="table display").connect()
    cara = Phone(server.url, {"code": _code(server)}, "Cara").connect()
    try:
        assert bram.command("lock_lobby", locked=True)["error"]["code"] == "host_only"
        assert anna.command("lock_lobby", locked=True)["ok"]
        assert display.wait(lambda v: v["table"]["locked"])["table"]["locked"] is True
        answer = cara.command("join", name="Cara", colour="")
        assert answer["error"]["code"] == "table_locked" and answer["error"]["message"]
        assert len(display.wait(lambda v: True)["table"]["seats"]) == 2
        assert anna.command("lock_lobby", locked=False)["ok"]
        assert cara.join("Cara")["ok"]
        joined = cara.current["version"]
        anna.wait(lambda v: v["version"] >= joined)  # the host decides on the lobby with Cara

        # the host sends Bram's phone away: its token, old or shown as the one it had, is refused
        token = bram.token
        assert token is not None
        assert anna.command("kick", seat=1)["ok"]
        assert heard(bram, "revoked")
        barred = display.wait(lambda v: v["table"]["barred"])["table"]["barred"]
        assert [b["name"] for b in barred] == ["Bram"]
        assert token not in json.dumps(display.latest) and "hash" not in barred[0]
        assert refusal(server, {"token": token})["code"] == "kicked"
        assert refusal(server, {"code": _code(server), "was": token})["code"] == "kicked"
        # a phone that never held that seat is not kept out
        other = Phone(server.url, {"code": _code(server), "was": "x" * 43}, "other").connect()
        other.disconnect()
        # let back in: the phone joins again as a new player
        assert cara.command("allow_back", phone="nobody-12345")["error"]["code"] == ("host_only")
        assert anna.command("allow_back", phone="nobody-12345")["error"]["code"] == (
            "no_such_phone"
        )
        assert anna.command("allow_back", phone=barred[0]["id"])["ok"]
        back = Phone(server.url, {"code": _code(server), "was": token}, "Bram again").connect()
        try:
            assert back.join("Bram")["ok"]
        finally:
            back.disconnect()
        assert display.wait(lambda v: not v["table"]["barred"])["table"]["barred"] == []
    finally:
        for phone in (anna, bram, cara, display):
            phone.disconnect()


def plan_and_commit(phone: Phone) -> None:
    """Place every viking on the first field offered, then commit."""
    while True:
        legal = phone.wait(lambda v: bool(v["game"] and v["game"]["legal"]))["game"]["legal"]
        kinds = [a["type"] for a in legal]
        if "commit" in kinds:
            assert phone.command("act", action={"type": "commit"})["ok"]
            return
        place = next(a for a in legal if a["type"] == "place")
        assert phone.command("act", action=place)["ok"]


def test_a_seat_that_committed_changes_hands_only_after_the_reveal(
    server: ServerProcess,
) -> None:
    anna, bram, cara = seated(server, ["Anna", "Bram", "Cara"])
    try:
        assert anna.command("start")["ok"]
        plan_and_commit(bram)
        committed_at = bram.current["version"]
        bram.disconnect()
        anna.wait(lambda v: not v["table"]["seats"][1]["connected"])

        # the host's proxy refusals: a seat that plays itself and a stale version say one thing
        cara_here = anna.command("proxy", seat=2, action={"type": "auto_build"})
        stale = anna.command(
            "proxy", seat=1, version=committed_at - 1, action={"type": "auto_build"}
        )
        assert cara_here["error"] == stale["error"]
        assert cara_here["error"]["code"] == "proxy_refused"

        # Bram's plan is committed and secret: the host cannot hand his seat to a new phone
        answer = anna.command("handover", seat=1)
        assert answer["error"]["code"] == "seat_committed"
        assert "token" not in answer and "claim_url" not in answer
        assert answer["error"]["params"] == {"name": "Bram"}

        plan_and_commit(anna)
        plan_and_commit(cara)
        committed = cara.current["version"]
        anna.wait(lambda v: v["version"] >= committed)  # the reveal is decided on every plan in
        assert anna.command("table", action={"type": "reveal"})["ok"]
        given = anna.command("handover", seat=1)
        assert given["ok"] and given["token"]
        new = Phone(server.url, {"token": given["token"]}, "Bram's new phone").connect()
        try:
            assert new.latest is not None and new.latest["you"]["seat"] == 1
        finally:
            new.disconnect()
    finally:
        for phone in (anna, bram, cara):
            phone.disconnect()
