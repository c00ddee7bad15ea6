"""Every action of every game takes only the fields it declares, each of its
type and size, and ``undo`` only as the mark ``legal_actions`` gives; anything else is refused
with a code and a sentence and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from longhall.server.games.api import IllegalAction
from longhall.server.games.phased import PhasedState
from longhall.server.games.registry import GAMES
from longhall.server.games.shapes import Field
from longhall.server.table.gamedata import default_config

from ..support import ROOT

GAME_NAMES = ("eketorp", "vikings_on_board", "vikings_gone_wild")
CATALOGS = {
    lang: json.loads((ROOT / "server/static/i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("en", "nl", "fr", "de")
}


def playing(game: str, moves: int) -> Any:
    """A game a few moves in (the first legal move each time), with actions to offer."""
    spec = GAMES[game]
    state = spec.new(default_config(game, spec.min_players + 1), 7)
    for _ in range(moves):
        seat = next(iter(state.active_seats()), None)
        actions = state.legal_actions(seat)
        if not actions:
            break
        state.apply(seat, actions[0])
    return state


def offered(state: Any) -> list[tuple[int | None, dict[str, Any]]]:
    """Every action some seat (or the table) may send now."""
    seats: list[int | None] = [*range(state.players), None]
    return [(seat, action) for seat in seats for action in state.legal_actions(seat)]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_action_a_game_handles_is_declared_with_sizes(game: str) -> None:
    state = GAMES[game].new(default_config(game, GAMES[game].min_players), 1)
    assert isinstance(state, PhasedState)
    state_class = type(state)
    shapes = state_class.ACTION_SHAPES
    handled = {
        kind
        for phase in state_class.PHASES.values()
        for kind in (*phase.handlers, *phase.table_handlers)
    } | set(state_class.HOST_ACTIONS)
    assert handled == set(shapes)
    assert set(state_class.HOST_ACTIONS) == GAMES[game].host_actions  # the spec declares them
    for kind, fields in shapes.items():
        for name, field in fields.items():
            assert isinstance(field, Field), (kind, name)
            assert 0 < field.most <= 10_000, (kind, name)


def refused(state: Any, seat: int | None, action: Any) -> IllegalAction:
    before = state.to_dict()
    with pytest.raises(IllegalAction) as err:
        state.apply(seat, action)
    assert state.to_dict() == before
    return err.value


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("moves", [0, 5, 30])
def test_padding_extra_fields_and_oversized_values_are_refused(game: str, moves: int) -> None:
    state = playing(game, moves)
    actions = offered(state)
    assert actions
    for seat, action in actions:
        for undo in ("x" * 500, 1, False, {"a": 1}, None):
            assert refused(state, seat, {**action, "undo": undo}).code == "malformed"
        assert refused(state, seat, {**action, "padding": "x"}).code == "malformed"
        for key, value in action.items():
            if key in ("type", "undo"):
                continue
            if isinstance(value, str):
                big: Any = value + "x" * 200
            elif isinstance(value, bool):
                continue
            elif isinstance(value, int):
                big = 10**40
            else:
                big = [value[0] if value else 0] * 500
            err = refused(state, seat, {**action, key: big})
            assert err.code == "field_too_large", (action, key, err.message)
            assert err.params["field"] == key and err.params["most"] > 0
    # what was offered is still taken as it is, undo mark and all
    seat, action = actions[0]
    state.apply(seat, action)


def test_the_refusals_have_a_sentence_in_every_language() -> None:
    for lang, catalog in CATALOGS.items():
        for code in ("field_too_large", "malformed", "too_large"):
            assert catalog["errors"][code], (lang, code)
        assert "{field}" in catalog["errors"]["field_too_large"]
        assert "{most}" in catalog["errors"]["field_too_large"]
