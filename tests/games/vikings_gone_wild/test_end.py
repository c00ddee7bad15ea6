"""The end: the last turn (W9.3), the bonus split (W9.4, D18), the winner and the tie-break
(W9.5-W9.7, D17)."""

from __future__ import annotations

import json

import pytest

from longhall.server.games.vikings_gone_wild import SPEC, WildState

from .helpers import (
    BRAM,
    LOTTE,
    MARIE,
    VINCENT,
    finish_turn,
    give,
    ok,
    refused,
    set_score,
    to_players,
)


def at_bonus(players: int, scores: list[int], seed: int = 1) -> WildState:
    """A game whose last turn is over, with these scores before the bonus."""
    st = to_players(players, seed=seed)
    for seat, score in enumerate(scores):
        set_score(st, seat, score)
    st.last_turn = any(s >= st.config["end_mark"] for s in scores)
    finish_turn(st)
    assert st.phase == "bonus"
    return ok(st)


def claim(st: WildState, table: dict[int, list[bool]]) -> None:
    for seat, meets in table.items():
        st.apply(seat, {"type": "bonus", "meets": meets})


def test_reaching_the_end_mark_makes_the_turn_the_last() -> None:
    # W9.3: every player still plays and ends the turn
    st = to_players(3)
    set_score(st, VINCENT, 29)
    st.apply(VINCENT, {"type": "undead_river", "resource": "gold"})
    assert st.last_turn and st.log[-1]["e"] == "end_mark"
    st.apply(VINCENT, {"type": "end_turn"})
    assert st.current == MARIE
    st.apply(MARIE, {"type": "undead_river", "resource": "gold"})  # Marie still plays
    st.apply(MARIE, {"type": "end_turn"})
    st.apply(BRAM, {"type": "end_turn"})
    assert st.phase == "storage"
    st.apply(None, {"type": "next"})
    assert st.phase == "end"
    st.apply(None, {"type": "next"})
    assert st.phase == "bonus" and st.round == 1
    assert SPEC.view(st, None)["public"]["last_turn"] is True


def test_the_end_mark_reached_while_defending() -> None:
    # W9.3, W9.1: 2 players end at 40
    st = to_players(2)
    set_score(st, MARIE, 38)
    st.apply(VINCENT, {"type": "attack", "target": MARIE, "building": 0, "attack": 4, "cards": 2})
    st.apply(MARIE, {"type": "defend", "cards": 1, "value": 1})
    assert st.score[MARIE] == 40 and st.last_turn
    finish_turn(st)
    assert st.phase == "bonus"


def test_the_last_end_phase_asks_no_drakkar_to_keep_a_card() -> None:
    # W9.3, W2.7, D12: no turn follows the last one, so a kept card would be for nothing
    st = to_players(2)
    give(st, VINCENT, "drakkar")
    set_score(st, MARIE, 40)
    st.last_turn = True
    while st.phase != "end":
        st.apply(None, {"type": "next"})
    assert st.active_seats() == [] and st.legal_actions(VINCENT) == []
    refused(st, VINCENT, {"type": "keep", "cards": 1}, "not_your_turn")
    st.apply(None, {"type": "next"})
    assert st.phase == "bonus"


def test_below_the_end_mark_the_game_goes_on() -> None:
    # W9.1
    st = to_players(3)
    set_score(st, VINCENT, 29)
    finish_turn(st)
    assert st.phase == "production" and st.round == 2


@pytest.mark.parametrize(("meeting", "each"), [(0, 0), (1, 6), (2, 3), (3, 2), (4, 1)])
def test_a_bonus_card_split_between_the_players_meeting_it(meeting: int, each: int) -> None:
    # W9.4, D18: 6 points, or 3, 2 or 1 each when 2, 3 or 4 players meet it; nobody, nothing
    st = at_bonus(4, [30, 20, 10, 0])
    claim(
        st,
        {seat: [seat < meeting, False, False, False] for seat in (VINCENT, MARIE, BRAM, LOTTE)},
    )
    for seat in range(4):
        assert st.points[seat].get("bonus", 0) == (each if seat < meeting else 0)
    split = next(e for e in st.log if e["e"] == "bonus_split")["split"]
    assert split[0] == {"card": st.bonus[0], "seats": list(range(meeting)), "points": each}
    assert st.phase == "over"


def test_every_bonus_card_counts_and_the_most_points_win() -> None:
    # W9.4, W9.5: 24 points at most in bonuses
    st = at_bonus(3, [30, 25, 12])
    claim(st, {VINCENT: [False] * 4, MARIE: [True, True, False, False], BRAM: [True] * 4})
    assert st.points[MARIE]["bonus"] == 6 and st.points[BRAM]["bonus"] == 3 + 3 + 6 + 6
    assert st.score == [30, 31, 30]
    assert st.is_over() and st.winners() == [MARIE]
    assert SPEC.view(st, None)["public"]["result"]["winners"] == [MARIE]
    assert SPEC.view(st, None)["public"]["claims"][BRAM] == [True] * 4


def test_bonus_claims_are_checked_and_hidden_until_everyone_answered() -> None:
    # W9.4
    st = at_bonus(2, [40, 10])
    refused(st, VINCENT, {"type": "bonus", "meets": [True]}, "bad_claims")
    refused(st, VINCENT, {"type": "bonus", "meets": [1, 0, 0, 0]}, "bad_claims")
    st.apply(VINCENT, {"type": "bonus", "meets": [True, False, True, False]})
    public = SPEC.view(st, MARIE)["public"]
    assert public["claims"] is None and public["seats"][VINCENT]["answered"]
    assert SPEC.view(st, VINCENT)["private"]["claims"] == [True, False, True, False]
    assert SPEC.view(st, MARIE)["private"]["claims"] is None


def test_a_tie_is_broken_by_a_bonus_card_left_in_the_box() -> None:
    # W9.6, D17: the 4 cards left in the box, not 6
    st = at_bonus(3, [30, 30, 10])
    claim(st, {VINCENT: [False] * 4, MARIE: [False] * 4, BRAM: [False] * 4})
    assert st.phase == "tiebreak"
    tb = SPEC.view(st, None)["public"]["tiebreak"]
    assert tb["tied"] == [VINCENT, MARIE] and tb["card"] not in st.bonus
    assert st.active_seats() == [VINCENT, MARIE]
    assert len(st.box) == 3
    st.apply(VINCENT, {"type": "tiebreak", "meets": True})
    assert SPEC.view(st, BRAM)["public"]["tiebreak"]["answers"] is None
    st.apply(MARIE, {"type": "tiebreak", "meets": False})
    assert st.is_over() and st.winners() == [VINCENT]
    # the final screen tells how the tie was settled: who was tied, the card, who met it
    rounds = SPEC.view(st, BRAM)["public"]["tiebreak"]["rounds"]
    assert rounds == [{"card": tb["card"], "tied": [VINCENT, MARIE], "meets": [VINCENT]}]


def test_both_or_neither_meeting_it_draws_again_then_a_shared_win() -> None:
    # W9.6, W9.7, D17
    st = at_bonus(2, [40, 40])
    claim(st, {VINCENT: [True] * 4, MARIE: [True] * 4})
    drawn: list[int] = []
    for k in range(4):
        assert st.phase == "tiebreak" and st.tiebreak is not None
        drawn.append(st.tiebreak["card"])
        st.apply(VINCENT, {"type": "tiebreak", "meets": k % 2 == 0})
        st.apply(MARIE, {"type": "tiebreak", "meets": k % 2 == 0})
    assert st.is_over() and st.winners() == [VINCENT, MARIE]
    assert sorted(drawn) == sorted(set(drawn)) and len(drawn) == 4
    assert not set(drawn) & set(st.bonus)


def test_of_three_tied_those_meeting_the_card_stay_tied() -> None:
    # D17
    st = at_bonus(4, [30, 30, 30, 5])
    claim(st, {s: [False] * 4 for s in range(4)})
    st.apply(VINCENT, {"type": "tiebreak", "meets": True})
    st.apply(MARIE, {"type": "tiebreak", "meets": True})
    st.apply(BRAM, {"type": "tiebreak", "meets": False})
    assert st.phase == "tiebreak" and st.tiebreak is not None
    assert st.tiebreak["tied"] == [VINCENT, MARIE]
    st.apply(VINCENT, {"type": "tiebreak", "meets": False})
    st.apply(MARIE, {"type": "tiebreak", "meets": True})
    assert st.winners() == [MARIE]
    ok(st)


def test_the_tie_break_order_is_fixed_at_setup_and_never_shown() -> None:
    # D17
    st = to_players(3)
    public = SPEC.view(st, None)["public"]
    assert public["box"] == 4 and "box_order" not in public
    # which cards are in the box is no secret (the 8 less the 4 on the table); their order is
    shown = sorted(set(public["bonus_cards"]) - set(public["bonus"]))
    assert shown == sorted(st.box)
    assert json.dumps(st.box)[1:-1] not in json.dumps(public)
