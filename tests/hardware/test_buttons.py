"""NEXT and HOST: a press becomes the table's own command, through the same checks and lock."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from longhall.server.games.api import progress_actions
from longhall.server.games.cues import Light
from longhall.server.table.service import Table
from tests.inprocess import Client, seated

from .conftest import HOST, NEXT, SEATS, Rig, plan_all, play_bots


def test_next_starts_the_game_once_the_lobby_is_ready(rig: Rig) -> None:
    anna, bob = seated(rig.lh, ["Anna", "Bob"])
    rig.press(NEXT)
    assert rig.status() == "lobby"
    (notice,) = rig.notices()
    assert notice["code"] == "next_not_ready"
    assert notice["params"] == {"seated": 2, "min": 3, "max": 6}

    seated(rig.lh, ["Cara"])
    rig.press(NEXT)
    assert rig.status() == "playing"
    assert rig.display.last()["game"]["public"]["phase"] == "planning"


def test_next_reveals_the_plans_when_everyone_has_committed(rig: Rig) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    for phone in (anna, bob, cara):
        plan_all(phone, "A")
    assert rig.display.last()["game"]["public"]["phase"] == "reveal"

    rig.press(NEXT)
    public = rig.display.last()["game"]["public"]
    assert public["revealed"] is not None
    assert all(public["revealed"][str(s)] for s in range(3))
    assert public["phase"] == "pick"
    assert not [n for n in rig.notices() if n["code"] == "next_too_early"]


def test_next_before_everyone_committed_changes_nothing_and_the_display_says_why(
    rig: Rig,
) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    plan_all(anna)
    before = rig.table.snapshot()

    rig.press(NEXT)
    assert rig.table.snapshot() == before
    (notice,) = rig.notices()
    assert notice["code"] == "next_too_early"
    assert notice["params"]["waiting"] == ["Bob", "Cara"]
    assert "Bob, Cara" in notice["message"]


def test_next_during_a_fight_does_not_act_for_the_players(rig: Rig) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    assert anna.send("start")["ok"]
    for phone in (anna, bob, cara):
        plan_all(phone, "A")
    rig.press(NEXT)  # the reveal
    before = rig.table.snapshot()
    rig.press(NEXT)  # nothing for the table to do while a player picks a fight
    assert rig.table.snapshot() == before
    assert rig.notices()[-1]["code"] == "next_too_early"


def test_host_pauses_and_resumes_and_explains_a_press_in_the_lobby(rig: Rig) -> None:
    anna, bob, cara = seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(HOST)
    assert rig.notices()[-1]["code"] == "not_playing"

    assert anna.send("start")["ok"]
    rig.press(HOST)
    assert rig.table.data.paused and rig.display.last()["table"]["paused"]
    assert anna.act(type="place", to="A")["error"]["code"] == "paused"
    rig.press(NEXT)
    assert rig.notices()[-1]["code"] == "paused"
    rig.press(HOST)
    assert not rig.table.data.paused
    assert anna.act(type="place", to="A")["ok"]


def test_a_press_is_handed_over_at_once_and_handled_on_the_worker_thread(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    seated(rig.lh, ["Anna", "Bob", "Cara"])
    handled_on: list[str] = []
    press_next = Table.press_next

    def spy(table: Table, *args: Any, **kwargs: Any) -> dict[str, Any]:
        handled_on.append(threading.current_thread().name)
        return press_next(table, *args, **kwargs)

    monkeypatch.setattr(Table, "press_next", spy)

    # Someone else holds the table (a phone's command, say). If the button's callback touched
    # the table it would wait here; it must only hand the press over and return.
    holding, release = threading.Event(), threading.Event()

    def hold_the_table() -> None:
        with rig.table.lock:
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold_the_table)
    holder.start()
    assert holding.wait(10)
    presser = threading.Thread(
        target=lambda: (rig.pins.pin(NEXT).drive_low(), rig.pins.pin(NEXT).drive_high())
    )
    presser.start()
    presser.join(10)
    callback_returned = not presser.is_alive()
    assert rig.status() == "lobby"  # nothing happened yet: the table is still held
    release.set()
    holder.join(10)
    assert callback_returned, "the button's callback waited for the table"

    rig.settle()
    assert rig.status() == "playing"
    assert handled_on == ["longhall-hardware"]


def test_the_buttons_and_lights_run_on_one_thread_of_their_own(
    make_rig: Callable[..., Rig],
) -> None:
    before = set(threading.enumerate())
    rig = make_rig()
    seated(rig.lh, ["Anna", "Bob", "Cara"])
    rig.press(NEXT)  # blinking seats, a press handled
    rig.at(0.3)
    started = [t.name for t in set(threading.enumerate()) - before]
    assert started == ["longhall-hardware"]
    rig.hw.close()
    assert not rig.hw.worker.is_alive()
    assert [rig.pins.pin(p).state for p in SEATS[:3]] == [False, False, False]  # all off


def test_next_hands_out_a_vikings_on_board_sailing_s_chests(rig: Rig) -> None:
    """V4.2, V4.3: a sailing's reckoning (each colour's shields, the ranking, the bet paid) is
    shown at once; meanwhile every seat LED is steady and the indicator white (the table waits
    for NEXT), from the public view, and one press hands out the chests."""
    (anna,) = seated(rig.lh, ["Anna"])
    assert anna.send("set_game", game="vikings_on_board")["ok"]
    assert anna.send("add_bot", bot="greedy")["ok"]
    assert anna.send("start")["ok"]
    rnd = random.Random(4)
    for _ in range(2000):
        play_bots(rig.table)
        public = rig.display.last()["game"]["public"]
        if public["phase"] == "reckon":
            break
        legal = progress_actions(anna.last()["game"]["legal"])
        assert legal, public["phase"]
        assert anna.act(**rnd.choice(legal))["ok"]
    else:
        raise AssertionError("no drakkar sailed")
    # the whole reckoning is shown at once; one press hands out the chests
    sailing = public["sailing"]
    assert sailing["shown"] == sailing["steps"] and sailing["paid"]
    assert len(sailing["counted"]) == len(sailing["influence"])
    assert rig.lights()[:2] == [Light.ON, Light.ON]
    assert rig.colour() == ((1, 1, 1), Light.ON)
    rig.press(NEXT)
    assert rig.display.last()["game"]["public"]["phase"] != "reckon"
    assert not [n for n in rig.notices() if n["code"] == "next_too_early"]


def test_host_held_and_next_open_the_host_s_seat_to_the_phone_that_enters_its_number(
    rig: Rig,
) -> None:
    """Whoever joined first is the host for good, and may close the lobby: the people at the
    table take it back. NEXT pressed while HOST is held opens the lobby and the host's seat; the
    Pi's own screen alone is sent the number, and the phone that enters it becomes the host; the
    old host is told, and cannot lock the lobby or send anyone away meanwhile; guessing the
    number from afar neither works nor closes the claim. Neither HOST's pause nor its hold (the
    end of the night) acts."""
    grabber, anna, bob = seated(rig.lh, ["Grabber", "Anna", "Bob"])
    assert grabber.send("lock_lobby", locked=True)["ok"]
    kiosk = Client(rig.lh, address="127.0.0.1")  # the Pi's own table display
    rig.pins.pin(HOST).drive_low()
    rig.settle()
    rig.press(NEXT)
    rig.pins.pin(HOST).drive_high()
    rig.settle()
    table = rig.display.last()["table"]
    assert table["locked"] is False and table["host_claim"] is not None
    assert rig.table.data.status == "lobby" and not rig.lh.night.ending
    # the number goes to the Pi's own screen, and nowhere else
    kiosk.pump()
    (claim,) = [m["args"][0] for m in kiosk.messages if m["name"] == "host_claim"]
    number = claim["number"]
    assert len(number) == 6 and number.isdigit()
    for phone in (grabber, anna, bob, rig.display):
        phone.pump()
        assert number not in str(phone.messages)
    # whoever holds the host's seat cannot undo it meanwhile: no lock, no kick
    assert grabber.send("lock_lobby", locked=True)["error"]["code"] == "host_being_chosen"
    assert grabber.send("kick", seat=1)["error"]["code"] == "host_being_chosen"
    # a phone far from the table guesses: three wrong numbers, and none from it counts any more,
    # not even the right one; the claim stays open to the others
    wrong = "000000" if number != "000000" else "111111"
    lefts = [grabber.send("claim_host", number=wrong)["error"]["params"]["left"] for _ in range(4)]
    assert lefts == [2, 1, 0, 0]
    assert grabber.send("claim_host", number=number)["error"]["code"] == "wrong_host_number"
    assert anna.send("claim_host", number=number)["ok"]
    assert rig.table.data.host == 1
    assert rig.display.last()["table"]["host_claim"] is None
    grabber.pump()
    told = [m["args"][0] for m in grabber.messages if m["name"] == "notice"]
    assert [n["params"] for n in told if n["code"] == "host_changed"] == [{"name": "Anna"}]
    # the claim is closed: nobody else takes it
    assert bob.send("claim_host", number=number)["error"]["code"] == "no_host_claim"
    # and a phone cannot open it: only the table's own buttons and screen
    assert grabber.send("reset_host")["error"]["code"] == "table_only"
