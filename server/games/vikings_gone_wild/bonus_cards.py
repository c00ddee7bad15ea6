"""The bonus cards on the table (W1.3, D17, D20): the group shuffles the real cards and lays 4 out;
the start player tells Longhall which, card by card or the print's first-game set in one tap. A card
the print does not name is named by the group once, and the table keeps the name for its next
games. The cards left in the box are the tie-break's, in an order drawn when the 4 are laid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import Action, IllegalAction, Seat
from . import rules as R
from .turn import first_missions

if TYPE_CHECKING:
    from .state import WildState

LONGEST_NAME = 24


def actors(st: WildState) -> list[int]:
    return [st.first]


def legal(st: WildState, seat: int) -> list[Action]:
    if seat != st.first:
        return []
    cards = st.config["cards"]
    laid = st.bonus
    out: list[Action] = []
    if len(laid) == R.BONUS_IN_PLAY:
        out.append({"type": "bonus_laid"})
    else:
        out += [{"type": "lay_bonus", "card": c} for c in cards["bonuses"] if c not in laid]
    if not laid and cards["first_game"]:
        out.append({"type": "first_game_bonus"})
    out += [{"type": "unlay_bonus", "card": c, "undo": True} for c in laid]
    return out


def lay(st: WildState, seat: Seat, action: Action) -> None:
    card = action["card"]
    if card not in st.config["cards"]["bonuses"]:
        raise IllegalAction("not_a_bonus_card", "There is no such bonus card (W0.5).")
    if card in st.bonus:
        raise IllegalAction("bonus_already_laid", "That bonus card is on the table already.")
    if len(st.bonus) >= R.BONUS_IN_PLAY:
        raise IllegalAction("bonus_full", "Four bonus cards are on the table already (W1.3).")
    st.bonus.append(card)


def unlay(st: WildState, seat: Seat, action: Action) -> None:
    if action["card"] not in st.bonus:
        raise IllegalAction("bonus_not_laid", "That bonus card is not on the table.")
    st.bonus.remove(action["card"])


def first_game(st: WildState, seat: Seat, action: Action) -> None:
    """The print's advice for a first game, in one tap (W1.3)."""
    cards = st.config["cards"]
    if st.bonus or not cards["first_game"]:
        raise IllegalAction(
            "bonus_not_first_game", "Take the cards laid back first, or lay them one by one."
        )
    st.bonus = list(cards["first_game"])
    _laid(st)


def laid(st: WildState, seat: Seat, action: Action) -> None:
    if len(st.bonus) != R.BONUS_IN_PLAY:
        raise IllegalAction(
            "bonus_not_four", "Say which 4 bonus cards lie on the table (W1.3).", count=4
        )
    _laid(st)


def _laid(st: WildState) -> None:
    """The 4 are on the table: the rest is the box, in an order nobody sees (D17)."""
    st.box = [c for c in st.config["cards"]["bonuses"] if c not in st.bonus]
    st.rng.shuffle(st.box)
    st.record("bonus_on_table", bonus=list(st.bonus))
    st.goto(first_missions(st))


def name(st: WildState, seat: Seat, action: Action) -> None:
    """A card the print does not name gets the group's name for it (D20)."""
    card, given = action["card"], " ".join(action["name"].split())
    if card not in st.config["cards"]["unnamed"]:
        raise IllegalAction("bonus_named_in_print", "That bonus card has its printed name (D20).")
    if not given or len(given) > LONGEST_NAME or not given.isprintable():
        raise IllegalAction(
            "bad_bonus_name", "Give the card's name as printed on it.", most=LONGEST_NAME
        )
    st.bonus_names[card] = given
    st.record("bonus_named", card=card, name=given)
