"""The people at the table hold the authority, on real pages in Chromium: the Pi's own screen
chooses the host again (after a question), and a phone that holds a seat asks before a claim
link takes it, and keeps its seat if the link's seat is not to be had."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from ..support import Phone, ServerProcess
from .conftest import PHONE, Watched, tap_until, wait_until

pytestmark = pytest.mark.slow

WAIT = 30.0  # seconds before a step is given up (a busy machine's Chromium is slow)


def tap_while_there(page: Any, selector: str, expression: str) -> None:
    """Tap ``selector`` and wait until ``expression`` holds; tap again while the control is
    still there (a redraw under the finger loses a tap), never once it has gone."""
    deadline = time.monotonic() + WAIT
    while True:
        control = page.query_selector(selector)
        if control is not None:
            with contextlib.suppress(PlaywrightError):  # redrawn or gone under the finger
                control.tap(timeout=5000)
        try:
            wait_until(page, expression, timeout=5)
            return
        except TimeoutError:
            if time.monotonic() > deadline:
                raise


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
    tap_while_there(kiosk.page, "#reset-host", "document.querySelector('#reset-confirm') !== null")
    assert "next phone that enters the number" in kiosk.page.inner_text("#reset-confirm")
    tap_while_there(
        kiosk.page, "#reset-host-yes", "document.querySelector('#host-number') !== null"
    )
    number = kiosk.page.inner_text("#host-number").replace(" ", "")
    assert len(number) == 6 and number.isdigit()
    grabber.wait(lambda m: m["table"]["host_claim"] is not None and not m["table"]["locked"])
    assert number not in str(grabber.messages)  # only the Pi's own screen is shown the number

    anna.page.wait_for_selector("#host-claim")
    anna.page.fill("#host-number", f"{number[:3]} {number[3:]}")
    tap_while_there(anna.page, "#claim-host", "document.querySelector('#start') !== null")
    grabber.wait(lambda m: m["table"]["host"] == 1)
    told = [body for event, body in grabber.messages if event == "notice"]
    assert {"code": "host_changed", "params": {"name": "Anna"}}.items() <= told[-1].items()
    wait_until(kiosk.page, "document.querySelector('#host-claim') === null", WAIT)
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
    host.wait(lambda v: len(v["table"]["seats"]) == 3)  # the host's command sees Cara seated
    handover = host.command("handover", seat=2)  # Cara's seat, to a new phone
    assert handover["ok"], handover
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
    gone = "document.querySelector('#claim-prompt') === null"
    tap_while_there(bob.page, "#claim-take", gone)
    wait_until(bob.page, "document.body.innerText.includes('no longer to be had')", WAIT)
    wait_until(bob.page, "document.body.dataset.online === 'true'", WAIT)
    assert bob.page.evaluate(token_of) == bobs_token
    assert bob.page.evaluate("document.querySelector('#claim-prompt') === null")
    # the real link, declined, then taken
    open_link(claim_url)
    tap_while_there(bob.page, "#claim-keep", gone)
    assert bob.page.evaluate(token_of) == bobs_token
    open_link(claim_url)
    tap_while_there(bob.page, "#claim-take", gone)
    wait_until(bob.page, f"{token_of} === {handover['token']!r}", WAIT)
    host.wait(lambda m: m["table"]["seats"][2]["connected"])
    assert bob.errors == []
    host.disconnect()
    cara.disconnect()
