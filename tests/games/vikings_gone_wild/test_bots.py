"""The bots and ``longhall simulate --game vikings_gone_wild``: whole games to the bonus split."""

from __future__ import annotations

import json

import pytest

from longhall.server.cli import main
from longhall.server.cli.simulate import play_game
from longhall.server.games.vikings_gone_wild import SPEC
from longhall.server.games.vikings_gone_wild.bots import GreedyBot
from longhall.server.table.gamedata import default_config

from ..conformance import greedy_win_share
from .helpers import MARIE, VINCENT, give, to_players


def test_greedy_beats_random_in_most_games() -> None:
    assert greedy_win_share(SPEC) > 0.75


@pytest.mark.parametrize("kinds", [["random"] * 4, ["greedy"] * 3, ["greedy", "random"]])
def test_bots_play_whole_games_to_the_bonus_split(kinds: list[str]) -> None:
    # W9.3-W9.7
    config = default_config(SPEC.name, len(kinds))
    state, actions = play_game(SPEC, config, 7, kinds)
    assert state.is_over() and actions > 0
    assert state.last_turn and max(state.score) >= config.get("end_mark", 30)
    assert any(e["e"] == "bonus_split" for e in state.log)
    assert not SPEC.check_invariants(state)


def test_greedy_attacks_the_weakest_building_with_its_best_attack() -> None:
    # W4.6
    st = to_players(3)
    (factory,) = give(st, MARIE, "gold_factory")
    st.missions[VINCENT] = []
    st.done[VINCENT] = [{"name": "", "points": 1}, {"name": "", "points": 1}]
    st.villages[VINCENT][0]["level"] = 3
    bot = SPEC.bots["greedy"](1)
    assert isinstance(bot, GreedyBot)
    bot.built = True
    bot.turn = (st.round, VINCENT)
    pick = bot.choose(st, VINCENT)
    assert pick == {"type": "attack", "target": MARIE, "building": factory, "attack": 5, "cards": 1}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_json_for_every_player_count(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    argv = ["simulate", "--game", "vikings_gone_wild", "--players", str(players)]
    argv += ["--games", "2", "--seed", "5", "--bots", "mixed", "--json"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games, totals = lines[:-1], lines[-1]
    assert [g["seed"] for g in games] == [5, 6]
    for g in games:
        assert g["players"] == players and len(g["scores"]) == players
        assert g["winners"] and all(g["scores"][w] == max(g["scores"]) for w in g["winners"])
    assert totals["games"] == 2


def test_simulate_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "vikings_gone_wild", "--players", "3", "--games", "2"]
    argv += ["--bots", "random", "--json"]
    main(argv)
    first = capsys.readouterr().out.splitlines()[:-1]
    main(argv)
    assert capsys.readouterr().out.splitlines()[:-1] == first
    assert main(["simulate", "--game", "vikings_gone_wild", "--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().out
