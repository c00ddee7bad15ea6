"""Fights: classification, order, amulets, cards, hospital (R5.1-R5.13, D8, D11)."""

from __future__ import annotations

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.eketorp import SPEC, EketorpState

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    clear_fields,
    fight,
    new_game,
    ok,
    plan,
    set_field,
    set_hand,
)
from .test_planning import refused


def arena(players: int = 4, **fields: dict[str, int]) -> EketorpState:
    st = new_game(players)
    clear_fields(st)
    for fld, stones in fields.items():
        set_field(st, fld, **stones)
    return st


def test_fields_with_enough_stones_or_one_player_have_no_fight() -> None:
    # R5.1 one player only, R5.2 enough stones, R5.3 contested
    st = arena(A={"grass": 1}, B={"grass": 2}, C={"grass": 1})
    plan(st, {RED: {"A": 1, "B": 1, "C": 3}, BLUE: {"A": 1, "B": 1}})
    assert st.phase == "pick" and st.active_seats() == [RED]
    options = st.legal_actions(RED)
    assert options == [{"type": "fight", "field": "A", "opponent": BLUE}]
    refused(st, RED, {"type": "fight", "field": "B", "opponent": BLUE}, "no_fight_here")
    refused(st, RED, {"type": "fight", "field": "C", "opponent": BLUE}, "no_opponent_there")
    ok(st)


def test_fights_go_clockwise_from_the_start_player_skipping_who_has_none() -> None:
    # R5.6
    st = arena(A={"wood": 1}, B={"wood": 1})
    plan(st, {BLUE: {"A": 1}, YELLOW: {"A": 1, "B": 1}, GREEN: {"B": 1}})
    assert st.turn == BLUE  # the start player (red) has no fight: skipped
    with pytest.raises(IllegalAction) as err:
        st.apply(YELLOW, {"type": "fight", "field": "B", "opponent": GREEN})
    assert err.value.code == "not_your_turn"
    set_hand(st, BLUE, [6, 5, 4, 3])
    set_hand(st, YELLOW, [1, 2, 2, 3])
    st.apply(BLUE, {"type": "fight", "field": "A", "opponent": YELLOW})
    fight(st, {BLUE: 6, YELLOW: 1})
    assert st.turn == YELLOW  # then the next player clockwise
    assert st.legal_actions(YELLOW) == [{"type": "fight", "field": "B", "opponent": GREEN}]
    ok(st)


def test_rulebook_fight_blue_three_against_red_five() -> None:
    # R5.9, R5.10 and the rulebook's fight example: damage 2, blue to station "1-2"
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [5, 2, 1, 1])
    set_hand(st, BLUE, [3, 2, 1, 1])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    fight(st, {BLUE: 3, RED: 5})
    last = st.last_fight
    assert last is not None and last["winner"] == RED and last["damage"] == 2
    assert last["hospital"] == [{"seat": BLUE, "station": "1-2"}]
    assert st.hospital[BLUE] == [0, 1, 0]
    # red's viking stays alone on A and takes the grass home (R5.1, D4)
    assert st.phase == "building" and st.carry[RED] == ["grass"]
    ok(st)


@pytest.mark.parametrize(("a", "b", "station"), [(6, 3, 0), (6, 1, 0), (4, 2, 1), (4, 3, 1)])
def test_damage_decides_the_hospital_station(a: int, b: int, station: int) -> None:
    # R5.10: damage 3 or more -> "3-4-5", 1 or 2 -> "1-2"
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [a, 1, 1, 1])
    set_hand(st, BLUE, [b, 2, 2, 2] if b != 2 else [2, 1, 1, 1])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    fight(st, {RED: a, BLUE: b})
    expected = [0, 0, 0]
    expected[station] = 1
    assert st.hospital[BLUE] == expected
    ok(st)


def test_a_tie_sends_both_vikings_to_station_zero() -> None:
    # R5.11
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [4, 1, 1, 1])
    set_hand(st, BLUE, [4, 2, 2, 2])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    fight(st, {RED: 4, BLUE: 4})
    assert st.last_fight is not None and st.last_fight["winner"] is None
    assert st.last_fight["hospital"] == [
        {"seat": RED, "station": "0"},
        {"seat": BLUE, "station": "0"},
    ]
    # nothing else happens this round; at its end both leave station "0" for home (R7.1)
    assert st.phase == "round_end"
    healed = [e for e in st.log if e["e"] == "round_end"][-1]["healed"]
    assert healed[RED] == 1 and healed[BLUE] == 1
    ok(st)


def test_played_cards_are_exchanged_and_an_empty_hand_takes_its_discard_pile() -> None:
    # R5.12, R5.13
    st = arena(A={"grass": 1}, B={"grass": 1})
    plan(st, {RED: {"A": 2}, BLUE: {"A": 2}})
    set_hand(st, RED, [6, 5])  # two cards in hand, two on the discard pile
    red_discard = list(st.discards[RED])
    set_hand(st, BLUE, [2, 1, 1, 1])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    fight(st, {RED: 6, BLUE: 1})
    assert st.discards[RED] == [*red_discard, 1]
    assert st.discards[BLUE][-1] == 6
    assert st.hands[RED] == [5] and len(st.hands[BLUE]) == 3
    ok(st)


def test_a_hand_played_empty_is_refilled_from_the_own_discard_pile() -> None:
    # R5.13: "takes all the cards of their own discard pile into hand"
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [6])
    discard = sorted(st.discards[RED])
    set_hand(st, BLUE, [2, 1, 1, 1])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    fight(st, {RED: 6, BLUE: 2})
    assert st.hands[RED] == sorted([*discard, 2])
    assert st.discards[RED] == []
    ok(st)


def test_the_card_choice_is_secret_until_both_have_chosen() -> None:
    # R5.9
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [6, 1, 1, 1])
    set_hand(st, BLUE, [5, 2, 2, 2])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    while st.phase == "swap":
        st.apply(st.active_seats()[0], {"type": "keep"})
    assert sorted(st.active_seats()) == [RED, BLUE]  # simultaneous
    st.apply(RED, {"type": "play", "card": 6})
    for seat in (None, BLUE, YELLOW):
        seen = SPEC.view(st, seat)
        assert seen["public"]["fight"]["chosen"] == [True, False]
        assert "played" not in seen["public"]["fight"] and seen["public"]["last_fight"] is None
        assert seen["private"] is None or seen["private"]["played"] is None
    assert SPEC.view(st, RED)["private"]["played"] == 6
    refused(st, RED, {"type": "play", "card": 1}, "not_your_turn")
    refused(st, BLUE, {"type": "play", "card": 6}, "card_not_in_hand")
    st.apply(BLUE, {"type": "play", "card": 5})
    assert SPEC.view(st, None)["public"]["last_fight"]["cards"] == [6, 5]


def test_amulets_swap_the_whole_hand_initiator_first_and_may_repeat() -> None:
    # R5.8, D11
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [1, 1])
    set_hand(st, BLUE, [2, 2, 2])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    assert st.phase == "swap" and st.active_seats() == [RED]
    st.apply(RED, {"type": "swap"})
    assert st.amulets[RED] == 3 and len(st.hands[RED]) == 2  # D11: same size
    st.apply(RED, {"type": "swap"})
    assert st.amulets[RED] == 1
    # one amulet cannot pay for two cards: red is not asked again, blue decides next
    assert st.active_seats() == [BLUE]
    st.apply(BLUE, {"type": "swap"})
    assert st.amulets[BLUE] == 2 and len(st.hands[BLUE]) == 3
    assert st.phase == "choose"  # two amulets cannot pay for three cards
    assert len(st.general) == 2 + 2 + 3  # the swapped cards, face down
    ok(st)


def test_a_swap_that_cannot_be_paid_is_refused() -> None:
    # R5.8
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [1, 1, 1, 2])
    st.amulets[RED] = 3
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    assert st.active_seats() == [BLUE]  # red cannot pay for 4 cards: not asked
    st.amulets[BLUE] = 5
    refused(st, RED, {"type": "swap"}, "not_your_turn")


def test_an_empty_draw_pile_is_refilled_from_the_general_discard() -> None:
    # D8
    st = arena(A={"grass": 1})
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [1, 1])
    st.general.extend(st.draw[:-1])
    st.draw = st.draw[-1:]
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    st.apply(RED, {"type": "swap"})
    assert len(st.hands[RED]) == 2
    assert any(e["e"] == "reshuffle" for e in st.log)
    ok(st)


def test_a_card_down_can_be_taken_back_until_the_other_is_down() -> None:
    # R5.9: both cards are revealed at once; until the second is down the first may change
    st = new_game(4)
    clear_fields(st)
    plan(st, {RED: {"A": 1}, BLUE: {"A": 1}})
    set_hand(st, RED, [1, 2, 5, 6])
    set_hand(st, BLUE, [3, 3, 4, 4])
    st.apply(RED, {"type": "fight", "field": "A", "opponent": BLUE})
    fight(st, {RED: 1})  # a slip of the finger: the 1
    assert st.active_seats() == [BLUE]
    assert st.legal_actions(RED) == [{"type": "take_back", "undo": True}]
    assert st.legal_actions(YELLOW) == []
    refused(st, YELLOW, {"type": "take_back"}, "not_fighting")
    refused(st, RED, {"type": "play", "card": 6}, "not_your_turn")
    st.apply(RED, {"type": "take_back"})
    assert st.hands[RED] == [1, 2, 5, 6] and st.active_seats() == [RED, BLUE]
    refused(st, RED, {"type": "take_back"}, "no_card_down")
    st.apply(RED, {"type": "play", "card": 6})
    st.apply(BLUE, {"type": "play", "card": 3})
    assert st.last_fight is not None and st.last_fight["cards"] == [6, 3]
    refused(st, RED, {"type": "take_back"}, "wrong_phase")  # revealed: no way back
    ok(st)
