"""Generic checks every game engine must pass (the shared API's contract).

Used by ``test_conformance.py`` for every registered game and by each game's property tests.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from longhall.server.games.api import IllegalAction, progress_actions
from longhall.server.games.spec import GameSpec
from longhall.server.store.store import dumps as store_dumps
from longhall.server.table.gamedata import default_config


def new_state(spec: GameSpec, players: int, seed: int) -> Any:
    return spec.new(default_config(spec.name, players), seed)


def step(state: Any, rnd: random.Random) -> tuple[int | None, dict[str, Any]]:
    """Pick a random legal action (of an active seat, or the table's) and return it unapplied."""
    active = state.active_seats()
    if active:
        seat: int | None = rnd.choice(active)
        legal = state.legal_actions(seat)
        assert legal, f"active seat {seat} has no legal action in {getattr(state, 'phase', '?')}"
        moves = progress_actions(legal)
        assert moves, "only undo actions: the game could never finish"
        # now and then take something back, as a hesitant player would
        if len(moves) < len(legal) and rnd.random() < 0.05:
            moves = [a for a in legal if a.get("undo")]
        return seat, rnd.choice(moves)
    table = state.legal_actions(None)
    assert table, "nobody can act and the game is not over"
    return None, table[0]


def play(spec: GameSpec, players: int, seed: int, max_steps: int = 20000) -> tuple[Any, list[Any]]:
    """Play a seeded random game to the end; return the final state and the action log."""
    state = new_state(spec, players, seed)
    rnd = random.Random(seed)
    log: list[Any] = []
    while not state.is_over():
        seat, action = step(state, rnd)
        state.apply(seat, action)
        log.append((seat, action))
        assert len(log) < max_steps, "the game does not end"
    return state, log


def replay(spec: GameSpec, players: int, seed: int, log: list[Any]) -> Any:
    state = new_state(spec, players, seed)
    for seat, action in log:
        state.apply(seat, json.loads(json.dumps(action)))
    return state


def roundtrip(spec: GameSpec, state: Any) -> Any:
    """The state as a store snapshot keeps it: encoded as the store encodes it (keys sorted, so
    keys of two types in one object fail here, not on the server) and read back."""
    return spec.from_dict(json.loads(store_dumps(state.to_dict())))


def assert_no_leak(spec: GameSpec, state: Any, rnd: random.Random) -> None:
    """Every reader's view is unchanged when everything hidden from them is drawn again, and the
    public part is the same for every reader: ``spec.public_view``, which the server computes once
    and hands to every seat's view."""
    public = spec.view(state, None)["public"]
    assert spec.public_view(state) == public
    assert spec.view(state, None)["private"] is None
    for seat in [None, *range(state.players)]:
        seen = spec.view(state, seat)
        assert seen["public"] == public, f"seat {seat} sees a different public part"
        assert spec.view(state, seat, spec.public_view(state)) == seen
        other = spec.resample_hidden(state, seat, rnd)
        assert spec.view(other, seat) == seen, f"seat {seat}'s view depends on a hidden thing"


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
FULL_WIDTH = str.maketrans("0123456789", "".join(chr(0xFF10 + d) for d in range(10)))


def assert_illegal_changes_nothing(spec: GameSpec, state: Any, rnd: random.Random) -> None:
    """Malformed, unknown and out-of-turn actions raise IllegalAction and change nothing."""
    before = state.to_dict()
    active = set(state.active_seats())
    junk: list[tuple[Any, Any]] = [
        (0, None),
        (0, "commit"),
        (0, {}),
        (0, {"type": 7}),
        (0, {"type": "fly"}),
        (99, {"type": "commit"}),
        (-1, {"type": "commit"}),
        ("0", {"type": "commit"}),
        (True, {"type": "commit"}),
    ]
    for seat in range(state.players):
        for action in state.legal_actions(seat):
            junk.append((seat, {**action, "extra": 1}))
            broken = {
                k: ([1] if isinstance(v, str) else "x")
                for k, v in action.items()
                if k not in ("type", "undo")
            }
            if broken:
                junk.append((seat, {"type": action["type"], **broken}))
            # ids that look like a legal one but are not spelled as the board spells them:
            # a leading zero, a superscript or a full-width digit
            for key, value in action.items():
                if isinstance(value, str) and any(c.isdigit() for c in value):
                    for twisted in (
                        re.sub(r"(\d)", r"0\1", value),
                        value.translate(SUPERSCRIPT),
                        value.translate(FULL_WIDTH),
                    ):
                        junk.append((seat, {**action, key: twisted}))
        if seat not in active:
            # an inactive seat borrowing an active seat's move
            for other in active:
                for action in state.legal_actions(other)[:3]:
                    if action not in state.legal_actions(seat):
                        junk.append((seat, action))
    for seat, action in junk:
        with pytest.raises(IllegalAction) as err:
            state.apply(seat, action)
        assert err.value.code and err.value.message
        assert state.to_dict() == before, f"{action!r} from {seat} changed the state"


def greedy_win_share(spec: GameSpec, seeds: int = 8) -> float:
    """One greedy bot against random bots, its seat moving round the table, for every player
    count: the share of games it wins (a shared win counts as a fraction)."""
    from longhall.server.cli.simulate import play_game

    games, wins = 0, 0.0
    for players in range(spec.min_players, spec.max_players + 1):
        config = default_config(spec.name, players)
        for seed in range(seeds):
            kinds = ["random"] * players
            greedy = seed % players
            kinds[greedy] = "greedy"
            state, _ = play_game(spec, config, seed, kinds)
            winners = state.winners()
            wins += 1 / len(winners) if greedy in winners else 0
            games += 1
    print(f"{spec.title}: greedy won {wins:g} of {games} games against random bots")
    return wins / games


def assert_legal_actions_apply(spec: GameSpec, state: Any) -> None:
    """Every listed legal action is accepted."""
    seats: list[int | None] = [*range(state.players), None]
    for seat in seats:
        for action in state.legal_actions(seat):
            clone = state.clone()
            clone.apply(seat, action)
