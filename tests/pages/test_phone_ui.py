"""Small things a player would notice on the phone page."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import PHONE, Watched, wait_until
from .test_game import open_phone

pytestmark = pytest.mark.slow


def test_typing_a_name_survives_other_players_sitting_down(
    browser: Any, server: ServerProcess
) -> None:
    table = Watched(browser.new_context().new_page(), "table")
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#join-url")
    url = table.page.inner_text("#join-url")
    typist = Watched(browser.new_context(**PHONE, locale="en").new_page(), "typist")
    typist.page.goto(url)
    typist.page.wait_for_selector("#name")
    typist.page.tap("#name")
    typist.page.keyboard.type("Fri")
    seen = typist.page.evaluate("document.body.dataset.version")
    open_phone(browser, url, "Bram", "en")  # an update reaches the typist
    wait_until(typist.page, f"document.body.dataset.version !== '{seen}'")
    assert typist.page.evaluate("document.activeElement.id") == "name"
    typist.page.keyboard.type("da")
    assert typist.page.input_value("#name") == "Frida"
    typist.page.tap("#join")
    wait_until(typist.page, "document.querySelectorAll('.seat-row').length === 2")
    assert "Frida" in typist.text()
    assert typist.errors == [] and table.errors == []


def test_the_help_and_the_hand_are_always_at_hand(browser: Any, server: ServerProcess) -> None:
    table = browser.new_context().new_page()
    table.goto(server.url + "/")
    table.wait_for_selector("#join-url")
    url = table.inner_text("#join-url")
    anna = open_phone(browser, url, "Anna", "en")
    for bot in ("greedy", "random"):
        anna.page.tap(f"[data-bot={bot}]")
        wait_until(anna.page, f"document.querySelectorAll('[data-bot={bot}]').length > 0")
    wait_until(anna.page, "document.querySelectorAll('.seat-row').length === 3")
    anna.page.tap("#start")
    wait_until(anna.page, "document.body.dataset.phase === 'planning'")
    anna.page.tap("button[aria-label='Rules help']")
    assert "Place every viking" in anna.page.inner_text(".sheet")
    anna.page.tap(".sheet .close")
    anna.page.tap(".athand-hand")
    sheet = anna.page.inner_text(".sheet")
    assert "My castle" in sheet and "Amulets: 5" in sheet
    assert anna.errors == []
