"""The JSON encoders made once (the store's, the packets', the digests') write exactly what
``json.dumps`` writes."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from longhall.server.store.store import dumps
from longhall.server.table.state import digest
from longhall.server.web.events import json_size
from longhall.server.web.transport.packets import PacketJson

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and the infinities included: json.dumps writes them as JavaScript does
    st.text(),  # quotes, control characters, every plane of Unicode
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_every_encoder_writes_what_json_dumps_writes(value: Any) -> None:
    compact = (",", ":")
    assert dumps(value) == json.dumps(value, separators=compact, sort_keys=True)
    assert PacketJson.dumps(value, separators=compact) == json.dumps(value, separators=compact)
    text = json.dumps(value, separators=compact, ensure_ascii=False)
    assert json_size(value) == len(text.encode("utf-8", "surrogatepass"))
    expected = json.dumps(value, sort_keys=True)
    assert digest(value) == hashlib.sha256(expected.encode()).hexdigest()[:16]


def test_what_json_cannot_hold_is_refused_as_json_dumps_refuses_it() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps({"a": object()})
    with pytest.raises(TypeError, match="not JSON serializable"):
        PacketJson.dumps([{1, 2}], separators=(",", ":"))
