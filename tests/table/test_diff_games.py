"""The patches' diff on every game's real views: over whole random games, every seat's view and
the public view, patched from one version to the next, rebuild exactly the new JSON. This is the
contract the diff relies on (server/messages.py ``diff``): a place in a view keeps its JSON type
from one version to the next, so Python's == never hides true standing where 1 stood."""

from __future__ import annotations

import json
from typing import Any

import pytest

from longhall.server.games.registry import GAMES
from longhall.server.table.gamedata import default_config
from longhall.server.table.messages import diff
from longhall.server.table.views import freeze

from ..support import apply_patch


def _messages(spec: Any, state: Any, players: int) -> dict[str, Any]:
    public = spec.public_view(state)
    seats = {f"seat{s}": spec.view(state, s, public) for s in range(players)}
    # through JSON, as the pages receive them (tuples become lists)
    return dict(json.loads(json.dumps({"public": public, **seats})))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_patches_rebuild_every_view_of_whole_random_games(game: str) -> None:
    spec = GAMES[game]
    for players in (spec.min_players, spec.max_players):
        state = spec.new(default_config(game, players), 7)
        bots = [spec.bots["random"](100 + s) for s in range(players)]
        before = _messages(spec, state, players)
        steps = 0
        while not state.is_over() and steps < 3000:
            active = state.active_seats()
            if active:
                state.apply(active[0], bots[active[0]].choose(state, active[0]))
            else:  # the table's NEXT
                state.apply(None, state.legal_actions(None)[0])
            steps += 1
            after = _messages(spec, state, players)
            for room, message in after.items():
                ops: list[Any] = []
                diff(before[room], message, [], ops, {})
                rebuilt = apply_patch(before[room], ops)
                assert json.dumps(rebuilt, sort_keys=True) == json.dumps(message, sort_keys=True), (
                    f"{game}, {players} players, step {steps}, {room}"
                )
            before = after
        assert state.is_over(), f"{game} with {players} random bots did not end in 3000 steps"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_frozen_views_are_the_views_as_json_and_stay_so(game: str) -> None:
    """``freeze`` (server/table/views.py) copies each view sharing what did not change with the last
    copy: over a whole random game every copy is the view as JSON has it, and no later action,
    changing the state in place, changes a copy made before it."""
    spec = GAMES[game]
    players = spec.max_players
    state = spec.new(default_config(game, players), 11)
    bots = [spec.bots["random"](200 + s) for s in range(players)]
    last: dict[Any, Any] = {}
    kept: list[tuple[Any, str]] = []  # every copy made, with its JSON when it was made
    steps = 0
    while not state.is_over() and steps < 3000:
        public = freeze(spec.public_view(state), last.get("public"))
        last["public"] = public
        for seat in [None, *range(players)]:
            raw = spec.view(state, seat, public)
            rest = {k: v for k, v in raw.items() if k != "public"}
            frozen = last[seat] = freeze(rest, last.get(seat))
            expected = json.dumps({k: v for k, v in raw.items() if k != "public"}, sort_keys=True)
            assert json.dumps(frozen, sort_keys=True) == expected, f"{game} step {steps} {seat}"
            kept.append((frozen, expected))
        kept.append((public, json.dumps(spec.public_view(state), sort_keys=True)))
        active = state.active_seats()
        if active:
            state.apply(active[0], bots[active[0]].choose(state, active[0]))
        else:
            state.apply(None, state.legal_actions(None)[0])
        steps += 1
        if steps % 50 == 0 or state.is_over():  # the copies made so far are as they were made
            for frozen, expected in kept:
                assert json.dumps(frozen, sort_keys=True) == expected, f"{game} step {steps}"
            kept = kept[-(players + 2) :]
    assert state.is_over()


def test_freeze_copies_as_json_does() -> None:
    raw: dict[str, Any] = {
        "a": [1, [2, 3]],
        "b": {1: "x"},
        "c": {"d": [True, None, 1.5]},
        "t": (1, 2),
    }
    old = freeze(raw)
    assert old == json.loads(json.dumps(raw))
    new: dict[str, Any] = {
        "a": [1, [2, 3]],
        "b": {1: "y"},
        "c": {"d": [True, None, 1.5], "e": "new"},
        "t": (1, 2),
    }
    frozen = freeze(new, old)
    assert frozen == json.loads(json.dumps(new))
    assert frozen["a"] is old["a"]  # unchanged: the earlier copy itself
    assert frozen["c"]["d"] is old["c"]["d"]
    assert frozen["c"] is not old["c"] and frozen["b"] is not old["b"]
    new["c"]["d"].append(7)  # the view changed in place afterwards: the copies did not
    assert frozen["c"]["d"] == [True, None, 1.5] and old["c"]["d"] == [True, None, 1.5]
