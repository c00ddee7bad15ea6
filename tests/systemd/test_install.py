"""The install script's dry run: every step printed on this (non-Pi) machine, nothing changed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from server.app import read_hotspot

from .conftest import INSTALL, render

TOUCHED = ("/etc/longhall", "/etc/systemd/system/longhall.service", "/etc/pam.d/longhall-kiosk")


def dry_run(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), "--dry-run", *options], capture_output=True, text=True, timeout=120
    )


def commands(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def written(output: str, path: str) -> str:
    """The content the dry run shows for one file."""
    lines = output.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"+ write {path} ")))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("    | "):
            break
        body.append(line[6:])
    return "\n".join(body) + "\n"


def test_the_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    before = {path: Path(path).exists() for path in TOUCHED}
    target = tmp_path / "opt" / "longhall"
    result = dry_run(
        "--prefix", str(target), "--hotspot", "Longhall", "night-of-games", "--country", "de"
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    steps = commands(out)

    expected_in_order = [
        r"apt-get update",
        r"apt-get install -y --no-install-recommends python3 python3-venv python3-pip "
        r"python3-lgpio rsync sqlite3 network-manager dnsmasq-base wpasupplicant rfkill "
        r"chromium(-browser)? cage fonts-dejavu-core",
        r"groupadd --system gpio",
        r"useradd --system --user-group --home-dir /var/lib/longhall .* longhall",
        r"usermod --append --groups gpio longhall",
        r"useradd --system .* longhall-kiosk",
        r"usermod --append --groups video\\,render\\,input longhall-kiosk",
        rf"rsync -a --delete .* /.*/ {target}/",
        rf"python3 -m venv --system-site-packages {target}/\.venv",
        rf"{target}/\.venv/bin/python -m pip install --quiet -e {target}",
        r"install -d -m 0755 /etc/longhall",
        r"raspi-config nonint do_wifi_country DE",
        r"rfkill unblock wifi",
        r"nmcli connection delete longhall-hotspot",
        r"nmcli connection add type wifi ifname wlan0 con-name longhall-hotspot ssid Longhall "
        r".*802-11-wireless.mode ap .*ipv4.method shared ipv4.addresses 10.42.0.1/24 "
        r".*wifi-sec.key-mgmt wpa-psk .*wifi-sec.psk night-of-games",
        r"write /etc/longhall/hotspot \(mode 0640, owner root:longhall\):",
        r"write /etc/systemd/system/longhall.service ",
        r"write /etc/systemd/system/longhall-kiosk.service ",
        r"write /etc/pam.d/longhall-kiosk ",
        r"systemctl set-default multi-user.target",
        r"sed -i .*consoleblank=0.* /boot/firmware/cmdline.txt",
        r"systemctl daemon-reload",
        r"systemctl enable longhall.service",
        r"systemctl restart longhall.service",
        r"systemctl enable longhall-kiosk.service",
    ]
    position = 0
    for pattern in expected_in_order:
        for index in range(position, len(steps)):
            if re.search(pattern, steps[index]):
                position = index + 1
                break
        else:
            raise AssertionError(f"no step {pattern!r} (in order) in:\n" + "\n".join(steps))

    # nothing was done: no prefix, no files in /etc
    assert not target.exists() and not (tmp_path / "opt").exists()
    assert {path: Path(path).exists() for path in TOUCHED} == before


def test_the_dry_run_shows_the_files_the_server_reads(tmp_path: Path, prefix: Path) -> None:
    # a password may hold '=' and ';' and begin or end with a space
    out = dry_run("--prefix", str(prefix), "--hotspot", "Long hall", " p=ss w0rd;x ").stdout
    hotspot = tmp_path / "hotspot"
    hotspot.write_text(written(out, "/etc/longhall/hotspot"))
    assert read_hotspot(hotspot) == {"ssid": "Long hall", "password": " p=ss w0rd;x "}

    units = render(tmp_path / "units", prefix, "--hotspot", "Long hall", "p=ss w0rd;x")
    for name in ("longhall.service", "longhall-kiosk.service"):
        assert written(out, f"/etc/systemd/system/{name}") == (units / name).read_text()


def test_without_a_kiosk_or_a_hotspot(tmp_path: Path) -> None:
    out = dry_run("--no-kiosk", "--prefix", str(tmp_path / "p")).stdout
    steps = "\n".join(commands(out))
    assert "cage" not in steps and "chromium" not in steps
    assert "write /etc/systemd/system/longhall-kiosk.service" not in steps
    assert "nmcli connection add" not in steps and "dnsmasq" not in steps
    assert "nmcli connection delete longhall-hotspot" in steps  # a hotspot from before is removed
    assert "systemctl disable --now longhall-kiosk.service" in steps
    assert "rm -f /etc/longhall/hotspot" in steps
    assert "--hotspot-file" not in written(out, "/etc/systemd/system/longhall.service")


def test_a_pin_map_is_installed_and_passed_to_the_server(tmp_path: Path) -> None:
    pins = tmp_path / "my pins.toml"
    pins.write_text('[buttons]\nnext = "GPIO4"\n')
    out = dry_run("--gpio-config", str(pins), "--prefix", str(tmp_path / "p")).stdout
    assert f"install -m 0644 {str(pins).replace(' ', chr(92) + ' ')} /etc/longhall/pins.toml" in (
        "\n".join(commands(out))
    )
    assert "--gpio-config /etc/longhall/pins.toml" in written(
        out, "/etc/systemd/system/longhall.service"
    )


def test_mistakes_are_refused_before_anything_happens() -> None:
    for options, says in (
        (["--hotspot", "Longhall", "short"], "8 to 63 characters"),
        (["--hotspot", "x" * 33, "night-of-games"], "at most 32 characters"),
        (["--hotspot", "Longhall"], "needs a name and a password"),
        (["--port", "eighty"], "bad port"),
        (["--prefix", "relative/path"], "absolute path"),
        (["--country", "Germany"], "two letters"),
        (["--gpio-config", "/nowhere.toml"], "no such pin map"),
        (["--frobnicate"], "unknown option"),
    ):
        result = dry_run(*options)
        assert result.returncode == 2, options
        assert says in result.stderr, (options, result.stderr)
        assert "+ " not in result.stdout
