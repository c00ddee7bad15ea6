"""The patches' diff on every game's real views: over whole random games, every seat's view and
the public view, patched from one version to the next, rebuild exactly the new JSON. This is the
contract the diff relies on (server/messages.py ``diff``): a place in a view keeps its JSON type
from one version to the next, so Python's == never hides true standing where 1 stood."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.gamedata import default_config
from server.games.registry import GAMES
from server.messages import diff

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
