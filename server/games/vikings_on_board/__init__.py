"""Vikings on Board (Blue Orange, 2016): vikings choose buildings, push hull pieces between
drakkars, bet barrels on who leads a drakkar, and share the chests when it sails.

A pure, deterministic rules engine: see ``docs/rules/vikings-on-board.md`` for the rules it
implements (V0-V5, rulings D1-D6).
"""

from __future__ import annotations

from ..api import GameSpec
from .bots import GreedyBot, RandomBot
from .expert import ExpertBot
from .invariants import check_invariants
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import VikingsState, new_game
from .view import commitments, public_view, resample_hidden, view

SPEC = GameSpec(
    name="vikings_on_board",
    title="Vikings on Board",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new=new_game,
    from_dict=VikingsState.from_dict,
    view=view,
    public_view=public_view,
    bots={"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot},
    resample_hidden=resample_hidden,
    check_invariants=check_invariants,
    commitments=commitments,
)

__all__ = ["SPEC", "VikingsState", "new_game", "view"]
