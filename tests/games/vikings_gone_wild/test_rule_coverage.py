"""Every rule and ruling of docs/rules/vikings-gone-wild.md is cited by at least one test."""

from __future__ import annotations

import pathlib

from ..rule_coverage import uncited_rules


def test_every_rule_id_is_cited_by_a_test() -> None:
    missing, total = uncited_rules("vikings-gone-wild.md", "W", pathlib.Path(__file__).parent)
    assert total > 80
    assert not missing, f"rules without a test: {missing}"
