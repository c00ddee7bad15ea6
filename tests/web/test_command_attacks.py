"""Attacks on the table's command code, each on a real ``longhall serve``: a retried
command after a ``kill -9`` (item 4), reconnecting to refill the rate limit (item 5) and padding
in an action to fill the store (item 6). Each failed before its fix."""

from __future__ import annotations

from pathlib import Path

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


def test_reconnecting_does_not_refill_the_rate_limit(tmp_path: Path) -> None:
    """One event every 100 s, in bursts of 1: a phone whose seat spent its token has none left
    after reconnecting at once (joining spent the connection's own)."""
    server = ServerProcess(tmp_path, "--rate-limit", "0.01")
    server.start()
    try:
        anna = Phone(server.url, {"code": _code(tmp_path)}, "anna").connect()
        assert anna.join("Anna")["ok"]  # spends the one token of this (kiosk-address) connection
        assert "table" in anna.sio.call("snapshot", timeout=10)  # and the seat's
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
            legal = anna.current["game"]["legal"]
            unplace = next(a for a in legal if a["type"] == "unplace")
            answer = anna.command("act", action={**unplace, "undo": padding})
            # refused (the table's bound on an action's size comes first); nothing was stored
            assert answer["error"]["code"] == "too_large", answer
            small = anna.command("act", action={**unplace, "undo": padding[:600]})
            assert small["error"]["code"] == "malformed", small  # the game's declaration
            assert anna.command("act", action=unplace)["ok"]
        after, longest = stored_bytes(tmp_path)
        assert longest < 2_000
        assert after - before < 20 * 2_000  # 20 commands
    finally:
        for phone in phones:
            phone.disconnect()
        server.stop()
