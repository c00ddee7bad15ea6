"""Eketorp bots: a random legal bot and a greedy bot that plays sensibly.

Bots see only what their seat's view shows: they are called with the state, but read it through
the same rules a player at the table knows (their own hand, public counts), never another hand.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..api import Action, progress_actions
from ..rng import Rng
from . import rules as R
from .rules import destinations

if TYPE_CHECKING:
    from .state import EketorpState


class RandomBot:
    """Plays uniformly at random among the legal actions that move the game forward."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "random-bot")

    def choose(self, st: EketorpState, seat: int) -> Action:
        return self.rng.choice(progress_actions(st.legal_actions(seat)))


def _castle_at_risk(st: EketorpState, seat: int) -> int:
    """Value an attacker could take from ``seat``'s castle: the top stones of each side."""
    castle = st.castles[seat]
    risk = 0
    for a, b in R.SIDE_SITES.values():
        tops = [
            castle[a - 1][-1] if castle[a - 1] else None,
            castle[b - 1][-1] if castle[b - 1] else None,
        ]
        risk = max(risk, max((R.VALUE[t] for t in tops if t), default=0))
    return risk


def _castle_value(st: EketorpState, owner: int) -> int:
    """What ``owner``'s castle is worth so far (public: the castles stand on the table)."""
    return sum(R.VALUE[stone] for site in st.castles[owner] for stone in site)


def _turn(st: EketorpState, seat: int, other: int) -> int:
    """A tie-break among opponents: scrambled, so that no seat is always the one hit, but fixed
    for the round. The plan is worked out again at every step of planning; a tie-break drawn
    afresh each time made the bot change its mind and take vikings back and forth."""
    return ((other + 1) * 2654435761 + st.round * 40503 + seat * 9973) % 65521


def _opponent(action: Action) -> int:
    """Whom a fight or siege is against."""
    if action["type"] == "fight":
        return int(action["opponent"])
    siege = R.parse_siege(action["field"])
    return siege[0] if siege else 0


def _side_loot(st: EketorpState, owner: int, side: str, damage: int = 3) -> int:
    """The best stone a besieger could keep from one side with a given damage."""
    castle = st.castles[owner]
    best = 0
    for site in R.SIDE_SITES[side]:
        budget = damage
        for stone in reversed(castle[site - 1][-R.LOOT_MAX :]):  # D13: two stones at most
            if R.VALUE[stone] > budget:
                break
            budget -= R.VALUE[stone]
            best = max(best, R.VALUE[stone])
    return best


class GreedyBot:
    """Goes where the stones are, defends a threatened castle, spends its best card where it
    gains most, takes the most valuable loot and builds its best stones low."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed, "greedy-bot")

    def choose(self, st: EketorpState, seat: int) -> Action:
        legal = st.legal_actions(seat)
        kinds = {a["type"] for a in legal}
        if "place" in kinds or "commit" in kinds:
            return self._plan_step(st, seat, legal)
        if "fight" in kinds or "siege" in kinds:
            # equal gains: hit whoever leads, then the next in a turn that moves every round
            # (never always the lowest seat)
            # what a field is worth fighting for and each castle's worth, reckoned once each
            # (on a field the seat either fights or besieges: the field decides the gain)
            gains: dict[str, float] = {}
            worth: dict[int, int] = {}

            def key(a: Action) -> tuple[float, int, int]:
                fld = a["field"]
                gain = gains.get(fld)
                if gain is None:
                    gain = gains[fld] = self._fight_gain(st, seat, a)
                owner = _opponent(a)
                value = worth.get(owner)
                if value is None:
                    value = worth[owner] = _castle_value(st, owner)
                return gain, value, _turn(st, seat, owner)

            return max(legal, key=key)
        if "swap" in kinds:
            return {"type": "swap"} if self._wants_swap(st, seat) else {"type": "keep"}
        if "play" in kinds:
            return {"type": "play", "card": self._card(st, seat)}
        if "loot" in kinds or "skip_loot" in kinds:
            options = [a for a in legal if a["type"] == "loot"]
            if not options:
                return {"type": "skip_loot"}
            castle = st.castles[st.fight["b"]] if st.fight else []
            return max(
                options,
                key=lambda a: (
                    R.VALUE[a["keep"]],
                    sum(R.VALUE[castle[s - 1][lvl]] for s, lvl in a["take"]),
                ),
            )
        if "take" in kinds:
            return max(legal, key=lambda a: R.VALUE[a["stone"]])
        if "card_done" in kinds:
            return {"type": "card_done"}  # a bot cannot see the printed card
        if "auto_build" in kinds:
            return {"type": "auto_build"}
        return progress_actions(legal)[0]

    # -- planning ---------------------------------------------------------------------------------

    def _plan(self, st: EketorpState, seat: int) -> dict[str, int]:
        """The whole plan this bot wants: defenders, a siege or two, the rest on stones."""
        free = st.home[seat]
        plan: dict[str, int] = {}
        hand = st.hands[seat]
        strong = sum(1 for c in hand if c >= 5)
        risk = _castle_at_risk(st, seat)
        defenders = 0
        if risk >= 2 or st.castle_stones(seat) >= 4:
            defenders = 1 if free <= 5 else 2
        defenders = min(defenders, free)
        if defenders:
            plan["castle"] = defenders
            free -= defenders
        # Sieges: the sides with the best loot, if our hand can win them.
        sieges = []
        for owner in range(st.n):
            if owner == seat:
                continue
            lead = _castle_value(st, owner)
            for side in R.SIDES:
                gain = _side_loot(st, owner, side, damage=4 if strong else 2)
                if gain >= 2:  # equal loot: the leader's castle, then the next in turn
                    sieges.append((gain, lead, _turn(st, seat, owner), owner, side))
        sieges.sort(reverse=True)
        for *_, owner, side in sieges[: min(1 + strong // 2, 2)]:
            if free <= 1:
                break
            plan[R.siege_field(owner, side)] = 1
            free -= 1
        # Fields: each viking to the field with the best stone still unclaimed by our vikings.
        return fill_fields(st, plan, free)

    def _plan_step(self, st: EketorpState, seat: int, legal: list[Action]) -> Action:
        return plan_step(st, seat, self._plan(st, seat))

    # -- fights -----------------------------------------------------------------------------------

    def _fight_gain(self, st: EketorpState, seat: int, action: Action) -> float:
        fld = action["field"]
        if action["type"] == "siege":
            owner, side = R.parse_siege(fld) or (0, "boat")
            undefended = not st.board[R.castle_field(owner)][owner]
            return _side_loot(st, owner, side, damage=max(st.hands[seat])) + (
                2 if undefended else 0
            )
        if fld in R.FIELDS:
            return max((R.VALUE[s] for s, c in st.fields[fld].items() if c), default=0)
        return 1.0

    def _stake(self, st: EketorpState, seat: int) -> int:
        fight = st.fight
        assert fight is not None
        fld = fight["field"]
        if fight["kind"] == "siege":
            owner, side = R.parse_siege(fld) or (0, "boat")
            return max(_side_loot(st, owner, side, damage=6), 1)
        if fld in R.FIELDS:
            return max((R.VALUE[s] for s, c in st.fields[fld].items() if c), default=0)
        return 2

    def _wants_swap(self, st: EketorpState, seat: int) -> bool:
        hand = st.hands[seat]
        fight = st.fight
        assert fight is not None
        if fight["kind"] == "siege" and seat == fight["b"] and not fight["defended"]:
            return False  # the card counts 0 anyway
        return max(hand) <= 2 and len(hand) <= 2 and self._stake(st, seat) >= 3

    def _card(self, st: EketorpState, seat: int) -> int:
        hand = sorted(st.hands[seat])
        fight = st.fight
        assert fight is not None
        if fight["kind"] == "siege" and seat == fight["b"] and not fight["defended"]:
            return hand[0]  # counts 0: give away the weakest card
        if fight["kind"] == "siege" and seat == fight["a"] and not fight["defended"]:
            owner, side = R.parse_siege(fight["field"]) or (0, "boat")
            best = _side_loot(st, owner, side, damage=hand[-1])
            # the smallest card that still reaches the best loot
            for card in hand:
                if _side_loot(st, owner, side, damage=card) >= best:
                    return card
        if self._stake(st, seat) >= 2 or len(hand) == 1:
            return hand[-1]
        return hand[len(hand) // 2]


@cache
def _board_order(players: int, seat: int) -> dict[str, int]:
    """Each destination's place in the planning board's order."""
    return {dest: i for i, dest in enumerate(destinations(players, seat))}


def plan_step(st: EketorpState, seat: int, want: dict[str, int]) -> Action:
    """The next step from ``seat``'s plan towards ``want``: the first viking too many taken back,
    else the first missing one placed, in the planning board's order; else commit."""
    have = st.plans[seat]
    order = _board_order(st.n, seat)
    # only the destinations either plan names can differ: the first of them in board order
    over = [d for d, count in have.items() if count > want.get(d, 0) and d in order]
    if over:
        return {"type": "unplace", "from": min(over, key=order.__getitem__)}
    under = [d for d, count in want.items() if have.get(d, 0) < count and d in order]
    if under:
        return {"type": "place", "to": min(under, key=order.__getitem__)}
    return {"type": "commit"}


def field_values(st: EketorpState) -> dict[str, list[int]]:
    """Each material field's stones by value, the best first."""
    return {
        fld: sorted((R.VALUE[s] for s, c in st.fields[fld].items() for _ in range(c)), reverse=True)
        for fld in R.FIELDS
    }


def fill_fields(
    st: EketorpState,
    plan: dict[str, int],
    free: int,
    values: dict[str, list[int]] | None = None,
    skip: str | None = None,
) -> dict[str, int]:
    """Send each free viking to the field whose best stone not yet claimed by this plan is worth
    most (less for each viking already there); the rest defend the castle."""
    values = field_values(st) if values is None else values
    claimed = dict.fromkeys(R.FIELDS, 0)
    while free > 0:
        best, best_field = 0.0, None
        for fld in R.FIELDS:
            if fld == skip:
                continue
            stones = values[fld]
            k = claimed[fld]
            if k < len(stones):
                worth = stones[k] / (1 + 0.5 * k)
                if worth > best:
                    best, best_field = worth, fld
        if best_field is None:
            plan["castle"] = plan.get("castle", 0) + free
            break
        claimed[best_field] += 1
        plan[best_field] = plan.get(best_field, 0) + 1
        free -= 1
    return plan
