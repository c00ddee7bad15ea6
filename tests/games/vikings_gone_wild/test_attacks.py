"""Attacks (W4), defence (W5), the undead (W6), divine favours (W8) and the committed attack
value (D1-D7, D21)."""

from __future__ import annotations

from longhall.server.games.vikings_gone_wild import SPEC
from longhall.server.games.vikings_gone_wild.turn import targets
from longhall.server.table import fingerprints

from .helpers import (
    BRAM,
    LOTTE,
    MARIE,
    NUMBERS,
    VINCENT,
    answer,
    attack,
    give,
    ok,
    refused,
    set_level,
    set_score,
    to_players,
)


def test_an_attack_at_least_the_defence_damages_the_building() -> None:
    # W4.6, W4.7, W4.1: "Vincent attacks Marie's Gold Factory (defence 1) with his Viking
    # Warrior (attack 1): the attack succeeds; Marie puts a damage marker on it"
    st = to_players(3)
    (factory,) = give(st, MARIE, "gold_factory")
    attack(st, MARIE, factory, 1)
    assert st.phase == "defend" and st.active_seats() == [MARIE]  # W5.1, W5.2
    answer(st)
    assert st.villages[MARIE][factory]["damaged"] is True
    assert st.score[VINCENT] == 1 and st.points[VINCENT] == {"attacks": 1}
    report = SPEC.view(st, None)["public"]["last_attack"]
    assert (report["attack"], report["total_defence"], report["success"]) == (1, 1, True)
    ok(st)


def test_the_prints_example_of_a_repelled_attack() -> None:
    # W4.6, W5.2, W5.4: "Vincent attacks Marie's level-1 town hall (defence 4) with 2 Elf
    # Archers (2 each: 4). Marie plays a Cannon (+2): 6 against 4. Marie beat two cards: 2 points"
    st = to_players(3)
    attack(st, MARIE, 0, 4, cards=2)
    answer(st, cards=1, value=2)
    assert st.villages[MARIE][0]["damaged"] is False
    assert st.score == [0, 2, 0] and st.points[MARIE] == {"defence": 2}
    report = st.last_attack
    assert report is not None
    assert (report["defence"], report["defence_value"], report["total_defence"]) == (4, 2, 6)
    assert report["success"] is False and report["points"] == 2


def test_equal_attack_and_defence_succeeds() -> None:
    # W4.6: "at least" the defence
    st = to_players(3)
    attack(st, MARIE, 0, 6, cards=3)
    answer(st, cards=1, value=2)
    assert st.villages[MARIE][0]["damaged"] is True


def test_successes_in_one_turn_score_1_3_5_7_9_11_13() -> None:
    # W4.8, D6 (15 for an eighth), D5: the town hall counts as a building
    st = to_players(2, end_mark=50)
    set_level(st, MARIE, 3)
    buildings = give(st, MARIE, "brewery", "brewery", "brewery", "gold_factory", "gold_factory")
    buildings += give(st, MARIE, "gold_factory", "drakkar")
    totals = []
    for b in [*buildings, 0]:
        attack(st, MARIE, b, 9)
        answer(st)
        totals.append(st.points[VINCENT]["attacks"])
    assert totals == [1, 3, 5, 7, 9, 11, 13, 15]
    ok(st)


def test_one_player_per_turn() -> None:
    # W4.2
    st = to_players(3)
    (tavern,) = give(st, MARIE, "tavern")
    attack(st, MARIE, 0, 1)
    answer(st, cards=1, value=5)
    assert st.target == MARIE
    assert targets(st, VINCENT) == [(MARIE, tavern)]
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": BRAM, "building": 0, "attack": 9, "cards": 1},
        "one_player_per_turn",
    )
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": VINCENT, "building": 0, "attack": 9, "cards": 1},
        "own_village",
    )


def test_only_a_player_not_yet_attacked_this_turn() -> None:
    # W4.3, W5.5: Vincent damaged Marie; Bram may not attack her, only Vincent
    st = to_players(3)
    attack(st, MARIE, 0, 9)
    answer(st)
    st.apply(VINCENT, {"type": "end_turn"})
    assert st.current == MARIE
    st.apply(MARIE, {"type": "end_turn"})
    assert st.current == BRAM
    assert {p for p, _ in targets(st, BRAM)} == {VINCENT}
    refused(
        st,
        BRAM,
        {"type": "attack", "target": MARIE, "building": 0, "attack": 9, "cards": 1},
        "already_attacked",
    )


def test_when_everyone_was_attacked_any_building_not_yet_attacked() -> None:
    # W4.4, D4: still one player in the turn, only buildings without a damage marker
    st = to_players(4)
    (tavern,) = give(st, BRAM, "tavern")
    st.villages[MARIE][0]["damaged"] = True
    st.villages[BRAM][0]["damaged"] = True
    st.villages[LOTTE][0]["damaged"] = True
    assert targets(st, VINCENT) == [(BRAM, tavern)]
    attack(st, BRAM, tavern, 2)
    answer(st)
    assert st.villages[BRAM][tavern]["damaged"] is True
    assert targets(st, VINCENT) == []


def test_damaged_or_building_buildings_cannot_be_attacked() -> None:
    # W4.5, W3.4
    st = to_players(3)
    new, old = give(st, MARIE, "tavern", "brewery")
    st.villages[MARIE][new]["new"] = True
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": MARIE, "building": new, "attack": 9, "cards": 1},
        "under_construction",
    )
    attack(st, MARIE, old, 9)
    answer(st)
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": MARIE, "building": old, "attack": 9, "cards": 1},
        "building_damaged",
    )
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": MARIE, "building": 7, "attack": 9, "cards": 1},
        "no_such_building",
    )


def test_a_building_that_repelled_the_attack_is_not_attacked_again() -> None:
    # D21, W5.3: more cards on the same building after the answer are not possible
    st = to_players(3)
    attack(st, MARIE, 0, 4)
    answer(st, cards=1, value=2)
    assert (MARIE, 0) not in targets(st, VINCENT)
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": MARIE, "building": 0, "attack": 9, "cards": 3},
        "building_repelled",
    )


def test_under_the_exception_no_building_attacked_this_turn_is_offered_w4_4() -> None:
    # W4.4: « le joueur est autorisé à attaquer n'importe quel bâtiment qui n'a pas déjà été
    # attaqué »: a building that repelled an earlier attacker this turn is not offered again
    st = to_players(3)  # Vincent, Marie, then Bram
    tavern, brewery = give(st, MARIE, "tavern", "brewery")
    attack(st, MARIE, tavern, 1)  # Vincent: Marie's tavern holds (defence 2)
    answer(st)
    attack(st, MARIE, brewery, 9)  # then her brewery falls: Marie has been attacked
    answer(st)
    st.apply(VINCENT, {"type": "end_turn"})
    attack(st, VINCENT, 0, 9)  # Marie attacks Vincent's town hall: he has been attacked too
    answer(st)
    st.apply(MARIE, {"type": "end_turn"})
    assert st.current == BRAM
    # every other player has been attacked: the exception, but not Marie's tavern
    offered = targets(st, BRAM)
    assert (MARIE, tavern) not in offered and (MARIE, 0) in offered
    # (Vincent's only building, his town hall, is damaged): what the phone is offered
    assert SPEC.view(st, None)["public"]["attackable"] == {str(MARIE): [0]}
    refused(
        st,
        BRAM,
        {"type": "attack", "target": MARIE, "building": tavern, "attack": 9, "cards": 1},
        "building_attacked",
    )
    ok(st)


def test_the_attack_value_is_committed_and_secret_until_the_answer() -> None:
    # D3, W5.2, W5.3: the defender sees the value; the table and the other players see a
    # fingerprint; the value is revealed to all with the answer
    st = to_players(3)
    (tavern,) = give(st, MARIE, "tavern")
    attack(st, MARIE, tavern, 7, cards=2)
    committed = SPEC.commitments(st)
    assert committed == {VINCENT: {"target": MARIE, "building": tavern, "attack": 7, "cards": 2}}
    held: dict[str, dict[str, object]] = {}
    salts: dict[str, str] = {}
    assert fingerprints.update(held, committed, VINCENT, salts) == []
    public = SPEC.view(st, None)["public"]
    assert public["attack"] == {
        "attacker": VINCENT,
        "target": MARIE,
        "building": tavern,
        "card": "tavern",
        "cards": 2,
    }
    assert "7" not in str(public["log"][-1]) and SPEC.view(st, BRAM)["private"]["attack"] is None
    assert SPEC.view(st, VINCENT)["private"]["attack"] == {"attack": 7, "cards": 2}
    assert SPEC.view(st, MARIE)["private"]["attack"] == {"attack": 7, "cards": 2}  # the defender
    # the attacker can change nothing while the defender chooses
    refused(
        st,
        VINCENT,
        {"type": "attack", "target": MARIE, "building": tavern, "attack": 9, "cards": 3},
        "wrong_phase",
    )
    refused(st, VINCENT, {"type": "defend", "cards": 0, "value": 0}, "not_your_turn")
    answer(st, cards=2, value=6)
    revealed = fingerprints.update(held, SPEC.commitments(st), MARIE, salts)
    assert len(revealed) == 1 and revealed[0]["seat"] == VINCENT
    assert fingerprints.digest(revealed[0]["salt"], revealed[0]["content"]).startswith(
        revealed[0]["hash"][:8]
    )
    answered = [e for e in st.log if e["e"] == "attack_answered"]
    assert revealed[0]["content"]["attack"] == answered[-1]["attack"] == 7


def test_extra_rewards_points_favour_and_plunder() -> None:
    # W4.9, D7: a Drakkar (2 points, a favour); a Gold Reserve's gold
    st = to_players(3)
    drakkar, r1, r2 = give(st, MARIE, "drakkar", "gold_reserve", "gold_reserve")
    st.villages[MARIE][r1]["stock"] = 1
    st.villages[MARIE][r2]["stock"] = 3
    attack(st, MARIE, drakkar, 5)
    answer(st)
    assert st.points[VINCENT] == {"attacks": 1, "rewards": 2}
    assert st.favours[VINCENT] == 1
    attack(st, MARIE, r1, 3)
    answer(st)
    # D7: the attacked Reserve holds gold: the gold comes from it
    assert st.villages[MARIE][r1]["stock"] == 0 and st.villages[MARIE][r2]["stock"] == 3
    assert st.loot[VINCENT]["gold"] == 1
    ok(st)


def test_plunder_from_the_fullest_reserve_or_nothing() -> None:
    # D7, W4.9: the owner's Reserves of that resource, none when they are empty
    st = to_players(3, numbers=True)
    st.numbers["tavern"] = {"defence": 2, "points": 0, "resource": "beer", "favour": False}
    tavern, b1, b2 = give(st, MARIE, "tavern", "beer_reserve", "beer_reserve")
    st.villages[MARIE][b2]["stock"] = 2
    attack(st, MARIE, tavern, 2)
    answer(st)
    assert st.villages[MARIE][b2]["stock"] == 1 and st.loot[VINCENT]["beer"] == 1
    st2 = to_players(3)
    st2.numbers["tavern"] = {"defence": 2, "points": 0, "resource": "beer", "favour": False}
    (t2,) = give(st2, MARIE, "tavern")
    attack(st2, MARIE, t2, 2)
    answer(st2)
    assert st2.loot[VINCENT]["beer"] == 0
    assert any(e["e"] == "nothing_to_plunder" for e in st2.log)


def test_producers_are_never_plundered() -> None:
    # W4.11: the gold on a Gold Factory stays with its owner
    st = to_players(3)
    st.numbers["gold_factory"] = {"defence": 1, "points": 0, "resource": "gold", "favour": False}
    (factory,) = give(st, MARIE, "gold_factory")
    st.loot[MARIE]["gold"] = 1
    attack(st, MARIE, factory, 1)
    answer(st)
    assert st.loot[MARIE]["gold"] == 1 and st.loot[VINCENT]["gold"] == 0


def test_plundered_resources_may_be_stored_this_turn() -> None:
    # W4.12, W2.5
    st = to_players(2)
    (r,) = give(st, MARIE, "gold_reserve")
    (mine,) = give(st, VINCENT, "gold_reserve")
    st.villages[MARIE][r]["stock"] = 2
    attack(st, MARIE, r, 3)
    answer(st)
    st.apply(None, {"type": "next"})
    st.apply(None, {"type": "next"})
    assert st.phase == "storage" and st.active_seats() == [VINCENT]
    st.apply(VINCENT, {"type": "store", "building": mine, "count": 1})
    assert st.villages[VINCENT][mine]["stock"] == 1


def test_a_level_two_or_three_town_hall_earns_a_favour() -> None:
    # W4.10, D5
    for level, favours in ((1, 0), (2, 1), (3, 1)):
        st = to_players(3)
        set_level(st, MARIE, level)
        attack(st, MARIE, 0, 9)
        answer(st)
        assert st.favours[VINCENT] == favours, level
        assert any(e["e"] == "favour" and e["why"] == "town_hall" for e in st.log) == bool(favours)


def test_complete_defence_one_point_and_a_marker_on_the_town_hall() -> None:
    # W5.5, W4.3
    st = to_players(3)
    (tavern,) = give(st, MARIE, "tavern")
    attack(st, MARIE, tavern, 2, cards=2)
    answer(st, cards=1, value=1)
    attack(st, MARIE, 0, 3)
    answer(st)  # 3 < 4: repelled without a card
    assert st.score[MARIE] == 3
    st.apply(VINCENT, {"type": "end_turn"})
    assert st.score[MARIE] == 4 and st.points[MARIE] == {"defence": 4}
    assert st.villages[MARIE][0]["damaged"] is True
    assert st.attacked(MARIE)
    st.apply(MARIE, {"type": "end_turn"})
    refused(
        st,
        BRAM,
        {"type": "attack", "target": MARIE, "building": tavern, "attack": 9, "cards": 1},
        "already_attacked",
    )


def test_no_complete_defence_after_a_damage_or_without_an_attack() -> None:
    # W5.5
    st = to_players(3)
    (tavern,) = give(st, MARIE, "tavern")
    attack(st, MARIE, tavern, 9)
    answer(st)
    attack(st, MARIE, 0, 1)
    answer(st)
    st.apply(VINCENT, {"type": "end_turn"})
    assert st.points[MARIE] == {"defence": 1}  # the repelled card only
    st.apply(MARIE, {"type": "end_turn"})  # Marie attacks nobody: nobody defended
    assert st.score[BRAM] == 0 and st.villages[BRAM][0]["damaged"] is False


def test_favour_spaces_crossed_while_defending() -> None:
    # W8.1: even outside the seat's turn; once per space; two spaces at once give two
    st = to_players(3, end_mark=50)
    set_score(st, MARIE, 4)
    (tavern,) = give(st, MARIE, "tavern")
    attack(st, MARIE, 0, 4, cards=2)
    answer(st, cards=1, value=1)
    assert st.score[MARIE] == 6 and st.favours[MARIE] == 1 and st.reached[MARIE] == [5]
    assert st.current == VINCENT  # in Vincent's turn
    set_score(st, MARIE, 11)
    attack(st, MARIE, tavern, 2, cards=3)
    answer(st, cards=1, value=1)  # 11 + 3 = 14 crosses 12
    assert st.reached[MARIE] == [5, 12] and st.favours[MARIE] == 2
    st.apply(VINCENT, {"type": "end_turn"})  # complete defence: 15, no new space
    assert st.score[MARIE] == 15 and st.favours[MARIE] == 2
    set_score(st, BRAM, 4)
    st.gain(BRAM, 9, "missions")  # 4 -> 13: spaces 5 and 12 at once
    assert st.reached[BRAM] == [5, 12] and st.favours[BRAM] == 2
    assert sum(st.favours) + st.favours_left == 12
    ok(st)


def test_no_favour_is_earned_when_none_is_left() -> None:
    # W8.3, W8.2
    st = to_players(3)
    st.favours_left = 1
    st.favours[MARIE] = 11
    set_score(st, VINCENT, 4)
    st.apply(VINCENT, {"type": "undead_river", "resource": "beer"})  # 5: the last favour
    assert st.favours[VINCENT] == 1 and st.favours_left == 0
    set_level(st, MARIE, 2)
    attack(st, MARIE, 0, 9)
    answer(st)
    assert st.favours[VINCENT] == 1
    assert any(e["e"] == "no_favour_left" for e in st.log)
    ok(st)


def test_the_undead() -> None:
    # W6.1: as many river undead as the hand allows; W6.2: the board's once per turn
    st = to_players(3)
    for _ in range(3):
        st.apply(VINCENT, {"type": "undead_river", "resource": "gold"})
    assert st.points[VINCENT] == {"undead": 3}
    assert st.loot[VINCENT] == {"gold": 0, "beer": 0}  # D11: the river's resource is not stored
    st.apply(VINCENT, {"type": "undead_board", "resource": "beer"})
    assert st.loot[VINCENT] == {"gold": 0, "beer": 1} and st.score[VINCENT] == 3
    refused(st, VINCENT, {"type": "undead_board", "resource": "gold"}, "undead_used")
    st.apply(VINCENT, {"type": "end_turn"})
    st.apply(MARIE, {"type": "undead_board", "resource": "gold"})  # once per player


def test_numbers_only_on_the_cards_are_entered_before_an_attack() -> None:
    # D1, W0.6: never guessed; remembered; an entry changes them
    st = to_players(3, numbers=False)
    (tavern,) = give(st, MARIE, "tavern")
    err = refused(
        st,
        VINCENT,
        {"type": "attack", "target": MARIE, "building": tavern, "attack": 9, "cards": 1},
        "numbers_unknown",
    )
    assert err.params == {"card": "tavern"}
    legal = st.legal_actions(VINCENT)
    assert not any(a["type"] == "attack" for a in legal)
    assert {a["card"] for a in legal if a["type"] == "card_numbers"} == {"tavern", "town_hall_1"}
    refused(
        st,
        VINCENT,
        {
            "type": "card_numbers",
            "card": "tavern",
            "defence": 31,
            "points": 0,
            "resource": "none",
            "favour": False,
        },
        "bad_numbers",
    )
    refused(
        st,
        VINCENT,
        {
            "type": "card_numbers",
            "card": "tavern",
            "defence": 2,
            "points": 0,
            "resource": "wood",
            "favour": False,
        },
        "bad_numbers",
    )
    refused(
        st,
        VINCENT,
        {
            "type": "card_numbers",
            "card": "castle",
            "defence": 2,
            "points": 0,
            "resource": "none",
            "favour": False,
        },
        "no_such_card",
    )
    st.apply(VINCENT, {"type": "card_numbers", **NUMBERS["tavern"], "card": "tavern"})
    assert SPEC.view(st, None)["public"]["numbers"]["tavern"] == NUMBERS["tavern"]
    st.apply(VINCENT, {"type": "card_numbers", **NUMBERS["tavern"], "card": "tavern", "defence": 3})
    assert st.numbers["tavern"]["defence"] == 3 and st.log[-1]["before"]["defence"] == 2
    attack(st, MARIE, tavern, 3)
    answer(st)
    assert st.villages[MARIE][tavern]["damaged"]


def test_entered_attack_and_defence_values_are_checked() -> None:
    # D2
    st = to_players(3)
    for value, cards in ((0, 1), (100, 1), (5, 0), (5, 21)):
        refused(
            st,
            VINCENT,
            {"type": "attack", "target": MARIE, "building": 0, "attack": value, "cards": cards},
            "bad_attack",
        )
    attack(st, MARIE, 0, 5)
    for cards, value in ((0, 1), (21, 5), (1, 100), (-1, 0)):
        refused(st, MARIE, {"type": "defend", "cards": cards, "value": value}, "bad_defence")
    refused(st, MARIE, {"type": "defend", "cards": 1, "value": True}, "malformed")


def test_an_attack_value_counts_for_its_one_building_only() -> None:
    # W4.1: one unit attacks one target; a surplus is never split onto another building
    st = to_players(3)
    factory, tavern = give(st, MARIE, "gold_factory", "tavern")
    attack(st, MARIE, factory, 9, cards=1)
    answer(st)
    attack(st, MARIE, tavern, 1, cards=1)
    answer(st)  # 1 < 2: the 8 left over from the first attack do not help
    assert st.villages[MARIE][factory]["damaged"] and not st.villages[MARIE][tavern]["damaged"]
    assert st.points[MARIE] == {"defence": 1}
