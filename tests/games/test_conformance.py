"""The shared engine API's contract, run against every game Longhall hosts."""

from __future__ import annotations

import ast
import json
import pathlib
import random

import pytest

from longhall.server.games.registry import GAMES
from longhall.server.games.spec import GameSpec

from .conformance import (
    assert_illegal_changes_nothing,
    assert_legal_actions_apply,
    assert_no_leak,
    new_state,
    play,
    replay,
    roundtrip,
    step,
)

CASES = [
    (spec, n) for spec in GAMES.values() for n in range(spec.min_players, spec.max_players + 1)
]
IDS = [f"{spec.name}-{n}p" for spec, n in CASES]


@pytest.mark.parametrize(("spec", "players"), CASES, ids=IDS)
def test_random_games_end_and_replay_identically(spec: GameSpec, players: int) -> None:
    for seed in (1, 2):
        final, log = play(spec, players, seed)
        assert final.is_over()
        assert len(final.scores()) == players
        assert final.winners()
        again = replay(spec, players, seed, log)
        assert again.to_dict() == final.to_dict()


@pytest.mark.parametrize(("spec", "players"), CASES, ids=IDS)
def test_every_step_keeps_the_contract(spec: GameSpec, players: int) -> None:
    """Invariants, JSON round-trip, views without leaks, illegal input rejected, legal accepted."""
    seed = 100 + players
    state = new_state(spec, players, seed)
    rnd = random.Random(seed)
    steps = 0
    while not state.is_over():
        problems = spec.check_invariants(state)
        assert not problems, problems
        if steps % 11 == 0:
            copy = roundtrip(spec, state)
            assert copy.to_dict() == state.to_dict()
            assert_no_leak(spec, state, rnd)
        if steps % 37 == 0:
            assert_illegal_changes_nothing(spec, state, rnd)
            assert_legal_actions_apply(spec, state)
        seat, action = step(state, rnd)
        state.apply(seat, action)
        steps += 1
    assert not spec.check_invariants(state)
    assert_no_leak(spec, state, rnd)


@pytest.mark.parametrize("spec", GAMES.values(), ids=list(GAMES))
def test_a_restored_state_plays_on_exactly_like_the_original(spec: GameSpec) -> None:
    players = spec.min_players
    original = new_state(spec, players, 9)
    rnd = random.Random(9)
    for _ in range(150):
        if original.is_over():
            break
        seat, action = step(original, rnd)
        original.apply(seat, action)
    restored = roundtrip(spec, original)
    for _ in range(300):
        if original.is_over():
            break
        seat, action = step(original, random.Random(len(json.dumps(action))))
        original.apply(seat, action)
        restored.apply(seat, action)
        assert restored.to_dict() == original.to_dict()


FORBIDDEN = {
    "flask",
    "flask_socketio",
    "socketio",
    "engineio",
    "gpiozero",
    "sqlite3",
    "time",
    "datetime",
    "os",
    "sys",
    "subprocess",
    "socket",
    "threading",
    "pathlib",
    "io",
    "importlib",
    "builtins",
    "shutil",
    "signal",
}


def test_game_engines_are_pure() -> None:
    """No web, GPIO, database, clock or OS imports anywhere under server/games/."""
    root = pathlib.Path(__file__).resolve().parents[2] / "server" / "games"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.relative_to(root)}: {name}")
            called = (
                node.func.id
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                else None
            )
            if called in {"open", "__import__", "eval", "exec"}:
                offenders.append(f"{path.relative_to(root)}: calls {called}")
    assert not offenders, offenders
