"""What each reader may see: the one place Eketorp's state leaves the engine.

``view(state, seat)`` returns ``{"public": ..., "private": ..., "legal": ...}``. ``public`` is the
same for every reader: the board, counts of cards and amulets, who has committed, every card once
it has been revealed. ``private`` holds the reader's own hand, plan and chosen card; the table
display (``seat=None``) has none. Nothing else ever leaves: no other seat's hand, plan or chosen
card, no draw-pile or material-deck order, no RNG.

``public.result`` is ``None`` until the game is over, then says why it ended and who won:
``{"reason": "complete", "castles": [{"seat", "stones"}], "round", "winners"}`` when castles
reached 18 stones (R6.4), ``{"reason": "rounds", "round", "winners"}`` when the last material card
was played (R7.4). The stones built in the last round stay marked in ``seats[].fresh``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..api import Seat
from . import rules as R
from .building import proposal
from .fights import can_swap
from .planning import planned
from .scoring import score

if TYPE_CHECKING:
    from .state import EketorpState

LOG_TAIL = 24  # the table display shows the last few; a reconnecting page needs no more


def public_view(st: EketorpState) -> dict[str, Any]:
    fight = st.fight
    public_fight = None
    if fight is not None:
        public_fight = {
            "kind": fight["kind"],
            "field": fight["field"],
            "a": fight["a"],
            "b": fight["b"],
            "defended": fight["defended"],
            "swaps": list(fight["swaps"]),
            "swapper": (fight["a"], fight["b"])[fight["swapper"]] if st.phase == "swap" else None,
            "chosen": [card is not None for card in fight["played"]],
        }
    seats = []
    for s in range(st.n):
        seats.append(
            {
                "vikings": st.vikings,
                "home": st.home[s],
                "hospital": list(st.hospital[s]),
                "amulets": st.amulets[s],
                "hand": len(st.hands[s]),
                "discard": list(st.discards[s]),
                "committed": st.committed[s],
                "castle": [list(stack) for stack in st.castles[s]],
                "beside": list(st.beside[s]),
                "carry": list(st.carry[s]),
                "built": st.done[s],
                "fresh": list(st.fresh[s]),
                "can_swap": can_swap(st, s),
                "score": score(st, s),
            }
        )
    return {
        "round": st.round,
        "max_rounds": st.max_rounds,
        "phase": st.phase,
        "start_player": st.start,
        "players": st.n,
        "turn": st.turn if st.phase == "pick" else None,
        "active": st.active_seats(),
        "table_actions": [a["type"] for a in st.legal_actions(None)],
        "supply": dict(st.supply),
        "fields": {f: dict(st.fields[f]) for f in R.FIELDS},
        "material": {
            "mode": st.config["deck"],
            "deck_left": len(st.deck),
            "card": st.card,
            "draft": {f: list(v) for f, v in st.card_draft.items()},
        },
        "seats": seats,
        "board": {key: list(occ) for key, occ in st.board.items() if any(occ)},
        "revealed": st.revealed,
        "cards": {"draw": len(st.draw), "general": len(st.general)},
        "fight": public_fight,
        "last_fight": st.last_fight,
        "sharing": None
        if st.share is None
        else {
            "field": st.share["field"],
            "turn": st.share["turn"],
            "wants": list(st.share["wants"]),
        },
        "result": st.result,
        "log": st.log[-LOG_TAIL:],
    }


def private_view(st: EketorpState, seat: int) -> dict[str, Any]:
    played = None
    fight = st.fight
    if fight is not None and seat in (fight["a"], fight["b"]):
        played = fight["played"][0 if seat == fight["a"] else 1]
    return {
        "hand": sorted(st.hands[seat]),
        "plan": dict(st.plans[seat]),
        "unplanned": st.home[seat] - planned(st, seat) if st.phase == "planning" else 0,
        "played": played,
        "proposal": [list(p) for p in proposal(st, seat)] if st.phase == "building" else [],
    }


def resample_hidden(st: EketorpState, seat: Seat, rnd: random.Random) -> EketorpState:
    """Return a copy in which everything ``seat`` cannot see is drawn again (for the tests)."""
    out = st.clone()
    others = [s for s in range(st.n) if s != seat]
    # Cards: the draw pile, the general discard, other hands and other unrevealed chosen cards.
    pool = list(out.draw) + list(out.general)
    for s in others:
        pool.extend(out.hands[s])
    fight = out.fight
    hidden_slots = []
    if fight is not None and None in fight["played"]:  # chosen but not yet revealed
        for idx, s in enumerate((fight["a"], fight["b"])):
            if s != seat and fight["played"][idx] is not None:
                hidden_slots.append(idx)
                pool.append(fight["played"][idx])
    rnd.shuffle(pool)
    k = len(out.draw)
    out.draw, pool = pool[:k], pool[k:]
    k = len(out.general)
    out.general, pool = pool[:k], pool[k:]
    for s in others:
        k = len(out.hands[s])
        out.hands[s], pool = sorted(pool[:k]), pool[k:]
    for idx in hidden_slots:
        assert fight is not None
        fight["played"][idx] = pool.pop()
    # The material deck's order and the two cards put away unseen.
    cards = out.deck + out.removed
    rnd.shuffle(cards)
    out.removed, out.deck = cards[: len(out.removed)], cards[len(out.removed) :]
    # Plans nobody else has seen yet.
    if out.phase in ("planning", "reveal"):
        for s in others:
            out.plans[s] = {"castle": out.home[s]} if out.committed[s] and out.home[s] else {}
    out.rng.state = rnd.getrandbits(64)
    return out


def commitments(st: EketorpState) -> dict[int, Any]:
    """The secret choices committed and not yet revealed: plans (R3) and chosen cards (R5.9)."""
    if st.phase in ("planning", "reveal"):
        return {s: dict(st.plans[s]) for s in range(st.n) if st.committed[s] and st.home[s]}
    fight = st.fight
    if st.phase == "choose" and fight is not None:
        return {
            seat: {"card": card}
            for seat, card in zip((fight["a"], fight["b"]), fight["played"], strict=True)
            if card is not None
        }
    return {}
