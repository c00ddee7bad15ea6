"""Blinks, beeps and cues: pure functions of the clock and of the public view."""

from __future__ import annotations

import copy
from typing import Any

from longhall.hardware.rhythm import Beeper, lit, next_edge
from longhall.hardware.signals import COLOURS, cues, signals
from longhall.server.games.cues import Light
from longhall.server.games.eketorp.cues import INDICATOR
from longhall.server.games.registry import GAMES

REVEAL, FIGHT = (GAMES["eketorp"].cues.rhythms[name] for name in ("reveal", "fight"))

OFF, ON, SLOW, FAST = Light.OFF, Light.ON, Light.SLOW, Light.FAST


def test_blinks_share_one_clock() -> None:
    assert [lit(SLOW, t) for t in (0.0, 0.49, 0.5, 0.99, 1.0)] == [True, True, False, False, True]
    assert [lit(FAST, t) for t in (0.0, 0.1, 0.125, 0.2, 0.25)] == [True, True, False, False, True]
    assert lit(ON, 123.4) and not lit(OFF, 123.4)


def test_the_worker_sleeps_until_the_next_edge_or_for_good() -> None:
    assert next_edge([ON, OFF], 10.3) is None  # nothing blinks: wait for news only
    assert next_edge([SLOW], 10.3) == 10.5
    assert next_edge([SLOW, FAST], 10.3) == 10.375


def test_beeps_queue_up_and_do_not_overlap() -> None:
    beeper = Beeper()
    beeper.cue(REVEAL, 5.0)
    beeper.cue(FIGHT, 5.0)  # after the reveal's three beeps, with a gap
    assert beeper.sounding(5.01) and not beeper.sounding(5.1)
    fight_start = 5.0 + 0.40 + 0.2
    assert not beeper.sounding(fight_start - 0.01) and beeper.sounding(fight_start + 0.01)
    assert beeper.next_edge(fight_start + 0.01) == fight_start + 0.3
    assert not beeper.sounding(fight_start + 0.31) and beeper.next_edge(fight_start + 0.31) is None


def view(status: str = "playing", phase: str = "planning", **public: Any) -> dict[str, Any]:
    seats = [{"vacant": False} for _ in range(3)]
    return {
        "table": {
            "game": "eketorp",
            "status": status,
            "paused": False,
            "seats": seats,
            "game_id": 1,
            "result": None,
        },
        "game": {
            "public": {
                "phase": phase,
                "round": 1,
                "active": [],
                "seats": [{"committed": False} for _ in range(3)],
                "revealed": None,
                "last_fight": None,
                **public,
            }
        },
    }


def test_every_phase_has_its_own_colour() -> None:
    assert len(set(COLOURS.values())) == len(COLOURS)
    assert set(INDICATOR.values()) | {"lobby"} == set(COLOURS)


def test_a_vacant_seat_is_dark_and_an_unknown_phase_still_shows_play() -> None:
    message = view(phase="a_phase_of_another_game")
    message["table"]["seats"][1]["vacant"] = True
    shown = signals(message)
    assert shown.seats == (ON, OFF, ON, OFF, OFF, OFF)
    assert shown.phase == "act"


def test_cues_for_a_reveal_and_for_each_new_fight_result() -> None:
    planning = view()
    revealed = view(phase="pick", revealed={"0": {"A": 1}})
    assert cues(None, revealed) == []  # a first look (a restart) beeps for nothing
    assert cues(planning, revealed) == [REVEAL]
    assert cues(revealed, revealed) == []

    fight = {"kind": "fight", "field": "A", "a": 0, "b": 1, "loot": None}
    fought = view(phase="pick", revealed={"0": {"A": 1}}, last_fight=fight)
    assert cues(revealed, fought) == [FIGHT]
    looted = copy.deepcopy(fought)
    looted["game"]["public"]["last_fight"]["loot"] = {"removed": [], "kept": None}
    assert cues(fought, looted) == []  # the loot belongs to the same fight
    other = copy.deepcopy(fought)
    other["game"]["public"]["last_fight"].update(a=1, b=2)
    assert cues(fought, other) == [FIGHT]

    rematch = copy.deepcopy(revealed)
    rematch["table"]["game_id"] = 2
    assert cues(planning, rematch) == []  # a new game is not a reveal in front of the table
