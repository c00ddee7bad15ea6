"""What an action's fields take: each game declares its actions' fields and their sizes
(``ACTION_SHAPES``), and :func:`check_action_shape` refuses anything else, so that nothing larger
than a move needs is ever accepted, kept in the game's log or written to the store."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .api import Action, IllegalAction


class Field:
    """What an action's field takes: its JSON type and how large it may be. Each game declares
    its actions' fields with these (``ACTION_SHAPES``), so that nothing larger than a move needs
    is ever accepted, kept in the game's log or written to the store."""

    __slots__ = ()

    def fits(self, value: object) -> bool:
        """Whether ``value`` has the right type and size."""
        raise NotImplementedError

    def typed(self, value: object) -> bool:
        """Whether ``value`` has the right type, whatever its size."""
        raise NotImplementedError

    @property
    def most(self) -> int:
        """The largest size (characters, items or absolute value) the field takes."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Text(Field):
    """A string of at most ``longest`` characters (a field's name, a stone, a card)."""

    longest: int = 32

    def fits(self, value: object) -> bool:
        return type(value) is str and len(value) <= self.longest

    def typed(self, value: object) -> bool:
        return type(value) is str

    @property
    def most(self) -> int:
        return self.longest


@dataclass(frozen=True, slots=True)
class Whole(Field):
    """An integer (never a bool) between ``low`` and ``high``: wide enough for every value the
    rules can refuse with their own words, narrow enough that a number of thousands of digits is
    never stored."""

    low: int = -999
    high: int = 999

    def fits(self, value: object) -> bool:
        return type(value) is int and self.low <= value <= self.high

    def typed(self, value: object) -> bool:
        return type(value) is int

    @property
    def most(self) -> int:
        return max(abs(self.low), abs(self.high))


@dataclass(frozen=True, slots=True)
class Flag(Field):
    """``true`` or ``false``."""

    def fits(self, value: object) -> bool:
        return type(value) is bool

    def typed(self, value: object) -> bool:
        return type(value) is bool

    @property
    def most(self) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class Scalar(Field):
    """Any small JSON value (a bool, a number, a short string): for an item whose meaning the
    rules check, and refuse in their own words."""

    longest: int = 16

    def fits(self, value: object) -> bool:
        if isinstance(value, str):
            return len(value) <= self.longest
        if isinstance(value, int) and not isinstance(value, bool):
            return bool(abs(value) < 10**self.longest)
        return type(value) is bool or value is None

    def typed(self, value: object) -> bool:
        return type(value) in (str, int, bool) or value is None

    @property
    def most(self) -> int:
        return self.longest


@dataclass(frozen=True, slots=True)
class Items(Field):
    """A list of at most ``longest`` items, each what ``of`` takes."""

    of: Field
    longest: int

    def fits(self, value: object) -> bool:
        return (
            type(value) is list
            and len(value) <= self.longest
            and all(self.of.fits(item) for item in value)
        )

    def typed(self, value: object) -> bool:
        return type(value) is list and all(self.of.typed(item) for item in value)

    @property
    def most(self) -> int:
        return self.longest


Shapes = Mapping[str, Mapping[str, Field]]


def check_action_shape(action: object, allowed: Shapes) -> Action:
    """Validate an action's JSON shape: a known type and exactly the keys it takes, each of its
    type and size; ``undo`` (which ``legal_actions`` marks a taking back with) only as ``true``."""
    # The common case first, cheaply: every key present and fitting, nothing else.
    if type(action) is dict:
        kind = action.get("type")
        keys = allowed.get(kind) if type(kind) is str else None
        undo = action.get("undo", True)
        if keys is not None and undo is True and len(action) - ("undo" in action) == len(keys) + 1:
            for key, want in keys.items():
                if not want.fits(action.get(key, _MISSING)):
                    break
            else:
                return action
    return _explain_shape(action, allowed)


_MISSING = object()


def _explain_shape(action: object, allowed: Shapes) -> Action:
    """The slow path: find what is wrong with an action and say it."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "An action must be a JSON object.")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("malformed", 'An action needs a "type".')
    keys = allowed.get(kind)
    if keys is None:
        raise IllegalAction(
            "unknown_action", f"There is no action called {kind[:32]!r}.", action=kind[:32]
        )
    for key, value in action.items():
        if key == "type":
            continue
        if key == "undo":
            if value is not True:  # only the mark legal_actions gives: never a payload
                raise IllegalAction(
                    "malformed", f"The action {kind!r} takes undo only as true.", action=kind
                )
            continue
        want = keys.get(key)
        if want is None:
            raise IllegalAction(
                "malformed", f"The action {kind!r} takes no {key[:32]!r}.", action=kind
            )
        if not want.typed(value):
            raise IllegalAction(
                "malformed", f"{key!r} of {kind!r} has the wrong type.", action=kind
            )
        if not want.fits(value):
            raise IllegalAction(
                "field_too_large",
                f"{key!r} of {kind!r} is too large (at most {want.most}).",
                action=kind,
                field=key,
                most=want.most,
            )
    for key in keys:
        if key not in action:
            raise IllegalAction("malformed", f"The action {kind!r} needs {key!r}.", action=kind)
    return action
