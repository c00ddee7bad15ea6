"""Vikings Gone Wild: entering a card's numbers on the phone. The numbers the print gives are
filled in already (a level-1 town hall's defence 4, W0.6); a wrong entry ("-3", "abc", "4.") gets a
sentence, never a tap that does nothing; a field never cuts "150" to "15" (D1)."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import Watched, tap_until, wait_until
from .test_game import open_phone

pytestmark = pytest.mark.slow


def version(phone: Watched) -> int:
    return int(phone.page.evaluate("document.body.dataset.version"))


def toast(page: Any) -> str:
    wait_until(page, "document.querySelector('.toast-error')")
    text = str(page.inner_text(".toast-error"))
    page.evaluate("document.querySelector('.toast-error').remove()")
    return text


def test_printed_numbers_are_filled_in_and_wrong_ones_are_said(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    table = Watched(context.new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    join_url = table.page.inner_text("#join-url")
    anna, bob = (open_phone(browser, join_url, name, "en") for name in ("Anna", "Bob"))
    host = anna.page
    tap_until(host, "[data-game=vikings_gone_wild]", "document.querySelector('[data-end-mark]')")
    tap_until(host, "#start", "document.body.dataset.status === 'playing'")
    tap_until(
        host, "[data-action*=first_game_bonus]", "document.body.dataset.phase === 'production'"
    )
    for _ in range(2):
        tap_until(bob.page, "#vgw-next", f"document.body.dataset.version > {version(bob)}")
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
    for watched in (table, anna, bob):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    context.close()
    for phone in (anna, bob):
        phone.page.context.close()
