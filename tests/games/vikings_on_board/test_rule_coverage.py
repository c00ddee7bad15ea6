"""Every rule and ruling of docs/rules/vikings-on-board.md is cited by at least one test."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_every_rule_id_is_cited_by_a_test() -> None:
    rules = ROOT / "docs" / "rules" / "vikings-on-board.md"
    ids = re.findall(r"^- ((?:V\d+\.\d+)|(?:D\d+)) ", rules.read_text(), flags=re.M)
    assert len(ids) > 40
    tests = "\n".join(
        p.read_text()
        for p in pathlib.Path(__file__).parent.glob("test_*.py")
        if p.name != pathlib.Path(__file__).name
    )
    cited = set(re.findall(r"\b(V\d+\.\d+|D\d+)\b", tests))
    # "V3.1-V3.11" cites the whole range
    for major, first, last in re.findall(r"\bV(\d+)\.(\d+)-V\1\.(\d+)\b", tests):
        cited.update(f"V{major}.{k}" for k in range(int(first), int(last) + 1))
    missing = [rule for rule in ids if rule not in cited]
    assert not missing, f"rules without a test: {missing}"
