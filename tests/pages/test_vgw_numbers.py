"""Vikings Gone Wild: entering a card's numbers on the phone. The numbers the print gives are
filled in already (a level-1 town hall's defence 4, W0.6); a wrong entry ("-3", "abc", "4.") gets a
sentence, never a tap that does nothing; a field never cuts "150" to "15" (D1)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import TwoPlayerVikingsGoneWild, wait_until

pytestmark = pytest.mark.slow

ERROR = "(document.querySelector('.toast-error') || {}).textContent || ''"


def says(page: Any, words: str) -> None:
    """Wait until the phone's error says ``words``. (An error stays on the phone for seconds and
    comes back with every redraw until then, so what it said before is no proof of a new one.)"""
    wait_until(page, f"({ERROR}).includes({json.dumps(words)})")


def test_printed_numbers_are_filled_in_and_wrong_ones_are_said(
    browser: Any, server: ServerProcess
) -> None:
    game = TwoPlayerVikingsGoneWild(browser, server, table_lang="en", phone_lang="en")
    host = game.host
    game.to_annas_turn()
    wait_until(host, "document.querySelector('[data-target]')")
    host.tap("[data-target='1']")
    host.tap("[data-building='0']")  # Bob's town hall, level 1: the print gives its defence
    wait_until(host, "document.querySelector('#vgw-defence')")
    assert host.input_value("#vgw-defence") == "4"
    for wrong in ("-3", "abc", "4."):
        host.fill("#vgw-defence", wrong)
        host.tap("#vgw-save-numbers")
        says(host, f"“{wrong}” is not a whole number")
    host.fill("#vgw-defence", "150")
    assert host.input_value("#vgw-defence") == "150"  # never cut to "15"
    host.tap("#vgw-save-numbers")
    says(host, "0 to 30")  # the game's own sentence
    # put right, the numbers are saved and the error of the try before goes with it at once
    host.fill("#vgw-defence", "5")
    host.tap("#vgw-save-numbers")
    # gone as the save leaves, before its answer (drawn once the finger has lifted)
    assert host.evaluate("async () => (await import('/phone/page.js')).ui.toast") is None
    wait_until(host, "document.querySelector('#vgw-attack-value')")
    assert host.evaluate(ERROR) == ""
    game.close()
