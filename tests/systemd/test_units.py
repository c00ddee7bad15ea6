"""The server's and the kiosk's units: they pass systemd-analyze, and they are hardened as meant."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .conftest import SYSTEMD, render, systemd_analyze, unit

UNITS = ("longhall.service", "longhall-kiosk.service")


def verify(units: Path) -> list[str]:
    """What systemd-analyze verify says about our units (it exits 0 even when it complains)."""
    result = subprocess.run(
        [systemd_analyze(), "verify", *(str(units / name) for name in UNITS)],
        capture_output=True,
        text=True,
    )
    said = (result.stdout + result.stderr).splitlines()
    ours = [line for line in said if str(units) in line or "longhall" in line]
    if result.returncode != 0:
        ours.append(f"exit status {result.returncode}")
    return ours


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path, prefix: Path) -> None:
    plain = render(tmp_path / "plain", prefix)
    assert verify(plain) == []
    hotspot = render(tmp_path / "hotspot", prefix, "--hotspot", "Longhall", "night-of-games")
    assert verify(hotspot) == []


def test_verify_would_catch_a_wrong_path_or_a_wrong_setting(tmp_path: Path, prefix: Path) -> None:
    broken = render(tmp_path / "broken", tmp_path / "nowhere")
    assert any("is not executable" in line for line in verify(broken))
    units = render(tmp_path / "typo", prefix)
    server = units / "longhall.service"
    server.write_text(server.read_text().replace("Restart=always", "Restart=allways"))
    assert any("allways" in line for line in verify(units))


def test_the_server_unit_is_hardened_and_can_still_reach_gpio(tmp_path: Path, prefix: Path) -> None:
    units = render(tmp_path / "units", prefix)
    server = unit(units / "longhall.service")
    service = server["Service"]
    assert server["Unit"]["StartLimitIntervalSec"] == ["0"]
    assert service["User"] == ["longhall"] and service["SupplementaryGroups"] == ["gpio"]
    assert service["StateDirectory"] == ["longhall"]
    assert service["WorkingDirectory"] == ["/var/lib/longhall"]  # lgpio's pipe goes here
    assert service["Restart"] == ["always"]
    for key, value in (
        ("ProtectSystem", "strict"),
        ("NoNewPrivileges", "yes"),
        ("PrivateTmp", "yes"),
        ("ProtectHome", "yes"),
        ("CapabilityBoundingSet", ""),
    ):
        assert service[key] == [value], key
    # each of these would close /dev/gpiochip* (ProtectClock= implies a DeviceAllow=)
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "PrivateUsers"):
        assert key not in service, key
    (start,) = service["ExecStart"]
    assert start == (
        f"{prefix}/.venv/bin/longhall serve --port 8000 --gpio auto "
        '--poweroff-command "/usr/bin/systemctl poweroff"'
    )

    # systemd's own measure of exposure (0 to 100): "OK" is below 40; this unit scores far under
    result = subprocess.run(
        [
            systemd_analyze(),
            "security",
            "--offline=yes",
            "--threshold=30",
            str(units / "longhall.service"),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-500:]


def test_with_the_hotspot_the_server_shows_the_wifi_and_the_hotspot_address(
    tmp_path: Path, prefix: Path
) -> None:
    units = render(tmp_path / "units", prefix, "--hotspot", "Longhall", "night-of-games")
    (start,) = unit(units / "longhall.service")["Service"]["ExecStart"]
    assert start.endswith("--hotspot-file /etc/longhall/hotspot --public-url http://10.42.0.1:8000")
    units = render(tmp_path / "port", prefix, "--port", "8080", "--hotspot", "L", "night-of-games")
    (start,) = unit(units / "longhall.service")["Service"]["ExecStart"]
    assert "--port 8080" in start and start.endswith("--public-url http://10.42.0.1:8080")


def test_the_scripts_the_units_run_are_executable() -> None:
    for name in (
        "install.sh",
        "longhall-kiosk",
        "kiosk-session",
        "kiosk-health",
        "invisible-cursor",
        "wait-for-healthz",
    ):
        assert os.access(SYSTEMD / name, os.X_OK), name
