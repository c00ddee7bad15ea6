"""Vikings Gone Wild (Lucky Duck Games, 2016): Longhall keeps the score track, the five phases of a
turn, the attack and defence arithmetic, the divine favours, the town hall and building limits,
the missions, the end of the game and the bonus split; the cards stay on the table.

A pure, deterministic rules engine: see ``docs/rules/vikings-gone-wild.md`` for the rules it
implements (W0-W9, rulings D1-D20).
"""

from __future__ import annotations

from ..lobby import Choice, DataFile, Entries, Lobby
from ..spec import GameSpec
from .bots import GreedyBot, RandomBot
from .cues import CUES
from .invariants import check_invariants
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .setup import configure, earlier_numbers
from .state import WildState, new_game
from .view import commitments, private_view, public_view, resample_hidden

BONUS_ACTIONS = ("lay_bonus", "unlay_bonus", "first_game_bonus", "bonus_laid", "name_bonus")

SPEC = GameSpec(
    name="vikings_gone_wild",
    title="Vikings Gone Wild",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    package=__name__,
    new=new_game,
    from_dict=WildState.from_dict,
    public_view=public_view,
    private_view=private_view,
    bots={"random": RandomBot, "greedy": GreedyBot},
    lobby=Lobby(
        colours=("red", "blue", "yellow", "green", "white", "black"),
        # 2 to 4 players (W0.1); the printed rules give no playing time: about 45 minutes is
        # Longhall's own estimate
        minutes=(45, 45),
        options=(
            # the printed variants of the end mark (W9.2, D19); 0 is the printed default (W9.1)
            Choice(
                "end_mark",
                (0, 40, 50),
                0,
                "The end mark is the default (0), 40 or 50 points (W9.2).",
            ),
            # the numbers printed only on the cards, entered in earlier games, by card (D1)
            Entries("numbers", ("no_numbers", "No numbers are kept for that card.")),
            # the group's names for the bonus cards the print does not name (D20)
            Entries("bonus_names", ("no_bonus_name", "No name is kept for that bonus card.")),
        ),
        table_facts=True,  # the end mark and the numbers kept, on the table display
        earlier={
            "set_end_mark": lambda options, record: ("end_mark", record["end_mark"]),
            "set_card_numbers": earlier_numbers,
        },
    ),
    configure=configure,
    data=(DataFile("cards", "cards.json", "vikings-gone-wild-cards.json", "card data"),),
    cues=CUES,
    resample_hidden=resample_hidden,
    check_invariants=check_invariants,
    commitments=commitments,
    kept=lambda st: {  # D1, D20: offered again in the next games
        "numbers": dict(st.numbers),
        "bonus_names": {card: {"name": name} for card, name in st.bonus_names.items()},
    },
    host_actions=frozenset({"correct"}),  # a score or a marker set right, with a reason
    # which bonus cards lie on the table: what only the people at the table see (W1.3, D20)
    proxy_actions=frozenset(BONUS_ACTIONS),
    host_enters=frozenset(BONUS_ACTIONS),
)

__all__ = ["SPEC", "WildState", "new_game"]
