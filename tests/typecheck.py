"""mypy over the whole project, with each folder checked under the name it is installed as.

``server/`` is installed as ``longhall.server`` and ``hardware/`` as ``longhall.hardware``
(``[tool.setuptools]`` in pyproject.toml). mypy names a file after the folders it sits in, and
cannot follow setuptools' mapping or an editable install's import hook, so this hands it every
file with its module name through mypy's build API (``mypy.build.build`` with ``BuildSource``),
the one place Longhall relies on more than mypy's command line: mypy is pinned in
``requirements-tests.lock``, and this script runs on every ``./run tests``.

Run: ``.venv/bin/python -m tests.typecheck`` (the options are ``[tool.mypy]``'s).
"""

from __future__ import annotations

import sys
from pathlib import Path

from mypy import build
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent.parent
INSTALLED_AS = {"server": "longhall.server", "hardware": "longhall.hardware"}
CHECKED_AS_THEY_ARE = ("tests", "bench")


def sources() -> list[BuildSource]:
    """Every file of the project, named as Python imports it."""
    found = [BuildSource(None, "longhall", text="")]  # the namespace both folders share
    for folder, package in INSTALLED_AS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.append(BuildSource(str(path.relative_to(ROOT)), ".".join((package, *parts))))
    return found


def main() -> int:
    files, options = process_options(
        [*CHECKED_AS_THEY_ARE, "--config-file", str(ROOT / "pyproject.toml")]
    )
    ours = [*files, *sources()]
    result = build.build(ours, options)
    for line in result.errors:
        print(line)
    if result.errors:
        print(f"mypy: {len(result.errors)} problems", file=sys.stderr)
        return 1
    print(f"mypy: no issues in {len(ours) - 1} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
