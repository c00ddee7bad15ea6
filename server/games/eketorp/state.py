"""The state of one game of Eketorp: plain data, each field listed once.

What each phase allows and what follows it is declared in one table, ``phases.PHASES``; routing
an action to its handler, the transitions and the JSON round trip are the shared ones of
``games.phased``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..phased import PhasedState
from ..shapes import Items, Scalar, Shapes, Text, Whole

# The JSON shape of every action: its type and the keys it takes, each with its type and size
# (names of fields, stones and seats are short; numbers are sites, cards and seats).
NAME, NUMBER = Text(16), Whole()
ACTION_SHAPES: Shapes = {
    "card_add": {"field": NAME, "stone": NAME},
    "card_remove": {"field": NAME},
    "card_done": {},
    "place": {"to": NAME},
    "unplace": {"from": NAME},
    "commit": {},
    "uncommit": {},
    "reveal": {},
    "fight": {"field": NAME, "opponent": NUMBER},
    "siege": {"field": NAME},
    "swap": {},
    "keep": {},
    "play": {"card": NUMBER},
    "take_back": {},
    # [site, level] per stone, up to a whole castle: the rules refuse a wrong count in their
    # own words (D13)
    "loot": {"take": Items(Items(Scalar(), 4), 18), "keep": NAME},
    "skip_loot": {},
    "take": {"field": NAME, "stone": NAME},
    "build": {"stone": NAME, "site": NUMBER},
    "unbuild": {"site": NUMBER},
    "auto_build": {},
    "done": {},
    "next_round": {},
}


class EketorpState(PhasedState):
    """Everything about one game of Eketorp; mutated only through :meth:`apply`."""

    game = "eketorp"
    title = "Eketorp"
    ACTION_SHAPES = ACTION_SHAPES

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
    max_rounds: int
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
    result: dict[str, Any] | None

    def scores(self) -> list[dict[str, Any]]:
        """Return each seat's score so far with its breakdown (R8)."""
        from .scoring import scores

        return scores(self)

    def winners(self) -> list[int]:
        """Return the seats with the highest total; equal totals share the win (D10)."""
        totals = [s["total"] for s in self.scores()]
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    # -- helpers shared by the phases ---------------------------------------------------------

    def clockwise(self, first: int) -> list[int]:
        """Return the seats in clockwise order starting at ``first``."""
        first %= self.n
        return [*range(first, self.n), *range(first)]

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
        return sum(map(len, self.castles[seat]))


def new_game(config: Mapping[str, Any], seed: int) -> EketorpState:
    """Set up a game (R1) from a config and a seed."""
    from .setup import setup

    return setup(config, seed)


# The phase table refers to this module's class, so it is imported last.
from .phases import PHASES  # noqa: E402

EketorpState.PHASES = PHASES
