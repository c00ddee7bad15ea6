"""Building blocks for Eketorp scenarios: set up a table exactly as a rule's example describes.

Every helper keeps the game's invariants: stones come from and go to the supply, cards come from
the draw pile, so that ``check_invariants`` still holds after a scenario is set up.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from longhall.server.games.api import GameState
from longhall.server.games.eketorp import SPEC, EketorpState
from longhall.server.games.eketorp import rules as R
from longhall.server.table.gamedata import default_config

RED, BLUE, YELLOW, GREEN, WHITE, BLACK = range(6)


def new_game(players: int = 4, seed: int = 1, **config: Any) -> EketorpState:
    """A new game in its first planning phase (house deck)."""
    cfg = default_config("eketorp", players)
    cfg.update(config)
    return eketorp(SPEC.new(cfg, seed))


def eketorp(st: GameState) -> EketorpState:
    """The state the spec made, as the game's own type."""
    assert isinstance(st, EketorpState)
    return st


def ok(st: EketorpState) -> EketorpState:
    problems = SPEC.check_invariants(st)
    assert not problems, problems
    return st


def clear_fields(st: EketorpState) -> None:
    """Return every stone on the fields to the supply."""
    for fld in R.FIELDS:
        for stone in R.STONES:
            st.supply[stone] += st.fields[fld][stone]
            st.fields[fld][stone] = 0


def set_field(st: EketorpState, fld: str, **stones: int) -> None:
    """Make field ``fld`` hold exactly the given stones (the rest back to the supply)."""
    for stone in R.STONES:
        st.supply[stone] += st.fields[fld][stone]
        st.fields[fld][stone] = 0
    for stone, count in stones.items():
        assert st.supply[stone] >= count
        st.supply[stone] -= count
        st.fields[fld][stone] = count


def set_castle(st: EketorpState, seat: int, stacks: list[list[str]]) -> None:
    """Give ``seat``'s castle these stacks (bottom first), taken from the supply."""
    for stack in st.castles[seat]:
        for stone in stack:
            st.supply[stone] += 1
    st.castles[seat] = [[] for _ in range(R.SITES)]
    for i, stack in enumerate(stacks):
        for stone in stack:
            st.supply[stone] -= 1
            st.castles[seat][i].append(stone)


def set_hand(st: EketorpState, seat: int, cards: list[int]) -> None:
    """Give ``seat`` exactly this hand; cards move from and to the draw pile."""
    st.draw.extend(st.hands[seat])
    st.draw.extend(st.discards[seat])
    st.discards[seat] = []
    st.hands[seat] = []
    for card in cards:
        st.draw.remove(card)
    st.hands[seat] = sorted(cards)
    # keep hand + discard at 4 cards (R5.12, R5.13)
    for card in sorted(Counter(st.draw).elements())[: R.HAND_SIZE - len(cards)]:
        st.draw.remove(card)
        st.discards[seat].append(card)


def plan(st: EketorpState, plans: dict[int, dict[str, int]], reveal: bool = True) -> None:
    """Enter every seat's plan through the API (seats not named defend with everything)."""
    assert st.phase == "planning"
    for seat in range(st.n):
        if st.committed[seat]:
            continue
        wanted = dict(plans.get(seat, {}))
        placed = sum(wanted.values()) + sum(st.plans[seat].values())
        if placed < st.home[seat]:
            wanted["castle"] = wanted.get("castle", 0) + st.home[seat] - placed
        for dest, count in wanted.items():
            for _ in range(count):
                st.apply(seat, {"type": "place", "to": dest})
        st.apply(seat, {"type": "commit"})
    if reveal:
        st.apply(None, {"type": "reveal"})


def fight(st: EketorpState, cards: dict[int, int], swaps: bool = False) -> None:
    """Keep both hands (no amulets) and play the given cards."""
    while st.phase == "swap":
        seat = st.active_seats()[0]
        st.apply(seat, {"type": "keep"})
    for seat, card in cards.items():
        st.apply(seat, {"type": "play", "card": card})


def siege(owner: int, side: str) -> str:
    return R.siege_field(owner, side)


def play_out(st: EketorpState, seed: int = 0, kind: str = "random") -> EketorpState:
    """Finish a game with bots (the table presses NEXT)."""
    bots = [SPEC.bots[kind](seed + s) for s in range(st.n)]
    while not st.is_over():
        active = st.active_seats()
        if active:
            st.apply(active[0], bots[active[0]].choose(st, active[0]))
        else:
            st.apply(None, st.legal_actions(None)[0])
    return st


def full_step(full: GameState, bots: list[Any]) -> None:
    """One action between bots on the full engine, of any game (the table acts if no seat does)."""
    active = full.active_seats()
    if active:
        full.apply(active[0], bots[active[0]].choose(full, active[0]))
    else:
        full.apply(None, full.legal_actions(None)[0])
