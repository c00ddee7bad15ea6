"""The host takes back a move from the host sheet, on the pages: a second tap confirms, the move is
undone, and the table display (in Dutch) and every phone say whose move it was and what it did."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, tap_until, wait_until
from .test_game import open_phone

pytestmark = pytest.mark.slow

BUILD = "[data-action*=build][data-action*=tavern]:not([disabled])"


def version(phone: Watched) -> int:
    return int(phone.page.evaluate("document.body.dataset.version"))


def test_the_host_takes_back_a_move_and_every_screen_says_what(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="nl")
    table = Watched(context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    anna, bob = (open_phone(browser, join_url, name, "en") for name in ("Anna", "Bob"))
    host = anna.page
    tap_until(host, "[data-game=vikings_gone_wild]", "document.querySelector('[data-end-mark]')")
    tap_until(host, "#start", "document.body.dataset.status === 'playing'")
    # Anna, the start player, lays the first game's bonus cards (W1.3)
    tap_until(
        host, "[data-action*=first_game_bonus]", "document.body.dataset.phase === 'production'"
    )
    for _ in range(2):  # production, draw: Anna's turn
        tap_until(bob.page, "#vgw-next", f"document.body.dataset.version > {version(bob)}")
    tap_until(host, BUILD, f"document.body.dataset.version > {version(anna)}")  # her Tavern

    host.tap("button[aria-label=Host]")
    tap_until(host, "#take-back", "document.querySelector('#take-back-confirm')")
    host.tap("#take-back-confirm")
    wait_until(table.page, "document.querySelector('#taken-back')")
    assert "laatste zet van ▲ Anna" in table.page.inner_text("#taken-back")
    wait_until(bob.page, "document.querySelector('#taken-back')")
    words = bob.page.inner_text("#taken-back")
    assert "took back ▲ Anna's last move" in words and "Tavern" in words
    # the Tavern is Anna's to build again: nothing of it is left
    host.tap(".sheet .close")  # the sheet stays open for the next take-back: she closes it
    wait_until(host, f"document.querySelector('{BUILD}')")
    tap_until(host, BUILD, f"document.body.dataset.version > {version(anna)}")
    wait_until(table.page, "!document.querySelector('#taken-back')")  # until the next move
    for watched in (table, anna, bob):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    context.close()
    for phone in (anna, bob):
        phone.page.context.close()
