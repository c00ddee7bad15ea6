"""Vikings Gone Wild bots: a random legal bot and a greedy bot that plays a sensible turn.

Longhall does not know the cards, so a bot stands in for a player and their hand: it picks among
the legal actions, whose entered numbers (attack values, defence cards, card numbers, missions)
are a small menu of plausible values. The greedy bot reads only what its seat may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, progress_actions
from ..rng import Rng
from .turn import targets

if TYPE_CHECKING:
    from .state import WildState

BUILD_ORDER = ("tavern", "gold_factory", "brewery", "gold_reserve", "beer_reserve", "drakkar")
RIVER_UNDEAD_PER_TURN = 2  # what a hand of 5 cards plausibly beats besides its attacks
ATTACKS_PER_TURN = 7


class RandomBot:
    """Plays uniformly at random among the legal actions that move the game forward."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "random-bot")

    def choose(self, st: WildState, seat: int) -> Action:
        return self.rng.choice(progress_actions(st.legal_actions(seat)))


class GreedyBot:
    """Completes missions, upgrades its town hall, builds its economy, attacks the
    weakest buildings with a margin, defends with its best cards and stores what it can."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "greedy-bot")
        self.turn: tuple[int, int] = (-1, -1)
        self.river = 0
        self.built = False

    def choose(self, st: WildState, seat: int) -> Action:
        legal = progress_actions(st.legal_actions(seat))
        by_type: dict[str, list[Action]] = {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        if st.phase == "players":
            return self._turn(st, seat, by_type)
        if "first_game_bonus" in by_type:  # the print's advice for the cards on the table
            return by_type["first_game_bonus"][0]
        if "defend" in by_type:
            return max(by_type["defend"], key=lambda a: (a["value"], -a["cards"]))
        if "take_mission" in by_type:
            return max(by_type["take_mission"], key=lambda a: a["points"])
        if "store" in by_type:
            return max(by_type["store"], key=lambda a: a["count"])
        if "keep" in by_type:
            return max(by_type["keep"], key=lambda a: a["cards"])
        return self.rng.choice(legal)

    def _turn(self, st: WildState, seat: int, by_type: dict[str, list[Action]]) -> Action:
        if self.turn != (st.round, seat):
            self.turn, self.river, self.built = (st.round, seat), 0, False
        if "complete_mission" in by_type:
            return by_type["complete_mission"][0]
        if "upgrade" in by_type:  # a bigger village, and 5 points at level 3 (W3.6)
            return by_type["upgrade"][0]
        if "build" in by_type and not self.built:
            self.built = True
            kinds = [a["kind"] for a in by_type["build"]]
            kind = min(kinds, key=BUILD_ORDER.index)
            return {"type": "build", "kind": kind}
        if "card_numbers" in by_type:
            return self.rng.choice(by_type["card_numbers"])
        if "attack" in by_type and st.successes < ATTACKS_PER_TURN:
            # the weakest building, attacked with the biggest margin and the fewest cards; equal
            # choices drawn at random, so that no seat is everyone's first target
            order = {(p, b): self.rng.below(1 << 16) for p, b in targets(st, seat)}

            def key(a: Action) -> tuple[int, int, int, int]:
                card = st.card_of(st.villages[a["target"]][a["building"]])
                defence: int = st.numbers[card]["defence"]
                return (defence, -a["attack"], a["cards"], order[(a["target"], a["building"])])

            return min(by_type["attack"], key=key)
        if "undead_board" in by_type:
            return self.rng.choice(by_type["undead_board"])
        if self.river < RIVER_UNDEAD_PER_TURN and "undead_river" in by_type:
            self.river += 1
            return self.rng.choice(by_type["undead_river"])
        return {"type": "end_turn"}
