"""The ready image's recipe (a pi-gen stage) cannot be built here; what it runs can be checked:
every shell script is shellcheck-clean, and the stage runs nothing but the release's own
install.sh, whose --no-start mode (an image being built, the first boot) starts nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import ROOT

from .conftest import SYSTEMD
from .test_install import commands, dry_run, written

STAGE = SYSTEMD / "image" / "stage-longhall"


def shell_scripts() -> list[Path]:
    """Every shell script of the project: the installer, the kiosk, the image's recipe, ./run."""
    found = [ROOT / "run"]
    for path in sorted(SYSTEMD.rglob("*")):
        if path.is_file() and path.read_bytes()[:2] == b"#!":
            first = path.read_text(encoding="utf-8").splitlines()[0]
            if first.endswith(("/sh", "bash", "bash -e")):
                found.append(path)
    return found


def test_every_shell_script_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.fail("shellcheck is missing: apt install shellcheck (./run tests does it)")
    scripts = shell_scripts()
    assert {p.name for p in scripts} >= {
        "install.sh", "longhall-kiosk", "kiosk-session", "build-image", "prerun.sh",
        "00-run.sh", "01-run-chroot.sh", "run",
    }  # fmt: skip
    done = subprocess.run(
        [shellcheck, "-x", *map(str, scripts)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout


def test_the_image_runs_only_the_installers_own_steps() -> None:
    lines = [
        line.strip()
        for line in (STAGE / "00-longhall" / "01-run-chroot.sh").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    # unpack the release, run its install.sh (nothing started), clear up: nothing else
    assert lines == [
        "mkdir -p /tmp/longhall-release",
        "tar -xf /tmp/longhall-release.tar -C /tmp/longhall-release",
        "installer=(/tmp/longhall-release/longhall-*/systemd/install.sh)",
        '"${installer[0]}" --no-start --hardware-watchdog 15',
        "rm -rf /tmp/longhall-release /tmp/longhall-release.tar",
    ]
    host = (STAGE / "00-longhall" / "00-run.sh").read_text()
    assert "files/longhall.txt" in host and "/boot/firmware/longhall.txt" in host
    assert (STAGE / "EXPORT_IMAGE").exists()
    config = (SYSTEMD / "image" / "config").read_text()
    assert 'STAGE_LIST="stage0 stage1 stage2 stage-longhall"' in config
    assert "DISABLE_FIRST_BOOT_USER_RENAME=1" in config  # no wizard takes tty1 from the kiosk


def test_with_no_start_nothing_is_started(tmp_path: Path) -> None:
    result = dry_run("--prefix", str(tmp_path / "p"), "--no-start", "--hardware-watchdog", "15")
    assert result.returncode == 0, result.stderr
    steps = commands(result.stdout)
    started = [
        s for s in steps
        if s.startswith(("nmcli", "hostnamectl", "rfkill", "iw "))
        or any(f"systemctl {verb}" in s for verb in (
            "restart", "try-restart", "daemon-reload", "daemon-reexec", "start", "--now"))
    ]  # fmt: skip
    assert started == []
    assert "systemctl enable longhall.service longhall-firstboot.service" in steps
    assert "systemctl enable longhall-kiosk.service" in steps
    assert written(result.stdout, "/etc/hostname") == "longhall\n"
    assert "check " not in "\n".join(steps)  # no server started to check the release either
