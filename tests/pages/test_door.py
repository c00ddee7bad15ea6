"""The host closes the table to new players and lets a phone sent away back in, on real pages
in Chromium: the table display and a new phone say the table is closed; a
phone sent away cannot join again until the host lets it."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import Phone, ServerProcess
from .conftest import PHONE, Watched, tap_until, wait_until

pytestmark = pytest.mark.slow


def phone_page(browser: Any, server: ServerProcess, code: str, name: str) -> Watched:
    context = browser.new_context(**PHONE, locale="en")
    page = context.new_page()
    page.goto(f"{server.url}/join/{code}")
    page.wait_for_selector("#name")
    return Watched(page, name)


def joined(watched: Watched, name: str) -> None:
    watched.page.fill("#name", name)
    tap_until(watched.page, "#join", "document.querySelector('#name') === null")


def test_the_host_closes_the_table_and_lets_a_phone_sent_away_back(
    browser: Any, server: ServerProcess
) -> None:
    probe = Phone(server.url).connect()
    code = probe.current["table"]["code"]
    probe.disconnect()
    display_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    display = Watched(display_context.new_page(), "table display")
    display.page.goto(server.url + "/")
    host = phone_page(browser, server, code, "host")
    joined(host, "Anna")
    bram = phone_page(browser, server, code, "Bram")
    joined(bram, "Bram")

    # closed: the table display and a new phone say so; the new phone cannot join
    tap_until(host.page, "#lock", "document.querySelector('#lock').classList.contains('chosen')")
    wait_until(display.page, "document.querySelector('#lobby-locked') !== null")
    assert "closed to new players" in display.page.inner_text("#lobby-locked")
    cara = phone_page(browser, server, code, "Cara")
    wait_until(cara.page, "document.querySelector('#join-locked') !== null")
    assert cara.page.is_disabled("#join")
    assert "Open the table to new players" in host.text()

    # Bram's phone is sent away: joining again, it is told why and kept out
    host.page.get_by_role("button", name="Send away").first.tap()
    wait_until(bram.page, "document.body.innerText.includes('no longer yours')")
    bram.page.get_by_role("button", name="Join the table").tap()
    wait_until(bram.page, "document.body.innerText.includes('Sent away by the host')")

    # the host opens the table and lets Bram's phone back in: it joins again
    wait_until(host.page, "document.querySelector('#barred') !== null")
    assert "Bram" in host.page.inner_text("#barred")
    tap_until(host.page, "#lock", "!document.querySelector('#lock').classList.contains('chosen')")
    host.page.get_by_role("button", name="Let back in").tap()
    wait_until(host.page, "document.querySelector('#barred') === null")
    wait_until(display.page, "document.querySelector('#lobby-locked') === null")
    bram.page.get_by_role("button", name="Join the table").tap()
    bram.page.wait_for_selector("#name")
    joined(bram, "Bram")
    wait_until(display.page, "document.querySelectorAll('ol.seats li').length === 2")
    for page in (host, bram, cara, display):
        assert page.errors == [], (page.name, page.errors)
