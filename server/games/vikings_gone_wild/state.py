"""The state of one game of Vikings Gone Wild: plain data, each field listed once, and the
helpers every phase shares (points and favours, building limits, the undo stack).

Longhall keeps the score track and the referee's arithmetic; the cards stay on the table. What each
phase allows and what follows it is declared in one table, ``phases.PHASES``; routing, the
transitions and the JSON round trip are the shared ones of ``games.phased`` (``round`` is the turn).

Identities: seats are 0..n-1, clockwise (the player on a seat's left is the next seat). A seat's
village is a list of buildings in the order they were built; building 0 is always the town hall.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..phased import PhasedState, deep_copy
from ..shapes import Flag, Items, Scalar, Shapes, Text, Whole
from . import rules as R

# The JSON shape of every action: its type and the keys it takes, each with its type and size
# (a card's or a mission's printed name; a building kind or a resource; numbers are seats,
# buildings, cards, points and values entered from the printed cards).
NAME, CARD, NUMBER = Text(24), Text(64), Whole(-9999, 9999)
ACTION_SHAPES: Shapes = {
    "next": {},
    "take_mission": {"name": CARD, "points": NUMBER},
    "pass_mission": {},
    "build": {"kind": NAME},
    "upgrade": {},
    "card_numbers": {
        "card": CARD,
        "defence": NUMBER,
        "points": NUMBER,
        "resource": NAME,
        "favour": Flag(),
    },
    "attack": {"target": NUMBER, "building": NUMBER, "attack": NUMBER, "cards": NUMBER},
    "defend": {"cards": NUMBER, "value": NUMBER},
    "undead_river": {"resource": NAME},
    "undead_board": {"resource": NAME},
    "complete_mission": {"slot": NUMBER},
    "name_mission": {"slot": NUMBER, "name": CARD},
    "swap_mission": {"slot": NUMBER, "name": CARD, "points": NUMBER},
    "spend": {"building": NUMBER, "count": NUMBER},
    "undo": {},
    "end_turn": {},
    "store": {"building": NUMBER, "count": NUMBER},
    "store_done": {},
    "keep": {"cards": NUMBER},
    "bonus": {"meets": Items(Scalar(), 16)},  # one answer per bonus card in play
    "tiebreak": {"meets": Flag()},
    "lay_bonus": {"card": CARD},
    "unlay_bonus": {"card": CARD},
    "first_game_bonus": {},
    "bonus_laid": {},
    "name_bonus": {"card": CARD, "name": CARD},
    # the host's correction of what Longhall keeps (the cards stay on the table)
    "correct": {
        "seat": NUMBER,
        "what": NAME,
        "building": NUMBER,
        "value": NUMBER,
        "reason": Text(60),
    },
}

# The fields an undo restores (D15): everything a player's own action can change.
UNDONE = (
    "score",
    "points",
    "reached",
    "favours",
    "favours_left",
    "villages",
    "numbers",
    "missions",
    "done",
    "missions_left",
    "swapped",
    "undead_used",
    "loot",
    "last_turn",
)
UNDO_DEPTH = 30


class WildState(PhasedState):
    """Everything about one game of Vikings Gone Wild; mutated only through :meth:`apply`."""

    game = "vikings_gone_wild"
    title = "Vikings Gone Wild"
    ACTION_SHAPES = ACTION_SHAPES
    LOG_ROUND = "turn"

    FIELDS_ORDER = (
        "config",
        "n",
        "rng",
        "version",
        "round",
        "phase",
        "first",
        "current",
        "score",
        "points",
        "reached",
        "favours",
        "favours_left",
        "villages",
        "numbers",
        "missions",
        "done",
        "missions_left",
        "decided",
        "swapped",
        "undead_used",
        "loot",
        "kept",
        "target",
        "successes",
        "repelled",
        "attack",
        "last_attack",
        "last_turn",
        "bonus",
        "box",
        "bonus_names",
        "claims",
        "tiebreak",
        "undo_stack",
        "log",
        "result",
    )
    __slots__ = FIELDS_ORDER

    config: dict[str, Any]
    first: int  # the seat holding the first-player token (W2.8)
    current: int | None  # the seat whose turn it is in the players' phase (W2.4)
    score: list[int]  # per seat: its marker on the score track
    points: list[dict[str, int]]  # per seat: where its points came from
    reached: list[list[int]]  # per seat: the favour spaces already reached (W8.1)
    favours: list[int]  # per seat: divine favours taken
    favours_left: int  # W8.3
    villages: list[list[dict[str, Any]]]  # per seat: town hall then buildings (W3)
    numbers: dict[str, dict[str, Any]]  # per card: the entered defence and rewards (D1)
    missions: list[list[dict[str, Any]]]  # per seat: missions held (secret, W1.2)
    done: list[list[dict[str, Any]]]  # per seat: missions completed (public, D14)
    missions_left: int  # the mission pile (D13)
    decided: list[bool]  # per seat: answered this phase (draw, storage, end of turn)
    swapped: list[bool]  # per seat: swapped a mission this turn (W7.3)
    undead_used: list[bool]  # per seat: beat the board's undead this turn (W6.2)
    loot: list[dict[str, int]]  # per seat: resources it may store this turn (D11)
    kept: list[int]  # per seat: cards kept by its Drakkars from the last turn (W2.3, D12)
    target: int | None  # the player the current player attacks this turn (W4.2)
    successes: int  # the current player's damaged buildings this turn (W4.8)
    repelled: list[list[int]]  # (player, building, attacker): repelled an attack this turn (D21)
    attack: dict[str, Any] | None  # the attack waiting for the defender (D3)
    last_attack: dict[str, Any] | None  # the last attack answered, with its arithmetic
    last_turn: bool  # W9.3
    bonus: list[str]  # the 4 bonus cards in play (W1.3)
    box: list[str]  # the bonus cards left in the box, in a hidden order (D17)
    bonus_names: dict[str, str]  # the group's names for the cards the print does not name (D20)
    claims: list[list[bool] | None]  # per seat: which bonus cards it meets (W9.4)
    tiebreak: dict[str, Any] | None  # W9.6
    undo_stack: list[dict[str, Any]]  # D15
    result: dict[str, Any] | None

    def scores(self) -> list[dict[str, Any]]:
        """Return each seat's points with where they came from."""
        return [
            {"seat": s, "total": self.score[s], "breakdown": dict(self.points[s])}
            for s in range(self.n)
        ]

    def winners(self) -> list[int]:
        """Return the winners once decided (W9.5-W9.7), else the seats leading now."""
        if self.result is not None:
            return list(self.result["winners"])
        best = max(self.score)
        return [s for s in range(self.n) if self.score[s] == best]

    # -- helpers shared by the phases ----------------------------------------------------------

    def order(self) -> list[int]:
        """Return the seats in playing order, from the first player clockwise (W2.4)."""
        return [(self.first + k) % self.n for k in range(self.n)]

    def town_hall(self, seat: int) -> dict[str, Any]:
        return self.villages[seat][0]

    def active_level(self, seat: int) -> int:
        """Return the town hall level in force: one under construction is not yet (W3.5, D8)."""
        hall = self.town_hall(seat)
        level: int = hall["level"]
        return level - 1 if hall["new"] else level

    def buildings(self, seat: int) -> list[dict[str, Any]]:
        """Return a seat's buildings, the town hall left out (W3.3)."""
        return self.villages[seat][1:]

    def count(self, seat: int, kind: str, active: bool = False) -> int:
        """Return how many buildings of ``kind`` a seat has (``active``: not under construction)."""
        return sum(
            1 for b in self.buildings(seat) if b["kind"] == kind and not (active and b["new"])
        )

    def card_of(self, building: Mapping[str, Any]) -> str:
        """Return the card whose numbers a building uses (D1)."""
        if building["kind"] == R.TOWN_HALL:
            return R.town_hall_card(building["level"])
        kind: str = building["kind"]
        return kind

    def attacked(self, seat: int) -> bool:
        """Return whether a seat has been attacked this turn: a damage marker anywhere (W4.3)."""
        return any(b["damaged"] for b in self.villages[seat])

    def figures(self, seat: int) -> dict[str, int]:
        """Return a seat's production and draw for this turn (W2.2, W2.3)."""
        return {
            "gold": self.count(seat, "gold_factory", active=True),
            "beer": self.count(seat, "brewery", active=True),
            "taverns": self.count(seat, "tavern", active=True),
            "draw": R.DRAW + self.count(seat, "tavern", active=True),
            "kept": self.kept[seat],
        }

    def gain(self, seat: int, amount: int, why: str) -> None:
        """Move a seat's marker on; reaching a favour space or the end mark counts at once."""
        if amount <= 0:
            return
        before = self.score[seat]
        self.score[seat] = after = before + amount
        self.points[seat][why] = self.points[seat].get(why, 0) + amount
        self.record("points", seat=seat, points=amount, why=why, total=after)
        if self.phase in ("bonus", "tiebreak"):
            return  # the game is over: the track's spaces no longer count
        for space in R.FAVOUR_SPACES:  # W8.1: even outside the seat's turn
            if before < space <= after and space not in self.reached[seat]:
                self.reached[seat].append(space)
                self.earn_favour(seat, f"space_{space}")
        if not self.last_turn and after >= self.config["end_mark"]:  # W9.3
            self.last_turn = True
            self.record("end_mark", seat=seat, total=after, mark=self.config["end_mark"])

    def earn_favour(self, seat: int, why: str) -> None:
        """Give a seat a divine favour if one is left (W8.2, W8.3)."""
        if self.favours_left <= 0:
            self.record("no_favour_left", seat=seat, why=why)
            return
        self.favours_left -= 1
        self.favours[seat] += 1
        self.record("favour", seat=seat, why=why, left=self.favours_left)

    def push_undo(self) -> None:
        """Remember the state before one of the current player's actions (D15), and how long
        the log was: what the action told everyone goes with it when it is taken back."""
        snapshot = deep_copy({name: getattr(self, name) for name in UNDONE})
        snapshot["_log"] = len(self.log)
        self.undo_stack.append(snapshot)
        del self.undo_stack[:-UNDO_DEPTH]

    def pop_undo(self) -> None:
        snapshot = self.undo_stack.pop()
        told = snapshot.pop("_log", None)
        if told is not None:  # the action's public lines leave the log (a held mission's points)
            del self.log[told:]
        for name, value in snapshot.items():
            setattr(self, name, value)


def new_game(config: Mapping[str, Any], seed: int) -> WildState:
    """Set up a game (W1) from a config and a seed."""
    from .setup import setup

    return setup(config, seed)


# The phase table refers to this module's class, so it is imported last.
from .corrections import correct  # noqa: E402
from .phases import PHASES  # noqa: E402

WildState.PHASES = PHASES
WildState.HOST_ACTIONS = {"correct": correct}
WildState.LATER_FIELDS = {"bonus_names": {}}  # games stored before the group named bonus cards
