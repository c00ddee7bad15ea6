"""The state of one game of Vikings on Board: plain data, JSON round-trip, the action dispatcher.

What each phase allows and what follows it is declared in one table, ``phases.PHASES``; this module
holds the data, the helpers every phase shares, and routes an action to its phase's handler after
checking its shape and who sent it. Handlers validate everything before they change anything, so
an illegal action leaves the state exactly as it was.

Identities: seats are 0..n-1; colours are indices into ``rules.COLOURS``; drakkars are their
places along the quay, 0..7; hull piece ``p`` is colour ``p // 6``'s piece ``p % 6``; a seat's
barrels are 0..3 and a barrel on the quay is stored as ``seat * 4 + barrel``.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

from ..api import Action, IllegalAction, Seat, check_action_shape
from ..rng import Rng
from . import rules as R

# The JSON shape of every action: its type and the keys it takes.
ACTION_SHAPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "go": {"building": str},
    "back": {},
    "promote": {"piece": int},
    "pick_piece": {"piece": int},
    "to_drakkar": {"drakkar": int},
    "swap_with": {"piece": int},
    "pick_barrel": {"barrel": int},
    "to_zone": {"drakkar": int, "colour": str},
    "place_chest": {"kind": str, "drakkar": int},
    "raise": {"goods": str},
    "bonus_viking": {"piece": int},
    "sail": {"drakkar": int},
    "take_chest": {"kind": str},
    "discard_chest": {"kind": str},
}


class VikingsState:
    """Everything about one game of Vikings on Board; mutated only through :meth:`apply`."""

    game = "vikings_on_board"

    FIELDS_ORDER = (
        "config",
        "n",
        "rng",
        "version",
        "round",
        "phase",
        "colours",
        "owners",
        "order",
        "chief",
        "spots",
        "hulls",
        "prows",
        "sailed",
        "sterns",
        "stern_holder",
        "bonus",
        "market",
        "piles",
        "barrels",
        "hands",
        "quay",
        "won",
        "chests",
        "box",
        "step",
        "sailing",
        "log",
        "result",
    )
    __slots__ = FIELDS_ORDER

    config: dict[str, Any]
    n: int
    rng: Rng
    version: int
    round: int  # the turn number
    phase: str
    colours: list[int]  # seat -> colour
    owners: list[int | None]  # colour -> seat (None: an unplayed colour)
    order: list[int]  # the colours in the order they were drawn (A, B, C, D; V1.2)
    chief: int  # the side of the buildings the chief stands on (0 or 1)
    spots: list[list[int | None]]  # per side, per building: the seat whose viking stands there
    hulls: list[list[int]]  # per drakkar: hull pieces from the prow backwards
    prows: list[list[str]]  # per drakkar: the chests on its prow, face up
    sailed: list[int]  # drakkars in the order they sailed
    sterns: int  # sterns still beside the board
    stern_holder: int | None  # who took a stern this turn (V3.10)
    bonus: list[int]  # hull pieces carrying a bonus viking (2 players, V3.10)
    market: dict[str, int]
    piles: list[list[str]]  # the two warehouse piles, face down; the top is the end of the list
    barrels: list[list[int]]  # per seat: the value of each of its 4 barrels (secret)
    hands: list[list[int]]  # per seat: its barrels still in hand
    quay: list[list[int | None]]  # per drakkar, per colour zone: the barrel on it
    won: list[list[int]]  # per seat: barrels won back onto its shield
    chests: list[list[str]]  # per seat: chests collected behind its shield (secret)
    box: list[str]  # chests that left the game (V4.5)
    step: dict[str, Any] | None  # the building action in progress
    sailing: dict[str, Any] | None  # the drakkar sailing and its chest distribution
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
        """Return what ``seat`` may do now (``None``: the table, which never acts here)."""
        if seat is None or not self._is_seat(seat) or seat not in self.active_seats():
            return []
        return PHASES[self.phase].legal(self, seat)

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply one action of ``seat`` or raise :class:`IllegalAction`."""
        check_action_shape(action, ACTION_SHAPES)
        kind = action["type"]
        if self.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        if seat is None:
            raise IllegalAction("not_table_action", "The table cannot do that.", action=kind)
        if not self._is_seat(seat):
            raise IllegalAction("no_such_seat", "There is no such seat.")
        phase = PHASES[self.phase]
        handler = phase.handlers.get(kind)
        if handler is None:
            raise IllegalAction(
                "wrong_phase",
                f"That is not possible in the {self.phase} phase.",
                action=kind,
                phase=self.phase,
            )
        if seat not in phase.actors(self):
            raise IllegalAction("not_your_turn", "It is not your turn.", action=kind)
        handler(self, seat, action)
        self.version += 1

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[dict[str, Any]]:
        """Return each seat's score so far with its breakdown (V5.2)."""
        from .scoring import scores

        return scores(self)

    def winners(self) -> list[int]:
        """Return the best total; equal totals go to more chests, then share the win (V5.3)."""
        from .scoring import winners

        return winners(self)

    # -- transitions ---------------------------------------------------------------------------

    def goto(self, phase: str) -> None:
        """Enter ``phase``; its entry may resolve automatic steps and move on at once."""
        nxt: str | None = phase
        while nxt is not None:
            if nxt not in PHASES[self.phase].follows and nxt != self.phase:
                raise AssertionError(f"undeclared transition {self.phase} -> {nxt}")
            self.phase = nxt
            nxt = PHASES[nxt].enter(self)

    def record(self, event: str, **data: Any) -> None:
        """Append a public event to the game's log (shown in words on the table display)."""
        data["e"] = event
        data["turn"] = self.round
        self.log.append(data)

    # -- helpers shared by the phases ----------------------------------------------------------

    def _is_seat(self, seat: object) -> bool:
        return type(seat) is int and 0 <= seat < self.n

    @property
    def away(self) -> int:
        """The side the vikings still to move stand on, away from the chief (V2.1)."""
        return 1 - self.chief

    def next_viking(self) -> int | None:
        """Return the building of the viking due to move next (V2.1), or None."""
        for building, owner in enumerate(self.spots[1 - self.chief]):
            if owner is not None:
                return building
        return None

    def in_port(self) -> list[int]:
        """Return the drakkars still in port, along the quay."""
        return [d for d in range(R.DRAKKARS) if d not in self.sailed]

    def piece_colour(self, piece: int) -> int:
        return piece // R.HULL_PIECES

    def shields(self, piece: int) -> int:
        """Return a hull piece's shields, a bonus viking counting one more (D2, V4.2)."""
        base: int = self.config["components"]["hull_pieces"][piece % R.HULL_PIECES]
        return base + 1 if piece in self.bonus else base

    def locate(self, piece: int) -> int | None:
        """Return the drakkar in port that holds ``piece``, or None."""
        for d in self.in_port():
            if piece in self.hulls[d]:
                return d
        return None

    def barrel_place(self, seat: int, barrel: int) -> tuple[int, int] | None:
        """Return the quay zone (drakkar, colour) of one of ``seat``'s barrels, or None."""
        ref = seat * R.BARRELS + barrel
        for d, zones in enumerate(self.quay):
            for colour, held in enumerate(zones):
                if held == ref:
                    return d, colour
        return None

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as plain JSON (the RNG as its integer state)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in self.FIELDS_ORDER}
        out["rng"] = self.rng.state
        out = _deep_copy(out)
        out["game"] = self.game
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VikingsState:
        """Restore a state written by :meth:`to_dict`."""
        if not isinstance(data, Mapping) or data.get("game") != cls.game:
            raise IllegalAction("bad_state", "This is not a Vikings on Board state.")
        missing = [name for name in cls.FIELDS_ORDER if name not in data]
        if missing:
            raise IllegalAction("bad_state", f"The saved state lacks {missing[0]!r}.")
        values = _deep_copy({name: data[name] for name in cls.FIELDS_ORDER})
        st = cls.__new__(cls)
        for name, value in values.items():
            setattr(st, name, Rng(value) if name == "rng" else value)
        return st

    def clone(self) -> VikingsState:
        """Return an independent copy (for bots that look ahead)."""
        return VikingsState.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VikingsState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def _deep_copy(value: dict[str, Any]) -> dict[str, Any]:
    """Copy plain JSON data (pickle round-trip: several times faster than copy.deepcopy)."""
    copied: dict[str, Any] = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    return copied


def new_game(config: Mapping[str, Any], seed: int) -> VikingsState:
    """Set up a game (V1) from a config and a seed."""
    from .setup import setup

    return setup(config, seed)


# The phase table refers to this module's class, so it is imported last.
from .phases import PHASES  # noqa: E402
