"""Comparing game states in tests: a thinking copy's and the full engine's."""

from __future__ import annotations

from typing import Any

from longhall.server.games.phased import PhasedState
from longhall.server.games.playout import NullLog


def comparable(st: PhasedState) -> dict[str, Any]:
    """The state as JSON without its log (for comparing a thinking copy with the full engine)."""
    out = st.to_dict() if not isinstance(st.log, NullLog) else _dict_without_log(st)
    out.pop("log", None)
    return out


def _dict_without_log(st: PhasedState) -> dict[str, Any]:
    saved = st.log
    st.log = []  # type: ignore[misc]
    try:
        return st.to_dict()
    finally:
        st.log = saved  # type: ignore[misc]
