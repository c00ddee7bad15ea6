"""NEXT waits for a player still deciding, on the pages: during Anna's turn of Vikings Gone Wild
(W2.4) Bob's phone offers no NEXT but says whom it waits for, and the host moves on only after a
second tap on the host sheet, which the table display's log then tells in its own language."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, tap_until, wait_until
from .test_game import open_phone

pytestmark = pytest.mark.slow


def test_next_waits_and_the_host_moves_on_after_confirming(
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
    for _ in range(2):  # production, then the draw: nobody has a choice there
        tap_until(bob.page, "#vgw-next", f"document.body.dataset.version > {phone_version(bob)}")
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
    for watched in (table, anna, bob):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    context.close()
    for phone in (anna, bob):
        phone.page.context.close()


def phone_version(phone: Watched) -> int:
    return int(phone.page.evaluate("document.body.dataset.version"))
