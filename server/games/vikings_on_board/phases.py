"""The turn's structure in one table: who acts in each phase, what they may do, what follows.

``turn``: the next viking moves to a building (V2.1, V2.2); ``act``: its owner carries out the
building's action (V3); ``bonus``: with 2 players, the other player's bonus viking (V3.10);
``sail``: the stern's taker chooses the drakkar that sails at the end of the turn (V4.1, D5);
``reckon``: the table shows the sailing's reckoning (each colour's shields, the ranking, the bet
on the leader; V4.2, V4.3) until NEXT; ``share``: the sailing drakkar's chests are handed out
(V4.4, V4.5). A phase's ``enter`` may resolve automatic steps and return the next phase at
once; ``follows`` lists every phase that may come next and the state refuses any other transition.
"""

from __future__ import annotations

from .. import phased
from . import buildings, sailing, turn
from .state import VikingsState

Phase = phased.Phase[VikingsState]


_PHASE_LIST = [
    Phase("setup", "V1", follows=("turn",)),
    Phase(
        "turn",
        "V2.1 V2.2 V2.4",
        follows=("act", "bonus", "sail"),
        actors=turn.actors_turn,
        legal=turn.legal_turn,
        handlers={"go": turn.go},
    ),
    Phase(
        "act",
        "V3 D4 D6",
        follows=("turn", "sail"),
        actors=buildings.actors_act,
        legal=buildings.legal_act,
        handlers={
            "back": buildings.back,
            "promote": buildings.promote,
            "pick_piece": buildings.pick_piece,
            "to_drakkar": buildings.to_drakkar,
            "swap_with": buildings.swap_with,
            "pick_barrel": buildings.pick_barrel,
            "to_zone": buildings.to_zone,
            "place_chest": buildings.place_chest,
            "raise": buildings.raise_goods,
        },
    ),
    Phase(
        "bonus",
        "V3.10",
        follows=("turn", "sail"),
        enter=buildings.enter_bonus,
        actors=buildings.actors_bonus,
        legal=buildings.legal_bonus,
        handlers={"bonus_viking": buildings.bonus_viking},
    ),
    Phase(
        "sail",
        "V2.3 V4.1 D5",
        follows=("reckon",),
        actors=sailing.actors_sail,
        legal=sailing.legal_sail,
        handlers={"sail": sailing.sail},
    ),
    Phase(
        "reckon",
        "V4.2 V4.3",
        follows=("share",),
        table_actions=("next",),
        table_handlers={"next": sailing.next_step},
    ),
    Phase(
        "share",
        "V4.2-V4.6",
        follows=("turn", "over"),
        enter=sailing.enter_share,
        actors=sailing.actors_share,
        legal=sailing.legal_share,
        handlers={"take_chest": sailing.take_chest, "discard_chest": sailing.discard_chest},
    ),
    Phase("over", "V5", follows=(), enter=sailing.enter_over),
]

PHASES: dict[str, Phase] = {phase.name: phase for phase in _PHASE_LIST}
