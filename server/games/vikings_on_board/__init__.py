"""Vikings on Board (Blue Orange, 2016): vikings choose buildings, push hull pieces between
drakkars, bet barrels on who leads a drakkar, and share the chests when it sails.

A pure, deterministic rules engine: see ``docs/rules/vikings-on-board.md`` for the rules it
implements (V0-V5, rulings D1-D6).
"""

from __future__ import annotations

from ..lobby import DataFile, Lobby
from ..spec import GameSpec
from .bots import GreedyBot, RandomBot
from .cues import CUES
from .expert import ExpertBot
from .invariants import check_invariants
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .setup import configure
from .state import VikingsState, new_game
from .view import commitments, private_view, public_view, resample_hidden

SPEC = GameSpec(
    name="vikings_on_board",
    title="Vikings on Board",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    package=__name__,
    new=new_game,
    from_dict=VikingsState.from_dict,
    public_view=public_view,
    private_view=private_view,
    bots={"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot},
    # 4 colours (V0.1), each player playing the one they sat down with; the box: 30 to 60 minutes;
    # the turn order is drawn (V1.2), so the lobby does not ask who starts
    lobby=Lobby(colours=("red", "blue", "yellow", "green"), minutes=(30, 60), start_player=False),
    configure=configure,
    data=(
        DataFile(
            "components", "components.json", "vikings-on-board-components.json", "component data"
        ),
    ),
    cues=CUES,
    resample_hidden=resample_hidden,
    check_invariants=check_invariants,
    commitments=commitments,
)

__all__ = ["SPEC", "VikingsState", "new_game"]
