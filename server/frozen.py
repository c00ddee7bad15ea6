"""Copies of views that share what did not change with the copy made for the version before.

A view sent to a room must stay as it was until the next patch is made against it, but an
engine's view may share parts of its state that the next action changes in place: each view is
copied. Copying the whole view (a JSON round trip) cost more than anything else the table does
per change; :func:`freeze` copies only what changed since the last copy and takes the rest, equal
and never changed in place, from that copy. The patch that follows then finds most of the view
the very same object as before (``server/messages.py``: ``is`` before ``==``), and compares
almost nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from json import encoder as _json_encoder
from typing import Any

# The JSON types a view is made of, kept as they are (immutable, or copied below).
_SCALARS = (str, int, float, bool, type(None))


def freeze(new: Any, old: Any = None) -> Any:
    """A copy of the JSON value ``new`` that no later change to ``new`` can reach, sharing with
    ``old`` (a value :func:`freeze` returned before, never changed since) every part equal to
    it. As after a JSON round trip: tuples become lists; a dict whose keys are not all strings is
    copied through JSON (which makes its keys strings)."""
    kind = type(new)
    if kind is dict:
        if type(old) is not dict:
            old = _EMPTY
        out = {}
        for key, value in new.items():
            if type(key) is not str:
                return _round_trip(new)
            if type(value) in _SCALARS:
                out[key] = value
                continue
            before = old.get(key, _MISSING)
            if before is value or (type(before) is type(value) and before == value):
                out[key] = before  # the same as last time: the earlier copy
            else:
                out[key] = freeze(value, before)
        return out
    if kind is list or kind is tuple:
        if type(old) is not list:
            old = _EMPTY_LIST
        last = len(old)
        shift = _shift(old, new) if last and new else 0
        result = []
        for index, value in enumerate(new):
            if type(value) in _SCALARS:
                result.append(value)
                continue
            at = index + shift
            before = old[at] if at < last else _MISSING
            if before is value or (type(before) is type(value) and before == value):
                result.append(before)
            else:
                result.append(freeze(value, before))
        return result
    if kind in _SCALARS:
        return new
    return _round_trip(new)  # anything else (an enum, a subclass): as JSON has it


def _shift(old: list[Any], new: Any) -> int:
    """How many entries a list lost at its start (a log that keeps its last entries): where in
    ``old`` the first entry of ``new`` is, if not first."""
    first = new[0]
    if type(first) in _SCALARS or _equal(old[0], first):
        return 0
    for at in range(1, len(old)):
        if _equal(old[at], first):
            return at
    return 0


def _equal(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value, separators=(",", ":")))


class _Missing:
    """Nothing was there last time (never equal to a JSON value)."""


_MISSING = _Missing()
_EMPTY: dict[str, Any] = {}
_EMPTY_LIST: list[Any] = []


def dumper(
    separators: tuple[str, str] = (",", ":"), sort_keys: bool = False, ensure_ascii: bool = True
) -> Callable[[Any], str]:
    """``json.dumps`` with these settings, made once: the same text, without building a
    ``JSONEncoder`` and its C encoder again for every call (a third of the cost of encoding a
    patch of a few hundred bytes, and the server encodes a dozen values per command).

    Unlike ``json.dumps``, it does not look for reference cycles (a cycle ends in
    ``RecursionError``, not ``ValueError``): the values it gets are JSON read from the wire or
    built from it, which has none."""
    kwargs: dict[str, Any] = {
        "separators": separators,
        "sort_keys": sort_keys,
        "ensure_ascii": ensure_ascii,
    }
    make = getattr(_json_encoder, "c_make_encoder", None)  # untyped in the stubs
    if make is None:  # a Python without json's C speedups
        return partial(json.dumps, **kwargs)
    encode = make(
        None,  # no cycle check: the markers would be shared between calls and threads
        json.JSONEncoder().default,  # a value JSON cannot hold: the same TypeError
        _json_encoder.encode_basestring_ascii if ensure_ascii else _json_encoder.encode_basestring,
        None,  # no indent
        separators[1],
        separators[0],
        sort_keys,
        False,  # skipkeys
        True,  # allow_nan
    )

    def dumps(value: Any) -> str:
        return "".join(encode(value, 0))

    return dumps
