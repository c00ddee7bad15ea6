"""A bot standing in for a player whose phone is open: it plays at once, the
phone says so and offers to take the seat back, and the host sees the same."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import open_phone, wait_until

pytestmark = pytest.mark.slow

SLOW = 120.0  # seconds: only a stuck page or server takes this long


def test_a_stand_in_plays_at_once_and_the_player_takes_the_seat_back(
    browser: Any, server: ServerProcess
) -> None:
    lobby = Phone(server.url).connect()
    code = lobby.current["table"]["code"]
    join_url = lobby.current["table"]["join_url"]
    lobby.disconnect()
    host = Phone(server.url, {"code": code}, name="Anna").connect()
    assert host.join("Anna")["ok"]
    bram = open_phone(browser, join_url, "Bram", "en")
    page = bram.page
    host.wait(lambda v: len(v["table"]["seats"]) == 2)  # the host's next command sees Bram
    assert host.command("add_bot", bot="random")["ok"]
    started = host.command("start")
    assert started["ok"], started
    wait_until(page, "document.body.dataset.phase === 'planning'", timeout=SLOW)
    assert page.query_selector("#take-seat-back") is None

    assert host.command("botify", seat=1, bot="greedy")["ok"]
    # the phone is open, yet the bot plans and commits for Bram at once
    host.wait(lambda v: v["game"]["public"]["seats"][1]["committed"], timeout=SLOW)
    wait_until(page, "document.querySelector('#take-seat-back') !== null", timeout=SLOW)
    assert "A bot plays for you for now" in page.inner_text(".standin")
    assert host.current["table"]["seats"][1]["bot"] == "greedy"
    # while the bot plays, the phone offers no move of its own
    assert page.query_selector_all("[data-action]:not([disabled])") == []

    page.tap("#take-seat-back")
    host.wait(lambda v: v["table"]["seats"][1]["bot"] is None, timeout=SLOW)
    wait_until(page, "document.querySelector('#take-seat-back') === null", timeout=SLOW)
    # Bram plays again: he may take his committed plan back
    wait_until(page, "document.querySelector('[data-action]:not([disabled])') !== null", SLOW)
    assert bram.errors == []
    host.disconnect()
