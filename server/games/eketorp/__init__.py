"""Eketorp (Amigo, 2000): simultaneous secret placement of vikings, card fights and sieges.

A pure, deterministic rules engine: see ``docs/rules/eketorp.md`` for the rules it implements.
"""

from __future__ import annotations

from ..api import GameSpec
from .bots import GreedyBot, RandomBot
from .expert import ExpertBot
from .invariants import check_invariants
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import EketorpState, new_game
from .view import commitments, public_view, resample_hidden, view

SPEC = GameSpec(
    name="eketorp",
    title="Eketorp",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new=new_game,
    from_dict=EketorpState.from_dict,
    view=view,
    public_view=public_view,
    bots={"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot},
    resample_hidden=resample_hidden,
    check_invariants=check_invariants,
    commitments=commitments,
)

__all__ = ["SPEC", "EketorpState", "new_game", "view"]
