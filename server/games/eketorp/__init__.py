"""Eketorp (Amigo, 2000): simultaneous secret placement of vikings, card fights and sieges.

A pure, deterministic rules engine: see ``docs/rules/eketorp.md`` for the rules it implements.
"""

from __future__ import annotations

from ..lobby import Choice, DataFile, Lobby
from ..spec import GameSpec
from .bots import GreedyBot, RandomBot
from .cues import CUES
from .expert import ExpertBot
from .invariants import check_invariants
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .setup import configure
from .state import EketorpState, new_game
from .view import commitments, private_view, public_view, resample_hidden

SPEC = GameSpec(
    name="eketorp",
    title="Eketorp",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    package=__name__,
    new=new_game,
    from_dict=EketorpState.from_dict,
    public_view=public_view,
    private_view=private_view,
    bots={"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot},
    lobby=Lobby(
        colours=("red", "blue", "yellow", "green", "white", "black"),  # the six castles
        minutes=(60, 60),  # the box's playing time
        options=(
            # Longhall's deck, or the printed cards the start player enters (D1)
            Choice(
                "deck",
                ("house", "physical"),
                "house",
                "The material deck is 'house' or 'physical'.",
            ),
        ),
        earlier={"set_options": lambda options, record: ("deck", record["options"]["deck"])},
    ),
    configure=configure,
    data=(
        DataFile(
            "material_cards", "material_cards.json", "eketorp-material-cards.json", "material deck"
        ),
    ),
    cues=CUES,
    resample_hidden=resample_hidden,
    check_invariants=check_invariants,
    commitments=commitments,
    # the host builds for an absent seat (D9), and enters the printed material card, which no
    # bot can see
    proxy_actions=frozenset({"auto_build", "card_add", "card_remove", "card_done"}),
    host_enters=frozenset({"card_add", "card_remove", "card_done"}),
)

__all__ = ["SPEC", "EketorpState", "new_game"]
