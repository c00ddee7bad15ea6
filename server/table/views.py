"""Each reader's view of the game, made once per version and copied as the wire carries it.

``spec.view`` is the only way game state leaves an engine. A view sent to a room must stay as it
was until the next patch is made against it, but an engine's view may share parts of its state
that the next action changes in place: each view is copied. :func:`freeze` copies only what
changed since the reader's last copy and takes the rest, equal and never changed in place, from
that copy, so the patch that follows finds most of the view the very same object as before
(``messages.py``: ``is`` before ``==``) and compares almost nothing.
"""

from __future__ import annotations

import json
from typing import Any

from ..games.api import JSON, GameState
from ..games.spec import GameSpec


class Views:
    """The views of one version of the game, each computed once for everyone who needs it."""

    def __init__(self) -> None:
        self._version = -1
        self._views: dict[int | None, JSON] = {}
        self._public: JSON | None = None  # the public part of every view of that version
        # each reader's last view (and "public": the public part), which the next copy shares
        self._last: dict[int | str | None, JSON] = {}

    def view(self, spec: GameSpec, game: GameState, version: int, seat: int | None) -> JSON:
        """``spec.view`` of ``game`` at ``version`` for one reader (None: the table display)."""
        if self._version != version:
            self._version = version
            self._views = {}
            self._public = None
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._frozen(spec, game, seat)
        return view

    def _frozen(self, spec: GameSpec, game: GameState, seat: int | None) -> JSON:
        """A seat's view as the wire carries it. The public part every view holds is computed
        and copied once per version and shared, so that it is also compared once per patch."""
        if self._public is None:
            self._public = freeze(spec.public_view(game), self._last.get("public"))
            self._last["public"] = self._public
        public = self._public
        raw = spec.view(game, seat, public)
        rest = {key: value for key, value in raw.items() if key != "public"}
        rest = self._last[seat] = freeze(rest, self._last.get(seat))
        return {key: public if key == "public" else rest[key] for key in raw}


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
