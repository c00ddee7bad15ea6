"""Which rules of a rules digest the tests of a game cite (``# R5.15``, ``# V3.2``, ``# D4``)."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def uncited_rules(digest: str, prefix: str, tests: pathlib.Path) -> tuple[list[str], int]:
    """Return the rule IDs of ``docs/rules/<digest>`` no test in ``tests`` cites, and how many
    rules the digest has. ``prefix`` is the game's rule letter (R, V); rulings are D."""
    text = (ROOT / "docs" / "rules" / digest).read_text(encoding="utf-8")
    ids = re.findall(rf"^- ((?:{prefix}\d+\.\d+)|(?:D\d+)) ", text, flags=re.M)
    source = "\n".join(
        p.read_text(encoding="utf-8")
        for p in tests.glob("test_*.py")
        if p.name != "test_rule_coverage.py"
    )
    cited = set(re.findall(rf"\b({prefix}\d+\.\d+|D\d+)\b", source))
    # "R8.1-R8.4" cites the whole range
    for major, first, last in re.findall(rf"\b{prefix}(\d+)\.(\d+)-{prefix}\1\.(\d+)\b", source):
        cited.update(f"{prefix}{major}.{k}" for k in range(int(first), int(last) + 1))
    return [rule for rule in ids if rule not in cited], len(ids)
