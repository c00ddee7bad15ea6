"""Vikings Gone Wild (Lucky Duck Games, 2016): Longhall keeps the score track, the five phases of a
turn, the attack and defence arithmetic, the divine favours, the town hall and building limits,
the missions, the end of the game and the bonus split; the cards stay on the table.

A pure, deterministic rules engine: see ``docs/rules/vikings-gone-wild.md`` for the rules it
implements (W0-W9, rulings D1-D20).
"""

from __future__ import annotations

from ..api import GameSpec
from .bots import GreedyBot, RandomBot
from .invariants import check_invariants
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import WildState, new_game
from .view import commitments, public_view, resample_hidden, view

SPEC = GameSpec(
    name="vikings_gone_wild",
    title="Vikings Gone Wild",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new=new_game,
    from_dict=WildState.from_dict,
    view=view,
    public_view=public_view,
    bots={"random": RandomBot, "greedy": GreedyBot},
    resample_hidden=resample_hidden,
    check_invariants=check_invariants,
    commitments=commitments,
    kept=lambda st: {"numbers": dict(st.numbers)},  # D1: offered again in the next games
)

__all__ = ["SPEC", "WildState", "new_game", "view"]
