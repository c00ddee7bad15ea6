"""HOST held for the pin map's hold time ends the night: the table display says the table shuts
down, the store is closed whole, then the power-off command runs (a stand-in here). A short press
keeps its meaning: pause and resume."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from longhall.hardware.adapter import start_hardware
from longhall.server.appliance.endnight import NightEnd
from longhall.server.config import Settings
from longhall.server.table.connections import Identity
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client, seated

from .conftest import HOST, Clock, Rig

# The stand-in for `systemctl poweroff`: it notes what it found of the store, then says what the
# test told it to (a real one would return at once, the power-off being systemd's work from then).
FAKE_POWEROFF = """\
import pathlib, sqlite3, sys
db, out, code = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
wal = db.with_name(db.name + "-wal").exists()  # before opening: a reader makes one
con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
last = con.execute("SELECT max(seq) FROM (SELECT seq FROM records UNION SELECT seq FROM snapshots)")
version = last.fetchone()[0]
con.close()
out.write_text(f"wal={wal} version={version}\\n")
if code:
    print("Access denied", file=sys.stderr)
sys.exit(code)
"""


@pytest.fixture
def night_rig(tmp_path: Path, pins: MockFactory) -> Iterator[Callable[..., Rig]]:
    made: list[Longhall] = []

    def make(exit_code: int | None = 0) -> Rig:
        data = tmp_path / f"table{len(made)}"
        script = tmp_path / "fake-poweroff"
        script.write_text(FAKE_POWEROFF)
        command = None
        if exit_code is not None:
            command = f"{sys.executable} {script} {data / 'longhall.sqlite3'} "
            command += f"{tmp_path / 'found'} {exit_code}"
        settings = Settings(
            data_dir=data, gpio="mock", bot_delay=0, seed=11, poweroff_command=command
        )
        lh = create_app(settings)
        made.append(lh)
        clock = Clock()
        night = lh.night = NightEnd(lh.table, command, grace=0)
        hw = start_hardware(lh.table, settings, pin_factory=pins, clock=clock, night=night)
        lh.hardware = hw
        rig = Rig(lh, hw, pins, clock, Client(lh))
        rig.settle()
        return rig

    yield make
    for lh in made:
        lh.stop()


def hold_host(rig: Rig) -> None:
    """Hold HOST down for the default map's hold time (3 s on the adapter's clock), then let go."""
    rig.pins.pin(HOST).drive_low()
    rig.settle()
    rig.clock.now += 3.0
    rig.settle()
    rig.pins.pin(HOST).drive_high()
    rig.settle()


def test_a_long_press_ends_the_night_with_the_store_closed_first(
    night_rig: Callable[..., Rig], tmp_path: Path
) -> None:
    rig = night_rig()
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    version = rig.table.data.version

    hold_host(rig)
    assert rig.lh.night.done.wait(60)
    # the store was whole in its file when the command ran: no write-ahead log left, and the
    # night (with the game being played, ended early) kept as ended: one more record
    assert (tmp_path / "found").read_text() == f"wal=False version={version + 1}\n"
    assert not rig.table.data.paused  # the release after the hold did not pause anything
    night = rig.display.last()["table"]["night"]
    assert night["ended"] is not None and night["games"][0]["status"] == "abandoned"
    shown = rig.display.last()["table"]["notices"]
    assert [n["code"] for n in shown] == ["shutting_down"]
    assert "shutting_down" in [n["code"] for n in rig.notices()]
    for phone in (anna, bob, cara):  # the phones hear it too
        phone.pump()
        assert any(
            m["name"] == "notice" and m["args"][0]["code"] == "shutting_down"
            for m in phone.messages
        )

    # until systemd stops the server, the table still stores every command
    assert anna.send("lock_lobby", locked=True)["ok"]
    con = sqlite3.connect(rig.table.store.path)
    assert con.execute("SELECT max(seq) FROM records").fetchone()[0] == version + 2
    con.close()
    # holding again while shutting down starts nothing twice
    assert rig.lh.night.request(Identity("button"))["error"]["code"] == "shutting_down"


def test_a_failed_power_off_says_why_and_the_table_goes_on(
    night_rig: Callable[..., Rig],
) -> None:
    rig = night_rig(exit_code=1)
    hold_host(rig)
    assert rig.lh.night.done.wait(60)
    assert rig.display.last()["table"]["notices"] == []
    (failed,) = [n for n in rig.notices() if n["code"] == "poweroff_failed"]
    assert failed["params"] == {"reason": "Access denied"}
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])  # the store works as before
    assert anna.send("start")["ok"]
    hold_host(rig)  # and the host may try again
    assert rig.lh.night.done.wait(60)
    assert len([n for n in rig.notices() if n["code"] == "poweroff_failed"]) == 2


def test_without_a_power_off_command_a_long_press_only_says_so(
    night_rig: Callable[..., Rig],
) -> None:
    rig = night_rig(exit_code=None)
    hold_host(rig)
    assert [n["code"] for n in rig.notices()] == ["poweroff_unavailable"]
    assert rig.display.last()["table"]["notices"] == []
    assert not rig.lh.night.ending


def test_a_short_press_keeps_its_meaning_on_release(night_rig: Callable[..., Rig]) -> None:
    rig = night_rig()
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    rig.pins.pin(HOST).drive_low()
    rig.settle()
    rig.clock.now += 2.9  # not long enough to end the night
    rig.settle()
    assert not rig.table.data.paused
    rig.pins.pin(HOST).drive_high()
    rig.settle()
    assert rig.table.data.paused and not rig.lh.night.ending
    rig.press(HOST)
    assert not rig.table.data.paused


def test_only_the_host_or_the_button_may_end_the_night(night_rig: Callable[..., Rig]) -> None:
    rig = night_rig()
    seated(rig.lh, ["Anna", "Bob"])
    refused = rig.lh.night.request(Identity("seat", 1))
    assert refused["error"]["code"] == "host_only" and not rig.lh.night.ending
    assert rig.display.last()["table"]["notices"] == []


def test_the_hold_time_is_checked_like_every_pin_map_value() -> None:
    from longhall.hardware.pinmap import PinMapError, parse

    assert parse({"buttons": {"host": "GPIO27", "hold": 5}}).hold == 5.0
    assert parse({"buttons": {"host": "GPIO27"}}).hold is None  # no long press at all
    for bad in (0.5, 31, "3", True):
        with pytest.raises(PinMapError, match="hold must be a number of seconds from 1 to 30"):
            parse({"buttons": {"host": "GPIO27", "hold": bad}})
