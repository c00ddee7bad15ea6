"""Helpers for the appliance tests: the install script's own templating, and unit files read."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.support import ROOT

SYSTEMD = ROOT / "systemd"
INSTALL = SYSTEMD / "install.sh"
WAIT = SYSTEMD / "wait-for-healthz"


@pytest.fixture
def prefix(tmp_path: Path) -> Path:
    """An install prefix made of real files: its current release is this checkout's scripts and
    this venv's longhall."""
    root = tmp_path / "opt-longhall"
    current = root / "current"
    (current / ".venv" / "bin").mkdir(parents=True)
    longhall = Path(sys.executable).with_name("longhall")
    assert longhall.exists(), "Longhall is not installed in this venv (pip install -e .)"
    (current / ".venv" / "bin" / "longhall").symlink_to(longhall)
    (current / "systemd").symlink_to(SYSTEMD)
    (current / "docs").symlink_to(ROOT / "docs")
    return root


def secret(folder: Path, password: str = "amber-lantern-42") -> str:
    """A file holding a Wi-Fi password, as install.sh --password-file reads it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "wifi-password"
    path.write_text(password + "\n")
    return str(path)


def render(out: Path, prefix: Path, *options: str) -> Path:
    """Fill in the unit templates exactly as the install script does."""
    subprocess.run(
        ["bash", str(INSTALL), "--render", str(out), "--prefix", str(prefix), *options],
        check=True,
        capture_output=True,
        text=True,
    )
    return out


def unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file as {section: {key: [values...]}} (keys may repeat in systemd units)."""
    sections: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    section = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        sections[section][key].append(value)
    return sections


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    assert found, "systemd-analyze is missing: apt install systemd (./run tests does it)"
    return found
