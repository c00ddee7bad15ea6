"""The rate limit follows the seat and the address, not the connection.

The clock is the test's own: however slowly a busy machine runs these, no bucket refills
unless the test moves the clock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from longhall.server.config import Settings
from longhall.server.web.app import create_app
from longhall.server.web.ratelimit import RateLimits
from tests.inprocess import Client


class HeldClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def phone_from(lh: Any, address: str, auth: dict[str, Any]) -> Client:
    """A test-client phone whose connection comes from ``address``."""
    phone = Client.__new__(Client)
    flask_client = lh.app.test_client()
    flask_client.environ_base["REMOTE_ADDR"] = address
    phone.lh, phone.messages, phone.token, phone.seat = lh, [], None, None
    phone.sio = lh.socketio.test_client(lh.app, auth=auth, flask_test_client=flask_client)
    return phone


def drain(phone: Client, limit: int) -> list[str]:
    """Ask for snapshots until refused; return the answers' codes (``ok`` for a snapshot)."""
    codes = []
    for _ in range(limit):
        answer = phone.sio.emit("snapshot", callback=True)
        codes.append("ok" if "table" in answer else answer["error"]["code"])
        if codes[-1] != "ok":
            break
    return codes


def test_a_seat_that_reconnects_finds_its_bucket_as_it_left_it(tmp_path: Path) -> None:
    clock = HeldClock()
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", rate=2.0, burst=4), clock=clock)
    try:
        anna = phone_from(lh, "10.0.0.5", {"code": lh.table.data.code})
        assert anna.join("Anna")["ok"]  # one token of the address's bucket
        assert drain(anna, 10) == ["ok"] * 4 + ["rate_limited"]  # the seat's own four
        anna.sio.disconnect()
        # the same seat again, from the same phone and from another address: no new tokens
        for address in ("10.0.0.5", "10.0.0.6"):
            again = phone_from(lh, address, {"token": anna.token})
            assert again.sio.is_connected()
            answer = again.send("profile", name="Anna B", colour="")
            assert answer["error"]["code"] == "rate_limited"
            again.sio.disconnect()
        assert lh.table.data.seats[0].name == "Anna"  # a refused command changes nothing
        clock.now += 1 / 2.0  # one token back, for the seat
        again = phone_from(lh, "10.0.0.7", {"token": anna.token})
        assert again.send("profile", name="Anna B", colour="")["ok"]
        assert again.send("profile", name="Anna C", colour="")["error"]["code"] == "rate_limited"
    finally:
        lh.stop()


def test_a_phone_not_seated_is_limited_by_its_address(tmp_path: Path) -> None:
    clock = HeldClock()
    lh = create_app(Settings(data_dir=tmp_path, gpio="off", rate=2.0, burst=4), clock=clock)
    try:
        code = lh.table.data.code
        first = phone_from(lh, "10.0.0.8", {"code": code})
        assert drain(first, 10) == ["ok"] * 4 + ["rate_limited"]
        first.sio.disconnect()
        # reconnecting, or a second connection from the same address, refills nothing
        second = phone_from(lh, "10.0.0.8", {"code": code})
        assert drain(second, 10) == ["rate_limited"]
        assert second.join("Bram")["error"]["code"] == "rate_limited"
        assert lh.table.data.seats == []
        # another phone, at its own address, is not slowed
        other = phone_from(lh, "10.0.0.9", {"code": code})
        assert other.join("Cara")["ok"]
    finally:
        lh.stop()


def test_many_addresses_do_not_grow_the_buckets_without_bound() -> None:
    clock = HeldClock()
    limits = RateLimits(rate=1.0, burst=2, clock=clock, most=8)
    for i in range(100):
        clock.now += 0.5  # each bucket is full again a second after its one token went
        assert limits.allow(f"address:{i}")
        assert len(limits.buckets) <= 8
    assert limits.allow("address:late") and limits.allow("address:late")
    for i in range(100, 105):
        clock.now += 0.01
        assert limits.allow(f"address:{i}")
        assert len(limits.buckets) <= 8
    # only full buckets, and then the ones left alone longest, were forgotten: not this one
    assert not limits.allow("address:late")
