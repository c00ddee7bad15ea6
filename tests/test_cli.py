"""``longhall simulate``: whole games between bots, readable or as JSON lines."""

from __future__ import annotations

import json
import subprocess
import sys

from server.cli import main


def test_simulate_json_prints_one_object_per_game_and_totals(capsys) -> None:  # type: ignore[no-untyped-def]
    assert (
        main(
            [
                "simulate",
                "--game",
                "eketorp",
                "--players",
                "5",
                "--games",
                "3",
                "--seed",
                "7",
                "--bots",
                "mixed",
                "--json",
            ]
        )
        == 0
    )
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games, totals = lines[:-1], lines[-1]
    assert [g["seed"] for g in games] == [7, 8, 9]
    for g in games:
        assert g["players"] == 5 and len(g["scores"]) == 5
        assert 1 <= g["rounds"] <= 10 and g["actions"] > 0
        assert g["winners"] and all(g["scores"][w] == max(g["scores"]) for w in g["winners"])
        assert g["bots"] == ["greedy", "random", "greedy", "random", "greedy"]
    assert totals["games"] == 3 and totals["seconds"] > 0 and totals["games_per_second"] > 0


def test_simulate_is_deterministic_for_a_seed(capsys) -> None:  # type: ignore[no-untyped-def]
    args = [
        "simulate",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "3",
        "--bots",
        "random",
        "--json",
    ]
    main(args)
    first = capsys.readouterr().out.splitlines()[:-1]
    main(args)
    assert capsys.readouterr().out.splitlines()[:-1] == first


def test_simulate_readable_summary(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--players", "3", "--games", "2", "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "Eketorp: 2 game(s), 3 players" in out and "winner(s)" in out and "games/s" in out


def test_simulate_refuses_a_wrong_player_count(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--players", "8"]) == 2
    assert "3 to 6 players" in capsys.readouterr().out


def test_the_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "server.cli", "simulate", "--games", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out.splitlines()[-1])["games"] == 1
