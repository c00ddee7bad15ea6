"""Longhall is one distribution, installed as ``longhall.*`` from the design's own folders."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PROJECT["tool"]["setuptools"]


def test_every_package_folder_is_installed() -> None:
    """setuptools installs only the packages it is told of: a new folder of server/ or
    hardware/ missing from pyproject.toml would be left out of every install."""
    expected = {"longhall.phone_ui", "longhall.table_display"}
    for package, folder in SETUPTOOLS["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            expected.add(".".join((package, *parts)))
    assert set(SETUPTOOLS["packages"]) == expected


def test_the_folders_keep_the_design_s_top_level() -> None:
    """No links and no second name: each package is its folder."""
    assert not (ROOT / "longhall").exists()
    assert SETUPTOOLS["package-dir"] == {
        "longhall.server": "server",
        "longhall.hardware": "hardware",
        "longhall.phone_ui": "phone_ui",
        "longhall.table_display": "table_display",
    }
    links = [p for p in ROOT.rglob("*") if p.is_symlink() and ".venv" not in p.parts]
    assert not links, links
