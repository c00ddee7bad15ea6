"""The lights and the buzzer follow a fourth game that exists only in the tests (Tally,
``tests/fourth_game``) from its own declaration: the hardware knows no game by name."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from longhall.hardware.signals import COLOURS
from longhall.server.games.cues import Light
from longhall.server.games.registry import GAMES
from tests.fourth_game import SPEC
from tests.inprocess import seated

from .conftest import BASE, BUZZER, Rig

OFF, ON, SLOW, FAST = Light.OFF, Light.ON, Light.SLOW, Light.FAST


@pytest.fixture
def tally_rig(make_rig: Callable[..., Rig], monkeypatch: pytest.MonkeyPatch) -> Rig:
    monkeypatch.setitem(GAMES, SPEC.name, SPEC)
    return make_rig()


def test_a_fourth_game_lights_whose_turn_it_is_and_beeps_at_its_goal(tally_rig: Rig) -> None:
    rig = tally_rig
    anna, bert = seated(rig.lh, ["Anna", "Bert"])
    assert anna.send("set_game", game="tally")["ok"]
    assert anna.send("start")["ok"]
    rig.settle()
    assert rig.lights()[:3] == [FAST, ON, OFF]  # Anna's turn; no third seat
    assert rig.colour() == (COLOURS["act"], ON)
    phones = [anna, bert]
    while rig.status() == "playing":
        turn = rig.display.last()["game"]["public"]["turn"]
        stone = phones[turn].last()["game"]["legal"][0]
        cue = rig.clock.now  # when the adapter follows this move
        assert phones[turn].act(**stone)["ok"]
        rig.settle()
        if rig.status() == "playing":  # the other's turn now
            assert rig.lights()[:2] == ([FAST, ON] if turn == 1 else [ON, FAST])
    # its one beep (half a second), for the goal reached in front of the table
    rig.at(cue - BASE + 0.1)
    assert rig.pins.pin(BUZZER).state
    rig.at(cue - BASE + 0.6)
    assert not rig.pins.pin(BUZZER).state
    result = rig.table.data.last_result
    assert result is not None
    lights = rig.lights()[:2]
    assert lights[result["winners"][0]] == SLOW and OFF not in lights
    assert rig.colour() == (COLOURS["over"], ON)
