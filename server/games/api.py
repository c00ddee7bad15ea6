"""The contract every game engine follows (what the whole of a game declares is
:class:`~.spec.GameSpec`).

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

from collections.abc import Callable, Mapping
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

    # the game's public events, oldest first, appended to and never rewritten: what the log on
    # the table display tells, and what a take-back of a move says it undid
    log: list[JSON]


class Bot(Protocol):
    """A bot picks one of the legal actions for its seat."""

    def choose(self, state: Any, seat: int) -> Action: ...


BotFactory = Callable[[int], Bot]


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
