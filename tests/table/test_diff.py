"""The patches' diff (server/messages.py): applied as the pages apply it, the ops turn any old
message into exactly the new one, and a list that dropped its oldest entries or one entry in its
middle costs a few ops, not the whole list."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from longhall.server.table.messages import diff

from ..support import apply_patch

# The diff compares unchanged parts with Python's == (at C speed), which holds true equal to 1 and
# 1.0 equal to 1. The views keep each place's JSON type from one version to the next (a flag stays
# a flag, a count a count), which test_patches.py checks on whole games; so the values drawn here
# never put true where 1 stood, or 1.0 where 1 stood.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3).filter(lambda n: n not in (0, 1)),
    st.sampled_from([0.5, 2.5]),
    st.text("ab", max_size=2),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.sampled_from("abcd"), inner, max_size=4)
    ),
    max_leaves=20,
)


def ops_for(old: Any, new: Any) -> list[Any]:
    ops: list[Any] = []
    diff(old, new, [], ops, {})
    return ops


def same_json(a: Any, b: Any) -> bool:
    # JSON tells true from 1 and 1.0 from 1: compare as the wire carries them
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(old=values, new=values)
def test_the_ops_rebuild_the_new_message(old: Any, new: Any) -> None:
    assert same_json(apply_patch(old, ops_for(old, new)), new)


@settings(max_examples=200, deadline=None)
@given(
    head=st.lists(values, max_size=4),
    dropped=st.lists(values, min_size=1, max_size=3),
    tail=st.lists(values, max_size=5),
    added=st.lists(values, max_size=3),
)
def test_a_list_that_drops_entries_in_its_middle_rebuilds(
    head: list[Any], dropped: list[Any], tail: list[Any], added: list[Any]
) -> None:
    old = {"log": [*head, *dropped, *tail]}
    new = {"log": [*head, *tail, *added]}
    assert same_json(apply_patch(old, ops_for(old, new)), new)


def test_the_oldest_single_reveal_dropped_costs_one_delete_and_one_set() -> None:
    """The table's reveals: the round's batch first, then the last few single reveals; a new
    single reveal drops the oldest of those from the middle of the list."""
    batch = [{"seat": s, "salt": f"salt-{s}" * 4, "together": True} for s in range(6)]
    single = [{"seat": s, "salt": f"card-{s}" * 4, "together": False} for s in range(7)]
    old = {"reveals": batch + single[:6]}
    new = {"reveals": batch + single[1:]}
    ops = ops_for(old, new)
    assert ops == [[["reveals", 6]], [["reveals", 11], single[6]]]
    assert apply_patch(old, ops) == new


def test_one_changed_entry_of_a_list_of_objects_is_patched_alone() -> None:
    seats = [{"seat": s, "hand": 4, "score": {"total": s}} for s in range(6)]
    changed = [dict(s) for s in seats]
    for s in (1, 2, 3, 4):
        changed[s] = {**changed[s], "hand": 3}
    ops = ops_for({"seats": seats}, {"seats": changed})
    assert ops == [[["seats", s, "hand"], 3] for s in (1, 2, 3, 4)]
