"""Safe power-off on the appliance: the server may power the Pi off (polkit), the power button on
GPIO3 is an install option, and the unit hands the server its power-off command."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from .conftest import INSTALL, render, unit
from .test_install import commands, dry_run, written

RULES = "/etc/polkit-1/rules.d/50-longhall.rules"


def test_the_server_may_power_the_pi_off(tmp_path: Path) -> None:
    out = dry_run("--prefix", str(tmp_path / "p")).stdout
    rules = written(out, RULES)
    assert 'subject.user == "longhall"' in rules
    assert '"org.freedesktop.login1.power-off"' in rules
    assert "polkit.Result.YES" in rules
    # JavaScript that parses (node is not everywhere: balanced brackets stand in for it)
    for pair in ("()", "{}"):
        assert rules.count(pair[0]) == rules.count(pair[1])
    assert "polkitd" in next(s for s in commands(out) if "apt-get install" in s)
    # no power button unless asked: an old one is taken away
    steps = commands(out)
    assert "sed -i /\\^dtoverlay=gpio-shutdown\\$/d /boot/firmware/config.txt" in steps
    assert "power_button=0" in written(out, "/etc/longhall/install.conf")


def test_the_power_button_goes_on_gpio3_under_all(tmp_path: Path) -> None:
    out = dry_run("--prefix", str(tmp_path / "p"), "--power-button").stdout
    (append,) = [s for s in commands(out) if "dtoverlay=gpio-shutdown" in s]
    assert shlex.split(append) == [
        "sed",
        "-i",
        "$ a [all]\\ndtoverlay=gpio-shutdown",
        "/boot/firmware/config.txt",
    ]
    assert "(unless: grep -qx dtoverlay=gpio-shutdown /boot/firmware/config.txt)" in out
    assert "power_button=1" in written(out, "/etc/longhall/install.conf")
    # the sed adds the overlay where the firmware reads it for every model
    config = tmp_path / "config.txt"
    config.write_text("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    subprocess.run(["sed", "-i", shlex.split(append)[2], str(config)], check=True)
    assert config.read_text().splitlines()[-2:] == ["[all]", "dtoverlay=gpio-shutdown"]


def test_a_pin_map_on_gpio3_cannot_have_the_power_button(tmp_path: Path) -> None:
    pins = tmp_path / "pins.toml"
    pins.write_text('[buttons]\nnext = "GPIO3"\n')
    refused = dry_run("--gpio-config", str(pins), "--power-button")
    assert refused.returncode == 2 and "needs GPIO3 (header pin 5)" in refused.stderr
    pins.write_text('[buttons]\nnext = "GPIO4"\n')
    assert dry_run("--gpio-config", str(pins), "--power-button").returncode == 0


def test_the_default_pin_map_leaves_gpio3_free() -> None:
    sys.path.insert(0, str(INSTALL.parent.parent))
    from longhall.hardware.pinmap import load

    pins = load()
    assert "GPIO3" not in pins.pins() and "GPIO2" not in pins.pins()
    assert pins.hold == 3.0


def test_the_unit_gives_the_server_its_power_off_command(tmp_path: Path, prefix: Path) -> None:
    (start,) = unit(render(tmp_path / "u", prefix) / "longhall.service")["Service"]["ExecStart"]
    words = shlex.split(start)
    assert words[words.index("--poweroff-command") + 1] == "/usr/bin/systemctl poweroff"
