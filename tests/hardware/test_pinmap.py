"""The pin map: the documented default, and clear words for every mistake in a custom one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from longhall.hardware.pinmap import DEFAULT, PinMapError, load, parse


def test_the_default_map_is_the_documented_wiring() -> None:
    pins = load()
    assert pins.source == str(DEFAULT)
    assert (pins.next, pins.host, pins.bounce) == ("GPIO17", "GPIO27", 0.05)
    assert pins.seats == ("GPIO5", "GPIO6", "GPIO13", "GPIO19", "GPIO26", "GPIO21")
    assert pins.phase is not None
    assert (pins.phase.red, pins.phase.green, pins.phase.blue) == ("GPIO22", "GPIO23", "GPIO24")
    assert pins.phase.active_high and not pins.phase.pwm and pins.phase.brightness == 1.0
    assert pins.buzzer == "GPIO25"


def test_a_map_may_leave_parts_out_and_name_pins_several_ways() -> None:
    pins = parse({"buttons": {"next": 17, "host": "bcm27"}, "seats": {"leds": ["BOARD29"]}})
    assert (pins.next, pins.host, pins.seats) == ("GPIO17", "GPIO27", ("BOARD29",))
    assert pins.phase is None and pins.buzzer is None and pins.bounce is None
    anode = parse({"phase": {"red": 22, "green": 23, "blue": 24, "common": "anode"}})
    assert anode.phase is not None and not anode.phase.active_high


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({"lights": {}}, "unknown section [lights]"),
        ({"buttons": {"nxt": 17}}, "unknown key 'nxt' in [buttons]"),
        ({"buttons": {"next": 17, "host": "GPIO17"}}, "GPIO17 is used twice"),
        ({"seats": {"leds": [f"GPIO{p}" for p in range(5, 12)]}}, "at most 6 seats"),
        ({"seats": {"leds": "GPIO5"}}, "must be a list"),
        ({"seats": {"leds": [True]}}, "#1 must be a pin name"),
        ({"phase": {"red": 22, "green": 23}}, "needs a pin for blue"),
        ({"phase": {"red": 22, "green": 23, "blue": 24, "common": "x"}}, "common must be"),
        ({"phase": {"red": 22, "green": 23, "blue": 24, "brightness": 0.5}}, "needs pwm = true"),
        ({"phase": {"red": 22, "green": 23, "blue": 24, "pwm": "yes"}}, "pwm must be"),
        ({"buttons": {"bounce": 5}}, "bounce must be"),
        ({"buzzer": 25}, "must be a section"),
    ],
)
def test_a_wrong_map_is_refused_with_what_to_fix(raw: dict[str, Any], says: str) -> None:
    with pytest.raises(PinMapError, match=r"The pin map <pin map>: .*") as err:
        parse(raw)
    assert says in str(err.value)


def test_a_missing_or_broken_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="cannot be read"):
        load(tmp_path / "nowhere.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[buttons\n")
    with pytest.raises(PinMapError, match=f"{broken} is not valid TOML"):
        load(broken)
