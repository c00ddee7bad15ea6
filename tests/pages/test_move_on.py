"""NEXT waits for a player still deciding, on the pages: during Anna's turn of Vikings Gone Wild
(W2.4) Bob's phone offers no NEXT but says whom it waits for, and the host moves on only after a
second tap on the host sheet, which the table display's log then tells in its own language."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import TwoPlayerVikingsGoneWild, tap_until, wait_until

pytestmark = pytest.mark.slow


def test_next_waits_and_the_host_moves_on_after_confirming(
    browser: Any, server: ServerProcess
) -> None:
    game = TwoPlayerVikingsGoneWild(browser, server, table_lang="nl", phone_lang="en")
    table, bob, host = game.table, game.bob, game.host
    game.to_annas_turn()  # production, then the draw: nobody has a choice there
    wait_until(host, "document.querySelector('[data-action*=end_turn]')")  # Anna's turn
    assert bob.page.query_selector("#vgw-next") is None  # no NEXT past Anna's turn

    host.tap("button[aria-label=Host]")
    wait_until(host, "document.querySelector('#move-on')")
    assert "Anna" in host.inner_text(".sheet")
    tap_until(host, "#move-on", "document.querySelector('#move-on-confirm')")
    assert "Anna" in host.inner_text("#move-on-confirm")
    host.tap("#move-on-confirm")
    wait_until(table.page, "document.body.innerText.includes('De spelleider ging verder')")
    wait_until(bob.page, "document.querySelector('[data-action*=end_turn]')")  # Bob's turn now
    game.close()
