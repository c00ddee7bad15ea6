"""The end of the game: the bonus split (W9.4, D18), the winner (W9.5) and the tie-break (W9.6,
W9.7, D17)."""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from ..api import Action, IllegalAction, Seat
from . import rules as R

if TYPE_CHECKING:
    from .state import WildState


def enter_bonus(st: WildState) -> str | None:
    st.claims = [None] * st.n
    st.record("bonus_check", bonus=list(st.bonus))
    return None


def actors_bonus(st: WildState) -> list[int]:
    return [s for s in range(st.n) if st.claims[s] is None]


def legal_bonus(st: WildState, seat: int) -> list[Action]:
    if seat not in actors_bonus(st):
        return []
    return [
        {"type": "bonus", "meets": list(meets)}
        for meets in product((False, True), repeat=len(st.bonus))
    ]


def claim_bonus(st: WildState, seat: Seat, action: Action) -> None:
    """A player says which of the bonus cards they meet (W9.4)."""
    assert seat is not None
    meets = action["meets"]
    if len(meets) != len(st.bonus) or any(type(m) is not bool for m in meets):
        raise IllegalAction(
            "bad_claims",
            f"Say for each of the {len(st.bonus)} bonus cards whether you meet it.",
            count=len(st.bonus),
        )
    st.claims[seat] = list(meets)
    st.record("bonus_claimed", seat=seat)
    if actors_bonus(st):
        return
    split = []
    for k, card in enumerate(st.bonus):
        met = [s for s in range(st.n) if (st.claims[s] or [])[k]]
        share = R.SPLIT.get(len(met), 0)  # D18: nobody, nothing
        split.append({"card": card, "seats": met, "points": share})
        for s in met:
            st.gain(s, share, "bonus")
    st.record("bonus_split", split=split)
    best = max(st.score)
    tied = [s for s in range(st.n) if st.score[s] == best]
    # "rounds": each card drawn and who met it, so the final screen can tell how it was settled
    st.tiebreak = {"tied": tied, "drawn": [], "card": None, "answers": {}, "rounds": []}
    if len(tied) == 1 or not st.box:
        st.goto("over")
    else:
        st.goto("tiebreak")


def enter_tiebreak(st: WildState) -> str | None:
    """Draw one of the bonus cards left in the box (W9.6, D17)."""
    tb = st.tiebreak
    assert tb is not None and st.box
    card = st.box.pop(0)
    tb["card"] = card
    tb["drawn"].append(card)
    tb["answers"] = {}
    st.record("tiebreak_card", card=card, tied=list(tb["tied"]))
    return None


def actors_tiebreak(st: WildState) -> list[int]:
    tb = st.tiebreak
    if tb is None:
        return []
    return [s for s in tb["tied"] if str(s) not in tb["answers"]]


def legal_tiebreak(st: WildState, seat: int) -> list[Action]:
    if seat not in actors_tiebreak(st):
        return []
    return [{"type": "tiebreak", "meets": False}, {"type": "tiebreak", "meets": True}]


def answer_tiebreak(st: WildState, seat: Seat, action: Action) -> None:
    tb = st.tiebreak
    assert tb is not None and seat is not None
    tb["answers"][str(seat)] = action["meets"]
    if actors_tiebreak(st):
        return
    meets = [s for s in tb["tied"] if tb["answers"][str(s)]]
    st.record("tiebreak_answered", card=tb["card"], meets=meets)
    rounds = tb.setdefault("rounds", [])  # a game saved before rounds were kept has none
    rounds.append({"card": tb["card"], "tied": list(tb["tied"]), "meets": meets})
    if 0 < len(meets) < len(tb["tied"]):  # W9.6; D17: those who meet it stay tied
        tb["tied"] = meets
    if len(tb["tied"]) == 1 or not st.box:  # W9.7
        st.goto("over")
    else:
        st.goto("tiebreak")


def enter_over(st: WildState) -> str | None:
    tb = st.tiebreak
    winners = list(tb["tied"]) if tb is not None else st.winners()
    st.result = {"winners": winners, "scores": [dict(s) for s in st.scores()]}
    st.current = None
    st.record("game_over", winners=winners)
    return None
