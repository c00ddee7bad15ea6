"""The lock files: every dependency pinned with its hashes, the tests' lock serving with the very
versions the server's lock pins (./run and systemd/install.sh install from them).

To change a version: edit pyproject.toml if need be, then, with pip-tools,

    pip-compile --generate-hashes --strip-extras --allow-unsafe --no-header \\
        --no-emit-index-url --no-emit-find-links -o requirements.lock pyproject.toml
    pip-compile --generate-hashes --strip-extras --allow-unsafe --no-header \\
        --no-emit-index-url --no-emit-find-links --extra test \\
        -o requirements-tests.lock pyproject.toml

and run every test.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
SERVE, TESTS = ROOT / "requirements.lock", ROOT / "requirements-tests.lock"


def entries(lock: Path) -> dict[str, tuple[str, list[str]]]:
    """Each package a lock pins: its version and its hashes."""
    found = {}
    for block in re.split(r"\n(?=\S)", lock.read_text()):
        head = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", block)
        if head:
            found[head[1].lower()] = (head[2], re.findall(r"--hash=sha256:([0-9a-f]{64})", block))
    return found


def test_every_pin_has_its_hashes() -> None:
    for lock in (SERVE, TESTS):
        for name, (_, hashes) in entries(lock).items():
            assert hashes, f"{lock.name}: {name} has no hash"


def test_the_locks_name_no_package_index() -> None:
    """Where pip finds the files is the installing machine's own setting (pip.conf): a Pi has
    PyPI, not the mirrors of the machine that wrote the lock. The hashes keep the files exact."""
    for lock in (SERVE, TESTS):
        options = [line for line in lock.read_text().splitlines() if line.startswith("-")]
        assert not options, f"{lock.name} names where to install from: {options}"


def test_the_tests_run_with_the_versions_the_server_is_installed_with() -> None:
    serve, tests = entries(SERVE), entries(TESTS)
    for name, (pin, _) in serve.items():
        assert tests.get(name, ("missing",))[0] == pin, (name, pin, tests.get(name))


def test_every_dependency_is_pinned_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for lock, wanted in (
        (SERVE, project["dependencies"]),
        (TESTS, [*project["dependencies"], *project["optional-dependencies"]["test"]]),
    ):
        pins = entries(lock)
        for line in wanted:
            need = Requirement(line)
            pin = pins[need.name.lower()][0]
            assert need.specifier.contains(pin, prereleases=True), (lock.name, line, pin)
