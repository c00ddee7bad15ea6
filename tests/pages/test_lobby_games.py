"""The lobby's game choice through the pages: the host's phone chooses the game, the seats and
bots follow it, the table display shows it with its player count and playing time."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, open_phone, screenshot, tap_until, wait_until

pytestmark = pytest.mark.slow

SEATS = "document.querySelectorAll('.seat-row').length"


def test_the_host_chooses_vikings_on_board_and_the_lobby_follows(
    browser: Any, server: ServerProcess
) -> None:
    table_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(table_context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    facts = table.page.inner_text(".game-facts")
    assert "Eketorp" in facts and "3\u20136 players" in facts and "60 minutes" in facts

    phone = open_phone(browser, join_url, "Anna", "en")
    host = phone.page
    for n in range(2, 6):
        tap_until(host, "[data-bot=greedy]", f"{SEATS} === {n}")
    # five seats: Vikings on Board (2-4) cannot be chosen, and the phone says why
    vikings = "[data-game=vikings_on_board]"
    assert host.is_disabled(vikings)
    why = host.inner_text(".game-option .why")
    assert "Vikings on Board" in why and "4" in why and "5" in why
    assert host.is_visible("text=Our printed cards")  # Eketorp's material cards

    tap_until(host, ".seat-row:last-child .danger", f"{SEATS} === 4")
    wait_until(host, f"!document.querySelector('{vikings}').disabled")
    tap_until(host, vikings, "document.querySelector('[data-game=vikings_on_board].chosen')")
    # the table is full for this game: no more bots; its lobby has no material cards
    assert host.is_disabled("[data-bot=greedy]") and host.is_disabled("[data-bot=random]")
    assert not host.is_visible("text=Our printed cards")
    assert not host.is_disabled("#start")
    wait_until(
        table.page, "document.querySelector('.game-facts').dataset.game === 'vikings_on_board'"
    )
    facts = table.page.inner_text(".game-facts")
    assert "Vikings on Board" in facts and "2\u20134 players" in facts
    assert "30\u201360 minutes" in facts
    assert "Vikings on Board" in table.page.inner_text("h1")
    screenshot(host, "phone-lobby-vikings-on-board")
    screenshot(table.page, "table-lobby-vikings-on-board")

    # and back to Eketorp, with the same seats
    tap_until(host, "[data-game=eketorp]", "document.querySelector('[data-game=eketorp].chosen')")
    wait_until(table.page, "document.querySelector('.game-facts').dataset.game === 'eketorp'")
    assert phone.errors == [] and table.errors == []
    table_context.close()
    host.context.close()
