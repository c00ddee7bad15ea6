"""Components, setup and the materials phase (R0, R1, R2, D1, D2, D12, D14)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.eketorp import SPEC
from longhall.server.games.eketorp import rules as R
from longhall.server.games.eketorp import setup as eketorp_setup
from longhall.server.games.rng import Rng, T
from longhall.server.table.gamedata import default_config, load_data

from .helpers import eketorp, new_game, ok, plan


@pytest.mark.parametrize("players", [2, 7, 0])
def test_three_to_six_players(players: int) -> None:
    # R0.1
    with pytest.raises(IllegalAction) as err:
        new_game(players)
    assert err.value.code == "bad_players"


@pytest.mark.parametrize(("players", "vikings"), [(3, 8), (4, 6), (5, 6), (6, 5)])
def test_vikings_per_player_start_in_their_castle(players: int, vikings: int) -> None:
    # R0.2, R1.5
    st = new_game(players)
    assert st.vikings == vikings
    assert st.home == [vikings] * players
    assert all(sum(h) == 0 for h in st.hospital)


def test_components_are_complete_at_setup() -> None:
    # R0.3 five amulets each; R0.4 54 cards, 9 of each value; R0.5 112 stones
    st = ok(new_game(5))
    assert st.amulets == [5] * 5
    cards = Counter(st.draw)
    for hand in st.hands:
        cards += Counter(hand)
    assert cards == Counter({v: 9 for v in range(1, 7)})
    assert sum(R.SUPPLY.values()) == 112
    on_board = sum(sum(f.values()) for f in st.fields.values())
    assert sum(st.supply.values()) + on_board == 112


def test_four_cards_each_and_the_rest_is_the_draw_pile() -> None:
    # R1.1
    for players in range(3, 7):
        st = new_game(players, seed=players)
        assert [len(h) for h in st.hands] == [4] * players
        assert len(st.draw) == 54 - 4 * players


def test_setup_redeal_until_a_card_of_four_or_more() -> None:
    # R1.2: a starting hand of only 1, 2 and 3 is shown, returned and dealt again
    redeals = 0
    for seed in range(200):
        st = ok(new_game(6, seed=seed))
        assert all(max(hand) >= 4 for hand in st.hands)
        shown = [e for e in st.log if e["e"] == "redeal"]
        for event in shown:
            assert max(event["cards"]) <= 3 and len(event["cards"]) == 4
        redeals += len(shown)
    assert redeals > 0  # the rule was exercised


class _SpyRng(Rng):
    """A seeded generator that also notes every pile of combat cards it shuffles."""

    piles: list[list[Any]]  # the cards of every pile shuffled

    def shuffle(self, items: list[T]) -> None:
        if len(items) > R.MATERIAL_CARDS:  # a combat-card pile, not the material deck's order
            self.piles.append(list(items))
        super().shuffle(items)


def test_a_redeal_returns_the_cards_to_the_draw_pile_shuffled_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # D14, R1.2: the returned cards go back into the draw pile, which is shuffled before the same
    # player draws again, so they can be drawn again
    monkeypatch.setattr(eketorp_setup, "Rng", _SpyRng)
    redeals = 0
    for seed in range(120):
        players = 6 if seed % 2 else 3
        _SpyRng.piles = []
        st = ok(new_game(players, seed=seed))
        shown = [e["cards"] for e in st.log if e["e"] == "redeal"]
        piles = _SpyRng.piles
        assert len(piles[0]) == 54  # R1.1: the whole pile is shuffled once to deal
        assert len(piles) == 1 + len(shown)  # then once after every redeal, and never later
        for cards, pile in zip(shown, piles[1:], strict=True):
            # the pile then holds everything not in a hand, the returned cards among them
            assert len(pile) == 54 - R.HAND_SIZE * players + R.HAND_SIZE
            assert not Counter(cards) - Counter(pile)
        redeals += len(shown)
    assert redeals > 0  # the ruling was exercised


def test_house_deck_has_twelve_cards_and_two_are_put_away() -> None:
    # R0.6, R1.3
    cards = load_data(SPEC)["material_cards"]["cards"]
    assert len(cards) == 12
    st = new_game(4)
    assert len(st.removed) == 2
    assert len(st.deck) + 1 == 10  # one card was turned for round 1
    assert st.max_rounds == 10
    assert set(st.removed).isdisjoint(st.deck)


def test_start_player_is_chosen_at_setup() -> None:
    # R1.4, D12: the oldest player starts; by default seat 0
    assert new_game(4).start == 0
    st = new_game(4, start_player=2)
    assert st.start == 2
    assert st.log[0]["e"] == "round" and st.log[0]["start"] == 2
    with pytest.raises(IllegalAction):
        new_game(4, start_player=4)


def test_rulebook_material_card_eight_stones_for_three_or_four_and_ten_for_five_or_six() -> None:
    # R2.1 and the rulebook's example card (house card 1): 3 grass, 4 wood, 1 clay;
    # with 5 or 6 players 4 grass, 5 wood, 1 clay
    card = next(c for c in load_data(SPEC)["material_cards"]["cards"] if c["id"] == 1)
    for players, expected in [(3, (3, 4, 1)), (4, (3, 4, 1)), (5, (4, 5, 1)), (6, (4, 5, 1))]:
        cfg = default_config("eketorp", players)
        cfg["material_cards"] = [dict(card, id=i) for i in range(12)]
        st = eketorp(SPEC.new(cfg, 7))
        totals = {s: sum(st.fields[f][s] for f in R.FIELDS) for s in R.STONES}
        assert (totals["grass"], totals["wood"], totals["clay"]) == expected
        assert sum(totals.values()) == (8 if players <= 4 else 10)


def test_new_stones_go_on_top_of_stones_still_lying_there() -> None:
    # R2.2: clay stays from round 1 and the next card adds to it
    cfg = default_config("eketorp", 3)
    card = {"id": 1, "stones": [{"field": "A", "stone": "clay", "count": 1, "extra": 0}]}
    cfg["material_cards"] = [dict(card, id=i) for i in range(12)]
    st = eketorp(SPEC.new(cfg, 1))
    assert st.fields["A"]["clay"] == 1
    # everyone defends: nobody takes the clay, it stays (R7.2) and round 2 adds one more
    plan(st, {})
    assert st.phase == "round_end"
    st.apply(None, {"type": "next_round"})
    assert st.fields["A"]["clay"] == 2


def test_supply_shortage_places_what_is_left() -> None:
    # D2: a stone the supply lacks is not placed
    cfg = default_config("eketorp", 3)
    card = {"id": 1, "stones": [{"field": "B", "stone": "stone", "count": 8, "extra": 0}]}
    cfg["material_cards"] = [dict(card, id=i) for i in range(12)]
    st = ok(eketorp(SPEC.new(cfg, 1)))
    assert st.fields["B"]["stone"] == 6
    assert st.card is not None and st.card["short"] == {"B": {"stone": 2}}


@pytest.mark.parametrize(
    "deck",
    [
        "not a list",
        [{"id": 1, "stones": []}],
        [{"id": i, "stones": [{"field": "H", "stone": "grass", "count": 1}]} for i in range(12)],
        [{"id": i, "stones": [{"field": "A", "stone": "gold", "count": 1}]} for i in range(12)],
        [{"id": i, "stones": [{"field": "A", "stone": "grass", "count": -1}]} for i in range(12)],
        [
            {
                "id": 1,
                "stones": [
                    {"field": "A", "stone": "grass", "count": 1},
                    {"field": "A", "stone": "wood", "count": 1},
                ],
            }
        ]
        * 12,
    ],
)
def test_a_broken_deck_file_is_refused_with_a_reason(deck: object) -> None:
    # D1: the deck is a data file a user can edit; mistakes are explained
    cfg = default_config("eketorp", 4)
    cfg["material_cards"] = deck
    with pytest.raises(IllegalAction) as err:
        SPEC.new(cfg, 1)
    assert err.value.code == "bad_config"
    assert "material deck" in err.value.message


def test_a_user_deck_file_in_the_data_dir_replaces_the_house_deck(tmp_path: Path) -> None:
    # D1: players who own the box can edit the deck to match their copy
    mine = [
        {"id": i, "stones": [{"field": "G", "stone": "wood", "count": 3, "extra": 1}]}
        for i in range(12)
    ]
    (tmp_path / "eketorp-material-cards.json").write_text(json.dumps({"cards": mine}))
    cfg = default_config("eketorp", 5, data_dir=tmp_path)
    st = eketorp(SPEC.new(cfg, 3))
    assert st.fields["G"]["wood"] == 4


def test_physical_deck_the_start_player_enters_the_card() -> None:
    # D1 physical-deck mode, R2.1
    st = ok(new_game(4, deck="physical", start_player=1))
    assert st.phase == "materials"
    assert st.active_seats() == [1]
    with pytest.raises(IllegalAction) as err:
        st.apply(0, {"type": "card_add", "field": "A", "stone": "grass"})
    assert err.value.code == "not_your_turn"
    st.apply(1, {"type": "card_add", "field": "A", "stone": "grass"})
    st.apply(1, {"type": "card_add", "field": "A", "stone": "grass"})
    st.apply(1, {"type": "card_add", "field": "C", "stone": "clay"})
    before = st.to_dict()
    with pytest.raises(IllegalAction) as err:
        st.apply(1, {"type": "card_add", "field": "A", "stone": "wood"})
    assert err.value.code == "card_one_type"
    assert st.to_dict() == before
    st.apply(1, {"type": "card_remove", "field": "C"})
    st.apply(1, {"type": "card_done"})
    assert st.phase == "planning"
    assert st.fields["A"] == {"grass": 2, "wood": 0, "clay": 0, "stone": 0}
    assert st.fields["C"]["clay"] == 0
    ok(st)
