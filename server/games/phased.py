"""What every game engine shares: a phase table and a plain-data state driven by it.

A game declares its phases in one table (who acts, what they may do, what may follow) and a state
class listing its fields once. This module does the rest the same way for every game: routing an
action to its phase's handler after checking its shape and who sent it, the transitions, the
public log, and the JSON round trip. Handlers validate everything before they change anything,
so an illegal action leaves the state exactly as it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from .api import Action, IllegalAction, Seat
from .rng import Rng
from .shapes import Shapes, check_action_shape

S = TypeVar("S", bound="PhasedState")
Handler = Callable[[S, Seat, Action], None]


def _nobody(st: Any) -> list[int]:
    return []


def _nothing(st: Any, seat: int) -> list[Action]:
    return []


def _stay(st: Any) -> str | None:
    return None


@dataclass(frozen=True)
class Phase(Generic[S]):
    """One step of a game: its rules, who acts, what they may do, what may come next.

    ``enter`` runs when the game arrives in the phase; it may resolve automatic steps and return
    the next phase at once. ``legal`` lists what a seat may do; it is asked only about seats
    among ``actors``, unless the phase has ``always``: actions a seat may send even when the game
    is not waiting for it (simultaneous phases: un-commit, build). ``table_actions`` are what the
    table itself may do (the NEXT button, any player, a timer), handled by ``table_handlers``.
    """

    name: str
    rules: str
    follows: tuple[str, ...]
    enter: Callable[[S], str | None] = _stay
    actors: Callable[[S], list[int]] = _nobody
    legal: Callable[[S, int], list[Action]] = _nothing
    handlers: Mapping[str, Handler[S]] = field(default_factory=dict)
    always: frozenset[str] = frozenset()
    table_actions: tuple[str, ...] = ()
    table_handlers: Mapping[str, Handler[S]] = field(default_factory=dict)


class PhasedState:
    """A game state of plain JSON data (and one Rng), driven by the class's phase table.

    Subclasses set ``game``, ``title``, ``FIELDS_ORDER`` (every attribute, in the order the JSON
    lists them; ``rng`` among them), ``ACTION_SHAPES`` and, once the phase table exists,
    ``PHASES``. They keep ``n`` (players), ``version``, ``phase``, ``round`` and ``log``.
    """

    __slots__ = ()

    game: ClassVar[str]
    title: ClassVar[str]
    FIELDS_ORDER: ClassVar[tuple[str, ...]]
    ACTION_SHAPES: ClassVar[Shapes]
    PHASES: ClassVar[Mapping[str, Phase[Any]]]
    LOG_ROUND: ClassVar[str] = "round"  # the key the log uses for the round (or turn) number
    # what the host may do as the table in any phase (a correction of what the game keeps), apart
    # from NEXT: never listed among the table's actions, and declared in the game's spec
    HOST_ACTIONS: ClassVar[Mapping[str, Handler[Any]]] = {}
    # fields added after games were stored, each with the value such an older game has
    LATER_FIELDS: ClassVar[Mapping[str, Any]] = {}

    n: int
    version: int
    phase: str
    round: int
    log: list[dict[str, Any]]
    rng: Rng

    # -- the API -------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def active_seats(self) -> list[int]:
        """Return the seats whose input the game is waiting for."""
        return self.PHASES[self.phase].actors(self)

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Return what ``seat`` may do now (``None``: the table), in a stable order."""
        phase = self.PHASES[self.phase]
        if seat is None:
            return [{"type": kind} for kind in phase.table_actions]
        if type(seat) is not int or not 0 <= seat < self.n:  # not a seat
            return []
        if not phase.always and seat not in phase.actors(self):
            return []
        return phase.legal(self, seat)

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply one action of ``seat`` (``None``: the table) or raise :class:`IllegalAction`."""
        check_action_shape(action, self.ACTION_SHAPES)
        kind = action["type"]
        if self.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        phase = self.PHASES[self.phase]
        logged = len(self.log)
        if seat is None and kind in self.HOST_ACTIONS:
            handler = self.HOST_ACTIONS[kind]
        elif seat is None:
            on_table = phase.table_handlers.get(kind)
            if on_table is None:
                raise IllegalAction(
                    "not_table_action", "The table cannot do that now.", action=kind
                )
            handler = on_table
            waiting = phase.actors(self)
            if waiting:  # the host moved on: what these seats had left comes to nothing
                self.record("moved_on", seats=waiting)
        else:
            if type(seat) is not int or not 0 <= seat < self.n:
                raise IllegalAction("no_such_seat", "There is no such seat.")
            if kind in phase.table_actions:
                raise IllegalAction(
                    "table_action", "That is done at the table (NEXT button).", action=kind
                )
            found = phase.handlers.get(kind)
            if found is None:
                raise IllegalAction(
                    "wrong_phase",
                    f"That is not possible in the {self.phase} phase.",
                    action=kind,
                    phase=self.phase,
                )
            if kind not in phase.always and seat not in phase.actors(self):
                raise IllegalAction("not_your_turn", "It is not your turn.", action=kind)
            handler = found
        try:
            handler(self, seat, action)
        except IllegalAction:
            del self.log[logged:]  # refused: nothing changed, the log included
            raise
        self.version += 1  # type: ignore[misc]  # a slot of every subclass

    def is_over(self) -> bool:
        return self.phase == "over"

    # -- transitions ---------------------------------------------------------------------------

    def goto(self, phase: str | None) -> None:
        """Enter ``phase``; its entry may resolve automatic steps and move on at once."""
        while phase is not None:
            if phase not in self.PHASES[self.phase].follows and phase != self.phase:
                raise AssertionError(f"undeclared transition {self.phase} -> {phase}")
            self.phase = phase  # type: ignore[misc]  # a slot of every subclass
            phase = self.PHASES[phase].enter(self)

    def record(self, event: str, **data: Any) -> None:
        """Append a public event to the game's log (shown in words on the table display)."""
        data["e"] = event
        data[self.LOG_ROUND] = self.round
        self.log.append(data)

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as plain JSON (the RNG as its integer state)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in self.FIELDS_ORDER}
        out["rng"] = self.rng.state
        out = deep_copy(out)
        out["game"] = self.game
        return out

    @classmethod
    def from_dict(cls: type[S], data: Mapping[str, Any]) -> S:
        """Restore a state written by :meth:`to_dict`."""
        if not isinstance(data, Mapping) or data.get("game") != cls.game:
            raise IllegalAction("bad_state", f"This is not a saved game of {cls.title}.")
        data = {**cls.LATER_FIELDS, **data}
        missing = [name for name in cls.FIELDS_ORDER if name not in data]
        if missing:
            raise IllegalAction("bad_state", f"The saved state lacks {missing[0]!r}.")
        values = deep_copy({name: data[name] for name in cls.FIELDS_ORDER})
        st = cls.__new__(cls)
        for name, value in values.items():
            setattr(st, name, Rng(value) if name == "rng" else value)
        return st

    def clone(self: S) -> S:
        """Return an independent copy (for bots that look ahead): the state ``from_dict`` would
        restore from ``to_dict``, in one pickle round trip instead of two."""
        cls = type(self)
        names = [name for name in cls.FIELDS_ORDER if name != "rng"]
        values = pickle.loads(
            pickle.dumps([getattr(self, name) for name in names], pickle.HIGHEST_PROTOCOL)
        )
        out = cls.__new__(cls)
        for name, value in zip(names, values, strict=True):
            setattr(out, name, value)
        out.rng = Rng(self.rng.state)
        return out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PhasedState)
            and type(other) is type(self)
            and (self.to_dict() == other.to_dict())
        )

    __hash__ = None  # type: ignore[assignment]


def deep_copy(value: dict[str, Any]) -> dict[str, Any]:
    """Copy plain JSON data (a pickle round trip: several times faster than copy.deepcopy)."""
    copied: dict[str, Any] = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    return copied
