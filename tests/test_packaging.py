"""Longhall is one distribution, installed as ``longhall.*`` from the design's own folders."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_folders_are_the_packages_without_links() -> None:
    """No links and no second name: each package is its folder, and the design's top level
    stays as it is."""
    assert not (ROOT / "longhall").exists()
    links = [p for p in ROOT.rglob("*") if p.is_symlink() and ".venv" not in p.parts]
    assert not links, links
    for folder in ("server", "phone_ui", "table_display", "hardware", "tests", "systemd"):
        assert (ROOT / folder).is_dir(), folder
