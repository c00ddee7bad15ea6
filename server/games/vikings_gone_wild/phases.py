"""The turn's structure in one table: who acts in each phase, what they may do, what follows.

``table_bonus``: the start player says which 4 bonus cards lie on the table (W1.3, D20);
``missions``: each player enters their two first missions (W1.2); ``production`` (W2.2) and
``draw`` (W2.3, W7.2) wait for the NEXT button; ``players``: one player after another from the
first player (W2.4), ``defend`` while an attack waits for the defender's answer (W5.2, D3);
``storage`` (W2.5, W2.6); ``end`` (W2.7, W2.8); after the last turn ``bonus`` (W9.4) and, on equal
totals, ``tiebreak`` (W9.6).
"""

from __future__ import annotations

from .. import phased
from . import bonus_cards, scoring, turn, turn_end
from .state import WildState

Phase = phased.Phase[WildState]


_PHASE_LIST = [
    Phase("setup", "W1", follows=("table_bonus", "production", "missions")),
    Phase(
        "table_bonus",
        "W1.3 D20",
        follows=("production",),
        actors=bonus_cards.actors,
        legal=bonus_cards.legal,
        handlers={
            "lay_bonus": bonus_cards.lay,
            "unlay_bonus": bonus_cards.unlay,
            "first_game_bonus": bonus_cards.first_game,
            "bonus_laid": bonus_cards.laid,
            "name_bonus": bonus_cards.name,
        },
    ),
    Phase(
        "missions",
        "W1.2",
        follows=("production",),
        actors=turn.actors_missions,
        legal=turn.legal_missions,
        handlers={"take_mission": turn.take_mission},
    ),
    Phase(
        "production",
        "W2.2",
        follows=("draw",),
        enter=turn.enter_production,
        table_actions=("next",),
        table_handlers={"next": turn.next_to_draw},
    ),
    Phase(
        "draw",
        "W2.3 W7.2 D13",
        follows=("players",),
        enter=turn.enter_draw,
        actors=turn.actors_draw,
        legal=turn.legal_draw,
        handlers={"take_mission": turn.take_mission, "pass_mission": turn.pass_mission},
        table_actions=("next",),
        table_handlers={"next": turn.next_to_players},
    ),
    Phase(
        "players",
        "W2.4 W3 W4 W6 W7 D15",
        follows=("defend", "storage"),
        enter=turn.enter_players,
        actors=turn.actors_players,
        legal=turn.legal_players,
        handlers={
            "build": turn.build,
            "upgrade": turn.upgrade,
            "card_numbers": turn.card_numbers,
            "attack": turn.attack,
            "undead_river": turn.undead_river,
            "undead_board": turn.undead_board,
            "complete_mission": turn.complete_mission,
            "name_mission": turn.name_mission,
            "swap_mission": turn.swap_mission,
            "spend": turn.spend,
            "undo": turn.undo,
            "end_turn": turn.end_turn,
        },
        table_actions=("next",),
        table_handlers={"next": turn.end_turn},
    ),
    Phase(
        "defend",
        "W5 D3",
        follows=("players",),
        actors=turn.actors_defend,
        legal=turn.legal_defend,
        handlers={"defend": turn.defend},
    ),
    Phase(
        "storage",
        "W2.5 W2.6 D11",
        follows=("end",),
        enter=turn_end.enter_storage,
        actors=turn_end.actors_storage,
        legal=turn_end.legal_storage,
        handlers={"store": turn_end.store, "store_done": turn_end.store_done},
        table_actions=("next",),
        table_handlers={"next": turn_end.next_after_storage},
    ),
    Phase(
        "end",
        "W2.7 W2.8 D12",
        follows=("production", "bonus"),
        enter=turn_end.enter_end,
        actors=turn_end.actors_end,
        legal=turn_end.legal_end,
        handlers={"keep": turn_end.keep},
        table_actions=("next",),
        table_handlers={"next": turn_end.next_after_end},
    ),
    Phase(
        "bonus",
        "W9.4 D18",
        follows=("tiebreak", "over"),
        enter=scoring.enter_bonus,
        actors=scoring.actors_bonus,
        legal=scoring.legal_bonus,
        handlers={"bonus": scoring.claim_bonus},
    ),
    Phase(
        "tiebreak",
        "W9.6 W9.7 D17",
        follows=("tiebreak", "over"),
        enter=scoring.enter_tiebreak,
        actors=scoring.actors_tiebreak,
        legal=scoring.legal_tiebreak,
        handlers={"tiebreak": scoring.answer_tiebreak},
    ),
    Phase("over", "W9.5", follows=(), enter=scoring.enter_over),
]

PHASES: dict[str, Phase] = {phase.name: phase for phase in _PHASE_LIST}
