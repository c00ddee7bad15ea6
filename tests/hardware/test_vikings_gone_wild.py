"""Vikings Gone Wild's buttons and lights on mock pins: NEXT moves to the next phase and from one
player's turn to the next (W2.1, W2.4); the seat lights show whose turn it is, the defender's
blinks during an attack (W5.2); the buzzer sounds when a player reaches a favour space (W8.1) or
the end mark (W9.3). The adapter reads the table display's public view only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from longhall.hardware.signals import COLOURS
from longhall.server.games.cues import Light
from longhall.server.games.vikings_gone_wild.cues import INDICATOR
from tests.inprocess import Client, seated

from .conftest import BUZZER, NEXT, Rig

OFF, ON, SLOW, FAST = Light.OFF, Light.ON, Light.SLOW, Light.FAST
HALL = {"defence": 4, "points": 0, "resource": "none", "favour": False}


def public(rig: Rig) -> dict[str, Any]:
    view: dict[str, Any] = rig.display.last()["game"]["public"]
    return view


def lights(rig: Rig) -> list[Light]:
    return rig.lights()[:3]


def beeps(rig: Rig, start: float, moments: tuple[float, ...]) -> list[bool]:
    """Whether the buzzer sounds at each moment after ``start`` on the adapter's clock."""
    out = []
    for t in moments:
        rig.at(start + t)
        out.append(bool(rig.pins.pin(BUZZER).state))
    return out


def act(rig: Rig, phone: Client, **action: Any) -> None:
    """A phone's step, followed by the adapter (at the clock's time now)."""
    assert phone.act(**action)["ok"], action
    rig.settle()


def test_next_moves_through_the_phases_and_the_turns_with_their_lights(rig: Rig) -> None:
    phones = seated(rig.lh, ["Anna", "Bob", "Cara"])
    anna, bob, cara = phones
    assert anna.send("set_game", game="vikings_gone_wild")["ok"]
    rig.press(NEXT)  # the lobby is ready: NEXT starts the game
    assert public(rig)["phase"] == "table_bonus"
    assert lights(rig) == [FAST, ON, ON]  # Anna, the start player, lays the bonus cards (W1.3)
    rig.press(NEXT)  # NEXT does not lay them
    assert public(rig)["phase"] == "table_bonus"
    assert rig.notices()[-1]["code"] == "next_too_early"  # the table display says for whom
    act(rig, anna, type="first_game_bonus")  # everyone holds their first missions (W1.2)
    assert public(rig)["phase"] == "production"
    assert lights(rig) == [ON, ON, ON]
    assert rig.colour() == (COLOURS[INDICATOR["production"]], ON)  # white: press NEXT
    rig.press(NEXT)
    assert public(rig)["phase"] == "draw"
    rig.press(NEXT)
    assert (public(rig)["phase"], public(rig)["current"]) == ("players", 0)
    assert lights(rig) == [ON, OFF, OFF]  # Anna's turn
    assert rig.colour() == (COLOURS["act"], ON)

    act(rig, anna, type="card_numbers", card="town_hall_1", **HALL)
    act(rig, anna, type="attack", target=1, building=0, attack=9, cards=2)
    assert public(rig)["phase"] == "defend"
    assert lights(rig) == [ON, FAST, OFF]  # Bob defends: his light blinks
    assert rig.colour() == (COLOURS["contest"], ON)
    rig.press(NEXT)  # NEXT never answers for the defender
    assert public(rig)["phase"] == "defend"
    act(rig, bob, type="defend", cards=0, value=0)
    assert lights(rig) == [ON, OFF, OFF]

    rig.press(NEXT)  # NEXT never ends a player's turn: Anna ends it on her phone
    assert public(rig)["current"] == 0
    assert rig.notices()[-1]["params"]["waiting"] == ["Anna"]
    act(rig, anna, type="end_turn")  # Bob's turn begins
    assert public(rig)["current"] == 1
    assert lights(rig) == [OFF, ON, OFF]
    act(rig, bob, type="end_turn")
    assert lights(rig) == [OFF, OFF, ON]
    assert anna.send("pause")["ok"]
    assert lights(rig) == [ON, ON, ON]  # paused: nobody is waited for
    assert rig.colour() == (COLOURS["act"], SLOW)
    assert anna.send("resume")["ok"]
    act(rig, cara, type="end_turn")
    assert public(rig)["phase"] == "storage"
    assert rig.colour() == (COLOURS["build"], ON)
    rig.press(NEXT)
    assert public(rig)["phase"] == "end"
    assert rig.colour() == (COLOURS["close"], ON)
    rig.press(NEXT)  # the first player token passes left (W2.8)
    assert (public(rig)["phase"], public(rig)["turn"], public(rig)["first"]) == ("production", 2, 1)


def test_the_buzzer_sounds_at_the_favour_spaces_and_the_end_mark(
    make_rig: Callable[..., Rig],
) -> None:
    rig = make_rig(rate=1e9, burst=10**9)  # a scripted player taps faster than the rate limit
    phones = seated(rig.lh, ["Anna", "Bob"])
    anna, bob = phones
    assert anna.send("set_game", game="vikings_gone_wild")["ok"]
    rig.press(NEXT)
    act(rig, anna, type="first_game_bonus")
    rig.press(NEXT)
    rig.press(NEXT)
    assert public(rig)["current"] == 0
    silent = (0.05, 0.3, 0.9)
    rig.at(10.0)
    for _ in range(4):  # 4 points: no favour space yet
        act(rig, anna, type="undead_river", resource="gold")
    assert beeps(rig, 10.0, silent) == [False] * 3
    rig.at(20.0)
    act(rig, anna, type="undead_river", resource="gold")  # 5: a favour space (W8.1)
    assert public(rig)["seats"][0]["reached"] == [5]
    assert beeps(rig, 20.0, (0.05, 0.18, 0.3, 0.5)) == [True, False, True, False]  # two beeps
    rig.at(30.0)
    act(rig, anna, type="undead_river", resource="beer")  # 6: nothing
    assert beeps(rig, 30.0, silent) == [False] * 3
    # a point won defending counts too: Bob repels Anna's attack of 2 cards
    act(rig, anna, type="card_numbers", card="town_hall_1", **HALL)
    act(rig, anna, type="attack", target=1, building=0, attack=1, cards=2)
    rig.at(40.0)
    act(rig, bob, type="defend", cards=0, value=0)  # Bob: 2 points, no favour space yet
    assert public(rig)["seats"][1]["score"] == 2
    assert beeps(rig, 40.0, silent) == [False] * 3
    for _ in range(5):  # Anna on to 11
        act(rig, anna, type="undead_river", resource="gold")
    rig.at(50.0)
    act(rig, anna, type="undead_river", resource="gold")  # 12
    assert beeps(rig, 50.0, (0.05, 0.18, 0.3, 0.5)) == [True, False, True, False]
    rig.at(60.0)
    for _ in range(8):  # 20: the third favour space
        act(rig, anna, type="undead_river", resource="gold")
    rig.at(70.0)
    for _ in range(19):  # 39: one short of the end mark of 2 players (W9.1)
        act(rig, anna, type="undead_river", resource="gold")
    assert public(rig)["seats"][0]["score"] == 39
    assert beeps(rig, 70.0, silent) == [False] * 3
    assert not public(rig)["last_turn"]
    rig.at(80.0)
    act(rig, anna, type="undead_river", resource="gold")  # 40: this turn is the last (W9.3)
    assert public(rig)["last_turn"]
    assert beeps(rig, 80.0, (0.05, 0.4, 0.75, 0.9, 1.2)) == [True, True, True, False, False]
