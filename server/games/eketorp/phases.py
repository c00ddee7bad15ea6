"""The round's structure in one table: who acts in each phase, what they may do, what follows.

The phases mirror the printed round (R2-R7); phase 4 (fights and sieges) is split into its steps.
A phase's ``enter`` runs when the game arrives in it and may resolve automatic steps and return the
next phase at once (a house-deck card is turned without anyone acting, a player who cannot pay for
a swap is not asked). ``follows`` lists every phase that may come next: the state refuses any
other transition.
"""

from __future__ import annotations

from .. import phased
from ..api import Action, IllegalAction, Seat
from . import building, fights, materials, planning
from .state import EketorpState

Phase = phased.Phase[EketorpState]


def _all_committed(st: EketorpState, seat: Seat, action: Action) -> None:
    raise IllegalAction(
        "all_committed", "Everyone has committed: plans can no longer change (R4.1)."
    )


def _enter_over(st: EketorpState) -> str | None:
    st.fight = None
    st.share = None
    if st.result is None:
        st.result = {"reason": "rounds", "round": st.round}
    st.result["winners"] = st.winners()
    st.record("end", reason=st.result["reason"], winners=st.result["winners"])
    return None


def _physical_start(st: EketorpState) -> list[int]:
    return [st.start] if st.config["deck"] == "physical" else []


_PHASE_LIST = [
    Phase("setup", "R1", follows=("materials",)),
    Phase(
        "materials",
        "R2 D1 D2",
        follows=("planning",),
        enter=materials.enter_materials,
        actors=_physical_start,
        legal=materials.legal_materials,
        handlers={
            "card_add": materials.card_add,
            "card_remove": materials.card_remove,
            "card_done": materials.card_done,
        },
    ),
    Phase(
        "planning",
        "R3",
        follows=("reveal",),
        enter=planning.enter_planning,
        actors=planning.actors_planning,
        legal=planning.legal_planning,
        handlers={
            "place": planning.place,
            "unplace": planning.unplace,
            "commit": planning.commit,
            "uncommit": planning.uncommit,
        },
        always=frozenset({"place", "unplace", "commit", "uncommit"}),
    ),
    Phase(
        "reveal",
        "R4",
        follows=("pick",),
        handlers={"uncommit": _all_committed},
        always=frozenset({"uncommit"}),
        table_actions=("reveal",),
        table_handlers={"reveal": planning.reveal},
    ),
    Phase(
        "pick",
        "R5.1-R5.7",
        follows=("swap", "sharing"),
        enter=fights.enter_pick,
        actors=fights.actors_pick,
        legal=fights.legal_pick,
        handlers={"fight": fights.start_fight, "siege": fights.start_siege},
    ),
    Phase(
        "swap",
        "R5.8 D8 D11",
        follows=("swap", "choose"),
        enter=fights.enter_swap,
        actors=fights.actors_swap,
        legal=fights.legal_swap,
        handlers={"swap": fights.swap, "keep": fights.keep},
    ),
    Phase(
        "choose",
        "R5.9-R5.16 D7",
        follows=("pick", "loot"),
        enter=fights.enter_choose,
        actors=fights.actors_choose,
        legal=fights.legal_choose,
        handlers={"play": fights.play, "take_back": fights.take_back},
        always=frozenset({"take_back"}),
    ),
    Phase(
        "loot",
        "R5.17 D6",
        follows=("pick",),
        enter=fights.enter_loot,
        actors=fights.actors_loot,
        legal=fights.legal_loot,
        handlers={"loot": fights.loot, "skip_loot": fights.skip_loot},
    ),
    Phase(
        "sharing",
        "R5.1 R5.2 D4",
        follows=("building",),
        enter=building.enter_sharing,
        actors=building.actors_sharing,
        legal=building.legal_sharing,
        handlers={"take": building.take},
    ),
    Phase(
        "building",
        "R6 D9",
        follows=("round_end", "over"),
        enter=building.enter_building,
        actors=building.actors_building,
        legal=building.legal_building,
        handlers={
            "build": building.build,
            "unbuild": building.unbuild,
            "auto_build": building.auto_build,
            "done": building.done,
        },
        always=frozenset({"build", "unbuild", "auto_build", "done"}),
    ),
    Phase(
        "round_end",
        "R7",
        follows=("materials",),
        enter=materials.enter_round_end,
        table_actions=("next_round",),
        table_handlers={"next_round": materials.next_round},
    ),
    Phase("over", "R6.4 R7.4 R8", follows=(), enter=_enter_over),
]

PHASES: dict[str, Phase] = {phase.name: phase for phase in _PHASE_LIST}
