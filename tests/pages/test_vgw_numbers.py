"""Vikings Gone Wild: entering a card's numbers on the phone. The numbers the print gives are
filled in already (a level-1 town hall's defence 4, W0.6); a wrong entry ("-3", "abc", "4.") gets a
sentence, never a tap that does nothing; a field never cuts "150" to "15" (D1)."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import TwoPlayerVikingsGoneWild, wait_until

pytestmark = pytest.mark.slow


def toast(page: Any) -> str:
    wait_until(page, "document.querySelector('.toast-error')")
    text = str(page.inner_text(".toast-error"))
    page.evaluate("document.querySelector('.toast-error').remove()")
    return text


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
        assert "not a whole number" in toast(host), wrong
    host.fill("#vgw-defence", "150")
    assert host.input_value("#vgw-defence") == "150"  # never cut to "15"
    host.tap("#vgw-save-numbers")
    assert "0 to 30" in toast(host)  # the game's own sentence
    game.close()
