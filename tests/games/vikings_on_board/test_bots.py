"""The bots: random plays legal moves only; greedy plays sensibly and beats random."""

from __future__ import annotations

from longhall.server.cli.simulate import play_game
from longhall.server.games.vikings_on_board import SPEC
from longhall.server.table.gamedata import default_config

from ..conformance import greedy_win_share
from .helpers import BLUE, GREEN, RED, arrange, go, new_game, piece, set_market, set_prow


def test_greedy_beats_random_in_most_games() -> None:
    assert greedy_win_share(SPEC) > 0.75


def test_greedy_bets_on_the_colour_leading_a_loaded_drakkar() -> None:
    st = new_game(4)
    arrange(st, {2: [piece(BLUE, 5), piece(GREEN, 0)]})
    set_prow(st, 2, ["metal", "metal"])
    go(st, RED, "tavern_1")
    bot = SPEC.bots["greedy"](1)
    pick = bot.choose(st, RED)
    assert pick == {"type": "pick_barrel", "barrel": 3}  # its best barrel
    st.apply(RED, pick)
    assert bot.choose(st, RED) == {"type": "to_zone", "drakkar": 2, "colour": "blue"}


def test_greedy_pushes_its_own_piece_onto_a_ship_with_good_chests() -> None:
    st = new_game(4)
    arrange(st, {5: [piece(GREEN, 0)], 1: [piece(RED, 5)]})
    set_prow(st, 5, ["grain", "metal", "furs"])
    go(st, RED, "change_drakkar")
    bot = SPEC.bots["greedy"](2)
    st.apply(RED, bot.choose(st, RED))
    assert bot.choose(st, RED) == {"type": "to_drakkar", "drakkar": 5}


def test_greedy_raises_the_market_for_the_goods_it_holds() -> None:
    st = new_game(4)
    st.chests[RED] = [st.piles[0].pop() for _ in range(3)]
    held = max(set(st.chests[RED]), key=st.chests[RED].count)
    go(st, RED, "market")
    assert SPEC.bots["greedy"](3).choose(st, RED) == {"type": "raise", "goods": held}


def test_greedy_sails_the_ship_it_leads() -> None:
    from .helpers import end_turn_with_stern

    st = new_game(4)
    # red leads drakkar 3 (it would get the grain) and trails on 6 (one furs)
    arrange(st, {3: [piece(RED, 5), piece(BLUE, 0)], 6: [piece(GREEN, 5), piece(RED, 0)]})
    set_prow(st, 3, ["grain", "furs"])
    set_prow(st, 6, ["furs", "furs", "metal"])
    set_market(st, grain=2)
    end_turn_with_stern(st, RED)
    assert SPEC.bots["greedy"](4).choose(st, RED) == {"type": "sail", "drakkar": 3}


def test_random_bot_only_plays_legal_moves() -> None:
    for players in (2, 3, 4):
        state, actions = play_game(
            SPEC, default_config("vikings_on_board", players), 3, ["random"] * players
        )
        assert state.is_over() and actions > 50
