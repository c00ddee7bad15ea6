"""The state of one game of Eketorp: plain data, JSON round-trip, and the action dispatcher.

What each phase allows and what follows it is declared in one table, ``phases.PHASES``; this module
only holds the data and routes an action to its phase's handler after checking its shape and
who sent it. Handlers validate everything before they change anything, so an illegal action
leaves the state exactly as it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

from ..api import Action, IllegalAction, Seat, check_action_shape
from ..rng import Rng

# The JSON shape of every action: its type and the keys it takes.
ACTION_SHAPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "card_add": {"field": str, "stone": str},
    "card_remove": {"field": str},
    "card_done": {},
    "place": {"to": str},
    "unplace": {"from": str},
    "commit": {},
    "uncommit": {},
    "reveal": {},
    "fight": {"field": str, "opponent": int},
    "siege": {"field": str},
    "swap": {},
    "keep": {},
    "play": {"card": int},
    "loot": {"take": list, "keep": str},
    "skip_loot": {},
    "take": {"field": str, "stone": str},
    "build": {"stone": str, "site": int},
    "unbuild": {"site": int},
    "auto_build": {},
    "done": {},
    "next_round": {},
}


class EketorpState:
    """Everything about one game of Eketorp; mutated only through :meth:`apply`."""

    game = "eketorp"

    # Every attribute is plain JSON data (or the Rng) and is listed here once, in the order
    # ``to_dict`` writes them.
    FIELDS_ORDER = (
        "config",
        "n",
        "rng",
        "version",
        "round",
        "max_rounds",
        "phase",
        "start",
        "supply",
        "fields",
        "deck",
        "removed",
        "card",
        "card_draft",
        "vikings",
        "home",
        "hospital",
        "board",
        "plans",
        "committed",
        "revealed",
        "hands",
        "discards",
        "draw",
        "general",
        "amulets",
        "turn",
        "fight",
        "sieges_done",
        "last_fight",
        "carry",
        "share",
        "fresh",
        "done",
        "castles",
        "beside",
        "log",
        "result",
    )
    __slots__ = FIELDS_ORDER

    config: dict[str, Any]
    n: int
    rng: Rng
    version: int
    round: int
    max_rounds: int
    phase: str
    start: int
    supply: dict[str, int]
    fields: dict[str, dict[str, int]]
    deck: list[int]
    removed: list[int]
    card: dict[str, Any] | None
    card_draft: dict[str, list[Any]]
    vikings: int
    home: list[int]
    hospital: list[list[int]]
    board: dict[str, list[int]]
    plans: list[dict[str, int]]
    committed: list[bool]
    revealed: dict[str, dict[str, int]] | None
    hands: list[list[int]]
    discards: list[list[int]]
    draw: list[int]
    general: list[int]
    amulets: list[int]
    turn: int
    fight: dict[str, Any] | None
    sieges_done: list[str]
    last_fight: dict[str, Any] | None
    carry: list[list[str]]
    share: dict[str, Any] | None
    fresh: list[list[int]]
    done: list[bool]
    castles: list[list[list[str]]]
    beside: list[list[str]]
    log: list[dict[str, Any]]
    result: dict[str, Any] | None

    # -- the API -------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def active_seats(self) -> list[int]:
        """Return the seats whose input the game is waiting for."""
        return PHASES[self.phase].actors(self)

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Return what ``seat`` may do now (``None``: the table), in a stable order."""
        phase = PHASES[self.phase]
        if seat is None:
            return [{"type": t} for t in phase.table_actions]
        if not self._is_seat(seat):
            return []
        return phase.legal(self, seat)

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply one action of ``seat`` (``None``: the table) or raise :class:`IllegalAction`."""
        check_action_shape(action, ACTION_SHAPES)
        kind = action["type"]
        phase = PHASES[self.phase]
        if self.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        if seat is None:
            if kind not in phase.table_actions:
                raise IllegalAction(
                    "not_table_action", "The table cannot do that now.", action=kind
                )
        else:
            if not self._is_seat(seat):
                raise IllegalAction("no_such_seat", "There is no such seat.")
            if kind in phase.table_actions:
                raise IllegalAction(
                    "table_action", "That is done at the table (NEXT button).", action=kind
                )
            if kind not in phase.handlers:
                raise IllegalAction(
                    "wrong_phase",
                    f"That is not possible in the {self.phase} phase.",
                    action=kind,
                    phase=self.phase,
                )
            if seat not in phase.actors(self) and kind not in phase.always:
                raise IllegalAction("not_your_turn", "It is not your turn.", action=kind)
        handler = phase.handlers.get(kind) or phase.table_handlers[kind]
        handler(self, seat, action)
        self.version += 1

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[dict[str, Any]]:
        """Return each seat's score so far with its breakdown (R8)."""
        from .scoring import scores

        return scores(self)

    def winners(self) -> list[int]:
        """Return the seats with the highest total; equal totals share the win (D10)."""
        totals = [s["total"] for s in self.scores()]
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    # -- transitions ---------------------------------------------------------------------------

    def goto(self, phase: str | None) -> None:
        """Enter ``phase``; its entry may resolve automatic steps and move on at once."""
        while phase is not None:
            current = PHASES[self.phase]
            if phase not in current.follows and phase != self.phase:
                raise AssertionError(f"undeclared transition {self.phase} -> {phase}")
            self.phase = phase
            phase = PHASES[phase].enter(self)

    def record(self, event: str, **data: Any) -> None:
        """Append a public event to the game's log (shown in words on the table display)."""
        data["e"] = event
        data["round"] = self.round
        self.log.append(data)

    # -- helpers shared by the phases ---------------------------------------------------------

    def _is_seat(self, seat: object) -> bool:
        return type(seat) is int and 0 <= seat < self.n

    def clockwise(self, first: int) -> list[int]:
        """Return the seats in clockwise order starting at ``first``."""
        n = self.n
        return [(first + k) % n for k in range(n)]

    def field_stones(self, field: str) -> int:
        return sum(self.fields[field].values())

    def draw_cards(self, count: int) -> list[int]:
        """Take ``count`` cards from the draw pile; an empty pile takes the general discard (D8)."""
        out: list[int] = []
        for _ in range(count):
            if not self.draw:
                self.draw = self.general
                self.general = []
                self.rng.shuffle(self.draw)
                self.record("reshuffle", cards=len(self.draw))
            out.append(self.draw.pop())
        return out

    def castle_stones(self, seat: int) -> int:
        """Return the number of stones built in ``seat``'s castle (not those kept beside it)."""
        return sum(len(stack) for stack in self.castles[seat])

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as plain JSON (the RNG as its integer state)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in self.FIELDS_ORDER}
        out["rng"] = self.rng.state
        out = _deep_copy(out)
        out["game"] = self.game
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EketorpState:
        """Restore a state written by :meth:`to_dict`."""
        if data.get("game") != cls.game:
            raise IllegalAction("bad_state", "This is not an Eketorp state.")
        missing = [name for name in cls.FIELDS_ORDER if name not in data]
        if missing:
            raise IllegalAction("bad_state", f"The saved state lacks {missing[0]!r}.")
        values = _deep_copy({name: data[name] for name in cls.FIELDS_ORDER})
        st = cls.__new__(cls)
        for name, value in values.items():
            setattr(st, name, Rng(value) if name == "rng" else value)
        return st

    def clone(self) -> EketorpState:
        """Return an independent copy (for bots that look ahead)."""
        return EketorpState.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EketorpState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def _deep_copy(value: dict[str, Any]) -> dict[str, Any]:
    """Copy plain JSON data (pickle round-trip: several times faster than copy.deepcopy)."""
    copied: dict[str, Any] = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    return copied


def new_game(config: Mapping[str, Any], seed: int) -> EketorpState:
    """Set up a game (R1) from a config and a seed."""
    from .setup import setup

    return setup(config, seed)


# The phase table refers to this module's class, so it is imported last.
from .phases import PHASES  # noqa: E402
