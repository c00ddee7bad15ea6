"""The seat LEDs and the phase indicator follow the table, read from the mock pins."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from longhall.hardware.signals import COLOURS
from longhall.server.games.cues import Light
from longhall.server.games.eketorp.cues import INDICATOR
from tests.inprocess import Client, seated
from tests.support import ROOT

from .conftest import BUZZER, NEXT, RGB, Rig, plan_all, step_bot

OFF, ON, SLOW, FAST = Light.OFF, Light.ON, Light.SLOW, Light.FAST


def first(phone: Client, kind: str) -> dict[str, Any]:
    """The first legal action of a kind for this phone's seat."""
    legal = phone.last()["game"]["legal"]
    return next(a for a in legal if a["type"] == kind)


def test_seat_leds_show_the_seats_in_the_lobby(rig: Rig) -> None:
    assert rig.lights() == [OFF] * 6
    anna, bob = seated(rig.lh, ["Anna", "Bob"])
    assert rig.lights() == [ON, ON, OFF, OFF, OFF, OFF]
    assert anna.send("add_bot", bot="random")["ok"]
    assert rig.lights() == [ON, ON, ON, OFF, OFF, OFF]
    assert anna.send("remove_seat", seat=1)["ok"]
    assert rig.lights() == [ON, ON, OFF, OFF, OFF, OFF]


def test_seat_leds_follow_planning_and_commitment(rig: Rig) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(NEXT)
    assert rig.lights() == [SLOW, SLOW, SLOW, OFF, OFF, OFF]
    plan_all(bob)
    assert rig.lights() == [SLOW, ON, SLOW, OFF, OFF, OFF]
    assert bob.act(type="uncommit")["ok"]
    assert rig.lights() == [SLOW, SLOW, SLOW, OFF, OFF, OFF]
    plan_all(bob)
    plan_all(anna)
    plan_all(cara)
    assert rig.lights() == [ON, ON, ON, OFF, OFF, OFF]  # everyone committed: waiting for NEXT


def test_seat_leds_blink_fast_for_the_seats_a_fight_waits_for(rig: Rig) -> None:
    phones = seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(NEXT)
    for phone in phones:
        plan_all(phone, "A")  # everyone on field A: there will be fights
    rig.press(NEXT)

    public = rig.display.last()["game"]["public"]
    assert public["phase"] == "pick"
    turn = public["turn"]
    expected = [ON, ON, ON, OFF, OFF, OFF]
    expected[turn] = FAST
    assert rig.lights() == expected  # the player who picks the next fight

    fight = first(phones[turn], "fight")
    assert phones[turn].act(**fight)["ok"]
    public = rig.display.last()["game"]["public"]
    while public["phase"] == "swap":
        (swapper,) = public["active"]
        assert rig.lights()[swapper] is FAST
        assert phones[swapper].act(type="keep")["ok"]
        public = rig.display.last()["game"]["public"]

    assert public["phase"] == "choose"
    a, b = public["fight"]["a"], public["fight"]["b"]
    (third,) = {0, 1, 2} - {a, b}
    lights = rig.lights()
    assert (lights[a], lights[b], lights[third]) == (FAST, FAST, ON)  # both choose a card

    assert phones[a].act(**first(phones[a], "play"))["ok"]
    lights = rig.lights()
    assert (lights[a], lights[b], lights[third]) == (ON, FAST, ON)  # a has chosen

    assert phones[b].act(**first(phones[b], "play"))["ok"]
    public = rig.display.last()["game"]["public"]
    assert public["last_fight"] is not None
    assert rig.lights() == [FAST if s in public["active"] else ON for s in range(3)] + [OFF] * 3


def test_the_phase_indicator_shows_lobby_planning_reveal_and_fights(rig: Rig) -> None:
    phones = seated(rig.lh, ["Anna", "Bob", "Cara"])
    assert rig.colour() == (COLOURS["lobby"], ON)
    rig.press(NEXT)
    assert rig.colour() == (COLOURS["act"], ON)
    for phone in phones:
        plan_all(phone, "A")
    assert rig.colour() == (COLOURS["next"], ON)
    rig.press(NEXT)
    assert rig.colour() == (COLOURS["contest"], ON)


def test_a_pause_stops_the_seats_blinking_and_blinks_the_phase(rig: Rig) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(NEXT)
    plan_all(anna)
    assert anna.send("pause")["ok"]
    assert rig.colour() == (COLOURS["act"], SLOW)
    assert rig.lights() == [ON, ON, ON, OFF, OFF, OFF]
    assert anna.send("resume")["ok"]
    assert rig.colour() == (COLOURS["act"], ON)
    assert rig.lights() == [ON, SLOW, SLOW, OFF, OFF, OFF]


def test_a_whole_game_of_bots_played_with_the_next_button(rig: Rig) -> None:
    """Bots play every move; NEXT (the button) starts, reveals and continues each round."""
    (anna,) = seated(rig.lh, ["Anna"])
    for kind in ("greedy", "random", "greedy"):
        assert anna.send("add_bot", bot=kind)["ok"]
    assert anna.send("botify", seat=0, bot="greedy")["ok"]
    anna.sio.disconnect()  # a bot stands in for Anna while her phone is away
    table = rig.table
    rig.press(NEXT)

    waits_for_next = set()
    looked = {"build": 0, "contest": 0}
    for _ in range(20_000):
        message = rig.display.last()
        if message["table"]["status"] == "over":
            break
        public = message["game"]["public"]
        group = INDICATOR[public["phase"]]
        active = set(public["active"])
        if group in looked and looked[group] < 3 and 0 < len(active) < 4:
            looked[group] += 1  # a few looks: each reads the pins at three moments
            assert rig.colour() == (COLOURS[group], ON)
            busy = SLOW if group == "build" else FAST
            expected = [busy if s in active else ON for s in range(4)] + [OFF, OFF]
            assert rig.lights() == expected
        if step_bot(table):
            continue
        # no bot has a move: the table waits for NEXT
        waits_for_next.add(public["phase"])
        assert rig.colour() == (COLOURS[group], ON)
        assert rig.lights() == [ON] * 4 + [OFF] * 2
        rig.press(NEXT)
    else:
        raise AssertionError("the game did not end")

    assert waits_for_next == {"reveal", "round_end"}
    assert looked == {"build": 3, "contest": 3}
    winners = set(rig.display.last()["table"]["result"]["winners"])
    assert winners
    assert rig.colour() == (COLOURS["over"], ON)
    assert rig.lights() == [SLOW if s in winners else ON for s in range(4)] + [OFF] * 2


def test_the_buzzer_beeps_for_the_reveal_and_for_a_fight_result(rig: Rig) -> None:
    phones = seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(NEXT)
    buzzer = rig.pins.pin(BUZZER)
    for phone in phones:
        plan_all(phone, "A")
    assert not buzzer.state
    rig.at(0.0)
    rig.press(NEXT)  # the reveal: three short beeps from now
    beeps = []
    for t in (0.04, 0.12, 0.20, 0.28, 0.36, 0.6):
        rig.at(t)
        beeps.append(bool(buzzer.state))
    assert beeps == [True, False, True, False, True, False]

    rig.at(2.0)
    public = rig.display.last()["game"]["public"]
    turn = public["turn"]
    assert phones[turn].act(**first(phones[turn], "fight"))["ok"]
    while rig.display.last()["game"]["public"]["phase"] == "swap":
        (swapper,) = rig.display.last()["game"]["public"]["active"]
        assert phones[swapper].act(type="keep")["ok"]
    fight = rig.display.last()["game"]["public"]["fight"]
    assert phones[fight["a"]].act(**first(phones[fight["a"]], "play"))["ok"]
    rig.at(2.0)
    assert not buzzer.state  # a card chosen in secret makes no sound
    assert phones[fight["b"]].act(**first(phones[fight["b"]], "play"))["ok"]
    rig.at(2.0)
    assert rig.display.last()["game"]["public"]["last_fight"] is not None
    sound = []
    for t in (2.1, 2.25, 2.35, 2.6):
        rig.at(t)
        sound.append(bool(buzzer.state))
    assert sound == [True, True, False, False]  # one longer beep: the fight's result


def test_a_dimmed_indicator_uses_pwm(make_rig: Callable[..., Rig], tmp_path: Path) -> None:
    pin_map = tmp_path / "pins.toml"
    text = (ROOT / "hardware" / "pins.toml").read_text()
    pin_map.write_text(text.replace("pwm = false", "pwm = true").replace("= 1.0", "= 0.25"))
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        rig = make_rig(factory=factory, gpio_config=pin_map)
        assert rig.table.hardware["status"] == "mock"
        rig.at(0.05)
        assert [rig.pins.pin(p).state for p in RGB] == [0.0, 0.0, 0.25]  # the lobby: blue
        seated(rig.lh, ["Anna", "Bob", "Cara"])
        rig.press(NEXT)
        assert [rig.pins.pin(p).state for p in RGB] == [0.0, 0.25, 0.0]  # planning: green
    finally:
        factory.reset()


def test_pwm_on_pins_without_it_is_reported_not_fatal(
    make_rig: Callable[..., Rig], tmp_path: Path
) -> None:
    pin_map = tmp_path / "pins.toml"
    pin_map.write_text('[phase]\nred = "GPIO22"\ngreen = "GPIO23"\nblue = "GPIO24"\npwm = true\n')
    rig = make_rig(gpio_config=pin_map)  # plain mock pins: no PWM
    hardware = rig.display.last()["table"]["hardware"]
    assert hardware["status"] == "failed" and hardware["code"] == "hardware_failed"
    assert "could not start (PinPWMUnsupported)" in hardware["message"]
    seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.lh.table.press_next()
    assert rig.table.data.status == "playing"


def test_vikings_on_board_lights_the_seat_whose_turn_it_is() -> None:
    """V2.1: one viking moves at a time; its owner's seat LED blinks fast, the others are on; the
    phase indicator is green during the turn, white while a sailing waits for NEXT, red while the
    stern's taker sails and the chests are taken (public view only)."""
    from longhall.hardware.signals import signals
    from longhall.server.games.vikings_on_board import SPEC
    from longhall.server.table.gamedata import default_config

    st = SPEC.new(default_config("vikings_on_board", 3), 4)
    seats = [{"vacant": False} for _ in range(3)]
    table = {
        "game": "vikings_on_board",
        "status": "playing",
        "paused": False,
        "seats": seats,
        "result": None,
    }
    seen = set()
    bots = [SPEC.bots["greedy"](s) for s in range(3)]
    while not st.is_over():
        shown = signals({"table": table, "game": SPEC.view(st, None)})
        active = st.active_seats()
        assert [shown.seats[i] for i in range(3)] == [
            Light.FAST if i in active else Light.ON for i in range(3)
        ]
        group = {"sail": "contest", "share": "contest", "reckon": "next"}
        assert shown.phase == group.get(st.phase, "act")
        seen.add(st.phase)
        if st.phase == "reckon":  # the sailing's steps: everyone waits for NEXT (V4.2, V4.3)
            assert not active and shown.seats[:3] == (Light.ON,) * 3
            st.apply(None, {"type": "next"})
            continue
        seat = active[0]
        st.apply(seat, bots[seat].choose(st, seat))
    assert {"turn", "act", "sail", "reckon"} <= seen
