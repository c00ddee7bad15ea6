"""The server's and the kiosk's units: they pass systemd-analyze, and they are hardened as meant."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .conftest import SYSTEMD, render, systemd_analyze, unit
from .test_install import FRESH_DEBIAN as FRESH

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
    hotspot = render(tmp_path / "hotspot", prefix, "--hotspot", "Longhall")
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
    # never the first killed when memory runs out; time for a Zero 2 W's first start
    assert service["OOMScoreAdjust"] == ["-900"] and service["TimeoutStartSec"] == ["5min"]
    assert "After" not in server["Unit"] or not any(
        "network-online" in a for a in server["Unit"]["After"]
    )  # boot does not wait for the network: the server follows the Pi's addresses
    (start,) = service["ExecStart"]
    assert start == (
        f"{prefix}/current/.venv/bin/longhall serve --port 8000 --gpio auto "
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
    units = render(tmp_path / "units", prefix, "--hotspot", "Longhall")
    (start,) = unit(units / "longhall.service")["Service"]["ExecStart"]
    assert start.endswith("--hotspot-file /etc/longhall/hotspot --public-url http://10.42.0.1:8000")
    units = render(tmp_path / "port", prefix, "--port", "8080", "--hotspot", "L")
    (start,) = unit(units / "longhall.service")["Service"]["ExecStart"]
    assert "--port 8080" in start and start.endswith("--public-url http://10.42.0.1:8080")


def test_the_kiosk_gives_way_to_the_server_when_memory_runs_out(
    tmp_path: Path, prefix: Path
) -> None:
    kiosk = unit(render(tmp_path / "units", prefix) / "longhall-kiosk.service")["Service"]
    assert int(kiosk["OOMScoreAdjust"][0]) > 0 and kiosk["MemoryHigh"] == ["70%"]
    assert "StateDirectory" not in kiosk  # nothing of the kiosk's on the SD card


def test_the_expert_bots_budget_is_the_server_s_unless_the_host_sets_one(tmp_path: Path) -> None:
    # the server fits the budget to the board (tests/games/test_expert.py); the unit carries a
    # number only when the host chose one
    from .test_install import dry_run, written

    for model in ("Raspberry Pi Zero 2 W Rev 1.0", "Raspberry Pi 4 Model B Rev 1.5"):
        root = tmp_path / model.replace(" ", "-")
        (root / "proc" / "device-tree").mkdir(parents=True)
        (root / "proc" / "device-tree" / "model").write_text(model + "\0")
        out = dry_run(
            "--prefix", str(tmp_path / "p"), env={"LONGHALL_SYSROOT": str(root), **FRESH}
        ).stdout
        service = written(out, f"{root}/etc/systemd/system/longhall.service")
        (environment,) = [x for x in service.splitlines() if x.startswith("Environment=")]
        assert environment == "Environment=PYTHONUNBUFFERED=1", model
    out = dry_run("--prefix", str(tmp_path / "p"), "--expert-playouts", "20").stdout
    assert "LONGHALL_EXPERT_PLAYOUTS=20" in written(out, "/etc/systemd/system/longhall.service")


def test_a_board_under_1_gb_gets_no_kiosk_unless_asked(tmp_path: Path) -> None:
    from .test_install import commands, dry_run

    root = tmp_path / "zero"
    (root / "proc").mkdir(parents=True)
    (root / "proc" / "meminfo").write_text("MemTotal:         427092 kB\nMemFree: 1 kB\n")
    env = {"LONGHALL_SYSROOT": str(root), **FRESH}
    out = dry_run("--prefix", str(tmp_path / "p"), env=env).stdout
    assert "less than the 1 GB" in out and "--kiosk puts it there anyway" in out
    assert "longhall-kiosk.service (mode" not in "\n".join(commands(out))
    asked = dry_run("--prefix", str(tmp_path / "p"), "--kiosk", env=env).stdout
    assert f"write {root}/etc/systemd/system/longhall-kiosk.service" in "\n".join(commands(asked))


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
