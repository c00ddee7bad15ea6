"""Issue 15's attacks whose fixes belong to the table's command code, still to be made.

Each test reproduces one on a real ``longhall serve`` and is marked ``xfail(strict=True)``: it
fails today, as it should; when the fix lands the test passes, strict xfail turns that into a
failure, and the mark must go.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ..support import Phone, ServerProcess


def _code(data: Path) -> str:
    import sqlite3

    con = sqlite3.connect(f"{(data / 'longhall.sqlite3').as_uri()}?mode=ro", uri=True)
    try:
        return str(con.execute("SELECT value FROM meta WHERE key = 'table_code'").fetchone()[0])
    finally:
        con.close()


def test_every_acknowledged_id_is_recognised_after_a_restart(tmp_path: Path) -> None:
    """The last 256 acknowledged ids of a sender are answered as repeats after a ``kill -9``,
    whatever order their ids sort in."""
    server = ServerProcess(tmp_path, "--rate-limit", "1000")
    server.start()
    sent: list[tuple[str, str]] = []  # (id, name), oldest first
    try:
        anna = Phone(server.url, {"code": _code(tmp_path)}, "anna").connect()
        assert anna.join("Anna")["ok"]
        # ids that sort in another order than they were sent: b-… first, then a-…
        for prefix, count in (("b", 150), ("a", 100)):
            for i in range(count):
                cid, name = f"{prefix}-id-{i:04d}", f"Anna {i % 7}"
                assert anna.command("profile", cid=cid, name=name, colour="")["ok"]
                sent.append((cid, name))
        anna.disconnect()
        server.kill9()
        server.start()
        again = Phone(server.url, name="anna again")
        again.token, again.seat = anna.token, anna.seat
        again.connect()
        for i in range(10):
            cid, name = f"c-id-{i:04d}", f"Anna {i % 7}"
            assert again.command("profile", cid=cid, name=name, colour="")["ok"]
            sent.append((cid, name))
        forgotten = []
        for cid, name in sent[-256:]:
            answer = again.command("profile", cid=cid, name=name, colour="")
            if not answer.get("repeat"):
                forgotten.append((cid, answer))
        again.disconnect()
        assert forgotten == []
    finally:
        server.stop()


@pytest.mark.xfail(
    strict=True,
    reason="issue 15 item 5: the rate limit is kept per connection and resets on reconnect",
)
def test_reconnecting_does_not_refill_the_rate_limit(tmp_path: Path) -> None:
    """One event every 10 s, in bursts of 1: a phone that spent its token on joining has none
    left after reconnecting at once."""
    server = ServerProcess(tmp_path, "--rate-limit", "0.1")
    server.start()
    try:
        anna = Phone(server.url, {"code": _code(tmp_path)}, "anna").connect()
        assert anna.join("Anna")["ok"]  # spends the one token
        anna.disconnect()
        again = Phone(server.url, name="anna again")
        again.token, again.seat = anna.token, anna.seat
        again.connect()
        try:
            answer = again.sio.call("snapshot", timeout=10)
        finally:
            again.disconnect()
        assert answer.get("ok") is False and answer["error"]["code"] == "rate_limited", answer
    finally:
        server.stop()


def stored_bytes(data: Path) -> tuple[int, int]:
    """The bytes of the commands in the store (the journal since the last snapshot, and the
    games' logs), and the longest of them."""
    import sqlite3

    con = sqlite3.connect(f"{(data / 'longhall.sqlite3').as_uri()}?mode=ro", uri=True)
    try:
        sizes = [
            n
            for (n,) in con.execute(
                "SELECT length(data) FROM records UNION ALL SELECT length(action) FROM game_actions"
            )
        ]
    finally:
        con.close()
    return sum(sizes), max(sizes, default=0)


@pytest.mark.xfail(
    strict=True,
    reason="issue 15 item 6: any value under an action's undo key is accepted and stored",
)
def test_padding_in_an_action_does_not_grow_the_store(tmp_path: Path) -> None:
    """A place/unplace loop with 15 KB under ``undo`` grew the store by 11 MB in 20 s."""
    server = ServerProcess(tmp_path, "--rate-limit", "1000")
    server.start()
    phones: list[Phone] = []
    try:
        for name in ("Anna", "Bram", "Cara"):
            phone = Phone(server.url, {"code": _code(tmp_path)}, name).connect()
            assert phone.join(name)["ok"]
            phones.append(phone)
        anna = phones[0]
        anna.wait(lambda v: len(v["table"]["seats"]) == 3)  # decide on the whole lobby
        assert anna.command("start")["ok"]
        before, _ = stored_bytes(tmp_path)
        padding = "x" * 15_000
        for _ in range(10):
            legal = anna.wait(lambda v: bool(v["game"] and v["game"]["legal"]))["game"]["legal"]
            place = next(a for a in legal if a["type"] == "place")
            assert anna.command("act", action=place)["ok"]
            legal = anna.latest["game"]["legal"]  # type: ignore[index]
            unplace = next(a for a in legal if a["type"] == "unplace")
            answer = anna.command("act", action={**unplace, "undo": padding})
            if not answer["ok"]:  # refused as malformed: the fix; nothing was stored
                assert answer["error"]["code"] == "malformed"
                assert anna.command("act", action=unplace)["ok"]
        after, longest = stored_bytes(tmp_path)
        assert longest < 2_000
        assert after - before < 20 * 2_000  # 20 commands
    finally:
        for phone in phones:
            phone.disconnect()
        server.stop()
