"""Nonsense sent to the server never crashes it and never changes the table."""

from __future__ import annotations

import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.app import Longhall, create_app
from server.commands import COMMANDS
from server.config import Settings

from .conftest import Client, seated

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
    },
)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_payloads_never_crash_or_change_the_table(tmp_path_factory, data) -> None:  # type: ignore[no-untyped-def]
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


def test_a_flood_is_rate_limited_and_changes_nothing(longhall: Longhall) -> None:
    anna, bob, cara = seated(longhall, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    before = longhall.table.snapshot()
    codes = [
        bob.send("act", action={"type": "place", "to": "nowhere"})["error"]["code"]
        for _ in range(longhall.table.settings.burst + 20)
    ]
    assert "rate_limited" in codes and codes[0] == "unknown_field"
    assert longhall.table.snapshot() == before
    asked = bob.sio.emit("snapshot", callback=True)  # still limited: refused, with the version
    assert asked["error"]["code"] == "rate_limited" and asked["version"] == before["version"]
    assert bob.connected and anna.act(type="place", to="A")["ok"]  # others are not slowed


def test_an_oversized_command_is_refused(longhall: Longhall) -> None:
    (anna,) = seated(longhall, ["Anna"])
    ack = anna.send("profile", name="x" * 20000, colour="")
    assert ack["error"]["code"] == "too_large"
