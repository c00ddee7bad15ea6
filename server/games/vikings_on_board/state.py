"""The state of one game of Vikings on Board: plain data, each field listed once, and the
helpers every phase shares.

What each phase allows and what follows it is declared in one table, ``phases.PHASES``; routing
an action to its handler, the transitions and the JSON round trip are the shared ones of
``games.phased`` (``round`` is the turn number).

Identities: seats are 0..n-1; colours are indices into ``rules.COLOURS``; drakkars are their
places along the quay, 0..7; hull piece ``p`` is colour ``p // 6``'s piece ``p % 6``; a seat's
barrels are 0..3 and a barrel on the quay is stored as ``seat * 4 + barrel``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..phased import PhasedState
from ..shapes import Shapes, Text, Whole
from . import rules as R

# The JSON shape of every action: its type and the keys it takes, each with its type and size
# (names of buildings, colours, goods and chests are short; numbers are pieces, drakkars, barrels).
NAME, NUMBER = Text(24), Whole()
ACTION_SHAPES: Shapes = {
    "go": {"building": NAME},
    "back": {},
    "promote": {"piece": NUMBER},
    "pick_piece": {"piece": NUMBER},
    "to_drakkar": {"drakkar": NUMBER},
    "swap_with": {"piece": NUMBER},
    "pick_barrel": {"barrel": NUMBER},
    "to_zone": {"drakkar": NUMBER, "colour": NAME},
    "place_chest": {"kind": NAME, "drakkar": NUMBER},
    "raise": {"goods": NAME},
    "bonus_viking": {"piece": NUMBER},
    "sail": {"drakkar": NUMBER},
    "take_chest": {"kind": NAME},
    "discard_chest": {"kind": NAME},
    "next": {},  # the table's NEXT once a sailing's reckoning is read (V4.2, V4.3)
}


class VikingsState(PhasedState):
    """Everything about one game of Vikings on Board; mutated only through :meth:`apply`."""

    game = "vikings_on_board"
    title = "Vikings on Board"
    ACTION_SHAPES = ACTION_SHAPES
    LOG_ROUND = "turn"

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
    result: dict[str, Any] | None

    def scores(self) -> list[dict[str, Any]]:
        """Return each seat's score so far with its breakdown (V5.2)."""
        from .scoring import scores

        return scores(self)

    def winners(self) -> list[int]:
        """Return the best total; equal totals go to more chests, then share the win (V5.3)."""
        from .scoring import winners

        return winners(self)

    # -- helpers shared by the phases ----------------------------------------------------------

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


def new_game(config: Mapping[str, Any], seed: int) -> VikingsState:
    """Set up a game (V1) from a config and a seed."""
    from .setup import setup

    return setup(config, seed)


# The phase table refers to this module's class, so it is imported last.
from .phases import PHASES  # noqa: E402

VikingsState.PHASES = PHASES
