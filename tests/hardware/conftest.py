"""Fixtures for the buttons and lights: gpiozero's mock pins (reset for every test), a clock the
test sets, and an in-process table with the adapter on it and the table display connected."""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from longhall.hardware.adapter import Hardware, start_hardware
from longhall.hardware.pinmap import PinMap, load
from longhall.server.config import Settings
from longhall.server.games.cues import Light
from longhall.server.table.connections import Identity
from longhall.server.table.service import Table
from longhall.server.table.state import TableStatus
from longhall.server.web.app import Longhall, create_app
from tests.inprocess import Client

from ..support import bot_move

MAP: PinMap = load()  # the documented default map: the tests use its pins
assert MAP.next and MAP.host and MAP.phase and MAP.buzzer
NEXT, HOST, BUZZER = MAP.next, MAP.host, MAP.buzzer
SEATS = MAP.seats
RGB = (MAP.phase.red, MAP.phase.green, MAP.phase.blue)

# Moments on the shared clock (see hardware/rhythm.py: slow blinks 1 s, fast blinks 0.25 s) at
# which each kind of light shows a different pattern of on and off.
BASE = 1000.0
MOMENTS = (0.05, 0.2, 0.55)  # slow on / fast on, slow on / fast off, slow off / fast on
# what a light shows at each of the MOMENTS
PATTERNS: dict[tuple[bool, ...], Light] = {
    (False, False, False): Light.OFF,
    (True, True, True): Light.ON,
    (True, True, False): Light.SLOW,
    (True, False, True): Light.FAST,
}


class FlakyPin(MockPin):  # type: ignore[misc]  # gpiozero has no type hints
    """A mock pin that fails like a pin whose chip went away, once told to."""

    broken = False

    def _set_state(self, value: float) -> None:
        if self.broken:
            raise OSError(errno.ENODEV, "No such device")
        super()._set_state(value)

    def _get_state(self) -> float:
        if self.broken:
            raise OSError(errno.ENODEV, "No such device")
        return float(super()._get_state())


class Clock:
    """The adapter's clock, moved only by the test."""

    def __init__(self) -> None:
        self.now = BASE

    def __call__(self) -> float:
        return self.now


@dataclass
class Rig:
    """A table with buttons and lights on mock pins, and the table display watching."""

    lh: Longhall
    hw: Hardware
    pins: MockFactory
    clock: Clock
    display: Client

    @property
    def table(self) -> Table:
        return self.lh.table

    def status(self) -> TableStatus:
        """The table's status, read afresh at each call."""
        return self.table.data.status

    def settle(self) -> None:
        """Let the worker handle everything so far (it renders the lights at the clock's time)."""
        assert self.hw.flush(), "the hardware worker did not answer"

    def press(self, pin: str) -> None:
        """Press and release a button, then let the worker handle the press."""
        self.pins.pin(pin).drive_low()
        self.pins.pin(pin).drive_high()
        self.settle()

    def at(self, offset: float) -> None:
        self.clock.now = BASE + offset
        self.settle()

    def lights(self) -> list[Light]:
        """What each seat LED shows: on, off, or which blink (read from the pins)."""
        seen = []
        for offset in MOMENTS:
            self.at(offset)
            seen.append([bool(self.pins.pin(p).state) for p in SEATS])
        return [PATTERNS[tuple(s[i] for s in seen)] for i in range(len(SEATS))]

    def colour(self) -> tuple[tuple[int, int, int], Light]:
        """The phase indicator's colour, and whether it is steady or blinks."""
        seen = []
        for offset in MOMENTS:
            self.at(offset)
            seen.append((*(round(self.pins.pin(p).state) for p in RGB),))
        lit = [c for c in seen if any(c)]
        assert lit and len(set(lit)) == 1, f"the indicator shows {seen}"
        pattern = PATTERNS[tuple(any(c) for c in seen)]
        return lit[0], pattern

    def notices(self) -> list[dict[str, Any]]:
        """Every notice the table display received so far."""
        self.display.pump()
        return [m["args"][0] for m in self.display.messages if m["name"] == "notice"]


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    """Fresh mock pins for each test, reset afterwards."""
    factory = MockFactory(pin_class=FlakyPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = None


@pytest.fixture
def make_rig(tmp_path: Path, pins: MockFactory) -> Iterator[Callable[..., Rig]]:
    made: list[Longhall] = []

    def make(
        factory: MockFactory | None = None, gpio_config: Path | None = None, **options: Any
    ) -> Rig:
        settings = Settings(
            data_dir=tmp_path / f"table{len(made)}",
            gpio="mock",
            gpio_config=gpio_config,
            bot_delay=0,
            seed=11,
            **options,
        )
        lh = create_app(settings)
        made.append(lh)
        clock = Clock()
        hw = start_hardware(
            lh.table, settings, pin_factory=factory or pins, clock=clock, night=lh.night
        )
        lh.hardware = hw
        display = Client(lh)  # no credentials: the table display
        rig = Rig(lh, hw, factory or pins, clock, display)
        rig.settle()
        return rig

    yield make
    for lh in made:
        lh.stop()


@pytest.fixture
def rig(make_rig: Callable[..., Rig]) -> Rig:
    return make_rig()


def step_bot(table: Table) -> bool:
    """Let one bot seat (or stand-in) make the move it wants; False if no bot has one."""
    move = bot_move(table)
    if move is None:
        return False
    seat, action = move
    version = table.data.version
    ack = table.submit(
        Identity("bot", seat),
        {"type": "act", "id": f"bot-move-{version}", "version": version, "action": action},
    )
    assert ack["ok"], ack
    return True


def play_bots(table: Table, steps: int = 10_000) -> None:
    """Let the bots move until the table waits for a person or NEXT."""
    for _ in range(steps):
        if not step_bot(table):
            return
    raise AssertionError("the bots never stopped")


def plan_all(phone: Client, field: str = "A") -> None:
    """Put every viking of this phone's seat on one field and commit."""
    while True:
        legal = phone.last()["game"]["legal"]
        if {"type": "commit"} in legal:
            assert phone.act(type="commit")["ok"]
            return
        assert phone.act(type="place", to=field)["ok"]
