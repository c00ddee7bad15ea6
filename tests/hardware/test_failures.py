"""When GPIO fails (or was never there) the game goes on and the table display says so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory

from longhall.hardware.adapter import PROBE_SECONDS, start_hardware
from longhall.hardware.gpio import find_gpio
from longhall.server.config import Settings
from longhall.server.web.app import create_app
from tests.inprocess import Client, seated

from .conftest import NEXT, SEATS, FlakyPin, Rig, plan_all


def test_a_pin_that_fails_mid_game_stops_the_hardware_not_the_game(rig: Rig) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(NEXT)
    plan_all(bob)
    rig.at(0.55)  # Anna's LED blinks slowly: just now it is off
    pin = rig.pins.pin(SEATS[0])
    assert isinstance(pin, FlakyPin) and not pin.state
    pin.broken = True  # the chip is gone

    plan_all(anna)  # her LED must light up: the write fails
    rig.settle()
    assert rig.hw.status["status"] == "failed"
    assert rig.table.hardware["status"] == "failed"
    assert "No such device" in rig.table.hardware["message"]
    notice = rig.notices()[-1]
    assert notice["code"] == "hardware_failed"
    assert "game goes on" in notice["message"]
    assert rig.display.last()["table"]["hardware"]["status"] == "failed"

    # the pins are left alone from now on, and the buttons do nothing
    writes = {p: len(rig.pins.pin(p).states) for p in SEATS[1:]}
    for offset in (0.05, 0.2, 0.55, 0.8):
        rig.at(offset)
    rig.press(NEXT)
    assert rig.table.data.status == "playing"
    assert {p: len(rig.pins.pin(p).states) for p in SEATS[1:]} == writes

    # the game goes on: the last player commits and a phone reveals
    plan_all(cara)
    ack = anna.send("table", action={"type": "reveal"})
    assert ack["ok"], ack
    assert rig.display.last()["game"]["public"]["revealed"] is not None
    assert rig.hw.worker.is_alive()  # idle until the server stops; closing it still works


def test_hardware_that_cannot_start_is_reported_and_the_server_runs(tmp_path: Path) -> None:
    pin_map = tmp_path / "pins.toml"
    pin_map.write_text('[buttons]\nnext = "GPIO99"\n')  # no such pin on a Pi
    settings = Settings(data_dir=tmp_path, gpio="mock", gpio_config=pin_map, bot_delay=0)
    lh = create_app(settings)
    try:
        lh.start_background()
        assert lh.table.hardware["status"] == "failed"
        assert lh.table.hardware["code"] == "hardware_failed"
        display = Client(lh)
        assert display.last()["table"]["hardware"]["status"] == "failed"
        seated(lh, ["Anna", "Bob", "Cara"])[0].send("start")
        assert lh.table.data.status == "playing"
    finally:
        lh.stop()


def test_a_wrong_pin_map_is_reported_by_name(tmp_path: Path) -> None:
    pin_map = tmp_path / "pins.toml"
    pin_map.write_text('[seats]\nleds = ["GPIO5", "GPIO5"]\n')
    settings = Settings(data_dir=tmp_path, gpio="mock", gpio_config=pin_map, bot_delay=0)
    lh = create_app(settings)
    try:
        lh.start_background()
        hardware = lh.table.hardware
        assert hardware["status"] == "failed" and hardware["code"] == "hardware_pin_map"
        assert str(pin_map) in hardware["message"] and "GPIO5 is used twice" in hardware["message"]
    finally:
        lh.stop()


def test_mock_mode_from_the_command_line_setting(tmp_path: Path) -> None:
    lh = create_app(Settings(data_dir=tmp_path, gpio="mock", bot_delay=0))
    try:
        lh.start_background()  # what `longhall serve --gpio mock` does
        assert lh.table.hardware["status"] == "mock"
        assert Client(lh).last()["table"]["hardware"]["status"] == "mock"
    finally:
        lh.stop()
    assert not lh.hardware.worker.is_alive()


def failing(name: str) -> tuple[str, Callable[[], Factory]]:
    def make() -> Factory:
        raise OSError(f"{name} finds no gpiochip")

    return name, make


def test_auto_without_gpio_runs_without_buttons_and_says_so(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, gpio="auto", bot_delay=0)
    lh = create_app(settings)
    try:
        hw = start_hardware(
            lh.table,
            settings,
            find=lambda: find_gpio([failing("lgpio"), failing("RPi.GPIO")]),
            night=lh.night,
        )
        lh.hardware = hw
        assert lh.table.hardware["status"] == "off"
        assert lh.table.hardware["code"] == "hardware_no_gpio"
        assert "No GPIO was found" in lh.table.hardware["message"]
        assert not hw.worker.is_alive()
    finally:
        lh.stop()


def test_auto_uses_the_first_pin_factory_that_opens(tmp_path: Path, pins: MockFactory) -> None:
    settings = Settings(data_dir=tmp_path, gpio="auto", bot_delay=0)
    lh = create_app(settings)
    try:
        found, why = find_gpio([failing("lgpio"), ("mock", lambda: pins)])
        assert found is pins and why == ["lgpio: lgpio finds no gpiochip"]
        lh.hardware = start_hardware(lh.table, settings, find=lambda: (found, why), night=lh.night)
        assert lh.hardware.factory is pins  # opened for the adapter: it closes it
        assert lh.table.hardware == {"status": "ok", "message": None, "code": None}
        seated(lh, ["Anna"])
        assert lh.hardware.flush()
        assert pins.pin(SEATS[0]).state
    finally:
        lh.stop()


def test_this_machine_has_no_gpio_and_auto_finds_none_without_warnings() -> None:
    factory, why = find_gpio()
    if factory is not None:  # on a Raspberry Pi: the real thing opened; give it back
        factory.close()
        assert type(factory).__name__ in ("LGPIOFactory", "RPiGPIOFactory")
        return
    assert [w.split(":")[0] for w in why] == ["lgpio", "RPi.GPIO"]


def test_buttons_alone_notice_a_chip_that_went_away(
    make_rig: Callable[..., Rig], tmp_path: Path
) -> None:
    """With no lights, nothing is ever written; the buttons' pins are read now and then."""
    pin_map = tmp_path / "pins.toml"
    pin_map.write_text('[buttons]\nnext = "GPIO17"\nhost = "GPIO27"\n')
    rig = make_rig(gpio_config=pin_map)
    seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.at(1.0)
    assert rig.hw.status["status"] != "failed"
    pin = rig.pins.pin(NEXT)
    assert isinstance(pin, FlakyPin)
    pin.broken = True  # the chip is gone
    rig.at(PROBE_SECONDS + 1.5)
    assert rig.table.hardware["status"] == "failed"
    assert "No such device" in rig.table.hardware["message"]
    assert rig.display.last()["table"]["hardware"]["status"] == "failed"
    assert rig.notices()[-1]["code"] == "hardware_failed"
