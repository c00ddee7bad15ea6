"""The contract every game engine follows.

A game is a pure, deterministic state machine (OpenSpiel's Game/State, boardgame.io's game object):

- ``spec.new(config, seed)`` creates a state; ``spec.from_dict(d)`` restores one from plain JSON.
- ``state.active_seats()`` lists the seats whose input the game is waiting for.
  ``state.legal_actions(seat)`` lists what that seat may do now, in a stable order;
  ``state.legal_actions(None)`` lists what *the table* may do (a step no single player owns, such as
  revealing the plans once everyone has committed: the table display's NEXT button or any player).
- ``state.apply(seat, action)`` validates and applies one action; an illegal or malformed one raises
  :class:`IllegalAction` and leaves the state untouched.
- ``state.is_over()``, ``state.scores()`` (with a per-category breakdown) and ``state.winners()``.
- ``spec.view(state, seat)`` is the only way state leaves the engine: everything that seat may know
  (``seat=None``: the table display and spectators) and nothing else.
  Its ``public`` part is the same for every reader: ``spec.public_view(state)``, which the server
  computes once per version and hands to ``spec.view(state, seat, public)`` for every seat.

Actions are small JSON objects with a ``"type"``. Actions that only take back an earlier choice
(un-commit, take a viking back) carry ``"undo": True`` in ``legal_actions`` so that random bots can
skip them and still finish a game.

A state also exposes ``players``, ``version`` (actions applied so far), ``phase`` (a short name the
pages and the hardware show) and ``round``, and ``spec.commitments(state)`` lists the secret choices
that seats have committed to but that are not revealed yet (Eketorp's plans, a chosen combat card):
the server publishes a salted fingerprint of each while it is secret and the salt once it is
revealed, so anyone can check that nobody changed a choice after committing to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

Action = dict[str, Any]
Seat = int | None
JSON = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules do not allow, with a stable code, an English sentence and parameters.

    The code is what clients match on and what the translation catalogs are keyed by
    (``errors.<code>``); ``params`` fill the placeholders of the translated sentence.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def to_dict(self) -> JSON:
        """Return the error as JSON for a client."""
        return {"code": self.code, "message": self.message, "params": self.params}


class GameState(Protocol):
    """What the server, the bots and the tests need from a running game."""

    def active_seats(self) -> list[int]: ...

    def legal_actions(self, seat: Seat) -> list[Action]: ...

    def apply(self, seat: Seat, action: Action) -> None: ...

    def is_over(self) -> bool: ...

    def scores(self) -> list[JSON]: ...

    def winners(self) -> list[int]: ...

    def to_dict(self) -> JSON: ...

    def clone(self) -> GameState: ...

    @property
    def players(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def round(self) -> int: ...


class Bot(Protocol):
    """A bot picks one of the legal actions for its seat."""

    def choose(self, state: Any, seat: int) -> Action: ...


BotFactory = Callable[[int], Bot]


class ViewFunction(Protocol):
    """``view(state, seat, public=None)``: what ``seat`` may know; ``public``, when given, is
    ``public_view(state)`` already computed (once per version for all readers)."""

    def __call__(self, state: Any, seat: Seat, public: JSON | None = None, /) -> JSON: ...


@dataclass(frozen=True)
class GameSpec:
    """Everything the hub needs to know about one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    new: Callable[[Mapping[str, Any], int], GameState]
    from_dict: Callable[[Mapping[str, Any]], GameState]
    view: ViewFunction
    # the ``public`` part of every reader's view (the same for all of them)
    public_view: Callable[[Any], JSON]
    bots: Mapping[str, BotFactory]
    # For the conformance tests: a copy of the state in which everything hidden from ``seat``
    # (other hands, the draw pile's order, unrevealed choices, the RNG) is drawn again.
    resample_hidden: Callable[[Any, Seat, random.Random], Any]
    # For the conformance tests: a list of broken invariants (conservation of pieces, bounds).
    check_invariants: Callable[[Any], list[str]]
    # Secret choices committed but not yet revealed, by seat (see the module's docstring).
    commitments: Callable[[Any], dict[int, Any]] = field(default=lambda state: {})
    # What the table keeps from a game for its next ones, as lobby options of the same name,
    # each a mapping merged entry by entry (Vikings Gone Wild: the card numbers entered, D1).
    kept: Callable[[Any], dict[str, dict[str, Any]]] = field(default=lambda state: {})


def check_config(
    config: object, known: set[str], title: str, players: tuple[int, int], rule: str = ""
) -> int:
    """Check a game config's common part (an object, known settings, the player count);
    return the number of players or raise ``bad_config`` / ``bad_players``."""
    if not isinstance(config, Mapping):
        raise IllegalAction("bad_config", "The game settings must be an object.")
    unknown = sorted(set(config) - known)
    if unknown:
        raise IllegalAction(
            "bad_config", f"Unknown game setting {unknown[0]!r}.", reason=unknown[0]
        )
    n = config.get("players")
    low, high = players
    if type(n) is not int or not low <= n <= high:
        cite = f" ({rule})" if rule else ""
        raise IllegalAction(
            "bad_players", f"{title} is for {low} to {high} players{cite}.", min=low, max=high
        )
    return n


def progress_actions(actions: list[Action]) -> list[Action]:
    """Return the actions that move the game forward (drop the ones that only undo a choice)."""
    return [a for a in actions if not a.get("undo")]


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
