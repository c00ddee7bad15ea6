"""The server's and the kiosk's units: they pass systemd-analyze, and they are hardened as meant."""

from __future__ import annotations

import os
import stat
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


def test_the_kiosk_waits_for_the_server_and_restarts_chromium(tmp_path: Path, prefix: Path) -> None:
    units = render(tmp_path / "units", prefix, "--port", "8080")
    kiosk = unit(units / "longhall-kiosk.service")
    service = kiosk["Service"]
    assert service["ExecStartPre"] == [
        f"/usr/bin/python3 {prefix}/systemd/wait-for-healthz http://127.0.0.1:8080/healthz"
    ]
    assert service["TimeoutStartSec"] == ["infinity"]  # wait as long as the server needs
    assert service["ExecStart"] == [f"{prefix}/systemd/longhall-kiosk http://127.0.0.1:8080/"]
    assert service["Restart"] == ["always"] and kiosk["Unit"]["StartLimitIntervalSec"] == ["0"]
    assert service["TTYPath"] == ["/dev/tty1"] and service["PAMName"] == ["longhall-kiosk"]
    assert kiosk["Unit"]["Conflicts"] == ["getty@tty1.service"]
    assert "longhall.service" in kiosk["Unit"]["After"][0].split()


def test_the_kiosk_starts_chromium_full_screen_in_cage(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # the only PATH: stand-ins for cage and Chromium
    bin_dir.mkdir()
    log = tmp_path / "cage.args"
    for name, body in (
        ("cage", f'#!/bin/sh\nprintf "%s\\n" "$@" > {log}\n'),
        ("chromium-browser", "#!/bin/sh\n"),
        ("chromium", "#!/bin/sh\n"),
    ):
        path = bin_dir / name
        path.write_text(body)
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    kiosk = [str(SYSTEMD / "longhall-kiosk"), "http://127.0.0.1:8080/"]

    subprocess.run(kiosk, env=env, check=True)
    args = log.read_text().splitlines()
    assert args[:4] == ["-d", "-s", "--", str(bin_dir / "chromium-browser")]  # Raspberry Pi OS
    assert "--kiosk" in args and "--ozone-platform=wayland" in args
    assert f"--user-data-dir={tmp_path}/chromium" in args
    assert args[-1] == "http://127.0.0.1:8080/"

    (bin_dir / "chromium-browser").unlink()
    subprocess.run(kiosk, env=env, check=True)
    assert log.read_text().splitlines()[3] == str(bin_dir / "chromium")  # Debian

    (bin_dir / "chromium").unlink()
    gone = subprocess.run(kiosk, env=env, capture_output=True, text=True)
    assert gone.returncode == 1 and "no Chromium found" in gone.stderr


def test_the_scripts_the_units_run_are_executable() -> None:
    for name in ("install.sh", "longhall-kiosk", "wait-for-healthz"):
        assert os.access(SYSTEMD / name, os.X_OK), name
