"""``longhall simulate --game vikings_on_board``: whole games between bots (V5.1-V5.3)."""

from __future__ import annotations

import json

import pytest

from longhall.server.cli import main


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_json_for_every_player_count(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    argv = ["simulate", "--game", "vikings_on_board", "--players", str(players)]
    argv += ["--games", "3", "--seed", "5", "--bots", "mixed", "--json"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games, totals = lines[:-1], lines[-1]
    assert [g["seed"] for g in games] == [5, 6, 7]
    for g in games:
        assert g["players"] == players and len(g["scores"]) == players
        assert g["rounds"] >= 7 and g["actions"] > 0  # a turn sails at most one drakkar
        assert g["winners"] and all(g["scores"][w] == max(g["scores"]) for w in g["winners"])
        assert set(g["breakdown"][0]) == {"furs", "grain", "metal", "barrels"}
    assert totals["games"] == 3 and totals["games_per_second"] > 0


def test_simulate_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "vikings_on_board", "--players", "3", "--games", "2"]
    argv += ["--bots", "random", "--json"]
    main(argv)
    first = capsys.readouterr().out.splitlines()[:-1]
    main(argv)
    assert capsys.readouterr().out.splitlines()[:-1] == first


def test_simulate_readable_summary_and_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "vikings_on_board", "--players", "2", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "Vikings on Board: 2 game(s), 2 players" in out and "games/s" in out
    assert main(["simulate", "--game", "vikings_on_board", "--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().out
