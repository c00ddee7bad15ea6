"""Every rule and ruling of docs/rules/eketorp.md is cited by at least one test."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_every_rule_id_is_cited_by_a_test() -> None:
    rules = ROOT / "docs" / "rules" / "eketorp.md"
    ids = re.findall(r"^- ((?:R\d+\.\d+)|(?:D\d+)) ", rules.read_text(), flags=re.M)
    assert len(ids) > 60
    tests = "\n".join(
        p.read_text()
        for p in pathlib.Path(__file__).parent.glob("test_*.py")
        if p.name != pathlib.Path(__file__).name
    )
    cited = set(re.findall(r"\b(R\d+\.\d+|D\d+)\b", tests))
    # "R8.1-R8.4" cites the whole range
    for first, major, last in re.findall(r"\bR(\d+)\.(\d+)-R\1\.(\d+)\b", tests):
        cited.update(f"R{first}.{k}" for k in range(int(major), int(last) + 1))
    missing = [rule for rule in ids if rule not in cited]
    assert not missing, f"rules without a test: {missing}"
