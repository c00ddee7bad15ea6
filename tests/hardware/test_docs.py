"""docs/pi-setup.md tells the truth: its wiring table is the default pin map on a real header,
its colour table is the one the phase indicator shows, and each address it cannot give yet is a
placeholder it explains."""

from __future__ import annotations

import re

from gpiozero.pins.mock import MockFactory

from longhall.hardware.pinmap import load
from longhall.hardware.signals import COLOURS
from tests.support import ROOT

DOC = (ROOT / "docs" / "pi-setup.md").read_text(encoding="utf-8")
NAMES = {
    "red": (1, 0, 0),
    "green": (0, 1, 0),
    "blue": (0, 0, 1),
    "yellow": (1, 1, 0),
    "cyan": (0, 1, 1),
    "magenta": (1, 0, 1),
    "white": (1, 1, 1),
}


def rows(first_header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose first column is headed ``first_header``."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    out = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        out.append([cell.strip() for cell in line.strip("|").split("|")])
    return out


def test_the_wiring_table_is_the_default_pin_map_on_the_header() -> None:
    header = MockFactory(revision="c03111").board_info.headers["J8"].pins  # a Pi 4's 40 pins
    pins = load()
    assert pins.phase is not None
    parts = {
        "NEXT button": pins.next,
        "HOST button": pins.host,
        **{f"Seat {i + 1} LED": pin for i, pin in enumerate(pins.seats)},
        "Phase LED, red": pins.phase.red,
        "Phase LED, green": pins.phase.green,
        "Phase LED, blue": pins.phase.blue,
        "Buzzer": pins.buzzer,
    }
    table = {row[0]: row for row in rows("Part | GPIO") if row[1] != "—" and "GPIO" in row[1]}
    assert {part: row[1] for part, row in table.items()} == parts
    for part, row in table.items():
        assert header[int(row[2])].name == row[1], part
        for ground in re.findall(r"ground \(pin (\d+)", row[3]) + re.findall(
            r"ground pins? (\d+)", row[3]
        ):
            assert header[int(ground)].name == "GND", (part, ground)
    grounds = re.search(r"Every ground pin \(([\d, ]+)\)", DOC)
    assert grounds is not None
    assert {int(n) for n in grounds.group(1).split(",")} == {
        n for n, info in header.items() if info.name == "GND"
    }


def test_the_colour_table_is_what_the_indicator_shows() -> None:
    shown = {}
    for phase, colour in rows("Phase"):
        key = re.split(r"[(:]", phase)[0].strip().replace(" ", "_")
        if key != "paused":
            shown[key] = NAMES[colour]
    assert shown == COLOURS


def test_the_buzzer_has_a_pull_down_and_gpioset_speaks_libgpiod_2() -> None:
    (buzzer,) = [row for row in rows("Part | GPIO") if row[0] == "Buzzer"]
    # the base would float while the service is stopped: a pull-down keeps the buzzer quiet
    assert "10 kΩ from the base to ground" in buzzer[3] and "10 kΩ (pull-down)" in buzzer[4]
    assert "a 1 kΩ and a 10 kΩ resistor" in DOC
    # libgpiod 2 (Trixie) has no --mode; the old syntax is only given as libgpiod 1's
    assert "`gpioset -c gpiochip0 17=1`" in DOC
    for line in DOC.splitlines():
        if "--mode=wait" in line:
            assert "libgpiod 1" in line, line


PLACEHOLDER = re.compile(r"\b[A-Z]+-ADDRESS\b")  # an address the project does not have yet


def test_every_placeholder_is_explained_once_and_the_readme_needs_none() -> None:
    for word in set(PLACEHOLDER.findall(DOC)):
        # one item of the list that says what to put there and where to find it
        assert DOC.count(f"- `{word}`: ") == 1, f"{word} is not explained (or twice)"
    # nothing a newcomer runs from the README waits for an address
    assert not PLACEHOLDER.findall((ROOT / "README.md").read_text(encoding="utf-8"))
