"""Nonsense sent to the server never crashes it and never changes the table."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from longhall.server.config import Settings
from longhall.server.table.commands import COMMANDS
from longhall.server.web.app import Longhall, create_app
from longhall.server.web.ratelimit import TokenBucket
from tests.inprocess import Client, seated

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
command_like = st.fixed_dictionaries(
    {"type": st.sampled_from([*COMMANDS, "fly", ""]) | st.text(max_size=8)},
    optional={
        "id": st.sampled_from([uuid.uuid4().hex, "short", "x" * 65, "ok-id-12345"]) | json_values,
        "version": st.integers(-3, 50) | json_values,
        "action": st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    ["place", "commit", "reveal", "fight", "play", "loot", "build", "done", "x"]
                )
            },
            optional={
                "to": json_values,
                "card": json_values,
                "site": json_values,
                "take": json_values,
            },
        )
        | json_values,
        "seat": json_values,
        "name": json_values,
        "colour": json_values,
        "bot": json_values,
        "deck": json_values,
        "to": json_values,
        "end_mark": json_values,
        "card": json_values,
        "numbers": json_values,
    },
)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_payloads_never_crash_or_change_the_table(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    lh = FUZZ.get("lh")
    if lh is None:
        lh = create_app(
            Settings(
                data_dir=tmp_path_factory.mktemp("fuzz"),
                gpio="off",
                bot_delay=0,
                rate=1e9,
                burst=10**9,
            )
        )  # the rate limit has its own test
        phones = seated(lh, ["Anna", "Bob", "Cara"])
        assert phones[0].send("start")["ok"]
        FUZZ.update(lh=lh, phones=phones, spectator=Client(lh))
    phone: Client = data.draw(st.sampled_from([*FUZZ["phones"], FUZZ["spectator"]]))
    before = lh.table.snapshot()
    event = data.draw(
        st.sampled_from(["command", "command", "command", "snapshot", "hello", "act"])
    )
    payload: Any = data.draw(command_like | json_values)
    ack = phone.sio.emit(event, payload, callback=True)
    assert isinstance(ack, dict)
    if event == "snapshot":
        assert "table" in ack
    elif not ack.get("ok"):
        assert ack["error"]["code"] and ack["error"]["message"]
        assert lh.table.snapshot() == before
    assert phone.connected


FUZZ: dict[str, Any] = {}


def teardown_module() -> None:
    lh = FUZZ.get("lh")
    if lh is not None:
        lh.stop()


class HeldClock:
    """A clock that moves only when the test moves it: however slowly a busy machine runs the
    test, the rate limit's bucket does not refill in between."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_token_bucket_allows_bursts_and_refills_at_its_rate() -> None:
    clock = HeldClock()
    bucket = TokenBucket(rate=4.0, burst=3, clock=clock)
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.2  # 0.8 of a token
    assert not bucket.allow()
    clock.now += 0.05  # a whole token now
    assert bucket.allow() and not bucket.allow()
    clock.now += 60  # never more than the burst
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]


def test_a_flood_is_rate_limited_and_changes_nothing(tmp_path: Path) -> None:
    clock = HeldClock()
    config = Settings(data_dir=tmp_path, gpio="off", bot_delay=0.0)
    longhall = create_app(config, clock=clock)
    try:
        anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
        assert anna.send("start")["ok"]
        before = longhall.table.snapshot()
        burst = longhall.table.settings.burst
        codes = [
            bob.send("act", action={"type": "place", "to": "nowhere"})["error"]["code"]
            for _ in range(burst + 20)
        ]
        # the join and the flood drew from the same bucket: the rest are refused
        assert codes[0] == "unknown_field" and codes[-20:] == ["rate_limited"] * 20
        assert longhall.table.snapshot() == before
        asked = bob.sio.emit("snapshot", callback=True)  # still limited: refused, with the version
        assert asked["error"]["code"] == "rate_limited"
        assert asked["version"] == before["version"]
        assert bob.connected and anna.act(type="place", to="A")["ok"]  # others are not slowed
        clock.now += 1.5 / config.rate  # a token and a half back: bob may speak again, once
        assert "table" in bob.sio.emit("snapshot", callback=True)
        assert bob.sio.emit("snapshot", callback=True)["error"]["code"] == "rate_limited"
    finally:
        longhall.stop()


def test_an_oversized_command_is_refused(longhall: Longhall) -> None:
    (anna,) = seated(longhall, ["Anna"])
    ack = anna.send("profile", name="x" * 20000, colour="")
    assert ack["error"]["code"] == "too_large"
