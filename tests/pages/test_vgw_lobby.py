"""Vikings Gone Wild's lobby on the pages: the host chooses the printed end mark (W9.2, D19) and
keeps the card numbers a group entered (D1), editing and clearing them; the table display's lobby
and score track show the end mark; the host's sheet shows the numbers kept during a game."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ServerProcess
from .conftest import open_phone, screenshot, tap_until, wait_until

pytestmark = pytest.mark.slow


def test_the_host_chooses_the_end_mark_and_keeps_the_card_numbers(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en")
    table = context.new_page()
    modules: list[str] = []  # the game page modules the table display loaded
    table.on("request", lambda r: modules.append(r.url) if "/games/" in r.url else None)
    table.goto(server.url + "/")
    table.wait_for_selector("#join-url")
    join_url = table.inner_text("#join-url")
    anna = open_phone(browser, join_url, "Anna", "en", small=True)
    bram = open_phone(browser, join_url, "Bram", "nl")
    cara = open_phone(browser, join_url, "Cara", "de")
    host = anna.page
    # Eketorp's deck choice is not shown on the table display: its lobby loads no game's module
    wait_until(table, "document.querySelectorAll('.seats li').length === 3")
    assert modules == []
    tap_until(host, "[data-game=vikings_gone_wild]", "document.querySelector('[data-end-mark]')")
    wait_until(table, "document.querySelector('.vgw-lobby-facts')")
    assert {m.rsplit("/", 1)[1] for m in modules} >= {"vikings_gone_wild.js"}
    # 3 players: the print's end mark is 30, the variants 40 and 50 (W9.1, W9.2)
    assert table.get_attribute(".vgw-lobby-facts", "data-end-mark") == "30"
    marks = host.eval_on_selector_all("[data-end-mark]", "es => es.map((e) => e.dataset.endMark)")
    assert marks == ["0", "40", "50"]
    assert "30" in host.inner_text("[data-end-mark='0']")
    tap_until(
        host, "[data-end-mark='50']", "document.querySelector('[data-end-mark=\"50\"].chosen')"
    )
    wait_until(table, "document.querySelector('.vgw-lobby-facts[data-end-mark=\"50\"]')")
    assert "50" in table.inner_text(".vgw-lobby-facts") and "variant" in table.inner_text(
        ".vgw-lobby-facts"
    )
    assert "no card numbers" in table.inner_text(".vgw-lobby-facts")

    # the card numbers kept at this table: none yet, never guessed (D1)
    host.click(".vgw-kept summary")
    rows = host.eval_on_selector_all("[data-kept]", "es => es.map((e) => e.dataset.kept)")
    assert len(rows) == 9 and "town_hall_1" in rows
    assert "not entered" in host.inner_text("[data-kept=brewery]")
    host.tap("[data-kept-edit=brewery]")
    host.fill("#vgw-kept-defence", "2")
    host.fill("#vgw-kept-reward-points", "1")
    host.tap("[data-kept=brewery] [data-resource=beer]")
    tap_until(host, "#vgw-kept-save-numbers", "document.querySelector('[data-kept-clear=brewery]')")
    assert "defence 2" in host.inner_text("[data-kept=brewery]")
    wait_until(table, "document.querySelector('.vgw-lobby-facts').textContent.includes('1 card')")
    host.tap("[data-kept-edit=town_hall_1]")
    host.fill("#vgw-kept-defence", "4")
    tap_until(
        host, "#vgw-kept-save-numbers", "document.querySelector('[data-kept-clear=town_hall_1]')"
    )
    tap_until(
        host, "[data-kept-clear=brewery]", "!document.querySelector('[data-kept-clear=brewery]')"
    )
    assert "not entered" in host.inner_text("[data-kept=brewery]")
    wait_until(table, "document.querySelector('.vgw-lobby-facts').textContent.includes('1 card')")
    screenshot(host, "vgw-host-lobby")
    screenshot(table, "vgw-table-lobby")
    for phone in (anna, bram, cara):
        width = phone.page.viewport_size["width"]
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= width

    host.tap("#start")
    wait_until(table, "document.querySelector('.vgw-track')", timeout=15)
    # the score track runs to the chosen end mark, and says so
    assert table.get_attribute("[data-end-mark]", "data-end-mark") == "50"
    assert table.eval_on_selector_all(".vgw-space", "es => es.length") == 51
    assert "50" in table.inner_text("[data-end-mark]")
    # the host's sheet during the game: the numbers kept, for the next games
    wait_until(host, "document.body.dataset.status === 'playing'")
    host.tap("button[aria-label=Host]")
    wait_until(host, "document.querySelector('.sheet .vgw-kept')")
    # the list stays open as the host left it in the lobby
    assert host.evaluate("document.querySelector('.sheet .vgw-kept').open")
    assert "defence 4" in host.inner_text("[data-kept=town_hall_1]")
    assert "next game" in host.inner_text(".vgw-kept")
    screenshot(host, "vgw-host-sheet")
    for watched in (anna, bram, cara):
        assert watched.errors == [], f"{watched.name}: {watched.errors}"
    context.close()
    for phone in (anna, bram, cara):
        phone.page.context.close()
