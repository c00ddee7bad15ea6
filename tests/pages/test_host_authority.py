"""The people at the table hold the authority, on real pages in Chromium: the Pi's own screen
chooses the host again (after a question), and a phone that holds a seat asks before a claim
link takes it, and keeps its seat if the link's seat is not to be had."""

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
    watched = Watched(page, name)
    page.fill("#name", name)
    tap_until(page, "#join", "document.querySelector('#name') === null")
    return watched


def table_code(server: ServerProcess) -> str:
    probe = Phone(server.url).connect()
    try:
        return str(probe.current["table"]["code"])
    finally:
        probe.disconnect()


def test_the_pi_s_own_screen_chooses_the_host_again(browser: Any, server: ServerProcess) -> None:
    """Whoever joins first is the host, for good, and may close the lobby; a restart keeps them
    host. The Pi's own screen (a touch screen; HOST held with NEXT does the same) asks, then opens
    the lobby and shows a number: the phone at the table that enters it is the host, and the old
    host is told."""
    code = table_code(server)
    grabber = Phone(server.url, {"code": code}, "grabber").connect()  # a phone on the Wi-Fi
    assert grabber.join("Grabber")["ok"]
    anna = phone_page(browser, server, code, "Anna")
    assert grabber.command("lock_lobby", locked=True)["ok"]

    kiosk_context = browser.new_context(  # a touch screen
        viewport={"width": 1280, "height": 720}, locale="en", has_touch=True
    )
    kiosk = Watched(kiosk_context.new_page(), "kiosk")
    kiosk.page.goto(server.url + "/?kiosk=1")  # from 127.0.0.1: the Pi's own screen
    kiosk.page.tap("#reset-host")
    kiosk.page.wait_for_selector("#reset-confirm")
    assert "next phone that enters the number" in kiosk.page.inner_text("#reset-confirm")
    kiosk.page.tap("#reset-host-yes")
    kiosk.page.wait_for_selector("#host-number")
    number = kiosk.page.inner_text("#host-number").replace(" ", "")
    assert len(number) == 6 and number.isdigit()
    grabber.wait(lambda m: m["table"]["host_claim"] is not None and not m["table"]["locked"])
    assert number not in str(grabber.messages)  # only the Pi's own screen is shown the number

    anna.page.wait_for_selector("#host-claim")
    anna.page.fill("#host-number", f"{number[:3]} {number[3:]}")
    tap_until(anna.page, "#claim-host", "document.querySelector('#start') !== null")
    grabber.wait(lambda m: m["table"]["host"] == 1)
    told = [body for event, body in grabber.messages if event == "notice"]
    assert {"code": "host_changed", "params": {"name": "Anna"}}.items() <= told[-1].items()
    wait_until(kiosk.page, "document.querySelector('#host-claim') === null")
    assert kiosk.errors == [] and anna.errors == []
    grabber.disconnect()
    kiosk_context.close()

    server.stop()  # and it is stored: Anna is still the host after a restart
    server.start()
    assert Phone(server.url).connect().current["table"]["host"] == 1


def test_a_claim_link_on_a_seated_phone_asks_before_it_takes_the_seat(
    browser: Any, server: ServerProcess
) -> None:
    """A claim link opened on a phone that holds a seat silently dropped that phone's token,
    and a bogus link left it seatless. It asks first, and keeps its own token until the claim
    succeeds."""
    code = table_code(server)
    host = Phone(server.url, {"code": code}, "host").connect()
    assert host.join("Hilde")["ok"]
    bob = phone_page(browser, server, code, "Bob")
    cara = Phone(server.url, {"code": code}, "cara").connect()
    assert cara.join("Cara")["ok"]
    handover = host.command("handover", seat=2)  # Cara's seat, to a new phone
    claim_url = handover["claim_url"]
    token_of = f"localStorage.getItem('longhall.token.{code}')"
    bobs_token = bob.page.evaluate(token_of)

    def open_link(url: str) -> None:
        bob.page.goto(url)
        bob.page.reload()  # a new page, as a phone's browser opens a link
        bob.page.wait_for_selector("#claim-prompt")
        assert "This phone holds Bob's seat" in bob.page.inner_text("#claim-prompt")
        assert bob.page.evaluate(token_of) == bobs_token  # nothing given up yet

    # a bogus link: Bob's phone keeps Bob's seat
    open_link(f"{server.url}/join/{code}#claim=not-a-seat-token")
    bob.page.tap("#claim-take")
    wait_until(bob.page, "document.body.innerText.includes('no longer to be had')")
    wait_until(bob.page, "document.body.dataset.online === 'true'")
    assert bob.page.evaluate(token_of) == bobs_token
    assert "#claim-prompt" not in bob.page.content()
    # the real link, declined, then taken
    open_link(claim_url)
    bob.page.tap("#claim-keep")
    wait_until(bob.page, "document.querySelector('#claim-prompt') === null")
    assert bob.page.evaluate(token_of) == bobs_token
    open_link(claim_url)
    bob.page.tap("#claim-take")
    wait_until(bob.page, f"{token_of} === {handover['token']!r}")
    host.wait(lambda m: m["table"]["seats"][2]["connected"])
    assert bob.errors == []
    host.disconnect()
    cara.disconnect()
