"""The pin map: which GPIO pin each named part of the table is wired to (a TOML file)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT = Path(__file__).with_name("pins.toml")
MAX_SEATS = 6
SECTIONS: dict[str, frozenset[str]] = {
    "buttons": frozenset({"next", "host", "bounce", "hold"}),
    "seats": frozenset({"leds"}),
    "phase": frozenset({"red", "green", "blue", "common", "pwm", "brightness"}),
    "buzzer": frozenset({"pin"}),
}


class PinMapError(ValueError):
    """The pin map cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class PhaseLed:
    """The phase indicator: an RGB LED (or three LEDs on the same pins)."""

    red: str
    green: str
    blue: str
    active_high: bool = True  # common cathode
    pwm: bool = False
    brightness: float = 1.0


@dataclass(frozen=True)
class PinMap:
    """Every part of the table and its pin; a part left out of the file is None (or empty)."""

    source: str
    next: str | None = None
    host: str | None = None
    bounce: float | None = None
    hold: float | None = None  # seconds HOST is held for "end the night" (None: no long press)
    seats: tuple[str, ...] = ()
    phase: PhaseLed | None = None
    buzzer: str | None = None

    def pins(self) -> list[str]:
        """Every pin the map uses."""
        out = [p for p in (self.next, self.host, self.buzzer) if p is not None]
        out.extend(self.seats)
        if self.phase is not None:
            out.extend((self.phase.red, self.phase.green, self.phase.blue))
        return out


def load(path: Path | None = None) -> PinMap:
    """Read and check a pin map (the default one without a path)."""
    path = path or DEFAULT
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise PinMapError(f"The pin map {path} cannot be read: {err.strerror or err}.") from None
    except tomllib.TOMLDecodeError as err:
        raise PinMapError(f"The pin map {path} is not valid TOML: {err}.") from None
    return parse(raw, str(path))


def parse(raw: dict[str, Any], source: str = "<pin map>") -> PinMap:
    """Check a pin map read from TOML; raise PinMapError naming the first mistake."""

    def fail(what: str) -> PinMapError:
        return PinMapError(f"The pin map {source}: {what}.")

    for name, value in raw.items():
        if name not in SECTIONS:
            raise fail(f"unknown section [{name}] (known: {', '.join(SECTIONS)})")
        if not isinstance(value, dict):
            raise fail(f"{name} must be a section ([{name}])")
        unknown = sorted(set(value) - SECTIONS[name])
        if unknown:
            raise fail(f"unknown key {unknown[0]!r} in [{name}]")

    buttons = raw.get("buttons", {})
    seats = raw.get("seats", {})
    phase = raw.get("phase")
    buzzer = raw.get("buzzer", {})

    leds = seats.get("leds", [])
    if not isinstance(leds, list):
        raise fail("[seats] leds must be a list of pins")
    if len(leds) > MAX_SEATS:
        raise fail(f"[seats] leds has {len(leds)} pins; a table has at most {MAX_SEATS} seats")

    bounce = buttons.get("bounce")
    if bounce is not None and (
        isinstance(bounce, bool) or not isinstance(bounce, int | float) or not 0 <= bounce <= 1
    ):
        raise fail("[buttons] bounce must be a number of seconds from 0 to 1")

    hold = buttons.get("hold")
    if hold is not None and (
        isinstance(hold, bool) or not isinstance(hold, int | float) or not 1 <= hold <= 30
    ):
        raise fail("[buttons] hold must be a number of seconds from 1 to 30")

    phase_led = None
    if phase is not None:
        missing = [c for c in ("red", "green", "blue") if c not in phase]
        if missing:
            raise fail(f"[phase] needs a pin for {missing[0]}")
        common = phase.get("common", "cathode")
        if common not in ("cathode", "anode"):
            raise fail('[phase] common must be "cathode" or "anode"')
        pwm = phase.get("pwm", False)
        if not isinstance(pwm, bool):
            raise fail("[phase] pwm must be true or false")
        brightness = phase.get("brightness", 1.0)
        if (
            isinstance(brightness, bool)
            or not isinstance(brightness, int | float)
            or not 0 < brightness <= 1
        ):
            raise fail("[phase] brightness must be a number above 0 and at most 1")
        if brightness < 1 and not pwm:
            raise fail("[phase] brightness below 1 needs pwm = true")
        phase_led = PhaseLed(
            red=_pin(phase["red"], "[phase] red", fail),
            green=_pin(phase["green"], "[phase] green", fail),
            blue=_pin(phase["blue"], "[phase] blue", fail),
            active_high=common == "cathode",
            pwm=pwm,
            brightness=float(brightness),
        )

    out = PinMap(
        source=source,
        next=_pin(buttons["next"], "[buttons] next", fail) if "next" in buttons else None,
        host=_pin(buttons["host"], "[buttons] host", fail) if "host" in buttons else None,
        bounce=None if bounce is None else float(bounce),
        hold=None if hold is None else float(hold),
        seats=tuple(_pin(p, f"[seats] leds #{i + 1}", fail) for i, p in enumerate(leds)),
        phase=phase_led,
        buzzer=_pin(buzzer["pin"], "[buzzer] pin", fail) if "pin" in buzzer else None,
    )
    seen: set[str] = set()
    for pin in out.pins():
        if pin in seen:
            raise fail(f"{pin} is used twice")
        seen.add(pin)
    return out


def _pin(value: object, where: str, fail: Callable[[str], PinMapError]) -> str:
    """A pin name as gpiozero takes it; Broadcom numbers are spelled one way ("GPIO17")."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"GPIO{value}"
    if not isinstance(value, str) or not value.strip():
        raise fail(f'{where} must be a pin name like "GPIO17"')
    value = value.strip().upper()
    match = re.fullmatch(r"(?:GPIO|BCM)(\d+)", value)
    if match:
        value = f"GPIO{int(match.group(1))}"
    return value
