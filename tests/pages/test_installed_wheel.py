"""A wheel built from the checkout serves the whole game on its own.

``./run`` installs the checkout in place; a Pi could as well be given a wheel. Here the wheel is
built from a copy of the checkout, installed with the pinned versions into a new virtual
environment outside it (as ``systemd/install.sh`` installs the lock), and its ``longhall serve``
started from a folder where the checkout cannot be imported: the table display, a phone page,
every language's catalog and every game's page modules must all come from the wheel.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from longhall.server.games.registry import GAMES
from longhall.server.table.envelope import LANGUAGES

from ..support import ROOT, ServerProcess
from .conftest import Watched, open_phone

pytestmark = pytest.mark.slow

# What the wheel carries besides Python modules: the folder in the checkout, and where it lands.
PACKAGE_DATA = {
    "phone_ui": "longhall/phone_ui",
    "table_display": "longhall/table_display",
    "server/static": "longhall/server/static",
}
NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", "test-artifacts", ".*_cache"
)


def run(*args: str | Path, cwd: Path) -> None:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_COPIED)  # the build leaves nothing in the checkout
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", work,
        source, cwd=work)  # fmt: skip
    (built,) = work.glob("longhall-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path) -> Path:
    """A new virtual environment holding the lock's versions and the wheel; its bin folder."""
    venv = wheel.parent / "venv"
    # without a pip of its own (installing one costs 3 s): this pip installs into it
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=wheel.parent)
    pip: list[str | Path] = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python"]
    run(*pip, "install", "--quiet", "--require-hashes", "-r", ROOT / "requirements.lock",
        cwd=wheel.parent)  # fmt: skip
    run(*pip, "install", "--quiet", "--no-deps", wheel, cwd=wheel.parent)
    run(*pip, "check", cwd=wheel.parent)  # the wheel's requirements are all in the lock
    return venv / "bin"


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[ServerProcess]:
    away = tmp_path / "elsewhere"
    away.mkdir()
    proc = ServerProcess(tmp_path, program=[str(installed / "longhall")], cwd=away)
    proc.start()
    yield proc
    proc.stop()


def test_the_wheel_carries_every_page_catalog_and_data_file(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = []
    for folder, package in PACKAGE_DATA.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                name = f"{package}/{path.relative_to(ROOT / folder).as_posix()}"
                missing += [name] if name not in names else []
    for path in (ROOT / "server" / "games").rglob("*.json"):
        name = f"longhall/server/{path.relative_to(ROOT / 'server').as_posix()}"
        missing += [name] if name not in names else []
    missing += [] if "longhall/hardware/pins.toml" in names else ["longhall/hardware/pins.toml"]
    assert not missing, f"the wheel lacks {missing}"
    assert not [n for n in names if n.startswith(("tests/", "bench/", "longhall/tests/"))]


@pytest.mark.slow(seconds=65)  # most of it the wheel and its venv
def test_the_installed_wheel_serves_both_pages_every_catalog_and_every_game(
    installed: Path, served: ServerProcess, browser: Any
) -> None:
    where = subprocess.run(
        [installed / "python", "-c", "import longhall.server; print(longhall.server.__file__)"],
        cwd=served.cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(where).is_relative_to(installed.parent), f"longhall imported from {where}"

    for lang in LANGUAGES:
        catalog = requests.get(f"{served.url}/static/i18n/{lang}.json", timeout=5).json()
        assert set(catalog["games"]) == set(GAMES), (lang, catalog["games"])
        for game in GAMES:  # each game's own words are in the language's one catalog
            own = ROOT / "server" / "static" / "i18n" / game / f"{lang}.json"
            for group in json.loads(own.read_text(encoding="utf-8")):
                assert group in catalog, (lang, game, group)

    table_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(served.url + "/")
    table.page.wait_for_selector("#join-url")
    phone = open_phone(browser, table.page.inner_text("#join-url"), "Anna", "fr")
    for game in GAMES:  # each page module and all it imports, loaded as the pages load them
        for watched, folder in ((table, "table"), (phone, "phone")):
            loaded = watched.page.evaluate(
                "async (url) => (await import(url)).default.id", f"/{folder}/games/{game}.js"
            )
            assert loaded == game
    for watched in (table, phone):
        assert watched.errors == [], watched.errors
        assert "⟦" not in watched.text()  # no word missing from the catalog
    table_context.close()
    phone.page.context.close()
