"""Choosing gpiozero's pin factory explicitly (never gpiozero's guess, which warns as it goes)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

log = logging.getLogger(__name__)


def _lgpio() -> Factory:
    # Debian's python3-lgpio: what gpiozero uses on Bookworm and the only one for a Pi 5.
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory()


def _rpigpio() -> Factory:
    # RPi.GPIO (or the rpi-lgpio shim that stands in for it) on older systems.
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return RPiGPIOFactory()


CANDIDATES: tuple[tuple[str, Callable[[], Factory]], ...] = (
    ("lgpio", _lgpio),
    ("RPi.GPIO", _rpigpio),
)


def find_gpio(
    candidates: Sequence[tuple[str, Callable[[], Factory]]] = CANDIDATES,
) -> tuple[Factory | None, list[str]]:
    """The first pin factory that opens on this machine, and why the others did not."""
    why: list[str] = []
    for name, make in candidates:
        try:
            factory = make()
        except Exception as err:  # ImportError, no gpiochip, not a Pi: try the next one
            why.append(f"{name}: {err or type(err).__name__}")
            continue
        log.info("GPIO through %s", name)
        return factory, why
    return None, why


def mock_gpio(pwm: bool) -> MockFactory:
    """Simulated pins (``--gpio mock``); PWM pins only when the pin map dims a light."""
    return MockFactory(pin_class=MockPWMPin if pwm else MockPin)
