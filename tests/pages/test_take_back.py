"""The host takes back a move from the host sheet, on the pages: a second tap confirms, the move is
undone, and the table display (in Dutch) and every phone say whose move it was and what it did."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import TwoPlayerVikingsGoneWild, tap_until, version, wait_until

pytestmark = pytest.mark.slow

BUILD = "[data-action*=build][data-action*=tavern]:not([disabled])"


def test_the_host_takes_back_a_move_and_every_screen_says_what(
    browser: Any, server: ServerProcess
) -> None:
    game = TwoPlayerVikingsGoneWild(browser, server, table_lang="nl", phone_lang="en")
    table, anna, bob, host = game.table, game.anna, game.bob, game.host
    game.to_annas_turn()
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
    game.close()
